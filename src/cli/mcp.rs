//! `bashgate mcp`: serve the gate to MCP clients over stdio.

use super::{EXIT_CONFIG, PolicyArgs};
use clap::Args;

#[derive(Args)]
pub struct McpArgs {
    #[command(flatten)]
    policy: PolicyArgs,
}

pub fn run(args: &McpArgs) -> i32 {
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    match bashgate::mcp::serve_stdio(gate) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bashgate mcp: {e}");
            1
        }
    }
}
