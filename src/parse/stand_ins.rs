//! Stand-ins: words tree-sitter-bash misreads, parsed as a byte it reads right and
//! then put back.
//!
//! * **A lone `-`** before a descriptor's redirect, a heredoc or `$"..."` is dropped
//!   with no ERROR node (`su - 2>&1` parses as `su 2>&1`, `cat - <<EOF` as `cat
//!   <<EOF`). Bash reads it as a word like any other (`su -` starts a login shell,
//!   `python3 -` reads its program from stdin). Stand-in: `_`, a word.
//! * **A `0` glued to a redirect operator** (`0<f`, `0<&-`) is a number word to the
//!   grammar, a descriptor to bash; before a program it derails the parse (`0<&-
//!   prog "a" b; rm x` ends in a string that swallows the rest). Stand-in: `3`,
//!   which the grammar reads as a `file_descriptor`.
//! * **The `-` of a close** (`<&-`, `2>&-`) followed by words: the grammar takes the
//!   next word as the close's target, and two words as an ERROR (`ag 2>&- a.txt -l`).
//!   Stand-in: `1`, a descriptor duplication the grammar reads right; the target
//!   `-` then closes, as bash reads `>&-`.
//!
//! The text is parsed again with the stand-ins, and the original bytes are put back
//! in the text: the tree's one-byte node there then spans them. Same length, so
//! every span stays valid. If a stand-in is not read as the node it stands for, or
//! the new tree has an error the first did not (`cat 3<<<x`), the repair is undone:
//! the first tree stays, and the misread check (a lost `-`) or the lowering (a glued
//! `0`) deals with it.

use super::kind;
use super::tokens::{lone_dash_at, tokens};
use tree_sitter::Tree;

/// One byte to parse as another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct StandIn {
    /// Byte offset in the text.
    at: usize,
    /// The byte bash reads there.
    original: &'static str,
    /// The byte the grammar is given.
    stand_in: &'static str,
    /// The kind of the leaf the stand-in must become.
    reads_as: &'static str,
}

/// The stand-ins `text` needs under `tree`: lost lone `-` words, glued `0`s and
/// closes followed by words. One pass over the bytes says which shapes the text may
/// hold; the tree is only looked at for those.
pub(super) fn stand_ins(tree: &Tree, text: &[u8]) -> Vec<StandIn> {
    let (mut dash, mut zero, mut close) = (false, false, false);
    for (at, &byte) in text.iter().enumerate() {
        match byte {
            b'-' => {
                dash |= lone_dash_at(text, at);
                close |= at >= 2 && text[at - 1] == b'&' && matches!(text[at - 2], b'<' | b'>');
            }
            b'0' => zero |= glued_zero_at(text, at),
            _ => {}
        }
    }
    let mut found = Vec::new();
    if dash {
        found.extend(lost_dashes(tree, text));
    }
    if zero {
        found.extend(glued_zeros(tree, text));
    }
    if close {
        found.extend(closes_before_words(tree, text));
    }
    found
}

/// The `-` of every close operator (`<&-`, `>&-`) that words follow.
fn closes_before_words(tree: &Tree, text: &[u8]) -> Vec<StandIn> {
    tokens(tree)
        .filter(|token| matches!(kind(*token), "<&-" | ">&-"))
        .filter(|token| {
            let after = text.get(token.end_byte()..).unwrap_or_default();
            let next = after.iter().find(|b| !matches!(b, b' ' | b'\t'));
            let blank = after.first().is_some_and(|b| matches!(b, b' ' | b'\t'));
            blank && next.is_some_and(|b| !matches!(b, b'\n' | b';' | b'&' | b'|' | b')' | b'#'))
        })
        .map(|token| StandIn {
            at: token.end_byte() - 1,
            original: "-",
            stand_in: "1",
            reads_as: "number",
        })
        .collect()
}

/// Every lone `-` in `text` that no token of `tree` covers.
fn lost_dashes(tree: &Tree, text: &[u8]) -> Vec<StandIn> {
    let mut lost = Vec::new();
    let mut covered_to = 0usize;
    let gap = |from: usize, to: usize, lost: &mut Vec<StandIn>| {
        lost.extend(
            (from..to)
                .filter(|&at| lone_dash_at(text, at))
                .map(|at| StandIn {
                    at,
                    original: "-",
                    stand_in: "_",
                    reads_as: "word",
                }),
        );
    };
    for token in tokens(tree) {
        let (start, end) = (token.start_byte(), token.end_byte());
        if start > covered_to {
            gap(covered_to, start, &mut lost);
        }
        covered_to = covered_to.max(end);
    }
    gap(covered_to, text.len(), &mut lost);
    lost
}

/// Every `0` word glued to a redirect operator that the grammar read as a number
/// in a command (not in arithmetic or a test, where `0<1` compares).
fn glued_zeros(tree: &Tree, text: &[u8]) -> Vec<StandIn> {
    let root = tree.root_node();
    (0..text.len())
        .filter(|&at| glued_zero_at(text, at))
        .filter(|&at| {
            root.descendant_for_byte_range(at, at + 1)
                .is_some_and(|leaf| {
                    kind(leaf) == "number"
                        && leaf.start_byte() == at
                        && leaf.end_byte() == at + 1
                        && leaf.parent().is_some_and(|p| {
                            matches!(
                                kind(p),
                                "command_name"
                                    | "command"
                                    | "file_redirect"
                                    | "redirected_statement"
                            )
                        })
                })
        })
        .map(|at| StandIn {
            at,
            original: "0",
            stand_in: "3",
            reads_as: "file_descriptor",
        })
        .collect()
}

/// A `0` word at `at` glued to a redirect operator. Not before a heredoc or
/// here-string: the grammar takes no descriptor there (`cat 3<<<x` is an ERROR).
fn glued_zero_at(text: &[u8], at: usize) -> bool {
    text.get(at) == Some(&b'0')
        && matches!(text.get(at + 1), Some(b'<' | b'>'))
        && text.get(at + 1..at + 3) != Some(b"<<")
        && (at == 0
            || matches!(
                text[at - 1],
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'('
            ))
}

/// Writes the stand-ins' bytes into `text` (`original` false) or puts the original
/// bytes back (`original` true). Every offset holds an ASCII byte.
pub(super) fn put(text: &mut String, stand_ins: &[StandIn], original: bool) {
    for s in stand_ins {
        let byte = if original { s.original } else { s.stand_in };
        text.replace_range(s.at..s.at + 1, byte);
    }
}

/// True when every stand-in is exactly one leaf of the kind it stands for.
pub(super) fn all_read(tree: &Tree, stand_ins: &[StandIn]) -> bool {
    let root = tree.root_node();
    stand_ins.iter().all(|s| {
        root.descendant_for_byte_range(s.at, s.at + 1)
            .is_some_and(|node| {
                kind(node) == s.reads_as && node.start_byte() == s.at && node.end_byte() == s.at + 1
            })
    })
}
