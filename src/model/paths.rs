//! The one path resolver: turns a word into the path bash would name with it
//! (`~`, `~+`, `~-`, `$HOME`, path variables from the environment given to the gate,
//! the tracked cwd, `.` and `..`), lexically; and every disk read the hot path makes
//! (`lstat`, `readlink`, `canonicalize`, one `readdir` for globs) lives in this file.
//! Where a resolved path lies (inside the root, allowed, sensitive) is the policy's
//! question, not this file's.

use super::word::{Part, Word, split_tilde};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// Variables whose value is a path, resolved from the environment given to the gate.
pub const PATH_VARIABLES: &[&str] = &[
    "HOME",
    "PWD",
    "OLDPWD",
    "TMPDIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
];

/// How a word came to name its path (decides the rule code of an escape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// An absolute path as written.
    Absolute,
    /// A relative path (its `..` may leave the root).
    Relative,
    /// `~`, `~user`, `$HOME`.
    Home,
    /// `$TMPDIR`, `$OLDPWD`, XDG variables...
    Variable,
}

/// A word resolved to a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A path, lexically normalised.
    Path {
        /// The path.
        path: PathBuf,
        /// How it was named.
        via: Via,
        /// The word had a glob: `path` is its static prefix.
        glob: bool,
    },
    /// Where the word points is only known at run time (a path variable with no
    /// value, `~user`, a relative path after `cd` to an unknown place).
    Unknown {
        /// Why, for the message.
        reason: String,
        /// How it was named.
        via: Via,
    },
    /// Not a path we can say anything about (a dynamic word with no path-bearing
    /// part, a URL...).
    NotAPath,
}

/// Resolves words to paths: knows the home directory and the path-bearing variables
/// of the environment the commands will see.
#[derive(Clone, Debug, Default)]
pub struct Resolver {
    home: Option<PathBuf>,
    env: BTreeMap<String, String>,
}

impl Resolver {
    /// A resolver with this home directory and these variable values.
    pub fn new(home: Option<PathBuf>, env: BTreeMap<String, String>) -> Resolver {
        Resolver { home, env }
    }

    /// The home directory, if known.
    pub fn home(&self) -> Option<PathBuf> {
        self.home.clone()
    }

    /// The home directory as text, if known and valid UTF-8 (borrowed: no copy).
    pub fn home_text(&self) -> Option<&str> {
        self.home.as_deref().and_then(Path::to_str)
    }

    /// The value of a path variable, from the environment given to the gate.
    fn variable(&self, name: &str, cwd: Option<&Path>) -> Option<PathBuf> {
        match name {
            "HOME" => self.home.clone(),
            "PWD" => cwd.map(Path::to_path_buf),
            _ => self.env.get(name).map(PathBuf::from),
        }
    }

