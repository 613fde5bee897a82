//! The words of an option value that one program passes on to another, as the
//! receiver splits them (`-ldflags='-X "a=b c"'`, `-Wl,a,b`), joined with
//! [`WORD_BREAK`] for the reading of options variables
//! ([`super::environment`]), passed-on options ([`super::passed_options`]) and
//! attached values only known at run time ([`super::dynamic_option_value`]).
//!
//! ## Example
//! `-Wl,-plugin,/tmp/x.so` from byte 4 → `-plugin`, `/tmp/x.so`.

use crate::model::word::{Part, Word};

/// What separates two words in the text [`super::environment::options_run`]
/// reads (a character no option holds).
pub const WORD_BREAK: char = '\u{1f}';

/// What stands for a part only known at run time in [`stand_in_text`]: the
/// character the use reading spells such a part with
/// ([`crate::catalogue::RUN_TIME_PART`]), which no option holds, so a path or
/// program made with it is known to be only known at run time.
pub const STAND_IN: char = crate::catalogue::RUN_TIME_PART;

/// The passed-on words in the option word `text` from byte `offset`, joined with
/// [`WORD_BREAK`]: a comma list when the option's spelling ends in a comma
/// (`-Wl,a,b`), else split as the receiver splits a value ([`split`]).
pub fn words_of(text: &str, offset: usize) -> String {
    let value = text.get(offset..).unwrap_or_default();
    if offset > 0 && text.as_bytes().get(offset - 1) == Some(&b',') {
        value.replace(',', &WORD_BREAK.to_string())
    } else {
        split(value)
    }
}

/// The words of an options value as the receiving program splits it: at
/// whitespace outside quotes, with the quotes removed (`-ldflags='-X "a=b c"'`,
/// as Go reads it); the words joined with [`WORD_BREAK`]. An unbalanced quote
/// runs to the end. A comma stays inside its word.
pub fn split(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut quote = None;
    for c in value.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => out.push(WORD_BREAK),
            (_, c) => out.push(c),
        }
    }
    out
}

/// The word's text with each part only known at run time standing for one word's
/// tail ([`STAND_IN`]); `None` when such a part starts a word of the value that begins at
/// byte `from` (at the value's start, after a space or a comma, or after `=`
/// unless that ends a setting's key), where it could be any option.
pub fn stand_in_text(word: &Word, from: usize) -> Option<String> {
    let mut text = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => text.push_str(t),
            _ => {
                let value = text.get(from..).unwrap_or_default();
                if value.is_empty()
                    || value.ends_with(|c: char| c.is_whitespace() || c == ',' || c == '=')
                        && !ends_a_key(value)
                {
                    return None;
                }
                text.push(STAND_IN);
            }
        }
    }
    Some(text)
}

/// True when `text` ends with `NAME=` inside its last word, `NAME` not an option
/// (`main.version=`): a dynamic part after it is that setting's value.
fn ends_a_key(text: &str) -> bool {
    let last = text
        .rsplit(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or_default();
    last.len() > 1 && last.ends_with('=') && !last.starts_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    #[test]
    fn a_value_is_split_as_the_receiver_splits_it() {
        assert_eq!(split("-X 'main.v=a b' -s"), "-X\u{1f}main.v=a b\u{1f}-s");
        assert_eq!(split("\"-extld=/tmp/x\""), "-extld=/tmp/x");
        assert_eq!(split("-a,b"), "-a,b");
    }

    #[test]
    fn a_comma_spelling_gives_a_comma_list() {
        assert_eq!(
            words_of("-Wl,-plugin,/tmp/x.so", 4),
            "-plugin\u{1f}/tmp/x.so"
        );
        assert_eq!(words_of("-ldflags=-s -w", 9), "-s\u{1f}-w");
    }

    #[test]
    fn a_dynamic_part_stands_for_a_tail_but_never_starts_a_word() {
        let word = |parts: Vec<Part>| Word::new(parts, Span::new(0, 1), false);
        let var = || Part::Variable {
            name: "V".into(),
            quoted: true,
        };
        let lit = |t: &str| Part::Literal(t.into());
        assert_eq!(
            stand_in_text(&word(vec![lit("-X main.v="), var()]), 0).as_deref(),
            Some("-X main.v=\u{1a}")
        );
        assert_eq!(
            stand_in_text(&word(vec![lit("-X main.v=1."), var()]), 0).as_deref(),
            Some("-X main.v=1.\u{1a}")
        );
        assert_eq!(stand_in_text(&word(vec![var()]), 0), None);
        assert_eq!(stand_in_text(&word(vec![lit("-s "), var()]), 0), None);
        assert_eq!(stand_in_text(&word(vec![lit("-extld="), var()]), 0), None);
        assert_eq!(stand_in_text(&word(vec![lit("-a,"), var()]), 0), None);
        // A part that starts the value: `-J$J`, `link-args=$X`.
        assert_eq!(stand_in_text(&word(vec![lit("-J"), var()]), 2), None);
        assert_eq!(
            stand_in_text(&word(vec![lit("link-args="), var()]), 10),
            None
        );
        assert_eq!(
            stand_in_text(&word(vec![lit("link-args=-L"), var()]), 10).as_deref(),
            Some("link-args=-L\u{1a}")
        );
    }
}
