//! `bashgate mcp`: serve the gate and the runner to MCP clients over stdio.

use super::exec::SandboxArg;
use super::{EXIT_CONFIG, EXIT_USAGE, PolicyArgs};
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
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio; ADDR must be
    /// loopback (127.0.0.1:PORT or [::1]:PORT).
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// The bearer token HTTP clients must send (default: BASHGATE_MCP_TOKEN, else a
    /// fresh one printed to stderr).
    #[arg(long, value_name = "TOKEN", requires = "http")]
    token: Option<String>,
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
    let served = match &args.http {
        None => bashgate::mcp::serve_stdio(gate, options),
        Some(addr) => match http_options(addr, args.token.as_deref()) {
            Ok(http) => bashgate::mcp::serve_http(gate, options, http),
            Err(message) => {
                eprintln!("bashgate mcp: {message}");
                return EXIT_USAGE;
            }
        },
    };
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bashgate mcp: {e}");
            1
        }
    }
}

/// The listening address (loopback only) and the token: given, from the
/// environment, or generated.
fn http_options(addr: &str, token: Option<&str>) -> Result<bashgate::mcp::HttpOptions, String> {
    use bashgate::mcp::http;
    let addr = http::parse_bind(addr)?;
    let given = match token {
        Some(token) => Some(token.to_string()),
        None => std::env::var(http::TOKEN_ENV)
            .ok()
            .filter(|t| !t.is_empty()),
    };
    match given {
        Some(token) => {
            http::check_token(&token)?;
            Ok(bashgate::mcp::HttpOptions {
                addr,
                token,
                token_generated: false,
            })
        }
        None => Ok(bashgate::mcp::HttpOptions {
            addr,
            token: http::generate_token(),
            token_generated: true,
        }),
    }
}
