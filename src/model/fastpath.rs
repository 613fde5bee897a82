//! The fast path: a lexer for the shapes agents send most — plain words, single and
//! double quotes (with `$NAME`/`${NAME}` and backslash escapes inside), backslash
//! escapes, `~` at a word's start, `{}` in an argument (`find -exec rm {} +`),
//! `NAME=value` prefixes (quoted values too), assignments alone (`X=build; ls $X`),
//! `export`/`local`/`declare`/`typeset`/`readonly` with names and `NAME=value`
//! arguments, redirects to static targets (`>`, `>>`, `<`, `&>`, `2>`, `2>&1`),
//! pipelines, `&&`/`||`/`;` lists, a final `&` (without `;`), a trailing comment,
//! `$(…)` in an argument and `<(…)`/`>(…)` as an argument, holding such commands
//! (`kill $(pgrep -f x)`, `eval "$(ssh-agent -s)"`, `diff <(sort a) <(sort b)`:
//! walked after the command, in a substitution, unless lowering would know what a
//! `$(…)` prints), `[ -f FILE ]` and `[ A = B ]` tests, one-line `for`, `while` and
//! `if` statements, `{ …; }` groups, `( … )` subshells and `NAME() { …; }`
//! functions around such commands ([`compound`]), and one command with a
//! heredoc whose delimiter is quoted (`cat <<'EOF' > file`, the way agents write
//! files: its body is literal text, so the lexer only has to find where it ends). For such commands the tree-sitter parse is
//! skipped: the lexer gives the walker what lowering the syntax nodes would give it
//! (the words through the same [`PartsBuilder`] the tree path uses), and the walker's
//! record step does the rest exactly as for a parsed command, nested scripts (`bash
//! -c`, `| sh`) included; every rule still runs on the records.
//!
//! It returns "not mine" (`None`) for anything else — other keywords, other
//! heredocs, other substitutions, backticks, `((`, `[[`, other braces and parentheses,
//! globs it cannot judge the same way, other newlines, any byte it does not know —
//! and the full parse is always the reference: `tests/fastpath.rs` proves on the
//! corpus, the fuzz seeds and generated commands that the fast path either bails or
//! builds exactly the tree path's records.

mod compound;

pub use compound::{Compound, CompoundKind, Statement};

use super::command::Redirect;
use super::word::{PartsBuilder, Word};
use crate::parse::{SpanMap, all_bytes};
use crate::verdict::Span;

/// Longest command the lexer takes; longer ones are parsed.
const MAX_LEN: usize = 4096;

/// Reserved words, keywords and declaration commands: never fast. A `match`, so
/// the compiler compares the few bytes inline (this runs for every command).
fn is_reserved(word: &str) -> bool {
    matches!(
        word,
        "if" | "then"
            | "else"
            | "elif"
            | "fi"
            | "case"
            | "esac"
            | "for"
            | "select"
            | "while"
            | "until"
            | "do"
            | "done"
            | "function"
            | "time"
            | "coproc"
            | "in"
            | "!"
            | "{"
            | "}"
            | "[["
            | "]]"
            // Parsed as its own node kind, with words.
            | "unset"
    ) || is_declaration(word)
}

/// The declaration commands, which parse as their own node kind with assignments
/// (the lexer reads them with [`declaration`]).
fn is_declaration(word: &str) -> bool {
    matches!(
        word,
        "export" | "declare" | "typeset" | "local" | "readonly"
    )
}

/// Characters of an unquoted word the lexer knows the grammar treats as word text.
/// A table lookup: it runs for every byte of every word.
#[inline]
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

/// [`is_word_byte`]'s table: ASCII letters and digits and `-_./:=@%+,~*?^`.
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'_'
                    | b'.'
                    | b'/'
                    | b':'
                    | b'='
                    | b'@'
                    | b'%'
                    | b'+'
                    | b','
                    | b'~'
                    | b'*'
                    | b'?'
                    | b'^'
            );
        b += 1;
    }
    table
};

/// A lexed word: its builder and where it is.
struct LexWord<'a> {
    builder: PartsBuilder,
    start: usize,
    end: usize,
    /// The unquoted text before the first quote or `$`, for assignment detection.
    lead: &'a str,
    /// Only unquoted text (no quotes, no `$`).
    plain: bool,
    /// Its `$(…)`, `<(…)` and `>(…)`, in order, their insides not yet lexed.
    substitutions: Vec<Enclosed>,
}

/// Where a substitution's inside is in the text the lexer reads: lexed only once
/// its word is known to be an argument ([`Enclosed::commands`]), so a command the
/// lexer refuses for another reason costs no more than the search for the `)`.
#[derive(Clone, Copy)]
struct Enclosed {
    /// The inside's first byte.
    open: usize,
    /// The `)`.
    close: usize,
    /// `<(…)` or `>(…)`.
    process: bool,
}

