//! Building a [`Word`] from syntax nodes: quote removal, escape decoding and tilde
//! splitting as bash does them, with every run-time expansion kept as a dynamic part.

use super::decode::{decode_ansi_c, decode_double_quoted};
use super::{Part, Parts, Word};
use crate::parse::{Field, field};
use crate::parse::{around_dollar, expansion_name, kind};
use crate::verdict::Span;
use tree_sitter::Node;

/// Builds a [`Word`] from one or more adjacent syntax nodes (tree-sitter sometimes
/// splits one bash word into siblings, e.g. `$"x"`). `text` is the parsed text and
/// `span` the word's span in the original command.
pub fn build_word(nodes: &[Node], text: &str, span: Span) -> Word {
    build_word_with(nodes, text, span, &|_| None)
}

/// What a `$(...)` node prints, when known without running anything (see
/// `model/known_output.rs`); `None` keeps the substitution dynamic.
pub type Evaluate<'e> = &'e dyn Fn(Node) -> Option<String>;

/// [`build_word`], with command substitutions whose output `evaluate` knows replaced
/// by that output (as bash would after running them).
pub fn build_word_with(nodes: &[Node], text: &str, span: Span, evaluate: Evaluate) -> Word {
    let mut builder = WordBuilder {
        parts: Parts::new(),
        has_quotes: false,
        ansi_next: false,
        variable_next: false,
        evaluate,
    };
    for node in nodes {
        builder.node(*node, text, false);
    }
    let mut parts = builder.parts;
    split_leading_tilde(&mut parts);
    split_assignment_tilde(&mut parts);
    Word::new(parts, span, builder.has_quotes)
}

/// Builds a [`Word`] from lexed pieces exactly as [`build_word`] builds it from the
/// syntax nodes of the same text: the fast lexer feeds it the same raw pieces in the
/// same order, so both paths apply one set of quote, escape and tilde rules.
pub(crate) struct PartsBuilder(WordBuilder<'static>);

impl PartsBuilder {
    /// An empty word.
    pub fn new() -> PartsBuilder {
        PartsBuilder(WordBuilder {
            // Most words are one part: room for it in the word itself.
            parts: Parts::new(),
            has_quotes: false,
            ansi_next: false,
            variable_next: false,
            // The lexer leaves the substitutions whose output is known to the
            // parse (see `known_output::may_know`): the rest stay dynamic.
            evaluate: &|_| None,
        })
    }

    /// Unquoted word text as written (backslash escapes still in it).
    pub fn unquoted(&mut self, raw: &str) {
        self.0.unquoted_word(raw);
    }

    /// The inside of `'...'`.
    pub fn single_quoted(&mut self, inner: &str) {
        self.0.has_quotes = true;
        self.0.push_quoted(inner);
    }

    /// Opens `"..."`: an empty pair still makes an (empty) quoted part.
    pub fn open_double_quotes(&mut self, empty: bool) {
        self.0.has_quotes = true;
        if empty {
            self.0.push_quoted("");
        }
    }

    /// Literal text inside `"..."`, escapes still in it.
    pub fn double_quoted_text(&mut self, raw: &str) {
        self.0.push_quoted(&decode_double_quoted(raw));
    }

    /// `$NAME` or `${NAME}`, inside double quotes or not.
    pub fn variable(&mut self, name: &str, quoted: bool) {
        self.0.parts.push(Part::Variable {
            name: name.to_string(),
            quoted,
        });
    }

    /// `$(…)` whose output is not known, inside double quotes or not.
    pub fn command_substitution(&mut self, quoted: bool) {
        self.0.parts.push(Part::CommandSubstitution { quoted });
    }

    /// `<(…)` or `>(…)`.
    pub fn process_substitution(&mut self) {
        self.0.parts.push(Part::ProcessSubstitution);
    }

    /// The word, with tilde splitting applied as [`build_word`] applies it.
    #[inline]
    pub fn finish(self, span: Span) -> Word {
        let mut parts = self.0.parts;
        split_leading_tilde(&mut parts);
        split_assignment_tilde(&mut parts);
        Word::new(parts, span, self.0.has_quotes)
    }
}

struct WordBuilder<'e> {
    parts: Parts,
    /// Knows the output of some command substitutions.
    evaluate: Evaluate<'e>,
    has_quotes: bool,
    /// The next raw string follows a lone `$`: decode it as `$'...'`.
    ansi_next: bool,
    /// The next word follows a lone `$`: its leading name is a variable (`$X-`).
    variable_next: bool,
}

