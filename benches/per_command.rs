//! Each of the 42 agent commands on its own — `Gate::check`, the bare tree-sitter
//! parse and `shell_words::split` side by side in the same run — so the figures are
//! per command (median, p90, max over the set), not a sum, and the ratios hold on a
//! noisy machine. Criterion writes each estimate under
//! `target/criterion/per-command/`; `benches/summarize.py` turns them into the
//! README's table.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn per_command(c: &mut Criterion) {
    let cmds = common::agent_commands();
    let gate = common::bench_gate();
    let mut parser = common::bash_parser();
    let mut group = c.benchmark_group("per-command");
    group
        .measurement_time(Duration::from_millis(800))
        .warm_up_time(Duration::from_millis(200))
        .sample_size(20);
    for (i, cmd) in cmds.iter().enumerate() {
        common::check_and_parse(&mut group, "", &format!("{i:02}"), cmd, &gate, &mut parser);
        group.bench_function(format!("split/{i:02}"), |b| {
            b.iter(|| black_box(shell_words::split(black_box(cmd)).ok()))
        });
    }
    group.finish();
}

criterion_group!(benches, per_command);
criterion_main!(benches);
