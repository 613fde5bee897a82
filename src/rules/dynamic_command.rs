//! BG203: a program whose name is only known at run time.

use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when the word in command position has no static value: a variable
    /// (`$X`, `${X:-rm}`), a command substitution (`$(echo rm)`, backticks), a glob
    /// (`/bin/r?`), arithmetic, or a wrapper option that is itself dynamic
    /// (`sudo $OPTS rm`).
    ///
    /// ## Why
    /// Every other command rule keys on the program's name. A name computed at run
    /// time can be anything, so no rule can vouch for it.
    ///
    /// ## Example
    /// - `$(echo rm) -rf x` → ask
    /// - `echo $(date)` → allow: the program is `echo`
    pub static DYNAMIC_COMMAND_NAME = {
        code: "BG203",
        name: "dynamic-command-name",
        default: Ask,
        capability: DynamicCommand,
        summary: "the program's name is only known at run time",
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
        return;
    }
    cx.report(
        &DYNAMIC_COMMAND_NAME,
        word.span,
        format!("the program `{}` is only known at run time", word.display()),
    );
}
