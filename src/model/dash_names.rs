//! Globs that can expand to option-looking names. `touch -- --checkpoint-action=x;
//! tar cf a.tar *` passes `--checkpoint-action=x` to tar as an option: a file whose
//! name starts with `-` turns a glob into options the gate never sees. The walker
//! notes the folders where the command creates such names ([`created_dash_name`]);
//! [`option_glob`] says whether a glob word may expand to one, from those notes or
//! from one `readdir` of the folder it matches in.

use super::command::SimpleCommand;
use super::path_roles::path_uses;
use super::paths::normalize_lexically;
use super::word::Word;
use std::path::{Path, PathBuf};

/// Most folder entries read when looking for names that start with `-`.
const MAX_SCAN: usize = 4096;

/// The files or folders `record` creates whose names start with `-` (`touch -- -rf`,
/// `> -e`, `mkdir -- --x`), resolved from `cwd` (`None`: the working directory is
/// unknown, so where the name is is too).
pub fn created_dash_name(record: &SimpleCommand, cwd: Option<&Path>) -> Vec<Option<PathBuf>> {
    let mut out = Vec::new();
    for usage in path_uses(record) {
        if !usage.access.writes() {
            continue;
        }
        let Some(value) = usage.word.value() else {
            continue;
        };
        let path = Path::new(value);
        let dashed = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('-'));
        if !dashed {
            continue;
        }
        out.push(match (path.is_absolute(), cwd) {
            (true, _) => Some(normalize_lexically(path)),
            (false, Some(cwd)) => Some(normalize_lexically(&cwd.join(path))),
            (false, None) => None,
        });
    }
    out
}

/// Why the glob `word`, an argument in the folder `cwd`, may expand to a name that
/// starts with `-`: its first component is a pattern that can match such a name,
/// and `created` (such names the command made; `None` where unknown) or the folder
/// itself holds one. `None` when it cannot.
pub fn option_glob(word: &Word, cwd: Option<&Path>, created: &[Option<PathBuf>]) -> Option<String> {
    let pattern = leading_pattern(word)?;
    // Compiled only when a name that starts with `-` gets past a cheap test.
    let mut glob = super::name_glob::NameGlob::new(&pattern);
    let made_here = created.iter().find_map(|c| match (c, cwd) {
        (Some(path), Some(cwd)) => {
            let name = path.file_name()?.to_str()?;
            (path.parent() == Some(cwd) && glob.matches(name.as_ref())).then(|| name.to_string())
        }
        // A name made where the gate cannot tell, or a glob run where it cannot.
        _ => Some("-…".to_string()),
    });
    if let Some(name) = made_here {
        return Some(format!(
            "`{pattern}` can expand to `{name}`, made by this command, which the program reads as an option"
        ));
    }
    let cwd = cwd?;
    for (n, entry) in std::fs::read_dir(cwd).ok()?.enumerate() {
        if n >= MAX_SCAN {
            return Some(format!(
                "`{pattern}` matches in a folder too large to check for names like options"
            ));
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('-') && glob.matches(name.as_ref()) {
            return Some(format!(
                "`{pattern}` expands to `{name}`, which the program reads as an option"
            ));
        }
    }
    None
}

/// The pattern of a word whose expansion starts with a glob match in the working
/// directory (`*`, `*.txt`, `?x`, `[a-z]*`, `-*`): its first component, when that
/// has an unquoted glob character and can start with `-`. `None` for anything else
/// (`src/*` expands to `src/…`, `'*'` is no glob).
fn leading_pattern(word: &Word) -> Option<String> {
    let text = crate::model::paths::glob_text(word)?;
    let first = text.split('/').next().unwrap_or("");
    let can_start_with_dash = first.starts_with(['*', '?', '[', '-']);
    (first.contains(['*', '?', '[']) && can_start_with_dash).then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::leading_pattern;
    use crate::model::word::{Part, Word};
    use crate::verdict::Span;

    fn literal(t: &str) -> Word {
        Word::new(vec![Part::Literal(t.into())], Span::default(), false)
    }

    #[test]
    fn only_globs_that_can_start_with_a_dash_count() {
        assert_eq!(leading_pattern(&literal("*")).as_deref(), Some("*"));
        assert_eq!(leading_pattern(&literal("*.txt")).as_deref(), Some("*.txt"));
        assert_eq!(leading_pattern(&literal("-*")).as_deref(), Some("-*"));
        assert_eq!(leading_pattern(&literal("src/*")), None);
        assert_eq!(leading_pattern(&literal("a*")), None);
        assert_eq!(leading_pattern(&literal("plain")), None);
        let quoted = Word::new(vec![Part::Quoted("*".into())], Span::default(), true);
        assert_eq!(leading_pattern(&quoted), None);
    }
}
