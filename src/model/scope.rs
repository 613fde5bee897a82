//! What the walker knows at each point of the script: the working directory (`cd`,
//! `pushd`, `popd`, with `cd -` and the directory stack) and the variables assigned
//! so far. Subshells, pipeline stages, substitutions and background jobs each get a
//! copy of their parent's scope, as bash runs them; `cd` resolves its operand with the
//! one path resolver ([`super::paths::Resolver`]), so `cd "$HOME/x"` and `cat
//! "$HOME/x"` name the same place.

use super::command::{Cwd, Origin, SimpleCommand};
use super::definitions::{Definitions, Effects};
use super::nested::Positionals;
use super::paths::{Resolved, Resolver};
use super::printf_target::{PrintfTarget, printf_target};
use super::word::{Part, Word};
use super::wrappers;
use crate::catalogue::Fact;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Bash's own variables whose assigned value is evaluated as arithmetic (each
/// checked with bash 5.2: `NAME='a[$(touch f)]'` makes `f`).
pub const INTEGER_VARIABLES: &[&str] = &["RANDOM", "SRANDOM", "OPTIND", "HISTCMD"];

/// One scope: the working directory and the script's variables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    /// Where commands in this scope run.
    pub cwd: Cwd,
    /// Where `cd -` goes.
    previous: Option<Cwd>,
    /// `pushd`'s directory stack.
    stack: Vec<Cwd>,
    /// Variables assigned in the script so far: their static value, or `None` when
    /// only known at run time (loop variables, `read`, substitutions). Last wins.
    vars: Vec<(String, Option<String>)>,
    /// `IFS` was assigned: unquoted expansions may split anywhere.
    ifs_changed: bool,
    /// Unknown variables proven relative paths below the working directory (loop
    /// variables), with the words of their loop.
    confined: Vec<(String, Rc<[Word]>)>,
    /// Unknown variables proven numbers (`n=$(nproc)`, `for i in 1 2 3`).
    numeric: Vec<String>,
    /// Namerefs (`declare -n r=PATH`): assigning `r` assigns `PATH`.
    namerefs: Vec<(String, String)>,
    /// Variables declared `-i`: what is assigned to them is evaluated as arithmetic.
    integers: Vec<String>,
    /// Functions and aliases defined so far, which shadow programs of their name.
    pub definitions: Definitions,
    /// An `exec < FILE` (or heredoc, here-string) gave this shell a new stdin:
    /// every later command reads it.
    pub stdin_redirected: bool,
}

