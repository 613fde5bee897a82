//! The Landlock ruleset built from the policy, applied to the runner's spawning thread.
//!
//! Landlock confines the calling *thread* and everything it forks afterwards. The
//! runner therefore restricts a short-lived thread of its own and spawns the shell
//! from it; the thread then ends and the runner itself stays unconfined. No unsafe
//! code is involved (the `landlock` crate makes the system calls).
//!
//! What the ruleset grants (everything else is denied for the rights the kernel
//! handles):
//!
//! - read, write, create, delete, execute: the project root, `allowed_paths`, the
//!   private HOME and TMPDIR;
//! - read and execute: `read_only_paths`, the toolchain homes the policy lists, and
//!   the system locations programs need to start ([`SYSTEM_READ_ONLY`]): `/usr`,
//!   `/bin`, `/lib*`, chosen parts of `/etc` (not `shadow`, `sudoers`, `ssh`,
//!   `ssl/private`), system-wide files of `/proc` (`cpuinfo`, `meminfo`, ...), CPU
//!   topology in `/sys`. Not `/proc` as a whole and not `/proc/self`: a rule on
//!   `/proc/self` would name the runner's own folder (it is resolved when the rule is
//!   made), and measured on Linux 6.18, a confined child could read its unconfined
//!   parent's `/proc/PID/environ` — the runner's full environment, secrets included —
//!   when `/proc` was granted. Programs still reach their own descriptors through
//!   `/dev/fd` and `/proc/self/fd` (pipes are not path-controlled);
//! - devices: `/dev/null`, `/dev/zero`, `/dev/full` read-write, `/dev/random` and
//!   `/dev/urandom` read-only;
//! - TCP: no connect or bind unless `network = "on"`, or connect to the listed ports;
//! - scoped (ABI 6): abstract unix sockets and signals reach only the sandbox.
//!
//! Landlock cannot restrict UDP, raw sockets, or pathname unix sockets below ABI 9;
//! the last are kept out by a system-call filter instead
//! ([`super::syscall_filter`]: no unix socket can be made).

pub use super::SandboxMode;
pub use super::report::LandlockReport;
use crate::policy::sandbox::Network;
use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, LandlockStatus, NetPort,
    PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus,
    Scope,
};
use std::path::{Path, PathBuf};

/// The highest ABI whose access rights the runner handles. ABI 7 adds audit-log
/// flags only, ABI 8 thread synchronisation, ABI 9 pathname unix sockets (which would
/// break programs that talk to local daemons through a socket file).
const TARGET_ABI: ABI = ABI::V6;

/// System locations every program may read and execute (when they exist).
pub const SYSTEM_READ_ONLY: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc/cpuinfo",
    "/proc/meminfo",
    "/proc/stat",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/version",
    "/proc/filesystems",
    "/proc/sys/kernel",
    "/proc/sys/vm/overcommit_memory",
    "/sys/devices/system/cpu",
    "/etc/alternatives",
    "/etc/bash.bashrc",
    "/etc/ca-certificates",
    "/etc/ca-certificates.conf",
    "/etc/environment",
    "/etc/gai.conf",
    "/etc/gitconfig",
    "/etc/group",
    "/etc/host.conf",
    "/etc/hostname",
    "/etc/hosts",
    "/etc/inputrc",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/locale.alias",
    "/etc/locale.conf",
    "/etc/localtime",
    "/etc/mime.types",
    "/etc/nsswitch.conf",
    "/etc/os-release",
    "/etc/passwd",
    "/etc/profile",
    "/etc/profile.d",
    "/etc/protocols",
    "/etc/pki",
    "/etc/python3",
    "/etc/resolv.conf",
    "/etc/services",
    "/etc/ssl/certs",
    "/etc/ssl/openssl.cnf",
    "/etc/terminfo",
    "/etc/timezone",
    "/etc/perl",
];

/// Devices a command may read and write.
pub const DEVICES_READ_WRITE: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];
/// Devices a command may read.
pub const DEVICES_READ_ONLY: &[&str] = &["/dev/random", "/dev/urandom"];

/// The paths and network rules to enforce.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Full access beneath these.
    pub read_write: Vec<PathBuf>,
    /// Read and execute beneath these.
    pub read_only: Vec<PathBuf>,
    /// TCP rules.
    pub network: Network,
}

