//! The record the walker produces for every place a program starts: a
//! [`SimpleCommand`], with the words bash would build, the program that actually runs
//! after wrappers are unwrapped, its assignments and redirects, and where it stands.

use super::word::Word;
use crate::verdict::Span;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Standard system binary folders: a program named by a path in one of these is the
/// same program as its basename (`/bin/rm` is `rm`). Any other path is a different
/// program (`./cat` is not `cat`).
pub const SYSTEM_BIN_DIRS: &[&str] = &[
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
];

/// One simple command, at any depth of the script.
#[derive(Clone, Debug)]
pub struct SimpleCommand {
    /// The words as bash builds them (brace expansion of static words applied).
    pub words: Vec<Word>,
    /// Index into `words` of the program that runs after unwrapping wrappers; `None`
    /// when no program starts (assignments only, `command -v x`, redirects only).
    pub program: Option<usize>,
    /// Indices into `words` of the wrappers passed through (`sudo`, `env`, `xargs`...).
    pub wrappers: Vec<usize>,
    /// `NAME=value` words: prefixes of the command, `env NAME=value`, and the
    /// arguments of declaration commands (`export NAME=value`).
    pub assignments: Vec<Assignment>,
    /// Redirects attached to this command.
    pub redirects: Vec<Redirect>,
    /// Byte range of the whole command in the original text.
    pub span: Span,
    /// Where the command stands.
    pub context: Context,
    /// What kind of syntax produced the record.
    pub origin: Origin,
    /// A script this command runs from a string, heredoc or stdin.
    pub script: Option<InlineScript>,
    /// The program word names a function or alias defined earlier in the command:
    /// bash runs that definition, not the program of the name, so what the
    /// catalogue knows of the program (and `cd` tracking) does not apply.
    pub shadowed: bool,
    /// A call of a definition that may move the working directory: where the
    /// commands after it run is unknown from here on.
    pub moves_cwd: bool,
}

/// The syntax a record came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An ordinary simple command.
    Simple,
    /// `export`, `declare`, `typeset`, `local`, `readonly`, `unset`.
    Declaration,
    /// A command run by another one: `find -exec CMD ;`, named by the outer program.
    Embedded(String),
    /// `[[ ... ]]` or `[ ... ]`: words are the operands.
    Test,
    /// Redirects or assignments with no command (`2>/dev/null`, `x=1`,
    /// `{ ...; } > file`).
    Bare,
}

/// A script carried by a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InlineScript {
    /// Static text that was parsed and walked: its commands are in the same walk,
    /// one nesting level deeper.
    Parsed {
        /// Where the script text is in the original command.
        span: Span,
    },
    /// A script string only known at run time (`bash -c "$X"`, `eval "$(tool)"`).
    Dynamic {
        /// Where it is.
        span: Span,
    },
    /// A shell that reads its script from stdin whose content is unknown
    /// (`curl ... | sh`, `sh < file`).
    UnknownStdin {
        /// The shell's word.
        span: Span,
    },
    /// A file this command wrote, run as code in a language the gate does not
    /// read (`cat > x.py <<EOF … EOF; python3 x.py`): code given as text, as
    /// `python3 -c CODE` is.
    WrittenCode {
        /// The word naming the file.
        span: Span,
    },
    /// Code from a folder this command fetched from the network, run (`git clone
    /// URL repo && make -C repo`): what runs is only known at run time.
    Fetched {
        /// The word naming what runs from the folder.
        span: Span,
    },
}

/// `NAME=value` (or `NAME+=value`).
#[derive(Clone, Debug)]
pub struct Assignment {
    /// The variable's name.
    pub name: String,
    /// The value word, when there is one (`export X` has none).
    pub value: Option<Word>,
    /// Byte range of the whole assignment.
    pub span: Span,
}

/// A redirect: `>`, `>>`, `<`, `2>`, `&>`, `<>`, `>|`, `<<<`, `<<`, fd duplication.
#[derive(Clone, Debug)]
pub struct Redirect {
    /// The operator as written (`>`, `>>`, `&>`, `<<<`, `<<`, `>&`...).
    pub operator: String,
    /// The file descriptor written before the operator, if any.
    pub fd: Option<String>,
    /// The target word (a file, or an fd number for duplications); for here-strings
    /// the string. `None` for heredocs.
    pub target: Option<Word>,
    /// For heredocs: the body's text when static (quoted delimiter, or no expansions).
    pub heredoc: Option<Heredoc>,
    /// Byte range of the redirect.
    pub span: Span,
}

