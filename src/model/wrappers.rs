//! Unwrapping wrappers: `sudo`, `env`, `timeout 5`, `xargs`, `nice -n 5 --` ... run
//! another program given in their arguments. The command position is the first word
//! after them, found by parsing each wrapper's options like getopt does, so
//! `sudo -u x env A=1 rm` runs `rm` however the flags are spelled.
//!
//! `find -exec CMD ;` does not hide `find` (it runs too); its commands are reported as
//! embedded ranges. Wrappers that run their arguments through a shell (`watch 'a b'`,
//! `parallel`, `su -c`, `flock -c`, `env -S`) report those words as a script.

use super::command::program_key;
use super::word::Word;
use crate::catalogue::Values;
use crate::catalogue::{self, Arg, Entry, Fact, Role};
use std::ops::Range;

/// What unwrapping found in a command's words.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unwrapped {
    /// Index of the program that runs; `None` when none does (`command -v x`,
    /// `sudo -i`, `chrt -p 5 123`).
    pub program: Option<usize>,
    /// Indices of the wrapper words passed through.
    pub wrappers: Vec<usize>,
    /// Indices of `NAME=value` words given to `env` or `sudo`.
    pub env_assignments: Vec<usize>,
    /// Commands run by `find -exec/-execdir/-ok/-okdir`: word ranges, with the
    /// outer program's name.
    pub embedded: Vec<(String, Range<usize>)>,
    /// Words a wrapper runs as a shell script (joined with spaces).
    pub script: Option<Range<usize>>,
    /// Bytes of the first script word's value that are the option, not the script
    /// (`-Scmd`: 2, `--split-string=cmd`: 15); 0 when the script is a word of its own.
    pub script_offset: usize,
    /// A wrapper or the embedding program returns before what it runs ends (the
    /// catalogue's `detaches`: `setsid -f`, `screen -dm`, `sudo -b`): the program,
    /// embedded commands and script run beside the rest of the command line.
    pub detached: bool,
    /// The program reads a first argument without a dash as flags (the catalogue's
    /// `old_style_flags`: `tar xzf`).
    pub old_style_flags: bool,
}

/// How one wrapper takes its options: read from its catalogue entry.
struct Spec {
    /// The catalogue entry.
    entry: &'static Entry,
    /// Operands between the options and the command (`timeout DURATION cmd`).
    operands: usize,
}

impl Spec {
    fn short_takes_value(&self, c: char) -> bool {
        self.entry.short_takes_value(c)
    }

    fn long_takes_value(&self, name: &str) -> bool {
        self.entry.option_role(name).is_some()
    }

    /// How many words an option takes after its first value (`bwrap --bind SRC
    /// DEST` takes one more).
    fn more_values(&self, name: &str) -> usize {
        self.entry.option(name).map_or(0, |o| o.more.len())
    }

    fn short_more_values(&self, c: char) -> usize {
        self.entry.short_option(c).map_or(0, |o| o.more.len())
    }
}

/// The wrapper entry for a program name as written (normalised like
/// [`program_key`]): a name with a folder other than a system one is a different
/// program (`./sudo` is not `sudo`).
fn spec_of(name: &str) -> Option<Spec> {
    if name.contains('/') {
        return None;
    }
    spec_of_entry(catalogue::lookup(name)?)
}

/// [`spec_of`] for an entry already looked up.
fn spec_of_entry(entry: &'static Entry) -> Option<Spec> {
    if !entry.has(Fact::Wrapper) {
        return None;
    }
    let operands = entry
        .operands
        .iter()
        .take_while(|r| !matches!(r, Role::Command | Role::ShellWords))
        .count();
    Some(Spec { entry, operands })
}

/// The index of the word naming the module `entry` (an interpreter) runs as a
/// program, when that word is one of its own and names a program the catalogue
/// knows: `python3 -m pip install x` runs `pip`, `python -m http.server` the
/// file server. The word after `-m` is the module's name and the words after it
/// are the module's, as `python` reads them. An attached name (`-mpip`) or a
/// module the catalogue does not know (`python3 -m app`, a project module)
/// leaves the interpreter the program.
pub fn module_word(entry: &Entry, words: &[Word], at: usize) -> Option<usize> {
    if !entry.mentions(&[Role::Module]) {
        return None;
    }
    let args = words.get(at + 1..)?;
    let values: Values = args.iter().map(Word::value).collect();
    let (arg, _) = module_named(args, &catalogue::classify(entry, &values))?;
    (arg.offset == 0).then_some(at + 1 + arg.index)
}

