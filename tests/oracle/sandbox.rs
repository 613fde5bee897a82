//! A throwaway sandbox that runs one command under real bash and traces it.
//!
//! bubblewrap unshares every namespace (no network), binds the system read-only, puts
//! a fresh tmpfs on `/tmp`, and binds a per-run folder holding the workspace (the
//! command's cwd and the gate's root) and a fake HOME with decoy secrets. Inside,
//! `strace -f -y` logs program starts and file operations. When the tests run as
//! root, the sandbox runs as `nobody` (no host privileges at all, and a process-count
//! limit that root would ignore). A wall-clock timeout bounds every run.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The unprivileged user the sandbox runs as when the tests run as root.
const NOBODY: u32 = 65534;
/// Most processes the sandbox user may have (a fork bomb stops here).
const MAX_PROCESSES: u32 = 256;

/// System calls traced: program starts, process creation and file operations.
const TRACED: &str = "execve,execveat,clone,clone3,fork,vfork,open,openat,openat2,creat,\
chdir,unlink,unlinkat,rmdir,mkdir,mkdirat,mknod,mknodat,truncate,chmod,fchmodat,chown,\
lchown,fchownat,utimensat,symlink,symlinkat,link,linkat,rename,renameat,renameat2";

/// Why the sandbox cannot run here.
pub fn unavailable() -> Option<String> {
    for tool in ["bwrap", "strace", "setpriv", "timeout"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if !found {
            return Some(format!("`{tool}` is not installed"));
        }
    }
    static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = Sandbox::new(&format!("probe{n}"));
    let run = probe.run("echo probe > probe.txt", Duration::from_secs(20));
    let ok = probe.workspace.join("probe.txt").exists() && run.output.contains("execve");
    drop(probe);
    if !ok {
        return Some(format!(
            "bubblewrap or strace does not work here:\n{}",
            run.output
        ));
    }
    None
}

/// One sandbox: a host folder with `ws` (the workspace) and `home`.
pub struct Sandbox {
    base: PathBuf,
    /// The command's cwd and the gate's root.
    pub workspace: PathBuf,
    /// The fake HOME.
    pub home: PathBuf,
}

/// What a run left behind.
pub struct Run {
    /// strace's output.
    pub output: String,
    /// True when the timeout killed it.
    pub timed_out: bool,
}

impl Sandbox {
    /// A sandbox folder named after `id` under the temp folder, filled by [`Sandbox::reset`].
    pub fn new(id: &str) -> Sandbox {
        let base =
            std::env::temp_dir().join(format!("bashgate-oracle-{}-{id}", std::process::id()));
        let sandbox = Sandbox {
            workspace: base.join("ws"),
            home: base.join("home"),
            base,
        };
        sandbox.reset();
        sandbox
    }

    /// Rebuilds the workspace and HOME from scratch: project files, decoy secrets,
    /// and symlinks that leave the project (`etc-link -> /etc`, `keys -> ~/.ssh`,
    /// `dangling -> /tmp/dangling-target`, which does not exist).
    pub fn reset(&self) {
        let _ = Command::new("rm").arg("-rf").arg(&self.base).status();
        for dir in [
            self.workspace.join("src"),
            self.home.join(".ssh"),
            self.home.join(".aws"),
        ] {
            std::fs::create_dir_all(&dir).expect("create sandbox folder");
        }
        for (file, text) in [
            (self.workspace.join("a.txt"), "a\n"),
            (self.workspace.join("notes.md"), "# notes\n"),
            (self.workspace.join("src/lib.rs"), "pub fn x() {}\n"),
            (self.workspace.join("src/main.rs"), "fn main() {}\n"),
            (self.workspace.join(".env"), "TOKEN=decoy\n"),
            (self.home.join(".ssh/id_rsa"), "decoy key\n"),
            (self.home.join(".bashrc"), "# decoy rc\n"),
            (self.home.join(".aws/credentials"), "[default]\n"),
            (self.home.join("notes.txt"), "notes\n"),
        ] {
            std::fs::write(&file, text).expect("write sandbox file");
        }
        std::os::unix::fs::symlink("/etc", self.workspace.join("etc-link"))
            .unwrap_or_else(|e| panic!("symlink in {}: {e}", self.workspace.display()));
        std::os::unix::fs::symlink(self.home.join(".ssh"), self.workspace.join("keys"))
            .expect("symlink");
        std::os::unix::fs::symlink("/tmp/dangling-target", self.workspace.join("dangling"))
            .expect("symlink");
        if is_root() {
            let _ = Command::new("chown")
                .args(["-R", &format!("{NOBODY}:{NOBODY}")])
                .arg(&self.base)
                .status();
        }
    }

