//! The tools' arguments: what an agent sends, with the JSON schemas and
//! descriptions it reads in `tools/list`.

use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;

/// Arguments of `check_command`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckCommand {
    /// The bash command to judge, exactly as it would be run.
    pub command: String,
    /// The directory it would run in: absolute, or relative to the project root
    /// (default: the root).
    #[serde(default)]
    pub cwd: Option<String>,
}
