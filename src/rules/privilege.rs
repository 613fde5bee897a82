//! BG207: gaining privileges.

use crate::catalogue::Values;
use crate::catalogue::{self, Fact, Role};
use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::model::word::Word;
use crate::model::wrapper_words::own_words;
use crate::rules::Checker;
use crate::verdict::Decision;

declare_rule! {
    /// ## What it does
    /// Denies the programs the catalogue marks `privilege` — `sudo`, `su`, `doas`,
    /// `pkexec`, `run0`, `sudoedit`, `runuser`, `nsenter`, `chroot`, `gosu` — as a
    /// program or as a wrapper, at any depth, whatever the case of the name (`SUDO`
    /// runs sudo on a case-insensitive file system). The wrapped command is still
    /// analysed and reported on its own. Asks for a use whose options give away
    /// the host (`docker run --privileged`), and for a coding agent started with its
    /// own approvals off (`claude --dangerously-skip-permissions`, `codex --yolo`,
    /// `gemini -y`): its commands never reach this gate.
    ///
    /// ## Why
    /// An agent running as root can undo every other protection, and a password
    /// prompt in an agent's shell is an invitation to phishing. Privileged work is for
    /// the user to do.
    ///
    /// ## Example
    /// - `sudo rm -rf /` → deny: the sudo, and the rm
    /// - `"s"udo ls` → deny
    /// - `$'\x73udo' ls` → deny: the same program, spelled otherwise
    /// - `echo sudo` → allow
    /// - `docker run --privileged alpine` → ask: an option that gives away the host
    /// - `docker run --rm alpine` → allow
    /// - `claude --dangerously-skip-permissions -p x` → ask: nobody approves its commands
    /// - `claude -p x` → allow
    /// - `gdb -p 1` → ask: a debugger attached to a running process acts inside it
    /// - `gdb ./a.out` → allow
    pub static PRIVILEGE_ESCALATION = {
        code: "BG207",
        name: "privilege-escalation",
        default: Deny,
        capability: Privileged,
        summary: "gains privileges (sudo, su, doas, pkexec, run0)",
    };
}

/// Denies privilege-gaining programs and wrappers.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    // Each wrapper, then the program (its entry looked up once per command).
    let program = cmd
        .name()
        .filter(|w| w.is_static())
        .map(|w| (cx.entry(cmd), w));
    let words = cmd
        .wrappers
        .iter()
        .filter_map(|&i| cmd.words.get(i))
        .filter_map(|w| Some((catalogue::lookup(basename(w.value()?)), w)))
        .chain(program);
    for (entry, word) in words {
        if let Some(entry) = entry.filter(|e| e.has(Fact::Privilege)) {
            cx.report(
                &PRIVILEGE_ESCALATION,
                word.span,
                format!("`{}` runs a command with elevated privileges", entry.name),
            );
        }
    }
    privileged_options(cmd, cx);
    attached_processes(cmd, cx);
}

/// Each wrapper of `cmd`, then the program, with the words that are its own and,
/// for the program, `true`.
fn programs_with_words(cmd: &SimpleCommand) -> impl Iterator<Item = (&Word, &[Word], bool)> {
    let program = cmd.name().map(|w| (w, cmd.args(), true));
    let wrappers = (0..cmd.wrappers.len()).filter_map(|k| {
        let word = cmd.words.get(*cmd.wrappers.get(k)?)?;
        Some((word, own_words(cmd, k), false))
    });
    wrappers.chain(program)
}

/// The catalogue entry of `name`, a wrapper's word or (`program`) the program's,
/// the program's looked up once per command.
fn entry_named(
    cmd: &SimpleCommand,
    cx: &Checker,
    name: &Word,
    program: bool,
) -> Option<&'static catalogue::Entry> {
    if program {
        cx.entry(cmd)
    } else {
        name.value().and_then(|v| catalogue::lookup(basename(v)))
    }
}

/// A debugger or tracer (the catalogue's `debugger`: `gdb`, `lldb`, `strace`,
/// `perf record`, `gcore`, `py-spy`) given a running process to attach to (a
/// `process` value: `gdb -p 1`, `strace -p 1`, `gcore 1`) asks: attached, it reads
/// the process's memory — its secrets — and can change what it runs, with that
/// process's privileges. Tracing a command it starts itself (`strace ls`) is
/// ordinary debugging.
fn attached_processes(cmd: &SimpleCommand, cx: &mut Checker) {
    for (name, words, program) in programs_with_words(cmd) {
        let Some(entry) =
            entry_named(cmd, cx, name, program).filter(|e| e.mentions(&[Role::Process]))
        else {
            continue;
        };
        let values: Values = words.iter().map(Word::value).collect();
        let usage = catalogue::usage(entry, &values);
        if !usage.has(Fact::Debugger) {
            continue;
        }
        // An option's value is a process (`-p 1`); an operand is one when it is a
        // number or only known at run time (`gdb prog 1234`, not `gdb prog core`).
        let Some(target) = catalogue::classify(entry, &values)
            .iter()
            .copied()
            .filter(|a| a.role == Role::Process)
            .filter_map(|a| Some((a, words.get(a.index)?)))
            .find(|(a, w)| {
                a.option_value
                    || w.value()
                        .is_none_or(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            })
            .map(|(_, w)| w)
        else {
            continue;
        };
        cx.report_as(
            &PRIVILEGE_ESCALATION,
            Decision::Ask,
            target.span,
            format!(
                "`{}` attaches to the running process {}: it can read the process's memory and change what it runs",
                entry.name,
                target.display()
            ),
        );
    }
}

/// A use whose options give away the host (`docker run --privileged`, `--pid=host`,
/// `--cap-add`, `--device`, `wsl -u root`: the catalogue's `flag_facts` with
/// `privilege`) asks: the program is an everyday tool, this use of it is not. The
/// program is read with its words, each wrapper with its own.
fn privileged_options(cmd: &SimpleCommand, cx: &mut Checker) {
    for (name, words, program) in programs_with_words(cmd) {
        let Some(entry) = entry_named(cmd, cx, name, program)
            .filter(|e| !e.has(Fact::Privilege))
            // Only a subcommand's or a flag's fact can make the use privileged.
            .filter(|e| e.use_may_have(Fact::Privilege))
        else {
            continue;
        };
        // The program's use is the one every check reads (its words can add the
        // fact: the filter above).
        let usage = match program.then(|| cx.usage(cmd)).flatten() {
            Some(usage) => usage,
            None => {
                let values: Values = words.iter().map(|w| w.value()).collect();
                std::rc::Rc::new(catalogue::usage(entry, &values))
            }
        };
        // A subcommand that takes privileges (`ip netns exec`), or a flag that does.
        let flag = match usage.flag_for(Fact::Privilege) {
            Some(flag) => flag.to_string(),
            None if usage.has(Fact::Privilege) => usage.subcommand_words.clone(),
            None => continue,
        };
        let flag = flag.as_str();
        let span = words
            .iter()
            .find(|w| {
                w.value()
                    .is_some_and(|v| v == flag || v.starts_with(&format!("{flag}=")))
            })
            .unwrap_or(name)
            .span;
        cx.report_as(
            &PRIVILEGE_ESCALATION,
            Decision::Ask,
            span,
            format!(
                "`{} {flag}` gives what it runs access to the host",
                entry.name
            ),
        );
    }
}
