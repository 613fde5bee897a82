//! The library's background API, which an MCP server builds on: pid and group,
//! incremental bounded reads, status, kill of the whole group, kill on drop.

use super::*;
use bashgate::exec::{Approval, RunOptions, Runner, SandboxMode, Started, Status};
use std::time::{Duration, Instant};

fn runner(f: &Fixture, options: RunOptions) -> Runner {
    let gate = bashgate::Gate::builder().root(&f.root).build().unwrap();
    Runner::new(
        gate,
        RunOptions {
            sandbox: SandboxMode::Require,
            ..options
        },
    )
}

fn started(runner: &Runner, command: &str) -> Box<bashgate::exec::Background> {
    match runner.spawn(command, Approval::NotGiven).unwrap() {
        Started::Running(job) => job,
        Started::Refused(verdict) => panic!("refused: {verdict:?}"),
    }
}

fn wait_for(job: &bashgate::exec::Background, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = String::new();
    while Instant::now() < deadline {
        seen.push_str(&String::from_utf8_lossy(&job.read_new().bytes));
        if seen.contains(needle) {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("never saw {needle:?}: {seen:?}");
}

#[test]
fn output_is_read_incrementally_and_status_follows_the_command() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let runner = runner(&f, RunOptions::default());
    let job = started(&runner, "echo one; sleep 0.5; echo two; exit 3");
    assert_eq!(job.process_group(), job.pid());
    assert_eq!(job.status(), Status::Running);
    let first = wait_for(&job, "one\n");
    assert!(!first.contains("two"));
    wait_for(&job, "two\n");
    assert_eq!(job.wait_timeout(Duration::from_secs(10)), Status::Exited(3));
    let done = job.wait();
    assert_eq!(done.exit_code, 3);
    assert_eq!(String::from_utf8_lossy(&done.output), "one\ntwo\n");
}

#[test]
fn unread_output_is_bounded_and_drops_are_counted() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let runner = runner(
        &f,
        RunOptions {
            output_cap: 1000,
            ..RunOptions::default()
        },
    );
    let job = started(
        &runner,
        "head -c 50000 /dev/zero | tr '\\0' x; echo; echo end",
    );
    job.wait_timeout(Duration::from_secs(10));
    let chunk = job.read_new();
    assert_eq!(chunk.bytes.len(), 1000);
    assert!(chunk.bytes.ends_with(b"\nend\n"));
    assert_eq!(chunk.dropped, 50005 - 1000);
    assert_eq!(job.read_new().bytes.len(), 0);
}

#[test]
fn kill_ends_the_whole_group_and_drop_kills_too() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let runner = runner(&f, RunOptions::default());
    let job = started(&runner, "sleep 60 & echo ready; wait");
    wait_for(&job, "ready");
    let pgid = job.process_group();
    assert!(!group_members(pgid).is_empty());
    job.kill();
    assert_eq!(job.wait_timeout(Duration::from_secs(10)), Status::Killed);
    assert!(group_members(pgid).is_empty());

    let job = started(&runner, "sleep 60 & echo ready; wait");
    wait_for(&job, "ready");
    let pgid = job.process_group();
    drop(job);
    assert!(
        group_members(pgid).is_empty(),
        "dropping the handle kills the group"
    );
}

#[test]
fn a_background_command_times_out_too() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let runner = runner(
        &f,
        RunOptions {
            timeout: Duration::from_secs(1),
            ..RunOptions::default()
        },
    );
    let job = started(&runner, "sleep 30");
    assert_eq!(job.wait_timeout(Duration::from_secs(10)), Status::TimedOut);
    assert_eq!(job.wait().exit_code, 124);
}

#[test]
fn ask_needs_approval_and_deny_never_runs() {
    let f = Fixture::new();
    let runner = runner(&f, RunOptions::default());
    let ask = "cat ../decoy/secret";
    assert!(matches!(
        runner.spawn(ask, Approval::NotGiven).unwrap(),
        Started::Refused(_)
    ));
    let deny = "sudo rm -rf /";
    assert!(matches!(
        runner.spawn(deny, Approval::Given).unwrap(),
        Started::Refused(_)
    ));
    assert!(matches!(
        runner.run(deny, Approval::Given).unwrap(),
        bashgate::exec::Outcome::Refused(v) if v.decision == bashgate::Decision::Deny
    ));
}

#[test]
fn a_runner_is_shared_across_threads_and_handles_move_between_them() {
    fn sync<T: Sync + Send>() {}
    fn send<T: Send>() {}
    sync::<Runner>();
    send::<bashgate::exec::Background>();
}
