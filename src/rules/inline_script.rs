//! BG205: code given inline to an interpreter.

use crate::catalogue::Values;
use crate::catalogue::{self, Entry, Role};
use crate::declare_rule;
use crate::model::command::{InlineScript, SimpleCommand};
use crate::model::word::Word;
use crate::rules::Checker;
use crate::rules::code_names;

declare_rule! {
    /// ## What it does
    /// Asks when a command runs code given on the command line or on stdin rather
    /// than from a file in the project: `python -c`, `python -` or `python` fed by a
    /// heredoc or a pipe, `node -e/-p/--eval`, `deno eval`, `bun -e`, `perl -e/-E`
    /// (also `-pe`, `-ne`), `ruby -e`, `php -r`, `lua -e`, `osascript -e`,
    /// `Rscript -e`; a program that reads its commands from stdin whatever its
    /// operands (the catalogue's `stdin-commands`: `printf '!id' | ed`, `ex -s f <
    /// script`, `sqlite3 db <<< '.shell id'`) fed by a pipe, a redirect or a
    /// heredoc; awk programs that call `system()` or load extensions (`@load`), pipe to or read from a
    /// command, or redirect output to a file; sed scripts with the `e` command or
    /// flag or the `w` command or flag. In trusted mode these pass unless the code
    /// names an absolute, home or `..` path. A file the same command wrote and then
    /// runs as code (`cat > x.py <<EOF … EOF; python3 x.py`, `node x.js`,
    /// `xdg-open x.sh`) is code given on the command line too: it asks in every
    /// mode (a shell script written and run is walked instead). So is code given as
    /// a `data:` URL where the program loads a file of code (`node --import
    /// 'data:text/javascript,…'`, `php -d auto_prepend_file=data://…`: see
    /// `data_urls.rs`).
    ///
    /// ## Why
    /// Inline code is a second language the shell analysis cannot see into:
    /// `python3 -c 'import os; os.system("rm -rf ~")'` is `rm -rf ~`.
    ///
    /// ## Example
    /// - `python3 -c 'print(1)'` → ask
    /// - `echo 'print(1)' > x.py; python3 x.py` → ask
    /// - `echo 'print(1)' > x.py; python3 main.py` → allow
    /// - `python3 -m pytest` → allow
    /// - `awk '{print $1}' f` → allow
    /// - `node --import data:text/javascript,x app.js` → ask
    /// - `node --import ./setup.mjs app.js` → allow
    pub static INLINE_SCRIPT = {
        code: "BG205",
        name: "inline-script",
        default: Ask,
        capability: InlineScript,
        summary: "runs code given inline to an interpreter (python -c, node -e, awk system())",
    };
}

/// An interpreter whose first operand is a script (or a subcommand): its code
/// options run code, and fed by a heredoc, a here-string or a pipe, it runs stdin
/// as code. (awk and sed take their program as an operand; they are judged by
/// what the program does.)
fn runs_stdin_as_code(entry: &Entry) -> bool {
    entry.interpreter.is_some()
        && matches!(
            entry.operands.first(),
            Some(Role::PathExec | Role::Subcommand)
        )
}