/// The word an interpreter's `module` role names (`python -m pip`, `-mpip`,
/// `ruby -S gem`) with the catalogue entry of that program, when the catalogue
/// knows it. `roles`: the interpreter's arguments `args` as its entry reads them.
pub fn module_named(args: &[Word], roles: &[Arg]) -> Option<(Arg, &'static Entry)> {
    let arg = roles.iter().find(|a| a.role == Role::Module)?;
    let name = args.get(arg.index)?.value()?.get(arg.offset..)?;
    Some((*arg, catalogue::lookup(name)?))
}

/// Options parsed from a wrapper's words.
struct Parsed {
    /// Index of the first word after options and operands.
    next: usize,
    /// Short flags seen (values not included).
    flags: Vec<char>,
    /// Long options seen, without any `=value`.
    longs: Vec<String>,
    /// Index of the word holding the value of `-c`/`-S`-like script options, when the
    /// value is a separate word.
    value_of: Vec<(char, Option<usize>)>,
    /// `NAME=value` words.
    assignments: Vec<usize>,
    /// Operands the wrapper takes before the program (`flock FILE`, `timeout 5`).
    operands: Vec<usize>,
}

fn parse_options(words: &[Word], start: usize, spec: &Spec) -> Parsed {
    let mut parsed = Parsed {
        next: start,
        flags: Vec::new(),
        longs: Vec::new(),
        value_of: Vec::new(),
        assignments: Vec::new(),
        operands: Vec::new(),
    };
    let mut i = start;
    let mut operands = 0;
    while i < words.len() {
        let Some(value) = words[i].value() else {
            // `env PATH=$PWD/bin:$PATH cmd`: a dynamic value, but its static
            // `NAME=` prefix still makes it an assignment, not the program.
            if spec.entry.assignments && is_assignment_prefix(&words[i]) {
                parsed.assignments.push(i);
                i += 1;
                continue;
            }
            break;
        };
        if value == "--" {
            i += 1;
            break;
        }
        if let Some(long) = value.strip_prefix("--").filter(|l| !l.is_empty()) {
            let (name, has_value) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            let name = format!("--{name}");
            let takes = spec.long_takes_value(&name);
            let more = spec.more_values(&name);
            parsed.longs.push(name);
            i += if takes && !has_value { 2 } else { 1 } + more;
            continue;
        }
        // `env -` is `env -i`: a lone `-` the entry lists as a flag is an option,
        // not the program to run.
        if value == "-" && spec.entry.flags.contains(&"-") {
            parsed.flags.push('-');
            i += 1;
            continue;
        }
        // `faketime -1d CMD`: a relative time or a negative number in the place of
        // an operand, not a cluster of flags (unless the entry has such a flag).
        if operands < spec.operands
            && let Some(digit) = value
                .strip_prefix('-')
                .and_then(|v| v.chars().next())
                .filter(char::is_ascii_digit)
            && spec.entry.short_option(digit).is_none()
            && !spec.entry.flags.iter().any(|f| {
                f.strip_prefix('-')
                    .is_some_and(|f| f.len() == 1 && f.starts_with(digit))
            })
        {
            operands += 1;
            parsed.operands.push(i);
            i += 1;
            continue;
        }
        if value.len() > 1 && value.starts_with('-') {
            let chars: Vec<char> = value.chars().skip(1).collect();
            let mut step = 1;
            for (k, &c) in chars.iter().enumerate() {
                parsed.flags.push(c);
                if spec.short_takes_value(c) {
                    let attached = k + 1 < chars.len();
                    parsed
                        .value_of
                        .push((c, if attached { None } else { Some(i + 1) }));
                    step = if attached { 1 } else { 2 } + spec.short_more_values(c);
                    break;
                }
            }
            i += step;
            continue;
        }
        if spec.entry.assignments && (is_assignment(value) || is_exported_function(value)) {
            parsed.assignments.push(i);
            i += 1;
            continue;
        }
        if operands < spec.operands {
            operands += 1;
            parsed.operands.push(i);
            i += 1;
            continue;
        }
        break;
    }
    parsed.next = i.min(words.len());
    parsed
}

