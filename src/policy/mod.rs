//! The policy a command is judged against: the project root, extra allowed and
//! read-only paths, sensitive paths, extra denylisted executables, permission rules,
//! the mode and the limits. Built with [`crate::GateBuilder`] or loaded from TOML
//! (`bashgate.toml` at the project root, the user's config file, `--config FILE`);
//! lists append across layers, scalars are overridden by later layers.
//!
//! ```toml
//! mode = "safe"                 # safe | trusted | strict | audit
//! max_input_bytes = 65536
//! max_nesting = 8
//! allowed_paths = ["../shared-lib", "~/.cargo/registry"]
//! read_only_paths = ["/usr/share/dict"]
//! sensitive_paths = ["~/.config/secret-tool"]
//! denylist = ["terraform"]
//! preset = "taskdev"          # taskdev | sandbox-koda | bash-tool-denylist
//!
//! [permission.bash]
//! "git push *" = "ask"
//! "npm run *" = { decision = "allow", match = ["npm run build"] }
//!
//! [programs.deploy]             # a catalogue entry of the user's (catalogue/README.md)
//! summary = "the team's deploy script"
//! facts = ["network"]
//! ```

mod config;
mod config_error;
pub(crate) mod defaults;
pub(crate) mod examples;
pub(crate) mod paths;
pub(crate) mod permission;
mod preset;
mod programs;
pub(crate) mod sandbox;

pub use config::{ConfigError, ConfigErrorKind, user_config_path};
pub use defaults::{AGENT_SETTINGS, USER_AGENT_SETTINGS};
pub use preset::{BASH_TOOL_DENYLIST, Preset};

use crate::model::paths::{PATH_VARIABLES, Resolver};
use crate::verdict::Decision;
use serde::Deserialize;
use std::path::PathBuf;

/// Default limit on the command's length in bytes.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 64 * 1024;
/// Default limit on scripts nested in scripts.
pub const DEFAULT_MAX_NESTING: u32 = 8;

/// How strict the gate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The default: every rule at its default decision.
    #[default]
    Safe,
    /// Network tools and inline scripts are allowed; still no escapes or destruction.
    Trusted,
    /// Allow-list: only commands matching an `allow` permission rule are allowed.
    Strict,
    /// Report only: the decision is always allow, findings are kept.
    Audit,
}

impl Mode {
    /// Parses `safe`, `trusted`, `strict` or `audit`.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "safe" => Some(Mode::Safe),
            "trusted" => Some(Mode::Trusted),
            "strict" => Some(Mode::Strict),
            "audit" => Some(Mode::Audit),
            _ => None,
        }
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Safe => "safe",
            Mode::Trusted => "trusted",
            Mode::Strict => "strict",
            Mode::Audit => "audit",
        }
    }
}

/// A user pattern over the normalised simple command (`"git push *" = "ask"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionRule {
    /// The pattern; `*` matches any run of characters.
    pub pattern: String,
    /// What a match decides.
    pub decision: Decision,
}

/// Everything a command is judged against.
///
/// ```
/// use bashgate::{Decision, Gate, Mode, Policy};
/// let mut policy = Policy::new("/project");
/// policy.apply_toml("mode = \"strict\"\n[permission.bash]\n\"just *\" = \"allow\"\n",
///                   "/project/bashgate.toml".as_ref())?;
/// assert_eq!(policy.mode, Mode::Strict);
/// let gate = Gate::new(policy);
/// assert_eq!(gate.check("just test").decision, Decision::Allow);
/// assert_eq!(gate.check("terraform plan").decision, Decision::Ask);
/// # Ok::<(), bashgate::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Policy {
    /// The project root (absolute; canonicalised when it exists).
    pub root: PathBuf,
    /// The user's home directory.
    pub home: Option<PathBuf>,
    /// Extra folders that may be read and written.
    pub allowed_paths: Vec<PathBuf>,
    /// Extra folders that may be read.
    pub read_only_paths: Vec<PathBuf>,
    /// Extra sensitive paths or globs (the built-in list cannot be shrunk).
    pub sensitive_paths: Vec<String>,
    /// Extra denylisted executables (basenames).
    pub denylist: Vec<String>,
    /// Permission rules in the order given (later wins ties).
    pub permissions: Vec<PermissionRule>,
    /// The mode.
    pub mode: Mode,
    /// Commands longer than this are not parsed (BG002).
    pub max_input_bytes: usize,
    /// Scripts nested deeper than this are not analysed (BG002).
    pub max_nesting: u32,
    /// Path-bearing environment variables (`TMPDIR`, `OLDPWD`, `XDG_*`) as the
    /// commands will see them; a variable not given here is unknown (outside).
    pub env: std::collections::BTreeMap<String, String>,
    /// What `bashgate exec` reads: network, environment, limits, toolchains.
    pub sandbox: sandbox::SandboxPolicy,
    /// The preset applied, if any (its rules run on top of the mode's).
    pub preset: Option<Preset>,
    /// The program catalogue with the config's `[programs.NAME]` entries on top.
    pub programs: crate::catalogue::Catalogue,
    /// The config's example commands (`match`, `not_match`), judged when a gate
    /// is built.
    pub(crate) examples: Vec<examples::Example>,
}

impl Policy {
    /// A default policy for `root`.
    pub fn new(root: impl Into<PathBuf>) -> Policy {
        let root = root.into();
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        Policy {
            root,
            home: dirs::home_dir(),
            allowed_paths: Vec::new(),
            read_only_paths: Vec::new(),
            sensitive_paths: Vec::new(),
            denylist: Vec::new(),
            permissions: Vec::new(),
            mode: Mode::Safe,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_nesting: DEFAULT_MAX_NESTING,
            env: PATH_VARIABLES
                .iter()
                .filter(|name| **name != "HOME" && **name != "PWD")
                .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
                .collect(),
            sandbox: Default::default(),
            preset: None,
            programs: Default::default(),
            examples: Vec::new(),
        }
    }

    /// The path resolver for this policy's home directory and environment.
    pub(crate) fn resolver(&self) -> Resolver {
        Resolver::new(self.home.clone(), self.env.clone())
    }
}
