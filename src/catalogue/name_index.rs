//! The catalogue's name index as a hash table built at compile time: a lookup of a
//! lowercase name costs one hash of a few bytes and, almost always, one probe,
//! instead of a binary search over every name and alias; and nothing is built when
//! the process starts (a hook judges one command per process). The gate looks
//! programs up many times per command (wrappers, path roles, several rules), so
//! this is on the hot path of every check.
//!
//! `build.rs` places every name of the generated, sorted `INDEX` in `NAME_SLOTS`
//! with [`name_hash`](super::name_hash); a test compares the two on every name.

use super::name_hash::first_slot;
use super::{INDEX, NAME_SLOTS};

/// The entry index of a lowercase `name`, as `INDEX` maps it.
pub(super) fn find(name: &str) -> Option<u16> {
    let mask = NAME_SLOTS.len() - 1;
    let mut at = first_slot(name.as_bytes()) & mask;
    // The table is at most a quarter full, so an empty slot ends every probe; the
    // bound only makes that plain.
    for _ in 0..NAME_SLOTS.len() {
        let slot = usize::from(*NAME_SLOTS.get(at)?);
        let (key, id) = INDEX.get(slot.checked_sub(1)?)?;
        if *key == name {
            return Some(*id);
        }
        at = (at + 1) & mask;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_indexed_name_is_found_with_its_entry() {
        for (name, id) in super::super::INDEX {
            assert_eq!(find(name), Some(*id), "{name}");
        }
    }

    #[test]
    fn names_not_indexed_are_not_found() {
        for name in ["", "no-such-program", "Tar", "tar ", "ta", "tarx", "git-"] {
            let indexed = super::super::INDEX.iter().any(|(n, _)| *n == name);
            assert_eq!(find(name).is_some(), indexed, "{name:?}");
        }
    }
}
