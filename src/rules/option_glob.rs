//! BG213: a glob that can hand a program options the gate never saw.

use crate::catalogue::Fact;
use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::dash_names::option_glob;
use crate::model::word::Part;
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when an unquoted glob passed to a program can expand to a name that
    /// starts with `-`: the command created such a file earlier (`touch --
    /// --checkpoint-action=exec=x`, `> -e`, `echo > '-rf'`, an option's value as
    /// in `sort -o -rf`, a copy into the folder as in `cp sub/-rf .`), or the
    /// folder the glob matches in already holds one (one `readdir`). A `--`
    /// before the glob ends the program's options, and programs whose arguments
    /// are only text (`echo`) are left alone.
    ///
    /// ## Why
    /// The shell expands `*` before the program runs, and the program cannot tell a
    /// file called `-rf` or `--checkpoint-action=exec=sh x` from an option:
    /// `tar cf a.tar *` runs a command, `rm *` recurses. The gate judges the words
    /// it sees; a glob hides which options the program gets.
    ///
    /// ## Example
    /// - `touch -- -n; wc -l *` → ask
    /// - `touch -- --checkpoint-action=exec=sh; tar cf a.tar *` → ask
    /// - `sort -o --checkpoint-action=exec=sh a.txt; tar cf a.tar *` → ask
    /// - `touch -- -n; for f in *; do wc -l "$f"; done` → ask: the loop passes the
    ///   glob's names one at a time
    /// - `touch -- -n; wc -l src/*` → allow: the expansions start with `src/`
    pub static OPTION_GLOB = {
        code: "BG213",
        name: "option-glob",
        default: Ask,
        capability: ShellExpansion,
        summary: "an unquoted glob can expand to file names a program reads as options",
    };
}

/// Asks for glob arguments that can expand to option-like names.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if matches!(
        cmd.origin,
        Origin::Test | Origin::Bare | Origin::Declaration
    ) {
        return;
    }
    if cmd.name_str().is_none() {
        return;
    }
    if !cmd.shadowed && cx.entry(cmd).is_some_and(|e| e.has(Fact::TextOnly)) {
        return;
    }
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    let created = &cmd.context.dash_named;
    for word in cmd.args() {
        if word.value() == Some("--") {
            return;
        }
        let reason = option_glob(word, cwd, created).or_else(|| {
            // `for f in *; do wc -l "$f"; done` passes the names one at a time. A
            // word that starts with the variable starts with one of those names
            // (`"$f".bak`), so the loop's word itself is judged, not the word
            // with it in place (`*.bak` would miss `-x` made into `-x.bak`).
            let Some(Part::Variable { name, .. }) = word.parts.first() else {
                return None;
            };
            let (_, values) = cmd.context.confined.iter().find(|(n, _)| n == name)?;
            let reason = values
                .iter()
                .find_map(|value| option_glob(value, cwd, created))?;
            Some(format!(
                "`${name}` takes the names of a loop's glob: {reason}"
            ))
        });
        if let Some(reason) = reason {
            cx.report(&OPTION_GLOB, word.span, reason);
            return;
        }
    }
}
