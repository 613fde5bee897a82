//! BG203: a program whose name is only known at run time.

use crate::catalogue::{self, Values};
use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::word::Word;
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when the word in command position has no static value: a variable
    /// (`$X`, `${X:-rm}`), a command substitution (`$(echo rm)`, backticks), a glob
    /// (`/bin/r?`), arithmetic, or a wrapper option that is itself dynamic
    /// (`sudo $OPTS rm`). The same one level down: a subcommand only known at run
    /// time (`git $CMD --force`, `terraform "$1"`, `kubectl $VERB ns prod`), or a
    /// dynamic option word where the subcommand may stand (`git --git-dir=$D push
    /// --force`).
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
    pub static DYNAMIC_COMMAND_NAME = {
        code: "BG203",
        name: "dynamic-command-name",
        default: Ask,
        capability: DynamicCommand,
        summary: "the program's name, or its subcommand, is only known at run time",
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
        dynamic_subcommand(cmd, cx);
        return;
    }
    cx.report(
        &DYNAMIC_COMMAND_NAME,
        word.span,
        format!("the program `{}` is only known at run time", word.display()),
    );
}

/// Asks when the word naming a subcommand of the program's entry is only known at
/// run time ([`catalogue::dynamic_subcommand`]).
fn dynamic_subcommand(cmd: &SimpleCommand, cx: &mut Checker) {
    if cmd.shadowed {
        return;
    }
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if entry.subcommands.is_empty() {
        return;
    }
    let args = cmd.args();
    let values: Values = args.iter().map(Word::value).collect();
    let Some((level, at)) = catalogue::dynamic_subcommand(entry, &values) else {
        return;
    };
    let Some(word) = args.get(at) else {
        return;
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
}
