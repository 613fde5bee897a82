//! A program's use read with its words as they may be at run time: each word
//! only known at run time spelled with its static text and a stand-in for each
//! other part, so the use reading ([`catalogue::usage`]) sees an option named
//! before its dynamic value (`--registry=$R`) and a word that may be any option
//! (`"$OPTS"`).
//!
//! ## Example
//! `docker run --pid="$P" img` → the fact `--pid` adds.

use crate::catalogue::{self, Entry, Usage, Values};
use crate::model::word::{Part, Word};

/// The use of `entry` with `words` ([`catalogue::usage`]), each word only known
/// at run time spelled with its static text and a stand-in for each other part
/// ([`run_time_text`]): an option named before such a part counts as given, and
/// a word that may be any option is listed. A word in which a variable of
/// `splitting` is expanded unquoted after its start may be cut into more words
/// there: a word of stand-ins alone is read after it, and what is listed for that
/// word is listed for the word it comes from.
///
/// ## Example
/// `docker run --pid="$P" img` → the fact `--pid` adds; `docker run "$O" img` →
/// `"$O"` may be `--privileged`; with `N` splitting, `docker run --name=x$N img`
/// → `--name=x$N` may be `--privileged`.
pub fn usage_of(entry: &'static Entry, words: &[Word], splitting: &[String]) -> Usage {
    let texts: smallvec::SmallVec<[Option<String>; 8]> = words
        .iter()
        .map(|w| w.value().is_none().then(|| run_time_text(w)))
        .collect();
    let mut values: Values = smallvec::SmallVec::new();
    // For each value, the word it comes from.
    let mut from: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
    for (at, (word, text)) in words.iter().zip(&texts).enumerate() {
        values.push(word.value().or(text.as_deref()));
        from.push(at);
        if !splitting.is_empty() && splits_inside(word, splitting) {
            values.push(Some(SPLIT_OFF));
            from.push(at);
        }
    }
    let mut usage = catalogue::usage(entry, &values);
    if from.len() > words.len() {
        for (at, _) in &mut usage.unknown_options {
            *at = from.get(*at).copied().unwrap_or(*at);
        }
    }
    usage
}

/// The words split off a word at run time, as [`catalogue::usage`] reads them:
/// one part only known then.
const SPLIT_OFF: &str = "\u{1a}";
const _: () = assert!(
    SPLIT_OFF.len() == 1 && SPLIT_OFF.as_bytes()[0] as u32 == catalogue::RUN_TIME_PART as u32
);

/// True when `word` expands a variable of `splitting` unquoted after its start,
/// where word splitting may cut it into more words.
pub fn splits_inside(word: &Word, splitting: &[String]) -> bool {
    word.split_points()
        .any(|name| splitting.iter().any(|s| s == name))
}

/// The text of a word only known at run time as [`catalogue::usage`] reads it:
/// its static parts, a tilde prefix as `~` and `$PWD` or `$HOME` as `/` and a
/// stand-in (they expand to paths, never options), and each other part as
/// [`catalogue::RUN_TIME_PART`]. An unquoted part inside a word may split it
/// (`--name=x$N`): [`usage_of`] reads what may follow when the command set the
/// variable to a value that splits; a word that starts with such a part is read
/// as possibly more options from its start.
pub fn run_time_text(word: &Word) -> String {
    let mut text = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => text.push_str(t),
            Part::Tilde(_) => text.push('~'),
            // The shell's own folders: paths from the root, never options.
            Part::Variable { name, .. } if name == "PWD" || name == "HOME" => {
                text.push('/');
                text.push(catalogue::RUN_TIME_PART);
            }
            Part::ProcessSubstitution => text.push('/'),
            _ => text.push(catalogue::RUN_TIME_PART),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    #[test]
    fn a_run_time_word_keeps_its_static_start() {
        let word = |parts: Vec<Part>| Word::new(parts, Span::new(0, 1), false);
        let var = |name: &str| Part::Variable {
            name: name.into(),
            quoted: false,
        };
        let lit = |t: &str| Part::Literal(t.into());
        let r = catalogue::RUN_TIME_PART;
        assert_eq!(run_time_text(&word(vec![var("X")])), r.to_string());
        assert_eq!(
            run_time_text(&word(vec![lit("--registry="), var("R")])),
            format!("--registry={r}")
        );
        // The shell's folders and a tilde expand to paths, never to options.
        assert_eq!(
            run_time_text(&word(vec![var("PWD"), lit(":/w")])),
            format!("/{r}:/w")
        );
        assert_eq!(
            run_time_text(&word(vec![Part::Tilde(String::new()), lit("/x")])),
            "~/x"
        );
    }
}