/// The inline code a command runs, if any: the code text (when static) and its word.
/// `entry`: the catalogue entry of the program `cmd` runs ([`Checker::entry`]).
pub fn inline_code<'c>(
    cmd: &'c SimpleCommand,
    entry: Option<&'static Entry>,
) -> Option<(Option<String>, Option<&'c Word>)> {
    let entry = entry.filter(|e| runs_stdin_as_code(e))?;
    let args = cmd.args();
    // The options are read with the catalogue's option table, so the value of an
    // option that takes one is skipped (`python -W ignore -c CODE`, `perl -I lib
    // -e CODE`, `perl -MData::Dumper -e CODE`): the code option may come after it.
    let values: Values = args.iter().map(Word::value).collect();
    let classified = catalogue::classify(entry, &values);
    for &arg in classified.iter() {
        let Some(word) = args.get(arg.index) else {
            break;
        };
        // `-c CODE`, `-pe CODE`, `-eCODE`, `--eval=CODE`; and the first operand
        // of a subcommand whose operand is code (`deno eval CODE`). An
        // interpreter's setting is pasted into code it generates (perl's
        // `-MMOD=ARGS` is `use MOD split(/,/,q{ARGS})`): one that is not a plain
        // name and value is code (`-M'strict;system q(CMD)'`).
        let pasted_code = arg.role == Role::Config
            && arg.option_value
            && word
                .value()
                .and_then(|v| v.get(arg.offset..))
                .is_some_and(|v| !plain_setting(v));
        if matches!(arg.role, Role::Code(_)) || pasted_code {
            let code = word
                .value()
                .and_then(|v| v.get(arg.offset..))
                .map(str::to_string);
            return Some((code, Some(word)));
        }
        // `python -m MODULE`: the words after it are the module's, read with the
        // module's entry when the catalogue has one (`python -m timeit -s CODE`).
        if arg.role == Role::Module {
            let module = word
                .value()
                .and_then(|v| v.get(arg.offset..))
                .and_then(catalogue::lookup)?;
            let rest = args.get(arg.index + 1..).unwrap_or_default();
            let values: Values = rest.iter().map(Word::value).collect();
            return catalogue::classify(module, &values)
                .iter()
                .copied()
                .find(|a| matches!(a.role, Role::Code(_)))
                .and_then(|a| {
                    let word = rest.get(a.index)?;
                    let code = word.value().and_then(|v| v.get(a.offset..));
                    Some((code.map(str::to_string), Some(word)))
                });
        }
        if !arg.option_value && arg.role != Role::Subcommand {
            // The first operand: a script file or `-` (stdin). Right after a long
            // option the catalogue does not know, it may be that option's value
            // (`node --some-option x -e CODE`): a code option later on may be the
            // interpreter's, so it counts.
            let unknown_before = arg
                .index
                .checked_sub(1)
                .and_then(|i| values.get(i).copied().flatten())
                .is_some_and(|w| {
                    w.starts_with("--")
                        && !w.contains('=')
                        && entry.option(w).is_none()
                        && !entry.flags.contains(&w)
                });
            if unknown_before
                && let Some(code) = args.get(arg.index + 1..).and_then(|rest| {
                    rest.iter()
                        .position(|w| {
                            w.value().is_some_and(|v| {
                                matches!(entry.option_role(v), Some(Role::Code(_)))
                            })
                        })
                        .map(|at| at + arg.index + 2)
                })
            {
                let word = args.get(code);
                return Some((word.and_then(Word::static_value), word));
            }
            break;
        }
    }
    let heredoc = cmd.redirects.iter().find_map(|r| r.heredoc.as_ref());
    let fed = heredoc.is_some()
        || cmd
            .redirects
            .iter()
            .any(|r| r.operator == "<<<" || r.operator == "<")
        || cmd.context.piped_stdin
        || cmd.context.stdin_redirected;
    // No script operand: only options, or only options and their values
    // (`python3 -W ignore`, `m4 -D x=y`), by the option table.
    let reads_stdin = || {
        args.iter().any(|w| w.value() == Some("-"))
            || args
                .iter()
                .all(|w| w.value().is_some_and(|v| v.starts_with('-')))
            || classified.iter().all(|a| a.option_value)
    };
    if fed && reads_stdin() {
        return Some((heredoc.and_then(|h| h.static_text.clone()), None));
    }
    None
}

/// True for an interpreter's setting that is a name and, after `=`, a value
/// with no quoting or grouping marks (`strict`, `-warnings`, `lib=src`,
/// `Data::Dumper=Dumper,x`): nothing that could close the code it is pasted
/// into.
fn plain_setting(setting: &str) -> bool {
    let (name, value) = setting.split_once('=').unwrap_or((setting, ""));
    let name = name.strip_prefix('-').unwrap_or(name);
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.'))
        && !value.contains([
            '{', '}', '\\', ';', '(', ')', '`', '$', '@', '\'', '"', '\n',
        ])
}

