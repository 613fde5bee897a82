//! The walker: turns a syntax tree into [`SimpleCommand`] records for every place a
//! program starts, at any depth: lists, pipelines, subshells, brace groups, compound
//! statement bodies, function bodies, `$(...)`, backticks, `<(...)`, `[[ ]]`,
//! declaration commands, heredocs, and the scripts of `bash -c` / `eval` / heredocs
//! fed to shells, which are parsed again and walked one nesting level deeper.
//!
//! The walk is iterative (an explicit stack), so any tree depth is safe; nested
//! scripts recurse, bounded by the policy's nesting limit (past it: BG002, ask). The
//! walker also tracks the working directory in order (`cd`, `pushd`, `popd`), with
//! subshells, pipeline stages, substitutions and background jobs each in their own
//! scope, as bash runs them.

use crate::command::{
    Assignment, Context, Cwd, Heredoc, InlineScript, Origin, Redirect, SimpleCommand,
};
use crate::nested::{self, ScriptText, SpanMap};
use crate::parse;
use crate::rules::{self, input};
use crate::verdict::{Finding, Span};
use crate::word::{Part, Word, build_word};
use crate::wrappers;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use tree_sitter::{Node, Tree};

/// What the walker needs to know about the world.
#[derive(Clone, Debug)]
pub struct WalkEnv {
    /// The directory the command starts in.
    pub cwd: PathBuf,
    /// The user's home directory, for `cd` and `cd ~`.
    pub home: Option<PathBuf>,
    /// Deepest nesting of scripts in scripts (`bash -c "eval '...'"`) analysed.
    pub max_nesting: u32,
}

/// The walker's output.
#[derive(Debug, Default)]
pub struct Walk {
    /// Every simple command, in the order bash would reach them (outer before nested).
    pub commands: Vec<SimpleCommand>,
    /// Findings about the structure itself (nested parse errors, nesting limit).
    pub findings: Vec<Finding>,
}

/// Walks a parsed command. `source` is the original command text (spans point into it).
pub fn walk(tree: &Tree, text: &str, source: &str, env: &WalkEnv) -> Walk {
    let mut walker = Walker {
        source,
        env,
        out: Walk::default(),
        scopes: vec![Scope::default()],
        handled: Default::default(),
        trailing: Default::default(),
    };
    let map = SpanMap::identity(source.len());
    walker.walk_tree(tree, text, map, 0, Frame::default());
    walker.out
}

#[derive(Clone, Debug, Default)]
struct Scope {
    cwd: Cwd,
    previous: Option<Cwd>,
    stack: Vec<Cwd>,
    /// Variables assigned in the script so far: their static value, or `None` when
    /// only known at run time (loop variables, `read`, substitutions). Last wins.
    vars: Vec<(String, Option<String>)>,
    /// `IFS` was assigned: unquoted expansions may split anywhere.
    ifs_changed: bool,
}

impl Scope {
    fn set_var(&mut self, name: &str, value: Option<String>) {
        if name == "IFS" {
            self.ifs_changed = true;
        }
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_string(), value));
    }

    fn var(&self, name: &str) -> Option<&Option<String>> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

/// What a node inherits from where it stands.
#[derive(Clone, Debug, Default)]
struct Frame {
    in_substitution: bool,
    in_pipeline: bool,
    piped_stdin: bool,
    background: bool,
    function: Option<Rc<str>>,
    /// Inside a command's own words: assignments here belong to the command.
    in_command: bool,
}

enum Task<'t> {
    Visit(Node<'t>, Frame),
    PushScope,
    PopScope,
}

struct Walker<'s> {
    source: &'s str,
    env: &'s WalkEnv,
    out: Walk,
    scopes: Vec<Scope>,
    /// `command` nodes already recorded through their `redirected_statement`.
    handled: std::collections::HashSet<usize>,
    /// Redirects the grammar hung on a whole list or pipeline (`a && b < f`) that
    /// bash gives to its last command, by that command's node id.
    trailing: std::collections::HashMap<usize, Vec<Redirect>>,
}

/// The last simple command of a list or pipeline (`c` in `a && b | c`), when the
/// last element is one.
fn last_command(node: Node) -> Option<Node> {
    let mut last = node;
    while matches!(last.kind(), "list" | "pipeline") {
        let count = u32::try_from(last.named_child_count()).ok()?;
        last = last.named_child(count.checked_sub(1)?)?;
    }
    (last.kind() == "command").then_some(last)
}

