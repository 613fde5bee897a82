//! Programs told to run a script file that is really a descriptor: `make -f
//! /dev/stdin`, `awk -f -`, `python3 /proc/self/fd/0`, `perl /dev/fd/3`. The code
//! is whatever feeds the descriptor — a here-string, a pipe — not a file the path
//! rules can judge, so it is inline code the gate cannot analyse (BG205). Shells and
//! `source` given such a file are read by the nested-script walk instead, which
//! judges the heredoc or here-string as a script.

use crate::catalogue::{Fact, Role};
use crate::model::command::SimpleCommand;
use crate::model::descriptors::descriptor_named;
use crate::rules::Checker;
use crate::rules::inline_script::INLINE_SCRIPT;

/// Reports each script-file argument (catalogue role `path-exec`) of `cmd` that
/// names a descriptor, or is `-` given as an option's value (`make -f -`).
///
/// ## Example
/// - `make -f /dev/stdin <<< 'all: ; id'` → ask
/// - `awk -f - <<< 'BEGIN { system("id") }'` → ask
/// - `make -f build/Makefile` → allow
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(base) = cx.base_name(cmd) else {
        return;
    };
    if matches!(base, "source" | ".") {
        return;
    }
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if entry.has(Fact::Shell) || !entry.mentions(&[Role::PathExec]) {
        return;
    }
    let args = cmd.args();
    for &arg in cx.args(cmd).iter() {
        if arg.role != Role::PathExec {
            continue;
        }
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let Some(value) = word.static_value() else {
            continue;
        };
        let value = value.get(arg.offset..).unwrap_or_default();
        let named = descriptor_named(value);
        if named.is_some() || (value == "-" && arg.option_value) {
            let what = match named {
                Some(0) | None => "standard input".to_string(),
                Some(fd) => format!("descriptor {fd}"),
            };
            cx.report(
                &INLINE_SCRIPT,
                word.span,
                format!(
                    "`{}` runs code read from {what}, which the gate cannot analyse",
                    entry.name
                ),
            );
        }
    }
}