    /// Resolves a word against `cwd` (`None`: unknown).
    pub fn resolve(&self, word: &Word, cwd: Option<&Path>) -> Resolved {
        let mut parts = word.parts.iter();
        let (base, via): (Option<PathBuf>, Via) = match word.parts.first() {
            Some(Part::Tilde(user)) => {
                parts.next();
                match user.as_str() {
                    "" => match &self.home {
                        Some(h) => (Some(h.clone()), Via::Home),
                        None => {
                            return Resolved::Unknown {
                                reason: "`~` with no home directory".into(),
                                via: Via::Home,
                            };
                        }
                    },
                    "+" => match cwd {
                        Some(c) => (Some(c.to_path_buf()), Via::Relative),
                        None => return unknown_cwd(),
                    },
                    "-" => match self.env.get("OLDPWD") {
                        Some(p) => (Some(PathBuf::from(p)), Via::Variable),
                        None => {
                            return Resolved::Unknown {
                                reason: "`~-` (the previous directory) is unknown".into(),
                                via: Via::Variable,
                            };
                        }
                    },
                    other => {
                        return Resolved::Unknown {
                            reason: format!("`~{other}` is another user's home directory"),
                            via: Via::Home,
                        };
                    }
                }
            }
            Some(Part::Variable { name, .. }) if PATH_VARIABLES.contains(&name.as_str()) => {
                parts.next();
                let via = if name == "HOME" {
                    Via::Home
                } else if name == "PWD" {
                    Via::Relative
                } else {
                    Via::Variable
                };
                match self.variable(name, cwd) {
                    Some(p) => (Some(p), via),
                    None => {
                        return Resolved::Unknown {
                            reason: format!("`${name}` has no known value"),
                            via,
                        };
                    }
                }
            }
            Some(Part::Expansion {
                name: Some(name), ..
            }) if PATH_VARIABLES.contains(&name.as_str()) => {
                return Resolved::Unknown {
                    reason: format!("an expansion of `${name}`"),
                    via: if name == "HOME" {
                        Via::Home
                    } else {
                        Via::Variable
                    },
                };
            }
            _ => (None, Via::Relative),
        };
        // The rest: static text up to the first dynamic part or glob character,
        // borrowed from the word when one part holds it all (most words).
        let mut rest: Cow<'_, str> = Cow::Borrowed("");
        fn push<'w>(rest: &mut Cow<'w, str>, text: &'w str) {
            match rest.is_empty() {
                true => *rest = Cow::Borrowed(text),
                false => rest.to_mut().push_str(text),
            }
        }
        let mut glob = false;
        for part in parts {
            match part {
                Part::Literal(t) => {
                    if let Some(cut) = t.find(['*', '?', '[']) {
                        push(&mut rest, &t[..cut]);
                        glob = true;
                        break;
                    }
                    push(&mut rest, t);
                }
                Part::Quoted(t) => push(&mut rest, t),
                _ => {
                    glob = true;
                    break;
                }
            }
        }
        if base.is_none() && rest.is_empty() {
            return Resolved::NotAPath;
        }
        if glob && base.is_none() && !rest.contains('/') {
            // `$X`, `*.rs`, `foo$(x)`: nothing static to judge.
            return Resolved::NotAPath;
        }
        let (path, via) = match base {
            // `$HOME/x` is a path below HOME; `$HOME-x` is the name `HOME` + `-x`.
            Some(b) if rest.is_empty() || rest.starts_with('/') => {
                (b.join(rest.trim_start_matches('/')), via)
            }
            Some(b) => {
                let mut joined = b.into_os_string();
                joined.push(rest.as_ref());
                (PathBuf::from(joined), via)
            }
            None if rest.starts_with('/') => (PathBuf::from(rest.as_ref()), Via::Absolute),
            None => match cwd {
                Some(c) => (join_sized(c, &rest), Via::Relative),
                None => return unknown_cwd(),
            },
        };
        // A glob prefix like `/etc/pa` names the folder it searches.
        let path = if glob && !rest.ends_with('/') && !rest.is_empty() {
            path.parent().map(Path::to_path_buf).unwrap_or(path)
        } else {
            path
        };
        Resolved::Path {
            path: into_normal_form(path),
            via,
            glob,
        }
    }

    /// The other values a word can take, for path checks: each `${X:-w}`-style
    /// expansion replaced by `w` in turn (nested ones too, up to a small depth), and,
    /// when the word starts with a variable the gate does not know followed by `/` or
    /// a known path variable, that variable taken as empty (`$PREFIX/etc` is `/etc`
    /// when `PREFIX` is unset, the shape of the classic `rm -rf "$DIR/"*`). Braces a
    /// default brings are expanded (`${X:-/etc}{1..3}`). Empty, without any work, for
    /// words with no variable.
    pub fn alternatives(&self, word: &Word, cwd: Option<&Path>) -> Vec<Word> {
        let mut out = Vec::new();
        let has_variable = |w: &Word| {
            w.parts
                .iter()
                .any(|p| matches!(p, Part::Variable { .. } | Part::Expansion { .. }))
        };
        if !has_variable(word) {
            return out;
        }
        let mut current = word.clone();
        for _ in 0..MAX_ALTERNATIVE_DEPTH {
            if !has_variable(&current) {
                break;
            }
            let Some(next) = self.alternative(&current, cwd) else {
                break;
            };
            match next.brace_expand() {
                Some(words) if next.has_brace_expansion() => {
                    out.extend(words.iter().map(|w| {
                        let mut word = Word::literal(w, next.span);
                        split_tilde(&mut word);
                        word
                    }));
                }
                _ => out.push(next.clone()),
            }
            current = next;
        }
        out
    }

    /// One step of [`Resolver::alternatives`].
    fn alternative(&self, word: &Word, cwd: Option<&Path>) -> Option<Word> {
        let replaced = word.parts.iter().position(|p| {
            matches!(
                p,
                Part::Expansion {
                    alternative: Some(_),
                    ..
                }
            )
        });
        if let Some(at) = replaced
            && let Part::Expansion {
                alternative: Some(alt),
                ..
            } = &word.parts[at]
        {
            let mut parts = word.parts[..at].to_vec();
            parts.extend(alt.iter().cloned());
            parts.extend(word.parts[at + 1..].iter().cloned());
            return Some(Word::new(parts, word.span, word.has_quotes));
        }
        let unknown_first = matches!(
            word.parts.first(),
            Some(Part::Variable { .. } | Part::Expansion { .. })
        );
        // What follows can name a place on its own: `/…`, or a known variable.
        let placed_next = match word.parts.get(1) {
            Some(Part::Literal(t) | Part::Quoted(t)) => t.starts_with('/'),
            Some(Part::Variable { name, .. }) => PATH_VARIABLES.contains(&name.as_str()),
            _ => false,
        };
        // The leading variable must be one the gate does not know (not `$HOME`).
        if unknown_first && placed_next && self.resolve(word, cwd) == Resolved::NotAPath {
            return Some(Word::new(
                word.parts[1..].to_vec(),
                word.span,
                word.has_quotes,
            ));
        }
        None
    }
}

