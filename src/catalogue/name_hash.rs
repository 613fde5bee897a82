//! The hash of the catalogue's name index: a small multiplicative hash (the
//! `FxHash` recipe) of a lowercase program name. The build script places every
//! name in an open-addressing table with it, and the lookup hashes the name it is
//! given the same way, so the table is built once at compile time and a lookup is
//! one hash of a few bytes and, almost always, one probe. The names are the
//! catalogue's own, not attacker-chosen keys: a name that is not in the table
//! costs a probe or two whatever its hash.
//!
//! This file is shared by `build.rs` and the library: plain integer arithmetic,
//! no dependencies, the same result on every machine.

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// How many bits of the hash pick a slot: the table has `1 << SLOT_BITS` slots,
/// at least four times as many as there are names.
pub const SLOT_BITS: u32 = 13;

/// The first slot to probe for `name`.
pub fn first_slot(name: &[u8]) -> usize {
    let mut hash: u64 = 0;
    let mut chunks = name.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
    }
    let rest = chunks.remainder();
    let mut word = [0u8; 8];
    word[..rest.len()].copy_from_slice(rest);
    // The length goes in too: `ab` and `ab\0` differ.
    let last = u64::from_le_bytes(word) ^ ((name.len() as u64) << 56);
    hash = (hash.rotate_left(5) ^ last).wrapping_mul(SEED);
    (hash >> (64 - SLOT_BITS)) as usize
}
