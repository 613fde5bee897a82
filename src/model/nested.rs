//! Commands that run a script given as text: `bash -c STRING`, `eval ARGS`, a shell
//! fed by a heredoc, a here-string or a pipe, `alias x='...'`, callbacks (`trap`,
//! `mapfile -C`, `complete -C`, `bind -x`: `callbacks.rs`),
//! `su -c`, and wrappers that run their words through a shell (`watch`, `parallel`).
//!
//! A static script is parsed again and walked as a nested script, its spans mapped
//! back into the original command; a script only known at run time is reported so
//! the nested-shell rule can ask.

use super::command::{Redirect, basename};
use super::descriptors::{Feed, descriptor_named, feed_of};
use super::settings;
use super::word::Word;
use crate::catalogue::Values;
use crate::catalogue::{Entry, Fact, Role};
use crate::parse::SpanMap;
use crate::verdict::Span;
use std::ops::Range;

/// True for a shell whose `-c` string, heredoc or stdin is a script: a catalogue
/// entry with the `shell` fact (`bash`, `sh`, `zsh`, `dash`, `BASH.exe`...).
pub fn is_shell(name: &str) -> bool {
    crate::catalogue::has_fact(name, crate::catalogue::Fact::Shell)
}

/// A script found in a command.
#[derive(Clone, Debug)]
pub enum ScriptText {
    /// Its text is known: parse and walk it.
    Static {
        /// The script.
        text: String,
        /// How its positions map to the original command.
        map: SpanMap,
        /// The positional parameters (`$0`, `$1`…) it runs with.
        args: Positionals,
    },
    /// Only known at run time.
    Dynamic(Span),
    /// A shell reading a script from stdin we cannot see.
    UnknownStdin(Span),
}

/// The positional parameters (`$0`, `$1`…) a script runs with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Positionals {
    /// Those of the shell it runs in (`eval TEXT`, a trap, an alias, a callback).
    #[default]
    Inherited,
    /// Its own, from the words after it (`sh -c TEXT NAME A B`: `$0` is NAME, `$1`
    /// is A), `$0` first; `None` for a value only known at run time. `more`: the
    /// words may be more than these, a number only known at run time (a word
    /// that splits or a glob, items a program appends), so any later one is
    /// unknown too; otherwise a later one is empty.
    Own {
        /// `$0`, `$1`… as far as they are given.
        values: Vec<Option<String>>,
        /// Whether more may follow at run time.
        more: bool,
    },
}

impl Positionals {
    /// Parameters that are all only known at run time, and how many.
    pub fn unknown() -> Positionals {
        Positionals::Own {
            values: Vec::new(),
            more: true,
        }
    }

    /// The parameters a shell gives a script from its words: `$0` is the first
    /// of `words`, or `shell` (the shell's own name) when `words` is empty or its
    /// `$0` is the shell's anyway (`bash -s A B`: `shell` and `words` = A B).
    pub fn own(shell: Option<String>, words: &[Word], named: bool) -> Positionals {
        let (mut values, words) = match words.split_first() {
            Some((first, rest)) if named && !may_be_several(first) => {
                (vec![first.static_value()], rest)
            }
            Some(_) if named => return Positionals::unknown(),
            _ => (vec![shell], words),
        };
        let mut more = false;
        for word in words {
            // A word that may be several (`$x`, `*.rs`, `{a,b}`): this one and
            // every later one is only known at run time.
            if may_be_several(word) {
                more = true;
                break;
            }
            values.push(word.static_value());
        }
        Positionals::Own { values, more }
    }
}

