//! `lines` input: one command per line; a line ending in an odd number of
//! backslashes continues on the next (the backslash-newline is kept, as bash reads it).

use super::{FoundCommand, Outcome};
use serde_json::Map;

/// True when the line ends in an odd number of backslashes.
pub fn continues(line: &str) -> bool {
    line.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// A blank line is not a command; anything else is.
pub fn outcome(command: &str) -> Outcome {
    if command.trim().is_empty() {
        return Outcome::Commands(Vec::new());
    }
    Outcome::Commands(vec![FoundCommand {
        command: command.to_string(),
        cwd: None,
        timestamp: None,
        id: None,
        extra: Map::new(),
    }])
}
