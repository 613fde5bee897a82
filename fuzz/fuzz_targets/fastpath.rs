//! Arbitrary bytes into the fast lexer: whatever it accepts, it must build exactly
//! the records the tree path builds (properties in `fuzz/properties.rs`;
//! `tests/fuzz_seeds.rs` runs it over `fuzz/seeds/fastpath/` and the check seeds).
//!
//! Run: `cargo fuzz run -s none fastpath fuzz/corpus/fastpath fuzz/seeds/fastpath`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_fastpath(data);
});
