//! BG110: a path whose value is only known at run time.

use crate::catalogue::Role as CatalogueRole;
use crate::declare_rule;
use crate::model::command::{Context, Origin, SimpleCommand};
use crate::model::path_roles::Role;
use crate::model::paths::PATH_VARIABLES;
use crate::model::word::{Part, Word};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when a word the command uses as a path (an operand, a redirect target, an
    /// option's value, a `cd` target) holds a part whose value is only known at run
    /// time — a variable the script never assigned a static value, a command
    /// substitution whose output is not known (`$(cat list)`, `$(< f)`), an array
    /// element with a computed index — unless that part can only be a number (`$$`,
    /// `$?`, `$((…))`) and the static text keeps the path inside. Substitutions whose
    /// output is known (`$(echo x)`, `$(pwd)`, `$(dirname x)`) and variables assigned
    /// earlier in the script are followed, so those words are judged by their value.
    /// The items `xargs` appends count where the program writes them (`cat list |
    /// xargs cp a.txt`), unless a listing of the project's own files prints them
    /// (`git ls-files`, `find .`, `grep -l`).
    ///
    /// ## Why
    /// `cat "$F"`, `echo x > "./$D/f"` and `cd "$(cat dir.txt)"` can name any file:
    /// `./$D` climbs out with `D=../..`. Nothing about the word proves where it points.
    ///
    /// ## Example
    /// - `cat "$F"` → ask
    /// - `echo hi > "out/$NAME.txt"` → ask
    /// - `cat "$(cat list.txt)"` → ask
    /// - `F=notes.txt; cat "$F"` → allow
    /// - `echo hi > "log.$$"` → allow
    /// - `echo "$F"` → allow: `echo`'s arguments are text
    /// - `cat list | xargs touch` → ask
    /// - `git ls-files | xargs touch` → allow
    pub static DYNAMIC_PATH = {
        code: "BG110",
        name: "dynamic-path",
        default: Ask,
        capability: FilesystemRead,
        summary: "a path whose value is only known at run time",
    };
}

/// Asks for each path word with a run-time part that could hold any path.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if matches!(cmd.origin, Origin::Test | Origin::Declaration) {
        return;
    }
    appended_paths_written(cmd, cx);
    // Most commands have no run-time part at all: skip listing their paths.
    let dynamic = |w: &Word| w.parts.iter().any(Part::is_dynamic);
    let any = cmd.words.iter().any(dynamic)
        || cmd
            .redirects
            .iter()
            .any(|r| r.target.as_ref().is_some_and(dynamic));
    if !any {
        return;
    }
    for usage in cx.path_uses(cmd).iter() {
        if matches!(usage.role, Role::Program | Role::Assignment) {
            continue;
        }
        if !unknown(&usage.word, &cmd.context) {
            continue;
        }
        cx.report(
            &DYNAMIC_PATH,
            usage.word.span,
            format!(
                "the path `{}` is only known at run time",
                usage.word.display()
            ),
        );
    }
}

/// True when a part of `word` can hold any text and nothing static proves the path
/// stays inside. A leading `~` or path variable is judged by the path rules; the
/// parts after it are not. Loop variables over relative words (`for f in src/*`)
/// are confined to the working directory.
fn unknown(word: &Word, context: &Context) -> bool {
    let mut any_text = false;
    for (i, part) in word.parts.iter().enumerate() {
        match part {
            Part::Literal(_) | Part::Quoted(_) | Part::ProcessSubstitution => {}
            Part::Tilde(_) if i == 0 => {}
            Part::Variable { name, .. } if i == 0 && PATH_VARIABLES.contains(&name.as_str()) => {}
            Part::Expansion {
                name: Some(name), ..
            } if i == 0 && PATH_VARIABLES.contains(&name.as_str()) => {}
            Part::Variable { name, .. } if context.is_confined(name) => {}
            part if numeric(part) => {}
            _ => any_text = true,
        }
    }
    if any_text {
        return true;
    }
    // Only numbers or confined names vary: the static text decides, and `..` could
    // climb with them.
    word.parts.iter().any(|p| match p {
        Part::Variable { name, .. } if context.is_confined(name) => true,
        p => numeric(p),
    }) && word.parts.iter().any(|p| match p {
        Part::Literal(t) | Part::Quoted(t) => t.split('/').any(|c| c == ".."),
        _ => false,
    })
}

/// Parts whose value is always a number: `$$`, `$?`, `$#`, `$!`, `$((…))`.
fn numeric(part: &Part) -> bool {
    match part {
        Part::Arithmetic { .. } => true,
        Part::Variable { name, .. } => matches!(name.as_str(), "$" | "?" | "#" | "!"),
        _ => false,
    }
}

/// `base64 -d f | xargs touch`, `cat list | xargs cp a.txt`: the items `xargs`
/// appends stand where the program writes a path, and nothing says which paths
/// they are. Items a listing of the project's own files prints (`git ls-files |
/// xargs touch`, `find . -name '*.sh' | xargs chmod +x`) are the project's.
fn appended_paths_written(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(by) = crate::model::appended_items(cmd) else {
        return;
    };
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    // Items of a listing of the project's files are the project's; those of an
    // `echo` or `printf` of static words are composed into the commands xargs
    // runs, each judged as written out (`echo a b | xargs touch`).
    if cx.piped_from(cmd).is_some_and(|previous| {
        crate::model::lists_project_names(previous) || crate::model::prints_static_words(previous)
    }) {
        return;
    }
    let args = cmd.args();
    let mut values: crate::catalogue::Values = args.iter().map(Word::value).collect();
    values.push(Some("item"));
    let written = crate::catalogue::classify(entry, &values).iter().any(|a| {
        a.index == args.len()
            && matches!(
                a.role,
                CatalogueRole::PathWrite | CatalogueRole::PathWriteOrPipe
            )
    });
    if written {
        cx.report(
            &DYNAMIC_PATH,
            by.span,
            format!(
                "the items `xargs` appends are paths `{}` writes, only known at run time",
                entry.name
            ),
        );
    }
}
