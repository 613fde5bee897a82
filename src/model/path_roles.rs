//! Which words of a command name paths, and whether the command reads or writes
//! them: redirect targets, program names given as paths, `cd` targets, assignment
//! values, option values (`--output=/x`, `-o/x`), and arguments — with the write
//! side known for the commands that write (`tee`, `cp`/`mv`/`install`/`ln`
//! destinations, `rm`, `touch`, `mkdir`, `sed -i`, `dd of=`, `tar -C`/`-f`, ...).
//! The text arguments of `echo`/`printf` and message options (`git commit -m`) are
//! not paths.

use super::command::{Origin, SYSTEM_BIN_DIRS, SimpleCommand};
use super::word::{Part, Word};
use crate::catalogue::Values;
use crate::catalogue::{self, Entry, Fact, ModeOptions, Role as ArgRole};
use crate::verdict::Span;
use std::borrow::Cow;

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The command reads (or lists, or runs) it.
    Read,
    /// The command looks at its metadata only (`[[ -f x ]]`, `stat x`, `ls x`).
    Metadata,
    /// The command appends to it (`>> x`): writes without reading or truncating.
    Append,
    /// The command writes, creates, moves or deletes it.
    Write,
}

impl Access {
    /// True for the accesses that change the file: write and append.
    pub fn writes(self) -> bool {
        matches!(self, Access::Write | Access::Append)
    }
}

/// Where in the command the path stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An argument.
    Argument,
    /// The value of an option (`--output=FILE`, `of=FILE`).
    OptionValue,
    /// The program itself, named by a path.
    Program,
    /// A redirect target.
    Redirect,
    /// The value of an assignment.
    Assignment,
    /// The target of `cd`/`pushd`.
    Directory,
}

/// One word used as a path.
#[derive(Clone, Debug)]
pub struct PathUse<'a> {
    /// The word: the command's own, borrowed, or one made for the use (an option's
    /// value, `cd`'s home).
    pub word: Cow<'a, Word>,
    /// Read or write.
    pub access: Access,
    /// Where it stands.
    pub role: Role,
}

/// The option the static start `head` of a word spells with its value attached,
/// and where the value starts, as the path rules read it: before a `=` (`--out=`,
/// `-ldflags=`), before a `:` in a program whose options do not cluster
/// (`-javaagent:`), or after a one-letter option of the program's own table that
/// takes a value (`make -j$(nproc)`; after flags that cluster, `-kj$N`). The
/// attached-value check reads the catalogue's own spellings instead
/// ([`Entry::attached_option`]: `-Wl,`, `--inspect=`), which these rules leave to
/// the operand reading.
fn attached_option_name(head: &str, entry: Option<&Entry>) -> Option<(String, usize)> {
    if !head.starts_with('-') {
        return None;
    }
    if let Some((option, _)) = head.split_once('=') {
        return (option.len() > 1).then(|| (option.to_string(), option.len() + 1));
    }
    let entry = entry?;
    if let Some((option, _)) = head.split_once(':') {
        return (!head.starts_with("--") && !entry.clustering)
            .then(|| (option.to_string(), option.len() + 1));
    }
    if head.starts_with("--") {
        return None;
    }
    if !entry.clustering {
        let short = head.get(..2)?;
        return entry.option(short).map(|_| (short.to_string(), 2));
    }
    // Flags, then the letter that takes the rest as its value.
    for (at, letter) in head.char_indices().skip(1) {
        if entry.short_option(letter).is_some() {
            return Some((format!("-{letter}"), at + letter.len_utf8()));
        }
        if !letter.is_ascii_alphanumeric() {
            return None;
        }
    }
    None
}

/// The value of an option word whose first part starts with the option's name
/// and its mark (`skip` bytes: `--work-tree=`), as a word of its own: `$HOME`
/// of `--work-tree=$HOME` is then judged as the path it starts with.
fn attached_value(word: &Word, skip: usize) -> Word {
    let mut parts: Vec<Part> = word.parts.iter().cloned().collect();
    if let Some(Part::Literal(head) | Part::Quoted(head)) = parts.first_mut() {
        *head = head.get(skip..).unwrap_or_default().to_string();
        if head.is_empty() {
            parts.remove(0);
        }
    }
    Word::new(parts, word.span, word.has_quotes)
}

/// The role of an option's value: the subcommand's table first, then the program's.
fn option_role(entry: Option<&Entry>, sub: Option<&Entry>, option: &str) -> Option<ArgRole> {
    sub.and_then(|s| s.option_role(option))
        .or_else(|| entry.and_then(|e| e.option_role(option)))
}

/// True when the option word `option` (no value attached) is read as a listed
/// option only as a prefix of its name (`--test` of node's `--test-reporter`):
/// it may as well be an option the catalogue does not list, which takes no
/// value, so the next word is read as itself too.
fn only_abbreviates(entry: Option<&Entry>, sub: Option<&Entry>, option: &str) -> bool {
    match sub.filter(|s| s.option(option).is_some()) {
        Some(s) => s.only_abbreviates(option),
        None => entry.is_some_and(|e| e.only_abbreviates(option)),
    }
}

