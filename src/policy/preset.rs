//! Presets: policies that reproduce the rules of a tool bashgate replaces, so a user
//! can switch without losing a rule they rely on, and gains the AST analysis on top.
//! A preset is chosen with `--preset NAME`, `preset = "NAME"` in a config file, or
//! [`crate::GateBuilder::preset`]; `bashgate rules --preset NAME` lists what it turns
//! on.

use super::{Mode, Policy};
use serde::Deserialize;

/// A named policy reproducing another tool's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// The task runner's validation of agent-added tasks: one allowed build-tool
    /// prefix, a short plain-character command, no denylisted word, no path out of
    /// the root (rules BG401–BG408), on top of the safe mode.
    Taskdev,
    /// The project sandbox of coding agents that confine paths to the project: the
    /// safe mode (home, variables, absolute and `..` escapes, redirect targets,
    /// quoted paths, rm/rmdir gated, `allowed_paths`).
    SandboxKoda,
    /// The agent Bash tool's denylist (`sudo`, `su`, `shutdown`, `reboot`, `halt`,
    /// `poweroff`, `chroot`, `mount`, `umount`, `mkfs*`) at every command position,
    /// on top of the safe mode.
    BashToolDenylist,
}

/// The programs the `bash-tool-denylist` preset denies (BG201); a trailing `*`
/// matches any suffix.
pub const BASH_TOOL_DENYLIST: &[&str] = &[
    "sudo", "su", "shutdown", "reboot", "halt", "poweroff", "chroot", "mount", "umount", "mkfs*",
];

impl Preset {
    /// Every preset, in the order `bashgate rules --preset` documents them.
    pub const ALL: [Preset; 3] = [
        Preset::Taskdev,
        Preset::SandboxKoda,
        Preset::BashToolDenylist,
    ];

    /// Parses `taskdev`, `sandbox-koda` or `bash-tool-denylist`.
    ///
    /// ```
    /// use bashgate::Preset;
    /// assert_eq!(Preset::parse("taskdev"), Some(Preset::Taskdev));
    /// assert_eq!(Preset::parse("nope"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The preset's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Taskdev => "taskdev",
            Preset::SandboxKoda => "sandbox-koda",
            Preset::BashToolDenylist => "bash-tool-denylist",
        }
    }

    /// One paragraph: what the preset reproduces and how it differs from the tool.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Taskdev => {
                "The task runner's rules for agent-added tasks: at most 300 characters \
                 after trimming (BG401); only letters, digits, space and _ . / : @ % + = , - \\ \" ' \
                 (BG402); none of ; & | < > $ ( ) or a line break (BG403); exactly one allowed \
                 prefix: npm run S, pnpm run S, yarn [run] S, dotnet run|watch|test|build, \
                 cargo run|test|build|watch, go run|test|build (BG404, BG405); no executable \
                 denylist word (BG406); no `..` segment and no absolute path outside the root, \
                 also in KEY=value values (BG407); a cwd inside the root (BG408); no env key \
                 PATH, PATHEXT, NODE_OPTIONS, LD_PRELOAD, LD_LIBRARY_PATH or DYLD_* (BG409, \
                 library API `Gate::check_task`). Every failure denies. The safe mode's AST \
                 rules apply on top."
            }
            Preset::SandboxKoda => {
                "The project sandbox: the safe mode. Like the sandbox it asks for paths under \
                 home (~, $HOME), unknown variables, absolute paths and `..` escapes out of the \
                 root, redirect targets outside, quoted paths outside (only when they exist), \
                 skips echo/printf text, gates rm/rmdir and honours allowed_paths. Differences: \
                 bashgate also follows wrappers, nested scripts and `$(...)`, resolves symlinks, \
                 denies (not asks) sensitive writes, destructive and privileged commands, and \
                 judges network tools and inline code."
            }
            Preset::BashToolDenylist => {
                "The Bash tool's denylist: sudo, su, shutdown, reboot, halt, poweroff, chroot, \
                 mount, umount and mkfs* are denied (BG201) at every command position: after \
                 wrappers, in pipelines, $(...), bash -c strings and eval. Everything else the \
                 safe mode finds applies on top."
            }
        }
    }

    /// The rule codes the preset turns on beyond the mode's (`bashgate rules
    /// --preset`).
    pub fn rule_codes(self) -> &'static [&'static str] {
        match self {
            Preset::Taskdev => &[
                "BG401", "BG402", "BG403", "BG404", "BG405", "BG406", "BG407", "BG408", "BG409",
            ],
            Preset::SandboxKoda => &[],
            Preset::BashToolDenylist => &["BG201"],
        }
    }

    /// Applies the preset to `policy`: sets the mode and adds its denylist entries.
    pub fn apply(self, policy: &mut Policy) {
        policy.preset = Some(self);
        policy.mode = Mode::Safe;
        if self == Preset::BashToolDenylist {
            for name in BASH_TOOL_DENYLIST {
                if !policy.denylist.iter().any(|d| d == name) {
                    policy.denylist.push((*name).to_string());
                }
            }
        }
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
