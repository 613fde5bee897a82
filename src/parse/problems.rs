//! What the parser could not understand, as data: an ERROR or MISSING node, text the
//! grammar reads differently from bash, or a misparse that could not be repaired.
//! Turning a problem into a finding is the input rule's job, not the parser's.

use super::dollar::{around_dollar, expansion_name};
use super::kind;
use super::tokens::{lone_dash_at, tokens};
use super::{Parsed, skip_subtree};
use tree_sitter::Tree;

/// The kind of a [`ParseProblem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// An ERROR node: text the grammar could not parse.
    Error,
    /// A MISSING node: the command is incomplete.
    Missing,
    /// Text the grammar read differently from bash: an escaped blank it skipped, a
    /// blank inside a word token, a `$'...'` that ends elsewhere than in bash.
    Misread,
    /// The silent-misparse repair could not settle the tree.
    Unrepaired,
}

/// A problem in a parsed text: what, and where (byte offsets into the parsed text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseProblem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Start byte in the parsed text.
    pub start: usize,
    /// End byte in the parsed text (at least `start + 1`, at most the text's length).
    pub end: usize,
}

/// The first problem of a parsed text, if any: an ERROR or MISSING node first, then
/// misread text, then an unrepaired misparse.
pub fn problem(parsed: &Parsed) -> Option<ParseProblem> {
    let len = parsed.text.len();
    if let Some((start, end, missing)) = first_error(&parsed.tree) {
        let kind = if missing {
            ProblemKind::Missing
        } else {
            ProblemKind::Error
        };
        return Some(ParseProblem {
            kind,
            start,
            end: end.max(start + 1).min(len),
        });
    }
    if let Some(at) = dropped_escape(&parsed.tree, &parsed.text)
        .or_else(|| split_expansion(&parsed.tree, &parsed.text))
    {
        return Some(ParseProblem {
            kind: ProblemKind::Misread,
            start: at,
            end: at + 1,
        });
    }
    if parsed.unrepaired {
        return Some(ParseProblem {
            kind: ProblemKind::Unrepaired,
            start: 0,
            end: len,
        });
    }
    None
}

/// The first ERROR or MISSING node in the tree, if any, as a byte range. Iterative.
fn first_error(tree: &Tree) -> Option<(usize, usize, bool)> {
    if !tree.root_node().has_error() {
        return None;
    }
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            return Some((node.start_byte(), node.end_byte(), node.is_missing()));
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        if !skip_subtree(&mut cursor) {
            return None;
        }
    }
}

