//! Programs whose command takes its arguments from input: `xargs CMD` appends the
//! items it reads on stdin to CMD (or puts each line in place of `-I R`), and GNU
//! `parallel CMD ::: A B` runs CMD once per argument (reading them from stdin when no
//! `:::` is given). When that input is known without running anything — the
//! words after `:::`, a here-string, a static heredoc, a file the command wrote
//! with known text, or an `echo`/`printf` of static words piped straight in — so
//! are the commands: `echo ~/.ssh/id_rsa | xargs
//! cat` runs `cat ~/.ssh/id_rsa`, `parallel cp x.sh {} ::: ~/.bashrc` runs `cp x.sh
//! ~/.bashrc`, and they are judged so.
//!
//! Programs that read file names from stdin (`tar -T -`, `cpio -o`, `zip -@`)
//! are given the names the same way: they read those files.
//!
//! Input that is known but read in a way not modelled here (`xargs -E`, more items
//! than [`MOST_RUNS`] commands, a `{= perl =}` replacement) makes the commands
//! unknown; input from another program stays unknown as before (`find . | xargs
//! grep x`: the items are that program's output).

use super::command::{Redirect, SimpleCommand};
use super::definitions::single_quoted;
use super::nested::Positionals;
use super::word::{Part, Word};
use crate::verdict::Span;

/// Most commands composed for one program: more is judged as unknown.
const MOST_RUNS: usize = 32;

/// What a program given known input runs.
#[derive(Debug, PartialEq, Eq)]
pub enum Runs<T> {
    /// These commands (`xargs`: argv words; `parallel`: shell text).
    Known(Vec<T>),
    /// Commands the gate cannot tell from the input.
    Unknown,
}

/// The text of a file named by `word`, when known: what the command wrote to it
/// earlier (`echo X > f; xargs cat < f`).
pub type FileText<'a> = &'a dyn Fn(&Word) -> Option<String>;

/// The text a command reads on stdin, when known, and where it is written: its own
/// here-string, static heredoc or `< FILE` of known text (the last input redirect
/// wins), else what `previous`, the stage piped straight into it ([`piped_into`]),
/// prints ([`printed`]). `None` when stdin is unknown or another program's output.
pub fn known_stdin(
    redirects: &[Redirect],
    previous: Option<&SimpleCommand>,
    home: Option<&str>,
    files: FileText,
) -> Option<(String, Span)> {
    if let Some(own) = own_stdin(redirects, home, files) {
        return own;
    }
    let previous = previous?;
    let plain = previous.program == Some(0)
        && previous.assignments.is_empty()
        && matches!(previous.origin, super::command::Origin::Simple);
    // Its output must reach the pipe: no redirect of stdout (`2>/dev/null` is fine).
    let stdout_moved = previous.redirects.iter().any(|r| {
        r.operator.starts_with('&')
            || (r.operator.contains('>') && r.fd.as_deref().is_none_or(|fd| fd == "1"))
    });
    if !plain || stdout_moved {
        return None;
    }
    Some((printed(previous, home, files)?, previous.span))
}

/// The `xargs` word when the program runs under `xargs` with the items it reads
/// appended to its words (not put in place of a `-I` placeholder): those words
/// are only known at run time, and stand where options can.
pub fn appended_items(cmd: &SimpleCommand) -> Option<&Word> {
    let program = cmd.program?;
    let wrappers = cmd.words.get(..program)?;
    let at = wrappers
        .iter()
        .rposition(|w| w.value().is_some_and(names_xargs))?;
    let replaces = wrappers[at + 1..].iter().any(|w| {
        w.value().is_none_or(|v| {
            v.starts_with("-I") || v.starts_with("-i") || v.starts_with("--replace")
        })
    });
    (!replaces).then(|| &wrappers[at])
}

/// The text `find -exec` or `xargs -I R` replaces with each run-time item in
/// the words of the command it runs (`{}`, R), when the record is such a
/// command: pasted into a word a shell reads as text (`sh -c 'echo {}'`, `sh -c
/// {}`, `eval {}`), a file name or input line like `;CMD;` is code (pass it as an
/// argument instead: `sh -c 'echo "$1"' _ {}`).
pub fn run_time_placeholder(
    words: &[Word],
    program: Option<usize>,
    wrappers: &[usize],
    by: Option<&str>,
) -> Option<String> {
    placeholder(words, program?, wrappers, by)
}