/// The real path of `path` when a component below `base` (the root or an allowed
/// folder that contains it) is a symlink; `None` when none is. One `lstat` per
/// component, stopping at the first that does not exist; only a symlink costs a
/// `canonicalize`.
pub fn real_path(path: Formed<'_>, base: Formed<'_>) -> Option<PathBuf> {
    let rest = below(path, base)?;
    let (path, base) = (path.path(), base.path());
    // Grows to `path` at most: room for it up front.
    let mut current = PathBuf::with_capacity(path.as_os_str().len());
    current.push(base);
    let mut components = rest.components();
    while let Some(component) = components.next() {
        current.push(component);
        let meta = std::fs::symlink_metadata(&current).ok()?;
        if meta.file_type().is_symlink() {
            let mut real = follow_link(&current);
            let rest = components.as_path();
            if !rest.as_os_str().is_empty() {
                real.push(rest);
            }
            return (real != path).then_some(real);
        }
    }
    None
}

/// What is left of `path` below `base` (`Path::strip_prefix`). Two paths in
/// normal form need only a byte comparison with a boundary check; the component
/// comparison `strip_prefix` does costs about a thousand instructions a call,
/// more than the rest of [`real_path`] when nothing on the way is a link.
pub fn below<'p>(path: Formed<'p>, base: Formed<'_>) -> Option<&'p Path> {
    let plain = path.is_plain() && base.is_plain();
    let (path, base) = (path.path(), base.path());
    let (Some(p), Some(b)) = (path.to_str(), base.to_str()) else {
        return path.strip_prefix(base).ok();
    };
    if !plain {
        return path.strip_prefix(base).ok();
    }
    let rest = p.strip_prefix(b)?;
    if rest.is_empty() || b == "/" {
        // The root holds every path below it.
        return Some(Path::new(rest));
    }
    rest.strip_prefix('/').map(Path::new)
}

/// True when an unquoted part of `word` has a glob character (`*`, `?`, `[`).
pub fn is_globbed(word: &Word) -> bool {
    word.parts
        .iter()
        .any(|p| matches!(p, Part::Literal(t) if t.contains(['*', '?', '['])))
}

/// The glob pattern a word expands as, when it has an unquoted glob character:
/// quoted text without pattern characters is kept, an unknown value (which can be
/// anything, even empty or `-x`) becomes `*`. `None` when the word has no glob or
/// a part the pattern cannot stand for.
pub fn glob_text(word: &Word) -> Option<String> {
    // Most words have no glob: decide that before building anything.
    if !is_globbed(word) {
        return None;
    }
    let mut text = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) => text.push_str(t),
            Part::Quoted(t) if !t.contains(['*', '?', '[', ']', '\\']) => text.push_str(t),
            Part::Variable { .. } | Part::Expansion { .. } => text.push('*'),
            _ => return None,
        }
    }
    Some(text)
}

/// What a glob word inside the project can match, read from its folder.
#[derive(Debug, Default)]
pub struct GlobScan {
    /// Where the symlinks it can match lead, when that is outside their base.
    pub link_targets: Vec<PathBuf>,
    /// The paths it can match that the caller's test calls sensitive (`cat .e*`
    /// matching `.env`).
    pub sensitive: Vec<PathBuf>,
}

