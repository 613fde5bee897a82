//! `bashgate analyze`: audit what agents ran. Reads transcripts (streaming, in chunks
//! judged in parallel, output kept in input order), judges every command with the
//! same gate as `check`, and reports a summary, per-command results, or both.

use super::result_line::{Judgement, SharedPart, push_result, push_separator};
use super::verdict_memo::{Key, VerdictMemo};
use super::{EXIT_CONFIG, PolicyArgs};
use bashgate::transcripts::{
    FoundCommand, InputFormat, Outcome, ReaderState, TranscriptReader, detect_format, expand_inputs,
};
use bashgate::{Decision, Gate};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// SARIF 2.1.0, for code-scanning tools: one result per ask/deny finding.
    Sarif,
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
    /// text, json, jsonl or sarif.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,
    /// Totals only: no per-command results.
    #[arg(long)]
    summary: bool,
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
    Command(Box<JudgedCommand>),
    Error(String),
}

/// A command with its verdict (shared with its repeats, and with the part of its
/// output they share, rendered where it was judged).
struct JudgedCommand {
    found: FoundCommand,
    judgement: Arc<Judgement>,
}

/// One chunk of input, read in order: a slot per result, and the commands to
/// judge with the slot each fills.
struct Chunk {
    order: Vec<Judged>,
    slots: Vec<usize>,
    batch: Vec<Pending>,
    counts: Counts,
}

/// Lines read in a chunk, by what they held.
#[derive(Default)]
struct Counts {
    lines: usize,
    command_lines: usize,
    other_lines: usize,
    error_lines: usize,
}

/// A command waiting for its verdict.
struct Pending {
    gate: Arc<Gate>,
    cwd: Option<PathBuf>,
    found: FoundCommand,
}

/// Reads up to [`CHUNK`] records.
fn read_chunk(
    records: &mut impl Iterator<Item = bashgate::transcripts::Record>,
    gates: &mut Gates,
    name: &Arc<str>,
) -> Chunk {
    let mut chunk = Chunk {
        order: Vec::with_capacity(CHUNK),
        slots: Vec::with_capacity(CHUNK),
        batch: Vec::with_capacity(CHUNK),
        counts: Counts::default(),
    };
    let counts = &mut chunk.counts;
    let failed = |line: usize, message: String| Judged {
        source: name.clone(),
        line,
        item: Item::Error(message),
    };
    for record in records.take(CHUNK) {
        counts.lines += record.lines;
        match record.outcome {
            Outcome::Error(message) => {
                counts.error_lines += record.lines;
                chunk.order.push(failed(record.line, message));
            }
            Outcome::Commands(found) if found.is_empty() => counts.other_lines += record.lines,
            Outcome::Commands(found) => {
                counts.command_lines += record.lines;
                for command in found {
                    match gates.for_command(command.cwd.as_deref()) {
                        Ok((gate, cwd)) => {
                            chunk.slots.push(chunk.order.len());
                            // Filled in once judged.
                            chunk.order.push(failed(record.line, String::new()));
                            chunk.batch.push(Pending {
                                gate,
                                cwd,
                                found: command,
                            });
                        }
                        Err(message) => chunk.order.push(failed(record.line, message)),
                    }
                }
            }
        }
    }
    chunk
}

/// What a run writes, which says which part of a command's output to render where
/// it is judged.
#[derive(Clone, Copy)]
struct Render {
    format: OutputFormat,
    totals_only: bool,
}

