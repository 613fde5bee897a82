//! Rendering verdicts: a compiler-style text diagnostic with carets under each
//! finding's span, and JSON.
//!
//! ```
//! use bashgate::{Gate, report};
//! let gate = Gate::builder().root("/project").build()?;
//! let command = "sudo ls";
//! let verdict = gate.check(command);
//! let text = report::render_text(command, &verdict);
//! assert!(text.starts_with("deny[BG207] privilege-escalation"));
//! assert!(text.contains("1 | sudo ls\n  | ^^^^"));
//! let json: serde_json::Value = serde_json::from_str(&report::to_json(&verdict)).unwrap();
//! assert_eq!(json["findings"][0]["span"]["end"], 4);
//! # Ok::<(), bashgate::ConfigError>(())
//! ```

use crate::verdict::{Finding, Verdict};
use std::fmt::Write;

/// The verdict as JSON: `{"decision": ..., "findings": [...]}`.
pub fn to_json(verdict: &Verdict) -> String {
    serde_json::to_string(verdict).unwrap_or_else(|_| String::from("{\"decision\":\"deny\"}"))
}

/// Line number (1-based), the line's byte range, for a byte offset.
fn line_of(source: &str, at: usize) -> (usize, usize, usize) {
    let at = at.min(source.len());
    let start = source[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let end = source[at..]
        .find('\n')
        .map(|i| at + i)
        .unwrap_or(source.len());
    let number = source[..start].matches('\n').count() + 1;
    (number, start, end)
}

/// One finding as a diagnostic:
///
/// ```text
/// deny[BG207] privilege-escalation: `sudo` runs a command with elevated privileges
///   |
/// 1 | sudo rm -rf /
///   | ^^^^
/// ```
pub fn render_finding(source: &str, finding: &Finding) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}[{}] {}: {}",
        finding.decision, finding.rule, finding.name, finding.message
    );
    if !source.is_char_boundary(finding.span.start.min(source.len()))
        || !source.is_char_boundary(finding.span.end.min(source.len()))
    {
        return out;
    }
    let (number, start, end) = line_of(source, finding.span.start);
    let line = &source[start..end];
    let gutter = number.to_string().len();
    let shown: String = line
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '�'
            } else {
                c
            }
        })
        .collect();
    let _ = writeln!(out, "{:gutter$} |", "");
    let _ = writeln!(out, "{number} | {shown}");
    let caret_start = finding.span.start.saturating_sub(start);
    let caret_end = finding.span.end.min(end).max(finding.span.start);
    let pad: String = source[start..start + caret_start.min(line.len())]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = source
        .get(finding.span.start..caret_end)
        .map(|s| s.chars().count())
        .unwrap_or(1)
        .max(1);
    let more = if finding.span.end > end { " …" } else { "" };
    let _ = writeln!(out, "{:gutter$} | {pad}{}{more}", "", "^".repeat(width));
    if let Some(suggestion) = &finding.suggestion {
        let _ = writeln!(out, "{:gutter$} = help: {suggestion}", "");
    }
    out
}

/// The whole verdict as text: the decision, then each finding's diagnostic.
pub fn render_text(source: &str, verdict: &Verdict) -> String {
    let mut out = String::new();
    if verdict.findings.is_empty() {
        let _ = writeln!(out, "{}: no findings", verdict.decision);
        return out;
    }
    for finding in &verdict.findings {
        out.push_str(&render_finding(source, finding));
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{}: {} finding{}",
        verdict.decision,
        verdict.findings.len(),
        if verdict.findings.len() == 1 { "" } else { "s" }
    );
    out
}
