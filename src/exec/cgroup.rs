//! A pids cgroup per run: the process limit that also holds for root.
//!
//! The kernel ignores `RLIMIT_NPROC` for root, and agents' containers often run as
//! root, so a fork bomb needs a cgroup. With the cgroup-v1 `pids` controller a single
//! thread can be moved (`tasks` takes a thread id): the runner's short-lived spawning
//! thread joins a fresh cgroup with `pids.max` set, then forks the shell, which is born
//! inside it — no window in which the child runs unbounded. Cgroup v2 moves whole
//! processes only (`cgroup.procs`), which would move the runner itself; without
//! `clone3(CLONE_INTO_CGROUP)` (which needs unsafe code) the runner does not use it,
//! and the report says the cgroup limit was not applied.
//!
//! When the run ends every process left in the cgroup is killed — including ones that
//! left the process group with `setsid` — and the cgroup is removed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const V1_PIDS_MOUNT: &str = "/sys/fs/cgroup/pids";

/// A cgroup created for one run.
#[derive(Debug)]
pub struct PidsCgroup {
    dir: PathBuf,
}

impl PidsCgroup {
    /// Creates a v1 pids cgroup under the runner's own, limited to `max` tasks.
    /// Errors say why it could not be created (no v1 pids controller, read-only
    /// cgroupfs, not permitted).
    pub fn create(max: u64) -> Result<PidsCgroup, String> {
        let mount = Path::new(V1_PIDS_MOUNT);
        if !mount.join("tasks").is_file() {
            return Err("no cgroup-v1 pids controller is mounted".into());
        }
        let own = fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let relative = own
            .lines()
            .filter_map(|line| {
                let mut parts = line.splitn(3, ':');
                parts.next();
                Some((parts.next()?, parts.next()?))
            })
            .find(|(controllers, _)| controllers.split(',').any(|c| c == "pids"))
            .map(|(_, path)| path.trim_start_matches('/').to_string())
            .ok_or("the runner is in no pids cgroup")?;
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "bashgate-exec-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let dir = mount.join(relative).join(name);
        fs::create_dir(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let cgroup = PidsCgroup { dir };
        fs::write(cgroup.dir.join("pids.max"), max.to_string())
            .map_err(|e| format!("cannot set pids.max: {e}"))?;
        Ok(cgroup)
    }

    /// Moves the calling thread (only it) into the cgroup; what it forks afterwards is
    /// born inside.
    pub fn enter_this_thread(&self) -> Result<(), String> {
        let tid = rustix::thread::gettid().as_raw_nonzero().get();
        fs::write(self.dir.join("tasks"), tid.to_string())
            .map_err(|e| format!("cannot move the spawning thread into the cgroup: {e}"))
    }

    /// The largest number of tasks seen at once (`pids.peak`, where the kernel has it).
    pub fn peak(&self) -> Option<u64> {
        fs::read_to_string(self.dir.join("pids.peak"))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Processes still in the cgroup. The runner's own pid is never listed: in v1 a
    /// process appears while any of its threads is inside (the spawning thread, for a
    /// moment after it spawned).
    pub fn members(&self) -> Vec<i32> {
        let own = std::process::id() as i32;
        fs::read_to_string(self.dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .filter(|pid| *pid != own)
            .collect()
    }

    /// Kills every process in the cgroup until it is empty (or `within` passes).
    pub fn kill_all(&self, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let members = self.members();
            if members.is_empty() || Instant::now() > deadline {
                return;
            }
            for pid in members {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        self.kill_all(Duration::from_secs(2));
        // A zombie not yet reaped keeps the cgroup busy for a moment.
        for _ in 0..100 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
