//! What a run produced and what the sandbox applied, and how both are shown: the
//! Bash-tool text form and the JSON object.

use crate::Verdict;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// Exit code of a command that hit its deadline (as `timeout(1)`).
pub const EXIT_TIMED_OUT: i32 = 124;

/// How a command stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "value")]
pub enum Status {
    /// Still running.
    Running,
    /// The shell exited with this code.
    Exited(i32),
    /// The shell died of this signal (not sent by the runner).
    Signaled(i32),
    /// The caller killed the group.
    Killed,
    /// The deadline passed and the runner killed the group.
    TimedOut,
}

impl Status {
    /// The exit code the runner reports: the shell's, 128+signal, 137 when killed,
    /// [`EXIT_TIMED_OUT`] on timeout; -1 while running.
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Running => -1,
            Status::Exited(code) => code,
            Status::Signaled(signal) => 128 + signal,
            Status::Killed => 128 + 9,
            Status::TimedOut => EXIT_TIMED_OUT,
        }
    }
}

/// What the kernel enforced.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LandlockReport {
    /// The kernel's Landlock ABI (0: none).
    pub kernel_abi: i32,
    /// The ABI whose rights the runner asked for.
    pub requested_abi: i32,
    /// Features in force (`filesystem`, `fs_refer`, `fs_truncate`, `fs_ioctl_dev`,
    /// `tcp_bind_connect`, `scope_abstract_unix_socket`, `scope_signal`).
    pub enforced: Vec<&'static str>,
    /// Features asked for and not in force.
    pub not_enforced: Vec<&'static str>,
    /// Paths the policy named that do not exist (no rule could be added).
    pub missing_paths: Vec<PathBuf>,
}

/// What the system-call filter enforced ([`super::syscall_filter`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SyscallFilterReport {
    /// Features in force (`unix_socket_create`, `io_uring`, `keyrings`, `mptcp`,
    /// `raw_sockets`, `udp`).
    pub enforced: Vec<&'static str>,
    /// Features asked for and not in force.
    pub not_enforced: Vec<&'static str>,
    /// Why the filter was not installed, when it was not.
    pub not_applied: Option<String>,
}

/// How the process count was bounded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProcessLimitReport {
    /// `pids.max` of the run's own cgroup, when one was created.
    pub cgroup_pids_max: Option<u64>,
    /// Why no cgroup limit was applied.
    pub cgroup_not_applied: Option<String>,
    /// `RLIMIT_NPROC` as set in the child.
    pub rlimit_nproc: Option<u64>,
    /// Whether the kernel enforces `RLIMIT_NPROC` for this user (not for root).
    pub rlimit_nproc_enforced: bool,
}

impl ProcessLimitReport {
    /// Whether anything bounds the number of processes.
    pub fn enforced(&self) -> bool {
        self.cgroup_pids_max.is_some()
            || (self.rlimit_nproc.is_some() && self.rlimit_nproc_enforced)
    }
}

/// What the runner applied around the command.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SandboxReport {
    /// `require`, `best-effort` or `off`.
    pub mode: &'static str,
    /// Landlock's outcome; `None` when the sandbox is off.
    pub landlock: Option<LandlockReport>,
    /// `off`, `on` or `connect:PORT,...`.
    pub network: String,
    /// `off` (no unix socket can be made) or `on`.
    pub unix_sockets: &'static str,
    /// The system-call filter's outcome; `None` when the sandbox is off.
    pub syscall_filter: Option<SyscallFilterReport>,
    /// Resource limits set in the child (name, value; `None` = unlimited).
    pub limits: Vec<(String, Option<u64>)>,
    /// How the process count was bounded.
    pub process_limit: ProcessLimitReport,
    /// The most processes seen at once in the run's cgroup.
    pub pids_peak: Option<u64>,
    /// Names in the command's environment (values are not reported).
    pub env_names: Vec<String>,
    /// The private HOME.
    pub home: PathBuf,
    /// The private TMPDIR.
    pub tmpdir: PathBuf,
    /// Whether HOME and TMPDIR are kept after the run.
    pub kept_temp: bool,
}

impl SandboxReport {
    /// What was asked for and is not enforced, for the one-line warning.
    pub fn not_enforced(&self) -> Vec<String> {
        let mut list: Vec<String> = match &self.landlock {
            Some(l) => l.not_enforced.iter().map(|f| f.to_string()).collect(),
            None if self.mode == "off" => vec!["landlock (sandbox off)".into()],
            None => vec!["landlock".into()],
        };
        if let Some(filter) = &self.syscall_filter {
            list.extend(filter.not_enforced.iter().map(|f| f.to_string()));
        }
        if !self.process_limit.enforced() {
            list.push("process_limit".into());
        }
        list
    }

