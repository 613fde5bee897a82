//! The tree-sitter wrapper: one reused parser per thread, the input limits, and the
//! work-arounds for two measured faults of tree-sitter-bash.
//!
//! * **Pipeline cliff**: the grammar keeps two parses alive at every `|`, and at the
//!   end of input the dead one goes through full error recovery. Parsing the text with
//!   a newline appended removes that constant (3-stage pipelines: ~31 µs → ~4 µs) and
//!   keeps every byte offset valid.
//! * **Silent misparse** (tree-sitter-bash issue #347): after a pipeline of two or more
//!   `|` that ends a line, the next line's words can become arguments of the last stage
//!   with no ERROR node. We detect the shape (a `command` whose consecutive children are
//!   separated by an unescaped newline, which bash never allows inside a simple
//!   command) and re-parse with that newline replaced by `;`: same length, so spans stay
//!   valid, and bash treats the newline there as a command terminator anyway.
//! * **Misread words**: the grammar drops a lone `-` word before a descriptor's
//!   redirect (`su - 2>&1` parses as `su 2>&1`), reads the `0` of `0<f` as a word and
//!   gives a close (`2>&-`) the next word. We re-parse with a stand-in byte it reads
//!   right and put the original back in the text (see `stand_ins.rs`).

use std::cell::RefCell;
mod bytes;
mod dollar;
pub mod field;
mod kind;
mod misparse;
mod problems;
mod span_map;
mod stand_ins;
mod tokens;

pub use bytes::all_bytes;
pub use dollar::{around_dollar, expansion_name};
pub use field::Field;
pub use kind::kind;
pub use problems::{ParseProblem, ProblemKind, problem};
pub use span_map::SpanMap;

use misparse::find_misparsed_newline;
use tree_sitter::{Parser, Tree};

/// How many times the misparse repair may re-parse one text before giving up (each
/// repair fixes at least one newline, so this bounds the work on hostile input).
const MAX_REPAIRS: usize = 64;

/// How many rounds of stand-ins one text may take (see `stand_ins.rs`).
const MAX_STAND_IN_ROUNDS: usize = 4;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// A parsed text: the tree and the exact text it was parsed from.
pub struct Parsed {
    /// The syntax tree.
    pub tree: Tree,
    /// The text the tree's byte offsets point into: the input, with a newline appended
    /// when it had none and misparsed newlines replaced by `;`. Same bytes as the input
    /// up to the input's length except those replacements. (A misread word was
    /// parsed with a stand-in byte; the text holds the original, which the tree's
    /// one-byte node there spans.)
    pub text: String,
    /// True when the silent-misparse repair could not settle the tree; the caller must
    /// fail closed.
    pub unrepaired: bool,
}

/// Why a text could not be parsed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFailure {
    /// tree-sitter returned no tree (it should not happen without a timeout).
    NoTree,
    /// The grammar could not be loaded (version mismatch between crates).
    Language(String),
}

/// Parses `input` as bash with this thread's reused parser, applying the
/// work-arounds described in the module docs.
pub fn parse(input: &str) -> Result<Parsed, ParseFailure> {
    let mut text = String::with_capacity(input.len() + 1);
    text.push_str(input);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let (tree, unrepaired) = parse_settled(&mut text)?;
    let mut found = stand_ins::stand_ins(&tree, text.as_bytes());
    if found.is_empty() {
        return Ok(Parsed {
            tree,
            text,
            unrepaired,
        });
    }
    // One stand-in can uncover another (`echo - 0<&-` drops the `-` only once the
    // `0` is read as a descriptor): a few rounds, each on the last tree.
    let mut repaired_text = text.clone();
    let mut all = Vec::new();
    for _ in 0..MAX_STAND_IN_ROUNDS {
        stand_ins::put(&mut repaired_text, &found, false);
        all.append(&mut found);
        let (repaired, still_unrepaired) = parse_settled(&mut repaired_text)?;
        let new_error = repaired.root_node().has_error() && !tree.root_node().has_error();
        if new_error || !stand_ins::all_read(&repaired, &all) {
            // A stand-in was not read as what it stands for, or broke the parse
            // (`cat 3<<<x` is an ERROR): keep the first tree (the misread check
            // reports a lost `-`; lowering reads a glued `0`).
            break;
        }
        found = stand_ins::stand_ins(&repaired, repaired_text.as_bytes());
        if found.is_empty() {
            stand_ins::put(&mut repaired_text, &all, true);
            return Ok(Parsed {
                tree: repaired,
                text: repaired_text,
                unrepaired: still_unrepaired,
            });
        }
    }
    Ok(Parsed {
        tree,
        text,
        unrepaired,
    })
}

/// Parses `text`, repairing the silent misparse (each misparsed newline becomes a
/// `;` in `text`). Returns the tree and whether the repair could not settle it.
fn parse_settled(text: &mut String) -> Result<(Tree, bool), ParseFailure> {
    let mut tree = parse_text(text)?;
    // The fault needs a pipe and a line break inside the text: skip the tree walk
    // for the common one-line command.
    let body = &text.as_bytes()[..text.len() - 1];
    if !body.contains(&b'\n') || !body.contains(&b'|') {
        return Ok((tree, false));
    }
    for _ in 0..MAX_REPAIRS {
        let Some(newline) = find_misparsed_newline(&tree, text.as_bytes()) else {
            return Ok((tree, false));
        };
        // The byte is an ASCII newline, so replacing it keeps the text valid UTF-8.
        text.replace_range(newline..newline + 1, ";");
        tree = parse_text(text)?;
    }
    let unrepaired = find_misparsed_newline(&tree, text.as_bytes()).is_some();
    Ok((tree, unrepaired))
}

fn parse_text(text: &str) -> Result<Tree, ParseFailure> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .map_err(|e| ParseFailure::Language(e.to_string()))?;
            *slot = Some(parser);
        }
        match slot.as_mut() {
            Some(parser) => parser.parse(text, None).ok_or(ParseFailure::NoTree),
            None => Err(ParseFailure::NoTree),
        }
    })
}

/// Moves the cursor to the next node in pre-order that is not below the current one;
/// `false` when the walk is over.
pub(crate) fn skip_subtree(cursor: &mut tree_sitter::TreeCursor) -> bool {
    loop {
        if cursor.goto_next_sibling() {
            return true;
        }
        if !cursor.goto_parent() {
            return false;
        }
    }
}
