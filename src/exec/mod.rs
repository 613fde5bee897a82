//! `bashgate::exec`: run the command the gate allowed, confined by the kernel from the
//! same policy (feature `exec`; Linux).
//!
//! A static gate cannot see what `make`, `npm test` or `./build.sh` will do. The
//! runner closes that gap the way agents' Bash tools and sandboxed tool servers do:
//!
//! 1. **Gate first** — the same [`Gate`] and policy as `check`. Deny: nothing runs.
//!    Ask: nothing runs without an explicit [`Approval::Given`]. Allow: run.
//! 2. **Run like a Bash tool** — `bash -c COMMAND` from the project root, stdin from
//!    `/dev/null`, its own process group, a deadline (default 120 s, at most 600 s)
//!    after which the whole group is killed, stdout and stderr merged in order and
//!    capped (default 100 KiB: head and tail kept, a marker counts what was left
//!    out). When the shell ends, whatever it left running in its group is killed.
//! 3. **Confinement** — Landlock from the policy ([`landlock`]): the root and
//!    `allowed_paths` read-write, `read_only_paths`, toolchain homes and system
//!    locations read-only, nothing else of HOME; TCP off unless the policy says;
//!    abstract unix sockets and signals scoped to the sandbox; no unix socket made
//!    unless the policy says, and with the network off or limited no socket that
//!    Landlock's TCP rules miss (MPTCP, raw, UDP when off) ([`syscall_filter`]).
//!    A private HOME and
//!    TMPDIR ([`private_dirs`]). Resource limits ([`limits`]) and, where the runner
//!    can create one, a pids cgroup ([`cgroup`]), which is what bounds a fork bomb
//!    started by root.
//! 4. **A minimal environment** ([`mod@env`]): loader and start-up injection names and
//!    secrets are never passed unless named exactly.
//!
//! What was applied is reported in [`SandboxReport`]; in best-effort mode what the
//! kernel lacks is listed there ([`SandboxReport::not_enforced`]), in require mode it
//! refuses to run.
//!
//! # Unsafe code
//!
//! The crate denies `unsafe` everywhere but one function, [`limits`]' `pre_exec`
//! hook that sets resource limits in the child between fork and exec (why there is
//! no safe way is explained in that module). Landlock needs none: it is applied to a
//! short-lived spawning thread ([`landlock`]).
//!
//! # Foreground
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use bashgate::exec::{Approval, Outcome, RunOptions, Runner};
//! let gate = bashgate::Gate::builder().root(".").discover_config().build()?;
//! let runner = Runner::new(gate, RunOptions::default());
//! match runner.run("ls -la", Approval::NotGiven)? {
//!     Outcome::Refused(verdict) => eprintln!("not run: {:?}", verdict.decision),
//!     Outcome::Finished(done) => {
//!         print!("{}", String::from_utf8_lossy(&done.output));
//!         println!("exit {} after {:?}", done.exit_code, done.duration);
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! # Background
//!
//! [`Runner::spawn`] returns a [`Background`] handle: pid and process group, new
//! output read incrementally from a bounded buffer that counts dropped bytes
//! ([`Background::read_new`]), [`Background::status`], [`Background::kill`] of the
//! whole group, [`Background::wait`]; dropping the handle kills the group. The
//! deadline applies to background commands too.

pub mod env;
pub mod output;
pub mod profile_macos;
pub mod report;

#[cfg(target_os = "linux")]
pub mod cgroup;
#[cfg(target_os = "linux")]
pub mod landlock;
#[cfg(target_os = "linux")]
pub mod limits;
#[cfg(target_os = "linux")]
pub mod private_dirs;
#[cfg(target_os = "linux")]
mod run;
#[cfg(target_os = "linux")]
pub mod syscall_filter;

pub use output::{DEFAULT_OUTPUT_CAP, OutputChunk};
pub use report::{
    EXIT_TIMED_OUT, Finished, LandlockReport, ProcessLimitReport, SandboxReport, Status,
    SyscallFilterReport,
};
#[cfg(target_os = "linux")]
pub use run::Background;

#[cfg(target_os = "linux")]
use crate::policy::sandbox::Network;
use crate::{Decision, Gate, Verdict};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Default deadline.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest deadline a caller may ask for; longer requests are clamped.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(600);

