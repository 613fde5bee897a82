//! The traversal: visits a syntax tree with an explicit stack (any depth is safe) and
//! produces a [`SimpleCommand`] record for every place a program starts — lists,
//! pipelines, subshells, brace groups, compound statement bodies, function bodies,
//! `$(...)`, backticks, `<(...)`, `[[ ]]`, declaration commands, heredocs — and for
//! the scripts of `bash -c` / `eval` / heredocs fed to shells, which are parsed again
//! and walked one nesting level deeper (bounded by the nesting limit).
//!
//! Scopes are pushed and popped here as bash runs the script (subshells, pipeline
//! stages, substitutions and background jobs each get a copy); what a scope tracks is
//! `scope.rs`, and how nodes become values is `lower.rs`.

use super::arithmetic;
use super::builtin_assignments;
use super::command::{Context, Cwd, InlineScript, Origin, Redirect, SimpleCommand};
use super::dash_names;
use super::definitions::Effects;
use super::env_options;
use super::fastpath::{self, Compound, CompoundKind, Lexed, Statement, Statements};
use super::input_arguments;
use super::links;
use super::lower::{self, Source};
use super::nested::{self, Positionals, ScriptText};
use super::problem::{Problem, ProblemKind};
use super::repeat;
use super::scope::Scope;
use super::shell_tables;
use super::split::{self, Sep};
use super::word::{Part, Word};
use super::written;
use super::{Env, wrappers};
use crate::parse::SpanMap;
use crate::parse::kind;
use crate::parse::{Field, field};
use crate::verdict::Span;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use tree_sitter::{Node, Tree};

/// What a walk produced.
#[derive(Debug, Default)]
pub(super) struct Walked {
    /// Every simple command, in the order bash would reach them (outer before nested).
    pub commands: Vec<SimpleCommand>,
    /// What could not be analysed.
    pub problems: Vec<Problem>,
}

/// Walks a parsed command. `source` is the original command text (spans point into it).
pub(super) fn walk(tree: &Tree, text: &str, source: &str, env: &Env<'_>) -> Walked {
    let mut walker = Walker::new(source, env);
    let src = Source {
        text,
        map: SpanMap::identity(source.len()),
        start: env.cwd,
    };
    walker.walk_tree(tree, src, 0, Frame::default());
    walker.run_concurrent();
    walker.run_later();
    walker.out
}

/// Walks the commands the fast lexer read: each goes through the same record step as
/// a parsed command (pipeline stages in their own scopes, as bash runs them). Nested
/// scripts (`bash -c`, `| sh`, a heredoc into a shell), `find -exec` commands and
/// code for arithmetic evaluation are found and walked by that step as well: they
/// depend on the words, which the lexer builds exactly as lowering does.
pub(super) fn walk_lexed(statements: Statements, source: &str, env: &Env<'_>) -> Walked {
    let mut walker = Walker::new(source, env);
    let mut statements = statements;
    match statements.pop() {
        // Most commands: one list of simple commands, with one record per lexed
        // command at least (room for them up front).
        Some(Statement::Commands(lexed)) if statements.is_empty() => {
            walker.out.commands.reserve(lexed.len());
            walker.lexed(lexed, &Frame::default(), 0);
        }
        last => walker.statements(statements.into_iter().chain(last), &Frame::default(), 0),
    }
    walker.run_concurrent();
    walker.run_later();
    walker.out
}

/// A part parsed alone, with what the walk needs to place it in the whole command.
struct ParsedPart {
    /// The part's tree and the text it was parsed from.
    parsed: crate::parse::Parsed,
    /// Where that text starts in the whole command.
    start: usize,
    /// Where it ends.
    end: usize,
    /// A stage of a pipeline (a pipe on either side).
    in_pipeline: bool,
    /// Its stdin comes from the previous stage.
    piped_stdin: bool,
}

/// The walk of `source` parsed part by part at its top-level operators (see
/// `split.rs`), when it splits into at least `min_parts` and every part parses
/// without a problem; `None` otherwise (the caller parses the whole text, which is
/// always the reference).
pub(super) fn walk_split(source: &str, env: &Env<'_>, min_parts: usize) -> Option<Walked> {
    let parts = split::parts(source, min_parts)?;
    let mut parsed_parts = Vec::with_capacity(parts.len());
    let mut previous = None;
    for part in parts {
        // A command named like an option (`ls |- x=~/a`): the grammar reads a lone
        // `-` by its context (dropped before an assignment in a pipeline, a name
        // alone), so such a part parsed alone may differ from the whole parse.
        if source[part.start..part.end].trim_start().starts_with('-') {
            return None;
        }
        let parsed = crate::parse::parse(&source[part.start..part.end]).ok()?;
        if parsed.unrepaired
            || crate::parse::problem(&parsed).is_some()
            || redirects_whole_list(&parsed.tree)
        {
            return None;
        }
        let piped_stdin = previous == Some(Sep::Pipe);
        parsed_parts.push(ParsedPart {
            parsed,
            start: part.start,
            end: part.end,
            in_pipeline: piped_stdin || part.sep == Some(Sep::Pipe),
            piped_stdin,
        });
        previous = part.sep;
    }
    Some(walk_parts(&parsed_parts, source, env))
}

/// True when a part is a statement other than a simple command with redirects
/// after it (`export P=x > f`, `[ -f x ] > f`). In a list or pipeline the whole
/// parse hangs such redirects on the whole list, recorded before its commands and
/// outside its pipeline; parsed alone, the part records them where it stands. The
/// whole parse is the reference, so such a command is not split.
fn redirects_whole_list(tree: &Tree) -> bool {
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.named_children(&mut cursor).any(|statement| {
        kind(statement) == "redirected_statement"
            && field::child(statement, Field::Body).is_none_or(|body| kind(body) != "command")
    })
}

/// Walks a command parsed part by part (see `split.rs`): each stage or list element
/// was parsed alone, and is walked with the frame the whole tree would give it — a
/// stage of a pipeline in its own scope, its stdin piped after the first — so the
/// records are those of the whole parse.
fn walk_parts(parts: &[ParsedPart], source: &str, env: &Env<'_>) -> Walked {
    let mut walker = Walker::new(source, env);
    for part in parts {
        // Node ids are addresses: they mean nothing across trees.
        walker.handled.clear();
        walker.trailing.clear();
        let frame = Frame {
            in_pipeline: part.in_pipeline,
            piped_stdin: part.piped_stdin,
            ..Frame::default()
        };
        let src = Source {
            text: &part.parsed.text,
            map: SpanMap::Offset {
                base: part.start,
                end: part.end,
            },
            start: env.cwd,
        };
        if part.in_pipeline {
            walker.push_scope();
            walker.fork();
        }
        walker.walk_tree(&part.parsed.tree, src, 0, frame);
        if part.in_pipeline {
            walker.join();
            walker.pop_scope();
        }
    }
    walker.run_concurrent();
    walker.run_later();
    walker.out
}

/// What `xargs` or `parallel` runs with known arguments.
enum InputRuns {
    /// Commands as words (`xargs`).
    Argvs(Vec<Vec<Word>>),
    /// Shell text (`parallel`), with where its arguments are written.
    Scripts(Vec<String>, Span),
    /// Commands the gate cannot tell, from arguments written here.
    Unknown(Span),
}

/// What a node inherits from where it stands.
#[derive(Clone, Debug, Default)]
struct Frame {
    in_substitution: bool,
    in_pipeline: bool,
    piped_stdin: bool,
    /// A redirect of an enclosing compound command or function call feeds stdin.
    stdin_redirected: bool,
    background: bool,
    function: Option<Rc<str>>,
    /// Inside a command's own words: assignments here belong to the command.
    in_command: bool,
}

impl Frame {
    /// This frame for the commands inside a compound command, function or call
    /// carrying `redirects`: fed when one of them gives stdin (`{ python3; } <
    /// x.py`).
    fn fed_by(&self, redirects: &[Redirect]) -> Frame {
        Frame {
            stdin_redirected: self.stdin_redirected || redirects.iter().any(Redirect::feeds_stdin),
            ..self.clone()
        }
    }
}

enum Task<'t> {
    Visit(Node<'t>, Frame),
    PushScope,
    PopScope,
    /// The end of a function body: defines the function, with what its body
    /// changed and the body itself, in the scope around it (run before that body's
    /// `PopScope`).
    EndDefinition(Rc<str>, Option<(Rc<str>, SpanMap)>),
    /// The start of a job that runs beside the rest of the command (a pipeline
    /// stage, a background job, a process substitution), in its own scope: noted
    /// with the links made so far (see [`Walker::run_concurrent`]).
    Fork,
    /// The end of the walk of the job the last open [`Task::Fork`] started.
    Join,
    /// The end of one pass over a loop (`for`, `select`, `while`, `until`): walks
    /// it again if the pass, numbered here, changed what the walker knew at the mark.
    EndPass(
        Node<'t>,
        Frame,
        Box<repeat::Mark>,
        u32,
        Option<LoopVariable>,
    ),
}

struct Walker<'s> {
    source: &'s str,
    env: &'s Env<'s>,
    out: Walked,
    /// Kept on the walker for the first nestings (a command runs in one scope,
    /// a pipeline stage or a subshell in a second).
    scopes: smallvec::SmallVec<[Scope; 2]>,
    /// `command` nodes already recorded through their `redirected_statement`.
    handled: HashSet<usize>,
    /// Files written so far, for scripts run after being written.
    written: written::Files,
    /// Folders the command fetched code into (`git clone URL repo`), by absolute
    /// path: running what is in them runs code the gate cannot see.
    fetched: Vec<std::path::PathBuf>,
    /// Redirects (and words) the grammar hung on a whole list or pipeline (`a && b
    /// < f`) that bash gives to its last command, by that command's node id.
    trailing: HashMap<usize, Trailing>,
    /// Symbolic links made so far (like files, they outlive subshells).
    links: Vec<links::Link>,
    /// Files named like options created so far (files outlive the subshell that
    /// made them, so this is not scoped).
    dash_named: Vec<dash_names::DashName>,
    /// A command so far widened what globs match (not scoped: fail closed).
    relaxed_globs: bool,
    /// Bytes walked again so far (see `repeat.rs`).
    repeated: usize,
    /// The functions whose bodies are being walked for a call, innermost last.
    expanding: Vec<Expansion>,
    /// Traps set so far: their text runs again at the end (see [`Walker::run_later`]).
    later: Vec<Later>,
    /// Jobs that run beside the rest of the command (see [`Walker::run_concurrent`]).
    concurrent: Vec<Concurrent>,
    /// The jobs whose walk has started and not ended, innermost last.
    open_jobs: Vec<usize>,
    /// The script files run inside jobs (see [`Walker::run_concurrent`]).
    job_scripts: Vec<JobScript>,
    /// Trap texts walked again so far (see [`Walker::run_traps`]).
    trap_runs: usize,
    /// The trees of the nested texts parsed so far.
    parses: super::parse_cache::ParseCache,
}

/// A function's body being walked for a call (see [`Walker::call_function`]).
struct Expansion {
    name: Rc<str>,
    /// What the walker knew at the call.
    mark: repeat::Mark,
    /// The depth of the scope the body is walked in: not a shell of its own.
    depth: usize,
}

/// A trap's text, walked where it is set and again when the command ends.
struct Later {
    text: String,
    map: SpanMap,
    frame: Frame,
    nesting: u32,
    /// The scope where the trap was set.
    site: Scope,
    /// Set for the shell's exit alone: it runs from the final state only.
    on_exit_only: bool,
    /// How deep the scope of the shell that set it is: the trap runs when that
    /// scope ends.
    depth: usize,
}

