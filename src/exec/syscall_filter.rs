//! The system-call filter (seccomp) that keeps a confined command from making unix
//! sockets, applied to the runner's spawning thread beside Landlock.
//!
//! Landlock below ABI 9 has no rule for a pathname unix socket: a confined command
//! may `connect` to any socket file it can name, and such files are doors out of
//! the sandbox. The Docker daemon's (`/var/run/docker.sock`: a container that mounts
//! `/`), the user's systemd and D-Bus session bus (`/run/user/UID/bus`: a unit
//! started outside), a tmux or screen server (`/tmp/tmux-UID/default`: keys typed
//! into the user's own shell), the SSH and GPG agents (keys used without being
//! read). With `unix_sockets = "off"` (the default) the filter makes these calls
//! fail with `EACCES`:
//!
//! - `socket(AF_UNIX, …)`: no unix socket can be made, so none can be connected or
//!   bound. `socketpair` stays allowed: an anonymous pair reaches no one else;
//! - `io_uring_setup`, `io_uring_enter`, `io_uring_register`: a ring makes and
//!   connects sockets (`IORING_OP_SOCKET`) without a `socket` call a filter sees
//!   (programs that use a ring fall back to plain calls when it is refused);
//! - on x86-64, the same calls in the x32 numbering (the call number with bit 30
//!   set), which a filter on the plain numbers would let through.
//!
//! A process of another architecture (a 32-bit x86 program, whose `socketcall`
//! hides its arguments from any filter) is killed at its first system call.
//! Everything else passes. The filter is built in the runner, installed on the
//! spawning thread (no unsafe code here: the `seccompiler` crate makes the calls)
//! and inherited by the shell and all it starts; no process can remove it.

use super::SandboxMode;
use super::report::SyscallFilterReport;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};
use std::collections::BTreeMap;

/// What the filter enforces, as reported.
pub const FEATURES: &[&str] = &["unix_socket_create", "io_uring"];

/// `AF_UNIX` (also `AF_LOCAL`), the first argument of `socket`.
const AF_UNIX: u64 = 1;
/// The error a refused call returns.
const EACCES: u32 = 13;
/// `io_uring_setup`, `io_uring_enter`, `io_uring_register`: the same numbers on
/// every architecture (system calls added since Linux 5.1 share one numbering).
const IO_URING_CALLS: [i64; 3] = [425, 426, 427];

/// The architecture the filter is built for and its `socket` call number; `None`
/// where the runner has no filter.
#[cfg(target_arch = "x86_64")]
const TARGET: Option<(seccompiler::TargetArch, i64)> = Some((seccompiler::TargetArch::x86_64, 41));
#[cfg(target_arch = "aarch64")]
const TARGET: Option<(seccompiler::TargetArch, i64)> =
    Some((seccompiler::TargetArch::aarch64, 198));
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const TARGET: Option<(seccompiler::TargetArch, i64)> = None;

/// The bit that marks an x32 system call on x86-64.
#[cfg(target_arch = "x86_64")]
const X32_BIT: Option<i64> = Some(0x4000_0000);
#[cfg(not(target_arch = "x86_64"))]
const X32_BIT: Option<i64> = None;

/// A filter error as the report says it.
fn err(e: impl std::fmt::Display) -> String {
    format!("system-call filter: {e}")
}

/// The compiled filter, or why there is none for this machine.
pub fn program() -> Result<BpfProgram, String> {
    let Some((arch, socket)) = TARGET else {
        return Err(format!(
            "no system-call filter for the {} architecture",
            std::env::consts::ARCH
        ));
    };
    let unix_domain = SeccompRule::new(vec![
        SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, AF_UNIX)
            .map_err(err)?,
    ])
    .map_err(err)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let numberings = std::iter::once(0).chain(X32_BIT);
    for bit in numberings {
        rules.insert(socket | bit, vec![unix_domain.clone()]);
        for call in IO_URING_CALLS {
            // No condition: every use of the call matches.
            rules.insert(call | bit, Vec::new());
        }
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(EACCES),
        arch,
    )
    .map_err(err)?;
    BpfProgram::try_from(filter).map_err(err)
}

/// Installs the filter on the calling thread (inherited by what it spawns). In
/// `require` mode a filter that cannot be installed is an error; in best-effort
/// mode the report says what is not enforced and why.
pub fn restrict_this_thread(mode: SandboxMode) -> Result<SyscallFilterReport, String> {
    let installed = program().and_then(|bpf| seccompiler::apply_filter(&bpf).map_err(err));
    match installed {
        Ok(()) => Ok(SyscallFilterReport {
            enforced: FEATURES.to_vec(),
            ..SyscallFilterReport::default()
        }),
        Err(why) if mode == SandboxMode::Require => Err(why),
        Err(why) => Ok(SyscallFilterReport {
            not_enforced: FEATURES.to_vec(),
            not_applied: Some(why),
            ..SyscallFilterReport::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    fn the_filter_compiles_with_a_rule_per_call_and_numbering() {
        let bpf = super::program().unwrap();
        // Architecture check, then one chain per call: more than the three
        // statements of an empty filter, well under the kernel's 4096.
        assert!(bpf.len() > 10 && bpf.len() < 200, "{}", bpf.len());
    }
}