enum Token<'a> {
    Word(LexWord<'a>),
    /// `|`, `&&`, `||`, `;`.
    Separator(Sep),
    Redirect(Redirect),
    /// `<<'DELIM'`: a heredoc whose body [`heredoc_body`] fills in, with its
    /// delimiter.
    Heredoc(Redirect, &'a str),
    /// A final `&`.
    Background,
    /// `[` or `[[` where a word starts, before a blank: opens a test (at its
    /// index).
    TestOpen(usize),
    /// `]` or `]]` where a word starts, before a blank, an operator or the end:
    /// closes a test (at its index).
    TestClose(usize),
    /// `{` where a word starts, before a blank: opens a group (at its index).
    GroupOpen(usize),
    /// `}` where a word starts, before a blank, `;`, `&`, `|` or the end: closes a
    /// group (at its index).
    GroupClose(usize),
    /// `NAME()`: a function's name, the `()` glued to it.
    FunctionName(LexWord<'a>),
    /// `(` where a word starts, not `((`: opens a subshell (at its index).
    SubshellOpen(usize),
    /// `)`: closes a subshell (at its index).
    SubshellClose(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sep {
    Pipe,
    And,
    Or,
    Semi,
}

/// What the lexer read of a whole command: most often one list of simple
/// commands, kept inline.
pub type Statements = smallvec::SmallVec<[Statement; 1]>;

/// The statements of `command` when the lexer knows its every byte; `None`
/// otherwise (the caller parses it).
pub fn commands(command: &str) -> Option<Statements> {
    if command.is_empty() || command.len() > MAX_LEN {
        return None;
    }
    // A heredoc's body starts on the next line; the lexer reads the first line only.
    let line_end = command.find('\n').unwrap_or(command.len());
    let mut tokens = lex(&command[..line_end])?;
    heredoc_body(command, line_end, &mut tokens)?;
    if compound::has_compound(command, &tokens) {
        if matches!(tokens.last(), Some(Token::Background)) {
            return None;
        }
        return compound::statements(command, tokens).map(Statements::from_vec);
    }
    // `a && b &` runs the list in one background job: the same frame for every
    // record, in a scope of its own. With a `;` only the last list would be.
    let background = matches!(tokens.last(), Some(Token::Background));
    if background {
        tokens.pop();
        if tokens
            .iter()
            .any(|t| matches!(t, Token::Separator(Sep::Semi)))
            || !matches!(tokens.last(), Some(Token::Word(_) | Token::Redirect(_)))
        {
            return None;
        }
    }
    let mut records = build(command, tokens)?;
    if background
        && records
            .iter()
            .any(|r| r.declaration || r.test || r.words.is_empty())
    {
        return None;
    }
    for record in &mut records {
        record.background = background;
    }
    Some(Statements::from_buf([Statement::Commands(records)]))
}

/// Fills in the body of the command's heredoc (`<<'DELIM'` on the first line): the
/// lines after it up to the one that is exactly `DELIM`, which must end the text.
/// Text after the first line with no heredoc, a second heredoc, a heredoc in a
/// pipeline or list or with words after it, an empty body or a byte the grammar
/// might read otherwise (a control character, `\r`) is not the lexer's.
fn heredoc_body(command: &str, line_end: usize, tokens: &mut [Token<'_>]) -> Option<()> {
    let mut heredocs = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Token::Heredoc(..)));
    let Some((at, _)) = heredocs.next() else {
        // One line, or more lines without a heredoc (not ours).
        return (line_end == command.len()).then_some(());
    };
    // A comment on the first line: the grammar's reading of it is not checked here.
    if heredocs.next().is_some()
        || command[..line_end].contains('#')
        || tokens
            .iter()
            .any(|t| matches!(t, Token::Separator(_) | Token::Background))
        || tokens[at..].iter().any(|t| matches!(t, Token::Word(_)))
    {
        return None;
    }
    let Token::Heredoc(mut redirect, delimiter) =
        std::mem::replace(&mut tokens[at], Token::Background)
    else {
        return None;
    };
    let start = line_end + 1;
    let rest = command.get(start..)?;
    // The body ends at the first line that is exactly the delimiter. The grammar
    // also ends it at a line that only starts with the delimiter (`EOFX`), or has
    // it after blanks, where bash reads on: the delimiter's first appearance in
    // the text must be that line, or the text is not the lexer's.
    // (An empty body is left to the grammar too.)
    let end = rest.find(delimiter)?;
    let ends_line = matches!(
        rest.as_bytes().get(end + delimiter.len()),
        None | Some(b'\n')
    );
    if end == 0 || rest.as_bytes()[end - 1] != b'\n' || !ends_line {
        return None;
    }
    let after = &rest[end + delimiter.len()..];
    let body = &rest[..end];
    // The grammar leaves blanks and empty lines at the body's start out of it, and
    // joins a line ending in a backslash to the next, where bash keeps both as
    // written: not the lexer's.
    if !(after.is_empty() || after == "\n")
        || body.starts_with([' ', '\t', '\n'])
        || body
            .match_indices('\\')
            .any(|(at, _)| body.as_bytes().get(at + 1) == Some(&b'\n'))
        || !all_bytes(body.as_bytes(), |b| {
            (b >= 0x20 && b != 0x7f) | (b == b'\n') | (b == b'\t')
        })
    {
        return None;
    }
    redirect.heredoc = Some(super::command::Heredoc {
        static_text: Some(body.to_string()),
        span: Span::new(start, start + end),
    });
    redirect.span = Span::new(redirect.span.start, start + end + delimiter.len());
    tokens[at] = Token::Redirect(redirect);
    Some(())
}

/// True when `text` has a `$` outside quotes after a quoted part (`'k'v=$X`).
fn dollar_after_quotes(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"') => {
                quoted = true;
                match text[i + 1..].find(quote as char) {
                    Some(n) => i += n + 1,
                    None => return true,
                }
            }
            b'$' if quoted => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// `<<'DELIM'` or `<<"DELIM"` at `at` (a quoted delimiter of letters, digits and
/// `_`): the redirect without its body, the delimiter, and the index after it.
/// `<<-`, an unquoted or partly quoted delimiter is not the lexer's.
fn heredoc_start(src: &str, at: usize) -> Option<(Redirect, &str, usize)> {
    let bytes = src.as_bytes();
    let mut i = at + 2;
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let quote = *bytes.get(i).filter(|b| matches!(b, b'\'' | b'"'))?;
    let close = i + 1 + src[i + 1..].find(quote as char)?;
    let delimiter = &src[i + 1..close];
    let next = close + 1;
    if delimiter.is_empty()
        || !delimiter
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        || !matches!(bytes.get(next), None | Some(b' ' | b'\t'))
    {
        return None;
    }
    let redirect = Redirect {
        operator: "<<".to_string(),
        fd: None,
        target: None,
        heredoc: None,
        span: Span::new(at, next),
    };
    Some((redirect, delimiter, next))
}

/// One simple command as the lexer read it: what lowering a `command` node gives the
/// walker. The walker's own record step (wrappers, nested scripts, `cd`, variables,
/// files written then run, arithmetic contexts) then runs on it exactly as on a
/// parsed command, so the two paths share every step after lowering.
#[derive(Clone, Debug)]
pub struct Lexed {
    /// The words as bash builds them.
    pub words: Vec<Word>,
    /// `NAME=value` prefixes.
    pub assignments: Vec<super::command::Assignment>,
    /// Redirects after the words.
    pub redirects: Vec<Redirect>,
    /// The command's span (prefixes and words, not redirects).
    pub span: Span,
    /// A stage of a pipeline.
    pub in_pipeline: bool,
    /// Its stdin comes from the previous stage.
    pub piped_stdin: bool,
    /// The whole command runs in the background (a final `&`).
    pub background: bool,
    /// A declaration (`export A=1 B`, `local x=1`): its `NAME=value` arguments are
    /// in `assignments` (a bare `NAME` with no value), the keyword alone in
    /// `words`, as lowering a `declaration_command` gives them.
    pub declaration: bool,
    /// A test (`[ -f FILE ]`): its operands in `words`, as lowering a
    /// `test_command` gives them.
    pub test: bool,
    /// The `$(…)`, `<(…)` and `>(…)` in the words, in order: the walker walks
    /// their commands after the command's record, as it walks a
    /// `command_substitution` or `process_substitution` node among a command's
    /// children.
    pub substitutions: Vec<Substitution>,
}

/// The commands of one substitution in a lexed command's words.
#[derive(Clone, Debug)]
pub struct Substitution {
    /// What runs inside, placed in the whole command.
    pub commands: Vec<Lexed>,
    /// `<(…)` or `>(…)`: runs beside the command (a job of its own), where `$(…)`
    /// runs before it.
    pub process: bool,
}

impl Lexed {
    /// The command with every span placed in the whole command by `map`, as lowering
    /// places a nested script's nodes: the lexer reads a nested script's text alone.
    pub fn placed(mut self, map: SpanMap) -> Lexed {
        let place = |span: &mut Span| *span = map.map(span.start, span.end);
        place(&mut self.span);
        for word in &mut self.words {
            place(&mut word.span);
        }
        for assignment in &mut self.assignments {
            place(&mut assignment.span);
            if let Some(value) = &mut assignment.value {
                place(&mut value.span);
            }
        }
        for redirect in &mut self.redirects {
            place_redirect(redirect, map);
        }
        for substitution in &mut self.substitutions {
            let commands = std::mem::take(&mut substitution.commands);
            substitution.commands = commands.into_iter().map(|c| c.placed(map)).collect();
        }
        self
    }
}

/// A redirect with its spans placed in the whole command by `map`.
fn place_redirect(redirect: &mut Redirect, map: SpanMap) {
    let place = |span: &mut Span| *span = map.map(span.start, span.end);
    place(&mut redirect.span);
    if let Some(target) = &mut redirect.target {
        place(&mut target.span);
    }
    if let Some(heredoc) = &mut redirect.heredoc {
        place(&mut heredoc.span);
    }
}

fn lex(src: &str) -> Option<Vec<Token<'_>>> {
    let bytes = src.as_bytes();
    // Room for a few tokens, most commands' count; small enough for the
    // allocator's per-thread cache of freed blocks.
    let mut tokens = Vec::with_capacity(4);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' | b'\t' => i += 1,
            b'#' => {
                // A comment runs to the end of the line; a second line is not ours.
                if src[i..].contains(['\n', '\r']) {
                    return None;
                }
                break;
            }
            b'|' => match bytes.get(i + 1) {
                Some(b'|') => {
                    tokens.push(Token::Separator(Sep::Or));
                    i += 2;
                }
                Some(b'&') => return None,
                _ => {
                    tokens.push(Token::Separator(Sep::Pipe));
                    i += 1;
                }
            },
            b'&' => match bytes.get(i + 1) {
                Some(b'&') => {
                    tokens.push(Token::Separator(Sep::And));
                    i += 2;
                }
                Some(b'>') => {
                    let (redirect, next) = redirect(src, i, i, None)?;
                    tokens.push(Token::Redirect(redirect));
                    i = next;
                }
                // `&` at the very end runs the whole command in the background.
                _ if src[i + 1..].bytes().all(|b| b == b' ' || b == b'\t') => {
                    tokens.push(Token::Background);
                    break;
                }
                _ => return None,
            },
            b';' => {
                if bytes.get(i + 1) == Some(&b';') || bytes.get(i + 1) == Some(&b'&') {
                    return None;
                }
                tokens.push(Token::Separator(Sep::Semi));
                i += 1;
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') && bytes.get(i + 2) != Some(&b'<') => {
                let (redirect, delimiter, next) = heredoc_start(src, i)?;
                tokens.push(Token::Heredoc(redirect, delimiter));
                i = next;
            }
            // `diff <(sort a) <(sort b)`: a process substitution is a word.
            b'<' | b'>' if bytes.get(i + 1) == Some(&b'(') => {
                let (word, next) = word(src, i)?;
                tokens.push(Token::Word(word));
                i = next;
            }
            b'<' | b'>' => {
                let (redirect, next) = redirect(src, i, i, None)?;
                tokens.push(Token::Redirect(redirect));
                i = next;
            }
            b'[' if matches!(bytes.get(i + 1), Some(b' ' | b'\t')) => {
                tokens.push(Token::TestOpen(i));
                i += 1;
            }
            b'[' if bytes.get(i + 1) == Some(&b'[')
                && matches!(bytes.get(i + 2), Some(b' ' | b'\t')) =>
            {
                tokens.push(Token::TestOpen(i));
                i += 2;
            }
            b']' if bytes.get(i + 1) == Some(&b']') && closes(bytes.get(i + 2)) => {
                tokens.push(Token::TestClose(i));
                i += 2;
            }
            b']' if closes(bytes.get(i + 1)) => {
                tokens.push(Token::TestClose(i));
                i += 1;
            }
            b'{' if matches!(bytes.get(i + 1), Some(b' ' | b'\t')) => {
                tokens.push(Token::GroupOpen(i));
                i += 1;
            }
            b'}' if closes(bytes.get(i + 1)) => {
                tokens.push(Token::GroupClose(i));
                i += 1;
            }
            // `NAME()`: the word before it, glued to it, names a function.
            b'(' if bytes.get(i + 1) == Some(&b')') => {
                let Some(Token::Word(name)) = tokens.pop() else {
                    return None;
                };
                if name.end != i {
                    return None;
                }
                tokens.push(Token::FunctionName(name));
                i += 2;
            }
            b'(' if bytes.get(i + 1) != Some(&b'(') => {
                tokens.push(Token::SubshellOpen(i));
                i += 1;
            }
            b')' => {
                tokens.push(Token::SubshellClose(i));
                i += 1;
            }
            b'0'..=b'9' => {
                // `2>`, `2>&1`: a file descriptor glued to its operator.
                let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                if matches!(bytes.get(i + digits), Some(b'<' | b'>')) {
                    let fd = &src[i..i + digits];
                    let (redirect, next) = redirect(src, i, i + digits, Some(fd))?;
                    tokens.push(Token::Redirect(redirect));
                    i = next;
                } else {
                    let (word, next) = word(src, i)?;
                    tokens.push(Token::Word(word));
                    i = next;
                }
            }
            _ => {
                let (word, next) = word(src, i)?;
                tokens.push(Token::Word(word));
                i = next;
            }
        }
    }
    Some(tokens)
}

