//! The runner's overhead over a bare `bash -c true`, measured in the same run:
//!
//! - `bare`: `std::process::Command` runs `bash -c true` and waits;
//! - `runner_sandbox_off`: `Runner::run` with the gate, private folders, minimal
//!   environment, resource limits, pids cgroup, process group, merged pipe — no
//!   Landlock;
//! - `runner_landlock`: the same plus the Landlock ruleset (`--sandbox best-effort`);
//! - `runner_landlock_no_cgroup`: Landlock, no pids cgroup (`processes = 0`), to show
//!   what moving the spawning thread into a fresh cgroup costs.
//!
//! `cargo bench --bench exec`; the README quotes the figures.

use bashgate::Gate;
use bashgate::exec::{Approval, Outcome, RunOptions, Runner, SandboxMode};
use criterion::{Criterion, criterion_group, criterion_main};
use std::process::Command;
use std::time::Duration;

fn runner(mode: SandboxMode, cgroup: bool) -> Runner {
    let root = std::env::temp_dir().join("bashgate-exec-bench");
    std::fs::create_dir_all(&root).unwrap();
    let gate = Gate::builder()
        .root(&root)
        .with_policy(|p| {
            if !cgroup {
                p.sandbox.limits.processes = 0;
            }
        })
        .build()
        .unwrap();
    Runner::new(
        gate,
        RunOptions {
            sandbox: mode,
            ..RunOptions::default()
        },
    )
}

fn run(runner: &Runner) {
    match runner.run("true", Approval::NotGiven).unwrap() {
        Outcome::Finished(done) => assert_eq!(done.exit_code, 0),
        Outcome::Refused(v) => panic!("refused: {v:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("exec");
    group
        .sample_size(50)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("bare", |b| {
        b.iter(|| {
            let status = Command::new("bash").args(["-c", "true"]).status().unwrap();
            assert!(status.success());
        })
    });
    let off = runner(SandboxMode::Off, true);
    group.bench_function("runner_sandbox_off", |b| b.iter(|| run(&off)));
    let landlock = runner(SandboxMode::BestEffort, true);
    group.bench_function("runner_landlock", |b| b.iter(|| run(&landlock)));
    let no_cgroup = runner(SandboxMode::BestEffort, false);
    group.bench_function("runner_landlock_no_cgroup", |b| b.iter(|| run(&no_cgroup)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