/// True when bash may turn the word into any number of words: an unquoted
/// expansion (split on blanks), a glob or a brace expansion.
fn may_be_several(word: &Word) -> bool {
    use super::word::Part;
    word.has_glob()
        || word.has_brace_expansion()
        || word.parts.iter().any(|p| match p {
            Part::Literal(_) | Part::Quoted(_) | Part::Tilde(_) | Part::ProcessSubstitution => {
                false
            }
            // `"$@"` is as many words as there are parameters.
            Part::Variable { name, quoted } => !quoted || name == "@",
            // `"${a[@]}"` too; a name of letters alone is one word when quoted.
            Part::Expansion { name, quoted, .. } => {
                !quoted
                    || name
                        .as_deref()
                        .is_none_or(|n| !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            }
            Part::CommandSubstitution { quoted } | Part::Arithmetic { quoted } => !quoted,
            Part::Unknown(_) => true,
        })
}

/// The scripts a command runs from text. `source` is the original command text, used
/// to decide whether a quoted word is a byte-for-byte copy of its value. A wrapper's
/// script is a range of words and how many bytes of its first word's value are the
/// option, not the script (`env -SCMD`: 2, `env --split-string=CMD`: 15);
/// `wrappers` are the indices of the wrapper words passed through to `program`.
pub fn scripts_of(
    words: &[Word],
    program: Option<usize>,
    wrappers: &[usize],
    wrapper_script: Option<(Range<usize>, usize)>,
    redirects: &[Redirect],
    piped_stdin: bool,
    source: &str,
) -> Vec<ScriptText> {
    let mut out = Vec::new();
    // A wrapper's own option may pipe to shell text (`strace -o '|CMD' ls`): its
    // words up to the next wrapper or the program, read with its entry.
    for (k, &at) in wrappers.iter().enumerate() {
        let Some(name) = words.get(at).and_then(Word::value) else {
            continue;
        };
        let pipes = crate::catalogue::lookup(basename(name))
            .is_some_and(|e| e.mentions(&[Role::PathWriteOrPipe]));
        if pipes {
            let end = wrappers
                .get(k + 1)
                .copied()
                .or(program)
                .unwrap_or(words.len());
            let own = words.get(at + 1..end.max(at + 1)).unwrap_or(&[]);
            catalogue_scripts(crate::catalogue::lookup(name), own, source, &mut out);
        }
    }
    if let Some((range, offset)) = wrapper_script {
        match words.get(range) {
            Some([word]) if offset > 0 => {
                out.push(match word.value().and_then(|v| v.get(offset..)) {
                    Some(text) => ScriptText::Static {
                        text: text.to_string(),
                        map: SpanMap::Whole(word.span),
                        args: Positionals::Inherited,
                    },
                    None => ScriptText::Dynamic(word.span),
                })
            }
            Some(words) => out.push(joined(words, source)),
            None => {}
        }
        return out;
    }
    let Some(index) = program else {
        return out;
    };
    let Some(name_word) = words.get(index) else {
        return out;
    };
    let Some(name) = name_word.value() else {
        return out;
    };
    let args = words.get(index + 1..).unwrap_or(&[]);
    // The canonical name, and the entry the steps below read: that of the
    // canonical name (a user's entry of that name comes first), looked up once.
    let (base, entry) = match crate::catalogue::lookup(basename(name)) {
        Some(found) => (found.name, crate::catalogue::lookup(found.name)),
        None => (basename(name), None),
    };
    substituted_code(base, args, &mut out);
    embedded_command(entry, args, source, &mut out);
    if entry.is_some_and(|e| e.has(Fact::Shell)) {
        shell(name_word, args, redirects, piped_stdin, source, &mut out);
    } else {
        match base {
            "eval" if !args.is_empty() => out.push(joined(args, source)),
            "alias" => {
                for arg in args {
                    out.push(alias_value(arg));
                }
            }
            // Shell builtins (`eval`, `alias`, `source`, `trap`...) are shell
            // semantics, not programs' options: they stay named here.
            // Their callbacks are read by `callbacks.rs`, which the walker asks.
            "trap" | "mapfile" | "readarray" | "complete" | "compgen" | "bind" => {}
            "source" | "." => {
                if let Some(first) = args.first() {
                    if first
                        .parts
                        .iter()
                        .any(|p| matches!(p, super::word::Part::ProcessSubstitution))
                    {
                        out.push(ScriptText::UnknownStdin(first.span));
                    } else if let Some(script) = descriptor_script(first, redirects, source) {
                        out.push(script);
                    }
                }
            }
            _ => {
                catalogue_scripts(entry, args, source, &mut out);
                settings_scripts(entry, args, &mut out);
                command_value_scripts(base, args, source, &mut out);
            }
        }
    }
    out
}

/// The commands held by options named like commands (`--exec CMD`,
/// `--on-error=CMD`: [`super::command_names`]): shell text, and the words after
/// `--exec` as an argv too.
fn command_value_scripts(name: &str, args: &[Word], source: &str, out: &mut Vec<ScriptText>) {
    use super::command_names::CommandValue;
    for value in super::command_names::command_values(name, args) {
        match value {
            CommandValue::Attached(i) => {
                let Some(word) = args.get(i) else { continue };
                if let Some((_, text)) = word.value().and_then(|v| v.split_once('=')) {
                    out.push(ScriptText::Static {
                        text: text.to_string(),
                        map: SpanMap::Whole(word.span),
                        args: Positionals::Inherited,
                    });
                }
            }
            CommandValue::Dynamic(i) => {
                if let Some(word) = args.get(i) {
                    out.push(ScriptText::Dynamic(word.span));
                }
            }
            CommandValue::Next(i) => {
                let rest = args.get(i..).unwrap_or(&[]);
                if let Some(first) = rest.first() {
                    out.push(single(first, source));
                }
                if rest.len() > 1 {
                    out.push(joined(rest, source));
                }
            }
        }
    }
}

/// A file the program runs or loads as code (the catalogue's `path-exec`: a
/// script operand, `make -f`, `awk -f`, `gdb -x`, `vim -S`) given as a process
/// substitution (`bash <(CMD)`, `python <(CMD)`): the code is what CMD prints,
/// only known at run time.
fn substituted_code(name: &str, args: &[Word], out: &mut Vec<ScriptText>) {
    let substituted = |w: &Word| {
        w.parts
            .iter()
            .any(|p| matches!(p, super::word::Part::ProcessSubstitution))
    };
    if !args.iter().any(substituted) {
        return;
    }
    let Some(entry) = crate::catalogue::lookup(name) else {
        return;
    };
    // An option with the substitution attached (`make --file=<(CMD)`, `-f<(CMD)`)
    // is read as bash passes it: the option with a `/dev/fd/N` name.
    let passed = stand_ins(args, as_passed);
    let values = values_or(args, &passed);
    for &arg in crate::catalogue::classify(entry, &values).iter() {
        if let Some(word) = args.get(arg.index)
            && arg.role == Role::PathExec
            && substituted(word)
        {
            out.push(ScriptText::Dynamic(word.span));
        }
    }
}

/// For each word only known at run time, what `stand_in` makes of it (`None`
/// for a word with a static value).
fn stand_ins(args: &[Word], stand_in: fn(&Word) -> Option<String>) -> Vec<Option<String>> {
    args.iter()
        .map(|w| w.value().is_none().then(|| stand_in(w)).flatten())
        .collect()
}

/// The words' static values, a stand-in ([`stand_ins`]) where a word has none.
fn values_or<'a>(args: &'a [Word], stand_ins: &'a [Option<String>]) -> Values<'a> {
    args.iter()
        .zip(stand_ins)
        .map(|(w, p)| w.value().or(p.as_deref()))
        .collect()
}

/// The word as bash passes it when its only dynamic parts are process
/// substitutions, each a `/dev/fd/N` name: `--file=<(CMD)` is
/// `--file=/dev/fd/63`. `None` when another part is only known at run time.
fn as_passed(word: &Word) -> Option<String> {
    let mut text = String::new();
    for part in &word.parts {
        match part {
            super::word::Part::Literal(t) | super::word::Part::Quoted(t) => text.push_str(t),
            super::word::Part::ProcessSubstitution => text.push_str("/dev/fd/63"),
            _ => return None,
        }
    }
    Some(text)
}

/// True when the entry or one of its subcommands writes settings (a walk over the
/// entry's tables, no allocation: most programs have none).
fn writes_settings_somewhere(entry: &Entry) -> bool {
    entry.has(Fact::WritesSettings) || entry.subcommands.iter().any(writes_settings_somewhere)
}

/// A command line inside the arguments of a program the catalogue does not know
/// (`./tools/run.sh sh -c 'rm -rf ~'`, `somewrapper python -c CODE`): a shell or
/// an interpreter given inline code is what such a program almost always runs,
/// so those words are walked as the command they spell, from the original text.
/// A known program's arguments are its entry's to say; a word naming a program
/// with no code after it (`mytool rm x`) stays an argument.
fn embedded_command(
    entry: Option<&'static Entry>,
    args: &[Word],
    source: &str,
    out: &mut Vec<ScriptText>,
) {
    if entry.is_some() {
        return;
    }
    for (i, word) in args.iter().enumerate() {
        // Inline code is given by an option (`-c`, `-e`): only a word followed by
        // one is looked up.
        if !args
            .get(i + 1)
            .and_then(Word::value)
            .is_some_and(|next| next.starts_with('-'))
        {
            continue;
        }
        let Some(entry) = word
            .value()
            .and_then(|w| crate::catalogue::lookup(basename(w)))
            .filter(|e| e.has(Fact::Shell) || e.interpreter.is_some())
        else {
            continue;
        };
        let rest = &args[i + 1..];
        let values: Values = rest.iter().map(Word::value).collect();
        let inline = crate::catalogue::classify(entry, &values).iter().any(|a| {
            a.option_value && matches!(a.role, Role::Shell | Role::ShellWords | Role::Code(_))
        });
        if !inline {
            continue;
        }
        let Some(last) = args.last() else {
            return;
        };
        let span = Span::new(word.span.start, last.span.end.max(word.span.start));
        // The words as bash passes them, each quoted again: a nested script's
        // spans do not point at its own text, so the text is rebuilt.
        let Some(values) = args[i..]
            .iter()
            .map(Word::static_value)
            .collect::<Option<Vec<String>>>()
        else {
            out.push(ScriptText::Dynamic(span));
            return;
        };
        let text = quoted_words(values.iter().map(String::as_str));
        let map = exact_map(span, &text, source);
        out.push(ScriptText::Static {
            text,
            map,
            args: Positionals::Inherited,
        });
        return;
    }
}

/// The static `-option=` that starts a word whose value is only known at run
/// time (`--to-command="$X"`), if it starts with one.
fn option_prefix(word: &Word) -> Option<String> {
    match word.parts.first() {
        Some(super::word::Part::Literal(t) | super::word::Part::Quoted(t))
            if t.starts_with('-') && t.contains('=') =>
        {
            t.find('=').map(|at| t[..=at].to_string())
        }
        _ => None,
    }
}

/// The scripts a program runs through arguments whose catalogue role is shell
/// text: an option value (`tar --to-command=CMD`, `git clone -u CMD`, `rsync -e
/// CMD`, `man -P CMD`), operands joined (`git submodule foreach CMD`), and a
/// `key=value` setting whose key runs a program (`ssh -o ProxyCommand=CMD`, `git
/// -c core.pager=CMD`, `git -c alias.x='!CMD'`; a setting only known at run time
/// may be any of these; a folder of programs, `core.hooksPath=DIR`, is judged as
/// a path), and the command of a git `ext::` URL.
fn catalogue_scripts(
    entry: Option<&'static Entry>,
    args: &[Word],
    source: &str,
    out: &mut Vec<ScriptText>,
) {
    let Some(entry) = entry.filter(|e| {
        e.mentions(&[
            Role::Shell,
            Role::ShellWords,
            Role::ShellIfBang,
            Role::Alias,
            Role::CredentialHelper,
            Role::PathWriteOrPipe,
        ])
    }) else {
        return;
    };
    // A word only known at run time keeps its static option name: in
    // `--to-command="$X"` or `-XX:OnError="$X"` the option still says what the
    // value is (shell text, only known at run time).
    let prefixes = stand_ins(args, option_prefix);
    let values = values_or(args, &prefixes);
    let roles = crate::catalogue::classify(entry, &values);
    for arg in roles.iter() {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        match arg.role {
            Role::Shell if arg.offset == 0 => out.push(single(word, source)),
            Role::Shell => match word.value().and_then(|v| v.get(arg.offset..)) {
                Some(text) => out.push(ScriptText::Static {
                    text: text.to_string(),
                    map: SpanMap::Whole(word.span),
                    args: Positionals::Inherited,
                }),
                None => out.push(ScriptText::Dynamic(word.span)),
            },
            // `gh alias set x '!CMD'`: shell text when it starts with `!`; a word
            // only known at run time may, unless its static start says not (an
            // alias's expansion, the program's own arguments, always may).
            Role::ShellIfBang | Role::Alias | Role::CredentialHelper => {
                match word.value().and_then(|v| v.get(arg.offset..)) {
                    Some(text) => out.extend(value_script(entry, arg.role, text, word.span)),
                    None if arg.role == Role::ShellIfBang && starts_without_bang(word) => {}
                    None => out.push(ScriptText::Dynamic(word.span)),
                }
            }
            Role::ShellWords if !arg.option_value => {
                out.push(joined(args.get(arg.index..).unwrap_or(&[]), source));
                return;
            }
            Role::Config => {
                let known = word.value().and_then(|v| v.get(arg.offset..));
                // A word only known at run time keeps its static key, if any
                // (`-Dapp.name=$NAME`).
                let prefix = values
                    .get(arg.index)
                    .copied()
                    .flatten()
                    .and_then(|v| v.get(arg.offset..))
                    .and_then(crate::catalogue::setting);
                match (known, prefix) {
                    (Some(text), _) => {
                        if let Some((key, value)) = crate::catalogue::setting(text)
                            && let Some(script) = setting_script(entry, key, value, word.span)
                        {
                            out.push(script);
                        }
                    }
                    (None, Some((key, _))) => {
                        if runs_shell_text(entry, key) {
                            out.push(ScriptText::Dynamic(word.span));
                        }
                    }
                    // `git -c "$SETTING"`, `ssh -o "$OPTION"`: an option's setting
                    // only known at run time (an operand, `make "$TARGET"`, is a
                    // target as often as a setting).
                    (None, None) if arg.option_value && runs_a_setting(entry) => {
                        out.push(ScriptText::Dynamic(word.span))
                    }
                    (None, None) => {}
                }
            }
            // `git clone 'ext::sh -c CMD'`: git's `ext::` transport runs the rest
            // of the URL as a command (its words split at spaces).
            Role::Url => {
                if let Some(command) = word
                    .value()
                    .and_then(|v| v.get(arg.offset..))
                    .and_then(|v| v.strip_prefix("ext::"))
                {
                    out.push(ScriptText::Static {
                        text: ext_command(command),
                        map: SpanMap::Whole(word.span),
                        args: Positionals::Inherited,
                    });
                }
            }
            // `git --config-env=core.pager=VAR`: the setting's value is a
            // variable's, only known at run time; a key with a role may run it.
            Role::ConfigEnv => {
                let key = word
                    .value()
                    .and_then(|v| v.get(arg.offset..))
                    .map(|v| v.split_once('=').map_or(v, |(key, _)| key));
                let role = key.and_then(|k| entry.config_key_role(k));
                if key.is_none() || role.is_some_and(|r| r != Role::Text) {
                    out.push(ScriptText::Dynamic(word.span));
                }
            }
            _ => {}
        }
    }
}

/// True when the word's static start is text that is not `!` (`'x'"$Y"`): it
/// cannot be shell text for a role that needs the `!`.
fn starts_without_bang(word: &Word) -> bool {
    matches!(
        word.parts.first(),
        Some(super::word::Part::Literal(t) | super::word::Part::Quoted(t))
            if !t.is_empty() && !t.starts_with('!')
    )
}

/// The script a setting's value is, when its key runs shell text (the entry's
/// `config_keys`: `core.pager` = shell; an alias or credential helper,
/// `shell-if-bang`, only when it starts with `!`; a remote's URL, when it is
/// git's `ext::` transport).
fn setting_script(entry: &Entry, key: &str, value: &str, span: Span) -> Option<ScriptText> {
    value_script(entry, entry.config_key_role(key)?, value, span)
}

/// The script a value of `role` is, if any: shell text, the text after a `!`
/// (`shell-if-bang`), an alias's expansion (`!CMD`, else `PROGRAM EXPANSION`: the
/// program's own arguments), a git credential helper's command (`!CMD`, an
/// absolute path with its arguments, else `git credential-NAME ARGS`), the
/// command of a git `ext::` URL.
fn value_script(entry: &Entry, role: Role, value: &str, span: Span) -> Option<ScriptText> {
    let bang = value.strip_prefix('!');
    let text = match role {
        Role::Shell => value.to_string(),
        Role::ShellIfBang => bang?.to_string(),
        Role::Alias => match bang {
            Some(script) => script.to_string(),
            None if value.trim().is_empty() => return None,
            None => format!("{} {value}", entry.name),
        },
        Role::CredentialHelper => match bang {
            Some(script) => script.to_string(),
            None if value.trim().is_empty() => return None,
            None if value.starts_with('/') => value.to_string(),
            None => format!("git credential-{value}"),
        },
        // `remote.x.url=ext::CMD`: a later fetch from the remote runs CMD.
        Role::Remote | Role::Url => ext_command(value.strip_prefix("ext::")?),
        _ => return None,
    };
    Some(ScriptText::Static {
        text,
        map: SpanMap::Whole(span),
        args: Positionals::Inherited,
    })
}

/// True when the value of the settings key `key` is shell text (`core.pager`; an
/// alias or a credential helper may be).
fn runs_shell_text(entry: &Entry, key: &str) -> bool {
    matches!(
        entry.config_key_role(key),
        Some(Role::Shell | Role::ShellIfBang | Role::Alias | Role::CredentialHelper)
    )
}

/// True when some settings key of the entry runs shell text or programs.
fn runs_a_setting(entry: &Entry) -> bool {
    entry.config_keys.iter().any(|(_, role)| {
        matches!(
            role,
            Role::Shell
                | Role::ShellIfBang
                | Role::Alias
                | Role::CredentialHelper
                | Role::ExecDirectory
                | Role::PathExec
        )
    })
}

/// Settings a use writes whose value runs later (`git config core.pager CMD`,
/// `git config alias.x '!CMD'`; the catalogue's `writes-settings` subcommands and
/// `config_keys`): the value is a script, walked now; one only known at run time
/// under such a key is an unknown script. A query (`--get`: a `read-only` flag)
/// writes nothing.
fn settings_scripts(entry: Option<&'static Entry>, args: &[Word], out: &mut Vec<ScriptText>) {
    let Some(entry) = entry.filter(|e| writes_settings_somewhere(e)) else {
        return;
    };
    let (leaf, rest, keys) = settings::settings_use(entry, args);
    let Some(keys) = keys.filter(|_| leaf.has(Fact::WritesSettings)) else {
        return;
    };
    let values: Values = args.iter().map(Word::value).collect();
    if crate::catalogue::usage(entry, &values).has(Fact::ReadOnly) {
        return;
    }
    for (key, value) in settings::settings_written(leaf, rest) {
        let Some(text) = key.value() else {
            continue;
        };
        let name = settings::value_key(text, value.is_none());
        let (written, span) = match value {
            Some(word) => (word.value(), word.span),
            None => (text.split_once('=').map(|(_, v)| v), key.span),
        };
        match written {
            Some(v) => out.extend(setting_script(keys, name, v, span)),
            None if runs_shell_text(keys, name) => out.push(ScriptText::Dynamic(span)),
            None => {}
        }
    }
}

/// The command of a git `ext::` URL as shell text: its arguments split at
/// spaces, `% ` kept as a space and `%%` as a percent inside one, each quoted.
fn ext_command(command: &str) -> String {
    let mut words: Vec<String> = vec![String::new()];
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some(' ') => words.last_mut().map_or((), |w| w.push(' ')),
                Some('%') => words.last_mut().map_or((), |w| w.push('%')),
                Some(other) => words.last_mut().map_or((), |w| {
                    w.push('%');
                    w.push(other);
                }),
                None => {}
            },
            ' ' => words.push(String::new()),
            c => words.last_mut().map_or((), |w| w.push(c)),
        }
    }
    quoted_words(words.iter().map(String::as_str).filter(|w| !w.is_empty()))
}

