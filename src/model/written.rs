//! Files written earlier in the command and run later in it: `echo 'rm -rf ~' > f.sh;
//! bash f.sh`. The walker remembers what each command wrote (the text when it is
//! known: a redirected `echo`/`printf` with static text, a static heredoc into `cat`
//! or `tee`), and when a later command runs that file (`bash f`, `sh f`, `source f`,
//! `. f`, `./f`) the text is walked as a nested script; when the text is not known
//! the run is a script only known at run time. A written file run as code the gate
//! does not read (`python3 f.py`, `node f.js`, `xdg-open f`: the catalogue's
//! `path-exec` words) is code given as text, as `python3 -c CODE` is; and a
//! script only known at run time or globbed (`sh "$f"`, `sh *.sh`) may be any
//! file the command wrote.
//!
//! Which programs copy their input into files is the catalogue's (`copies-input`);
//! the text `echo`, `printf` and `cat` print is `input_arguments::printed`'s.

use super::command::SimpleCommand;
use super::word::Word;
use super::wrappers::module_word;
use crate::catalogue::Values;
use crate::catalogue::{self, Entry, Fact, Role};
use crate::verdict::Span;
use std::path::{Path, PathBuf};

/// The files written so far in the whole command, by absolute path, with their
/// text when known. Not scoped: a file written in a subshell stays on disk.
#[derive(Clone, Debug, Default)]
pub(super) struct Files(Vec<(PathBuf, Option<String>)>);

impl Files {
    /// Notes that the command wrote `path` (`text` when known; `append` adds to it).
    pub fn note(&mut self, path: PathBuf, text: Option<String>, append: bool) {
        let previous = self
            .0
            .iter()
            .position(|(p, _)| p == &path)
            .map(|i| self.0.remove(i).1);
        let text = match (append, previous) {
            (false, _) => text,
            (true, Some(Some(old))) => text.map(|t| old + &t),
            // Appended to a file whose earlier text is not known.
            (true, Some(None)) => None,
            // Appended to a file that was already there: its start is not known.
            (true, None) => None,
        };
        self.0.push((path, text));
    }

    /// True when the same files are written with the same texts, in whatever order.
    pub fn same_as(&self, other: &Files) -> bool {
        self.0.len() == other.0.len() && self.0.iter().all(|(p, t)| other.get(p) == Some(t))
    }

    /// Forgets the text of every file whose text changed since `before` (a loop
    /// that appends to a file again and again): only known at run time.
    pub fn widen_from(&mut self, before: &Files) {
        for (path, text) in &mut self.0 {
            if before.get(path) != Some(text) {
                *text = None;
            }
        }
    }

    /// True when the command has written no file so far.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What the command wrote to `path`: `None` if it did not write it.
    pub fn get(&self, path: &Path) -> Option<&Option<String>> {
        self.0.iter().rev().find(|(p, _)| p == path).map(|(_, t)| t)
    }

    /// True when the command wrote a file below the folder `dir` (a folder whose
    /// files a program runs by name: `git -c core.hooksPath=DIR`, `python3 DIR`).
    pub fn any_under(&self, dir: &Path) -> bool {
        self.0.iter().any(|(p, _)| p != dir && p.starts_with(dir))
    }

    /// What the command last wrote to a file called `name`, in any folder.
    pub fn named(&self, name: &str) -> Option<&Option<String>> {
        self.0
            .iter()
            .rev()
            .find(|(p, _)| p.file_name().is_some_and(|f| f == name))
            .map(|(_, t)| t)
    }
}

/// One file a command writes: its name as written and its text when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Write {
    /// The target word's static value.
    pub name: String,
    /// The text written, when known.
    pub text: Option<String>,
    /// `>>`: appended to what was there.
    pub append: bool,
}

