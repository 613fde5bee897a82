//! `Gate::check`, the bare tree-sitter parse and `shell_words::split` side by side on
//! the command classes of the README's performance table — plain words, quotes,
//! pipelines, lists, heredocs, nested `bash -c`, and long pipelines and lists (10 and
//! 100 stages, to show how time grows with length). Each class holds a few commands
//! agents send; each is measured on its own, and `benches/summarize.py classes`
//! reports the median and p90 over the class's samples.
//!
//! `cargo bench --bench classes`

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// Each class and its commands.
fn classes() -> Vec<(&'static str, Vec<String>)> {
    let stages = |stage: &str, sep: &str, n: usize| vec![stage; n].join(sep);
    vec![
        (
            "plain",
            vec![
                "ls -la".into(),
                "git status".into(),
                "cargo test --release".into(),
                "git diff --stat HEAD~3".into(),
            ],
        ),
        (
            "quoted",
            vec![
                "git commit -m \"fix: handle edge case in parser\"".into(),
                "grep -rn 'TODO' --include='*.py' src".into(),
                "echo \"$HOME/x\" >> notes.txt".into(),
                "git log --format='%h %s' -n 20".into(),
            ],
        ),
        (
            "pipeline",
            vec![
                "cat src/main.rs | grep foo > out.txt".into(),
                "cargo build 2>&1 | tail -20".into(),
                "git log --oneline | head -n 5".into(),
                "ps aux | grep node | wc -l".into(),
            ],
        ),
        (
            "list",
            vec![
                "cargo fmt && cargo clippy && cargo test".into(),
                "mkdir -p build && cd build && cmake .. && make -j4".into(),
                "git add -A && git commit -m 'wip' || true".into(),
                "npm ci; npm test".into(),
            ],
        ),
        (
            "heredoc",
            vec![
                "cat <<'EOF' > notes.md\n# Notes\nsome text here\nEOF".into(),
                "cat > config.toml <<EOF\n[a]\nname = \"x\"\nEOF".into(),
                format!(
                    "cat <<'EOF' > big.txt\n{}EOF",
                    "line of text with $HOME and `ticks`\n".repeat(40)
                ),
            ],
        ),
        (
            "nested-bash-c",
            vec![
                "bash -c 'cargo test'".into(),
                "sh -c \"npm run build && npm test\"".into(),
                "bash -c \"sudo rm -rf /\"".into(),
            ],
        ),
        ("pipeline-10", vec![stages("grep -v x", " | ", 10)]),
        ("pipeline-100", vec![stages("grep -v x", " | ", 100)]),
        ("list-10", vec![stages("true", " && ", 10)]),
        ("list-100", vec![stages("true", " && ", 100)]),
        (
            "subst-pipeline-10",
            vec![stages("grep $(cat p)", " | ", 10)],
        ),
        (
            "subst-pipeline-100",
            vec![stages("grep $(cat p)", " | ", 100)],
        ),
    ]
}

fn by_class(c: &mut Criterion) {
    let gate = common::bench_gate();
    let mut parser = common::bash_parser();
    let mut group = c.benchmark_group("classes");
    group
        .measurement_time(Duration::from_millis(600))
        .warm_up_time(Duration::from_millis(200))
        .sample_size(20);
    for (class, commands) in classes() {
        for (i, cmd) in commands.iter().enumerate() {
            let prefix = format!("{class}/");
            common::check_and_parse(&mut group, &prefix, &i.to_string(), cmd, &gate, &mut parser);
            group.bench_function(format!("{class}/split/{i}"), |b| {
                b.iter(|| black_box(shell_words::split(black_box(cmd)).ok()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, by_class);
criterion_main!(benches);
