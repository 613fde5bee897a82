//! Builtins that keep shell text to run later as a callback: `trap CODE SIG…`,
//! `mapfile`/`readarray -C CODE`, `complete`/`compgen -C CODE`, `-F FUNCTION` and
//! `-W WORDLIST` (the word list is expanded, so a `$(…)` in it runs), and
//! `bind -x 'KEYSEQ: CODE'`. Each callback's text is a nested script: judged when
//! static, asked about when only known at run time.

use super::nested::{Positionals, ScriptText, single};
use super::word::Word;
use crate::parse::SpanMap;
use crate::verdict::Span;

/// The callbacks of the builtin `name` (its canonical name) given `args`; empty for
/// any other program.
pub fn scripts(name: &str, args: &[Word], source: &str) -> Vec<ScriptText> {
    match name {
        "trap" => trap(args, source),
        "mapfile" | "readarray" => option_scripts(args, "dnOsucC", &['C'], source),
        "complete" | "compgen" => option_scripts(args, "oAGWFCXPS", &['C', 'F', 'W'], source),
        "bind" => bind(args, source),
        _ => Vec::new(),
    }
}

/// `trap [-lpP] [--] [CODE] SIGNAL…`: CODE is a script unless it is `-` (reset), a
/// signal number (reset, as bash reads `trap 0 1`), or the only operand.
fn trap(args: &[Word], source: &str) -> Vec<ScriptText> {
    let first = args.first().and_then(Word::static_value);
    let skip = match first.as_deref() {
        Some("--") => 1,
        // `-p`, `-l`, `-P` print; nothing is set.
        Some(v) if v.len() > 1 && v.starts_with('-') => return Vec::new(),
        _ => 0,
    };
    let operands = args.get(skip..).unwrap_or(&[]);
    let [code, _signal, ..] = operands else {
        return Vec::new();
    };
    match code.static_value().as_deref() {
        Some("-") => Vec::new(),
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => Vec::new(),
        _ => vec![single(code, source)],
    }
}

/// True when `trap`'s `args` set code for the shell's exit alone (`EXIT`, `0`,
/// `SIGEXIT`): it runs once, at the end. Any other signal, or one only known at
/// run time, may interrupt the script anywhere after the trap is set.
pub fn trap_on_exit_only(args: &[Word]) -> bool {
    let operands = match args.first().and_then(Word::static_value).as_deref() {
        Some("--") => args.get(1..).unwrap_or(&[]),
        _ => args,
    };
    let signals = operands.get(1..).unwrap_or(&[]);
    !signals.is_empty()
        && signals.iter().all(|w| {
            w.static_value().is_some_and(|v| {
                let v = v.to_ascii_uppercase();
                matches!(v.as_str(), "EXIT" | "0" | "SIGEXIT")
            })
        })
}

/// One option value of a builtin's getopt-style options.
enum OptionValue<'w> {
    /// A word among the options only known at run time: it may be any option.
    Unknown(Span),
    /// `-Cvalue`: the value glued to its letter, in `word`.
    Attached {
        letter: char,
        text: String,
        span: Span,
    },
    /// `-C value`: the value is the next word.
    Separate { letter: char, word: &'w Word },
    /// `-C` last, its value missing.
    Missing { letter: char, span: Span },
}

/// The values of the options in `args` that take one (`takes` lists their
/// letters), read as getopt reads them: clustered letters, a value glued or in the
/// next word, options ending at `--` or the first operand.
fn option_values<'w>(args: &'w [Word], takes: &str) -> Vec<OptionValue<'w>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let Some(value) = word.static_value() else {
            // `mapfile $OPTS arr`: the options are unknown.
            out.push(OptionValue::Unknown(word.span));
            i += 1;
            continue;
        };
        if value == "--" || !value.starts_with('-') || value.len() < 2 {
            break;
        }
        let letters: Vec<char> = value.chars().skip(1).collect();
        let mut step = 1;
        if let Some(k) = letters.iter().position(|c| takes.contains(*c)) {
            let letter = letters[k];
            let attached: String = letters[k + 1..].iter().collect();
            out.push(if !attached.is_empty() {
                OptionValue::Attached {
                    letter,
                    text: attached,
                    span: word.span,
                }
            } else if let Some(next) = args.get(i + 1) {
                step = 2;
                OptionValue::Separate { letter, word: next }
            } else {
                OptionValue::Missing {
                    letter,
                    span: word.span,
                }
            });
        }
        i += step;
    }
    out
}

