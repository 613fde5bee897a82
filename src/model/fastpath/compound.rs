//! Compound statements on one line, the loops, tests, groups and functions agents
//! write around their commands: `for NAME in WORDS; do LIST; done`, `while LIST; do
//! LIST; done`, `if LIST; then LIST; [elif LIST; then LIST;]… [else LIST;] fi`, `{
//! LIST; }`, `( LIST )` and `NAME() { LIST; }`, nested, with redirects after
//! `done`, `fi`, `}` or `)` (`while read -r l; do …; done < list.txt`, `(cd src &&
//! make) > build.log`).
//!
//! The lexer's tokens are read here into [`Statement`]s: runs of simple commands
//! between the keywords go to the list builder as any command does, so every
//! command inside is one the lexer reads itself. The walker then does with a
//! [`Compound`] what it does with the grammar's node: an `if` is its lists walked
//! in order, a loop is walked pass after pass until what it knows settles (see
//! `repeat.rs`).
//!
//! Not the lexer's, and left to the parse: a compound in a pipeline, in a `&&` or
//! `||` list, in the background or glued to words after its end; `until`, `case`,
//! `select`, C-style `for ((…))`, `for NAME; do` and `for NAME in; do` (no values),
//! a value holding a substitution, a reserved word or a number of another shape
//! (`-1`, `0x1F`), an empty list, nesting deeper than [`MAX_DEPTH`]; a function
//! written `function NAME`, `NAME ()` or with a body other than `{ LIST; }`, whose
//! name is not a plain identifier, or with more than one redirect.

use super::{Lexed, Sep, Token, build, is_reserved, number_of_other_shape};
use crate::model::command::Redirect;
use crate::model::word::Word;
use crate::parse::SpanMap;
use crate::verdict::Span;
use std::rc::Rc;

/// Compound statements inside one another, at most.
const MAX_DEPTH: u32 = 8;

/// What the lexer read: a list of simple commands, or a compound statement.
#[derive(Clone, Debug)]
pub enum Statement {
    /// Simple commands in pipelines and `&&`/`||`/`;` lists (`a | b && c; d`).
    Commands(Vec<Lexed>),
    /// A loop, an `if`, a group or a function definition.
    Compound(Box<Compound>),
}

/// A loop, an `if`, a group or a function definition: what the walker needs of the
/// grammar's node.
#[derive(Clone, Debug)]
pub struct Compound {
    /// Which statement.
    pub kind: CompoundKind,
    /// What runs, in the order the walk reaches it: a `while`'s condition, then its
    /// body; an `if`'s conditions and branches in the order written; a group's or
    /// a function's list.
    pub body: Vec<Statement>,
    /// From the keyword (or the function's name) to `done`, `fi` or `}`.
    pub span: Span,
    /// Its length in the text it was read from: what one more pass walks again.
    pub length: usize,
    /// Redirects after `done`, `fi` or `}`.
    pub redirects: Vec<Redirect>,
    /// The statement with its redirects.
    pub redirected: Span,
}

/// Which compound statement.
#[derive(Clone, Debug)]
pub enum CompoundKind {
    /// `if … fi`: its lists run once, in order (the walk does not choose a branch).
    If,
    /// `while LIST; do LIST; done`.
    While,
    /// `for NAME in WORDS; do LIST; done`.
    For {
        /// The loop variable.
        variable: String,
        /// The words it takes, as written (substituted when the loop starts).
        values: Vec<Word>,
        /// Every value is written as digits (`for i in 1 2 3`): numbers to the
        /// grammar, which make the variable numeric.
        numeric: bool,
    },
    /// `{ LIST; }`: its list, run in the shell that reads it.
    Group,
    /// `( LIST )`: its list, run in a subshell (a scope of its own).
    Subshell,
    /// `NAME() { LIST; }`: defines NAME. Its list is walked where it is defined,
    /// and its text again at every call (see `definitions.rs`).
    Function {
        /// The function's name.
        name: Rc<str>,
        /// The text between the braces: what a call runs.
        text: Rc<str>,
        /// Where that text is in the text the lexer read.
        inner: Span,
        /// Where that text is in the whole command.
        map: SpanMap,
    },
}

