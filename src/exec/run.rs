//! Spawning, supervising and ending one command: its own process group, merged
//! capped output, a deadline, and a cleanup that leaves no process behind.
//!
//! Threads per run: the spawning thread (joins the cgroup, confines itself with
//! Landlock, forks the shell, ends), a reader (drains the output pipe into bounded
//! buffers), a waiter (reaps the shell) and a supervisor (enforces the deadline, then
//! kills what is left of the group and the cgroup, waits up to 2 s for the pipe to
//! drain, and removes the private folders).
//!
//! A process that left the group (`setsid`) and holds the pipe open survives only
//! where no pids cgroup could be created; the run still ends after the drain grace,
//! and its reader thread stays blocked until that process closes the pipe.

use super::ExecError;
use super::cgroup::PidsCgroup;
use super::landlock::{self, LandlockReport, Plan, SandboxMode};
use super::limits::{self, AppliedLimit};
use super::output::{Capture, OutputChunk, Unread};
use super::private_dirs::PrivateDirs;
use super::report::{Finished, SandboxReport, Status, SyscallFilterReport};
use super::syscall_filter;
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the pipe may take to drain after the group was killed.
pub const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Everything needed to start one command.
#[derive(Debug)]
pub(crate) struct Spec {
    pub command: String,
    pub shell: PathBuf,
    pub cwd: PathBuf,
    pub env: BTreeMap<String, String>,
    pub timeout: Duration,
    pub output_cap: usize,
    pub mode: SandboxMode,
    pub plan: Plan,
    pub filter_plan: syscall_filter::Plan,
    pub limits: Vec<AppliedLimit>,
    pub processes: u64,
    pub dirs: PrivateDirs,
    pub report: SandboxReport,
}

#[derive(Debug)]
struct State {
    capture: Capture,
    unread: Unread,
    exit: Option<ExitStatus>,
    timed_out: bool,
    killed: bool,
    output_closed: bool,
    finished: Option<Duration>,
    pids_peak: Option<u64>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock only means another thread panicked mid-update; the
        // buffers are still bounded and consistent enough to report.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A command running in the background. It owns its process group: dropping the
/// handle kills the whole group (and, with a cgroup, every process the command
/// started) and removes the private folders.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use bashgate::exec::{Approval, RunOptions, Runner, Started, Status};
/// let runner = Runner::new(bashgate::Gate::builder().root(".").build()?, RunOptions::default());
/// let Started::Running(job) = runner.spawn("cargo build 2>&1", Approval::NotGiven)? else {
///     return Ok(()); // refused: the verdict says why
/// };
/// println!("pid {} in group {}", job.pid(), job.process_group());
/// while job.status() == Status::Running {
///     let chunk = job.read_new();
///     print!("{}", String::from_utf8_lossy(&chunk.bytes));
///     std::thread::sleep(std::time::Duration::from_millis(200));
/// }
/// let finished = job.wait();
/// println!("exit {}", finished.exit_code);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Background {
    pid: u32,
    shared: Arc<Shared>,
    report: SandboxReport,
    started: Instant,
    timeout: Duration,
    supervisor: Option<JoinHandle<()>>,
}

impl Background {
    /// The shell's process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The process group id (the shell leads its own group, so it equals
    /// [`Background::pid`]).
    pub fn process_group(&self) -> u32 {
        self.pid
    }

    /// What the sandbox applied.
    pub fn sandbox(&self) -> &SandboxReport {
        &self.report
    }

    /// Output written since the previous call, and how many bytes were dropped
    /// because more than the output cap piled up unread.
    pub fn read_new(&self) -> OutputChunk {
        self.shared.lock().unread.take()
    }

    /// Running, or how it ended.
    pub fn status(&self) -> Status {
        status_of(&self.shared.lock())
    }