/// For a glob word (`*`, `src/*.rs`, `*/id_rsa`, `.e*`) whose folder lies in one of
/// `bases` (the root and allowed folders): where the symlinks it can match lead,
/// when that is outside the base, and which paths it can match are `sensitive`.
/// Reads the folder of the first component with a glob character, one `readdir`
/// without `stat`s (and, for a folder other than `cwd`, one `realpath`: a folder
/// reached through a link that leads outside counts as such a link); a name
/// matched there is joined with the rest of the word (`*/.env`: every folder's
/// `.env`). As bash globs, a name starting with `.`
/// matches only a pattern starting with `.`. A folder too large to scan, or with
/// too many such links, adds `/` (anywhere) to the targets. Empty for words with
/// dynamic parts or quoted glob characters, and for `~/…` and `$HOME/…` globs (not
/// in the working directory; the home rules judge them). `relaxed`: an earlier
/// command widened globbing (`shopt -s dotglob`...): the sensitive matches are read
/// with dot names matched by any pattern, letters in any case, and `**` standing
/// for no folder too.
pub fn glob_scan(
    word: &Word,
    cwd: Option<&Path>,
    bases: &[&Path],
    sensitive: &dyn Fn(&Path) -> bool,
    relaxed: bool,
) -> GlobScan {
    scan_glob(word, cwd, bases, sensitive, relaxed).unwrap_or_default()
}

fn scan_glob(
    word: &Word,
    cwd: Option<&Path>,
    bases: &[&Path],
    sensitive: &dyn Fn(&Path) -> bool,
    relaxed: bool,
) -> Option<GlobScan> {
    // `~/…` and `$HOME/…` globs are not in the working directory.
    match word.parts.first() {
        Some(Part::Tilde(_)) => return None,
        Some(Part::Variable { name, .. }) if PATH_VARIABLES.contains(&name.as_str()) => {
            return None;
        }
        _ => {}
    }
    let text = glob_text(word)?;
    let full = if text.starts_with('/') {
        PathBuf::from(&text)
    } else {
        cwd?.join(&text)
    };
    let base = base_of(&full, bases)?;
    let mut dir = PathBuf::new();
    let mut components = full.components();
    let pattern = loop {
        let component = components.next()?;
        let part = component.as_os_str().to_str()?;
        if part.contains(['*', '?', '[']) {
            break part;
        }
        dir.push(component);
    };
    let dir = normalize_lexically(&dir);
    if !dir.starts_with(base) {
        return None;
    }
    let rest = components.as_path();
    // The matcher is compiled only when a name gets past its cheap test.
    let mut glob = name_glob(pattern, relaxed);
    let mut found = GlobScan::default();
    // The folder itself may be reached through a link (`keys/*`, `keys` leading
    // to ~/.ssh): what the glob matches is where that leads.
    if Some(dir.as_path()) != cwd
        && let Ok(real) = std::fs::canonicalize(&dir)
        && !bases.iter().any(|b| real.starts_with(b))
    {
        let mut matched = real.join(pattern);
        if !rest.as_os_str().is_empty() {
            matched.push(rest);
        }
        found.link_targets.push(matched);
    }
    let mut budget = MAX_GLOB_SCAN;
    // `**/.env` with globstar: `**` is any number of folders, none included.
    let globstar = relaxed && pattern == "**" && !rest.as_os_str().is_empty();
    if globstar {
        let again = Path::new("**").join(rest);
        expand_rest(
            dir.clone(),
            &again,
            &mut budget,
            sensitive,
            relaxed,
            &mut found.sensitive,
        );
    }
    for (n, entry) in std::fs::read_dir(&dir).ok()?.enumerate() {
        if n >= MAX_GLOB_SCAN || found.link_targets.len() >= MAX_GLOB_TARGETS {
            found.link_targets.push(PathBuf::from("/"));
            break;
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        if !glob.matches(&name) {
            continue;
        }
        // A link is judged even behind a dot name (the shell's options are not all
        // known); a secret only where bash's rule lets the glob reach it.
        if entry.file_type().is_ok_and(|t| t.is_symlink()) {
            let mut real = follow_link(&entry.path());
            if !rest.as_os_str().is_empty() {
                real.push(rest);
            }
            if !real.starts_with(base) {
                found.link_targets.push(real);
            }
        }
        if !globstar && reaches(pattern, &name, relaxed) {
            expand_rest(
                entry.path(),
                rest,
                &mut budget,
                sensitive,
                relaxed,
                &mut found.sensitive,
            );
        }
    }
    Some(found)
}

/// The paths below `at` that `rest` (components, some with glob characters:
/// `.e*` of `s*/.e*`) matches and `sensitive` calls sensitive, added to `out`:
/// each glob component reads its folder, `budget` bounds the names read; a path
/// with no glob left counts when it exists, as bash keeps only matches.
/// `relaxed` as in [`glob_scan`].
fn expand_rest(
    mut at: PathBuf,
    rest: &Path,
    budget: &mut usize,
    sensitive: &dyn Fn(&Path) -> bool,
    relaxed: bool,
    out: &mut Vec<PathBuf>,
) {
    let mut components = rest.components();
    while let Some(component) = components.next() {
        let Some(part) = component.as_os_str().to_str() else {
            return;
        };
        if !part.contains(['*', '?', '[']) {
            at.push(component);
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&at) else {
            return;
        };
        let mut glob = name_glob(part, relaxed);
        let after = components.as_path();
        // With globstar, `**` is any number of folders: none, or one and `**` again.
        let globstar = relaxed && part == "**" && !after.as_os_str().is_empty();
        if globstar {
            expand_rest(at.clone(), after, budget, sensitive, relaxed, out);
        }
        let again: PathBuf = if globstar {
            Path::new("**").join(after)
        } else {
            PathBuf::new()
        };
        for entry in entries.flatten() {
            if *budget == 0 || out.len() >= MAX_GLOB_TARGETS {
                return;
            }
            *budget -= 1;
            let name = entry.file_name();
            if globstar && entry.file_type().is_ok_and(|t| t.is_dir()) {
                expand_rest(entry.path(), &again, budget, sensitive, relaxed, out);
            } else if reaches(part, &name, relaxed) && glob.matches(&name) {
                expand_rest(entry.path(), after, budget, sensitive, relaxed, out);
            }
        }
        return;
    }
    if out.len() < MAX_GLOB_TARGETS && sensitive(&at) && std::fs::symlink_metadata(&at).is_ok() {
        out.push(at);
    }
}

/// Bash's rule for names starting with `.`: only a pattern starting with `.`
/// reaches them, unless globbing was widened (`relaxed`: `dotglob`, `GLOBIGNORE`).
fn reaches(pattern: &str, name: &std::ffi::OsStr, relaxed: bool) -> bool {
    relaxed || pattern.starts_with('.') || !name.as_encoded_bytes().starts_with(b".")
}

/// The matcher of one glob component; any case when globbing was widened.
fn name_glob(pattern: &str, relaxed: bool) -> super::name_glob::NameGlob<'_> {
    if relaxed {
        super::name_glob::NameGlob::any_case(pattern)
    } else {
        super::name_glob::NameGlob::new(pattern)
    }
}

