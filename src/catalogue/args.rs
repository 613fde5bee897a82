//! Reading a command's arguments with its catalogue entry, the way getopt would:
//! which words are options, which are option values (and their role), which are
//! operands (and their role).

use super::{Entry, Fact, Role};
use std::rc::Rc;

/// The static values of a command's words, as [`classify`] and
/// [`super::usage`] read them (`None` for a word only known at run time). Checks
/// read them many times per command, and most commands have a few words: up to
/// eight are kept without an allocation.
pub type Values<'a> = smallvec::SmallVec<[Option<&'a str>; 8]>;

/// One argument with a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Index of the word in the slice given to [`classify`].
    pub index: usize,
    /// Its role.
    pub role: Role,
    /// Byte offset of the value inside the word (`--output=x` → 9, `-ox` → 2);
    /// 0 for a whole word.
    pub offset: usize,
    /// True for an option's value, false for an operand.
    pub option_value: bool,
}

/// `NAME=value` with a valid shell name (a letter or `_`, then letters, digits,
/// `_`): an assignment, where a program's words can hold one (`env`, `cross-env`).
pub fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

/// Reads `args` (the words after the program, as static text; `None` for a word
/// only known at run time) with `entry`'s option table. Returns the arguments that
/// have a role; an option the table does not know is taken as a flag. A dynamic
/// word is an operand. Once an operand has the role `Command` or `ShellWords`,
/// the rest of the words belong to it and are not classified further.
///
/// ## Example
/// `grep -e PAT -r src` → `PAT` is a pattern (option value), `src` a path read.
///
/// The reading depends only on the entry and the words, and the checks of one
/// command ask for the same one several times: the last few readings on this
/// thread are kept (`memo`) and given again.
/// The list is shared with the memo: a caller only reads it, and most readings
/// are recalled, not worked out, so a recalled one costs no copy.
pub fn classify(entry: &Entry, args: &[Option<&str>]) -> Rc<Vec<Arg>> {
    if let Some(found) = memo::recall(entry, args) {
        return found;
    }
    let out = Rc::new(fresh_reading(entry, args));
    memo::keep(entry, args, Rc::clone(&out));
    out
}

/// The reading of `args` with `entry`, worked out (not recalled).
fn fresh_reading(entry: &Entry, args: &[Option<&str>]) -> Vec<Arg> {
    let mut out = read(entry, args, None);
    for arg in &mut out {
        if arg.role == Role::PathWriteOrPipe {
            piped_or_written(arg, args);
        }
    }
    // A word read twice, as the value of an option read only as a prefix of a
    // listed one and as itself: its own reading first, as readers take the first.
    let twice = |arg: &Arg| {
        arg.option_value
            && arg.offset == 0
            && out.iter().filter(|b| b.index == arg.index).count() > 1
    };
    if out.iter().any(twice) {
        let (own, values): (Vec<Arg>, Vec<Arg>) = out.iter().partition(|a| !twice(a));
        out = own.into_iter().chain(values).collect();
    }
    out
}

/// A [`Role::PathWriteOrPipe`] value read: shell text after a leading `|` or `!`
/// (`strace -o '|CMD'`), else a file written (a value only known at run time too,
/// whose path is then unknown).
fn piped_or_written(arg: &mut Arg, args: &[Option<&str>]) {
    let value = args
        .get(arg.index)
        .copied()
        .flatten()
        .and_then(|w| w.get(arg.offset..));
    if value.is_some_and(|v| v.starts_with(['|', '!'])) {
        arg.role = Role::Shell;
        arg.offset += 1;
    } else {
        arg.role = Role::PathWrite;
    }
}