/// True when the command's stdin is fed: a heredoc, a here-string, a `<` redirect
/// of descriptor 0, a pipe, or a redirect around it (a compound command's, a
/// function call's, `exec <`).
fn stdin_fed(cmd: &SimpleCommand) -> bool {
    cmd.context.piped_stdin
        || cmd.context.stdin_redirected
        || cmd.redirects.iter().any(|r| {
            r.heredoc.is_some()
                || r.operator == "<<<"
                || (r.operator == "<" && r.fd.as_deref().unwrap_or("0") == "0")
                || (r.operator == "<>" && r.fd.as_deref().unwrap_or("0") == "0")
        })
}

/// Perl code that is one substitution or transliteration and nothing else:
/// `s/a/b/g`, `tr/a-z/A-Z/`, `y/x/y/`, with a repeated delimiter, flags that do not
/// evaluate code (no `e`), and no interpolation that runs code (`@{[...]}`,
/// `${\...}`, `(?{...})`, backticks).
pub fn perl_substitution_only(code: &str) -> bool {
    let code = code.trim().trim_end_matches(';').trim_end();
    let (op, rest, parts, flags_ok): (&str, &str, usize, &str) =
        if let Some(rest) = code.strip_prefix("tr") {
            ("tr", rest, 2, "cdsr")
        } else if let Some(rest) = code.strip_prefix('y') {
            ("y", rest, 2, "cdsr")
        } else if let Some(rest) = code.strip_prefix('s') {
            ("s", rest, 2, "gimsxnrpadlu")
        } else {
            return false;
        };
    let _ = op;
    let mut chars = rest.chars();
    let Some(delim) = chars.next() else {
        return false;
    };
    if delim.is_alphanumeric() || delim.is_whitespace() || "{([<'\\".contains(delim) {
        return false;
    }
    let body: String = chars.collect();
    let mut fields = Vec::new();
    let mut current = String::new();
    let mut escaped = false;
    for c in body.chars() {
        if escaped {
            current.push(c);
            escaped = false;
        } else if c == '\\' {
            current.push(c);
            escaped = true;
        } else if c == delim && fields.len() < parts {
            fields.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    if fields.len() != parts {
        return false;
    }
    let flags = current;
    let runs_code = |text: &str| {
        text.contains("@{")
            || text.contains("${")
            || text.contains("(?{")
            || text.contains("(??{")
            || text.contains('`')
    };
    flags.chars().all(|f| flags_ok.contains(f)) && !fields.iter().any(|f| runs_code(f))
}

/// yq expressions that read files: `load`, `load_str`, `load_xml`, `load_props`,
/// `load_base64` take a file name.
fn yq_reads_files(expression: &str) -> bool {
    expression.contains("load")
}

/// awk programs that run commands, read files (`getline < FILE`) or write them.
fn awk_runs_commands(program: &str) -> bool {
    program.contains("system(")
        || (program.contains("getline") && getline_from_file(program))
        || program.contains("@load")
        || (program.contains("@include") && names_outside_path(program))
        || program.contains("| getline")
        || program.contains("|&")
        || program.contains("| \"")
        || prints_elsewhere(program)
}

/// True when a `print` or `printf` statement sends its output elsewhere: a `>`,
/// `>>` or `|` outside parentheses and strings before the statement ends. awk
/// reads any such one as a redirection, whatever names the target: a string
/// (`> "out"`), a variable (`> f`), a field (`> $1`), a call (`> sprintf(…)`), or
/// `ENVIRON["HOME"] "/.bashrc"`; a comparison in a print needs parentheses
/// (`print (a > b)`).
fn prints_elsewhere(program: &str) -> bool {
    let bytes = program.as_bytes();
    program.match_indices("print").any(|(at, _)| {
        let starts_word = at == 0 || !is_awk_name_byte(bytes[at - 1]);
        let mut i = at + "print".len();
        if bytes.get(i) == Some(&b'f') {
            i += 1;
        }
        if !starts_word || bytes.get(i).is_some_and(|&b| is_awk_name_byte(b)) {
            return false;
        }
        let (mut depth, mut in_string) = (0i32, false);
        while let Some(&b) = bytes.get(i) {
            i += 1;
            match b {
                b'\\' if in_string => i += 1,
                b'"' => in_string = !in_string,
                _ if in_string => {}
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' | b'\n' | b'}' if depth <= 0 => return false,
                b'>' | b'|' if depth <= 0 => return true,
                _ => {}
            }
        }
        false
    })
}

/// A byte of an awk name: a letter, a digit or `_`.
fn is_awk_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True when a `getline` reads from a file: `getline < FILE`, `getline var < FILE`
/// (a `<` after the word, before the statement ends).
fn getline_from_file(program: &str) -> bool {
    program.match_indices("getline").any(|(at, word)| {
        let rest = &program[at + word.len()..];
        let statement = rest.split([';', '}', '\n', ')']).next().unwrap_or(rest);
        statement.contains('<')
    })
}

/// sed scripts with the `e` command/flag, the `w`/`W` command or flag (write a
/// file) or the `r`/`R` command (read a file into the output), after any address
/// and inside a block (`1e id`, `/x/w out`, `$!e`, `s/a/b/e`, `1r /etc/shadow`,
/// `/x/{e id`).
fn sed_runs_commands(script: &str) -> bool {
    script.split([';', '\n']).any(|command| {
        let mut command = skip_sed_address(command.trim());
        // `{` opens a block: its first command follows, with an address of its own.
        while let Some(inner) = command.strip_prefix('{') {
            command = skip_sed_address(inner.trim_start());
        }
        command.starts_with(['e', 'w', 'W', 'r', 'R'])
            || ends_substitution_with(command, 'e')
            || ends_substitution_with(command, 'w')
    })
}

/// Drops a sed address (`12`, `$`, `/re/`, `\%re%`, ranges, `!`) from a command.
fn skip_sed_address(command: &str) -> &str {
    let bytes = command.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'0'..=b'9' | b'$' | b',' | b'!' | b'~' | b'+' | b' ' => i += 1,
            b'/' | b'\\' => {
                let delim = if bytes[i] == b'\\' {
                    bytes.get(i + 1).copied().unwrap_or(b'/')
                } else {
                    b'/'
                };
                i += if bytes[i] == b'\\' { 2 } else { 1 };
                while i < bytes.len() && bytes[i] != delim {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => break,
        }
    }
    command.get(i.min(command.len())..).unwrap_or("")
}

/// `s/a/b/FLAGS` where FLAGS contain `flag`.
fn ends_substitution_with(script: &str, flag: char) -> bool {
    let Some(rest) = script.strip_prefix('s') else {
        return script
            .split([';', '\n'])
            .skip(1)
            .any(|p| ends_substitution_with(p.trim(), flag));
    };
    let mut chars = rest.chars();
    let Some(delim) = chars.next() else {
        return false;
    };
    if delim.is_alphanumeric() || delim == '\\' {
        return false;
    }
    let mut seen = 0;
    let mut escaped = false;
    let mut flags = String::new();
    for c in chars {
        if seen == 2 {
            if c == ';' || c == '\n' || c == '}' {
                break;
            }
            flags.push(c);
            continue;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == delim {
            seen += 1;
        }
    }
    seen == 2 && flags.contains(flag)
}

/// True when inline code names a path outside the project: an absolute path, `~`
/// or `..` (the trusted-mode test).
pub fn names_outside_path(code: &str) -> bool {
    code.split(|c: char| c.is_whitespace() || "\"'(),;=[]{}".contains(c))
        .any(|t| {
            let t = crate::model::paths::file_uri_path(t);
            (t.starts_with('/') && t.len() > 1) || t.starts_with('~') || t.contains("..")
        })
}

/// Asks for inline interpreter code.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let (Some(program), Some(name)) = (cx.base_name(cmd), cmd.name()) else {
        return;
    };
    let entry = cx.entry(cmd);
    let program = entry.map_or(program, |e| e.name);
    let language = entry.and_then(|e| e.interpreter);
    // A file this command wrote, run as code (`python3 x.py`, `awk -f x.awk`):
    // whatever the language, including those whose inline text is judged below.
    if let Some(InlineScript::WrittenCode { span }) = cmd.script {
        cx.report(
            &INLINE_SCRIPT,
            span,
            format!("`{program}` runs a file this command wrote: code the gate cannot analyse"),
        );
    }
    // Languages judged by what their code does (awk, sed): which program speaks
    // which is the catalogue's `interpreter`; its code is every word the
    // catalogue gives a code role in that language (`sed -e S1 -e S2`, `awk -v
    // a=1 PROGRAM`, `--expression=S`).
    if let (Some(entry), Some(analyser)) = (entry, language.and_then(analyser)) {
        let args = cmd.args();
        let values: Values = args.iter().map(Word::value).collect();
        for &arg in catalogue::classify(entry, &values).iter() {
            let code = arg.role == Role::Code(analyser.language)
                || (analyser.any_operand && !arg.option_value);
            if !code {
                continue;
            }
            let (Some(word), Some(Some(value))) = (args.get(arg.index), values.get(arg.index))
            else {
                continue;
            };
            if value.get(arg.offset..).is_some_and(analyser.runs) {
                cx.report(&INLINE_SCRIPT, word.span, analyser.message.into());
            }
        }
        return;
    }
    if let Some((code, word)) = inline_code(cmd, entry) {
        let span = word.map(|w| w.span).unwrap_or(name.span);
        let trusted_ok = cx.policy.mode == crate::Mode::Trusted
            && code.as_deref().is_some_and(|c| !names_outside_path(c));
        // `perl -pi -e 's/a/b/g' src/*.rs`: a substitution only, like `sed -i`; the
        // files it edits are judged by the path rules.
        let substitution = language == Some("perl")
            && entry.is_some_and(|e| {
                let values: Values = cmd.args().iter().map(Word::value).collect();
                crate::model::path_roles::given_modes(e, &values).in_place
            })
            && code.as_deref().is_some_and(perl_substitution_only);
        if !trusted_ok && !substitution {
            cx.report(
                &INLINE_SCRIPT,
                span,
                format!("`{program}` runs inline code the gate cannot analyse"),
            );
        }
    }
    // A use that only reports (`--version`, `--help`: the entry's `read-only`
    // flags, which differ by program: `-h` is psql's host) reads no commands.
    // The fact may come with a flag or a subcommand (`python3 -i`, `rails
    // console`).
    if let Some(entry) = entry
        && stdin_fed(cmd)
        && cx.usage(cmd).is_some_and(|u| {
            u.has(catalogue::Fact::StdinCommands) && !u.has(catalogue::Fact::ReadOnly)
        })
    {
        cx.report(
            &INLINE_SCRIPT,
            name.span,
            format!(
                "`{}` reads its commands from input, and they can run shell text and write any file",
                entry.name
            ),
        );
    }
    if let Some((lang, word)) = command_language_option(cmd, entry) {
        cx.report(
            &INLINE_SCRIPT,
            word.span,
            format!("`{program}` runs {lang} commands given inline, which can run programs"),
        );
    }
}

