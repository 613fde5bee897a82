//! The model: everything that turns a command's text into records — one
//! [`SimpleCommand`] for every place a program starts, with its words as bash builds
//! them, its redirects and assignments, where it stands and the directory it runs
//! in — plus the [`Problem`]s met on the way. The model knows no rule and no policy:
//! rules read its records, the policy judges the paths it resolves.
//!
//! `build` is the whole entry: the plain-words fast path when it applies, otherwise
//! parse → walk.

pub(crate) mod arithmetic;
mod builtin_assignments;
mod callbacks;
pub mod command;
pub mod command_names;
pub mod dash_names;
mod definitions;
pub mod descriptors;
pub(crate) mod env_options;
pub(crate) mod fastpath;
mod fetched;
mod found_names;
mod glob_options;
mod input_arguments;
mod known_output;
mod links;
pub mod loop_values;
mod lower;
mod mounted_paths;
mod mounts;
pub mod name_glob;
pub(crate) mod nested;
mod old_style;
mod parse_cache;
pub mod path_roles;
pub mod paths;
mod printf_target;
pub mod problem;
mod repeat;
pub mod revisions;
mod scope;
pub(crate) mod settings;
pub(crate) mod shell_tables;
mod split;
mod walk;
pub mod word;
pub mod wrapper_words;
pub mod wrappers;
pub(crate) mod written;

pub use command::SimpleCommand;
pub use input_arguments::{
    appended_items, lists_project_names, piped_into, prints_no_options, prints_static_words,
};
pub use problem::{Problem, ProblemKind};
pub use walk::ARITHMETIC;

use crate::parse::{self, Parsed, SpanMap};
use paths::Resolver;
use std::path::Path;

/// What the model needs to know about the world.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// The directory the command starts in.
    pub cwd: &'a Path,
    /// Resolves words to paths (home directory, path variables); `cd` uses it.
    pub resolver: &'a Resolver,
    /// Deepest nesting of scripts in scripts (`bash -c "eval '...'"`) analysed.
    pub max_nesting: u32,
    /// Whether plain-word commands may skip the parse (same records either way).
    pub fast_path: bool,
}

/// A command as records, in the order bash reaches them (outer before nested).
#[derive(Debug, Default)]
pub struct Model {
    /// Every place a program starts, and every bare assignment, redirect and test.
    pub commands: Vec<SimpleCommand>,
    /// What could not be analysed; each is a reason to fail closed.
    pub problems: Vec<Problem>,
}

/// The model of `source` run in `/project`, with `/home/u` as home, for the
/// model's unit tests.
#[cfg(test)]
pub(crate) fn built_in_project(source: &str) -> Model {
    let resolver = paths::Resolver::new(Some("/home/u".into()), Default::default());
    let env = Env {
        cwd: std::path::Path::new("/project"),
        resolver: &resolver,
        max_nesting: 4,
        fast_path: false,
    };
    build(source, &env)
}

/// Builds the model of `source`.
pub fn build(source: &str, env: &Env<'_>) -> Model {
    if env.fast_path
        && let Some(walked) =
            fastpath::commands(source).map(|lexed| walk::walk_lexed(lexed, source, env))
    {
        return Model {
            commands: walked.commands,
            problems: walked.problems,
        };
    }
    if env.fast_path
        && let Some(walked) = walk::walk_split(source, env, split::MIN_PARTS)
    {
        return Model {
            commands: walked.commands,
            problems: walked.problems,
        };
    }
    let mut problems = Vec::new();
    let map = SpanMap::identity(source.len());
    let Some((parsed, _)) = parse_into(source, map, false, &mut problems) else {
        return Model {
            commands: Vec::new(),
            problems,
        };
    };
    let walked = walk::walk(&parsed.tree, &parsed.text, source, env);
    problems.extend(walked.problems);
    Model {
        commands: walked.commands,
        problems,
    }
}

/// The model the fast lexer builds for `source`, or `None` when it is not one of the
/// shapes it knows (then [`build`] parses it). For the differential tests.
#[doc(hidden)]
pub fn fast_model(source: &str, env: &Env<'_>) -> Option<Model> {
    let walked = walk::walk_lexed(fastpath::commands(source)?, source, env);
    Some(Model {
        commands: walked.commands,
        problems: walked.problems,
    })
}

/// The model of `source` parsed part by part at its top-level operators (any number
/// of parts from two), or `None` when the splitter does not take it (then [`build`]
/// parses it whole). For the differential tests.
#[doc(hidden)]
pub fn split_model(source: &str, env: &Env<'_>) -> Option<Model> {
    let walked = walk::walk_split(source, env, 2)?;
    Some(Model {
        commands: walked.commands,
        problems: walked.problems,
    })
}

/// Notes the parse problem `found` (of a parsed text), if any, at the place `map`
/// gives it.
fn note_problem(
    found: Option<parse::ParseProblem>,
    map: SpanMap,
    nested: bool,
    problems: &mut Vec<Problem>,
) {
    if let Some(p) = found {
        problems.push(Problem::Parse {
            kind: p.kind,
            span: map.map(p.start, p.end),
            nested,
        });
    }
}

/// Parses `text` (the command, or a nested script whose positions `map` places in the
/// command), noting its parse problem if any; gives the tree and that problem (a
/// tree walked again notes it again). `None` when no tree came out.
fn parse_into(
    text: &str,
    map: SpanMap,
    nested: bool,
    problems: &mut Vec<Problem>,
) -> Option<(Parsed, Option<parse::ParseProblem>)> {
    match parse::parse(text) {
        Ok(parsed) => {
            let found = parse::problem(&parsed);
            note_problem(found, map, nested, problems);
            Some((parsed, found))
        }
        Err(_) => {
            problems.push(Problem::Unparsed {
                span: map.map(0, text.len()),
                nested,
            });
            None
        }
    }
}