impl WordBuilder<'_> {
    fn push_literal(&mut self, text: &str) {
        if let Some(Part::Literal(last)) = self.parts.last_mut() {
            last.push_str(text);
        } else if !text.is_empty() {
            self.parts.push(Part::Literal(text.to_string()));
        }
    }

    fn push_quoted(&mut self, text: &str) {
        if let Some(Part::Quoted(last)) = self.parts.last_mut() {
            last.push_str(text);
        } else {
            self.parts.push(Part::Quoted(text.to_string()));
        }
    }

    /// Adds the parts of one node. Recursion depth is bounded by the grammar (a
    /// concatenation holds strings, which hold expansions we do not enter).
    fn node(&mut self, node: Node, text: &str, in_double_quotes: bool) {
        let raw = text.get(node.start_byte()..node.end_byte()).unwrap_or("");
        match kind(node) {
            "word" | "number" if !in_double_quotes => {
                if std::mem::take(&mut self.variable_next) {
                    match expansion_name(raw) {
                        Some(name) => {
                            self.parts.push(Part::Variable {
                                name: name.to_string(),
                                quoted: false,
                            });
                            self.unquoted_word(&raw[name.len()..]);
                            return;
                        }
                        None => self.push_literal("$"),
                    }
                }
                self.unquoted_word(raw)
            }
            "concatenation" => {
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    self.node(child, text, in_double_quotes);
                }
            }
            "string" => {
                self.has_quotes = true;
                if raw == "\"\"" {
                    self.push_quoted("");
                }
                // Text between child nodes is string content too (the grammar leaves
                // some white space, e.g. after a lone `$`, outside any child). A `$`
                // token or an expansion can also carry the blanks before it (`" $X"`
                // is `"`, then a simple_expansion ` $X`): its own text begins at its
                // `$` or backtick, and what is before is such a gap.
                let inner_end = node.end_byte().saturating_sub(1);
                let mut pos = node.start_byte() + 1;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    let child_kind = kind(child);
                    if child_kind == "\"" {
                        continue;
                    }
                    let begins = match child_kind {
                        "$"
                        | "simple_expansion"
                        | "expansion"
                        | "command_substitution"
                        | "arithmetic_expansion" => {
                            let own = text.get(child.start_byte()..child.end_byte());
                            child.start_byte() + own.and_then(|t| t.find(['$', '`'])).unwrap_or(0)
                        }
                        _ => child.start_byte(),
                    };
                    if begins > pos {
                        let gap = text.get(pos..begins).unwrap_or("");
                        self.push_quoted(&decode_double_quoted(gap));
                    }
                    match child_kind {
                        "string_content" => {
                            let content = text.get(child.start_byte()..child.end_byte());
                            self.push_quoted(&decode_double_quoted(content.unwrap_or("")));
                        }
                        "$" => self.push_quoted(text.get(begins..child.end_byte()).unwrap_or("$")),
                        _ => self.node(child, text, true),
                    }
                    pos = pos.max(child.end_byte());
                }
                if inner_end > pos {
                    let gap = text.get(pos..inner_end).unwrap_or("");
                    self.push_quoted(&decode_double_quoted(gap));
                }
            }
            "raw_string" => {
                self.has_quotes = true;
                let inner = raw
                    .strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or("");
                if std::mem::take(&mut self.ansi_next) {
                    // `$` glued to `'...'`: an ANSI-C string the grammar split.
                    self.push_quoted(&decode_ansi_c(inner));
                } else {
                    self.push_quoted(inner);
                }
            }
            "ansi_c_string" => {
                self.has_quotes = true;
                let inner = raw
                    .strip_prefix("$'")
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or("");
                self.push_quoted(&decode_ansi_c(inner));
            }
            "translated_string" => {
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if kind(child) == "string" {
                        self.node(child, text, in_double_quotes);
                    }
                }
            }
            // `$"x"` comes out as a lone `$` token followed by a string: the `$` adds
            // nothing to the value when a string follows; elsewhere it is a literal `$`.
            "$" => {
                // The grammar's `$` token can carry text before it (`-$""` is one
                // `-$` token then a string): that text is literal.
                let prefix = raw.strip_suffix('$').unwrap_or("");
                if prefix.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1 {
                    // `\$`: an escaped dollar is a literal `$`, whatever follows.
                    self.unquoted_word(raw);
                    return;
                }
                self.unquoted_word(prefix);
                // The glued node, or the first piece of a glued concatenation. A
                // `$` that ends a concatenation is glued to what follows it (`'e'P=$`
                // then `X-`, as the grammar splits `'e'P=$X-`).
                let next = around_dollar(node).1.map(|n| match kind(n) {
                    "concatenation" => n.child(0).map(|c| kind(c)).unwrap_or(""),
                    kind => kind,
                });
                match next {
                    Some("string") => {}
                    Some("raw_string") => self.ansi_next = true,
                    // `$` then a word that starts with a name: bash expands it.
                    Some("word" | "number") if !in_double_quotes => self.variable_next = true,
                    _ => self.push_literal("$"),
                }
            }
            "simple_expansion" => {
                let name = node
                    .named_child(0)
                    .and_then(|n| text.get(n.start_byte()..n.end_byte()))
                    .unwrap_or("");
                self.parts.push(Part::Variable {
                    name: name.to_string(),
                    quoted: in_double_quotes,
                });
            }
            "expansion" => self.expansion(node, text, in_double_quotes),
            "command_substitution" => match (self.evaluate)(node) {
                // Output that bash would neither split nor glob (or any output inside
                // double quotes) is plain text; the rest stays dynamic.
                Some(out)
                    if in_double_quotes
                        || !out.is_empty() && !out.contains([' ', '\t', '\n', '*', '?', '[']) =>
                {
                    self.push_quoted(&out)
                }
                _ => self.parts.push(Part::CommandSubstitution {
                    quoted: in_double_quotes,
                }),
            },
            "arithmetic_expansion" => self.parts.push(Part::Arithmetic {
                quoted: in_double_quotes,
            }),
            "process_substitution" => self.parts.push(Part::ProcessSubstitution),
            // An empty backtick substitution is a token of its own: it runs nothing
            // but is still a substitution, never the text "``".
            "``" => self.parts.push(Part::CommandSubstitution {
                quoted: in_double_quotes,
            }),
            "brace_expression" if !in_double_quotes => self.push_literal(raw),
            "word" | "number" => self.push_quoted(raw),
            // An operator token in argument position is plain text to bash.
            _ if !node.is_named() && !in_double_quotes => self.unquoted_word(raw),
            other => self.parts.push(Part::Unknown(other.to_string())),
        }
    }

    /// `${NAME}` is a plain variable; everything else is an opaque expansion.
    fn expansion(&mut self, node: Node, text: &str, quoted: bool) {
        let mut name = None;
        let mut plain = true;
        // `${!x}`: a `!` before the name, and no `*`/`@` after it.
        let mut bang = false;
        let mut listing = false;
        let mut alternative: Option<WordBuilder> = None;
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if let Some(alt) = alternative.as_mut() {
                if kind(child) != "}" {
                    alt.node(child, text, quoted);
                }
                continue;
            }
            match kind(child) {
                "${" | "}" => {}
                "!" if name.is_none() => {
                    bang = true;
                    plain = false;
                }
                "*" | "@" if bang => {
                    listing = true;
                    plain = false;
                }
                // `${a[0]}`: an element with a static index is a variable of its
                // own, named `a[0]` (the scope records array elements so).
                "subscript" if name.is_none() => {
                    let index = field::child(child, Field::Index);
                    // `${!a[@]}`: the array's keys, not an indirection.
                    listing |= bang
                        && index
                            .and_then(|i| text.get(i.start_byte()..i.end_byte()))
                            .is_some_and(|t| t == "@" || t == "*");
                    let static_index = index.is_some_and(|i| {
                        kind(i) == "number"
                            && text
                                .get(i.start_byte()..i.end_byte())
                                .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
                    });
                    let array = field::child(child, Field::Name)
                        .and_then(|n| text.get(n.start_byte()..n.end_byte()));
                    match (static_index, array, index) {
                        (true, Some(array), Some(i)) => {
                            let i = text.get(i.start_byte()..i.end_byte()).unwrap_or("");
                            let i = i.trim_start_matches('0');
                            name = Some(format!("{array}[{}]", if i.is_empty() { "0" } else { i }));
                        }
                        (_, array, _) => {
                            name = array.map(str::to_string);
                            plain = false;
                        }
                    }
                }
                "variable_name" | "special_variable_name" if name.is_none() => {
                    name = text
                        .get(child.start_byte()..child.end_byte())
                        .map(str::to_string);
                }
                ":-" | "-" | ":=" | "=" | ":+" | "+" if name.is_some() && plain => {
                    plain = false;
                    alternative = Some(WordBuilder {
                        parts: Parts::new(),
                        has_quotes: false,
                        ansi_next: false,
                        variable_next: false,
                        evaluate: self.evaluate,
                    });
                }
                _ => plain = false,
            }
        }
        let alternative = alternative.map(|alt| {
            let mut parts = alt.parts;
            split_leading_tilde(&mut parts);
            parts.into_vec()
        });
        match (plain, name) {
            (true, Some(name)) => self.parts.push(Part::Variable { name, quoted }),
            (_, name) => self.parts.push(Part::Expansion {
                name,
                quoted,
                indirect: bang && !listing,
                alternative,
            }),
        }
    }

    /// Unquoted word text: a backslash quotes the next character (and disappears with
    /// a following newline); everything else is literal.
    fn unquoted_word(&mut self, raw: &str) {
        if !raw.contains('\\') {
            // No escape: the text is the literal (the common case, without a copy).
            self.push_literal(raw);
            return;
        }
        let mut literal = String::new();
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('\n') | None => {}
                    Some(escaped) => {
                        self.push_literal(&literal);
                        literal.clear();
                        let mut buf = [0u8; 4];
                        self.push_quoted(escaped.encode_utf8(&mut buf));
                    }
                }
            } else {
                literal.push(c);
            }
        }
        self.push_literal(&literal);
    }
}

