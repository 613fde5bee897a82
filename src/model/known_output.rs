//! Command substitutions whose output is known without running anything: `$(echo
//! X)`, `$(printf X)`, `$(pwd)`, `$(dirname X)`, `$(basename X)`, `$(realpath -m X)`,
//! `$(readlink -m X)`, `$(git rev-parse --show-toplevel)` (the repository's top
//! folder, found as git finds it). Their output flows into the word that holds them, so `cat
//! "$(echo /etc/passwd)"` is judged as `cat /etc/passwd`. Anything else (another
//! program, a redirect, an option not modelled, an operand that is itself dynamic)
//! stays a dynamic part of the word.
//!
//! To move into the program catalogue: which programs print a value computable from
//! their operands.

use super::paths::normalize_lexically;
use super::scope::Scope;
use super::word::{Word, build_word};
use crate::parse::kind;
use crate::verdict::Span;
use std::path::{Component, Path, PathBuf};
use tree_sitter::Node;

/// Whether [`output`] may know what the command of `words` prints (its words as
/// written, before any variable is substituted): a program its match knows, and
/// for `git` two arguments that are not both static text other than `rev-parse
/// --show-toplevel` (a variable could hold either). The fast lexer, which does not
/// evaluate, leaves such a substitution to the parse; keep this beside the match.
pub(super) fn may_know(words: &[Word]) -> bool {
    let Some(program) = words.first().and_then(Word::value) else {
        return true;
    };
    match program {
        "echo" | "printf" | "pwd" | "dirname" | "basename" | "realpath" | "readlink" => true,
        "git" => {
            words.len() == 3
                && match (words[1].value(), words[2].value()) {
                    (Some(verb), Some(flag)) => verb == "rev-parse" && flag == "--show-toplevel",
                    _ => true,
                }
        }
        _ => false,
    }
}

/// The output of the command substitution `node` (without its trailing newlines),
/// when it is known. `start` is the directory the whole command starts in.
pub(super) fn output(node: Node, text: &str, scope: &Scope, start: &Path) -> Option<String> {
    if kind(node) != "command_substitution" || node.named_child_count() != 1 {
        return None;
    }
    // With `IFS` changed the output splits in ways not modelled.
    if scope.ifs_changed() {
        return None;
    }
    let command = node.named_child(0)?;
    if kind(command) != "command" {
        return None;
    }
    let mut words = Vec::new();
    let mut cursor = command.walk();
    for child in command.children(&mut cursor) {
        let target = match kind(child) {
            "command_name" => child.named_child(0)?,
            "comment" => continue,
            // Assignments, redirects, anything else: not a plain call.
            "word" | "number" | "string" | "raw_string" | "concatenation" | "simple_expansion"
            | "expansion" => child,
            _ => return None,
        };
        let span = Span {
            start: target.start_byte(),
            end: target.end_byte(),
        };
        let word = scope.substitute(build_word(&[target], text, span));
        if word.has_brace_expansion() {
            return None;
        }
        words.push(word.static_value()?);
    }
    let (program, args) = words.split_first()?;
    let cwd = scope.cwd.place(start).map(Path::to_path_buf);
    let out = match program.as_str() {
        "echo" => echo(args)?,
        "printf" => printf(args)?,
        "pwd" => match args {
            [] => cwd?.to_str()?.to_string(),
            [flag] if flag == "-L" => cwd?.to_str()?.to_string(),
            _ => return None,
        },
        "dirname" => match args {
            [path] if !path.starts_with('-') => dirname(path),
            [dd, path] if dd == "--" => dirname(path),
            _ => return None,
        },
        "basename" => match args {
            [path] if !path.starts_with('-') => basename(path),
            [dd, path] if dd == "--" => basename(path),
            _ => return None,
        },
        "realpath" | "readlink" => match args {
            [flag, path] if flag == "-m" && !path.starts_with('-') => missing_ok(path, cwd)?,
            _ => return None,
        },
        "git" => match args {
            [rev_parse, flag]
                if rev_parse == "rev-parse"
                    && flag == "--show-toplevel"
                    && !git_location_set(scope) =>
            {
                git_toplevel(cwd.as_deref()?)?.to_str()?.to_string()
            }
            _ => return None,
        },
        _ => return None,
    };
    Some(out.trim_end_matches('\n').to_string())
}

