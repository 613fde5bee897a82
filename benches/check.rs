//! The hot path, measured against two baselines in the same run so the ratios hold
//! on a noisy machine: `shell_words::split` (a plain tokenizer, the floor), a bare
//! tree-sitter parse with a reused parser (what any tree-based gate pays), bashgate's
//! parse (with its newline and misparse handling), and `Gate::check` (parse + walk +
//! every rule). The set is the 42 agent commands in `agent-commands.json`; keep that
//! file unchanged so figures compare over time.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn whole_set(c: &mut Criterion) {
    let cmds = common::agent_commands();
    let gate = common::bench_gate();
    let mut parser = common::bash_parser();
    let mut group = c.benchmark_group("agent-commands-42");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(30);
    group.bench_function("shell_words_split", |b| {
        b.iter(|| {
            for cmd in &cmds {
                black_box(shell_words::split(black_box(cmd)).ok());
            }
        })
    });
    group.bench_function("tree_sitter_parse", |b| {
        b.iter(|| {
            for cmd in &cmds {
                black_box(parser.parse(black_box(cmd), None));
            }
        })
    });
    group.bench_function("bashgate_parse", |b| {
        b.iter(|| {
            for cmd in &cmds {
                black_box(bashgate::parse::parse(black_box(cmd)).ok());
            }
        })
    });
    group.bench_function("gate_check", |b| {
        b.iter(|| {
            for cmd in &cmds {
                black_box(gate.check(black_box(cmd)));
            }
        })
    });
    group.finish();

    let mut singles = c.benchmark_group("single");
    singles
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    let picks = [
        ("ls_la", cmds[0].clone()),
        ("git_commit", cmds[3].clone()),
        ("pipeline_3", cmds[20].clone()),
        ("bash_c", cmds[12].clone()),
        ("heredoc_2kb", cmds[40].clone()),
        ("pipeline_21", cmds[41].clone()),
    ];
    for (name, cmd) in &picks {
        common::check_and_parse(&mut singles, "", name, cmd, &gate, &mut parser);
    }
    singles.finish();
}

criterion_group!(benches, whole_set);
criterion_main!(benches);
