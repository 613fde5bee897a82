//! `bashgate mcp` driven by a real client: the official Rust SDK's client spawns the
//! server over stdio, initialises, lists the tools and calls them with good and bad
//! arguments; a raw JSON-RPC session checks that malformed input gets an error and
//! the server keeps serving.

mod ask;
mod http;
mod inspector;
mod run;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A project root for the server: a temp folder with a source file.
fn project() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashgate-mcp-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).expect("create project");
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").expect("write project");
    std::fs::canonicalize(&dir).expect("canonical project")
}

/// A project root of its own for one test (tests that run commands change files).
fn fresh_project(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashgate-mcp-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("create project");
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").expect("write project");
    std::fs::canonicalize(&dir).expect("canonical project")
}

/// `--sandbox require` when CI requires the sandbox (`BASHGATE_EXEC_SANDBOX=require`),
/// so the commands the server runs are proven confined there; best-effort otherwise.
fn sandbox_mode() -> &'static str {
    if std::env::var("BASHGATE_EXEC_SANDBOX").is_ok_and(|v| v == "require") {
        "require"
    } else {
        "best-effort"
    }
}

fn server_args(root: &std::path::Path) -> Vec<String> {
    vec![
        "mcp".into(),
        "--no-config".into(),
        "--root".into(),
        root.display().to_string(),
        "--sandbox".into(),
        sandbox_mode().into(),
    ]
}

async fn client(extra: &[&str]) -> RunningService<RoleClient, ()> {
    client_in(&project(), extra).await
}

async fn client_in(root: &std::path::Path, extra: &[&str]) -> RunningService<RoleClient, ()> {
    serve_client((), root, extra).await
}

/// Spawns `bashgate mcp` at `root` and initialises `handler` as its client.
async fn serve_client<H: rmcp::ClientHandler>(
    handler: H,
    root: &std::path::Path,
    extra: &[&str],
) -> RunningService<RoleClient, H> {
    let mut args = server_args(root);
    args.extend(extra.iter().map(|s| s.to_string()));
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_bashgate")).configure(|cmd| {
        cmd.args(&args)
            .env("XDG_CONFIG_HOME", root.join("no-config"))
            .stderr(Stdio::null());
    });
    let transport = TokioChildProcess::new(command).expect("spawn bashgate mcp");
    handler.serve(transport).await.expect("initialize")
}

fn args(value: Value) -> rmcp::model::JsonObject {
    value.as_object().expect("object").clone()
}

async fn call<H: rmcp::ClientHandler>(
    client: &RunningService<RoleClient, H>,
    tool: &str,
    arguments: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args(arguments)))
        .await
        .expect("call_tool")
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