/// What `record` writes through its redirects (and `tee` operands); `home` expands
/// a leading `~` in what it prints.
pub(crate) fn writes(record: &SimpleCommand, home: Option<&str>) -> Vec<Write> {
    let unknown = |_: &Word| None;
    // What the command prints: worked out only for a command that writes a file.
    let mut text: Option<Option<String>> = None;
    let mut out = Vec::new();
    for r in &record.redirects {
        let to_stdout = r.fd.as_deref().is_none_or(|fd| fd == "1");
        if !matches!(r.operator.as_str(), ">" | ">|" | ">>" | "&>" | "&>>") {
            continue;
        }
        let Some(name) = r.target.as_ref().and_then(|t| t.static_value()) else {
            continue;
        };
        let text = if to_stdout {
            text.get_or_insert_with(|| super::input_arguments::printed(record, home, &unknown))
                .clone()
        } else {
            None
        };
        out.push(Write {
            name,
            text,
            append: r.operator.ends_with(">>"),
        });
    }
    let entry = record
        .program_str()
        .and_then(|p| catalogue::lookup(super::command::basename(p)));
    // A program that copies its input into its `path-write` operands (`tee`), in
    // any case, any folder, `.exe` stripped: `TEE f.sh` writes f.sh too.
    if let Some(entry) = entry.filter(|e| e.has(Fact::CopiesInput)) {
        let args: Values = record.args().iter().map(|w| w.value()).collect();
        let append = catalogue::usage(entry, &args).has(Fact::Appends);
        for &arg in catalogue::classify(entry, &args).iter() {
            if arg.role == Role::PathWrite
                && !arg.option_value
                && let Some(name) = args[arg.index]
            {
                out.push(Write {
                    name: name.to_string(),
                    text: super::input_arguments::known_stdin(
                        &record.redirects,
                        None,
                        home,
                        &unknown,
                    )
                    .map(|(text, _)| text),
                    append,
                });
            }
        }
    }
    if let Some(entry) = entry {
        supplied_writes(record, entry, &mut out);
    }
    out
}

/// The devices and names through which a program reads its standard input as a
/// file (`cp /dev/stdin f`).
const STDIN_NAMES: &[&str] = &["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

/// Files a program writes, by the catalogue's roles, with text the command itself
/// supplies, text not known: an in-place edit (`sed -i '1i CMD' f`: the edit is
/// the command's), or a write that no file the command names is read into (`dd
/// of=f`, `sort -o f <<< TEXT`, `cp /dev/stdin f`: it comes from standard input).
/// A file written from files the command reads (`gcc -o app main.c`, `cp a.sh
/// b.sh`) is the project's own code, which runs as the project's code does; a
/// program that only changes a file's mode, owner or times writes no text.
fn supplied_writes(record: &SimpleCommand, entry: &'static Entry, out: &mut Vec<Write>) {
    // Cheap tests before the paths are listed: a program that writes through its
    // roles, not a link (`ln`: links.rs follows those), a mount (what runs behind
    // it writes) or a mode's option table (`tar -c`); an in-place editor only
    // with its in-place flag given (`sed -e S` writes nothing).
    let write_bits = Role::PathWrite.bit() | Role::PathWriteOrPipe.bit();
    let skip_bits = Role::LinkTarget.bit() | Role::Mount.bit();
    let by_roles = entry.role_mask & write_bits != 0;
    let writes = (by_roles || !entry.in_place.is_empty())
        && entry.role_mask & skip_bits == 0
        && entry.mode_options.is_empty()
        && !entry.has(Fact::CopiesInput)
        && !entry.has(Fact::ChangesMode)
        && !entry.has(Fact::ChangesOwnership);
    if !writes
        || matches!(
            entry.name,
            "touch" | "mkdir" | "mktemp" | "mkfifo" | "truncate"
        )
    {
        return;
    }
    let values: Values = record.args().iter().map(Word::value).collect();
    let in_place =
        !entry.in_place.is_empty() && super::path_roles::given_modes(entry, &values).in_place;
    if !by_roles && !in_place {
        return;
    }
    // A file named as the program's input or moved (`gcc -o app main.c`, `cp a
    // b`, `mv a b`): what is written is made from it. The catalogue's reading
    // first, cheaper than listing the paths.
    let input = |a: &catalogue::Arg| {
        matches!(a.role, Role::PathRead | Role::PathDelete)
            && values[a.index]
                .and_then(|v| v.get(a.offset..))
                .is_some_and(|v| !STDIN_NAMES.contains(&v) && v != "/dev/null")
    };
    // Nor does one that names no file it writes (`sort` in a pipeline): a write
    // is a word the reading gives a written role, or a setting (`dd of=F`).
    if !in_place {
        let roles = catalogue::classify(entry, &values);
        let writes = |a: &catalogue::Arg| {
            matches!(
                a.role,
                Role::PathWrite | Role::PathWriteOrPipe | Role::Config
            )
        };
        if roles.iter().any(input) || !roles.iter().any(writes) {
            return;
        }
    }
    let uses = super::path_roles::path_uses(record);
    let named = |u: &&super::path_roles::PathUse<'_>| {
        u.role != super::path_roles::Role::Redirect && u.word.value() != Some("/dev/null")
    };
    let derived = uses.iter().filter(named).any(|u| {
        u.access == super::path_roles::Access::Read
            && u.word.value().is_none_or(|v| !STDIN_NAMES.contains(&v))
    });
    if derived {
        return;
    }
    for usage in uses.iter().filter(named).filter(|u| u.access.writes()) {
        if let Some(name) = usage.word.static_value() {
            out.push(Write {
                name,
                text: None,
                append: usage.access == super::path_roles::Access::Append,
            });
        }
    }
}

