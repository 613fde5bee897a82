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
//! A setting (`KEY=VALUE`, catalogue role `config`) whose value is only known at
//! run time is judged by its key the same way: `rustc -C linker=$L`, `mvn
//! -DargLine=$X`, `cargo build --config build.rustc-wrapper=$W` name what runs;
//! `rustc -C opt-level=$O` and `mvn -Dversion=$V` do not. An option's setting
//! whose key is only known at run time too (`rustc -C "$OPT"`) may be any of
//! them, and asks when a key of the program names what runs.
//!
//! ## Example
//! `go build -toolexec=$T .` → ask (BG303); `go build -ldflags="-X
//! main.version=$VERSION" .` → allow; `rustc -C linker=$L main.rs` → ask (BG303).

use crate::catalogue::{Entry, Role};
use crate::model::command::SimpleCommand;
use crate::model::word::{Part, Word};
use crate::rules::environment::{PROGRAM_SETTING, setting_role};
use crate::rules::option_words::{split, stand_in_text, words_of};
use crate::rules::{Checker, Rule};

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
    // Settings given as an option's value or an operand (`-C linker=$L`).
    for arg in read.iter().filter(|a| a.role == Role::Config) {
        // A word from `~` names a file in the home folder, not a setting
        // (`cargo --config ~/x.toml`).
        let Some(word) = args
            .get(arg.index)
            .filter(|w| w.value().is_none() && !matches!(w.parts.first(), Some(Part::Tilde(_))))
        else {
            continue;
        };
        let prefix = literal_prefix(word);
        let key_known = prefix
            .get(arg.offset..)
            .is_some_and(|t| t.contains(SETTING_END));
        // A whole operand only known at run time is a target as often as a
        // setting (`make "$TARGET"`); an option's value is a setting.
        if !key_known && !arg.option_value {
            continue;
        }
        if let Some((rule, reason)) = dynamic_setting(entry, word, &prefix, arg.offset, cmd, cx) {
            cx.report(rule, word.span, reason);
        }
    }
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
            // `mvn -DargLine=$X`: a setting attached to its option.
            Role::Config => dynamic_setting(entry, word, &prefix, offset, cmd, cx),
            Role::OptionsOf(name) => {
                let text = stand_in_text(word, offset).map(|t| words_of(&t, offset));
                super::passed_options::judge(name, text.as_deref(), cmd, cx)
            }
            role if role.names_what_runs() => Some((
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

/// What ends a setting's key: `KEY=VALUE`, or `KEY VALUE` as ssh's `-o` takes it.
const SETTING_END: &[char] = &['=', ' ', '\t'];

/// True when a settings key of the entry or of one of its subcommands names what
/// runs.
fn has_running_setting(entry: &Entry) -> bool {
    entry
        .config_keys
        .iter()
        .any(|(_, role)| role.names_what_runs())
        || entry.subcommands.iter().any(has_running_setting)
}

/// The judgement of a setting in `word` from byte `from` of its static text
/// `prefix`, its value (or key) only known at run time: a key that names what
/// runs asks (its passed-on options are read with stand-ins for the dynamic
/// parts), and so does a key only known at run time when any key of the program
/// runs something.
fn dynamic_setting(
    entry: &'static Entry,
    word: &Word,
    prefix: &str,
    from: usize,
    cmd: &SimpleCommand,
    cx: &Checker,
) -> Option<(&'static Rule, String)> {
    let text = prefix.get(from..)?;
    let Some(end) = text.find(SETTING_END) else {
        return has_running_setting(entry).then(|| {
            (
                &PROGRAM_SETTING,
                format!(
                    "a setting of `{}` only known at run time may name what it runs",
                    entry.name
                ),
            )
        });
    };
    let key = &text[..end];
    match setting_role(entry, key, &Role::names_what_runs)? {
        Role::OptionsOf(name) => {
            let value_from = from + end + 1;
            let words = stand_in_text(word, value_from)
                .map(|t| split(t.get(value_from..).unwrap_or_default()));
            super::passed_options::judge(name, words.as_deref(), cmd, cx)
        }
        _ => Some((
            &PROGRAM_SETTING,
            format!(
                "the setting `{key}` names what `{}` runs, only known at run time",
                entry.name
            ),
        )),
    }
}

/// The word's static text up to its first part only known at run time.
fn literal_prefix(word: &Word) -> String {
    let mut prefix = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => prefix.push_str(t),
            _ => break,
        }
    }
    prefix
}

/// The word's static text up to its first part only known at run time, when it
/// spells an option (`-toolexec=`, `-ldflags=-X a=`, `-D`); `None` otherwise.
fn static_prefix(word: &Word) -> Option<String> {
    let prefix = literal_prefix(word);
    (prefix.len() > 1 && prefix.starts_with('-')).then_some(prefix)
}

/// The option `prefix` spells with its value attached
/// ([`Entry::attached_option`]), in `reader` or else the program's own entry: its
/// role and where its value starts. A one-letter option's code or shell text
/// (`sed -e"s/a/$B/"`) is left to the reading of inline code, as the same value
/// as a word of its own is.
fn attached_option(reader: &Entry, entry: &Entry, prefix: &str) -> Option<(Role, usize)> {
    let own = |e: &Entry| {
        e.attached_option(prefix)
            .filter(|(option, at)| {
                // Attached with no mark between name and value: a one-letter option.
                let unmarked = prefix[..*at].ends_with(|c: char| c.is_ascii_alphanumeric());
                !(unmarked && matches!(option.role, Role::Code(_) | Role::Shell))
            })
            .map(|(option, at)| (option.role, at))
    };
    own(reader).or_else(|| own(entry))
}
