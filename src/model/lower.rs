//! Lowering: syntax nodes to the model's values — words (with script variables
//! substituted and braces expanded), assignments, redirects and test operands. Free
//! functions over one [`Source`]; the traversal that calls them is in `walk.rs`.

use super::command::{Assignment, Heredoc, Redirect};
use super::known_output;
use super::problem::Problem;
use super::scope::Scope;
use super::word::{Part, Word, build_word, build_word_with, decode_heredoc, split_tilde};
use crate::parse::SpanMap;
use crate::parse::kind;
use crate::parse::{Field, field};
use crate::verdict::Span;
use std::path::Path;
use tree_sitter::Node;

/// The text a tree was parsed from and how its positions map to the command.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    /// The parsed text (the command, or a nested script).
    pub text: &'a str,
    /// Where its positions are in the original command.
    pub map: SpanMap,
    /// The directory the whole command starts in (`$(pwd)` before any `cd`).
    pub start: &'a Path,
}

impl<'a> Source<'a> {
    /// A node's span in the original command.
    pub fn span(&self, node: Node) -> Span {
        self.map.map(node.start_byte(), node.end_byte())
    }

    /// A node's text (empty if the range is not on character boundaries).
    pub fn slice(&self, node: Node) -> &'a str {
        self.text
            .get(node.start_byte()..node.end_byte())
            .unwrap_or("")
    }
}

/// What a command substitution prints, when known (see `known_output.rs`).
fn known<'a>(src: Source<'a>, scope: &'a Scope) -> impl Fn(Node) -> Option<String> + 'a {
    move |node| known_output::output(node, src.text, scope, src.start)
}

/// Node kinds that form (part of) a word.
pub(super) fn is_word_kind(kind: &str) -> bool {
    matches!(
        kind,
        "word"
            | "string"
            | "raw_string"
            | "ansi_c_string"
            | "translated_string"
            | "concatenation"
            | "simple_expansion"
            | "expansion"
            | "command_substitution"
            | "process_substitution"
            | "arithmetic_expansion"
            | "number"
            | "brace_expression"
            | "$"
    )
}

/// Groups adjacent word nodes (no space between them is one bash word) into words,
/// substituting known script variables and expanding static braces.
pub(super) fn words(
    nodes: &[Node],
    src: Source,
    scope: &Scope,
    problems: &mut Vec<Problem>,
) -> Vec<Word> {
    words_naming(nodes, src, scope, problems, None)
}

/// [`words`], where the word starting at byte `name` is a command's name: its
/// substitutions are not evaluated (a computed program name stays dynamic, BG203).
fn words_naming(
    nodes: &[Node],
    src: Source,
    scope: &Scope,
    problems: &mut Vec<Problem>,
    name: Option<usize>,
) -> Vec<Word> {
    // A word the grammar could only partly parse (a `concatenation` holding an ERROR,
    // or blank space) is read as the words around the error and the blanks: bash ended
    // the word where the grammar lost track, and `> ~/.bashrc<junk>` still writes
    // `~/.bashrc`.
    let split;
    let nodes = if nodes.iter().any(has_error_part) {
        split = split_at_errors(nodes);
        &split[..]
    } else {
        nodes
    };
    let mut words = Vec::new();
    let mut start = 0;
    while start < nodes.len() {
        let mut end = start + 1;
        while end < nodes.len() && nodes[end].start_byte() == nodes[end - 1].end_byte() {
            end += 1;
        }
        let group = &nodes[start..end];
        let span = src
            .map
            .map(group[0].start_byte(), group[end - start - 1].end_byte());
        let word = if name == Some(group[0].start_byte()) {
            scope.substitute(build_word(group, src.text, span))
        } else {
            scope.substitute(build_word_with(group, src.text, span, &known(src, scope)))
        };
        if word.has_brace_expansion() {
            match word.brace_expand() {
                Some(expanded) => {
                    // Tilde expansion follows brace expansion: `{~,x}/y` is `~/y x/y`.
                    words.extend(expanded.iter().map(|w| {
                        let mut word = Word::literal(w, span);
                        split_tilde(&mut word);
                        word
                    }));
                }
                None => {
                    // Static but too large or deep to expand. Sequences alone
                    // (`x{1..100000}`) only vary digits or letters, so the word as
                    // written stands for them all; a list (`{/etc/passwd,x{1..1000}}`)
                    // could hide any path, so it fails closed.
                    let lists = word
                        .parts
                        .iter()
                        .any(|p| matches!(p, Part::Literal(t) if t.contains(',')));
                    if lists && !word.parts.iter().any(Part::is_dynamic) {
                        problems.push(Problem::BraceTooLarge { span });
                    }
                    words.push(word);
                }
            }
        } else {
            words.push(word);
        }
        start = end;
    }
    words
}

