//! A shell word as bash sees it: a sequence of [`Part`]s, with a static value exactly
//! when bash would give it one without running anything or looking at the disk.
//!
//! Quote removal and escape decoding follow bash: `r\m` is `rm`, `"r"m` is `rm`,
//! `$'\x72m'` is `rm`. Characters that came from quotes or escapes are [`Part::Quoted`]
//! (no globbing, brace or tilde expansion applies to them); unquoted characters are
//! [`Part::Literal`]. Everything bash computes at run time is a dynamic part, and a
//! word with a dynamic part has no static value: rules must never guess it.

mod braces;
mod build;
mod decode;

pub(crate) use build::PartsBuilder;
pub use build::{Evaluate, build_word, build_word_with, split_tilde};
pub use decode::{decode_ansi_c, decode_double_quoted, decode_heredoc};

use crate::verdict::Span;
use braces::{expand_braces, find_brace};

/// One piece of a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Unquoted text (escapes already removed: escaped characters are `Quoted`).
    /// Globbing and brace expansion apply to it.
    Literal(String),
    /// Text from single quotes, double quotes, `$'...'` or a backslash escape.
    Quoted(String),
    /// A leading tilde prefix: `~` (empty user), `~user`, `~+`, `~-`. Holds the text
    /// after the `~`.
    Tilde(String),
    /// `$NAME`, `${NAME}`, `$1`, `$@`: the value of a variable.
    Variable {
        /// The variable's name (`HOME`, `1`, `@`).
        name: String,
        /// Inside double quotes (no word splitting or globbing of the value).
        quoted: bool,
    },
    /// Any other parameter expansion: `${X:-y}`, `${#X}`, `${X/a/b}`, `${X@P}`.
    Expansion {
        /// The variable it is about, when one is named.
        name: Option<String>,
        /// `${!NAME}`: the value is that of the variable NAME's value names (not
        /// `${!PREFIX*}` or `${!a[@]}`, which list names and keys).
        indirect: bool,
        /// Inside double quotes.
        quoted: bool,
        /// For `${X:-w}`, `${X-w}`, `${X:=w}`, `${X=w}`, `${X:+w}`, `${X+w}`: the
        /// parts of `w`, the value the expansion takes when `X` is unset (or set).
        /// A path check judges it as well as the unknown value.
        alternative: Option<Vec<Part>>,
    },
    /// `$(...)` or a backtick substitution.
    CommandSubstitution {
        /// Inside double quotes.
        quoted: bool,
    },
    /// `$((...))`.
    Arithmetic {
        /// Inside double quotes.
        quoted: bool,
    },
    /// `<(...)` or `>(...)`: becomes a `/dev/fd/N` path at run time.
    ProcessSubstitution,
    /// A syntax node this model does not know. Always dynamic.
    Unknown(String),
}

impl Part {
    /// True for parts whose value is only known at run time.
    pub fn is_dynamic(&self) -> bool {
        !matches!(self, Part::Literal(_) | Part::Quoted(_))
    }
}

/// A word's parts. Most words are one part, kept in the word itself: a word costs
/// one allocation (its text), not two.
pub type Parts = smallvec::SmallVec<[Part; 1]>;

/// A shell word: its parts and where it stands in the original command.
///
/// The static value is computed once, when the word is built: build words with
/// [`Word::new`] (or [`Word::literal`]) rather than changing `parts` afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The pieces, in order.
    pub parts: Parts,
    /// Byte range in the original command.
    pub span: Span,
    /// Some part came from single quotes, double quotes or `$'...'`.
    pub has_quotes: bool,
    value: StaticValue,
}

/// Where a word's static value is: most words are one literal or quoted part, whose
/// text is the value, so it is not copied.
#[derive(Clone, Debug, PartialEq, Eq)]
enum StaticValue {
    /// Dynamic, globbed, brace-expanded or tilde-prefixed: no static value.
    None,
    /// The text of the word's only part.
    OnlyPart,
    /// The parts' texts joined.
    Joined(String),
}

impl Word {
    /// A word from its parts; computes its static value.
    pub fn new(parts: impl Into<Parts>, span: Span, has_quotes: bool) -> Word {
        let mut word = Word {
            parts: parts.into(),
            span,
            has_quotes,
            value: StaticValue::None,
        };
        word.value = word.compute_static_value();
        word
    }

    /// A word made of one static literal (used for words produced by expansion).
    pub fn literal(text: &str, span: Span) -> Word {
        Word::new(
            smallvec::smallvec![Part::Literal(text.to_string())],
            span,
            false,
        )
    }

    /// The value bash gives this word without running anything: `None` when any part
    /// is dynamic, when it would be globbed or brace-expanded, or when it starts with a
    /// tilde.
    pub fn value(&self) -> Option<&str> {
        match &self.value {
            StaticValue::None => None,
            StaticValue::OnlyPart => match self.parts.first() {
                Some(Part::Literal(text) | Part::Quoted(text)) => Some(text),
                _ => None,
            },
            StaticValue::Joined(text) => Some(text),
        }
    }

