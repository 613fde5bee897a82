//! The properties every fuzz target asserts, shared with `tests/fuzz_seeds.rs` (which
//! runs them over the committed seed corpora as an ordinary test). Each function
//! panics when its property fails, which is what a fuzzer reports.

#![allow(dead_code)]

use bashgate::transcripts::{InputFormat, Outcome, ReaderState, TranscriptReader};
use bashgate::{Decision, Gate, Mode, Policy, Verdict};
use std::path::Path;

/// A gate over the temp folder, no home, default policy.
pub fn default_gate() -> Gate {
    Gate::builder()
        .root(std::env::temp_dir())
        .home(None)
        .build()
        .expect("gate")
}

/// The gate on raw bytes: no panic; a command it could not parse, one over a limit
/// and one that is not UTF-8 are never allowed; every span is inside the input and
/// on character boundaries.
pub fn check_bytes(gate: &Gate, data: &[u8]) {
    let verdict = gate.check_bytes(data);
    match std::str::from_utf8(data) {
        Ok(text) => check_verdict(text, &verdict),
        Err(_) => assert_ne!(
            verdict.decision,
            Decision::Allow,
            "invalid UTF-8 was allowed"
        ),
    }
}

/// The checks on a verdict for `text`.
pub fn check_verdict(text: &str, verdict: &Verdict) {
    if verdict.has_rule("BG001") || verdict.has_rule("BG002") || verdict.has_rule("BG003") {
        assert_ne!(
            verdict.decision,
            Decision::Allow,
            "a command the gate did not understand was allowed"
        );
    }
    for f in &verdict.findings {
        assert!(
            f.span.start <= f.span.end && f.span.end <= text.len(),
            "{} span {:?} outside the {}-byte input",
            f.rule,
            f.span,
            text.len()
        );
        assert!(
            text.is_char_boundary(f.span.start) && text.is_char_boundary(f.span.end),
            "{} span {:?} not on character boundaries",
            f.rule,
            f.span
        );
    }
    let worst = verdict.findings.iter().map(|f| f.decision).max();
    assert_eq!(
        verdict.decision,
        worst.unwrap_or(Decision::Allow),
        "the decision is not the maximum of the findings"
    );
}

/// The word decoder on any text: every word of every command the walker records has
/// a span inside the input on character boundaries, and computing its static value,
/// brace expansion and display never panics.
pub fn check_words(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 16 * 1024 {
        return;
    }
    let env = bashgate::model::Env {
        cwd: &std::env::temp_dir(),
        resolver: &Default::default(),
        max_nesting: 8,
        fast_path: false,
    };
    let walk = bashgate::model::build(text, &env);
    for cmd in &walk.commands {
        for word in &cmd.words {
            let span = word.span;
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "word span {span:?}"
            );
            assert!(
                text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
                "word span {span:?} not on character boundaries"
            );
            let _ = word.static_value();
            let _ = word.brace_expand();
            let _ = word.display();
        }
    }
}

/// Config loading on any text: it loads or says why, never panics; a gate built from
/// a loaded policy still denies `sudo rm -rf /` unless the policy is audit mode.
pub fn check_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut policy = Policy::new(std::env::temp_dir());
    match policy.apply_toml(text, Path::new("fuzz.toml")) {
        Err(e) => assert!(!e.to_string().is_empty(), "an empty config error"),
        Ok(()) => {
            let mode = policy.mode;
            let limit = policy.max_input_bytes;
            let gate = Gate::new(policy);
            let command = "sudo rm -rf /";
            let verdict = gate.check(command);
            if mode == Mode::Audit {
                // Audit mode allows everything by design and only reports.
                assert_eq!(verdict.decision, Decision::Allow);
                return;
            }
            check_verdict(command, &verdict);
            if limit >= command.len() {
                assert_eq!(
                    verdict.decision,
                    Decision::Deny,
                    "a config let `{command}` through"
                );
            }
        }
    }
}