/// Paths named by the wrappers passed through, read with each wrapper's catalogue
/// entry: `flock FILE cmd` creates its lock file, `strace -o FILE cmd` writes its
/// trace, `bwrap --bind SRC DEST cmd` exposes `SRC`, `env -C DIR cmd` works in
/// `DIR`. The words a wrapper owns are those between it and the next wrapper (or
/// the program it runs).
fn wrapper_paths(cmd: &SimpleCommand) -> Vec<PathUse<'_>> {
    let mut uses = Vec::new();
    for (k, &w) in cmd.wrappers.iter().enumerate() {
        let Some(entry) = cmd
            .words
            .get(w)
            .and_then(Word::value)
            .and_then(|v| catalogue::lookup(super::command::basename(v)))
        else {
            continue;
        };
        let own = super::wrapper_words::own_words(cmd, k);
        let values: Values = own.iter().map(Word::value).collect();
        for &arg in catalogue::classify(entry, &values).iter() {
            let access = match arg.role {
                ArgRole::PathWrite | ArgRole::PathDelete => Access::Write,
                ArgRole::Metadata => Access::Metadata,
                ArgRole::PathRead
                | ArgRole::PathExec
                | ArgRole::Directory
                | ArgRole::ExecDirectory => Access::Read,
                _ => continue,
            };
            let Some(word) = own.get(arg.index) else {
                continue;
            };
            let word = match (arg.offset, word.value()) {
                (0, _) => Cow::Borrowed(word),
                (offset, Some(value)) => match value.get(offset..) {
                    Some(part) => Cow::Owned(sub_word(word, value, offset, part)),
                    None => continue,
                },
                // A dynamic word with an attached value: the whole word is judged.
                (_, None) => Cow::Borrowed(word),
            };
            let role = if arg.option_value {
                Role::OptionValue
            } else {
                Role::Argument
            };
            uses.push(PathUse { word, access, role });
        }
    }
    uses
}

/// The paths a command names, in order; then, for a confined loop variable among
/// them, the loop's words in its place (see `model/loop_values.rs`).
pub fn path_uses(cmd: &SimpleCommand) -> Vec<PathUse<'_>> {
    let mut uses = written_out(cmd);
    if cmd.context.confined.is_empty() {
        return uses;
    }
    // `for f in .env; do cat "$f"; done` reads `.env`: each loop word in its
    // variable's place is a use too, judged as if written out.
    let mut placed = Vec::new();
    for usage in &uses {
        for word in super::loop_values::in_place_of(&usage.word, &cmd.context.confined) {
            placed.push(PathUse {
                word: Cow::Owned(word),
                access: usage.access,
                role: usage.role,
            });
        }
    }
    uses.extend(placed);
    uses
}

