//! `bashgate analyze`: audit what agents ran. Reads transcripts (streaming, in chunks
//! judged in parallel, output kept in input order), judges every command with the
//! same gate as `check`, and reports a summary, per-command results, or both.

use super::{EXIT_CONFIG, PolicyArgs};
use bashgate::report;
use bashgate::transcripts::{
    FoundCommand, InputFormat, Outcome, ReaderState, TranscriptReader, detect_format,
    expand_inputs, open_input,
};
use bashgate::{Decision, Gate, Verdict};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Records judged together; bounds memory (the input is never held whole).
const CHUNK: usize = 4096;
/// Lines looked at to detect a format.
const DETECT_LINES: usize = 20;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    /// Summary table, then every ask/deny command with diagnostics.
    Text,
    /// One document: the summary and every result.
    Json,
    /// One line per command (and per unreadable line), in input order.
    Jsonl,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum FailOn {
    /// Exit 1 if anything asks, 2 if anything denies.
    Ask,
    /// Exit 2 if anything denies.
    Deny,
    /// Always exit 0 (unless an input cannot be opened).
    Never,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// auto, lines, jsonl, claude or codex.
    #[arg(long, default_value = "auto", value_parser = |s: &str| s.parse::<InputFormat>())]
    input: InputFormat,
    /// text, json or jsonl.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// When to exit non-zero.
    #[arg(long, value_enum, default_value_t = FailOn::Never)]
    fail_on: FailOn,
    /// Files or directories to read; none or `-` reads stdin.
    files: Vec<String>,
}

/// One result, in input order.
struct Judged {
    source: Arc<str>,
    line: usize,
    item: Item,
}

enum Item {
    Command {
        found: FoundCommand,
        verdict: Verdict,
    },
    Error(String),
}