    /// Kills the whole process group now (SIGKILL). The status becomes
    /// [`Status::Killed`] once the shell is reaped.
    pub fn kill(&self) {
        let mut state = self.shared.lock();
        if state.finished.is_some() {
            // The group is gone; its id may already name someone else's group.
            return;
        }
        if state.exit.is_none() {
            state.killed = true;
        }
        drop(state);
        kill_group(self.pid);
    }

    /// Waits until the run is over (the shell reaped, the group gone, the pipe
    /// drained or given up on) or `timeout` passes; returns the status.
    pub fn wait_timeout(&self, timeout: Duration) -> Status {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        while state.finished.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, left)
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        status_of(&state)
    }

    /// Waits for the end (at most the timeout plus the drain grace) and returns the
    /// outcome with the captured head and tail of the output.
    pub fn wait(mut self) -> Finished {
        let patience = self.timeout + DRAIN_GRACE * 3 + Duration::from_secs(2);
        self.wait_timeout(patience);
        if let Some(supervisor) = self.supervisor.take() {
            let _ = supervisor.join();
        }
        let state = self.shared.lock();
        let status = status_of(&state);
        Finished {
            verdict: None,
            exit_code: status.exit_code(),
            status,
            timed_out: state.timed_out,
            output: state.capture.render(),
            output_truncated_bytes: state.capture.dropped(),
            duration: state.finished.unwrap_or_else(|| self.started.elapsed()),
            sandbox: SandboxReport {
                pids_peak: state.pids_peak,
                ..self.report.clone()
            },
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(supervisor) = self.supervisor.take() {
            if self.shared.lock().finished.is_none() {
                self.kill();
            }
            let _ = supervisor.join();
        }
    }
}

fn status_of(state: &State) -> Status {
    match state.exit {
        None => Status::Running,
        Some(_) if state.timed_out => Status::TimedOut,
        Some(_) if state.killed => Status::Killed,
        Some(exit) => match (exit.code(), exit.signal()) {
            (Some(code), _) => Status::Exited(code),
            (None, Some(signal)) => Status::Signaled(signal),
            (None, None) => Status::Killed,
        },
    }
}

