//! The system-call filter (seccomp) that refuses the sockets Landlock cannot rule
//! on, applied to the runner's spawning thread beside Landlock.
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
//! Landlock's network rules know TCP only, and on the kernels measured (Linux 6.18)
//! not even all of it: a socket opened with `IPPROTO_MPTCP` connected to a TCP
//! listener with `network = "off"` (multipath TCP falls back to plain TCP when the
//! other end does not speak it). So unless `network = "on"`, the filter also
//! refuses, for IPv4 and IPv6:
//!
//! - `mptcp`: a socket of protocol `IPPROTO_MPTCP`;
//! - `raw_sockets`: raw, packet (`AF_PACKET`), SCTP, DCCP and every other kind but
//!   TCP and UDP, which could reach any address with no port rule at all;
//! - `udp` (with `network = "off"` only; a list of ports needs name lookups, which
//!   are UDP): datagrams, which would carry data out (a DNS query is one).
//!
//! And always:
//!
//! - `keyrings`: `add_key`, `request_key`, `keyctl`. The kernel's keyrings are
//!   the user's, not the sandbox's: measured here, a confined process found and
//!   read a key its user had added (`keyctl read`), where Kerberos tickets and
//!   other credentials live.
//!
//! A process of another architecture (a 32-bit x86 program, whose `socketcall`
//! hides its arguments from any filter) is killed at its first system call.
//! Everything else passes. The filter is built in the runner, installed on the
//! spawning thread (no unsafe code here: the `seccompiler` crate makes the calls)
//! and inherited by the shell and all it starts; no process can remove it.

use super::SandboxMode;
use super::report::SyscallFilterReport;
use crate::policy::sandbox::{Network, UnixSockets};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};
use std::collections::BTreeMap;

/// `AF_UNIX` (also `AF_LOCAL`), the first argument of `socket`.
const AF_UNIX: u64 = 1;
/// `AF_INET` and `AF_INET6`.
const INET_FAMILIES: [u64; 2] = [2, 10];
/// `AF_PACKET`: raw frames of a network device.
const AF_PACKET: u64 = 17;
/// The socket kind in `socket`'s second argument (the rest are flags).
const KIND_MASK: u64 = 0xf;
/// `SOCK_DGRAM`.
const SOCK_DGRAM: u64 = 2;
/// `SOCK_RAW`, `SOCK_RDM`, `SOCK_SEQPACKET`, `SOCK_DCCP`, `SOCK_PACKET`.
const OTHER_KINDS: [u64; 5] = [3, 4, 5, 6, 10];
/// Protocols that are TCP or UDP: the default (0), `IPPROTO_TCP`, `IPPROTO_UDP`.
const TCP_OR_UDP: [u64; 3] = [0, 6, 17];
/// The error a refused call returns.
const EACCES: u32 = 13;
/// `io_uring_setup`, `io_uring_enter`, `io_uring_register`: the same numbers on
/// every architecture (system calls added since Linux 5.1 share one numbering).
const IO_URING_CALLS: [i64; 3] = [425, 426, 427];

/// The architecture the filter is built for, with its numbers of `socket` and of
/// `add_key`, `request_key`, `keyctl`; `None` where the runner has no filter.
type Target = Option<(seccompiler::TargetArch, i64, [i64; 3])>;
#[cfg(target_arch = "x86_64")]
const TARGET: Target = Some((seccompiler::TargetArch::x86_64, 41, [248, 249, 250]));
#[cfg(target_arch = "aarch64")]
const TARGET: Target = Some((seccompiler::TargetArch::aarch64, 198, [217, 218, 219]));
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const TARGET: Target = None;

/// The bit that marks an x32 system call on x86-64.
#[cfg(target_arch = "x86_64")]
const X32_BIT: Option<i64> = Some(0x4000_0000);
#[cfg(not(target_arch = "x86_64"))]
const X32_BIT: Option<i64> = None;

/// A filter error as the report says it.
fn err(e: impl std::fmt::Display) -> String {
    format!("system-call filter: {e}")
}

/// What the policy asks the filter to refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Whether unix sockets may be made.
    pub unix_sockets: UnixSockets,
    /// The network the policy allows.
    pub network: Network,
}

