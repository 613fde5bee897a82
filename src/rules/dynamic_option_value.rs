//! An option whose value names what a program runs, attached to the option's name
//! and only known at run time: `go build -toolexec=$T`, `gcc -fuse-ld=$LD`, `go
//! build -ldflags="-extld=$E"`. The reading of a command's words takes a word
//! with a part only known at run time for an operand, so such an option was not
//! seen at all, where the same value as a word of its own (`-toolexec "$T"`) asks.
//! The option's name is static text, so the program reads it as that option
//! whatever the value turns out to be: the word is read as the option here.
//!
//! A value passed on as another program's options (`-ldflags=…`) is read with the
//! receiver's table, each part only known at run time standing for one word's
//! tail: `-X main.version=$VERSION` is judged as `-X main.version=x`; a part that
//! starts a word (`-ldflags="-s $EXTRA"`) could be any option, and asks.
//!
//! ## Example
//! `go build -toolexec=$T .` → ask (BG303); `go build -ldflags="-X
//! main.version=$VERSION" .` → allow.

use crate::catalogue::{Entry, Role};
use crate::model::command::SimpleCommand;
use crate::model::word::{Part, Word};
use crate::rules::Checker;
use crate::rules::environment::PROGRAM_SETTING;
use crate::rules::option_words::{stand_in_text, words_of};

/// The roles whose value, only known at run time, may be any program or code.
const NAMES_WHAT_RUNS: &[Role] = &[
    Role::Program,
    Role::ShellProgram,
    Role::Options,
    Role::OptionsOf(""),
    Role::PathExec,
    Role::Command,
    Role::Shell,
    Role::ShellWords,
    Role::Code(""),
    Role::ExecDirectory,
];

/// Judges the words of `cmd` that are an option with a dynamic value attached.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    let args = cmd.args();
    if !entry.mentions(NAMES_WHAT_RUNS) || args.iter().all(|w| w.value().is_some()) {
        return;
    }
    let read = cx.args(cmd);
    for (index, word) in args.iter().enumerate() {
        if word.value().is_some() {
            continue;
        }
        let Some(prefix) = static_prefix(word) else {
            continue;
        };
        // The entry the word is read with: the last subcommand named before it.
        let reader = read
            .iter()
            .filter(|a| a.role == Role::Subcommand && a.index < index)
            .try_fold(entry, |e, a| {
                args[a.index].value().and_then(|name| e.subcommand(name))
            })
            .unwrap_or(entry);
        let Some((role, offset)) = attached_option(reader, entry, &prefix) else {
            continue;
        };
        let reason = match role {
            Role::OptionsOf(name) => {
                let text = stand_in_text(word).map(|t| words_of(&t, offset));
                super::passed_options::judge(name, text.as_deref(), cmd, cx)
            }
            role if NAMES_WHAT_RUNS.contains(&role) || role.runs() => Some((
                &PROGRAM_SETTING,
                format!(
                    "`{prefix}…` names what `{}` runs, only known at run time",
                    reader.name
                ),
            )),
            _ => None,
        };
        if let Some((rule, reason)) = reason {
            cx.report(rule, word.span, reason);
        }
    }
}

/// The word's static text up to its first part only known at run time, when it
/// spells an option (`-toolexec=`, `-ldflags=-X a=`); `None` otherwise.
fn static_prefix(word: &Word) -> Option<String> {
    let mut prefix = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => prefix.push_str(t),
            _ => break,
        }
    }
    (prefix.len() > 1 && prefix.starts_with('-')).then_some(prefix)
}

/// The option `prefix` spells with its value attached (`-NAME=`, `-NAME:`,
/// `-Wl,`), in `reader` or else the program's own entry: its role and where its
/// value starts.
fn attached_option(reader: &Entry, entry: &Entry, prefix: &str) -> Option<(Role, usize)> {
    let own = |e: &Entry| {
        if let Some(at) = prefix.find('=') {
            return e.option(&prefix[..at]).map(|o| (o.role, at + 1));
        }
        // The value may be all dynamic: a stand-in makes the spelling complete.
        let probe = format!("{prefix}x");
        e.colon_option(&probe).map(|(o, length)| (o.role, length))
    };
    own(reader).or_else(|| own(entry))
}
