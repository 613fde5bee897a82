//! The same server driven by the official MCP Inspector's command-line mode (npm
//! `@modelcontextprotocol/inspector`), so a client no one here wrote agrees with it.
//!
//! `BASHGATE_MCP_INSPECTOR=DIR` names an `npm install --prefix DIR` of the
//! Inspector (CI sets it and the test must run there); without it the test runs
//! through `npx` when `npx` is on the PATH, and is skipped (saying so) otherwise.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The command that starts the Inspector, if one is available.
fn inspector() -> Option<Command> {
    if let Some(dir) = std::env::var_os("BASHGATE_MCP_INSPECTOR") {
        let cli = PathBuf::from(dir)
            .join("node_modules/@modelcontextprotocol/inspector/cli/build/cli.js");
        assert!(
            cli.is_file(),
            "BASHGATE_MCP_INSPECTOR: no {}",
            cli.display()
        );
        let mut cmd = Command::new("node");
        cmd.arg(cli);
        return Some(cmd);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must set BASHGATE_MCP_INSPECTOR (.ci/run installs the Inspector)"
    );
    let npx_ok = Command::new("npx")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !npx_ok {
        return None;
    }
    let mut cmd = Command::new("npx");
    cmd.args(["--yes", "@modelcontextprotocol/inspector@0.15.0"]);
    Some(cmd)
}

fn run(root: &std::path::Path, method: &[&str]) -> Value {
    let mut cmd = inspector().expect("checked by the caller");
    cmd.arg("--cli")
        .arg(env!("CARGO_BIN_EXE_bashgate"))
        .args(["mcp", "--no-config", "--root"])
        .arg(root)
        .args(["--sandbox", super::sandbox_mode()])
        .arg("--method")
        .args(method)
        .env("XDG_CONFIG_HOME", root.join("no-config"));
    let out = cmd.output().expect("run the Inspector");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "Inspector failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("Inspector output not JSON ({e}): {stdout}"))
}

#[test]
fn the_mcp_inspector_lists_and_calls_check_command() {
    if inspector().is_none() {
        eprintln!("skipped: no npx and BASHGATE_MCP_INSPECTOR unset");
        return;
    }
    let root = super::project();
    let tools = run(&root, &["tools/list"]);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"check_command"), "{tools}");
    for (command, decision) in [
        ("ls -la", "allow"),
        ("cat ~/.ssh/id_rsa", "ask"),
        ("sudo reboot", "deny"),
    ] {
        let arg = format!("command={command}");
        let result = run(
            &root,
            &[
                "tools/call",
                "--tool-name",
                "check_command",
                "--tool-arg",
                &arg,
            ],
        );
        assert_eq!(
            result["structuredContent"]["decision"], decision,
            "{command}: {result}"
        );
        let text = result["content"][0]["text"].as_str().expect("text verdict");
        let parsed: Value = serde_json::from_str(text).expect("verdict JSON");
        assert_eq!(parsed, result["structuredContent"], "{command}");
    }
}

#[test]
fn the_mcp_inspector_runs_a_command() {
    if inspector().is_none() {
        eprintln!("skipped: no npx and BASHGATE_MCP_INSPECTOR unset");
        return;
    }
    let root = super::fresh_project("inspector-run");
    let tools = run(&root, &["tools/list"]);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for tool in ["run_command", "read_output", "kill_shell", "list_shells"] {
        assert!(names.contains(&tool), "{tool}: {tools}");
    }
    let result = run(
        &root,
        &[
            "tools/call",
            "--tool-name",
            "run_command",
            "--tool-arg",
            "command=echo hello > greeting.txt; cat greeting.txt; exit 4",
            "--tool-arg",
            "description=write and read a greeting",
        ],
    );
    assert_eq!(result["content"][0]["text"], "hello\nexit: 4\n", "{result}");
    assert_eq!(result["structuredContent"]["exit_code"], 4, "{result}");
    assert!(root.join("greeting.txt").exists());
    let refused = run(
        &root,
        &[
            "tools/call",
            "--tool-name",
            "run_command",
            "--tool-arg",
            "command=rm greeting.txt",
            "--tool-arg",
            "description=x",
        ],
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["structuredContent"]["status"], "permission_required",
        "{refused}"
    );
    assert!(root.join("greeting.txt").exists());
}
