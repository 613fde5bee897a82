//! Splitting long commands before the grammar: the top-level `|`, `&&`, `||` and `;`
//! of a one-line command, found by a small scanner that knows quotes, `$(…)`, `${…}`
//! and process substitutions, so that each stage or list element is parsed alone.
//!
//! tree-sitter-bash keeps two parses alive at every `|` and its cost grows faster
//! than the text (a 100-stage pipeline of `grep $(cat p)` parses 32 times slower than
//! a 10-stage one); parsed part by part, the cost is linear. The parts are walked in
//! order with the frames the whole tree would give them (a pipeline's stages in their
//! own scopes, with their stdin piped), and their spans are those of the whole text.
//!
//! The scanner returns "not mine" (`None`) for anything it cannot place with
//! certainty — newlines, comments, backticks, heredocs, `case`, keywords, braces,
//! subshells, `&` in the background, `|&`, unbalanced text — and for the two shapes
//! where the grammar groups operators differently from a left-to-right reading
//! (`a | b | c && d`, and a redirect in an `&&` chain followed by a pipe): then the
//! whole text is parsed as before. `tests/split.rs` proves on the corpus and on
//! generated commands that the split walk builds exactly the records of the whole
//! parse.

/// How a part ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sep {
    /// `|`: the next part reads this one's output.
    Pipe,
    /// `&&` or `||`.
    AndOr,
    /// `;`.
    Semi,
}

/// One stage or list element: `source[start..end]`, and the operator after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Part {
    /// First byte of the part's text.
    pub start: usize,
    /// One past its last byte (before the operator).
    pub end: usize,
    /// The operator that ends it; `None` for the last part.
    pub sep: Option<Sep>,
}

/// Fewest parts worth splitting into: below this a single parse is as cheap.
pub(super) const MIN_PARTS: usize = 6;

/// Reserved words: a top-level word equal to one of these is not split.
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "function", "time", "coproc", "in", "!", "{", "}", "[[", "]]",
];

/// A reserved word, or a word the grammar may read as negation (`!x`).
fn reserved(word: &str) -> bool {
    RESERVED.contains(&word) || word.starts_with('!')
}

/// What an open construct is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// `$(`, `$((`, `<(`, `>(` (and parentheses inside them).
    Paren,
    /// `${`.
    Brace,
    /// `"`.
    Quote,
}

