//! What the criterion benchmarks share: the agent command set, the empty project
//! root they judge in, a gate on it and a bare tree-sitter parser to compare with.
//! Each benchmark is its own crate and uses part of this.
#![allow(dead_code)]

use bashgate::Gate;
use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;
use std::hint::black_box;
use std::path::PathBuf;

/// The 42 agent commands of `agent-commands.json`.
pub fn agent_commands() -> Vec<String> {
    serde_json::from_str(include_str!("../agent-commands.json"))
        .expect("agent-commands.json is a JSON array of strings")
}

/// The empty folder the benchmarks use as the project root, created if missing.
pub fn bench_root() -> PathBuf {
    let root = std::env::temp_dir().join("bashgate-bench-root");
    std::fs::create_dir_all(&root).expect("bench root");
    root
}

/// A gate with every rule on, rooted at [`bench_root`].
pub fn bench_gate() -> Gate {
    Gate::builder().root(bench_root()).build().expect("gate")
}

/// A tree-sitter parser for bash: the bare parse a check is compared with.
pub fn bash_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .expect("grammar");
    parser
}

/// `Gate::check` and the bare parse of `cmd` side by side, named `{prefix}check/{id}`
/// and `{prefix}parse/{id}` (the names `benches/summarize.py` reads).
pub fn check_and_parse(
    group: &mut BenchmarkGroup<'_, WallTime>,
    prefix: &str,
    id: &str,
    cmd: &str,
    gate: &Gate,
    parser: &mut tree_sitter::Parser,
) {
    group.bench_function(format!("{prefix}check/{id}"), |b| {
        b.iter(|| black_box(gate.check(black_box(cmd))))
    });
    group.bench_function(format!("{prefix}parse/{id}"), |b| {
        b.iter(|| black_box(parser.parse(black_box(cmd), None)))
    });
}
