//! One proptest configuration for every property test: deterministic by default so
//! a CI run fails only on a case someone's change broke, long and random on demand.
//!
//! - Default: the fixed seed [`SEED`] and the test's own case count. Regression files
//!   (`tests/*.proptest-regressions`) are replayed first, as always.
//! - `BASHGATE_PROPTEST=random`: a random seed and 40 times the cases; a failure is
//!   shrunk and saved to the test's regression file, which is committed with the fix.
//!   `.ci/proptest-long` runs every property test this way.
//! - `PROPTEST_CASES` and `PROPTEST_RNG_SEED` still override the case count and the
//!   seed (replaying a reported seed).

use proptest::test_runner::{Config, RngSeed};

/// The seed CI runs with.
pub const SEED: u64 = 0x6261_7368_6761_7465;

/// The configuration for a property test that runs `cases` cases in CI.
pub fn config(cases: u32) -> Config {
    let random = std::env::var("BASHGATE_PROPTEST").is_ok_and(|v| v == "random");
    // `Config::default()` reads PROPTEST_CASES and PROPTEST_RNG_SEED.
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = if random {
            RngSeed::Random
        } else {
            RngSeed::Fixed(SEED)
        };
    }
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = if random {
            cases.saturating_mul(40)
        } else {
            cases
        };
    }
    config
}
