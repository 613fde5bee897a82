//! Where a resolved path lies: inside the project root, in an allowed or read-only
//! folder, on the safe list, sensitive, or outside. Resolution itself is the model's
//! ([`crate::model::paths::Resolver`]); this file compiles the policy's lists once.

use super::Policy;
use super::defaults::{
    AGENT_SETTINGS, ENV_TEMPLATES, SAFE_PATHS, SENSITIVE_IN_HOME, USER_AGENT_SETTINGS,
};
use crate::model::command::Cwd;
use crate::model::paths::{self as resolve, Formed, Resolved, Resolver, canonical_or_lexical};
use crate::model::word::Word;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::{Path, PathBuf};

/// Where a path lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Inside the project root.
    Inside,
    /// In an allowed (read-write) folder.
    Allowed,
    /// In a read-only folder.
    ReadOnly,
    /// On the safe list (`/dev/null`...).
    Safe,
    /// Anywhere else.
    Outside,
}

/// The compiled path policy.
#[derive(Clone, Debug)]
pub struct PathJudge {
    root: PathBuf,
    resolver: Resolver,
    root_prefix: Prefix,
    allowed: Vec<PathBuf>,
    allowed_prefixes: Vec<Prefix>,
    read_only: Vec<Prefix>,
    config_dir: Option<Prefix>,
    sensitive_prefixes: Vec<Prefix>,
    /// The sensitive prefixes that can hold a path inside the root: those below it,
    /// and any not in normal form (most paths a command names are inside, and
    /// most sensitive folders are not).
    sensitive_in_root: Vec<Prefix>,
    /// True when the root itself lies in a sensitive folder.
    root_sensitive: bool,
    sensitive_globs: GlobSet,
    write_protected: Vec<Prefix>,
}

impl PathJudge {
    /// Compiles the path policy. Invalid user globs are skipped here (config loading
    /// reports them).
    pub fn new(policy: &Policy) -> PathJudge {
        let home = policy.home.clone();
        let expand = |p: &str| -> PathBuf {
            match (p.strip_prefix('~'), &home) {
                (Some(rest), Some(h)) if rest.is_empty() || rest.starts_with('/') => {
                    h.join(rest.trim_start_matches('/'))
                }
                _ => PathBuf::from(p),
            }
        };
        let mut sensitive_prefixes: Vec<PathBuf> = match &home {
            Some(h) => SENSITIVE_IN_HOME.iter().map(|s| h.join(s)).collect(),
            None => Vec::new(),
        };
        let mut globs = GlobSetBuilder::new();
        for pattern in &policy.sensitive_paths {
            let expanded = expand(pattern);
            let text = expanded.to_string_lossy();
            if text.contains(['*', '?', '[', '{']) {
                if let Ok(glob) = Glob::new(&text) {
                    globs.add(glob);
                }
            } else {
                sensitive_prefixes.push(canonical_or_lexical(&expanded));
            }
        }
        let config_dir = dirs::config_dir().map(|d| d.join("bashgate"));
        let mut write_protected = vec![policy.root.join("bashgate.toml")];
        if let Some(dir) = &config_dir {
            write_protected.push(dir.clone());
        }
        write_protected.extend(AGENT_SETTINGS.iter().map(|f| policy.root.join(f)));
        if let Some(h) = &home {
            let in_home = AGENT_SETTINGS.iter().chain(USER_AGENT_SETTINGS);
            write_protected.extend(in_home.map(|f| h.join(f)));
        }
        let canon = |paths: &[PathBuf]| -> Vec<PathBuf> {
            paths.iter().map(|p| canonical_or_lexical(p)).collect()
        };
        let prefixes =
            |paths: Vec<PathBuf>| -> Vec<Prefix> { paths.into_iter().map(Prefix::new).collect() };
        let root_prefix = Prefix::new(policy.root.clone());
        let sensitive_prefixes = prefixes(sensitive_prefixes);
        let sensitive_in_root = sensitive_prefixes
            .iter()
            .filter(|p| !(p.plain && root_prefix.plain) || root_prefix.holds(&p.path, p.plain))
            .cloned()
            .collect();
        let root_sensitive = sensitive_prefixes
            .iter()
            .any(|p| p.holds(&root_prefix.path, root_prefix.plain));
        PathJudge {
            root: policy.root.clone(),
            root_prefix,
            sensitive_in_root,
            root_sensitive,
            resolver: policy.resolver(),
            allowed_prefixes: prefixes(canon(&policy.allowed_paths)),
            allowed: canon(&policy.allowed_paths),
            read_only: prefixes(canon(&policy.read_only_paths)),
            config_dir: config_dir.map(Prefix::new),
            sensitive_prefixes,
            sensitive_globs: globs.build().unwrap_or_else(|_| GlobSet::empty()),
            write_protected: prefixes(write_protected),
        }
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What is left of `path` below the project root (`Path::strip_prefix`), `None`
    /// when it is not inside: a byte comparison when both are in normal form.
    pub fn below_root<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        let root = Formed::decided(&self.root_prefix.path, self.root_prefix.plain);
        resolve::below(Formed::new(path), root)
    }

