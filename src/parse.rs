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

use std::cell::RefCell;
use tree_sitter::{Node, Parser, Tree};

/// How many times the misparse repair may re-parse one text before giving up (each
/// repair fixes at least one newline, so this bounds the work on hostile input).
const MAX_REPAIRS: usize = 64;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// A parsed text: the tree and the exact text it was parsed from.
pub struct Parsed {
    /// The syntax tree.
    pub tree: Tree,
    /// The text the tree's byte offsets point into: the input, with a newline appended
    /// when it had none and misparsed newlines replaced by `;`. Same bytes as the input
    /// up to the input's length except those replacements.
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

/// Parses `input` as bash with this thread's reused parser, applying both
/// work-arounds described in the module docs.
pub fn parse(input: &str) -> Result<Parsed, ParseFailure> {
    let mut text = String::with_capacity(input.len() + 1);
    text.push_str(input);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut tree = parse_text(&text)?;
    // The fault needs a pipe and a line break inside the text: skip the tree walk
    // for the common one-line command.
    let body = &text.as_bytes()[..text.len() - 1];
    if !body.contains(&b'\n') || !body.contains(&b'|') {
        return Ok(Parsed {
            tree,
            text,
            unrepaired: false,
        });
    }
    for _ in 0..MAX_REPAIRS {
        let Some(newline) = find_misparsed_newline(&tree, text.as_bytes()) else {
            return Ok(Parsed {
                tree,
                text,
                unrepaired: false,
            });
        };
        // The byte is an ASCII newline, so replacing it keeps the text valid UTF-8.
        text.replace_range(newline..newline + 1, ";");
        tree = parse_text(&text)?;
    }
    let unrepaired = find_misparsed_newline(&tree, text.as_bytes()).is_some();
    Ok(Parsed {
        tree,
        text,
        unrepaired,
    })
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

/// Finds a newline that tree-sitter put *inside* a simple command: the gap between two
/// consecutive children of a `command` node holds a newline that is not escaped by a
/// backslash. Returns its byte offset. Walks iteratively (deep trees must not overflow
/// the stack).
fn find_misparsed_newline(tree: &Tree, text: &[u8]) -> Option<usize> {
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

/// Moves the cursor to the next node in pre-order that is not below the current one;
/// `false` when the walk is over.
fn skip_subtree(cursor: &mut tree_sitter::TreeCursor) -> bool {
    loop {
        if cursor.goto_next_sibling() {
            return true;
        }
        if !cursor.goto_parent() {
            return false;
        }
    }
}

/// The first ERROR or MISSING node in the tree, if any, as a byte range. Iterative.
pub fn first_error(tree: &Tree) -> Option<(usize, usize, bool)> {
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

/// Node kinds whose whole range is text the grammar owns (their inner gaps are not
/// dropped characters).
const OPAQUE: &[&str] = &[
    "string",
    "raw_string",
    "ansi_c_string",
    "heredoc_body",
    "heredoc_content",
    "comment",
    "translated_string",
];

/// Finds text the grammar read differently from bash, with no ERROR node to show it,
/// and returns its byte offset; the caller must fail closed. Three shapes:
///
/// * text no token covers: the grammar skips an escaped space or tab at the start
///   of a word (`x \ a` parses as `x a`; bash sees `x` and ` a`) and can drop a lone
///   `-` before `$"..."`;
/// * a `word` token with an unescaped blank in it (`{ }` is one word to the grammar,
///   two to bash);
/// * a `$'...'` token that does not end where bash ends it: the grammar reads `\\'`
///   as an escaped quote, so `echo $'\\' ; rm -rf ~ ; echo '\'` would hide `rm -rf ~`
///   inside one string.
///
/// The tree is only walked when the text holds one of the triggers (`\ `, `\<tab>`,
/// `$"`, `{ `, or `$'` with a backslash), so ordinary commands pay nothing.
pub fn dropped_escape(tree: &Tree, text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let pairs = |a: u8, b: &[u8]| bytes.windows(2).any(|w| w[0] == a && b.contains(&w[1]));
    let suspicious = pairs(b'\\', b" \t")
        || pairs(b'$', b"\"")
        || pairs(b'{', b" \t")
        || (pairs(b'$', b"'") && bytes.contains(&b'\\'));
    if !suspicious {
        return None;
    }
    let mut covered_to = 0usize;
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let opaque = OPAQUE.contains(&node.kind());
        if (opaque || node.child_count() == 0) && node.end_byte() > node.start_byte() {
            let (start, end) = (node.start_byte(), node.end_byte());
            if let Some(at) = escape_in_gap(bytes, covered_to, start) {
                return Some(at);
            }
            let misread = match node.kind() {
                "word" => has_unescaped_blank(bytes.get(start..end).unwrap_or_default()),
                "ansi_c_string" => ansi_c_end(bytes, start) != Some(end),
                _ => false,
            };
            if misread {
                return Some(start);
            }
            covered_to = covered_to.max(end);
        }
        if !opaque && cursor.goto_first_child() {
            continue;
        }
        if !skip_subtree(&mut cursor) {
            return escape_in_gap(bytes, covered_to, bytes.len());
        }
    }
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