/// The text `find -exec` (`{}`) or `xargs -I R` (R) replaces with each item in
/// the words of the command it runs (`program` is where that command starts).
fn placeholder(
    words: &[Word],
    program: usize,
    wrappers: &[usize],
    by: Option<&str>,
) -> Option<String> {
    match by {
        Some("find") => Some("{}".to_string()),
        // A byte test before the catalogue's canonical name: most records have
        // no `xargs` among their wrappers.
        _ => wrappers.iter().rev().find_map(|&at| {
            let name = words.get(at)?.value()?;
            names_xargs(name).then(|| replacement(words.get(at + 1..program)?))?
        }),
    }
}

/// The positional parameters of a script a shell runs (`sh -c TEXT NAME ARGS`)
/// where a program puts its run-time items among the words (`find -exec sh -c
/// '…' _ {} \;`, `xargs -I % sh -c '…' _ %`, `fd -x sh -c '…' _ {}`, `parallel`'s
/// `{1}`) or after them (`xargs sh -c '…' _`): from the first such word on, the
/// values and how many there are are only known at run time. A word with a
/// `{…}` in it is read as such an item wherever it is (literal braces in a
/// script's arguments are rare; the cost is an ask).
/// `placeholder`: the record's [`run_time_placeholder`].
pub fn run_time_positionals(
    args: Positionals,
    record: &SimpleCommand,
    placeholder: Option<&str>,
) -> Positionals {
    let Positionals::Own {
        mut values,
        mut more,
    } = args
    else {
        return args;
    };
    let item = |v: &str| match placeholder {
        Some(p) if v.contains(p) => true,
        _ => v.find('{').is_some_and(|open| v[open..].contains('}')),
    };
    if let Some(k) = values.iter().position(|v| v.as_deref().is_some_and(item)) {
        values.truncate(k);
        more = true;
    }
    if appended_items(record).is_some() {
        more = true;
    }
    Positionals::Own { values, more }
}

/// True when the word names `xargs`, in any spelling the catalogue finds it by;
/// a byte test first, as most wrappers are not (`timeout`, `env`).
fn names_xargs(word: &str) -> bool {
    word.as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"args"))
        && program_name(word) == "xargs"
}

/// The text `xargs` replaces with each input item, from its options (`-I R`,
/// `-IR`, `-i`, `-iR`, `--replace`, `--replace=R`; `{}` by default).
fn replacement(options: &[Word]) -> Option<String> {
    let mut words = options.iter();
    while let Some(word) = words.next() {
        let v = word.value()?;
        if v == "-I" {
            return words.next()?.value().map(str::to_string);
        }
        if let Some(r) = v
            .strip_prefix("-I")
            .or_else(|| v.strip_prefix("--replace="))
        {
            return Some(r.to_string());
        }
        if v == "-i" || v == "--replace" {
            return Some("{}".to_string());
        }
        if let Some(r) = v.strip_prefix("-i") {
            return Some(r.to_string());
        }
    }
    None
}

/// True when no line `previous`, the stage piped into `xargs`, prints can start
/// with `-`, so none of the items `xargs` appends can be an option: `find` from
/// static start folders that do not start with `-` (each path it prints starts
/// with one of them) without an action that prints something else (`-printf`,
/// `-ls`); and `echo` or `printf` of static words (`~` too), whose commands are composed
/// and judged from the text they print (`known_stdin`).
pub fn prints_no_options(previous: &SimpleCommand) -> bool {
    let Some(name) = previous.program_str().map(program_name) else {
        return false;
    };
    let args = previous.args();
    match name {
        // `find -- -x` may start from a folder whose name starts with `-`.
        "find" if args.iter().any(|w| w.value() == Some("--")) => false,
        "find" => {
            let starts = args
                .iter()
                .take_while(|w| w.value().is_none_or(|v| !v.starts_with(['-', '(', '!'])))
                .count();
            let printing = ["-printf", "-fprintf", "-ls", "-fls"];
            args[..starts]
                .iter()
                .all(|w| w.value().is_some_and(|v| !v.is_empty()))
                && args[starts..]
                    .iter()
                    .all(|w| w.value().is_some_and(|v| !printing.contains(&v)))
        }
        "echo" | "printf" => args.iter().all(|w| {
            w.parts
                .iter()
                .all(|p| matches!(p, Part::Literal(_) | Part::Quoted(_) | Part::Tilde(_)))
        }),
        _ => false,
    }
}