/// A language judged by what its code does.
struct Analyser {
    /// The language's name in the catalogue's `code:` roles.
    language: &'static str,
    /// True when its code runs commands or reads or writes files.
    runs: fn(&str) -> bool,
    /// The finding's message.
    message: &'static str,
    /// Its code can be any operand, where files are operands too (Miller's verbs
    /// chain with `then`: `mlr --icsv cat x.csv then put EXPR y.csv`): every
    /// operand is read by `runs`, and judged as the catalogue's role says (a file
    /// read) as well.
    any_operand: bool,
}

/// The analyser of a language judged by what its code does: awk programs that
/// run commands or write files, sed scripts with `e` or `w`, yq's `load`, rpm
/// macros, Miller expressions and verbs. The mechanism; which program speaks the
/// language is the catalogue's.
fn analyser(language: &str) -> Option<Analyser> {
    let (language, runs, message, any_operand): (_, fn(&str) -> bool, _, _) = match language {
        "awk" => (
            "awk",
            awk_runs_commands,
            "the awk program runs commands, reads or writes files",
            false,
        ),
        "sed" => (
            "sed",
            sed_runs_commands,
            "the sed script runs commands (e), reads (r) or writes (w) files",
            false,
        ),
        "yq" => (
            "yq",
            yq_reads_files,
            "the yq expression reads files it names (load)",
            false,
        ),
        "rpm" => (
            "rpm",
            rpm_macro_runs,
            "the rpm macro runs shell text (`%(...)`) or Lua (`%{lua:...}`)",
            false,
        ),
        "mlr" => (
            "mlr",
            mlr_runs_commands,
            "the Miller expression or verb runs commands (`system`, `exec`, `| \"CMD\"`) or writes files (`tee >`, `emit >`, the `tee` and `split` verbs)",
            true,
        ),
        _ => return None,
    };
    Some(Analyser {
        language,
        runs,
        message,
        any_operand,
    })
}

