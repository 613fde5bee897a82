//! A `$` the grammar leaves as a token of its own. tree-sitter-bash makes one of a
//! `$` before a string (`$"x"`), before nothing bash expands (`a$`), and, after quotes
//! and a `NAME=`, before a name it splits off into the next node (`'k'v=$X-` as
//! `'k'v=$` and `X-`), where bash expands `$X` inside one word. Lowering joins that
//! split in a command's arguments; elsewhere the parser reports it.

use super::kind;
use tree_sitter::Node;

/// The parameter a `$` just before `after` names: a name (`X`, `_x1`), one digit, or
/// a special parameter (`@`, `*`, `#`, `?`, `-`, `$`, `!`). `None` when the `$` is
/// literal text to bash (`$` before `/`, `.`, `=` or the end).
pub fn expansion_name(after: &str) -> Option<&str> {
    let first = after.chars().next()?;
    if first.is_ascii_alphabetic() || first == '_' {
        let len = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        return Some(&after[..len]);
    }
    (first.is_ascii_digit() || "@*#?-$!".contains(first)).then(|| &after[..1])
}

/// What surrounds a `$` token: the outermost node it ends (it, or the concatenations
/// whose last piece it is), and the node glued right after it, if any.
pub fn around_dollar(dollar: Node) -> (Node, Option<Node>) {
    let mut top = dollar;
    loop {
        if let Some(next) = top.next_sibling() {
            let glued = (next.start_byte() == dollar.end_byte()).then_some(next);
            return (top, glued);
        }
        match top.parent() {
            Some(parent) if kind(parent) == "concatenation" => top = parent,
            _ => return (top, None),
        }
    }
}