/// True when `previous`, the stage piped into `xargs`, lists names of the
/// project's own files: `find` from relative start folders that stay here, `git
/// ls-files`, `git diff --name-only`, `grep -l`/`rg -l`/`rg --files`, `fd`, `ls`
/// of relative names. Items from anything else (`base64 -d`, `cat list`) may
/// name any path.
pub fn lists_project_names(previous: &SimpleCommand) -> bool {
    let Some(name) = previous.program_str().map(program_name) else {
        return false;
    };
    let args = previous.args();
    let values: Vec<Option<&str>> = args.iter().map(Word::value).collect();
    let stays = |v: &str| !v.starts_with(['/', '~', '-']) && !v.split('/').any(|c| c == "..");
    let has = |flags: &[&str]| values.iter().flatten().any(|v| flags.contains(v));
    match name {
        "find" => {
            prints_no_options(previous)
                && values
                    .iter()
                    .map_while(|v| v.filter(|v| !v.starts_with(['-', '(', '!'])))
                    .all(stays)
        }
        "git" => match values.first().copied().flatten() {
            Some("ls-files") => true,
            Some("diff" | "grep") => has(&["--name-only", "-l", "--files-with-matches"]),
            _ => false,
        },
        "grep" | "rg" | "ag" => has(&["-l", "-L", "-rl", "-lr", "--files-with-matches", "--files"]),
        "fd" | "fdfind" | "ls" => values
            .iter()
            .all(|v| v.is_some_and(|v| v.starts_with('-') || stays(v))),
        _ => false,
    }
}

/// True when `previous` is an `echo` or `printf` of static words: what it prints
/// is known, and the commands `xargs` makes of it are composed and judged.
pub fn prints_static_words(previous: &SimpleCommand) -> bool {
    matches!(
        previous.program_str().map(program_name),
        Some("echo" | "printf")
    ) && prints_no_options(previous)
}

/// What `record` prints, when known without running anything: `echo` or `printf` of
/// static words (a leading `~` expanded), or a bare `cat` of its own known stdin,
/// or `cat FILE` of a file whose text `files` knows.
pub fn printed(record: &SimpleCommand, home: Option<&str>, files: FileText) -> Option<String> {
    let name = program_name(record.program_str()?);
    if name == "cat" {
        return match record.args() {
            [] => own_stdin(&record.redirects, home, files)??.0.into(),
            [file] if file.value().is_some_and(|v| !v.starts_with('-')) => files(file),
            _ => None,
        };
    }
    let values: Option<Vec<String>> = record.args().iter().map(|w| expanded(w, home)).collect();
    let values = values?;
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    match name {
        "echo" => echo_output(&values),
        "printf" => printf_output(&values),
        _ => None,
    }
}

/// The text of a command's own stdin redirect: `None` when it has none, `Some(None)`
/// when its text is unknown (a file nobody wrote here, a dynamic word).
fn own_stdin(
    redirects: &[Redirect],
    home: Option<&str>,
    files: FileText,
) -> Option<Option<(String, Span)>> {
    let redirect = redirects
        .iter()
        .rfind(|r| r.operator.starts_with('<') && r.fd.as_deref().is_none_or(|fd| fd == "0"))?;
    Some(match redirect.operator.as_str() {
        "<<<" => redirect
            .target
            .as_ref()
            .and_then(|t| Some((format!("{}\n", expanded(t, home)?), t.span))),
        "<<" | "<<-" => redirect
            .heredoc
            .as_ref()
            .and_then(|h| Some((h.static_text.clone()?, h.span))),
        "<" => redirect
            .target
            .as_ref()
            .and_then(|t| Some((files(t)?, t.span))),
        _ => None,
    })
}

