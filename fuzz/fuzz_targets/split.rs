//! Arbitrary bytes into the top-level splitter: whatever it takes, parsing part by
//! part must build exactly the records of parsing the whole text (properties in
//! `fuzz/properties.rs`; `tests/split.rs` runs it over the seed corpora).
//!
//! Run: `cargo fuzz run -s none split fuzz/corpus/split fuzz/seeds/split`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_split(data);
});