impl Redirect {
    /// True when the redirect gives the command its standard input: `< FILE`,
    /// `<> FILE`, a heredoc or a here-string on descriptor 0, `<&N`.
    pub fn feeds_stdin(&self) -> bool {
        self.fd.as_deref().unwrap_or("0") == "0"
            && (self.heredoc.is_some() || self.operator.starts_with('<'))
    }

    /// True when the redirect writes to its target (`>`, `>>`, `&>`, `<>`, `>|`...).
    pub fn writes(&self) -> bool {
        self.operator.contains('>') && !self.operator.contains("<<")
    }

    /// True for fd duplications and closes (`2>&1`, `>&2`, `<&-`).
    pub fn is_fd_duplication(&self) -> bool {
        let dup = matches!(self.operator.as_str(), ">&" | "<&" | ">&-" | "<&-");
        let numeric = self
            .target
            .as_ref()
            .and_then(Word::static_value)
            .is_some_and(|t| t == "-" || t.chars().all(|c| c.is_ascii_digit()));
        dup && (numeric || self.target.is_none())
    }
}

/// A heredoc's body.
#[derive(Clone, Debug)]
pub struct Heredoc {
    /// The body's text when bash would not expand anything in it.
    pub static_text: Option<String>,
    /// Byte range of the body.
    pub span: Span,
}

/// A name that starts with `-` a command makes, as far as the walker knows it
/// (see `model/dash_names.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DashName {
    /// This file or folder (`touch -- -rf` in `/p`: `/p/-rf`).
    At(PathBuf),
    /// Names only the run knows, in this folder (`cp d/* out/`: in `out`).
    In(PathBuf),
    /// Names and places the walker cannot tell: the working folder is unknown,
    /// or what the input holds says (`tar -x`, `unzip`).
    Unknown,
}

/// Where a command stands in the script.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// How many nested scripts (`bash -c`, `eval`, heredoc into a shell) deep.
    pub nesting: u32,
    /// Inside `$(...)`, backticks or `<(...)`.
    pub in_substitution: bool,
    /// A stage of a pipeline.
    pub in_pipeline: bool,
    /// Its stdin comes from the previous pipeline stage.
    pub piped_stdin: bool,
    /// Its stdin is a file or text given to an enclosing compound command (`{
    /// python3; } < x.py`, a loop's `done < f`), to the call of the function it
    /// is in, or to the shell by an earlier `exec < FILE`.
    pub stdin_redirected: bool,
    /// Run in the background with `&`.
    pub background: bool,
    /// The enclosing function definition, if any.
    pub function: Option<String>,
    /// The working directory the command runs in.
    pub cwd: Cwd,
    /// Variables whose value is unknown but proven a relative path below the working
    /// directory: loop variables over static relative words without `..`
    /// (`for f in src/*.rs`), each with the words of its loop: the variable takes
    /// each of their values, one per pass, and a path or option check judges
    /// those words in its place (see `model/loop_values.rs`).
    pub confined: Vec<(String, Rc<[Word]>)>,
    /// Files the command created before this point whose names start with `-`,
    /// or folders where it made names only the run knows, which a glob can pass
    /// to a program as options.
    pub dash_named: Vec<DashName>,
    /// An earlier command widened what globs match (`shopt -s dotglob`,
    /// `GLOBIGNORE=…`, see `model/glob_options.rs`): a glob here may match names
    /// starting with `.`, in any case, at any depth.
    pub relaxed_globs: bool,
    /// Variables the command set earlier to a value that word splitting may cut
    /// into more words (a known value with a blank in it, or one only known at run
    /// time: `read N`, `N=$(cat f)`) and that this command's words expand unquoted
    /// after the start of a word: `--name=x$N` may be `--name=x --privileged`.
    pub splitting: Vec<String>,
}

impl Context {
    /// True when `name` is a confined loop variable here ([`Context::confined`]).
    pub fn is_confined(&self, name: &str) -> bool {
        self.confined.iter().any(|(n, _)| n == name)
    }
}

