//! BG214: a shell option that changes how bash reads or runs the commands after
//! it, in a way the gate does not model.

use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::shell_tables;
use crate::model::word::Word;
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when a command turns on a bash mode the gate does not model: `set -k`
    /// (keyword: `NAME=value` words after a program go to its environment), `set -H`
    /// and `set -o history` (history expansion: `!!` runs earlier text), `set -o
    /// posix` (assignments before special builtins stay), `set -P` (`cd` follows
    /// links physically), `shopt -s cdable_vars` (`cd NAME` goes to `$NAME`),
    /// `shopt -s extdebug`, `lastpipe`, `nocasematch`, `localvar_inherit`, a
    /// `compat` level, `shopt -u globskipdots` (`.*` matches `..`), the same
    /// options given to a shell started (`bash -k`, `bash -O cdable_vars`, `bash
    /// --posix`), `SHELLOPTS`, `BASHOPTS`, `BASH_COMPAT` or `POSIXLY_CORRECT` set
    /// for this shell or a shell started, an option only known at run time, and
    /// bash's own tables (`BASH_CMDS`, `BASH_ALIASES`) or `HISTFILE` written by a
    /// builtin (`printf -v 'BASH_CMDS[cat]' /bin/bash`, `read HISTFILE`), which the
    /// walk reads only from a plain assignment.
    /// The options that only stop, trace or restrict (`set -euo pipefail`, `set
    /// -x`, `shopt -s nullglob`, `extglob`, `dotglob`) are left alone.
    ///
    /// ## Why
    /// Every other rule judges commands as bash reads them with its default
    /// options. After `set -k`, `bash -c true BASH_ENV=a.txt` runs `a.txt`; after
    /// `shopt -s cdable_vars`, `cd HOME` leaves the project; the words the gate
    /// saw no longer mean what it judged.
    ///
    /// ## Example
    /// - `set -k; bash -c true BASH_ENV=a.txt` → ask
    /// - `shopt -s cdable_vars; cd HOME` → ask
    /// - `bash -o keyword -c 'ls'` → ask
    /// - `set -euo pipefail; cargo test` → allow
    /// - `printf -v 'BASH_CMDS[cat]' /bin/bash; cat a.txt` → ask
    /// - `shopt -s nullglob; ls *.rs` → allow
    pub static SHELL_MODE = {
        code: "BG214",
        name: "shell-mode",
        default: Ask,
        capability: ShellExpansion,
        summary: "turns on a bash mode the gate does not model (set -k, set -o posix, shopt -s cdable_vars...)",
    };
}

/// The file bash's history goes to. With bash's own tables (a name's alias, the
/// program a name runs: `model/shell_tables.rs`), the walk reads a plain
/// assignment to it (`BASH_CMDS[ls]=X`, `HISTFILE=X`), not one a builtin makes
/// (`printf -v 'BASH_CMDS[ls]' X`, `read HISTFILE`, `declare
/// 'BASH_ALIASES[x]=…'`).
const HISTORY_FILE: &str = "HISTFILE";

/// True when the word, as a builtin's operand, names one of bash's tables or
/// [`HISTORY_FILE`] (`BASH_CMDS[x]`, `HISTFILE`, `HISTFILE=x`, an option glued to it such as
/// `-vHISTFILE`). An unquoted `BASH_CMDS[x]` is a glob that most often matches
/// nothing: its text is read, quotes left out.
fn names_a_table(word: &Word, source: &str) -> bool {
    let text = as_written(word, source);
    let value = text.strip_prefix("-v").unwrap_or(&text);
    shell_tables::TABLES
        .iter()
        .chain([&HISTORY_FILE])
        .any(|table| {
            value
                .strip_prefix(table)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['[', '=', '+']))
        })
}

/// The word's value, or for a word with none (a glob, an expansion) its text
/// without quotes.
fn as_written<'w>(word: &'w Word, source: &str) -> std::borrow::Cow<'w, str> {
    match word.value() {
        Some(v) => std::borrow::Cow::Borrowed(v),
        None => std::borrow::Cow::Owned(
            source
                .get(word.span.start..word.span.end)
                .unwrap_or("")
                .replace(['\'', '"'], ""),
        ),
    }
}

/// `set` letters that only stop, trace, export or restrict: the rest (`-k`,
/// `-H`, `-P`, `-p`, any other) change how later text is read.
const SAFE_SET_LETTERS: &str = "abefhmntuvxBCET";