/// [`classify`] without the memo. `global`: the nearest program above whose
/// options count after its subcommands' names too ([`Entry::global_options`]).
fn read(entry: &Entry, args: &[Option<&str>], global: Option<&Entry>) -> Vec<Arg> {
    // An option the subcommand does not know, nor lists as a flag of its own
    // (`kubectl logs -f`: follow), may be one of the program's.
    let option = |name: &str| {
        entry.option(name).or_else(|| {
            global
                .filter(|_| !entry.flags.contains(&name))?
                .option(name)
        })
    };
    let short_option = |c: char| {
        let own_flag = || {
            entry
                .flags
                .iter()
                .any(|f| f.len() == 2 && f.starts_with('-') && f.ends_with(c))
        };
        entry
            .short_option(c)
            .or_else(|| global.filter(|_| !own_flag())?.short_option(c))
    };
    let mut out = Vec::new();
    let mut operands: Vec<usize> = Vec::new();
    let mut options_done = false;
    let mut mode: Option<&'static [Role]> = None;
    // The first operand was an unknown option's value: the next may still name
    // the subcommand.
    let mut unknown_value = false;
    let mut i = 0;
    while i < args.len() {
        let index = i;
        i += 1;
        let word = args[index];
        // `capsh -- -c CMD`: an entry whose subcommand is `--` reads the words after
        // it with that subcommand's entry (there, bash's arguments).
        let dash_dash_subcommand =
            word == Some("--") && !options_done && entry.subcommand("--").is_some();
        let is_option = !options_done
            && !dash_dash_subcommand
            && word.is_some_and(|w| w.len() > 1 && (w.starts_with('-') || w.starts_with('+')))
            && (entry.options_after_operands || operands.is_empty());
        if word == Some("--") && !options_done && !dash_dash_subcommand {
            options_done = true;
            continue;
        }
        // `env -`, `su -`: a lone `-` the entry lists as a flag is an option, not an
        // operand (elsewhere it names stdin, or the program `-`).
        if !options_done && word == Some("-") && entry.flags.contains(&"-") {
            continue;
        }
        let Some(w) = word.filter(|_| is_option) else {
            // The subcommand: an operand in that role, or the first operand of an
            // entry that has subcommands when it names one (`yq eval EXPR`, where
            // a bare `yq EXPR` is the same as `yq eval EXPR`).
            // Under a mode only that mode's subcommand place counts (`cmake -E env`).
            let subcommand_place = operand_role(entry, mode, operands.len())
                == Some(Role::Subcommand)
                || (mode.is_none()
                    && (operands.is_empty() || std::mem::take(&mut unknown_value))
                    && !entry.subcommands.is_empty());
            if subcommand_place && let Some(sub) = word.and_then(|w| entry.subcommand(w)) {
                // `microk8s kubectl get pods`: the subcommand's word is the
                // program that runs, the words after it its arguments.
                if sub.has(Fact::ProgramSubcommands) {
                    out.push(Arg {
                        index,
                        role: Role::Command,
                        offset: 0,
                        option_value: false,
                    });
                    return finish(entry, mode, &operands, out);
                }
                // `git commit -m MSG`: the rest is read with the subcommand's entry.
                out.push(Arg {
                    index,
                    role: Role::Subcommand,
                    offset: 0,
                    option_value: false,
                });
                let global = if entry.global_options {
                    Some(entry)
                } else {
                    global
                };
                let rest = read(sub, &args[index + 1..], global);
                out.extend(rest.into_iter().map(|a| Arg {
                    index: a.index + index + 1,
                    ..a
                }));
                return finish(entry, mode, &operands, out);
            }
            // `pip --timeout 5 install x`: an option the entry does not know took
            // the first operand as its value
            // ([`Entry::subcommand_after_unknown_value`]); it stays an operand.
            if subcommand_place
                && mode.is_none()
                && operands.is_empty()
                && entry.subcommand_after_unknown_value(args, index).is_some()
            {
                operands.push(index);
                unknown_value = true;
                continue;
            }
            // `cmake -E env A=1 CMD`, `cross-env A=1 CMD`: an entry that takes
            // `NAME=VALUE` words before its command reads them as variables.
            if entry.assignments
                && operand_role(entry, mode, operands.len()) == Some(Role::Command)
                && word.is_some_and(is_assignment)
            {
                out.push(Arg {
                    index,
                    role: Role::Env,
                    offset: 0,
                    option_value: false,
                });
                continue;
            }
            operands.push(index);
            if let Some(role) = operand_role(entry, mode, operands.len() - 1)
                && (matches!(role, Role::Command | Role::ShellWords)
                    || (role == Role::Subcommand
                        && mode.is_none()
                        && entry.has(Fact::ProgramSubcommands)))
            {
                break;
            }
            continue;
        };
        if let Some(m) = entry
            .modes
            .iter()
            .find(|m| mode_flag_given(entry, m.flags, w))
        {
            mode = Some(m.operands);
        }
        if let Some(command) = w.strip_prefix('+')
            && let Some(option) = entry.option("+")
        {
            // `vim +CMD`, `less +CMD`: the value is attached; `+42` (a line) and
            // `+/text` (a search) run nothing.
            let runs_nothing =
                command.bytes().all(|b| b.is_ascii_digit()) || command.starts_with(['/', '?']);
            if !runs_nothing {
                out.push(Arg {
                    index,
                    role: option.role,
                    offset: 1,
                    option_value: true,
                });
            }
            continue;
        }
        if w.starts_with("--") || !entry.clustering || w.starts_with('+') {
            let (name, mut attached) = match w.split_once('=') {
                Some((n, _)) => (n, Some(n.len() + 1)),
                None => (w, None),
            };
            // `mvn -Dkey=value`, `gcc -B/tmp`, `gcc -ofile`: a one-letter option
            // with its value attached, in a program whose options do not cluster
            // (a longer option of the same letter is matched whole first).
            let mut found = option(name);
            // `java -javaagent:JAR`: a spelling that ends in `:` takes its value
            // after the colon.
            if found.is_none()
                && let Some((spec, length)) = entry.colon_option(w)
            {
                attached = Some(length);
                found = Some(spec);
            }
            if found.is_none()
                && !w.starts_with("--")
                && w.starts_with('-')
                && let Some(short) = w.get(..2)
                && w.len() > 2
                && let Some(short) = option(short)
            {
                attached = Some(2);
                found = Some(short);
            }
            if let Some(option) = found {
                let role = option.role;
                // Read as a prefix of a listed option (`--test` of node's
                // `--test-reporter`), the word may as well be an option of its
                // own the catalogue does not list, which takes no value: the next
                // word is read both ways, as this option's value and as itself.
                let abbreviation = attached.is_none() && !option.names.contains(&name);
                match attached {
                    Some(offset) => out.push(Arg {
                        index,
                        role,
                        offset,
                        option_value: true,
                    }),
                    None if i < args.len() => {
                        out.push(Arg {
                            index: i,
                            role,
                            offset: 0,
                            option_value: true,
                        });
                        if !abbreviation {
                            i += 1;
                        }
                    }
                    None => {}
                }
                if !abbreviation {
                    i = more_values(option.more, args, i, &mut out);
                }
            }
            continue;
        }
        // A short cluster: `-xvf FILE`, `-oFILE`.
        for (at, c) in w.char_indices().skip(1) {
            if let Some(m) = entry.modes.iter().find(|m| {
                m.flags
                    .iter()
                    .any(|f| f.len() == 2 && f.ends_with(c) && f.starts_with('-'))
            }) {
                mode = Some(m.operands);
            }
            if let Some(option) = short_option(c) {
                let role = option.role;
                let rest = at + c.len_utf8();
                if rest < w.len() {
                    out.push(Arg {
                        index,
                        role,
                        offset: rest,
                        option_value: true,
                    });
                } else if i < args.len() {
                    out.push(Arg {
                        index: i,
                        role,
                        offset: 0,
                        option_value: true,
                    });
                    i += 1;
                }
                i = more_values(option.more, args, i, &mut out);
                break;
            }
        }
    }
    finish(entry, mode, &operands, out)
}