    /// Human lines for `--verbose`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!("sandbox: {}", self.mode)];
        match &self.landlock {
            Some(l) => {
                lines.push(format!(
                    "landlock: kernel ABI {}, requested ABI {}; enforced: {}",
                    l.kernel_abi,
                    l.requested_abi,
                    join_or_none(&l.enforced)
                ));
                if !l.not_enforced.is_empty() {
                    lines.push(format!(
                        "landlock: not enforced: {}",
                        l.not_enforced.join(", ")
                    ));
                }
                for path in &l.missing_paths {
                    lines.push(format!(
                        "landlock: no such path (no rule): {}",
                        path.display()
                    ));
                }
            }
            None => lines.push("landlock: not applied".into()),
        }
        lines.push(format!("network: {}", self.network));
        lines.push(match &self.syscall_filter {
            Some(f) if f.not_enforced.is_empty() => format!(
                "unix sockets: {}; system-call filter enforced: {}",
                self.unix_sockets,
                join_or_none(&f.enforced)
            ),
            Some(f) => format!(
                "unix sockets: {}; system-call filter not applied ({})",
                self.unix_sockets,
                f.not_applied.as_deref().unwrap_or("unknown")
            ),
            None => format!(
                "unix sockets: {} (no system-call filter)",
                self.unix_sockets
            ),
        });
        let p = &self.process_limit;
        lines.push(match (p.cgroup_pids_max, &p.cgroup_not_applied) {
            (Some(max), _) => format!("processes: cgroup pids.max = {max}"),
            (None, Some(why)) => format!("processes: no cgroup ({why})"),
            (None, None) => "processes: no cgroup".into(),
        });
        if let Some(n) = p.rlimit_nproc {
            let enforced = if p.rlimit_nproc_enforced {
                ""
            } else {
                " (not enforced for root)"
            };
            lines.push(format!("processes: RLIMIT_NPROC = {n}{enforced}"));
        }
        for (name, value) in &self.limits {
            if name != "processes" {
                let value = value.map_or("unlimited".to_string(), |v| v.to_string());
                lines.push(format!("limit: {name} = {value}"));
            }
        }
        lines.push(format!("env: {}", self.env_names.join(" ")));
        lines.push(format!(
            "home: {}, tmpdir: {}{}",
            self.home.display(),
            self.tmpdir.display(),
            if self.kept_temp {
                " (kept)"
            } else {
                " (removed)"
            }
        ));
        lines
    }
}

fn join_or_none(list: &[&'static str]) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// A command that ran to its end (or its deadline).
#[derive(Clone, Debug)]
pub struct Finished {
    /// The gate's verdict (`None` when the gate was skipped).
    pub verdict: Option<Verdict>,
    /// How it ended.
    pub status: Status,
    /// The code the runner exits with ([`Status::exit_code`]).
    pub exit_code: i32,
    /// Whether the deadline ended it.
    pub timed_out: bool,
    /// Merged stdout and stderr: head and tail within the cap, with the truncation
    /// marker between them when bytes were left out.
    pub output: Vec<u8>,
    /// Bytes left out of `output`.
    pub output_truncated_bytes: u64,
    /// From spawn to the end of cleanup.
    pub duration: Duration,
    /// What the sandbox applied.
    pub sandbox: SandboxReport,
}

impl Finished {
    /// The Bash-tool text: the output, then `bash: timed out after Ns` or
    /// `exit: N` for a non-zero exit.
    pub fn render_text(&self, timeout: Duration) -> Vec<u8> {
        let mut out = self.output.clone();
        let mut line = |text: String| {
            if !out.is_empty() && !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        };
        if self.timed_out {
            line(format!("bash: timed out after {}s", timeout.as_secs()));
        } else if self.exit_code != 0 {
            line(format!("exit: {}", self.exit_code));
        }
        out
    }

    /// The JSON object: `{verdict, exit_code, timed_out, output,
    /// output_truncated_bytes, duration_ms, sandbox}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "verdict": self.verdict.as_ref().map(verdict_json),
            "status": self.status,
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "output": String::from_utf8_lossy(&self.output),
            "output_truncated_bytes": self.output_truncated_bytes,
            "duration_ms": self.duration.as_millis() as u64,
            "sandbox": self.sandbox,
        })
    }
}

/// The verdict as `check --format json` prints it.
pub fn verdict_json(verdict: &Verdict) -> serde_json::Value {
    serde_json::to_value(verdict).unwrap_or(serde_json::Value::Null)
}
