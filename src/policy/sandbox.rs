//! The `[sandbox]` section of the policy: what `bashgate exec` reads besides the
//! paths the gate already knows (network, environment pass list, resource limits,
//! toolchain presets, keeping the private folders). It is plain data, compiled even
//! without the `exec` feature, so a gate-only build accepts the same config files.
//!
//! ```toml
//! [sandbox]
//! network = "off"                # "off" (default) | "on" | { connect = [443, 8080] }
//! unix_sockets = "off"           # "off" (default): no unix socket can be made | "on"
//! toolchains = ["rust", "node"]  # read-only homes: see [`Toolchain`]
//! keep_temp = false              # keep the private HOME and TMPDIR afterwards
//! shell = "/bin/bash"            # the shell that runs `SHELL -c COMMAND`
//!
//! [sandbox.env]
//! pass = ["CARGO_*", "RUSTUP_HOME"]
//!
//! [sandbox.limits]
//! processes = 4096               # cgroup pids.max and RLIMIT_NPROC
//! file_size_mb = 16384           # RLIMIT_FSIZE
//! cpu_seconds = 3600             # RLIMIT_CPU
//! address_space_mb = 0           # RLIMIT_AS; 0 = no limit
//! ```
//!
//! Lists append across config layers; scalars and tables given later override.

use serde::Deserialize;
use std::path::PathBuf;

/// Default process limit: room for `cargo build -j` and `npm install`, not for a
/// fork bomb.
pub const DEFAULT_PROCESSES: u64 = 4096;
/// Default file-size limit (16 GiB): larger than any build artefact we expect.
pub const DEFAULT_FILE_SIZE_MB: u64 = 16 * 1024;
/// Default CPU-time limit in seconds (one hour of CPU across the command's
/// processes is counted per process by the kernel).
pub const DEFAULT_CPU_SECONDS: u64 = 3600;
/// Default address-space limit: none. V8 and the JVM reserve tens of GiB of
/// address space they never touch, so a default cap would break `node` and `npm`.
pub const DEFAULT_ADDRESS_SPACE_MB: u64 = 0;

/// What the runner may reach on the network.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Network {
    /// No TCP connect or bind (the default).
    #[default]
    Off,
    /// TCP is not restricted.
    On,
    /// TCP connect to these ports only; no bind.
    Connect(Vec<u16>),
}

/// Whether the command may make unix sockets (`socket(AF_UNIX, …)`).
///
/// Landlock below ABI 9 has no rule for a socket file, so a command that can make a
/// unix socket can connect to any local daemon whose socket it can name: the Docker
/// daemon, the user's systemd and D-Bus session, a tmux server, the SSH and GPG
/// agents — each a way out of the sandbox. `Off` (the default) refuses the call in a
/// system-call filter; `On` lets programs that serve a socket of their own inside
/// the sandbox work (Python's `forkserver` start method, `gpg-agent`), and opens
/// those doors again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnixSockets {
    /// No unix socket can be made (the default).
    #[default]
    Off,
    /// Unix sockets are not restricted.
    On,
}

impl UnixSockets {
    /// The word used in config files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            UnixSockets::Off => "off",
            UnixSockets::On => "on",
        }
    }
}

/// A toolchain whose home folders the sandbox may read (never write), and the
/// environment names that point programs at them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Toolchain {
    /// `~/.cargo`, `~/.rustup`; sets `CARGO_HOME` and `RUSTUP_HOME`.
    Rust,
    /// `~/.npm`, `~/.nvm`, `~/.node-gyp`, `~/.cache/node`.
    Node,
    /// `~/.pyenv`, `~/.cache/pip`, `~/.local/lib`, `~/.local/bin`; sets `PYENV_ROOT`.
    Python,
    /// `~/go`, `~/.cache/go-build`; sets `GOPATH` and `GOCACHE`.
    Go,
}