/// [`path_uses`] of the words as written, loop variables left in them.
fn written_out(cmd: &SimpleCommand) -> Vec<PathUse<'_>> {
    let mut uses = Vec::new();
    for redirect in &cmd.redirects {
        if redirect.is_fd_duplication() || redirect.heredoc.is_some() || redirect.operator == "<<<"
        {
            continue;
        }
        if let Some(target) = &redirect.target {
            let access = if redirect.operator.ends_with(">>") {
                Access::Append
            } else if redirect.writes() {
                Access::Write
            } else {
                Access::Read
            };
            uses.push(PathUse {
                word: Cow::Borrowed(target),
                access,
                role: Role::Redirect,
            });
        }
    }
    for assignment in &cmd.assignments {
        if assignment.name == "PATH" || assignment.name.ends_with("PATH") {
            continue;
        }
        if let Some(value) = &assignment.value {
            uses.push(PathUse {
                word: Cow::Borrowed(value),
                access: Access::Read,
                role: Role::Assignment,
            });
        }
    }
    if cmd.origin == Origin::Test {
        for word in &cmd.words {
            if !word
                .value()
                .is_some_and(|v| v.starts_with('-') || is_operator(v))
            {
                uses.push(PathUse {
                    word: Cow::Borrowed(word),
                    access: Access::Metadata,
                    role: Role::Argument,
                });
            }
        }
        return uses;
    }
    uses.extend(wrapper_paths(cmd));
    let Some(name_word) = cmd.name() else {
        return uses;
    };
    if let Some(name) = name_word.value() {
        if let Some((dir, _)) = name.rsplit_once('/')
            && !SYSTEM_BIN_DIRS.contains(&dir)
        {
            uses.push(PathUse {
                word: Cow::Borrowed(name_word),
                access: Access::Read,
                role: Role::Program,
            });
        }
    } else if !name_word.parts.is_empty() {
        uses.push(PathUse {
            word: Cow::Borrowed(name_word),
            access: Access::Read,
            role: Role::Program,
        });
    }
    let program = cmd.program_str().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    // A call of a function or alias defined in the command is not the program of
    // its name: its arguments are judged as any unknown program's.
    let entry = catalogue::lookup(program).filter(|_| !cmd.shadowed);
    if entry.is_some_and(|e| e.has(Fact::TextOnly)) || cmd.origin == Origin::Declaration {
        return uses;
    }
    if entry.is_some_and(|e| e.has(Fact::ChangesDirectory)) {
        let target = cmd
            .args()
            .iter()
            .find(|w| !w.value().is_some_and(|v| v.starts_with('-') && v.len() > 1));
        let word = match target {
            // `cd -` goes back to $OLDPWD; with no operand bash goes home (shell
            // semantics of the builtins, not options; `pushd` alone swaps the
            // stack's top two, judged as home: fail closed).
            Some(w) if w.value() == Some("-") => {
                Cow::Owned(Word::new(vec![Part::Tilde("-".into())], w.span, false))
            }
            Some(w) => Cow::Borrowed(w),
            None => Cow::Owned(Word::new(
                vec![Part::Tilde(String::new())],
                name_word.span,
                false,
            )),
        };
        uses.push(PathUse {
            word,
            access: Access::Read,
            role: Role::Directory,
        });
        return uses;
    }
    let args = cmd.args();
    // The roles the catalogue gives the arguments (subcommands included; `tar
    // xzf A` reaches here as `tar -xzf A`, see `model/old_style.rs`).
    let values: Values = args.iter().map(Word::value).collect();
    // Shared with the memo of recent readings: the checks read the same words.
    let reading = entry.map(|e| catalogue::classify(e, &values));
    let roles: &[catalogue::Arg] = reading.as_deref().map_or(&[], Vec::as_slice);
    // `docker run -v .:/w alpine cat /w/.env`: the container's command names
    // host paths below a bind mount's destination.
    if entry.is_some_and(|e| e.words_mention(ArgRole::Mount)) {
        for word in super::mounted_paths::through_mounts(args, &values, roles) {
            uses.push(PathUse {
                word: Cow::Owned(word),
                access: Access::Read,
                role: Role::Argument,
            });
        }
    }
    let given = entry
        .map(|e| modes_of(e, args, &values))
        .unwrap_or_default();
    // `tar -czf A`: the values of the options the mode gives a role of its own.
    let mode_values = match (entry, given.options) {
        (Some(e), Some(mode)) => mode_values(e, mode, &values),
        _ => Vec::new(),
    };
    let sub = entry.and_then(|e| {
        roles
            .iter()
            .find(|a| a.role == ArgRole::Subcommand)
            .and_then(|a| values.get(a.index).copied().flatten())
            .and_then(|name| e.subcommand(name))
    });
    // The role of the word at `index`: the mode's option value, else the
    // catalogue's reading (an operand, or an option's value inside a cluster,
    // `grep -rne PATTERN`).
    let word_role = |index: usize| {
        mode_values
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, r)| *r)
            .or_else(|| roles.iter().find(|a| a.index == index).map(|a| a.role))
    };
    let operand_count = roles.iter().filter(|a| !a.option_value).count();
    let last_is_written = entry.is_some_and(|e| e.last.is_some_and(ArgRole::writes));
    let mut operands: Vec<(usize, &Word)> = Vec::new();
    let mut target_dir: Option<usize> = None;
    let mut skip_next = false;
    // The word after an option read only as a prefix of a listed one: its value,
    // and read as itself too.
    let mut read_again = None;
    let mut options_done = false;
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        let index = i;
        i += 1;
        if skip_next {
            skip_next = false;
            if read_again != Some(index) {
                continue;
            }
        }
        let Some(value) = values.get(index).copied().flatten() else {
            // `java -javaagent:$HOME/x.jar`, `go build -o=$OUT`: an option the
            // static start spells, its value attached after `:` or `=` and only
            // known at run time. A path role's value is that path; another
            // role's is no path (`-ldflags="-X main.v=$V"`). (Other attached
            // forms reach the path rules as operands.)
            if !options_done
                && let Some(Part::Literal(head) | Part::Quoted(head)) = word.parts.first()
                && let Some((option, skip)) = attached_option_name(head, entry)
                // Code, shell text or a program only known at run time is no path
                // but asks all the same: left to the operand reading below.
                && let Some(role) =
                    option_role(entry, sub, &option).filter(|r| !(r.is_text() && r.runs()))
            {
                if !role.is_text() {
                    uses.push(PathUse {
                        word: Cow::Owned(attached_value(word, skip)),
                        access: Access::Read,
                        role: Role::OptionValue,
                    });
                }
                continue;
            }
            operands.push((index, word));
            continue;
        };
        if value == "{}" || value == "-" || value.is_empty() || value == ";" || value == "+" {
            continue;
        }
        if value == "--" && !options_done {
            options_done = true;
            continue;
        }
        // `dd of=FILE`: a `key=value` operand whose key the catalogue gives a role
        // (a path role: the value is that path; another role: not a path).
        if word_role(index) == Some(ArgRole::Config)
            && let Some((key, file)) = value.split_once('=')
            && let Some(key_role) = entry.and_then(|e| e.config_key_role(key))
        {
            let access = match key_role {
                ArgRole::PathWrite | ArgRole::PathDelete => Access::Write,
                ArgRole::Metadata => Access::Metadata,
                ArgRole::PathRead
                | ArgRole::PathExec
                | ArgRole::Directory
                | ArgRole::ExecDirectory => Access::Read,
                _ => continue,
            };
            uses.push(PathUse {
                word: Cow::Owned(sub_word(word, value, key.len() + 1, file)),
                access,
                role: Role::OptionValue,
            });
            continue;
        }
        if !options_done && value.starts_with('-') && value.len() > 1 {
            // `java -javaagent:/x.jar`, `-agentpath:/x.so`: a one-dash option of a
            // program whose options do not cluster, its value after a colon.
            let colon = value.split_once(':').filter(|(o, _)| {
                !o.starts_with("--")
                    && entry.is_some_and(|e| !e.clustering)
                    && option_role(entry, sub, o).is_some()
            });
            // `go mod edit -replace=OLD=NEW`: a value the catalogue's reading found
            // attached to its option (an option of a deeper subcommand too).
            let attached_value = roles
                .iter()
                .find(|a| a.index == index && a.option_value && a.offset > 1)
                .and_then(|a| {
                    let option = value.get(..a.offset)?;
                    let option = option.strip_suffix('=').unwrap_or(option);
                    Some((option, (a.offset, value.get(a.offset..)?)))
                });
            let (option, attached) = match value.split_once('=') {
                _ if let Some((o, v)) = colon => (o, Some((o.len() + 1, v))),
                // `docker run -v=/:/h`: a one-letter option of a catalogued program
                // given its value after `=` (pflag reads it so; getopt would keep
                // the `=` in the value, a path judged the stricter way here).
                _ if !value.starts_with("--")
                    && value.get(2..3) == Some("=")
                    && option_role(entry, sub, &value[..2]).is_some() =>
                {
                    (&value[..2], Some((3, &value[3..])))
                }
                _ if let Some((o, at)) = attached_value => (o, Some(at)),
                Some((o, v)) if value.starts_with("--") => (o, Some((o.len() + 1, v))),
                // `gcc -fplugin=X`, `java -javaagent=X`: one-dash long options of
                // a program whose short options do not cluster.
                Some((o, v))
                    if entry.is_some_and(|e| !e.clustering)
                        && option_role(entry, sub, o).is_some() =>
                {
                    (o, Some((o.len() + 1, v)))
                }
                // `-C/etc`, and `-t/` (the root alone); `php -dextension=/x.so`,
                // `perl -Mlib=/x`: a setting attached to its one-letter option.
                _ if !value.starts_with("--")
                    && value.len() > 2
                    && (value
                        .get(2..)
                        .is_some_and(|v| v.starts_with(['/', '~', '.']))
                        || value.get(..2).is_some_and(|o| {
                            option_role(entry, sub, o) == Some(ArgRole::Config)
                        })) =>
                {
                    (
                        value.get(..2).unwrap_or(value),
                        value.get(2..).map(|v| (2, v)),
                    )
                }
                // `gcc -MF/x`, `-Wl,-Map=/x`, `-Xloggc:/x`, `-Wp,-MD,/x`: a path
                // glued to an option the arms above do not read, after its name
                // or a `=`, `:` or `,` inside it, is judged as the path it names
                // (fail closed: the catalogue does not list every spelling).
                _ if let Some(at) = glued_path(value, |o| option_role(entry, sub, o).is_some()) => {
                    (&value[..at], Some((at, &value[at..])))
                }
                _ => (value, None),
            };
            let value_at = if attached.is_some() { index } else { i };
            // One lookup of the option serves the questions below.
            let listed = option_role(entry, sub, option);
            if attached.is_none() && listed.is_some() && only_abbreviates(entry, sub, option) {
                read_again = Some(i);
            }
            // The catalogue's reading counts when it took the word as an option's
            // value: an option of a deeper subcommand (`go mod edit -replace`).
            // A word read both as this value and as itself (after an option read
            // only as a prefix of a listed one) is this value here.
            let value_arg = roles.iter().find(|a| {
                a.index == value_at && a.option_value && (a.offset > 0) == attached.is_some()
            });
            let role = mode_values
                .iter()
                .find(|(i, _)| *i == value_at)
                .map(|(_, r)| *r)
                .or(value_arg.map(|a| a.role))
                .or_else(|| word_role(value_at))
                .filter(|_| listed.is_some() || value_arg.is_some())
                .or(listed);
            // `git -c include.path=/tmp/x`: a setting given as an option's value
            // whose key the catalogue gives a path role reads or writes that path.
            if role == Some(ArgRole::Config) {
                let spec = match attached {
                    Some((offset, v)) => Some(sub_word(word, value, offset, v)),
                    None => args.get(i).cloned(),
                };
                if let Some(use_) = spec.as_ref().and_then(|w| config_path(entry, sub, w)) {
                    uses.push(use_);
                }
            }
            // `gcc -Wl,-Map=/x`, `-Wp,-MD,/x`, `-Xlinker -Map=/x`: options passed to
            // another program; a path among them (a piece after a `,`, or glued to
            // an option) is judged as read, whatever that program does with it.
            if matches!(role, Some(ArgRole::Options | ArgRole::OptionsOf(_))) {
                let passed = match attached {
                    Some((offset, v)) => Some((index, value, offset, v)),
                    None => values.get(i).copied().flatten().map(|v| (i, v, 0, v)),
                };
                if let Some((at, whole, offset, v)) = passed
                    && let Some(passed_word) = args.get(at)
                {
                    passed_paths(passed_word, whole, offset, v, &mut uses);
                }
            }
            if role.is_some_and(ArgRole::is_text) {
                // `python3 -X pycache_prefix=/tmp`, `pytest -o cache_dir=/x`,
                // `rustc --emit=link=/x`: a text value that is a `KEY=PATH` setting
                // names that path, whatever the tool does with it (fail closed:
                // the catalogue does not list every key).
                let text_value = match attached {
                    Some((offset, v)) => Some((index, offset, v)),
                    None => values.get(i).copied().flatten().map(|v| (i, 0, v)),
                };
                if role == Some(ArgRole::Text)
                    && let Some((at, offset, v)) = text_value
                    && let Some(k) = setting_path(v)
                    && let Some(valued) = args.get(at)
                {
                    let whole = valued.value().unwrap_or(v);
                    uses.push(PathUse {
                        word: Cow::Owned(sub_word(valued, whole, offset + k, &v[k..])),
                        access: Access::Read,
                        role: Role::OptionValue,
                    });
                }
                if attached.is_none() {
                    skip_next = true;
                }
                continue;
            }
            if role == Some(ArgRole::Mount) || role == Some(ArgRole::Source) {
                // `-v SRC:DEST`: the host side is written by what runs behind it;
                // `--secret id=x,src=FILE`: the file is read.
                let spec = match attached {
                    Some((offset, v)) => Some(sub_word(word, value, offset, v)),
                    None => {
                        skip_next = true;
                        args.get(i).cloned()
                    }
                };
                let (path, access) = if role == Some(ArgRole::Mount) {
                    (
                        spec.as_ref().and_then(super::mounts::host_side),
                        Access::Write,
                    )
                } else {
                    (
                        spec.as_ref().and_then(super::mounts::source_field),
                        Access::Read,
                    )
                };
                if let Some(path) = path {
                    uses.push(PathUse {
                        word: Cow::Owned(path),
                        access,
                        role: Role::OptionValue,
                    });
                }
                continue;
            }
            let writes = role.is_some_and(ArgRole::writes);
            let takes_value = role.is_some();
            let access = if writes { Access::Write } else { Access::Read };
            if let Some((offset, v)) = attached {
                if looks_like_path(v) || takes_value {
                    uses.push(PathUse {
                        word: Cow::Owned(sub_word(word, value, offset, v)),
                        access,
                        role: Role::OptionValue,
                    });
                }
            } else if takes_value && let Some(next) = args.get(i) {
                if last_is_written && writes {
                    target_dir = Some(i);
                }
                uses.push(PathUse {
                    word: Cow::Borrowed(next),
                    access,
                    role: Role::OptionValue,
                });
                skip_next = true;
            }
            continue;
        }
        operands.push((index, word));
    }
    let last = operands.last().map(|(i, _)| *i);
    for (index, word) in &operands {
        let mut role = word_role(*index);
        // The entry's last role holds in a mode too (`ln -s TARGET... LINK`).
        if operand_count > 1
            && Some(*index) == last
            && !roles.iter().any(|a| a.index == *index && a.option_value)
            && let Some(last_role) = entry.and_then(|e| e.last)
        {
            role = Some(last_role);
        }
        // `grep -n /usr/local/bin Dockerfile`: a pattern, never a path; `git
        // status`: a subcommand's name; `kubectl get pods`: text. A `NAME=value`
        // setting whose key has no role of its own keeps its value judged
        // (`make PREFIX=~/x`: bash expands the tilde after `=`).
        // A URL that is a local path (`git clone /other/repo`, `file:///x`) reads it;
        // so does a package spec that is one (`npm install ../x`, `file:../x`, `pip
        // install "$DIR"`): the package manager reads the folder and runs its
        // install scripts.
        let local_url = match role {
            Some(ArgRole::Url) => word
                .value()
                .is_some_and(|v| v.starts_with(['/', '~', '.']) || v.starts_with("file://")),
            Some(ArgRole::Package) => local_package(word),
            // `gio cat file:///x`: a program nobody listed given a file URI.
            None | Some(ArgRole::Argument) => word
                .value()
                .is_some_and(|v| v.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("file:"))),
            _ => false,
        };
        if !local_url
            && role.is_some_and(|r| r.is_text() && !matches!(r, ArgRole::Config | ArgRole::Env))
        {
            continue;
        }
        // `ln -s TARGET LINK`: a relative target is relative to the link's folder,
        // not to the cwd; only absolute, home or variable targets are judged.
        if role == Some(ArgRole::LinkTarget)
            && word
                .value()
                .is_some_and(|v| !v.starts_with(['/', '~', '$']))
        {
            continue;
        }
        let option_value = roles.iter().any(|a| a.index == *index && a.option_value);
        let written = role.is_some_and(ArgRole::writes)
            && !(last_is_written && target_dir.is_some() && Some(*index) == last);
        let in_place = given.in_place && role == Some(ArgRole::PathRead) && !option_value;
        let access = if in_place || written {
            Access::Write
        } else if role == Some(ArgRole::Metadata) {
            Access::Metadata
        } else {
            Access::Read
        };
        let file_scheme = word
            .value()
            .filter(|v| v.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("file:")));
        let word = match file_scheme {
            // `file:///x`, `file://localhost/x`, `file:%2e%2e/x`: the path the URI
            // names, escapes decoded.
            Some(uri) if local_url || role.is_some_and(|r| !r.is_text()) => {
                let path = super::paths::file_uri_path(uri);
                let mut named = Word::literal(&path, word.span);
                super::word::split_tilde(&mut named);
                Cow::Owned(named)
            }
            // `git show HEAD:.env`: the file at the revision is read.
            _ if role == Some(ArgRole::Revision) => match super::revisions::path_of(word) {
                Some(path) => Cow::Owned(path),
                None => continue,
            },
            // `qemu-img dd of=/x`, `tool out=/x`: a `key=/path` operand the
            // catalogue gives no role names that path.
            // An argument nobody gave a role (a script's, `pytest -o
            // cache_dir=/x` after an option value it knows as a setting) too.
            _ if matches!(role, None | Some(ArgRole::Argument))
                && let Some(value) = word.value()
                && let Some(k) = setting_path(value).filter(|_| !value.starts_with('-')) =>
            {
                Cow::Owned(sub_word(word, value, k, &value[k..]))
            }
            _ => from_inner_tilde(word),
        };
        if in_place && let Some(backup) = backup_name(args, given.backup, &word) {
            uses.push(backup);
        }
        uses.push(PathUse {
            word,
            access,
            role: if option_value {
                Role::OptionValue
            } else {
                Role::Argument
            },
        });
    }
    uses
}