/// The script assigned a variable that moves where git looks for its repository.
fn git_location_set(scope: &Scope) -> bool {
    ["GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES"]
        .iter()
        .any(|v| scope.lookup(v).is_some())
}

/// `git rev-parse --show-toplevel` from `cwd`: the nearest folder at or above it that
/// holds `.git` (a folder, or a file for worktrees and submodules), as git finds it
/// (one `stat` per level). `None` outside a repository.
fn git_toplevel(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// `echo` without escapes: its operands joined by spaces.
fn echo(args: &[String]) -> Option<String> {
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        match first.as_str() {
            "-n" | "-E" => rest = tail,
            // `-e` and unusual flags change the output in ways not modelled.
            f if f.starts_with('-') && f.len() > 1 => return None,
            _ => break,
        }
    }
    if rest.iter().any(|a| a.contains('\\')) {
        return None;
    }
    Some(rest.join(" "))
}

/// `printf FORMAT` with no directive or escape, or `printf %s X`.
fn printf(args: &[String]) -> Option<String> {
    match args {
        [format] if !format.contains(['%', '\\']) && !format.starts_with('-') => {
            Some(format.clone())
        }
        [format, value] if (format == "%s" || format == "%s\\n") => Some(value.clone()),
        _ => None,
    }
}

/// POSIX `dirname`, lexically.
fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "." } else { "/" }.to_string();
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(i) => {
            let parent = trimmed[..i].trim_end_matches('/');
            if parent.is_empty() {
                "/".to_string()
            } else {
                parent.to_string()
            }
        }
    }
}

/// POSIX `basename` without a suffix, lexically.
fn basename(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" }.to_string();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

/// `realpath -m` / `readlink -m`: the absolute, normalised path. Symbolic links on
/// the way would change it, so a path with `..` (where a link makes lexical and real
/// resolution differ) is not computed; links elsewhere are followed later by the
/// path rules, which resolve the real path of what they judge.
fn missing_ok(path: &str, cwd: Option<PathBuf>) -> Option<String> {
    let path = Path::new(path);
    if path.components().any(|c| c == Component::ParentDir) {
        return None;
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd?.join(path)
    };
    Some(normalize_lexically(&absolute).to_str()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_git_toplevel_is_the_nearest_folder_holding_git() {
        let base = std::env::temp_dir().join(format!("bashgate-toplevel-{}", std::process::id()));
        let deep = base.join("repo/src/deep");
        std::fs::create_dir_all(&deep).expect("create folders");
        std::fs::create_dir_all(base.join("repo/.git")).expect("create .git");
        assert_eq!(git_toplevel(&deep), Some(base.join("repo")));
        assert_eq!(git_toplevel(&base.join("repo")), Some(base.join("repo")));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn dirname_and_basename_follow_posix() {
        assert_eq!(dirname("/etc/passwd"), "/etc");
        assert_eq!(dirname("/etc/"), "/");
        assert_eq!(dirname("x"), ".");
        assert_eq!(dirname("//"), "/");
        assert_eq!(dirname("a//b//"), "a");
        assert_eq!(basename("/etc/passwd/"), "passwd");
        assert_eq!(basename("/"), "/");
    }

    #[test]
    fn echo_and_printf_only_when_plain() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(echo(&s(&["-n", "/etc", "x"])).as_deref(), Some("/etc x"));
        assert_eq!(echo(&s(&["-e", "/etc"])), None);
        assert_eq!(echo(&s(&["a\\nb"])), None);
        assert_eq!(printf(&s(&["/etc/passwd"])).as_deref(), Some("/etc/passwd"));
        assert_eq!(printf(&s(&["%s", "/x"])).as_deref(), Some("/x"));
        assert_eq!(printf(&s(&["%d", "1"])), None);
    }
}