/// Node kinds that form (part of) a word.
fn is_word_kind(kind: &str) -> bool {
    matches!(
        kind,
        "word"
            | "string"
            | "raw_string"
            | "ansi_c_string"
            | "translated_string"
            | "concatenation"
            | "simple_expansion"
            | "expansion"
            | "command_substitution"
            | "process_substitution"
            | "arithmetic_expansion"
            | "number"
            | "brace_expression"
            | "$"
    )
}

impl<'s> Walker<'s> {
    fn walk_tree(&mut self, tree: &Tree, text: &str, map: SpanMap, nesting: u32, base: Frame) {
        let mut stack: Vec<Task> = vec![Task::Visit(tree.root_node(), base)];
        while let Some(task) = stack.pop() {
            match task {
                Task::PushScope => {
                    let top = self.scopes.last().cloned().unwrap_or_default();
                    self.scopes.push(top);
                }
                Task::PopScope => {
                    if self.scopes.len() > 1 {
                        self.scopes.pop();
                    }
                }
                Task::Visit(node, frame) => {
                    self.visit(node, frame, text, map, nesting, &mut stack);
                }
            }
        }
    }

    fn span(&self, node: Node, map: SpanMap) -> Span {
        map.map(node.start_byte(), node.end_byte())
    }

    fn visit<'t>(
        &mut self,
        node: Node<'t>,
        frame: Frame,
        text: &str,
        map: SpanMap,
        nesting: u32,
        stack: &mut Vec<Task<'t>>,
    ) {
        match node.kind() {
            "comment" => {}
            "command" => {
                if !self.handled.contains(&node.id()) {
                    let redirects = self.trailing.remove(&node.id()).unwrap_or_default();
                    self.command(node, redirects, &frame, text, map, nesting);
                }
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack, |_| false);
            }
            "redirected_statement" => {
                let redirects = self.redirects_of(node, text, map);
                match node.child_by_field_name("body") {
                    Some(body) if body.kind() == "command" => {
                        self.handled.insert(body.id());
                        self.command(body, redirects, &frame, text, map, nesting);
                    }
                    // tree-sitter-bash hangs `a && b < f` and `a | b > f` on the whole
                    // list; bash gives the redirect to the last command (which may be
                    // a shell or interpreter reading it as its script).
                    Some(body) if matches!(body.kind(), "list" | "pipeline") => {
                        match last_command(body) {
                            Some(last) => {
                                self.trailing
                                    .entry(last.id())
                                    .or_default()
                                    .extend(redirects);
                            }
                            None => self.bare(node, Vec::new(), redirects, &frame, nesting, map),
                        }
                    }
                    _ => self.bare(node, Vec::new(), redirects, &frame, nesting, map),
                }
                push_children(node, &frame, stack, |_| false);
            }
            "pipeline" => {
                let mut stages: Vec<(Node<'t>, bool)> = Vec::new();
                let mut seen_pipe = false;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    match child.kind() {
                        "|" | "|&" => seen_pipe = true,
                        _ if child.is_named() => stages.push((child, seen_pipe)),
                        _ => {}
                    }
                }
                for (stage, piped) in stages.into_iter().rev() {
                    stack.push(Task::PopScope);
                    stack.push(Task::Visit(
                        stage,
                        Frame {
                            in_pipeline: true,
                            piped_stdin: piped,
                            ..frame.clone()
                        },
                    ));
                    stack.push(Task::PushScope);
                }
            }
            "subshell" | "command_substitution" | "process_substitution" => {
                let substitution = node.kind() != "subshell";
                let inner = Frame {
                    in_substitution: frame.in_substitution || substitution,
                    in_pipeline: if substitution {
                        false
                    } else {
                        frame.in_pipeline
                    },
                    piped_stdin: if substitution {
                        false
                    } else {
                        frame.piped_stdin
                    },
                    in_command: false,
                    ..frame
                };
                stack.push(Task::PopScope);
                push_children(node, &inner, stack, |_| false);
                stack.push(Task::PushScope);
            }
            "function_definition" => {
                let name = node
                    .child_by_field_name("name")
                    .and_then(|n| text.get(n.start_byte()..n.end_byte()))
                    .map(Rc::from);
                let inner = Frame {
                    function: name.or(frame.function.clone()),
                    in_command: false,
                    ..frame
                };
                stack.push(Task::PopScope);
                push_children(node, &inner, stack, |_| false);
                stack.push(Task::PushScope);
            }
            "variable_assignment" | "variable_assignments" if !frame.in_command => {
                let mut assignments = Vec::new();
                if node.kind() == "variable_assignment" {
                    assignments.push(self.assignment(node, text, map));
                } else {
                    let mut cursor = node.walk();
                    for child in node.named_children(&mut cursor) {
                        if child.kind() == "variable_assignment" {
                            assignments.push(self.assignment(child, text, map));
                        }
                    }
                }
                self.bare(node, assignments, Vec::new(), &frame, nesting, map);
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack, |_| false);
            }
            "declaration_command" | "unset_command" => {
                self.declaration(node, &frame, text, map, nesting);
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack, |_| false);
            }
            "for_statement" | "c_style_for_statement" => {
                let name = node
                    .child_by_field_name("variable")
                    .and_then(|n| text.get(n.start_byte()..n.end_byte()));
                if let (Some(name), Some(scope)) = (name, self.scopes.last_mut()) {
                    scope.set_var(name, None);
                }
                push_children(node, &frame, stack, |_| false);
            }
            "test_command" => {
                self.test(node, &frame, text, map, nesting);
                let inner = Frame {
                    in_command: true,
                    ..frame
                };
                push_children(node, &inner, stack, |_| false);
            }
            _ => {
                // Lists, bodies and everything else: children in order; a child
                // followed by `&` runs in the background, in its own scope.
                let start = stack.len();
                let mut background = false;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if child.kind() == "&" {
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
                    if child.kind() == "&" {
                        if let Some(last) = children.last_mut() {
                            last.1 = true;
                        }
                    } else if child.is_named() {
                        children.push((child, false));
                    }
                }
                for (child, background) in children.into_iter().rev() {
                    if background {
                        stack.push(Task::PopScope);
                        stack.push(Task::Visit(
                            child,
                            Frame {
                                background: true,
                                ..frame.clone()
                            },
                        ));
                        stack.push(Task::PushScope);
                    } else if child.child_count() > 0 {
                        stack.push(Task::Visit(child, frame.clone()));
                    }
                }
            }
        }
    }

    fn context(&self, frame: &Frame, nesting: u32) -> Context {
        Context {
            nesting,
            in_substitution: frame.in_substitution,
            in_pipeline: frame.in_pipeline,
            piped_stdin: frame.piped_stdin,
            background: frame.background,
            function: frame.function.as_deref().map(str::to_string),
            cwd: self
                .scopes
                .last()
                .map(|s| s.cwd.clone())
                .unwrap_or_default(),
        }
    }

    /// Groups adjacent word nodes (no space between them is one bash word) into words.
    fn words_of(&mut self, nodes: &[Node], text: &str, map: SpanMap) -> Vec<Word> {
        let mut words = Vec::new();
        let mut start = 0;
        while start < nodes.len() {
            let mut end = start + 1;
            while end < nodes.len() && nodes[end].start_byte() == nodes[end - 1].end_byte() {
                end += 1;
            }
            let group = &nodes[start..end];
            let span = map.map(group[0].start_byte(), group[end - start - 1].end_byte());
            let word = self.substitute(build_word(group, text, span));
            if word.has_brace_expansion() {
                match word.brace_expand() {
                    Some(expanded) => {
                        // Tilde expansion follows brace expansion: `{~,x}/y` is `~/y x/y`.
                        words.extend(expanded.iter().map(|w| {
                            let mut word = Word::literal(w, span);
                            crate::word::split_tilde(&mut word);
                            word
                        }));
                    }
                    None => {
                        // Static but too large or deep to expand. Sequences alone
                        // (`x{1..100000}`) only vary digits or letters, so the word as
                        // written stands for them all; a list (`{/etc/passwd,x{1..1000}}`)
                        // could hide any path, so it fails closed.
                        let lists = word
                            .parts
                            .iter()
                            .any(|p| matches!(p, Part::Literal(t) if t.contains(',')));
                        if lists && !word.parts.iter().any(Part::is_dynamic) {
                            self.out.findings.push(rules::finding(
                                &input::INPUT_LIMIT,
                                span,
                                self.source,
                                "a brace expansion too large to analyse".into(),
                            ));
                        }
                        words.push(word);
                    }
                }
            } else {
                words.push(word);
            }
            start = end;
        }
        words
    }

    /// Replaces `$NAME` by the static value a script assignment gave it (`D=/etc; cat
    /// $D/x`). Unquoted values that bash would split or glob stay dynamic.
    fn substitute(&self, word: Word) -> Word {
        let Some(scope) = self.scopes.last() else {
            return word;
        };
        if scope.vars.is_empty()
            || !word
                .parts
                .iter()
                .any(|p| matches!(p, Part::Variable { .. }))
        {
            return word;
        }
        let mut changed = false;
        let parts: Vec<Part> = word
            .parts
            .iter()
            .map(|part| {
                if let Part::Variable { name, quoted } = part
                    && let Some(Some(value)) = scope.var(name)
                {
                    let splits = value.is_empty()
                        || scope.ifs_changed
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

    /// Adds a record to the walk, after noting the variables it assigns.
    fn push_record(&mut self, record: SimpleCommand) {
        self.track_vars(&record);
        self.out.commands.push(record);
    }

    /// Records script variables: statement-level and declared assignments set them;
    /// `unset` removes them; loop variables and `read` make them unknown.
    fn track_vars(&mut self, record: &SimpleCommand) {
        let Some(scope) = self.scopes.last_mut() else {
            return;
        };
        let program = record.program_str();
        let declares = record.origin == Origin::Declaration && !matches!(program, Some("unset"));
        if record.origin == Origin::Bare || declares {
            for a in &record.assignments {
                let value = a.value.as_ref().and_then(|v| v.value().map(str::to_string));
                let value = if a.value.is_none() && declares {
                    // `export X` keeps X's value.
                    match scope.var(&a.name) {
                        Some(v) => v.clone(),
                        None => continue,
                    }
                } else {
                    value
                };
                scope.set_var(&a.name, value);
            }
        }
        match program {
            Some("unset") if record.origin == Origin::Declaration => {
                for a in &record.assignments {
                    scope.vars.retain(|(n, _)| n != &a.name);
                }
            }
            Some("read" | "mapfile" | "readarray" | "getopts" | "printf") => {
                for w in record.args() {
                    if let Some(v) = w.value()
                        && !v.starts_with('-')
                        && crate::wrappers::is_assignment(&format!("{v}=x"))
                    {
                        scope.set_var(v, None);
                    }
                }
            }
            _ => {}
        }
    }

    fn command(
        &mut self,
        node: Node,
        mut redirects: Vec<Redirect>,
        frame: &Frame,
        text: &str,
        map: SpanMap,
        nesting: u32,
    ) {
        let mut assignments = Vec::new();
        let mut word_nodes = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "variable_assignment" => assignments.push(self.assignment(child, text, map)),
                "command_name" => match child.named_child(0) {
                    Some(inner) => word_nodes.push(inner),
                    None => word_nodes.push(child),
                },
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    redirects.push(self.redirect(child, text, map));
                }
                "comment" => {}
                // Everything else is (part of) an argument, including anonymous
                // tokens the grammar leaves in argument position (`==`, `-$`).
                _ => word_nodes.push(child),
            }
        }
        let words = self.words_of(&word_nodes, text, map);
        let span = self.span(node, map);
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
        words: Vec<Word>,
        mut assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        span: Span,
        origin: Origin,
        frame: &Frame,
        nesting: u32,
    ) {
        let unwrapped = wrappers::unwrap(&words);
        for &i in &unwrapped.env_assignments {
            if let Some(word) = words.get(i) {
                assignments.push(assignment_word(word));
            }
        }
        let scripts = nested::scripts_of(
            &words,
            unwrapped.program,
            unwrapped.script.clone(),
            &redirects,
            frame.piped_stdin,
            self.source,
        );
        let mut record = SimpleCommand {
            program: unwrapped.program,
            wrappers: unwrapped.wrappers.clone(),
            assignments,
            redirects,
            span,
            context: self.context(frame, nesting),
            origin,
            script: None,
            words,
        };
        let mut parsed_scripts = Vec::new();
        for script in scripts {
            match script {
                ScriptText::Static { text, map } => {
                    record.script = Some(InlineScript::Parsed {
                        span: map.map(0, text.len()),
                    });
                    parsed_scripts.push((text, map));
                }
                ScriptText::Dynamic(span) => record.script = Some(InlineScript::Dynamic { span }),
                ScriptText::UnknownStdin(span) => {
                    record.script = Some(InlineScript::UnknownStdin { span });
                }
            }
        }
        let embedded: Vec<(String, Vec<Word>)> = unwrapped
            .embedded
            .iter()
            .filter_map(|(by, range)| Some((by.clone(), record.words.get(range.clone())?.to_vec())))
            .collect();
        let is_eval = record
            .program_str()
            .is_some_and(|n| n == "eval" || n == "alias" || n == "trap");
        self.apply_cd(&record);
        self.push_record(record);
        for (by, words) in embedded {
            self.record(
                words,
                Vec::new(),
                Vec::new(),
                span,
                Origin::Embedded(by),
                frame,
                nesting,
            );
        }
        for (text, map) in parsed_scripts {
            self.nested(&text, map, nesting + 1, frame, !is_eval);
        }
    }

    /// Parses and walks a nested script; its own scope unless it runs in this shell
    /// (`eval`).
    fn nested(&mut self, text: &str, map: SpanMap, nesting: u32, frame: &Frame, own_scope: bool) {
        if nesting > self.env.max_nesting {
            let span = map.map(0, text.len());
            self.out.findings.push(rules::finding(
                &input::INPUT_LIMIT,
                span,
                self.source,
                format!(
                    "scripts nested more than {} levels deep are not analysed",
                    self.env.max_nesting
                ),
            ));
            return;
        }
        let parsed = match parse::parse(text) {
            Ok(parsed) => parsed,
            Err(_) => {
                self.out.findings.push(rules::finding(
                    &input::PARSE_ERROR,
                    map.map(0, text.len()),
                    self.source,
                    "the nested script could not be parsed".to_string(),
                ));
                return;
            }
        };
        if let Some(finding) = input::parse_problems(&parsed, map, self.source) {
            self.out.findings.push(finding);
        }
        if own_scope {
            let top = self.scopes.last().cloned().unwrap_or_default();
            self.scopes.push(top);
        }
        let inner = Frame {
            in_command: false,
            ..frame.clone()
        };
        self.walk_tree(&parsed.tree, &parsed.text, map, nesting, inner);
        if own_scope && self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    fn bare(
        &mut self,
        node: Node,
        assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        frame: &Frame,
        nesting: u32,
        map: SpanMap,
    ) {
        let record = SimpleCommand {
            words: Vec::new(),
            program: None,
            wrappers: Vec::new(),
            assignments,
            span: self.span(node, map),
            redirects,
            context: self.context(frame, nesting),
            origin: Origin::Bare,
            script: None,
        };
        self.push_record(record);
    }

    fn declaration(&mut self, node: Node, frame: &Frame, text: &str, map: SpanMap, nesting: u32) {
        let mut assignments = Vec::new();
        let mut word_nodes = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "variable_assignment" => assignments.push(self.assignment(child, text, map)),
                "variable_name" => assignments.push(Assignment {
                    name: text
                        .get(child.start_byte()..child.end_byte())
                        .unwrap_or("")
                        .to_string(),
                    value: None,
                    span: self.span(child, map),
                }),
                kind if is_word_kind(kind) => word_nodes.push(child),
                _ if !child.is_named() => word_nodes.push(child),
                _ => {}
            }
        }
        let mut words = Vec::new();
        for node in word_nodes {
            let span = self.span(node, map);
            if node.is_named() {
                words.push(build_word(&[node], text, span));
            } else {
                let keyword = text.get(node.start_byte()..node.end_byte()).unwrap_or("");
                words.push(Word::literal(keyword, span));
            }
        }
        let span = self.span(node, map);
        let record = SimpleCommand {
            program: if words.is_empty() { None } else { Some(0) },
            words,
            wrappers: Vec::new(),
            assignments,
            redirects: Vec::new(),
            span,
            context: self.context(frame, nesting),
            origin: Origin::Declaration,
            script: None,
        };
        self.push_record(record);
    }

    /// `[[ ... ]]` / `[ ... ]`: the operands as words. `[[ -f ~/x ]]` comes out of the
    /// grammar as a bitwise-not `~` applied to `/x`; it is rebuilt as the word `~/x`.
    fn test(&mut self, node: Node, frame: &Frame, text: &str, map: SpanMap, nesting: u32) {
        let mut words = Vec::new();
        let mut pending = vec![node];
        while let Some(current) = pending.pop() {
            let mut cursor = current.walk();
            let children: Vec<Node> = current.children(&mut cursor).collect();
            for child in children.into_iter().rev() {
                let kind = child.kind();
                if kind == "unary_expression" && child.child(0).is_some_and(|op| op.kind() == "~") {
                    let raw = text.get(child.start_byte()..child.end_byte()).unwrap_or("");
                    let compact: String = raw.split_whitespace().collect();
                    let span = self.span(child, map);
                    let mut word = Word::literal(&compact, span);
                    crate::word::split_tilde(&mut word);
                    words.push(word);
                } else if is_word_kind(kind) && kind != "$"
                    || kind == "extglob_pattern"
                    || kind == "regex"
                {
                    let span = self.span(child, map);
                    words.push(build_word(&[child], text, span));
                } else if child.is_named() {
                    pending.push(child);
                }
            }
        }
        words.reverse();
        let span = self.span(node, map);
        let record = SimpleCommand {
            words,
            program: None,
            wrappers: Vec::new(),
            assignments: Vec::new(),
            redirects: Vec::new(),
            span,
            context: self.context(frame, nesting),
            origin: Origin::Test,
            script: None,
        };
        self.push_record(record);
    }

    fn assignment(&self, node: Node, text: &str, map: SpanMap) -> Assignment {
        let name = node
            .child_by_field_name("name")
            .and_then(|n| text.get(n.start_byte()..n.end_byte()))
            .unwrap_or("")
            .to_string();
        let value = node.child_by_field_name("value").map(|v| {
            let span = self.span(v, map);
            self.substitute(build_word(&[v], text, span))
        });
        Assignment {
            name,
            value,
            span: self.span(node, map),
        }
    }

    /// Redirects of a `redirected_statement`, including those the grammar puts inside
    /// a `heredoc_redirect` (`cat <<EOF > file`).
    fn redirects_of(&mut self, node: Node, text: &str, map: SpanMap) -> Vec<Redirect> {
        let mut redirects = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            if node.field_name_for_child(i as u32) != Some("redirect") {
                continue;
            }
            redirects.push(self.redirect(child, text, map));
            if child.kind() == "heredoc_redirect" {
                let mut inner = child.walk();
                for (k, grandchild) in child.children(&mut inner).enumerate() {
                    if child.field_name_for_child(k as u32) == Some("redirect") {
                        redirects.push(self.redirect(grandchild, text, map));
                    }
                }
            }
        }
        redirects
    }

    fn redirect(&mut self, node: Node, text: &str, map: SpanMap) -> Redirect {
        let mut operator = String::new();
        let mut fd = None;
        let mut target = None;
        let mut heredoc = None;
        let mut quoted_delimiter = false;
        let mut cursor = node.walk();
        let mut target_nodes = Vec::new();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = node.field_name_for_child(i as u32);
            let raw = text.get(child.start_byte()..child.end_byte()).unwrap_or("");
            match child.kind() {
                "file_descriptor" => fd = Some(raw.to_string()),
                "heredoc_start" => quoted_delimiter = raw.contains(['\'', '"', '\\']),
                "heredoc_body" => {
                    let mut body_cursor = child.walk();
                    let has_expansion = child
                        .named_children(&mut body_cursor)
                        .any(|c| c.kind() != "heredoc_content");
                    let static_text = if quoted_delimiter {
                        Some(raw.to_string())
                    } else if has_expansion {
                        None
                    } else {
                        Some(crate::word::decode_heredoc(raw))
                    };
                    heredoc = Some(Heredoc {
                        static_text,
                        span: self.span(child, map),
                    });
                }
                _ if field == Some("destination")
                    || (node.kind() == "herestring_redirect" && child.is_named()) =>
                {
                    target_nodes.push(child);
                }
                _ if !child.is_named() && operator.is_empty() => operator = raw.to_string(),
                _ => {}
            }
        }
        if !target_nodes.is_empty() {
            let words = self.words_of(&target_nodes, text, map);
            target = words.into_iter().next();
        }
        if operator.is_empty() && node.kind() == "herestring_redirect" {
            operator = "<<<".to_string();
        }
        Redirect {
            operator,
            fd,
            target,
            heredoc,
            span: self.span(node, map),
        }
    }

    /// Tracks `cd`, `pushd` and `popd` in the current scope.
    fn apply_cd(&mut self, record: &SimpleCommand) {
        let Some(name) = record.program_str() else {
            return;
        };
        if !matches!(name, "cd" | "pushd" | "popd" | "chdir") {
            return;
        }
        let name = name.to_string();
        let home = self.env.home.clone();
        let start = self.env.cwd.clone();
        let Some(scope) = self.scopes.last_mut() else {
            return;
        };
        let current = match &scope.cwd {
            Cwd::Start => Some(start),
            Cwd::Known(p) => Some(p.clone()),
            Cwd::Unknown => None,
        };
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
            let next = scope.stack.pop().unwrap_or(Cwd::Unknown);
            scope.previous = Some(std::mem::replace(&mut scope.cwd, next));
            return;
        }
        let target = match operands.first() {
            None if name == "pushd" => {
                let top = scope.stack.pop().unwrap_or(Cwd::Unknown);
                scope.stack.push(scope.cwd.clone());
                scope.cwd = top;
                return;
            }
            None => home.map(Cwd::Known).unwrap_or(Cwd::Unknown),
            Some(word) => resolve_dir(word, current.as_deref(), home.as_deref(), scope),
        };
        let old = std::mem::replace(&mut scope.cwd, target);
        if name == "pushd" {
            scope.stack.push(old.clone());
        }
        scope.previous = Some(old);
    }
}

