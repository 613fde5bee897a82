//! A shell word as bash sees it: a sequence of [`Part`]s, with a static value exactly
//! when bash would give it one without running anything or looking at the disk.
//!
//! Quote removal and escape decoding follow bash: `r\m` is `rm`, `"r"m` is `rm`,
//! `$'\x72m'` is `rm`. Characters that came from quotes or escapes are [`Part::Quoted`]
//! (no globbing, brace or tilde expansion applies to them); unquoted characters are
//! [`Part::Literal`]. Everything bash computes at run time is a dynamic part, and a
//! word with a dynamic part has no static value: rules must never guess it.

use crate::verdict::Span;
use tree_sitter::Node;

/// Most words a single brace expansion may produce before the word counts as dynamic.
const MAX_BRACE_WORDS: usize = 256;
/// Deepest brace nesting we expand.
const MAX_BRACE_DEPTH: usize = 16;

/// One piece of a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Unquoted text (escapes already removed: escaped characters are `Quoted`).
    /// Globbing and brace expansion apply to it.
    Literal(String),
    /// Text from single quotes, double quotes, `$'...'` or a backslash escape.
    Quoted(String),
    /// A leading tilde prefix: `~` (empty user), `~user`, `~+`, `~-`. Holds the text
    /// after the `~`.
    Tilde(String),
    /// `$NAME`, `${NAME}`, `$1`, `$@`: the value of a variable.
    Variable {
        /// The variable's name (`HOME`, `1`, `@`).
        name: String,
        /// Inside double quotes (no word splitting or globbing of the value).
        quoted: bool,
    },
    /// Any other parameter expansion: `${X:-y}`, `${#X}`, `${X/a/b}`, `${X@P}`.
    Expansion {
        /// The variable it is about, when one is named.
        name: Option<String>,
        /// Inside double quotes.
        quoted: bool,
        /// For `${X:-w}`, `${X-w}`, `${X:=w}`, `${X=w}`, `${X:+w}`, `${X+w}`: the
        /// parts of `w`, the value the expansion takes when `X` is unset (or set).
        /// A path check judges it as well as the unknown value.
        alternative: Option<Vec<Part>>,
    },
    /// `$(...)` or a backtick substitution.
    CommandSubstitution {
        /// Inside double quotes.
        quoted: bool,
    },
    /// `$((...))`.
    Arithmetic {
        /// Inside double quotes.
        quoted: bool,
    },
    /// `<(...)` or `>(...)`: becomes a `/dev/fd/N` path at run time.
    ProcessSubstitution,
    /// A syntax node this model does not know. Always dynamic.
    Unknown(String),
}

impl Part {
    /// True for parts whose value is only known at run time.
    pub fn is_dynamic(&self) -> bool {
        !matches!(self, Part::Literal(_) | Part::Quoted(_))
    }
}

/// A shell word: its parts and where it stands in the original command.
///
/// The static value is computed once, when the word is built: build words with
/// [`Word::new`] (or [`Word::literal`]) rather than changing `parts` afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The pieces, in order.
    pub parts: Vec<Part>,
    /// Byte range in the original command.
    pub span: Span,
    /// Some part came from single quotes, double quotes or `$'...'`.
    pub has_quotes: bool,
    value: Option<String>,
}

impl Word {
    /// A word from its parts; computes its static value.
    pub fn new(parts: Vec<Part>, span: Span, has_quotes: bool) -> Word {
        let mut word = Word {
            parts,
            span,
            has_quotes,
            value: None,
        };
        word.value = word.compute_static_value();
        word
    }

    /// A word made of one static literal (used for words produced by expansion).
    pub fn literal(text: &str, span: Span) -> Word {
        Word::new(vec![Part::Literal(text.to_string())], span, false)
    }

    /// The value bash gives this word without running anything: `None` when any part
    /// is dynamic, when it would be globbed or brace-expanded, or when it starts with a
    /// tilde.
    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// [`Word::value`] as an owned string.
    pub fn static_value(&self) -> Option<String> {
        self.value.clone()
    }

