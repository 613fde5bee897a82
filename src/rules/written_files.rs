//! The files one command writes, resolved to absolute paths: every write the model
//! knows (redirects, `tee`, `cp`/`mv`/`install`/`ln` destinations, `sed -i`,
//! `perl -pi`, `dd of=`, option values that name a written file), with the text
//! written when the model knows it (a redirected `echo`/`printf` of static text, a
//! static heredoc into `cat` or `tee`). Deletions (`rm x`) are not writes here: a
//! file removed runs nothing later; nor is output thrown away into `/dev/null`.

use crate::catalogue::{Entry, Role};
use crate::model::command::{Redirect, SimpleCommand};
use crate::model::path_roles::Access;
use crate::model::paths::{Resolved, normalize_lexically};
use crate::model::word::Word;
use crate::model::written;
use crate::policy::paths::PathJudge;
use crate::rules::Checker;
use crate::verdict::Span;
use std::path::{Path, PathBuf};

/// One file a command writes.
#[derive(Clone, Debug)]
pub struct WrittenFile {
    /// The path as named, absolute and lexically normalised.
    pub path: PathBuf,
    /// Where the path leads through symlinks in the project, when it does.
    pub real: Option<PathBuf>,
    /// The text written, when known (`None` for edits, copies, `sed -i`...); for an
    /// append, the text appended.
    pub text: Option<String>,
    /// Appended (`>>`, `tee -a`): the file's whole text is not known.
    pub append: bool,
    /// The word naming the file.
    pub span: Span,
}

impl WrittenFile {
    /// The path relative to the project root (then the real one, when a symlink was
    /// followed and it is inside); empty when neither is inside.
    pub fn relative<'p>(&'p self, paths: &'p PathJudge) -> impl Iterator<Item = &'p Path> + 'p {
        [Some(self.path.as_path()), self.real.as_deref()]
            .into_iter()
            .flatten()
            .filter_map(move |p| paths.below_root(p))
    }
}

/// True when every operand of the program is deleted (`rm`, `rmdir`, `unlink`):
/// its "writes" remove files.
fn only_deletes(entry: Option<&Entry>) -> bool {
    entry.is_some_and(|e| {
        !e.operands.is_empty()
            && e.operands.iter().all(|r| *r == Role::PathDelete)
            && e.last.is_none_or(|r| r == Role::PathDelete)
    })
}

/// The device that discards what is written to it: writing there writes no file.
const NULL_DEVICE: &str = "/dev/null";

/// True when `redirect` may write a file: it writes, and is neither an fd
/// duplication (`2>&1`) nor a redirect into [`NULL_DEVICE`] (`2>/dev/null`).
fn redirect_may_write(redirect: &Redirect) -> bool {
    // The operator test first: `is_fd_duplication` reads the target's value.
    let duplicates =
        matches!(redirect.operator.as_str(), ">&" | ">&-") && redirect.is_fd_duplication();
    redirect.writes()
        && !duplicates
        && redirect.target.as_ref().and_then(Word::value) != Some(NULL_DEVICE)
}

/// A cheap filter before listing a command's paths: it has a redirect that writes,
/// a wrapper (`flock` creates its lock file), or a program that may write by the
/// catalogue's roles — an operand or option value, an in-place flag (`sed -i`,
/// `perl -pi`), a settings key (`dd of=`), an option in a mode (`tar -x -C`): the
/// entry's role mask holds every one of them. A program the catalogue does not
/// know writes nothing the model knows.
fn may_write(cmd: &SimpleCommand, entry: Option<&Entry>) -> bool {
    const WRITE_BITS: u64 = 1 << 4 | 1 << 5 | 1 << 31;
    debug_assert_eq!(
        WRITE_BITS,
        Role::PathWrite.bit() | Role::PathDelete.bit() | Role::PathWriteOrPipe.bit()
    );
    cmd.redirects.iter().any(redirect_may_write)
        || !cmd.wrappers.is_empty()
        || entry.is_some_and(|e| e.role_mask & WRITE_BITS != 0)
}

/// The files `cmd` writes, resolved against the directory it runs in. A path only
/// known at run time is left out: the path rules already ask about it.
pub fn written_files(cmd: &SimpleCommand, cx: &Checker) -> Vec<WrittenFile> {
    let entry = cx.entry(cmd);
    if only_deletes(entry) || !may_write(cmd, entry) {
        return Vec::new();
    }
    let uses = cx.path_uses(cmd);
    if !uses.iter().any(|u| u.access.writes()) {
        return Vec::new();
    }
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    let texts = written::writes(cmd, cx.paths.resolver().home_text());
    let mut out = Vec::new();
    let files = uses
        .iter()
        .filter(|u| u.access.writes() && u.word.value() != Some(NULL_DEVICE));
    for usage in files {
        let Resolved::Path { path, glob, .. } = cx.paths.resolve(&usage.word, cwd) else {
            continue;
        };
        let append = usage.access == Access::Append;
        let text = usage.word.value().and_then(|name| {
            texts
                .iter()
                .find(|w| w.name == name && w.append == append)
                .and_then(|w| w.text.clone())
        });
        let real = if glob { None } else { cx.real_path(&path) };
        out.push(WrittenFile {
            path: normalize_lexically(&path),
            real,
            text,
            append,
            span: usage.word.span,
        });
    }
    out
}
