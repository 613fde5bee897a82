//! Checking every byte of a text without a branch per byte.

/// True when `keep` holds for every byte: checked in blocks folded without an early
/// exit, so the compiler can test many bytes at once (a heredoc body or a pasted
/// script runs to thousands).
pub fn all_bytes(bytes: &[u8], keep: impl Fn(u8) -> bool) -> bool {
    bytes
        .chunks(64)
        .all(|block| block.iter().fold(true, |ok, &b| ok & keep(b)))
}
