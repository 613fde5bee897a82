//! Command-line parsing and dispatch. Flags are parsed into plain structs (clap
//! derive), then turned into a [`bashgate::Gate`]; errors map to exit codes here only.

mod analyze;
mod check;
mod color;
mod completions;
mod config;
mod discover;
#[cfg(feature = "exec")]
mod exec;
mod hook;
mod install;
mod mcp;
mod result_line;
mod rules;
mod sarif;
mod test;
mod verdict_memo;

use bashgate::{Gate, GateBuilder, Mode, Preset};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Exit code for usage errors (sysexits EX_USAGE).
pub const EXIT_USAGE: i32 = 64;
/// Exit code for unreadable input or config (sysexits EX_DATAERR / EX_CONFIG).
pub const EXIT_CONFIG: i32 = 78;

#[derive(Parser)]
#[command(
    name = "bashgate",
    version,
    about = "Decides whether a bash command an AI coding agent wants to run may run"
)]
struct Cli {
    /// Colour text output: auto (on a terminal, unless NO_COLOR; CLICOLOR_FORCE
    /// forces it), always or never.
    #[arg(long, value_enum, global = true, default_value_t = color::ColorWhen::Auto)]
    color: color::ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge one command. Exit 0 = allow, 1 = ask, 2 = deny.
    Check(check::CheckArgs),
    /// Audit agent transcripts: judge every shell command they ran.
    Analyze(analyze::AnalyzeArgs),
    /// Answer an agent's pre-tool hook (JSON on stdin, decision on stdout).
    Hook(hook::HookArgs),
    /// Judge a command, then run it confined by the kernel (Landlock) from the same
    /// policy. Exit: the command's code; 124 timeout; 1 ask; 2 deny; 125 not started.
    #[cfg(feature = "exec")]
    Exec(exec::ExecArgs),
    /// Serve the gate to agents over the Model Context Protocol (stdio).
    Mcp(mcp::McpArgs),
    /// List every rule: code, name, default decision, summary.
    Rules(rules::RulesArgs),
    /// Run your own case file (the corpus format) against the effective policy.
    /// Exit 0 = every case as expected, 1 = some decided otherwise.
    Test(test::TestArgs),
    /// Show a rule's documentation (`bashgate explain BG101`) or what the program
    /// catalogue knows about a program (`bashgate explain tar`).
    Explain {
        /// The rule's code or name, or a program's name.
        code: String,
        /// For a program: the policy whose `[programs.NAME]` entries apply.
        #[command(flatten)]
        policy: PolicyArgs,
    },
    /// Print the effective policy (config files merged with flags) and where each
    /// value came from.
    Config(config::ConfigArgs),
    /// Add bashgate's hook to an agent's settings file.
    Install(install::InstallArgs),
    /// Take bashgate's hook out of an agent's settings file.
    Uninstall(install::InstallArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `bashgate man > bashgate.1`.
    Man,
}

/// Policy flags shared by the commands that judge.
#[derive(Args, Clone, Debug, Default)]
pub struct PolicyArgs {
    /// The project root (default: the nearest folder above the working directory
    /// holding a bashgate.toml, stopping at the git top level; else the working
    /// directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// A folder outside the root that may be read and written (repeatable).
    #[arg(long = "allow-path", value_name = "DIR")]
    pub allow_path: Vec<PathBuf>,
    /// A folder outside the root that may be read (repeatable).
    #[arg(long = "read-only-path", value_name = "DIR")]
    pub read_only_path: Vec<PathBuf>,
    /// A config file applied after the discovered ones (repeatable).
    #[arg(long, value_name = "FILE")]
    pub config: Vec<PathBuf>,
    /// safe (default), trusted, strict or audit.
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// A policy reproducing another tool's rules: taskdev, sandbox-koda or
    /// bash-tool-denylist (`bashgate rules --preset NAME` lists it).
    #[arg(long, value_parser = parse_preset)]
    pub preset: Option<Preset>,
    /// Do not read the user's config file or the root's bashgate.toml.
    #[arg(long)]
    pub no_config: bool,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Mode::parse(s)
        .ok_or_else(|| format!("unknown mode `{s}` (expected safe, trusted, strict or audit)"))
}

/// Parses a preset name for clap.
pub fn parse_preset(s: &str) -> Result<Preset, String> {
    Preset::parse(s).ok_or_else(|| {
        format!("unknown preset `{s}` (expected taskdev, sandbox-koda or bash-tool-denylist)")
    })
}

impl PolicyArgs {
    /// Builds the gate: root, discovered config, `--config` files, then flags.
    pub fn gate(&self) -> Result<Gate, String> {
        if let Some(root) = &self.root
            && !root.is_dir()
        {
            return Err(format!("--root {}: not a directory", root.display()));
        }
        self.gate_unchecked_root()
    }

    /// [`PolicyArgs::gate`] for a root that need not exist on this machine (auditing
    /// transcripts recorded elsewhere).
    pub fn gate_unchecked_root(&self) -> Result<Gate, String> {
        let root = discover::root_for(self.root.as_deref()).root;
        let mut builder = GateBuilder::default().root(root);
        if !self.no_config {
            builder = builder.discover_config();
        }
        for file in &self.config {
            builder = builder.config_file(file);
        }
        if let Some(preset) = self.preset {
            builder = builder.preset(preset);
        }
        for path in &self.allow_path {
            builder = builder.allow_path(absolute(path));
        }
        for path in &self.read_only_path {
            builder = builder.read_only_path(absolute(path));
        }
        if let Some(mode) = self.mode {
            builder = builder.mode(mode);
        }
        builder.build().map_err(|e| e.to_string())
    }
}

fn absolute(path: &std::path::Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    std::fs::canonicalize(&joined).unwrap_or(joined)
}

/// Parses the command line and runs it; returns the process exit code.
pub fn run() -> i32 {
    // `hook AGENT`, as agents install it, skips building the whole parser.
    if let Some(args) = hook::plain(std::env::args_os()) {
        return hook::run(&args);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let is_hook = std::env::args().nth(1).as_deref() == Some("hook");
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                // A hook that cannot start must still block the tool call.
                _ if is_hook => 2,
                _ => EXIT_USAGE,
            };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(args) => check::run(&args, cli.color),
        Command::Test(args) => test::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Hook(args) => hook::run(&args),
        #[cfg(feature = "exec")]
        Command::Exec(args) => exec::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        Command::Rules(args) => rules::list(&args),
        Command::Explain { code, policy } => rules::explain(&code, &policy),
        Command::Config(args) => config::run(&args),
        Command::Install(args) => install::run(&args, install::Action::Install),
        Command::Uninstall(args) => install::run(&args, install::Action::Uninstall),
        Command::Completions { shell } => completions::completions(shell),
        Command::Man => completions::man(),
    }
}
