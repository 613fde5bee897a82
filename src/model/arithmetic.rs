//! Arithmetic evaluation runs code: bash evaluates array subscripts inside it, and a
//! subscript may hold `$(…)`, so the *text* of a variable, a quoted string or an
//! argument that reaches `$(( ))`, `(( ))`, `let`, `declare -i`, `[[ a -eq b ]]`,
//! `[[ -v x ]]`, `test -v`, `unset 'a[…]'`, `read 'a[…]'` or `printf -v 'a[…]'` can
//! start programs (`x='a[$(rm -rf ~)]'; echo $((x))`). So can every other place
//! bash evaluates arithmetic or resolves a name: an array subscript (`${a[n]}`,
//! `a[n]=1`, an array literal's `([n]=1)`), a substring's offset and length
//! (`${x:n:m}`), an assignment to a variable declared `-i`, and the name an
//! indirect expansion (`${!x}`) or a nameref (`declare -n r=NAME`) names. A
//! variable an expression names is evaluated as an expression of its own, so
//! `let y=x`, `unset 'a[x]'` and `[[ -v a[x] ]]` run what `x` holds, and so on
//! down the variables its value names.
//!
//! This file finds the text that reaches those contexts: static text that could hold
//! code is returned to be walked as a nested script; a value only known at run time
//! (from `read`, an unknown substitution...) is returned as unknown code. Plain
//! numbers and plain names are not code; variables the script never assigned (the
//! caller's environment) are not followed.

use super::command::{Assignment, SimpleCommand};
use super::lower::Source;
use super::printf_target::{PrintfTarget, printf_target};
use super::scope::Scope;
use super::word::{Part, Word, build_word};
use crate::parse::kind;
use crate::parse::{Field, field};
use crate::verdict::Span;
use tree_sitter::Node;

/// Text evaluated as arithmetic that may run code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Code {
    /// Static text with an expansion in it: walk `(( TEXT ))` as a nested script.
    Static {
        /// The text.
        text: String,
        /// Where it comes from in the command.
        span: Span,
    },
    /// Text only known at run time reaches arithmetic.
    Unknown {
        /// Where.
        span: Span,
    },
}

/// Programs whose output is a number (to move into the program catalogue).
const NUMERIC_OUTPUT: &[&str] = &[
    "nproc", "wc", "id", "date", "getconf", "stat", "expr", "seq", "tput", "du",
];

/// Text that may hold code when evaluated arithmetically: anything with an
/// expansion or a backtick.
fn may_run(text: &str) -> bool {
    text.contains(['$', '`'])
}

/// The code reaching an arithmetic node (`$(( ))`, `(( ))`, a `c_style_for`
/// header): the values of the variables it names and the output of its
/// substitutions.
pub(super) fn in_node(node: Node, src: Source, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    below(vec![node], src, scope, &mut out);
    out
}

/// One operand evaluated as arithmetic: an array subscript, a substring's offset.
fn in_operand(node: Node, src: Source, scope: &Scope, out: &mut Vec<Code>) {
    let mut pending = Vec::new();
    part(node, src, scope, out, &mut pending);
    below(pending, src, scope, out);
}

/// The code in the children of every node of `pending`, and below them.
fn below<'t>(mut pending: Vec<Node<'t>>, src: Source, scope: &Scope, out: &mut Vec<Code>) {
    while let Some(current) = pending.pop() {
        let mut cursor = current.walk();
        for child in current.named_children(&mut cursor) {
            part(child, src, scope, out, &mut pending);
        }
    }
}

/// The code in one node of an arithmetic expression; nodes to look inside go to
/// `pending`.
fn part<'t>(
    child: Node<'t>,
    src: Source,
    scope: &Scope,
    out: &mut Vec<Code>,
    pending: &mut Vec<Node<'t>>,
) {
    match kind(child) {
        "variable_name" | "word" => reference(src.slice(child), src.span(child), scope, out),
        "simple_expansion" | "expansion" => {
            if let Some(name) = child.named_child(0).filter(|n| kind(n) == "variable_name") {
                reference(src.slice(name), src.span(child), scope, out);
            }
        }
        "command_substitution" => {
            // Its commands are walked anyway; its output is evaluated.
            if !numeric_substitution(child, src) {
                out.push(Code::Unknown {
                    span: src.span(child),
                });
            }
        }
        // Visited on its own by the walker: not again here (deep nests of
        // `$(( $(( … )) ))` stay linear).
        "arithmetic_expansion" => {}
        "string" | "raw_string" => {
            let text = src.slice(child);
            let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
            if kind(child) == "raw_string" && may_run(inner) {
                out.push(Code::Static {
                    text: inner.to_string(),
                    span: src.span(child),
                });
            } else {
                pending.push(child);
            }
        }
        _ => pending.push(child),
    }
}