/// A word node the grammar built wrongly: a `concatenation` with an ERROR among its
/// children, or with blank space between two of them (`sudo ``x` came out as one
/// word; bash sees two).
fn has_error_part(node: &Node) -> bool {
    kind(node) == "concatenation" && {
        let mut cursor = node.walk();
        let mut previous_end = None;
        node.children(&mut cursor).any(|c| {
            let gap = previous_end.is_some_and(|end| c.start_byte() > end);
            previous_end = Some(c.end_byte());
            c.is_error() || gap
        })
    }
}

/// The word nodes with each wrongly built `concatenation` replaced by its children,
/// ERROR children left out (their gap separates the words around them, as a blank
/// does).
fn split_at_errors<'t>(nodes: &[Node<'t>]) -> Vec<Node<'t>> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if has_error_part(node) {
            let mut cursor = node.walk();
            out.extend(node.children(&mut cursor).filter(|c| !c.is_error()));
        } else if !node.is_error() {
            out.push(*node);
        }
    }
    out
}

/// A `variable_assignment` node.
pub(super) fn assignment(node: Node, src: Source, scope: &Scope) -> Assignment {
    let name = field::child(node, Field::Name)
        .map(|n| src.slice(n))
        .unwrap_or("")
        .to_string();
    let value_node = field::child(node, Field::Value);
    let mut value = value_node.map(|v| {
        scope.substitute(build_word_with(
            &[v],
            src.text,
            src.span(v),
            &known(src, scope),
        ))
    });
    // `NAME+=value` appends: the result is the old value and the new one.
    let appends = match (field::child(node, Field::Name), value_node) {
        (Some(n), Some(v)) => src
            .text
            .get(n.end_byte()..v.start_byte())
            .is_some_and(|op| op.starts_with('+')),
        (Some(n), None) => src
            .text
            .get(n.end_byte()..node.end_byte())
            .is_some_and(|op| op.starts_with('+')),
        _ => false,
    };
    if appends {
        let old = scope.value_of(&name);
        let span = value.as_ref().map(|w| w.span).unwrap_or(src.span(node));
        let new = value.as_ref().map_or(Some(""), |w| w.value());
        value = Some(match (old, new) {
            (Some(old), Some(new)) if value_node.is_none_or(|v| kind(v) != "array") => {
                Word::new(vec![Part::Quoted(format!("{old}{new}"))], span, true)
            }
            _ => Word::new(vec![Part::Unknown("+=".to_string())], span, false),
        });
    }
    Assignment {
        name,
        value,
        span: src.span(node),
    }
}

/// The elements of an array assignment (`a=(x y)`), each with its static value
/// when it has one; `None` when the value is not an array literal.
pub(super) fn array_elements(
    node: Node,
    src: Source,
    scope: &Scope,
) -> Option<Vec<Option<String>>> {
    let value = field::child(node, Field::Value)?;
    if kind(value) != "array" {
        return None;
    }
    let mut elements = Vec::new();
    let mut cursor = value.walk();
    for child in value.named_children(&mut cursor) {
        if kind(child) == "comment" {
            continue;
        }
        if !is_word_kind(kind(child)) {
            // `[3]=x` and other forms: the indices are not modelled.
            return Some(vec![None; elements.len() + 1]);
        }
        let word = build_word_with(&[child], src.text, src.span(child), &known(src, scope));
        let word = scope.substitute(word);
        if word.has_brace_expansion() || word.has_glob() {
            // One written element may become several.
            return Some(vec![None; elements.len() + 1]);
        }
        elements.push(word.static_value());
    }
    Some(elements)
}