/// True when the byte after a closing `]`, `]]` or `}` lets it stand alone: a
/// blank, an operator or the end.
fn closes(next: Option<&u8>) -> bool {
    matches!(next, None | Some(b' ' | b'\t' | b';' | b'&' | b'|'))
}

/// A redirect starting at `start` (its fd, if any), with its operator at `op`.
fn redirect(src: &str, start: usize, op: usize, fd: Option<&str>) -> Option<(Redirect, usize)> {
    let bytes = src.as_bytes();
    let operator = match &bytes[op..] {
        [b'&', b'>', b'>', ..] => "&>>",
        [b'&', b'>', ..] => "&>",
        [b'>', b'>', ..] => ">>",
        [b'>', b'&', ..] => ">&",
        [b'<', b'&', ..] => "<&",
        [b'>', b'|', ..] | [b'<', b'<', ..] | [b'<', b'>', ..] => return None,
        [b'>', b'(', ..] | [b'<', b'(', ..] => return None,
        [b'>', ..] => ">",
        [b'<', ..] => "<",
        _ => return None,
    };
    if fd.is_some() && operator.starts_with('&') {
        return None;
    }
    let mut i = op + operator.len();
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match bytes.get(i) {
        Some(b) if is_word_byte(*b) || matches!(b, b'\'' | b'"' | b'$' | b'\\') => {}
        _ => return None,
    }
    let (target, next) = word(src, i)?;
    // `> "$(mktemp)"`: a target known only at run time; the parse's.
    if !target.substitutions.is_empty() {
        return None;
    }
    // `> 'a'b=$X`: the grammar splits the target at the `$` (the parser reports it).
    if !target.plain && dollar_after_quotes(&src[target.start..target.end]) {
        return None;
    }
    if operator.ends_with('&') {
        // Only `N>&M` duplications and `N>&-`, `<&-` closes: `>& file` is another
        // form, and the grammar reads a close's `-` right only when the parse
        // repairs it (`parse/stand_ins.rs`), which the differential test holds.
        let text = &src[target.start..target.end];
        let close = text == "-";
        if !target.plain || !(close || text.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
        if close {
            // `>& -` is not ours; `2>&-` last in its command (before an operator,
            // a comment or the end) is one token to the grammar, with no target.
            if target.start != op + operator.len() {
                return None;
            }
            let rest = src[next..].trim_start_matches([' ', '\t']);
            if rest.is_empty() || rest.starts_with([';', '|', '&', ')', '#']) {
                return Some((
                    Redirect {
                        operator: format!("{operator}-"),
                        fd: fd.map(str::to_string),
                        target: None,
                        heredoc: None,
                        span: Span::new(start, target.end),
                    },
                    next,
                ));
            }
        }
    }
    // A word glued after the target (`>out"x"` is one word; `>a<b` is two redirects)
    // is handled by `word`; anything else ends the token.
    let span = Span::new(start, target.end);
    let target = target.builder.finish(Span::new(target.start, target.end));
    Some((
        Redirect {
            operator: operator.to_string(),
            fd: fd.map(str::to_string),
            target: Some(target),
            heredoc: None,
            span,
        },
        next,
    ))
}

/// One word starting at `start`: unquoted text, quotes and `$NAME`, glued together.
fn word(src: &str, start: usize) -> Option<(LexWord<'_>, usize)> {
    let bytes = src.as_bytes();
    let mut builder = PartsBuilder::new();
    // The unquoted text since the last quote or `$` is `src[run..i]`: the lexer
    // takes its bytes as written (escapes included), so it is a slice, not a copy.
    let mut run = start;
    // Where the unquoted lead ends: at the first quote or `$`.
    let mut lead = None;
    let mut substitutions = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' | b'\t' | b'|' | b'&' | b';' => break,
            // `<(…)`, `>(…)` as a whole word: nothing glued before or after it.
            b'<' | b'>' if i == start && bytes.get(i + 1) == Some(&b'(') => {
                let enclosed = Enclosed::find(src, i + 2, true)?;
                let next = enclosed.close + 1;
                if !matches!(
                    bytes.get(next),
                    None | Some(b' ' | b'\t' | b'|' | b'&' | b';')
                ) {
                    return None;
                }
                flush(&mut builder, src, run, i, &mut lead);
                builder.process_substitution();
                substitutions.push(enclosed);
                i = next;
                run = i;
            }
            // A redirect glued to a word: the grammar and bash may disagree.
            b'<' | b'>' => return None,
            b'\\' => match bytes.get(i + 1) {
                Some(&next) if next.is_ascii_graphic() => i += 2,
                _ => return None,
            },
            b'\'' => {
                let close = i + 1 + src[i + 1..].find('\'')?;
                flush(&mut builder, src, run, i, &mut lead);
                builder.single_quoted(&src[i + 1..close]);
                i = close + 1;
                run = i;
            }
            b'"' => {
                flush(&mut builder, src, run, i, &mut lead);
                i = double_quoted(src, i, &mut builder, &mut substitutions)?;
                run = i;
            }
            b'$' if bytes.get(i + 1) == Some(&b'(') => {
                let enclosed = substitution(src, i)?;
                flush(&mut builder, src, run, i, &mut lead);
                builder.command_substitution(false);
                substitutions.push(enclosed);
                i = enclosed.close + 1;
                run = i;
            }
            b'$' => {
                let (name, next) = variable_name(src, i)?;
                // After a `=` (an assignment, or a word that looks like one) the
                // grammar may read an unquoted `$1` as a number of its own
                // (`P=a$1$2 ls` runs `$2` to it).
                if name.as_bytes()[0].is_ascii_digit() && src[start..i].contains('=') {
                    return None;
                }
                flush(&mut builder, src, run, i, &mut lead);
                builder.variable(name, false);
                i = next;
                run = i;
            }
            // `{}` (`find -exec rm {} +`, `xargs -I{}`): with no comma or `..`
            // inside, bash does not expand it. Any other brace is not ours.
            b'{' if bytes.get(i + 1) == Some(&b'}') => i += 2,
            // `NAME()`: the name ends here (the lexer reads the `()`); so does a
            // word before the `)` that closes a subshell.
            b'(' if i > start && bytes.get(i + 1) == Some(&b')') => break,
            b')' => break,
            _ if is_word_byte(b) => i += 1,
            _ => return None,
        }
    }
    if i == start {
        return None;
    }
    let plain = lead.is_none();
    let lead = &src[start..lead.unwrap_or(i)];
    if i > run {
        builder.unquoted(&src[run..i]);
    }
    Some((
        LexWord {
            builder,
            start,
            end: i,
            lead,
            plain,
            substitutions,
        },
        i,
    ))
}

