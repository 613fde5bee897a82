//! The rule registry. Each rule is a [`Rule`] value whose doc comment is its user
//! documentation (shown by `bashgate explain CODE`), declared with [`declare_rule!`]
//! in the file of its family; each family has a `check` function over one
//! [`SimpleCommand`]. Codes are stable once published and never reused.

use crate::catalogue::Values;
use crate::catalogue::{self, Arg, Entry, Usage};
use crate::model::command::SimpleCommand;
use crate::model::path_roles::{PathUse, path_uses};
use crate::model::word::Word;
use crate::policy::Policy;
use crate::policy::paths::PathJudge;
use crate::verdict::{Capability, Decision, Finding, Span};
use invocation::Invocation;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::rc::Rc;
use written_files::WrittenFile;

mod code_names;
pub mod credentials;
pub mod data_urls;
pub mod denylist;
pub mod descriptor_code;
pub mod destructive;
pub mod dynamic_command;
pub mod dynamic_option_value;
pub mod dynamic_path;
pub mod environment;
pub mod evaluation;
pub mod exfiltration;
pub mod inline_script;
pub mod input;
pub mod invocation;
pub mod nested_shell;
pub mod network;
pub mod option_glob;
pub mod option_words;
pub mod passed_options;
pub mod paths;
pub mod permission;
pub mod persistence;
pub mod privilege;
pub mod remote_effect;
pub mod rm;
pub mod run_time_usage;
pub mod runner_files;
pub mod shell_mode;
pub mod sql_escapes;
mod sql_functions;
pub mod taskdev;
pub mod written_files;

/// One rule: a stable code, a name, what it decides by default, and its documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable code, `BG` + three digits, grouped by hundreds (0: input, 1: paths,
    /// 2: commands, 3: environment, 4: presets — rules only a preset turns on).
    pub code: &'static str,
    /// Kebab-case name.
    pub name: &'static str,
    /// The decision of its findings unless the rule says otherwise for a case.
    pub default: Decision,
    /// The kind of power it is about.
    pub capability: Capability,
    /// One line for `bashgate rules`.
    pub summary: &'static str,
    /// The full documentation: the rule's doc comment.
    pub doc: &'static str,
}

/// Declares a rule whose doc comment is both its rustdoc and its `explain` page.
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])+
        pub static $id:ident = {
            code: $code:literal,
            name: $name:literal,
            default: $decision:ident,
            capability: $cap:ident,
            summary: $summary:literal $(,)?
        };
    ) => {
        $(#[doc = $doc])+
        pub static $id: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $name,
            default: $crate::verdict::Decision::$decision,
            capability: $crate::verdict::Capability::$cap,
            summary: $summary,
            doc: concat!($($doc, "\n"),+),
        };
    };
}

/// Every rule, in code order.
pub static RULES: &[&Rule] = &[
    &input::PARSE_ERROR,
    &input::INPUT_LIMIT,
    &input::SUSPICIOUS_CHARACTERS,
    &paths::PATH_OUTSIDE_ROOT,
    &paths::PARENT_ESCAPE,
    &paths::HOME_EXPANSION,
    &paths::PATH_VARIABLE,
    &paths::REDIRECT_OUTSIDE_ROOT,
    &paths::QUOTED_PATH_OUTSIDE,
    &paths::SENSITIVE_PATH,
    &paths::CWD_ESCAPE,
    &paths::SYMLINK_ESCAPE,
    &dynamic_path::DYNAMIC_PATH,
    &denylist::DENYLISTED_EXECUTABLE,
    &rm::RM_GATE,
    &dynamic_command::DYNAMIC_COMMAND_NAME,
    &nested_shell::NESTED_SHELL,
    &inline_script::INLINE_SCRIPT,
    &network::NETWORK_TOOL,
    &privilege::PRIVILEGE_ESCALATION,
    &destructive::DESTRUCTIVE,
    &permission::PERMISSION_RULE,
    &remote_effect::REMOTE_OR_IRREVERSIBLE,
    &evaluation::ARITHMETIC_CODE,
    &evaluation::PROMPT_EXPANSION,
    &option_glob::OPTION_GLOB,
    &shell_mode::SHELL_MODE,
    &persistence::PERSISTENCE_WRITE,
    &runner_files::RUNNER_FILE_EDITED,
    &exfiltration::DATA_LEAVES,
    &environment::LOADER_ENV,
    &environment::SECRET_ENV_READ,
    &environment::PROGRAM_SETTING,
    &credentials::PRINTS_CREDENTIALS,
    &taskdev::TASK_TOO_LONG,
    &taskdev::TASK_CHARACTER,
    &taskdev::TASK_SHELL_OPERATOR,
    &taskdev::TASK_PREFIX,
    &taskdev::TASK_SECOND_PREFIX,
    &taskdev::TASK_DENYLISTED_WORD,
    &taskdev::TASK_PATH_ESCAPE,
    &taskdev::TASK_CWD,
    &taskdev::TASK_ENV_KEY,
];