    /// Runs `command` with `bash -c` in the sandbox and returns strace's output.
    pub fn run(&self, command: &str, timeout: Duration) -> Run {
        let mut cmd = Command::new("timeout");
        cmd.args(["-s", "KILL", &format!("{}", timeout.as_secs().max(1))]);
        if is_root() {
            cmd.args([
                "setpriv",
                &format!("--reuid={NOBODY}"),
                &format!("--regid={NOBODY}"),
                "--clear-groups",
                "--inh-caps=-all",
            ]);
        }
        // A shell sets the process limit, then becomes bubblewrap.
        cmd.args([
            "sh",
            "-c",
            &format!("ulimit -u {MAX_PROCESSES} 2>/dev/null; exec \"$@\""),
            "sh",
            "bwrap",
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--setenv",
            "PATH",
            "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
            "--setenv",
            "LC_ALL",
            "C.UTF-8",
        ]);
        cmd.arg("--setenv").arg("HOME").arg(&self.home);
        cmd.args(["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]);
        for top in ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"] {
            match std::fs::read_link(top) {
                Ok(target) => {
                    cmd.arg("--symlink").arg(target).arg(top);
                }
                Err(_) if Path::new(top).is_dir() => {
                    cmd.args(["--ro-bind", top, top]);
                }
                Err(_) => {}
            }
        }
        // Empty shell startup files: what a login shell sources is the user's
        // environment, which the gate trusts like the programs on PATH.
        for startup in ["/etc/profile", "/etc/bash.bashrc"] {
            if Path::new(startup).exists() {
                cmd.args(["--ro-bind", "/dev/null", startup]);
            }
        }
        cmd.args(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
        cmd.arg("--bind").arg(&self.base).arg(&self.base);
        cmd.arg("--chdir").arg(&self.workspace);
        cmd.args([
            "--",
            "strace",
            "-f",
            "-qq",
            "-y",
            "-s",
            "4096",
            // Through a pipe to stderr: with `-o`, every line carries its pid.
            "-o",
            "|cat >&2",
            "-e",
            "signal=none",
            "-e",
            &format!("trace={TRACED}"),
            // The traced bash gets no terminal and no input; its output is dropped
            // so the trace (on stderr) stays readable.
            "sh",
            "-c",
            "exec \"$@\" </dev/null >/dev/null 2>&1",
            "sh",
            "bash",
            "-c",
            command,
        ]);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = match cmd.spawn() {
            Ok(child) => child,
            Err(e) => {
                return Run {
                    output: format!("spawn failed: {e}"),
                    timed_out: false,
                };
            }
        };
        let mut output = String::new();
        if let Some(mut err) = child.stderr.take() {
            let mut bytes = Vec::new();
            let _ = err.read_to_end(&mut bytes);
            output = String::from_utf8_lossy(&bytes).into_owned();
        }
        let status = child.wait();
        let timed_out = start.elapsed() >= timeout
            || status
                .map(|s| s.code() == Some(137) || s.code().is_none())
                .unwrap_or(true);
        Run { output, timed_out }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

fn is_root() -> bool {
    static ROOT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ROOT.get_or_init(|| {
        Command::new("id")
            .arg("-u")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
            .unwrap_or(false)
    })
}