/// The longest of `bases` that `path` lies in.
fn base_of<'b>(path: &Path, bases: &[&'b Path]) -> Option<&'b Path> {
    bases
        .iter()
        .copied()
        .filter(|b| path.starts_with(b))
        .max_by_key(|b| b.as_os_str().len())
}

/// How many `${X:-w}` alternatives inside alternatives a path check follows.
const MAX_ALTERNATIVE_DEPTH: usize = 8;

/// Most folder entries a glob's symlink check reads.
const MAX_GLOB_SCAN: usize = 10_000;
/// Most escaping symlinks one glob reports before it counts as leading anywhere.
const MAX_GLOB_TARGETS: usize = 16;

/// Where a symlink leads, even when its target does not exist yet (a dangling link
/// is still a way out: writing through it creates the target).
fn follow_link(link: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(link) {
        return real;
    }
    let mut current = link.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        let parent = current.parent().map(Path::to_path_buf).unwrap_or_default();
        current = normalize_lexically(&parent.join(target));
    }
    // Resolve what exists of the final path; keep the rest as written.
    let mut existing = current.as_path();
    let mut rest = Vec::new();
    while let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) {
        rest.push(name.to_os_string());
        existing = parent;
        if let Ok(mut real) = std::fs::canonicalize(existing) {
            real.extend(rest.iter().rev());
            return real;
        }
    }
    current
}

fn unknown_cwd() -> Resolved {
    Resolved::Unknown {
        reason: "a relative path after `cd` to a directory that is only known at run time".into(),
        via: Via::Relative,
    }
}

