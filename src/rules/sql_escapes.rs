//! SQL clients that run shell text from their SQL: `psql -c '\! CMD'` and `mysql -e
//! '\! CMD'` or `system CMD` (the clients' shell escapes), `sqlite3 DB '.shell CMD'`
//! and `.system CMD` (dot-commands). The text is a shell command the gate cannot
//! parse out of the SQL, so it is inline code it cannot analyse (BG205).

use crate::catalogue::Role;
use crate::model::command::SimpleCommand;
use crate::rules::Checker;
use crate::rules::inline_script::INLINE_SCRIPT;

/// Reports each `code:sql` argument that holds a client shell escape.
///
/// ## Example
/// - `psql -c '\! id'` → ask
/// - `sqlite3 app.db '.shell id'` → ask
/// - `psql -c 'select 1'` → allow
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if !entry.mentions(&[Role::Code("sql")]) {
        return;
    }
    let args = cmd.args();
    for &arg in cx.args(cmd).iter() {
        if arg.role != Role::Code("sql") {
            continue;
        }
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let Some(sql) = word.value().and_then(|v| v.get(arg.offset..)) else {
            continue;
        };
        if let Some(escape) = shell_escape(sql) {
            cx.report(
                &INLINE_SCRIPT,
                word.span,
                format!(
                    "`{}` runs shell text through `{escape}` in its SQL, which the gate cannot analyse",
                    entry.name
                ),
            );
        }
    }
}

/// The client shell escape in `sql`, if any: `\!` anywhere (psql and mysql take
/// meta-commands after other statements on a line), and at the start of a line
/// (after `;` too) sqlite's `.shell`/`.system` and mysql's `system`.
fn shell_escape(sql: &str) -> Option<&'static str> {
    if sql.contains("\\!") {
        return Some("\\!");
    }
    for statement in sql.split(['\n', ';']) {
        let statement = statement.trim_start();
        let first = statement.split_whitespace().next().unwrap_or_default();
        match first.to_ascii_lowercase().as_str() {
            ".shell" => return Some(".shell"),
            ".system" => return Some(".system"),
            "system" => return Some("system"),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::shell_escape;

    #[test]
    fn escapes_and_look_alikes() {
        assert_eq!(shell_escape("\\! id"), Some("\\!"));
        assert_eq!(shell_escape("select 1; \\! id"), Some("\\!"));
        assert_eq!(shell_escape(".shell id"), Some(".shell"));
        assert_eq!(shell_escape(".tables\n.system id"), Some(".system"));
        assert_eq!(shell_escape("SYSTEM id"), Some("system"));
        assert_eq!(shell_escape("select 'system' from t"), None);
        assert_eq!(shell_escape(".tables"), None);
        assert_eq!(shell_escape("select * from system_users"), None);
    }
}
