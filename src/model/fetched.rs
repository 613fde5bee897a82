//! Code the command fetched from the network and then runs: `git clone URL && cd
//! repo && make`, `hg clone URL r; ./r/install.sh`, `git clone URL && bash
//! repo/setup.sh`.
//!
//! `curl URL | sh` asks because what runs is only known at run time; a clone is the
//! same fetch in another spelling, and a clone alone is routine (the gate lets it
//! pass). What it fetched is not the project's code: running it — a script or
//! program in it, code files in it given to an interpreter, or a runner of project
//! code (`make`, `npm install`, `cargo build`, `pip install .`) working in it or
//! pointed at it (`make -C repo`) — runs code the gate cannot see.
//!
//! A command fetches into a folder when its reading has the catalogue's `network`
//! (or `clones`: `git submodule add`) fact, a remote URL (one with a scheme or a host: a local clone copies the
//! machine's own code) and a `path-write` operand (`git clone URL DIR`); without
//! that operand the folder is the one the clone names after the URL (`…/repo.git`
//! → `repo`).

use super::command::SimpleCommand;
use super::word::Word;
use crate::catalogue::{self, Fact, Role, Values};
use crate::verdict::Span;

/// The folders `record` fetches code into, as written (`repo` of `git clone
/// URL repo`, or the name the URL gives).
pub(super) fn fetches(record: &SimpleCommand) -> Vec<String> {
    let Some(entry) = record.base_name().and_then(catalogue::lookup) else {
        return Vec::new();
    };
    // The cheap tests first (this runs for every command): most entries never
    // reach the network, and a remote URL names a scheme or a host (`https://`,
    // `git@host:`); a word only known at run time may be one.
    let args = record.args();
    if !(entry.tree_has(Fact::Network) || entry.tree_has(Fact::Clones))
        || !args
            .iter()
            .any(|w| w.value().is_none_or(|v| v.contains(':')))
    {
        return Vec::new();
    }
    let values: Values = args.iter().map(Word::value).collect();
    let usage = catalogue::usage(entry, &values);
    // Only a reading that reaches the network and writes a folder it names:
    // `git clone URL [DIR]` (the deepest subcommand the words name).
    let level = usage.subcommand.unwrap_or(entry);
    let writes_folder =
        level.operands.contains(&Role::PathWrite) || level.last == Some(Role::PathWrite);
    if !(usage.has(Fact::Network) || usage.has(Fact::Clones)) || !writes_folder {
        return Vec::new();
    }
    let roles = catalogue::classify(entry, &values);
    let operand = |role: Role| {
        roles
            .iter()
            .find(|a| a.role == role && !a.option_value)
            .and_then(|a| values.get(a.index).copied().flatten())
    };
    if !roles.iter().any(|a| a.role == Role::Url && !a.option_value) {
        return Vec::new();
    }
    match (operand(Role::PathWrite), operand(Role::Url)) {
        (Some(folder), _) => vec![folder.to_string()],
        (None, Some(url)) => folder_of(url).into_iter().collect(),
        (None, None) => Vec::new(),
    }
}

/// The folder a clone of `url` makes: the URL's last segment without `.git`
/// (`https://github.com/o/repo.git` → `repo`, `git@host:o/repo` → `repo`).
fn folder_of(url: &str) -> Option<String> {
    let trimmed = url.trim_end_matches('/');
    let last = trimmed.rsplit(['/', ':']).next()?;
    let name = last.strip_suffix(".git").unwrap_or(last);
    (!name.is_empty() && name != "." && name != "..").then(|| name.to_string())
}

/// The words of `record` that name what it runs as code: its program when named
/// by a path, a script a shell or `source` reads, a code file an interpreter
/// runs; and, for a runner of project code (`runner`: [`runs_project_code`]), every
/// path word it is given (`make -C repo`, `cargo build --manifest-path
/// repo/Cargo.toml`). With the span to report.
pub(super) fn run_words(record: &SimpleCommand, runner: bool) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    if let Some(name) = record.name()
        && let Some(value) = name.value()
        && value.contains('/')
    {
        out.push((value.to_string(), name.span));
    }
    if let Some((name, at)) = super::written::script_run(record) {
        out.push((name, at));
    }
    for file in super::written::code_files(record) {
        if let super::written::CodeFile::Named(name, at) = file {
            out.push((name.into_owned(), at));
        }
    }
    if runner {
        for word in record.args() {
            if let Some(value) = word.value().filter(|v| !v.starts_with('-')) {
                out.push((value.to_string(), word.span));
            }
            // `--manifest-path=repo/Cargo.toml`, `-Crepo`.
            if let Some((_, value)) = word.value().and_then(|v| v.split_once('='))
                && !value.is_empty()
            {
                out.push((value.to_string(), word.span));
            }
        }
    }
    out
}

/// True when `record`'s reading runs the project's code (`make`, `npm install`,
/// `cargo build`, `pip install .`): the catalogue's `runs-project-code` fact.
pub(super) fn runs_project_code(record: &SimpleCommand) -> bool {
    let Some(entry) = record
        .base_name()
        .and_then(catalogue::lookup)
        .filter(|_| !record.shadowed)
    else {
        return false;
    };
    if !entry.tree_has(Fact::RunsProjectCode) {
        return false;
    }
    let values: Values = record.args().iter().map(Word::value).collect();
    catalogue::usage(entry, &values).has(Fact::RunsProjectCode)
}

#[cfg(test)]
mod tests {
    use super::folder_of;

    #[test]
    fn a_clone_is_named_after_its_url() {
        assert_eq!(
            folder_of("https://github.com/o/repo.git").as_deref(),
            Some("repo")
        );
        assert_eq!(
            folder_of("https://github.com/o/repo/").as_deref(),
            Some("repo")
        );
        assert_eq!(folder_of("git@github.com:o/tool").as_deref(), Some("tool"));
        assert_eq!(folder_of("https://host/").as_deref(), Some("host"));
        assert_eq!(folder_of(".."), None);
    }
}
