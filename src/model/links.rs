//! Symbolic links the command makes (`ln -s TARGET NAME`): from the moment a link
//! is made, a path through NAME is a path through TARGET, as for links already on
//! disk (which the resolver follows). `ln -s .. up; cat up/x` reads `../x`. The
//! walker notes each link made ([`made_by`]) and rewrites later words that go
//! through one ([`through`]), so every path rule judges where they really lead.

use super::command::SimpleCommand;
use super::paths::{Resolved, Resolver, normalize_lexically};
use super::word::{Part, Word};
use crate::catalogue::Values;
use crate::catalogue::{self, Fact, Role};
use std::path::{Path, PathBuf};

/// How many links in a row a path is followed through.
const MAX_HOPS: usize = 8;

/// A link made by the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where the link is (absolute, lexically normalised); `None` when that is only
    /// known at run time.
    pub path: Option<PathBuf>,
    /// Where it leads (absolute); `None` when only known at run time.
    pub target: Option<PathBuf>,
}

/// The symbolic links `record` makes when its program's operands can be link
/// targets (the catalogue's `link-target` role: `ln -s`, `ln --symbolic`), read
/// with its entry — the folder option (`-t DIR`), the flags that read targets from
/// here (`relative-link-targets`: `-r`) or take the last operand as the link itself
/// (`no-target-directory`: `-T`, `-n`). Its names are resolved from `cwd` (`None`:
/// unknown), targets such as `~` by the resolver.
pub fn made_by(record: &SimpleCommand, cwd: Option<&Path>, resolver: &Resolver) -> Vec<Link> {
    let Some(entry) = record
        .program_str()
        .and_then(catalogue::lookup)
        .filter(|e| e.mentions(&[Role::LinkTarget]))
    else {
        return Vec::new();
    };
    let args = record.args();
    let values: Values = args.iter().map(Word::value).collect();
    let roles = catalogue::classify(entry, &values);
    let usage = catalogue::usage(entry, &values);
    let symbolic = roles
        .iter()
        .any(|a| a.role == Role::LinkTarget && !a.option_value);
    let relative = usage.has(Fact::RelativeLinkTargets);
    let no_dereference = usage.has(Fact::NoTargetDirectory);
    // The folder the links go into (`-t DIR`, `--target-directory=DIR`, `-tDIR`).
    let directory: Option<Option<String>> = roles
        .iter()
        .rfind(|a| a.option_value && a.role.writes())
        .map(|a| {
            values
                .get(a.index)
                .copied()
                .flatten()
                .and_then(|v| v.get(a.offset..))
                .map(str::to_string)
        });
    let mut operands: Vec<Option<String>> = Vec::new();
    let mut words: Vec<&Word> = Vec::new();
    for arg in roles.iter().filter(|a| !a.option_value) {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        operands.push(word.value().map(str::to_string));
        words.push(word);
    }
    if !symbolic || operands.is_empty() {
        return Vec::new();
    }
    let absolute = |v: &str| -> Option<PathBuf> {
        let p = Path::new(v);
        if p.is_absolute() {
            Some(normalize_lexically(p))
        } else {
            cwd.map(|c| normalize_lexically(&c.join(p)))
        }
    };
    // `ln -s T… -t DIR`, `ln -s T… DIR` (DIR an existing folder), `ln -s T NAME`,
    // `ln -s T` (a link named like T's last component, here).
    let (targets, place): (Vec<Option<String>>, Place) = match directory {
        Some(dir) => (operands, Place::Into(dir.as_deref().and_then(absolute))),
        None if operands.len() == 1 => (operands, Place::Into(cwd.map(Path::to_path_buf))),
        None => {
            let name = operands.pop().flatten();
            let resolved = name.as_deref().and_then(absolute);
            let into = operands.len() > 1
                || (!no_dereference && resolved.as_deref().is_some_and(Path::is_dir));
            match (into, name) {
                (true, _) => (operands, Place::Into(resolved)),
                (false, Some(_)) => (operands, Place::Named(resolved)),
                (false, None) => (operands, Place::Named(None)),
            }
        }
    };
    targets
        .into_iter()
        .enumerate()
        .map(|(k, target)| {
            let path = match &place {
                Place::Named(path) => path.clone(),
                Place::Into(dir) => {
                    let base = target
                        .as_deref()
                        .and_then(|t| Path::new(t).file_name().map(PathBuf::from));
                    dir.as_ref().zip(base).map(|(d, b)| d.join(b))
                }
            };
            // A relative target is read from the link's folder (with `-r`, `ln`
            // takes it from here and rewrites it, to the same place).
            let target = match target {
                Some(t) => {
                    let t = Path::new(&t);
                    if t.is_absolute() {
                        Some(normalize_lexically(t))
                    } else if relative {
                        cwd.map(|c| normalize_lexically(&c.join(t)))
                    } else {
                        path.as_deref()
                            .and_then(Path::parent)
                            .map(|folder| normalize_lexically(&folder.join(t)))
                    }
                }
                // `~`, `$HOME/x`: where the one resolver says.
                None => words.get(k).and_then(|w| match resolver.resolve(w, cwd) {
                    Resolved::Path {
                        path, glob: false, ..
                    } => Some(path),
                    _ => None,
                }),
            };
            Link { path, target }
        })
        .collect()
}

