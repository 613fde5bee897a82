//! Arbitrary bytes through the `jsonl` transcript reader: no panic, records in line
//! order within the input, unreadable lines reported with a reason. `cargo fuzz run
//! -s none transcript_jsonl fuzz/corpus/transcript_jsonl fuzz/seeds/transcript_jsonl`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use bashgate::transcripts::InputFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_transcript(data, InputFormat::Jsonl);
});