impl Statement {
    /// The statement with every span placed in the whole command by `map`.
    pub fn placed(self, map: SpanMap) -> Statement {
        match self {
            Statement::Commands(commands) => {
                Statement::Commands(commands.into_iter().map(|c| c.placed(map)).collect())
            }
            Statement::Compound(mut compound) => {
                let place = |span: &mut Span| *span = map.map(span.start, span.end);
                place(&mut compound.span);
                place(&mut compound.redirected);
                for redirect in &mut compound.redirects {
                    super::place_redirect(redirect, map);
                }
                match &mut compound.kind {
                    CompoundKind::For { values, .. } => {
                        for value in values {
                            place(&mut value.span);
                        }
                    }
                    CompoundKind::Function {
                        inner, map: body, ..
                    } => {
                        *body = map.within(inner.start, inner.end);
                    }
                    CompoundKind::If
                    | CompoundKind::While
                    | CompoundKind::Group
                    | CompoundKind::Subshell => {}
                }
                let body = std::mem::take(&mut compound.body);
                compound.body = body.into_iter().map(|s| s.placed(map)).collect();
                Statement::Compound(compound)
            }
        }
    }
}

/// True when the tokens hold a compound statement's keyword where a command starts,
/// or a brace or function name anywhere (the reader refuses them out of place).
pub(super) fn has_compound(source: &str, tokens: &[Token<'_>]) -> bool {
    let mut command_start = true;
    for token in tokens {
        match token {
            Token::GroupOpen(_) | Token::FunctionName(_) | Token::SubshellOpen(_) => return true,
            Token::Word(w) => {
                // The first byte first: most words are none of the three.
                if command_start
                    && w.plain
                    && matches!(source.as_bytes()[w.start], b'f' | b'w' | b'i')
                    && matches!(&source[w.start..w.end], "for" | "while" | "if")
                {
                    return true;
                }
                command_start = false;
            }
            Token::Separator(_) => command_start = true,
            _ => command_start = false,
        }
    }
    false
}

/// True when the tokens hold a pipe and a redirect. Before a subshell's `)` with no
/// `;`, the grammar nests the last stages of such a pipeline when it has three or
/// more (`( a | b | c > f )` as `a | (b | c > f)`); the reader leaves any of them
/// to it.
fn redirected_pipeline(tokens: &[Token<'_>]) -> bool {
    tokens.iter().any(|t| matches!(t, Token::Redirect(_)))
        && tokens
            .iter()
            .any(|t| matches!(t, Token::Separator(Sep::Pipe)))
}

/// The statements of a whole command whose tokens hold a compound statement.
pub(super) fn statements(source: &str, tokens: Vec<Token<'_>>) -> Option<Vec<Statement>> {
    let mut reader = Reader {
        source,
        tokens: tokens.into_iter().peekable(),
        depth: 0,
        last_end: 0,
    };
    let (statements, end) = reader.list(&[])?;
    (end.is_none() && !statements.is_empty()).then_some(statements)
}

/// Reads statements from the tokens, one after another.
struct Reader<'a> {
    source: &'a str,
    tokens: std::iter::Peekable<std::vec::IntoIter<Token<'a>>>,
    depth: u32,
    /// Where the last keyword that ended a list ends.
    last_end: usize,
}

impl<'a> Reader<'a> {
    /// Statements up to one of the keywords `ends` where a command starts (which is
    /// read too, and returned), or, with no `ends`, to the end of the tokens.
    fn list(&mut self, ends: &[&str]) -> Option<(Vec<Statement>, Option<&'a str>)> {
        let mut statements = Vec::new();
        // The simple commands since the last compound statement.
        let mut run: Vec<Token<'a>> = Vec::new();
        // The last statement was ended by `;`.
        let mut ended = false;
        loop {
            let command_start = run.is_empty() || matches!(run.last(), Some(Token::Separator(_)));
            let keyword = match self.tokens.peek() {
                Some(Token::Word(w)) if command_start && w.plain => {
                    Some(&self.source[w.start..w.end])
                }
                Some(Token::GroupOpen(_)) if command_start => Some("{"),
                Some(Token::GroupClose(_)) if command_start => Some("}"),
                Some(Token::FunctionName(_)) if command_start => Some("()"),
                Some(Token::SubshellOpen(_)) if command_start => Some("("),
                // A subshell's `)` needs no `;` before it.
                Some(Token::SubshellClose(_)) => Some(")"),
                None if ends.is_empty() => {
                    if !run.is_empty() {
                        statements.push(Statement::Commands(build(self.source, run)?));
                    }
                    return Some((statements, None));
                }
                None => return None,
                Some(_) => None,
            };
            match keyword {
                Some(end) if ends.contains(&end) => {
                    // `LIST; done`: the list before the keyword ends with `;`
                    // (before a subshell's `)`, a command may end it too).
                    if run.is_empty() {
                        if !ended || statements.is_empty() {
                            return None;
                        }
                    } else {
                        let closed = match run.last() {
                            Some(Token::Separator(sep)) => *sep == Sep::Semi,
                            _ => end == ")" && !redirected_pipeline(&run),
                        };
                        if !closed {
                            return None;
                        }
                        statements.push(Statement::Commands(build(self.source, run)?));
                    }
                    match self.tokens.next() {
                        Some(Token::Word(w)) => self.last_end = w.end,
                        Some(Token::GroupClose(at) | Token::SubshellClose(at)) => {
                            self.last_end = at + 1;
                        }
                        _ => {}
                    }
                    return Some((statements, Some(end)));
                }
                Some(keyword @ ("for" | "while" | "if" | "{" | "(" | "()")) => {
                    // Only after `;` or at the start: not in a pipeline or `&&` list.
                    match run.last() {
                        None => {}
                        Some(Token::Separator(Sep::Semi)) => {
                            let commands = std::mem::take(&mut run);
                            statements.push(Statement::Commands(build(self.source, commands)?));
                        }
                        Some(_) => return None,
                    }
                    let compound = self.compound(keyword)?;
                    statements.push(Statement::Compound(Box::new(compound)));
                    match self.tokens.peek() {
                        Some(Token::Separator(Sep::Semi)) => {
                            self.tokens.next();
                            ended = true;
                        }
                        // `(cd src; for …; done)`: the `)` ends it as a `;` would.
                        Some(Token::SubshellClose(_)) if ends.contains(&")") => ended = true,
                        None => ended = false,
                        Some(_) => return None,
                    }
                }
                _ => {
                    run.push(self.tokens.next()?);
                    ended = false;
                }
            }
        }
    }

    /// The compound statement that starts with `keyword` (the next token; `()`
    /// for a function's name), up to its `done`, `fi` or `}` and the redirects
    /// after it.
    fn compound(&mut self, keyword: &str) -> Option<Compound> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let (start, name) = match self.tokens.next()? {
            Token::Word(first) => (first.start, None),
            Token::GroupOpen(at) | Token::SubshellOpen(at) => (at, None),
            Token::FunctionName(name) => {
                let text = &self.source[name.start..name.end];
                if !name.plain || !crate::model::scope::is_name(text) || is_reserved(text) {
                    return None;
                }
                (name.start, Some(text))
            }
            _ => return None,
        };
        let (kind, body) = match keyword {
            "for" => self.for_loop()?,
            "while" => {
                let (mut body, _) = self.list(&["do"])?;
                body.extend(self.list(&["done"])?.0);
                (CompoundKind::While, body)
            }
            "{" => (CompoundKind::Group, self.list(&["}"])?.0),
            "(" => (CompoundKind::Subshell, self.list(&[")"])?.0),
            "()" => self.function(name?)?,
            _ => (CompoundKind::If, self.if_lists()?),
        };
        // The keyword that ended it was the last token read: its end is the
        // statement's.
        let end = self.last_end;
        let span = Span::new(start, end);
        let mut redirects = Vec::new();
        let mut redirected_end = end;
        while let Some(Token::Redirect(_)) = self.tokens.peek() {
            let Some(Token::Redirect(redirect)) = self.tokens.next() else {
                return None;
            };
            redirected_end = redirect.span.end;
            redirects.push(redirect);
        }
        // The grammar gives a function one redirect of its own and hangs more on a
        // statement around it, recorded before the definition.
        if name.is_some() && redirects.len() > 1 {
            return None;
        }
        self.depth -= 1;
        Some(Compound {
            kind,
            body,
            span,
            length: end - start,
            redirects,
            redirected: Span::new(start, redirected_end),
        })
    }

    /// `NAME in WORDS; do LIST; done` after `for`: the kind and the body.
    fn for_loop(&mut self) -> Option<(CompoundKind, Vec<Statement>)> {
        let Some(Token::Word(name)) = self.tokens.next() else {
            return None;
        };
        let variable = &self.source[name.start..name.end];
        if !name.plain || !crate::model::scope::is_name(variable) {
            return None;
        }
        self.keyword("in")?;
        let mut values = Vec::new();
        let mut numeric = true;
        loop {
            match self.tokens.next()? {
                Token::Word(w) => {
                    let text = &self.source[w.start..w.end];
                    // A number of another shape is a `number` to the grammar, which
                    // makes the variable numeric.
                    if !w.substitutions.is_empty()
                        || is_reserved(text)
                        || number_of_other_shape(text)
                    {
                        return None;
                    }
                    numeric &= w.plain && text.bytes().all(|b| b.is_ascii_digit());
                    values.push(w.builder.finish(Span::new(w.start, w.end)));
                }
                Token::Separator(Sep::Semi) => break,
                _ => return None,
            }
        }
        if values.is_empty() {
            return None;
        }
        self.keyword("do")?;
        let (body, _) = self.list(&["done"])?;
        let kind = CompoundKind::For {
            variable: variable.to_string(),
            values,
            numeric,
        };
        Some((kind, body))
    }

    /// `{ LIST; }` after a function's name: the kind and the body. The text
    /// between the braces is kept for the calls.
    fn function(&mut self, name: &str) -> Option<(CompoundKind, Vec<Statement>)> {
        let Some(Token::GroupOpen(open)) = self.tokens.next() else {
            return None;
        };
        let (body, _) = self.list(&["}"])?;
        // The `}` was the last token read.
        let inner = Span::new(open + 1, self.last_end - 1);
        let kind = CompoundKind::Function {
            name: Rc::from(name),
            text: Rc::from(self.source.get(inner.start..inner.end)?),
            inner,
            map: SpanMap::identity(self.source.len()).within(inner.start, inner.end),
        };
        Some((kind, body))
    }

    /// The lists of an `if` after the keyword, in order, through `fi`.
    fn if_lists(&mut self) -> Option<Vec<Statement>> {
        let (mut all, _) = self.list(&["then"])?;
        loop {
            let (branch, end) = self.list(&["elif", "else", "fi"])?;
            all.extend(branch);
            match end? {
                "elif" => all.extend(self.list(&["then"])?.0),
                "else" => {
                    all.extend(self.list(&["fi"])?.0);
                    return Some(all);
                }
                _ => return Some(all),
            }
        }
    }

    /// The next token is the unquoted word `keyword`.
    fn keyword(&mut self, keyword: &str) -> Option<()> {
        match self.tokens.next()? {
            Token::Word(w) if w.plain && &self.source[w.start..w.end] == keyword => Some(()),
            _ => None,
        }
    }
}
