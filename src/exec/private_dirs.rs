//! The private HOME and TMPDIR of one run: fresh folders the runner owns (mode 0700)
//! under the system temporary folder, removed when the run ends unless kept.

use std::fs::DirBuilder;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A run's private folders.
#[derive(Debug)]
pub struct PrivateDirs {
    base: PathBuf,
    keep: bool,
}

impl PrivateDirs {
    /// Creates `<tmp>/bashgate-exec-<pid>-<time>-<n>/{home,tmp}`.
    pub fn create(keep: bool) -> std::io::Result<PrivateDirs> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "bashgate-exec-{}-{nanos:x}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let base = std::env::temp_dir().join(name);
        let mut builder = DirBuilder::new();
        builder.mode(0o700);
        // `create` (not recursive) fails if the name exists: nobody can pre-plant it.
        builder.create(&base)?;
        let dirs = PrivateDirs { base, keep };
        builder.create(dirs.home())?;
        builder.create(dirs.tmp())?;
        Ok(dirs)
    }

    /// The folder holding both.
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// The private HOME.
    pub fn home(&self) -> PathBuf {
        self.base.join("home")
    }

    /// The private TMPDIR.
    pub fn tmp(&self) -> PathBuf {
        self.base.join("tmp")
    }

    /// Whether the folders survive the run.
    pub fn kept(&self) -> bool {
        self.keep
    }
}

impl Drop for PrivateDirs {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.base);
        }
    }
}