impl Scope {
    /// Records `name`'s value (`None`: only known at run time). Array elements are
    /// variables named `a[0]`, `a[1]`...: assigning `a` replaces them all, and an
    /// element with a computed index (`a[$i]=x`) makes every element unknown.
    pub fn set_var(&mut self, name: &str, value: Option<String>) {
        if name == "IFS" {
            self.ifs_changed = true;
        }
        self.confined.retain(|(n, _)| n != name);
        self.numeric.retain(|n| n != name);
        match name.split_once('[') {
            None => {
                let prefix = format!("{name}[");
                self.vars
                    .retain(|(n, _)| n != name && !n.starts_with(&prefix));
            }
            Some((array, index)) => {
                let index = index.strip_suffix(']').unwrap_or("");
                if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
                    let prefix = format!("{array}[");
                    for (n, v) in &mut self.vars {
                        if n == array || n.starts_with(&prefix) {
                            *v = None;
                        }
                    }
                    return;
                }
                let index = index.trim_start_matches('0');
                let index = if index.is_empty() { "0" } else { index };
                let element = format!("{array}[{index}]");
                self.vars.retain(|(n, _)| n != &element);
                if index == "0" {
                    // `$a` is `${a[0]}`.
                    self.vars.retain(|(n, _)| n != array);
                    self.vars.push((array.to_string(), value.clone()));
                }
                self.vars.push((element, value));
                return;
            }
        }
        self.vars.push((name.to_string(), value));
    }

    /// Records an array assignment `name=(…)`: each element, and `$name` as the first.
    pub fn set_array(&mut self, name: &str, elements: Vec<Option<String>>) {
        self.set_var(name, elements.first().cloned().flatten());
        for (i, value) in elements.into_iter().enumerate() {
            self.vars.push((format!("{name}[{i}]"), value));
        }
    }

    /// What happened in this scope since `before` (the scope it was copied from):
    /// the effects of running a definition whose body was walked in it.
    pub fn effects_since(&self, before: &Scope, start: &Path) -> Effects {
        let place = |cwd: &Cwd| cwd.place(start).map(Path::to_path_buf);
        let (now, then) = (place(&self.cwd), place(&before.cwd));
        let mut vars: Vec<String> = Vec::new();
        for (name, value) in &self.vars {
            let base = name.split('[').next().unwrap_or(name);
            if before.var(name) != Some(value) && !vars.iter().any(|v| v == base) {
                vars.push(base.to_string());
            }
        }
        Effects {
            cwd: now != then || self.stack != before.stack,
            moves: then.zip(now),
            alias_text: None,
            body: None,
            vars,
            unknown: false,
            defines: self.definitions.added_since(&before.definitions),
        }
    }

    /// True when this scope knows the same as `other`: the same directory and
    /// directory stack, and the same variables, values, marks and definitions,
    /// in whatever order they were made (assigning moves a variable to the end).
    /// A body run again from a scope the same as the one its last pass started
    /// from does exactly what that pass did.
    pub fn same_as(&self, other: &Scope) -> bool {
        fn same_set<T: PartialEq>(a: &[T], b: &[T]) -> bool {
            a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
        }
        let same_vars = |a: &Scope, b: &Scope| a.vars.iter().all(|(n, v)| b.var(n) == Some(v));
        self.cwd == other.cwd
            && self.previous == other.previous
            && self.stack == other.stack
            && self.ifs_changed == other.ifs_changed
            && same_vars(self, other)
            && same_vars(other, self)
            && same_set(&self.confined, &other.confined)
            && same_set(&self.numeric, &other.numeric)
            && same_set(&self.namerefs, &other.namerefs)
            && same_set(&self.integers, &other.integers)
            && self.definitions.same_as(&other.definitions)
    }

    /// Forgets what changed since `before`: a variable whose value differs becomes
    /// known only at run time, a directory that moved becomes unknown, and so do the
    /// directory `cd -` goes to and the directory stack. Used when a body that runs
    /// again and again keeps changing them (`x=$x/a` in a loop): whatever value
    /// they reach, the next pass is judged for any of them.
    pub fn widen_from(&mut self, before: &Scope) {
        let changed: Vec<String> = self
            .vars
            .iter()
            .filter(|(n, v)| before.var(n) != Some(v))
            .map(|(n, _)| n.clone())
            .collect();
        for (name, value) in &mut self.vars {
            if changed.contains(name) {
                *value = None;
            }
        }
        // A variable the pass unset may be set or not: unknown either way.
        for (name, _) in &before.vars {
            if self.var(name).is_none() {
                self.vars.push((name.clone(), None));
            }
        }
        if self.cwd != before.cwd {
            self.cwd = Cwd::Unknown;
        }
        if self.previous != before.previous {
            self.previous = Some(Cwd::Unknown);
        }
        if self.stack != before.stack {
            self.stack = vec![Cwd::Unknown; self.stack.len().max(before.stack.len())];
        }
    }

    /// Forgets every variable's value (each is only known at run time) and, when
    /// it differs from `before`'s, the directory: the state at some unknown point
    /// after `before` (where a signal may interrupt the script).
    pub fn widen_all_from(&mut self, before: &Scope) {
        self.widen_from(before);
        for (_, value) in &mut self.vars {
            *value = None;
        }
    }

    /// Applies a call of a definition: the directory it may move becomes unknown,
    /// the variables it may assign become unknown (all of them when its text is
    /// unknown), and the definitions it makes are made.
    pub fn apply_call(&mut self, effects: &Effects, start: &Path) {
        self.cwd = super::definitions::cwd_after(effects, &self.cwd, self.cwd.place(start));
        if effects.cwd {
            self.previous = Some(Cwd::Unknown);
        }
        if effects.unknown {
            for (_, value) in &mut self.vars {
                *value = None;
            }
            self.ifs_changed = true;
        }
        for name in &effects.vars {
            self.set_var(name, None);
        }
        for (name, inner) in &effects.defines {
            self.definitions.define(name, inner.clone());
        }
    }

    /// The variable the nameref `name` refers to (`declare -n r=PATH`: `r` → `PATH`),
    /// followed through chains of namerefs (bounded: a cycle is not followed).
    pub fn nameref(&self, name: &str) -> Option<&str> {
        let mut current: Option<&str> = None;
        for _ in 0..self.namerefs.len() {
            let key = current.unwrap_or(name);
            match self.namerefs.iter().rev().find(|(n, _)| n == key) {
                Some((_, target)) => current = Some(target),
                None => break,
            }
        }
        current
    }

    /// Marks `name` (unknown) as a relative path below the working directory: it
    /// takes the value of each of `words`, one per pass of its loop.
    pub fn confine(&mut self, name: &str, words: Rc<[Word]>) {
        self.confined.retain(|(n, _)| n != name);
        self.confined.push((name.to_string(), words));
    }

    /// The absolute path a word value names from the current directory, when known.
    pub fn path_of(&self, name: &str, start: &Path) -> Option<PathBuf> {
        let base = match &self.cwd {
            Cwd::Start => start.to_path_buf(),
            Cwd::Known(p) => p.clone(),
            Cwd::Unknown => return None,
        };
        Some(super::paths::normalize_lexically(&base.join(name)))
    }

    /// Marks `name` (unknown) as a number.
    pub fn mark_numeric(&mut self, name: &str) {
        self.numeric.push(name.to_string());
    }

    /// Marks `name` as declared `-i` (`declare -i n`): an attribute, kept across
    /// assignments.
    pub fn mark_integer(&mut self, name: &str) {
        if !self.is_integer(name) {
            self.integers.push(name.to_string());
        }
    }

    /// True when `name` was declared `-i` in the script, or is one of bash's own
    /// variables that evaluate what is assigned to them as arithmetic
    /// ([`INTEGER_VARIABLES`]: `RANDOM='a[$(cmd)]'` runs `cmd`).
    pub fn is_integer(&self, name: &str) -> bool {
        INTEGER_VARIABLES.contains(&name) || self.integers.iter().any(|n| n == name)
    }

    /// True when `name` was marked by [`Scope::mark_numeric`].
    pub fn is_numeric(&self, name: &str) -> bool {
        self.numeric.iter().any(|n| n == name)
    }

    /// What the script assigned to `name`: `None` when it never did, `Some(None)`
    /// when it made it unknown.
    pub fn lookup(&self, name: &str) -> Option<Option<&str>> {
        self.var(name).map(|v| v.as_deref())
    }

    /// The variables marked by [`Scope::confine`], with their loop's words.
    pub fn confined(&self) -> &[(String, Rc<[Word]>)] {
        &self.confined
    }

    /// True when the script set `name` to a value that word splitting may cut into
    /// more words: a known value with a blank in it (any non-empty value once `IFS`
    /// changed), or one only known at run time that is neither a number nor a
    /// confined loop variable. A variable the script never set is the caller's.
    pub fn may_split(&self, name: &str) -> bool {
        match self.var(name) {
            Some(Some(value)) => {
                !value.is_empty() && (self.ifs_changed || value.contains([' ', '\t', '\n']))
            }
            Some(None) => !self.is_numeric(name) && !self.confined.iter().any(|(c, _)| c == name),
            None => false,
        }
    }

    /// `IFS` was assigned in the script.
    pub fn ifs_changed(&self) -> bool {
        self.ifs_changed
    }

    /// True when the script assigned no variable so far.
    pub fn has_no_vars(&self) -> bool {
        self.vars.is_empty()
    }

    /// The static value a script assignment gave `name`, if any.
    pub fn value_of(&self, name: &str) -> Option<&str> {
        self.var(name).and_then(|v| v.as_deref())
    }

    fn var(&self, name: &str) -> Option<&Option<String>> {
        /// A positional parameter beyond the ones a script was given.
        static EMPTY: Option<String> = Some(String::new());
        let found = self
            .vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v);
        // `sh -c 'echo "$2"' _ a`: `$2` is empty when the count `$#` is known.
        if found.is_none()
            && is_positional(name)
            && name != "0"
            && self
                .vars
                .iter()
                .rev()
                .find(|(n, _)| n == "#")
                .is_some_and(|(_, count)| count.is_some())
        {
            return Some(&EMPTY);
        }
        found
    }

    /// Replaces `$NAME` by the static value a script assignment gave it (`D=/etc; cat
    /// $D/x`). Unquoted values that bash would split or glob stay dynamic.
    pub fn substitute(&self, word: Word) -> Word {
        let indirect = |p: &Part| matches!(p, Part::Expansion { indirect: true, .. });
        if !word.parts.iter().any(indirect)
            && (self.vars.is_empty()
                || !word
                    .parts
                    .iter()
                    .any(|p| matches!(p, Part::Variable { .. })))
        {
            return word;
        }
        let mut changed = false;
        let parts: Vec<Part> = word
            .parts
            .iter()
            .map(|part| {
                // `k=PATH; echo ${!k}` is `$PATH`. A name the caller's
                // environment holds is the caller's (as for arithmetic); one the
                // script made unknown stays an indirection (`read k`).
                if let Part::Expansion {
                    name: Some(name),
                    indirect: true,
                    quoted,
                    alternative,
                } = part
                {
                    match self.var(name) {
                        Some(Some(value)) if is_name(value) => {
                            changed = true;
                            return Part::Variable {
                                name: value.clone(),
                                quoted: *quoted,
                            };
                        }
                        None => {
                            changed = true;
                            return Part::Expansion {
                                name: Some(name.clone()),
                                quoted: *quoted,
                                indirect: false,
                                alternative: alternative.clone(),
                            };
                        }
                        _ => {}
                    }
                }
                if let Part::Variable { name, quoted } = part
                    && let Some(Some(value)) = self.var(name)
                {
                    let splits = value.is_empty()
                        || self.ifs_changed
                        || value.contains([' ', '\t', '\n', '*', '?', '[']);
                    if *quoted || !splits {
                        changed = true;
                        return Part::Quoted(value.clone());
                    }
                }
                part.clone()
            })
            .collect();
        if !changed {
            return word;
        }
        Word::new(parts, word.span, word.has_quotes)
    }

    /// Records script variables: statement-level and declared assignments set them;
    /// `unset` removes them; loop variables and `read` make them unknown.
    pub fn track_vars(&mut self, record: &SimpleCommand) {
        let program = record.program_str();
        let declares = record.origin == Origin::Declaration && !matches!(program, Some("unset"));
        if declares && record.declares_attribute('i') {
            for a in &record.assignments {
                self.mark_integer(&a.name);
            }
        }
        let nameref = declares && record.declares_attribute('n');
        if nameref {
            for a in &record.assignments {
                self.namerefs.retain(|(n, _)| n != &a.name);
                // A target only known at run time may be any variable.
                let target = a
                    .value
                    .as_ref()
                    .and_then(|v| v.value().map(str::to_string))
                    .unwrap_or_else(|| "?".to_string());
                self.namerefs.push((a.name.clone(), target));
            }
            return;
        }
        if record.origin == Origin::Bare || declares {
            for a in &record.assignments {
                let value = a.value.as_ref().and_then(|v| v.value().map(str::to_string));
                let value = if a.value.is_none() && record.origin == Origin::Bare {
                    // `X=` is the empty string.
                    Some(String::new())
                } else if a.value.is_none() && declares {
                    // `export X` keeps X's value.
                    match self.var(&a.name) {
                        Some(v) => v.clone(),
                        None => continue,
                    }
                } else {
                    value
                };
                self.set_var(&a.name, value);
            }
        }
        match program {
            Some("unset") if record.origin == Origin::Declaration => {
                for a in &record.assignments {
                    self.vars.retain(|(n, _)| n != &a.name);
                }
            }
            Some("read") if record.origin != Origin::Declaration => {
                // `read` with no name fills REPLY; so may one whose options take
                // values (`read -p PROMPT`: the prompt is no name).
                let args = record.args();
                let dashed = |w: &Word| w.value().is_some_and(|v| v.starts_with('-'));
                if args.iter().all(dashed)
                    || args.iter().any(|w| {
                        w.value().is_some_and(|v| {
                            v.starts_with('-')
                                && v.contains(['a', 'd', 'i', 'n', 'N', 'p', 't', 'u'])
                        })
                    })
                {
                    self.set_var("REPLY", None);
                }
                if let Some((names, values)) = read_values(record) {
                    for (name, value) in names.into_iter().zip(values) {
                        self.set_var(&name, value);
                    }
                    return;
                }
                self.unknown_names(record);
            }
            Some("printf") => match printf_target(record.args()) {
                PrintfTarget::Nothing => {}
                PrintfTarget::Named { name, rest, .. } => self.set_var(&name, printf_value(rest)),
                PrintfTarget::Unknown => self.unknown_names(record),
            },
            Some("getopts") => {
                // The option's value, and where the next option is.
                self.set_var("OPTARG", None);
                self.unknown_names(record);
            }
            Some("mapfile" | "readarray" | "read") => self.unknown_names(record),
            // `set -- A B`: the script's own positional parameters, `$1` on.
            Some("set") if record.origin != Origin::Declaration => self.set_positionals(record),
            Some("shift") => self.shift_positionals(record),
            _ => {}
        }
    }

    /// `set -- A B` or `set A B` (after its options): `$1`, `$2`… hold the words,
    /// and any later one none. Positional parameters never set in the script are
    /// the caller's, as any variable is.
    fn set_positionals(&mut self, record: &SimpleCommand) {
        let args = record.args();
        // Options first: `-o NAME`/`+o NAME` take the next word.
        let (mut i, mut dash_dash) = (0, false);
        while let Some(v) = args.get(i).and_then(Word::value) {
            dash_dash = v == "--";
            if dash_dash || !(v.starts_with(['-', '+']) && v.len() > 1) {
                i += usize::from(dash_dash);
                break;
            }
            i += if v.contains('o') { 2 } else { 1 };
        }
        // `set -e` sets none; `set --` alone clears them.
        let words = args.get(i..).unwrap_or_default();
        if words.is_empty() && !dash_dash {
            return;
        }
        // A word only known at run time may split into any number of them.
        let dynamic = words.iter().any(|w| w.value().is_none());
        self.positionals_unknown();
        for (k, word) in words.iter().enumerate() {
            let value = if dynamic {
                None
            } else {
                word.value().map(str::to_string)
            };
            self.set_var(&(k + 1).to_string(), value);
        }
        if dynamic {
            self.set_var("@", None);
        }
        // The count, when the script's own were bound (`sh -c`): now these.
        if self.var("#").is_some() {
            let count = (!dynamic).then(|| words.len().to_string());
            self.set_var("#", count);
        }
    }

    /// `shift [N]`: the positional parameters the script set move down N places
    /// (unknown when N is only known at run time).
    fn shift_positionals(&mut self, record: &SimpleCommand) {
        let n = match record.args().first().map(Word::value) {
            None => 1,
            Some(Some(v)) => match v.parse::<usize>() {
                Ok(n) => n,
                Err(_) => return self.positionals_unknown(),
            },
            Some(None) => return self.positionals_unknown(),
        };
        for (name, _) in &mut self.vars {
            if let Ok(k) = name.parse::<usize>()
                && k > 0
            {
                // Below 1: gone (`0` is no positional; `set_var` never made one).
                *name = if k > n {
                    (k - n).to_string()
                } else {
                    String::new()
                };
            }
        }
        self.vars.retain(|(name, _)| !name.is_empty());
    }

    /// A script's own positional parameters as it starts (`sh -c TEXT NAME A B`):
    /// `$0` on as given, the ones after them empty, or only known at run time
    /// when more may follow (`$@` too). Inherited ones stay the caller's.
    pub fn bind_positionals(&mut self, args: &Positionals) {
        let Positionals::Own { values, more } = args else {
            return;
        };
        // The caller's are replaced in one pass (each `set_var` would scan the
        // variables again): `$0` on as given, and `$#`, their count; one beyond
        // them is empty ([`Scope::var`]), unless more may follow: then `$#` and
        // `$@` are only known at run time, and so is every one not given.
        let positional = |name: &str| matches!(name, "@" | "#") || is_positional(name);
        self.vars.retain(|(name, _)| !positional(name));
        self.numeric.retain(|name| !positional(name));
        self.confined.retain(|(name, _)| !positional(name));
        for (k, value) in values.iter().enumerate() {
            self.vars.push((k.to_string(), value.clone()));
        }
        let count = (!more).then(|| values.len().saturating_sub(1).to_string());
        self.vars.push(("#".to_string(), count));
        if *more || values.iter().any(Option::is_none) {
            self.vars.push(("@".to_string(), None));
        }
    }

    /// True when `name` is a positional parameter no word gave while more may
    /// follow at run time (`xargs sh -c '…' _`: `$1` on are the items): its value
    /// is only known at run time.
    pub fn positional_unknown(&self, name: &str) -> bool {
        is_positional(name) && self.var(name).is_none() && self.lookup("#") == Some(None)
    }

    /// Before a new `set --`, or after a `shift` by a count only known at run
    /// time, every positional parameter the script set is only known at run time.
    fn positionals_unknown(&mut self) {
        for (name, value) in &mut self.vars {
            if is_positional(name) && name != "0" {
                *value = None;
            }
        }
    }

    /// Every argument of `record` that could be a variable name becomes unknown.
    fn unknown_names(&mut self, record: &SimpleCommand) {
        for w in record.args() {
            if let Some(v) = w.value()
                && !v.starts_with('-')
                && wrappers::is_assignment(&format!("{v}=x"))
            {
                self.set_var(v, None);
            }
        }
    }

    /// `CDPATH` was assigned in the script or on the command (the gate is not told
    /// the caller's `CDPATH`: it judges commands as an agent's shell runs them).
    fn cdpath_set(&self, record: &SimpleCommand) -> bool {
        record
            .assignments
            .iter()
            .any(|a| a.name == "CDPATH" && a.value.as_ref().is_some_and(|v| v.value() != Some("")))
            || self.var("CDPATH").is_some_and(|v| v.as_deref() != Some(""))
    }

    /// Tracks the builtins the catalogue marks `changes-directory` (`cd`, `pushd`)
    /// and `popd`: `start` is where the command began.
    pub fn apply_cd(&mut self, record: &SimpleCommand, start: &Path, resolver: &Resolver) {
        let Some(name) = record.program_str() else {
            return;
        };
        // `pushd` and `popd` keep the shell's stack of folders: the builtins'
        // own semantics, by name (`popd` takes no folder: the stack gives it).
        let stack = matches!(record.name_str(), Some("pushd" | "popd"));
        // A builtin runs under its exact name: `/usr/bin/cd` or `CD` is a program
        // that cannot move this shell.
        let raw = record.name_str().unwrap_or(name);
        let changes = crate::catalogue::lookup(name).is_some_and(|e| {
            e.has(Fact::ChangesDirectory) && (e.name == raw || e.aliases.contains(&raw))
        });
        if !changes && !stack {
            return;
        }
        let current = self.cwd.place(start).map(Path::to_path_buf);
        let operands: Vec<&Word> = record
            .args()
            .iter()
            .filter(|w| {
                !w.static_value()
                    .is_some_and(|v| v.len() > 1 && v.starts_with('-') && v != "--")
            })
            .filter(|w| w.static_value().as_deref() != Some("--"))
            .collect();
        if name == "popd" {
            let next = self.stack.pop().unwrap_or(Cwd::Unknown);
            self.previous = Some(std::mem::replace(&mut self.cwd, next));
            return;
        }
        let target = match operands.first() {
            None if name == "pushd" => {
                let top = self.stack.pop().unwrap_or(Cwd::Unknown);
                self.stack.push(self.cwd.clone());
                self.cwd = top;
                return;
            }
            None => resolver.home().map(Cwd::Known).unwrap_or(Cwd::Unknown),
            Some(word) if word.static_value().as_deref() == Some("-") => {
                self.previous.clone().unwrap_or(Cwd::Unknown)
            }
            // With `CDPATH` set, a relative operand may be found under any of its
            // folders (`CDPATH=/etc cd ssh`, `CDPATH=~ cd .ssh`): bash skips it only
            // for `/…`, `.`, `..`, `./…` and `../…`.
            Some(word)
                if self.cdpath_set(record)
                    && !word.value().is_some_and(|v| {
                        v.is_empty()
                            || matches!(v, "." | "..")
                            || v.starts_with(['/'])
                            || v.starts_with("./")
                            || v.starts_with("../")
                    }) =>
            {
                Cwd::Unknown
            }
            Some(word) => directory(word, current.as_deref(), resolver),
        };
        let old = std::mem::replace(&mut self.cwd, target);
        if name == "pushd" {
            self.stack.push(old.clone());
        }
        self.previous = Some(old);
    }
}