/// The scripts among the option values of `args` whose letter is in `code` (`-W`'s
/// word list is judged as the words of `: LIST`, so a substitution in it is
/// walked). A dynamic word among the options may be any option: when it could be a
/// script option, it is one.
fn option_scripts(args: &[Word], takes: &str, code: &[char], source: &str) -> Vec<ScriptText> {
    option_values(args, takes)
        .into_iter()
        .filter_map(|value| match value {
            OptionValue::Unknown(span) => Some(ScriptText::Dynamic(span)),
            OptionValue::Attached { letter, text, span } if code.contains(&letter) => {
                Some(ScriptText::Static {
                    text: callback_text(letter, &text),
                    map: SpanMap::Whole(span),
                    args: Positionals::Inherited,
                })
            }
            OptionValue::Separate { letter, word } if code.contains(&letter) => {
                Some(as_script(letter, word, source))
            }
            OptionValue::Missing { letter, span } if code.contains(&letter) => {
                Some(ScriptText::Dynamic(span))
            }
            _ => None,
        })
        .collect()
}

/// The script a callback option's separate value word stands for.
fn as_script(option: char, word: &Word, source: &str) -> ScriptText {
    if option != 'W' {
        return single(word, source);
    }
    match word.static_value() {
        Some(text) => ScriptText::Static {
            text: callback_text(option, &text),
            map: SpanMap::Whole(word.span),
            args: Positionals::Inherited,
        },
        None => ScriptText::Dynamic(word.span),
    }
}

/// The text judged for a callback option's value: `-W`'s word list is expanded as
/// the words of a command, any other value is run as it is.
fn callback_text(option: char, value: &str) -> String {
    if option == 'W' {
        format!(": {value}")
    } else {
        value.to_string()
    }
}

/// `bind [-m KEYMAP] -x 'KEYSEQ: CODE'` (also `-xKEYSEQ:CODE`): CODE is a script.
/// The options that take a value: -m keymap, -x binding, -f file, -q/-u function,
/// -r keyseq.
fn bind(args: &[Word], _source: &str) -> Vec<ScriptText> {
    let bound =
        |binding: Option<String>, span: Span| match binding.as_deref().and_then(bound_command) {
            Some(text) => ScriptText::Static {
                text,
                map: SpanMap::Whole(span),
                args: Positionals::Inherited,
            },
            None => ScriptText::Dynamic(span),
        };
    option_values(args, "mxfqur")
        .into_iter()
        .filter_map(|value| match value {
            OptionValue::Unknown(span) => Some(ScriptText::Dynamic(span)),
            OptionValue::Attached {
                letter: 'x',
                text,
                span,
            } => Some(bound(Some(text), span)),
            OptionValue::Separate { letter: 'x', word } => {
                Some(bound(word.static_value(), word.span))
            }
            OptionValue::Missing { letter: 'x', span } => Some(ScriptText::Dynamic(span)),
            _ => None,
        })
        .collect()
}

/// The command of a `bind -x` binding `KEYSEQ: COMMAND` (as readline reads it: the
/// key sequence is quoted or runs to the colon; the command may be quoted). `None`
/// when the binding does not have that shape.
fn bound_command(binding: &str) -> Option<String> {
    let binding = binding.trim_start();
    let rest = if let Some(quoted) = binding.strip_prefix('"') {
        let mut escaped = false;
        let mut end = None;
        for (k, c) in quoted.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let after = &quoted[end? + 1..];
        after.trim_start().strip_prefix(':')?
    } else {
        binding.split_once(':')?.1
    };
    let command = rest.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = command
            .strip_prefix(quote)
            .and_then(|c| c.strip_suffix(quote))
        {
            return Some(inner.to_string());
        }
    }
    Some(command.to_string())
}

/// `env 'BASH_FUNC_NAME%%=() { BODY; }' …`: the function every bash started with
/// that environment defines, as the script `NAME () { BODY; }` (its body is walked
/// like any function's); a body only known at run time is a dynamic script. `None`
/// for any other word.
pub fn exported_function(word: &Word) -> Option<ScriptText> {
    let prefix = match word.parts.first()? {
        super::word::Part::Literal(t) | super::word::Part::Quoted(t) => t.as_str(),
        _ => return None,
    };
    let (name, _) = prefix.split_once('=')?;
    let function = name.strip_prefix("BASH_FUNC_")?.strip_suffix("%%")?;
    let Some(value) = word.value() else {
        return Some(ScriptText::Dynamic(word.span));
    };
    let (_, body) = value.split_once('=')?;
    Some(ScriptText::Static {
        text: format!("{function} {body}"),
        map: SpanMap::Whole(word.span),
        args: Positionals::Inherited,
    })
}

#[cfg(test)]
mod tests {
    use super::bound_command;

    #[test]
    fn bind_commands_are_read_as_readline_reads_them() {
        assert_eq!(
            bound_command(r#""\C-a": sudo reboot"#).as_deref(),
            Some("sudo reboot")
        );
        assert_eq!(
            bound_command(r#""\C-\":x": "ls -l""#).as_deref(),
            Some("ls -l")
        );
        assert_eq!(bound_command("C-a: 'id'").as_deref(), Some("id"));
        assert_eq!(bound_command("no colon"), None);
        assert_eq!(bound_command(r#""unterminated"#), None);
    }
}