/// Ends the unquoted run `src[run..at]` before a quote or `$` (the first one ends
/// the lead).
fn flush(builder: &mut PartsBuilder, src: &str, run: usize, at: usize, lead: &mut Option<usize>) {
    lead.get_or_insert(at);
    if at > run {
        builder.unquoted(&src[run..at]);
    }
}

/// `"..."` starting at `start`; returns the index after the closing quote. Only text,
/// backslash escapes of a printable character (`"a\|b"`, `"\$"`: decoded with the
/// text as lowering decodes it), `$NAME`/`${NAME}` and a [`substitution`] inside: a
/// backtick, `!` or other `$` is not ours.
fn double_quoted(
    src: &str,
    start: usize,
    builder: &mut PartsBuilder,
    substitutions: &mut Vec<Enclosed>,
) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut i = start + 1;
    let mut text_start = i;
    builder.open_double_quotes(bytes.get(i) == Some(&b'"'));
    loop {
        match bytes.get(i)? {
            b'"' => {
                if i > text_start {
                    builder.double_quoted_text(&src[text_start..i]);
                }
                return Some(i + 1);
            }
            // The escaped character is text, even a `"`, `$` or backtick.
            b'\\' => match bytes.get(i + 1) {
                Some(0x20..=0x7e) => i += 2,
                _ => return None,
            },
            b'`' | b'!' => return None,
            b'$' if bytes.get(i + 1) == Some(&b'(') => {
                let enclosed = substitution(src, i)?;
                if i > text_start {
                    builder.double_quoted_text(&src[text_start..i]);
                }
                builder.command_substitution(true);
                substitutions.push(enclosed);
                i = enclosed.close + 1;
                text_start = i;
            }
            b'$' => {
                let (name, next) = variable_name(src, i)?;
                if i > text_start {
                    builder.double_quoted_text(&src[text_start..i]);
                }
                builder.variable(name, true);
                i = next;
                text_start = i;
            }
            b if *b < 0x20 || *b == 0x7f => return None,
            _ => i += 1,
        }
    }
}