/// The code an array subscript reaches (`${a[n]}`, `a[n]=1`): its index is
/// arithmetic (for an indexed array; the gate does not tell them from associative
/// ones, and reads every subscript so).
pub(super) fn in_subscript(node: Node, src: Source, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    if let Some(index) = field::child(node, Field::Index) {
        in_operand(index, src, scope, &mut out);
    }
    out
}

/// The code a `${…}` expansion reaches besides its subscript: a substring's offset
/// and length (`${x:n:m}`), and the name an indirect expansion names (`${!x}`,
/// where `x='a[$(…)]'` runs the substitution).
pub(super) fn in_expansion(node: Node, src: Source, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    let child_kind = |i: u32| node.child(i).map_or("", kind);
    // `${!name}`, not `${!prefix*}`, `${!prefix@}` or `${!a[@]}` (names, keys).
    if child_kind(1) == "!"
        && child_kind(2) == "variable_name"
        && !matches!(child_kind(3), "*" | "@")
        && let Some(name) = node.child(2)
    {
        name_reference(src.slice(name), src.span(node), scope, &mut out);
    }
    let mut substring = false;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if !child.is_named() {
            substring = kind(child) == ":";
        } else if substring {
            in_operand(child, src, scope, &mut out);
        }
    }
    out
}

/// A variable whose value is used as a name (an indirect expansion's, a nameref's):
/// code only in an array subscript of it; unknown when the script made it unknown.
fn name_reference(name: &str, span: Span, scope: &Scope, out: &mut Vec<Code>) {
    match scope.lookup(name) {
        Some(Some(value)) => value_code(value, span, scope, false, out),
        Some(None) if !scope.is_numeric(name) => out.push(Code::Unknown { span }),
        None if scope.positional_unknown(name) => out.push(Code::Unknown { span }),
        _ => {}
    }
}

/// A `$(…)` whose program prints a number.
pub(super) fn prints_number(node: Node, src: Source) -> bool {
    numeric_substitution(node, src)
}

/// A `$(…)` whose program prints a number.
fn numeric_substitution(node: Node, src: Source) -> bool {
    let mut inner = node.named_child(0);
    if let Some(statement) = inner.filter(|c| kind(c) == "redirected_statement") {
        // `$(wc -l < f)`: the redirect feeds the program; the output is its own.
        inner = field::child(statement, Field::Body);
    }
    let Some(command) = inner.filter(|c| kind(c) == "command") else {
        return false;
    };
    let Some(name) = field::child(command, Field::Name) else {
        return false;
    };
    NUMERIC_OUTPUT.contains(&src.slice(name))
}

/// How many variables deep a value that names other variables is followed (`x=y;
/// y='a[$(…)]'; let z=x` evaluates `y` through `x`); deeper is unknown.
const MAX_REFERENCE_DEPTH: usize = 8;

/// A variable named in arithmetic: its static value when it may hold code, unknown
/// when the script made it unknown. Bash evaluates a variable's value as an
/// expression of its own, so the variables a static value names are followed too.
fn reference(name: &str, span: Span, scope: &Scope, out: &mut Vec<Code>) {
    reference_within(name, span, scope, out, 0);
}

/// [`reference`], `depth` variables down.
fn reference_within(name: &str, span: Span, scope: &Scope, out: &mut Vec<Code>, depth: usize) {
    // A positional parameter (`$1`) is the caller's unless the script set it
    // (`set -- A`): then it is followed as any variable is.
    if name.is_empty() {
        return;
    }
    match scope.lookup(name) {
        Some(Some(value)) if may_run(value) => out.push(Code::Static {
            text: value.to_string(),
            span,
        }),
        Some(Some(value)) => {
            for named in names_in(value) {
                if depth >= MAX_REFERENCE_DEPTH {
                    out.push(Code::Unknown { span });
                    return;
                }
                reference_within(named, span, scope, out, depth + 1);
            }
        }
        Some(None) if !scope.is_numeric(name) => out.push(Code::Unknown { span }),
        None if scope.positional_unknown(name) => out.push(Code::Unknown { span }),
        _ => {}
    }
}

