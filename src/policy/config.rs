//! Loading the policy from TOML: the project's `bashgate.toml`, the user's config
//! file and `--config FILE`, in that order. Lists append across files, scalars are
//! overridden by later files. Every problem is a [`ConfigError`] naming the file, the
//! line and the key; nothing in a config file is silently dropped.

use super::{Mode, PermissionRule, Policy, Preset};
use crate::verdict::Decision;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

impl Policy {
    /// Applies one config file's contents on top of this policy. `path` names the
    /// file in errors and anchors its relative paths.
    pub fn apply_toml(&mut self, text: &str, path: &Path) -> Result<(), ConfigError> {
        let file: ConfigFile =
            toml::from_str(text).map_err(|e| ConfigError::from_toml(path, text, &e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        // The preset first: the file's own keys (mode, denylist) apply on top of it.
        if let Some(preset) = file.preset {
            preset.apply(self);
        }
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
                let decision = value.as_str().and_then(Decision::parse).ok_or_else(|| {
                    let key = format!("permission.bash.\"{pattern}\"");
                    ConfigError {
                        path: path.to_path_buf(),
                        kind: ConfigErrorKind::InvalidValue,
                        line: line_of_key(text, &pattern),
                        message: format!(
                            "{key}: expected \"allow\", \"ask\" or \"deny\", found {value}"
                        ),
                        key: Some(key),
                    }
                })?;
                self.permissions.push(PermissionRule { pattern, decision });
            }
        }
        Ok(())
    }

    /// Reads and applies a config file.
    pub fn apply_file(&mut self, path: &Path) -> Result<(), ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::unreadable(path, &e))?;
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

/// What kind of problem a [`ConfigError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// The file could not be read.
    Unreadable,
    /// The file is not valid TOML.
    Syntax,
    /// A key the policy does not know (a typo would otherwise drop a rule).
    UnknownKey,
    /// A known key with a value of the wrong type or out of range.
    InvalidValue,
}

/// A config file that could not be used: which file, what kind of problem, the line
/// and key where they are known, and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// What kind of problem.
    pub kind: ConfigErrorKind,
    /// The 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// The key at fault, when known (`permission.bash."git push *"`).
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    fn unreadable(path: &Path, error: &std::io::Error) -> ConfigError {
        ConfigError {
            path: path.to_path_buf(),
            kind: ConfigErrorKind::Unreadable,
            line: None,
            key: None,
            message: format!("cannot read: {error}"),
        }
    }

    fn from_toml(path: &Path, text: &str, error: &toml::de::Error) -> ConfigError {
        let message = error.message().trim_end().to_string();
        let line = error
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        let kind = if message.starts_with("unknown field") {
            ConfigErrorKind::UnknownKey
        } else if message.contains("invalid type")
            || message.contains("unknown variant")
            || message.contains("invalid value")
        {
            ConfigErrorKind::InvalidValue
        } else {
            ConfigErrorKind::Syntax
        };
        let key = message
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next())
            .map(str::to_string);
        ConfigError {
            path: path.to_path_buf(),
            kind,
            line,
            key,
            message: error.to_string().trim_end().to_string(),
        }
    }
}

/// The 1-based line where a quoted key `"pattern"` first appears, for errors about it.
fn line_of_key(text: &str, pattern: &str) -> Option<usize> {
    let quoted = format!("\"{pattern}\"");
    let at = text.find(&quoted)?;
    Some(text[..at].matches('\n').count() + 1)
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
    preset: Option<Preset>,
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
    sandbox: Option<super::sandbox::SandboxSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionTable {
    #[serde(default)]
    bash: toml::Table,
}
