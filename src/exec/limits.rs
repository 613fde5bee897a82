//! Resource limits applied in the child between `fork` and `exec`.
//!
//! `setrlimit` must run in the child: limits are per process, and the runner must not
//! limit itself. The alternatives were weighed:
//!
//! - `prlimit` on the child's pid right after spawn races with the child, which may
//!   already have forked or allocated before the limit lands;
//! - setting the limits on the runner's own process before spawning limits the
//!   runner and every thread in it (limits are process-wide, not per thread);
//! - a trampoline program (`prlimit(1)` from util-linux, or a re-exec of ourselves)
//!   adds an exec and a dependency on what is installed.
//!
//! So the runner uses one `pre_exec` hook — the crate's only `unsafe` — that calls
//! `setrlimit` four times through rustix's raw syscalls: no allocation, no locks,
//! nothing that is unsafe after `fork` in a multi-threaded process.
//!
//! `RLIMIT_NPROC` counts every process of the real user, and the kernel does not
//! enforce it for root (`CAP_SYS_RESOURCE`/`CAP_SYS_ADMIN`); a cgroup's `pids.max`
//! (see [`super::cgroup`]) is what bounds a fork bomb started by root.

use crate::policy::sandbox::Limits;
use rustix::process::{Resource, Rlimit, setrlimit};
use std::os::unix::process::CommandExt;
use std::process::Command;

/// One limit as the child gets it (soft = hard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppliedLimit {
    /// The resource's name in reports (`processes`, `file_size_bytes`, ...).
    pub name: &'static str,
    /// The value; `None` means unlimited (left as inherited).
    pub value: Option<u64>,
}

/// The limits as resource/value pairs; zero means "no limit" and is left alone.
pub fn plan(limits: &Limits) -> Vec<AppliedLimit> {
    let mib = |n: u64| (n > 0).then(|| n.saturating_mul(1024 * 1024));
    vec![
        AppliedLimit {
            name: "processes",
            value: (limits.processes > 0).then_some(limits.processes),
        },
        AppliedLimit {
            name: "file_size_bytes",
            value: mib(limits.file_size_mb),
        },
        AppliedLimit {
            name: "cpu_seconds",
            value: (limits.cpu_seconds > 0).then_some(limits.cpu_seconds),
        },
        AppliedLimit {
            name: "address_space_bytes",
            value: mib(limits.address_space_mb),
        },
    ]
}

fn resource(name: &str) -> Option<Resource> {
    match name {
        "processes" => Some(Resource::Nproc),
        "file_size_bytes" => Some(Resource::Fsize),
        "cpu_seconds" => Some(Resource::Cpu),
        "address_space_bytes" => Some(Resource::As),
        _ => None,
    }
}

/// Arranges for the child to set `limits` on itself before it executes the shell.
/// A limit the kernel refuses makes the spawn fail (fail closed), rather than running
/// the command without it.
pub fn install(command: &mut Command, limits: &[AppliedLimit]) {
    // Resolved now, in the parent: the hook itself must not allocate.
    let mut pairs: [(Option<Resource>, u64); 4] = [(None, 0); 4];
    for (slot, limit) in pairs.iter_mut().zip(limits) {
        if let Some(value) = limit.value {
            *slot = (resource(limit.name), value);
        }
    }
    set_in_child(command, pairs);
}

#[allow(unsafe_code)]
fn set_in_child(command: &mut Command, pairs: [(Option<Resource>, u64); 4]) {
    // SAFETY: the closure runs in the child after `fork` and before `exec`, where only
    // async-signal-safe work is allowed. It captures a plain array by value and calls
    // rustix's `setrlimit`, a direct `prlimit64` system call on Linux: it does not
    // allocate, lock, or touch state shared with the parent's other threads. Its only
    // failure path returns the `io::Error` built from an errno (no allocation).
    unsafe {
        command.pre_exec(move || {
            for (resource, value) in pairs {
                if let Some(resource) = resource {
                    let limit = Rlimit {
                        current: Some(value),
                        maximum: Some(value),
                    };
                    setrlimit(resource, limit).map_err(std::io::Error::from)?;
                }
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_means_no_limit() {
        let limits = Limits {
            processes: 0,
            file_size_mb: 1,
            cpu_seconds: 0,
            address_space_mb: 0,
        };
        let plan = plan(&limits);
        assert_eq!(plan[0].value, None);
        assert_eq!(plan[1].value, Some(1024 * 1024));
        assert_eq!(plan[3].value, None);
    }

    #[test]
    fn the_child_really_gets_the_limits() {
        let limits = Limits {
            processes: 77,
            file_size_mb: 3,
            cpu_seconds: 55,
            address_space_mb: 0,
        };
        let mut cmd = Command::new("bash");
        cmd.args(["-c", "ulimit -u; ulimit -f; ulimit -t"]);
        install(&mut cmd, &plan(&limits));
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        // `ulimit -f` counts 1024-byte blocks in bash.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "77");
        assert_eq!(lines[1], "3072", "{text}");
        assert_eq!(lines[2], "55");
    }
}
