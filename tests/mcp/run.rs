//! `run_command` and the background-shell tools driven by rmcp's client: the
//! foreground Bash-tool contract, deny and ask without elicitation (nothing runs),
//! background shells read to completion, killed, ended at their deadline, the
//! bounds, and the server's exit (stdin closed or SIGTERM) killing every shell's
//! process group.

use super::*;
use std::time::{Duration, Instant};

/// Live processes whose process group is `pgid` (from /proc; zombies are dead).
fn group_members(pgid: u64) -> Vec<u32> {
    let mut members = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return members;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command name in parentheses: state ppid pgrp ...
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        let zombie = fields.first() == Some(&"Z");
        if !zombie && fields.get(2).and_then(|p| p.parse::<u64>().ok()) == Some(pgid) {
            members.push(pid);
        }
    }
    members
}

/// Waits until the group has no live member; false if it still has one at the end.
fn group_gone_within(pgid: u64, patience: Duration) -> bool {
    let deadline = Instant::now() + patience;
    while Instant::now() < deadline {
        if group_members(pgid).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    group_members(pgid).is_empty()
}

fn structured(result: &CallToolResult) -> Value {
    result.structured_content.clone().unwrap_or(Value::Null)
}

async fn start_background<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    command: &str,
) -> (String, u64) {
    let started = call(
        client,
        "run_command",
        json!({"command": command, "description": "background", "run_in_background": true}),
    )
    .await;
    assert_ne!(started.is_error, Some(true), "{started:?}");
    let value = structured(&started);
    let id = value["shell_id"].as_str().expect("shell_id").to_string();
    assert!(uuid_like(&id), "{id}");
    let pgid = value["process_group"].as_u64().expect("process_group");
    (id, pgid)
}

fn uuid_like(id: &str) -> bool {
    let parts: Vec<usize> = id.split('-').map(str::len).collect();
    parts == [8, 4, 4, 4, 12] && id.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
}