/// The variable names an expression's text may name (`y=x+arr[i]`: `y`, `x`,
/// `arr`, `i`): each run of letters, digits and `_` without its leading digits
/// (`0x1f` gives `x1f`, a superset: a name that is no variable is not followed).
fn names_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(|run| run.trim_start_matches(|c: char| c.is_ascii_digit()))
        .filter(|name| !name.is_empty())
}

/// The text of each array subscript in a name (`a[i+1]`, `a[x][y]`: `i+1`, `x`,
/// `y`), to the bracket that closes it.
fn subscripts(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, c) in name.char_indices() {
        match c {
            '[' => {
                if depth == 0 {
                    start = at + 1;
                }
                depth += 1;
            }
            ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&name[start..at]);
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        out.push(&name[start..]);
    }
    out
}

/// The code in a static value: the whole value when it is evaluated (`whole`: an
/// expression, whose variables are evaluated in turn), else only the array
/// subscripts of a name (`unset 'a[i]'`: `i` is evaluated).
fn value_code(v: &str, span: Span, scope: &Scope, whole: bool, out: &mut Vec<Code>) {
    let relevant = if whole {
        may_run(v)
    } else {
        v.contains('[') && may_run(v)
    };
    if relevant {
        out.push(Code::Static {
            text: v.to_string(),
            span,
        });
    } else if whole {
        names_in(v).for_each(|name| reference(name, span, scope, out));
    } else {
        for subscript in subscripts(v) {
            names_in(subscript).for_each(|name| reference(name, span, scope, out));
        }
    }
}

/// The code an array literal's keys reach (`a=([i]=x)`, `a+=([i]=x)`): each key
/// of an element written `[KEY]=VALUE` is an arithmetic expression for an
/// indexed array (associative ones are read so too).
pub(super) fn in_array_keys(node: Node, src: Source, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    // Most array literals have no key: one byte scan instead of the children.
    if !src.slice(node).as_bytes().contains(&b'[') {
        return out;
    }
    let mut cursor = node.walk();
    for element in node.named_children(&mut cursor) {
        let text = src.slice(element);
        if !text.starts_with('[') {
            continue;
        }
        let Some(key) = subscripts(text).into_iter().next() else {
            continue;
        };
        value_code(key, src.span(element), scope, true, &mut out);
    }
    out
}

/// The code reaching arithmetic through one command's words: `let EXPR…`,
/// `declare -i`/`local -i` values, `test`/`[` with `-v` or an arithmetic comparison,
/// and array-element names given to `unset`, `read`, `printf -v`, `declare`.
pub(super) fn in_record(record: &SimpleCommand, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    let program = record.program_str().unwrap_or("");
    let args = record.args();
    let words_of_test: Vec<&Word> = match program {
        "test" | "[" => args.iter().collect(),
        _ => Vec::new(),
    };
    match program {
        "let" => args
            .iter()
            .for_each(|w| word_code(w, scope, true, &mut out)),
        "declare" | "typeset" | "local" | "export" | "readonly" => {
            for a in &record.assignments {
                let Some(value) = &a.value else { continue };
                if record.declares_attribute('i') || scope.is_integer(&a.name) {
                    word_code(value, scope, true, &mut out);
                } else if record.declares_attribute('n') {
                    // `declare -n r='a[$(…)]'`: the subscript runs when `r` is used.
                    word_code(value, scope, false, &mut out);
                }
            }
            for a in &record.assignments {
                if a.name.contains('[') && may_run(&a.name) {
                    out.push(Code::Static {
                        text: a.name.clone(),
                        span: a.span,
                    });
                }
            }
            // A quoted or built operand is an assignment to bash all the same:
            // `declare 'a[$(…)]=1'`, `declare "$v"` evaluate the subscript.
            for w in args {
                word_code(w, scope, false, &mut out);
            }
        }
        // `wait -p NAME`: the name of the variable that gets the process id.
        "wait" => {
            for w in option_values(args, 'p') {
                word_code(w, scope, false, &mut out);
            }
        }
        "unset" | "read" | "mapfile" | "readarray" => {
            for w in args {
                word_code(w, scope, false, &mut out);
            }
            if program != "unset" {
                read_into_integer(args, scope, &mut out);
            }
        }
        // `getopts SPEC NAME`: the variable that gets each option letter.
        "getopts" => {
            if let Some(name) = args.get(1) {
                word_code(name, scope, false, &mut out);
            }
            read_into_integer(args.get(1..).unwrap_or(&[]), scope, &mut out);
        }
        // `printf -v NAME`, `printf -vNAME`: only the name; the format and
        // arguments are text. A name only known at run time is read as before.
        "printf" => match printf_target(args) {
            PrintfTarget::Named { name, word, .. } => {
                value_code(&name, word.span, scope, false, &mut out);
                if scope.is_integer(&name) {
                    out.push(Code::Unknown { span: word.span });
                }
            }
            PrintfTarget::Nothing => {}
            PrintfTarget::Unknown => {
                if let Some(name) = args
                    .windows(2)
                    .find(|pair| pair[0].value() == Some("-v"))
                    .map(|pair| &pair[1])
                {
                    word_code(name, scope, false, &mut out);
                }
            }
        },
        _ => {}
    }
    // `n=VALUE cmd` for a variable declared `-i`: VALUE is evaluated.
    if record
        .program_str()
        .is_none_or(|p| !matches!(p, "declare" | "typeset" | "local" | "export" | "readonly"))
    {
        out.extend(in_assignments(&record.assignments, scope));
    }
    // `test -v NAME`, `test A -eq B`: operands are evaluated.
    for (i, w) in words_of_test.iter().enumerate() {
        let v = w.value().unwrap_or("");
        if matches!(v, "-v" | "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge") {
            if v != "-v"
                && let Some(left) = i.checked_sub(1).and_then(|j| words_of_test.get(j))
            {
                word_code(left, scope, true, &mut out);
            }
            if let Some(right) = words_of_test.get(i + 1) {
                word_code(right, scope, true, &mut out);
            }
        }
    }
    out
}

