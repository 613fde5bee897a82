//! BG204: scripts run from text the gate cannot see.

use crate::declare_rule;
use crate::model::command::{InlineScript, SimpleCommand};
use crate::rules::Checker;

declare_rule! {
    /// ## What it does
    /// The strings of `bash -c` / `sh -c` (any flag order: `-lc`, `-ec`), `eval`,
    /// `su -c`, `env -S`, `flock -c`, `watch`, `parallel`, `alias`, the callbacks of
    /// `trap`, `mapfile -C`, `complete`/`compgen -C`/`-F`/`-W` and `bind -x`, and the
    /// heredocs and here-strings fed to a shell are parsed and analysed as nested
    /// scripts: their commands are judged like any other, with spans in the original
    /// command. This rule asks when such a script is only known at run time
    /// (`bash -c "$CMD"`, `eval "$(tool init)"`; a file name or input line that
    /// `find -exec` or `xargs -I` pastes into it, `find -exec sh -c 'echo {}' \;`,
    /// where a name like `;CMD;` is code), and when a shell reads its script
    /// from a pipe or a file (`curl ... | sh`, `base64 -d x | bash`, `sh < x`). A
    /// shell or `source` given a descriptor as its script (`bash /dev/stdin <<<
    /// CMD`, `. /dev/fd/3`) runs what feeds it: a heredoc or here-string is judged,
    /// anything else asks. `fc` (other than `fc -l`) re-runs commands from the
    /// shell's history, whose text is not in the command: it asks too. So does an
    /// `@FILE` argument of a program that reads it as more arguments (the
    /// catalogue's `response-files`: `gcc @args`, `javac @opts`, `java
    /// @argfiles`, `rustc @f`, `ld @f`): those arguments may run plugins and
    /// programs (`-fplugin=`, `-wrapper`, `-B`) or write anywhere. And it asks
    /// when the command runs code it fetched from the network into a folder
    /// (`git clone URL repo && make -C repo`, `… && cd repo && ./install.sh`): the
    /// same fetch as `curl URL | sh`, in another spelling.
    ///
    /// ## Why
    /// Wrapping a command in `bash -c` is the oldest way around prefix rules. A gate
    /// that only strips the wrapper textually is fooled by quoting; one that does not
    /// look inside at all allows everything. Text that cannot be seen cannot be
    /// judged, so it asks.
    ///
    /// ## Example
    /// - `eval "$X"` → ask
    /// - `bash -c "$CMD"` → ask
    /// - `bash -c "sudo reboot"` → deny (BG207, BG208): the nested script is judged
    /// - `bash -c 'cargo test'` → allow
    /// - `find . -name '*.sh' -exec sh -c 'wc -l {}' \;` → ask
    /// - `find . -name '*.sh' -exec wc -l {} \;` → allow
    /// - `bash /dev/stdin <<< 'rm -rf ~'` → deny (BG202)
    /// - `fc -s make` → ask
    /// - `fc -l` → allow
    /// - `gcc @args.txt` → ask
    /// - `git clone https://github.com/o/repo && cd repo && make` → ask
    /// - `git clone https://github.com/o/repo && ls repo` → allow
    pub static NESTED_SHELL = {
        code: "BG204",
        name: "nested-shell",
        default: Ask,
        capability: ShellExpansion,
        summary: "runs a script (bash -c, eval, piped into a shell) whose text is unknown",
    };
}

/// Asks for dynamic scripts and shells reading unknown stdin.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    match &cmd.script {
        Some(InlineScript::Dynamic { span }) => cx.report(
            &NESTED_SHELL,
            *span,
            "runs a script whose text is only known at run time".to_string(),
        ),
        Some(InlineScript::UnknownStdin { span }) => cx.report(
            &NESTED_SHELL,
            *span,
            "a shell reads its script from input the gate cannot see".to_string(),
        ),
        Some(InlineScript::Fetched { span }) => cx.report(
            &NESTED_SHELL,
            *span,
            "runs code this command fetched from the network (a clone): what it runs is only known at run time, as with `curl | sh`".to_string(),
        ),
        _ => {}
    }
    history_rerun(cmd, cx);
    response_files(cmd, cx);
}

/// `gcc @FILE`: a program the catalogue says reads `@FILE` operands as more
/// arguments, given one. The arguments are in a file the gate does not read, so
/// what they run or write cannot be judged.
fn response_files(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx
        .entry(cmd)
        .filter(|e| e.has(crate::catalogue::Fact::ResponseFiles))
    else {
        return;
    };
    for word in cmd.args() {
        let text = match word.value() {
            Some(v) => v.to_string(),
            // `@"$F"`, `@$F`: the leading `@` is literal.
            None => match word.parts.first() {
                Some(
                    crate::model::word::Part::Literal(t) | crate::model::word::Part::Quoted(t),
                ) => t.clone(),
                _ => continue,
            },
        };
        if text == "--" {
            break;
        }
        // `-Wl,@FILE`: a comma list passes its items on as arguments.
        let passed_on = text.starts_with('-')
            && text
                .split(',')
                .skip(1)
                .any(|item| item.len() > 1 && item.starts_with('@'));
        if (text.len() > 1 && text.starts_with('@')) || passed_on {
            cx.report(
                &NESTED_SHELL,
                word.span,
                format!(
                    "`{} {text}` reads more arguments from a file the gate does not see",
                    entry.name
                ),
            );
        }
    }
}

/// `fc -s`, `fc -e EDITOR`, bare `fc`: the builtin runs commands taken from the
/// shell's history (edited or not), text the gate never sees. `fc -l` only lists.
fn history_rerun(cmd: &SimpleCommand, cx: &mut Checker) {
    if cx.base_name(cmd) != Some("fc") || cmd.shadowed {
        return;
    }
    let lists = cmd.args().iter().any(|w| {
        w.value()
            .is_some_and(|v| v.starts_with('-') && !v.starts_with("--") && v.contains('l'))
    });
    if !lists && let Some(word) = cmd.name() {
        cx.report(
            &NESTED_SHELL,
            word.span,
            "`fc` re-runs commands from the shell history, whose text is not in the command"
                .to_string(),
        );
    }
}
