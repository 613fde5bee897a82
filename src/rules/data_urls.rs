//! Code handed over as a `data:` URL where a program loads a file of code: `node
//! --import 'data:text/javascript,…'`, `--loader data:…`, `php -d
//! auto_prepend_file=data://text/plain;base64,…`. The URL is the code itself,
//! so the value names no file a path rule could judge: it is inline code, as
//! `node -e` is (BG205).

use crate::catalogue::{self, Entry, Role};
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::Checker;
use crate::rules::inline_script::INLINE_SCRIPT;

/// Reports each value the catalogue gives a code-loading role (`path-exec`,
/// directly or as a settings key's value: `-d KEY=VALUE`) that is a `data:` URL.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd).filter(|e| e.mentions(&[Role::PathExec])) else {
        return;
    };
    let args = cmd.args();
    for arg in cx.args(cmd).iter() {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let Some(value) = word.value().and_then(|v| v.get(arg.offset..)) else {
            continue;
        };
        // The URL first: a key's role is a match against every pattern of the
        // entry (`git -c KEY=VALUE` has dozens), and most values are no URL.
        let code = match arg.role {
            Role::PathExec => is_data_url(value),
            // The key and value as the programs read them (`KEY=VALUE`, `KEY =
            // VALUE`: PHP's ini syntax takes the blanks).
            Role::Config => catalogue::setting(value).is_some_and(|(key, v)| {
                is_data_url(v) && entry.config_key_role(key) == Some(Role::PathExec)
            }),
            _ => false,
        };
        if code {
            report(cx, entry, word);
        }
    }
}

fn report(cx: &mut Checker, entry: &Entry, word: &Word) {
    cx.report(
        &INLINE_SCRIPT,
        word.span,
        format!(
            "`{}` loads code given inline as a `data:` URL: code the gate cannot analyse",
            entry.name
        ),
    );
}

/// True for a `data:` URL (`data:text/javascript,…`, PHP's `data://…`), in any case.
fn is_data_url(value: &str) -> bool {
    value
        .get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("data:"))
}

#[cfg(test)]
mod tests {
    use super::is_data_url;

    #[test]
    fn data_urls_are_told_from_files_and_other_urls() {
        assert!(is_data_url("data:text/javascript,console.log(1)"));
        assert!(is_data_url("DATA://text/plain;base64,PD9w"));
        assert!(!is_data_url("./data/setup.mjs"));
        assert!(!is_data_url("data.js"));
        assert!(!is_data_url("https://example.com/data:x"));
    }
}