    /// [`Word::value`] as an owned string.
    pub fn static_value(&self) -> Option<String> {
        self.value().map(str::to_string)
    }

    fn compute_static_value(&self) -> StaticValue {
        // One pass over the unquoted bytes for glob characters and a `{` (the
        // brace test proper runs only where there is one).
        let mut brace = false;
        for part in &self.parts {
            match part {
                Part::Literal(text) => {
                    for b in text.bytes() {
                        if is_glob_byte(b) {
                            return StaticValue::None;
                        }
                        brace |= b == b'{';
                    }
                }
                Part::Quoted(_) => {}
                _ => return StaticValue::None,
            }
        }
        if brace && self.has_brace_expansion() {
            return StaticValue::None;
        }
        if self.parts.len() == 1 {
            return StaticValue::OnlyPart;
        }
        let mut out = String::new();
        for part in &self.parts {
            if let Part::Literal(text) | Part::Quoted(text) = part {
                out.push_str(text);
            }
        }
        StaticValue::Joined(out)
    }

    /// The variables the word expands unquoted after its start, where word
    /// splitting may cut the word in two (`--name=x$N`; `$N` alone is a word only
    /// known at run time from its start).
    pub fn split_points(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().skip(1).filter_map(|part| match part {
            Part::Variable {
                name,
                quoted: false,
            }
            | Part::Expansion {
                name: Some(name),
                quoted: false,
                ..
            } => Some(name.as_str()),
            _ => None,
        })
    }

    /// True when [`Word::value`] is `Some`.
    pub fn is_static(&self) -> bool {
        self.value().is_some()
    }

    /// True when an unquoted `*`, `?` or `[` would make bash glob this word.
    pub fn has_glob(&self) -> bool {
        self.parts.iter().any(|p| match p {
            Part::Literal(t) => has_glob_chars(t),
            _ => false,
        })
    }

    /// The text before the first dynamic part, as bash would see it; globs and braces
    /// cut the prefix at their first special character. Tilde and variables are not
    /// resolved here (see the path rules).
    pub fn static_prefix(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => {
                    if let Some(cut) = text.bytes().position(|b| is_glob_byte(b) || b == b'{') {
                        out.push_str(&text[..cut]);
                        return out;
                    }
                    out.push_str(text);
                }
                Part::Quoted(text) => out.push_str(text),
                _ => return out,
            }
        }
        out
    }

    /// The names of the variables this word expands, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Expansion {
                name: Some(name), ..
            } => Some(name.as_str()),
            _ => None,
        })
    }

    /// True when the word contains a `$(...)`, backtick or process substitution.
    pub fn has_substitution(&self) -> bool {
        self.parts.iter().any(|p| {
            matches!(
                p,
                Part::CommandSubstitution { .. } | Part::ProcessSubstitution
            )
        })
    }

    /// True when bash would brace-expand this word (`{a,b}`, `{1..3}`).
    pub fn has_brace_expansion(&self) -> bool {
        let open = self
            .parts
            .iter()
            .any(|p| matches!(p, Part::Literal(t) if t.contains('{')));
        if !open {
            return false;
        }
        let chars = self.chars_with_quoting();
        find_brace(&chars, 0).is_some()
    }

    /// The words bash's brace expansion makes of this word, when every part is static
    /// text. `None` when a part is dynamic or the expansion is too large or deep.
    pub fn brace_expand(&self) -> Option<Vec<String>> {
        if self.parts.iter().any(Part::is_dynamic) {
            return None;
        }
        let chars = self.chars_with_quoting();
        let mut out = Vec::new();
        expand_braces(&chars, 0, &mut out)?;
        Some(
            out.into_iter()
                .map(|cs| cs.into_iter().map(|(c, _)| c).collect())
                .collect(),
        )
    }

    /// Every character of the static parts, with `true` for characters that were
    /// quoted. Dynamic parts are left out.
    fn chars_with_quoting(&self) -> Vec<(char, bool)> {
        let mut chars = Vec::new();
        for part in &self.parts {
            match part {
                Part::Literal(t) => chars.extend(t.chars().map(|c| (c, false))),
                Part::Quoted(t) => chars.extend(t.chars().map(|c| (c, true))),
                _ => chars.push(('\0', true)),
            }
        }
        chars
    }

    /// The static text of the word with dynamic parts shown as `$…`, for messages.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(t) | Part::Quoted(t) => out.push_str(t),
                Part::Tilde(user) => {
                    out.push('~');
                    out.push_str(user);
                }
                Part::Variable { name, .. } => {
                    out.push('$');
                    out.push_str(name);
                }
                _ => out.push_str("$…"),
            }
        }
        out
    }
}

fn has_glob_chars(text: &str) -> bool {
    // A byte scan: a `char` set sets up a searcher for every word.
    text.bytes().any(is_glob_byte)
}

/// `*`, `?` or `[`: a byte that makes an unquoted word a glob pattern.
fn is_glob_byte(b: u8) -> bool {
    matches!(b, b'*' | b'?' | b'[')
}