/// The working directory as far as the walker can tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cwd {
    /// Where the command was started (the gate's cwd): no `cd` happened.
    #[default]
    Start,
    /// A known absolute directory (lexically normalised).
    Known(PathBuf),
    /// A `cd` went somewhere the walker cannot know.
    Unknown,
}

impl Cwd {
    /// The directory, when known: `start` (the gate's cwd) for [`Cwd::Start`].
    pub fn place<'a>(&'a self, start: &'a Path) -> Option<&'a Path> {
        match self {
            Cwd::Start => Some(start),
            Cwd::Known(p) => Some(p),
            Cwd::Unknown => None,
        }
    }
}

impl SimpleCommand {
    /// A record with no words, program, wrappers, assignments, redirects or script:
    /// the walker fills in what the syntax gave.
    pub fn new(origin: Origin, span: Span, context: Context) -> SimpleCommand {
        SimpleCommand {
            words: Vec::new(),
            program: None,
            wrappers: Vec::new(),
            assignments: Vec::new(),
            redirects: Vec::new(),
            span,
            context,
            origin,
            script: None,
            shadowed: false,
            moves_cwd: false,
        }
    }

    /// The program's basename, whatever its folder (`/tmp/x/sudo` → `sudo`,
    /// `./tool` → `tool`); `None` when the name is dynamic. Rules that care about
    /// what a program *is* (not whether it is the system's copy) read this.
    pub fn base_name(&self) -> Option<&str> {
        self.name_str().map(basename)
    }

    /// The word of the program that runs.
    pub fn name(&self) -> Option<&Word> {
        self.program.and_then(|i| self.words.get(i))
    }

    /// The program's static name as written (`/bin/rm`, `rm`, `./x`).
    pub fn name_value(&self) -> Option<String> {
        self.name_str().map(str::to_string)
    }

    /// [`SimpleCommand::name_value`], borrowed.
    pub fn name_str(&self) -> Option<&str> {
        self.name().and_then(Word::value)
    }

    /// The program's static name with a standard system folder stripped (`/bin/rm`
    /// → `rm`); a name with any other path stays a path. `None` when dynamic.
    pub fn program_name(&self) -> Option<String> {
        self.program_str().map(str::to_string)
    }

    /// [`SimpleCommand::program_name`], borrowed.
    pub fn program_str(&self) -> Option<&str> {
        self.name_str().map(program_key)
    }

    /// True when an option word among the arguments holds `letter`: a declaration's
    /// attribute (`declare -i`, `local -n`, `typeset -ai`).
    pub fn declares_attribute(&self, letter: char) -> bool {
        self.args()
            .iter()
            .filter_map(Word::value)
            .any(|v| v.starts_with('-') && v.contains(letter))
    }

    /// The arguments after the program word.
    pub fn args(&self) -> &[Word] {
        match self.program {
            Some(i) => self.words.get(i + 1..).unwrap_or(&[]),
            None => &[],
        }
    }

    /// Static values of the arguments (`None` for dynamic ones).
    pub fn arg_values(&self) -> Vec<Option<String>> {
        self.args().iter().map(Word::static_value).collect()
    }

    /// The static names of the wrappers passed through, normalised like program names.
    pub fn wrapper_names(&self) -> impl Iterator<Item = (String, &Word)> {
        self.wrappers.iter().filter_map(|&i| {
            let word = self.words.get(i)?;
            Some((normalize_program(word.value()?), word))
        })
    }
}

/// `/usr/bin/rm` → `rm`; `rm` → `rm`; `./rm` stays `./rm`.
pub fn normalize_program(name: &str) -> String {
    program_key(name).to_string()
}

/// [`normalize_program`], borrowed.
pub fn program_key(name: &str) -> &str {
    // A byte scan: this runs for every program name several times per command.
    match name.bytes().rposition(|b| b == b'/') {
        Some(at) => {
            let (dir, base) = (&name[..at], &name[at + 1..]);
            if SYSTEM_BIN_DIRS.contains(&dir) && !base.is_empty() {
                base
            } else {
                name
            }
        }
        None => name,
    }
}

/// The basename of a program name, whatever its folder (`/tmp/x/sudo` → `sudo`).
pub fn basename(name: &str) -> &str {
    match name.bytes().rposition(|b| b == b'/') {
        Some(at) => &name[at + 1..],
        None => name,
    }
}
