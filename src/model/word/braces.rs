//! Bash brace expansion (`{a,b}`, `{1..3}`, nested), bounded: past the limits the
//! word is not expanded and the caller fails closed.

/// Most words a single brace expansion may produce before the word counts as dynamic.
const MAX_BRACE_WORDS: usize = 256;
/// Deepest brace nesting we expand.
const MAX_BRACE_DEPTH: usize = 16;

/// Finds the first brace expression bash would expand, at or after `from`: an
/// unquoted `{` with a matching unquoted `}` and, between them at the same depth, an
/// unquoted `,` or a `..` sequence. Returns `(open, close)`.
pub(super) fn find_brace(chars: &[(char, bool)], from: usize) -> Option<(usize, usize)> {
    let mut start = from;
    while start < chars.len() {
        let open = (start..chars.len()).find(|&i| chars[i] == ('{', false))?;
        // `${` is a parameter expansion, not a brace.
        let after_dollar = open > 0 && chars[open - 1] == ('$', false);
        let mut depth = 0usize;
        let mut comma = false;
        let mut close = None;
        for (j, &(c, quoted)) in chars.iter().enumerate().skip(open + 1) {
            if quoted {
                continue;
            }
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    close = Some(j);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => comma = true,
                _ => {}
            }
        }
        if let Some(close) = close
            && !after_dollar
            && (comma || sequence(&chars[open + 1..close]).is_some())
        {
            return Some((open, close));
        }
        start = open + 1;
    }
    None
}

/// A `{x..y[..step]}` sequence body, read but not yet spelled out: bounds of
/// numbers (with the zero-padded width bash keeps) or of single letters.
struct Sequence {
    from: i64,
    to: i64,
    step: i64,
    /// Zero-padded width of numbers, 0 for none; `None` for letters.
    width: Option<usize>,
}

impl Sequence {
    /// How many items the sequence has.
    fn len(&self) -> u128 {
        (i128::from(self.from) - i128::from(self.to)).unsigned_abs() / self.step as u128 + 1
    }

    /// Each item, in order.
    fn items(&self) -> Option<Vec<String>> {
        let dir = if self.from <= self.to {
            self.step
        } else {
            -self.step
        };
        let mut items = Vec::new();
        let mut v = self.from;
        loop {
            items.push(match self.width {
                Some(width) => format!("{v:0width$}"),
                None => char::from_u32(u32::try_from(v).ok()?)?.to_string(),
            });
            match v.checked_add(dir) {
                Some(next)
                    if v != self.to
                        && (dir < 0 || next <= self.to)
                        && (dir > 0 || next >= self.to) =>
                {
                    v = next
                }
                _ => break,
            }
        }
        Some(items)
    }
}

/// The `{x..y[..step]}` sequence the text is, if it is one.
fn sequence(inner: &[(char, bool)]) -> Option<Sequence> {
    if inner.iter().any(|&(_, q)| q) {
        return None;
    }
    let text: String = inner.iter().map(|&(c, _)| c).collect();
    let pieces: Vec<&str> = text.split("..").collect();
    if !(pieces.len() == 2 || pieces.len() == 3) {
        return None;
    }
    let step: i64 = match pieces.get(2) {
        Some(s) => s.parse::<i64>().ok()?.checked_abs()?.max(1),
        None => 1,
    };
    if let (Ok(from), Ok(to)) = (pieces[0].parse::<i64>(), pieces[1].parse::<i64>()) {
        let width = if pieces[0].starts_with('0') || pieces[1].starts_with('0') {
            pieces[0].len().max(pieces[1].len())
        } else {
            0
        };
        return Some(Sequence {
            from,
            to,
            step,
            width: Some(width),
        });
    }
    let (mut a, mut b) = (pieces[0].chars(), pieces[1].chars());
    match (a.next(), a.next(), b.next(), b.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            Some(Sequence {
                from: x as i64,
                to: y as i64,
                step,
                width: None,
            })
        }
        _ => None,
    }
}

type QChars = Vec<(char, bool)>;

/// Bash brace expansion of `chars` into `out`; `None` when too large or too deep.
pub(super) fn expand_braces(
    chars: &[(char, bool)],
    depth: usize,
    out: &mut Vec<QChars>,
) -> Option<()> {
    if depth > MAX_BRACE_DEPTH || out.len() > MAX_BRACE_WORDS {
        return None;
    }
    let Some((open, close)) = find_brace(chars, 0) else {
        out.push(chars.to_vec());
        return Some(());
    };
    let prefix = &chars[..open];
    let inner = &chars[open + 1..close];
    let suffix = &chars[close + 1..];
    let alternatives: Vec<QChars> = match sequence(inner) {
        Some(seq) if !inner.iter().any(|&(c, q)| c == ',' && !q) => {
            // Too many words to spell out: the caller fails closed.
            if seq.len() > MAX_BRACE_WORDS as u128 {
                return None;
            }
            seq.items()?
                .into_iter()
                .map(|s| s.chars().map(|c| (c, true)).collect())
                .collect()
        }
        _ => split_alternatives(inner),
    };
    for alternative in alternatives {
        let mut rest: QChars = alternative;
        rest.extend_from_slice(suffix);
        let mut expanded = Vec::new();
        expand_braces(&rest, depth + 1, &mut expanded)?;
        for tail in expanded {
            let mut word: QChars = prefix.to_vec();
            word.extend(tail);
            out.push(word);
            if out.len() > MAX_BRACE_WORDS {
                return None;
            }
        }
    }
    Some(())
}

/// Splits a brace body at its top-level unquoted commas.
fn split_alternatives(inner: &[(char, bool)]) -> Vec<QChars> {
    let mut alternatives = vec![Vec::new()];
    let mut depth = 0usize;
    for &(c, quoted) in inner {
        if !quoted {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    alternatives.push(Vec::new());
                    continue;
                }
                _ => {}
            }
        }
        if let Some(last) = alternatives.last_mut() {
            last.push((c, quoted));
        }
    }
    alternatives
}

#[cfg(test)]
mod tests {
    use crate::model::word::Word;
    use crate::verdict::Span;

    /// The words an unquoted text expands to, `None` past the limits.
    fn expand(text: &str) -> Option<Vec<String>> {
        Word::literal(text, Span::new(0, 0)).brace_expand()
    }

    #[test]
    fn sequences_expand_as_bash_spells_them() {
        assert_eq!(expand("a{1..3}").unwrap(), ["a1", "a2", "a3"]);
        assert_eq!(expand("{3..1}").unwrap(), ["3", "2", "1"]);
        assert_eq!(expand("{01..03}").unwrap(), ["01", "02", "03"]);
        assert_eq!(expand("{1..10..4}").unwrap(), ["1", "5", "9"]);
        assert_eq!(expand("{c..a}").unwrap(), ["c", "b", "a"]);
        assert_eq!(expand("{x,y}{1..2}").unwrap(), ["x1", "x2", "y1", "y2"]);
    }

    #[test]
    fn sequences_too_long_to_spell_out_fail_closed_at_once() {
        assert_eq!(expand("{1..100000}"), None);
        assert_eq!(expand("{1..257}"), None);
        assert_eq!(expand("{1..256}").map(|w| w.len()), Some(256));
        // Bounds whose distance overflows a 64-bit integer.
        assert_eq!(expand("{-9223372036854775808..9223372036854775807}"), None);
    }

    #[test]
    fn stepping_past_the_largest_number_stops_without_overflow() {
        assert_eq!(
            expand("{9223372036854775800..9223372036854775807..100}").unwrap(),
            ["9223372036854775800"]
        );
    }
}