/// Where `cd WORD` goes, lexically.
fn resolve_dir(word: &Word, current: Option<&Path>, home: Option<&Path>, scope: &Scope) -> Cwd {
    if word.static_value().as_deref() == Some("-") {
        return scope.previous.clone().unwrap_or(Cwd::Unknown);
    }
    let (base, rest): (Option<PathBuf>, String) = match word.parts.first() {
        Some(Part::Tilde(user)) if user.is_empty() => {
            let tail = Word::new(word.parts[1..].to_vec(), word.span, word.has_quotes);
            match (home, tail.static_value()) {
                (Some(h), Some(t)) => (Some(h.to_path_buf()), t),
                _ => return Cwd::Unknown,
            }
        }
        _ => match word.static_value() {
            Some(v) if v.starts_with('/') => (None, v),
            Some(v) => match current {
                Some(c) => (Some(c.to_path_buf()), v),
                None => return Cwd::Unknown,
            },
            None => return Cwd::Unknown,
        },
    };
    let joined = match base {
        Some(b) => b.join(rest.trim_start_matches('/')),
        None => PathBuf::from(rest),
    };
    Cwd::Known(normalize_lexically(&joined))
}

/// Removes `.` and resolves `..` without touching the disk.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("/");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push("/");
    }
    out
}

