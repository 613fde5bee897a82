//! Detecting the input format from its first lines.

use super::InputFormat;
use serde_json::Value;

const CLAUDE_TYPES: &[&str] = &[
    "user",
    "assistant",
    "summary",
    "progress",
    "system",
    "file-history-snapshot",
    "queue-operation",
];
const CODEX_TYPES: &[&str] = &[
    "session_meta",
    "response_item",
    "turn_context",
    "event_msg",
    "compacted",
];

/// The format of an input whose first lines are `first_lines` (never `Auto`):
/// Codex if they look like rollout lines, Claude if they look like session lines,
/// jsonl if they are JSON objects, lines otherwise.
pub fn detect_format(first_lines: &[String]) -> InputFormat {
    let mut objects = 0;
    let mut non_json = 0;
    let mut has_command = false;
    for line in first_lines.iter().filter(|l| !l.trim().is_empty()) {
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else {
            non_json += 1;
            continue;
        };
        objects += 1;
        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
        if (CODEX_TYPES.contains(&kind) && o.contains_key("payload"))
            || o.contains_key("record_type")
            || (o.contains_key("instructions") && o.contains_key("git"))
            || (kind == "function_call" && o.contains_key("call_id"))
        {
            return InputFormat::Codex;
        }
        if CLAUDE_TYPES.contains(&kind)
            && (o.contains_key("sessionId") || o.contains_key("message") || o.contains_key("uuid"))
        {
            return InputFormat::Claude;
        }
        if o.contains_key("cmd") || o.contains_key("command") {
            has_command = true;
        }
    }
    if objects > 0 && (has_command || non_json == 0) {
        InputFormat::Jsonl
    } else {
        InputFormat::Lines
    }
}
