//! What the walker knows at each point of the script: the working directory (`cd`,
//! `pushd`, `popd`, with `cd -` and the directory stack) and the variables assigned
//! so far. Subshells, pipeline stages, substitutions and background jobs each get a
//! copy of their parent's scope, as bash runs them; `cd` resolves its operand with the
//! one path resolver ([`super::paths::Resolver`]), so `cd "$HOME/x"` and `cat
//! "$HOME/x"` name the same place.

use super::command::{Cwd, Origin, SimpleCommand};
use super::paths::{Resolved, Resolver};
use super::word::{Part, Word};
use super::wrappers;
use std::path::{Path, PathBuf};

/// One scope: the working directory and the script's variables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    /// Where commands in this scope run.
    pub cwd: Cwd,
    /// Where `cd -` goes.
    previous: Option<Cwd>,
    /// `pushd`'s directory stack.
    stack: Vec<Cwd>,
    /// Variables assigned in the script so far: their static value, or `None` when
    /// only known at run time (loop variables, `read`, substitutions). Last wins.
    vars: Vec<(String, Option<String>)>,
    /// `IFS` was assigned: unquoted expansions may split anywhere.
    ifs_changed: bool,
}

impl Scope {
    /// Records `name`'s value (`None`: only known at run time).
    pub fn set_var(&mut self, name: &str, value: Option<String>) {
        if name == "IFS" {
            self.ifs_changed = true;
        }
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_string(), value));
    }

    fn var(&self, name: &str) -> Option<&Option<String>> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// Replaces `$NAME` by the static value a script assignment gave it (`D=/etc; cat
    /// $D/x`). Unquoted values that bash would split or glob stay dynamic.
    pub fn substitute(&self, word: Word) -> Word {
        if self.vars.is_empty()
            || !word
                .parts
                .iter()
                .any(|p| matches!(p, Part::Variable { .. }))
        {
            return word;
        }
        let mut changed = false;
        let parts: Vec<Part> = word
            .parts
            .iter()
            .map(|part| {
                if let Part::Variable { name, quoted } = part
                    && let Some(Some(value)) = self.var(name)
                {
                    let splits = value.is_empty()
                        || self.ifs_changed
                        || value.contains([' ', '\t', '\n', '*', '?', '[']);
                    if *quoted || !splits {
                        changed = true;
                        return Part::Quoted(value.clone());
                    }
                }
                part.clone()
            })
            .collect();
        if !changed {
            return word;
        }
        Word::new(parts, word.span, word.has_quotes)
    }

    /// Records script variables: statement-level and declared assignments set them;
    /// `unset` removes them; loop variables and `read` make them unknown.
    pub fn track_vars(&mut self, record: &SimpleCommand) {
        let program = record.program_str();
        let declares = record.origin == Origin::Declaration && !matches!(program, Some("unset"));
        if record.origin == Origin::Bare || declares {
            for a in &record.assignments {
                let value = a.value.as_ref().and_then(|v| v.value().map(str::to_string));
                let value = if a.value.is_none() && declares {
                    // `export X` keeps X's value.
                    match self.var(&a.name) {
                        Some(v) => v.clone(),
                        None => continue,
                    }
                } else {
                    value
                };
                self.set_var(&a.name, value);
            }
        }
        match program {
            Some("unset") if record.origin == Origin::Declaration => {
                for a in &record.assignments {
                    self.vars.retain(|(n, _)| n != &a.name);
                }
            }
            Some("read" | "mapfile" | "readarray" | "getopts" | "printf") => {
                for w in record.args() {
                    if let Some(v) = w.value()
                        && !v.starts_with('-')
                        && wrappers::is_assignment(&format!("{v}=x"))
                    {
                        self.set_var(v, None);
                    }
                }
            }
            _ => {}
        }
    }

    /// Tracks `cd`, `pushd` and `popd`: `start` is where the command began.
    pub fn apply_cd(&mut self, record: &SimpleCommand, start: &Path, resolver: &Resolver) {
        let Some(name) = record.program_str() else {
            return;
        };
        if !matches!(name, "cd" | "pushd" | "popd" | "chdir") {
            return;
        }
        let current = match &self.cwd {
            Cwd::Start => Some(start.to_path_buf()),
            Cwd::Known(p) => Some(p.clone()),
            Cwd::Unknown => None,
        };
        let operands: Vec<&Word> = record
            .args()
            .iter()
            .filter(|w| {
                !w.static_value()
                    .is_some_and(|v| v.len() > 1 && v.starts_with('-') && v != "--")
            })
            .filter(|w| w.static_value().as_deref() != Some("--"))
            .collect();
        if name == "popd" {
            let next = self.stack.pop().unwrap_or(Cwd::Unknown);
            self.previous = Some(std::mem::replace(&mut self.cwd, next));
            return;
        }
        let target = match operands.first() {
            None if name == "pushd" => {
                let top = self.stack.pop().unwrap_or(Cwd::Unknown);
                self.stack.push(self.cwd.clone());
                self.cwd = top;
                return;
            }
            None => resolver.home().map(Cwd::Known).unwrap_or(Cwd::Unknown),
            Some(word) if word.static_value().as_deref() == Some("-") => {
                self.previous.clone().unwrap_or(Cwd::Unknown)
            }
            Some(word) => directory(word, current.as_deref(), resolver),
        };
        let old = std::mem::replace(&mut self.cwd, target);
        if name == "pushd" {
            self.stack.push(old.clone());
        }
        self.previous = Some(old);
    }
}

/// Where `cd WORD` goes, by the same resolution every path rule uses; a glob, a
/// dynamic word or an unknown base leaves the directory unknown.
fn directory(word: &Word, current: Option<&Path>, resolver: &Resolver) -> Cwd {
    if word.static_value().is_some_and(|v| v.is_empty()) {
        // `cd ""` stays where it is.
        return current
            .map(|c| Cwd::Known(PathBuf::from(c)))
            .unwrap_or(Cwd::Unknown);
    }
    match resolver.resolve(word, current) {
        Resolved::Path {
            path, glob: false, ..
        } => Cwd::Known(path),
        _ => Cwd::Unknown,
    }
}
