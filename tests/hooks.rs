//! The hooks never widen what the agent allows: deny → deny, ask → ask (or deny
//! where the protocol cannot ask), allow → no decision unless `--approve`; remote or
//! irreversible commands ask under every setting; the call's working directory and
//! the agents' file tools are judged by the path policy.

use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn root() -> String {
    env!("CARGO_MANIFEST_DIR").to_string()
}

fn hook(args: &[&str], input: &Value) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .arg("hook")
        .args(args)
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("bashgate-hooks-no-config"),
        )
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .env_remove("CODEX_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn bashgate");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn claude(tool: &str, tool_input: Value, cwd: &str) -> Value {
    json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_01"
    })
}

fn bash(command: &str) -> Value {
    claude("Bash", json!({"command": command}), &root())
}

/// The Claude Code decision: `None` when the hook said nothing.
fn claude_decision(out: &Output) -> Option<String> {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    if out.stdout.is_empty() {
        return None;
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    Some(
        v["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .expect("decision")
            .to_string(),
    )
}

const REMOTE: &[&str] = &[
    "git push --force origin main",
    "npm publish",
    "kubectl delete ns prod",
    "terraform destroy -auto-approve",
    "aws s3 rm s3://bucket/x --recursive",
    "gh repo delete owner/repo --yes",
];

#[test]
fn an_allow_verdict_defers_to_the_agent_by_default() {
    for command in ["ls -la", "cargo test", "git status"] {
        let out = hook(&["claude-code", "--root", &root()], &bash(command));
        assert_eq!(claude_decision(&out), None, "{command}");
    }
}

#[test]
fn deny_and_ask_keep_their_meaning() {
    let out = hook(&["claude-code", "--root", &root()], &bash("sudo ls"));
    assert_eq!(claude_decision(&out).as_deref(), Some("deny"));
    let out = hook(&["claude-code", "--root", &root()], &bash("eval \"$X\""));
    assert_eq!(claude_decision(&out).as_deref(), Some("ask"));
}

#[test]
fn approve_allows_only_local_commands_without_findings() {
    let approve = ["claude-code", "--root", &root(), "--approve"];
    for command in ["ls -la", "cat README.md", "grep -r fn src"] {
        let out = hook(&approve, &bash(command));
        assert_eq!(claude_decision(&out).as_deref(), Some("allow"), "{command}");
    }
    // No finding, but it can reach another machine: a person decides.
    for command in [
        "git push origin main",
        "git fetch",
        "cargo publish --dry-run",
    ] {
        let out = hook(&approve, &bash(command));
        assert_eq!(claude_decision(&out).as_deref(), Some("ask"), "{command}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default();
        assert!(reason.contains("outside the project"), "{reason}");
    }
}

#[test]
fn gemini_answers_allow_only_with_approve() {
    let input = json!({"cwd": root(), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls -la"}});
    let out = hook(&["gemini", "--root", &root()], &input);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "no decision by default: {out:?}");
    let out = hook(&["gemini", "--root", &root(), "--approve"], &input);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["decision"], "allow");
    let input = json!({"cwd": root(), "hook_event_name": "BeforeTool",
        "tool_name": "read_file", "tool_input": {"file_path": "src/lib.rs"}});
    let out = hook(&["gemini", "--root", &root(), "--approve"], &input);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["decision"], "allow", "a file inside the project");
    // Not proven local: Gemini's own confirmation decides (no ask to give).
    let input = json!({"cwd": root(), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "git fetch"}});
    let out = hook(&["gemini", "--root", &root(), "--approve"], &input);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn remote_or_irreversible_commands_ask_under_every_setting() {
    let root_dir = root();
    for command in REMOTE {
        for extra in [&[][..], &["--approve"][..], &["--mode", "trusted"][..]] {
            let mut args = vec!["claude-code", "--root", root_dir.as_str()];
            args.extend_from_slice(extra);
            let out = hook(&args, &bash(command));
            assert_eq!(
                claude_decision(&out).as_deref(),
                Some("ask"),
                "{command} {extra:?}"
            );
            let v: Value = serde_json::from_slice(&out.stdout).expect("json");
            let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap_or_default();
            assert!(reason.contains("BG210"), "{reason}");
        }
        // Gemini cannot ask: the stricter answer.
        let input = json!({"cwd": root(), "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command", "tool_input": {"command": command}});
        let out = hook(&["gemini", "--root", &root(), "--approve"], &input);
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["decision"], "deny", "{command}");
        // Codex blocks by default.
        let out = hook(&["codex", "--root", &root()], &bash(command));
        assert_eq!(out.status.code(), Some(2), "{command}");
    }
}

#[test]
fn a_working_directory_outside_the_root_asks() {
    let input = claude("Bash", json!({"command": "ls"}), "/etc");
    let out = hook(&["claude-code", "--root", &root()], &input);
    assert_eq!(claude_decision(&out).as_deref(), Some("ask"));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains("BG108") && reason.contains("/etc"),
        "{reason}"
    );
    assert!(!reason.contains("``"), "no empty backticks: {reason}");
    // Inside the project: no finding.
    let input = claude("Bash", json!({"command": "ls"}), &format!("{}/src", root()));
    let out = hook(&["claude-code", "--root", &root()], &input);
    assert_eq!(claude_decision(&out), None);
}

