//! Loading the policy from TOML: the project's `bashgate.toml`, the user's config
//! file and `--config FILE`, in that order. Lists append across files, scalars are
//! overridden by later files. Every problem is a [`ConfigError`] naming the file, the
//! line and the key; nothing in a config file is silently dropped.

pub use super::config_error::{ConfigError, ConfigErrorKind};
use super::{Mode, PermissionRule, Policy, Preset};
use serde::Deserialize;
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
                let rule = super::examples::permission_rule(&pattern, &value, text, path)?;
                self.examples.extend(rule.examples);
                self.permissions.push(PermissionRule {
                    pattern,
                    decision: rule.decision,
                });
            }
        }
        for (name, value) in file.programs {
            let (catalogue, examples) =
                super::programs::apply_program(&self.programs, &name, &value, text, path)?;
            self.programs = catalogue;
            self.examples.extend(examples);
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
    #[serde(default)]
    programs: toml::Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionTable {
    #[serde(default)]
    bash: toml::Table,
}