/// Totals over everything read.
#[derive(Default)]
struct Summary {
    inputs: Vec<(String, &'static str)>,
    lines: usize,
    command_lines: usize,
    other_lines: usize,
    error_lines: usize,
    commands: usize,
    decisions: BTreeMap<&'static str, usize>,
    rules: BTreeMap<&'static str, usize>,
    unopened: Vec<String>,
}

impl Summary {
    fn json(&self) -> Value {
        json!({
            "inputs": self.inputs.iter().map(|(n, f)| json!({"source": n, "format": f})).collect::<Vec<_>>(),
            "lines_read": self.lines,
            "lines_with_commands": self.command_lines,
            "lines_without_commands": self.other_lines,
            "unreadable_lines": self.error_lines,
            "commands": self.commands,
            "allow": self.decisions.get("allow").copied().unwrap_or(0),
            "ask": self.decisions.get("ask").copied().unwrap_or(0),
            "deny": self.decisions.get("deny").copied().unwrap_or(0),
            "rules": self.rules,
            "unopened_inputs": self.unopened,
        })
    }
}

/// Chooses the gate for a command: with `--root`, that root (the command runs in
/// its cwd when the cwd lies inside); without, each session's first cwd is its
/// project root.
struct Gates {
    policy: PolicyArgs,
    fixed: Option<Arc<Gate>>,
    by_root: HashMap<PathBuf, Arc<Gate>>,
    session_root: Option<PathBuf>,
}

impl Gates {
    fn for_command(&mut self, cwd: Option<&str>) -> Result<(Arc<Gate>, Option<PathBuf>), String> {
        let cwd = cwd.map(PathBuf::from);
        if let Some(gate) = &self.fixed {
            let inside = cwd.as_ref().filter(|c| c.starts_with(&gate.policy().root));
            return Ok((gate.clone(), inside.cloned()));
        }
        if self.session_root.is_none() {
            self.session_root = cwd.clone();
        }
        let root = self
            .session_root
            .clone()
            .unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
        let gate = match self.by_root.get(&root) {
            Some(g) => g.clone(),
            None => {
                let mut policy = self.policy.clone();
                policy.root = Some(root.clone());
                let gate = Arc::new(policy.gate_unchecked_root()?);
                self.by_root.insert(root.clone(), gate.clone());
                gate
            }
        };
        let inside = cwd.filter(|c| c.starts_with(&gate.policy().root) || c.starts_with(&root));
        Ok((gate, inside))
    }
}

pub fn run(args: &AnalyzeArgs) -> i32 {
    let fixed = match &args.policy.root {
        Some(_) => match args.policy.gate() {
            Ok(gate) => Some(Arc::new(gate)),
            Err(message) => {
                eprintln!("bashgate: {message}");
                return EXIT_CONFIG;
            }
        },
        None => None,
    };
    let mut gates = Gates {
        policy: args.policy.clone(),
        fixed,
        by_root: HashMap::new(),
        session_root: None,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut summary = Summary::default();
    let mut flagged = String::new();
    let mut all_results: Vec<Value> = Vec::new();
    let mut state = ReaderState::default();
    let progress = progress_bar();
    for input in expand_inputs(&args.files) {
        let input = match input {
            Ok(input) => input,
            Err(message) => {
                eprintln!("bashgate: {message}");
                summary.unopened.push(message);
                continue;
            }
        };
        let name: Arc<str> = Arc::from(input.name());
        let reader = match open_input(&input) {
            Ok(r) => r,
            Err(message) => {
                eprintln!("bashgate: {message}");
                summary.unopened.push(message);
                continue;
            }
        };
        let (format, reader) = match detect(args.input, reader) {
            Ok(x) => x,
            Err(message) => {
                summary.unopened.push(format!("{name}: {message}"));
                continue;
            }
        };
        summary.inputs.push((name.to_string(), format.as_str()));
        gates.session_root = None;
        let mut records = TranscriptReader::new(reader, format, &mut state).peekable();
        loop {
            let mut batch: Vec<(Arc<Gate>, Option<PathBuf>, usize, FoundCommand)> = Vec::new();
            let mut order: Vec<Judged> = Vec::new();
            let mut slots: Vec<usize> = Vec::new();
            for record in records.by_ref().take(CHUNK) {
                summary.lines += record.lines;
                match record.outcome {
                    Outcome::Error(message) => {
                        summary.error_lines += record.lines;
                        order.push(Judged {
                            source: name.clone(),
                            line: record.line,
                            item: Item::Error(message),
                        });
                    }
                    Outcome::Commands(found) if found.is_empty() => {
                        summary.other_lines += record.lines
                    }
                    Outcome::Commands(found) => {
                        summary.command_lines += record.lines;
                        for command in found {
                            match gates.for_command(command.cwd.as_deref()) {
                                Ok((gate, cwd)) => {
                                    slots.push(order.len());
                                    order.push(Judged {
                                        source: name.clone(),
                                        line: record.line,
                                        item: Item::Error(String::new()),
                                    });
                                    batch.push((gate, cwd, record.line, command));
                                }
                                Err(message) => order.push(Judged {
                                    source: name.clone(),
                                    line: record.line,
                                    item: Item::Error(message),
                                }),
                            }
                        }
                    }
                }
            }
            if order.is_empty() {
                break;
            }
            let judged: Vec<(FoundCommand, Verdict)> = batch
                .into_par_iter()
                .map(|(gate, cwd, _, found)| {
                    let verdict = gate.check_in(&found.command, cwd.as_deref());
                    (found, verdict)
                })
                .collect();
            for (slot, (found, verdict)) in slots.into_iter().zip(judged) {
                order[slot].item = Item::Command { found, verdict };
            }
            for result in order {
                emit(
                    args.format,
                    &result,
                    &mut summary,
                    &mut flagged,
                    &mut all_results,
                    &mut out,
                );
            }
            progress.set_message(format!("{name}: {} lines", summary.lines));
            progress.tick();
        }
    }
    progress.finish_and_clear();
    match args.format {
        OutputFormat::Text => {
            let _ = write!(out, "{}", render_summary(&summary));
            if !flagged.is_empty() {
                let _ = write!(out, "\n{flagged}");
            }
        }
        OutputFormat::Json => {
            let doc = json!({"summary": summary.json(), "results": all_results});
            let _ = writeln!(out, "{doc}");
        }
        OutputFormat::Jsonl => {}
    }
    let _ = out.flush();
    exit_code(args.fail_on, &summary)
}

fn exit_code(fail_on: FailOn, summary: &Summary) -> i32 {
    let count = |d: &str| summary.decisions.get(d).copied().unwrap_or(0);
    let code = match fail_on {
        FailOn::Never => 0,
        FailOn::Deny if count("deny") > 0 => 2,
        FailOn::Ask if count("deny") > 0 => 2,
        FailOn::Ask if count("ask") > 0 => 1,
        _ => 0,
    };
    if code == 0 && !summary.unopened.is_empty() {
        return 74;
    }
    code
}

/// Detects the format from the first lines without losing them.
fn detect(
    wanted: InputFormat,
    mut reader: Box<dyn BufRead + Send>,
) -> Result<(InputFormat, Box<dyn BufRead + Send>), String> {
    if wanted != InputFormat::Auto {
        return Ok((wanted, reader));
    }
    let mut head = Vec::new();
    let mut lines = Vec::new();
    for _ in 0..DETECT_LINES {
        let mut line = Vec::new();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        lines.push(String::from_utf8_lossy(&line).trim_end().to_string());
        head.extend_from_slice(&line);
    }
    let format = detect_format(&lines);
    let chained: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(head).chain(reader));
    Ok((format, chained))
}

fn emit(
    format: OutputFormat,
    result: &Judged,
    summary: &mut Summary,
    flagged: &mut String,
    all: &mut Vec<Value>,
    out: &mut impl Write,
) {
    let value = match &result.item {
        Item::Error(message) => {
            json!({"source": &*result.source, "line": result.line, "error": message})
        }
        Item::Command { found, verdict } => {
            summary.commands += 1;
            *summary
                .decisions
                .entry(verdict.decision.as_str())
                .or_default() += 1;
            for f in &verdict.findings {
                *summary.rules.entry(f.rule).or_default() += 1;
            }
            if format == OutputFormat::Text && verdict.decision != Decision::Allow {
                flagged.push_str(&format!(
                    "{}:{}: {}{}\n",
                    result.source,
                    result.line,
                    verdict.decision,
                    found
                        .cwd
                        .as_deref()
                        .map(|c| format!(" (cwd {c})"))
                        .unwrap_or_default()
                ));
                flagged.push_str(&report::render_text(&found.command, verdict));
                flagged.push('\n');
            }
            if format == OutputFormat::Text {
                return;
            }
            result_json(result, found, verdict)
        }
    };
    match format {
        OutputFormat::Jsonl => {
            let _ = writeln!(out, "{value}");
        }
        OutputFormat::Json => all.push(value),
        OutputFormat::Text => {}
    }
}

fn result_json(result: &Judged, found: &FoundCommand, verdict: &Verdict) -> Value {
    let mut object = Map::new();
    // Passed-through fields first, so ours win on a clash.
    for (k, v) in &found.extra {
        object.insert(k.clone(), v.clone());
    }
    object.insert("cmd".to_string(), Value::from(found.command.clone()));
    object.insert(
        "decision".to_string(),
        Value::from(verdict.decision.as_str()),
    );
    object.insert(
        "findings".to_string(),
        serde_json::to_value(&verdict.findings).unwrap_or(Value::Null),
    );
    object.insert("source".to_string(), Value::from(&*result.source));
    object.insert("line".to_string(), Value::from(result.line));
    if let Some(cwd) = &found.cwd {
        object.insert("cwd".to_string(), Value::from(cwd.clone()));
    }
    if let Some(ts) = &found.timestamp {
        object.insert("timestamp".to_string(), Value::from(ts.clone()));
    }
    if let Some(id) = &found.id {
        object.insert("id".to_string(), Value::from(id.clone()));
    }
    Value::Object(object)
}

fn render_summary(s: &Summary) -> String {
    let mut out = String::new();
    for (name, format) in &s.inputs {
        out.push_str(&format!("read {name} (format: {format})\n"));
    }
    for message in &s.unopened {
        out.push_str(&format!("could not read {message}\n"));
    }
    let get = |d: &str| s.decisions.get(d).copied().unwrap_or(0);
    out.push_str(&format!(
        "\nlines read        {:>8}\n  with commands   {:>8}\n  without         {:>8}\n  unreadable      {:>8}\ncommands          {:>8}\n  allow           {:>8}\n  ask             {:>8}\n  deny            {:>8}\n",
        s.lines, s.command_lines, s.other_lines, s.error_lines, s.commands, get("allow"), get("ask"), get("deny")
    ));
    if !s.rules.is_empty() {
        out.push_str("\nfindings per rule\n");
        for (rule, count) in &s.rules {
            let name = bashgate::Rule::by_code(rule).map(|r| r.name).unwrap_or("");
            out.push_str(&format!("  {rule} {name:<28} {count:>8}\n"));
        }
    }
    out
}

fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar
}
