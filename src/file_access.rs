//! Judging a file an agent's own tool opens (Claude Code's Read/Write/Edit, Gemini
//! CLI's `read_file`/`write_file`, a Codex patch), by the same path policy the bash
//! walk applies to the words of a command: outside the root (and its allowed paths)
//! asks, sensitive paths ask on read and deny on write, the gate's own policy files
//! deny on write, symlinks inside the project are followed to where they lead.
//!
//! ```
//! use bashgate::{Access, Decision, Gate};
//! let gate = Gate::builder().root(".").build()?;
//! assert_eq!(gate.check_file("src/lib.rs", Access::Read, None).decision, Decision::Allow);
//! assert_eq!(gate.check_file("/etc/passwd", Access::Write, None).decision, Decision::Ask);
//! # Ok::<(), bashgate::ConfigError>(())
//! ```

use crate::gate::Gate;
use crate::model::path_roles::Access;
use crate::policy::paths::Place;
use crate::rules::{self, Rule, paths as path_rules};
use crate::verdict::{Capability, Decision, Finding, Span, Verdict};
use std::path::{Component, Path, PathBuf};

impl Gate {
    /// Judges the working directory an agent runs a call in: a directory outside the
    /// root and its allowed paths asks (BG108), whatever the command.
    ///
    /// ```
    /// use bashgate::{Decision, Gate};
    /// let gate = Gate::builder().root("/project").build()?;
    /// assert_eq!(gate.check_cwd("/etc".as_ref()).decision, Decision::Ask);
    /// assert_eq!(gate.check_cwd("/project/src".as_ref()).decision, Decision::Allow);
    /// # Ok::<(), bashgate::ConfigError>(())
    /// ```
    pub fn check_cwd(&self, dir: &Path) -> Verdict {
        let text = dir.to_string_lossy();
        let judged = self.check_file(&text, Access::Read, None);
        if judged.findings.is_empty() {
            return judged;
        }
        let mut finding = rules::finding(
            &path_rules::CWD_ESCAPE,
            Span::new(0, 0),
            "",
            format!(
                "the call runs in {}, outside the project root and its allowed paths",
                dir.display()
            ),
        );
        finding.path = Some(text.into_owned());
        self.apply_mode(Verdict::from_findings(vec![finding]))
    }

    /// Judges a file a tool reads or writes. `path` is absolute, `~/...`, or
    /// relative to `cwd` (the project root when `None`). The findings' spans cover
    /// the path text; their `path` is the path as resolved.
    pub fn check_file(&self, path: &str, access: Access, cwd: Option<&Path>) -> Verdict {
        let findings = self.file_findings(path, access, cwd);
        self.apply_mode(Verdict::from_findings(findings))
    }

    fn file_findings(&self, text: &str, access: Access, cwd: Option<&Path>) -> Vec<Finding> {
        let judge = self.path_judge();
        let span = Span::new(0, text.len());
        let writes = access == Access::Write;
        let capability = if writes {
            Capability::FilesystemWrite
        } else {
            Capability::FilesystemRead
        };
        let finding = |rule: &'static Rule, decision: Decision, message: String, at: &Path| {
            let mut f = rules::finding(rule, span, text, message);
            f.decision = decision;
            f.capability = capability;
            f.path = Some(at.to_string_lossy().into_owned());
            f
        };
        if text.is_empty() || text.contains('\0') {
            let mut f = rules::finding(
                &path_rules::CWD_ESCAPE,
                span,
                text,
                "the tool names no usable path".into(),
            );
            f.capability = capability;
            return vec![f];
        }
        let home = self.policy().home.as_deref();
        let (named, via_home) = match text.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => match home {
                Some(h) => (h.join(rest.trim_start_matches('/')), true),
                None => {
                    let mut f = rules::finding(
                        &path_rules::HOME_EXPANSION,
                        span,
                        text,
                        "`~` has no known value here: where this path points is unknown".into(),
                    );
                    f.capability = capability;
                    return vec![f];
                }
            },
            _ => (PathBuf::from(text), false),
        };
        let base = cwd.unwrap_or(judge.root());
        let path = normalize(&base.join(&named));
        let mut place = judge.place(&path);
        let mut real = None;
        if matches!(place, Place::Inside | Place::Allowed) {
            real = judge.real_path(&path);
            if let Some(r) = &real {
                place = judge.place(r);
            }
        }
        let checked = real.as_deref().unwrap_or(&path);
        let through_link = real.is_some();
        if judge.is_sensitive(checked) || through_link && judge.is_sensitive(&path) {
            let (decision, verb) = if writes {
                (Decision::Deny, "writes")
            } else {
                (Decision::Ask, "reads")
            };
            return vec![finding(
                &path_rules::SENSITIVE_PATH,
                decision,
                format!("{verb} the sensitive path {}", checked.display()),
                checked,
            )];
        }
        if writes
            && (judge.is_write_protected(checked)
                || through_link && judge.is_write_protected(&path))
        {
            return vec![finding(
                &path_rules::SENSITIVE_PATH,
                Decision::Deny,
                format!(
                    "writes the gate's policy or an agent's settings: {}",
                    checked.display()
                ),
                checked,
            )];
        }
        let escape = match place {
            Place::Inside | Place::Allowed | Place::Safe => false,
            Place::ReadOnly => writes,
            Place::Outside => true,
        };
        if !escape {
            return Vec::new();
        }
        let rule: &'static Rule = if through_link {
            &path_rules::SYMLINK_ESCAPE
        } else if via_home {
            &path_rules::HOME_EXPANSION
        } else if named.is_absolute() {
            &path_rules::PATH_OUTSIDE_ROOT
        } else if named.components().any(|c| c == Component::ParentDir) {
            &path_rules::PARENT_ESCAPE
        } else {
            &path_rules::CWD_ESCAPE
        };
        let what = match (place, writes) {
            (Place::ReadOnly, _) => "writes to a read-only path",
            (_, true) => "writes outside the project:",
            (_, false) => "reaches outside the project:",
        };
        vec![finding(
            rule,
            rule.default,
            format!("{what} {}", checked.display()),
            checked,
        )]
    }
}

/// `.` and `..` removed without touching the disk (`/a/b/../c` → `/a/c`; `..` at
/// the top stays at `/`).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_without_the_disk() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalize(Path::new("/../x")), PathBuf::from("/x"));
    }
}
