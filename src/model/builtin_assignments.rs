//! Builtins that assign variables without `NAME=`: `read NAME…` (and `read -a
//! NAME`), `printf -v NAME` (or `-vNAME`), `mapfile`/`readarray NAME`, `getopts SPEC NAME`, and
//! assignments through a nameref (`declare -n r=PATH; r=/tmp`). Their targets are
//! made [`Assignment`]s of the record when they are environment-style names, so
//! `read PATH < f` is judged like `PATH=… cmd` is, whatever form sets the variable.

use super::command::{Assignment, SimpleCommand};
use super::printf_target::{PrintfTarget, printf_target};
use super::scope::Scope;
use super::word::{Part, Word};
use super::wrappers::is_assignment;

/// The variables a builtin record assigns, with the word naming each.
pub fn targets(record: &SimpleCommand) -> Vec<(String, &Word)> {
    let Some(program) = record.program_str() else {
        return Vec::new();
    };
    let args = record.args();
    match program {
        "read" => options_then_names(args, "dinNptu", Some('a'), false),
        "mapfile" | "readarray" => options_then_names(args, "dnOsucC", None, true),
        "printf" => match printf_target(args) {
            PrintfTarget::Named { name, word, .. } => variable(&name)
                .map(|v| vec![(v.to_string(), word)])
                .unwrap_or_default(),
            PrintfTarget::Nothing | PrintfTarget::Unknown => Vec::new(),
        },
        "getopts" => args.get(1).map(named).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// One name word, when it is a variable name (an array element keeps its base name).
fn named(word: &Word) -> Vec<(String, &Word)> {
    word.value()
        .and_then(variable)
        .map(|v| vec![(v.to_string(), word)])
        .unwrap_or_default()
}

/// The variable `name` sets, when it is a variable name (an array element's is its
/// base name).
fn variable(name: &str) -> Option<&str> {
    Some(name.split('[').next().unwrap_or(name)).filter(|v| is_assignment(&format!("{v}=x")))
}

/// Options (letters in `takes` take a value; `array` names the variable as its
/// value), then variable names; with `last`, only the last operand is a name.
fn options_then_names<'w>(
    args: &'w [Word],
    takes: &str,
    array: Option<char>,
    last: bool,
) -> Vec<(String, &'w Word)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let Some(value) = word.value() else {
            break;
        };
        if value == "--" {
            i += 1;
            break;
        }
        if !value.starts_with('-') || value.len() < 2 {
            break;
        }
        let mut step = 1;
        for (k, c) in value.char_indices().skip(1) {
            if Some(c) == array {
                let rest = &value[k + 1..];
                if rest.is_empty() {
                    if let Some(next) = args.get(i + 1) {
                        out.extend(named(next));
                    }
                    step = 2;
                } else if is_assignment(&format!("{rest}=x")) {
                    out.push((rest.to_string(), word));
                }
                break;
            }
            if takes.contains(c) {
                if k + 1 == value.len() {
                    step = 2;
                }
                break;
            }
        }
        i += step;
    }
    let operands = args.get(i..).unwrap_or(&[]);
    let names: &[Word] = if last {
        operands.last().map(std::slice::from_ref).unwrap_or(&[])
    } else {
        operands
    };
    out.extend(names.iter().flat_map(named));
    out
}

/// Names written like the shell's and the environment's own variables (`PATH`,
/// `IFS`, `LD_PRELOAD`, `PROMPT_COMMAND`): no lower-case letter. A script's own
/// lower-case variables change nothing outside it, and their values are already
/// tracked by the scope.
fn is_environment_style(name: &str) -> bool {
    !name.bytes().any(|b| b.is_ascii_lowercase())
}

/// Adds the builtin's targets (environment-style names) to `record.assignments`, with the values `scope` (the
/// scope after the record ran) gives them: the static value when known, otherwise a
/// value only known at run time.
pub fn note(record: &mut SimpleCommand, scope: &Scope) {
    let assigned: Vec<Assignment> = targets(record)
        .into_iter()
        .filter(|(name, _)| is_environment_style(name))
        .map(|(name, word)| {
            let value = match scope.value_of(&name) {
                Some(v) => Word::new(vec![Part::Quoted(v.to_string())], word.span, true),
                None => Word::new(
                    vec![Part::CommandSubstitution { quoted: true }],
                    word.span,
                    true,
                ),
            };
            Assignment {
                name,
                value: Some(value),
                span: word.span,
            }
        })
        .collect();
    record.assignments.extend(assigned);
}

/// Renames assignments made through a nameref to the variable it refers to.
pub fn through_namerefs(record: &mut SimpleCommand, scope: &Scope) {
    for assignment in &mut record.assignments {
        if let Some(target) = scope.nameref(&assignment.name) {
            assignment.name = target.to_string();
        }
    }
}