/// True when the option word `word` is one of a mode's `flags`: as spelled, or as
/// a long-option prefix getopt_long accepts (`ln --sym` for `--symbolic`) when the
/// entry does not list the word under its own name.
fn mode_flag_given(entry: &Entry, flags: &[&str], word: &str) -> bool {
    if flags.contains(&word) {
        return true;
    }
    word.len() >= 3
        && word.starts_with("--")
        && !word.contains('=')
        && !entry.flags.contains(&word)
        && entry.option(word).is_none()
        && flags
            .iter()
            .any(|f| f.starts_with("--") && f.starts_with(word))
}

/// The words after an option's first value that are values too (`--bind SRC
/// DEST`): each takes its role in turn. Returns the index after them.
fn more_values(roles: &[Role], args: &[Option<&str>], mut i: usize, out: &mut Vec<Arg>) -> usize {
    for role in roles {
        if i >= args.len() {
            break;
        }
        out.push(Arg {
            index: i,
            role: *role,
            offset: 0,
            option_value: true,
        });
        i += 1;
    }
    i
}

/// Gives the operands their roles, in word order with the option values.
fn finish(
    entry: &Entry,
    mode: Option<&'static [Role]>,
    operands: &[usize],
    mut out: Vec<Arg>,
) -> Vec<Arg> {
    let count = operands.len();
    let mut unknown_subcommand = false;
    for (position, &index) in operands.iter().enumerate() {
        let role = match mode {
            Some(roles) => roles.get(position).or(roles.last()).copied(),
            None => entry.operand_role(position, count),
        };
        // After a subcommand the catalogue does not know, a word that would be text
        // has no known role (a possible path); one that runs something still runs.
        if unknown_subcommand && !role.is_some_and(Role::runs) {
            continue;
        }
        // A subcommand the catalogue does not know is still a subcommand name (never
        // a path) at its own position; the words after it, read with no entry,
        // have no role.
        if role == Some(Role::Subcommand) {
            if mode.is_none() && entry.operands.get(position) == Some(&Role::Subcommand) {
                // `pnpm sh -c …`: a word naming no subcommand runs as a program
                // (the catalogue's `program-subcommands`); the rest is its.
                let runs = entry.has(Fact::ProgramSubcommands);
                out.push(Arg {
                    index,
                    role: if runs {
                        Role::Command
                    } else {
                        Role::Subcommand
                    },
                    offset: 0,
                    option_value: false,
                });
                if runs {
                    break;
                }
                unknown_subcommand = true;
            }
            continue;
        }
        if let Some(role) = role {
            out.push(Arg {
                index,
                role,
                offset: 0,
                option_value: false,
            });
        }
    }
    out.sort_by_key(|a| a.index);
    out
}