impl Render {
    /// Judges the commands (each distinct one once in the run: the memo's verdicts
    /// are given again) in parallel, in order.
    fn judge(self, batch: Vec<Pending>, memo: &mut VerdictMemo<Arc<Judgement>>) -> Vec<Item> {
        let keys: Vec<Option<(u64, Key)>> = batch
            .iter()
            .map(|p| {
                let key = Key::of(&p.gate, p.cwd.as_deref(), &p.found.command)?;
                Some((memo.hash(&key), key))
            })
            .collect();
        let mut judgements: Vec<Option<Arc<Judgement>>> = keys
            .iter()
            .map(|k| {
                k.as_ref()
                    .and_then(|(hash, key)| memo.get(*hash, key))
                    .cloned()
            })
            .collect();
        // The commands to judge, and the repeats within this chunk of one of them.
        let mut todo: Vec<usize> = Vec::new();
        let mut repeats: Vec<(usize, usize)> = Vec::new();
        let mut first: HashMap<u64, usize> = HashMap::new();
        for (i, key) in keys.iter().enumerate() {
            if judgements[i].is_some() {
                continue;
            }
            let Some((hash, key)) = key else {
                todo.push(i);
                continue;
            };
            let same = |j: &usize| matches!(&keys[*j], Some((_, k)) if k.is(key));
            match first.get(hash).filter(|j| same(j)) {
                Some(&earlier) => repeats.push((i, earlier)),
                None => {
                    first.entry(*hash).or_insert(i);
                    todo.push(i);
                }
            }
        }
        let judged: Vec<(usize, Arc<Judgement>)> = todo
            .par_iter()
            .map(|&i| {
                let p = &batch[i];
                (i, self.judgement(p))
            })
            .collect();
        for (i, judgement) in judged {
            if let Some((hash, key)) = &keys[i] {
                memo.keep(*hash, key, judgement.clone());
            }
            judgements[i] = Some(judgement);
        }
        for (i, earlier) in repeats {
            judgements[i] = judgements[earlier].clone();
        }
        drop(keys);
        batch
            .into_par_iter()
            .zip(judgements)
            .map(|(p, judgement)| {
                // Every slot holds a verdict by now; judging again is the safe answer
                // were one missing.
                let judgement = judgement.unwrap_or_else(|| self.judgement(&p));
                Item::Command(Box::new(JudgedCommand {
                    found: p.found,
                    judgement,
                }))
            })
            .collect()
    }

