//! Arbitrary bytes through the `lines` transcript reader: no panic, records in line
//! order within the input, unreadable lines reported with a reason. `cargo fuzz run
//! -s none transcript_lines fuzz/corpus/transcript_lines fuzz/seeds/transcript_lines`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use bashgate::transcripts::InputFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_transcript(data, InputFormat::Lines);
});