/// The last readings [`classify`] gave on this thread, by entry and words. An
/// entry is `'static` (built-in, or a user table kept for the whole process), so
/// its address names it; the words are kept as bytes and compared whole.
mod memo {
    use super::{Arg, Entry};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Readings kept.
    const SLOTS: usize = 4;
    /// Longest encoded word list kept (bytes); longer ones are read every time.
    const LONGEST: usize = 2048;

    #[derive(Default)]
    struct Slot {
        /// The entry's address; 0 for an empty slot.
        entry: usize,
        /// The words, encoded by [`encode`].
        words: Vec<u8>,
        /// Their reading, shared with the callers that only read it.
        out: Rc<Vec<Arg>>,
    }

    #[derive(Default)]
    struct Memo {
        slots: [Slot; SLOTS],
        /// The slot the next reading replaces.
        next: usize,
    }

    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
    }

    /// Bytes before a static word's text: a tag and its length (8 bytes).
    const HEAD: usize = 9;

    /// `words` as bytes that tell every list apart: per word a tag (0 for a
    /// dynamic word, 1 for a static one), then for a static word its length (8
    /// bytes) and its text. `false` when longer than [`LONGEST`].
    fn encode(words: &[Option<&str>], into: &mut Vec<u8>) -> bool {
        into.clear();
        for word in words {
            match word {
                None => into.push(0),
                Some(text) => {
                    into.push(1);
                    into.extend_from_slice(&(text.len() as u64).to_le_bytes());
                    into.extend_from_slice(text.as_bytes());
                }
            }
            if into.len() > LONGEST {
                return false;
            }
        }
        true
    }

    /// True when `encoded` is the encoding of `words` ([`encode`]), compared in place.
    fn same(encoded: &[u8], words: &[Option<&str>]) -> bool {
        let mut rest = encoded;
        for word in words {
            match word {
                None => match rest.split_first() {
                    Some((0, tail)) => rest = tail,
                    _ => return false,
                },
                Some(text) => {
                    let Some((head, tail)) = rest.split_at_checked(HEAD) else {
                        return false;
                    };
                    let mut length = [0; 8];
                    length.copy_from_slice(&head[1..]);
                    if head[0] != 1 || u64::from_le_bytes(length) != text.len() as u64 {
                        return false;
                    }
                    match tail.split_at_checked(text.len()) {
                        Some((kept, tail)) if kept == text.as_bytes() => rest = tail,
                        _ => return false,
                    }
                }
            }
        }
        rest.is_empty()
    }

    /// The kept reading of `words` with `entry`, if any.
    pub(super) fn recall(entry: &Entry, words: &[Option<&str>]) -> Option<Rc<Vec<Arg>>> {
        let address = entry as *const Entry as usize;
        MEMO.with(|memo| {
            let memo = memo.try_borrow().ok()?;
            memo.slots
                .iter()
                .find(|s| s.entry == address && same(&s.words, words))
                .map(|s| Rc::clone(&s.out))
        })
    }

    /// Keeps the shared `out` as the reading of `words` with `entry`, in place of
    /// the oldest.
    pub(super) fn keep(entry: &Entry, words: &[Option<&str>], out: Rc<Vec<Arg>>) {
        keep_with(entry, words, |kept| *kept = out);
    }

    /// Takes the oldest slot for `words` with `entry`, its reading set by `set`.
    fn keep_with(entry: &Entry, words: &[Option<&str>], set: impl FnOnce(&mut Rc<Vec<Arg>>)) {
        let address = entry as *const Entry as usize;
        MEMO.with(|memo| {
            let Ok(mut memo) = memo.try_borrow_mut() else {
                return;
            };
            let Memo { slots, next } = &mut *memo;
            let Some(slot) = slots.get_mut(*next) else {
                return;
            };
            if !encode(words, &mut slot.words) {
                // Too long to keep: the slot stays empty.
                slot.entry = 0;
                return;
            }
            slot.entry = address;
            set(&mut slot.out);
            *next = (*next + 1) % SLOTS;
        });
    }
}