/// A job that runs beside the rest of the command: its records, and what the
/// command had made when it started.
struct Concurrent {
    /// The job's records: `out.commands[from..to]`.
    from: usize,
    /// Set when its walk ends.
    to: Option<usize>,
    /// The links made when it started.
    links: Vec<links::Link>,
    /// How many files named like options had been made when it started.
    dash_named: usize,
}

/// A script file a job runs (`sh F`, `./F`), with the text the command had written
/// to it when the job's record was walked: the job may read it later, after the
/// command wrote it again.
struct JobScript {
    /// The record that runs it: `out.commands[record]`.
    record: usize,
    /// The file.
    path: std::path::PathBuf,
    /// What the command had written to it then (`None`: nothing).
    seen: Option<Option<String>>,
    /// The word naming it.
    span: Span,
}

/// What the grammar hung on an enclosing statement that bash gives a command: its
/// redirects, and the words after them (`a | cat >log ~/.ssh/id_rsa`).
#[derive(Default)]
struct Trailing {
    redirects: Vec<Redirect>,
    words: Vec<Word>,
}

/// The last simple command of a list or pipeline (`c` in `a && b | c`, and in `a |
/// c >x`), when the last element is one, or assignments alone (`a | X=v > f prog`,
/// where the grammar hangs `prog` on the redirect).
fn last_command(node: Node) -> Option<Node> {
    let mut last = node;
    loop {
        last = match kind(last) {
            "list" | "pipeline" | "negated_command" => {
                let count = u32::try_from(last.named_child_count()).ok()?;
                last.named_child(count.checked_sub(1)?)?
            }
            "redirected_statement" => field::child(last, Field::Body)?,
            _ => break,
        };
    }
    matches!(
        kind(last),
        "command" | "variable_assignment" | "variable_assignments"
    )
    .then_some(last)
}

/// The text a call of a function runs, and where it sits: of a `{ LIST; }` body,
/// the LIST, which runs as the group would (a redirect after the group belongs to
/// the definition and is judged there), so the fast lexer can take it and a call
/// skips the parse; any other body (`( … )`, `[[ … ]]`, a loop) as written.
fn function_body(body: Node, src: Source) -> (Rc<str>, SpanMap) {
    let braces = (
        body.child(0),
        body.child(body.child_count().saturating_sub(1)),
    );
    let (start, end) = match braces {
        (Some(open), Some(close))
            if kind(body) == "compound_statement"
                && kind(open) == "{"
                && kind(close) == "}"
                && !close.is_missing()
                && open.end_byte() <= close.start_byte() =>
        {
            (open.end_byte(), close.start_byte())
        }
        _ => (body.start_byte(), body.end_byte()),
    };
    let text = src.text.get(start..end).unwrap_or_default();
    (Rc::from(text), src.map.within(start, end))
}

/// The variables `words` expand unquoted after the start of a word whose value
/// word splitting may cut into more words ([`Scope::may_split`]).
fn splitting_inside_words(words: &[Word], scope: &Scope) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in words.iter().flat_map(Word::split_points) {
        if !names.iter().any(|n| n == name) && scope.may_split(name) {
            names.push(name.to_string());
        }
    }
    names
}

/// The innermost scope. The stack is never empty: the bottom scope is never popped.
fn top(scopes: &[Scope]) -> &Scope {
    &scopes[scopes.len() - 1]
}

impl<'s> Walker<'s> {
    fn new(source: &'s str, env: &'s Env<'s>) -> Walker<'s> {
        Walker {
            source,
            env,
            out: Walked::default(),
            scopes: smallvec::smallvec![Scope::default()],
            handled: HashSet::new(),
            written: written::Files::default(),
            fetched: Vec::new(),
            trailing: HashMap::new(),
            dash_named: Vec::new(),
            relaxed_globs: false,
            links: Vec::new(),
            repeated: 0,
            expanding: Vec::new(),
            later: Vec::new(),
            concurrent: Vec::new(),
            open_jobs: Vec::new(),
            job_scripts: Vec::new(),
            trap_runs: 0,
            parses: Default::default(),
        }
    }

    /// Notes a job starting here that runs beside the rest of the command.
    fn fork(&mut self) {
        self.open_jobs.push(self.concurrent.len());
        self.concurrent.push(Concurrent {
            from: self.out.commands.len(),
            to: None,
            links: self.links.clone(),
            dash_named: self.dash_named.len(),
        });
    }

    /// Notes that the innermost job started by [`Walker::fork`] has been walked.
    fn join(&mut self) {
        if let Some(job) = self
            .open_jobs
            .pop()
            .and_then(|i| self.concurrent.get_mut(i))
        {
            job.to = Some(self.out.commands.len());
        }
    }

    /// The end of the command, for the jobs that ran beside it: variables were
    /// copied when a job started, but files are shared, so a link or a file named
    /// like an option made after a job started (later in the command, or by a
    /// later stage of its pipeline) may be what the job finds when it gets there:
    /// `{ sleep 1; cat l/shadow; } & ln -s /etc l`. Each record of such a job is
    /// judged again with every link and file the command made: a copy, its paths
    /// led through the links, added when that changed it or the files. A script
    /// file a job runs whose text the command changed after the job's record was
    /// walked is walked with its last text: `{ sleep 1; sh x.sh; } & echo 'rm -rf
    /// ~' > x.sh`.
    fn run_concurrent(&mut self) {
        self.open_jobs.clear();
        let jobs: Vec<Concurrent> = std::mem::take(&mut self.concurrent)
            .into_iter()
            .filter(|job| job.links != self.links || job.dash_named != self.dash_named.len())
            .collect();
        // Script files run in jobs whose text the command changed after the walk
        // of the record that runs them.
        let scripts: Vec<(Option<String>, Span, usize)> = std::mem::take(&mut self.job_scripts)
            .into_iter()
            .filter_map(|run| {
                let now = self.written.get(&run.path)?;
                (run.seen.as_ref() != Some(now)).then(|| (now.clone(), run.span, run.record))
            })
            .collect();
        for (text, at, record) in scripts {
            match text {
                Some(text) => {
                    let frame = Frame {
                        background: true,
                        ..Frame::default()
                    };
                    self.nested(&text, SpanMap::Whole(at), 1, &frame, true);
                }
                None => {
                    let mut record = self.out.commands[record].clone();
                    record.script = Some(InlineScript::Dynamic { span: at });
                    self.out.commands.push(record);
                }
            }
        }
        if jobs.is_empty() {
            return;
        }
        let all_links = self.links.clone();
        // Jobs nest (a stage that is itself a pipeline): each record once.
        let mut judged = vec![false; self.out.commands.len()];
        for job in jobs {
            let to = job.to.unwrap_or(self.out.commands.len());
            for i in job.from..to.min(judged.len()) {
                if std::mem::replace(&mut judged[i], true) {
                    continue;
                }
                let mut record = self.out.commands[i].clone();
                let cwd = record.context.cwd.place(self.env.cwd);
                let targets = record
                    .redirects
                    .iter_mut()
                    .filter_map(|r| r.target.as_mut());
                let moved = links::lead_through(
                    &mut record.words,
                    record.program,
                    targets,
                    cwd,
                    &all_links,
                );
                // Copied with every dash-named file when it was walked before the
                // last was made and has a glob they may change; a record walked
                // after (a later stage of an outer job) already knows them all.
                if moved
                    || record.context.dash_named != self.dash_named
                        && dash_names::may_expand_to_options(&record)
                {
                    record.context.dash_named = self.dash_named.clone();
                    self.out.commands.push(record);
                }
            }
        }
    }

    /// The end of the command: every trap set in it runs now at the latest. Its
    /// text was walked where the trap was set; bash runs it when the shell exits
    /// (from the state the command ends in) or on a signal (from any state after
    /// the trap was set). So it is walked again from the final state and, unless
    /// it is for `EXIT` alone, from a state where every variable is unknown (and
    /// the directory, if it moved). `c=true; trap '$c' EXIT; c=reboot` runs
    /// `reboot`. A trap set by a trap's text is run too, within the limits.
    fn run_later(&mut self) {
        let pending = std::mem::take(&mut self.later);
        self.run_traps(pending);
    }

    /// Walks trap texts as [`Walker::run_later`] says, and the traps they set.
    fn run_traps(&mut self, pending: Vec<Later>) {
        for later in pending {
            let span = later.map.map(0, later.text.len());
            if self.trap_runs >= repeat::MAX_TRAP_RUNS {
                self.out.problems.push(Problem::RepeatLimit { span });
                return;
            }
            self.trap_runs += 1;
            if !self.may_repeat(2 * later.text.len(), span) {
                return;
            }
            let (text, map, frame) = (&later.text, later.map, &later.frame);
            self.nested(text, map, later.nesting, frame, true);
            if !later.on_exit_only {
                self.push_scope();
                self.scope_mut().widen_all_from(&later.site);
                self.nested(text, map, later.nesting, frame, true);
                self.pop_scope();
            }
        }
    }

    /// What a later pass of a body would start from (see `repeat.rs`).
    fn state(&self) -> repeat::State<'_> {
        repeat::State {
            scope: self.scope(),
            written: &self.written,
            links: &self.links,
            dash_named: &self.dash_named,
        }
    }

    /// Counts `bytes` walked again; false (with a finding at `span`) once the
    /// command has asked for more than the budget.
    fn may_repeat(&mut self, bytes: usize, span: Span) -> bool {
        self.repeated += bytes;
        if self.repeated > repeat::REPEAT_BUDGET {
            self.out.problems.push(Problem::RepeatLimit { span });
            return false;
        }
        true
    }

    fn scope(&self) -> &Scope {
        top(&self.scopes)
    }

    fn scope_mut(&mut self) -> &mut Scope {
        let top = self.scopes.len() - 1;
        &mut self.scopes[top]
    }