/// The operands of `[[ … ]]` comparisons evaluated as arithmetic (`-eq`…) and of
/// `-v`.
pub(super) fn in_test(node: Node, src: Source, scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        let mut cursor = current.walk();
        let children: Vec<Node> = current.named_children(&mut cursor).collect();
        let operator = field::child(current, Field::Operator)
            .map(|o| src.slice(o))
            .unwrap_or("");
        let arithmetic = matches!(
            operator,
            "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" | "-v"
        );
        for child in children {
            if arithmetic && kind(child) != "test_operator" {
                operand(child, src, scope, &mut out);
            } else {
                pending.push(child);
            }
        }
    }
    out
}

/// One operand of an arithmetic test: its static text (whatever the quoting) when
/// it has one, else the expansions in it.
fn operand(node: Node, src: Source, scope: &Scope, out: &mut Vec<Code>) {
    if kind(node) == "number" {
        return;
    }
    let word = build_word(&[node], src.text, src.span(node));
    if let Some(text) = word.value() {
        value_code(text, src.span(node), scope, true, out);
        return;
    }
    // Text the grammar does not give a value (`arr[x]` unquoted reads as a glob):
    // its names, when it has no expansion.
    let raw = src.slice(node);
    if !may_run(raw) {
        value_code(raw, src.span(node), scope, true, out);
        return;
    }
    let mut pending = vec![node];
    // `$x`, `${x}`, `$(…)`: as in arithmetic.
    while let Some(n) = pending.pop() {
        match kind(n) {
            "simple_expansion" | "expansion" => {
                match n.named_child(0) {
                    Some(name) if kind(name) == "variable_name" => {
                        reference(src.slice(name), src.span(n), scope, out)
                    }
                    // `$#`, `$?`, `$1`: numbers or the caller's arguments.
                    Some(name) if kind(name) == "special_variable_name" => {}
                    _ => out.push(Code::Unknown { span: src.span(n) }),
                }
            }
            "command_substitution" if !numeric_substitution(n, src) => {
                out.push(Code::Unknown { span: src.span(n) })
            }
            "command_substitution" => {}
            _ => {
                let mut cursor = n.walk();
                pending.extend(n.named_children(&mut cursor));
            }
        }
    }
}

/// The values of option `letter` among a builtin's leading options: `-p NAME`,
/// `-pNAME`, `-np NAME` (the letter last in a cluster takes the next word).
fn option_values(args: &[Word], letter: char) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(value) = args.get(i).and_then(Word::value) {
        if value == "--" || !value.starts_with('-') || value.len() < 2 {
            break;
        }
        match value[1..].find(letter) {
            Some(k) if k + 2 == value.len() => out.extend(args.get(i + 1)),
            // `-pNAME`: the name is the rest of the word, evaluated all the same.
            Some(_) => out.extend(args.get(i)),
            None => {}
        }
        i += 1;
    }
    out
}