/// The operands of the wrapper at `words[at]`, read with the same option table that
/// unwraps it: `flock -w 5 FILE cmd` → the index of `FILE`.
pub fn wrapper_operands(words: &[Word], at: usize) -> Vec<usize> {
    let Some(name) = words.get(at).and_then(Word::value) else {
        return Vec::new();
    };
    match spec_of(super::command::basename(name)) {
        Some(spec) => parse_options(words, at + 1, &spec).operands,
        None => Vec::new(),
    }
}

/// A word whose static beginning is `NAME=` (its value may be dynamic).
fn is_assignment_prefix(word: &Word) -> bool {
    match word.parts.first() {
        Some(super::word::Part::Literal(text) | super::word::Part::Quoted(text)) => {
            text.split_once('=').is_some_and(|(name, _)| {
                is_assignment(&format!("{name}=")) || is_exported_function(&format!("{name}="))
            })
        }
        _ => false,
    }
}

pub use crate::catalogue::is_assignment;

/// `BASH_FUNC_NAME%%=() { …; }`: a function exported through the environment, which
/// every bash started with it defines (and runs when NAME is called). `env` passes
/// any name, though the shell itself would not take this one as an assignment.
pub fn is_exported_function(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.strip_prefix("BASH_FUNC_")
            .and_then(|n| n.strip_suffix("%%"))
            .is_some_and(|n| !n.is_empty())
    })
}

