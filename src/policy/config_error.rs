//! The error of a config file that cannot be used: which file, what kind of
//! problem, the line and the key, and a readable message; and finding the line of
//! a key in the file's text.

use std::fmt;
use std::path::Path;
use std::path::PathBuf;

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
    /// A `match` / `not_match` example command that the policy decides otherwise.
    FailedExample,
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
    pub(super) fn unreadable(path: &Path, error: &std::io::Error) -> ConfigError {
        ConfigError {
            path: path.to_path_buf(),
            kind: ConfigErrorKind::Unreadable,
            line: None,
            key: None,
            message: format!("cannot read: {error}"),
        }
    }

    pub(super) fn from_toml(path: &Path, text: &str, error: &toml::de::Error) -> ConfigError {
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

/// The 1-based line of the key at `path` (`["programs", "tar", "options"]`): the
/// deepest key of the path the file has, read with the parser's own spans.
pub(super) fn line_of_path(text: &str, path: &[&str]) -> Option<usize> {
    let document = toml::de::DeTable::parse(text).ok()?;
    let mut table = document.get_ref();
    let mut at: Option<usize> = None;
    let mut segments = path.iter();
    while let Some(segment) = segments.next() {
        let Some((key, value)) = table.iter().find(|(k, _)| k.get_ref() == segment) else {
            break;
        };
        at = Some(key.span().start);
        let mut value = value;
        // A list of tables (`effects`): the next segment is the item's index.
        while let toml::de::DeValue::Array(items) = value.get_ref() {
            let Some(item) = segments
                .next()
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| items.get(i))
            else {
                return at.map(|offset| line_at(text, offset));
            };
            at = Some(item.span().start);
            value = item;
        }
        match value.get_ref() {
            toml::de::DeValue::Table(inner) => table = inner,
            _ => break,
        }
    }
    at.map(|offset| line_at(text, offset))
}

/// The 1-based line of a byte offset.
pub(super) fn line_at(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len()))
        .map_or(1, |before| before.matches('\n').count() + 1)
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for ConfigError {}
