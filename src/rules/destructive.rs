//! BG208: commands that destroy data or the system's availability.

use crate::command::{SimpleCommand, basename};
use crate::declare_rule;
use crate::rules::Checker;
use crate::word::Word;

declare_rule! {
    /// ## What it does
    /// Denies commands whose only purpose is to destroy a file system or stop the
    /// machine: `mkfs` and `mkfs.*`, `mke2fs`, `shutdown`, `reboot`, `halt`,
    /// `poweroff`, `init 0`/`init 6`, `telinit 0`/`6`, `kill -9 -1` (every process
    /// the user owns), and the fork-bomb shape: a function that calls itself in a
    /// pipeline or in the background (`:(){ :|:& };:`).
    ///
    /// ## Why
    /// No development task needs these, and their damage cannot be undone by the
    /// agent. The popular blocklist hooks miss even `mkfs.ext4 /dev/sda`.
    ///
    /// ## Example
    /// `mkfs.ext4 /dev/sda` → deny; `kill -9 -1` → deny; `kill -9 1234` is fine.
    pub static DESTRUCTIVE = {
        code: "BG208",
        name: "destructive",
        default: Deny,
        capability: Destructive,
        summary: "destroys a file system or stops the machine (mkfs, shutdown, fork bomb, kill -1)",
    };
}

/// Denies the destructive set.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let (Some(name), Some(word)) = (cmd.name_str(), cmd.name()) else {
        return;
    };
    let base = basename(name).to_ascii_lowercase();
    let first = cmd.args().first().and_then(Word::static_value);
    let reason = match base.as_str() {
        "mkfs" | "mke2fs" | "newfs" => Some(format!("`{base}` formats a file system")),
        b if b.starts_with("mkfs.") => Some(format!("`{base}` formats a file system")),
        "shutdown" | "reboot" | "halt" | "poweroff" => Some(format!("`{base}` stops the machine")),
        "init" | "telinit" if matches!(first.as_deref(), Some("0" | "6")) => Some(format!(
            "`{base} {}` stops the machine",
            first.unwrap_or_default()
        )),
        "kill" if kill_all(&cmd.arg_values()) => {
            Some("kills every process the user owns (pid -1)".to_string())
        }
        _ => None,
    };
    if let Some(message) = reason {
        cx.report(&DESTRUCTIVE, word.span, message);
        return;
    }
    if let Some(function) = &cmd.context.function {
        let recursive = name == function;
        if recursive && (cmd.context.in_pipeline || cmd.context.background) {
            cx.report(
                &DESTRUCTIVE,
                word.span,
                format!(
                    "`{function}` calls itself in a pipeline or in the background: a fork bomb"
                ),
            );
        }
    }
}

/// `kill -9 -1`, `kill -KILL -1`, `kill -- -1`, `kill -s KILL -1`: a pid operand of
/// -1. The first option is the signal (`kill -1 1234` sends SIGHUP to 1234).
fn kill_all(args: &[Option<String>]) -> bool {
    let mut operands = false;
    let mut i = 0;
    while i < args.len() {
        let Some(a) = args[i].as_deref() else {
            i += 1;
            operands = true;
            continue;
        };
        if operands {
            if a == "-1" {
                return true;
            }
        } else {
            match a {
                "--" => operands = true,
                "-s" | "-n" | "--signal" => {
                    operands = true;
                    i += 1;
                }
                "-l" | "-L" | "--list" | "--table" => return false,
                _ if a.starts_with('-') && a.len() > 1 => operands = true,
                _ => operands = true,
            }
        }
        i += 1;
    }
    false
}
