//! What one use of a program is, read with its catalogue entry: the subcommand it
//! names (`git clean`, `systemctl reboot`, `init 0`) and the facts that hold for
//! this use — the program's, the subcommand's, and those its flags add
//! (`find -delete`, `crontab -r`). Rules judge facts; which subcommand or flag
//! gives a fact is catalogue data.

use super::{Entry, Fact};

/// In a word given to [`usage`]: where a part only known at run time stands
/// (`"$X"`, `--registry=$R`).
pub const RUN_TIME_PART: char = '\u{1a}';

/// One use of a program.
#[derive(Debug)]
pub struct Usage {
    /// The deepest subcommand the words name (`git stash drop` → `drop`).
    pub subcommand: Option<&'static Entry>,
    /// The words naming the subcommands, joined by spaces (`stash drop`).
    pub subcommand_words: String,
    /// The facts of the subcommand (or the program, without one), then those added
    /// by flags, each with the flag as written.
    pub facts: Vec<(Fact, Option<String>)>,
    /// Words that stand where an option can and whose option is only known at run
    /// time (`docker run $OPTS img`, `npm install --$X`), at a level whose flags
    /// add facts: each word's index with one such flag it may be (`--privileged`).
    /// Found only in words spelled with [`RUN_TIME_PART`].
    pub unknown_options: Vec<(usize, &'static str)>,
}

impl Usage {
    /// The use of a program whose words add no facts: its own facts.
    pub fn of_program(entry: &'static Entry) -> Usage {
        Usage {
            subcommand: None,
            subcommand_words: String::new(),
            facts: entry.facts.iter().map(|f| (*f, None)).collect(),
            unknown_options: Vec::new(),
        }
    }

    /// True when the use has the fact, from the entry, the subcommand or a flag.
    pub fn has(&self, fact: Fact) -> bool {
        self.facts.iter().any(|(f, _)| *f == fact)
    }

