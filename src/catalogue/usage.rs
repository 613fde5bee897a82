//! What one use of a program is, read with its catalogue entry: the subcommand it
//! names (`git clean`, `systemctl reboot`, `init 0`) and the facts that hold for
//! this use — the program's, the subcommand's, and those its flags add
//! (`find -delete`, `crontab -r`). Rules judge facts; which subcommand or flag
//! gives a fact is catalogue data.

use super::{Entry, Fact};

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
}

impl Usage {
    /// The use of a program whose words add no facts: its own facts.
    pub fn of_program(entry: &'static Entry) -> Usage {
        Usage {
            subcommand: None,
            subcommand_words: String::new(),
            facts: entry.facts.iter().map(|f| (*f, None)).collect(),
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
/// ## Example
/// `git clean -fd` → subcommand `clean`, facts `deletes-files` (from `-f`).
pub fn usage(entry: &'static Entry, args: &[Option<&str>]) -> Usage {
    let mut facts: Vec<(Fact, Option<String>)> = entry.facts.iter().map(|f| (*f, None)).collect();
    let mut current = entry;
    let mut words = Vec::new();
    let mut from = 0;
    // Each level: the first word that is not an option (nor an option's value)
    // names a subcommand when the entry has one of that name.
    while let Some(at) = first_operand(current, args, from) {
        let Some(name) = args.get(at).copied().flatten() else {
            break;
        };
        let Some(sub) = current.subcommand(name) else {
            break;
        };
        let before = args.get(from..at).unwrap_or_default();
        flag_facts(current, before, &mut facts);
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
    flag_facts(current, args.get(from..).unwrap_or_default(), &mut facts);
    Usage {
        subcommand: (!std::ptr::eq(current, entry)).then_some(current),
        subcommand_words: words.join(" "),
        facts,
    }
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
                    return name == bare && value == Some(wanted);
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
                            .is_some_and(|letter| in_cluster(entry, word, letter)))
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
