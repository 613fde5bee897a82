//! BG202: deleting files — the programs the catalogue says delete the files they
//! name (`rm`, `rmdir`, `unlink`, `shred`: fact `deletes-files`; a subcommand
//! with it, `cmake -E rm`), and those whose flags say so (`find -delete`, `git
//! clean -f`, `rsync --delete`: `flag_facts`).

use crate::catalogue::{Entry, Fact, Role};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::paths::Resolved;
use crate::model::word::{Part, Word};
use crate::policy::paths::Place;
use crate::rules::Checker;
use crate::verdict::{Decision, Span};

declare_rule! {
    /// ## What it does
    /// Asks before deleting files: `rm`, `rmdir`, `unlink`, `shred`, `cmake -E rm`,
    /// `find ... -delete`, `git clean -f`, `rsync --delete`, an option whose value is a
    /// folder the program deletes (`pytest --basetemp=DIR`) (the default permission rules
    /// `"rm *" = "ask"` and `"rmdir *" = "ask"`; a project can lower them, e.g.
    /// `"rm -rf build/*" = "allow"`). Denies catastrophic targets whatever the flags'
    /// spelling (`-rf`, `-fr`, `-r -f`, `--recursive --force`, flags after
    /// operands), and any use of a flag that turns off the program's guard
    /// (`--no-preserve-root`, `--n`): `/`, `/*`, `~`, `~/`, `$HOME`, `"$HOME"`, the project
    /// root itself (`.` at the root, its absolute path, `*` at the root), any `..`
    /// that resolves to or above the root, and any target outside the project. A
    /// permission rule cannot lower a catastrophic deny. Options are parsed like
    /// getopt: in `rm -- -rf`, `-rf` is a file.
    ///
    /// ## Why
    /// Deletion cannot be undone by the agent, and `rm -rf` with a wrong variable or
    /// a wrong directory is the classic agent disaster.
    ///
    /// ## Example
    /// - `rm -rf ~` → deny
    /// - `rm -r build` → ask
    /// - `git rm --cached x` → allow: git, not rm
    pub static RM_GATE = {
        code: "BG202",
        name: "rm-gate",
        default: Ask,
        capability: Destructive,
        summary: "deletes files (ask); catastrophic targets such as / or ~ (deny)",
    };
}

/// Judges deletion commands.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let (Some(_), Some(name)) = (cx.base_name(cmd), cmd.name()) else {
        return;
    };
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    let program = entry.name;
    let args = cmd.args();
    if !entry.has(Fact::DeletesFiles) {
        // An option whose value is a folder the program deletes before it starts
        // (`pytest --basetemp=DIR`: the catalogue's `path-delete`).
        if entry.words_mention(Role::PathDelete) {
            deleted_option_values(entry, cmd, cx);
        }
        // A subcommand that deletes its operands (`cmake -E rm`): judged as rm's.
        // (One mask test first: most programs have no such subcommand.)
        if entry.tree_has(Fact::DeletesFiles)
            && let Some(usage) = cx.usage(cmd)
            && let Some(sub) = usage.subcommand
            && sub.has(Fact::DeletesFiles)
        {
            let what = format!("{program} {}", usage.subcommand_words);
            deleted_operands(&what, name.span, cmd, cx);
            return;
        }
        if !entry.flag_may_add(Fact::DeletesFiles) {
            return;
        }
        // A program that deletes only with a flag (`find -delete`, `git clean -f`,
        // `rsync --delete`): what it deletes is matched or left out, not named.
        // A dry run (`git clean -fdn`, `rsync -n --delete`: a `read-only` flag)
        // only lists what it would delete.
        let usage = cx.usage(cmd);
        if let Some(usage) = usage.as_deref()
            && let Some(flag) = usage.flag_for(Fact::DeletesFiles)
            && !usage.has(Fact::ReadOnly)
        {
            let sub = match usage.subcommand_words.as_str() {
                "" => String::new(),
                words => format!(" {words}"),
            };
            cx.report(
                &RM_GATE,
                name.span,
                format!("`{program}{sub} {flag}` deletes files it matches or leaves out"),
            );
        }
        return;
    }
    // A flag that turns off the program's own guard (`rm --no-preserve-root`:
    // the catalogue's `destroys-data` flag fact) is refused whatever the operands.
    if let Some(usage) = cx.usage(cmd).as_deref()
        && let Some(flag) = usage.flag_for(Fact::DestroysData)
    {
        cx.report_as(
            &RM_GATE,
            Decision::Deny,
            name.span,
            format!("`{program} {flag}` turns off the guard against deleting /"),
        );
        return;
    }
    let mut operands: Vec<&Word> = Vec::new();
    let mut options_done = false;
    for word in args {
        match word.value() {
            Some("--") if !options_done => options_done = true,
            Some(v) if !options_done && v.starts_with('-') && v.len() > 1 => {}
            _ => operands.push(word),
        }
    }
    judge_deleted(program, name.span, &operands, cmd, cx);
}