/// How strictly a missing kernel feature is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SandboxMode {
    /// Refuse to run unless every feature is enforced.
    Require,
    /// Enforce what the kernel has; report what is not enforced (the default).
    #[default]
    BestEffort,
    /// No confinement (the gate, environment, limits and timeout still apply).
    Off,
}

impl SandboxMode {
    /// Parses `require`, `best-effort` or `off`.
    pub fn parse(s: &str) -> Option<SandboxMode> {
        match s {
            "require" => Some(SandboxMode::Require),
            "best-effort" => Some(SandboxMode::BestEffort),
            "off" => Some(SandboxMode::Off),
            _ => None,
        }
    }

    /// The name used on the command line and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::Require => "require",
            SandboxMode::BestEffort => "best-effort",
            SandboxMode::Off => "off",
        }
    }
}

/// Whether the caller approved a command the gate asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approval {
    /// No approval: an `ask` verdict refuses.
    NotGiven,
    /// The user approved: an `ask` verdict runs. A `deny` never runs.
    Given,
}

/// How one run is carried out. [`RunOptions::default`] is the Bash-tool behaviour.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The deadline (clamped to [`MAX_TIMEOUT`]).
    pub timeout: Duration,
    /// Output kept, in bytes.
    pub output_cap: usize,
    /// Landlock strictness.
    pub sandbox: SandboxMode,
    /// The working folder, relative to the root or absolute; it must be inside the
    /// root. The root when `None`.
    pub cwd: Option<PathBuf>,
    /// Judge the command first. `false` runs it on the sandbox alone — meant for
    /// testing the sandbox, dangerous otherwise.
    pub gate: bool,
    /// The environment the command's environment is picked from (the runner's own
    /// when `None`).
    pub env: Option<Vec<(String, String)>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            timeout: DEFAULT_TIMEOUT,
            output_cap: DEFAULT_OUTPUT_CAP,
            sandbox: SandboxMode::BestEffort,
            cwd: None,
            gate: true,
            env: None,
        }
    }
}

/// What [`Runner::run`] produced.
#[derive(Debug)]
pub enum Outcome {
    /// The gate denied, or asked without approval: nothing ran.
    Refused(Verdict),
    /// The command ran.
    Finished(Box<Finished>),
}

/// What [`Runner::spawn`] produced.
#[derive(Debug)]
pub enum Started {
    /// The gate denied, or asked without approval: nothing runs.
    Refused(Verdict),
    /// The command runs in the background.
    #[cfg(target_os = "linux")]
    Running(Box<Background>),
}

/// Why a command could not be started.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExecError {
    /// This platform has no runner yet (macOS, Windows).
    Unsupported(String),
    /// `--sandbox require` and the kernel lacks a feature, or Landlock failed.
    SandboxUnavailable(String),
    /// Preparing the run failed (private folders, pipe, cgroup, cwd).
    Setup(String),
    /// The shell could not be started.
    Spawn {
        /// The shell.
        shell: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Unsupported(why) => write!(f, "unsupported: {why}"),
            ExecError::SandboxUnavailable(why) => write!(f, "sandbox required but {why}"),
            ExecError::Setup(why) => write!(f, "cannot prepare the run: {why}"),
            ExecError::Spawn { shell, error } => {
                write!(f, "cannot start {}: {error}", shell.display())
            }
        }
    }
}

impl std::error::Error for ExecError {}

/// Runs commands the gate allows, under the sandbox the same policy describes.
/// `Sync`: one runner can serve many threads.
#[derive(Clone, Debug)]
pub struct Runner {
    gate: Gate,
    options: RunOptions,
}

impl Runner {
    /// A runner for `gate`'s policy.
    pub fn new(gate: Gate, options: RunOptions) -> Runner {
        Runner { gate, options }
    }

    /// The gate.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// The options.
    pub fn options(&self) -> &RunOptions {
        &self.options
    }

    /// The deadline actually used (clamped).
    pub fn timeout(&self) -> Duration {
        self.options.timeout.min(MAX_TIMEOUT)
    }

