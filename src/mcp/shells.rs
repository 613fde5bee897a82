//! The background shells of one server ([`ShellRegistry`]): each started by
//! `run_command` with `run_in_background`, named by a fresh UUID, drained into a
//! bounded buffer, ended at its deadline by the runner's own supervisor (whether or
//! not anyone polls), and killed with its whole process group when the server exits.
//!
//! Bounds: at most [`ShellLimits::max_live`] shells run at once, and the buffers of
//! all shells the registry holds never exceed [`ShellLimits::max_buffered`] bytes: a
//! running shell reserves a full buffer ([`ShellLimits::buffer_cap`]), a finished one
//! only what it still holds. Past either bound a new shell is refused with a clear
//! error; finished shells whose output was read to the end are forgotten first to
//! make room.

use crate::exec::{Background, OutputChunk, Status};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Default deadline of a background shell: 30 minutes.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30 * 60);
/// Default number of shells running at once.
pub const DEFAULT_MAX_LIVE: usize = 16;
/// Default bound on the bytes all shells' buffers hold: 64 MiB.
pub const DEFAULT_MAX_BUFFERED: usize = 64 * 1024 * 1024;
/// Default output kept per shell: 1 MiB (stdout and stderr merged, newest kept).
pub const DEFAULT_BUFFER_CAP: usize = 1024 * 1024;
/// Most finished shells remembered; the oldest are forgotten past it.
const MAX_FINISHED: usize = 256;
/// How often a shell's new output is moved into its buffer.
const POLL: Duration = Duration::from_millis(25);
/// How long to wait for a killed shell to be reaped and drained.
const KILL_PATIENCE: Duration = Duration::from_secs(10);

/// The registry's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShellLimits {
    /// A background shell's deadline; the runner kills its group then.
    pub deadline: Duration,
    /// Most shells running at once.
    pub max_live: usize,
    /// Most bytes held by all buffers together (running shells count a full buffer).
    pub max_buffered: usize,
    /// Bytes of output kept per shell.
    pub buffer_cap: usize,
}

impl Default for ShellLimits {
    fn default() -> Self {
        ShellLimits {
            deadline: DEFAULT_DEADLINE,
            max_live: DEFAULT_MAX_LIVE,
            max_buffered: DEFAULT_MAX_BUFFERED,
            buffer_cap: DEFAULT_BUFFER_CAP,
        }
    }
}

/// Output of one shell: the newest bytes up to the cap, with absolute offsets.
#[derive(Debug)]
struct Buffer {
    cap: usize,
    bytes: VecDeque<u8>,
    /// Offset one past the last byte the command wrote (dropped bytes included).
    end: u64,
    /// Where the next read starts when the caller gives no `since`.
    cursor: u64,
}

impl Buffer {
    fn new(cap: usize) -> Buffer {
        Buffer {
            cap,
            bytes: VecDeque::new(),
            end: 0,
            cursor: 0,
        }
    }

    /// Offset of the oldest byte still held.
    fn start(&self) -> u64 {
        self.end - self.bytes.len() as u64
    }

    fn push(&mut self, chunk: OutputChunk) {
        if chunk.dropped > 0 {
            // A gap: what was held before it no longer joins what follows.
            self.bytes.clear();
            self.end += chunk.dropped;
        }
        let new = &chunk.bytes[chunk.bytes.len().saturating_sub(self.cap)..];
        let overflow = (self.bytes.len() + new.len()).saturating_sub(self.cap);
        self.bytes.drain(..overflow);
        self.bytes.extend(new);
        self.end += chunk.bytes.len() as u64;
    }

    /// The bytes from `since` (the cursor when `None`) to the end, and how many bytes
    /// between `since` and the first returned byte are gone.
    fn read(&mut self, since: Option<u64>) -> Result<(Vec<u8>, u64, u64), String> {
        let since = since.unwrap_or(self.cursor);
        if since > self.end {
            return Err(format!(
                "since={since} is past the end of the output ({} bytes so far)",
                self.end
            ));
        }
        let from = since.max(self.start());
        let skip = usize::try_from(from - self.start()).unwrap_or(usize::MAX);
        let bytes: Vec<u8> = self.bytes.iter().skip(skip).copied().collect();
        self.cursor = self.end;
        Ok((bytes, from - since, from))
    }
}

