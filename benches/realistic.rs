//! The realistic set of the speed goals, measured per command: the 42 agent commands
//! plus every must-allow case of the corpus that needs no setting of its own (no mode,
//! configuration, environment or working directory), each command's `Gate::check`
//! and bare tree-sitter parse side by side in the same run. Criterion writes each
//! estimate under `target/criterion/realistic/`; `python3 benches/summarize.py
//! realistic` gives the median, p90 and max over the set, how many commands take more
//! than 20 µs, the check / parse ratio per command, and the slowest commands (the set
//! is written to `target/criterion/realistic/commands.json`).
//!
//! `cargo bench --bench realistic` (about five minutes: each of some 3,400
//! measurements is short, which is enough for a per-command median).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

/// A corpus case, as far as choosing the set needs it.
#[derive(serde::Deserialize)]
struct Case {
    cmd: String,
    decision: String,
    mode: Option<String>,
    cwd: Option<String>,
    config: Option<String>,
    #[serde(default)]
    env: Vec<String>,
}

/// A corpus file: its cases.
#[derive(serde::Deserialize)]
struct CorpusFile {
    #[serde(rename = "case", default)]
    cases: Vec<Case>,
}

/// The 42 agent commands, then the corpus's plain must-allow cases in file order,
/// without repeats.
fn realistic_set() -> Vec<String> {
    let mut set = common::agent_commands();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read corpus");
        let file: CorpusFile = toml::from_str(&text).expect("parse corpus");
        for case in file.cases {
            let plain = case.mode.is_none()
                && case.cwd.is_none()
                && case.config.is_none()
                && case.env.is_empty();
            if plain && case.decision == "allow" && !set.contains(&case.cmd) {
                set.push(case.cmd);
            }
        }
    }
    set
}

/// Writes the set beside criterion's estimates, so `summarize.py realistic` can name
/// the slowest commands, not only their indexes.
fn write_set(cmds: &[String]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/criterion/realistic");
    let text = serde_json::to_string(cmds).expect("a list of strings is JSON");
    std::fs::create_dir_all(&dir).expect("criterion's folder");
    std::fs::write(dir.join("commands.json"), text).expect("write the set");
}

fn realistic(c: &mut Criterion) {
    let cmds = realistic_set();
    write_set(&cmds);
    let gate = common::bench_gate();
    let mut parser = common::bash_parser();
    let mut group = c.benchmark_group("realistic");
    group
        .measurement_time(Duration::from_millis(40))
        .warm_up_time(Duration::from_millis(10))
        .sample_size(10)
        .nresamples(1000);
    for (i, cmd) in cmds.iter().enumerate() {
        common::check_and_parse(&mut group, "", &format!("{i:04}"), cmd, &gate, &mut parser);
    }
    group.finish();
}

criterion_group!(benches, realistic);
criterion_main!(benches);
