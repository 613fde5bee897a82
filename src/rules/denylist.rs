//! BG201: executables an agent should never start, wherever they start a program.

use crate::catalogue::{self, Fact};
use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Denies starting a program on the executable denylist, at any command position
    /// and any depth: after wrappers (`env`, `nice`, `xargs`, `find -exec`), inside
    /// `$(...)`, `bash -c` strings and `eval`, whatever quoting spells the name
    /// (`"fd"isk`, `f\disk`, `$'\x66disk'`). The name is matched case-insensitively on
    /// its basename, with a Windows `.exe` suffix removed, so `/sbin/fdisk` and
    /// `./FDISK.EXE` are caught too.
    ///
    /// The built-in list is every catalogue entry with the `denylisted` fact
    /// (`bashgate explain PROGRAM` shows it); it covers disk and partition tools (`fdisk`, `parted`,
    /// `wipefs`, `mkswap`, `cryptsetup`, `lvremove`...), account and authentication
    /// tools (`passwd`, `useradd`, `visudo`...), kernel and boot tools (`insmod`,
    /// `modprobe`, `kexec`, `efibootmgr`...), macOS system tools (`diskutil`,
    /// `csrutil`, `nvram`, `security`...) and Windows system tools and script hosts
    /// (`diskpart`, `bcdedit`, `vssadmin`, `reg`, `certutil`, `mshta`...). Add names
    /// with `denylist = ["terraform"]` in `bashgate.toml` (a trailing `*` matches any
    /// suffix: `"mkfs*"`).
    ///
    /// ## Why
    /// None of these belong in a coding agent's work, and each can destroy data, lock
    /// the user out or persist an attacker. A prefix rule on the raw text misses them
    /// behind wrappers and quotes; the gate finds every place a program starts.
    ///
    /// ## Example
    /// - `env LC_ALL=C "fd"isk /dev/sda` → deny
    /// - `grep fdisk notes.md` → allow: `fdisk` is an argument there, not a program
    /// - with `denylist = ["timeout"]`: `timeout 5 ls` → deny (a wrapper starts too)
    pub static DENYLISTED_EXECUTABLE = {
        code: "BG201",
        name: "denylisted-executable",
        default: Deny,
        capability: Destructive,
        summary: "starts a program on the executable denylist",
    };
}

/// True when the catalogue puts the program on the built-in denylist.
pub fn builtin_denylisted(name: &str) -> bool {
    catalogue::has_fact(name, Fact::Denylisted)
}

/// The lowercase basename without `.exe`.
fn key(name: &str) -> String {
    let base = basename(name).to_ascii_lowercase();
    base.strip_suffix(".exe")
        .map(str::to_string)
        .unwrap_or(base)
}

/// Denies a program whose name is on the built-in or configured denylist.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    // A wrapper starts too: `timeout 5 ls` starts `timeout`, then `ls`; a
    // denylisted wrapper is denied whatever it runs.
    let starts = cmd.wrappers.iter().chain(cmd.program.as_ref());
    for word in starts.filter_map(|&i| cmd.words.get(i)) {
        let Some(name) = word.value() else {
            continue;
        };
        if denylisted(name, cx) {
            let key = key(name);
            cx.report(
                &DENYLISTED_EXECUTABLE,
                word.span,
                format!("`{key}` is on the executable denylist"),
            );
        }
    }
}

/// True when the program `name` is on the built-in denylist or the policy's.
fn denylisted(name: &str, cx: &Checker) -> bool {
    // The lookup ignores case and strips `.exe` itself: the lowercase key is only
    // spelt out for the configured list and the message.
    let configured = |key: &str| {
        cx.policy
            .denylist
            .iter()
            .any(|d| match d.strip_suffix('*') {
                // `mkfs*`: a trailing star matches any suffix.
                Some(prefix) => key.starts_with(&self::key(prefix)),
                None => self::key(d) == key,
            })
    };
    builtin_denylisted(catalogue::program_basename(basename(name)))
        || (!cx.policy.denylist.is_empty() && configured(&key(name)))
}