/// [`given_modes`] of the words, an option word that is a glob (`sed -i/x/*`)
/// read as bash leaves it when it matches no file, as such a word does.
fn modes_of(entry: &'static Entry, args: &[Word], values: &[Option<&str>]) -> Modes {
    let option_glob = |w: &Word| w.value().is_none() && w.static_prefix().starts_with('-');
    if !args.iter().any(option_glob) {
        return given_modes(entry, values);
    }
    let texts: Vec<Option<String>> = args.iter().map(unmatched_glob).collect();
    let values: Vec<Option<&str>> = values
        .iter()
        .zip(&texts)
        .map(|(v, t)| v.or(t.as_deref()))
        .collect();
    given_modes(entry, &values)
}

/// The text of a glob word of literal and quoted parts only, as bash leaves it
/// when it matches no file.
fn unmatched_glob(word: &Word) -> Option<String> {
    let mut out = String::new();
    for part in &word.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => out.push_str(t),
            _ => return None,
        }
    }
    word.has_glob().then_some(out)
}

/// The backup an in-place edit writes of `file` when its suffix holds a `*`
/// (`sed -i'/x/*' f`, `perl -pi'bak/*.orig' f`): each `*` is the file's name, so
/// the backup, a copy of the file as it was, can be written anywhere. A suffix
/// without one is appended to the file's own name, beside it.
fn backup_name(
    args: &[Word],
    backup: Option<(usize, usize)>,
    file: &Word,
) -> Option<PathUse<'static>> {
    let (at, offset) = backup?;
    let flag = args.get(at)?;
    let text = flag
        .value()
        .map(str::to_string)
        .or_else(|| unmatched_glob(flag))?;
    let suffix = text.get(offset..)?;
    if !suffix.contains('*') {
        return None;
    }
    let name = file.value()?.rsplit('/').next()?;
    let path = suffix.replace('*', name);
    let mut word = Word::literal(&path, flag.span);
    super::word::split_tilde(&mut word);
    Some(PathUse {
        word: Cow::Owned(word),
        access: Access::Write,
        role: Role::OptionValue,
    })
}

