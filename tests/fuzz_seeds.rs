//! Runs the fuzz target's property over its seed corpus (`fuzz/seeds/check/`) as an
//! ordinary test, so CI exercises it without a fuzzer. Keep the assertions in step
//! with `fuzz/fuzz_targets/check.rs`.

use bashgate::{Decision, Gate};
use std::path::Path;

#[test]
fn fuzz_seeds_never_panic_and_never_allow_what_is_not_understood() {
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .home(None)
        .build();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/check");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("seed folder") {
        let path = entry.expect("entry").path();
        let data = std::fs::read(&path).expect("seed");
        let verdict = gate.check_bytes(&data);
        if verdict.has_rule("BG001") || verdict.has_rule("BG002") {
            assert_ne!(verdict.decision, Decision::Allow, "{}", path.display());
        }
        if std::str::from_utf8(&data).is_err() {
            assert_ne!(verdict.decision, Decision::Allow, "{}", path.display());
        }
        count += 1;
    }
    assert!(count >= 40, "only {count} seeds");
}
