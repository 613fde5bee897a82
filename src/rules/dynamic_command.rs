//! BG203: a program whose name is only known at run time.

use crate::catalogue::{self, Role, Values};
use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::word::{Part, Word};
use crate::rules::Checker;
use crate::rules::run_time_usage;
use std::borrow::Cow;
use std::rc::Rc;

declare_rule! {
    /// ## What it does
    /// Asks when the word in command position has no static value: a variable
    /// (`$X`, `${X:-rm}`), a command substitution (`$(echo rm)`, backticks), a glob
    /// (`/bin/r?`), arithmetic, or a wrapper option that is itself dynamic
    /// (`sudo $OPTS rm`). The same one level down: a subcommand only known at run
    /// time (`git $CMD --force`, `terraform "$1"`, `kubectl $VERB ns prod`), or a
    /// dynamic option word where the subcommand may stand (`git --git-dir=$D push
    /// --force`). And a word only known at run time where an option may stand,
    /// for a program whose options change what it does (the catalogue's
    /// `flag_facts`, or an option whose value names what runs), the items `xargs`
    /// appends included: `docker run "$OPTS" img` may be `docker run --privileged
    /// img`, `npm install --$X` may be `--registry=…`, and an unquoted `$X` may
    /// split into several options. Inside a word too, when the command set the
    /// variable to a value that splits (a blank in it, or read or substituted at
    /// run time): `N=' --privileged'; docker run --name=x$N img`. An option named
    /// before its dynamic part (`--network="$N"`) is read as given by the rules
    /// its flag concerns.
    ///
    /// ## Why
    /// Every other command rule keys on the program's name, and for a program with
    /// subcommands on the subcommand: `git push --force` and `git log` are
    /// different programs to the rules. A name computed at run time can be
    /// anything, so no rule can vouch for it.
    ///
    /// ## Example
    /// - `$(echo rm) -rf x` → ask
    /// - `echo $(date)` → allow: the program is `echo`
    /// - `git $CMD --force origin main` → ask
    /// - `git commit -m "$MSG"` → allow: the subcommand is `commit`
    /// - `docker run $OPTS alpine` → ask
    /// - `docker run --rm alpine "$CMD"` → allow: after the image, the words are
    ///   the container's
    /// - `read N; docker run --name=x$N alpine` → ask: `$N` may split off
    ///   `--privileged`
    pub static DYNAMIC_COMMAND_NAME = {
        code: "BG203",
        name: "dynamic-command-name",
        default: Ask,
        capability: DynamicCommand,
        summary: "the program's name, its subcommand, or an option that changes what it does is only known at run time",
    };
}

/// Asks for a command whose program word is not static.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if matches!(
        cmd.origin,
        Origin::Test | Origin::Declaration | Origin::Bare
    ) {
        return;
    }
    let Some(word) = cmd.name() else {
        return;
    };
    if word.is_static() {
        if !dynamic_subcommand(cmd, cx) {
            dynamic_options(cmd, cx);
        }
        return;
    }
    cx.report(
        &DYNAMIC_COMMAND_NAME,
        word.span,
        format!("the program `{}` is only known at run time", word.display()),
    );
}

/// Asks when the word naming a subcommand of the program's entry is only known at
/// run time ([`catalogue::dynamic_subcommand`]); true when it asked.
fn dynamic_subcommand(cmd: &SimpleCommand, cx: &mut Checker) -> bool {
    if cmd.shadowed {
        return false;
    }
    let Some(entry) = cx.entry(cmd) else {
        return false;
    };
    if entry.subcommands.is_empty() {
        return false;
    }
    let args = cmd.args();
    let values: Values = args.iter().map(Word::value).collect();
    let Some((level, at)) = catalogue::dynamic_subcommand(entry, &values) else {
        return false;
    };
    let Some(word) = args.get(at) else {
        return false;
    };
    cx.report(
        &DYNAMIC_COMMAND_NAME,
        word.span,
        format!(
            "`{}` is only known at run time where a subcommand of `{}` is named: which one runs decides what the command does",
            word.display(),
            level.name
        ),
    );
    true
}

/// Asks for each word that may be an option only known at run time of a program
/// whose options change what it does ([`catalogue::Usage::unknown_options`]),
/// the items `xargs` appends after the words counted as one such word.
fn dynamic_options(cmd: &SimpleCommand, cx: &mut Checker) {
    if cmd.shadowed {
        return;
    }
    let items = crate::model::appended_items(cmd).filter(|_| {
        !cx.piped_from(cmd)
            .is_some_and(crate::model::prints_no_options)
    });
    if items.is_none() && cmd.args().iter().all(Word::is_static) {
        return;
    }
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    let flags_matter = catalogue::flags_change_what_it_does(entry);
    if !flags_matter && !entry.any_role(&Role::names_what_runs) {
        return;
    }
    // The words as the program gets them: `xargs`'s items after them.
    let args: Cow<[Word]> = match items {
        None => Cow::Borrowed(cmd.args()),
        Some(by) => {
            let mut args = cmd.args().to_vec();
            args.push(Word::new(
                smallvec::smallvec![Part::Unknown("xargs items".into())],
                by.span,
                false,
            ));
            Cow::Owned(args)
        }
    };
    // The shared reading skips the words when no flag adds facts, and knows
    // nothing of `xargs`'s items: read them here then.
    let usage = if flags_matter && items.is_none() {
        cx.usage(cmd)
    } else {
        Some(Rc::new(run_time_usage::usage_of(
            entry,
            &args,
            &cmd.context.splitting,
        )))
    };
    let Some(usage) = usage else {
        return;
    };
    let program = match usage.subcommand_words.as_str() {
        "" => entry.name.to_string(),
        words => format!("{} {words}", entry.name),
    };
    for &(at, flag) in &usage.unknown_options {
        let Some(word) = args.get(at) else {
            continue;
        };
        // A loop variable over relative words (`for f in *.sh`) is a file name;
        // a glob's names that start with `-` are the glob rule's (BG213).
        if word.parts.iter().all(|p| match p {
            Part::Variable { name, .. } => cmd.context.is_confined(name),
            p => !p.is_dynamic(),
        }) {
            continue;
        }
        let what = if at == cmd.args().len() {
            "the items `xargs` reads and appends are only known at run time and stand".to_string()
        } else {
            let starts_dynamic = word.parts.first().is_some_and(Part::is_dynamic);
            if !starts_dynamic && run_time_usage::splits_inside(word, &cmd.context.splitting) {
                format!(
                    "`{}` expands a variable the command set to a value word splitting may cut into more words, and one may stand",
                    word.display()
                )
            } else {
                format!("`{}` is only known at run time and stands", word.display())
            }
        };
        cx.report(
            &DYNAMIC_COMMAND_NAME,
            word.span,
            format!(
                "{what} where an option of `{program}` can: it may be `{flag}`, which changes what the command does"
            ),
        );
    }
}