/// `$(…)` at `at` (its `$`); not `$((…))`.
fn substitution(src: &str, at: usize) -> Option<Enclosed> {
    if src.as_bytes().get(at + 2) == Some(&b'(') {
        return None;
    }
    Enclosed::find(src, at + 2, false)
}

impl Enclosed {
    /// The inside that starts at `open`. It ends at the first `)`, so it holds no
    /// parenthesis, and with it no nested substitution: one in quotes (`$(grep ')'
    /// f)`) leaves an unclosed quote, which [`Enclosed::commands`] refuses. Not the
    /// lexer's either: a `#` or a backtick inside.
    fn find(src: &str, open: usize, process: bool) -> Option<Enclosed> {
        let close = open + src[open..].find(')')?;
        if src[open..close].contains(['#', '(', '`']) {
            return None;
        }
        Some(Enclosed {
            open,
            close,
            process,
        })
    }

    /// The commands inside, read alone and placed in `src`. Not the lexer's: an
    /// empty inside, a heredoc or a final `&` ([`build`] refuses both), a
    /// declaration or assignments alone, and in `$(…)` a program whose output
    /// lowering knows without running it (see `known_output::may_know`).
    fn commands(self, src: &str) -> Option<Substitution> {
        let inside = &src[self.open..self.close];
        let records = build(inside, lex(inside)?)?;
        if records.iter().any(|r| {
            r.declaration
                || r.test
                || r.words.is_empty()
                || (!self.process && super::known_output::may_know(&r.words))
        }) {
            return None;
        }
        let map = SpanMap::Offset {
            base: self.open,
            end: self.close,
        };
        Some(Substitution {
            commands: records.into_iter().map(|r| r.placed(map)).collect(),
            process: self.process,
        })
    }
}