/// The parts of a `command` node: its words, its prefix assignments, and redirects
/// (appended to `redirects`, which may hold redirects hung on an enclosing list),
/// and the span of the command (without a descriptor read as a word by the grammar).
/// `extra` holds the words the grammar hung on those enclosing redirects (see
/// [`redirect`]): they follow the command's own, in text order.
pub(super) fn command_parts(
    node: Node,
    src: Source,
    scope: &Scope,
    redirects: &mut Vec<Redirect>,
    mut extra: Vec<Word>,
    problems: &mut Vec<Problem>,
) -> (Vec<Word>, Vec<Assignment>, Span) {
    let mut assignments = Vec::new();
    let mut word_nodes = Vec::new();
    let mut name = None;
    // The statement's own redirects (`cmd 0< f` hangs `< f` on the statement)
    // come first; then the command's, with where each starts.
    let statement_redirects = redirects.len();
    let mut inner_starts = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match kind(child) {
            "variable_assignment" => assignments.push(assignment(child, src, scope)),
            "command_name" => {
                let inner = child.named_child(0).unwrap_or(child);
                name = Some(inner.start_byte());
                word_nodes.push(inner);
            }
            "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                inner_starts.push((child.start_byte(), redirects.len()));
                redirects.push(redirect(child, src, scope, problems, &mut extra));
            }
            "comment" => {}
            // Everything else is (part of) an argument, including anonymous
            // tokens the grammar leaves in argument position (`==`, `-$`).
            _ => word_nodes.push(child),
        }
    }
    let end = glued_descriptors(
        &mut word_nodes,
        src,
        redirects,
        statement_redirects,
        &inner_starts,
    )
    .filter(|word| word.end_byte() == node.end_byte())
    .and_then(|word| word.prev_sibling())
    .map_or(node.end_byte(), |before| before.end_byte());
    let mut words = words_naming(&word_nodes, src, scope, problems, name);
    extra.sort_by_key(|word| word.span.start);
    words.extend(extra);
    (words, assignments, src.map.map(node.start_byte(), end))
}

/// tree-sitter-bash reads `0< file`, `0<<< text` and `0<&3` as a word `0` and a
/// redirect without its descriptor (other digits it reads right: `2> f`). Bash
/// reads a word of digits glued to a redirect operator as that redirect's
/// descriptor: the word is taken out and given to the redirect that starts where
/// it ends (the statement's first when it is the command's last word), so `bash
/// 0< script` reads its script from stdin, not from a file named `0`.
///
/// Returns the last word taken out, whose bytes the command no longer spans.
fn glued_descriptors<'t>(
    word_nodes: &mut Vec<Node<'t>>,
    src: Source,
    redirects: &mut [Redirect],
    statement_redirects: usize,
    inner_starts: &[(usize, usize)],
) -> Option<Node<'t>> {
    let mut taken = None;
    let mut k = 0;
    while k < word_nodes.len() {
        let word = word_nodes[k];
        let at = word.end_byte();
        let text = src.slice(word);
        // The cheap test first: most words are followed by a blank.
        let glued = matches!(src.text.as_bytes().get(at), Some(b'<' | b'>'))
            && !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit());
        if !glued {
            k += 1;
            continue;
        }
        let target = inner_starts
            .iter()
            .find(|(start, _)| *start == at)
            .map(|(_, index)| *index)
            .or_else(|| (k + 1 == word_nodes.len() && statement_redirects > 0).then_some(0));
        match target.and_then(|i| redirects.get_mut(i)) {
            Some(redirect) if redirect.fd.is_none() => {
                redirect.fd = Some(text.to_string());
                let digits = src.span(word);
                redirect.span = Span::new(digits.start.min(redirect.span.start), redirect.span.end);
                taken = Some(word_nodes.remove(k));
            }
            _ => k += 1,
        }
    }
    taken
}

/// The words and assignments of a `declaration_command` or `unset_command`
/// (`export A=1 B`, `local -r x`, `unset y`).
pub(super) fn declaration_parts(
    node: Node,
    src: Source,
    scope: &Scope,
) -> (Vec<Word>, Vec<Assignment>) {
    let mut assignments = Vec::new();
    let mut words = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match kind(child) {
            "variable_assignment" => assignments.push(assignment(child, src, scope)),
            "variable_name" => assignments.push(Assignment {
                name: src.slice(child).to_string(),
                value: None,
                span: src.span(child),
            }),
            kind if is_word_kind(kind) => {
                let word = build_word_with(&[child], src.text, src.span(child), &known(src, scope));
                words.push(scope.substitute(word));
            }
            _ if !child.is_named() => words.push(Word::literal(src.slice(child), src.span(child))),
            _ => {}
        }
    }
    (words, assignments)
}