impl Plan {
    /// The features the filter enforces, in the order reported.
    pub fn features(&self) -> Vec<&'static str> {
        let mut list = Vec::new();
        if self.unix_sockets == UnixSockets::Off {
            list.push("unix_socket_create");
        }
        list.extend(["io_uring", "keyrings"]);
        if self.network != Network::On {
            list.extend(["mptcp", "raw_sockets"]);
        }
        if self.network == Network::Off {
            list.push("udp");
        }
        list
    }

    /// The conditions under which `socket` is refused, each a rule (any one matching
    /// refuses the call; all conditions of a rule must hold).
    fn socket_rules(&self) -> Result<Vec<SeccompRule>, String> {
        let arg = |index: u8, op: SeccompCmpOp, value: u64| {
            SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value).map_err(err)
        };
        let rule = |conditions: Vec<SeccompCondition>| SeccompRule::new(conditions).map_err(err);
        let mut rules = Vec::new();
        if self.unix_sockets == UnixSockets::Off {
            rules.push(rule(vec![arg(0, SeccompCmpOp::Eq, AF_UNIX)?])?);
        }
        if self.network == Network::On {
            return Ok(rules);
        }
        rules.push(rule(vec![arg(0, SeccompCmpOp::Eq, AF_PACKET)?])?);
        let mut kinds = OTHER_KINDS.to_vec();
        if self.network == Network::Off {
            kinds.push(SOCK_DGRAM);
        }
        for family in INET_FAMILIES {
            for kind in &kinds {
                rules.push(rule(vec![
                    arg(0, SeccompCmpOp::Eq, family)?,
                    arg(1, SeccompCmpOp::MaskedEq(KIND_MASK), *kind)?,
                ])?);
            }
            // A protocol that is neither TCP nor UDP: MPTCP (262), SCTP, ICMP, ...
            let mut other_protocol = vec![arg(0, SeccompCmpOp::Eq, family)?];
            for protocol in TCP_OR_UDP {
                other_protocol.push(arg(2, SeccompCmpOp::Ne, protocol)?);
            }
            rules.push(rule(other_protocol)?);
        }
        Ok(rules)
    }

    /// The compiled filter, or why there is none for this machine.
    pub fn program(&self) -> Result<BpfProgram, String> {
        let Some((arch, socket, keyring_calls)) = TARGET else {
            return Err(format!(
                "no system-call filter for the {} architecture",
                std::env::consts::ARCH
            ));
        };
        let socket_rules = self.socket_rules()?;
        let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        for bit in std::iter::once(0).chain(X32_BIT) {
            if !socket_rules.is_empty() {
                rules.insert(socket | bit, socket_rules.clone());
            }
            for call in IO_URING_CALLS.into_iter().chain(keyring_calls) {
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
}

/// Installs the filter of `plan` on the calling thread (inherited by what it
/// spawns). In `require` mode a filter that cannot be installed is an error; in
/// best-effort mode the report says what is not enforced and why.
pub fn restrict_this_thread(plan: &Plan, mode: SandboxMode) -> Result<SyscallFilterReport, String> {
    let features = plan.features();
    let installed = plan
        .program()
        .and_then(|bpf| seccompiler::apply_filter(&bpf).map_err(err));
    match installed {
        Ok(()) => Ok(SyscallFilterReport {
            enforced: features,
            ..SyscallFilterReport::default()
        }),
        Err(why) if mode == SandboxMode::Require => Err(why),
        Err(why) => Ok(SyscallFilterReport {
            not_enforced: features,
            not_applied: Some(why),
            ..SyscallFilterReport::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{Network, Plan, UnixSockets};

    #[test]
    fn features_follow_the_policy() {
        let plan = |unix_sockets, network| Plan {
            unix_sockets,
            network,
        };
        assert_eq!(
            plan(UnixSockets::Off, Network::Off).features(),
            [
                "unix_socket_create",
                "io_uring",
                "keyrings",
                "mptcp",
                "raw_sockets",
                "udp"
            ]
        );
        assert_eq!(
            plan(UnixSockets::On, Network::Connect(vec![443])).features(),
            ["io_uring", "keyrings", "mptcp", "raw_sockets"]
        );
        assert_eq!(
            plan(UnixSockets::Off, Network::On).features(),
            ["unix_socket_create", "io_uring", "keyrings"]
        );
        assert_eq!(
            plan(UnixSockets::On, Network::On).features(),
            ["io_uring", "keyrings"]
        );
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            // More rules, a longer program; both under the kernel's 4096.
            let small = plan(UnixSockets::Off, Network::On).program().unwrap();
            let large = plan(UnixSockets::Off, Network::Off).program().unwrap();
            assert!(small.len() < large.len() && large.len() < 4096);
        }
    }
}
