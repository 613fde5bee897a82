//! The variable `printf -v` assigns, read the way bash reads printf's options:
//! `-v NAME` or `-vNAME` (the value attached, as getopt allows) before the format,
//! the last one winning, `--` ending them. The scope, the builtins' assignments and
//! the arithmetic check all read it here, so the attached form is never one of
//! them forgotten (`printf -vX %s /etc/shadow; cat "$X"` once read `X` as unset).

use super::word::Word;

/// What a `printf` command assigns.
#[derive(Debug, PartialEq)]
pub enum PrintfTarget<'w> {
    /// No `-v`: it prints and assigns nothing.
    Nothing,
    /// `-v NAME` or `-vNAME`.
    Named {
        /// The variable's name as written (an array element keeps its subscript:
        /// bash evaluates it).
        name: String,
        /// The word that names it (`NAME`, or `-vNAME` itself).
        word: &'w Word,
        /// The format and its arguments.
        rest: &'w [Word],
    },
    /// A word only known at run time where an option can stand, or an option
    /// printf does not have: what it assigns is unknown.
    Unknown,
}

/// What `printf ARGS` assigns.
///
/// ```text
/// printf -vX %s hi      → Named { name: "X", rest: [%s, hi] }
/// printf -- -v X        → Nothing (the format is `-v`)
/// printf "$F" x         → Unknown (`$F` may be `-vX`)
/// ```
pub fn printf_target(args: &[Word]) -> PrintfTarget<'_> {
    let mut target: Option<(String, &Word)> = None;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let Some(value) = word.value() else {
            return PrintfTarget::Unknown;
        };
        if value == "--" {
            i += 1;
            break;
        }
        if !value.starts_with('-') || value == "-" {
            break;
        }
        let Some(attached) = value.strip_prefix("-v") else {
            return PrintfTarget::Unknown;
        };
        if attached.is_empty() {
            let Some(name_word) = args.get(i + 1) else {
                return PrintfTarget::Unknown;
            };
            let Some(name) = name_word.value() else {
                return PrintfTarget::Unknown;
            };
            target = Some((name.to_string(), name_word));
            i += 2;
        } else {
            target = Some((attached.to_string(), word));
            i += 1;
        }
    }
    match target {
        Some((name, word)) => PrintfTarget::Named {
            name,
            word,
            rest: args.get(i..).unwrap_or(&[]),
        },
        None => PrintfTarget::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::word::Part;
    use crate::verdict::Span;

    /// Quoted, so a `[` is not a glob.
    fn words(texts: &[&str]) -> Vec<Word> {
        texts
            .iter()
            .map(|t| Word::new(vec![Part::Quoted(t.to_string())], Span::new(0, 0), true))
            .collect()
    }

    fn named(args: &[&str]) -> Option<(String, usize)> {
        let args = words(args);
        match printf_target(&args) {
            PrintfTarget::Named { name, rest, .. } => Some((name, rest.len())),
            _ => None,
        }
    }

    #[test]
    fn both_spellings_of_v_name_the_target() {
        assert_eq!(named(&["-v", "X", "%s", "hi"]), Some(("X".into(), 2)));
        assert_eq!(named(&["-vX", "%s", "hi"]), Some(("X".into(), 2)));
        assert_eq!(named(&["-va[$(id)]", "x"]), Some(("a[$(id)]".into(), 1)));
        // The last `-v` wins, and `--` ends the options.
        assert_eq!(named(&["-vA", "-v", "B", "--", "x"]), Some(("B".into(), 1)));
    }

    #[test]
    fn a_format_first_assigns_nothing() {
        for args in [&["r"][..], &["--", "-v", "r"], &["-", "r"], &[]] {
            assert_eq!(
                printf_target(&words(args)),
                PrintfTarget::Nothing,
                "{args:?}"
            );
        }
    }

    #[test]
    fn what_cannot_be_read_is_unknown() {
        let mut args = words(&["x"]);
        args.insert(
            0,
            Word::new(
                vec![Part::Variable {
                    name: "F".into(),
                    quoted: true,
                }],
                Span::new(0, 0),
                true,
            ),
        );
        assert_eq!(printf_target(&args), PrintfTarget::Unknown);
        assert_eq!(printf_target(&words(&["-x", "y"])), PrintfTarget::Unknown);
        assert_eq!(printf_target(&words(&["-v"])), PrintfTarget::Unknown);
    }
}
