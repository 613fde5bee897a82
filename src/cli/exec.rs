//! `bashgate exec [OPTIONS] -- COMMAND`: the gate, then the command under the sandbox.

use super::{EXIT_CONFIG, PolicyArgs, check::exit_code};
use bashgate::exec::{Approval, ExecError, Outcome, RunOptions, Runner, report::verdict_json};
use bashgate::report;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Exit code when the runner itself could not start the command (as `env(1)`'s
/// 125: the failure is the runner's, not the command's).
pub const EXIT_RUNNER: i32 = 125;

#[derive(Clone, Copy, Debug, ValueEnum, Default)]
pub enum Format {
    /// The output as a Bash tool shows it.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SandboxArg {
    /// Refuse to run unless every sandbox feature is enforced.
    Require,
    /// Enforce what the kernel has; warn about the rest.
    BestEffort,
    /// No Landlock (the environment, limits and timeout still apply).
    Off,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ProfileTarget {
    /// macOS sandbox profile (SBPL); untested on macOS.
    Macos,
}

#[derive(Args)]
pub struct ExecArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Seconds before the whole process group is killed (longer is clamped to 600).
    #[arg(long, default_value_t = 120, value_name = "S",
          value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// require, best-effort or off.
    #[arg(long, value_enum, default_value_t = SandboxArg::BestEffort)]
    sandbox: SandboxArg,
    /// Run a command the gate asks about (a deny never runs).
    #[arg(long)]
    yes: bool,
    /// text or json.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The working folder: relative to the root, or absolute inside it (default: the
    /// root).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Say what the sandbox applied (on stderr).
    #[arg(long, short)]
    verbose: bool,
    /// DANGEROUS, for testing the sandbox: skip the gate and run any command under
    /// the sandbox alone.
    #[arg(long)]
    no_gate: bool,
    /// Print the policy as a sandbox profile for another system and exit.
    #[arg(long, value_enum, value_name = "SYSTEM")]
    print_profile: Option<ProfileTarget>,
    /// The command (one argument; quote it). Use `--` before it.
    #[arg(required_unless_present = "print_profile", num_args = 1.., trailing_var_arg = true)]
    command: Vec<String>,
}

pub fn run(args: &ExecArgs) -> i32 {
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    if let Some(ProfileTarget::Macos) = args.print_profile {
        let private = std::env::temp_dir().join("bashgate-exec");
        print!(
            "{}",
            bashgate::exec::profile_macos::render(gate.policy(), &private)
        );
        return 0;
    }
    let command = args.command.join(" ");
    let options = RunOptions {
        timeout: Duration::from_secs(args.timeout),
        cwd: args.cwd.clone(),
        gate: !args.no_gate,
        sandbox: match args.sandbox {
            SandboxArg::Require => bashgate::exec::SandboxMode::Require,
            SandboxArg::BestEffort => bashgate::exec::SandboxMode::BestEffort,
            SandboxArg::Off => bashgate::exec::SandboxMode::Off,
        },
        ..RunOptions::default()
    };
    let runner = Runner::new(gate, options);
    let approval = if args.yes {
        Approval::Given
    } else {
        Approval::NotGiven
    };
    let outcome = match runner.run(&command, approval) {
        Ok(outcome) => outcome,
        Err(e) => {
            report_error(&e, args.format);
            return EXIT_RUNNER;
        }
    };
    match outcome {
        Outcome::Refused(verdict) => {
            let code = exit_code(verdict.decision);
            match args.format {
                Format::Json => println!(
                    "{}",
                    serde_json::json!({
                        "verdict": verdict_json(&verdict),
                        "ran": false,
                        "exit_code": code,
                        "timed_out": false,
                        "output": "",
                        "output_truncated_bytes": 0,
                        "duration_ms": 0,
                        "sandbox": null,
                    })
                ),
                Format::Text => print!("{}", report::render_text(&command, &verdict)),
            }
            code
        }
        Outcome::Finished(done) => {
            let missing = done.sandbox.not_enforced();
            if args.sandbox == SandboxArg::BestEffort && !missing.is_empty() {
                eprintln!("bashgate: warning: not enforced: {}", missing.join(", "));
            }
            if args.verbose {
                for line in done.sandbox.describe() {
                    eprintln!("bashgate: {line}");
                }
            }
            let mut stdout = std::io::stdout().lock();
            let written = match args.format {
                Format::Json => {
                    let mut value = done.to_json();
                    value["ran"] = serde_json::Value::Bool(true);
                    writeln!(stdout, "{value}")
                }
                Format::Text => stdout.write_all(&done.render_text(runner.timeout())),
            };
            if written.and_then(|()| stdout.flush()).is_err() {
                return EXIT_RUNNER;
            }
            done.exit_code
        }
    }
}

fn report_error(error: &ExecError, format: Format) {
    match format {
        Format::Json => println!(
            "{}",
            serde_json::json!({"ran": false, "error": error.to_string(), "exit_code": EXIT_RUNNER})
        ),
        Format::Text => eprintln!("bashgate: {error}"),
    }
}
