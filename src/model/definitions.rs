//! Functions and aliases defined in the command shadow the programs and builtins of
//! the same name after them: `ls() { …; }; ls` runs the body, `alias cd='…'; cd x`
//! runs the alias text. The body is walked where it is defined (its commands are
//! judged there, even if nothing calls it) and again at every call, from the state
//! of the call (`repeat.rs`); what a call changes for the commands after it — the
//! working directory, variables, further definitions — is recorded here as its
//! [`Effects`], and applied at every call, so nothing after a call is judged on a
//! state the call may have changed.

use super::command::Cwd;
use crate::parse::SpanMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What running a definition changes in the shell that calls it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The working directory may change (`cd`, `pushd`, a call of another
    /// definition that does).
    pub cwd: bool,
    /// Where the body was walked from and where it ended, when both are known: a
    /// call from the same directory ends in the same place.
    pub moves: Option<(PathBuf, PathBuf)>,
    /// Variables it may assign.
    pub vars: Vec<String>,
    /// Its text is only known at run time: it may change anything.
    pub unknown: bool,
    /// Definitions it makes when it runs (`f() { g() { …; }; }`).
    pub defines: Vec<(String, Effects)>,
    /// An alias's text: a call is that text followed by the call's arguments,
    /// walked as a script in the calling shell.
    pub alias_text: Option<String>,
    /// A function's body, with where it stands in the command: a call walks it
    /// again from the caller's state (the body sees the variables, directory and
    /// links of the call, not of the definition).
    pub body: Option<(Rc<str>, SpanMap)>,
}

impl Effects {
    /// The effects of text only known at run time.
    pub fn unknown() -> Effects {
        Effects {
            cwd: true,
            unknown: true,
            ..Effects::default()
        }
    }
}

/// The definitions in force at a point of the script: the last one of a name wins.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    entries: Vec<(String, Effects)>,
}

impl Definitions {
    /// Records that calling `name` now runs a definition with `effects`.
    pub fn define(&mut self, name: &str, effects: Effects) {
        self.entries.retain(|(n, _)| n != name);
        self.entries.push((name.to_string(), effects));
    }

    /// The definition a call of `name` runs, if the command defined one.
    pub fn get(&self, name: &str) -> Option<&Effects> {
        self.entries
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e)
    }

    /// True when the same names run the same definitions, whatever the order
    /// they were made in.
    pub fn same_as(&self, other: &Definitions) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().all(|(n, e)| other.get(n) == Some(e))
    }

    /// Definitions made here that `before` did not have (or had differently).
    pub fn added_since(&self, before: &Definitions) -> Vec<(String, Effects)> {
        self.entries
            .iter()
            .filter(|(n, e)| before.get(n) != Some(e))
            .cloned()
            .collect()
    }
}

/// The working directory after a call whose effects may move it, from `here` (the
/// call's directory, `None` when unknown): where the body ended when it was walked
/// from the same directory, otherwise unknown.
pub fn cwd_after(effects: &Effects, current: &Cwd, here: Option<&Path>) -> Cwd {
    if !effects.cwd {
        return current.clone();
    }
    match (&effects.moves, here) {
        (Some((from, to)), Some(here)) if from == here => Cwd::Known(to.clone()),
        _ => Cwd::Unknown,
    }
}

/// The script an alias call runs: the alias text, then the call's arguments (static
/// values, single-quoted so they stay one word each; others as written, taken from
/// `source` when it holds them). `None` when an argument is neither.
pub fn expand_alias(
    text: &str,
    args: &[super::word::Word],
    source: Option<&str>,
) -> Option<String> {
    let mut script = text.to_string();
    for arg in args {
        let Some(value) = arg.value() else {
            let written = source?.get(arg.span.start..arg.span.end)?;
            script.push(' ');
            script.push_str(written);
            continue;
        };
        script.push(' ');
        script.push_str(&single_quoted(value));
    }
    Some(script)
}

/// `value` as one single-quoted shell word (`it's` → `'it'\''s'`).
pub fn single_quoted(value: &str) -> String {
    format!("'{}'", value.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::expand_alias;
    use crate::model::word::Word;
    use crate::verdict::Span;

    #[test]
    fn alias_calls_append_their_arguments_as_single_words() {
        let args = [
            Word::literal("-r", Span::default()),
            Word::literal("it's", Span::default()),
        ];
        assert_eq!(
            expand_alias("rm -rf", &args, None).as_deref(),
            Some("rm -rf '-r' 'it'\\''s'")
        );
    }
}