/// True when `previous`, the record made just before `next`, is the pipeline stage
/// whose output `next` reads: the text between the two in `source` is one `|` (a
/// heredoc counts to its delimiter word: its body comes after the whole line). In
/// a nested script that is not a byte-for-byte copy every record spans the whole
/// script: then `next` reads a pipe and `previous` is at the same depth, inside a
/// substitution only if `next` is (not a `$(…)` among `next`'s own words). (What is composed from the input only adds commands
/// to judge: a wrong guess asks more, it allows nothing.)
pub fn piped_into(previous: &SimpleCommand, next: &SimpleCommand, source: &str) -> bool {
    if previous.span == next.span {
        return next.context.piped_stdin
            && previous.context.in_substitution == next.context.in_substitution
            && previous.context.nesting == next.context.nesting;
    }
    let start = next.span.start;
    let end = previous
        .redirects
        .iter()
        .map(|r| {
            let text = source.get(r.span.start..r.span.end).unwrap_or("");
            let heredoc = matches!(r.operator.as_str(), "<<" | "<<-");
            match text.strip_prefix(r.operator.as_str()).filter(|_| heredoc) {
                Some(rest) => {
                    // `<<EOF`, `<< 'EOF'`: the operator and the delimiter word.
                    let word = rest.trim_start_matches([' ', '\t']);
                    let delimiter = word
                        .find([' ', '\t', '\n', '|', ';', '&', '<', '>', '(', ')'])
                        .unwrap_or(word.len());
                    r.span.start + (text.len() - word.len()) + delimiter
                }
                None => r.span.end,
            }
        })
        .fold(previous.span.end, usize::max);
    source.get(end..start).is_some_and(|gap| gap.trim() == "|")
}

/// The value bash gives `word` with its tilde expanded (`~` and `~/…`, with the
/// home folder known); `None` when it is not static.
pub fn expanded(word: &Word, home: Option<&str>) -> Option<String> {
    if let Some(value) = word.value() {
        return Some(value.to_string());
    }
    let mut text = String::new();
    for (k, part) in word.parts.iter().enumerate() {
        match part {
            super::word::Part::Literal(t) | super::word::Part::Quoted(t) => text.push_str(t),
            super::word::Part::Tilde(user) if k == 0 && user.is_empty() => text.push_str(home?),
            _ => return None,
        }
    }
    // A glob or a brace still expands to names it stands for: the pattern text
    // stands for them (a path check reads it as the folder it lies in).
    Some(text)
}

/// `item` as one shell word: as it is when it is plain (so a path check reads it
/// as the argument it is), else single-quoted, as parallel quotes it.
fn shell_word(item: &str) -> String {
    let plain = !item.is_empty()
        && !item.starts_with('~')
        && item
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./~:@%+=,-*?[]".contains(&b));
    if plain {
        item.to_string()
    } else {
        single_quoted(item)
    }
}

/// What `echo ARGS` prints; `None` with `-e` and a backslash (escapes not modelled).
/// Its flags, and the one leaving the newline out (`no-newline`), are the
/// catalogue's.
fn echo_output(args: &[&str]) -> Option<String> {
    let entry = crate::catalogue::lookup("echo")?;
    let spelled = |flag: &str, c: char| flag.strip_prefix('-') == Some(c.encode_utf8(&mut [0; 4]));
    let is_flag = |c: char| entry.flags.iter().any(|f| spelled(f, c));
    let no_newline = |c: char| {
        entry.flag_facts.iter().any(|ff| {
            ff.facts.contains(&crate::catalogue::Fact::NoNewline)
                && ff.flags.iter().any(|f| spelled(f, c))
        })
    };
    let mut newline = true;
    let mut escapes = false;
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        let flags = first
            .strip_prefix('-')
            .filter(|f| !f.is_empty() && f.chars().all(is_flag));
        let Some(flags) = flags else { break };
        newline &= !flags.chars().any(no_newline);
        escapes |= flags.contains('e');
        rest = tail;
    }
    let text = rest.join(" ");
    if escapes && text.contains('\\') {
        return None;
    }
    Some(if newline { text + "\n" } else { text })
}

/// What `printf FORMAT ARGS` prints, for a format of text, `%s`, `%%` and the
/// escapes `\n`, `\t`, `\\`, `\0`; `None` for any other directive or escape.
fn printf_output(args: &[&str]) -> Option<String> {
    let (format, mut rest) = args.split_first()?;
    let mut out = String::new();
    loop {
        let mut used = 0;
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            match c {
                '%' => match chars.next()? {
                    's' => {
                        out.push_str(rest.get(used).copied().unwrap_or(""));
                        used += 1;
                    }
                    '%' => out.push('%'),
                    _ => return None,
                },
                '\\' => match chars.next()? {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    '\\' => out.push('\\'),
                    // `\0` alone (not an octal number) is NUL.
                    '0' if !chars.clone().next().is_some_and(|c| c.is_ascii_digit()) => {
                        out.push('\0')
                    }
                    _ => return None,
                },
                c => out.push(c),
            }
        }
        // The format is used again while arguments are left (and at least once).
        if used == 0 || used >= rest.len() {
            return Some(out);
        }
        rest = &rest[used..];
    }
}

