//! Arbitrary text as a config file: it loads or says why, never panics, and no loaded
//! config (but audit mode) lets `sudo rm -rf /` through. `cargo fuzz run -s none
//! config fuzz/corpus/config fuzz/seeds/config`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    properties::check_config(data);
});
