//! `[programs.NAME]` in a config file: the user's own catalogue entries, with the
//! schema of `catalogue/*.toml` (see `catalogue/README.md`) plus `match` and
//! `not_match` example commands.
//!
//! ```toml
//! [programs.deploy]
//! summary = "the team's deploy script"
//! facts = ["network"]
//! options = { "--hook" = "shell" }
//! match = ["deploy --hook 'make release'"]
//!
//! [programs.tar]                # over the built-in entry: the keys given replace its keys
//! facts = ["destroys-data"]
//! ```
//!
//! An unknown key, role or fact is a [`ConfigError`] naming the file, the line and
//! the key (`programs.deploy.options."--hook"`).

use super::config_error::{ConfigError, ConfigErrorKind, line_of_path};
use super::examples::{Example, Subject, read_examples};
use crate::catalogue::Catalogue;
use crate::catalogue::schema::parse_entry;
use std::path::Path;

/// `catalogue` with the entry `[programs.NAME]` (its TOML `value`) on top, and the
/// entry's examples.
pub fn apply_program(
    catalogue: &Catalogue,
    name: &str,
    value: &toml::Value,
    text: &str,
    path: &Path,
) -> Result<(Catalogue, Vec<Example>), ConfigError> {
    let at = ["programs", name];
    let key = format!("programs.{}", quoted(name));
    let Some(table) = value.as_table() else {
        return Err(ConfigError {
            path: path.to_path_buf(),
            kind: ConfigErrorKind::InvalidValue,
            line: line_of_path(text, &at),
            message: format!("{key}: a program's entry is a table: `[programs.{name}]`"),
            key: Some(key),
        });
    };
    let schema_error = |e: crate::catalogue::schema::SchemaError| {
        let mut full = key.clone();
        for k in &e.key {
            full.push('.');
            full.push_str(&quoted(k));
        }
        let mut line_key: Vec<&str> = at.to_vec();
        line_key.extend(e.key.iter().map(String::as_str));
        let kind = if e.message.starts_with("unknown key") {
            ConfigErrorKind::UnknownKey
        } else {
            ConfigErrorKind::InvalidValue
        };
        ConfigError {
            path: path.to_path_buf(),
            kind,
            line: line_of_path(text, &line_key),
            message: format!("{full}: {}", e.message),
            key: Some(full),
        }
    };
    let spec = parse_entry(table, &["match", "not_match"]).map_err(schema_error)?;
    let source = path.display().to_string();
    let updated = catalogue
        .with_entry(name, &spec, &source)
        .map_err(schema_error)?;
    let canonical = updated.lookup(name).map_or(name, |e| e.name);
    let examples = read_examples(
        table,
        &at,
        &key,
        &Subject::Program(canonical.to_string()),
        text,
        path,
    )?;
    Ok((updated, examples))
}

/// A key as written in a dotted path: bare when it can be, quoted otherwise.
fn quoted(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        key.to_string()
    } else {
        format!("\"{key}\"")
    }
}