/// Finds text the grammar read differently from bash, with no ERROR node to show it,
/// and returns its byte offset; the caller must fail closed. Four shapes:
///
/// * text no token covers: the grammar skips an escaped space or tab at the start
///   of a word (`x \ a` parses as `x a`; bash sees `x` and ` a`), and a lone `-`
///   it dropped that [`parse`](super::parse) could not put back;
/// * a `word` token with an unescaped blank in it (`{ }` is one word to the grammar,
///   two to bash);
/// * a `$'...'` token that does not end where bash ends it: the grammar reads `\\'`
///   as an escaped quote, so `echo $'\\' ; rm -rf ~ ; echo '\'` would hide `rm -rf ~`
///   inside one string;
/// * a ``` `` ``` or `` ` ` `` token (an empty substitution) inside another
///   substitution: the grammar reads `` `a` `b` `` as one substitution running `a`
///   with `b`, where bash runs two.
///
/// The tree is only walked when the text holds one of the triggers (`\ `, `\<tab>`,
/// `$"`, `$'` with a backslash, a lone `-` word, or two backticks with nothing but
/// blanks between), so ordinary commands pay nothing. A `{ ` alone (every brace
/// group and function body has one) only looks at the token there: a word with a
/// blank in it is always the grammar's `{ }` word.
fn dropped_escape(tree: &Tree, text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // One pass over the bytes: `\ ` or `\<tab>`, `$"`, a lone `-` word, or a `$'` in
    // a text with a backslash somewhere, for the whole walk; `{ ` or `{<tab>` for the
    // token check.
    let mut suspicious = false;
    let mut dollar_quote = false;
    let mut open_brace = false;
    for (i, &byte) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        match (byte, next) {
            (b'\\', Some(b' ' | b'\t')) | (b'$', Some(b'"')) => {
                suspicious = true;
                break;
            }
            // The grammar can drop a lone `-` word: before `$"..."`, and before a
            // descriptor's redirect or a heredoc (`su - 2>&1` parses as `su 2>&1`).
            (b'-', _) if lone_dash_at(bytes, i) => {
                suspicious = true;
                break;
            }
            (b'{', Some(b' ' | b'\t')) => open_brace = true,
            // Two backticks with only blanks between: the grammar's `` ` ` `` token.
            (b'`', Some(b' ' | b'\t' | b'`'))
                if bytes[i + 1..]
                    .iter()
                    .find(|b| !matches!(b, b' ' | b'\t'))
                    .is_some_and(|&b| b == b'`') =>
            {
                suspicious = true;
                break;
            }
            (b'$', Some(b'\'')) => dollar_quote = true,
            _ => {}
        }
    }
    let suspicious = suspicious || (dollar_quote && bytes.contains(&b'\\'));
    if !suspicious {
        return open_brace.then(|| blank_brace_word(tree, bytes)).flatten();
    }
    let mut covered_to = 0usize;
    for token in tokens(tree) {
        let (start, end) = (token.start_byte(), token.end_byte());
        if let Some(at) = escape_in_gap(bytes, covered_to, start) {
            return Some(at);
        }
        let misread = match kind(token) {
            "word" => has_unescaped_blank(bytes.get(start..end).unwrap_or_default()),
            "ansi_c_string" => ansi_c_end(bytes, start) != Some(end),
            // `` ` ` `` is an empty substitution only standing alone: after the
            // start of another, its first backtick closed that one (`` `a` `b` ``
            // is two substitutions to bash, one holding `a` and `b` to the grammar).
            "``" => std::iter::successors(token.parent(), |n| n.parent())
                .any(|a| kind(a) == "command_substitution" && a.start_byte() < start),
            _ => false,
        };
        if misread {
            return Some(start);
        }
        covered_to = covered_to.max(end);
    }
    escape_in_gap(bytes, covered_to, bytes.len())
}

/// A `$NAME` the grammar split where lowering cannot join it again: after quotes
/// and a `NAME=`, tree-sitter-bash ends a word at the `$` and starts the next node at
/// the name (`A='k'v=$X-x` is an assignment `A='k'v=$` and a command `X-x` to it,
/// `export A='k'v=$X` a declaration of `A` and a word `X`), where bash expands `$X`
/// inside one word. In a command's arguments and a redirect's words lowering joins
/// the two again (see `build.rs`); anywhere else (an assignment's value, a
/// declaration, an array) the tree is misread. Returns the `$`'s offset.
///
/// Only walked when the text holds a quote followed later by `$` and a name.
fn split_expansion(tree: &Tree, text: &str) -> Option<usize> {
    let quote = text.find(['\'', '"'])?;
    let dollar_name = |at: usize| {
        text.as_bytes().get(at) == Some(&b'$')
            && text.get(at + 1..).and_then(expansion_name).is_some()
    };
    if !(quote..text.len()).any(dollar_name) {
        return None;
    }
    // Only a `$` token before a name can be split (anywhere in the text, once it
    // holds the trigger): each is looked up from the root, where a walk of the
    // whole tree costs about ten times more.
    let root = tree.root_node();
    (0..text.len()).filter(|&at| dollar_name(at)).find(|&at| {
        root.descendant_for_byte_range(at, at + 1)
            .filter(|n| kind(*n) == "$" && n.child_count() == 0 && n.start_byte() == at)
            .is_some_and(|dollar| split_here(dollar))
    })
}

/// Whether a `$` token is split off from its name where lowering cannot join it:
/// it does not open an expansion or sit in a string, and what holds the outermost
/// node it ends is not a command or redirect (whose words lowering joins).
fn split_here(dollar: tree_sitter::Node) -> bool {
    let lone = dollar
        .parent()
        .is_none_or(|p| !matches!(kind(p), "simple_expansion" | "expansion" | "string"));
    let (top, _) = around_dollar(dollar);
    let joined =
        |p: tree_sitter::Node| matches!(kind(p), "command" | "file_redirect" | "heredoc_redirect");
    lone && top.parent().is_none_or(|p| !joined(p))
}