/// Words as shell text that gives them back as they are: each single-quoted.
fn quoted_words<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `bash [options] -c STRING`, `bash FILE`, or `bash` reading stdin.
fn shell(
    name: &Word,
    args: &[Word],
    redirects: &[Redirect],
    piped_stdin: bool,
    source: &str,
    out: &mut Vec<ScriptText>,
) {
    // The shell's entry says which long options take a value (`--rcfile FILE`);
    // the short options are the POSIX shell's own (`-c`, `-s`, `-o OPTION`).
    let entry = name
        .value()
        .and_then(|n| crate::catalogue::lookup(basename(n)));
    let mut command_string = false;
    let mut read_stdin = false;
    let mut i = 0;
    while i < args.len() {
        let Some(value) = args[i].value() else {
            break;
        };
        if value == "--" || value == "-" {
            i += 1;
            break;
        }
        if value.starts_with("--") {
            i += if entry.is_some_and(|e| e.takes_next_word(value)) {
                2
            } else {
                1
            };
            continue;
        }
        if (value.starts_with('-') || value.starts_with('+')) && value.len() > 1 {
            if value.contains('c') && value.starts_with('-') {
                command_string = true;
            }
            if value.contains('s') && value.starts_with('-') {
                read_stdin = true;
            }
            // `-o option` / `+O option` take a value.
            i += if value.ends_with('o') || value.ends_with('O') {
                2
            } else {
                1
            };
            continue;
        }
        break;
    }
    // The script's `$0`, `$1`…: the words after the `-c` string, or after the
    // options when the script is read from stdin or a file.
    let shell_name = name.static_value();
    if command_string {
        match args.get(i) {
            Some(script) => {
                let words = args.get(i + 1..).unwrap_or(&[]);
                out.push(with_positionals(
                    single(script, source),
                    Positionals::own(shell_name, words, true),
                ))
            }
            None => out.push(ScriptText::Dynamic(name.span)),
        }
        return;
    }
    if i < args.len() && !read_stdin {
        // `bash FILE`: runs a file; the path rules judge it, unless the file is a
        // descriptor (`bash /dev/stdin <<< CMD`): then the script is what feeds it.
        if let Some(script) = descriptor_script(&args[i], redirects, source) {
            out.push(with_positionals(
                script,
                Positionals::own(shell_name, &args[i..], true),
            ));
        }
        return;
    }
    // Input the gate cannot see (`CMD | sh`) is a script it cannot read.
    let _ = piped_stdin;
    let positionals = Positionals::own(shell_name, args.get(i..).unwrap_or(&[]), false);
    if let Some(script) = stdin_script(name, redirects, source) {
        out.push(with_positionals(script, positionals));
    }
}