/// One shell: its handle while it runs, its buffer, and how it ended.
#[derive(Debug)]
struct Shell {
    command: String,
    description: String,
    pid: u32,
    started: Instant,
    deadline: Duration,
    job: Option<Arc<Background>>,
    buffer: Buffer,
    /// Set by the drainer once the run is over and its last output is buffered.
    ended: Option<Status>,
}

impl Shell {
    /// Bytes this shell counts against the bound.
    fn reserved(&self) -> usize {
        if self.ended.is_some() {
            self.buffer.bytes.len()
        } else {
            self.buffer.cap
        }
    }
}

/// What `read_output` returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOutput {
    /// `running`, or how it ended.
    pub status: Status,
    /// Whether the shell's run is over and all its output is in the buffer.
    pub ended: bool,
    /// The bytes from `offset` to `next_offset`.
    pub output: Vec<u8>,
    /// Offset of the first returned byte.
    pub offset: u64,
    /// Pass this as `since` to read on from here.
    pub next_offset: u64,
    /// Bytes between the requested `since` and `offset` that are gone (the buffer
    /// keeps only the newest bytes).
    pub dropped: u64,
}

/// One line of `list_shells`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellSummary {
    /// The shell's id.
    pub id: String,
    /// The command.
    pub command: String,
    /// What the agent said it does.
    pub description: String,
    /// The shell's process id (and process group).
    pub pid: u32,
    /// `running`, or how it ended.
    pub status: Status,
    /// Whether it is over.
    pub ended: bool,
    /// Seconds since it started.
    pub elapsed_secs: u64,
    /// Its deadline in seconds.
    pub deadline_secs: u64,
    /// Bytes of output written so far.
    pub output_bytes: u64,
}

#[derive(Debug, Default)]
struct Shells {
    by_id: BTreeMap<String, Shell>,
    /// Ids in the order their shells ended (the oldest are forgotten first).
    ended_order: VecDeque<String>,
    /// Admitted shells not started yet: they count as running.
    pending: usize,
}

impl Shells {
    fn live(&self) -> usize {
        self.pending + self.by_id.values().filter(|s| s.ended.is_none()).count()
    }

    fn held(&self, buffer_cap: usize) -> usize {
        self.pending * buffer_cap + self.by_id.values().map(Shell::reserved).sum::<usize>()
    }
}

/// A place for one shell, taken by [`ShellRegistry::admit`] and used by
/// [`ShellRegistry::insert`]; dropped unused (the start failed or was refused), it
/// frees the place.
#[derive(Debug)]
pub struct Admission {
    registry: ShellRegistry,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut shells = self.registry.lock();
        shells.pending = shells.pending.saturating_sub(1);
    }
}

/// The shells of one server. Cheap to clone (shared).
#[derive(Clone, Debug)]
pub struct ShellRegistry {
    limits: ShellLimits,
    shells: Arc<Mutex<Shells>>,
}

impl ShellRegistry {
    /// An empty registry with these bounds.
    pub fn new(limits: ShellLimits) -> ShellRegistry {
        ShellRegistry {
            limits,
            shells: Arc::default(),
        }
    }

    /// The bounds.
    pub fn limits(&self) -> ShellLimits {
        self.limits
    }