/// `$NAME`, `${NAME}` or a positional parameter `$1`…`$9` at `at`: the name and
/// the index after it. A digit glued to more name bytes (`$10`, `$1x`: one digit
/// to bash, more to the grammar) or braced (`${10}`) is not the lexer's.
fn variable_name(src: &str, at: usize) -> Option<(&str, usize)> {
    let bytes = src.as_bytes();
    let braced = bytes.get(at + 1) == Some(&b'{');
    let from = at + 1 + usize::from(braced);
    let len = bytes[from..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if len == 1 && !braced && bytes[from].is_ascii_digit() {
        return Some((&src[from..=from], from + 1));
    }
    if len == 0 || bytes[from].is_ascii_digit() {
        return None;
    }
    let name = &src[from..from + len];
    if braced {
        (bytes.get(from + len) == Some(&b'}')).then_some((name, from + len + 1))
    } else {
        Some((name, from + len))
    }
}

/// Splits the tokens into commands and builds their records.
fn build(source: &str, tokens: Vec<Token<'_>>) -> Option<Vec<Lexed>> {
    // Commands as ranges of `tokens`, each with the separator that ends it.
    let separators = tokens
        .iter()
        .filter(|t| matches!(t, Token::Separator(_)))
        .count();
    let mut commands: smallvec::SmallVec<[(usize, usize, Option<Sep>); 8]> =
        smallvec::SmallVec::with_capacity(separators + 1);
    let mut from = 0;
    for (at, token) in tokens.iter().enumerate() {
        if let Token::Separator(sep) = token {
            if at == from {
                return None;
            }
            commands.push((from, at, Some(*sep)));
            from = at + 1;
        }
    }
    if from < tokens.len() {
        commands.push((from, tokens.len(), None));
    } else {
        // A trailing `;` is fine; a trailing `|`, `&&` or `||` is incomplete.
        let last = commands.last_mut()?;
        if last.2 != Some(Sep::Semi) {
            return None;
        }
        last.2 = None;
    }
    // The grammar hangs a redirect after `a && b` (or `a && b | c`) on the whole list;
    // followed by a pipe, the list becomes a pipeline stage (`a && b > f | c`): not ours.
    let mut and_or = false;
    for &(from, to, sep) in &commands {
        let redirected = tokens[from..to]
            .iter()
            .any(|t| matches!(t, Token::Redirect(_)));
        if redirected && and_or && sep == Some(Sep::Pipe) {
            return None;
        }
        match sep {
            Some(Sep::And | Sep::Or) => and_or = true,
            Some(Sep::Semi) | None => and_or = false,
            Some(Sep::Pipe) => {}
        }
    }
    // After two pipes the grammar nests a following `&&`/`||` list inside the last
    // stage (`a | b | c && d` as `a | (b | c && d)`): not ours.
    let mut pipes = 0;
    for &(_, _, sep) in &commands {
        match sep {
            Some(Sep::Pipe) => pipes += 1,
            Some(Sep::And | Sep::Or) if pipes >= 2 => return None,
            _ => pipes = 0,
        }
    }
    let mut records = Vec::with_capacity(commands.len());
    let mut previous: Option<Sep> = None;
    let mut tokens = tokens.into_iter();
    for (from, to, sep) in commands {
        let piped = previous == Some(Sep::Pipe);
        // A stage belongs to a pipeline when a pipe touches it on either side.
        let in_pipeline = piped || sep == Some(Sep::Pipe);
        records.push(command(
            source,
            tokens.by_ref().take(to - from),
            in_pipeline,
            piped,
        )?);
        // The separator after it.
        tokens.next();
        previous = sep;
    }
    Some(records)
}

/// One simple command: `NAME=value` prefixes, words, then redirects.
fn command<'a>(
    source: &str,
    tokens: impl Iterator<Item = Token<'a>>,
    in_pipeline: bool,
    piped_stdin: bool,
) -> Option<Lexed> {
    let mut assignments = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut redirects = Vec::new();
    let mut substitutions = Vec::new();
    let mut start = None;
    let mut end = 0;
    let mut tokens = tokens.peekable();
    if let Some(Token::Word(w)) = tokens.peek()
        && w.plain
        && is_declaration(&source[w.start..w.end])
    {
        return declaration(source, tokens, in_pipeline);
    }
    if let Some(Token::TestOpen(_)) = tokens.peek() {
        return test(source, tokens, in_pipeline);
    }
    for token in tokens {
        match token {
            Token::Word(w) => {
                if !redirects.is_empty() {
                    // Words after a redirect: the grammar's shape differs.
                    return None;
                }
                start.get_or_insert(w.start);
                end = w.end;
                let is_prefix = words.is_empty() && w.lead.contains('=');
                if is_prefix {
                    assignments.push(assignment(source, &w)?);
                    continue;
                }
                // A keyword glued to quotes (`export"x"`) is still the keyword; the
                // grammar reads a `%` in a command name as an error (`ls%`).
                // An unquoted `$` in a command name is split oddly by the grammar
                // (`'a'b$X.y`), and a dynamic name asks anyway: not ours either;
                // nor is a `{}` there (a group to the grammar).
                let text = &source[w.start..w.end];
                if words.is_empty()
                    && (is_reserved(text)
                        || is_reserved(w.lead)
                        || text.contains(['%', '$', '{'])
                        || !w.substitutions.is_empty())
                {
                    return None;
                }
                // `==` and `=~` are test operators to the grammar, even as words.
                if text.starts_with("==") || text.starts_with("=~") {
                    return None;
                }
                for enclosed in w.substitutions {
                    substitutions.push(enclosed.commands(source)?);
                }
                words.push(w.builder.finish(Span::new(w.start, w.end)));
            }
            Token::Redirect(r) => {
                if words.is_empty() {
                    return None;
                }
                redirects.push(r);
            }
            // A heredoc's body is filled in before (`heredoc_body`); a test's
            // brackets only open and close one (`test`).
            Token::Separator(_)
            | Token::Background
            | Token::Heredoc(..)
            | Token::TestOpen(_)
            | Token::TestClose(_)
            | Token::GroupOpen(_)
            | Token::GroupClose(_)
            | Token::FunctionName(_)
            | Token::SubshellOpen(_)
            | Token::SubshellClose(_) => return None,
        }
    }
    if words.is_empty() {
        // Assignments alone (`X=build; ls $X`): a statement of their own, with no
        // redirect, outside a pipeline, no value of a number's other shapes.
        if assignments.is_empty()
            || !redirects.is_empty()
            || in_pipeline
            || assignments
                .iter()
                .any(|a| a.value.as_ref().is_some_and(|v| other_number(source, v)))
        {
            return None;
        }
    }
    // The grammar reads a lone `-` as a command's name before a word with a `=`
    // as an assignment to it (`- x=~/a`). (One before a redirect, `echo - 2>&1`,
    // it drops, and the parse puts back: `parse/stand_ins.rs`.)
    if words.first().and_then(Word::value) == Some("-") {
        return None;
    }
    let span = Span::new(start?, end);
    Some(Lexed {
        words,
        assignments,
        redirects,
        span,
        in_pipeline,
        piped_stdin,
        background: false,
        declaration: false,
        test: false,
        substitutions,
    })
}

