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

/// Arguments of `run_command` (the Bash-tool contract).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCommand {
    /// The bash command to run, exactly as it should run (`bash -c COMMAND` from the
    /// project root).
    pub command: String,
    /// A short description of what the command does, in active voice (shown to the
    /// user when the gate asks).
    pub description: String,
    /// Timeout in milliseconds: default 120000 (2 minutes), at most 600000 (10
    /// minutes; longer values are clamped). For a background shell it bounds the
    /// shell's deadline, which is at most the server's (`--shell-deadline`).
    #[serde(default)]
    pub timeout: Option<u64>,
    /// Run in the background: returns a `shell_id` at once; read the output with
    /// `read_output`, end it with `kill_shell`.
    #[serde(default)]
    pub run_in_background: Option<bool>,
}

/// Arguments of `read_output`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadOutput {
    /// The `shell_id` that `run_command` returned.
    pub shell_id: String,
    /// Byte offset to read from (a previous read's `next_offset`); default: where
    /// the previous read ended.
    #[serde(default)]
    pub since: Option<u64>,
}

/// Arguments of `kill_shell`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KillShell {
    /// The `shell_id` that `run_command` returned.
    pub shell_id: String,
}

/// Arguments of `list_shells` (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListShells {}
