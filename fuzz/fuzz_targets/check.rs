//! Arbitrary bytes into the gate: no panic, a command the gate could not parse (or
//! that is over a limit, or not UTF-8) is never allowed, and every span is inside the
//! input on character boundaries. Properties in `fuzz/properties.rs`;
//! `tests/fuzz_seeds.rs` runs them over `fuzz/seeds/check/` as an ordinary test.
//!
//! Run (libFuzzer writes new inputs into the FIRST folder, so give it a scratch
//! one and keep the committed seeds second):
//! `cargo fuzz run -s none check fuzz/corpus/check fuzz/seeds/check` on the stable
//! toolchain, or `RUSTC_BOOTSTRAP=1 cargo fuzz run check fuzz/corpus/check
//! fuzz/seeds/check` with AddressSanitizer.

#![no_main]

#[path = "../properties.rs"]
mod properties;

use bashgate::Gate;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn gate() -> &'static Gate {
    static GATE: OnceLock<Gate> = OnceLock::new();
    GATE.get_or_init(properties::default_gate)
}

fuzz_target!(|data: &[u8]| {
    properties::check_bytes(gate(), data);
});