/// The file `record` runs as a shell script, and the word naming it: `bash F`,
/// `sh F` (any shell), `source F`, `. F`, or the program named by a path (`./F`).
pub(super) fn script_run(record: &SimpleCommand) -> Option<(String, Span)> {
    let name = record.name()?;
    let value = name.value()?;
    let base = record.base_name()?;
    // Any shell of the catalogue, spelled as a case-blind file system or Windows
    // finds it (`SH`, `bash.exe`), and the builtins that read a file in this shell.
    let shell = matches!(base, "source" | ".")
        || crate::catalogue::has_fact(base, crate::catalogue::Fact::Shell);
    if !shell {
        return value.contains('/').then(|| (value.to_string(), name.span));
    }
    let first = shell_script_operand(record)?;
    Some((first.value()?.to_string(), first.span))
}

/// The word naming the script file a shell runs: its first operand, past the
/// values of its options (`bash -O extglob f`), unless an option cluster holds
/// `c` (`bash -c TEXT`: a script string, judged elsewhere).
fn shell_script_operand(record: &SimpleCommand) -> Option<&Word> {
    let args = record.args();
    let options_with_c = args.iter().any(|w| {
        w.value()
            .is_none_or(|v| v.starts_with('-') && !v.starts_with("--") && v.contains('c'))
    });
    if options_with_c {
        return None;
    }
    let entry = record.base_name().and_then(catalogue::lookup);
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.value() {
            Some(v) if v.starts_with(['-', '+']) && v.len() > 1 => {
                if entry.is_some_and(|e| e.takes_next_word(v)) {
                    words.next();
                }
            }
            _ => return Some(word),
        }
    }
    None
}

/// A file a record runs as code, as far as [`code_files`] can name it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum CodeFile<'r> {
    /// Named by a static word (a module's file: `x.py` for `python3 -m x`).
    Named(std::borrow::Cow<'r, str>, Span),
    /// Only known at run time, or a glob: any file the command wrote may be it.
    Unknown(Span),
}

