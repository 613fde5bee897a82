//! BG207: gaining privileges.

use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Denies `sudo`, `su`, `doas`, `pkexec`, `run0` and `sudoedit`, as a program or
    /// as a wrapper, at any depth. The wrapped command is still analysed and reported
    /// on its own.
    ///
    /// ## Why
    /// An agent running as root can undo every other protection, and a password
    /// prompt in an agent's shell is an invitation to phishing. Privileged work is for
    /// the user to do.
    ///
    /// ## Example
    /// - `sudo rm -rf /` → deny: the sudo, and the rm
    /// - `"s"udo ls` → deny
    /// - `$'\x73udo' ls` → deny: the same program, spelled otherwise
    /// - `echo sudo` → allow
    pub static PRIVILEGE_ESCALATION = {
        code: "BG207",
        name: "privilege-escalation",
        default: Deny,
        capability: Privileged,
        summary: "gains privileges (sudo, su, doas, pkexec, run0)",
    };
}

const PRIVILEGED: &[&str] = &["sudo", "su", "doas", "pkexec", "run0", "sudoedit"];

/// Denies privilege-gaining programs and wrappers.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let program = cmd.name_str().zip(cmd.name());
    let words = cmd
        .wrappers
        .iter()
        .filter_map(|&i| cmd.words.get(i))
        .filter_map(|w| Some((w.value()?, w)))
        .chain(program);
    for (name, word) in words {
        let base = basename(name);
        if PRIVILEGED.contains(&base) {
            cx.report(
                &PRIVILEGE_ESCALATION,
                word.span,
                format!("`{base}` runs a command with elevated privileges"),
            );
        }
    }
}
