//! Arbitrary bytes into the gate: it must never panic, and a command it could not
//! parse must never be allowed. `tests/fuzz_seeds.rs` runs the same property over
//! the seed corpus in `fuzz/seeds/check/` as an ordinary test.
//!
//! Run (libFuzzer writes new inputs into the FIRST folder, so give it a scratch
//! one and keep the committed seeds second):
//! `cargo fuzz run -s none check fuzz/corpus/check fuzz/seeds/check` on the stable
//! toolchain, or `RUSTC_BOOTSTRAP=1 cargo fuzz run check fuzz/corpus/check
//! fuzz/seeds/check` with AddressSanitizer.

#![no_main]

use bashgate::{Decision, Gate};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn gate() -> &'static Gate {
    static GATE: OnceLock<Gate> = OnceLock::new();
    GATE.get_or_init(|| Gate::builder().root(std::env::temp_dir()).home(None).build())
}

fuzz_target!(|data: &[u8]| {
    let verdict = gate().check_bytes(data);
    if verdict.has_rule("BG001") || verdict.has_rule("BG002") {
        assert_ne!(verdict.decision, Decision::Allow, "an unparsed command was allowed");
    }
    if std::str::from_utf8(data).is_err() {
        assert_ne!(verdict.decision, Decision::Allow, "invalid UTF-8 was allowed");
    }
});
