//! How the gate scales on the limit shapes (a long list, deep nesting, many heredocs,
//! a long word, a brace expansion), with the input limit raised so the whole text is
//! analysed. Sizes grow 4x per step; time growing 4x means linear. A bare
//! tree-sitter parse of the same text runs in the same group as the baseline, so the
//! ratio gate/parse shows what bashgate adds on top of the grammar. Throughput is in
//! bytes so criterion prints MiB/s per size: flat means linear.
//!
//! `cargo bench --bench limits`

mod common;

use bashgate::Gate;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 3] = [16 << 10, 64 << 10, 256 << 10];

fn shape(name: &str, bytes: usize) -> String {
    match name {
        "list" => "ls; ".repeat(bytes / 4),
        "pipeline" => format!("{}ls", "ls | ".repeat(bytes / 5)),
        "nesting" => format!("{}ls{}", "( ".repeat(bytes / 4), " )".repeat(bytes / 4)),
        "heredocs" => (0..bytes / 16)
            .map(|i| format!("cat <<E\nbody {i}\nE\n"))
            .collect(),
        "word" => format!("echo {}", "a".repeat(bytes)),
        "arguments" => format!("ls {}", "a ".repeat(bytes / 2)),
        _ => unreachable!(),
    }
}

fn scaling(c: &mut Criterion) {
    let root = common::bench_root();
    let gate = Gate::builder()
        .root(&root)
        .home(None)
        .max_input_bytes(64 << 20)
        .build()
        .expect("gate");
    let mut parser = common::bash_parser();
    for name in [
        "list",
        "pipeline",
        "nesting",
        "heredocs",
        "word",
        "arguments",
    ] {
        let mut group = c.benchmark_group(format!("limits-{name}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for bytes in SIZES {
            let text = shape(name, bytes);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(
                BenchmarkId::new("tree_sitter_parse", bytes),
                &text,
                |b, t| b.iter(|| black_box(parser.parse(black_box(t), None))),
            );
            group.bench_with_input(BenchmarkId::new("gate_check", bytes), &text, |b, t| {
                b.iter(|| black_box(gate.check(black_box(t))))
            });
        }
        group.finish();
    }
    // Over the default limit: the length check alone, whatever the size.
    let default_gate = Gate::builder()
        .root(&root)
        .home(None)
        .build()
        .expect("gate");
    let mut group = c.benchmark_group("limits-over-default");
    group.sample_size(20);
    for bytes in [1 << 20, 4 << 20] {
        let text = shape("list", bytes);
        group.bench_with_input(BenchmarkId::new("gate_check", bytes), &text, |b, t| {
            b.iter(|| black_box(default_gate.check(black_box(t))))
        });
    }
    group.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);
