//! The fast path: a command made only of plain words — letters, digits,
//! `-_./:=@%+,` and `~` inside a word — separated by single spaces, with no quoting, expansion, glob, brace,
//! tilde, comment, operator or newline — means to bash exactly its words split at
//! spaces. For such commands the tree-sitter parse (≈2–8 µs) is skipped and the same
//! records the walker would produce are built directly; every rule still runs on
//! them. A test compares fast and full verdicts on the whole corpus.

use super::command::{Assignment, Context, Origin, SimpleCommand};
use super::nested;
use super::word::Word;
use super::wrappers;
use crate::verdict::Span;

/// Reserved words, keywords and declaration commands: never fast.
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "function", "time", "coproc", "in", "!", "{", "}", "[[", "]]",
    // Declaration commands parse as their own node kind, with assignments.
    "export", "declare", "typeset", "local", "readonly", "unset",
];

fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(
            byte,
            b'-' | b'_' | b'.' | b'/' | b':' | b'=' | b'@' | b'%' | b'+' | b','
        )
}

/// The records for `command` when it is made of plain words only; `None` otherwise
/// (the caller parses it).
pub fn records(command: &str) -> Option<Vec<SimpleCommand>> {
    let bytes = command.as_bytes();
    if bytes.is_empty() || bytes.len() > 512 {
        return None;
    }
    // `~` is plain text except where tilde expansion happens: at a word's start (and
    // after `=`/`:` in assignments, which are checked below).
    let tilde_ok = |i: usize| i > 0 && !matches!(bytes[i - 1], b' ' | b'=' | b':');
    if !bytes
        .iter()
        .enumerate()
        .all(|(i, &b)| is_plain(b) || b == b' ' || (b == b'~' && tilde_ok(i)))
    {
        return None;
    }
    let mut words = Vec::new();
    let mut assignments = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().chain(std::iter::once(&b' ')).enumerate() {
        match (b == b' ', start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let text = &command[s..i];
                let span = Span::new(s, i);
                if words.is_empty() && text.contains('=') && !wrappers::is_assignment(text) {
                    // `A+=1`, `=x`: leave the grammar's reading to the full path.
                    return None;
                }
                if words.is_empty() && wrappers::is_assignment(text) {
                    let (name, value) = text.split_once('=')?;
                    if value.is_empty() || value.contains('~') {
                        return None;
                    }
                    assignments.push(Assignment {
                        name: name.to_string(),
                        value: Some(Word::literal(value, Span::new(s + name.len() + 1, i))),
                        span,
                    });
                } else {
                    if words.is_empty() && RESERVED.contains(&text) {
                        return None;
                    }
                    words.push(Word::literal(text, span));
                }
                start = None;
            }
            _ => {}
        }
    }
    let span = Span::new(
        bytes.iter().position(|&b| b != b' ')?,
        bytes.iter().rposition(|&b| b != b' ')? + 1,
    );
    let unwrapped = wrappers::unwrap(&words);
    let scripts = nested::scripts_of(
        &words,
        unwrapped.program,
        unwrapped.script.clone(),
        &[],
        false,
        command,
    );
    // Scripts in strings, heredocs or stdin, and `find -exec`, take the full path.
    if !scripts.is_empty() || !unwrapped.embedded.is_empty() {
        return None;
    }
    for &i in &unwrapped.env_assignments {
        let word = words.get(i)?;
        let (name, value) = word
            .static_value()?
            .split_once('=')
            .map(|(n, v)| (n.to_string(), v.to_string()))?;
        assignments.push(Assignment {
            name,
            value: Some(Word::literal(&value, word.span)),
            span: word.span,
        });
    }
    let origin = if words.is_empty() {
        Origin::Bare
    } else {
        Origin::Simple
    };
    let mut record = SimpleCommand::new(origin, span, Context::default());
    record.program = if words.is_empty() {
        None
    } else {
        unwrapped.program
    };
    record.wrappers = unwrapped.wrappers;
    record.assignments = assignments;
    record.words = words;
    if matches!(
        record.program_name().as_deref(),
        Some("cd" | "pushd" | "popd" | "chdir")
    ) {
        // cd changes nothing after it in a one-command line, but keep one code path.
        return None;
    }
    Some(vec![record])
}
