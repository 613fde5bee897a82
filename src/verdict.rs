//! The answer the gate gives: a [`Decision`], and the [`Finding`]s that led to it.
//!
//! Findings are independent of rendering: they carry byte offsets into the original
//! command, and `report` turns them into caret diagnostics or JSON.

use serde::Serialize;
use std::fmt;

/// What should happen to a command. Ordered: `Allow < Ask < Deny`, so the decision of
/// a verdict is the maximum over its findings.
///
/// ```
/// use bashgate::Decision;
/// assert!(Decision::Allow < Decision::Ask && Decision::Ask < Decision::Deny);
/// assert_eq!(Decision::parse("ask"), Some(Decision::Ask));
/// assert_eq!(Decision::Deny.to_string(), "deny");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Run it without asking.
    #[default]
    Allow,
    /// Ask the user first.
    Ask,
    /// Refuse to run it.
    Deny,
}

impl Decision {
    /// The lowercase name used in JSON, config files and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }

    /// Parses `allow`, `ask` or `deny`.
    pub fn parse(s: &str) -> Option<Decision> {
        match s {
            "allow" => Some(Decision::Allow),
            "ask" => Some(Decision::Ask),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of power a finding is about (after the MCP policy model), so callers can
/// group or filter findings without knowing every rule code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// Reads a file.
    FilesystemRead,
    /// Writes, creates or moves a file.
    FilesystemWrite,
    /// Destroys data or the system's availability.
    Destructive,
    /// Gains privileges.
    Privileged,
    /// Talks to the network.
    Network,
    /// Runs code given inline to an interpreter.
    InlineScript,
    /// Depends on an expansion the gate cannot evaluate.
    ShellExpansion,
    /// Reads or changes sensitive environment variables.
    SensitiveEnv,
    /// Runs a program whose name is only known at run time.
    DynamicCommand,
    /// The command could not be understood.
    Parse,
}

/// A byte range `start..end` into the original command text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// One reason for a decision: which rule fired, where, and why.
///
/// ```
/// use bashgate::{Capability, Gate};
/// let gate = Gate::builder().root("/project").build()?;
/// let command = "ls && cat /etc/passwd";
/// let finding = &gate.check(command).findings[0];
/// assert_eq!(finding.rule, "BG101");
/// assert_eq!(finding.capability, Capability::FilesystemRead);
/// assert_eq!(&command[finding.span.start..finding.span.end], "/etc/passwd");
/// # Ok::<(), bashgate::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable rule code, e.g. `BG101`.
    pub rule: &'static str,
    /// Rule name, e.g. `path-outside-root`.
    pub name: &'static str,
    /// What this finding asks for.
    pub decision: Decision,
    /// The kind of power involved.
    pub capability: Capability,
    /// The hazard, in one sentence.
    pub message: String,
    /// Where in the original command.
    pub span: Span,
    /// The text of the original command under `span`.
    pub text: String,
    /// For path findings: the path as the gate resolved it (absolute, after `~`,
    /// variables, the working directory and symlinks). Absent for other findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A safer alternative to the command, when the rule knows one. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// The gate's answer for one command.
///
/// ```
/// use bashgate::{Decision, Gate};
/// let gate = Gate::builder().root("/project").build()?;
/// let verdict = gate.check("git status && sudo reboot");
/// assert_eq!(verdict.decision, Decision::Deny);
/// assert!(verdict.has_rule("BG207"));
/// assert!(gate.check("cargo test").findings.is_empty());
/// # Ok::<(), bashgate::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
pub struct Verdict {
    /// The maximum decision over `findings`; `Allow` when there are none.
    pub decision: Decision,
    /// Every reason, in order of position in the command.
    pub findings: Vec<Finding>,
}

/// Most findings a verdict lists; past it one BG002 finding counts the rest.
pub const MAX_FINDINGS: usize = 1000;

impl Verdict {
    /// Builds a verdict from findings: sorts them by position, drops exact duplicates
    /// and takes the maximum decision.
    pub fn from_findings(mut findings: Vec<Finding>) -> Verdict {
        findings.sort_by(|a, b| {
            (a.span.start, a.span.end, a.rule).cmp(&(b.span.start, b.span.end, b.rule))
        });
        findings.dedup_by(|a, b| a.rule == b.rule && a.span == b.span && a.message == b.message);
        let mut decision = findings
            .iter()
            .map(|f| f.decision)
            .max()
            .unwrap_or(Decision::Allow);
        if findings.len() > MAX_FINDINGS {
            // Bounded output: keep the first findings, say how many were left out
            // (and ask: a command this noisy is not one to allow).
            let more = findings.len() - MAX_FINDINGS;
            findings.truncate(MAX_FINDINGS);
            decision = decision.max(Decision::Ask);
            let span = findings.last().map(|f| f.span).unwrap_or_default();
            findings.push(Finding {
                rule: "BG002",
                name: "input-too-large",
                decision: Decision::Ask,
                capability: Capability::Parse,
                message: format!("{more} more findings were left out"),
                span,
                text: String::new(),
                path: None,
                suggestion: None,
            });
        }
        Verdict { decision, findings }
    }

    /// True when some finding has the rule code `code`.
    pub fn has_rule(&self, code: &str) -> bool {
        self.findings.iter().any(|f| f.rule == code)
    }
}
