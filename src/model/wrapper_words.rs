//! The words a wrapper owns: `timeout 5 nice -n 2 make` gives `timeout` the words
//! `5`, and `nice` the words `-n 2`, up to the next wrapper or the program it runs.
//! A wrapper's own options are read with its catalogue entry (`wsl -u root`,
//! `systemd-run --scope`), apart from the command it wraps.

use super::command::SimpleCommand;
use super::word::Word;

/// The words after wrapper number `k` (an index into `cmd.wrappers`) up to the next
/// wrapper or the program; empty when `k` is out of range.
///
/// ## Example
/// In `timeout 5 nice -n 2 make`, wrapper 1 (`nice`) owns `-n 2`.
pub fn own_words(cmd: &SimpleCommand, k: usize) -> &[Word] {
    let Some(&at) = cmd.wrappers.get(k) else {
        return &[];
    };
    let end = cmd
        .wrappers
        .get(k + 1)
        .copied()
        .or(cmd.program)
        .unwrap_or(cmd.words.len())
        .min(cmd.words.len());
    cmd.words.get(at + 1..end).unwrap_or_default()
}
