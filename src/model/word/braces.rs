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

/// A `{x..y[..step]}` sequence's items, if the text is one.
fn sequence(inner: &[(char, bool)]) -> Option<Vec<String>> {
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
    if let (Ok(a), Ok(b)) = (pieces[0].parse::<i64>(), pieces[1].parse::<i64>()) {
        let count = (a - b).unsigned_abs() / step as u64 + 1;
        if count > MAX_BRACE_WORDS as u64 {
            return Some(vec![String::new(); MAX_BRACE_WORDS + 1]);
        }
        let width = if pieces[0].starts_with('0') || pieces[1].starts_with('0') {
            pieces[0].len().max(pieces[1].len())
        } else {
            0
        };
        let dir = if a <= b { step } else { -step };
        let mut items = Vec::new();
        let mut v = a;
        loop {
            items.push(format!("{v:0width$}"));
            if v == b || (dir > 0 && v + dir > b) || (dir < 0 && v + dir < b) {
                break;
            }
            v += dir;
        }
        return Some(items);
    }
    let (mut a, mut b) = (pieces[0].chars(), pieces[1].chars());
    match (a.next(), a.next(), b.next(), b.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            let (x, y) = (x as i64, y as i64);
            let dir = if x <= y { step } else { -step };
            let mut items = Vec::new();
            let mut v = x;
            loop {
                items.push(char::from_u32(v as u32)?.to_string());
                if v == y || (dir > 0 && v + dir > y) || (dir < 0 && v + dir < y) {
                    break;
                }
                v += dir;
            }
            Some(items)
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
        Some(items) if !inner.iter().any(|&(c, q)| c == ',' && !q) => items
            .into_iter()
            .map(|s| s.chars().map(|c| (c, true)).collect())
            .collect(),
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
