//! Detection of tree-sitter-bash's silent misparse (upstream issue #347): a newline
//! that the grammar put inside a simple command, where bash ends the command.

use super::skip_subtree;
use tree_sitter::{Node, Tree};

/// Finds a newline that tree-sitter put *inside* a simple command: the gap between two
/// consecutive children of a `command` node holds a newline that is not escaped by a
/// backslash. Returns its byte offset. Walks iteratively (deep trees must not overflow
/// the stack).
pub(super) fn find_misparsed_newline(tree: &Tree, text: &[u8]) -> Option<usize> {
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "command"
            && let Some(at) = newline_between_children(node, text)
        {
            return Some(at);
        }
        if cursor.goto_first_child() {
            continue;
        }
        if !skip_subtree(&mut cursor) {
            return None;
        }
    }
}

fn newline_between_children(command: Node, text: &[u8]) -> Option<usize> {
    let mut previous_end: Option<usize> = None;
    let mut cursor = command.walk();
    for child in command.children(&mut cursor) {
        if let Some(end) = previous_end {
            let gap = text.get(end..child.start_byte())?;
            for (i, &byte) in gap.iter().enumerate() {
                let escaped = i > 0 && gap[i - 1] == b'\\';
                if byte == b'\n' && !escaped {
                    return Some(end + i);
                }
            }
        }
        previous_end = Some(child.end_byte());
    }
    None
}