    /// The gate's verdict for `command` from the run's working folder, and whether it
    /// may run with `approval`. `None` when the gate is off.
    pub fn judge(&self, command: &str, approval: Approval) -> (Option<Verdict>, bool) {
        if !self.options.gate {
            return (None, true);
        }
        let cwd = self.options.cwd.as_ref().map(|cwd| {
            let joined = self.gate.policy().root.join(cwd);
            std::fs::canonicalize(&joined).unwrap_or(joined)
        });
        let verdict = self.gate.check_in(command, cwd.as_deref());
        let runs = match verdict.decision {
            Decision::Allow => true,
            Decision::Ask => approval == Approval::Given,
            Decision::Deny => false,
        };
        (Some(verdict), runs)
    }

    /// Judges `command`, runs it if allowed (or asked and approved) and waits for it.
    pub fn run(&self, command: &str, approval: Approval) -> Result<Outcome, ExecError> {
        let (verdict, runs) = self.judge(command, approval);
        if !runs {
            return Ok(Outcome::Refused(verdict.unwrap_or_default()));
        }
        #[cfg(target_os = "linux")]
        {
            let job = self.start(command, self.timeout())?;
            let mut finished = job.wait();
            finished.verdict = verdict;
            Ok(Outcome::Finished(Box::new(finished)))
        }
        #[cfg(not(target_os = "linux"))]
        Err(unsupported())
    }

    /// Judges `command` and, if allowed, starts it in the background.
    pub fn spawn(&self, command: &str, approval: Approval) -> Result<Started, ExecError> {
        let (verdict, runs) = self.judge(command, approval);
        if !runs {
            return Ok(Started::Refused(verdict.unwrap_or_default()));
        }
        #[cfg(target_os = "linux")]
        {
            Ok(Started::Running(Box::new(
                self.start(command, self.timeout())?,
            )))
        }
        #[cfg(not(target_os = "linux"))]
        Err(unsupported())
    }

    /// Like [`Runner::spawn`], but the background command's deadline is `deadline`,
    /// not the clamped foreground timeout: a server that keeps shells for an agent
    /// (the MCP server's `run_in_background`, default 30 minutes) sets its own.
    pub fn spawn_with_deadline(
        &self,
        command: &str,
        approval: Approval,
        deadline: Duration,
    ) -> Result<Started, ExecError> {
        let (verdict, runs) = self.judge(command, approval);
        if !runs {
            return Ok(Started::Refused(verdict.unwrap_or_default()));
        }
        #[cfg(target_os = "linux")]
        {
            Ok(Started::Running(Box::new(self.start(command, deadline)?)))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = deadline;
            Err(unsupported())
        }
    }

    #[cfg(target_os = "linux")]
    fn start(&self, command: &str, timeout: Duration) -> Result<Background, ExecError> {
        let policy = self.gate.policy();
        let sandbox = &policy.sandbox;
        let cwd = self.working_folder()?;
        let dirs = private_dirs::PrivateDirs::create(sandbox.keep_temp)
            .map_err(|e| ExecError::Setup(format!("private folders: {e}")))?;
        let from = self
            .options
            .env
            .clone()
            .unwrap_or_else(|| std::env::vars_os().filter_map(utf8_pair).collect());
        let (fixed, toolchain_homes) = toolchain_paths(policy, &from);
        let env = env::build(from, &sandbox.env_pass, &dirs.home(), &dirs.tmp(), &fixed);
        let shell = match &sandbox.shell {
            Some(shell) => shell.clone(),
            None => find_in_path("bash", env.get("PATH").map(String::as_str))
                .unwrap_or_else(|| PathBuf::from("/bin/bash")),
        };
        let mut read_write = vec![policy.root.clone(), dirs.home(), dirs.tmp()];
        read_write.extend(policy.allowed_paths.iter().cloned());
        let mut read_only = policy.read_only_paths.clone();
        read_only.extend(toolchain_homes);
        // The shell itself must be executable inside the sandbox.
        if let Some(folder) = shell.parent() {
            read_only.push(folder.to_path_buf());
        }
        let plan = landlock::plan(read_write, read_only, sandbox.network.clone());
        let applied_limits = limits::plan(&sandbox.limits);
        let is_root = rustix::process::getuid().is_root();
        let report = SandboxReport {
            mode: self.options.sandbox.as_str(),
            landlock: None,
            network: network_name(&sandbox.network),
            unix_sockets: sandbox.unix_sockets.as_str(),
            syscall_filter: None,
            limits: applied_limits
                .iter()
                .map(|l| (l.name.to_string(), l.value))
                .collect(),
            process_limit: ProcessLimitReport {
                rlimit_nproc: applied_limits[0].value,
                rlimit_nproc_enforced: !is_root,
                ..ProcessLimitReport::default()
            },
            pids_peak: None,
            env_names: env.keys().cloned().collect(),
            home: dirs.home(),
            tmpdir: dirs.tmp(),
            kept_temp: dirs.kept(),
        };
        let processes = sandbox.limits.processes;
        run::start(run::Spec {
            command: command.to_string(),
            shell,
            cwd,
            env,
            timeout,
            output_cap: self.options.output_cap,
            mode: self.options.sandbox,
            plan,
            filter_plan: syscall_filter::Plan {
                unix_sockets: sandbox.unix_sockets,
                network: sandbox.network.clone(),
            },
            limits: applied_limits,
            processes,
            dirs,
            report,
        })
    }

