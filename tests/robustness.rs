//! Any input in, a verdict out: no panic, no stack overflow, and nothing the gate
//! could not parse is ever allowed. Deep inputs run on a 2 MiB thread stack to prove
//! the walker does not recurse on the tree.

#[path = "common/proptest_config.rs"]
mod proptest_config;
#[path = "common/stack.rs"]
mod stack;

use bashgate::{Decision, Gate};
use proptest::prelude::*;
use stack::on_small_stack;

fn big_gate() -> Gate {
    Gate::builder()
        .root(std::env::temp_dir())
        .home(None)
        .max_input_bytes(10_000_000)
        .build()
        .expect("gate")
}

#[test]
fn deep_inputs_over_the_limit_ask_without_parsing() {
    let deep = format!("{}x{}", "$(".repeat(100_000), ")".repeat(100_000));
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .build()
        .expect("gate");
    let verdict = gate.check(&deep);
    assert_eq!(verdict.decision, Decision::Ask);
    assert!(verdict.has_rule("BG002"));
}

#[test]
fn deep_inputs_within_the_limit_do_not_overflow() {
    // (input, whether it holds a `sudo` that must be denied)
    let cases = [
        (
            format!("{}x{}", "$(".repeat(100_000), ")".repeat(100_000)),
            false,
        ),
        (
            format!("{}ls{}", "( ".repeat(20_000), " )".repeat(20_000)),
            false,
        ),
        (
            format!("{}ls{}", "{ ".repeat(20_000), "; }".repeat(20_000)),
            false,
        ),
        (format!("{}true", "true && ".repeat(20_000)), false),
        (
            format!(
                "{}sudo ls{}",
                "echo \"$(".repeat(20_000),
                ")\"".repeat(20_000)
            ),
            true,
        ),
        (
            format!("{}sudo ls{}", "( ".repeat(20_000), " )".repeat(20_000)),
            true,
        ),
    ];
    for (input, sudo) in cases {
        let decision = on_small_stack(move || big_gate().check(&input).decision);
        if sudo {
            assert_eq!(decision, Decision::Deny);
        }
    }
}

#[test]
fn deeply_nested_shell_strings_hit_the_nesting_limit() {
    let mut script = "sudo ls".to_string();
    for _ in 0..10 {
        script = format!("bash -c {}", shell_quote(&script));
    }
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .build()
        .expect("gate");
    let verdict = gate.check(&script);
    assert_ne!(verdict.decision, Decision::Allow);
    assert!(verdict.has_rule("BG002"), "{verdict:?}");
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn the_length_limit_is_exact() {
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .build()
        .expect("gate");
    let at_limit = format!("echo {}", "a".repeat(64 * 1024 - 5));
    assert_eq!(at_limit.len(), 64 * 1024);
    assert!(!gate.check(&at_limit).has_rule("BG002"));
    let over = format!("{at_limit}a");
    assert!(gate.check(&over).has_rule("BG002"));
}

#[test]
fn odd_bytes_are_judged_not_guessed() {
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .build()
        .expect("gate");
    assert_ne!(gate.check_bytes(b"ls \xff").decision, Decision::Allow);
    assert_ne!(gate.check("ls\r rm -rf x").decision, Decision::Allow);
    assert_ne!(gate.check("ls\u{0}").decision, Decision::Allow);
    // Found by the fuzzer: a short option glued to a multi-byte character.
    assert_ne!(
        gate.check("sud  -orf /[[ -\u{202e}2f ~/id_rsa ]]").decision,
        Decision::Allow
    );
    assert_eq!(gate.check("ls\n").decision, Decision::Allow);
    assert_eq!(gate.check("").decision, Decision::Allow);
    assert_eq!(gate.check("   ").decision, Decision::Allow);
}

proptest! {
    #![proptest_config(proptest_config::config(512))]

    #[test]
    fn arbitrary_bytes_never_panic_and_unparsed_never_allows(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let gate = Gate::builder().root(std::env::temp_dir()).home(None).build().expect("gate");
        let verdict = gate.check_bytes(&bytes);
        if verdict.has_rule("BG001") || verdict.has_rule("BG002") || std::str::from_utf8(&bytes).is_err() {
            prop_assert_ne!(verdict.decision, Decision::Allow);
        }
    }

    #[test]
    fn shellish_strings_never_panic(tokens in prop::collection::vec(prop::sample::select(vec![
        ";", "&&", "||", "|", "&", "$(", ")", "`", "'", "\"", "<<EOF\n", "\nEOF\n", "\n", "{", "}", "(", " ",
        "rm", "sudo", "-rf", "/", "~", "$X", "\\", "bash -c ", "eval ", "<(", ">", "2>&1", "#", "*", "{a,b}",
    ]), 0..40)) {
        let gate = Gate::builder().root(std::env::temp_dir()).home(None).build().expect("gate");
        let input: String = tokens.concat();
        let verdict = gate.check(&input);
        if verdict.has_rule("BG001") {
            prop_assert_ne!(verdict.decision, Decision::Allow);
        }
        // A leading `sudo` is denied, or the whole line asks when it cannot be parsed.
        let leading = format!("sudo {input}");
        prop_assert_ne!(gate.check(&leading).decision, Decision::Allow, "{}", leading);
    }
}

/// Within the default length limit, one finding per nesting level must not make the
/// verdict quadratic: findings are capped in number and in text length.
#[test]
fn verdicts_stay_bounded_on_noisy_input() {
    let input = format!("{}x{}", "$(".repeat(21_000), ")".repeat(21_000));
    assert!(input.len() < 64 * 1024);
    let gate = Gate::builder()
        .root(std::env::temp_dir())
        .build()
        .expect("gate");
    let verdict = on_small_stack(move || gate.check(&input));
    assert_ne!(verdict.decision, Decision::Allow);
    assert!(verdict.findings.len() <= bashgate::MAX_FINDINGS + 1);
    assert!(
        verdict
            .findings
            .iter()
            .all(|f| f.text.len() <= bashgate::MAX_FINDING_TEXT + 3)
    );
    assert!(
        verdict
            .findings
            .iter()
            .any(|f| f.message.contains("more findings were left out"))
    );
}
