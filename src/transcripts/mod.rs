//! Readers for agent transcripts: find every shell command an agent ran, with where
//! it came from (file and line), its working directory and timestamp.
//!
//! Formats: `lines` (one command per line, backslash continues), `jsonl` (objects
//! with a `cmd` or `command` field), `claude` (Claude Code session JSONL) and `codex`
//! (Codex CLI rollout JSONL). Readers stream: one line in, one [`Record`] out, so
//! memory does not grow with the file. A line that cannot be read becomes a
//! [`Outcome::Error`] with its line number, never a silent skip.

mod claude;
mod codex;
mod detect;
mod jsonl;
mod lines;
mod open;

pub use detect::detect_format;
pub use open::{Input, expand_inputs, open_input};

use serde_json::{Map, Value};
use std::collections::HashSet;
use std::io::BufRead;
use std::str::FromStr;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect from the content.
    Auto,
    /// One command per line.
    Lines,
    /// One JSON object per line with a `cmd` or `command` field.
    Jsonl,
    /// Claude Code session transcripts.
    Claude,
    /// Codex CLI rollout files.
    Codex,
}

impl InputFormat {
    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Lines => "lines",
            InputFormat::Jsonl => "jsonl",
            InputFormat::Claude => "claude",
            InputFormat::Codex => "codex",
        }
    }
}

impl FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "auto" => InputFormat::Auto,
            "lines" => InputFormat::Lines,
            "jsonl" => InputFormat::Jsonl,
            "claude" => InputFormat::Claude,
            "codex" => InputFormat::Codex,
            _ => {
                return Err(format!(
                    "unknown input format `{s}` (auto, lines, jsonl, claude, codex)"
                ));
            }
        })
    }
}

/// One command found in an input.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundCommand {
    /// The command text, exactly as the agent gave it to the shell.
    pub command: String,
    /// The working directory it ran in, when the transcript says.
    pub cwd: Option<String>,
    /// When it ran, when the transcript says.
    pub timestamp: Option<String>,
    /// The tool call's id (`toolu_…`, `call_…`), when there is one.
    pub id: Option<String>,
    /// Other fields passed through (jsonl input), or facts about the call.
    pub extra: Map<String, Value>,
}

/// What one line (or one logical line) of input amounted to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Zero or more commands (zero for a line that is not a shell call).
    Commands(Vec<FoundCommand>),
    /// The line could not be read; says why.
    Error(String),
}

/// One line's outcome with its place in the input.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// 1-based number of the (first) line.
    pub line: usize,
    /// How many physical lines it spans (continuations in `lines` input).
    pub lines: usize,
    /// What it amounted to.
    pub outcome: Outcome,
}

/// State kept across the lines of one input (and across inputs, for de-duplication
/// of tool calls repeated in Claude Code progress lines and subagent files).
#[derive(Debug, Default)]
pub struct ReaderState {
    seen_ids: HashSet<String>,
    session_cwd: Option<String>,
    turn_cwd: Option<String>,
}

impl ReaderState {
    /// True the first time `id` is seen.
    fn first_sighting(&mut self, id: &str) -> bool {
        self.seen_ids.insert(id.to_string())
    }
}

/// Streams [`Record`]s out of a reader.
pub struct TranscriptReader<'s, R: BufRead> {
    input: R,
    format: InputFormat,
    state: &'s mut ReaderState,
    line: usize,
    buffer: Vec<u8>,
    done: bool,
}

impl<'s, R: BufRead> TranscriptReader<'s, R> {
    /// A reader of `format` (not `Auto`: detect first) over `input`.
    pub fn new(input: R, format: InputFormat, state: &'s mut ReaderState) -> Self {
        state.session_cwd = None;
        state.turn_cwd = None;
        TranscriptReader {
            input,
            format,
            state,
            line: 0,
            buffer: Vec::new(),
            done: false,
        }
    }

    /// Gives the room of a line read back for the next one.
    fn recycle(&mut self, text: String) {
        self.buffer = text.into_bytes();
    }

