//! Claude Code session JSONL. Commands are `tool_use` blocks named `Bash` in
//! `assistant` lines (`input.command`), with the line's `cwd` and `timestamp`.
//! Subagent calls repeated in `agent_progress` lines (and again in the subagent's own
//! file) are counted once, by tool_use id. `hook_progress` lines carry the *user's*
//! hook commands and are never counted; neither are slash commands, results or prose.

use super::{FoundCommand, Outcome, ReaderState};
use serde_json::{Map, Value};

/// One line's object.
pub fn outcome(value: &Value, state: &mut ReaderState) -> Outcome {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    let content = match kind {
        "assistant" => value.pointer("/message/content"),
        "progress"
            if value.pointer("/data/type").and_then(Value::as_str) == Some("agent_progress") =>
        {
            value.pointer("/data/message/message/content")
        }
        _ => None,
    };
    let Some(blocks) = content.and_then(Value::as_array) else {
        return Outcome::Commands(Vec::new());
    };
    let mut commands = Vec::new();
    for block in blocks {
        if block.get("type").and_then(Value::as_str) != Some("tool_use")
            || block.get("name").and_then(Value::as_str) != Some("Bash")
        {
            continue;
        }
        let id = block.get("id").and_then(Value::as_str).map(str::to_string);
        if let Some(id) = &id
            && !state.first_sighting(id)
        {
            continue;
        }
        let Some(command) = block.pointer("/input/command").and_then(Value::as_str) else {
            return Outcome::Error(format!(
                "Bash tool call {} has no string `input.command`",
                id.as_deref().unwrap_or("without id")
            ));
        };
        let mut extra = Map::new();
        for key in ["sessionId", "isSidechain", "agentId"] {
            if let Some(v) = value.get(key) {
                extra.insert(key.to_string(), v.clone());
            }
        }
        if kind == "progress" {
            extra.insert("via".to_string(), Value::from("agent_progress"));
        }
        if let Some(background) = block.pointer("/input/run_in_background") {
            extra.insert("run_in_background".to_string(), background.clone());
        }
        commands.push(FoundCommand {
            command: command.to_string(),
            cwd: value.get("cwd").and_then(Value::as_str).map(str::to_string),
            timestamp: value
                .get("timestamp")
                .and_then(Value::as_str)
                .map(str::to_string),
            id,
            extra,
        });
    }
    Outcome::Commands(commands)
}