pub fn canonical_or_lexical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalize_lexically(path))
}

/// `base.join(rest)` in one allocation: `join` copies `base` at its exact length and
/// grows it again for `rest`.
fn join_sized(base: &Path, rest: &str) -> PathBuf {
    let mut out = PathBuf::with_capacity(base.as_os_str().len() + 1 + rest.len());
    out.push(base);
    out.push(rest);
    out
}

/// A path and whether it is in normal form ([`is_plain`]), decided once: each
/// question asked of one path (where it lies, is it sensitive, where do its links
/// lead) needs the form, and the test is a pass over its bytes. Only
/// [`Formed::new`] decides the form, so a caller cannot pass a wrong one (a path
/// with `..` taken as normal would be compared byte for byte and could seem to
/// lie inside the project).
#[derive(Clone, Copy, Debug)]
pub struct Formed<'p> {
    path: &'p Path,
    plain: bool,
}

impl<'p> Formed<'p> {
    /// `path` with its form decided.
    pub fn new(path: &'p Path) -> Formed<'p> {
        Formed {
            path,
            plain: is_plain(path),
        }
    }

    /// A path whose form was decided by [`is_plain`] when it was stored (the
    /// policy's folders): checked again in debug builds.
    pub(crate) fn decided(path: &'p Path, plain: bool) -> Formed<'p> {
        debug_assert_eq!(plain, is_plain(path), "{path:?}");
        Formed { path, plain }
    }

    /// The path.
    pub fn path(&self) -> &'p Path {
        self.path
    }

    /// True when the path is in normal form ([`is_plain`]).
    pub fn is_plain(&self) -> bool {
        self.plain
    }
}

impl<'p> From<&'p Path> for Formed<'p> {
    fn from(path: &'p Path) -> Formed<'p> {
        Formed::new(path)
    }
}

impl<'p> From<&'p PathBuf> for Formed<'p> {
    fn from(path: &'p PathBuf) -> Formed<'p> {
        Formed::new(path)
    }
}

/// True when `path` is already in normal form: absolute, each component between
/// single slashes non-empty and neither `.` nor `..`, no trailing slash. Two such
/// paths are equal, or one under the other, exactly as their bytes are.
pub fn is_plain(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.first() != Some(&b'/') {
        return false;
    }
    if bytes.len() == 1 {
        return true;
    }
    // Each component, between slashes, must be non-empty and not `.` or `..`.
    bytes[1..]
        .split(|&b| b == b'/')
        .all(|c| !c.is_empty() && c != b"." && c != b"..")
}

/// Removes `.` and resolves `..` without touching the disk.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    // Most paths are normal already: a copy, without walking the components.
    if is_plain(path) {
        return path.to_path_buf();
    }
    normalize_components(path)
}

/// `path` in normal form ([`normalize_lexically`]), reusing its buffer: a normal
/// path is kept as it is, and one whose only difference is a trailing slash
/// (`build/`, the common case) loses it without the walk over its components.
fn into_normal_form(path: PathBuf) -> PathBuf {
    if is_plain(&path) {
        return path;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let kept = bytes.len() - bytes.iter().rev().take_while(|&&b| b == b'/').count();
    if kept == 0 || kept == bytes.len() {
        return normalize_components(&path);
    }
    match path.into_os_string().into_string() {
        Ok(mut text) => {
            // Only `/` bytes are cut: the end stays on a character boundary.
            text.truncate(kept);
            let trimmed = PathBuf::from(text);
            if is_plain(&trimmed) {
                trimmed
            } else {
                normalize_components(&trimmed)
            }
        }
        Err(text) => normalize_components(Path::new(&text)),
    }
}

/// [`normalize_lexically`] component by component.
fn normalize_components(path: &Path) -> PathBuf {
    // The result is never longer than the path (a lone `/` for an empty one): one
    // allocation instead of one per growth step.
    let mut out = PathBuf::with_capacity(path.as_os_str().len() + 1);
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("/");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push("/");
    }
    out
}

/// The path a `file:` URI names (`file:/x`, `file:///x`, `file://localhost/x`,
/// `%2e%2e` decoded), as SQLite, gio and browsers open it; any other text as it is.
pub fn file_uri_path(text: &str) -> std::borrow::Cow<'_, str> {
    let Some(rest) = text
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("file:"))
        .map(|_| &text[5..])
    else {
        return text.into();
    };
    let rest = match rest.strip_prefix("//") {
        Some(authority) => match authority.find('/') {
            Some(at) => &authority[at..],
            None => "",
        },
        None => rest,
    };
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    percent_decoded(path).into()
}

