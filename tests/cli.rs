//! End-to-end tests of the `bashgate` binary: the CLI contract (exit codes, JSON
//! shapes) that tools outside the project depend on, and the hook protocols.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bashgate"));
    // Keep the user's own config out of the tests.
    cmd.env(
        "XDG_CONFIG_HOME",
        std::env::temp_dir().join("bashgate-cli-no-config"),
    );
    cmd
}

fn root() -> String {
    env!("CARGO_MANIFEST_DIR").to_string()
}

fn check(command: &str) -> Output {
    bin()
        .args(["check", "--root", &root(), "--", command])
        .output()
        .expect("run bashgate")
}

fn with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn bashgate");
    // A process that exits before reading its input (a usage error) closes the pipe:
    // that is its answer, not a test failure.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

#[test]
fn check_exit_codes_follow_the_contract() {
    for (command, want) in [
        ("ls -la", 0),
        ("git status", 0),
        ("sudo rm -rf /", 2),
        ("\"s\"udo ls", 2),
        ("bash -c \"sudo reboot\"", 2),
        ("$'\\x73udo' ls", 2),
        ("eval \"$X\"", 1),
    ] {
        let out = check(command);
        assert_eq!(out.status.code(), Some(want), "{command}: {out:?}");
    }
    for command in ["$(echo rm) -rf x", "echo \"unterminated"] {
        let code = check(command).status.code();
        assert!(matches!(code, Some(1 | 2)), "{command}: {code:?}");
    }
}

