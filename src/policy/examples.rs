//! Example commands a config carries to test itself, the way ruff and ShellCheck
//! test their rules: `match = [...]` and `not_match = [...]` on a `[programs.NAME]`
//! entry or on a permission rule. The policy only records them here (with the file,
//! line and key they come from); the gate judges them when it is built, so a
//! config whose examples decide otherwise never yields a gate.
//!
//! What an example must do:
//!
//! - `[programs.NAME]` `match`: the command starts `NAME` and is caught: it
//!   decides ask or deny.
//! - `[programs.NAME]` `not_match`: the command starts `NAME` and is allowed.
//! - permission rule `match`: the rule is the one that decides at least one of the
//!   command's simple commands (the most specific pattern that matches it), and
//!   the whole command decides the rule's decision.
//! - permission rule `not_match`: the rule decides none of its simple commands.
//!
//! A permission rule with examples is a table:
//!
//! ```toml
//! [permission.bash]
//! "git push *" = { decision = "ask", match = ["git push origin main"], not_match = ["git pull"] }
//! ```

use super::PermissionRule;
use super::config_error::{ConfigError, ConfigErrorKind, line_of_path};
use crate::verdict::Decision;
use std::path::{Path, PathBuf};

/// Which way an example must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `match = [...]`: caught by the entry or decided by the rule.
    Match,
    /// `not_match = [...]`: allowed (an entry) or not decided by the rule.
    NotMatch,
}

impl Expect {
    /// The key it is written under.
    pub fn key(self) -> &'static str {
        match self {
            Expect::Match => "match",
            Expect::NotMatch => "not_match",
        }
    }
}

/// What an example tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A `[programs.NAME]` entry: the program's canonical name.
    Program(String),
    /// A permission rule.
    Permission(PermissionRule),
}

/// One example command of a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The command.
    pub command: String,
    /// Which way it must go.
    pub expect: Expect,
    /// What it tests.
    pub subject: Subject,
    /// The config file.
    pub path: PathBuf,
    /// The line of its list, when known.
    pub line: Option<usize>,
    /// Its key (`programs.deploy.match`, `permission.bash."git push *".not_match`).
    pub key: String,
}

impl Example {
    /// The config error for an example that decided otherwise.
    pub fn error(&self, what_happened: &str) -> ConfigError {
        ConfigError {
            path: self.path.clone(),
            kind: ConfigErrorKind::FailedExample,
            line: self.line,
            key: Some(self.key.clone()),
            message: format!(
                "{}: the example `{}` {what_happened}",
                self.key, self.command
            ),
        }
    }
}

/// A permission rule as read from the file, with its examples.
pub struct ReadRule {
    /// What it decides.
    pub decision: Decision,
    /// Its examples.
    pub examples: Vec<Example>,
}

/// Reads `"pattern" = "decision"` or `"pattern" = { decision = "...", match = [...],
/// not_match = [...] }`.
pub fn permission_rule(
    pattern: &str,
    value: &toml::Value,
    text: &str,
    path: &Path,
) -> Result<ReadRule, ConfigError> {
    let key = format!("permission.bash.\"{pattern}\"");
    let at = ["permission", "bash", pattern];
    let error = |kind, key: String, message: String, line_key: &[&str]| ConfigError {
        path: path.to_path_buf(),
        kind,
        line: line_of_path(text, line_key),
        message: format!("{key}: {message}"),
        key: Some(key),
    };
    let bad_decision = |found: &toml::Value| {
        error(
            ConfigErrorKind::InvalidValue,
            key.clone(),
            format!("expected \"allow\", \"ask\" or \"deny\", found {found}"),
            &at,
        )
    };
    let table = match value {
        toml::Value::String(s) => {
            let decision = Decision::parse(s).ok_or_else(|| bad_decision(value))?;
            return Ok(ReadRule {
                decision,
                examples: Vec::new(),
            });
        }
        toml::Value::Table(table) => table,
        other => return Err(bad_decision(other)),
    };
    for name in table.keys() {
        if !["decision", "match", "not_match"].contains(&name.as_str()) {
            let mut line_key = at.to_vec();
            line_key.push(name);
            return Err(error(
                ConfigErrorKind::UnknownKey,
                format!("{key}.{name}"),
                format!("unknown key `{name}` (known: decision, match, not_match)"),
                &line_key,
            ));
        }
    }
    let decision = match table.get("decision") {
        Some(v) => v
            .as_str()
            .and_then(Decision::parse)
            .ok_or_else(|| bad_decision(v))?,
        None => {
            return Err(error(
                ConfigErrorKind::InvalidValue,
                key.clone(),
                "a rule written as a table needs `decision = \"allow|ask|deny\"`".into(),
                &at,
            ));
        }
    };
    let rule = PermissionRule {
        pattern: pattern.to_string(),
        decision,
    };
    let examples = read_examples(table, &at, &key, &Subject::Permission(rule), text, path)?;
    Ok(ReadRule { decision, examples })
}

/// The `match` and `not_match` lists of a table at `at` (key path in the file),
/// each a list of command strings.
pub fn read_examples(
    table: &toml::Table,
    at: &[&str],
    key: &str,
    subject: &Subject,
    text: &str,
    path: &Path,
) -> Result<Vec<Example>, ConfigError> {
    let mut out = Vec::new();
    for expect in [Expect::Match, Expect::NotMatch] {
        let Some(value) = table.get(expect.key()) else {
            continue;
        };
        let mut line_key = at.to_vec();
        line_key.push(expect.key());
        let line = line_of_path(text, &line_key);
        let list_key = format!("{key}.{}", expect.key());
        let commands: Option<Vec<&str>> = value
            .as_array()
            .and_then(|items| items.iter().map(toml::Value::as_str).collect());
        let Some(commands) = commands else {
            return Err(ConfigError {
                path: path.to_path_buf(),
                kind: ConfigErrorKind::InvalidValue,
                line,
                message: format!("{list_key}: a list of example commands (strings)"),
                key: Some(list_key),
            });
        };
        for command in commands {
            out.push(Example {
                command: command.to_string(),
                expect,
                subject: subject.clone(),
                path: path.to_path_buf(),
                line,
                key: list_key.clone(),
            });
        }
    }
    Ok(out)
}
