//! The tree's tokens in text order, and what lies between them.
//!
//! A token is a leaf, or a node whose whole range is text the grammar owns (a
//! string, a heredoc body, a comment: its inner gaps are not dropped characters).
//! Text between two tokens that is not white space is text the grammar skipped;
//! both the misread check and the lost-`-` repair look for it.

use super::{kind, skip_subtree};
use tree_sitter::{Node, Tree, TreeCursor};

/// Node kinds whose whole range is text the grammar owns.
const OPAQUE: &[&str] = &[
    "string",
    "raw_string",
    "ansi_c_string",
    "heredoc_body",
    "heredoc_content",
    "comment",
    "translated_string",
];

/// The non-empty tokens of `tree`, in text order. Iterative: deep trees do not
/// overflow the stack.
pub(super) fn tokens(tree: &Tree) -> Tokens<'_> {
    Tokens {
        cursor: tree.walk(),
        done: false,
    }
}

/// Iterator of [`tokens`].
pub(super) struct Tokens<'t> {
    cursor: TreeCursor<'t>,
    done: bool,
}

impl<'t> Iterator for Tokens<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        while !self.done {
            let node = self.cursor.node();
            let opaque = OPAQUE.contains(&kind(node));
            let token = (opaque || node.child_count() == 0) && node.end_byte() > node.start_byte();
            let descended = !opaque && self.cursor.goto_first_child();
            if !descended {
                self.done = !skip_subtree(&mut self.cursor);
            }
            if token {
                return Some(node);
            }
        }
        None
    }
}

/// A `-` standing alone as a word at `at`: a blank (or the start) before it, a blank,
/// an operator or the end after it. The grammar can drop such a word.
pub(super) fn lone_dash_at(bytes: &[u8], at: usize) -> bool {
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n');
    bytes.get(at) == Some(&b'-')
        && (at == 0 || blank(bytes[at - 1]))
        && bytes
            .get(at + 1)
            .is_none_or(|&n| blank(n) || matches!(n, b';' | b'&' | b'|' | b')'))
}