/// `[ -f FILE ]`, `[ WORD = WORD ]`, `[[ -f FILE ]]`: the tests agents write
/// most, as lowering a `test_command` gives them: a record of its own whose words
/// are the operands. In `[[ … ]]` only a unary operator (the right side of `=`
/// is a pattern there, `&&` an operator). A unary operator that takes a number or an option name
/// (`-t`, `-v`, `-o`, `-a`), the arithmetic comparisons (`-eq`: their operands
/// are evaluated), `==` and `!=` (their right side a pattern to the grammar when
/// unquoted), any other shape, an operand
/// the grammar may read as something else (a number, a glob, a tilde, one that
/// starts like an operator, a backslash) or holding a substitution, a test in a
/// pipeline or with a redirect is not the lexer's.
fn test<'a>(
    source: &str,
    mut tokens: impl Iterator<Item = Token<'a>>,
    in_pipeline: bool,
) -> Option<Lexed> {
    let Some(Token::TestOpen(open)) = tokens.next() else {
        return None;
    };
    if in_pipeline {
        return None;
    }
    let mut words: smallvec::SmallVec<[LexWord<'a>; 3]> = smallvec::SmallVec::new();
    let mut close = None;
    for token in tokens {
        match token {
            Token::Word(w) if close.is_none() && words.len() < 3 => words.push(w),
            Token::TestClose(at) if close.is_none() => close = Some(at),
            _ => return None,
        }
    }
    let close = close?;
    // `[[` closes with `]]`, `[` with `]`; a `[[` test takes one operator.
    let double = source[open..].starts_with("[[");
    if double != source[close..].starts_with("]]") || double && words.len() != 2 {
        return None;
    }
    let text = |w: &LexWord<'_>| &source[w.start..w.end];
    let operand = |w: &LexWord<'_>| {
        let text = text(w);
        w.substitutions.is_empty()
            && !text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '!' | '(' | '='))
            && !text.contains(['*', '?', '~', '[', ']', '\\'])
    };
    let unary = |w: &LexWord<'_>| {
        w.plain
            && matches!(
                text(w),
                "-b" | "-c"
                    | "-d"
                    | "-e"
                    | "-f"
                    | "-g"
                    | "-h"
                    | "-k"
                    | "-p"
                    | "-r"
                    | "-s"
                    | "-u"
                    | "-w"
                    | "-x"
                    | "-G"
                    | "-L"
                    | "-N"
                    | "-O"
                    | "-S"
                    | "-z"
                    | "-n"
            )
    };
    let operands: smallvec::SmallVec<[LexWord<'a>; 2]> = match words.len() {
        2 if unary(&words[0]) && operand(&words[1]) => words.into_iter().skip(1).collect(),
        3 if words[1].plain
            && text(&words[1]) == "="
            && operand(&words[0])
            && operand(&words[2]) =>
        {
            let mut words = words.into_iter();
            let left = words.next()?;
            words.next();
            [left, words.next()?].into_iter().collect()
        }
        _ => return None,
    };
    Some(Lexed {
        words: operands
            .into_iter()
            .map(|w| w.builder.finish(Span::new(w.start, w.end)))
            .collect(),
        assignments: Vec::new(),
        redirects: Vec::new(),
        span: Span::new(open, close + 1 + usize::from(double)),
        in_pipeline: false,
        piped_stdin: false,
        background: false,
        declaration: false,
        test: true,
        substitutions: Vec::new(),
    })
}