#[test]
fn claude_code_file_tools_are_judged_by_the_path_policy() {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let ssh = PathBuf::from(&home).join(".ssh/id_rsa");
    let ssh = ssh.to_string_lossy();
    let inside = format!("{}/src/lib.rs", root());
    for (tool, input, want) in [
        ("Read", json!({"file_path": inside}), None),
        (
            "Edit",
            json!({"file_path": inside, "old_string": "a", "new_string": "b"}),
            None,
        ),
        ("Read", json!({"file_path": "/etc/passwd"}), Some("ask")),
        (
            "Write",
            json!({"file_path": "/etc/passwd", "content": "x"}),
            Some("ask"),
        ),
        ("Read", json!({"file_path": ssh}), Some("ask")),
        (
            "Write",
            json!({"file_path": ssh, "content": "x"}),
            Some("deny"),
        ),
        (
            "MultiEdit",
            json!({"file_path": ssh, "edits": []}),
            Some("deny"),
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "/tmp/x.ipynb", "new_source": ""}),
            Some("ask"),
        ),
        ("Glob", json!({"pattern": "**/*.rs"}), None),
        (
            "Glob",
            json!({"pattern": "*.conf", "path": "/etc"}),
            Some("ask"),
        ),
        ("Glob", json!({"pattern": "/etc/**/*.conf"}), Some("ask")),
        ("Grep", json!({"pattern": "x", "path": "src"}), None),
        (
            "Grep",
            json!({"pattern": "x", "path": "../.."}),
            Some("ask"),
        ),
        (
            "Write",
            json!({"file_path": format!("{}/.env", root()), "content": "x"}),
            Some("deny"),
        ),
    ] {
        let out = hook(
            &["claude-code", "--root", &root()],
            &claude(tool, input.clone(), &root()),
        );
        assert_eq!(claude_decision(&out).as_deref(), want, "{tool} {input}");
    }
    // A file tool without its path fails closed.
    let out = hook(
        &["claude-code", "--root", &root()],
        &claude("Read", json!({}), &root()),
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn gemini_file_tools_are_judged() {
    for (tool, input, want) in [
        (
            "read_file",
            json!({"file_path": "/etc/passwd"}),
            Some("deny"),
        ),
        (
            "write_file",
            json!({"file_path": "src/x.rs", "content": ""}),
            None,
        ),
        ("replace", json!({"file_path": "/etc/hosts"}), Some("deny")),
        (
            "read_many_files",
            json!({"paths": ["src/**/*.rs", "/etc/*"]}),
            Some("deny"),
        ),
        ("list_directory", json!({"dir_path": "src"}), None),
    ] {
        let input = json!({"cwd": root(), "hook_event_name": "BeforeTool",
            "tool_name": tool, "tool_input": input});
        let out = hook(&["gemini", "--root", &root()], &input);
        assert_eq!(out.status.code(), Some(0), "{tool}");
        let got = if out.stdout.is_empty() {
            None
        } else {
            let v: Value = serde_json::from_slice(&out.stdout).expect("json");
            v["decision"].as_str().map(str::to_string)
        };
        assert_eq!(got.as_deref(), want, "{tool} {input}");
    }
}

#[test]
fn codex_patches_are_judged_by_the_files_they_touch() {
    let patch = |file: &str| {
        claude(
            "apply_patch",
            json!({"command": format!("*** Begin Patch\n*** Update File: {file}\n@@\n-a\n+b\n*** End Patch\n")}),
            &root(),
        )
    };
    let out = hook(&["codex", "--root", &root()], &patch("src/lib.rs"));
    assert_eq!(out.status.code(), Some(0));
    let out = hook(&["codex", "--root", &root()], &patch("/etc/hosts"));
    assert_eq!(out.status.code(), Some(2));
    let out = hook(&["codex", "--root", &root()], &patch("../outside.txt"));
    assert_eq!(out.status.code(), Some(2));
    let no_files = claude("apply_patch", json!({"command": "garbage"}), &root());
    let out = hook(&["codex", "--root", &root()], &no_files);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a patch naming no file fails closed"
    );
}
