//! Options one program passes on to another (catalogue role `options:NAME`): the
//! compiler driver's `-Wl,ARGS` and `-Xlinker ARG` are the linker's, `go build
//! -ldflags=ARGS` the Go linker's, `cargo rustc -- ARGS` rustc's, `javac -JARG`
//! the JVM's. The program that receives them is not on the command line, so the
//! usual reading of its options never happens: `gcc -Wl,-plugin,/tmp/x.so` loads
//! a linker plug-in, `go build -ldflags=-extld=/tmp/x` and `cargo rustc -- -C
//! linker=/tmp/x` run a program of the caller's choice as the linker.
//!
//! Every value of the command with the same reader is read together, in order,
//! with that reader's option table, and judged as an options variable's value is
//! ([`super::environment::options_run`]): an option that names a program is judged
//! as that program (BG303), one that runs a command or loads code denies (BG301),
//! a path read or written outside the project asks, and a value only known at run
//! time asks.
//!
//! ## Example
//! `gcc -Wl,-plugin,/tmp/x.so main.c` → deny (BG301); `gcc -Wl,--as-needed
//! main.c` → allow.

use crate::catalogue::{self, Role};
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::option_words::{WORD_BREAK, split, stand_in_text, words_of};
use crate::rules::{Checker, Rule};

/// Judges the options `cmd` passes on to other programs.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if !entry.mentions(&[Role::OptionsOf("")]) {
        return;
    }
    let args = cmd.args();
    // Each reader with the words it receives, `None` once one is only known at
    // run time, and the span of the first.
    let mut passed: Vec<(&'static str, Option<String>, crate::verdict::Span)> = Vec::new();
    for &arg in cx.args(cmd).iter() {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let (reader, text) = match arg.role {
            Role::OptionsOf(reader) => (reader, value_text(word, arg.offset)),
            // `rustc -C link-args='A B'`: a setting whose value is passed on.
            Role::Config => {
                let Some((key, value)) = word
                    .value()
                    .and_then(|v| v.get(arg.offset..))
                    .and_then(|v| v.split_once('='))
                else {
                    continue;
                };
                match entry.config_key_role(key) {
                    Some(Role::OptionsOf(reader)) => (reader, Some(split(value))),
                    _ => continue,
                }
            }
            _ => continue,
        };
        match passed.iter_mut().find(|(r, ..)| *r == reader) {
            Some((_, words, _)) => match (words.as_mut(), text) {
                (Some(words), Some(text)) => {
                    words.push(WORD_BREAK);
                    words.push_str(&text);
                }
                _ => *words = None,
            },
            None => passed.push((reader, text, word.span)),
        }
    }
    for (reader, words, span) in passed {
        if let Some((rule, reason)) = judge(reader, words.as_deref(), cmd, cx) {
            cx.report(rule, span, reason);
        }
    }
}

/// What the words `words` given to the reader `reader` (an `options:NAME` role's
/// name) make it run, with the rule that judges it; `words` `None` when they are
/// only known at run time. A reader the catalogue lacks (a user's entry may name
/// one) cannot be read, and asks.
pub(super) fn judge(
    reader: &str,
    words: Option<&str>,
    cmd: &SimpleCommand,
    cx: &Checker,
) -> Option<(&'static Rule, String)> {
    match catalogue::options_reader(reader) {
        Some(target) => super::environment::options_run(target, words, cmd, cx)
            .map(|(rule, reason)| (rule, format!("gives `{reader}` options: {reason}"))),
        None => Some((
            &super::environment::PROGRAM_SETTING,
            format!("passes options on to `{reader}`, which the gate does not know"),
        )),
    }
}

/// The passed-on words in `word` from byte `offset` of its text, joined with
/// [`WORD_BREAK`] ([`words_of`]); a part only known at run time stands for the
/// tail of a word ([`stand_in_text`]), and `None` when one
/// may start a word.
fn value_text(word: &Word, offset: usize) -> Option<String> {
    match word.value() {
        Some(text) => Some(words_of(text, offset)),
        None => stand_in_text(word, offset).map(|t| words_of(&t, offset)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::word::Part;

    /// A word of `parts`: literal text, and `$V` for a part only known at run time.
    fn word(parts: &[&str]) -> Word {
        let parts: Vec<Part> = parts
            .iter()
            .map(|p| match *p {
                "$V" => Part::Variable {
                    name: "V".into(),
                    quoted: true,
                },
                text => Part::Literal(text.into()),
            })
            .collect();
        Word::new(parts, crate::verdict::Span::new(0, 1), false)
    }

    #[test]
    fn a_comma_list_value_is_split_at_its_commas() {
        assert_eq!(
            value_text(&word(&["-Wl,-plugin,/tmp/x.so"]), 4).as_deref(),
            Some("-plugin\u{1f}/tmp/x.so")
        );
        assert_eq!(value_text(&word(&["-ldflags=", "$V"]), 9), None);
        assert_eq!(
            value_text(&word(&["-X main.version=", "$V"]), 0).as_deref(),
            Some("-X\u{1f}main.version=\u{1a}")
        );
    }
}
