//! Timeout and process limit: a deadline kills the whole group (checked by pid), and
//! a fork bomb run on the sandbox alone is bounded by the process limit and ended by
//! the timeout without harming the host.

use super::*;
use std::time::{Duration, Instant};

fn pids_in(out: &str, key: &str) -> Vec<u32> {
    out.lines()
        .filter_map(|l| l.strip_prefix(key))
        .filter_map(|v| v.trim().parse().ok())
        .collect()
}

#[test]
fn a_timeout_kills_the_whole_group_and_output_flows_until_then() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let command = "echo shell=$$; sleep 30 & echo job=$!; for i in $(seq 1 100); do echo tick$i; sleep 0.1; done; sleep 30";
    let start = Instant::now();
    let (json, out) = f.exec(&["--sandbox", "require", "--timeout", "2"], command);
    let elapsed = start.elapsed();
    assert_eq!(json["exit_code"], 124, "{json}");
    assert_eq!(out.status.code(), Some(124));
    assert_eq!(json["timed_out"], true);
    assert!(elapsed < Duration::from_secs(8), "took {elapsed:?}");
    let text = output(&json);
    assert!(
        text.contains("tick1\n") && text.contains("tick10\n"),
        "output flowed: {text}"
    );
    let shell = pids_in(text, "shell=")[0];
    let job = pids_in(text, "job=")[0];
    assert!(group_members(shell).is_empty(), "group {shell} survived");
    assert!(!Path::new(&format!("/proc/{job}")).exists() || group_members(shell).is_empty());
    // The text form carries the Bash-tool marker.
    let text_run = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args([
            "exec",
            "--no-config",
            "--sandbox",
            "require",
            "--timeout",
            "1",
            "--root",
        ])
        .arg(&f.root)
        .args(["--", "sleep 30"])
        .output()
        .unwrap();
    assert_eq!(text_run.status.code(), Some(124));
    assert!(String::from_utf8_lossy(&text_run.stdout).ends_with("bash: timed out after 1s\n"));
}

#[test]
fn a_non_zero_exit_is_the_runners_code_with_an_exit_line() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args(["exec", "--no-config", "--sandbox", "require", "--root"])
        .arg(&f.root)
        .args(["--", "echo partial; exit 7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "partial\nexit: 7\n");
}

#[test]
fn leftover_background_jobs_are_killed_when_the_shell_exits() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let start = Instant::now();
    let json = f.both("sleep 30 & echo shell=$$");
    assert!(start.elapsed() < Duration::from_secs(8));
    assert_eq!(json["exit_code"], 0, "{json}");
    let shell = pids_in(output(&json), "shell=")[0];
    assert!(group_members(shell).is_empty());
}

#[test]
fn a_fork_bomb_on_the_sandbox_alone_is_bounded_and_ended() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let config = f.config("[sandbox.limits]\nprocesses = 48\n");
    let config = config.to_str().unwrap();
    // First prove the limit is in force here; never start a bomb without one.
    let (probe, _) = f.exec(
        &["--no-gate", "--sandbox", "require", "--config", config],
        "true",
    );
    let limit = &probe["sandbox"]["process_limit"];
    assert!(
        limit["cgroup_pids_max"] == 48
            || (limit["rlimit_nproc"] == 48 && limit["rlimit_nproc_enforced"] == true),
        "no process limit in force: {probe}"
    );
    let bomb = ":(){ :|:& };:";
    assert_eq!(f.gate(bomb), "deny", "the gate alone denies the shape");
    // The shell stays to watch (its own `:` returns at once, and the runner kills what
    // a finished shell leaves): the bomb must meet the limit, the timeout ends it.
    let watched = format!("{bomb}; sleep 30");
    let start = Instant::now();
    let (json, _) = f.exec(
        &[
            "--no-gate",
            "--sandbox",
            "require",
            "--config",
            config,
            "--timeout",
            "5",
        ],
        &watched,
    );
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
    assert_eq!(json["ran"], true, "{json}");
    assert_eq!(json["exit_code"], 124, "ended by the timeout: {json}");
    // The bomb hit the limit (fork failed) and never went past it.
    assert!(
        output(&json).contains("Resource temporarily unavailable"),
        "{json}"
    );
    if limit["cgroup_pids_max"] == 48 {
        let peak = json["sandbox"]["pids_peak"].as_u64();
        assert_eq!(
            peak,
            Some(48),
            "the bomb reached the limit and stopped there"
        );
    }
    // The host still forks, and nothing of the bomb is left.
    let after = std::process::Command::new("true").status().unwrap();
    assert!(after.success());
    let both = f.both(bomb);
    assert_eq!(both["ran"], false, "{both}");
}

/// Whether a pid names a live (not zombie) process.
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        after.split_whitespace().next() != Some("Z")
    })
}

#[test]
fn a_process_that_left_the_group_is_killed_with_the_cgroup() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let json = f.both("setsid sleep 30 & echo escaped=$!");
    if json["sandbox"]["process_limit"]["cgroup_pids_max"].is_null() {
        eprintln!("skipped: no pids cgroup here");
        return;
    }
    let escaped = pids_in(output(&json), "escaped=")[0];
    assert!(!alive(escaped), "pid {escaped} survived the run");
}
