//! `bashgate mcp`: serve the gate and the runner to MCP clients over stdio.

use super::exec::SandboxArg;
use super::{EXIT_CONFIG, PolicyArgs};
use bashgate::exec::SandboxMode;
use bashgate::mcp::{ServerOptions, ShellLimits};
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub struct McpArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Landlock strictness for the commands run_command runs.
    #[arg(long, value_enum, default_value_t = SandboxArg::BestEffort)]
    sandbox: SandboxArg,
    /// Seconds a background shell may run before its process group is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800,
          value_parser = clap::value_parser!(u64).range(1..))]
    shell_deadline: u64,
    /// Most background shells running at once.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_shells: u64,
    /// Most bytes of background output held in all (each shell reserves 1 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = bashgate::mcp::shells::DEFAULT_MAX_BUFFERED)]
    max_buffered: usize,
}

pub fn run(args: &McpArgs) -> i32 {
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    let options = ServerOptions {
        sandbox: match args.sandbox {
            SandboxArg::Require => SandboxMode::Require,
            SandboxArg::BestEffort => SandboxMode::BestEffort,
            SandboxArg::Off => SandboxMode::Off,
        },
        shells: ShellLimits {
            deadline: Duration::from_secs(args.shell_deadline),
            max_live: usize::try_from(args.max_shells).unwrap_or(1024),
            max_buffered: args.max_buffered,
            ..ShellLimits::default()
        },
    };
    match bashgate::mcp::serve_stdio(gate, options) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bashgate mcp: {e}");
            1
        }
    }
}
