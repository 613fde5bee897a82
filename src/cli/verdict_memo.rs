//! Verdicts already given in one `analyze` run. Agents run the same commands over
//! and over (`git status`, `cargo test`), and a transcript directory holds many
//! sessions of one project: a command judged once in a run is not judged again.
//!
//! A verdict depends on the gate (policy and root), the working directory, the
//! command text and the files the check looks at. `analyze` runs nothing, so within
//! one run the files are the same for every command: the first three are the key,
//! compared in full (the hash only finds the slot). Bounded by the verdicts and by
//! the bytes of command text it holds (a long command is kept as well: judging a
//! long pipeline again costs most); it starts over when full. What is kept is the
//! caller's: a verdict, or a verdict with the output it renders to.

use bashgate::Gate;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Verdicts kept before the memo starts over.
const ENTRIES: usize = 32_768;
/// Bytes of command text kept before the memo starts over.
const BYTES: usize = 32 << 20;
/// Longest command kept, in bytes.
const LONGEST: usize = 64 << 10;

/// What a verdict was given to: which gate judged (its address: the run keeps
/// every gate it made alive), where, and what.
#[derive(Clone, Copy)]
pub struct Key<'a> {
    gate: usize,
    cwd: Option<&'a Path>,
    command: &'a str,
}

impl<'a> Key<'a> {
    /// True when `self` and `other` are the same key.
    pub fn is(&self, other: &Key) -> bool {
        self.gate == other.gate && self.cwd == other.cwd && self.command == other.command
    }

    /// The key of `command` judged by `gate` in `cwd`; `None` when too long to keep.
    pub fn of(gate: &Arc<Gate>, cwd: Option<&'a Path>, command: &'a str) -> Option<Key<'a>> {
        (command.len() <= LONGEST).then_some(Key {
            gate: Arc::as_ptr(gate) as usize,
            cwd,
            command,
        })
    }
}

/// A kept verdict with its key, owned.
struct Kept<V> {
    gate: usize,
    cwd: Option<PathBuf>,
    command: String,
    verdict: V,
}

impl<V> Kept<V> {
    /// Its key, borrowed.
    fn key(&self) -> Key<'_> {
        Key {
            gate: self.gate,
            cwd: self.cwd.as_deref(),
            command: &self.command,
        }
    }
}

/// Verdicts given so far in this run, by the hash of their key.
pub struct VerdictMemo<V> {
    hasher: RandomState,
    kept: HashMap<u64, Kept<V>>,
    /// Bytes of command text in `kept`.
    bytes: usize,
}

impl<V> Default for VerdictMemo<V> {
    fn default() -> Self {
        VerdictMemo {
            hasher: RandomState::new(),
            kept: HashMap::new(),
            bytes: 0,
        }
    }
}

impl<V> VerdictMemo<V> {
    /// The slot of `key`.
    pub fn hash(&self, key: &Key) -> u64 {
        let mut h = self.hasher.build_hasher();
        key.gate.hash(&mut h);
        key.cwd.hash(&mut h);
        key.command.hash(&mut h);
        h.finish()
    }

    /// The verdict given to `key` (whose hash is `hash`) earlier in the run.
    pub fn get(&self, hash: u64, key: &Key) -> Option<&V> {
        self.kept
            .get(&hash)
            .filter(|k| k.key().is(key))
            .map(|k| &k.verdict)
    }

    /// Keeps `verdict` for `key` (in place of another key with the same hash).
    pub fn keep(&mut self, hash: u64, key: &Key, verdict: V) {
        if self.kept.len() >= ENTRIES || self.bytes + key.command.len() > BYTES {
            self.kept.clear();
            self.bytes = 0;
        }
        let kept = Kept {
            gate: key.gate,
            cwd: key.cwd.map(Path::to_path_buf),
            command: key.command.to_string(),
            verdict,
        };
        self.bytes += kept.command.len();
        if let Some(replaced) = self.kept.insert(hash, kept) {
            self.bytes -= replaced.command.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashgate::Verdict;

    #[test]
    fn a_verdict_is_given_again_only_for_the_same_gate_cwd_and_command() {
        let gate = Arc::new(Gate::builder().root("/tmp/bashgate-memo").build().unwrap());
        let other = Arc::new(Gate::builder().root("/tmp/bashgate-memo").build().unwrap());
        let mut memo: VerdictMemo<Verdict> = VerdictMemo::default();
        let key = Key::of(&gate, None, "sudo ls").unwrap();
        let hash = memo.hash(&key);
        assert!(memo.get(hash, &key).is_none());
        memo.keep(hash, &key, gate.check("sudo ls"));
        assert_eq!(memo.get(hash, &key), Some(&gate.check("sudo ls")));
        let misses = [
            Key::of(&other, None, "sudo ls").unwrap(),
            Key::of(&gate, Some(Path::new("/tmp")), "sudo ls").unwrap(),
            Key::of(&gate, None, "sudo  ls").unwrap(),
        ];
        for miss in &misses {
            assert!(memo.get(memo.hash(miss), miss).is_none());
            // Even when looked up under the kept key's slot, the full key decides.
            assert!(memo.get(hash, miss).is_none());
        }
        assert!(Key::of(&gate, None, &"x".repeat(LONGEST + 1)).is_none());
    }

    /// Long commands are kept, and the text kept stays within its bound: the memo
    /// starts over when the next command would pass it.
    #[test]
    fn long_commands_are_kept_within_the_bytes_bound() {
        let gate = Arc::new(Gate::builder().root("/tmp/bashgate-memo").build().unwrap());
        let mut memo: VerdictMemo<usize> = VerdictMemo::default();
        let commands: Vec<String> = (0..BYTES / LONGEST + 1)
            .map(|i| format!("{i:08} {}", "x".repeat(LONGEST - 9)))
            .collect();
        for (i, command) in commands.iter().enumerate() {
            let key = Key::of(&gate, None, command).unwrap();
            let hash = memo.hash(&key);
            memo.keep(hash, &key, i);
            assert_eq!(memo.get(hash, &key), Some(&i));
            assert!(memo.bytes <= BYTES);
        }
        let first = Key::of(&gate, None, &commands[0]).unwrap();
        assert!(memo.get(memo.hash(&first), &first).is_none());
        assert_eq!(memo.bytes, LONGEST);
    }
}