    /// The directory a command runs in, `None` when unknown.
    pub fn cwd_of<'c>(&self, cwd: &'c Cwd, start: &'c Path) -> Option<&'c Path> {
        match cwd {
            Cwd::Start => Some(start),
            Cwd::Known(p) => Some(p),
            Cwd::Unknown => None,
        }
    }

    /// The resolver every path check uses (the walker's `cd` uses the same one).
    pub fn resolver(&self) -> &Resolver {
        &self.resolver
    }

    /// Resolves a word against `cwd` (`None`: unknown).
    pub fn resolve(&self, word: &Word, cwd: Option<&Path>) -> Resolved {
        self.resolver.resolve(word, cwd)
    }

    /// The other values a word can take (see [`Resolver::alternatives`]).
    pub fn alternatives(&self, word: &Word, cwd: Option<&Path>) -> Vec<Word> {
        self.resolver.alternatives(word, cwd)
    }

    /// Where a (normalised) path lies. A caller asking several questions of one
    /// path gives it as a [`Formed`], its normal form decided once.
    pub fn place<'p>(&self, path: impl Into<Formed<'p>>) -> Place {
        let path = path.into();
        let (path, plain) = (path.path(), path.is_plain());
        if self.root_prefix.holds(path, plain) {
            return Place::Inside;
        }
        // Two plain paths are the same path exactly when their bytes are (every safe
        // path is plain: a test checks), which costs less than comparing components.
        let safe = if plain {
            let bytes = path.as_os_str().as_encoded_bytes();
            SAFE_PATHS.iter().any(|s| bytes == s.as_bytes())
        } else {
            SAFE_PATHS.iter().any(|s| path == Path::new(s))
        };
        if safe {
            return Place::Safe;
        }
        if self.allowed_prefixes.iter().any(|a| a.holds(path, plain)) {
            return Place::Allowed;
        }
        if self.read_only.iter().any(|a| a.holds(path, plain)) {
            return Place::ReadOnly;
        }
        if self
            .config_dir
            .as_ref()
            .is_some_and(|d| d.holds(path, plain))
        {
            return Place::ReadOnly;
        }
        Place::Outside
    }

    /// True when the path is on the sensitive list (`~/.ssh`, `.env`...).
    pub fn is_sensitive<'p>(&self, path: impl Into<Formed<'p>>) -> bool {
        let path = path.into();
        let (path, plain) = (path.path(), path.is_plain());
        // A folder that holds a path inside the root lies inside the root or holds
        // the root: only those are compared (both forms plain: a byte test).
        let prefixes = if plain && self.root_prefix.plain && self.root_prefix.holds(path, plain) {
            if self.root_sensitive {
                return true;
            }
            &self.sensitive_in_root
        } else {
            &self.sensitive_prefixes
        };
        if prefixes.iter().any(|p| p.holds(path, plain)) {
            return true;
        }
        // A path in normal form ends with its file name (`Path::file_name` parses
        // the path into components).
        let file_name = if plain {
            let bytes = path.as_os_str().as_encoded_bytes();
            let at = bytes
                .iter()
                .rposition(|&b| b == b'/')
                .map_or(0, |at| at + 1);
            std::str::from_utf8(&bytes[at..]).ok()
        } else {
            path.file_name().and_then(|n| n.to_str())
        };
        let env_file = file_name.is_some_and(|name| {
            (name == ".env" || name.starts_with(".env.")) && !ENV_TEMPLATES.contains(&name)
        });
        env_file || (!self.sensitive_globs.is_empty() && self.sensitive_globs.is_match(path))
    }

    /// True for the gate's own policy files and the agents' settings files:
    /// writing them would loosen the gate.
    pub fn is_write_protected<'p>(&self, path: impl Into<Formed<'p>>) -> bool {
        let path = path.into();
        let (path, plain) = (path.path(), path.is_plain());
        self.write_protected.iter().any(|p| p.holds(path, plain))
    }

    /// The write-protected file or folder that deleting `path` would take with it
    /// (`rm -rf .claude` takes `.claude/settings.json`), if any.
    pub fn protected_within(&self, path: &Path) -> Option<&Path> {
        let path_plain = plain(path);
        self.write_protected
            .iter()
            .find(|p| under(&p.path, p.plain, path, path_plain))
            .map(|p| p.path.as_path())
    }

    /// Follows symlinks in the longest existing prefix of `path` (inside the root or
    /// an allowed folder); `None` when no component below that folder is a symlink.
    pub fn real_path<'p>(&self, path: impl Into<Formed<'p>>) -> Option<PathBuf> {
        let path = path.into();
        let base = self.base_of(path.path(), path.is_plain())?;
        resolve::real_path(path, Formed::decided(&base.path, base.plain))
    }

    /// What a glob word inside the root or an allowed folder can match there:
    /// the symlinks that lead outside, and the sensitive paths (see
    /// [`resolve::glob_scan`]; `relaxed` after a command widened globbing). Empty
    /// for a word without a glob.
    pub fn glob_scan(&self, word: &Word, cwd: Option<&Path>, relaxed: bool) -> resolve::GlobScan {
        if !resolve::is_globbed(word) {
            return resolve::GlobScan::default();
        }
        let bases: Vec<&Path> = std::iter::once(self.root.as_path())
            .chain(self.allowed.iter().map(PathBuf::as_path))
            .collect();
        resolve::glob_scan(word, cwd, &bases, &|path| self.is_sensitive(path), relaxed)
    }

    /// The root or allowed folder `path` lies in (the longest). `path_plain`:
    /// `plain(path)`.
    fn base_of(&self, path: &Path, path_plain: bool) -> Option<&Prefix> {
        std::iter::once(&self.root_prefix)
            .chain(self.allowed_prefixes.iter())
            .filter(|b| b.holds(path, path_plain))
            .max_by_key(|b| b.path.as_os_str().len())
    }
}

