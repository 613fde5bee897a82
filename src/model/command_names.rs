//! Options and variables whose name says their value is a command, where the
//! catalogue does not describe them: `yt-dlp --exec 'CMD'`, `aria2c
//! --on-download-complete=CMD`, `foo --post-hook CMD`, `FOO_COMMAND='CMD' foo`.
//!
//! The catalogue names the options that run something for the programs it knows
//! (`tar --to-command`, `git grep -O`); every other program's option is a flag or
//! text to it, so a tool nobody listed could run any command it was handed and the
//! gate would read the command as a word. Programs name such options the same way
//! everywhere (`--exec`, `--*-command`, `--*-program`, `--on-*`), so an option of
//! that name the entry does not describe is read as one: its value is judged as
//! shell text, and the words after it as an argv (`--exec rm -rf ~`, the way `fd`
//! and `find` take theirs). A value that is no command (`--exec tests`) names a
//! program nobody knows and passes; one only known at run time is a script only
//! known at run time (the nested-shell rule asks). A program nobody listed given
//! `-c TEXT` is read the same way: it is how every shell takes its text.
//!
//! Variables are named the same way (`*_COMMAND`, `*_CMD`, `*_EDITOR`,
//! `*_PAGER`, `*_PROGRAM`, `*_HOOK`, `*_EXEC`, `*_WRAPPER`, `*_ASKPASS`): a
//! program that reads one runs its value, so the value set for it, as a prefix,
//! through `env` or `export`, is judged as shell text too.

use super::word::{Part, Word};
use crate::catalogue::{Entry, Fact};

/// True when an option's name says its value is a command to run: `--exec`,
/// `--cmd`, `--run`, `--script`, `--pager`, `--editor`, `--hook`, a name ending in
/// `-exec`, `-command`, `-cmd`, `-program`, `-prog`, `-hook`, `-pager`, `-editor`,
/// `-shell`, `-wrapper` or `-script`, or starting with `on-` (`--on-error`).
/// `--no-exec` and other `no-` switches name none. A bare `--command` is not
/// read: database and remote clients take a query or a remote command there
/// (`--command 'SELECT …'`), text that is no local shell.
pub fn names_a_command(option: &str) -> bool {
    // Bytes, not string searches: this runs for every option word of every command.
    let bytes = option.as_bytes();
    let dashes = match bytes {
        [b'-', b'-', ..] => 2,
        [b'-', ..] => 1,
        _ => return false,
    };
    let end = bytes.iter().position(|&b| b == b'=').unwrap_or(bytes.len());
    let name = bytes.get(dashes..end).unwrap_or_default();
    if name.len() < 3 || name[..3].eq_ignore_ascii_case(b"no-") {
        return false;
    }
    if name.len() > 3 && name[..3].eq_ignore_ascii_case(b"on-") {
        return true;
    }
    // Every name below ends in one of these letters: most options stop here.
    let last = name[name.len() - 1].to_ascii_lowercase();
    if !matches!(
        last,
        b'c' | b'd' | b'n' | b't' | b'r' | b'k' | b'm' | b'g' | b'l'
    ) {
        return false;
    }
    const EXACT: &[&[u8]] = &[
        b"exec", b"cmd", b"run", b"script", b"pager", b"editor", b"hook",
    ];
    const SUFFIXES: &[&[u8]] = &[
        b"-exec",
        b"-command",
        b"-cmd",
        b"-program",
        b"-prog",
        b"-hook",
        b"-pager",
        b"-editor",
        b"-shell",
        b"-wrapper",
        b"-script",
    ];
    EXACT.iter().any(|e| name.eq_ignore_ascii_case(e))
        || SUFFIXES.iter().any(|s| ends_with_ignoring_case(name, s))
}

/// `name` ends with `suffix`, in any case.
fn ends_with_ignoring_case(name: &[u8], suffix: &[u8]) -> bool {
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Where an option named like a command ([`names_a_command`]) holds its
/// command, for options `name`'s entry (or the subcommand the words name) does
/// not describe. Programs that only print their words (`echo`) have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandValue {
    /// `--exec=CMD`: the word at this index, after the `=`.
    Attached(usize),
    /// `--exec CMD` or `--exec PROG ARGS…`: the words from this index on (the
    /// first one as shell text, all of them as an argv).
    Next(usize),
    /// An option word only known at run time (`--exec="$CMD"`), at this index.
    Dynamic(usize),
}

