//! Each of the 42 agent commands on its own — `Gate::check`, the bare tree-sitter
//! parse and `shell_words::split` side by side in the same run — so the figures are
//! per command (median, p90, max over the set), not a sum, and the ratios hold on a
//! noisy machine. Criterion writes each estimate under
//! `target/criterion/per-command/`; `benches/summarize.py` turns them into the
//! README's table.

use bashgate::Gate;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn per_command(c: &mut Criterion) {
    let cmds: Vec<String> =
        serde_json::from_str(include_str!("agent-commands.json")).expect("json array");
    let root = std::env::temp_dir().join("bashgate-bench-root");
    std::fs::create_dir_all(&root).expect("bench root");
    let gate = Gate::builder().root(&root).build().expect("gate");
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .expect("grammar");
    let mut group = c.benchmark_group("per-command");
    group
        .measurement_time(Duration::from_millis(800))
        .warm_up_time(Duration::from_millis(200))
        .sample_size(20);
    for (i, cmd) in cmds.iter().enumerate() {
        group.bench_function(format!("check/{i:02}"), |b| {
            b.iter(|| black_box(gate.check(black_box(cmd))))
        });
        group.bench_function(format!("parse/{i:02}"), |b| {
            b.iter(|| black_box(parser.parse(black_box(cmd), None)))
        });
        group.bench_function(format!("split/{i:02}"), |b| {
            b.iter(|| black_box(shell_words::split(black_box(cmd)).ok()))
        });
    }
    group.finish();
}

criterion_group!(benches, per_command);
criterion_main!(benches);