    fn push_scope(&mut self) {
        let top = self.scope().clone();
        self.scopes.push(top);
    }

    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.end_of_shell();
            self.scopes.pop();
        }
    }

    /// The innermost scope ends: the traps set in it belong to the shell that
    /// ends with it (a subshell, a pipeline stage, `bash -c`), which runs them
    /// now, from its last state (see [`Walker::run_later`]); a function's run
    /// is not a shell, its traps stay set in the caller's.
    fn end_of_shell(&mut self) {
        let depth = self.scopes.len();
        if !self.later.iter().any(|l| l.depth >= depth) {
            return;
        }
        if self.expanding.last().is_some_and(|e| e.depth == depth) {
            for later in &mut self.later {
                later.depth = later.depth.min(depth - 1);
            }
            return;
        }
        let (ending, kept) = std::mem::take(&mut self.later)
            .into_iter()
            .partition(|l| l.depth >= depth);
        self.later = kept;
        self.run_traps(ending);
    }

    /// The effects of the body just walked in the innermost scope, compared with
    /// the scope around it.
    fn body_effects(&self) -> Effects {
        match self.scopes.len() {
            n if n >= 2 => self.scopes[n - 1].effects_since(&self.scopes[n - 2], self.env.cwd),
            _ => Effects::unknown(),
        }
    }

    /// Defines the function whose body was just walked in the scope around it.
    fn end_definition(&mut self, name: &str, body: Option<(Rc<str>, SpanMap)>) {
        let mut effects = self.body_effects();
        effects.body = body;
        let n = self.scopes.len();
        if n >= 2 {
            self.scopes[n - 2].definitions.define(name, effects);
        }
    }

    fn walk_tree(&mut self, tree: &Tree, src: Source, nesting: u32, base: Frame) {
        let mut stack: Vec<Task> = vec![Task::Visit(tree.root_node(), base)];
        while let Some(task) = stack.pop() {
            match task {
                Task::PushScope => self.push_scope(),
                Task::PopScope => self.pop_scope(),
                Task::EndDefinition(name, body) => self.end_definition(&name, body),
                Task::Fork => self.fork(),
                Task::Join => self.join(),
                Task::EndPass(node, frame, mark, pass, variable) => {
                    let pass = Pass {
                        number: pass,
                        variable,
                    };
                    self.end_pass(node, frame, &mark, pass, src, nesting, &mut stack)
                }
                Task::Visit(node, frame) => self.visit(node, frame, src, nesting, &mut stack),
            }
        }
    }

    fn visit<'t>(
        &mut self,
        node: Node<'t>,
        mut frame: Frame,
        src: Source,
        nesting: u32,
        stack: &mut Vec<Task<'t>>,
    ) {
        match kind(node) {
            "comment" => {}
            "command" => {
                if !self.handled.contains(&node.id()) {
                    let trailing = self.trailing.remove(&node.id()).unwrap_or_default();
                    self.command(node, trailing, &frame, src, nesting);
                }
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_command_children(node, &inner, stack, src.text);
            }
            "redirected_statement" => {
                let mut own = self.redirects_of(node, src);
                match field::child(node, Field::Body) {
                    Some(body) if kind(body) == "command" => {
                        self.handled.insert(body.id());
                        // What an enclosing list hung on it comes after its own.
                        if let Some(outer) = self.trailing.remove(&body.id()) {
                            own.redirects.extend(outer.redirects);
                            own.words.extend(outer.words);
                        }
                        self.command(body, own, &frame, src, nesting);
                    }
                    // tree-sitter-bash hangs `a && b < f`, `a | b > f` and `! b > f` on
                    // the whole list; bash gives the redirect to the last command
                    // (which may be a shell or interpreter reading it as its script).
                    Some(body) if matches!(kind(body), "list" | "pipeline" | "negated_command") => {
                        match last_command(body) {
                            Some(last) => {
                                let trailing = self.trailing.entry(last.id()).or_default();
                                trailing.redirects.extend(own.redirects);
                                trailing.words.extend(own.words);
                            }
                            None => self.bare(src.span(node), Vec::new(), own, &frame, nesting),
                        }
                    }
                    _ => {
                        // `{ python3; } < x.py`, `while …; done < f`: the
                        // commands inside read what the redirect feeds.
                        frame = frame.fed_by(&own.redirects);
                        self.bare(src.span(node), Vec::new(), own, &frame, nesting)
                    }
                }
                push_children(node, &frame, stack);
            }
            "pipeline" => {
                let mut stages: Vec<(Node<'t>, bool)> = Vec::new();
                let mut seen_pipe = false;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    match kind(child) {
                        "|" | "|&" => seen_pipe = true,
                        _ if child.is_named() => stages.push((child, seen_pipe)),
                        _ => {}
                    }
                }
                for (stage, piped) in stages.into_iter().rev() {
                    let inner = Frame {
                        in_pipeline: true,
                        piped_stdin: piped,
                        ..frame.clone()
                    };
                    stack.push(Task::PopScope);
                    stack.push(Task::Join);
                    stack.push(Task::Visit(stage, inner));
                    stack.push(Task::Fork);
                    stack.push(Task::PushScope);
                }
            }
            "subshell" | "command_substitution" | "process_substitution" => {
                let substitution = kind(node) != "subshell";
                if kind(node) == "command_substitution" {
                    self.read_substitution(node, &frame, src, nesting);
                }
                let inner = Frame {
                    in_substitution: frame.in_substitution || substitution,
                    in_pipeline: !substitution && frame.in_pipeline,
                    piped_stdin: !substitution && frame.piped_stdin,
                    in_command: false,
                    ..frame
                };
                let process = kind(node) == "process_substitution";
                stack.push(Task::PopScope);
                if process {
                    stack.push(Task::Join);
                }
                // `( a & b )`: a job in the background, as in any list.
                push_list(node, &inner, stack);
                if process {
                    stack.push(Task::Fork);
                }
                stack.push(Task::PushScope);
            }
            "function_definition" => {
                let name = field::child(node, Field::Name).map(|n| Rc::from(src.slice(n)));
                let inner = Frame {
                    function: name.clone().or(frame.function.clone()),
                    in_command: false,
                    ..frame
                };
                // `f() { …; } > FILE`: every call writes FILE. Like the body, the
                // redirect is judged where the function is defined.
                let own = self.redirects_of(node, src);
                // `f() { python3; } < x.py`: the body reads what the redirect feeds.
                let inner = inner.fed_by(&own.redirects);
                if !own.redirects.is_empty() {
                    self.bare(src.span(node), Vec::new(), own, &inner, nesting);
                }
                stack.push(Task::PopScope);
                if let Some(name) = name {
                    let body = field::child(node, Field::Body).map(|body| function_body(body, src));
                    stack.push(Task::EndDefinition(name, body));
                }
                push_children(node, &inner, stack);
                stack.push(Task::PushScope);
            }
            "variable_assignment" | "variable_assignments" if !frame.in_command => {
                let mut assignments = Vec::new();
                if kind(node) == "variable_assignment" {
                    assignments.push(lower::assignment(node, src, self.scope()));
                } else {
                    let mut cursor = node.walk();
                    for child in node.named_children(&mut cursor) {
                        if kind(child) == "variable_assignment" {
                            assignments.push(lower::assignment(child, src, self.scope()));
                        }
                    }
                }
                let codes = arithmetic::in_assignments(&assignments, self.scope());
                self.arithmetic(codes, &frame, nesting);
                self.shell_tables(&assignments, &frame, nesting);
                let trailing = self.trailing.remove(&node.id()).unwrap_or_default();
                if let Some(last) = trailing.words.last() {
                    // `a | X=v > f prog`: the grammar ends the stage at the redirect
                    // and hangs `prog` on it; bash runs `prog` with `X` in its
                    // environment (the shell's `X` is untouched).
                    let span = Span::new(src.span(node).start, last.span.end);
                    self.record(
                        trailing.words,
                        assignments,
                        trailing.redirects,
                        span,
                        Origin::Simple,
                        &frame,
                        nesting,
                    );
                } else {
                    self.bare(src.span(node), assignments, trailing, &frame, nesting);
                    self.track_arrays(node, src);
                    self.track_numeric(node, src);
                }
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack);
            }
            "declaration_command" | "unset_command" => {
                let (words, assignments) = lower::declaration_parts(node, src, self.scope());
                let codes = self.declaration(words, assignments, src.span(node), &frame, nesting);
                self.track_arrays(node, src);
                self.track_numeric(node, src);
                self.arithmetic(codes, &frame, nesting);
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack);
            }
            "arithmetic_expansion" => {
                let codes = arithmetic::in_node(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                push_list(node, &frame, stack);
            }
            "array" => {
                let codes = arithmetic::in_array_keys(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                push_list(node, &frame, stack);
            }
            "subscript" => {
                let codes = arithmetic::in_subscript(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                push_list(node, &frame, stack);
            }
            "expansion" => {
                let codes = arithmetic::in_expansion(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                push_list(node, &frame, stack);
            }
            "compound_statement" if node.child(0).is_some_and(|c| kind(c) == "((") => {
                let codes = arithmetic::in_node(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                push_list(node, &frame, stack);
            }
            "for_statement" | "c_style_for_statement" | "while_statement" => {
                // Bash expands the list of a `for` once, when the loop starts.
                let variable = self.loop_variable(node, src, &frame, nesting);
                let pass = Pass {
                    number: 1,
                    variable,
                };
                self.loop_pass(node, frame, pass, src, nesting, stack);
            }
            "test_command" => {
                let mut record =
                    SimpleCommand::new(Origin::Test, src.span(node), self.context(&frame, nesting));
                record.words = lower::test_words(node, src);
                self.push_record(record);
                let codes = arithmetic::in_test(node, src, self.scope());
                self.arithmetic(codes, &frame, nesting);
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack);
            }
            "ERROR" => {
                self.recover(node, &frame, src, nesting);
                push_list(node, &frame, stack);
            }
            _ => push_list(node, &frame, stack),
        }
    }

    /// One pass over a loop: its header (the loop variable, a C-style loop's
    /// arithmetic), then its children, then [`Task::EndPass`].
    fn loop_pass<'t>(
        &mut self,
        node: Node<'t>,
        frame: Frame,
        pass: Pass,
        src: Source,
        nesting: u32,
        stack: &mut Vec<Task<'t>>,
    ) {
        if kind(node) == "c_style_for_statement" {
            let codes = arithmetic::in_node(node, src, self.scope());
            self.arithmetic(codes, &frame, nesting);
        }
        enter_pass(self.scope_mut(), pass.variable.as_ref());
        let mark = Box::new(repeat::Mark::of(self.state()));
        stack.push(Task::EndPass(
            node,
            frame.clone(),
            mark,
            pass.number,
            pass.variable,
        ));
        if kind(node) == "while_statement" {
            push_list(node, &frame, stack);
        } else {
            push_children(node, &frame, stack);
        }
    }

    /// `for PATH in ".:$PATH"; do git status; done`, `for HOME in .`: a loop
    /// assigns its variable each word in turn, and a variable the environment
    /// already exports (`PATH`, `HOME`, `LD_PRELOAD`) stays exported with the new
    /// value. For a name in environment style (no lower-case letter), each word is
    /// judged as an assignment of it, as `PATH=…` would be.
    fn loop_assignments(&mut self, name: &str, values: &[Word], frame: &Frame, nesting: u32) {
        if name.bytes().any(|b| b.is_ascii_lowercase()) {
            return;
        }
        let (Some(first), Some(last)) = (values.first(), values.last()) else {
            return;
        };
        let span = Span::new(first.span.start, last.span.end);
        let assignments = values
            .iter()
            .map(|value| super::command::Assignment {
                name: name.to_string(),
                value: Some(value.clone()),
                span: value.span,
            })
            .collect();
        let mut record = SimpleCommand::new(Origin::Bare, span, self.context(frame, nesting));
        record.assignments = assignments;
        self.push_record(record);
    }

    /// A `for` or `select` loop's variable, with whether every value it takes is
    /// a relative path below the working directory, and whether it is a number.
    /// Its words, lowered once, are also judged as assignments of the variable
    /// ([`Walker::loop_assignments`]).
    fn loop_variable(
        &mut self,
        node: Node,
        src: Source,
        frame: &Frame,
        nesting: u32,
    ) -> Option<LoopVariable> {
        if kind(node) != "for_statement" {
            return None;
        }
        let name = field::child(node, Field::Variable)?;
        let words = self.loop_words(node, src);
        self.loop_assignments(src.slice(name), &words, frame, nesting);
        Some(LoopVariable {
            name: Rc::from(src.slice(name)),
            confined: confined_values(&words).then(|| Rc::from(words)),
            numeric: loop_numeric(node, src),
        })
    }

    /// After a pass over a loop: the loop runs again from what this pass left, so
    /// it is walked again unless the pass left everything as it found it (see
    /// `repeat.rs`).
    #[allow(clippy::too_many_arguments)]
    fn end_pass<'t>(
        &mut self,
        node: Node<'t>,
        frame: Frame,
        mark: &repeat::Mark,
        pass: Pass,
        src: Source,
        nesting: u32,
        stack: &mut Vec<Task<'t>>,
    ) {
        let length = node.end_byte() - node.start_byte();
        if !self.again(mark, &pass, length, src.span(node)) {
            return;
        }
        let next = Pass {
            number: pass.number + 1,
            ..pass
        };
        self.loop_pass(node, frame, next, src, nesting, stack);
    }

    /// Whether a loop of `length` bytes at `span` is walked again after `pass`
    /// (started at `mark`): not when the pass left everything as it found it, nor
    /// past the passes or the repeat budget (with a finding). The pass that
    /// reaches [`repeat::MAX_PASSES`] widens what keeps changing first.
    fn again(&mut self, mark: &repeat::Mark, pass: &Pass, length: usize, span: Span) -> bool {
        // The next pass starts with the header again (the loop variable takes its
        // next value): it would do what this one did if, after the header, it
        // starts where this one started.
        let next;
        let scope = match pass.variable {
            None => self.scope(),
            Some(_) => {
                let mut scope = self.scope().clone();
                enter_pass(&mut scope, pass.variable.as_ref());
                next = scope;
                &next
            }
        };
        let state = repeat::State {
            scope,
            ..self.state()
        };
        if mark.settled(state) {
            return false;
        }
        if pass.number > repeat::MAX_PASSES + repeat::WIDENED_PASSES {
            self.out.problems.push(Problem::RepeatLimit { span });
            return false;
        }
        if !self.may_repeat(length, span) {
            return false;
        }
        if pass.number >= repeat::MAX_PASSES {
            self.scope_mut().widen_from(&mark.scope);
            self.written.widen_from(&mark.written);
        }
        true
    }

    /// What an ERROR node still says. The grammar's error recovery decides which
    /// tokens end up structured, and the same text recovers differently in different
    /// surroundings (`X` alone vs `{ X; }`), so the loose tokens are read as bash
    /// would most dangerously read them: each run of words is a command and each
    /// redirect operator followed by a word is a redirect of it. The command already
    /// asks (BG001); this keeps a write to `~/.ssh` a deny however the text is
    /// wrapped.
    fn recover(&mut self, node: Node, frame: &Frame, src: Source, nesting: u32) {
        let mut words: Vec<Node> = Vec::new();
        let mut redirects: Vec<Redirect> = Vec::new();
        let mut start = node.start_byte();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut i = 0;
        while i < children.len() {
            let child = children[i];
            let next_is_word = children
                .get(i + 1)
                .is_some_and(|n| lower::is_word_kind(kind(n)) && kind(n) != "$");
            if !child.is_named() && lower::is_redirect_operator(kind(child)) && next_is_word {
                // The target: the next word node and every word node glued to it.
                let mut end = i + 2;
                while children.get(end).is_some_and(|n| {
                    lower::is_word_kind(kind(n)) && n.start_byte() == children[end - 1].end_byte()
                }) {
                    end += 1;
                }
                let redirect = lower::loose_redirect(
                    child,
                    &children[i + 1..end],
                    src,
                    top(&self.scopes),
                    &mut self.out.problems,
                );
                redirects.push(redirect);
                i = end;
                continue;
            }
            if lower::is_word_kind(kind(child)) && kind(child) != "$" {
                if words.is_empty() && redirects.is_empty() {
                    start = child.start_byte();
                }
                words.push(child);
            } else {
                self.recovered(
                    &mut words,
                    &mut redirects,
                    start,
                    child.start_byte(),
                    frame,
                    src,
                    nesting,
                );
            }
            i += 1;
        }
        self.recovered(
            &mut words,
            &mut redirects,
            start,
            node.end_byte(),
            frame,
            src,
            nesting,
        );
    }

    /// Records one run of loose words and redirects found by [`Walker::recover`].
    #[allow(clippy::too_many_arguments)]
    fn recovered(
        &mut self,
        words: &mut Vec<Node>,
        redirects: &mut Vec<Redirect>,
        start: usize,
        end: usize,
        frame: &Frame,
        src: Source,
        nesting: u32,
    ) {
        if words.is_empty() && redirects.is_empty() {
            return;
        }
        let span = src.map.map(start, end.max(start));
        let built = lower::words(words, src, top(&self.scopes), &mut self.out.problems);
        let redirects = std::mem::take(redirects);
        words.clear();
        if built.is_empty() {
            let mut record = SimpleCommand::new(Origin::Bare, span, self.context(frame, nesting));
            record.redirects = redirects;
            self.push_record(record);
        } else {
            self.record(
                built,
                Vec::new(),
                redirects,
                span,
                Origin::Simple,
                frame,
                nesting,
            );
        }
    }

    fn context(&self, frame: &Frame, nesting: u32) -> Context {
        Context {
            nesting,
            in_substitution: frame.in_substitution,
            in_pipeline: frame.in_pipeline,
            piped_stdin: frame.piped_stdin,
            stdin_redirected: frame.stdin_redirected || self.scope().stdin_redirected,
            background: frame.background,
            function: frame.function.as_deref().map(str::to_string),
            cwd: self.scope().cwd.clone(),
            confined: self.scope().confined().to_vec(),
            dash_named: self.dash_named.clone(),
            relaxed_globs: self.relaxed_globs,
            splitting: Vec::new(),
        }
    }

    /// Adds a record to the walk, after noting the variables it assigns (through
    /// namerefs, and by builtins such as `read` and `printf -v`, which become
    /// assignments of the record).
    fn push_record(&mut self, mut record: SimpleCommand) {
        // Before the record's own assignments: its words expand first.
        record.context.splitting = splitting_inside_words(&record.words, self.scope());
        builtin_assignments::through_namerefs(&mut record, self.scope());
        self.scope_mut().track_vars(&record);
        builtin_assignments::note(&mut record, self.scope());
        // The command as its program reads it, with options from the environment.
        let read = env_options::as_read(&record, self.scope());
        self.add_record(record);
        if let Some(read) = read {
            self.add_record(read);
        }
    }

    /// Adds a record whose variables are noted: the names like options it makes
    /// and how it widens globs count for the commands after it.
    fn add_record(&mut self, record: SimpleCommand) {
        if dash_names::may_create(&record) {
            let cwd = self.scope().path_of(".", self.env.cwd);
            let created = dash_names::created_dash_name(&record, cwd.as_deref());
            repeat::add_dash_named(&mut self.dash_named, created);
        }
        if !self.relaxed_globs && super::glob_options::widens(&record) {
            self.relaxed_globs = true;
        }
        self.out.commands.push(record);
    }

    fn command(
        &mut self,
        node: Node,
        trailing: Trailing,
        frame: &Frame,
        src: Source,
        nesting: u32,
    ) {
        let mut redirects = trailing.redirects;
        let (words, assignments, span) = lower::command_parts(
            node,
            src,
            top(&self.scopes),
            &mut redirects,
            trailing.words,
            &mut self.out.problems,
        );
        self.record(
            words,
            assignments,
            redirects,
            span,
            Origin::Simple,
            frame,
            nesting,
        );
    }

    /// Builds the record(s) for one list of words: unwraps wrappers, follows `find
    /// -exec`, walks nested scripts, and applies `cd`.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        mut words: Vec<Word>,
        mut assignments: Vec<super::command::Assignment>,
        mut redirects: Vec<Redirect>,
        span: Span,
        origin: Origin,
        frame: &Frame,
        nesting: u32,
    ) {
        // Paths through links made earlier lead where the links do (the name `ln
        // -n` replaces: only its folders).
        if !self.links.is_empty() {
            let here = self.scope().path_of(".", self.env.cwd);
            let program = wrappers::unwrap(&words).program;
            let targets = redirects.iter_mut().filter_map(|r| r.target.as_mut());
            links::lead_through(&mut words, program, targets, here.as_deref(), &self.links);
        }
        let unwrapped = wrappers::unwrap(&words);
        // `tar xzf A` is `tar -xzf A`: every reading of the words sees the flags.
        super::old_style::dash_first_argument(
            &mut words,
            unwrapped.program,
            unwrapped.old_style_flags,
        );
        for &i in &unwrapped.env_assignments {
            if let Some(word) = words.get(i) {
                assignments.push(lower::assignment_word(word));
            }
        }
        // Functions exported through `env` to the shells it starts (first: the
        // record keeps the last script, the command's own).
        let mut scripts: Vec<ScriptText> = unwrapped
            .env_assignments
            .iter()
            .filter_map(|&i| words.get(i))
            .filter_map(super::callbacks::exported_function)
            .collect();
        // `FOO_COMMAND='CMD' foo`: a variable whose name says a program runs it.
        scripts.extend(variable_scripts(&assignments, self.source));
        let exported = scripts.len();
        scripts.extend(nested::scripts_of(
            &words,
            unwrapped.program,
            &unwrapped.wrappers,
            unwrapped
                .script
                .clone()
                .map(|r| (r, unwrapped.script_offset)),
            &redirects,
            frame.piped_stdin,
            self.source,
        ));
        // `find -exec sh -c 'echo {}' \;`, `xargs -I % sh -c 'wc -l %'`: a run-time
        // item pasted into shell text makes it a script only known at run time
        // (its static text is walked too).
        let by = match &origin {
            Origin::Embedded(by) => Some(by.clone()),
            _ => None,
        };
        let by = by.as_deref();
        let placeholder = input_arguments::run_time_placeholder(
            &words,
            unwrapped.program,
            &unwrapped.wrappers,
            by,
        );
        if let Some(placeholder) = &placeholder {
            let pasted: Vec<Span> = scripts
                .iter()
                .filter_map(|s| match s {
                    ScriptText::Static { text, map, .. } if text.contains(placeholder.as_str()) => {
                        Some(map.map(0, text.len()))
                    }
                    _ => None,
                })
                .collect();
            scripts.extend(pasted.into_iter().map(ScriptText::Dynamic));
        }
        // Callbacks of builtins (`trap`, `mapfile -C`, `bind -x`...), also behind
        // `builtin` or `command`.
        if let Some(i) = unwrapped.program
            && let Some(name) = words.get(i).and_then(Word::value)
        {
            let args = words.get(i + 1..).unwrap_or(&[]);
            scripts.extend(super::callbacks::scripts(name, args, self.source));
        }
        // A call of a function or alias defined earlier runs the definition.
        let (called_at, called) = match self.called_definition(&words, &origin) {
            Some((at, effects)) => (at, Some(effects)),
            None => (0, None),
        };
        // `alias NAME=TEXT…`: which definition each script is.
        let alias_names: Vec<Option<String>> = alias_names(&words, unwrapped.program);
        let mut record = SimpleCommand::new(origin, span, self.context(frame, nesting));
        record.shadowed = called.is_some() && unwrapped.program == Some(called_at);
        record.moves_cwd = called.as_ref().is_some_and(|e| {
            let here = self.scope().path_of(".", self.env.cwd);
            super::definitions::cwd_after(e, &Cwd::Start, here.as_deref()) == Cwd::Unknown
        });
        record.program = unwrapped.program;
        record.wrappers = unwrapped.wrappers.clone();
        record.assignments = assignments;
        record.redirects = redirects;
        record.words = words;
        let mut parsed_scripts = Vec::new();
        for (k, script) in scripts.into_iter().enumerate() {
            let alias = k
                .checked_sub(exported)
                .and_then(|k| alias_names.get(k).cloned().flatten());
            match script {
                ScriptText::Static { text, map, args } => {
                    // A script only known at run time keeps the record asking.
                    if !matches!(
                        record.script,
                        Some(InlineScript::Dynamic { .. } | InlineScript::UnknownStdin { .. })
                    ) {
                        record.script = Some(InlineScript::Parsed {
                            span: map.map(0, text.len()),
                        });
                    }
                    let args = input_arguments::run_time_positionals(
                        args,
                        &record,
                        placeholder.as_deref(),
                    );
                    parsed_scripts.push((text, map, alias, args));
                }
                ScriptText::Dynamic(span) => {
                    if let Some(alias) = alias {
                        self.scope_mut()
                            .definitions
                            .define(&alias, Effects::unknown());
                    }
                    record.script = Some(InlineScript::Dynamic { span });
                }
                ScriptText::UnknownStdin(span) => {
                    record.script = Some(InlineScript::UnknownStdin { span });
                }
            }
        }
        let mut embedded: Vec<(String, Vec<Word>)> = unwrapped
            .embedded
            .iter()
            .filter_map(|(by, range)| Some((by.clone(), record.words.get(range.clone())?.to_vec())))
            .collect();
        // `xargs CMD` and `parallel CMD` given known input: the commands they run.
        match self.input_runs(&record, &unwrapped) {
            Some(InputRuns::Argvs(argvs)) => {
                let by = record.program_str().unwrap_or("xargs").to_string();
                embedded.extend(argvs.into_iter().map(|argv| (by.clone(), argv)))
            }
            Some(InputRuns::Scripts(scripts, at)) => {
                let map = SpanMap::Whole(at);
                parsed_scripts.extend(
                    scripts
                        .into_iter()
                        .map(|text| (text, map, None, Positionals::Inherited)),
                );
            }
            // Unknown commands keep the record asking, whatever script it has.
            Some(InputRuns::Unknown(at))
                if !matches!(record.script, Some(InlineScript::UnknownStdin { .. })) =>
            {
                record.script = Some(InlineScript::Dynamic { span: at });
            }
            Some(InputRuns::Unknown(_)) | None => {}
        }
        // Scripts run in this shell (their `cd` and assignments last): `eval`, and
        // callbacks run now (`mapfile -C`, `compgen -C`) or later in it (`trap`).
        let is_eval = record.program_str().is_some_and(|n| {
            matches!(
                n,
                "eval" | "alias" | "trap" | "mapfile" | "readarray" | "compgen"
            )
        });
        // A trap's text runs again later: when the shell ends, or on a signal.
        let is_trap = record.program_str() == Some("trap");
        let on_exit_only = is_trap && super::callbacks::trap_on_exit_only(record.args());
        // The script file the record runs, when the command wrote files or the
        // record is in a job (whose file the command may write later).
        let script_file = if self.written.is_empty() && self.open_jobs.is_empty() {
            None
        } else {
            written::script_run(&record)
                .and_then(|(name, at)| Some((self.scope().path_of(&name, self.env.cwd)?, at)))
        };
        // A file written earlier in the command and run now: its text is the script.
        if record.script.is_none()
            && let Some((path, at)) = &script_file
            && let Some(text) = self.written.get(path).cloned()
        {
            run_written(&mut record, text, *at, &mut parsed_scripts);
        }
        // Another file the record runs that the command wrote: a shell's rcfile
        // (`bash --rcfile f -ic true`) is walked too; code in a language the gate
        // does not read (`python3 x.py`) asks, as does a script only known at run
        // time that may be such a file (`sh "$f"`, `sh *.sh`).
        if !self.written.is_empty() {
            let shell = record.base_name().is_some_and(nested::is_shell);
            let walked = script_file.as_ref().map(|(_, at)| *at);
            let mut asks = None;
            for file in written::code_files(&record) {
                match file {
                    written::CodeFile::Named(name, at) if Some(at) != walked => {
                        let path = self.scope().path_of(&name, self.env.cwd);
                        let Some(text) = path.as_ref().and_then(|p| self.written.get(p).cloned())
                        else {
                            // A folder whose files run by name (`python3 DIR`,
                            // `git -c core.hooksPath=DIR`) holding a file the
                            // command wrote.
                            if path.is_some_and(|p| self.written.any_under(&p)) {
                                asks.get_or_insert(InlineScript::WrittenCode { span: at });
                            }
                            continue;
                        };
                        match (shell, text) {
                            (true, Some(text)) => {
                                let args = written_positionals(&record, at);
                                parsed_scripts.push((text, SpanMap::Whole(at), None, args));
                            }
                            (true, None) => {
                                asks.get_or_insert(InlineScript::Dynamic { span: at });
                            }
                            (false, _) => {
                                asks.get_or_insert(InlineScript::WrittenCode { span: at });
                            }
                        }
                    }
                    written::CodeFile::Named(..) => {}
                    written::CodeFile::Unknown(at) => {
                        asks.get_or_insert(InlineScript::Dynamic { span: at });
                    }
                }
            }
            // Text walked stays walked; the record's own finding is the ask.
            if let Some(script) = asks
                && matches!(record.script, None | Some(InlineScript::Parsed { .. }))
            {
                record.script = Some(script);
            }
        }
        // `PATH=.:$PATH ls`, `export PATH=bin:$PATH; git`: a program found through a
        // PATH the command changed may be a file it wrote under that name; it runs
        // as `./ls` would.
        if record.script.is_none()
            && !self.written.is_empty()
            && let Some(name) = record.program_str().filter(|n| !n.contains('/'))
            && (record.assignments.iter().any(|a| a.name == "PATH")
                || self.scope().lookup("PATH").is_some())
            && let Some(text) = self.written.named(name).cloned()
        {
            let at = record.name().map_or(record.span, |w| w.span);
            run_written(&mut record, text, at, &mut parsed_scripts);
        }
        // `git clone URL repo && make -C repo`: code the command fetched, run.
        if !self.fetched.is_empty()
            && matches!(record.script, None | Some(InlineScript::Parsed { .. }))
            && let Some(span) = self.runs_fetched(&record)
        {
            record.script = Some(InlineScript::Fetched { span });
        }
        for folder in super::fetched::fetches(&record) {
            if let Some(path) = self.scope().path_of(&folder, self.env.cwd) {
                self.fetched.push(path);
            }
        }
        if record.program_str().and_then(crate::catalogue::canonical) == Some("ln") {
            let here = self.scope().path_of(".", self.env.cwd);
            let made = links::made_by(&record, here.as_deref(), self.env.resolver);
            repeat::add_links(&mut self.links, made);
        }
        let home = self.env.resolver.home_text();
        for write in written::writes(&record, home) {
            if let Some(path) = self.scope().path_of(&write.name, self.env.cwd) {
                self.written.note(path, write.text, write.append);
            }
        }
        let (start, resolver) = (self.env.cwd, self.env.resolver);
        let top = self.scopes.len() - 1;
        // An alias call with known arguments is walked as its expansion below,
        // which moves the directory as it does.
        let alias_call = called.as_ref().and_then(|e| {
            let text = e.alias_text.as_deref()?;
            // Words as written are only in the command's own text at the top level.
            let source = (nesting == 0).then_some(self.source);
            let args = record.words.get(called_at + 1..).unwrap_or(&[]);
            super::definitions::expand_alias(text, args, source)
        });
        if alias_call.is_some() {
            record.moves_cwd = false;
        }
        // A call of a function defined earlier: its body runs now, from the state
        // of the call (walked below, after the call's own record).
        let function_call = match (&called, &alias_call) {
            (Some(effects), None) => effects
                .body
                .clone()
                .zip(record.words[called_at].value().map(Rc::from)),
            _ => None,
        };
        let known_before = self.scopes[top].cwd != Cwd::Unknown;
        match &called {
            Some(_) if alias_call.is_some() || function_call.is_some() => {}
            Some(effects) => self.scopes[top].apply_call(effects, start),
            None => self.scopes[top].apply_cd(&record, start, resolver),
        }
        // `CDPATH=/etc cd ssh`: a static operand that still leads somewhere unknown.
        // (`popd` past the stack the command built fails in a fresh shell and
        // leaves the directory unknown without a finding, as before.)
        if called.is_none()
            && known_before
            && record.program_str() != Some("popd")
            && self.scopes[top].cwd == Cwd::Unknown
            && record.args().iter().all(Word::is_static)
        {
            record.moves_cwd = true;
        }
        let codes = arithmetic::in_record(&record, &self.scopes[top]);
        let hashed = shell_tables::hashed(&record);
        // `setsid -f CMD`, `screen -dm sh -c TEXT`: what runs is a job beside the
        // rest of the command, like `CMD &` (see [`Walker::run_concurrent`]).
        let detached = unwrapped.detached;
        if detached {
            self.fork();
        }
        // A script file run inside a job: the command may write it again before
        // the job reads it.
        if !self.open_jobs.is_empty()
            && let Some((path, at)) = script_file
        {
            let seen = self.written.get(&path).cloned();
            self.job_scripts.push(JobScript {
                record: self.out.commands.len(),
                path,
                seen,
                span: at,
            });
        }
        // `find . -name .env -exec cat {} +`: the command once more for each name the
        // find's tests give, `{}` replaced.
        let found = if embedded.iter().any(|(by, _)| by == "find") {
            super::found_names::found_names(record.args())
        } else {
            Vec::new()
        };
        // A command a program runs reads the program's standard input (`uv run
        // python < x.py`, `bundle exec irb <<< CODE`): the redirects that feed it.
        let feeds_stdin = record.redirects.iter().any(Redirect::feeds_stdin);
        let fed: Vec<Redirect> = if embedded.is_empty() || !feeds_stdin {
            Vec::new()
        } else {
            record
                .redirects
                .iter()
                .filter(|r| r.feeds_stdin())
                .cloned()
                .collect()
        };
        // `exec < FILE`: the shell's own stdin from here on.
        if feeds_stdin
            && let [word] = &record.words[..]
            && word.value() == Some("exec")
        {
            self.scope_mut().stdin_redirected = true;
        }
        self.push_record(record);
        self.arithmetic(codes, frame, nesting);
        for (by, mut words) in embedded {
            // `cmake -E env A=1 CMD`: leading `NAME=VALUE` words are the command's
            // variables (an argv that began with one could not start anyway).
            let assigned = words
                .iter()
                .take_while(|w| w.value().is_some_and(wrappers::is_assignment))
                .count();
            let assignments: Vec<super::command::Assignment> = words
                .drain(..assigned)
                .map(|w| lower::assignment_word(&w))
                .collect();
            if by == "find" {
                for name in &found {
                    let mut named = words.clone();
                    let mut replaced = false;
                    for word in named.iter_mut().filter(|w| w.value() == Some("{}")) {
                        *word = Word::literal(name, word.span);
                        replaced = true;
                    }
                    if replaced {
                        self.record(
                            named,
                            Vec::new(),
                            fed.clone(),
                            span,
                            Origin::Embedded(by.clone()),
                            frame,
                            nesting,
                        );
                    }
                }
            }
            self.record(
                words,
                assignments,
                fed.clone(),
                span,
                Origin::Embedded(by),
                frame,
                nesting,
            );
        }
        for (text, map, alias, args) in parsed_scripts {
            // An alias's text is walked where it is defined, in its own scope; a
            // call of it applies what it changed.
            let own_scope = !is_eval || alias.is_some();
            let effects = self.nested_with(&text, map, nesting + 1, frame, own_scope, &args);
            if is_trap {
                self.later.push(Later {
                    text: text.clone(),
                    map,
                    frame: frame.clone(),
                    nesting: nesting + 1,
                    site: self.scope().clone(),
                    on_exit_only,
                    depth: self.scopes.len(),
                });
            }
            if let Some(alias) = alias {
                let mut effects = effects.unwrap_or_else(Effects::unknown);
                effects.alias_text = Some(text);
                self.scope_mut().definitions.define(&alias, effects);
            }
        }
        if detached {
            self.join();
        }
        // `hash -p PATH NAME` (and `BASH_CMDS[NAME]=PATH`): a call of NAME runs PATH.
        for (name, path) in hashed {
            let effects = match path {
                Some(path) => Effects {
                    alias_text: Some(super::definitions::single_quoted(&path)),
                    ..Effects::default()
                },
                None => Effects::unknown(),
            };
            self.scope_mut().definitions.define(&name, effects);
        }
        // A call of an alias runs its text with the call's arguments, in this shell.
        if let Some(script) = alias_call {
            self.nested(&script, SpanMap::Whole(span), nesting + 1, frame, false);
        }
        if let (Some((body, name)), Some(definition)) = (function_call, &called) {
            // `f < x.py`: the body's commands read what the call's redirect feeds.
            let fed = Frame {
                stdin_redirected: frame.stdin_redirected || feeds_stdin,
                ..frame.clone()
            };
            self.call_function(name, &body, definition, &fed, nesting);
        }
    }

    /// A call of the function `name`: its body walked from the state of the call
    /// (the definition's walk saw the state where it was defined, which a later
    /// assignment, `cd` or link may have changed), then what the body changed
    /// applied to the caller. A call inside a run of the same body (recursion) is
    /// the body running again: walked again while the state it starts from is not
    /// the one the enclosing run started from (see `repeat.rs`).
    fn call_function(
        &mut self,
        name: Rc<str>,
        body: &(Rc<str>, SpanMap),
        definition: &Effects,
        frame: &Frame,
        nesting: u32,
    ) {
        let (text, map) = body;
        let span = map.map(0, text.len());
        let runs = self.expanding.iter().filter(|e| e.name == name).count();
        let settled = self
            .expanding
            .iter()
            .rev()
            .find(|e| e.name == name)
            .is_some_and(|e| e.mark.settled(self.state()));
        let effects = if settled {
            None
        } else if runs > repeat::MAX_RUNS {
            self.out.problems.push(Problem::RepeatLimit { span });
            None
        } else if !self.may_repeat(text.len(), span) {
            None
        } else {
            self.expanding.push(Expansion {
                name: name.clone(),
                mark: repeat::Mark::of(self.state()),
                // `nested` walks the body in a scope of its own, one deeper.
                depth: self.scopes.len() + 1,
            });
            let inner = Frame {
                function: Some(name),
                ..frame.clone()
            };
            let effects = self.nested(text, *map, nesting, &inner, true);
            self.expanding.pop();
            effects
        };
        let start = self.env.cwd;
        self.scope_mut()
            .apply_call(effects.as_ref().unwrap_or(definition), start);
    }

    /// The known text `record` reads on stdin (see [`input_arguments::known_stdin`]),
    /// the record before it being the stage piped into it.
    fn known_stdin(&self, record: &SimpleCommand) -> Option<(String, Span)> {
        let home = self.env.resolver.home_text();
        let previous = self
            .out
            .commands
            .last()
            .filter(|p| input_arguments::piped_into(p, record, self.source));
        // A file the command wrote earlier, with its text known.
        let files = |word: &Word| {
            let path = self.scope().path_of(word.value()?, self.env.cwd)?;
            self.written.get(&path)?.clone()
        };
        input_arguments::known_stdin(&record.redirects, previous, home, &files)
    }

    /// What `xargs` or GNU `parallel` in `record` runs with the arguments it is
    /// given, when they are known: the words after `:::`, or stdin that is a
    /// here-string, a static heredoc, or the output of the `echo`/`printf` of
    /// static words just before it in the pipeline. A program reading file names
    /// from that stdin (`tar -T -`) reads them: a `cat` of them.
    fn input_runs(
        &self,
        record: &SimpleCommand,
        unwrapped: &wrappers::Unwrapped,
    ) -> Option<InputRuns> {
        let words = &record.words;
        let stdin = || self.known_stdin(record);
        let Some((k, &at)) = unwrapped.wrappers.iter().enumerate().find(|&(_, &at)| {
            words
                .get(at)
                .and_then(Word::value)
                .is_some_and(|v| matches!(input_arguments::program_name(v), "xargs" | "parallel"))
        }) else {
            let own = words.get(unwrapped.program?..)?;
            // Most records: a compare of the program's name, nothing more.
            if !input_arguments::may_read_names(own) {
                return None;
            }
            let (input, span) = stdin()?;
            let names = input_arguments::names_read(own, &input)?;
            let mut argv = vec![Word::literal("cat", span)];
            argv.extend(names.iter().map(|n| Word::literal(n, span)));
            return Some(InputRuns::Argvs(vec![argv]));
        };
        let home = self.env.resolver.home_text();
        let name = input_arguments::program_name(words.get(at)?.value()?);
        if name == "xargs" {
            let end = unwrapped
                .wrappers
                .get(k + 1)
                .copied()
                .or(unwrapped.program)
                .unwrap_or(words.len());
            let own = words.get(at + 1..)?;
            let (input, span) = stdin()?;
            return Some(
                match input_arguments::xargs_runs(own, end.checked_sub(at + 1)?, &input, span)? {
                    input_arguments::Runs::Known(argvs) => InputRuns::Argvs(argvs),
                    input_arguments::Runs::Unknown => InputRuns::Unknown(span),
                },
            );
        }
        // parallel: its script's words, then `:::` groups (or stdin lines). With
        // no script words each input line is a command (`cmd | parallel`,
        // `parallel < list`, `parallel -a list`).
        let script = unwrapped.script.clone().unwrap_or(words.len()..words.len());
        let after = words.get(script.end..).unwrap_or(&[]);
        let (groups, span) = if after.is_empty() {
            let Some((input, span)) = stdin() else {
                return script
                    .is_empty()
                    .then(|| InputRuns::Unknown(words.get(at).map_or(record.span, |w| w.span)));
            };
            let lines = input.lines().filter(|l| !l.is_empty()).map(str::to_string);
            (Some(vec![lines.collect()]), span)
        } else {
            let span = Span::new(after.first()?.span.start, after.last()?.span.end);
            (input_arguments::parallel_groups(after, home), span)
        };
        let runs = groups.map(|g| input_arguments::parallel_runs(words.get(script)?, &g));
        Some(match runs.flatten() {
            Some(input_arguments::Runs::Known(scripts)) => InputRuns::Scripts(scripts, span),
            _ => InputRuns::Unknown(span),
        })
    }

    /// Where in `words` a call of a function or alias defined earlier is, and the
    /// definition's effects: the first word, or the one after the `time` keyword
    /// (an alias only when written plainly: quoting or escaping a word stops alias
    /// expansion). `command`, `builtin`, `exec` and other wrappers before the name
    /// bypass functions and aliases.
    fn called_definition(&self, words: &[Word], origin: &Origin) -> Option<(usize, Effects)> {
        if *origin != Origin::Simple {
            return None;
        }
        // `time [-p] NAME`: the keyword times the pipeline; NAME is still the
        // command's first word, a call of a function or alias of that name.
        // Only the plain word is the keyword: `'time' NAME` runs the program `time`,
        // which runs the program NAME.
        let plain = |word: Option<&Word>, text: &[&str]| {
            word.is_some_and(
                |w| matches!(w.parts.as_slice(), [Part::Literal(t)] if text.contains(&t.as_str())),
            )
        };
        let mut at = 0;
        if plain(words.first(), &["time"]) {
            at = 1;
            while plain(words.get(at), &["-p", "--"]) {
                at += 1;
            }
        }
        let name = words.get(at)?.value()?;
        let effects = self.scope().definitions.get(name).cloned()?;
        Some((at, effects))
    }

    /// Where `record` runs code from a folder the command fetched
    /// ([`super::fetched`]): a word naming a file in it that the record runs, or
    /// the record's own name when it runs project code with the folder as its
    /// working directory.
    fn runs_fetched(&self, record: &SimpleCommand) -> Option<Span> {
        let inside = |path: &std::path::Path| self.fetched.iter().any(|f| path.starts_with(f));
        let runner = super::fetched::runs_project_code(record);
        for (name, at) in super::fetched::run_words(record, runner) {
            if self
                .scope()
                .path_of(&name, self.env.cwd)
                .is_some_and(|p| inside(&p))
            {
                return Some(at);
            }
        }
        let here = self.scope().path_of(".", self.env.cwd)?;
        (runner && inside(&here)).then(|| record.name().map_or(record.span, |w| w.span))
    }

    /// The record of a declaration command (`export A=1 B`), read from the tree or
    /// by the lexer: the values of variables named like commands walked as the
    /// scripts they are (`export FOO_COMMAND='CMD'`), `BASH_ALIASES[x]=…` as the
    /// builtin it is. Returns the arithmetic the record holds, which the caller
    /// walks after its own steps.
    fn declaration(
        &mut self,
        words: Vec<Word>,
        assignments: Vec<super::command::Assignment>,
        span: Span,
        frame: &Frame,
        nesting: u32,
    ) -> Vec<arithmetic::Code> {
        let mut record =
            SimpleCommand::new(Origin::Declaration, span, self.context(frame, nesting));
        record.program = (!words.is_empty()).then_some(0);
        record.words = words;
        // `export FOO_COMMAND='CMD'`: a value some program runs.
        let scripts = variable_scripts(&assignments, self.source);
        record.assignments = assignments;
        self.shell_tables(&record.assignments, frame, nesting);
        let codes = arithmetic::in_record(&record, self.scope());
        let mut parsed = Vec::new();
        for script in scripts {
            match script {
                ScriptText::Static { text, map, .. } => parsed.push((text, map)),
                ScriptText::Dynamic(span) | ScriptText::UnknownStdin(span) => {
                    record.script = Some(InlineScript::Dynamic { span })
                }
            }
        }
        self.push_record(record);
        for (text, map) in parsed {
            self.nested(&text, map, nesting + 1, frame, true);
        }
        codes
    }

    /// Records the commands the fast lexer read (the whole command, or a nested
    /// script's text) in `base`, as the tree walk records their nodes: a pipeline
    /// stage in a scope of its own, a list sent to the background (a final `&`) in
    /// one scope of its own.
    fn lexed(&mut self, lexed: Vec<Lexed>, base: &Frame, nesting: u32) {
        let background = lexed.first().is_some_and(|c| c.background);
        if background {
            self.push_scope();
            self.fork();
        }
        for mut command in lexed {
            // What the grammar marks numeric in a declaration or an assignment
            // alone: a value written as digits (the lexer takes no other number),
            // read before the values are substituted.
            let numeric: smallvec::SmallVec<[String; 2]> =
                if command.declaration || command.words.is_empty() {
                    command
                        .assignments
                        .iter()
                        .filter(|a| a.value.as_ref().is_some_and(written_as_digits))
                        .map(|a| a.name.clone())
                        .collect()
                } else {
                    smallvec::SmallVec::new()
                };
            // Values read with what is known of the variables before the statement,
            // as lowering reads them (`x=a; y=$x/b`).
            for assignment in &mut command.assignments {
                if let Some(value) = assignment.value.take() {
                    assignment.value = Some(self.scope().substitute(value));
                }
            }
            let frame = Frame {
                in_pipeline: base.in_pipeline || command.in_pipeline,
                piped_stdin: if command.in_pipeline {
                    command.piped_stdin
                } else {
                    base.piped_stdin
                },
                background: base.background || command.background,
                ..base.clone()
            };
            if command.test {
                // As the tree walk records a `test_command`: its operands as
                // written.
                let context = self.context(&frame, nesting);
                let mut record = SimpleCommand::new(Origin::Test, command.span, context);
                record.words = command.words;
                self.push_record(record);
                continue;
            }
            // The lexer takes substitutions only in the words of a simple command:
            // walked after its record, as the tree's substitution children are.
            let substitutions = std::mem::take(&mut command.substitutions);
            if command.words.is_empty() {
                // Assignments alone (`X=build; ls $X`), as the tree's
                // `variable_assignments` statement is walked.
                let codes = arithmetic::in_assignments(&command.assignments, self.scope());
                self.arithmetic(codes, &frame, nesting);
                self.shell_tables(&command.assignments, &frame, nesting);
                self.bare(
                    command.span,
                    command.assignments,
                    Trailing::default(),
                    &frame,
                    nesting,
                );
                for name in &numeric {
                    self.scope_mut().mark_numeric(name);
                }
                self.lexed_substitutions(substitutions, &frame, nesting);
                continue;
            }
            if command.declaration {
                let codes = self.declaration(
                    command.words,
                    command.assignments,
                    command.span,
                    &frame,
                    nesting,
                );
                for name in &numeric {
                    self.scope_mut().mark_numeric(name);
                }
                self.arithmetic(codes, &frame, nesting);
                self.lexed_substitutions(substitutions, &frame, nesting);
                continue;
            }
            if command.in_pipeline {
                self.push_scope();
                self.fork();
            }
            let words = command
                .words
                .into_iter()
                .map(|w| self.scope().substitute(w))
                .collect();
            self.record(
                words,
                command.assignments,
                command.redirects,
                command.span,
                Origin::Simple,
                &frame,
                nesting,
            );
            self.lexed_substitutions(substitutions, &frame, nesting);
            if command.in_pipeline {
                self.join();
                self.pop_scope();
            }
        }
        if background {
            self.join();
            self.pop_scope();
        }
    }

    /// The commands of a lexed command's substitutions, each list in a scope of
    /// its own, as the tree walk visits a `command_substitution` or
    /// `process_substitution` node: in a substitution, outside any pipeline the
    /// command is a stage of; a process substitution as a job of its own.
    fn lexed_substitutions(
        &mut self,
        substitutions: Vec<fastpath::Substitution>,
        frame: &Frame,
        nesting: u32,
    ) {
        if substitutions.is_empty() {
            return;
        }
        let inner = Frame {
            in_substitution: true,
            in_pipeline: false,
            piped_stdin: false,
            ..frame.clone()
        };
        for substitution in substitutions {
            self.push_scope();
            if substitution.process {
                self.fork();
            }
            self.lexed(substitution.commands, &inner, nesting);
            if substitution.process {
                self.join();
            }
            self.pop_scope();
        }
    }

    /// Parses and walks a nested script; its own scope unless it runs in this shell
    /// (`eval`). In its own scope, returns what the script changed there (`None`
    /// when it was not walked).
    fn nested(
        &mut self,
        text: &str,
        map: SpanMap,
        nesting: u32,
        frame: &Frame,
        own_scope: bool,
    ) -> Option<Effects> {
        self.nested_with(
            text,
            map,
            nesting,
            frame,
            own_scope,
            &Positionals::Inherited,
        )
    }

    /// [`Walker::nested`] for a script that runs with positional parameters of its
    /// own (`sh -c TEXT NAME ARGS`), bound in its scope before it is walked.
    fn nested_with(
        &mut self,
        text: &str,
        map: SpanMap,
        nesting: u32,
        frame: &Frame,
        own_scope: bool,
        args: &Positionals,
    ) -> Option<Effects> {
        let span = map.map(0, text.len());
        if nesting > self.env.max_nesting {
            self.out.problems.push(Problem::NestingLimit {
                span,
                limit: self.env.max_nesting,
            });
            return None;
        }
        let inner = Frame {
            in_command: false,
            ..frame.clone()
        };
        // The shapes the fast lexer knows skip the parse here too (`bash -c 'cargo
        // test'`): the same records, placed in the whole command by `map`.
        if self.env.fast_path
            && let Some(lexed) = fastpath::commands(text)
        {
            if own_scope {
                self.push_scope();
                self.scope_mut().bind_positionals(args);
            }
            let placed: Statements = lexed.into_iter().map(|s| s.placed(map)).collect();
            self.statements(placed, &inner, nesting);
            return own_scope.then(|| self.end_nested_scope());
        }
        let parsed = self.parses.parse(text, map, &mut self.out.problems)?;
        if own_scope {
            self.push_scope();
            self.scope_mut().bind_positionals(args);
        }
        let src = Source {
            text: &parsed.text,
            map,
            start: self.env.cwd,
        };
        // Node ids are addresses, unique only while their tree lives: the nested
        // tree's ids must not outlive it (a later tree may reuse its memory), and
        // the outer tree's must not be seen inside it.
        let handled = std::mem::take(&mut self.handled);
        let trailing = std::mem::take(&mut self.trailing);
        self.walk_tree(&parsed.tree, src, nesting, inner);
        self.handled = handled;
        self.trailing = trailing;
        own_scope.then(|| self.end_nested_scope())
    }

    /// Closes the scope a nested script ran in, giving what it changed.
    fn end_nested_scope(&mut self) -> Effects {
        let effects = self.body_effects();
        self.pop_scope();
        effects
    }

    /// The words of `for NAME in WORDS`, as the loop starts (none for `for f; do`,
    /// which loops over the positional parameters).
    fn loop_words(&mut self, node: Node, src: Source) -> Vec<Word> {
        let values = field::children(node, Field::Value);
        if values.is_empty() {
            return Vec::new();
        }
        lower::words(&values, src, top(&self.scopes), &mut Vec::new())
    }

    /// Walks what the fast lexer read: lists of simple commands, and compound
    /// statements as the tree walk visits their nodes.
    fn statements(
        &mut self,
        statements: impl IntoIterator<Item = Statement>,
        base: &Frame,
        nesting: u32,
    ) {
        for statement in statements {
            match statement {
                Statement::Commands(lexed) => self.lexed(lexed, base, nesting),
                Statement::Compound(compound) => self.compound(*compound, base, nesting),
            }
        }
    }

    /// A compound statement the fast lexer read: its redirects as the tree walk
    /// records a `redirected_statement` around one (a function's in its own
    /// frame, as a `function_definition` holds them); an `if`'s or a group's lists
    /// in order; a subshell's in a scope of its own; a function's list in a scope
    /// of its own, then the definition, as the walk of a `function_definition`; a
    /// loop pass after pass, as [`Walker::loop_pass`] and [`Walker::end_pass`] walk
    /// its node.
    fn compound(&mut self, compound: Compound, frame: &Frame, nesting: u32) {
        let function_frame;
        let frame = match &compound.kind {
            CompoundKind::Function { name, .. } => {
                function_frame = Frame {
                    function: Some(Rc::clone(name)),
                    in_command: false,
                    ..frame.clone()
                };
                &function_frame
            }
            _ => frame,
        };
        // `{ python3; } < x.py`: the commands inside read what the redirect feeds.
        let fed_frame = frame.fed_by(&compound.redirects);
        let frame = &fed_frame;
        if !compound.redirects.is_empty() {
            let trailing = Trailing {
                redirects: compound.redirects,
                words: Vec::new(),
            };
            self.bare(compound.redirected, Vec::new(), trailing, frame, nesting);
        }
        let variable = match compound.kind {
            CompoundKind::If | CompoundKind::Group => {
                return self.statements(compound.body, frame, nesting);
            }
            CompoundKind::Subshell => {
                self.push_scope();
                self.statements(compound.body, frame, nesting);
                self.pop_scope();
                return;
            }
            CompoundKind::Function {
                name, text, map, ..
            } => {
                self.push_scope();
                self.statements(compound.body, frame, nesting);
                self.end_definition(&name, Some((text, map)));
                self.pop_scope();
                return;
            }
            CompoundKind::While => None,
            CompoundKind::For {
                variable,
                values,
                numeric,
            } => {
                // Bash expands the list of a `for` once, when the loop starts.
                let words: Vec<Word> = values
                    .into_iter()
                    .map(|w| self.scope().substitute(w))
                    .collect();
                self.loop_assignments(&variable, &words, frame, nesting);
                Some(LoopVariable {
                    name: Rc::from(variable),
                    confined: confined_values(&words).then(|| Rc::from(words)),
                    numeric,
                })
            }
        };
        let mut pass = Pass {
            number: 1,
            variable,
        };
        loop {
            enter_pass(self.scope_mut(), pass.variable.as_ref());
            let mark = repeat::Mark::of(self.state());
            self.statements(compound.body.iter().cloned(), frame, nesting);
            if !self.again(&mark, &pass, compound.length, compound.span) {
                return;
            }
            pass.number += 1;
        }
    }

    /// Records the code that reaches arithmetic evaluation: static text is walked as
    /// the nested script `(( TEXT ))` (its commands judged like any other); text only
    /// known at run time is a record with no script, which the evaluation rule asks
    /// about.
    fn arithmetic(&mut self, codes: Vec<arithmetic::Code>, frame: &Frame, nesting: u32) {
        for code in codes {
            let (span, text) = match code {
                arithmetic::Code::Static { text, span } => (span, Some(text)),
                arithmetic::Code::Unknown { span } => (span, None),
            };
            let mut record = SimpleCommand::new(
                Origin::Embedded(ARITHMETIC.to_string()),
                span,
                self.context(frame, nesting),
            );
            record.script = text.as_ref().map(|_| InlineScript::Parsed { span });
            self.out.commands.push(record);
            if let Some(text) = text {
                let script = format!("(( {text} ))");
                self.nested(&script, SpanMap::Whole(span), nesting + 1, frame, true);
            }
        }
    }

    /// Assignments under `node` whose value is a number though unknown: the output
    /// of a program that prints numbers (`n=$(nproc)`), `$?`, `$#`, `$$`, `$!`.
    fn track_numeric(&mut self, node: Node, src: Source) {
        for assignment in assignments_under(node) {
            let (Some(name), Some(value)) = (
                field::child(assignment, Field::Name),
                field::child(assignment, Field::Value),
            ) else {
                continue;
            };
            if numeric_value(value, src) {
                let name = src.slice(name).to_string();
                self.scope_mut().mark_numeric(&name);
            }
        }
    }

    /// `$(< FILE)` reads FILE: recorded as a bare redirect, judged like `< FILE`.
    fn read_substitution(&mut self, node: Node, frame: &Frame, src: Source, nesting: u32) {
        let mut cursor = node.walk();
        let mut own = Trailing::default();
        for child in node.named_children(&mut cursor) {
            if kind(child) == "file_redirect" {
                let scope = top(&self.scopes);
                let redirect =
                    lower::redirect(child, src, scope, &mut self.out.problems, &mut own.words);
                own.redirects.push(redirect);
            }
        }
        if own.redirects.is_empty() {
            return;
        }
        let inner = Frame {
            in_substitution: true,
            ..frame.clone()
        };
        self.bare(src.span(node), Vec::new(), own, &inner, nesting);
    }

    /// Array assignments (`a=(x y)`, `local -a a=(…)`) under `node`: their elements.
    fn track_arrays(&mut self, node: Node, src: Source) {
        for assignment in assignments_under(node) {
            let name = field::child(assignment, Field::Name)
                .map(|n| src.slice(n))
                .unwrap_or("");
            if let Some(elements) = lower::array_elements(assignment, src, self.scope()) {
                let appends = field::child(assignment, Field::Value)
                    .and_then(|v| {
                        src.text
                            .get(assignment.start_byte() + name.len()..v.start_byte())
                    })
                    .is_some_and(|op| op.starts_with('+'));
                if appends {
                    self.scope_mut().set_var(&format!("{name}[?]"), None);
                } else {
                    self.scope_mut().set_array(name, elements);
                }
            }
        }
    }

    /// The redirects of a statement or a function definition, with the words the
    /// grammar hung on them ([`lower::redirects_of`]).
    fn redirects_of(&mut self, node: Node, src: Source) -> Trailing {
        let mut words = Vec::new();
        let scope = top(&self.scopes);
        let redirects = lower::redirects_of(node, src, scope, &mut self.out.problems, &mut words);
        Trailing { redirects, words }
    }

    /// `BASH_ALIASES[x]=TEXT`, `BASH_CMDS[x]=PATH`: judged as the `alias` or `hash
    /// -p` call each is ([`shell_tables`]).
    fn shell_tables(
        &mut self,
        assignments: &[super::command::Assignment],
        frame: &Frame,
        nesting: u32,
    ) {
        for a in assignments {
            if let Some(words) = shell_tables::as_builtin(a) {
                self.record(
                    words,
                    Vec::new(),
                    Vec::new(),
                    a.span,
                    Origin::Simple,
                    frame,
                    nesting,
                );
            }
        }
    }

    /// A record with no program: assignments alone, or the redirects of a compound
    /// command (`{ …; } > f`, `f() { …; } > f`, `$(< f)`). Words after such a
    /// redirect are a syntax error to bash (`{ ls; } > f x`), which the grammar
    /// accepts: they are reported as misread text, never dropped.
    fn bare(
        &mut self,
        span: Span,
        assignments: Vec<super::command::Assignment>,
        trailing: Trailing,
        frame: &Frame,
        nesting: u32,
    ) {
        if let Some(word) = trailing.words.first() {
            self.out.problems.push(Problem::Parse {
                kind: ProblemKind::Misread,
                span: word.span,
                nested: nesting > 0,
            });
        }
        let mut record = SimpleCommand::new(Origin::Bare, span, self.context(frame, nesting));
        record.assignments = assignments;
        record.redirects = trailing.redirects;
        self.push_record(record);
    }
}

