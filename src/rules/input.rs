//! Rules about the input itself: text the parser could not understand, input past
//! the limits, and characters that make a command read differently from how it runs.

use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::word::Part;
use crate::model::{Problem, ProblemKind};
use crate::rules::{Checker, finding};
use crate::verdict::{Finding, Span};

declare_rule! {
    /// ## What it does
    /// Asks when tree-sitter-bash reports an ERROR or MISSING node anywhere in the
    /// command (or in a nested script such as a `bash -c` string).
    ///
    /// ## Why
    /// A gate that cannot parse a command cannot know what it runs. Bash may still run
    /// it (extglob such as `rm !(keep).txt` is valid bash the grammar rejects), so the
    /// only safe answer is to ask.
    ///
    /// ## Example
    /// - `echo "unterminated` → ask
    /// - `echo "terminated"` → allow
    pub static PARSE_ERROR = {
        code: "BG001",
        name: "parse-error",
        default: Ask,
        capability: Parse,
        summary: "the command could not be parsed (ERROR or MISSING node)",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when the command is longer than the input limit (64 KiB by default, set
    /// with `max_input_bytes`), when scripts are nested in scripts deeper than the
    /// nesting limit (`max_nesting`, 8 by default), or when a loop or function body
    /// that runs again and again had not settled by the last pass the gate follows.
    /// Over-long input is not parsed.
    ///
    /// ## Why
    /// Every cap in the gate fails closed: a limit that allowed what it did not
    /// analyse would be a bypass (pad the command, or wrap it in ten `bash -c`).
    ///
    /// ## Example
    /// - `cat {/etc/passwd,x{1..1000}}` → ask: a brace list too large to expand could hide any path
    /// - `x=a; f() { x=$x/a; f; }; f` → ask: each run of the recursion changes what the next one sees
    /// - `touch x{1..3}` → allow
    pub static INPUT_LIMIT = {
        code: "BG002",
        name: "input-too-large",
        default: Ask,
        capability: Parse,
        summary: "input over the length limit, or scripts nested over the depth limit",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when the command holds control characters other than tab and newline,
    /// bidirectional-text controls or zero-width characters anywhere, or non-ASCII
    /// characters in a command name, or non-ASCII white space in an unquoted word.
    ///
    /// ## Why
    /// These make a command display differently from how bash runs it: a carriage
    /// return hides what came before it, a bidi override reorders text, `rm\u{a0}-rf`
    /// looks like two words, and `ｒｍ` or a Cyrillic look-alike is a different
    /// program from the one a reviewer reads.
    ///
    /// ## Example
    /// - `ｒｍ -rf build` → ask: full-width letters, a look-alike of `rm`
    /// - `git commit -m "café"` → allow: non-ASCII text inside quotes is fine
    pub static SUSPICIOUS_CHARACTERS = {
        code: "BG003",
        name: "suspicious-characters",
        default: Ask,
        capability: Parse,
        summary: "control, bidi or zero-width characters, or look-alike characters in a command",
    };
}

/// The finding for something the model could not analyse: parse problems are
/// BG001, limits BG002. Every problem asks; none is ever dropped.
pub fn problem_finding(problem: &Problem, source: &str) -> Finding {
    let (rule, span, message) = match problem {
        Problem::Parse { kind, span, nested } => {
            let message = match kind {
                ProblemKind::Missing => "the command is incomplete (the parser expected more)",
                ProblemKind::Error => "the command could not be parsed here",
                ProblemKind::Misread => {
                    "the parser reads this differently from bash, so the command cannot be judged exactly"
                }
                ProblemKind::Unrepaired => {
                    "the parser's tree could not be trusted (a pipeline misparse was not repaired)"
                }
            };
            let message = if *nested {
                format!("in a nested script: {message}")
            } else {
                message.to_string()
            };
            (&PARSE_ERROR, *span, message)
        }
        Problem::Unparsed { span, nested } => {
            let message = if *nested {
                "the nested script could not be parsed"
            } else {
                "the parser produced no tree for this command"
            };
            (&PARSE_ERROR, *span, message.to_string())
        }
        Problem::NestingLimit { span, limit } => (
            &INPUT_LIMIT,
            *span,
            format!("scripts nested more than {limit} levels deep are not analysed"),
        ),
        Problem::RepeatLimit { span } => (
            &INPUT_LIMIT,
            *span,
            "a loop or function whose every run may change what the next one does, \
             followed as far as the limits allow: its later runs are not analysed"
                .to_string(),
        ),
        Problem::BraceTooLarge { span } => (
            &INPUT_LIMIT,
            *span,
            "a brace expansion too large to analyse".to_string(),
        ),
    };
    finding(rule, span, source, message)
}

/// The finding for a command over the input limit: it was not analysed at all.
pub fn over_limit(source: &str, limit: usize) -> Finding {
    finding(
        &INPUT_LIMIT,
        Span::new(0, source.len()),
        source,
        format!(
            "the command is {} bytes, over the {limit}-byte limit; it was not analysed",
            source.len()
        ),
    )
}

/// True for characters that change how text displays without being visible.
fn is_invisible_or_bidi(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{061C}' | '\u{180E}' | '\u{00AD}')
}

/// Non-ASCII white space (no-break space, em space, ideographic space...).
fn is_unicode_space(c: char) -> bool {
    !c.is_ascii() && (c.is_whitespace() || matches!(c, '\u{00A0}' | '\u{2007}' | '\u{202F}'))
}

/// Scans the whole input for control, bidi and zero-width characters. Returns at most
/// one finding per kind, at the first occurrence.
pub fn scan_characters(source: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    // Printable ASCII, tabs and newlines only: the common case.
    let plain = |b: u8| (0x20..0x7f).contains(&b) | (b == b'\t') | (b == b'\n');
    if crate::parse::all_bytes(source.as_bytes(), plain) {
        return findings;
    }
    let mut control = false;
    let mut invisible = false;
    for (at, c) in source.char_indices() {
        let span = Span::new(at, at + c.len_utf8());
        if !control && c.is_control() && c != '\t' && c != '\n' {
            control = true;
            findings.push(finding(
                &SUSPICIOUS_CHARACTERS,
                span,
                source,
                format!(
                    "control character U+{:04X} can hide what the command does",
                    c as u32
                ),
            ));
        }
        if !invisible && is_invisible_or_bidi(c) {
            invisible = true;
            findings.push(finding(
                &SUSPICIOUS_CHARACTERS,
                span,
                source,
                format!(
                    "invisible or bidirectional character U+{:04X} makes the command read differently from how it runs",
                    c as u32
                ),
            ));
        }
    }
    findings
}

/// Per command: a non-ASCII program name, or non-ASCII white space in unquoted text.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if cmd.origin == Origin::Test {
        return;
    }
    if let Some(name) = cmd.name() {
        let non_ascii = name.parts.iter().any(|p| match p {
            Part::Literal(t) | Part::Quoted(t) | Part::Tilde(t) => !t.is_ascii(),
            _ => false,
        });
        if non_ascii {
            cx.report(
                &SUSPICIOUS_CHARACTERS,
                name.span,
                "the program name has non-ASCII characters: it may be a look-alike of another program"
                    .to_string(),
            );
            return;
        }
    }
    for word in &cmd.words {
        let unquoted_space = word.parts.iter().any(|p| match p {
            Part::Literal(t) => t.chars().any(is_unicode_space),
            _ => false,
        });
        if unquoted_space {
            cx.report(
                &SUSPICIOUS_CHARACTERS,
                word.span,
                "non-ASCII white space inside an unquoted word: it looks like two words but is one"
                    .to_string(),
            );
        }
    }
}
