//! Finding the project root when `--root` is not given, as ruff finds `ruff.toml`:
//! walk up from the working directory to the nearest folder holding a
//! `bashgate.toml`, stopping at the first folder with a `.git` (the git top level,
//! which is then the root). With neither, the working directory is the root.

use std::path::{Path, PathBuf};

/// The root and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovered {
    /// The project root.
    pub root: PathBuf,
    /// Where it came from, for `bashgate config`.
    pub how: &'static str,
}

/// The project root for a command started in `start`.
pub fn project_root(start: &Path) -> Discovered {
    for dir in start.ancestors() {
        if dir.join("bashgate.toml").is_file() {
            return Discovered {
                root: dir.to_path_buf(),
                how: "the nearest bashgate.toml",
            };
        }
        if dir.join(".git").exists() {
            return Discovered {
                root: dir.to_path_buf(),
                how: "the git top level",
            };
        }
    }
    Discovered {
        root: start.to_path_buf(),
        how: "the current directory (no bashgate.toml or .git above it)",
    }
}

/// The project root for this process: `--root` when given, else discovered from
/// the current directory.
pub fn root_for(flag: Option<&Path>) -> Discovered {
    match flag {
        Some(root) => Discovered {
            root: root.to_path_buf(),
            how: "--root",
        },
        None => {
            let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            project_root(&cwd)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_config_wins_and_git_stops_the_walk() {
        let base = std::env::temp_dir().join(format!("bashgate-discover-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let deep = base.join("repo/pkg/src/deep");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(base.join("repo/.git")).unwrap();
        std::fs::write(base.join("bashgate.toml"), "").unwrap();
        // .git comes before the bashgate.toml above the repository.
        assert_eq!(project_root(&deep).root, base.join("repo"));
        std::fs::write(base.join("repo/pkg/bashgate.toml"), "").unwrap();
        assert_eq!(project_root(&deep).root, base.join("repo/pkg"));
        let _ = std::fs::remove_dir_all(&base);
    }
}