/// True when a package spec names a local folder or archive rather than a
/// registry name: a path (`./x`, `../x`, `/x`, `~/x`), `file:PATH`, or a value only
/// known at run time that starts with a variable or a tilde (`"$DIR"`).
fn local_package(word: &Word) -> bool {
    match word.value() {
        Some(v) => v.starts_with(['/', '~', '.']) || v.starts_with("file:"),
        None => matches!(
            word.parts.first(),
            Some(Part::Tilde(_) | Part::Variable { .. } | Part::Expansion { .. })
        ),
    }
}

/// `PREFIX=~/x`: bash expands the tilde after `=`, so the path is judged from the
/// tilde on.
fn from_inner_tilde(word: &Word) -> Cow<'_, Word> {
    match word
        .parts
        .iter()
        .skip(1)
        .position(|p| matches!(p, Part::Tilde(_)))
    {
        Some(k) => Cow::Owned(Word::new(
            word.parts[k + 1..].to_vec(),
            word.span,
            word.has_quotes,
        )),
        None => Cow::Borrowed(word),
    }
}

/// `[[ ]]` operators that are not operands.
fn is_operator(v: &str) -> bool {
    matches!(v, "==" | "=" | "!=" | "=~" | "<" | ">" | "&&" | "||" | "!")
}