#[test]
fn check_json_has_the_documented_shape() {
    let out = bin()
        .args([
            "check",
            "--root",
            &root(),
            "--format",
            "json",
            "--",
            "sudo ls",
        ])
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["decision"], "deny");
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "BG207");
    assert_eq!(f["name"], "privilege-escalation");
    assert_eq!(f["decision"], "deny");
    assert_eq!(f["capability"], "privileged");
    assert_eq!(f["span"]["start"], 0);
    assert_eq!(f["span"]["end"], 4);
    assert_eq!(f["text"], "sudo");
    assert!(f["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[test]
fn check_text_output_puts_carets_under_the_span() {
    let out = check("echo hi && sudo ls");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 | echo hi && sudo ls"), "{text}");
    assert!(text.contains("  |            ^^^^"), "{text}");
}

#[test]
fn usage_errors_never_read_as_deny() {
    let out = bin()
        .args(["check", "--no-such-flag", "x"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64));
    let out = bin().args(["frobnicate"]).output().expect("run");
    assert_eq!(out.status.code(), Some(64));
    let out = bin()
        .args(["check", "--mode", "reckless", "--", "ls"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn config_errors_name_the_file_line_and_key() {
    let dir = std::env::temp_dir().join(format!("bashgate-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("bad.toml");
    std::fs::write(&file, "mode = \"safe\"\nallowed_pathz = [\"x\"]\n").expect("write");
    let out = bin()
        .args(["check", "--root", &root(), "--config"])
        .arg(&file)
        .args(["--", "ls"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(78));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml"), "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert!(err.contains("allowed_pathz"), "{err}");
}

#[test]
fn rules_and_explain_show_every_rule() {
    let out = bin().arg("rules").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    for rule in bashgate::RULES {
        assert!(
            text.contains(rule.code),
            "{} missing from `rules`",
            rule.code
        );
        let out = bin().args(["explain", rule.code]).output().expect("run");
        assert_eq!(out.status.code(), Some(0));
        let doc = String::from_utf8_lossy(&out.stdout);
        assert!(doc.contains("## What it does"), "{}: {doc}", rule.code);
    }
    let out = bin().args(["explain", "BG999"]).output().expect("run");
    assert_eq!(out.status.code(), Some(64));
}

fn claude_input(tool: &str, command: &str) -> String {
    serde_json::json!({
        "session_id": "abc",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": root(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "d"},
        "tool_use_id": "toolu_01"
    })
    .to_string()
}

#[test]
fn claude_code_hook_answers_with_a_permission_decision() {
    for (command, want) in [
        ("ls -la", None),
        ("eval \"$X\"", Some("ask")),
        ("sudo ls", Some("deny")),
    ] {
        let out = with_stdin(&["hook", "claude-code"], &claude_input("Bash", command));
        assert_eq!(out.status.code(), Some(0), "{command}");
        let Some(want) = want else {
            // No finding is not "known safe": the agent's own flow decides.
            assert!(out.stdout.is_empty(), "{command}: {out:?}");
            continue;
        };
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        let h = &v["hookSpecificOutput"];
        assert_eq!(h["hookEventName"], "PreToolUse");
        assert_eq!(h["permissionDecision"], want, "{command}");
        let reason = h["permissionDecisionReason"].as_str().expect("reason");
        assert!(reason.contains("BG2"), "{reason}");
    }
}

#[test]
fn claude_code_hook_passes_other_tools_through() {
    let input = serde_json::json!({"tool_name": "WebFetch", "tool_input": {"url": "https://example.com"}, "cwd": root()});
    let out = with_stdin(&["hook", "claude-code"], &input.to_string());
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn hooks_fail_closed_on_bad_input() {
    for input in [
        "",
        "not json",
        "{\"tool_name\": \"Bash\"}",
        "{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": 3}}",
        "[1,2]",
    ] {
        for agent in ["claude-code", "codex"] {
            let out = with_stdin(&["hook", agent], input);
            assert_eq!(out.status.code(), Some(2), "{agent} {input:?} {out:?}");
            assert!(!out.stderr.is_empty());
        }
        let gemini_input = input.replace("\"Bash\"", "\"run_shell_command\"");
        let out = with_stdin(&["hook", "gemini"], &gemini_input);
        assert_eq!(out.status.code(), Some(2), "gemini {gemini_input:?}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("gemini deny json");
        assert_eq!(v["decision"], "deny");
    }
    let out = with_stdin(
        &["hook", "claude-code", "--bogus"],
        &claude_input("Bash", "ls"),
    );
    assert_eq!(out.status.code(), Some(2), "a hook usage error must block");
}

#[test]
fn gemini_hook_answers_with_decision_and_reason() {
    let input = serde_json::json!({
        "session_id": "s", "transcript_path": "", "cwd": root(), "hook_event_name": "BeforeTool",
        "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "sudo reboot", "dir_path": "src"}
    });
    let out = with_stdin(&["hook", "gemini"], &input.to_string());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["decision"], "deny");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("BG207")));
    let other = serde_json::json!({"tool_name": "web_fetch", "tool_input": {}, "cwd": root()});
    let out = with_stdin(&["hook", "gemini"], &other.to_string());
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn codex_hook_blocks_with_exit_2() {
    let out = with_stdin(&["hook", "codex"], &claude_input("Bash", "sudo ls"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("BG207"));
    let out = with_stdin(&["hook", "codex"], &claude_input("Bash", "cargo test"));
    assert_eq!(out.status.code(), Some(0));
    let out = with_stdin(&["hook", "codex"], &claude_input("Bash", "eval \"$X\""));
    assert_eq!(out.status.code(), Some(2), "ask becomes a block by default");
    let out = with_stdin(
        &["hook", "codex", "--ask-as", "defer"],
        &claude_input("Bash", "eval \"$X\""),
    );
    assert_eq!(out.status.code(), Some(0));
}

/// Generated commands (a fixed-seed mix of words, operators and quoting) plus a few
/// fixed ones: the CLI's exit code must match the library's decision for each.
#[test]
fn check_cli_agrees_with_the_library() {
    let tokens = [
        "ls",
        "sudo",
        "rm",
        "-rf",
        "/",
        "~",
        "cat",
        "/etc/passwd",
        ".env",
        "&&",
        "|",
        ";",
        "$(id)",
        "'a b'",
        "\"$HOME\"",
        "curl",
        "x",
        "bash -c 'ls'",
        "eval",
        "$X",
        "> /tmp/o",
        "2>&1",
        "cd ..",
        "src",
        "git push",
    ];
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut commands: Vec<String> = vec!["ls -la".into(), "rm -rf ~".into(), "cat .env".into()];
    for _ in 0..40 {
        let n = 1 + (next() % 6) as usize;
        let words: Vec<&str> = (0..n)
            .map(|_| tokens[(next() % tokens.len() as u64) as usize])
            .collect();
        commands.push(words.join(" "));
    }
    let gate = bashgate::Gate::builder()
        .root(root())
        .build()
        .expect("gate");
    for command in commands {
        let want = match gate.check(&command).decision {
            bashgate::Decision::Allow => 0,
            bashgate::Decision::Ask => 1,
            bashgate::Decision::Deny => 2,
        };
        let out = bin()
            .args(["check", "--no-config", "--root", &root(), "--", &command])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(want), "{command}");
    }
}

#[test]
fn explain_shows_what_the_catalogue_knows_about_a_program() {
    let out = bin().args(["explain", "Git.exe"]).output().expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let page = String::from_utf8_lossy(&out.stdout);
    for needle in ["git —", "core.sshcommand", "upload-pack", "shell", "clone"] {
        assert!(page.contains(needle), "{needle} missing from:\n{page}");
    }
    let out = bin()
        .args(["explain", "no-such-program-x"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no rule or catalogued program"));
}

#[test]
fn test_runs_a_users_case_file_and_reports_differences() {
    let dir = std::env::temp_dir().join(format!("bashgate-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let good = dir.join("good.toml");
    std::fs::write(
        &good,
        "[[case]]\ncmd = \"ls\"\ndecision = \"allow\"\n\n[[case]]\ncmd = \"sudo ls\"\ndecision = \"deny\"\nrules = [\"BG207\"]\n",
    )
    .expect("write");
    let out = bin()
        .args(["test", "--no-config", "--root"])
        .arg(&dir)
        .arg(&good)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let differs = dir.join("differs.toml");
    std::fs::write(&differs, "[[case]]\ncmd = \"ls\"\ndecision = \"allow\"\n\n[[case]]\ncmd = \"curl https://example.com\"\ndecision = \"allow\"\n").expect("write");
    let out = bin()
        .args(["test", "--no-config", "--root"])
        .arg(&dir)
        .arg(&differs)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("differs.toml:6"), "{text}");
    assert!(text.contains("2 cases, 1 decided otherwise"), "{text}");
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[[case]]\ncmd = \"ls\"\ndecision = \"allow\"\nwhat = 1\n",
    )
    .expect("write");
    let out = bin()
        .args(["test", "--no-config", "--root"])
        .arg(&dir)
        .arg(&bad)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(78), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 4"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let closed = || {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        writer
    };
    // Listings exit as a shell does after SIGPIPE, without a panic message.
    for args in [&["rules"][..], &["explain", "BG101"][..]] {
        let output = bin().args(args).stdout(closed()).output().expect("run");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(141), "{args:?}: {stderr}");
    }
    // A check's decision is its exit code, whether or not the text got out.
    for (command, code) in [("ls", 0), ("rm -rf /", 2)] {
        let output = bin()
            .args(["check", "--root", &root(), "--", command])
            .stdout(closed())
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
        assert_eq!(output.status.code(), Some(code), "{command}: {stderr}");
    }
}
