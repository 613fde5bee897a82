//! `bashgate check COMMAND`.

use super::{EXIT_CONFIG, PolicyArgs};
use bashgate::{Decision, report};
use clap::{Args, ValueEnum};

/// Output formats of `check`.
#[derive(Clone, Copy, Debug, ValueEnum, Default)]
pub enum Format {
    /// Compiler-style diagnostics.
    #[default]
    Text,
    /// The verdict as one JSON object.
    Json,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// text or json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The command to judge (one argument; quote it). Use `--` before it.
    #[arg(required = true, num_args = 1.., trailing_var_arg = true)]
    command: Vec<String>,
}

/// The exit code for a decision.
pub fn exit_code(decision: Decision) -> i32 {
    match decision {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Deny => 2,
    }
}

pub fn run(args: &CheckArgs) -> i32 {
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    let command = args.command.join(" ");
    let verdict = gate.check(&command);
    match args.format {
        Format::Json => println!("{}", report::to_json(&verdict)),
        Format::Text => print!("{}", report::render_text(&command, &verdict)),
    }
    exit_code(verdict.decision)
}