    /// The gate's verdict on `p`, with the part of its output every repeat shares.
    fn judgement(self, p: &Pending) -> Arc<Judgement> {
        let verdict = p.gate.check_in(&p.found.command, p.cwd.as_deref());
        let part = match self.format {
            _ if self.totals_only => SharedPart::Nothing,
            OutputFormat::Json | OutputFormat::Jsonl => SharedPart::JsonFields,
            OutputFormat::Text => SharedPart::Report,
            OutputFormat::Sarif => SharedPart::Nothing,
        };
        Arc::new(Judgement::new(&p.found.command, verdict, part))
    }
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
    fn count(&mut self, counts: Counts) {
        self.lines += counts.lines;
        self.command_lines += counts.command_lines;
        self.other_lines += counts.other_lines;
        self.error_lines += counts.error_lines;
    }

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
    let mut unreadable = String::new();
    let mut all_results: Vec<u8> = Vec::new();
    let mut sarif = super::sarif::Builder::default();
    let mut json_line = Vec::new();
    let mut state = ReaderState::default();
    let mut memo = VerdictMemo::default();
    let inputs = inputs_with_warnings(&args.files);
    let total: u64 = inputs
        .iter()
        .filter_map(|i| match i {
            Ok(bashgate::transcripts::Input::File(p)) => std::fs::metadata(p).ok().map(|m| m.len()),
            _ => None,
        })
        .sum();
    let reads_stdin = inputs
        .iter()
        .any(|i| matches!(i, Ok(bashgate::transcripts::Input::Stdin)));
    let progress = progress_bar(if reads_stdin { None } else { Some(total) });
    let read_bytes = Arc::new(AtomicU64::new(0));
    for input in inputs {
        let input = match input {
            Ok(input) => input,
            Err(message) => {
                eprintln!("bashgate: {message}");
                summary.unopened.push(message);
                continue;
            }
        };
        let name: Arc<str> = Arc::from(input.name());
        let reader = match open_counted(&input, read_bytes.clone()) {
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
        let (lines_before, command_lines_before) = (summary.lines, summary.command_lines);
        let mut records = TranscriptReader::new(reader, format, &mut state);
        let render = Render {
            format: args.format,
            totals_only: args.summary,
        };
        // Three steps overlap: while one chunk is judged (in parallel), the next is
        // read and the one before is written out (both in order).
        let mut chunk = read_chunk(&mut records, &mut gates, &name);
        let mut judged_before: Vec<Judged> = Vec::new();
        loop {
            let Chunk {
                mut order,
                slots,
                batch,
                counts,
            } = chunk;
            summary.count(counts);
            let mut sink = Sink {
                format: args.format,
                totals_only: args.summary,
                flagged: &mut flagged,
                unreadable: &mut unreadable,
                all: &mut all_results,
                sarif: &mut sarif,
                line: &mut json_line,
            };
            if order.is_empty() {
                for result in judged_before.drain(..) {
                    emit(&mut sink, result, &mut summary, &mut out);
                }
                break;
            }
            let (judged, next) = std::thread::scope(|scope| {
                let worker = scope.spawn(|| {
                    rayon::join(
                        || render.judge(batch, &mut memo),
                        || read_chunk(&mut records, &mut gates, &name),
                    )
                });
                for result in judged_before.drain(..) {
                    emit(&mut sink, result, &mut summary, &mut out);
                }
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            for (slot, item) in slots.into_iter().zip(judged) {
                order[slot].item = item;
            }
            judged_before = order;
            progress.set_position(read_bytes.load(Ordering::Relaxed));
            progress.set_message(format!("{name}: {} lines", summary.lines));
            chunk = next;
        }
        let lines = summary.lines - lines_before;
        if lines > 0 && summary.command_lines == command_lines_before {
            let hint = if args.input == InputFormat::Auto {
                "pass --input to choose the format".to_string()
            } else {
                format!("is `--input {}` the right format?", args.input.as_str())
            };
            eprintln!(
                "bashgate: warning: {name}: no command found in {lines} lines read as {}; {hint}",
                format.as_str()
            );
        }
    }
    progress.finish_and_clear();
    match (args.format, args.summary) {
        (OutputFormat::Text, totals_only) => {
            let _ = write!(out, "{}", render_summary(&summary));
            if !totals_only && !unreadable.is_empty() {
                let _ = write!(out, "\nunreadable lines\n{unreadable}");
            }
            if !totals_only && !flagged.is_empty() {
                let _ = write!(out, "\n{flagged}");
            }
        }
        (OutputFormat::Json, true) => {
            let _ = writeln!(out, "{}", json!({"summary": summary.json()}));
        }
        (OutputFormat::Json, false) => {
            // The document `{"summary": …, "results": […]}`, its results kept as
            // text: a run's results as values took ten times the memory.
            let _ = write!(out, "{{\"summary\":{},\"results\":[", summary.json());
            let _ = out.write_all(&all_results);
            let _ = writeln!(out, "]}}");
        }
        (OutputFormat::Jsonl, true) => {
            let _ = writeln!(out, "{}", json!({"summary": summary.json()}));
        }
        (OutputFormat::Jsonl, false) => {}
        (OutputFormat::Sarif, _) => {
            let _ = sarif.write(&summary.json(), &mut out);
        }
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

/// Where results go, by output format.
struct Sink<'a> {
    format: OutputFormat,
    totals_only: bool,
    flagged: &'a mut String,
    unreadable: &'a mut String,
    /// The JSON document's results so far, as text, separated by commas.
    all: &'a mut Vec<u8>,
    sarif: &'a mut super::sarif::Builder,
    /// Room for one JSON line, reused.
    line: &'a mut Vec<u8>,
}

fn emit(sink: &mut Sink, result: Judged, summary: &mut Summary, out: &mut impl Write) {
    match result.item {
        Item::Error(message) => {
            if sink.totals_only {
                return;
            }
            let value =
                || json!({"source": &*result.source, "line": result.line, "error": message});
            match sink.format {
                OutputFormat::Text => {
                    sink.unreadable
                        .push_str(&format!("{}:{}: {message}\n", result.source, result.line));
                }
                OutputFormat::Jsonl => {
                    let _ = writeln!(out, "{}", value());
                }
                OutputFormat::Json => {
                    push_separator(sink.all);
                    // A value serializes to JSON without fail.
                    let _ = serde_json::to_writer(&mut *sink.all, &value());
                }
                OutputFormat::Sarif => {}
            }
        }
        Item::Command(judged) => {
            let JudgedCommand { found, judgement } = *judged;
            let verdict = &judgement.verdict;
            summary.commands += 1;
            *summary
                .decisions
                .entry(verdict.decision.as_str())
                .or_default() += 1;
            for f in &verdict.findings {
                *summary.rules.entry(f.rule).or_default() += 1;
            }
            if sink.totals_only {
                return;
            }
            // Written here, in order, from the judgement's shared part: an output
            // rendered on the worker that judged it was a block allocated on one
            // thread and freed on another, which cost more than writing it here.
            match sink.format {
                OutputFormat::Sarif => {
                    sink.sarif
                        .add(&result.source, result.line, &found.command, verdict)
                }
                OutputFormat::Text if verdict.decision != Decision::Allow => {
                    let flagged = &mut *sink.flagged;
                    let _ = write!(
                        flagged,
                        "{}:{}: {}",
                        result.source, result.line, verdict.decision
                    );
                    if let Some(cwd) = &found.cwd {
                        let _ = write!(flagged, " (cwd {cwd})");
                    }
                    flagged.push('\n');
                    flagged.push_str(&judgement.report(&found.command));
                    flagged.push('\n');
                }
                OutputFormat::Text => {}
                OutputFormat::Jsonl => {
                    sink.line.clear();
                    push_result(sink.line, &result.source, result.line, &found, &judgement);
                    sink.line.push(b'\n');
                    let _ = out.write_all(sink.line);
                }
                OutputFormat::Json => {
                    push_separator(sink.all);
                    push_result(sink.all, &result.source, result.line, &found, &judgement);
                }
            }
        }
    }
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

/// A bar with bytes read, percent and time left when the size is known (files), a
/// byte counter otherwise (stdin); nothing unless stderr is a terminal.
fn progress_bar(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match total {
        Some(total) => {
            let bar = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {bytes}/{total_bytes} {percent}% {eta} left  {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) =
                ProgressStyle::with_template("{spinner} {bytes} read ({elapsed})  {msg}")
            {
                bar.set_style(style);
            }
            bar
        }
    }
}

/// The inputs, warning about a directory that holds no transcript.
fn inputs_with_warnings(args: &[String]) -> Vec<Result<bashgate::transcripts::Input, String>> {
    if args.is_empty() {
        return expand_inputs(args);
    }
    let mut all = Vec::new();
    for arg in args {
        let found = expand_inputs(std::slice::from_ref(arg));
        if found.is_empty() && std::path::Path::new(arg).is_dir() {
            eprintln!(
                "bashgate: warning: {arg}: the directory holds no transcript (*.jsonl, *.txt, *.log, optionally .gz)"
            );
        }
        all.extend(found);
    }
    all
}

/// Counts the bytes read from the underlying file (compressed bytes for `.gz`), for
/// the progress bar.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// [`open_input`], counting the bytes read (before decompression), for the progress
/// bar.
fn open_counted(
    input: &bashgate::transcripts::Input,
    count: Arc<AtomicU64>,
) -> Result<Box<dyn BufRead + Send>, String> {
    let raw: Box<dyn Read + Send> = match input {
        bashgate::transcripts::Input::Stdin => Box::new(std::io::stdin()),
        bashgate::transcripts::Input::File(path) => {
            Box::new(std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 16, Counted { inner: raw, count });
    let gzip = reader
        .fill_buf()
        .map_err(|e| format!("{}: {e}", input.name()))?
        .starts_with(&[0x1f, 0x8b]);
    if gzip {
        Ok(Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(reader),
        )))
    } else {
        Ok(Box::new(reader))
    }
}