/// `set -o` names of the same kind.
const SAFE_SET_NAMES: &[&str] = &[
    "allexport",
    "braceexpand",
    "emacs",
    "errexit",
    "errtrace",
    "functrace",
    "hashall",
    "ignoreeof",
    "interactive-comments",
    "monitor",
    "noclobber",
    "noexec",
    "noglob",
    "nolog",
    "notify",
    "nounset",
    "pipefail",
    "verbose",
    "vi",
    "xtrace",
];

/// `shopt -s` names the gate reads right (the glob-widening ones are read by
/// the path rules), or that only matter to an interactive shell.
const SAFE_SHOPT_NAMES: &[&str] = &[
    "autocd",
    "cdspell",
    "checkhash",
    "checkjobs",
    "checkwinsize",
    "cmdhist",
    "complete_fullquote",
    "direxpand",
    "dirspell",
    "dotglob",
    "execfail",
    "expand_aliases",
    "extglob",
    "extquote",
    "failglob",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "globstar",
    "gnu_errfmt",
    "histappend",
    "histreedit",
    "histverify",
    "hostcomplete",
    "huponexit",
    "inherit_errexit",
    "interactive_comments",
    "lithist",
    "login_shell",
    "mailwarn",
    "no_empty_cmd_completion",
    "nocaseglob",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "progcomp_alias",
    "promptvars",
    "restricted_shell",
    "shift_verbose",
    "sourcepath",
    "xpg_echo",
];

/// `shopt -u` names whose default the gate relies on.
const UNSAFE_SHOPT_OFF: &[&str] = &["globskipdots"];

/// Variables that set bash's options: for this shell, or in the environment of a
/// shell started.
const MODE_VARIABLES: &[&str] = &["SHELLOPTS", "BASHOPTS", "BASH_COMPAT", "POSIXLY_CORRECT"];

/// Letters a shell takes when started, besides `set`'s: `-c`, `-l`, `-s`, `-r`,
/// `-D`, and `-i` (an interactive shell expands no history in `-c`'s text).
const SAFE_SHELL_LETTERS: &str = "clsrDi";

/// Asks for a mode the gate does not model.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if matches!(cmd.origin, Origin::Test) {
        return;
    }
    // The entry's name: `BASH`, `bash.exe` and `/bin/bash` are bash too.
    let entry = cx.entry(cmd);
    let name = entry.map(|e| e.name).or_else(|| cx.base_name(cmd));
    let shell = entry.is_some_and(|e| e.has(crate::catalogue::Fact::Shell));
    // Assignments to the mode variables: for this shell (no program, or a
    // declaration) or for a shell started.
    let for_a_shell = name.is_none() || shell || cmd.origin == Origin::Declaration;
    if let Some(a) = cmd
        .assignments
        .iter()
        .find(|a| for_a_shell && MODE_VARIABLES.contains(&a.name.trim_end_matches('+')))
    {
        let (span, variable) = (a.span, a.name.clone());
        cx.report(
            &SHELL_MODE,
            span,
            format!(
                "`{variable}` sets bash's options, changing how it reads the commands after it"
            ),
        );
        return;
    }
    let Some(name) = name else {
        return;
    };
    if cmd.shadowed {
        return;
    }
    if matches!(
        name,
        "read"
            | "printf"
            | "mapfile"
            | "readarray"
            | "getopts"
            | "declare"
            | "typeset"
            | "local"
            | "export"
            | "readonly"
    ) {
        let args = cmd.args();
        // `printf`'s operands are text: only the variable `-v` names counts.
        let found = if name == "printf" {
            args.iter().enumerate().find_map(|(i, w)| {
                let text = as_written(w, cx.source);
                match text.as_ref() {
                    "-v" => args
                        .get(i + 1)
                        .filter(|next| names_a_table(next, cx.source)),
                    v if v.starts_with("-v") && names_a_table(w, cx.source) => Some(w),
                    _ => None,
                }
            })
        } else {
            args.iter().find(|w| names_a_table(w, cx.source))
        };
        if let Some(word) = found {
            let text = cx.source.get(word.span.start..word.span.end).unwrap_or("");
            cx.report(
                &SHELL_MODE,
                word.span,
                format!("`{name} {text}` writes one of bash's own tables or its history file, which the gate reads only from a plain assignment"),
            );
        }
        return;
    }
    if !matches!(name, "set" | "shopt" | "bash" | "sh" | "rbash") {
        return;
    }
    let args = cmd.args();
    let found = match name {
        "set" => set_options(args, SAFE_SET_LETTERS),
        "shopt" => shopt_options(args),
        _ => shell_options(args),
    };
    if let Some(word) = found {
        let text = cx.source.get(word.span.start..word.span.end).unwrap_or("");
        cx.report(
            &SHELL_MODE,
            word.span,
            format!(
                "`{name} {text}` changes how bash reads or runs the commands after it, in a way the gate does not model"
            ),
        );
    }
}