    #[cfg(target_os = "linux")]
    fn working_folder(&self) -> Result<PathBuf, ExecError> {
        let root = &self.gate.policy().root;
        let Some(cwd) = &self.options.cwd else {
            return Ok(root.clone());
        };
        let joined = if cwd.is_absolute() {
            cwd.clone()
        } else {
            root.join(cwd)
        };
        let real = std::fs::canonicalize(&joined)
            .map_err(|e| ExecError::Setup(format!("--cwd {}: {e}", joined.display())))?;
        if !real.starts_with(root) {
            return Err(ExecError::Setup(format!(
                "--cwd {} is outside the root {}",
                real.display(),
                root.display()
            )));
        }
        Ok(real)
    }
}

#[cfg(not(target_os = "linux"))]
fn unsupported() -> ExecError {
    ExecError::Unsupported(
        "the runner confines commands with Linux Landlock; on this system it refuses to \
         run (`bashgate exec --print-profile macos` prints the policy as a macOS profile)"
            .into(),
    )
}

/// The toolchain homes to grant read-only and the variables that point at them. A
/// home variable already set in the runner's environment (`RUSTUP_HOME=/usr/local/rustup`
/// in a container image) wins over the default folder under HOME, and its folder is
/// granted too.
#[cfg(target_os = "linux")]
fn toolchain_paths(
    policy: &crate::Policy,
    from: &[(String, String)],
) -> (Vec<(String, String)>, Vec<PathBuf>) {
    let mut fixed = Vec::new();
    let mut folders = Vec::new();
    for toolchain in &policy.sandbox.toolchains {
        if let Some(home) = &policy.home {
            folders.extend(toolchain.home_folders().iter().map(|f| home.join(f)));
        }
        for (name, folder) in toolchain.env_homes() {
            let set = from
                .iter()
                .find(|(n, v)| n == name && v.starts_with('/'))
                .map(|(_, v)| PathBuf::from(v));
            let path = match (set, &policy.home) {
                (Some(path), _) => path,
                (None, Some(home)) => home.join(folder),
                (None, None) => continue,
            };
            if path.exists() {
                fixed.push((name.to_string(), path.to_string_lossy().into_owned()));
                folders.push(path);
            }
        }
    }
    (fixed, folders)
}

#[cfg(target_os = "linux")]
fn utf8_pair((name, value): (std::ffi::OsString, std::ffi::OsString)) -> Option<(String, String)> {
    Some((name.into_string().ok()?, value.into_string().ok()?))
}

#[cfg(target_os = "linux")]
fn network_name(network: &Network) -> String {
    match network {
        Network::Off => "off".into(),
        Network::On => "on".into(),
        Network::Connect(ports) => {
            let ports: Vec<String> = ports.iter().map(u16::to_string).collect();
            format!("connect:{}", ports.join(","))
        }
    }
}

#[cfg(target_os = "linux")]
/// The first `name` in the `PATH` list that is a file.
fn find_in_path(name: &str, path: Option<&str>) -> Option<PathBuf> {
    path?
        .split(':')
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| std::path::Path::new(dir).join(name))
        .find(|candidate| candidate.is_file())
}