/// True when `path` is in normal form: absolute, with no empty, `.` or `..`
/// component and no trailing `/` (what lexical normalisation and `canonicalize`
/// give). One pass over the bytes.
fn plain(path: &Path) -> bool {
    resolve::is_plain(path)
}

/// A folder the policy names, with its normal form decided once.
#[derive(Clone, Debug)]
struct Prefix {
    path: PathBuf,
    plain: bool,
}

impl Prefix {
    fn new(path: PathBuf) -> Prefix {
        Prefix {
            plain: plain(&path),
            path,
        }
    }

    /// Whether `path` is this folder or lies below it, component by component. For
    /// two paths in normal form that is a byte-prefix test with a boundary check
    /// (`Path::starts_with` re-parses both into components on every call); anything
    /// else compares components. `path_plain` is `plain(path)`.
    fn holds(&self, path: &Path, path_plain: bool) -> bool {
        under(path, path_plain, &self.path, self.plain)
    }
}

/// Whether `path` is `folder` or lies below it ([`Prefix::holds`]; `*_plain` say
/// whether each is in normal form, when a byte test is enough).
fn under(path: &Path, path_plain: bool, folder: &Path, folder_plain: bool) -> bool {
    if !(path_plain && folder_plain) {
        return path.starts_with(folder);
    }
    let (p, q) = (
        path.as_os_str().as_encoded_bytes(),
        folder.as_os_str().as_encoded_bytes(),
    );
    p.starts_with(q) && (p.len() == q.len() || q == b"/" || p[q.len()] == b'/')
}