impl Toolchain {
    /// The folders under HOME this toolchain reads.
    pub fn home_folders(self) -> &'static [&'static str] {
        match self {
            Toolchain::Rust => &[".cargo", ".rustup"],
            Toolchain::Node => &[".npm", ".nvm", ".node-gyp", ".cache/node"],
            Toolchain::Python => &[".pyenv", ".cache/pip", ".local/lib", ".local/bin"],
            Toolchain::Go => &["go", ".cache/go-build"],
        }
    }

    /// Environment names set to a folder under the real HOME so the toolchain finds
    /// itself although HOME is private.
    pub fn env_homes(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Toolchain::Rust => &[("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")],
            Toolchain::Node => &[],
            Toolchain::Python => &[("PYENV_ROOT", ".pyenv")],
            Toolchain::Go => &[("GOPATH", "go"), ("GOCACHE", ".cache/go-build")],
        }
    }

    /// The lowercase name used in config files.
    pub fn as_str(self) -> &'static str {
        match self {
            Toolchain::Rust => "rust",
            Toolchain::Node => "node",
            Toolchain::Python => "python",
            Toolchain::Go => "go",
        }
    }
}

/// Resource limits for the command and everything it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Processes (and threads) at once: cgroup `pids.max` where the runner can
    /// create a cgroup, and `RLIMIT_NPROC` (which the kernel ignores for root).
    pub processes: u64,
    /// Largest file a process may write, in MiB (`RLIMIT_FSIZE`).
    pub file_size_mb: u64,
    /// CPU seconds per process (`RLIMIT_CPU`).
    pub cpu_seconds: u64,
    /// Address space per process in MiB (`RLIMIT_AS`); 0 means no limit.
    pub address_space_mb: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            processes: DEFAULT_PROCESSES,
            file_size_mb: DEFAULT_FILE_SIZE_MB,
            cpu_seconds: DEFAULT_CPU_SECONDS,
            address_space_mb: DEFAULT_ADDRESS_SPACE_MB,
        }
    }
}

/// Everything the sandbox section of the policy says, after merging the layers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SandboxPolicy {
    /// TCP access.
    pub network: Network,
    /// Whether unix sockets can be made.
    pub unix_sockets: UnixSockets,
    /// Toolchain presets whose homes are readable.
    pub toolchains: Vec<Toolchain>,
    /// Environment names (or `PREFIX*` globs) passed to the command.
    pub env_pass: Vec<String>,
    /// Resource limits.
    pub limits: Limits,
    /// Keep the private HOME and TMPDIR after the command ends.
    pub keep_temp: bool,
    /// The shell that runs the command (`bash` from PATH when `None`).
    pub shell: Option<PathBuf>,
}

impl SandboxPolicy {
    /// Applies one config file's `[sandbox]` table on top of this one.
    pub(crate) fn apply(&mut self, section: SandboxSection) {
        if let Some(network) = section.network {
            self.network = match network {
                NetworkSetting::Word(NetworkWord::Off) => Network::Off,
                NetworkSetting::Word(NetworkWord::On) => Network::On,
                NetworkSetting::Ports { connect } => Network::Connect(connect),
            };
        }
        if let Some(unix_sockets) = section.unix_sockets {
            self.unix_sockets = unix_sockets;
        }
        for toolchain in section.toolchains {
            if !self.toolchains.contains(&toolchain) {
                self.toolchains.push(toolchain);
            }
        }
        if let Some(env) = section.env {
            self.env_pass.extend(env.pass);
        }
        if let Some(limits) = section.limits {
            let l = &mut self.limits;
            l.processes = limits.processes.unwrap_or(l.processes);
            l.file_size_mb = limits.file_size_mb.unwrap_or(l.file_size_mb);
            l.cpu_seconds = limits.cpu_seconds.unwrap_or(l.cpu_seconds);
            l.address_space_mb = limits.address_space_mb.unwrap_or(l.address_space_mb);
        }
        if let Some(keep) = section.keep_temp {
            self.keep_temp = keep;
        }
        if let Some(shell) = section.shell {
            self.shell = Some(shell);
        }
    }
}

