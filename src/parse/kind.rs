//! A node's kind name, read from a table.
//!
//! `tree_sitter::Node::kind` measures the grammar's C string (`strlen`) and checks
//! it is UTF-8 on every call: about 150 instructions, and the walk asks for the kind
//! of most nodes it meets, some several times. The grammar's names do not change,
//! so they are read once, by symbol id, into a table; [`kind`] is then one lookup.
//! It answers exactly what `Node::kind` answers (same symbol, same name: aliases
//! included), which a test checks on every symbol of the grammar.

use std::borrow::Borrow;
use std::sync::OnceLock;
use tree_sitter::{Language, Node};

/// The kind name of every symbol id of the bash grammar, by id.
fn names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let language: Language = tree_sitter_bash::LANGUAGE.into();
        (0..language.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| language.node_kind_for_id(id))
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    })
}

/// The kind of `node`, as `node.kind()` names it (`"command"`, `"word"`, `"|"`).
///
/// ```text
/// kind(tree.root_node()) == "program"
/// ```
pub fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    let node = node.borrow();
    match names().get(usize::from(node.kind_id())) {
        Some(name) => name,
        // The table holds every symbol and alias of the grammar, so a node's id is
        // always in it; were it not, the node is read as a syntax error (the walk
        // then fails closed).
        None => "ERROR",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symbol_has_the_name_tree_sitter_gives() {
        let language: Language = tree_sitter_bash::LANGUAGE.into();
        assert!(names().len() > 100, "the grammar has a few hundred symbols");
        for id in 0..language.node_kind_count() {
            let id = u16::try_from(id).expect("ids fit u16");
            assert_eq!(
                Some(names()[usize::from(id)].as_str()),
                language.node_kind_for_id(id),
                "symbol {id}"
            );
        }
    }

    #[test]
    fn kinds_of_a_parsed_tree_match_node_kind() {
        let text =
            "f() { a=$(b | c) && [[ -n $x ]] || (( i++ )); } >o 2>&1; case $y in z) w;; esac\n";
        let parsed = crate::parse::parse(text).expect("parses");
        let mut cursor = parsed.tree.walk();
        let mut seen = 0;
        loop {
            let node = cursor.node();
            assert_eq!(kind(node), node.kind());
            seen += 1;
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    assert!(seen > 50, "walked {seen} nodes");
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }
}