enum Place {
    /// The link is this path.
    Named(Option<PathBuf>),
    /// The links go into this folder, named like their targets.
    Into(Option<PathBuf>),
}

/// `word` rewritten to where it leads when its path, from `cwd`, goes through a
/// link in `links` (the target's path with the rest appended; a dynamic word when
/// the link or its target is only known at run time). `None` when it does not.
pub fn through(word: &Word, cwd: Option<&Path>, links: &[Link]) -> Option<Word> {
    if links.is_empty() {
        return None;
    }
    let value = word.value()?;
    if value.is_empty() || value.starts_with('-') {
        return None;
    }
    let path = Path::new(value);
    if !path.is_absolute() && cwd.is_none() {
        // From an unknown folder, a word named like a link may go through it.
        let first = path.components().next()?.as_os_str().to_os_string();
        let named = links.iter().any(|l| {
            l.path
                .as_deref()
                .is_none_or(|p| p.file_name() == Some(first.as_os_str()))
        });
        return named.then(|| dynamic(word));
    }
    let mut current = if path.is_absolute() {
        normalize_lexically(path)
    } else {
        normalize_lexically(&cwd?.join(path))
    };
    let mut moved = false;
    for _ in 0..MAX_HOPS {
        let hop = links
            .iter()
            .rev()
            .filter_map(|l| Some((l.path.as_deref()?, l)))
            .filter(|(p, _)| current.starts_with(p))
            .max_by_key(|(p, _)| p.components().count());
        let Some((at, link)) = hop else {
            break;
        };
        let Some(target) = &link.target else {
            return Some(dynamic(word));
        };
        let rest = current.strip_prefix(at).ok()?.to_path_buf();
        current = if rest.as_os_str().is_empty() {
            target.clone()
        } else {
            normalize_lexically(&target.join(rest))
        };
        moved = true;
        if current.starts_with(at) {
            // A link into itself: stop rather than loop.
            break;
        }
    }
    moved.then(|| {
        Word::new(
            vec![Part::Literal(current.to_string_lossy().into_owned())],
            word.span,
            false,
        )
    })
}

/// The word as a value only known at run time.
fn dynamic(word: &Word) -> Word {
    Word::new(
        vec![Part::Unknown(
            "a path through a link made by the command".into(),
        )],
        word.span,
        word.has_quotes,
    )
}

/// A link at `path` to `target`, both known (for tests).
#[cfg(test)]
pub(super) fn known(path: &str, target: &str) -> Link {
    Link {
        path: Some(PathBuf::from(path)),
        target: Some(PathBuf::from(target)),
    }
}

#[cfg(test)]
mod tests {
    use super::{Link, known as link, through};
    use crate::model::word::Word;
    use crate::verdict::Span;
    use std::path::{Path, PathBuf};

    fn value(word: &str, cwd: &str, links: &[Link]) -> Option<String> {
        through(
            &Word::literal(word, Span::default()),
            Some(Path::new(cwd)),
            links,
        )
        .map(|w| w.value().unwrap_or("<dynamic>").to_string())
    }

    #[test]
    fn paths_through_a_made_link_lead_to_its_target() {
        let links = [link("/p/up", "/")];
        assert_eq!(
            value("up/etc/passwd", "/p", &links).as_deref(),
            Some("/etc/passwd")
        );
        assert_eq!(value("up", "/p", &links).as_deref(), Some("/"));
        assert_eq!(value("upper/x", "/p", &links), None);
        assert_eq!(value("src/x", "/p", &links), None);
        let chain = [link("/p/a", "/p/b"), link("/p/b", "/etc")];
        assert_eq!(
            value("a/passwd", "/p", &chain).as_deref(),
            Some("/etc/passwd")
        );
        let unknown = [Link {
            path: Some(PathBuf::from("/p/l")),
            target: None,
        }];
        assert_eq!(value("l/x", "/p", &unknown).as_deref(), Some("<dynamic>"));
    }
}