/// The files `record` runs as code other than the shell script [`script_run`]
/// walks: every `path-exec` word of its catalogue entry (the script of an
/// interpreter, `python3 f.py`, `node --require f.js`; the file `xdg-open`
/// runs), a variable given the program that names such a file (`LESSKEYIN=F
/// less`), a settings file named on the command line (`git -c include.path=F`,
/// `cargo --config F`), and a shell's script operand that is only known at run
/// time or globbed (`sh "$f"`, `bash *.sh`). Each is a file this command may have
/// written.
pub(super) fn code_files(record: &SimpleCommand) -> Vec<CodeFile<'_>> {
    let mut out = Vec::new();
    let Some(base) = record.base_name() else {
        return out;
    };
    let Some(entry) = catalogue::lookup(base) else {
        return out;
    };
    let args = record.args();
    let values: Values = args.iter().map(Word::value).collect();
    for &arg in catalogue::classify(entry, &values).iter() {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let value = word.value().and_then(|v| v.get(arg.offset..));
        match (arg.role, value) {
            (Role::PathExec, Some(name)) if name != FOUND_NAME => {
                out.push(CodeFile::Named(name.into(), word.span))
            }
            (Role::PathExec, _) => out.push(CodeFile::Unknown(word.span)),
            // A folder whose files run by name (`gcc -B DIR`, `run-parts DIR`).
            (Role::ExecDirectory, Some(dir)) if !dir.is_empty() => {
                out.push(CodeFile::Named(dir.into(), word.span))
            }
            // A program named by a path (`go build -toolexec=./x.sh`, `go test
            // -exec ./x.sh`): the file runs.
            (Role::Program, Some(program)) => {
                if let Some(file) = program_file(program) {
                    out.push(CodeFile::Named(file.into(), word.span));
                }
            }
            // A setting whose key names a file the program loads as settings or
            // code (`git -c include.path=F`), or a settings file itself (`cargo
            // --config F`): its keys run programs (`core.fsmonitor`, a runner).
            // A key naming a program by a path runs that file (`make CC=./x.sh`).
            (Role::Config, Some(setting)) => match catalogue::setting(setting) {
                Some((key, file)) => match entry.config_key_role(key) {
                    Some(Role::PathExec | Role::ExecDirectory) if !file.is_empty() => {
                        out.push(CodeFile::Named(file.into(), word.span));
                    }
                    Some(Role::Program) => {
                        if let Some(file) = program_file(file) {
                            out.push(CodeFile::Named(file.into(), word.span));
                        }
                    }
                    _ => {}
                },
                None => out.push(CodeFile::Named(setting.into(), word.span)),
            },
            // A setting only known at run time may name any file (`cargo --config
            // "$F"`).
            (Role::Config, None) => out.push(CodeFile::Unknown(word.span)),
            (Role::Module, Some(module)) => module_files(entry, module, word.span, &mut out),
            // `sqlite3 db '.read x.sql'`, `psql -c '\i x.sql'`: client commands
            // read from a file, which may run shell text.
            (Role::Code("sql"), Some(sql)) => {
                out.extend(sql_command_files(sql).map(|f| CodeFile::Named(f.into(), word.span)));
            }
            _ => {}
        }
    }
    // `LESSKEYIN=./lk less`, `PYTHONSTARTUP=x.py python3`: a variable set for the
    // program that names a file it loads as code or settings that run programs.
    if !entry.env_keys.is_empty() {
        for assignment in &record.assignments {
            let Some(value) = &assignment.value else {
                continue;
            };
            match entry.env_key_role(&assignment.name) {
                Some(Role::PathExec | Role::ExecDirectory) => out.push(match value.value() {
                    Some(name) if !name.is_empty() => CodeFile::Named(name.into(), value.span),
                    Some(_) => continue,
                    None => CodeFile::Unknown(value.span),
                }),
                // `CC=./x.sh make`: a program named by a path runs that file.
                Some(Role::Program) => {
                    if let Some(file) = value.value().and_then(program_file) {
                        out.push(CodeFile::Named(file.into(), value.span));
                    }
                }
                _ => {}
            }
        }
    }
    // `python3 -m pytest`: read as `pytest`, with the interpreter a wrapper; the
    // module's name still finds `pytest.py` in the working folder first.
    for &at in &record.wrappers {
        let Some(name) = record.words.get(at).and_then(Word::value) else {
            continue;
        };
        let Some(wrapper) = catalogue::lookup(super::command::basename(name)) else {
            continue;
        };
        if module_word(wrapper, &record.words, at).is_some_and(|m| Some(m) == record.program)
            && let Some(word) = record.program.and_then(|p| record.words.get(p))
            && let Some(module) = word.value()
        {
            module_files(wrapper, module, word.span, &mut out);
        }
    }
    if entry.has(Fact::Shell)
        && out.is_empty()
        && let Some(word) = shell_script_operand(record)
        && word.value().is_none_or(|v| v == FOUND_NAME)
    {
        out.push(CodeFile::Unknown(word.span));
    }
    out
}

/// The files SQL text has its client read commands from: sqlite's `.read FILE`,
/// psql's `\i`/`\ir`/`\include`, mysql's `source FILE` and `\. FILE`, each at
/// the start of a line or statement.
fn sql_command_files(sql: &str) -> impl Iterator<Item = &str> {
    sql.split(['\n', ';']).filter_map(|statement| {
        let mut words = statement.split_whitespace();
        let command = words.next()?;
        let reads = [
            ".read",
            "\\i",
            "\\ir",
            "\\include",
            "\\include_relative",
            "\\.",
        ]
        .contains(&command)
            || command.eq_ignore_ascii_case("source");
        let file = words.next()?.trim_matches(['\'', '"']);
        (reads && !file.is_empty() && !file.starts_with('|')).then_some(file)
    })
}

/// The file a program setting runs when it names one by a path: its first word
/// (a comma list's first item: `gdb,--args`) when that has a `/` (`./x.sh -v`);
/// a bare name is found on the PATH.
fn program_file(program: &str) -> Option<&str> {
    let first = program.split_whitespace().next()?.split(',').next()?;
    first.contains('/').then_some(first)
}

/// The files an interpreter runs for a module named `module`: for Python
/// (`python3 -m MODULE`) MODULE.py, or the package MODULE's `__main__.py`, from
/// the working folder first; for another (`ruby -S NAME`, a script found on
/// `PATH` or else in the working folder) the file of that name.
fn module_files(interpreter: &Entry, module: &str, at: Span, out: &mut Vec<CodeFile<'_>>) {
    if interpreter.interpreter != Some("python") {
        out.push(CodeFile::Named(module.to_string().into(), at));
        return;
    }
    let file = module.replace('.', "/");
    out.push(CodeFile::Named(format!("{file}.py").into(), at));
    out.push(CodeFile::Named(format!("{file}/__main__.py").into(), at));
}

/// The placeholder `find -exec` and `xargs -I {}` replace with a name found at
/// run time.
const FOUND_NAME: &str = "{}";