/// A program's canonical name: any case, any folder, `.exe` stripped, an alias
/// read as its program (`GTAR`, `/usr/bin/xargs.exe`).
pub fn program_name(word: &str) -> &str {
    crate::catalogue::canonical_or(super::command::basename(word))
}

/// The programs [`names_read`] knows, by name.
const NAME_READERS: &[&str] = &["tar", "cpio", "zip", "wc", "du"];

/// True when `words` (a program's name and arguments) run a program that may read
/// file names from stdin ([`names_read`]): a compare of its name.
pub fn may_read_names(words: &[Word]) -> bool {
    words
        .first()
        .and_then(Word::value)
        .is_some_and(|name| NAME_READERS.contains(&program_name(name)))
}

/// The files a program reads by name from its stdin, given the input: `tar -T -`
/// (`--files-from=-`), `cpio -o` and `cpio -p`, `zip -@`, and `wc`/`du
/// --files0-from=-` (names ended by NUL). `words` are the program's name and
/// arguments. `None` when the program reads no names from stdin.
///
/// To move into the program catalogue: which options name a list of files.
pub fn names_read(words: &[Word], input: &str) -> Option<Vec<String>> {
    let program = program_name(words.first()?.value()?);
    let args: Vec<&str> = words.iter().skip(1).filter_map(Word::value).collect();
    let cluster_has = |letter: char| {
        args.iter().any(|a| {
            a.strip_prefix('-')
                .is_some_and(|c| !c.starts_with('-') && c.contains(letter))
        })
    };
    let given = |names: &[&str]| {
        args.windows(2)
            .any(|w| names.contains(&w[0]) && w[1] == "-")
            || args.iter().any(|a| {
                names.iter().any(|n| {
                    a.strip_prefix(n)
                        .is_some_and(|v| v == "=-" || (v == "-" && !n.starts_with("--")))
                })
            })
    };
    let nul = match program {
        "tar" if given(&["-T", "--files-from"]) => false,
        "cpio"
            if cluster_has('o')
                || cluster_has('p')
                || args.contains(&"--create")
                || args.contains(&"--pass-through") =>
        {
            false
        }
        "zip" if cluster_has('@') => false,
        "wc" | "du" if args.contains(&"--files0-from=-") || given(&["--files0-from"]) => true,
        _ => return None,
    };
    let separator = if nul { '\0' } else { '\n' };
    Some(
        input
            .split(separator)
            .map(str::trim_end)
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// How `xargs` reads its input and builds commands, from its options.
#[derive(Default)]
struct XargsOptions {
    /// `-I R`, `-i`, `--replace`: each line is one item, put in place of R.
    replace: Option<String>,
    /// `-n N`: at most N items per command.
    max_args: Option<usize>,
    /// `-L N`, `-l`: at most N lines per command.
    max_lines: Option<usize>,
    /// `-d C`: items end at C (quotes and backslashes are plain); `-0`: at NUL.
    delimiter: Option<char>,
    /// `-a FILE`: the items come from a file, not stdin.
    from_file: bool,
    /// An option that changes the reading in a way not modelled (`-E`, `-e`).
    unmodelled: bool,
}

/// Reads xargs's option words.
fn xargs_options(words: &[Word]) -> Option<XargsOptions> {
    let mut options = XargsOptions::default();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        let value = word.value()?;
        i += 1;
        if value == "--" {
            break;
        }
        if let Some(long) = value.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let mut take = || match attached.clone() {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    words.get(i - 1)?.value().map(str::to_string)
                }
            };
            match name {
                "replace" => options.replace = Some(attached.unwrap_or_else(|| "{}".into())),
                "max-args" => options.max_args = take()?.parse().ok(),
                "max-lines" => {
                    options.max_lines = Some(attached.and_then(|v| v.parse().ok()).unwrap_or(1))
                }
                "delimiter" => options.delimiter = Some(delimiter(&take()?)?),
                "null" => options.delimiter = Some('\0'),
                "arg-file" => options.from_file = true,
                "eof" => options.unmodelled = true,
                "max-procs" | "max-chars" | "process-slot-var" => {
                    take()?;
                }
                _ => {}
            }
            continue;
        }
        let Some(cluster) = value.strip_prefix('-').filter(|c| !c.is_empty()) else {
            // The command starts here.
            break;
        };
        for (at, c) in cluster.char_indices() {
            let rest = &cluster[at + c.len_utf8()..];
            let mut value_of = || -> Option<String> {
                if rest.is_empty() {
                    i += 1;
                    words.get(i - 1)?.value().map(str::to_string)
                } else {
                    Some(rest.to_string())
                }
            };
            match c {
                'I' => options.replace = Some(value_of()?),
                'i' => {
                    options.replace = Some(if rest.is_empty() {
                        "{}".into()
                    } else {
                        rest.into()
                    })
                }
                'n' => options.max_args = value_of()?.parse().ok(),
                'L' => options.max_lines = value_of()?.parse().ok(),
                'l' => options.max_lines = Some(rest.parse().unwrap_or(1)),
                'd' => options.delimiter = Some(delimiter(&value_of()?)?),
                '0' => {
                    options.delimiter = Some('\0');
                    continue;
                }
                'a' => {
                    value_of()?;
                    options.from_file = true;
                }
                'E' | 'e' => {
                    options.unmodelled = true;
                    if c == 'E' {
                        value_of()?;
                    }
                }
                'P' | 's' => {
                    value_of()?;
                }
                _ => continue,
            }
            // A letter that takes a value ends the cluster.
            break;
        }
    }
    Some(options)
}