fn kill_group(pgid: u32) {
    if let Some(pid) = i32::try_from(pgid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// Starts the command; it runs until it ends, times out or the handle is dropped.
pub(crate) fn start(spec: Spec) -> Result<Background, ExecError> {
    let Spec {
        command,
        shell,
        cwd,
        env,
        timeout,
        output_cap,
        mode,
        plan,
        filter_plan,
        limits: applied_limits,
        processes,
        dirs,
        mut report,
    } = spec;
    let cgroup = if processes > 0 {
        match PidsCgroup::create(processes) {
            Ok(cgroup) => {
                report.process_limit.cgroup_pids_max = Some(processes);
                Some(cgroup)
            }
            Err(why) => {
                report.process_limit.cgroup_not_applied = Some(why);
                None
            }
        }
    } else {
        None
    };
    if mode == SandboxMode::Require && !report.process_limit.enforced() {
        let why = report.process_limit.cgroup_not_applied.clone();
        return Err(ExecError::SandboxUnavailable(format!(
            "no process limit can be enforced ({}; RLIMIT_NPROC does not bind root)",
            why.unwrap_or_else(|| "no limit configured".into())
        )));
    }
    let (reader, writer) = std::io::pipe().map_err(|e| ExecError::Setup(format!("pipe: {e}")))?;
    let writer_copy = writer
        .try_clone()
        .map_err(|e| ExecError::Setup(format!("pipe: {e}")))?;
    let mut cmd = Command::new(&shell);
    cmd.arg("-c")
        .arg(&command)
        .current_dir(&cwd)
        .env_clear()
        .envs(&env)
        .stdin(Stdio::null())
        .stdout(writer_copy)
        .stderr(writer)
        .process_group(0);
    limits::install(&mut cmd, &applied_limits);

    type Confined = (Child, Option<LandlockReport>, Option<SyscallFilterReport>);
    let spawned: Result<Confined, ExecError> = std::thread::scope(|s| {
        s.spawn(|| {
            let mut cmd = cmd;
            if let Some(cgroup) = &cgroup {
                cgroup.enter_this_thread().map_err(ExecError::Setup)?;
            }
            let landlock = match mode {
                SandboxMode::Off => None,
                _ => Some(
                    landlock::restrict_this_thread(&plan, mode)
                        .map_err(ExecError::SandboxUnavailable)?,
                ),
            };
            let filter = match mode {
                SandboxMode::Off => None,
                _ => Some(
                    syscall_filter::restrict_this_thread(&filter_plan, mode)
                        .map_err(ExecError::SandboxUnavailable)?,
                ),
            };
            let child = cmd.spawn().map_err(|e| ExecError::Spawn {
                shell: shell.clone(),
                error: e,
            })?;
            // `cmd` drops here: the parent's copies of the pipe's write end close.
            Ok((child, landlock, filter))
        })
        .join()
        .unwrap_or_else(|_| Err(ExecError::Setup("the spawning thread panicked".into())))
    });
    let (mut child, landlock, filter) = spawned?;
    report.landlock = landlock;
    report.syscall_filter = filter;
    let pid = child.id();
    let started = Instant::now();
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            capture: Capture::new(output_cap),
            unread: Unread::new(output_cap),
            exit: None,
            timed_out: false,
            killed: false,
            output_closed: false,
            finished: None,
            pids_peak: None,
        }),
        changed: Condvar::new(),
    });

    let reader_shared = Arc::clone(&shared);
    std::thread::spawn(move || read_output(reader, &reader_shared));
    let waiter_shared = Arc::clone(&shared);
    std::thread::spawn(move || {
        let status = child.wait();
        let mut state = waiter_shared.lock();
        // `wait` fails only if the child was already reaped; treat it as killed.
        state.exit = Some(status.unwrap_or_else(|_| ExitStatus::from_raw(9)));
        drop(state);
        waiter_shared.changed.notify_all();
    });
    let supervisor_shared = Arc::clone(&shared);
    let supervisor = std::thread::spawn(move || {
        supervise(pid, started, timeout, &supervisor_shared, cgroup, dirs);
    });
    Ok(Background {
        pid,
        shared,
        report,
        started,
        timeout,
        supervisor: Some(supervisor),
    })
}

fn read_output(mut reader: std::io::PipeReader, shared: &Shared) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut state = shared.lock();
                state.capture.push(&buf[..n]);
                state.unread.push(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    shared.lock().output_closed = true;
    shared.changed.notify_all();
}

fn supervise(
    pid: u32,
    started: Instant,
    timeout: Duration,
    shared: &Shared,
    cgroup: Option<PidsCgroup>,
    dirs: PrivateDirs,
) {
    let deadline = started + timeout;
    let mut state = shared.lock();
    while state.exit.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            state.timed_out = true;
            drop(state);
            kill_group(pid);
            state = shared.lock();
            continue;
        }
        state = shared
            .changed
            .wait_timeout(state, left)
            .map(|(g, _)| g)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    drop(state);
    // The group does not outlive its shell: background jobs it left are killed, and
    // with a cgroup so is anything that left the group (setsid).
    kill_group(pid);
    let pids_peak = cgroup.as_ref().and_then(PidsCgroup::peak);
    if let Some(cgroup) = &cgroup {
        cgroup.kill_all(DRAIN_GRACE);
    }
    let drain_deadline = Instant::now() + DRAIN_GRACE;
    let mut state = shared.lock();
    while !state.output_closed {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        state = shared
            .changed
            .wait_timeout(state, left)
            .map(|(g, _)| g)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    drop(state);
    drop(cgroup);
    drop(dirs);
    let mut state = shared.lock();
    state.pids_peak = pids_peak;
    state.finished = Some(started.elapsed());
    drop(state);
    shared.changed.notify_all();
}