/// The command values of `name`'s options named like commands, in `args`.
pub fn command_values(name: &str, args: &[Word]) -> Vec<CommandValue> {
    let mut out = Vec::new();
    // The cheap tests first (this runs for every command): only words that start
    // with a dash can be such options, and the first byte rules out almost every
    // word. A shell's `-c` comes before its operands (`wrapper python3 -c CODE` is
    // python's).
    let first_operand = args
        .iter()
        .position(|w| !w.value().is_some_and(|v| v.starts_with('-')))
        .unwrap_or(args.len());
    let dash_c = |w: &Word| w.value() == Some("-c");
    if !args[..first_operand].iter().any(dash_c)
        && !args.iter().any(|w| dashed(w).is_some_and(names_a_command))
    {
        return out;
    }
    let entry = crate::catalogue::lookup(name);
    if entry.is_some_and(|e| e.has(Fact::TextOnly)) {
        return out;
    }
    // `-c TEXT` of a program nobody listed: the shells' spelling (`osh -c`,
    // `hush -c`); a program with an entry says what its `-c` takes.
    let named_at = |i: usize, w: &Word| {
        dashed(w).is_some_and(names_a_command)
            || (entry.is_none() && i < first_operand && dash_c(w))
    };
    let mut level = entry;
    let mut chain: Vec<&Entry> = entry.into_iter().collect();
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        i += 1;
        let value = word.value();
        if value == Some("--") {
            break;
        }
        if !named_at(i - 1, word) {
            // A subcommand's options are its own (`tool sub --exec X`).
            if let Some(next) = value.and_then(|v| level?.subcommand(v)) {
                level = Some(next);
                chain.push(next);
            }
            continue;
        }
        let Some(option) = option_name(word) else {
            continue;
        };
        if chain
            .iter()
            .any(|e| e.option(option).is_some() || e.flags.contains(&option))
        {
            continue;
        }
        match value {
            Some(v) if v.contains('=') => out.push(CommandValue::Attached(i - 1)),
            None => out.push(CommandValue::Dynamic(i - 1)),
            Some(_) => {
                if args
                    .get(i)
                    .is_some_and(|next| !next.value().is_some_and(|v| v.starts_with('-')))
                {
                    out.push(CommandValue::Next(i));
                    i += 1;
                }
            }
        }
    }
    out
}

/// The text a word starts with when it starts with a dash (`--exec=` of
/// `--exec="$CMD"`): only such words can be options.
fn dashed(word: &Word) -> Option<&str> {
    match word.parts.first() {
        Some(Part::Literal(t) | Part::Quoted(t)) if t.len() > 1 && t.as_bytes()[0] == b'-' => {
            Some(t)
        }
        _ => None,
    }
}

/// The option name of a word (`--exec` of `--exec=CMD`), known even when the
/// attached value is only known at run time (`--exec="$CMD"`).
fn option_name(word: &Word) -> Option<&str> {
    let head = match (word.value(), word.parts.first()?) {
        (Some(v), _) => v,
        (None, Part::Literal(t) | Part::Quoted(t)) => t,
        (None, _) => return None,
    };
    let name = head.split_once('=').map_or(head, |(n, _)| n);
    (name.starts_with('-') && name.len() > 1).then_some(name)
}

/// True when a variable's name says its value is a command some program runs:
/// a name ending in `_COMMAND`, `_CMD`, `_EDITOR`, `_PAGER`, `_PROGRAM`,
/// `_PROG`, `_HOOK`, `_EXEC`, `_WRAPPER` or `_ASKPASS` (any case).
pub fn variable_names_a_command(name: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "_COMMAND", "_CMD", "_EDITOR", "_PAGER", "_PROGRAM", "_PROG", "_HOOK", "_EXEC", "_WRAPPER",
        "_ASKPASS",
    ];
    SUFFIXES
        .iter()
        .any(|s| name.len() > s.len() && ends_with_ignoring_case(name.as_bytes(), s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::{names_a_command, variable_names_a_command};

    #[test]
    fn option_names_that_carry_a_command() {
        for name in [
            "--exec",
            "-exec",
            "--EXEC=x",
            "--cmd",
            "--run",
            "--on-error",
            "--on-download-complete=x",
            "--diff-program",
            "--post-hook",
            "--rustc-wrapper",
            "--info-script",
            "--run-command",
        ] {
            assert!(names_a_command(name), "{name}");
        }
        for name in [
            "--command",
            "--no-exec",
            "--exec-path",
            "--executor",
            "--on-",
            "--on",
            "-x",
            "--dry-run",
            "exec",
            "--message",
        ] {
            assert!(!names_a_command(name), "{name}");
        }
    }

    #[test]
    fn variable_names_that_carry_a_command() {
        for name in [
            "FOO_COMMAND",
            "deploy_cmd",
            "APP_EDITOR",
            "X_PAGER",
            "TOOL_WRAPPER",
        ] {
            assert!(variable_names_a_command(name), "{name}");
        }
        for name in [
            "_CMD",
            "COMMAND",
            "FOO_COMMANDS",
            "COMMAND_LINE",
            "EDITOR",
            "PATH",
        ] {
            assert!(!variable_names_a_command(name), "{name}");
        }
    }
}