/// Finds the program that `words` runs, unwrapping wrappers from `start`.
pub fn unwrap(words: &[Word]) -> Unwrapped {
    let mut out = Unwrapped::default();
    let mut i = 0;
    // A wrapper chain is as long as the words; this bound only guards the loop.
    while i < words.len() {
        let Some(name) = words[i].value().map(program_key) else {
            out.program = Some(i);
            return out;
        };
        // One lookup per word: a name with a `/` is a path, never the catalogue's.
        let found = if name.contains('/') {
            None
        } else {
            catalogue::lookup(name)
        };
        if let Some(entry) = found.filter(|e| !e.embedded_commands.is_empty()) {
            out.program = Some(i);
            out.embedded = embedded_ranges(entry, words, i + 1);
            out.detached |= entry.has(Fact::Detaches);
            return out;
        }
        // `python3 -m pip install x`: the interpreter runs the module as a
        // program the catalogue knows, which is read as that program.
        if let Some(at) = found.and_then(|e| module_word(e, words, i)) {
            out.wrappers.push(i);
            i = at;
            continue;
        }
        let Some(spec) = found.and_then(spec_of_entry) else {
            out.program = Some(i);
            out.embedded = command_option_ranges(found, words, i);
            out.detached |= found.is_some_and(|e| e.has(Fact::Detaches));
            out.old_style_flags = found.is_some_and(|e| e.old_style_flags);
            return out;
        };
        let entry = spec.entry;
        out.wrappers.push(i);
        out.detached |= entry.has(Fact::Detaches);
        // `coproc` is a shell keyword (shell semantics, not a program's option):
        // its optional NAME before a compound command stays named here.
        if entry.name == "coproc"
            && words
                .get(i + 2)
                .and_then(Word::value)
                .is_some_and(|v| v == "{" || v == "(")
        {
            // `coproc NAME { ...; }`: skip the name.
            i += 2;
            continue;
        }
        let parsed = parse_options(words, i + 1, &spec);
        // A first operand naming one of the wrapper's subcommands is that
        // subcommand, not a program it runs: python-dotenv's `dotenv list` shares
        // dotenv-cli's name. The record's program is the wrapper then, and what
        // the subcommand runs (`dotenv run -- CMD`) is read as any command role.
        if words
            .get(parsed.next)
            .and_then(Word::value)
            .is_some_and(|v| entry.subcommand(v).is_some())
        {
            out.wrappers.pop();
            out.program = Some(i);
            out.embedded = command_option_ranges(Some(entry), words, i);
            return out;
        }
        out.env_assignments
            .extend(parsed.assignments.iter().copied());
        let given = |flag: &str| match flag.strip_prefix("--") {
            Some(_) => parsed.longs.iter().any(|x| x == flag),
            None => {
                let mut letters = flag.chars().skip(1);
                match (letters.next(), letters.next()) {
                    (Some(c), None) => parsed.flags.contains(&c),
                    _ => false,
                }
            }
        };
        out.detached |= entry
            .flag_facts
            .iter()
            .any(|f| f.facts.contains(&Fact::Detaches) && f.flags.iter().any(|flag| given(flag)));
        // A mode flag whose operands run nothing (`sudo -l`, `command -v`, `chrt -p`).
        let mode = entry
            .modes
            .iter()
            .find(|m| m.flags.iter().any(|f| given(f)));
        if let Some(mode) = mode
            && !mode.operands.contains(&Role::Command)
        {
            // `entr -s TEXT`: a mode whose operand is shell text.
            if mode.operands.first() == Some(&Role::Shell) && parsed.next < words.len() {
                out.script = Some(parsed.next..parsed.next + 1);
            }
            return out;
        }
        // A wrapper option whose value is shell text (`env -S`, `flock -c`).
        let script_option = entry
            .options
            .iter()
            .filter(|o| o.role == Role::Shell)
            .flat_map(|o| o.names.iter())
            .find_map(|n| {
                let mut letters = n.strip_prefix('-')?.chars();
                let c = letters.next()?;
                letters.next().is_none().then_some(c)
            });
        if let Some((at, offset)) = script_word(words, i + 1, parsed.next, entry) {
            out.script = Some(at..(at + 1).min(words.len()));
            out.script_offset = offset;
            return out;
        }
        if let Some(c) = script_option {
            if let Some(found) = parsed
                .value_of
                .iter()
                .find(|(f, _)| *f == c)
                .map(|(_, idx)| *idx)
            {
                out.script = Some(match found {
                    Some(idx) if idx < words.len() => idx..idx + 1,
                    // attached or missing value: the script word itself
                    _ => parsed.next.saturating_sub(1)..parsed.next,
                });
                return out;
            }
            // `flock FILE -c 'cmd'`: the option after the operands.
            if let Some(v) = words.get(parsed.next).and_then(Word::value)
                && v.starts_with('-')
                && entry.option_role(v) == Some(Role::Shell)
            {
                let idx = parsed.next + 1;
                out.script = Some(idx..(idx + 1).min(words.len()));
                return out;
            }
        }
        if parsed.next >= words.len() {
            return out;
        }
        if mode.is_none() && entry.operands.get(spec.operands) == Some(&Role::ShellWords) {
            // `watch a b`, `parallel cmd ::: args`: the words, joined, are a script.
            let end = (parsed.next..words.len())
                .find(|&k| {
                    words[k]
                        .static_value()
                        .is_some_and(|v| v.starts_with(":::"))
                })
                .unwrap_or(words.len());
            out.script = Some(parsed.next..end);
            return out;
        }
        i = parsed.next;
    }
    out
}

/// The word holding the value of a wrapper's shell-text option among its options
/// `words[from..to]`, and where the script starts in it: `env -S CMD`, `env -SCMD`,
/// `env -iS CMD`, `env --split-string=CMD`, `env --split-string CMD`. A missing value
/// is the option word itself at its end (an empty script that still runs nothing).
fn script_word(words: &[Word], from: usize, to: usize, entry: &Entry) -> Option<(usize, usize)> {
    let names: Vec<&str> = entry
        .options
        .iter()
        .filter(|o| o.role == Role::Shell)
        .flat_map(|o| o.names.iter().copied())
        .collect();
    let separate = |k: usize| Some((k + 1, 0)).filter(|_| k + 1 < words.len());
    let end = to.min(words.len());
    for (k, word) in words.iter().enumerate().take(end).skip(from) {
        let Some(value) = word.value() else {
            continue;
        };
        for name in &names {
            if let Some(long) = name.strip_prefix("--") {
                let Some(rest) = value.strip_prefix("--") else {
                    continue;
                };
                if rest == long {
                    return separate(k);
                }
                if rest.strip_prefix(long).is_some_and(|r| r.starts_with('=')) {
                    return Some((k, long.len() + 3));
                }
                continue;
            }
            let Some(letter) = name.strip_prefix('-').filter(|l| l.len() == 1) else {
                continue;
            };
            if value.starts_with("--") || !value.starts_with('-') {
                continue;
            }
            // A cluster of flags: the letter's value is the rest of the word or the
            // next word, unless a letter before it takes a value itself.
            for (at, c) in value.char_indices().skip(1) {
                if c.to_string() == letter {
                    let rest = at + c.len_utf8();
                    return if rest < value.len() {
                        Some((k, rest))
                    } else {
                        separate(k)
                    };
                }
                if entry.short_takes_value(c) {
                    break;
                }
            }
        }
    }
    None
}

