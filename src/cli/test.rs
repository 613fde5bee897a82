//! `bashgate test FILE...`: runs a user's own case file against the effective policy,
//! the way ruff and ShellCheck test rules, and reports every case the gate decides
//! otherwise.
//!
//! The file has the corpus format: `[[case]]` tables with `cmd`, `decision`
//! (allow|ask|deny), optional `rules` (the exact set of rule codes; not checked
//! when absent), `near` (codes that must not fire), `cwd` (relative to the root) and
//! `why`. An unknown field is an error naming the file and line.

use super::{EXIT_CONFIG, EXIT_USAGE, PolicyArgs};
use bashgate::Decision;
use clap::Args;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(Args)]
pub struct TestArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Case files (TOML, the format of the project's corpus/).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(rename = "case", default)]
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    cmd: toml::Spanned<String>,
    decision: String,
    rules: Option<Vec<String>>,
    #[serde(default)]
    near: Vec<String>,
    cwd: Option<String>,
    #[allow(dead_code)]
    why: Option<String>,
}

/// Exit 0 when every case gets its expected verdict, 1 when some differ, 78 for a
/// case file or config that cannot be used, 64 for a file that cannot be read.
pub fn run(args: &TestArgs) -> i32 {
    let gate = match args.policy.gate() {
        Ok(gate) => gate,
        Err(message) => {
            eprintln!("bashgate: {message}");
            return EXIT_CONFIG;
        }
    };
    let root = args
        .policy
        .root
        .clone()
        .unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
    let (mut total, mut differ) = (0usize, 0usize);
    for file in &args.files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("bashgate: {}: {e}", file.display());
                return EXIT_USAGE;
            }
        };
        let parsed: CaseFile = match toml::from_str(&text) {
            Ok(parsed) => parsed,
            Err(e) => {
                eprintln!("bashgate: {}: {e}", file.display());
                return EXIT_CONFIG;
            }
        };
        for case in &parsed.cases {
            let line = text[..case.cmd.span().start.min(text.len())]
                .lines()
                .count()
                .max(1);
            let Some(want) = Decision::parse(&case.decision) else {
                eprintln!(
                    "bashgate: {}:{line}: decision `{}` is not allow, ask or deny",
                    file.display(),
                    case.decision
                );
                return EXIT_CONFIG;
            };
            total += 1;
            let cmd = case.cmd.get_ref();
            let cwd = case.cwd.as_ref().map(|c| root.join(c));
            let verdict = gate.check_in(cmd, cwd.as_deref());
            let got: BTreeSet<&str> = verdict.findings.iter().map(|f| f.rule).collect();
            let rules_differ = case
                .rules
                .as_ref()
                .is_some_and(|r| r.iter().map(String::as_str).collect::<BTreeSet<_>>() != got);
            let near: Vec<&str> = case
                .near
                .iter()
                .map(String::as_str)
                .filter(|n| got.contains(n))
                .collect();
            if verdict.decision != want || rules_differ || !near.is_empty() {
                differ += 1;
                println!(
                    "{}:{line}: {cmd:?}\n    want {want}{}, got {} {got:?}{}",
                    file.display(),
                    case.rules
                        .as_ref()
                        .map(|r| format!(" {r:?}"))
                        .unwrap_or_default(),
                    verdict.decision,
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!(" (near rules fired: {near:?})")
                    }
                );
            }
        }
    }
    println!("{total} cases, {differ} decided otherwise");
    i32::from(differ > 0)
}