    /// The flag that gave the fact, as written, when a flag gave it.
    pub fn flag_for(&self, fact: Fact) -> Option<&str> {
        self.facts
            .iter()
            .find(|(f, flag)| *f == fact && flag.is_some())
            .and_then(|(_, flag)| flag.as_deref())
    }
}

/// Reads the use of `entry` with the words after the program (`None`: a word only
/// known at run time). The program's own facts hold with or without a subcommand;
/// a subcommand's facts and each flag's facts are added.
///
/// A word may also spell its parts only known at run time with
/// [`RUN_TIME_PART`]: then an option named before such a part is read as
/// given, with a value that may be any (`--network="$N"` may be
/// `--network=host`), and a word whose option is not named is listed in
/// [`Usage::unknown_options`].
///
/// ## Example
/// `git clean -fd` → subcommand `clean`, facts `deletes-files` (from `-f`).
pub fn usage(entry: &'static Entry, args: &[Option<&str>]) -> Usage {
    let mut facts: Vec<(Fact, Option<String>)> = entry.facts.iter().map(|f| (*f, None)).collect();
    let mut unknown = Vec::new();
    let mut global: Option<&'static Entry> = None;
    let mut current = entry;
    let mut words = Vec::new();
    let mut from = 0;
    // Each level: the first word that is not an option (nor an option's value)
    // names a subcommand when the entry has one of that name.
    while let Some(at) = first_operand(current, args, from) {
        let Some(name) = args.get(at).copied().flatten() else {
            break;
        };
        let (at, sub) = match current.subcommand(name) {
            Some(sub) => (at, sub),
            None => {
                let level = args.get(from..).unwrap_or_default();
                match current.subcommand_after_unknown_value(level, at - from) {
                    Some((next, sub)) => (from + next, sub),
                    None => break,
                }
            }
        };
        let before = args.get(from..at).unwrap_or_default();
        flag_facts(current, before, &mut facts);
        unknown_options(current, global, before, from, &mut unknown);
        if current.global_options {
            global = Some(current);
        }
        // Many programs read their flags anywhere (`npm -g install x` is `npm
        // install -g x`): the subcommand's flags before its name add its facts
        // too, but never make the use read-only (fail closed: a flag there may
        // mean something else to the program).
        let mut early = Vec::new();
        flag_facts(sub, before, &mut early);
        facts.extend(early.into_iter().filter(|(f, _)| *f != Fact::ReadOnly));
        facts.extend(sub.facts.iter().map(|f| (*f, None)));
        words.push(name);
        current = sub;
        from = at + 1;
    }
    let rest = args.get(from..).unwrap_or_default();
    flag_facts(current, rest, &mut facts);
    unknown_options(current, global, rest, from, &mut unknown);
    Usage {
        subcommand: (!std::ptr::eq(current, entry)).then_some(current),
        subcommand_words: words.join(" "),
        facts,
        unknown_options: unknown,
    }
}

/// Adds to `out` the words among `words` (the options of one level of `entry`,
/// `offset` the first one's index in the command) that stand where an option can
/// and whose option is only known at run time, when an option of the level (or
/// of `global`, the nearest program above whose options count here) changes what
/// the command does ([`option_that_matters`]):
/// a word whose start is only known at run time (`"$OPTS"`, `$OPTS`, which may
/// also split into several options) and an option named only in part (`--$X`,
/// `--reg$X`, a short cluster that may go on: `-f$X`). Options end at `--`, at
/// a shell's or interpreter's inline script (`sh -c TEXT`), and at the first
/// operand for a program that reads no options after its operands.
fn unknown_options(
    entry: &Entry,
    global: Option<&'static Entry>,
    words: &[Option<&str>],
    offset: usize,
    out: &mut Vec<(usize, &'static str)>,
) {
    // Most words are static: nothing to look for.
    if !words.iter().flatten().any(|w| w.contains(RUN_TIME_PART)) {
        return;
    }
    let Some(flag) = option_that_matters(entry).or_else(|| global.and_then(option_that_matters))
    else {
        return;
    };
    let mut value_next = false;
    for (at, word) in words.iter().enumerate() {
        let Some(word) = *word else {
            if std::mem::take(&mut value_next) {
                continue;
            }
            if entry.options_after_operands {
                continue;
            }
            break;
        };
        if std::mem::take(&mut value_next) {
            continue;
        }
        if word == "--" {
            break;
        }
        if option_unknown(entry, word) {
            out.push((offset + at, flag));
            continue;
        }
        if word.starts_with('-') && word.len() > 1 {
            value_next = !word.contains('=') && entry.takes_next_word(word);
            // A shell's or interpreter's inline script ends its options: the
            // words after it are the script's arguments (`sh -c TEXT a b`).
            if value_next && (entry.has(Fact::Shell) || entry.interpreter.is_some()) {
                let letter = word.chars().last().unwrap_or('-');
                let role = entry
                    .option(word)
                    .map(|o| o.role)
                    .or_else(|| entry.short_option_role(letter));
                if role.is_some_and(|r| matches!(r, super::Role::Shell | super::Role::Code(_))) {
                    break;
                }
            }
            continue;
        }
        if !entry.options_after_operands {
            break;
        }
    }
}

/// An option of `entry` that changes what the command does: a flag that adds
/// such a fact ([`changes_what_it_does`]), or an option whose value names what
/// runs ([`super::Role::names_what_runs`]: `npm --node-options`).
fn option_that_matters(entry: &Entry) -> Option<&'static str> {
    entry
        .flag_facts
        .iter()
        .find(|spec| spec.facts.iter().copied().any(changes_what_it_does))
        .and_then(|spec| spec.flags.first().copied())
        .or_else(|| {
            entry
                .options
                .iter()
                .find(|o| o.role.names_what_runs())
                .and_then(|o| o.names.first().copied())
        })
}

/// The facts a flag adds that only take a risk away when missing
/// ([`Fact::ReadOnly`]) or change how output is shaped or a path is read, which
/// the path rules judge on their own (`echo -n`, `tee -a`, `chmod -R`, `ln -r`,
/// `ln -T`).
const SHAPE_ONLY: [Fact; 6] = [
    Fact::ReadOnly,
    Fact::NoNewline,
    Fact::Appends,
    Fact::Recursive,
    Fact::RelativeLinkTargets,
    Fact::NoTargetDirectory,
];

/// True for a fact a flag adds that changes what the command does to the
/// machine, its data or its trust: every fact but those that only take a risk
/// away when missing (`read-only`) or change how output is shaped or a path is
/// read (`echo -n`, `tee -a`, `chmod -R`, `ln -r`, `ln -T`). A word that may be
/// an option asks for a program with such a flag ([`Usage::unknown_options`]).
pub fn changes_what_it_does(fact: Fact) -> bool {
    !SHAPE_ONLY.contains(&fact)
}

/// True when a flag of `entry` or of one of its subcommands can add a fact that
/// changes what the command does ([`changes_what_it_does`]): one mask test.
pub fn flags_change_what_it_does(entry: &Entry) -> bool {
    let shape_only = SHAPE_ONLY.iter().fold(0, |mask, f| mask | f.bit());
    entry.flag_fact_mask & !shape_only != 0
}

/// True when the option word `word` (spelled with parts only known at run time)
/// may be an option its static text does not name: see [`unknown_options`].
fn option_unknown(entry: &Entry, word: &str) -> bool {
    if word.starts_with(RUN_TIME_PART) {
        return true;
    }
    let Some(run_time) = word.find(RUN_TIME_PART) else {
        return false;
    };
    let named = &word[..run_time];
    if !named.starts_with('-') || named.contains('=') {
        return false;
    }
    // The static part spells an option whose value follows (`-javaagent:`,
    // `-j`, `-xI` after flags that cluster); else the name goes on at run time
    // (`--$X`, `--reg$X`, `-f$X` where more flags may follow).
    entry.attached_option(named).is_none()
}

/// The level of `entry` whose subcommand is named by a word only known at run time
/// (`git $CMD --force`, `terraform "$1"`, `git --work-tree=$D push`: a dynamic
/// option word where the subcommand may stand is read the same way), with that
/// word's index in `args`; `None` when every subcommand word is static or the
/// entry has none. Every reading of the words keys on the subcommand.
///
/// ## Example
/// `kubectl $VERB ns prod` → kubectl's level, index 0; `kubectl get $KIND` →
/// `None` (`get` has no subcommands).
pub fn dynamic_subcommand(
    entry: &'static Entry,
    args: &[Option<&str>],
) -> Option<(&'static Entry, usize)> {
    let mut level = entry;
    let mut from = 0;
    while !level.subcommands.is_empty() {
        let at = first_operand(level, args, from)?;
        match args.get(at).copied().flatten() {
            None => return Some((level, at)),
            Some(name) => {
                level = level.subcommand(name)?;
                from = at + 1;
            }
        }
    }
    None
}

/// The index of the first operand of `entry` at or after `from`: options and their
/// values skipped, `--` ends the options.
fn first_operand(entry: &Entry, args: &[Option<&str>], from: usize) -> Option<usize> {
    let mut i = from;
    while i < args.len() {
        match args[i] {
            Some("--") => return (i + 1 < args.len()).then_some(i + 1),
            Some(w) if w.starts_with('-') && w.len() > 1 => {
                i += if !w.contains('=') && entry.takes_next_word(w) {
                    2
                } else {
                    1
                };
            }
            _ => return Some(i),
        }
    }
    None
}

/// Adds the facts of the flags of `entry` given among `words` (before `--`): a
/// word spelled as the flag, `--flag=value`, or a short flag inside a cluster
/// (`-fd` gives `-f`) when the entry's short options cluster.
fn flag_facts(entry: &Entry, words: &[Option<&str>], out: &mut Vec<(Fact, Option<String>)>) {
    if entry.flag_facts.is_empty() {
        return;
    }
    let mut skip = false;
    for (at, word) in words.iter().copied().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        let Some(word) = word else { continue };
        if word == "--" {
            break;
        }
        if !word.starts_with('-') {
            // BSD-style letters without a dash (`ps auxe`): a flag spelled as one
            // letter counts in a word made only of letters.
            if word.chars().all(|c| c.is_ascii_alphabetic()) {
                for spec in entry.flag_facts {
                    if let Some(flag) = spec
                        .flags
                        .iter()
                        .find(|f| f.len() == 1 && word.contains(**f))
                    {
                        out.extend(spec.facts.iter().map(|f| (*f, Some((*flag).to_string()))));
                    }
                }
            }
            continue;
        }
        if word.len() < 2 {
            continue;
        }
        let bare = word.split_once('=').map_or(word, |(name, _)| name);
        // An option's value is not a flag (`find -name -delete` names a file).
        skip = !word.contains('=') && entry.takes_next_word(word);
        // The option's value, attached or the next word, for a flag given with
        // one (`--network=host` in the catalogue: `--network host`, `--net=host`).
        let value = match word.split_once('=') {
            Some((_, value)) => Some(value),
            None if skip => words.get(at + 1).copied().flatten(),
            None => None,
        };
        for spec in entry.flag_facts {
            let given = spec.flags.iter().find(|flag| {
                if let Some((name, wanted)) = flag.split_once('=') {
                    return name == bare
                        && value.is_some_and(|v| v == wanted || v.contains(RUN_TIME_PART));
                }
                **flag == bare
                    || (abbreviates(bare, flag) && !names_itself(entry, bare))
                    || (entry.clustering
                        && !word.starts_with("--")
                        && flag.len() == 2
                        && !flag.starts_with("--")
                        && flag
                            .chars()
                            .nth(1)
                            .is_some_and(|letter| in_cluster(entry, word, letter))
                        // A fact that makes the use harmless (`git config -l`) is
                        // not read off a word that is no cluster of the entry's
                        // flags: `git config alias.x '-c a=b log'` stores the word.
                        && (!spec.facts.contains(&Fact::ReadOnly) || plausible_cluster(entry, word)))
            });
            if let Some(flag) = given {
                out.extend(spec.facts.iter().map(|f| (*f, Some((*flag).to_string()))));
            }
        }
    }
}

