//! Permission rules: user patterns over the normalised simple command, e.g.
//! `"git push *" = "ask"`, `"npm run *" = "allow"`, `"rm -rf *" = "deny"`.
//!
//! The normalised command is the program's static name (standard system folders
//! stripped: `/bin/rm` is `rm`) and its arguments' static values, joined by single
//! spaces, after unwrapping wrappers (`sudo -u x rm -rf y` normalises to
//! `rm -rf y`; the form with the wrappers is matched too). `*` matches any run of
//! characters; a trailing ` *` also matches nothing (`"git push *"` matches
//! `git push`). A dynamic argument (`$X`, `$(cmd)`) becomes a character no literal
//! can match, so only a `*` covers it: `"rm build/*"` does not match `rm $X`.
//!
//! The most specific matching pattern wins: the one with the most literal
//! (non-`*`) characters; on a tie, the one given later.

use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::policy::PermissionRule;

/// Stands for a dynamic word in the normalised command; no pattern literal is it.
pub const DYNAMIC: char = '\u{1}';

/// The normalised command from word `from` on (`None` when the program is dynamic).
pub fn normalize(cmd: &SimpleCommand, from: usize) -> Option<String> {
    let program = cmd.program?;
    let name = cmd.program_str()?;
    let mut out = String::new();
    for (i, word) in cmd.words.iter().enumerate().skip(from) {
        if !out.is_empty() {
            out.push(' ');
        }
        if i == program {
            out.push_str(name);
        } else {
            push_word(&mut out, word);
        }
    }
    Some(out)
}

fn push_word(out: &mut String, word: &Word) {
    match word.value() {
        Some(v) => out.push_str(v),
        None => out.push(DYNAMIC),
    }
}

/// True when `pattern` (with `*` wildcards) matches all of `text`.
pub fn matches(pattern: &str, text: &str) -> bool {
    if glob(pattern, text) {
        return true;
    }
    pattern
        .strip_suffix(" *")
        .is_some_and(|bare| glob(bare, text))
}

/// `*` matches any run of characters; everything else matches itself. Iterative
/// with one backtrack point, so it is linear-ish and never recurses.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// How specific a pattern is: its literal characters.
pub fn specificity(pattern: &str) -> usize {
    pattern.chars().filter(|&c| c != '*').count()
}

/// The most specific rule matching the command (with or without its wrappers).
pub fn best_match<'r>(
    rules: impl IntoIterator<Item = &'r PermissionRule>,
    cmd: &SimpleCommand,
) -> Option<&'r PermissionRule> {
    // Most policies have no permission rules: nothing to spell out then.
    let mut rules = rules.into_iter().peekable();
    rules.peek()?;
    let program = cmd.program?;
    let bare = normalize(cmd, program)?;
    let wrapped = if program > 0 { normalize(cmd, 0) } else { None };
    let mut best: Option<&PermissionRule> = None;
    for rule in rules {
        let hit = matches(&rule.pattern, &bare)
            || wrapped
                .as_deref()
                .is_some_and(|w| matches(&rule.pattern, w));
        if hit && best.is_none_or(|b| specificity(&rule.pattern) >= specificity(&b.pattern)) {
            best = Some(rule);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_trailing_star() {
        assert!(matches("git push *", "git push origin main"));
        assert!(matches("git push *", "git push"));
        assert!(!matches("git push *", "git pushx"));
        assert!(matches("rm -rf *", "rm -rf build"));
        assert!(!matches("rm -rf *", "rm -r build"));
        assert!(matches("*", "anything at all"));
        assert!(matches("npm run *:dev", "npm run web:dev"));
        assert!(!matches("npm run build", "npm run build --prod"));
    }

    #[test]
    fn dynamic_words_only_match_stars() {
        let text = format!("rm {DYNAMIC}");
        assert!(matches("rm *", &text));
        assert!(!matches("rm build", &text));
        assert!(!matches("rm build*", &text));
    }

    #[test]
    fn specificity_counts_literals() {
        assert!(specificity("rm -rf *") > specificity("rm *"));
        assert_eq!(specificity("*"), 0);
    }
}