/// The paths among options passed to another program, `v` (at `offset` in
/// `whole`, the value of `word`), split at its commas: a piece that starts with
/// `/` or `~`, or a path glued to an option ([`glued_path`]).
fn passed_paths<'w>(word: &Word, whole: &str, offset: usize, v: &str, uses: &mut Vec<PathUse<'w>>) {
    let mut start = offset;
    for piece in v.split(',') {
        let inner = if piece.starts_with(['/', '~']) {
            Some(0)
        } else if piece.starts_with('-') {
            glued_path(piece, |_| false)
        } else {
            None
        };
        if let Some(k) = inner {
            uses.push(PathUse {
                word: Cow::Owned(sub_word(word, whole, start + k, &piece[k..])),
                access: Access::Read,
                role: Role::OptionValue,
            });
        }
        start += piece.len() + 1;
    }
}

/// Where a path starting with `/` or `~` begins inside the option word `value`:
/// after a `=`, `:` or `,` inside it (`-Wl,-Map=/x`, `-Xlog:gc:/x`), or right
/// after an option's name that `listed` knows (`-MF/x`, `-include/x`; an unknown
/// name may end inside a relative path, as in `-obuild/x`); `None` when there is
/// none.
fn glued_path(value: &str, listed: impl Fn(&str) -> bool) -> Option<usize> {
    // `-Wl,-Map=../x`: a path up from here after a separator, too.
    if let Some(at) = value.match_indices(['=', ':', ',']).find_map(|(at, _)| {
        let rest = &value[at + 1..];
        (at > 0 && (rest == ".." || rest.starts_with("../"))).then_some(at + 1)
    }) {
        return Some(at);
    }
    let at = value.find(['/', '~'])?;
    let before = value.get(1..at)?;
    let separated = before.ends_with(['=', ':', ',']);
    (at > 1 && (separated || listed(&value[..at]))).then_some(at)
}

/// Where the path starts in a `KEY=PATH` setting given as text (`pycache_prefix=/x`,
/// `link=../x`, `cache_dir=~/x`): a key of letters, digits, `_`, `-` and `.`, and
/// a path that leaves the folder (from `/`, `~` or `..`); `None` otherwise.
pub(crate) fn setting_path(value: &str) -> Option<usize> {
    let (key, path) = value.split_once('=')?;
    let key_ok = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    let leaves = path.starts_with(['/', '~']) || path == ".." || path.starts_with("../");
    (key_ok && leaves && !path.contains(char::is_whitespace)).then_some(key.len() + 1)
}

/// A word looks like a path when it has a `/` or starts with `~` or `.`.
pub fn looks_like_path(v: &str) -> bool {
    v.contains('/') || v.starts_with('~') || v.starts_with('.')
}

/// The path a `key=value` setting names when the catalogue gives its key a path
/// role (`include.path=/tmp/x` for git): the subcommand's keys first, then the
/// program's.
fn config_path<'a>(entry: Option<&Entry>, sub: Option<&Entry>, word: &Word) -> Option<PathUse<'a>> {
    // `cargo --config FILE`: a settings file, read (`~/x.toml` too).
    let settings_file = || PathUse {
        word: Cow::Owned(word.clone()),
        access: Access::Read,
        role: Role::OptionValue,
    };
    let Some(text) = word.value() else {
        return matches!(word.parts.first(), Some(Part::Tilde(_))).then(settings_file);
    };
    let Some((key, file)) = catalogue::setting(text) else {
        return Some(settings_file());
    };
    let key_role = sub
        .and_then(|s| s.config_key_role(key))
        .or_else(|| entry.and_then(|e| e.config_key_role(key)));
    // A key the catalogue gives no role, set to a path that leaves the folder
    // (`pytest -o cache_dir=/x`, `java -Dlog.dir=../x`): judged as that path read.
    let Some(key_role) = key_role else {
        let at = setting_path(text)?;
        return Some(PathUse {
            word: Cow::Owned(sub_word(word, text, at, &text[at..])),
            access: Access::Read,
            role: Role::OptionValue,
        });
    };
    let access = match key_role {
        ArgRole::PathWrite | ArgRole::PathDelete => Access::Write,
        ArgRole::Metadata => Access::Metadata,
        ArgRole::PathRead | ArgRole::PathExec | ArgRole::Directory | ArgRole::ExecDirectory => {
            Access::Read
        }
        _ => return None,
    };
    Some(PathUse {
        word: Cow::Owned(sub_word(word, text, text.len() - file.len(), file)),
        access,
        role: Role::OptionValue,
    })
}