/// The features the runner asks for and the ABI that brought each.
fn features(network: &Network) -> Vec<(&'static str, i32)> {
    let mut list = vec![
        ("filesystem", 1),
        ("fs_refer", 2),
        ("fs_truncate", 3),
        ("fs_ioctl_dev", 5),
        ("scope_abstract_unix_socket", 6),
        ("scope_signal", 6),
    ];
    if *network != Network::On {
        list.push(("tcp_bind_connect", 4));
    }
    list
}

/// Builds the rule paths for a root, the policy's extra folders, the toolchain homes
/// and the private folders.
pub fn plan(
    read_write: impl IntoIterator<Item = PathBuf>,
    read_only: impl IntoIterator<Item = PathBuf>,
    network: Network,
) -> Plan {
    let mut ro: Vec<PathBuf> = SYSTEM_READ_ONLY.iter().map(PathBuf::from).collect();
    ro.extend(read_only);
    Plan {
        read_write: read_write.into_iter().collect(),
        read_only: ro,
        network,
    }
}

/// Confines the calling thread. Returns what was enforced, or why nothing could be
/// (in `require` mode, any missing feature is an error).
pub fn restrict_this_thread(plan: &Plan, mode: SandboxMode) -> Result<LandlockReport, String> {
    let level = match mode {
        SandboxMode::Require => CompatLevel::HardRequirement,
        _ => CompatLevel::BestEffort,
    };
    let err = |e: landlock::RulesetError| format!("landlock: {e}");
    let abi = TARGET_ABI;
    let mut ruleset = Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(abi))
        .map_err(err)?;
    if plan.network != Network::On {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(err)?;
    }
    let ruleset = ruleset.scope(Scope::from_all(abi)).map_err(err)?;
    let mut created = ruleset.create().map_err(err)?;
    let mut missing = Vec::new();
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let device_rw = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate;
    let device_ro = BitFlags::from(AccessFs::ReadFile);
    let groups: [(&[PathBuf], BitFlags<AccessFs>); 2] =
        [(&plan.read_write, all), (&plan.read_only, read)];
    for (paths, access) in groups {
        for path in paths {
            created = add_path(created, path, access, &mut missing)?;
        }
    }
    for (paths, access) in [
        (DEVICES_READ_WRITE, device_rw),
        (DEVICES_READ_ONLY, device_ro),
    ] {
        for path in paths {
            created = add_path(created, Path::new(path), access, &mut Vec::new())?;
        }
    }
    if let Network::Connect(ports) = &plan.network {
        for port in ports {
            created = created
                .add_rule(NetPort::new(*port, AccessNet::ConnectTcp))
                .map_err(err)?;
        }
    }
    missing.retain(|p: &PathBuf| !SYSTEM_READ_ONLY.iter().any(|s| Path::new(s) == p));
    let status = created.restrict_self().map_err(err)?;
    let kernel_abi = match status.landlock {
        LandlockStatus::Available {
            effective_abi,
            kernel_abi,
        } => kernel_abi.unwrap_or(effective_abi as i32),
        _ => 0,
    };
    let applied = status.ruleset != RulesetStatus::NotEnforced;
    let mut report = LandlockReport {
        kernel_abi,
        requested_abi: abi as i32,
        missing_paths: missing,
        ..LandlockReport::default()
    };
    for (feature, needs) in features(&plan.network) {
        if applied && kernel_abi >= needs {
            report.enforced.push(feature);
        } else {
            report.not_enforced.push(feature);
        }
    }
    if mode == SandboxMode::Require && !report.not_enforced.is_empty() {
        return Err(format!(
            "landlock: not enforced: {}",
            report.not_enforced.join(", ")
        ));
    }
    Ok(report)
}

fn add_path(
    created: RulesetCreated,
    path: &Path,
    access: BitFlags<AccessFs>,
    missing: &mut Vec<PathBuf>,
) -> Result<RulesetCreated, String> {
    let fd = match PathFd::new(path) {
        Ok(fd) => fd,
        Err(_) => {
            missing.push(path.to_path_buf());
            return Ok(created);
        }
    };
    // A rule on a file may carry only file rights.
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(TARGET_ABI)
    };
    created
        .add_rule(PathBeneath::new(fd, access))
        .map_err(|e| format!("landlock: {}: {e}", path.display()))
}