impl Rule {
    /// The rule with this code (case-insensitive) or name.
    ///
    /// ```
    /// let rule = bashgate::Rule::by_code("bg207").unwrap();
    /// assert_eq!(rule.name, "privilege-escalation");
    /// assert_eq!(bashgate::Rule::by_code("path-outside-root").unwrap().code, "BG101");
    /// ```
    pub fn by_code(code: &str) -> Option<&'static Rule> {
        RULES
            .iter()
            .copied()
            .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
    }
}

/// A check over one command.
pub type CommandCheck = fn(&SimpleCommand, &mut Checker);

/// Every per-command check, run on every record of the walk.
pub static CHECKS: &[CommandCheck] = &[
    input::check,
    paths::check,
    dynamic_path::check,
    denylist::check,
    rm::check,
    dynamic_command::check,
    nested_shell::check,
    inline_script::check,
    data_urls::check,
    descriptor_code::check,
    sql_escapes::check,
    network::check,
    privilege::check,
    destructive::check,
    remote_effect::check,
    environment::check,
    passed_options::check,
    dynamic_option_value::check,
    evaluation::check,
    option_glob::check,
    shell_mode::check,
    persistence::check,
    credentials::check,
    exfiltration::check,
];

/// A check over the whole command: the records in the order bash reaches them, for
/// what one command does to a later one (a file edited, then the runner that
/// executes it; a remote added, then pushed to).
pub type SequenceCheck = fn(&[SimpleCommand], &mut Checker);

/// Every check over the whole sequence of records, run once after [`CHECKS`].
pub static SEQUENCE_CHECKS: &[SequenceCheck] = &[
    runner_files::check,
    exfiltration::check_sequence,
    credentials::check_filtered_dumps,
];