/// `[[ ... ]]` / `[ ... ]`: the operands as words. `[[ -f ~/x ]]` comes out of the
/// grammar as a bitwise-not `~` applied to `/x`; it is rebuilt as the word `~/x`.
pub(super) fn test_words(node: Node, src: Source) -> Vec<Word> {
    let mut words = Vec::new();
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        let mut cursor = current.walk();
        let children: Vec<Node> = current.children(&mut cursor).collect();
        for child in children.into_iter().rev() {
            let child_kind = kind(child);
            if child_kind == "unary_expression" && child.child(0).is_some_and(|op| kind(op) == "~")
            {
                let compact: String = src.slice(child).split_whitespace().collect();
                let mut word = Word::literal(&compact, src.span(child));
                split_tilde(&mut word);
                words.push(word);
            } else if is_word_kind(child_kind) && child_kind != "$"
                || child_kind == "extglob_pattern"
                || child_kind == "regex"
            {
                words.push(build_word(&[child], src.text, src.span(child)));
            } else if child.is_named() {
                pending.push(child);
            }
        }
    }
    words.reverse();
    words
}

/// Redirects of a `redirected_statement` or a function definition, including those
/// the grammar puts inside a `heredoc_redirect` (`cat <<EOF > file`). The words the
/// grammar hung on them go to `words` (see [`redirect`]).
pub(super) fn redirects_of(
    node: Node,
    src: Source,
    scope: &Scope,
    problems: &mut Vec<Problem>,
    words: &mut Vec<Word>,
) -> Vec<Redirect> {
    let mut redirects = Vec::new();
    let mut cursor = node.walk();
    let mut glued: Option<Node> = None;
    for (i, child) in node.children(&mut cursor).enumerate() {
        if node.field_name_for_child(i as u32) != Some("redirect") {
            continue;
        }
        let mut lowered = redirect(child, src, scope, problems, words);
        // `cmd >x b 0<f`: the `0` the grammar hung on the redirect before is this
        // one's descriptor.
        if let Some(digits) = glued.take().filter(|d| d.end_byte() == child.start_byte())
            && lowered.fd.is_none()
        {
            lowered.fd = Some(src.slice(digits).to_string());
            let start = src.span(digits).start;
            lowered.span = Span::new(start.min(lowered.span.start), lowered.span.end);
        }
        glued = last_child(child).filter(|d| glued_descriptor(*d, src));
        redirects.push(lowered);
        if kind(child) == "heredoc_redirect" {
            let mut inner = child.walk();
            for (k, grandchild) in child.children(&mut inner).enumerate() {
                if child.field_name_for_child(k as u32) == Some("redirect") {
                    redirects.push(redirect(grandchild, src, scope, problems, words));
                }
            }
        }
    }
    redirects
}

/// One `file_redirect`, `herestring_redirect` or `heredoc_redirect`.
///
/// Bash ends a redirect's target at the first blank: the words after it are the
/// command's (`cat 2>/dev/null ~/.ssh/id_rsa` reads the key, `cp >log a ~/.bashrc`
/// writes `~/.bashrc`). tree-sitter-bash hangs them on the redirect instead, as more
/// `destination`s (or a heredoc's `argument`s); they go to `words`, in text order,
/// for the caller to give to the command. Never dropped.
pub(super) fn redirect(
    node: Node,
    src: Source,
    scope: &Scope,
    problems: &mut Vec<Problem>,
    words: &mut Vec<Word>,
) -> Redirect {
    let mut operator = String::new();
    let mut fd = None;
    let mut heredoc = None;
    let mut quoted_delimiter = false;
    let mut cursor = node.walk();
    let mut target_nodes = Vec::new();
    let mut argument_nodes = Vec::new();
    let mut operator_end = node.end_byte();
    for (i, child) in node.children(&mut cursor).enumerate() {
        let field = node.field_name_for_child(i as u32);
        let raw = src.slice(child);
        match kind(child) {
            "file_descriptor" => fd = Some(raw.to_string()),
            "heredoc_start" => quoted_delimiter = raw.contains(['\'', '"', '\\']),
            "heredoc_body" => {
                let mut body_cursor = child.walk();
                let has_expansion = child
                    .named_children(&mut body_cursor)
                    .any(|c| kind(c) != "heredoc_content");
                let static_text = if quoted_delimiter {
                    Some(raw.to_string())
                } else if has_expansion {
                    None
                } else {
                    Some(decode_heredoc(raw))
                };
                heredoc = Some(Heredoc {
                    static_text,
                    span: src.span(child),
                });
            }
            _ if field == Some("destination")
                || (kind(node) == "herestring_redirect" && child.is_named()) =>
            {
                target_nodes.push(child);
            }
            _ if field == Some("argument") => argument_nodes.push(child),
            _ if !child.is_named() && operator.is_empty() => {
                operator = raw.to_string();
                operator_end = child.end_byte();
            }
            _ => {}
        }
    }
    // The target is the first word: the nodes up to the first gap. A close (`<&-`,
    // `2>&-`) takes none: the grammar gives it the next word, bash the command.
    let closes = matches!(operator.as_str(), "<&-" | ">&-");
    let first = (1..target_nodes.len())
        .find(|&k| target_nodes[k].start_byte() != target_nodes[k - 1].end_byte())
        .unwrap_or(target_nodes.len());
    let first = if closes { 0 } else { first };
    let target = if target_nodes.is_empty() {
        None
    } else {
        self::words(&target_nodes[..first], src, scope, problems)
            .into_iter()
            .next()
    };
    // The redirect ends with its target (or operator), as bash reads it.
    let end = match first {
        _ if first == target_nodes.len() => node.end_byte(),
        0 => operator_end,
        _ => target_nodes[first - 1].end_byte(),
    };
    argument_nodes.extend_from_slice(&target_nodes[first..]);
    // A `0` glued to the next operator is that redirect's descriptor, not a word
    // ([`redirects_of`] gives it).
    if argument_nodes
        .last()
        .is_some_and(|n| glued_descriptor(*n, src))
    {
        argument_nodes.pop();
    }
    if !argument_nodes.is_empty() {
        argument_nodes.sort_by_key(|n| n.start_byte());
        words.extend(self::words(&argument_nodes, src, scope, problems));
    }
    if operator.is_empty() && kind(node) == "herestring_redirect" {
        operator = "<<<".to_string();
    }
    Redirect {
        operator,
        fd,
        target,
        heredoc,
        span: src.map.map(node.start_byte(), end),
    }
}

