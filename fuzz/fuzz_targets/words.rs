//! Arbitrary text through the parser, walker and word decoder: every word's span is
//! inside the input on character boundaries, and its static value, brace expansion
//! and display never panic. `cargo fuzz run -s none words fuzz/corpus/words
//! fuzz/seeds/words`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_words(data);
});