/// The top-level parts of `source`, when the scanner can place every operator and
/// there are at least `min_parts`; `None` otherwise.
pub(super) fn parts(source: &str, min_parts: usize) -> Option<Vec<Part>> {
    let bytes = source.as_bytes();
    // Cheap refusals first: text the scanner never splits.
    if bytes
        .iter()
        .any(|&b| matches!(b, b'\n' | b'\r' | b'`' | b'#'))
        || source.contains("case")
        || source.contains("<<")
        || source.contains("$'")
    {
        return None;
    }
    let mut parts: Vec<Part> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut start = 0;
    // Where the current top-level word started, if one is open.
    let mut word: Option<usize> = None;
    // The current part has a redirect at the top level.
    let mut redirected = false;
    let mut redirected_parts: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let top = stack.last().copied();
        if top == Some(Open::Quote) {
            match b {
                b'"' => {
                    stack.pop();
                }
                b'\\' => i += 1,
                b'$' if bytes.get(i + 1) == Some(&b'(') => {
                    stack.push(Open::Paren);
                    i += 1;
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    stack.push(Open::Brace);
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        if top.is_none() {
            let ends_word = matches!(b, b' ' | b'\t' | b'|' | b'&' | b';' | b'<' | b'>');
            if ends_word {
                if let Some(from) = word.take()
                    && reserved(&source[from..i])
                {
                    return None;
                }
            } else if word.is_none() {
                word = Some(i);
            }
        }
        match b {
            b'\'' => {
                if top == Some(Open::Brace) {
                    return None;
                }
                i += 1 + source.get(i + 1..)?.find('\'')?;
            }
            b'"' => {
                if top == Some(Open::Brace) {
                    return None;
                }
                stack.push(Open::Quote);
            }
            b'\\' => i += 1,
            b'$' if bytes.get(i + 1) == Some(&b'(') => {
                stack.push(Open::Paren);
                i += 1;
            }
            b'$' if bytes.get(i + 1) == Some(&b'{') => {
                stack.push(Open::Brace);
                i += 1;
            }
            b'(' => {
                let after_redirect = i > 0 && matches!(bytes[i - 1], b'<' | b'>');
                if top.is_none() && !after_redirect {
                    // A subshell, `((`, an array or a function definition.
                    return None;
                }
                stack.push(Open::Paren);
            }
            b')' => match stack.pop() {
                Some(Open::Paren) => {}
                _ => return None,
            },
            b'}' if top == Some(Open::Brace) => {
                stack.pop();
            }
            b'{' | b'}' if top.is_none() => return None,
            b'|' | b'&' | b';' | b'<' | b'>' if top.is_none() => {
                let next = bytes.get(i + 1).copied();
                let sep = match (b, next) {
                    (b'|', Some(b'|')) | (b'&', Some(b'&')) => {
                        i += 1;
                        Some(Sep::AndOr)
                    }
                    (b'|', Some(b'&')) | (b';', Some(b';' | b'&')) => return None,
                    (b'|', _) => Some(Sep::Pipe),
                    (b';', _) => Some(Sep::Semi),
                    // `&>`, `&>>`: a redirect; any other `&` runs in the background.
                    (b'&', Some(b'>')) => {
                        redirected = true;
                        None
                    }
                    (b'&', _) => return None,
                    _ => {
                        redirected = true;
                        // `>&`, `<&`, `>|`, `>>`: the second byte belongs to the
                        // operator (`>|` is not a pipe).
                        if matches!(next, Some(b'&' | b'|' | b'>')) {
                            i += 1;
                        }
                        None
                    }
                };
                if let Some(sep) = sep {
                    parts.push(Part {
                        start,
                        end: i + 1 - if sep == Sep::AndOr { 2 } else { 1 },
                        sep: Some(sep),
                    });
                    redirected_parts.push(redirected);
                    redirected = false;
                    start = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if !stack.is_empty() {
        return None;
    }
    if let Some(from) = word
        && reserved(&source[from..])
    {
        return None;
    }
    // The last part: a trailing `;` ends the command; a trailing `|`, `&&` or `||`
    // leaves it incomplete.
    if source[start..].trim_matches([' ', '\t']).is_empty() {
        if parts.last().and_then(|p| p.sep) != Some(Sep::Semi) {
            return None;
        }
        if let Some(last) = parts.last_mut() {
            last.sep = None;
        }
    } else {
        parts.push(Part {
            start,
            end: source.len(),
            sep: None,
        });
        redirected_parts.push(redirected);
    }
    if parts.len() < min_parts.max(2) || !grouped_as_written(&parts, &redirected_parts) {
        return None;
    }
    if parts
        .iter()
        .any(|p| source[p.start..p.end].trim_matches([' ', '\t']).is_empty())
    {
        return None;
    }
    Some(parts)
}

/// False for the shapes the grammar groups otherwise than bash's left-to-right
/// reading of pipelines inside lists: a redirect in an `&&`/`||` chain followed by
/// a pipe (`a && b > f | c`), and a list after two pipes (`a | b | c && d`, which the
/// grammar reads as `a | (b | c && d)`).
fn grouped_as_written(parts: &[Part], redirected: &[bool]) -> bool {
    let mut and_or = false;
    let mut pipes = 0;
    for (part, &redirect) in parts.iter().zip(redirected) {
        if redirect && and_or && part.sep == Some(Sep::Pipe) {
            return false;
        }
        match part.sep {
            Some(Sep::AndOr) => {
                if pipes >= 2 {
                    return false;
                }
                and_or = true;
                pipes = 0;
            }
            Some(Sep::Semi) | None => {
                and_or = false;
                pipes = 0;
            }
            Some(Sep::Pipe) => pipes += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Option<Vec<(&str, Option<Sep>)>> {
        let parts = parts(source, 2)?;
        Some(
            parts
                .iter()
                .map(|p| (&source[p.start..p.end], p.sep))
                .collect(),
        )
    }

    #[test]
    fn splits_at_top_level_operators_only() {
        assert_eq!(
            texts("a $(b | c) | d \"$(e && f)\" && g '|' ; h").unwrap(),
            vec![
                ("a $(b | c) ", Some(Sep::Pipe)),
                (" d \"$(e && f)\" ", Some(Sep::AndOr)),
                (" g '|' ", Some(Sep::Semi)),
                (" h", None),
            ]
        );
        assert_eq!(
            texts("a 2>&1 | b >| f || c &> g;").unwrap(),
            vec![
                ("a 2>&1 ", Some(Sep::Pipe)),
                (" b >| f ", Some(Sep::AndOr)),
                (" c &> g", None),
            ]
        );
    }

    #[test]
    fn refuses_what_it_cannot_place() {
        for text in [
            "a | b\nc | d",
            "a | b # c | d",
            "a | `b | c`",
            "a | (b | c)",
            "a | { b; }",
            "if a; then b; fi",
            "a & b | c",
            "a |& b | c",
            "a | b | c && d",
            "a && b > f | c",
            "a | $(b | c",
            "a | \"b | c",
            "a | b |",
            "a && && b",
            "a | cat <<EOF",
            "a | $(case x in x) y;; esac)",
            "a | ${x:-'|'} | b",
            "a | ! b",
            "a | !b",
            "a | $'\\'' | b",
        ] {
            assert_eq!(texts(text), None, "{text:?}");
        }
    }

    #[test]
    fn short_commands_are_not_split() {
        assert!(parts("a | b | c", MIN_PARTS).is_none());
        assert!(parts(&["a $(b)"; MIN_PARTS].join(" | "), MIN_PARTS).is_some());
    }
}