/// True when a value is written as unquoted digits only (`5`, `007`): a `number`
/// to the grammar, which marks the name it is assigned to numeric. (`N=$X` is an
/// expansion to it, whatever `$X` holds.)
fn written_as_digits(value: &Word) -> bool {
    matches!(&value.parts[..], [Part::Literal(text)]
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
}

/// The scripts variables named like commands hold (`FOO_COMMAND='CMD' foo`,
/// `export X_EDITOR=CMD`: [`super::command_names::variable_names_a_command`]):
/// their values as shell text.
fn variable_scripts(assignments: &[super::command::Assignment], source: &str) -> Vec<ScriptText> {
    assignments
        .iter()
        .filter(|a| super::command_names::variable_names_a_command(&a.name))
        .filter_map(|a| a.value.as_ref())
        .map(|value| nested::single(value, source))
        .collect()
}

/// For `alias NAME=TEXT…` (run as the program itself), the alias each argument
/// defines, aligned with the scripts [`nested::scripts_of`] finds (one per argument).
fn alias_names(words: &[Word], program: Option<usize>) -> Vec<Option<String>> {
    let Some(index) = program else {
        return Vec::new();
    };
    if words.get(index).and_then(Word::value) != Some("alias") {
        return Vec::new();
    }
    words
        .get(index + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|w| {
            // The name is static even when the text is not (`alias ls="$X"`).
            let value = match w.static_value() {
                Some(v) => v,
                None => match w.parts.first()? {
                    Part::Literal(t) | Part::Quoted(t) => t.clone(),
                    _ => return None,
                },
            };
            let (name, _) = value.split_once('=')?;
            Some(name.to_string())
        })
        .collect()
}

/// The origin name of records that stand for code reaching arithmetic evaluation.
pub const ARITHMETIC: &str = "arithmetic evaluation";

/// A value node that is always a number: `$(nproc)` and other programs printing
/// numbers, `$?`, `$#`, `$$`, `$!`, `$((…))`, digits (also inside double quotes).
fn numeric_value(node: Node, src: Source) -> bool {
    match kind(node) {
        "number" => true,
        "word" => src.slice(node).bytes().all(|b| b.is_ascii_digit()),
        "arithmetic_expansion" => true,
        "simple_expansion" => matches!(src.slice(node), "$?" | "$#" | "$$" | "$!"),
        "command_substitution" => arithmetic::prints_number(node, src),
        "string" => {
            let mut cursor = node.walk();
            let children: Vec<Node> = node.named_children(&mut cursor).collect();
            children.len() == 1 && numeric_value(children[0], src)
        }
        _ => false,
    }
}

/// A `for` loop's variable: see [`Walker::loop_variable`].
#[derive(Clone)]
struct LoopVariable {
    /// Its name.
    name: Rc<str>,
    /// The loop's words, when every value they give is a relative path below the
    /// working directory.
    confined: Option<Rc<[Word]>>,
    numeric: bool,
}

/// One pass over a loop: its number (the first is 1) and the loop's variable,
/// read once when the loop starts.
#[derive(Clone)]
struct Pass {
    number: u32,
    variable: Option<LoopVariable>,
}

/// The values of a `for` loop keep its variable below the working directory:
/// every word is static text or a glob naming relative paths with no `..` (and no
/// pattern that could match `..`). Not when there are none (`for f; do` loops over
/// the positional parameters).
fn confined_values(words: &[Word]) -> bool {
    !words.is_empty()
        && words.iter().all(|w| {
            let text: String = w
                .parts
                .iter()
                .map(|p| match p {
                    Part::Literal(t) | Part::Quoted(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect::<Option<String>>()
                .unwrap_or_else(|| "/".to_string());
            !text.is_empty()
                && !text.starts_with(['/', '-'])
                && !text.split('/').any(|c| {
                    c == ".." || c.starts_with(".*") || c.starts_with(".?") || c.starts_with(".[")
                })
        })
}

/// What the start of a loop's pass does to `scope`: the loop variable takes a
/// value only known at run time (proven confined or numeric when it is).
fn enter_pass(scope: &mut Scope, variable: Option<&LoopVariable>) {
    let Some(variable) = variable else {
        return;
    };
    let name = &*variable.name;
    scope.set_var(name, None);
    if let Some(words) = &variable.confined {
        scope.confine(name, Rc::clone(words));
    }
    if variable.numeric {
        scope.mark_numeric(name);
    }
}

/// `for i in 1 2 3` or `for i in $(seq …)`: the loop variable is a number.
fn loop_numeric(node: Node, src: Source) -> bool {
    let values = field::children(node, Field::Value);
    !values.is_empty() && values.iter().all(|v| numeric_value(*v, src))
}

/// The `variable_assignment` node itself, or the ones directly under `node` (a
/// `variable_assignments` or declaration node).
fn assignments_under(node: Node) -> Vec<Node> {
    if kind(node) == "variable_assignment" {
        return vec![node];
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| kind(c) == "variable_assignment")
        .collect()
}

/// Pushes a node's children (those that can hold commands) to visit in order.
fn push_children<'t>(node: Node<'t>, frame: &Frame, stack: &mut Vec<Task<'t>>) {
    push_children_where(node, frame, stack, |_| true);
}

/// A command's children in order, but for those that hold nothing the walk acts
/// on ([`inert`]): the words of most commands.
fn push_command_children<'t>(node: Node<'t>, frame: &Frame, stack: &mut Vec<Task<'t>>, text: &str) {
    push_children_where(node, frame, stack, |child| !inert(child, text));
}

/// The named children of `node` that `keep` takes, in order. Leaves hold no
/// commands (ERROR and MISSING nodes are found separately).
fn push_children_where<'t>(
    node: Node<'t>,
    frame: &Frame,
    stack: &mut Vec<Task<'t>>,
    keep: impl Fn(Node<'t>) -> bool,
) {
    let start = stack.len();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.is_named() && child.child_count() > 0 && keep(child) {
            stack.push(Task::Visit(child, frame.clone()));
        }
    }
    stack[start..].reverse();
}

/// True for a word of a command (its name, a string, a concatenation, a redirect to
/// a file) whose subtree holds nothing the walk acts on. Every node it acts on
/// inside such a word (a command or process substitution, an arithmetic expansion,
/// a subshell) needs a `$`, a backtick or a `(` in the text, and a syntax error is
/// always visited: so a word with none of these, and no error, is skipped.
fn inert(node: Node, text: &str) -> bool {
    matches!(
        kind(node),
        "command_name" | "word" | "string" | "raw_string" | "concatenation" | "file_redirect"
    ) && !node.has_error()
        && text
            .as_bytes()
            .get(node.start_byte()..node.end_byte())
            .is_some_and(|bytes| !bytes.iter().any(|b| matches!(b, b'$' | b'`' | b'(')))
}

/// Lists, bodies and everything else: children in order; a child followed by `&`
/// runs in the background, in its own scope.
fn push_list<'t>(node: Node<'t>, frame: &Frame, stack: &mut Vec<Task<'t>>) {
    let start = stack.len();
    let mut background = false;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if kind(child) == "&" {
            background = true;
        } else if child.is_named() && child.child_count() > 0 {
            stack.push(Task::Visit(child, frame.clone()));
        }
    }
    if !background {
        stack[start..].reverse();
        return;
    }
    stack.truncate(start);
    let mut children: Vec<(Node<'t>, bool)> = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if kind(child) == "&" {
            if let Some(last) = children.last_mut() {
                last.1 = true;
            }
        } else if child.is_named() {
            children.push((child, false));
        }
    }
    for (child, background) in children.into_iter().rev() {
        if background {
            let inner = Frame {
                background: true,
                ..frame.clone()
            };
            stack.push(Task::PopScope);
            stack.push(Task::Join);
            stack.push(Task::Visit(child, inner));
            stack.push(Task::Fork);
            stack.push(Task::PushScope);
        } else if child.child_count() > 0 {
            stack.push(Task::Visit(child, frame.clone()));
        }
    }
}

/// A file the command wrote, run now as a shell script from the word at `at`: its
/// text is walked as a nested script; unknown text is a script only known at run
/// time.
fn run_written<A>(
    record: &mut SimpleCommand,
    text: Option<String>,
    at: Span,
    scripts: &mut Vec<(String, SpanMap, Option<A>, Positionals)>,
) {
    match text {
        Some(text) => {
            record.script = Some(InlineScript::Parsed { span: at });
            let args = written_positionals(record, at);
            scripts.push((text, SpanMap::Whole(at), None, args));
        }
        None => record.script = Some(InlineScript::Dynamic { span: at }),
    }
}

/// The positional parameters of a script file the record runs, the word at `at`
/// (`./run.sh A B`, `sh run.sh A B`): `$0` is the file's name, `$1` on the words
/// after it.
fn written_positionals(record: &SimpleCommand, at: Span) -> Positionals {
    match record.words.iter().position(|w| w.span == at) {
        Some(k) => Positionals::own(None, &record.words[k..], true),
        // Named elsewhere (a redirect, an option's value): only known at run time.
        None => Positionals::unknown(),
    }
}