/// `read NAME…` from a static here-string or heredoc (`read a <<< /etc`): the
/// names and the values bash gives them (fields split at blanks, the last name taking
/// the rest). `None` when the input or an option is not modelled.
fn read_values(record: &SimpleCommand) -> Option<(Vec<String>, Vec<Option<String>>)> {
    let mut names = Vec::new();
    for word in record.args() {
        let v = word.value()?;
        match v {
            "-r" => {}
            _ if v.starts_with('-') => return None,
            _ if wrappers::is_assignment(&format!("{v}=x")) => names.push(v.to_string()),
            _ => return None,
        }
    }
    let raw = record.args().iter().any(|w| w.value() == Some("-r"));
    let input = record
        .redirects
        .iter()
        .rev()
        .find_map(|r| match r.operator.as_str() {
            "<<<" => Some(r.target.as_ref()?.static_value()),
            op if op.starts_with("<<") => Some(r.heredoc.as_ref()?.static_text.clone()),
            _ => None,
        })??;
    if names.is_empty() || (!raw && input.contains('\\')) {
        return None;
    }
    let line = input.split('\n').next().unwrap_or("");
    let mut rest = line.trim_matches([' ', '\t']);
    let mut values = Vec::new();
    for i in 0..names.len() {
        if i + 1 == names.len() {
            values.push(Some(rest.to_string()));
        } else {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            values.push(Some(rest[..end].to_string()));
            rest = rest[end..].trim_start_matches([' ', '\t']);
        }
    }
    Some((names, values))
}

