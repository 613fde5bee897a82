//! Round-trip latency of `bashgate mcp` as a client sees it: one `tools/call` over
//! stdio, sent by the official Rust SDK's client to a running server. For
//! `check_command`: JSON-RPC framing, the gate, the reply. For a foreground
//! `run_command 'true'`: the same plus the whole run — private folders, Landlock,
//! limits, the pids cgroup where one can be made, `bash -c true`, reaping the
//! group, the drained pipe and the cleanup.
//!
//! `cargo bench --bench mcp`

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;

fn round_trip(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let root = std::env::temp_dir().join("bashgate-bench-mcp");
    std::fs::create_dir_all(&root).expect("root");
    let client = runtime.block_on(async {
        let command =
            tokio::process::Command::new(env!("CARGO_BIN_EXE_bashgate")).configure(|cmd| {
                cmd.args(["mcp", "--no-config", "--root"])
                    .arg(&root)
                    .stderr(std::process::Stdio::null());
            });
        let transport = TokioChildProcess::new(command).expect("spawn bashgate mcp");
        ().serve(transport).await.expect("initialize")
    });
    for (name, command) in [
        ("check_command ls -la", "ls -la"),
        ("check_command sudo rm -rf /", "git status && sudo rm -rf /"),
    ] {
        let arguments = json!({ "command": command })
            .as_object()
            .expect("object")
            .clone();
        c.bench_function(name, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let params = CallToolRequestParams::new("check_command")
                        .with_arguments(arguments.clone());
                    client.call_tool(params).await.expect("call")
                })
            })
        });
    }
    let arguments = json!({ "command": "true", "description": "do nothing" })
        .as_object()
        .expect("object")
        .clone();
    c.bench_function("run_command true (foreground)", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let params =
                    CallToolRequestParams::new("run_command").with_arguments(arguments.clone());
                let result = client.call_tool(params).await.expect("call");
                assert_ne!(result.is_error, Some(true), "{result:?}");
                result
            })
        })
    });
    runtime.block_on(async { client.cancel().await.expect("close") });
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