    fn compute_static_value(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => {
                    if has_glob_chars(text) {
                        return None;
                    }
                    out.push_str(text);
                }
                Part::Quoted(text) => out.push_str(text),
                _ => return None,
            }
        }
        if self.has_brace_expansion() {
            return None;
        }
        Some(out)
    }

    /// True when [`Word::value`] is `Some`.
    pub fn is_static(&self) -> bool {
        self.value.is_some()
    }

    /// True when an unquoted `*`, `?` or `[` would make bash glob this word.
    pub fn has_glob(&self) -> bool {
        self.parts.iter().any(|p| match p {
            Part::Literal(t) => has_glob_chars(t),
            _ => false,
        })
    }

    /// The text before the first dynamic part, as bash would see it; globs and braces
    /// cut the prefix at their first special character. Tilde and variables are not
    /// resolved here (see the path rules).
    pub fn static_prefix(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => {
                    if let Some(cut) = text.find(['*', '?', '[', '{']) {
                        out.push_str(&text[..cut]);
                        return out;
                    }
                    out.push_str(text);
                }
                Part::Quoted(text) => out.push_str(text),
                _ => return out,
            }
        }
        out
    }

    /// The names of the variables this word expands, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Expansion {
                name: Some(name), ..
            } => Some(name.as_str()),
            _ => None,
        })
    }

    /// True when the word contains a `$(...)`, backtick or process substitution.
    pub fn has_substitution(&self) -> bool {
        self.parts.iter().any(|p| {
            matches!(
                p,
                Part::CommandSubstitution { .. } | Part::ProcessSubstitution
            )
        })
    }

    /// True when bash would brace-expand this word (`{a,b}`, `{1..3}`).
    pub fn has_brace_expansion(&self) -> bool {
        let open = self
            .parts
            .iter()
            .any(|p| matches!(p, Part::Literal(t) if t.contains('{')));
        if !open {
            return false;
        }
        let chars = self.chars_with_quoting();
        find_brace(&chars, 0).is_some()
    }

    /// The words bash's brace expansion makes of this word, when every part is static
    /// text. `None` when a part is dynamic or the expansion is too large or deep.
    pub fn brace_expand(&self) -> Option<Vec<String>> {
        if self.parts.iter().any(Part::is_dynamic) {
            return None;
        }
        let chars = self.chars_with_quoting();
        let mut out = Vec::new();
        expand_braces(&chars, 0, &mut out)?;
        Some(
            out.into_iter()
                .map(|cs| cs.into_iter().map(|(c, _)| c).collect())
                .collect(),
        )
    }

    /// Every character of the static parts, with `true` for characters that were
    /// quoted. Dynamic parts are left out.
    fn chars_with_quoting(&self) -> Vec<(char, bool)> {
        let mut chars = Vec::new();
        for part in &self.parts {
            match part {
                Part::Literal(t) => chars.extend(t.chars().map(|c| (c, false))),
                Part::Quoted(t) => chars.extend(t.chars().map(|c| (c, true))),
                _ => chars.push(('\0', true)),
            }
        }
        chars
    }

    /// The static text of the word with dynamic parts shown as `$…`, for messages.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(t) | Part::Quoted(t) => out.push_str(t),
                Part::Tilde(user) => {
                    out.push('~');
                    out.push_str(user);
                }
                Part::Variable { name, .. } => {
                    out.push('$');
                    out.push_str(name);
                }
                _ => out.push_str("$…"),
            }
        }
        out
    }
}