/// The `NAME=value` word `w` (its lead holds the `=`) as an assignment, when the
/// lexer reads it as the grammar does.
fn assignment(source: &str, w: &LexWord<'_>) -> Option<super::command::Assignment> {
    let (name, _) = w.lead.split_once('=')?;
    // A variable name (`A+=1` appends: its name ends in `+`, not the lexer's).
    if !super::scope::is_name(name) {
        return None;
    }
    // The value is lexed as a word of its own (`CC='ccache gcc'`,
    // `PATH=./bin:$PATH`). An empty value, one with a tilde (expanded
    // after `=` and `:`), or quotes with a backslash anywhere or a `$`
    // after them take the full path: the grammar ends the assignment
    // there (`X="a"\;` is `X=a` and a command `;` to it, `X='a'$Y` a
    // command `Y`), which the parser reports.
    let value_start = w.start + name.len() + 1;
    let text = &source[value_start..w.end];
    if text.is_empty()
        || text.contains('~')
        || (!w.plain && (text.contains('\\') || dollar_after_quotes(text)))
    {
        return None;
    }
    let (value, next) = word(&source[..w.end], value_start)?;
    // `X=$(nproc)`: lowering marks a value a program prints as a number numeric.
    if next != w.end || !value.substitutions.is_empty() {
        return None;
    }
    let value = value.builder.finish(Span::new(value_start, w.end));
    Some(super::command::Assignment {
        name: name.to_string(),
        value: Some(value),
        span: Span::new(w.start, w.end),
    })
}

/// True when the text of `value` starts like a number but is not only digits
/// (`-5`, `0x1F`, `2#101`, `5a`): the grammar may read a `number` of its own shape
/// there, and marks the name numeric by it; the lexer leaves those to it.
fn other_number(source: &str, value: &Word) -> bool {
    number_of_other_shape(&source[value.span.start..value.span.end])
}

/// True when `text` starts like a number but is not only digits: see
/// [`other_number`] (a `for` loop's values are read the same way).
fn number_of_other_shape(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit() || c == '-')
        && !text.bytes().all(|b| b.is_ascii_digit())
}

/// `export NAME=value NAME…`: the declaration agents write most (`export
/// PATH="$HOME/bin:$PATH" && make`), and `local`, `declare`, `typeset` and
/// `readonly` written the same way. Each argument is an assignment or a bare
/// name; an option (`export -n`, `declare -a`), any other word, a redirect, a
/// pipeline, or a value the grammar reads as a number of its own shape (`N=-1`,
/// `N=0x1F`, which mark the name numeric) is not the lexer's. (`unset` is another
/// node to the grammar, whose arguments are words: not taken.)
fn declaration<'a>(
    source: &str,
    mut tokens: impl Iterator<Item = Token<'a>>,
    in_pipeline: bool,
) -> Option<Lexed> {
    let Some(Token::Word(keyword)) = tokens.next() else {
        return None;
    };
    if in_pipeline {
        return None;
    }
    let mut assignments = Vec::new();
    let mut end = keyword.end;
    for token in tokens {
        let Token::Word(w) = token else {
            return None;
        };
        end = w.end;
        let text = &source[w.start..w.end];
        if w.plain && super::scope::is_name(text) {
            assignments.push(super::command::Assignment {
                name: text.to_string(),
                value: None,
                span: Span::new(w.start, w.end),
            });
            continue;
        }
        if !w.lead.contains('=') {
            return None;
        }
        let assignment = assignment(source, &w)?;
        if other_number(source, assignment.value.as_ref()?) {
            return None;
        }
        assignments.push(assignment);
    }
    let span = Span::new(keyword.start, end);
    Some(Lexed {
        words: vec![
            keyword
                .builder
                .finish(Span::new(keyword.start, keyword.end)),
        ],
        assignments,
        redirects: Vec::new(),
        span,
        in_pipeline,
        piped_stdin: false,
        background: false,
        declaration: true,
        test: false,
        substitutions: Vec::new(),
    })
}
