//! `bashgate mcp`: a Model Context Protocol server (feature `mcp`) that gives any
//! agent a gated Bash tool, built on the official Rust SDK (`rmcp`).
//!
//! Tools:
//! - `check_command {command, cwd?}` → the verdict, exactly the JSON of `bashgate
//!   check --format json` (as text, and as structured content).
//!
//! The server speaks JSON-RPC over stdin/stdout ([`serve_stdio`]); its logs go to
//! stderr, never stdout. It runs nothing it was not asked to, and judges with the
//! same [`Gate`] (and preset) as `bashgate check`.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gate = bashgate::Gate::builder().root(".").build()?;
//! bashgate::mcp::serve_stdio(gate)?; // until the client closes stdin
//! # Ok(()) }
//! ```

mod server;
mod stdio;
mod tools;

pub use server::BashgateServer;
pub use stdio::{LineTransport, MAX_LINE_BYTES};
pub use tools::CheckCommand;

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

/// Serves `gate` over stdin/stdout until the client closes the connection.
pub fn serve_stdio(gate: Gate) -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| McpError(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async move {
        let (transport, writer) = LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
        let service = BashgateServer::new(gate)
            .serve(transport)
            .await
            .map_err(|e| McpError(format!("the client did not initialise: {e}")))?;
        service
            .waiting()
            .await
            .map_err(|e| McpError(format!("the server stopped: {e}")))?;
        // The transport is gone: the writer finishes what was sent, then ends.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
        Ok::<(), McpError>(())
    })?;
    // A pending read of stdin cannot be cancelled; do not wait for it.
    runtime.shutdown_background();
    Ok(())
}