/// The value `printf -v NAME FORMAT [ARG]` stores: a format with no directive or
/// escape, or `%s` with one argument.
fn printf_value(args: &[Word]) -> Option<String> {
    let values: Vec<&str> = args.iter().map(Word::value).collect::<Option<_>>()?;
    match values[..] {
        [format] if !format.contains(['%', '\\']) => Some(format.to_string()),
        ["%s", value] => Some(value.to_string()),
        _ => None,
    }
}

/// Where `cd WORD` goes, by the same resolution every path rule uses; a glob, a
/// dynamic word or an unknown base leaves the directory unknown.
fn directory(word: &Word, current: Option<&Path>, resolver: &Resolver) -> Cwd {
    if word.static_value().is_some_and(|v| v.is_empty()) {
        // `cd ""` stays where it is.
        return current
            .map(|c| Cwd::Known(PathBuf::from(c)))
            .unwrap_or(Cwd::Unknown);
    }
    match resolver.resolve(word, current) {
        Resolved::Path {
            path, glob: false, ..
        } => Cwd::Known(path),
        _ => Cwd::Unknown,
    }
}

/// True for a shell variable name (`PATH`, `_x1`): what an indirect expansion's
/// value must be to name one.
pub(crate) fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// True for a positional parameter's name: `0`, `1`, `10`…
fn is_positional(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::{Rc, Scope, Word};

    #[test]
    fn a_value_may_split_when_it_has_a_blank_or_is_only_known_at_run_time() {
        let mut scope = Scope::default();
        scope.set_var("KNOWN", Some(" --privileged".into()));
        scope.set_var("PLAIN", Some("abc".into()));
        scope.set_var("EMPTY", Some(String::new()));
        scope.set_var("READ", None);
        scope.set_var("COUNT", None);
        scope.mark_numeric("COUNT");
        scope.set_var("FILE", None);
        scope.confine(
            "FILE",
            Rc::from(vec![Word::literal("a.txt", Default::default())]),
        );
        assert!(scope.may_split("KNOWN"));
        assert!(scope.may_split("READ"));
        for name in ["PLAIN", "EMPTY", "COUNT", "FILE", "NEVER_SET"] {
            assert!(!scope.may_split(name), "{name}");
        }
        // Once IFS changed, any character of a value may be a separator.
        scope.set_var("IFS", Some("b".into()));
        assert!(scope.may_split("PLAIN"));
        assert!(!scope.may_split("EMPTY"));
    }
}