/// A static script with the positional parameters it runs with.
fn with_positionals(script: ScriptText, positionals: Positionals) -> ScriptText {
    match script {
        ScriptText::Static { text, map, .. } => ScriptText::Static {
            text,
            map,
            args: positionals,
        },
        other => other,
    }
}

/// The script a shell reads from stdin: a heredoc, a here-string, a file fed
/// with `<`, or a pipe the gate cannot see.
fn stdin_script(name: &Word, redirects: &[Redirect], source: &str) -> Option<ScriptText> {
    for redirect in redirects {
        if let Some(heredoc) = &redirect.heredoc {
            return Some(match &heredoc.static_text {
                Some(text) => ScriptText::Static {
                    text: text.clone(),
                    map: exact_map(heredoc.span, text, source),
                    args: Positionals::Inherited,
                },
                None => ScriptText::Dynamic(heredoc.span),
            });
        }
        if redirect.operator == "<<<" {
            return redirect.target.as_ref().map(|t| single(t, source));
        }
        if redirect.operator == "<" && redirect.fd.as_deref().unwrap_or("0") == "0" {
            break;
        }
    }
    Some(ScriptText::UnknownStdin(name.span))
}

/// The script a shell runs when its script file is a descriptor (`/dev/stdin`,
/// `/dev/fd/3`): the heredoc or here-string on that descriptor, else input the gate
/// cannot see. `None` when `file` is not a descriptor.
fn descriptor_script(file: &Word, redirects: &[Redirect], source: &str) -> Option<ScriptText> {
    let fd = descriptor_named(&file.static_value()?)?;
    Some(match feed_of(fd, redirects) {
        Feed::Heredoc(heredoc) => match &heredoc.static_text {
            Some(text) => ScriptText::Static {
                text: text.clone(),
                map: exact_map(heredoc.span, text, source),
                args: Positionals::Inherited,
            },
            None => ScriptText::Dynamic(heredoc.span),
        },
        Feed::HereString(word) => single(word, source),
        Feed::Other | Feed::Inherited => ScriptText::UnknownStdin(file.span),
    })
}