/// A transcript reader on any bytes: never panics; records come in line order, each
/// within the input's lines; a line that cannot be read is an error with a reason,
/// not dropped.
pub fn check_transcript(data: &[u8], format: InputFormat) {
    let total = data.split(|&b| b == b'\n').count();
    let mut state = ReaderState::default();
    let reader = TranscriptReader::new(data, format, &mut state);
    let mut last = 0;
    for record in reader {
        assert!(
            record.line > last,
            "record for line {} after {last}",
            record.line
        );
        assert!(record.lines >= 1, "a record of no lines");
        assert!(
            record.line + record.lines - 1 <= total,
            "record for lines {}+{} past the input's {total}",
            record.line,
            record.lines
        );
        if let Outcome::Error(why) = &record.outcome {
            assert!(
                !why.is_empty(),
                "an error without a reason at line {}",
                record.line
            );
        }
        last = record.line + record.lines - 1;
    }
}

/// The fast lexer either bails or builds exactly the records the tree path builds,
/// for a command the tree path parses without any problem; and the model built with
/// every fast path on (nested scripts lexed too) is the model built with none. A
/// difference is a bypass waiting to happen: the rules would judge a command other
/// than the one bash runs.
pub fn check_fastpath(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let resolver = Default::default();
    let env = bashgate::model::Env {
        cwd: std::path::Path::new("/project"),
        resolver: &resolver,
        max_nesting: 8,
        fast_path: false,
    };
    let tree = bashgate::model::build(text, &env);
    // Every fast path at once (the lexer on the command and on each nested script,
    // the split at top-level operators) against none.
    let all_fast = bashgate::model::build(
        text,
        &bashgate::model::Env {
            fast_path: true,
            ..env
        },
    );
    let (with, without) = (records(&all_fast), records(&tree));
    assert!(
        with == without,
        "the fast paths change the records of {text:?}\nwith: {with}\nwithout: {without}"
    );
    let Some(fast) = bashgate::model::fast_model(text, &env) else {
        return;
    };
    let top_level = tree.problems.iter().any(|p| {
        matches!(
            p,
            bashgate::model::Problem::Parse { nested: false, .. }
                | bashgate::model::Problem::Unparsed { nested: false, .. }
        )
    });
    assert!(
        !top_level,
        "the fast path took {text:?}, which the parser has problems with: {:?}",
        tree.problems
    );
    let (fast, tree) = (records(&fast), records(&tree));
    assert!(
        fast == tree,
        "fast and tree records differ for {text:?}\nfast: {fast}\ntree: {tree}"
    );
}

/// A model's records and problems, as text to compare.
fn records(model: &bashgate::model::Model) -> String {
    format!("{:#?}\n{:#?}", model.commands, model.problems)
}

/// The split walk against the whole parse: whatever text the top-level splitter
/// takes, parsing it part by part must give exactly the records (spans included) and
/// problems of parsing it whole, and the whole parse must have no problem.
pub fn check_split(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let resolver = Default::default();
    let env = bashgate::model::Env {
        cwd: std::path::Path::new("/project"),
        resolver: &resolver,
        max_nesting: 8,
        fast_path: false,
    };
    let Some(split) = bashgate::model::split_model(text, &env) else {
        return;
    };
    let whole = bashgate::model::build(text, &env);
    let top_level = whole.problems.iter().any(|p| {
        matches!(
            p,
            bashgate::model::Problem::Parse { nested: false, .. }
                | bashgate::model::Problem::Unparsed { nested: false, .. }
        )
    });
    assert!(
        !top_level,
        "the splitter took {text:?}, which the parser has problems with: {:?}",
        whole.problems
    );
    let split = format!("{:#?}\n{:#?}", split.commands, split.problems);
    let whole = format!("{:#?}\n{:#?}", whole.commands, whole.problems);
    assert!(
        split == whole,
        "split and whole records differ for {text:?}\nsplit: {split}\nwhole: {whole}"
    );
}