/// What checks read and where they put findings.
pub struct Checker<'a> {
    /// The policy judged against.
    pub policy: &'a Policy,
    /// The compiled path policy.
    pub paths: &'a PathJudge,
    /// The directory the command starts in.
    pub cwd: &'a std::path::Path,
    /// The original command text.
    pub source: &'a str,
    /// Findings so far.
    pub findings: Vec<Finding>,
    /// The commands being judged, whose derived facts [`Checker::path_uses`] and
    /// [`Checker::written_files`] work out once per judgement.
    commands: &'a [SimpleCommand],
    /// Per command (by its index in `commands`): its entry, and what was worked out
    /// so far.
    cache: RefCell<SmallVec<[Derived<'a>; 2]>>,
    /// Per command (by its index): the program's names, which nearly every check
    /// reads (worked out when the checker is made).
    names: SmallVec<[ProgramNames<'a>; 2]>,
    /// The real paths looked up so far ([`Checker::real_path`]): a written file is
    /// both a path use and a write, and each asks for it.
    real_paths: RefCell<Vec<(std::path::PathBuf, Option<std::path::PathBuf>)>>,
}

thread_local! {
    // Most commands name no path and write nothing: one shared empty list each,
    // instead of one allocated per command.
    static NO_USES: Rc<Vec<PathUse<'static>>> = Rc::new(Vec::new());
    static NO_WRITES: Rc<Vec<WrittenFile>> = Rc::new(Vec::new());
    static NO_ARGS: Rc<Vec<Arg>> = Rc::new(Vec::new());
    // The uses of programs whose words add no facts (`ls`, `cat`, `grep`): the
    // program's own facts, the same every time, kept per entry in a slot picked by
    // its address (entries, the user's included, live as long as the process).
    static PROGRAM_USAGE: [UsageSlot; 32] =
        std::array::from_fn(|_| RefCell::new(None));
}

/// A kept [`Usage::of_program`]: the entry's address and its use.
type UsageSlot = RefCell<Option<(usize, Rc<Usage>)>>;

/// [`Usage::of_program`] of `entry`, shared: worked out once per entry and thread
/// while its slot keeps it.
fn program_usage(entry: &'static Entry) -> Rc<Usage> {
    let address = std::ptr::from_ref(entry) as usize;
    let slot = (address / std::mem::size_of::<Entry>().max(1)) % 32;
    PROGRAM_USAGE.with(|slots| {
        let mut kept = slots[slot].borrow_mut();
        match &*kept {
            Some((at, usage)) if *at == address => Rc::clone(usage),
            _ => {
                let usage = Rc::new(Usage::of_program(entry));
                *kept = Some((address, Rc::clone(&usage)));
                usage
            }
        }
    })
}

/// `list` shared, or the thread's shared empty list when it is empty.
fn shared<T>(list: Vec<T>, empty: &'static std::thread::LocalKey<Rc<Vec<T>>>) -> Rc<Vec<T>> {
    if list.is_empty() {
        empty.with(Rc::clone)
    } else {
        Rc::new(list)
    }
}

/// The names of the program a command runs, as [`SimpleCommand::base_name`] and
/// [`SimpleCommand::program_str`] give them: each is a scan of the name, and some
/// ten checks ask for them per command.
#[derive(Clone, Copy)]
struct ProgramNames<'a> {
    base: Option<&'a str>,
    program: Option<&'a str>,
}

impl<'a> ProgramNames<'a> {
    fn of(cmd: &'a SimpleCommand) -> ProgramNames<'a> {
        ProgramNames {
            base: cmd.base_name(),
            program: cmd.program_str(),
        }
    }
}

/// Facts derived from one command that several checks read. They depend only on
/// the command, the policy and the catalogue, all fixed while a command is judged;
/// each is worked out on first use (an empty list or a missing entry is cached
/// too, so a command that names no path is not listed again by every check).
#[derive(Default)]
struct Derived<'a> {
    /// The program's catalogue entry, looked up when the checker is made (nearly
    /// every check asks for it).
    entry: Option<&'static Entry>,
    invocation: Option<Option<Rc<Invocation<'a>>>>,
    usage: Option<Option<Rc<Usage>>>,
    args: Option<Rc<Vec<Arg>>>,
    uses: Option<Rc<Vec<PathUse<'a>>>>,
    written: Option<Rc<Vec<WrittenFile>>>,
}

impl<'a> Checker<'a> {
    /// A checker for `commands` (the records of `source`), starting with `findings`.
    pub fn new(
        policy: &'a Policy,
        paths: &'a PathJudge,
        cwd: &'a std::path::Path,
        source: &'a str,
        findings: Vec<Finding>,
        commands: &'a [SimpleCommand],
    ) -> Checker<'a> {
        // Both per-command lists live in the checker for a command of one or two
        // records (most are): no allocation for them.
        let names: SmallVec<[ProgramNames<'a>; 2]> =
            commands.iter().map(ProgramNames::of).collect();
        Checker {
            policy,
            paths,
            cwd,
            source,
            findings,
            commands,
            cache: RefCell::new(
                names
                    .iter()
                    .map(|names| Derived {
                        // What `invocation::entry_of` looks up, from the name at hand.
                        entry: names.base.and_then(catalogue::lookup),
                        ..Derived::default()
                    })
                    .collect(),
            ),
            names,
            real_paths: RefCell::new(Vec::new()),
        }
    }