/// One word as a script.
pub(super) fn single(word: &Word, source: &str) -> ScriptText {
    match word.static_value() {
        Some(text) => {
            let map = quoted_map(word, &text, source);
            ScriptText::Static {
                text,
                map,
                args: Positionals::Inherited,
            }
        }
        None => ScriptText::Dynamic(word.span),
    }
}

/// Several words joined with spaces, as `eval` and `watch` do.
fn joined(words: &[Word], source: &str) -> ScriptText {
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return ScriptText::Dynamic(Span::default());
    };
    if words.len() == 1 {
        return single(first, source);
    }
    let span = Span::new(first.span.start, last.span.end);
    let mut text = String::new();
    for (k, word) in words.iter().enumerate() {
        let Some(value) = word.static_value().or_else(|| tilde_text(word)) else {
            return ScriptText::Dynamic(span);
        };
        if k > 0 {
            text.push(' ');
        }
        text.push_str(&value);
    }
    let map = exact_map(span, &text, source);
    ScriptText::Static {
        text,
        map,
        args: Positionals::Inherited,
    }
}

/// An unquoted word that starts with a tilde and is otherwise plain text (`~`,
/// `~/.ssh`): joined into shell text as written, its tilde expands there as it
/// would have here. Rebuilt from its parts, not read from the command: inside a
/// script nested with `'\''` quoting the word's place in the command is not its
/// text.
fn tilde_text(word: &Word) -> Option<String> {
    let [super::word::Part::Tilde(user), rest @ ..] = word.parts.as_slice() else {
        return None;
    };
    let mut text = format!("~{user}");
    for part in rest {
        match part {
            super::word::Part::Literal(t) => text.push_str(t),
            _ => return None,
        }
    }
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"~/._-+,:@%=".contains(&b));
    plain.then_some(text)
}