/// The `[sandbox]` table as written in a config file.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct SandboxSection {
    network: Option<NetworkSetting>,
    unix_sockets: Option<UnixSockets>,
    #[serde(default)]
    toolchains: Vec<Toolchain>,
    env: Option<EnvSection>,
    limits: Option<LimitsSection>,
    keep_temp: Option<bool>,
    shell: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NetworkSetting {
    Word(NetworkWord),
    Ports { connect: Vec<u16> },
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum NetworkWord {
    Off,
    On,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvSection {
    #[serde(default)]
    pass: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsSection {
    processes: Option<u64>,
    file_size_mb: Option<u64>,
    cpu_seconds: Option<u64>,
    address_space_mb: Option<u64>,
}

#[cfg(test)]
mod tests {
    use crate::Policy;
    use std::path::Path;

    fn apply(text: &str) -> Result<Policy, crate::ConfigError> {
        let mut policy = Policy::new("/nonexistent-root");
        policy.apply_toml(text, Path::new("/cfg/bashgate.toml"))?;
        Ok(policy)
    }

    #[test]
    fn sandbox_keys_are_read_and_lists_append() {
        let mut policy = apply(
            "[sandbox]\nnetwork = { connect = [443] }\ntoolchains = [\"rust\"]\n\
             [sandbox.env]\npass = [\"CARGO_*\"]\n[sandbox.limits]\nprocesses = 64\n",
        )
        .unwrap();
        policy
            .apply_toml(
                "[sandbox]\nnetwork = \"on\"\n[sandbox.env]\npass = [\"GOPATH\"]\n",
                Path::new("/cfg/second.toml"),
            )
            .unwrap();
        let s = &policy.sandbox;
        assert_eq!(s.network, super::Network::On);
        assert_eq!(s.toolchains, vec![super::Toolchain::Rust]);
        assert_eq!(
            s.env_pass,
            vec!["CARGO_*".to_string(), "GOPATH".to_string()]
        );
        assert_eq!(s.limits.processes, 64);
        assert_eq!(s.limits.cpu_seconds, super::DEFAULT_CPU_SECONDS);
    }

    #[test]
    fn unknown_sandbox_keys_name_the_file_and_line() {
        let err = apply("mode = \"safe\"\n[sandbox.limits]\nprocs = 3\n").unwrap_err();
        assert_eq!(err.path, Path::new("/cfg/bashgate.toml"));
        assert!(err.message.contains("line 3"), "{}", err.message);
        assert!(err.message.contains("procs"), "{}", err.message);
    }

    #[test]
    fn a_bad_network_value_is_an_error() {
        assert!(apply("[sandbox]\nnetwork = \"maybe\"\n").is_err());
        assert!(apply("[sandbox]\ntoolchains = [\"cobol\"]\n").is_err());
    }

    #[test]
    fn unix_sockets_are_off_unless_a_layer_turns_them_on() {
        use super::UnixSockets;
        assert_eq!(apply("").unwrap().sandbox.unix_sockets, UnixSockets::Off);
        let on = apply("[sandbox]\nunix_sockets = \"on\"\n").unwrap();
        assert_eq!(on.sandbox.unix_sockets, UnixSockets::On);
        let mut policy = on;
        policy
            .apply_toml(
                "[sandbox]\nunix_sockets = \"off\"\n",
                Path::new("/cfg/b.toml"),
            )
            .unwrap();
        assert_eq!(policy.sandbox.unix_sockets, UnixSockets::Off);
        assert!(apply("[sandbox]\nunix_sockets = true\n").is_err());
        assert!(apply("[sandbox]\nunix_sockets = \"some\"\n").is_err());
    }
}