/// True when a word of a Miller command line runs a command or writes a file:
/// a `system(...)` or `exec(...)` call, an output statement redirected to a file
/// or a pipe (`tee > "x.csv", $*`, `emit > stderr, @s`, `print | "sh", $x`), or
/// the verbs that write files themselves (`tee`, `split`). Every word after the
/// main flags is read so (see [`Analyser::any_operand`]), verbs and file names
/// too: a chain's later `then put` is as much code as the first.
fn mlr_runs_commands(text: &str) -> bool {
    const OUTPUTS: &[&str] = &[
        "tee", "emit", "emitp", "emitf", "emit1", "print", "printn", "eprint", "eprintn", "dump",
        "edump",
    ];
    if matches!(text, "tee" | "split") {
        return true;
    }
    let lower = text.to_ascii_lowercase();
    code_names::names(&lower).any(|(name, end)| {
        let next = lower[end..].trim_start().as_bytes().first().copied();
        (matches!(name, "system" | "exec") && next == Some(b'('))
            || (OUTPUTS.contains(&name) && matches!(next, Some(b'>' | b'|')))
    })
}

/// True when rpm macro text runs something: `%(CMD)` runs shell text, `%{lua:...}`
/// Lua, and a macro only known once expanded (`%{expand:...}`, `%{load:FILE}`)
/// may do either.
fn rpm_macro_runs(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("%(")
        || ["lua:", "expand:", "load:", "shrink:"]
            .iter()
            .any(|m| lower.contains(&format!("%{{{m}")))
}