/// The character `-d` names: one character or an escape (`\n`, `\t`, `\0`).
fn delimiter(text: &str) -> Option<char> {
    match text {
        "\\n" => Some('\n'),
        "\\t" => Some('\t'),
        "\\0" => Some('\0'),
        _ => {
            let mut chars = text.chars();
            let c = chars.next()?;
            chars.next().is_none().then_some(c)
        }
    }
}

/// Input items as xargs reads them by default: separated by blanks and newlines,
/// with `'…'`, `"…"` and backslash quoting; per line with `lines`. `None` for an
/// unterminated quote (xargs stops with an error).
fn xargs_items(input: &str, lines: bool) -> Option<Vec<Vec<String>>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    let mut item = String::new();
    let mut started = false;
    let mut chars = input.chars();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                if started {
                    out.last_mut()?.push(std::mem::take(&mut item));
                    started = false;
                }
                out.push(Vec::new());
            }
            ' ' | '\t' if !lines || !started => {
                if started {
                    out.last_mut()?.push(std::mem::take(&mut item));
                    started = false;
                }
            }
            '\'' | '"' => {
                started = true;
                loop {
                    match chars.next()? {
                        q if q == c => break,
                        '\n' => return None,
                        other => item.push(other),
                    }
                }
            }
            '\\' => {
                started = true;
                item.push(chars.next()?);
            }
            c => {
                started = true;
                item.push(c);
            }
        }
    }
    if started {
        out.last_mut()?.push(item);
    }
    out.retain(|line| !line.is_empty());
    Some(out)
}

/// The commands `xargs` runs: `words` are its option words then its command
/// (`command_at` is where the command starts in them), `input` what it reads,
/// written at `span`. `None` when its items do not come from stdin.
pub fn xargs_runs(
    words: &[Word],
    command_at: usize,
    input: &str,
    span: Span,
) -> Option<Runs<Vec<Word>>> {
    let options = xargs_options(words.get(..command_at)?)?;
    if options.from_file {
        return None;
    }
    if options.unmodelled {
        return Some(Runs::Unknown);
    }
    let command = words.get(command_at..).unwrap_or(&[]);
    // With no command, xargs runs `echo`: it prints its input.
    if command.is_empty() {
        return Some(Runs::Known(Vec::new()));
    }
    let lines: Vec<Vec<String>> = match options.delimiter {
        Some(d) => input
            .split(d)
            .filter(|s| !s.is_empty())
            .map(|s| vec![s.to_string()])
            .collect(),
        None => match xargs_items(input, options.replace.is_some()) {
            Some(lines) => lines,
            None => return Some(Runs::Known(Vec::new())),
        },
    };
    let literal = |text: &str| Word::literal(text, span);
    let mut runs: Vec<Vec<Word>> = Vec::new();
    if let Some(replace) = &options.replace {
        for item in lines.iter().map(|line| line.join(" ")) {
            let argv = command
                .iter()
                .map(|w| match w.value() {
                    Some(v) if v.contains(replace.as_str()) => {
                        literal(&v.replace(replace.as_str(), &item))
                    }
                    _ => w.clone(),
                })
                .collect();
            runs.push(argv);
        }
    } else {
        let batches: Vec<Vec<String>> = match (options.max_lines, options.max_args) {
            (Some(n), _) => lines.chunks(n.max(1)).map(|c| c.concat()).collect(),
            (None, Some(n)) => lines
                .concat()
                .chunks(n.max(1))
                .map(<[String]>::to_vec)
                .collect(),
            (None, None) => vec![lines.concat()],
        };
        for batch in batches.into_iter().filter(|b| !b.is_empty()) {
            let mut argv = command.to_vec();
            argv.extend(batch.iter().map(|item| literal(item)));
            runs.push(argv);
        }
    }
    Some(if runs.len() > MOST_RUNS {
        Runs::Unknown
    } else {
        Runs::Known(runs)
    })
}