fn has_glob_chars(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// Builds a [`Word`] from one or more adjacent syntax nodes (tree-sitter sometimes
/// splits one bash word into siblings, e.g. `$"x"`). `text` is the parsed text and
/// `span` the word's span in the original command.
pub fn build_word(nodes: &[Node], text: &str, span: Span) -> Word {
    let mut builder = WordBuilder {
        parts: Vec::new(),
        has_quotes: false,
        ansi_next: false,
    };
    for node in nodes {
        builder.node(*node, text, false);
    }
    let mut parts = builder.parts;
    split_leading_tilde(&mut parts);
    split_assignment_tilde(&mut parts);
    Word::new(parts, span, builder.has_quotes)
}

struct WordBuilder {
    parts: Vec<Part>,
    has_quotes: bool,
    /// The next raw string follows a lone `$`: decode it as `$'...'`.
    ansi_next: bool,
}

impl WordBuilder {
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
        match node.kind() {
            "word" | "number" if !in_double_quotes => self.unquoted_word(raw),
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
                // some white space, e.g. after a lone `$`, outside any child).
                let inner_end = node.end_byte().saturating_sub(1);
                let mut pos = node.start_byte() + 1;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if child.kind() == "\"" {
                        continue;
                    }
                    if child.start_byte() > pos {
                        let gap = text.get(pos..child.start_byte()).unwrap_or("");
                        self.push_quoted(&decode_double_quoted(gap));
                    }
                    match child.kind() {
                        "string_content" => {
                            let content = text.get(child.start_byte()..child.end_byte());
                            self.push_quoted(&decode_double_quoted(content.unwrap_or("")));
                        }
                        // The `$` token can carry the text before it.
                        "$" => self.push_quoted(
                            text.get(child.start_byte()..child.end_byte())
                                .unwrap_or("$"),
                        ),
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
                    if child.kind() == "string" {
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
                // The glued node, or the first piece of a glued concatenation.
                let next = node
                    .next_sibling()
                    .filter(|n| n.start_byte() == node.end_byte())
                    .map(|n| match n.kind() {
                        "concatenation" => n.child(0).map(|c| c.kind()).unwrap_or(""),
                        kind => kind,
                    });
                match next {
                    Some("string") => {}
                    Some("raw_string") => self.ansi_next = true,
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
            "command_substitution" => self.parts.push(Part::CommandSubstitution {
                quoted: in_double_quotes,
            }),
            "arithmetic_expansion" => self.parts.push(Part::Arithmetic {
                quoted: in_double_quotes,
            }),
            "process_substitution" => self.parts.push(Part::ProcessSubstitution),
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
        let mut alternative: Option<WordBuilder> = None;
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if let Some(alt) = alternative.as_mut() {
                if child.kind() != "}" {
                    alt.node(child, text, quoted);
                }
                continue;
            }
            match child.kind() {
                "${" | "}" => {}
                "variable_name" | "special_variable_name" if name.is_none() => {
                    name = text
                        .get(child.start_byte()..child.end_byte())
                        .map(str::to_string);
                }
                ":-" | "-" | ":=" | "=" | ":+" | "+" if name.is_some() && plain => {
                    plain = false;
                    alternative = Some(WordBuilder {
                        parts: Vec::new(),
                        has_quotes: false,
                        ansi_next: false,
                    });
                }
                _ => plain = false,
            }
        }
        let alternative = alternative.map(|alt| {
            let mut parts = alt.parts;
            split_leading_tilde(&mut parts);
            parts
        });
        match (plain, name) {
            (true, Some(name)) => self.parts.push(Part::Variable { name, quoted }),
            (_, name) => self.parts.push(Part::Expansion {
                name,
                quoted,
                alternative,
            }),
        }
    }

    /// Unquoted word text: a backslash quotes the next character (and disappears with
    /// a following newline); everything else is literal.
    fn unquoted_word(&mut self, raw: &str) {
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

/// The text of a heredoc body with an unquoted delimiter and no expansions: a
/// backslash escapes only `$`, `` ` ``, `\\` and newline there.
pub fn decode_heredoc(body: &str) -> String {
    decode_backslashes(body, &['$', '`', '\\'])
}

/// Bash also expands a tilde right after the first `=` of an argument that looks
/// like an assignment (`PREFIX=~/x`), and after each `:` in it (`P=a:~/b`). Splits
/// such a tilde into its own part so path rules see the home directory. Only the
/// first literal part is examined.
fn split_assignment_tilde(parts: &mut Vec<Part>) {
    let Some(Part::Literal(first)) = parts.first() else {
        return;
    };
    let Some(eq) = first.find('=') else { return };
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
    parts.splice(0..1, replacement);
}

/// Splits a leading `~prefix` off the first literal part, as bash's tilde expansion
/// does: only when the whole prefix up to the first `/` (or the word's end) is
/// unquoted.
fn split_leading_tilde(parts: &mut Vec<Part>) {
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

/// Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\\` and newline.
pub fn decode_double_quoted(content: &str) -> String {
    decode_backslashes(content, &['$', '`', '"', '\\'])
}

/// Removes the backslash before the characters in `escapable` and backslash-newline
/// pairs; any other backslash stays.
fn decode_backslashes(content: &str, escapable: &[char]) -> String {
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some(&next) if escapable.contains(&next) => {
                out.push(next);
                chars.next();
            }
            Some('\n') => {
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
    out
}

/// Decodes the inside of `$'...'` as bash does: `\n`, `\t`, ..., `\xHH`, octal `\nnn`,
/// `\uHHHH`, `\UHHHHHHHH`, `\cX`. A NUL ends the string, as in bash.
pub fn decode_ansi_c(content: &str) -> String {
    let chars: Vec<char> = content.chars().collect();
    let mut out = String::with_capacity(content.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        let decoded: Option<u32> = match e {
            'a' => Some(7),
            'b' => Some(8),
            'e' | 'E' => Some(27),
            'f' => Some(12),
            'n' => Some(10),
            'r' => Some(13),
            't' => Some(9),
            'v' => Some(11),
            '\\' => Some('\\' as u32),
            '\'' => Some('\'' as u32),
            '"' => Some('"' as u32),
            '?' => Some('?' as u32),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 && i < chars.len() && chars[i].is_digit(8) {
                    value = value * 8 + chars[i].to_digit(8).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                Some(value & 0xff)
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut value: u32 = 0;
                let mut n = 0;
                while n < max && i < chars.len() && chars[i].is_ascii_hexdigit() {
                    value = value * 16 + chars[i].to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                    continue;
                }
                if e == 'x' && value >= 0x80 {
                    // A raw byte that is not valid UTF-8 on its own: keep it visible
                    // rather than invent a character bash would not produce.
                    out.push(char::REPLACEMENT_CHARACTER);
                    continue;
                }
                Some(value)
            }
            'c' if i < chars.len() => {
                let x = chars[i];
                i += 1;
                // bash: toupper(X) & 0x1f (`\c?` is DEL).
                if x == '?' {
                    Some(0x7f)
                } else {
                    Some((x.to_ascii_uppercase() as u32) & 0x1f)
                }
            }
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        match decoded {
            Some(0) => break,
            Some(v) => out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER)),
            None => {}
        }
    }
    out
}

/// Finds the first brace expression bash would expand, at or after `from`: an
/// unquoted `{` with a matching unquoted `}` and, between them at the same depth, an
/// unquoted `,` or a `..` sequence. Returns `(open, close)`.
fn find_brace(chars: &[(char, bool)], from: usize) -> Option<(usize, usize)> {
    let mut start = from;
    while start < chars.len() {
        let open = (start..chars.len()).find(|&i| chars[i] == ('{', false))?;
        // `${` is a parameter expansion, not a brace.
        let after_dollar = open > 0 && chars[open - 1] == ('$', false);
        let mut depth = 0usize;
        let mut comma = false;
        let mut close = None;
        for (j, &(c, quoted)) in chars.iter().enumerate().skip(open + 1) {
            if quoted {
                continue;
            }
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    close = Some(j);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => comma = true,
                _ => {}
            }
        }
        if let Some(close) = close
            && !after_dollar
            && (comma || sequence(&chars[open + 1..close]).is_some())
        {
            return Some((open, close));
        }
        start = open + 1;
    }
    None
}

/// A `{x..y[..step]}` sequence's items, if the text is one.
fn sequence(inner: &[(char, bool)]) -> Option<Vec<String>> {
    if inner.iter().any(|&(_, q)| q) {
        return None;
    }
    let text: String = inner.iter().map(|&(c, _)| c).collect();
    let pieces: Vec<&str> = text.split("..").collect();
    if !(pieces.len() == 2 || pieces.len() == 3) {
        return None;
    }
    let step: i64 = match pieces.get(2) {
        Some(s) => s.parse::<i64>().ok()?.checked_abs()?.max(1),
        None => 1,
    };
    if let (Ok(a), Ok(b)) = (pieces[0].parse::<i64>(), pieces[1].parse::<i64>()) {
        let count = (a - b).unsigned_abs() / step as u64 + 1;
        if count > MAX_BRACE_WORDS as u64 {
            return Some(vec![String::new(); MAX_BRACE_WORDS + 1]);
        }
        let width = if pieces[0].starts_with('0') || pieces[1].starts_with('0') {
            pieces[0].len().max(pieces[1].len())
        } else {
            0
        };
        let dir = if a <= b { step } else { -step };
        let mut items = Vec::new();
        let mut v = a;
        loop {
            items.push(format!("{v:0width$}"));
            if v == b || (dir > 0 && v + dir > b) || (dir < 0 && v + dir < b) {
                break;
            }
            v += dir;
        }
        return Some(items);
    }
    let (mut a, mut b) = (pieces[0].chars(), pieces[1].chars());
    match (a.next(), a.next(), b.next(), b.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            let (x, y) = (x as i64, y as i64);
            let dir = if x <= y { step } else { -step };
            let mut items = Vec::new();
            let mut v = x;
            loop {
                items.push(char::from_u32(v as u32)?.to_string());
                if v == y || (dir > 0 && v + dir > y) || (dir < 0 && v + dir < y) {
                    break;
                }
                v += dir;
            }
            Some(items)
        }
        _ => None,
    }
}

type QChars = Vec<(char, bool)>;

/// Bash brace expansion of `chars` into `out`; `None` when too large or too deep.
fn expand_braces(chars: &[(char, bool)], depth: usize, out: &mut Vec<QChars>) -> Option<()> {
    if depth > MAX_BRACE_DEPTH || out.len() > MAX_BRACE_WORDS {
        return None;
    }
    let Some((open, close)) = find_brace(chars, 0) else {
        out.push(chars.to_vec());
        return Some(());
    };
    let prefix = &chars[..open];
    let inner = &chars[open + 1..close];
    let suffix = &chars[close + 1..];
    let alternatives: Vec<QChars> = match sequence(inner) {
        Some(items) if !inner.iter().any(|&(c, q)| c == ',' && !q) => items
            .into_iter()
            .map(|s| s.chars().map(|c| (c, true)).collect())
            .collect(),
        _ => split_alternatives(inner),
    };
    for alternative in alternatives {
        let mut rest: QChars = alternative;
        rest.extend_from_slice(suffix);
        let mut expanded = Vec::new();
        expand_braces(&rest, depth + 1, &mut expanded)?;
        for tail in expanded {
            let mut word: QChars = prefix.to_vec();
            word.extend(tail);
            out.push(word);
            if out.len() > MAX_BRACE_WORDS {
                return None;
            }
        }
    }
    Some(())
}

/// Splits a brace body at its top-level unquoted commas.
fn split_alternatives(inner: &[(char, bool)]) -> Vec<QChars> {
    let mut alternatives = vec![Vec::new()];
    let mut depth = 0usize;
    for &(c, quoted) in inner {
        if !quoted {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    alternatives.push(Vec::new());
                    continue;
                }
                _ => {}
            }
        }
        if let Some(last) = alternatives.last_mut() {
            last.push((c, quoted));
        }
    }
    alternatives
}
