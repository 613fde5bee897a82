//! A command read with its catalogue entry: the program's entry, the chain of
//! subcommands (`gh auth token`, `aws sts get-session-token`) and the deepest
//! subcommand's entry, and the positional words left after the chain. The rules of
//! the project-level classes (persistence, credentials, data leaving) read commands
//! this way instead of matching text.

use crate::catalogue::Values;
use crate::catalogue::{self, Entry, Fact, Role};
use crate::model::command::SimpleCommand;
use crate::model::word::Word;

/// True when `entry` or any of its subcommands satisfies `test`: a cheap filter
/// before reading a command's arguments.
pub fn any_entry(entry: &Entry, test: &dyn Fn(&Entry) -> bool) -> bool {
    test(entry) || entry.subcommands.iter().any(|s| any_entry(s, test))
}

/// The catalogue entry of the program `cmd` runs, if any.
pub fn entry_of(cmd: &SimpleCommand) -> Option<&'static Entry> {
    cmd.base_name().and_then(catalogue::lookup)
}

/// The program an interpreter runs as a module (`python -m pip ...`: the
/// catalogue's `module` role) when the catalogue knows it, with the words after
/// the module's name. `roles`: the interpreter's words as its entry reads them.
pub fn module_program<'a>(
    args: &'a [Word],
    roles: &[catalogue::Arg],
) -> Option<(&'static Entry, &'a [Word])> {
    let (arg, module) = crate::model::wrappers::module_named(args, roles)?;
    Some((module, args.get(arg.index + 1..).unwrap_or(&[])))
}

/// A command as its catalogue entry reads it.
#[derive(Debug)]
pub struct Invocation<'c> {
    /// The program's entry (canonical name), when the catalogue knows it.
    pub entry: Option<&'static Entry>,
    /// The program's canonical name (or its basename when unknown).
    pub program: &'c str,
    /// The subcommand words recognised, outermost first (`["auth", "token"]`).
    pub subcommands: Vec<&'c str>,
    /// The deepest subcommand's entry (the program's when no subcommand).
    pub leaf: Option<&'static Entry>,
    /// The arguments after the last subcommand word (options and operands).
    pub rest: &'c [Word],
}

impl<'c> Invocation<'c> {
    /// Reads `cmd`; `None` when no program starts or its name is dynamic.
    pub fn of(cmd: &'c SimpleCommand) -> Option<Invocation<'c>> {
        Invocation::of_entry(cmd, entry_of(cmd))
    }

    /// Reads `cmd` with `entry`, its program's entry as [`entry_of`] finds it
    /// (looked up once by the caller).
    pub fn of_entry(
        cmd: &'c SimpleCommand,
        entry: Option<&'static Entry>,
    ) -> Option<Invocation<'c>> {
        let roles = entry.filter(|e| !e.subcommands.is_empty()).map(|e| {
            let values: Values = cmd.args().iter().map(Word::value).collect();
            catalogue::classify(e, &values)
        });
        Invocation::of_roles(cmd, entry, roles.as_deref().map_or(&[], Vec::as_slice))
    }

    /// Reads `cmd` with `entry` and `roles`, its arguments as
    /// [`catalogue::classify`] reads them with `entry` (only read when the entry
    /// has subcommands).
    pub fn of_roles(
        cmd: &'c SimpleCommand,
        entry: Option<&'static Entry>,
        roles: &[catalogue::Arg],
    ) -> Option<Invocation<'c>> {
        let base = cmd.base_name()?;
        let program = entry.map_or(base, |e| e.name);
        let args = cmd.args();
        let Chain {
            subcommands,
            leaf,
            after,
        } = chain(entry, args, roles);
        Some(Invocation {
            entry,
            program,
            subcommands,
            leaf,
            rest: args.get(after..).unwrap_or(&[]),
        })
    }

    /// True when the deepest entry (or the program's) has `fact`.
    pub fn has(&self, fact: Fact) -> bool {
        self.leaf.is_some_and(|e| e.has(fact)) || self.entry.is_some_and(|e| e.has(fact))
    }

    /// The words after the subcommands that are not options (a dynamic word counts
    /// as an operand). Option values are not told apart from operands.
    pub fn operands(&self) -> impl Iterator<Item = &'c Word> {
        self.rest
            .iter()
            .filter(|w| !w.value().is_some_and(|v| v.starts_with('-') && v.len() > 1))
    }

    /// The files the deepest entry (or the program's) says it runs.
    pub fn runs_files(&self) -> &'static [&'static str] {
        match self.leaf {
            Some(l) if !l.runs_files.is_empty() => l.runs_files,
            _ => self.entry.map_or(&[], |e| e.runs_files),
        }
    }
}

/// The subcommands `args` name for `entry`, as the catalogue's reading of them
/// (`roles`) finds them: options before a subcommand's name are read with the
/// level's table (`npm -g install`, `pnpm -C x dlx`).
pub struct Chain<'c> {
    /// The subcommand words, in order (`["tool", "run"]`).
    pub subcommands: Vec<&'c str>,
    /// The deepest entry reached (the program's own when none is named).
    pub leaf: Option<&'static Entry>,
    /// The index in `args` of the first word after the last subcommand's name.
    pub after: usize,
}

/// [`Chain`] of `args` read with `entry` (`roles`: [`catalogue::classify`] of
/// them, only read when the entry has subcommands).
pub fn chain<'c>(
    entry: Option<&'static Entry>,
    args: &'c [Word],
    roles: &[catalogue::Arg],
) -> Chain<'c> {
    let mut found = Chain {
        subcommands: Vec::new(),
        leaf: entry,
        after: 0,
    };
    if entry.is_none_or(|e| e.subcommands.is_empty()) {
        return found;
    }
    for arg in roles {
        if arg.role != Role::Subcommand || arg.option_value {
            continue;
        }
        let Some(name) = args.get(arg.index).and_then(Word::value) else {
            break;
        };
        // `pip --timeout 5 install`: an operand read in the subcommand's place
        // that names none may be an unknown option's value
        // ([`Entry::subcommand_after_unknown_value`]); the reading goes on.
        let Some(sub) = found.leaf.and_then(|l| l.subcommand(name)) else {
            continue;
        };
        found.subcommands.push(name);
        found.leaf = Some(sub);
        found.after = arg.index + 1;
    }
    found
}