/// The arguments of each `:::` group after parallel's command (`::: a b ::: c`);
/// `None` for arguments from a file (`::::`) or a word only known at run time.
pub fn parallel_groups(after: &[Word], home: Option<&str>) -> Option<Vec<Vec<String>>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in after {
        match expanded(word, home)?.as_str() {
            ":::" | ":::+" => groups.push(Vec::new()),
            "::::" | "::::+" => return None,
            v => groups.last_mut()?.push(v.to_string()),
        }
    }
    Some(groups)
}

/// The shell text GNU `parallel` runs: `command` is its command's words (none when
/// each argument is a command), `groups` the arguments of each `:::` (one job per
/// combination) or, with none, the lines of its input. `None` when a word of the
/// command is only known at run time.
pub fn parallel_runs(command: &[Word], groups: &[Vec<String>]) -> Option<Runs<String>> {
    let words: Option<Vec<&str>> = command.iter().map(Word::value).collect();
    Some(parallel_texts(&words?.join(" "), groups))
}

/// [`parallel_runs`] of the command's text.
fn parallel_texts(script: &str, groups: &[Vec<String>]) -> Runs<String> {
    if script.contains("{=") {
        // A Perl expression computes the replacement: code the gate does not read.
        return Runs::Unknown;
    }
    let mut jobs: Vec<Vec<&str>> = vec![Vec::new()];
    for group in groups {
        let mut next = Vec::new();
        for job in &jobs {
            for arg in group {
                let mut longer = job.clone();
                longer.push(arg.as_str());
                next.push(longer);
            }
        }
        jobs = next;
        if jobs.len() > MOST_RUNS {
            return Runs::Unknown;
        }
    }
    if groups.is_empty() {
        return Runs::Known(Vec::new());
    }
    let texts = jobs
        .iter()
        .map(|args| {
            if script.trim().is_empty() {
                // No command: each argument is a command.
                return args.join(" ");
            }
            let (text, replaced) = replace_strings(script, args);
            if replaced {
                text
            } else {
                let quoted: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
                format!("{text} {}", quoted.join(" "))
            }
        })
        .collect();
    Runs::Known(texts)
}

