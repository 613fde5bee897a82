//! Runs every fuzz target's property (`fuzz/properties.rs`) over its committed seed
//! corpus (`fuzz/seeds/<target>/`) as an ordinary test, so CI exercises them without
//! a fuzzer.
//!
//! The command seeds include commands from the grammar-based generator; to refresh
//! them: `cargo test --test fuzz_seeds -- --ignored write_generated_seeds`.

#[path = "common/generate.rs"]
mod generate;
#[path = "../fuzz/properties.rs"]
mod properties;

use bashgate::transcripts::InputFormat;
use std::path::{Path, PathBuf};

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("seed folder {}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("entry").path();
            let data = std::fs::read(&path).expect("seed");
            (path, data)
        })
        .collect();
    out.sort();
    out
}

fn each_seed(target: &str, minimum: usize, property: impl Fn(&[u8])) {
    let all = seeds(target);
    assert!(all.len() >= minimum, "only {} {target} seeds", all.len());
    for (path, data) in all {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| property(&data)));
        assert!(result.is_ok(), "{target} seed {} fails", path.display());
    }
}

#[test]
fn check_seeds_hold_the_gate_properties() {
    let gate = properties::default_gate();
    each_seed("check", 40, |data| properties::check_bytes(&gate, data));
}

#[test]
fn word_seeds_hold_the_decoder_properties() {
    each_seed("words", 20, properties::check_words);
}

#[test]
fn fast_lexer_agrees_with_the_tree_on_every_seed() {
    for target in ["fastpath", "check", "words"] {
        each_seed(target, 10, properties::check_fastpath);
    }
}

#[test]
fn config_seeds_hold_the_config_properties() {
    each_seed("config", 5, properties::check_config);
}

#[test]
fn transcript_seeds_hold_the_reader_properties() {
    for (target, format) in [
        ("transcript_lines", InputFormat::Lines),
        ("transcript_jsonl", InputFormat::Jsonl),
        ("transcript_claude", InputFormat::Claude),
        ("transcript_codex", InputFormat::Codex),
    ] {
        each_seed(target, 2, |data| properties::check_transcript(data, format));
    }
}

#[test]
fn the_properties_can_fail() {
    // A property that cannot fail proves nothing: a verdict with a span past the
    // input, and an allowed parse failure, must both be caught.
    let mut verdict = properties::default_gate().check("ls (");
    verdict.decision = bashgate::Decision::Allow;
    let allowed = std::panic::catch_unwind(|| properties::check_verdict("ls (", &verdict));
    assert!(allowed.is_err());
    let mut verdict = properties::default_gate().check("cat /etc/passwd");
    verdict.findings[0].span.end = 99;
    let outside =
        std::panic::catch_unwind(|| properties::check_verdict("cat /etc/passwd", &verdict));
    assert!(outside.is_err());
}

#[test]
#[ignore = "writes fuzz/seeds; run by hand to refresh the generated seeds"]
fn write_generated_seeds() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = generate::command(true);
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for target in ["check", "words"] {
        for i in 0..40 {
            let command = strategy.new_tree(&mut runner).expect("generate").current();
            std::fs::write(base.join(target).join(format!("gen-{i:02}")), command)
                .expect("write seed");
        }
    }
}