#[tokio::test]
async fn foreground_runs_like_a_bash_tool() {
    let root = fresh_project("fg");
    let client = client_in(&root, &[]).await;
    let result = call(
        &client,
        "run_command",
        json!({"command": "echo out; echo err >&2; touch made.txt; exit 3", "description": "x"}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(text_of(&result), "out\nerr\nexit: 3\n");
    let value = structured(&result);
    assert_eq!(value["exit_code"], 3, "{value}");
    assert_eq!(value["ran"], true, "{value}");
    assert!(root.join("made.txt").exists(), "it really ran in the root");

    let ok = call(
        &client,
        "run_command",
        json!({"command": "true", "description": "nothing"}),
    )
    .await;
    assert_eq!(text_of(&ok), "");
    assert_eq!(structured(&ok)["exit_code"], 0);

    let slow = call(
        &client,
        "run_command",
        json!({"command": "echo before; sleep 20", "description": "x", "timeout": 1500}),
    )
    .await;
    let value = structured(&slow);
    assert_eq!(value["exit_code"], 124, "{value}");
    assert_eq!(value["timed_out"], true, "{value}");
    let text = text_of(&slow);
    assert!(
        text.starts_with("before\n") && text.contains("timed out"),
        "{text}"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn foreground_output_is_capped_at_100_kib() {
    let root = fresh_project("cap");
    let client = client_in(&root, &[]).await;
    let result = call(
        &client,
        "run_command",
        json!({"command": "yes | head -c 300000", "description": "x"}),
    )
    .await;
    let value = structured(&result);
    assert_eq!(
        value["output_truncated_bytes"],
        300_000 - 100 * 1024,
        "{value}"
    );
    let text = text_of(&result);
    assert!(text.len() < 101 * 1024, "{}", text.len());
    assert!(text.contains("bytes left out"), "the truncation marker");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn deny_and_ask_without_elicitation_never_run() {
    let root = fresh_project("refuse");
    let client = client_in(&root, &[]).await;
    let denied = call(
        &client,
        "run_command",
        json!({"command": "touch denied.txt && sudo reboot", "description": "x"}),
    )
    .await;
    assert_eq!(denied.is_error, Some(true));
    let value = structured(&denied);
    assert_eq!(value["status"], "denied", "{value}");
    assert_eq!(value["ran"], false, "{value}");
    assert!(
        value["capabilities"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("privilege"))),
        "{value}"
    );
    assert!(value["findings"][0]["rule"].is_string(), "{value}");

    std::fs::write(root.join("victim.txt"), "keep").expect("victim");
    for background in [false, true] {
        let asked = call(
            &client,
            "run_command",
            json!({"command": "rm victim.txt", "description": "x", "run_in_background": background}),
        )
        .await;
        assert_eq!(asked.is_error, Some(true), "{asked:?}");
        let value = structured(&asked);
        assert_eq!(value["status"], "permission_required", "{value}");
        assert_eq!(value["decision"], "ask", "{value}");
        assert_eq!(value["capabilities"], json!(["destructive"]), "{value}");
        assert_eq!(value["findings"][0]["rule"], "BG202", "{value}");
        assert!(value["findings"][0]["span"]["start"].is_number(), "{value}");
    }
    assert!(!root.join("denied.txt").exists(), "a denied command ran");
    assert!(
        root.join("victim.txt").exists(),
        "an ask ran without approval"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn run_command_rejects_bad_arguments() {
    let client = client_in(&fresh_project("badargs"), &[]).await;
    for bad in [
        json!({"description": "no command"}),
        json!({"command": "ls"}),
        json!({"command": "ls", "description": "x", "timeout": "soon"}),
        json!({"command": "ls", "description": "x", "timeout": -1}),
        json!({"command": "ls", "description": "x", "timeout": 0}),
        json!({"command": "ls", "description": "x", "run_in_background": "yes"}),
        json!({"command": "ls", "description": "x", "shell": "zsh"}),
    ] {
        let outcome = client
            .call_tool(CallToolRequestParams::new("run_command").with_arguments(args(bad.clone())))
            .await;
        match outcome {
            Err(_) => {}
            Ok(result) => assert_eq!(result.is_error, Some(true), "{bad}: {result:?}"),
        }
    }
    for (tool, bad) in [
        ("read_output", json!({})),
        ("read_output", json!({"shell_id": "not-a-shell"})),
        ("read_output", json!({"shell_id": 7})),
        (
            "kill_shell",
            json!({"shell_id": "00000000-0000-0000-0000-000000000000"}),
        ),
        ("kill_shell", json!({})),
        ("list_shells", json!({"all": true})),
    ] {
        let outcome = client
            .call_tool(CallToolRequestParams::new(tool).with_arguments(args(bad.clone())))
            .await;
        match outcome {
            Err(_) => {}
            Ok(result) => assert_eq!(result.is_error, Some(true), "{tool} {bad}: {result:?}"),
        }
    }
    let listed = call(&client, "list_shells", json!({})).await;
    assert_eq!(structured(&listed)["shells"], json!([]));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_background_shell_is_read_to_completion() {
    let client = client_in(&fresh_project("bg"), &[]).await;
    let (id, _) = start_background(
        &client,
        "for i in 1 2 3 4 5; do echo line$i; sleep 0.2; done; exit 7",
    )
    .await;
    let mut seen = String::new();
    let mut offset = 0;
    let deadline = Instant::now() + Duration::from_secs(20);
    let last = loop {
        assert!(Instant::now() < deadline, "never ended: {seen:?}");
        let read = call(&client, "read_output", json!({"shell_id": id})).await;
        let value = structured(&read);
        assert_eq!(value["offset"], offset, "reads continue where they stopped");
        offset = value["next_offset"].as_u64().expect("next_offset");
        seen.push_str(value["output"].as_str().expect("output"));
        if value["ended"] == true {
            break value;
        }
        assert_eq!(value["status"]["state"], "running", "{value}");
        tokio::time::sleep(Duration::from_millis(150)).await;
    };
    assert_eq!(seen, "line1\nline2\nline3\nline4\nline5\n");
    assert_eq!(last["status"], json!({"state": "exited", "value": 7}));
    assert_eq!(last["exit_code"], 7);
    assert_eq!(last["dropped_bytes"], 0);
    // `since` reads again from an offset.
    let again = call(&client, "read_output", json!({"shell_id": id, "since": 6})).await;
    assert_eq!(structured(&again)["output"], "line2\nline3\nline4\nline5\n");
    let past = call(
        &client,
        "read_output",
        json!({"shell_id": id, "since": 999}),
    )
    .await;
    assert_eq!(past.is_error, Some(true));
    let listed = call(&client, "list_shells", json!({})).await;
    let shells = structured(&listed)["shells"].clone();
    assert_eq!(shells[0]["shell_id"], json!(id), "{shells}");
    assert_eq!(shells[0]["description"], "background", "{shells}");
    assert_eq!(shells[0]["ended"], true, "{shells}");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn background_output_past_1_mib_is_dropped_and_counted() {
    let client = client_in(&fresh_project("bgbig"), &[]).await;
    let (id, _) = start_background(&client, "yes | head -c 3000000").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline);
        let listed = call(&client, "list_shells", json!({})).await;
        if structured(&listed)["shells"][0]["ended"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let read = call(&client, "read_output", json!({"shell_id": id, "since": 0})).await;
    let value = structured(&read);
    assert_eq!(value["next_offset"], 3_000_000, "{}", value["next_offset"]);
    assert_eq!(value["dropped_bytes"], 3_000_000 - 1024 * 1024);
    assert_eq!(value["output"].as_str().map(str::len), Some(1024 * 1024));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn kill_shell_kills_the_whole_process_group() {
    let client = client_in(&fresh_project("kill"), &[]).await;
    let (id, pgid) = start_background(&client, "sleep 100 & sleep 100 & echo up; wait").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while group_members(pgid).len() < 3 {
        assert!(Instant::now() < deadline, "the group never had its members");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let killed = call(&client, "kill_shell", json!({"shell_id": id})).await;
    assert_ne!(killed.is_error, Some(true), "{killed:?}");
    assert_eq!(structured(&killed)["status"]["state"], "killed");
    assert!(group_gone_within(pgid, Duration::from_secs(5)));
    let read = call(&client, "read_output", json!({"shell_id": id})).await;
    let value = structured(&read);
    assert_eq!(value["status"]["state"], "killed", "{value}");
    assert_eq!(value["ended"], true);
    assert_eq!(value["output"], "up\n");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn the_deadline_kills_a_shell_nobody_polls() {
    let client = client_in(&fresh_project("deadline"), &["--shell-deadline", "1"]).await;
    let (id, pgid) = start_background(&client, "sleep 100").await;
    assert!(!group_members(pgid).is_empty());
    // No read_output until the group is gone: the deadline holds by itself.
    assert!(
        group_gone_within(pgid, Duration::from_secs(8)),
        "the shell outlived its deadline"
    );
    // The group is gone; the shell's own waiter records the end a moment later.
    let settled = Instant::now() + Duration::from_secs(10);
    let value = loop {
        let read = call(&client, "read_output", json!({"shell_id": id})).await;
        let value = structured(&read);
        if value["ended"] == true || Instant::now() > settled {
            break value;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(value["status"]["state"], "timed_out", "{value}");
    assert_eq!(value["exit_code"], 124);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn live_shells_and_buffered_bytes_are_bounded() {
    let client = client_in(&fresh_project("bounds"), &["--max-shells", "1"]).await;
    let (first, _) = start_background(&client, "sleep 100").await;
    let refused = call(
        &client,
        "run_command",
        json!({"command": "sleep 100", "description": "x", "run_in_background": true}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("too many background shells"),
        "{}",
        text_of(&refused)
    );
    call(&client, "kill_shell", json!({"shell_id": first})).await;
    // Room again once the first is over.
    let (second, _) = start_background(&client, "sleep 100").await;
    call(&client, "kill_shell", json!({"shell_id": second})).await;
    client.cancel().await.expect("close");

    let mib = (1024 * 1024).to_string();
    let client = client_in(&fresh_project("bytes"), &["--max-buffered", &mib]).await;
    let (first, _) = start_background(&client, "sleep 100").await;
    let refused = call(
        &client,
        "run_command",
        json!({"command": "sleep 100", "description": "x", "run_in_background": true}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("too much buffered output"),
        "{}",
        text_of(&refused)
    );
    call(&client, "kill_shell", json!({"shell_id": first})).await;
    client.cancel().await.expect("close");
}

/// Starts two background shells (one with a grandchild) and returns their groups.
fn start_two(
    stdin: &mut std::process::ChildStdin,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Vec<u64> {
    let mut groups = Vec::new();
    for (id, command) in [(2, "sleep 100"), (3, "sleep 100 & sleep 100; wait")] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "run_command",
            "arguments": {"command": command, "description": "x", "run_in_background": true}}});
        send(stdin, &request.to_string());
        let response = receive(lines);
        let pgid = response["result"]["structuredContent"]["process_group"]
            .as_u64()
            .unwrap_or_else(|| panic!("{response}"));
        groups.push(pgid);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while groups.iter().any(|g| group_members(*g).is_empty()) {
        assert!(Instant::now() < deadline, "the shells never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    groups
}

#[test]
fn closing_stdin_ends_the_server_and_every_shell() {
    let root = fresh_project("exit-stdin");
    let (mut child, mut stdin, mut lines, _) = raw_server(&root);
    let groups = start_two(&mut stdin, &mut lines);
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status}");
    for pgid in groups {
        assert!(
            group_gone_within(pgid, Duration::from_secs(3)),
            "orphan process group {pgid}: {:?}",
            group_members(pgid)
        );
    }
}

#[test]
fn sigterm_ends_the_server_and_every_shell() {
    let root = fresh_project("exit-term");
    let (mut child, mut stdin, mut lines, _) = raw_server(&root);
    let groups = start_two(&mut stdin, &mut lines);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "the server ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(stdin);
    assert!(
        status.code().is_some(),
        "it exited on its own terms: {status}"
    );
    for pgid in groups {
        assert!(
            group_gone_within(pgid, Duration::from_secs(3)),
            "orphan process group {pgid}: {:?}",
            group_members(pgid)
        );
    }
}
