//! `jsonl` input: one JSON object per line whose `cmd` (or `command`) field is the
//! command — a string, or an argv array. Every other field passes through; a `cwd`
//! string also sets the working directory.

use super::{FoundCommand, Outcome, argv_to_script, string_array};
use serde_json::Value;

/// One line's object.
pub fn outcome(value: Value) -> Outcome {
    let Value::Object(mut fields) = value else {
        return Outcome::Error("expected a JSON object".to_string());
    };
    let key = if fields.contains_key("cmd") {
        "cmd"
    } else {
        "command"
    };
    let Some(raw) = fields.remove(key) else {
        return Outcome::Error("the object has no `cmd` or `command` field".to_string());
    };
    let command = match &raw {
        Value::String(s) => s.clone(),
        other => match string_array(other) {
            Some(argv) if !argv.is_empty() => argv_to_script(&argv),
            _ => {
                return Outcome::Error(format!("`{key}` must be a string or an array of strings"));
            }
        },
    };
    let cwd = fields
        .get("cwd")
        .and_then(Value::as_str)
        .map(str::to_string);
    let timestamp = fields
        .get("timestamp")
        .and_then(Value::as_str)
        .map(str::to_string);
    Outcome::Commands(vec![FoundCommand {
        command,
        cwd,
        timestamp,
        id: None,
        extra: fields,
    }])
}