/// `script` with parallel's replacement strings filled from `args` (quoted, as
/// parallel quotes them): `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}` and
/// their positional forms `{1}`, `{1.}`...; and whether any was there.
fn replace_strings(script: &str, args: &[&str]) -> (String, bool) {
    let mut out = String::with_capacity(script.len());
    let mut replaced = false;
    let mut rest = script;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let token = &after[..close];
            let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let (position, form) = token.split_at(digits);
            let arg = match position {
                "" => args.join(" "),
                n => (*args.get(n.parse::<usize>().ok()?.checked_sub(1)?)?).to_string(),
            };
            let value = match form {
                "" => arg,
                "." => without_extension(&arg).to_string(),
                "/" => arg.rsplit('/').next().unwrap_or(&arg).to_string(),
                "//" => arg.rsplit_once('/').map_or(".", |(d, _)| d).to_string(),
                "/." => without_extension(arg.rsplit('/').next().unwrap_or(&arg)).to_string(),
                "#" | "%" if position.is_empty() => "1".to_string(),
                _ => return None,
            };
            Some((value, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(&shell_word(&value));
                replaced = true;
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, replaced)
}

/// `name` without its last extension (`a/b.tar.gz` → `a/b.tar`).
fn without_extension(name: &str) -> &str {
    let base_start = name.rfind('/').map_or(0, |i| i + 1);
    match name[base_start..].rfind('.') {
        Some(dot) if dot > 0 => &name[..base_start + dot],
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Word> {
        text.split(' ')
            .map(|w| Word::literal(w, Span::default()))
            .collect()
    }

    fn argvs(runs: Runs<Vec<Word>>) -> Vec<String> {
        match runs {
            Runs::Known(list) => list
                .iter()
                .map(|argv| {
                    argv.iter()
                        .map(|w| w.value().unwrap_or("?"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect(),
            Runs::Unknown => vec!["unknown".into()],
        }
    }

    #[test]
    fn xargs_appends_its_items_as_bash_xargs_reads_them() {
        let w = words("cat");
        let runs = xargs_runs(&w, 0, "a 'b c'\n\"d\" e\\ f\n", Span::default());
        assert_eq!(argvs(runs.unwrap()), ["cat a b c d e f"]);
        let w = words("-n1 rm");
        let runs = xargs_runs(&w, 1, "x y\n", Span::default());
        assert_eq!(argvs(runs.unwrap()), ["rm x", "rm y"]);
    }

    #[test]
    fn xargs_replaces_each_line_with_dash_i() {
        let w = words("-I{} cp x.sh {}/bin");
        let runs = xargs_runs(&w, 1, "/a b\n/c\n", Span::default());
        assert_eq!(argvs(runs.unwrap()), ["cp x.sh /a b/bin", "cp x.sh /c/bin"]);
    }

    #[test]
    fn xargs_reading_not_modelled_is_unknown_and_a_file_is_not_stdin() {
        let w = words("-E stop cat");
        assert_eq!(
            xargs_runs(&w, 2, "a\n", Span::default()),
            Some(Runs::Unknown)
        );
        let w = words("-a list cat");
        assert_eq!(xargs_runs(&w, 2, "a\n", Span::default()), None);
        let many = "x\n".repeat(40);
        let w = words("-n1 cat");
        assert_eq!(
            xargs_runs(&w, 1, &many, Span::default()),
            Some(Runs::Unknown)
        );
    }

    #[test]
    fn programs_that_read_names_from_stdin_are_given_them() {
        let read = |cmd: &str, input: &str| names_read(&words(cmd), input);
        assert_eq!(
            read("tar -cf x.tar -T -", "a\nb\n"),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            read("tar -cf x.tar --files-from=-", "a\n"),
            Some(vec!["a".into()])
        );
        assert_eq!(read("cpio -ov", "k\n"), Some(vec!["k".into()]));
        assert_eq!(read("zip -@ x.zip", "k\n"), Some(vec!["k".into()]));
        assert_eq!(
            read("wc --files0-from=-", "a b\0c"),
            Some(vec!["a b".into(), "c".into()])
        );
        assert_eq!(read("tar -cf x.tar -T list.txt", "a\n"), None);
        assert_eq!(read("cpio -i", "a\n"), None);
        assert_eq!(read("zip x.zip a", "a\n"), None);
    }

    #[test]
    fn echo_and_printf_output_is_known_for_plain_forms() {
        assert_eq!(echo_output(&["-n", "a", "b"]).as_deref(), Some("a b"));
        assert_eq!(echo_output(&["a"]).as_deref(), Some("a\n"));
        assert_eq!(echo_output(&["-e", "a\\nb"]), None);
        assert_eq!(
            printf_output(&["%s\\n", "a", "b"]).as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(printf_output(&["%d", "1"]), None);
    }

    #[test]
    fn parallel_runs_one_job_per_combination_with_arguments_quoted() {
        let groups = vec![vec!["a b".to_string(), "c".to_string()]];
        assert_eq!(
            parallel_texts("cat", &groups),
            Runs::Known(vec!["cat 'a b'".into(), "cat c".into()])
        );
        assert_eq!(
            parallel_texts("cp x {//} {/.}", &[vec!["/h/.ssh/k.pub".into()]]),
            Runs::Known(vec!["cp x /h/.ssh k".into()])
        );
        assert_eq!(
            parallel_texts("", &[vec!["rm -rf ~".into()]]),
            Runs::Known(vec!["rm -rf ~".into()])
        );
        assert_eq!(parallel_texts("echo {= $_ =}", &groups), Runs::Unknown);
    }
}