/// An `env`/`sudo` `NAME=value` word as an assignment.
fn assignment_word(word: &Word) -> Assignment {
    let (name, value) = match word.static_value() {
        Some(v) => match v.split_once('=') {
            Some((n, rest)) => (n.to_string(), Some(Word::literal(rest, word.span))),
            None => (v, None),
        },
        None => {
            // Dynamic value: drop the static `NAME=` from the first part.
            let mut parts = word.parts.clone();
            let mut name = String::new();
            if let Some(Part::Literal(first)) = parts.first_mut()
                && let Some((n, rest)) = first.split_once('=')
            {
                name = n.to_string();
                *first = rest.to_string();
            }
            if matches!(parts.first(), Some(Part::Literal(t)) if t.is_empty()) {
                parts.remove(0);
            }
            (name, Some(Word::new(parts, word.span, word.has_quotes)))
        }
    };
    Assignment {
        name,
        value,
        span: word.span,
    }
}

fn push_children<'t>(
    node: Node<'t>,
    frame: &Frame,
    stack: &mut Vec<Task<'t>>,
    skip: impl Fn(&Node<'t>) -> bool,
) {
    let start = stack.len();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        // Leaves hold no commands (ERROR and MISSING nodes are found separately).
        if child.is_named() && child.child_count() > 0 && !skip(&child) {
            stack.push(Task::Visit(child, frame.clone()));
        }
    }
    stack[start..].reverse();
}