/// Denies the first of `operands` whose deletion is a catastrophe, or asks once
/// that `what` (spelled at `at`) deletes files.
fn judge_deleted(what: &str, at: Span, operands: &[&Word], cmd: &SimpleCommand, cx: &mut Checker) {
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    for word in operands {
        // Also the values the word takes with `${X:-w}` defaults or an unset
        // leading variable (`rm -rf "$DIR/"*` is `rm -rf /*` when DIR is unset).
        let others = cx.paths.alternatives(word, cwd);
        for candidate in std::iter::once(*word).chain(others.iter()) {
            if let Some(reason) = catastrophic(candidate, cwd, cx) {
                cx.report_as(&RM_GATE, Decision::Deny, word.span, reason);
                return;
            }
        }
    }
    cx.report(&RM_GATE, at, format!("`{what}` deletes files"));
}

/// Judges the operands a deleting subcommand reads as `path-delete` (`what` names
/// it: `cmake -E rm`): a catastrophic target is denied, any other asks.
fn deleted_operands(what: &str, at: Span, cmd: &SimpleCommand, cx: &mut Checker) {
    let args = cmd.args();
    let operands: Vec<&Word> = cx
        .args(cmd)
        .iter()
        .filter(|a| !a.option_value && a.role == Role::PathDelete)
        .filter_map(|a| args.get(a.index))
        .collect();
    judge_deleted(what, at, &operands, cmd, cx);
}

/// Judges the option values `entry` deletes: a catastrophic target is denied,
/// any other asks, as an `rm` operand would.
fn deleted_option_values(entry: &Entry, cmd: &SimpleCommand, cx: &mut Checker) {
    let args = cmd.args();
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    for &arg in cx.args(cmd).iter() {
        if !(arg.option_value && arg.role == Role::PathDelete) {
            continue;
        }
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let target = match (arg.offset, word.value()) {
            (0, _) => word.clone(),
            (offset, Some(v)) => Word::new(
                vec![Part::Literal(v.get(offset..).unwrap_or_default().into())],
                word.span,
                false,
            ),
            // `--basetemp="$X"`: a folder only known at run time.
            (_, None) => {
                cx.report(
                    &RM_GATE,
                    word.span,
                    format!("`{}` deletes a folder only known at run time", entry.name),
                );
                continue;
            }
        };
        match catastrophic(&target, cwd, cx) {
            Some(reason) => cx.report_as(&RM_GATE, Decision::Deny, word.span, reason),
            None => cx.report(
                &RM_GATE,
                word.span,
                format!(
                    "`{}` deletes the folder `{}` before it starts",
                    entry.name,
                    target.display()
                ),
            ),
        }
    }
}

/// Why deleting this target would be a catastrophe, if it would.
fn catastrophic(word: &Word, cwd: Option<&std::path::Path>, cx: &Checker) -> Option<String> {
    let root = cx.paths.root();
    let bare_star = matches!(word.display().as_str(), "*" | "./*" | "*/" | ".*" | "./.*");
    if bare_star && cwd.is_some_and(|c| c == root || root.starts_with(c)) {
        return Some("deletes everything in the project root".into());
    }
    match cx.paths.resolve(word, cwd) {
        Resolved::Path { path, glob, .. } => {
            let display = path.display();
            if path == std::path::Path::new("/") {
                return Some("deletes the whole file system".into());
            }
            if cx
                .policy
                .home
                .as_deref()
                .is_some_and(|h| h.starts_with(&path))
            {
                return Some(format!("deletes the home directory ({display})"));
            }
            if root.starts_with(&path) && (!glob || path == root) {
                return Some(format!("deletes the project itself ({display})"));
            }
            if glob && path == root {
                return Some("deletes everything in the project root".into());
            }
            if !glob && let Some(protected) = cx.paths.protected_within(&path) {
                return Some(format!(
                    "deletes {} with it: the gate's policy or an agent's settings",
                    protected.display()
                ));
            }
            match cx.paths.place(&path) {
                Place::Outside | Place::ReadOnly | Place::Safe => {
                    Some(format!("deletes outside the project ({display})"))
                }
                _ => None,
            }
        }
        Resolved::Unknown { reason, .. } => {
            Some(format!("deletes a target that is unknown ({reason})"))
        }
        Resolved::NotAPath => None,
    }
}
