//! `bashgate check COMMAND`, `bashgate check -` / `--stdin`, `bashgate check --file F`.

use super::{EXIT_CONFIG, EXIT_USAGE, PolicyArgs};
use bashgate::{Decision, report};
use clap::{Args, ValueEnum};
use std::io::Read;
use std::path::PathBuf;

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
    /// Read the command from standard input, byte for byte (same as `-`).
    #[arg(long, conflicts_with = "file")]
    stdin: bool,
    /// Read the command from a file, byte for byte.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print the effective policy and where each value came from (as `bashgate
    /// config`), and judge nothing.
    #[arg(long)]
    show_config: bool,
    /// The command to judge, as ONE argument: quote it (`check -- 'ls -la'`). `-`
    /// reads it from standard input.
    #[arg(value_name = "COMMAND", num_args = 0..)]
    command: Vec<String>,
}

/// Largest command read from stdin or a file; the gate's own input limit (BG002)
/// applies below it.
const MAX_READ: u64 = 256 * 1024 * 1024;

/// The exit code for a decision.
pub fn exit_code(decision: Decision) -> i32 {
    match decision {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Deny => 2,
    }
}

/// Where the command comes from.
enum Source {
    Argument(String),
    Stdin,
    File(PathBuf),
}

/// The one source of the command, or a usage error that says how to give it.
fn source(args: &CheckArgs) -> Result<Source, String> {
    let from_stdin = args.stdin || args.command.first().is_some_and(|c| c == "-");
    let words = args.command.len() - usize::from(args.command.first().is_some_and(|c| c == "-"));
    match (from_stdin, &args.file, words) {
        (true, Some(_), _) => Err("give the command one way: `-`/`--stdin` or `--file`".into()),
        (_, _, n) if n > 0 && (from_stdin || args.file.is_some()) => Err(format!(
            "the command comes from {}, but {n} more word(s) follow; drop them or quote them into one argument",
            if from_stdin { "stdin" } else { "--file" }
        )),
        (true, None, _) => Ok(Source::Stdin),
        (false, Some(file), _) => Ok(Source::File(file.clone())),
        (false, None, 0) => Err(
            "no command: `bashgate check -- 'COMMAND'`, `bashgate check -` (stdin) or `bashgate check --file F`".into(),
        ),
        (false, None, 1) => Ok(Source::Argument(args.command[0].clone())),
        (false, None, n) => Err(format!(
            "{n} words were given, but bashgate judges one command string and will not guess how they join \
             (quoting is part of the command). Quote the whole command as one argument:\n    \
             bashgate check -- '{}'\nor pass it on stdin: `bashgate check -`",
            args.command.join(" ").replace('\'', "'\\''")
        )),
    }
}

fn read(source: Source) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let (what, result) = match source {
        Source::Argument(text) => return Ok(text.into_bytes()),
        Source::Stdin => (
            "standard input".to_string(),
            std::io::stdin().take(MAX_READ + 1).read_to_end(&mut bytes),
        ),
        Source::File(path) => {
            let result = std::fs::File::open(&path)
                .and_then(|f| f.take(MAX_READ + 1).read_to_end(&mut bytes));
            (path.display().to_string(), result)
        }
    };
    result.map_err(|e| format!("cannot read the command from {what}: {e}"))?;
    if bytes.len() as u64 > MAX_READ {
        return Err(format!("the command in {what} is over {MAX_READ} bytes"));
    }
    Ok(bytes)
}

pub fn run(args: &CheckArgs, color: super::color::ColorWhen) -> i32 {
    if args.show_config {
        return super::config::show(&args.policy);
    }
    let source = match source(args) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_USAGE;
        }
    };
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    let bytes = match read(source) {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    // The command runs where the user is (a folder under the discovered root).
    let cwd = std::env::current_dir()
        .ok()
        .map(|d| std::fs::canonicalize(&d).unwrap_or(d));
    let verdict = match std::str::from_utf8(&bytes) {
        Ok(text) => gate.check_in(text, cwd.as_deref()),
        Err(_) => gate.check_bytes(&bytes),
    };
    let shown = String::from_utf8_lossy(&bytes);
    match args.format {
        Format::Json => println!("{}", report::to_json(&verdict)),
        Format::Text => super::color::print(
            color,
            &super::color::style_report(&report::render_text(&shown, &verdict)),
        ),
    }
    exit_code(verdict.decision)
}
