//! A node's child in a named field, by an id read once.
//!
//! `tree_sitter::Node::child_by_field_name` looks the name up among all the
//! grammar's field names (a string compare each) on every call: about 600
//! instructions, more than finding the child itself, and the walk asks for a
//! field several times per assignment, function or loop. The ids do not change, so
//! they are read once; [`child`] and [`children`] then answer exactly what the
//! by-name calls answer, which a test checks on a tree with every field the model
//! reads.

use std::num::NonZeroU16;
use std::sync::OnceLock;
use tree_sitter::{Language, Node};

/// A field of the bash grammar's nodes that the model reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `body`: of a function definition, a loop or a redirected statement.
    Body,
    /// `index`: of a subscript (`a[i]`).
    Index,
    /// `name`: of a command, an assignment, a function definition or a subscript.
    Name,
    /// `operator`: of an arithmetic or test expression.
    Operator,
    /// `value`: of an assignment, or the words a `for` loop takes.
    Value,
    /// `variable`: of a `for` loop.
    Variable,
}

impl Field {
    /// Every field, in the order of [`ids`].
    const ALL: [Field; 6] = [
        Field::Body,
        Field::Index,
        Field::Name,
        Field::Operator,
        Field::Value,
        Field::Variable,
    ];

    /// The field's name in the grammar.
    pub fn name(self) -> &'static str {
        match self {
            Field::Body => "body",
            Field::Index => "index",
            Field::Name => "name",
            Field::Operator => "operator",
            Field::Value => "value",
            Field::Variable => "variable",
        }
    }
}

/// The grammar's id of every [`Field`], in the order of `Field::ALL` (`None` for a
/// name the grammar does not have: no node has a child there).
fn ids() -> &'static [Option<NonZeroU16>; 6] {
    static IDS: OnceLock<[Option<NonZeroU16>; 6]> = OnceLock::new();
    IDS.get_or_init(|| {
        let language: Language = tree_sitter_bash::LANGUAGE.into();
        Field::ALL.map(|field| language.field_id_for_name(field.name()))
    })
}

/// The grammar's id of `field`.
fn id(field: Field) -> Option<NonZeroU16> {
    ids()[field as usize]
}

/// The child of `node` in `field`, as `node.child_by_field_name(field.name())`
/// answers.
pub fn child<'t>(node: Node<'t>, field: Field) -> Option<Node<'t>> {
    node.child_by_field_id(id(field)?.get())
}

/// Every child of `node` in `field`, in order, as `node.children_by_field_name(
/// field.name(), cursor)` gives them.
pub fn children<'t>(node: Node<'t>, field: Field) -> Vec<Node<'t>> {
    let Some(id) = id(field) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut cursor = node.walk();
    if !cursor.goto_first_child() {
        return found;
    }
    loop {
        if cursor.field_id() == Some(id) {
            found.push(cursor.node());
        }
        if !cursor.goto_next_sibling() {
            return found;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_gives_what_the_by_name_call_gives() {
        let text = "f() { a[i]=1; x+=(y z); } > o; for v in a b; do (( n + 1 )); done; \
                    [[ a == b ]]; while true; do :; done > p; cat ${b[2]}\n";
        let parsed = crate::parse::parse(text).expect("parses");
        let mut cursor = parsed.tree.walk();
        let mut found = [0usize; 6];
        loop {
            let node = cursor.node();
            for (n, field) in Field::ALL.into_iter().enumerate() {
                assert_eq!(child(node, field), node.child_by_field_name(field.name()));
                let mut walk = node.walk();
                let ours = children(node, field);
                let theirs: Vec<Node> = node
                    .children_by_field_name(field.name(), &mut walk)
                    .collect();
                assert_eq!(ours, theirs, "{field:?} of {}", node.kind());
                found[n] += ours.len();
            }
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    // Every field the model reads occurs in the text.
                    assert!(found.iter().all(|&n| n > 0), "{found:?}");
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }
}