/// Commands run through an option or an operand of a program that is not a wrapper
/// (`fd -x CMD`, `git bisect run CMD`, `uv run CMD`): the words from the option's
/// value (to a `;` or the end) or from the operand on. `entry`: the catalogue's
/// entry of the program `words[at]` names (looked up by the caller, by its key).
fn command_option_ranges(
    entry: Option<&'static Entry>,
    words: &[Word],
    at: usize,
) -> Vec<(String, Range<usize>)> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    if !entry.mentions(&[Role::Command]) && !entry.tree_has(Fact::ProgramSubcommands) {
        return Vec::new();
    }
    let rest = words.get(at + 1..).unwrap_or(&[]);
    let values: Values = rest.iter().map(Word::value).collect();
    let mut ranges = Vec::new();
    let args = catalogue::classify(entry, &values);
    for (k, arg) in args.iter().enumerate() {
        if arg.role != Role::Command || arg.offset != 0 {
            continue;
        }
        let begin = at + 1 + arg.index;
        if !arg.option_value {
            // `cmake -E env A=1 CMD`: the variables set before the command are
            // its assignments (the walk reads them so).
            let assigned = args[..k]
                .iter()
                .rev()
                .take_while(|a| a.role == Role::Env && !a.option_value)
                .count();
            let begin = begin - assigned;
            ranges.push((entry.name.to_string(), begin..words.len()));
            break;
        }
        let end = (begin..words.len())
            .find(|&k| words[k].static_value().is_some_and(|v| v == ";"))
            .unwrap_or(words.len());
        if end > begin {
            ranges.push((entry.name.to_string(), begin..end));
        }
    }
    ranges
}

/// The commands a program runs through its embedded-command flags (the
/// catalogue's `embedded_commands`): `find -exec CMD... ;`, the words after
/// `-exec`, `-execdir`, `-ok`, `-okdir` up to `;` or `+`.
fn embedded_ranges(
    entry: &catalogue::Entry,
    words: &[Word],
    start: usize,
) -> Vec<(String, Range<usize>)> {
    let mut ranges = Vec::new();
    let mut i = start;
    while i < words.len() {
        let Some(embedded) = words[i].static_value().and_then(|v| {
            entry
                .embedded_commands
                .iter()
                .find(|e| e.flags.contains(&v.as_str()))
        }) else {
            i += 1;
            continue;
        };
        let begin = i + 1;
        let mut end = begin;
        while end < words.len() {
            if words[end]
                .static_value()
                .is_some_and(|v| embedded.ends.contains(&v.as_str()))
            {
                break;
            }
            end += 1;
        }
        if end > begin {
            ranges.push((entry.name.to_string(), begin..end));
        }
        i = end + 1;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::unwrap;
    use crate::model::word::Word;
    use crate::verdict::Span;

    fn detached(text: &str) -> bool {
        let words: Vec<Word> = text
            .split(' ')
            .map(|w| Word::literal(w, Span::default()))
            .collect();
        unwrap(&words).detached
    }

    #[test]
    fn programs_that_return_before_what_they_start_ends_are_detached() {
        for text in [
            "setsid -f sh -c x",
            "setsid cat x",
            "nice -n 5 setsid make",
            "sudo -b cat x",
            "screen -dm sh -c x",
            "tmux new -d x",
            "coproc cat x",
            "tsp make",
        ] {
            assert!(detached(text), "{text}");
        }
        for text in [
            "nice -n 5 make",
            "sudo cat x",
            "timeout 5 sh -c x",
            "nohup make",
            "cat x",
            "sh -c x",
        ] {
            assert!(!detached(text), "{text}");
        }
    }
}