fn operand_role(entry: &Entry, mode: Option<&'static [Role]>, position: usize) -> Option<Role> {
    match mode {
        Some(roles) => roles.get(position).or(roles.last()).copied(),
        None => entry
            .operands
            .get(position)
            .or(entry.operands.last())
            .copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::lookup;

    fn roles(program: &str, args: &[&str]) -> Vec<(usize, &'static str)> {
        let words: Vec<Option<&str>> = args.iter().map(|a| Some(*a)).collect();
        classify(lookup(program).unwrap(), &words)
            .iter()
            .map(|a| (a.index, a.role.as_str()))
            .collect()
    }

    #[test]
    fn a_global_option_counts_after_the_subcommand() {
        // `npm install x --prefix DIR`: npm's option, read in the subcommand.
        let after = roles("npm", &["install", "x", "--prefix", "/tmp/p"]);
        assert!(after.contains(&(3, "directory")), "{after:?}");
        let before = roles("npm", &["--prefix", "/tmp/p", "install", "x"]);
        assert!(before.contains(&(1, "directory")), "{before:?}");
        // git's options do not: `git log -C` is the log's own flag.
        let git = roles("git", &["log", "-C", "/tmp/p"]);
        assert!(!git.iter().any(|&(_, role)| role == "directory"), "{git:?}");
    }

    #[test]
    fn a_shared_reading_is_the_reading_and_is_never_changed_under_its_holder() {
        let cp = lookup("cp").unwrap();
        let words = [Some("-r"), Some("a"), Some("dest")];
        let held = classify(cp, &words);
        assert_eq!(*held, fresh_reading(cp, &words));
        // Asked again, the memo gives the list it keeps, not a copy.
        assert!(Rc::ptr_eq(&held, &classify(cp, &words)));
        // Other readings take every slot in turn, the held one's too: the held
        // list stays as it was.
        let before = held.to_vec();
        for n in 0..12 {
            let other = [Some("x"), Some(if n % 2 == 0 { "y" } else { "z" })];
            let name = format!("f{n}");
            let other = [other[0], other[1], Some(name.as_str())];
            classify(cp, &other);
        }
        assert_eq!(*held, before);
        assert_eq!(*classify(cp, &words), before);
    }

    #[test]
    fn grep_pattern_then_paths() {
        assert_eq!(
            roles("grep", &["-n", "/usr/local/bin", "Dockerfile"]),
            vec![(1, "pattern"), (2, "path-read")]
        );
    }

    #[test]
    fn tar_clustered_file_value() {
        let got = roles("tar", &["-xzf", "a.tgz", "-C", "out"]);
        assert!(got.contains(&(1, "path-read")), "{got:?}");
        assert!(got.contains(&(3, "directory")), "{got:?}");
    }

    #[test]
    fn command_operand_swallows_the_rest() {
        assert_eq!(
            roles("timeout", &["-s", "KILL", "5", "rm", "-rf", "x"]),
            vec![(1, "signal"), (2, "text"), (3, "command")]
        );
    }

    #[test]
    fn cp_last_operand_is_written() {
        assert_eq!(
            roles("cp", &["-r", "a", "b", "dest"]),
            vec![(1, "path-read"), (2, "path-read"), (3, "path-write")]
        );
    }

    #[test]
    fn subcommands_read_the_rest() {
        assert_eq!(
            roles("git", &["-C", "x", "commit", "-m", "/etc/passwd", "a.rs"]),
            vec![
                (1, "directory"),
                (2, "subcommand"),
                (4, "text"),
                (5, "path-read")
            ]
        );
        assert_eq!(
            roles("git", &["frobnicate", "/etc/x"]),
            vec![(0, "subcommand")]
        );
    }

    #[test]
    fn an_unknown_option_before_the_subcommand_may_take_a_value() {
        // `--timeout` is not in pip's table: its value stands where the
        // subcommand does, and the subcommand after it is read.
        assert_eq!(
            roles("pip", &["--timeout", "5", "install", "-t", "/tmp/x", "y"]),
            vec![
                (1, "subcommand"),
                (2, "subcommand"),
                (4, "directory"),
                (5, "package")
            ]
        );
        // A word after an unknown option that names no subcommand either stays
        // the operand it was.
        assert_eq!(
            roles("pip", &["--timeout", "5", "/etc/x"]),
            vec![(1, "subcommand")]
        );
        // A known option's value is skipped as before.
        assert_eq!(
            roles("git", &["-C", "x", "status"]),
            vec![(1, "directory"), (2, "subcommand")]
        );
    }

    #[test]
    fn options_with_two_values_take_both() {
        assert_eq!(
            roles(
                "bwrap",
                &[
                    "--ro-bind",
                    "/usr",
                    "/usr",
                    "--setenv",
                    "A",
                    "/x",
                    "sh",
                    "-c",
                    "id"
                ]
            ),
            vec![
                (1, "path-read"),
                (2, "directory"),
                (4, "text"),
                (5, "text"),
                (6, "command")
            ]
        );
    }

    #[test]
    fn a_mode_flag_changes_operand_roles() {
        assert_eq!(roles("watch", &["-x", "ls", "-l"]), vec![(1, "command")]);
        assert_eq!(roles("watch", &["ls", "-l"]), vec![(0, "shell-words")]);
    }
}