/// True when `word` is a long-option prefix of `flag` (`--forc` for `--force`):
/// GNU `getopt_long` and git accept unambiguous prefixes (see `Entry::option`).
fn abbreviates(word: &str, flag: &str) -> bool {
    word.len() >= 3 && word.starts_with("--") && flag.starts_with(word)
}

/// True when `word` is an option or flag the entry lists under its own name
/// (`gpg --export` beside `--export-secret-keys`): then it is not an abbreviation.
fn names_itself(entry: &Entry, word: &str) -> bool {
    entry.flags.contains(&word) || entry.options.iter().any(|o| o.names.contains(&word))
}

/// True when the short cluster `word` (`-xvf`) gives `-letter`: the letter comes
/// before any letter that takes a value (whose value is the rest of the word).
fn in_cluster(entry: &Entry, word: &str, letter: char) -> bool {
    for c in word.chars().skip(1) {
        if c == letter {
            return true;
        }
        if entry.short_takes_value(c) {
            return false;
        }
    }
    false
}

/// True when `word` can be a cluster of short flags: letters and digits up to one
/// that takes the rest of the word as its value. A word with a space, `=` or
/// `.` among its letters is no cluster a getopt-style parser accepts; a tool
/// that takes it takes it as a value (`git config alias.x '-c a.b=c log'`).
fn plausible_cluster(entry: &Entry, word: &str) -> bool {
    for c in word.chars().skip(1) {
        if entry.short_takes_value(c) {
            return true;
        }
        if !c.is_ascii_alphanumeric() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::lookup;

    fn of(program: &str, args: &[&str]) -> Usage {
        let words: Vec<Option<&str>> = args.iter().map(|a| Some(*a)).collect();
        usage(lookup(program).unwrap(), &words)
    }

    #[test]
    fn flags_add_facts_in_clusters_and_subcommands() {
        let clean = of("git", &["clean", "-fdx"]);
        assert_eq!(clean.subcommand_words, "clean");
        assert!(clean.has(Fact::DeletesFiles));
        assert_eq!(clean.flag_for(Fact::DeletesFiles), Some("-f"));
        assert!(!of("git", &["clean", "-n"]).has(Fact::DeletesFiles));
        // `-f` before the subcommand is git's, not clean's.
        assert!(!of("git", &["-c", "x=y", "status"]).has(Fact::DeletesFiles));
        assert!(of("find", &[".", "-name", "*.o", "-delete"]).has(Fact::DeletesFiles));
        assert!(!of("find", &[".", "-name", "-delete"]).has(Fact::DeletesFiles));
        assert!(of("crontab", &["-r"]).has(Fact::DestroysData));
        assert!(of("crontab", &["-u", "me", "-l"]).has(Fact::ReadOnly));
        // A query flag in a cluster of known flags; a word that only holds its
        // letter is no query (git stores it as the value).
        assert!(of("git", &["config", "-l"]).has(Fact::ReadOnly));
        let stored = of("git", &["config", "alias.x", "-c user.name=Q log"]);
        assert!(!stored.has(Fact::ReadOnly));
    }

    #[test]
    fn an_option_named_before_a_run_time_part_is_read_as_given() {
        let r = RUN_TIME_PART;
        let network = of("docker", &["run", &format!("--network={r}"), "img"]);
        assert!(network.has(Fact::Privilege));
        let next = of("docker", &["run", "--network", &r.to_string(), "img"]);
        assert!(next.has(Fact::Privilege));
        assert!(!of("docker", &["run", "--network=bridge", "img"]).has(Fact::Privilege));
        let name = of("docker", &["run", &format!("--name={r}"), "img"]);
        assert!(!name.has(Fact::Privilege));
        assert!(name.unknown_options.is_empty());
    }

    #[test]
    fn a_word_that_may_be_any_option_is_listed_where_options_stand() {
        let r = RUN_TIME_PART;
        let whole = r.to_string();
        let listed = |program: &str, args: &[&str]| {
            of(program, args)
                .unknown_options
                .iter()
                .map(|(at, _)| *at)
                .collect::<Vec<_>>()
        };
        // Before the image, not after it: docker reads no options after operands.
        assert_eq!(listed("docker", &["run", &whole, "img"]), [1]);
        assert_eq!(listed("docker", &["run", "img", &whole]), [] as [usize; 0]);
        assert_eq!(
            listed("docker", &["run", "-e", &whole, "img"]),
            [] as [usize; 0]
        );
        assert_eq!(
            listed("docker", &["run", &format!("app:{r}")]),
            [] as [usize; 0]
        );
        // A name known only in part, and a cluster that may go on.
        assert_eq!(listed("npm", &["install", &format!("--{r}")]), [1]);
        assert_eq!(listed("npm", &["install", &format!("--reg{r}")]), [1]);
        assert_eq!(listed("npm", &["install", "--", &whole]), [] as [usize; 0]);
        // An option spelled in full before its value names it.
        assert_eq!(
            listed("npm", &["install", &format!("--registry={r}")]),
            [] as [usize; 0]
        );
        // A program whose options change nothing the rules judge lists nothing.
        assert_eq!(listed("cat", &[&whole]), [] as [usize; 0]);
        let (_, flag) = of("docker", &["run", &whole, "img"]).unknown_options[0];
        assert!(flag.starts_with("--"));
    }

    #[test]
    fn bsd_letters_without_a_dash() {
        assert!(of("ps", &["auxe"]).has(Fact::PrintsEnvironment));
        assert!(of("ps", &["-p", "1", "eww"]).has(Fact::PrintsEnvironment));
        assert!(of("ps", &["-E"]).has(Fact::PrintsEnvironment));
        // `-e` (every process) is another flag; an option's value is no flag.
        assert!(!of("ps", &["-ef"]).has(Fact::PrintsEnvironment));
        assert!(!of("ps", &["aux"]).has(Fact::PrintsEnvironment));
        assert!(!of("ps", &["-C", "nginx"]).has(Fact::PrintsEnvironment));
    }

    #[test]
    fn subcommand_facts() {
        assert!(of("systemctl", &["--no-block", "reboot"]).has(Fact::StopsMachine));
        assert!(of("systemctl", &["status", "nginx"]).has(Fact::ReadOnly));
        assert!(!of("systemctl", &["restart", "nginx"]).has(Fact::ReadOnly));
        assert!(of("init", &["0"]).has(Fact::StopsMachine));
        assert!(of("bun", &["add", "-g", "x"]).has(Fact::InstallsGlobally));
        assert!(!of("bun", &["add", "x"]).has(Fact::InstallsGlobally));
        assert!(!of("init", &["3"]).has(Fact::StopsMachine));
    }
}
