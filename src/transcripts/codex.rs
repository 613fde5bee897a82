//! Codex CLI rollout JSONL, envelope form (`{timestamp, type, payload}`) and the
//! legacy flat form. Shell calls are `function_call` items named `shell`,
//! `shell_command`, `exec_command` or `local_shell_call` (and `local_shell_call`
//! items); `arguments` is a JSON string decoded a second time; `["bash","-lc",S]`
//! unwraps to `S`. `write_stdin` calls with input are reported too (marked
//! `kind: write_stdin`): they type into a running process. The working directory is
//! `workdir` when absolute, else resolved against the latest `turn_context.cwd`, then
//! `session_meta.cwd`. `exec_command_end` events repeat calls and are not counted.

use super::{FoundCommand, Outcome, ReaderState, argv_to_script, string_array};
use serde_json::{Map, Value};
use std::path::Path;

/// One line's object.
pub fn outcome(value: &Value, state: &mut ReaderState) -> Outcome {
    let (kind, payload) = match (
        value.get("type").and_then(Value::as_str),
        value.get("payload"),
    ) {
        (Some(kind), Some(payload)) => (kind, payload),
        // Legacy flat form: the item is the line itself.
        _ => ("response_item", value),
    };
    let timestamp = value
        .get("timestamp")
        .and_then(Value::as_str)
        .map(str::to_string);
    match kind {
        "session_meta" => {
            state.session_cwd = payload
                .get("cwd")
                .and_then(Value::as_str)
                .map(str::to_string);
            Outcome::Commands(Vec::new())
        }
        "turn_context" => {
            state.turn_cwd = payload
                .get("cwd")
                .and_then(Value::as_str)
                .map(str::to_string);
            Outcome::Commands(Vec::new())
        }
        "response_item" => item(payload, timestamp, state),
        _ => Outcome::Commands(Vec::new()),
    }
}

fn item(payload: &Value, timestamp: Option<String>, state: &mut ReaderState) -> Outcome {
    let item_type = payload.get("type").and_then(Value::as_str).unwrap_or("");
    if item_type == "message" {
        legacy_cwd(payload, state);
        return Outcome::Commands(Vec::new());
    }
    let id = payload
        .get("call_id")
        .or_else(|| payload.get("id"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let (name, arguments) = match item_type {
        "function_call" => {
            let name = payload.get("name").and_then(Value::as_str).unwrap_or("");
            let arguments = match payload.get("arguments") {
                Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
                    Ok(v) => v,
                    Err(e) => {
                        if is_shell_call(name) {
                            return Outcome::Error(format!(
                                "{name} arguments are not valid JSON: {e}"
                            ));
                        }
                        return Outcome::Commands(Vec::new());
                    }
                },
                Some(other) => other.clone(),
                None => Value::Null,
            };
            (name, arguments)
        }
        "local_shell_call" => (
            "local_shell_call",
            payload.get("action").cloned().unwrap_or(Value::Null),
        ),
        _ => return Outcome::Commands(Vec::new()),
    };
    if !is_shell_call(name) && name != "write_stdin" {
        return Outcome::Commands(Vec::new());
    }
    let mut extra = Map::new();
    extra.insert("tool".to_string(), Value::from(name));
    let command = if name == "write_stdin" {
        let chars = arguments.get("chars").and_then(Value::as_str).unwrap_or("");
        if chars.is_empty() {
            // A poll of a running process: no input.
            return Outcome::Commands(Vec::new());
        }
        extra.insert("kind".to_string(), Value::from("write_stdin"));
        if let Some(session) = arguments.get("session_id") {
            extra.insert("session_id".to_string(), session.clone());
        }
        chars.to_string()
    } else {
        let raw = arguments.get("cmd").or_else(|| arguments.get("command"));
        match raw {
            Some(Value::String(s)) => s.clone(),
            Some(other) => match string_array(other) {
                Some(argv) if !argv.is_empty() => argv_to_script(&argv),
                _ => return Outcome::Error(format!("{name} call has no usable command")),
            },
            None => return Outcome::Error(format!("{name} call has no `cmd` or `command`")),
        }
    };
    let workdir = arguments
        .get("workdir")
        .or_else(|| arguments.get("working_directory"))
        .and_then(Value::as_str);
    let base = state.turn_cwd.clone().or_else(|| state.session_cwd.clone());
    let cwd = match (workdir, base) {
        (Some(w), _) if Path::new(w).is_absolute() => Some(w.to_string()),
        (Some(w), Some(b)) => Some(Path::new(&b).join(w).to_string_lossy().into_owned()),
        (None, b) => b,
        (Some(w), None) => Some(w.to_string()),
    };
    Outcome::Commands(vec![FoundCommand {
        command,
        cwd,
        timestamp,
        id,
        extra,
    }])
}

fn is_shell_call(name: &str) -> bool {
    matches!(
        name,
        "shell" | "shell_command" | "exec_command" | "local_shell_call" | "container.exec"
    )
}

/// Legacy rollouts carry the cwd only in `<environment_context><cwd>…</cwd>` text.
fn legacy_cwd(message: &Value, state: &mut ReaderState) {
    let Some(blocks) = message.get("content").and_then(Value::as_array) else {
        return;
    };
    for block in blocks {
        let Some(text) = block.get("text").and_then(Value::as_str) else {
            continue;
        };
        if let Some(start) = text.find("<cwd>")
            && let Some(end) = text[start..].find("</cwd>")
        {
            state.session_cwd = Some(text[start + 5..start + end].to_string());
        }
    }
}