#[tokio::test]
async fn lists_its_tools_with_schemas_and_descriptions() {
    let client = client(&[]).await;
    let info = client.peer_info().expect("server info");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, "bashgate");
    let tools = client.list_all_tools().await.expect("tools/list");
    let check = tools
        .iter()
        .find(|t| t.name == "check_command")
        .expect("check_command listed");
    let schema = serde_json::to_value(&*check.input_schema).expect("schema");
    assert_eq!(
        schema["properties"]["command"]["type"], "string",
        "{schema}"
    );
    assert_eq!(schema["required"], json!(["command"]), "{schema}");
    assert!(check.description.as_deref().unwrap_or("").contains("deny"));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn check_command_gives_the_verdict_json_of_bashgate_check() {
    let client = client(&[]).await;
    let root = project();
    for (command, decision) in [
        ("ls -la", "allow"),
        ("cat ~/.ssh/id_rsa", "ask"),
        ("git status && sudo rm -rf /", "deny"),
    ] {
        let result = call(&client, "check_command", json!({"command": command})).await;
        assert_ne!(result.is_error, Some(true), "{command}");
        let text = text_of(&result);
        // Exactly what the CLI prints for the same command and root.
        // `check` judges from the directory it runs in; the server judges at the root.
        let cli = Command::new(env!("CARGO_BIN_EXE_bashgate"))
            .current_dir(&root)
            .args(["check", "--no-config", "--format", "json", "--root"])
            .arg(&root)
            .args(["--", command])
            .env("XDG_CONFIG_HOME", root.join("no-config"))
            .output()
            .expect("bashgate check");
        assert_eq!(
            text.trim(),
            String::from_utf8_lossy(&cli.stdout).trim(),
            "{command}"
        );
        let structured = result.structured_content.expect("structured verdict");
        assert_eq!(structured["decision"], decision, "{command}: {structured}");
    }
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn check_command_judges_from_the_given_cwd() {
    let client = client(&[]).await;
    let inside = call(
        &client,
        "check_command",
        json!({"command": "cat main.rs", "cwd": "src"}),
    )
    .await;
    assert_eq!(
        inside.structured_content.expect("verdict")["decision"],
        "allow"
    );
    let outside = call(
        &client,
        "check_command",
        json!({"command": "cat x", "cwd": "../.."}),
    )
    .await;
    assert_ne!(
        outside.structured_content.expect("verdict")["decision"],
        "allow"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn bad_arguments_are_errors_not_verdicts() {
    let client = client(&[]).await;
    for bad in [
        json!({}),
        json!({"command": 5}),
        json!({"command": "ls", "extra": true}),
    ] {
        let outcome = client
            .call_tool(
                CallToolRequestParams::new("check_command").with_arguments(args(bad.clone())),
            )
            .await;
        match outcome {
            Err(_) => {}
            Ok(result) => assert_eq!(result.is_error, Some(true), "{bad}: {result:?}"),
        }
    }
    let unknown = client
        .call_tool(CallToolRequestParams::new("no_such_tool").with_arguments(args(json!({}))))
        .await;
    assert!(unknown.is_err() || unknown.is_ok_and(|r| r.is_error == Some(true)));
    // The server still serves after the bad calls.
    let result = call(&client, "check_command", json!({"command": "ls"})).await;
    assert_eq!(
        result.structured_content.expect("verdict")["decision"],
        "allow"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn the_preset_applies_to_the_server() {
    let client = client(&["--preset", "taskdev"]).await;
    let result = call(&client, "check_command", json!({"command": "make test"})).await;
    let verdict = result.structured_content.expect("verdict");
    assert_eq!(verdict["decision"], "deny", "{verdict}");
    assert_eq!(verdict["findings"][0]["rule"], "BG404", "{verdict}");
    client.cancel().await.expect("close");
}

/// One JSON-RPC message per line, as the stdio transport frames them.
fn send(stdin: &mut impl Write, message: &str) {
    stdin.write_all(message.as_bytes()).expect("write");
    stdin.write_all(b"\n").expect("write");
    stdin.flush().expect("flush");
}

fn receive(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Value {
    let line = lines.next().expect("a response").expect("read");
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// A session spoken in raw JSON-RPC lines, initialised: the server, its stdin, its
/// stdout's lines, and its answer to `initialize`.
fn raw_server(
    root: &std::path::Path,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    impl Iterator<Item = std::io::Result<String>>,
    Value,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args(server_args(root))
        .env("XDG_CONFIG_HOME", root.join("no-config"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
    );
    let init = receive(&mut lines);
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    (child, stdin, lines, init)
}

#[test]
fn malformed_json_rpc_gets_an_error_and_the_server_keeps_serving() {
    let root = project();
    let (mut child, mut stdin, mut lines, init) = raw_server(&root);
    assert_eq!(init["id"], 1, "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "bashgate", "{init}");
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_command","arguments":{"command":"#,
    );
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":3,"method":"no/such/method"}"#,
    );
    send(&mut stdin, r#"{"jsonrpc":"2.0","id":5,"method":7}"#);
    send(
        &mut stdin,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"check_command","arguments":{"command":"sudo reboot"}}}"#,
    );
    let mut by_id = std::collections::BTreeMap::new();
    while by_id.len() < 4 {
        let message = receive(&mut lines);
        by_id.insert(message["id"].to_string(), message);
    }
    let parse_error = by_id.get("null").expect("an error for the malformed line");
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    assert!(by_id["3"]["error"]["code"].is_number(), "{}", by_id["3"]);
    assert_eq!(by_id["5"]["error"]["code"], -32600, "{}", by_id["5"]);
    let verdict = &by_id["4"]["result"]["structuredContent"];
    assert_eq!(verdict["decision"], "deny", "{}", by_id["4"]);
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(
        status.success(),
        "the server exits cleanly when stdin closes: {status}"
    );
}