/// Re-applies tilde splitting to a word built from raw text (see [`build_word`]).
pub fn split_tilde(word: &mut Word) {
    split_leading_tilde(&mut word.parts);
    word.value = word.compute_static_value();
}

/// Bash also expands a tilde right after the first `=` of an argument that looks
/// like an assignment (`PREFIX=~/x`), and after each `:` in it (`P=a:~/b`). Splits
/// such a tilde into its own part so path rules see the home directory. Only the
/// first literal part is examined.
fn split_assignment_tilde(parts: &mut Parts) {
    let Some(Part::Literal(first)) = parts.first() else {
        return;
    };
    // Byte scans, the rarer byte first: this runs for every word.
    let bytes = first.as_bytes();
    if !bytes.contains(&b'~') {
        return;
    }
    let Some(eq) = bytes.iter().position(|&b| b == b'=') else {
        return;
    };
    let name = first[..eq].strip_suffix('+').unwrap_or(&first[..eq]);
    let is_name = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return;
    }
    let value_start = eq + 1;
    let at = first[value_start..]
        .match_indices('~')
        .map(|(i, _)| value_start + i)
        .find(|&i| i == value_start || first.as_bytes().get(i - 1) == Some(&b':'));
    let Some(at) = at else { return };
    let text = first.clone();
    let end = text[at..]
        .find(['/', ':'])
        .map(|i| at + i)
        .unwrap_or(text.len());
    if end == text.len() && parts.len() > 1 {
        return;
    }
    let mut replacement = vec![
        Part::Literal(text[..at].to_string()),
        Part::Tilde(text[at + 1..end].to_string()),
    ];
    if end < text.len() {
        replacement.push(Part::Literal(text[end..].to_string()));
    }
    parts.remove(0);
    parts.insert_many(0, replacement);
}

/// Splits a leading `~prefix` off the first literal part, as bash's tilde expansion
/// does: only when the whole prefix up to the first `/` (or the word's end) is
/// unquoted.
fn split_leading_tilde(parts: &mut Parts) {
    let Some(Part::Literal(first)) = parts.first() else {
        return;
    };
    let Some(rest) = first.strip_prefix('~') else {
        return;
    };
    let (user, tail) = match rest.find('/') {
        Some(slash) => (&rest[..slash], &rest[slash..]),
        None if parts.len() == 1 => (rest, ""),
        None => return,
    };
    let user = user.to_string();
    let tail = tail.to_string();
    parts.remove(0);
    if !tail.is_empty() {
        parts.insert(0, Part::Literal(tail));
    }
    parts.insert(0, Part::Tilde(user));
}