/// A word evaluated as arithmetic (`whole`) or only its array subscripts (a name
/// given to `unset`, `read`...).
fn word_code(word: &Word, scope: &Scope, whole: bool, out: &mut Vec<Code>) {
    if let Some(v) = word.value() {
        value_code(v, word.span, scope, whole, out);
        return;
    }
    // `unset "a[$i]"`: only a subscript is evaluated; `read $v` where
    // `v='a[$(…)]'`: the subscript is in the variable's value.
    let subscript = word
        .parts
        .iter()
        .any(|p| matches!(p, Part::Literal(t) | Part::Quoted(t) if t.contains('[')));
    for part in &word.parts {
        match part {
            Part::Variable { name, .. } if !whole && !subscript => {
                name_reference(name, word.span, scope, out)
            }
            _ if !whole && !subscript => {}
            Part::Variable { name, .. } => reference(name, word.span, scope, out),
            Part::CommandSubstitution { .. } | Part::Expansion { .. } | Part::Unknown(_) => {
                out.push(Code::Unknown { span: word.span });
                return;
            }
            _ => {}
        }
    }
}

/// A variable that evaluates what it is given (declared `-i`, or `RANDOM`) filled
/// by `read`, `mapfile` or `getopts`: the value is only known at run time
/// (`declare -i n; read n < f`, `read RANDOM < f` run a subscript `f` holds).
/// Any word naming such a variable counts, options' values included: more asks,
/// never fewer.
fn read_into_integer(args: &[Word], scope: &Scope, out: &mut Vec<Code>) {
    for w in args {
        if w.value()
            .is_some_and(|v| scope.is_integer(v.split('[').next().unwrap_or(v)))
        {
            out.push(Code::Unknown { span: w.span });
        }
    }
}

/// The code in assignments to variables declared `-i` (`declare -i n; n=VALUE`):
/// bash evaluates VALUE as arithmetic.
pub(super) fn in_assignments(assignments: &[Assignment], scope: &Scope) -> Vec<Code> {
    let mut out = Vec::new();
    for a in assignments {
        if let Some(value) = &a.value
            && scope.is_integer(a.name.trim_end_matches('+'))
        {
            word_code(value, scope, true, &mut out);
        }
        if matches!(a.name.as_str(), "PS0" | "PS1" | "PS2" | "PS3" | "PS4")
            && let Some(value) = a.value.as_ref().and_then(Word::value)
        {
            in_prompt(value, a.span, scope, &mut out);
        }
    }
    out
}

/// The inside of each `${…}` in `value`, to its first `}` (`${a[x]}`: `a[x]`).
pub(crate) fn braced_expansions(value: &str) -> impl Iterator<Item = &str> {
    value.match_indices("${").map(|(at, _)| {
        let inner = &value[at + 2..];
        &inner[..inner.find('}').unwrap_or(inner.len())]
    })
}

/// The code a prompt string reaches when bash shows it (`PS4` at every traced
/// line): the subscript of each `${NAME[SUB]}` in it is arithmetic, and the name
/// `${!NAME}` holds is resolved (`x='a[$(cmd)]'; PS4='${a[x]}'; set -x` runs
/// `cmd`). The environment rule asks for such a prompt; this walks what it runs.
fn in_prompt(value: &str, span: Span, scope: &Scope, out: &mut Vec<Code>) {
    for inner in braced_expansions(value) {
        if let Some(name) = inner.strip_prefix('!') {
            let name = name.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            name_reference(name, span, scope, out);
        }
        for subscript in subscripts(inner) {
            value_code(subscript, span, scope, true, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{names_in, subscripts};

    #[test]
    fn an_expression_names_its_variables() {
        let names: Vec<&str> = names_in("y=x+arr[i]*2").collect();
        assert_eq!(names, ["y", "x", "arr", "i"]);
        // Digits lead no name; what follows them may be one (`1x` after `+=`).
        assert_eq!(names_in("0x1f + 10").collect::<Vec<_>>(), ["x1f"]);
        assert_eq!(names_in("1x").collect::<Vec<_>>(), ["x"]);
        assert_eq!(names_in("3 + 4").count(), 0);
    }

    #[test]
    fn a_name_gives_each_subscript_to_its_closing_bracket() {
        assert_eq!(subscripts("a[i+1]"), ["i+1"]);
        assert_eq!(subscripts("a[x][y]"), ["x", "y"]);
        assert_eq!(subscripts("a[b[i]]"), ["b[i]"]);
        assert_eq!(subscripts("a[open"), ["open"]);
        assert!(subscripts("plain").is_empty());
    }
}