/// `text` with each `%XX` escape replaced by its byte (an escape that is not
/// two hex digits stays as written).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_uri_names_its_path() {
        use super::file_uri_path;
        assert_eq!(
            file_uri_path("file:///root/.ssh/id_rsa"),
            "/root/.ssh/id_rsa"
        );
        assert_eq!(file_uri_path("file://localhost/etc/x"), "/etc/x");
        assert_eq!(file_uri_path("FILE:/tmp/x.db?mode=ro"), "/tmp/x.db");
        assert_eq!(file_uri_path("file:%2e%2e/x"), "../x");
        assert_eq!(file_uri_path("file:a%zzb"), "a%zzb");
        assert_eq!(file_uri_path("src/main.rs"), "src/main.rs");
    }

    use super::{
        Formed, below, into_normal_form, is_plain, normalize_components, normalize_lexically,
    };
    use std::path::Path;

    /// The byte test for what lies below a folder gives what the component
    /// comparison gives, for paths in normal form and not.
    #[test]
    fn below_is_strip_prefix() {
        let paths = [
            "/", "/r", "/r/a", "/r/a/b", "/ra", "/ra/b", "/r//a", "/r/./a", "/r/a/", "/x/r/a",
            "r/a", "",
        ];
        let bases = ["/", "/r", "/r/a", "/ra", "/r/", "r"];
        for p in paths {
            for b in bases {
                let (p, b) = (Path::new(p), Path::new(b));
                assert_eq!(
                    below(Formed::new(p), Formed::new(b)),
                    p.strip_prefix(b).ok(),
                    "{p:?} below {b:?}"
                );
            }
        }
    }

    /// The byte test reads a path as its components do: absolute, and no
    /// component empty, `.` or `..` (names of three dots or with dots inside are
    /// names).
    #[test]
    fn plainness_is_read_from_the_components() {
        let by_components = |p: &str| {
            p.starts_with('/')
                && (p == "/"
                    || p[1..]
                        .split('/')
                        .all(|c| !c.is_empty() && c != "." && c != ".."))
        };
        let paths = [
            "/",
            "//",
            "/a",
            "/a/",
            "/.",
            "/..",
            "/...",
            "/.a",
            "/a.",
            "/a/.",
            "/a/..",
            "/a/...",
            "/a/.b/c",
            "/a/b..",
            "/a//b",
            "/a/./b",
            "/a/../b",
            "/./a",
            "/../a",
            "a",
            "",
            ".",
            "./a",
            "/a/b/c.rs",
            "/.../x",
            "/a/.../.b/..c",
        ];
        for p in paths {
            assert_eq!(is_plain(Path::new(p)), by_components(p), "{p:?}");
        }
    }

    /// A path whose only flaw is a trailing slash loses it without the walk over its
    /// components, and gets what the walk gives; so does every other form.
    #[test]
    fn the_normal_form_without_a_copy_is_the_component_walk() {
        let paths = [
            "/r/build/",
            "/r/build//",
            "/r/a/../b/",
            "/r/./x/",
            "/",
            "//",
            "///",
            "/r",
            "/r/a//b/",
            "/r/..//",
            "/ü/ß/",
            "/r/b/.",
        ];
        for path in paths {
            let walked = normalize_components(Path::new(path));
            assert_eq!(
                into_normal_form(std::path::PathBuf::from(path)),
                walked,
                "{path}"
            );
            assert!(is_plain(&walked), "{path}");
        }
    }

    /// A plain path is its own normal form, so `normalize_lexically` may copy it
    /// without walking its components; other forms are walked.
    #[test]
    fn plain_paths_are_their_own_normal_form() {
        let paths = [
            "/",
            "/a",
            "/a/b",
            "/a/b/c.rs",
            "/.a/b..",
            "/a//b",
            "/a/./b",
            "/a/b/",
            "/a/..",
            "/..",
            "a/b",
            "",
            ".",
            "./a",
            "../a",
            "/a/b/../c",
        ];
        for p in paths {
            let p = Path::new(p);
            let walked = normalize_components(p);
            if is_plain(p) {
                assert_eq!(walked, p, "{p:?}");
            }
            assert_eq!(normalize_lexically(p), walked, "{p:?}");
        }
    }
}
