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
//!
//! [permission.bash]
//! "git push *" = "ask"
//! "npm run *" = "allow"
//! ```

use crate::verdict::Decision;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

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
    pub sandbox: crate::policy_sandbox::SandboxPolicy,
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
            env: crate::paths::PATH_VARIABLES
                .iter()
                .filter(|name| **name != "HOME" && **name != "PWD")
                .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
                .collect(),
            sandbox: Default::default(),
        }
    }

    /// Applies one config file's contents on top of this policy. `path` names the
    /// file in errors and anchors its relative paths.
    pub fn apply_toml(&mut self, text: &str, path: &Path) -> Result<(), ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let resolve = |p: &str| -> PathBuf {
            let expanded = match (p.strip_prefix('~'), &self.home) {
                (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
                    home.join(rest.trim_start_matches('/'))
                }
                _ => PathBuf::from(p),
            };
            if expanded.is_absolute() {
                expanded
            } else {
                base.join(expanded)
            }
        };
        if let Some(mode) = file.mode {
            self.mode = mode;
        }
        if let Some(n) = file.max_input_bytes {
            self.max_input_bytes = n;
        }
        if let Some(n) = file.max_nesting {
            self.max_nesting = n;
        }
        let allowed: Vec<PathBuf> = file.allowed_paths.iter().map(|p| resolve(p)).collect();
        let read_only: Vec<PathBuf> = file.read_only_paths.iter().map(|p| resolve(p)).collect();
        self.allowed_paths.extend(allowed);
        self.read_only_paths.extend(read_only);
        self.sensitive_paths
            .extend(file.sensitive_paths.iter().map(|p| {
                if p.starts_with('~') || p.starts_with('/') || p.starts_with("**") {
                    p.clone()
                } else {
                    base.join(p).to_string_lossy().into_owned()
                }
            }));
        self.denylist.extend(file.denylist);
        if let Some(section) = file.sandbox {
            self.sandbox.apply(section);
        }
        if let Some(permission) = file.permission {
            for (pattern, value) in permission.bash {
                let decision = value.as_str().and_then(Decision::parse).ok_or_else(|| ConfigError {
                    path: path.to_path_buf(),
                    message: format!(
                        "permission.bash.\"{pattern}\": expected \"allow\", \"ask\" or \"deny\", found {value}"
                    ),
                })?;
                self.permissions.push(PermissionRule { pattern, decision });
            }
        }
        Ok(())
    }

    /// Reads and applies a config file.
    pub fn apply_file(&mut self, path: &Path) -> Result<(), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        self.apply_toml(&text, path)
    }

    /// Applies the user's config file (`<config dir>/bashgate/config.toml`) and the
    /// project's `bashgate.toml`, each if it exists, in that order.
    pub fn apply_discovered(&mut self) -> Result<(), ConfigError> {
        if let Some(user) = user_config_path()
            && user.is_file()
        {
            self.apply_file(&user)?;
        }
        let project = self.root.join("bashgate.toml");
        if project.is_file() {
            self.apply_file(&project)?;
        }
        Ok(())
    }
}

/// `<config dir>/bashgate/config.toml`, e.g. `~/.config/bashgate/config.toml`.
pub fn user_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("bashgate").join("config.toml"))
}

/// A config file that could not be used: which file, and what is wrong (with line
/// and key where the TOML parser can tell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    mode: Option<Mode>,
    max_input_bytes: Option<usize>,
    max_nesting: Option<u32>,
    #[serde(default)]
    allowed_paths: Vec<String>,
    #[serde(default)]
    read_only_paths: Vec<String>,
    #[serde(default)]
    sensitive_paths: Vec<String>,
    #[serde(default)]
    denylist: Vec<String>,
    permission: Option<PermissionTable>,
    sandbox: Option<crate::policy_sandbox::SandboxSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionTable {
    #[serde(default)]
    bash: toml::Table,
}
