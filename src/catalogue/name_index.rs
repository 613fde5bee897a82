//! The catalogue's name index as a hash table: a lookup of a lowercase name costs one
//! hash of a few bytes and one probe, instead of a binary search over every name and
//! alias. The gate looks programs up many times per command (wrappers, path roles,
//! several rules), so this is on the hot path of every check.
//!
//! The table is built from the generated, sorted `INDEX` on first use (about 1,300
//! names) and agrees with it by construction; a test compares the two on every name.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The entry index of a lowercase `name`, as `INDEX` maps it.
pub(super) fn find(name: &str) -> Option<u16> {
    table().get(name).copied()
}

fn table() -> &'static HashMap<&'static str, u16, BuildHasherDefault<NameHasher>> {
    static TABLE: OnceLock<HashMap<&'static str, u16, BuildHasherDefault<NameHasher>>> =
        OnceLock::new();
    TABLE.get_or_init(|| {
        // Sized once: growing it while filling would hash every name again.
        let mut table = HashMap::with_capacity_and_hasher(super::INDEX.len(), Default::default());
        table.extend(super::INDEX.iter().copied());
        table
    })
}

/// A small multiplicative hasher (the `FxHash` recipe) for short program names: the
/// keys are the catalogue's own names, not attacker-chosen collisions worth a keyed
/// hash (a name that is not in the table costs one probe whatever its hash).
#[derive(Default)]
struct NameHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl NameHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.0
    }
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
