//! Limits that fail closed: a 1 MiB input, 100,000-deep nesting, 10,000 heredocs, a
//! 100,000-element brace expansion and a 1 MiB word each get a verdict, never
//! `allow` where a limit cut the analysis short, and never a crash. With the input
//! limit raised so the whole text is analysed, the same shapes still get a verdict
//! (on a 2 MiB thread stack: the walker does not recurse on the tree) and anything
//! gated inside them is still found. Time is measured by `benches/limits.rs`, not
//! here.

#[path = "common/stack.rs"]
mod stack;

use bashgate::{Decision, Gate};
use stack::on_small_stack;

const MIB: usize = 1 << 20;

fn default_gate() -> Gate {
    Gate::builder()
        .root(std::env::temp_dir())
        .home(None)
        .build()
        .expect("gate")
}

fn raised_gate() -> Gate {
    Gate::builder()
        .root(std::env::temp_dir())
        .home(None)
        .max_input_bytes(4 * MIB)
        .build()
        .expect("gate")
}

/// The five shapes, each with a `sudo` hidden at the far end.
fn shapes() -> Vec<(&'static str, String)> {
    vec![
        ("1 MiB input", format!("{}sudo ls", "ls; ".repeat(MIB / 4))),
        (
            "100,000-deep nesting",
            format!("{}sudo ls{}", "( ".repeat(100_000), " )".repeat(100_000)),
        ),
        (
            "10,000 heredocs",
            format!(
                "{}sudo ls",
                (0..10_000)
                    .map(|i| format!("cat <<E{i}\nbody\nE{i}\n"))
                    .collect::<String>()
            ),
        ),
        ("1 MiB word", format!("echo {}; sudo ls", "a".repeat(MIB))),
    ]
}

#[test]
fn over_the_default_limit_every_shape_asks_without_analysis() {
    let gate = default_gate();
    for (name, command) in shapes() {
        let verdict = gate.check(&command);
        assert_eq!(verdict.decision, Decision::Ask, "{name}");
        assert!(verdict.has_rule("BG002"), "{name}: {:?}", verdict.findings);
        assert_eq!(verdict.findings.len(), 1, "{name}");
    }
}

#[test]
fn with_the_limit_raised_every_shape_is_analysed_to_the_end() {
    for (name, command) in shapes() {
        let verdict = on_small_stack(move || raised_gate().check(&command));
        assert_eq!(
            verdict.decision,
            Decision::Deny,
            "{name}: the sudo at the end"
        );
        assert!(verdict.has_rule("BG207"), "{name}");
    }
}

#[test]
fn a_huge_brace_expansion_of_alternatives_fails_closed() {
    let gate = default_gate();
    // 2^17 = 131,072 words: over the expansion limit, any of them could be a path.
    let list = format!("cat {}", "{a,b}".repeat(17));
    let verdict = gate.check(&list);
    assert_eq!(verdict.decision, Decision::Ask, "{:?}", verdict.findings);
    assert!(verdict.has_rule("BG002"));
    // A list hiding an absolute path among 1,000 words.
    let hidden = gate.check("cat {/etc/passwd,x{1..1000}}");
    assert_ne!(hidden.decision, Decision::Allow);
    // A 100,000-element sequence only varies digits: judged as written.
    let sequence = gate.check("echo {1..100000}");
    assert_eq!(sequence.decision, Decision::Allow);
    let outside = gate.check("rm -rf /etc/x{1..100000}");
    assert_eq!(outside.decision, Decision::Deny);
}

#[test]
fn a_deep_substitution_nest_keeps_its_verdict_bounded() {
    // One finding per level would be quadratic output; the verdict is capped.
    let command = format!("{}x{}", "$(".repeat(30_000), ")".repeat(30_000));
    let verdict = on_small_stack(move || raised_gate().check(&command));
    assert_ne!(verdict.decision, Decision::Allow);
    assert!(verdict.findings.len() <= bashgate::MAX_FINDINGS + 1);
}