/// The last child of `node`.
fn last_child(node: Node) -> Option<Node> {
    node.child(node.child_count().checked_sub(1)?)
}

/// A `number` glued to a redirect operator after it: tree-sitter-bash reads the `0`
/// of `0<f` after another redirect's words as one more destination of that one.
fn glued_descriptor(node: Node, src: Source) -> bool {
    kind(node) == "number" && matches!(src.text.as_bytes().get(node.end_byte()), Some(b'<' | b'>'))
}

/// Redirect operators as tokens: inside an ERROR node the grammar leaves them loose,
/// not wrapped in a `file_redirect`.
pub(super) fn is_redirect_operator(kind: &str) -> bool {
    matches!(
        kind,
        ">" | ">>" | "&>" | "&>>" | ">|" | "<" | "<>" | ">&" | "<&" | "<<<"
    )
}

/// A redirect the grammar left loose inside an ERROR node: an operator token and the
/// word after it (one or more adjacent nodes, as in `$HOME/.bashrc`).
pub(super) fn loose_redirect(
    operator: Node,
    target: &[Node],
    src: Source,
    scope: &Scope,
    problems: &mut Vec<Problem>,
) -> Redirect {
    let end = target.last().map_or(operator.end_byte(), |t| t.end_byte());
    let span = src.map.map(operator.start_byte(), end);
    Redirect {
        operator: src.slice(operator).to_string(),
        fd: None,
        target: words(target, src, scope, problems).into_iter().next(),
        heredoc: None,
        span,
    }
}

/// An `env`/`sudo` `NAME=value` word as an assignment.
pub(super) fn assignment_word(word: &Word) -> Assignment {
    let (name, value) = match word.static_value() {
        Some(v) => match v.split_once('=') {
            Some((n, rest)) => (n.to_string(), Some(Word::literal(rest, word.span))),
            None => (v, None),
        },
        None => {
            // Dynamic value: drop the static `NAME=` from the first part.
            let mut parts = word.parts.clone();
            let mut name = String::new();
            // (`env "NAME=$V"`: the name may be quoted too.)
            if let Some(Part::Literal(first) | Part::Quoted(first)) = parts.first_mut()
                && let Some((n, rest)) = first.split_once('=')
            {
                name = n.to_string();
                *first = rest.to_string();
            }
            if matches!(parts.first(), Some(Part::Literal(t) | Part::Quoted(t)) if t.is_empty()) {
                parts.remove(0);
            }
            (name, Some(Word::new(parts, word.span, word.has_quotes)))
        }
    };
    Assignment {
        name,
        value,
        span: word.span,
    }
}