/// `alias name='value'`: the value is a script run where the alias is used.
fn alias_value(word: &Word) -> ScriptText {
    let Some(value) = word.static_value() else {
        return ScriptText::Dynamic(word.span);
    };
    match value.split_once('=') {
        Some((_, body)) => ScriptText::Static {
            text: body.to_string(),
            map: SpanMap::Whole(word.span),
            args: Positionals::Inherited,
        },
        None => ScriptText::Static {
            text: String::new(),
            map: SpanMap::Whole(word.span),
            args: Positionals::Inherited,
        },
    }
}

/// The map for a word whose value is its source text inside one pair of quotes.
fn quoted_map(word: &Word, value: &str, source: &str) -> SpanMap {
    let raw = source.get(word.span.start..word.span.end).unwrap_or("");
    for (open, close) in [("'", "'"), ("\"", "\""), ("$'", "'")] {
        if let Some(inner) = raw.strip_prefix(open).and_then(|r| r.strip_suffix(close))
            && inner == value
        {
            let base = word.span.start + open.len();
            return SpanMap::Offset {
                base,
                end: base + inner.len(),
            };
        }
    }
    exact_map(word.span, value, source)
}

/// Offset map when the source under `span` is exactly `text`, else whole-span map.
fn exact_map(span: Span, text: &str, source: &str) -> SpanMap {
    if source.get(span.start..span.end) == Some(text) {
        SpanMap::Offset {
            base: span.start,
            end: span.end,
        }
    } else {
        SpanMap::Whole(span)
    }
}