#[cfg(test)]
mod tests {
    use super::{Prefix, plain};
    use std::path::Path;

    /// The narrowed list for paths inside the root decides as the whole list: a
    /// sensitive folder inside the root, a root inside a sensitive folder, and a
    /// folder beside the root.
    #[test]
    fn paths_inside_the_root_are_judged_as_by_every_prefix() {
        use super::PathJudge;
        use crate::policy::Policy;
        let judge = |root: &str, sensitive: &[&str]| {
            let mut policy = Policy::new(root);
            policy.home = Some("/home/u".into());
            policy.sensitive_paths = sensitive.iter().map(|s| s.to_string()).collect();
            PathJudge::new(&policy)
        };
        let inside = judge("/work/p", &["/work/p/secrets", "/work/other"]);
        assert!(inside.is_sensitive(Path::new("/work/p/secrets")));
        assert!(inside.is_sensitive(Path::new("/work/p/secrets/key")));
        assert!(!inside.is_sensitive(Path::new("/work/p/secretsx")));
        assert!(!inside.is_sensitive(Path::new("/work/p/src/main.rs")));
        assert!(inside.is_sensitive(Path::new("/work/other/x")));
        assert!(inside.is_sensitive(Path::new("/home/u/.ssh/id_rsa")));
        // Not in normal form: compared with every prefix, component by component.
        assert!(inside.is_sensitive(Path::new("/work/p/./secrets/key")));
        let under_home_secret = judge("/home/u/.ssh/work", &[]);
        assert!(under_home_secret.is_sensitive(Path::new("/home/u/.ssh/work/notes")));
        assert!(under_home_secret.is_sensitive(Path::new("/home/u/.ssh/work")));
        let beside = judge("/home/u/proj", &[]);
        assert!(!beside.is_sensitive(Path::new("/home/u/proj/.sshx")));
        assert!(beside.is_sensitive(Path::new("/home/u/proj/.env")));
        assert!(!beside.is_sensitive(Path::new("/home/u/proj/src")));
    }

    /// A `.env` file is sensitive whether the path's file name is read from its
    /// bytes (normal form) or from its components (any other form), and a
    /// template is not; a folder named `.env` holds what any folder does.
    #[test]
    fn env_files_are_found_in_either_form() {
        use super::PathJudge;
        use crate::policy::Policy;
        let judge = PathJudge::new(&Policy::new("/w/p"));
        for (path, sensitive) in [
            ("/w/p/.env", true),
            ("/w/p/./.env", true),
            ("/w/p/src/.env.local", true),
            ("/w/p/src//.env.production", true),
            ("/w/p/.env.example", false),
            ("/w/p/./.env.example", false),
            ("/w/p/.envrc", false),
            ("/w/p/x.env", false),
            ("/w/p/.env/", true),
        ] {
            let p = Path::new(path);
            assert_eq!(judge.is_sensitive(p), sensitive, "{path}");
            let formed = crate::model::paths::Formed::new(p);
            assert_eq!(judge.is_sensitive(formed), sensitive, "{path}");
        }
    }

    /// The safe paths are plain, so `place` may compare them byte for byte.
    #[test]
    fn safe_paths_are_plain() {
        for s in super::SAFE_PATHS {
            assert!(plain(Path::new(s)), "{s}");
        }
    }

    /// The fast prefix test agrees with `Path::starts_with` on normal and odd forms.
    #[test]
    fn under_agrees_with_components() {
        let paths = [
            "/",
            "/a",
            "/a/b",
            "/a/bc",
            "/ab",
            "/a/b/c",
            "/a//b",
            "/a/./b",
            "/a/b/",
            "/a/..",
            "/home/u/.ssh",
            "/home/u/.sshx",
            "/home/u/.ssh/id",
            "rel/a",
        ];
        for p in paths {
            for q in paths {
                let (p, q) = (Path::new(p), Path::new(q));
                assert_eq!(
                    Prefix::new(q.to_path_buf()).holds(p, plain(p)),
                    p.starts_with(q),
                    "{p:?} under {q:?}"
                );
            }
        }
    }
}
