//! What the criterion benchmarks share: the agent command set, the empty project
//! root they judge in, a gate on it and a bare tree-sitter parser to compare with.
//! Each benchmark is its own crate and uses part of this.
#![allow(dead_code)]

use bashgate::Gate;
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
