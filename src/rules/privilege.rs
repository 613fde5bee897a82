//! BG207: gaining privileges.

use crate::catalogue::{self, Fact};
use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Denies the programs the catalogue marks `privilege` — `sudo`, `su`, `doas`,
    /// `pkexec`, `run0`, `sudoedit`, `runuser`, `nsenter`, `chroot`, `gosu` — as a
    /// program or as a wrapper, at any depth, whatever the case of the name (`SUDO`
    /// runs sudo on a case-insensitive file system). The wrapped command is still
    /// analysed and reported on its own.
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
        if let Some(entry) = catalogue::lookup(base).filter(|e| e.has(Fact::Privilege)) {
            cx.report(
                &PRIVILEGE_ESCALATION,
                word.span,
                format!("`{}` runs a command with elevated privileges", entry.name),
            );
        }
    }
}