/// A word for the part of `word` (static `value`) from byte `offset` on.
fn sub_word(word: &Word, value: &str, offset: usize, part: &str) -> Word {
    let start = (word.span.end.saturating_sub(value.len()) + offset).min(word.span.end);
    let mut sub = Word::literal(part, Span::new(start, word.span.end));
    super::word::split_tilde(&mut sub);
    sub
}

/// What a command's flags select in its entry: an in-place edit (`sed -i`,
/// `perl -pi`), a mode whose options change role (`tar -x`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Modes {
    /// An in-place flag is given: the operands read are written.
    pub in_place: bool,
    /// The first mode given whose options change role.
    pub options: Option<&'static ModeOptions>,
    /// The in-place flag's backup suffix, when given: the word's index and where
    /// the suffix starts in it (`-i.bak`, `--in-place=bak/*`, `-pi'/x/*'`).
    pub backup: Option<(usize, usize)>,
}

/// True when `flag` is the short flag `-c`.
fn is_short(flag: &str, c: char) -> bool {
    let mut chars = flag.chars();
    chars.next() == Some('-') && chars.next() == Some(c) && chars.next().is_none()
}

/// Reads `values` (the words after the program; `None` for a dynamic word) for the
/// entry's in-place flags and mode flags, the way getopt would: `-i`,
/// `--in-place`, `--in-place=.bak`, `-i.bak` and `-pi` (an in-place letter in a
/// cluster takes the rest as its backup suffix), `tar -xzf`; an option's value is
/// never a flag, and for an entry whose options end at the first operand
/// (`perl -e CODE FILE -i`) the words after it are not read.
pub fn given_modes(entry: &'static Entry, values: &[Option<&str>]) -> Modes {
    let mut out = Modes::default();
    if entry.in_place.is_empty() && entry.mode_options.is_empty() {
        return out;
    }
    let mut i = 0;
    while let Some(word) = values.get(i) {
        i += 1;
        let Some(w) = *word else { continue };
        if w == "--" {
            break;
        }
        if w.len() < 2 || !w.starts_with('-') {
            if entry.options_after_operands {
                continue;
            }
            break;
        }
        if w.starts_with("--") || !entry.clustering {
            let name = w.split_once('=').map_or(w, |(n, _)| n);
            if entry.in_place.contains(&name) {
                out.in_place = true;
                if w.len() > name.len() + 1 {
                    out.backup = Some((i - 1, name.len() + 1));
                }
            } else if let Some(m) = entry.mode_options.iter().find(|m| m.flags.contains(&name)) {
                out.options.get_or_insert(m);
            } else if !w.contains('=')
                && entry.option(name).is_some()
                && !entry.only_abbreviates(name)
            {
                // A prefix of a listed option may be a flag of its own: the next
                // word is read too.
                i += 1;
            }
            continue;
        }
        for (at, c) in w.char_indices().skip(1) {
            if entry.in_place.iter().any(|f| is_short(f, c)) {
                out.in_place = true;
                let rest = at + c.len_utf8();
                if rest < w.len() {
                    out.backup = Some((i - 1, rest));
                }
                break;
            }
            if let Some(m) = entry
                .mode_options
                .iter()
                .find(|m| m.flags.iter().any(|f| is_short(f, c)))
            {
                out.options.get_or_insert(m);
            }
            if entry.short_takes_value(c) {
                if at + c.len_utf8() == w.len() {
                    i += 1;
                }
                break;
            }
        }
    }
    out
}

