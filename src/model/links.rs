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
    if !may_lead_through(value, cwd, links) {
        return None;
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
        // Two links made at the same place: which one is there depends on whether
        // the second replaced the first (`-f`) or failed, and on a job's timing.
        if links
            .iter()
            .any(|l| l.path.as_deref() == Some(at) && l.target != link.target)
        {
            return Some(dynamic(word));
        }
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

/// False when `value`, from `cwd`, cannot reach a link of `links` (most words of
/// most commands): a path reaches a link's place only if the link's last name is
/// one of its components, and each component of the path is one of the word or
/// of the folder it starts from. A cheap test before the lexical walk.
fn may_lead_through(value: &str, cwd: Option<&Path>, links: &[Link]) -> bool {
    let cwd = cwd.and_then(Path::to_str).unwrap_or("");
    links.iter().any(|l| {
        match l
            .path
            .as_deref()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
        {
            Some(name) => value.contains(name) || cwd.contains(name),
            // The root, or a link whose place is only known at run time.
            None => true,
        }
    })
}

/// [`through`] for a name whose last component is replaced, not followed (`ln
/// -sfn T NAME`: a link already at NAME is replaced by the new one): only the
/// folders on the way go through links.
pub fn through_folders(word: &Word, cwd: Option<&Path>, links: &[Link]) -> Option<Word> {
    if links.is_empty() {
        return None;
    }
    let value = word.value()?.trim_end_matches('/');
    let (folder, last) = match value.rsplit_once('/') {
        Some(("", last)) => ("/", last),
        Some(split) => split,
        None => (".", value),
    };
    if last.is_empty() || last == "." || last == ".." {
        return through(word, cwd, links);
    }
    let moved = through(&Word::literal(folder, word.span), cwd, links)?;
    Some(match moved.value() {
        Some(folder) => Word::literal(&Path::new(folder).join(last).to_string_lossy(), word.span),
        None => dynamic(word),
    })
}

/// The index, in `words`, of the name `ln -n`/`ln -T` replaces: its last operand,
/// when the words are an `ln` making symbolic links into no folder. `None` for
/// any other command.
pub fn replaced_name(words: &[Word], program: Option<usize>) -> Option<usize> {
    let at = program?;
    let name = words.get(at)?.value()?;
    let entry = catalogue::lookup(super::command::basename(name)).filter(|e| e.name == "ln")?;
    let args = &words[at + 1..];
    let values: Values = args.iter().map(Word::value).collect();
    if !catalogue::usage(entry, &values).has(Fact::NoTargetDirectory) {
        return None;
    }
    let roles = catalogue::classify(entry, &values);
    let last = roles
        .iter()
        .filter(|a| !a.option_value)
        .map(|a| a.index)
        .max()?;
    let operands = roles.iter().filter(|a| !a.option_value).count();
    let into_folder = roles.iter().any(|a| a.option_value && a.role.writes());
    (operands >= 2 && !into_folder).then_some(at + 1 + last)
}

/// Leads every word of a command (`words`, its program at `program`) and its
/// redirect `targets` through `links`, from `cwd`: each path through a link is
/// rewritten to where it leads; the name `ln -n` replaces only through its
/// folders. True when a word changed.
pub fn lead_through<'w>(
    words: &'w mut [Word],
    program: Option<usize>,
    targets: impl Iterator<Item = &'w mut Word>,
    cwd: Option<&Path>,
    links: &[Link],
) -> bool {
    if links.is_empty() {
        return false;
    }
    let replaced = replaced_name(words, program);
    let mut changed = false;
    for (k, word) in words.iter_mut().chain(targets).enumerate() {
        let moved = if Some(k) == replaced {
            through_folders(word, cwd, links)
        } else {
            through(word, cwd, links)
        };
        if let Some(moved) = moved {
            *word = moved;
            changed = true;
        }
    }
    changed
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
    use super::{Link, known as link, lead_through, through, through_folders};
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

    fn words(text: &str) -> Vec<Word> {
        text.split(' ')
            .map(|w| Word::literal(w, Span::default()))
            .collect()
    }

    fn led(text: &str, cwd: &str, links: &[Link]) -> Vec<String> {
        let mut words = words(text);
        lead_through(
            &mut words,
            Some(0),
            std::iter::empty(),
            Some(Path::new(cwd)),
            links,
        );
        words
            .iter()
            .map(|w| w.value().unwrap_or("<dynamic>").to_string())
            .collect()
    }

    #[test]
    fn the_name_ln_n_replaces_is_not_followed_through_the_link_there() {
        let links = [link("/p/latest", "/p/out/1")];
        // `ln -sfn out/2 latest` replaces the link: `latest` stays.
        assert_eq!(
            led("ln -sfn out/2 latest", "/p", &links),
            ["ln", "-sfn", "out/2", "latest"]
        );
        // Without `-n` the name is a folder the new link goes into.
        assert_eq!(
            led("ln -sf out/2 latest", "/p", &links),
            ["ln", "-sf", "out/2", "/p/out/1"]
        );
        // The folders on the way to the name are still followed.
        let home = [link("/p/l", "/home/u")];
        assert_eq!(
            led("ln -sfn x l/.bashrc", "/p", &home),
            ["ln", "-sfn", "x", "/home/u/.bashrc"]
        );
        assert_eq!(
            through_folders(
                &Word::literal("l", Span::default()),
                Some(Path::new("/p")),
                &home
            ),
            None
        );
    }

    #[test]
    fn two_links_at_one_place_make_a_path_through_it_unknown() {
        let links = [link("/p/l", "/p/src"), link("/p/l", "/home/u")];
        assert_eq!(
            value("l/.ssh/id_rsa", "/p", &links).as_deref(),
            Some("<dynamic>")
        );
        let same = [link("/p/l", "/p/src"), link("/p/l", "/p/src")];
        assert_eq!(value("l/x", "/p", &same).as_deref(), Some("/p/src/x"));
    }

    #[test]
    fn the_quick_test_never_skips_a_word_that_goes_through_a_link() {
        let links = [
            link("/p/up", "/"),
            link("/p/a/b", "/etc"),
            link("/p/src/l", "/home/u"),
        ];
        for cwd in ["/p", "/p/a", "/p/a/b", "/p/src", "/q", "/p/src/l/x"] {
            for word in [
                "up",
                "up/x",
                "a/b/passwd",
                "b/passwd",
                "../b/x",
                "l/.ssh",
                "../up/x",
                "x",
                "src/lx",
                "..",
                ".",
                "../..",
                "/p/up/etc",
                "upx",
                "/p/src/l",
            ] {
                let path = Path::new(cwd).join(word);
                let path = crate::model::paths::normalize_lexically(&path);
                let reaches = links
                    .iter()
                    .any(|l| l.path.as_deref().is_some_and(|p| path.starts_with(p)));
                assert_eq!(
                    value(word, cwd, &links).is_some(),
                    reaches,
                    "{word} from {cwd}"
                );
            }
        }
    }
}