    /// The next physical line, without its line ending; `None` at the end.
    fn next_line(&mut self) -> Option<Result<String, String>> {
        if self.done {
            return None;
        }
        self.buffer.clear();
        match self.input.read_until(b'\n', &mut self.buffer) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(_) => {
                self.line += 1;
                if self.buffer.last() == Some(&b'\n') {
                    self.buffer.pop();
                    if self.buffer.last() == Some(&b'\r') {
                        self.buffer.pop();
                    }
                }
                // A byte-order mark at the start of the input is not content.
                if self.line == 1 && self.buffer.starts_with(&[0xef, 0xbb, 0xbf]) {
                    self.buffer.drain(..3);
                }
                // The line's bytes become its text, not a copy of them
                // ([`TranscriptReader::recycle`] hands the room back).
                Some(match String::from_utf8(std::mem::take(&mut self.buffer)) {
                    Ok(text) => Ok(text),
                    Err(e) => {
                        let message = format!(
                            "line is not valid UTF-8 (byte {})",
                            e.utf8_error().valid_up_to()
                        );
                        self.buffer = e.into_bytes();
                        Err(message)
                    }
                })
            }
            Err(e) => {
                self.done = true;
                self.line += 1;
                Some(Err(format!("read error: {e}")))
            }
        }
    }
}

impl<R: BufRead> Iterator for TranscriptReader<'_, R> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        let first = self.next_line()?;
        let line = self.line;
        let text = match first {
            Ok(text) => text,
            Err(message) => {
                return Some(Record {
                    line,
                    lines: 1,
                    outcome: Outcome::Error(message),
                });
            }
        };
        if self.format == InputFormat::Lines {
            let mut command = text;
            let mut count = 1;
            while lines::continues(&command) {
                match self.next_line() {
                    Some(Ok(next)) => {
                        command.push('\n');
                        command.push_str(&next);
                        count += 1;
                    }
                    Some(Err(message)) => {
                        return Some(Record {
                            line,
                            lines: count + 1,
                            outcome: Outcome::Error(format!("continued line: {message}")),
                        });
                    }
                    None => break,
                }
            }
            return Some(Record {
                line,
                lines: count,
                outcome: lines::outcome(&command),
            });
        }
        if text.trim().is_empty() {
            self.recycle(text);
            return Some(Record {
                line,
                lines: 1,
                outcome: Outcome::Commands(Vec::new()),
            });
        }
        if self.format == InputFormat::Jsonl {
            let outcome = jsonl::outcome_of_text(&text);
            self.recycle(text);
            return Some(Record {
                line,
                lines: 1,
                outcome,
            });
        }
        let parsed = serde_json::from_str(&text);
        self.recycle(text);
        let value: Value = match parsed {
            Ok(value) => value,
            Err(e) => {
                return Some(Record {
                    line,
                    lines: 1,
                    outcome: Outcome::Error(format!("not valid JSON: {e}")),
                });
            }
        };
        let outcome = match self.format {
            InputFormat::Claude => claude::outcome(&value, self.state),
            InputFormat::Codex => codex::outcome(&value, self.state),
            _ => jsonl::outcome(value),
        };
        Some(Record {
            line,
            lines: 1,
            outcome,
        })
    }
}

/// An argv array as a script: `["bash", "-lc", "S"]` is `S`; anything else is the
/// words joined with shell quoting.
pub fn argv_to_script(argv: &[String]) -> String {
    if argv.len() >= 3 {
        let shell = argv[0].rsplit('/').next().unwrap_or("");
        let flag = &argv[1];
        let is_c = flag.starts_with('-')
            && flag.ends_with('c')
            && flag[1..].chars().all(|c| c.is_ascii_alphabetic());
        if crate::model::nested::is_shell(shell) && is_c {
            return argv[2].clone();
        }
    }
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Quotes one word for bash (single quotes unless it is plain).
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A JSON array of strings, if `value` is one.
fn string_array(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}
