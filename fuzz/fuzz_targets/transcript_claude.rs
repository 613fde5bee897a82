//! Arbitrary bytes through the `claude` transcript reader: no panic, records in line
//! order within the input, unreadable lines reported with a reason. `cargo fuzz run
//! -s none transcript_claude fuzz/corpus/transcript_claude fuzz/seeds/transcript_claude`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use bashgate::transcripts::InputFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_transcript(data, InputFormat::Claude);
});