/// Languages whose inline text other rules judge by content: sed, awk, yq, rpm
/// macros and Miller (above), SQL (the remote-effect rule), jq (it runs nothing and reads
/// only its operands and the files its options name; its secret reads are BG302's).
const JUDGED_BY_CONTENT: &[&str] = &["sed", "awk", "sql", "yq", "jq", "rpm", "mlr"];

/// An option or operand of a program that is not a script interpreter whose value
/// is code in the program's own command language: `gdb -ex 'shell id'`, `vim -c
/// '!id'`, `emacs --eval '(shell-command "id")'`, `lldb -o 'platform shell id'`,
/// `cmd /c dir`.
/// `entry`: the catalogue entry of the program `cmd` runs ([`Checker::entry`]).
fn command_language_option<'c>(
    cmd: &'c SimpleCommand,
    entry: Option<&'static Entry>,
) -> Option<(&'static str, &'c Word)> {
    let entry = entry?;
    if runs_stdin_as_code(entry) || !entry.mentions(&[Role::Code("")]) {
        return None;
    }
    let args = cmd.args();
    let values: Values = args.iter().map(Word::value).collect();
    catalogue::classify(entry, &values)
        .iter()
        .copied()
        .find_map(|arg| match arg.role {
            Role::Code(lang) if !JUDGED_BY_CONTENT.contains(&lang) => {
                Some((lang, args.get(arg.index)?))
            }
            _ => None,
        })
}
