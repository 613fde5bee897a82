//! `jsonl` input: one JSON object per line whose `cmd` (or `command`) field is the
//! command — a string, or an argv array. Every other field passes through, in its
//! place; a `cwd` string also sets the working directory.

use super::{FoundCommand, Outcome, argv_to_script, string_array};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// One line's text. Read straight into its parts (no document is built and then
/// taken apart: that cost more than judging a repeated command); a line this way
/// does not take, not JSON or not an object, is read as a document for the error
/// that says why.
pub fn outcome_of_text(text: &str) -> Outcome {
    match serde_json::from_str::<Parts>(text) {
        Ok(parts) => outcome_of(parts),
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(value) => outcome(value),
            Err(e) => Outcome::Error(format!("not valid JSON: {e}")),
        },
    }
}

/// One line's object, as a document.
pub fn outcome(value: Value) -> Outcome {
    let Value::Object(mut fields) = value else {
        return Outcome::Error("expected a JSON object".to_string());
    };
    let cmd = fields.shift_remove("cmd");
    outcome_of(Parts { cmd, fields })
}

/// A line's object: its `cmd` field, and every other field in the order given (a
/// name given twice keeps its first place and its last value, as in a document).
struct Parts {
    cmd: Option<Value>,
    fields: Map<String, Value>,
}

/// The command of `parts` (`cmd`, else `command`) with the fields passed through.
fn outcome_of(parts: Parts) -> Outcome {
    let Parts { cmd, mut fields } = parts;
    let (key, raw) = match cmd {
        Some(raw) => ("cmd", raw),
        None => match fields.shift_remove("command") {
            Some(raw) => ("command", raw),
            None => {
                return Outcome::Error("the object has no `cmd` or `command` field".to_string());
            }
        },
    };
    let command = match raw {
        Value::String(s) => s,
        other => match string_array(&other) {
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

/// A field's name: `cmd` is told apart without copying it.
enum Name {
    Cmd,
    Other(String),
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        struct NameVisitor;
        impl Visitor<'_> for NameVisitor {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Name, E> {
                Ok(match name {
                    "cmd" => Name::Cmd,
                    other => Name::Other(other.to_string()),
                })
            }
            fn visit_string<E: serde::de::Error>(self, name: String) -> Result<Name, E> {
                Ok(match name.as_str() {
                    "cmd" => Name::Cmd,
                    _ => Name::Other(name),
                })
            }
        }
        deserializer.deserialize_str(NameVisitor)
    }
}

impl<'de> Deserialize<'de> for Parts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Parts, D::Error> {
        struct PartsVisitor;
        impl<'de> Visitor<'de> for PartsVisitor {
            type Value = Parts;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parts, A::Error> {
                let mut parts = Parts {
                    cmd: None,
                    fields: Map::new(),
                };
                while let Some(name) = map.next_key::<Name>()? {
                    let value: Value = map.next_value()?;
                    match name {
                        Name::Cmd => parts.cmd = Some(value),
                        Name::Other(name) => {
                            parts.fields.insert(name, value);
                        }
                    }
                }
                Ok(parts)
            }
        }
        deserializer.deserialize_map(PartsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read straight or as a document, a line gives the same outcome: the command,
    /// the fields passed through in their order, and the same errors.
    #[test]
    fn a_line_read_straight_is_read_as_its_document() {
        let lines = [
            r#"{"cmd": "ls -la"}"#,
            r#"{"z": 1, "cmd": "ls", "a": [1, {"b": null}], "cwd": "/tmp", "m": "x"}"#,
            r#"{"command": "ls", "cmd": "pwd", "k": 2}"#,
            r#"{"a": 1, "command": ["bash", "-lc", "git status"], "b": 2}"#,
            r#"{"cmd": "ls", "a": 1, "a": 2, "cmd": "pwd"}"#,
            r#"{"c\u006dd": "escaped name", "timestamp": "t"}"#,
            r#"{"cmd": 5}"#,
            r#"{"cmd": []}"#,
            r#"{"other": 1}"#,
            r#"[1, 2]"#,
            r#""cmd""#,
            r#"{"cmd": "ls""#,
            r#"not json"#,
        ];
        for line in lines {
            let document = match serde_json::from_str::<Value>(line) {
                Ok(value) => outcome(value),
                Err(e) => Outcome::Error(format!("not valid JSON: {e}")),
            };
            assert_eq!(outcome_of_text(line), document, "{line}");
        }
        let Outcome::Commands(found) = outcome_of_text(lines[1]) else {
            panic!("a command");
        };
        let names: Vec<&str> = found[0].extra.keys().map(String::as_str).collect();
        assert_eq!(names, ["z", "a", "cwd", "m"]);
        assert_eq!(found[0].cwd.as_deref(), Some("/tmp"));
        let Outcome::Commands(found) = outcome_of_text(lines[4]) else {
            panic!("a command");
        };
        assert_eq!(found[0].command, "pwd");
        assert_eq!(found[0].extra["a"], 2);
        let Outcome::Commands(found) = outcome_of_text(lines[5]) else {
            panic!("a command");
        };
        assert_eq!(found[0].command, "escaped name");
    }
}