    fn lock(&self) -> MutexGuard<'_, Shells> {
        self.shells.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more shell, if it fits; forgets fully read finished shells to
    /// make room. The error says which bound was reached.
    pub fn admit(&self) -> Result<Admission, String> {
        let mut shells = self.lock();
        let live = shells.live();
        if live >= self.limits.max_live {
            return Err(format!(
                "too many background shells: {live} are running (at most {}); end one \
                 with kill_shell or wait for one to finish",
                self.limits.max_live
            ));
        }
        let cap = self.limits.buffer_cap;
        let fits = |shells: &Shells| shells.held(cap) + cap <= self.limits.max_buffered;
        while !fits(&shells) {
            let read_up = shells.ended_order.iter().position(|id| {
                shells
                    .by_id
                    .get(id)
                    .is_none_or(|s| s.buffer.cursor >= s.buffer.end)
            });
            match read_up {
                Some(index) => {
                    if let Some(id) = shells.ended_order.remove(index) {
                        shells.by_id.remove(&id);
                    }
                }
                None => {
                    let held = shells.held(cap);
                    return Err(format!(
                        "too much buffered output: the shells hold {held} bytes and a new \
                         one needs {} (at most {} in all); read finished shells' output \
                         with read_output or end running ones with kill_shell",
                        self.limits.buffer_cap, self.limits.max_buffered
                    ));
                }
            }
        }
        shells.pending += 1;
        Ok(Admission {
            registry: self.clone(),
        })
    }

    /// Registers a started job in the place `admission` holds, under a fresh UUID,
    /// and starts draining its output.
    pub fn insert(
        &self,
        admission: Admission,
        job: Background,
        command: &str,
        description: &str,
        deadline: Duration,
    ) -> String {
        let id = uuid::Uuid::new_v4().to_string();
        let job = Arc::new(job);
        let shell = Shell {
            command: command.to_string(),
            description: description.to_string(),
            pid: job.pid(),
            started: Instant::now(),
            deadline,
            job: Some(Arc::clone(&job)),
            buffer: Buffer::new(self.limits.buffer_cap),
            ended: None,
        };
        self.lock().by_id.insert(id.clone(), shell);
        // The shell now holds its own place (for a moment it counted twice).
        drop(admission);
        let registry = self.clone();
        let shell_id = id.clone();
        std::thread::spawn(move || registry.drain(&shell_id, &job));
        id
    }

    /// Moves `job`'s output into its buffer until the run is over.
    fn drain(&self, id: &str, job: &Background) {
        loop {
            let status = job.wait_timeout(POLL);
            self.push(id, job.read_new());
            if status != Status::Running {
                break;
            }
        }
        // The shell is reaped; the runner kills what is left of its group and drains
        // the pipe, then the run is over.
        let status = job.wait_timeout(KILL_PATIENCE);
        self.push(id, job.read_new());
        let mut shells = self.lock();
        if let Some(shell) = shells.by_id.get_mut(id) {
            shell.ended = Some(status);
            shell.job = None;
            shells.ended_order.push_back(id.to_string());
        }
        while shells.ended_order.len() > MAX_FINISHED {
            if let Some(old) = shells.ended_order.pop_front() {
                shells.by_id.remove(&old);
            }
        }
    }

    fn push(&self, id: &str, chunk: OutputChunk) {
        if chunk.bytes.is_empty() && chunk.dropped == 0 {
            return;
        }
        if let Some(shell) = self.lock().by_id.get_mut(id) {
            shell.buffer.push(chunk);
        }
    }

    /// Output since `since` (or since the previous read) and the status.
    pub fn read(&self, id: &str, since: Option<u64>) -> Result<ReadOutput, String> {
        let mut shells = self.lock();
        let shell = shells.by_id.get_mut(id).ok_or_else(|| unknown(id))?;
        let status = match (&shell.ended, &shell.job) {
            (Some(status), _) => *status,
            (None, _) => Status::Running,
        };
        let (output, dropped, offset) = shell.buffer.read(since)?;
        Ok(ReadOutput {
            status,
            ended: shell.ended.is_some(),
            next_offset: offset + output.len() as u64,
            output,
            offset,
            dropped,
        })
    }

