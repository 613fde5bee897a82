//! Parsing long commands part by part against parsing them whole: on every corpus
//! command, the benchmark set, the fuzz seeds, generated commands of the whole
//! grammar and long generated pipelines and lists, the top-level splitter either
//! declines or the part-by-part walk builds exactly the records and problems of the
//! whole parse (spans included). Any difference is a bypass.
//!
//! Deterministic by default (the shared fixed seed, 2,000 cases per property). Run
//! long and random with `.ci/proptest-long`, or alone with
//! `BASHGATE_PROPTEST=random cargo test --release --test split`.

#[path = "common/corpus_commands.rs"]
mod corpus_commands;
#[path = "common/generate.rs"]
mod generate;
#[path = "../fuzz/properties.rs"]
mod properties;
#[path = "common/proptest_config.rs"]
mod proptest_config;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::path::{Path, PathBuf};

fn env() -> bashgate::model::Env<'static> {
    static RESOLVER: std::sync::OnceLock<bashgate::model::paths::Resolver> =
        std::sync::OnceLock::new();
    bashgate::model::Env {
        cwd: Path::new("/project"),
        resolver: RESOLVER.get_or_init(Default::default),
        max_nesting: 8,
        fast_path: false,
    }
}

fn split(command: &str) -> bool {
    bashgate::model::split_model(command, &env()).is_some()
}

fn agree(strategy: impl Strategy<Value = String>, cases: u32) -> usize {
    let mut config = proptest_config::config(cases);
    config.failure_persistence = None;
    let mut runner = TestRunner::new(config);
    let taken = std::cell::Cell::new(0);
    let result = runner.run(&strategy, |command| {
        if split(&command) {
            taken.set(taken.get() + 1);
        }
        let outcome = std::panic::catch_unwind(|| properties::check_split(command.as_bytes()));
        prop_assert!(
            outcome.is_ok(),
            "split and whole walks disagree on {command:?}"
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    taken.get()
}

#[test]
fn split_and_whole_records_agree_on_the_corpus_the_benchmarks_and_the_seeds() {
    let agent: Vec<String> =
        serde_json::from_str(include_str!("../benches/agent-commands.json")).expect("json");
    let mut commands: Vec<String> = corpus_commands::corpus_commands()
        .into_iter()
        .chain(agent)
        .collect();
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for target in ["split", "check", "fastpath", "words"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(seeds.join(target))
            .expect("seeds")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("seed");
            commands.push(String::from_utf8_lossy(&data).into_owned());
        }
    }
    let mut taken = 0;
    for command in &commands {
        if split(command) {
            taken += 1;
        }
        let outcome = std::panic::catch_unwind(|| properties::check_split(command.as_bytes()));
        assert!(outcome.is_ok(), "split and whole disagree on {command:?}");
    }
    // Most corpus cases are one command; the property is only worth something if
    // the splitter still takes a fair share of them.
    eprintln!("the splitter took {taken} of {} commands", commands.len());
    assert!(
        taken * 20 >= commands.len(),
        "the splitter took only {taken} of {}",
        commands.len()
    );
}

#[test]
fn split_and_whole_records_agree_on_generated_commands() {
    let taken = agree(generate::command(false), 2000);
    eprintln!("the splitter took {taken} of 2000 generated commands");
    assert!(taken >= 100, "the splitter took only {taken} of 2000");
}

/// Stages with substitutions, quotes, redirects and wrappers, joined by any operator.
fn long_command() -> impl Strategy<Value = String> {
    const STAGES: &[&str] = &[
        "grep $(cat p)",
        "cat f",
        "sort -u",
        "cd /tmp",
        "cd src",
        "rm -rf \"$(pwd)\"",
        "x=1",
        "X=$(date) env",
        "echo \"a | b\" > out",
        "tee -a log 2>&1",
        "cat < in",
        "bash -c 'rm -rf ~'",
        "sudo ls",
        "[ -f x ]",
        "test -d \"${D:-/}\"",
        "echo $(( 1 + 2 ))",
        "diff <(ls a) <(ls b)",
        "alias g='rm -rf /'",
        "g",
        "ls &> all",
        "ln -s /etc e",
        "cat e/passwd",
        "echo 'x;y' >| f",
        "sh ./s",
        "echo 'rm -rf /' > s",
        "read v",
        "f=$(cat s)",
        "$f",
        // Redirects after a statement other than a simple command: the grammar
        // hangs them on the whole list.
        "export P=/tmp > out",
        "[ -f x ] 2> err",
        "- x=~/a",
    ];
    const OPS: &[&str] = &[" | ", " && ", " || ", "; ", " |", "&&", ";"];
    prop::collection::vec(
        (prop::sample::select(STAGES), prop::sample::select(OPS)),
        2..14,
    )
    .prop_map(|stages| {
        let mut out = String::new();
        for (k, (stage, op)) in stages.iter().enumerate() {
            if k > 0 {
                out.push_str(op);
            }
            out.push_str(stage);
        }
        out
    })
}

#[test]
fn split_and_whole_records_agree_on_long_generated_commands() {
    let taken = agree(long_command(), 2000);
    eprintln!("the splitter took {taken} of 2000 long commands");
    assert!(taken >= 500, "the splitter took only {taken} of 2000");
}

#[test]
fn long_commands_reach_the_grammar_part_by_part() {
    let stages = |stage: &str, op: &str, n: usize| vec![stage; n].join(op);
    for command in [
        stages("grep $(cat p)", " | ", 100),
        stages("echo \"$(date)\"", " && ", 100),
        stages("cd $(mktemp -d)", "; ", 30),
    ] {
        assert!(split(&command), "{command:?} was not split");
        properties::check_split(command.as_bytes());
    }
}

#[test]
fn a_difference_is_caught() {
    // The property compares whole records: a changed span must fail it.
    let command = "grep $(cat p) | sort";
    let mut split = bashgate::model::split_model(command, &env()).expect("split");
    split.commands[1].span.end += 1;
    let whole = bashgate::model::build(command, &env());
    assert_ne!(
        format!("{:#?}", split.commands),
        format!("{:#?}", whole.commands)
    );
}