/// The words that are values of the options `mode` gives a role of its own, with
/// that role: `tar -czf OUT` → `OUT` is written.
fn mode_values(
    entry: &Entry,
    mode: &ModeOptions,
    values: &[Option<&str>],
) -> Vec<(usize, ArgRole)> {
    let mut out = Vec::new();
    let in_mode = |name: &str| mode.options.iter().find(|o| o.names.contains(&name));
    let mut i = 0;
    while let Some(word) = values.get(i) {
        let index = i;
        i += 1;
        let Some(w) = *word else { continue };
        if w == "--" {
            break;
        }
        if w.len() < 2 || !w.starts_with('-') {
            continue;
        }
        if w.starts_with("--") || !entry.clustering {
            let (name, attached) = match w.split_once('=') {
                Some((n, _)) => (n, true),
                None => (w, false),
            };
            if let Some(o) = in_mode(name) {
                out.push((if attached { index } else { i }, o.role));
            }
            if !attached
                && (in_mode(name).is_some()
                    || (entry.option(name).is_some() && !entry.only_abbreviates(name)))
            {
                i += 1;
            }
            continue;
        }
        for (at, c) in w.char_indices().skip(1) {
            let own = mode
                .options
                .iter()
                .find(|o| o.names.iter().any(|n| is_short(n, c)));
            if own.is_none() && !entry.short_takes_value(c) {
                continue;
            }
            let last = at + c.len_utf8() == w.len();
            if let Some(o) = own {
                out.push((if last { i } else { index }, o.role));
            }
            if last {
                i += 1;
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::built_in_project;

    /// The path uses of the first command of `source`, as (text, access).
    fn uses_of(source: &str) -> Vec<(String, Access)> {
        let model = built_in_project(source);
        let cmd = model.commands.first().expect("one command");
        path_uses(cmd)
            .into_iter()
            .map(|u| (u.word.value().unwrap_or("?").to_string(), u.access))
            .collect()
    }

    #[test]
    fn a_confined_loop_variable_names_each_of_the_loops_words() {
        let uses = uses_of("for f in .env a.txt; do cat \"$f\"; done");
        assert!(
            uses.contains(&(".env".to_string(), Access::Read)),
            "{uses:?}"
        );
        assert!(
            uses.contains(&("a.txt".to_string(), Access::Read)),
            "{uses:?}"
        );
        let written = uses_of("for f in a.txt; do echo x > \"out/$f\"; done");
        assert!(
            written.contains(&("out/a.txt".to_string(), Access::Write)),
            "{written:?}"
        );
        // Not confined (an absolute word): the variable stays unknown, no word
        // stands in for it.
        let unknown = uses_of("for f in /etc/passwd; do cat \"$f\"; done");
        assert_eq!(unknown, [("?".to_string(), Access::Read)]);
    }

    fn access_of(source: &str, path: &str) -> Option<Access> {
        uses_of(source)
            .into_iter()
            .find(|(p, _)| p == path)
            .map(|(_, a)| a)
    }

    /// Every spelling of an in-place flag an entry declares: `-i`, `-i.bak`, in a
    /// cluster after another flag, `--in-place`, `--in-place=.bak`.
    fn spellings(flag: &str) -> Vec<String> {
        if let Some(long) = flag.strip_prefix("--") {
            vec![format!("--{long}"), format!("--{long}=.bak")]
        } else {
            vec![
                flag.to_string(),
                format!("{flag}.bak"),
                format!("-n{}", &flag[1..]),
            ]
        }
    }

    #[test]
    fn every_in_place_spelling_writes_the_operand() {
        let entries: Vec<_> = catalogue::entries()
            .iter()
            .filter(|e| !e.in_place.is_empty())
            .collect();
        assert!(entries.len() >= 2, "sed and perl at least");
        for entry in entries {
            // The program's code first (an option for perl, an operand for sed).
            // The option whose value is the program's code, if it has one.
            let option = entry
                .options
                .iter()
                .find(|o| matches!(o.role, ArgRole::Code(_)))
                .and_then(|o| o.names.first());
            let code = match option {
                Some(name) => format!("{name} 's/a/b/'"),
                None => "'s/a/b/'".to_string(),
            };
            for flag in entry.in_place {
                for spelled in spellings(flag) {
                    let source = format!("{} {spelled} {code} /etc/hosts", entry.name);
                    assert_eq!(
                        access_of(&source, "/etc/hosts"),
                        Some(Access::Write),
                        "{source}"
                    );
                }
            }
            let plain = format!("{} {code} /etc/hosts", entry.name);
            assert_eq!(
                access_of(&plain, "/etc/hosts"),
                Some(Access::Read),
                "{plain}"
            );
        }
    }

    #[test]
    fn a_backup_suffix_with_a_star_writes_the_file_there() {
        for source in [
            "sed -i'/opt/b/*' s/a/b/ src/x.c",
            "sed -i/opt/b/* s/a/b/ src/x.c",
            "sed --in-place=/opt/b/* s/a/b/ src/x.c",
            "perl -pi'/opt/b/*' -e 's/a/b/' src/x.c",
        ] {
            assert_eq!(
                access_of(source, "/opt/b/x.c"),
                Some(Access::Write),
                "{source}"
            );
        }
        // A suffix without a star is appended beside the file.
        let uses = uses_of("sed -i.bak s/a/b/ src/x.c");
        let written: Vec<_> = uses.iter().filter(|(_, a)| a.writes()).collect();
        assert_eq!(written.len(), 1, "{uses:?}");
        assert_eq!(written[0].0, "src/x.c");
    }

    #[test]
    fn every_mode_option_takes_its_mode_role_in_every_spelling() {
        for entry in catalogue::entries() {
            for mode in entry.mode_options {
                for flag in mode.flags {
                    for option in mode.options {
                        for name in option.names {
                            let written = option.role.writes();
                            let forms = if name.starts_with("--") {
                                vec![format!("{name} /opt/v"), format!("{name}=/opt/v")]
                            } else {
                                vec![format!("{name} /opt/v"), format!("{name}/opt/v")]
                            };
                            for form in forms {
                                // The mode before and after the option.
                                for source in [
                                    format!("{} {flag} {form} src", entry.name),
                                    format!("{} {form} {flag} src", entry.name),
                                ] {
                                    let got = access_of(&source, "/opt/v");
                                    assert_eq!(got.map(Access::writes), Some(written), "{source}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn symbolic_link_targets_in_every_spelling() {
        for flag in ["-s", "--symbolic", "-sf", "-fs"] {
            let relative = format!("ln {flag} ../lib link");
            assert_eq!(access_of(&relative, "../lib"), None, "{relative}");
            assert_eq!(
                access_of(&relative, "link"),
                Some(Access::Write),
                "{relative}"
            );
            let absolute = format!("ln {flag} /etc/passwd link");
            assert_eq!(
                access_of(&absolute, "/etc/passwd"),
                Some(Access::Read),
                "{absolute}"
            );
        }
        // A hard link's source is a path from here.
        assert_eq!(access_of("ln ../lib link", "../lib"), Some(Access::Read));
    }

    #[test]
    fn old_style_clusters_and_text_operands() {
        assert!(access_of("tar cf /opt/a.tar src", "/opt/a.tar").is_some_and(Access::writes));
        assert_eq!(
            access_of("tar tf /opt/a.tar", "/opt/a.tar"),
            Some(Access::Read)
        );
        assert_eq!(access_of("grep -rne /etc/passwd src", "/etc/passwd"), None);
        assert_eq!(access_of("kubectl delete pods", "pods"), None);
        // After a subcommand the catalogue does not know, nobody knows the roles.
        assert_eq!(
            access_of("kubectl frobnicate /etc/x", "/etc/x"),
            Some(Access::Read)
        );
        // A word the catalogue gives no role stays a possible path.
        assert_eq!(access_of("frobnicate pods", "pods"), Some(Access::Read));
    }
}