/// The first word of `set`'s options that turns on a mode not in
/// `safe_letters` / [`SAFE_SET_NAMES`], or is only known at run time.
fn set_options<'w>(args: &'w [Word], safe_letters: &str) -> Option<&'w Word> {
    let mut name_next = false;
    for word in args {
        let Some(value) = word.value() else {
            return Some(word);
        };
        if std::mem::take(&mut name_next) {
            if !SAFE_SET_NAMES.contains(&value) {
                return Some(word);
            }
            continue;
        }
        if value == "--" || value == "-" || !value.starts_with(['-', '+']) {
            return None;
        }
        let on = value.starts_with('-');
        for letter in value[1..].chars() {
            match letter {
                'o' => name_next = on,
                _ if on && !safe_letters.contains(letter) => return Some(word),
                _ => {}
            }
        }
    }
    None
}

/// The first name `shopt -s` turns on that is not in [`SAFE_SHOPT_NAMES`] (or,
/// with `-o`, [`SAFE_SET_NAMES`]), or `shopt -u` turns off in
/// [`UNSAFE_SHOPT_OFF`], or a word only known at run time.
fn shopt_options(args: &[Word]) -> Option<&Word> {
    let (mut on, mut off, mut set_names) = (false, false, false);
    for word in args {
        let Some(value) = word.value() else {
            return Some(word);
        };
        if let Some(letters) = value.strip_prefix('-')
            && !letters.is_empty()
        {
            on |= letters.contains('s');
            off |= letters.contains('u');
            set_names |= letters.contains('o');
            continue;
        }
        let unsafe_on = on
            && !if set_names {
                SAFE_SET_NAMES.contains(&value)
            } else {
                SAFE_SHOPT_NAMES.contains(&value)
            };
        if unsafe_on || off && !set_names && UNSAFE_SHOPT_OFF.contains(&value) {
            return Some(word);
        }
    }
    None
}

/// The first option of a shell started that turns on such a mode: `set`'s
/// letters and `-o NAME`, `-O NAME` / `+O NAME` as `shopt -s` / `-u`, `--posix`
/// and `--debugger`. Options end at the first operand (the script or `-c`'s
/// text).
fn shell_options(args: &[Word]) -> Option<&Word> {
    let safe_letters = format!("{SAFE_SET_LETTERS}{SAFE_SHELL_LETTERS}");
    let mut expect: Option<char> = None;
    for word in args {
        // A word only known at run time is most often the script (`sh "$f"`);
        // one that may be options is the dynamic-option rule's (BG203).
        let value = word.value()?;
        match expect.take() {
            Some('o') if !SAFE_SET_NAMES.contains(&value) => return Some(word),
            Some('O') if !SAFE_SHOPT_NAMES.contains(&value) => return Some(word),
            Some('U') if UNSAFE_SHOPT_OFF.contains(&value) => return Some(word),
            Some(_) => continue,
            None => {}
        }
        match value {
            "--posix" | "--debugger" => return Some(word),
            "--" | "-" => return None,
            _ if value.starts_with("--") => continue,
            _ if value.starts_with('-') => {
                for letter in value[1..].chars() {
                    match letter {
                        'o' | 'O' => expect = Some(letter),
                        _ if !safe_letters.contains(letter) => return Some(word),
                        _ => {}
                    }
                }
                // `-c` takes the script next: options end with it.
                if value.contains('c') && expect.is_none() {
                    return None;
                }
            }
            _ if value.starts_with('+') => {
                if value.contains('O') {
                    expect = Some('U');
                } else if value.contains('o') {
                    expect = Some('-');
                }
            }
            _ => return None,
        }
    }
    None
}