/// The start of the first `word` token that holds a `{` followed by a blank and an
/// unescaped blank (the grammar's `{ }`, two words to bash). Looks only at the token
/// at each `{` and blank pair, not the whole tree.
fn blank_brace_word(tree: &Tree, bytes: &[u8]) -> Option<usize> {
    let root = tree.root_node();
    (0..bytes.len().saturating_sub(1)).find_map(|i| {
        if bytes[i] != b'{' || !matches!(bytes[i + 1], b' ' | b'\t') {
            return None;
        }
        let node = root.descendant_for_byte_range(i, i + 2)?;
        let (start, end) = (node.start_byte(), node.end_byte());
        (kind(node) == "word" && has_unescaped_blank(bytes.get(start..end).unwrap_or_default()))
            .then_some(start)
    })
}

/// An unescaped space or tab inside a word token.
fn has_unescaped_blank(word: &[u8]) -> bool {
    let mut escaped = false;
    for &b in word {
        if !escaped && (b == b' ' || b == b'\t') {
            return true;
        }
        escaped = !escaped && b == b'\\';
    }
    false
}

/// Where bash ends a `$'...'` starting at `start`: a backslash takes the next byte,
/// the first other `'` closes it.
fn ansi_c_end(text: &[u8], start: usize) -> Option<usize> {
    let mut i = start.checked_add(2)?;
    loop {
        match text.get(i)? {
            b'\\' => i += 2,
            b'\'' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// A character in `bytes[from..to]` that is neither white space nor a line
/// continuation: text no token covers.
fn escape_in_gap(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    let gap = bytes.get(from..to)?;
    let mut i = 0;
    while i < gap.len() {
        match gap[i] {
            b'\\' if gap.get(i + 1) == Some(&b'\n') => i += 2,
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => return Some(from + i),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first split `$` found by walking the whole tree, as the parser did before
    /// it looked each `$` up: the reference the lookup must agree with.
    fn split_by_walk(tree: &Tree, text: &str) -> Option<usize> {
        let mut cursor = tree.walk();
        loop {
            let node = cursor.node();
            let names = text.get(node.start_byte() + 1..).and_then(expansion_name);
            if kind(node) == "$" && node.child_count() == 0 && names.is_some() {
                let lone = node.parent().is_none_or(|p| {
                    !matches!(kind(p), "simple_expansion" | "expansion" | "string")
                });
                let (top, _) = around_dollar(node);
                let joined = |p: tree_sitter::Node| {
                    matches!(kind(p), "command" | "file_redirect" | "heredoc_redirect")
                };
                if lone && top.parent().is_none_or(|p| !joined(p)) {
                    return Some(node.start_byte());
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            if !skip_subtree(&mut cursor) {
                return None;
            }
        }
    }

    #[test]
    fn a_split_dollar_is_found_where_the_whole_walk_finds_it() {
        let cases = [
            ("A='k'v=$X-x", true),
            ("A='k'v=x$X-x", true),
            ("A='k'v$X-x", true),
            ("A=\"k\"v=$X-x", true),
            ("x=('k'v=$X-x)", true),
            ("B=$Y; A='k'v=$X-x", true),
            ("ls$X$1 \"\t$X\"", true),
            ("echo 'k'v=$X-x", false),
            ("echo \"$HOME\" 'a'", false),
            ("f() { local n=1; echo \"$n\"; }; f", false),
            ("A='k'$X-x", false),
            ("cat > 'o' <<< a$X-b", false),
            ("echo ${x:-'k'v=$X-x}", false),
        ];
        let mut split = 0;
        for (text, expected) in cases {
            let parsed = crate::parse::parse(text).expect("parses");
            let found = split_expansion(&parsed.tree, &parsed.text);
            assert_eq!(found, split_by_walk(&parsed.tree, &parsed.text), "{text}");
            split += usize::from(found.is_some());
            if expected {
                assert!(found.is_some(), "{text}");
            }
        }
        assert!(split >= 7, "{split} of the cases are split");
    }
}