    /// [`PathJudge::real_path`] of `path`, looked up once per judgement: each
    /// lookup is a `lstat` per component, and the filesystem is taken as fixed
    /// while one command is judged. A caller that asks more of the path gives it
    /// as a [`crate::model::paths::Formed`], its normal form decided once.
    pub fn real_path<'p>(
        &self,
        path: impl Into<crate::model::paths::Formed<'p>>,
    ) -> Option<std::path::PathBuf> {
        let formed = path.into();
        let path = formed.path();
        if let Some((_, real)) = self
            .real_paths
            .borrow()
            .iter()
            .find(|(p, _)| p.as_os_str() == path.as_os_str())
        {
            return real.clone();
        }
        let real = self.paths.real_path(formed);
        self.real_paths
            .borrow_mut()
            .push((path.to_path_buf(), real.clone()));
        real
    }

    /// The pipeline stage whose output `cmd` reads on stdin, when it is the
    /// record made just before `cmd` ([`crate::model::piped_into`]).
    pub fn piped_from(&self, cmd: &SimpleCommand) -> Option<&'a SimpleCommand> {
        if !cmd.context.piped_stdin {
            return None;
        }
        let previous = self.commands.get(self.index_of(cmd)?.checked_sub(1)?)?;
        crate::model::piped_into(previous, cmd, self.source).then_some(previous)
    }

    /// Where `cmd` stands in the commands being judged; `None` for a command from
    /// elsewhere (a script a rule judges on its own), which is never cached.
    fn index_of(&self, cmd: &SimpleCommand) -> Option<usize> {
        let size = std::mem::size_of::<SimpleCommand>().max(1);
        let offset =
            (cmd as *const SimpleCommand as usize).checked_sub(self.commands.as_ptr() as usize)?;
        let index = offset / size;
        let same = self
            .commands
            .get(index)
            .is_some_and(|c| std::ptr::eq(c, cmd));
        (offset % size == 0 && same).then_some(index)
    }

    /// The findings, ending the judgement.
    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }

    /// The cached fact of the command at `index` that `slot` reads, if worked out.
    fn cached<T: Clone>(
        &self,
        index: usize,
        slot: for<'d> fn(&'d Derived<'a>) -> &'d Option<T>,
    ) -> Option<T> {
        self.cache.borrow().get(index).and_then(|d| slot(d).clone())
    }

    /// Keeps `value` as the fact of the command at `index` that `slot` names.
    fn keep<T>(
        &self,
        index: usize,
        slot: for<'d> fn(&'d mut Derived<'a>) -> &'d mut Option<T>,
        value: T,
    ) {
        let mut cache = self.cache.borrow_mut();
        if cache.len() < self.commands.len() {
            cache.resize_with(self.commands.len(), Derived::default);
        }
        if let Some(d) = cache.get_mut(index) {
            *slot(d) = Some(value);
        }
    }

    /// The catalogue entry of the program `cmd` runs ([`invocation::entry_of`]),
    /// looked up once per command.
    pub fn entry(&self, cmd: &SimpleCommand) -> Option<&'static Entry> {
        let kept = self
            .index_of(cmd)
            .and_then(|index| Some(self.cache.borrow().get(index)?.entry));
        match kept {
            Some(found) => found,
            None => invocation::entry_of(cmd),
        }
    }

    /// [`SimpleCommand::base_name`] of `cmd`, worked out once per command.
    pub fn base_name<'c>(&self, cmd: &'c SimpleCommand) -> Option<&'c str>
    where
        'a: 'c,
    {
        self.names_of(cmd).base
    }

    /// [`SimpleCommand::program_str`] of `cmd`, worked out once per command.
    pub fn program_str<'c>(&self, cmd: &'c SimpleCommand) -> Option<&'c str>
    where
        'a: 'c,
    {
        self.names_of(cmd).program
    }

    /// The program names of `cmd`: kept for a command being judged, worked out for
    /// one from elsewhere.
    fn names_of<'c>(&self, cmd: &'c SimpleCommand) -> ProgramNames<'c>
    where
        'a: 'c,
    {
        match self.index_of(cmd).and_then(|index| self.names.get(index)) {
            Some(&names) => names,
            None => ProgramNames::of(cmd),
        }
    }

    /// `cmd` read with its catalogue entry ([`Invocation::of`]), worked out once
    /// per command; `None` when no program starts or its name is dynamic.
    pub fn invocation<'c>(&self, cmd: &'c SimpleCommand) -> Option<Rc<Invocation<'c>>>
    where
        'a: 'c,
    {
        let Some(index) = self.index_of(cmd) else {
            return Invocation::of(cmd).map(Rc::new);
        };
        if let Some(found) = self.cached(index, |d| &d.invocation) {
            return found;
        }
        // The same record as `cmd`, borrowed for as long as the checker.
        let own = self.commands.get(index)?;
        let entry = self.entry(own);
        let roles = match entry {
            Some(e) if !e.subcommands.is_empty() => self.args(own),
            _ => NO_ARGS.with(Rc::clone),
        };
        let found = Invocation::of_roles(own, entry, &roles).map(Rc::new);
        self.keep(index, |d| &mut d.invocation, found.clone());
        found
    }

    /// What `cmd`'s words make of its program ([`catalogue::usage`]: the
    /// subcommand named and the facts it and the flags add), worked out once per
    /// command; `None` for a program the catalogue does not know.
    pub fn usage(&self, cmd: &SimpleCommand) -> Option<Rc<Usage>> {
        let work = || {
            let entry = self.entry(cmd)?;
            if entry.subcommands.is_empty() && entry.flag_fact_mask == 0 {
                // Nothing in the words can add a fact: the program's facts.
                return Some(program_usage(entry));
            }
            Some(Rc::new(run_time_usage::usage_of(
                entry,
                cmd.args(),
                &cmd.context.splitting,
            )))
        };
        let Some(index) = self.index_of(cmd) else {
            return work();
        };
        if let Some(found) = self.cached(index, |d| &d.usage) {
            return found;
        }
        let found = work();
        self.keep(index, |d| &mut d.usage, found.clone());
        found
    }

    /// `cmd`'s arguments read with its program's catalogue entry
    /// ([`catalogue::classify`] of [`Checker::entry`] over the static values of
    /// [`SimpleCommand::args`]), worked out once per command however many checks
    /// read it; empty when the catalogue does not know the program.
    pub fn args(&self, cmd: &SimpleCommand) -> Rc<Vec<Arg>> {
        let work = || match self.entry(cmd) {
            Some(entry) => {
                let values: Values = cmd.args().iter().map(Word::value).collect();
                catalogue::classify(entry, &values)
            }
            None => NO_ARGS.with(Rc::clone),
        };
        let Some(index) = self.index_of(cmd) else {
            return work();
        };
        if let Some(found) = self.cached(index, |d| &d.args) {
            return found;
        }
        let found = work();
        self.keep(index, |d| &mut d.args, Rc::clone(&found));
        found
    }

    /// Every path `cmd` names, with its access and role ([`path_uses`]), worked out
    /// once per command however many checks read it.
    pub fn path_uses<'c>(&self, cmd: &'c SimpleCommand) -> Rc<Vec<PathUse<'c>>>
    where
        'a: 'c,
    {
        // The uses borrow the command's words; most commands name no path.
        fn share(uses: Vec<PathUse<'_>>) -> Rc<Vec<PathUse<'_>>> {
            if uses.is_empty() {
                NO_USES.with(Rc::clone)
            } else {
                Rc::new(uses)
            }
        }
        let Some(index) = self.index_of(cmd) else {
            return share(path_uses(cmd));
        };
        if let Some(found) = self.cached(index, |d| &d.uses) {
            return found;
        }
        // The same command (`index_of` compared addresses), as the checker holds it.
        let found = share(path_uses(&self.commands[index]));
        self.keep(index, |d| &mut d.uses, Rc::clone(&found));
        found
    }

    /// The files `cmd` writes ([`written_files::written_files`]), worked out once
    /// per command.
    pub fn written_files(&self, cmd: &SimpleCommand) -> Rc<Vec<WrittenFile>> {
        let Some(index) = self.index_of(cmd) else {
            return shared(written_files::written_files(cmd, self), &NO_WRITES);
        };
        if let Some(found) = self.cached(index, |d| &d.written) {
            return found;
        }
        let found = shared(written_files::written_files(cmd, self), &NO_WRITES);
        self.keep(index, |d| &mut d.written, Rc::clone(&found));
        found
    }

    /// Reports a finding of `rule` with its default decision.
    pub fn report(&mut self, rule: &'static Rule, span: Span, message: String) {
        self.findings
            .push(finding(rule, span, self.source, message));
    }

    /// Reports a finding of `rule` with its default decision and a safer
    /// alternative.
    pub fn report_suggesting(
        &mut self,
        rule: &'static Rule,
        span: Span,
        message: String,
        suggestion: &str,
    ) {
        let mut f = finding(rule, span, self.source, message);
        f.suggestion = Some(suggestion.to_string());
        self.findings.push(f);
    }

    /// Reports a finding of `rule` with an explicit decision.
    pub fn report_as(
        &mut self,
        rule: &'static Rule,
        decision: Decision,
        span: Span,
        message: String,
    ) {
        let mut f = finding(rule, span, self.source, message);
        f.decision = decision;
        self.findings.push(f);
    }

    /// Reports a path finding of `rule` with an explicit decision, naming the
    /// resolved `path` it is about.
    pub fn report_path(
        &mut self,
        rule: &'static Rule,
        decision: Decision,
        span: Span,
        message: String,
        path: &std::path::Path,
    ) {
        let mut f = finding(rule, span, self.source, message);
        f.decision = decision;
        f.path = Some(path.to_string_lossy().into_owned());
        self.findings.push(f);
    }
}

/// Longest `text` a finding carries (bytes); longer spans are cut with `…`.
pub const MAX_FINDING_TEXT: usize = 256;

/// A finding of `rule` with its default decision; `text` is cut from `source`.
pub fn finding(rule: &'static Rule, span: Span, source: &str, message: String) -> Finding {
    // Spans land on character boundaries: the grammar can report an error node that
    // starts or ends inside a multi-byte character (found by fuzzing); widen it.
    let mut end = span.end.min(source.len());
    while !source.is_char_boundary(end) {
        end += 1;
    }
    let mut start = span.start.min(end);
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    // The text is for display: a finding over a huge span must not copy it whole
    // (one finding per level of a deep `$($(…))` would be quadratic).
    let mut cut = end.min(start + MAX_FINDING_TEXT);
    while cut > start && !source.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut text = source
        .get(start..cut)
        .map(str::to_string)
        .unwrap_or_else(|| String::from_utf8_lossy(&source.as_bytes()[start..cut]).into_owned());
    if cut < end {
        text.push('…');
    }
    Finding {
        rule: rule.code,
        name: rule.name,
        decision: rule.default,
        capability: rule.capability,
        message,
        span: Span::new(start, end),
        text,
        path: None,
        suggestion: None,
    }
}