    /// Kills the shell's whole process group and waits (bounded) until it is over.
    /// Blocking: call it off the async runtime.
    pub fn kill(&self, id: &str) -> Result<Status, String> {
        let job = {
            let shells = self.lock();
            let shell = shells.by_id.get(id).ok_or_else(|| unknown(id))?;
            match (&shell.ended, &shell.job) {
                (Some(status), _) => return Ok(*status),
                (None, Some(job)) => Arc::clone(job),
                (None, None) => return Ok(Status::Running),
            }
        };
        job.kill();
        let deadline = Instant::now() + KILL_PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.lock().by_id.get(id).and_then(|s| s.ended) {
                return Ok(status);
            }
            std::thread::sleep(POLL);
        }
        Ok(job.status())
    }

    /// Every shell the registry remembers, oldest first.
    pub fn list(&self) -> Vec<ShellSummary> {
        let shells = self.lock();
        let mut list: Vec<ShellSummary> = shells
            .by_id
            .iter()
            .map(|(id, shell)| ShellSummary {
                id: id.clone(),
                command: shell.command.clone(),
                description: shell.description.clone(),
                pid: shell.pid,
                status: shell.ended.unwrap_or(Status::Running),
                ended: shell.ended.is_some(),
                elapsed_secs: shell.started.elapsed().as_secs(),
                deadline_secs: shell.deadline.as_secs(),
                output_bytes: shell.buffer.end,
            })
            .collect();
        list.sort_by_key(|s| std::cmp::Reverse(s.elapsed_secs));
        list
    }

    /// Kills every running shell's process group and waits (bounded) for them to
    /// end. The server calls it when it exits. Blocking.
    pub fn kill_all(&self) {
        let jobs: Vec<Arc<Background>> = self
            .lock()
            .by_id
            .values()
            .filter_map(|s| s.job.clone())
            .collect();
        for job in &jobs {
            job.kill();
        }
        for job in &jobs {
            job.wait_timeout(KILL_PATIENCE);
        }
    }
}

fn unknown(id: &str) -> String {
    format!("no shell {id:?} in this server (list_shells names them)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(bytes: &[u8], dropped: u64) -> OutputChunk {
        OutputChunk {
            bytes: bytes.to_vec(),
            dropped,
        }
    }

    #[test]
    fn an_admission_holds_its_place_until_dropped() {
        let registry = ShellRegistry::new(ShellLimits {
            max_live: 2,
            max_buffered: 3 * DEFAULT_BUFFER_CAP,
            ..ShellLimits::default()
        });
        let first = registry.admit().unwrap();
        let second = registry.admit().unwrap();
        let third = registry.admit().unwrap_err();
        assert!(third.contains("too many background shells"), "{third}");
        drop(first);
        let again = registry.admit().unwrap();
        drop((second, again));
        let tight = ShellRegistry::new(ShellLimits {
            max_buffered: DEFAULT_BUFFER_CAP,
            ..ShellLimits::default()
        });
        let only = tight.admit().unwrap();
        assert!(
            tight
                .admit()
                .unwrap_err()
                .contains("too much buffered output")
        );
        drop(only);
        assert!(tight.admit().is_ok());
    }

    #[test]
    fn reads_continue_from_the_cursor_or_from_since() {
        let mut b = Buffer::new(8);
        b.push(chunk(b"abc", 0));
        assert_eq!(b.read(None).unwrap(), (b"abc".to_vec(), 0, 0));
        b.push(chunk(b"de", 0));
        assert_eq!(b.read(None).unwrap(), (b"de".to_vec(), 0, 3));
        assert_eq!(b.read(Some(1)).unwrap(), (b"bcde".to_vec(), 0, 1));
        assert_eq!(b.read(None).unwrap(), (Vec::new(), 0, 5));
        assert!(b.read(Some(6)).is_err());
    }

    #[test]
    fn old_bytes_are_dropped_and_counted_against_since() {
        let mut b = Buffer::new(4);
        b.push(chunk(b"0123456", 0));
        assert_eq!(b.read(Some(0)).unwrap(), (b"3456".to_vec(), 3, 3));
        b.push(chunk(b"wxyz", 10));
        // 7 written, 10 dropped by the runner, then 4 kept.
        assert_eq!(b.end, 21);
        assert_eq!(b.read(None).unwrap(), (b"wxyz".to_vec(), 10, 17));
    }
}
