//! `bashgate mcp`: a Model Context Protocol server (feature `mcp`) that gives any
//! agent a gated Bash tool, built on the official Rust SDK (`rmcp`).
//!
//! Tools:
//! - `check_command {command, cwd?}` → the verdict, exactly the JSON of `bashgate
//!   check --format json` (as text, and as structured content).
//! - `run_command {command, description, timeout?, run_in_background?}` → the
//!   Bash-tool contract through the gate and the [`exec`](crate::exec) runner:
//!   foreground output (merged, 100 KiB cap) with `exit: N` or the timeout marker
//!   (124); or a background shell's `shell_id` ([`shells`]).
//! - `read_output {shell_id, since?}`, `kill_shell {shell_id}`, `list_shells {}`.
//!
//! When the gate asks, the user is asked through elicitation if the client declared
//! it, and otherwise the result says `permission_required` ([`ask`]). Deny never runs.
//!
//! The server speaks JSON-RPC over stdin/stdout ([`serve_stdio`]); its logs go to
//! stderr, never stdout. It runs nothing it was not asked to, and judges with the
//! same [`Gate`] (and preset) as `bashgate check`. When it exits (stdin closed,
//! SIGTERM, SIGINT or SIGHUP) it kills every background shell's process group.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gate = bashgate::Gate::builder().root(".").build()?;
//! let options = bashgate::mcp::ServerOptions::default();
//! bashgate::mcp::serve_stdio(gate, options)?; // until the client closes stdin
//! # Ok(()) }
//! ```

pub mod ask;
pub mod http;
mod server;
pub mod shells;
mod stdio;
mod tools;

pub use http::{HttpOptions, serve_http};
pub use server::{BashgateServer, ServerOptions};
pub use shells::{ShellLimits, ShellRegistry};
pub use stdio::{LineTransport, MAX_LINE_BYTES};
pub use tools::{CheckCommand, KillShell, ListShells, ReadOutput, RunCommand};

use crate::Gate;
use rmcp::ServiceExt;

/// Why the server stopped with an error.
#[derive(Debug)]
pub struct McpError(String);

impl std::fmt::Display for McpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for McpError {}

/// Serves `gate` over stdin/stdout until the client closes the connection or a
/// signal (SIGTERM, SIGINT, SIGHUP) ends the server; either way every background
/// shell's process group is killed before it returns.
pub fn serve_stdio(gate: Gate, options: ServerOptions) -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| McpError(format!("cannot start the async runtime: {e}")))?;
    let server = BashgateServer::new(gate, options);
    let shells = server.shells().clone();
    let served = runtime.block_on(async move {
        let (transport, writer) = LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
        let service = tokio::select! {
            service = server.serve(transport) => service
                .map_err(|e| McpError(format!("the client did not initialise: {e}")))?,
            signal = termination() => return Err(McpError(format!("stopped by {signal}"))),
        };
        tokio::select! {
            stopped = service.waiting() => {
                stopped.map_err(|e| McpError(format!("the server stopped: {e}")))?;
            }
            signal = termination() => {
                eprintln!("bashgate mcp: stopped by {signal}; killing background shells");
                return Ok(());
            }
        }
        // The transport is gone: the writer finishes what was sent, then ends.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
        Ok::<(), McpError>(())
    });
    // Whatever ended the server, no shell outlives it.
    shells.kill_all();
    // A pending read of stdin cannot be cancelled; do not wait for it.
    runtime.shutdown_background();
    served
}

/// Waits for SIGTERM, SIGINT or SIGHUP and names it. Where signals cannot be
/// watched it waits forever (stdin closing still ends the server).
pub(crate) async fn termination() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int), Ok(mut hup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
        signal(SignalKind::hangup()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
        _ = hup.recv() => "SIGHUP",
    }
}
