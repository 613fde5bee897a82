//! Metamorphic properties: wrapping a command in more syntax never makes the gate
//! more permissive, and `A; B` decides like the stricter of the two.
//!
//! For any generated command X, none of `( X )`, `{ X; }`, `true && X`, `X; true`,
//! `if true; then X; fi`, `for i in 1; do X; done`, `f() { X; }; f`, `bash -c 'X'`,
//! `eval 'X'`, `echo $(X)`, `cat <(X)`, `X # comment` (and, for a simple command,
//! `sudo X`, `env X`, `nohup X &`) gets a lower decision than X. For independent
//! simple commands A and B, `A; B` decides exactly max(A, B). Requoting a plain word
//! (`x`, `'x'`, `"x"`, `\x`, `$'x'`) changes nothing, and neither does moving a
//! redirect among a command's words (`cat 2>/dev/null FILE` is `cat FILE 2>/dev/null`).
//!
//! 256 cases per property with a fixed seed by default; `BASHGATE_PROPTEST=random`
//! runs them long and random (see `common/proptest_config.rs`).

#[path = "common/generate.rs"]
mod generate;
#[path = "common/proptest_config.rs"]
mod proptest_config;

use bashgate::{Decision, Gate, Verdict};
use generate::{command, independent, redirect_placements, requote, simple, single_quote};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A project with the files and symlinks the generator names, and a home.
fn gate() -> &'static Gate {
    static GATE: OnceLock<(Gate, PathBuf)> = OnceLock::new();
    &GATE
        .get_or_init(|| {
            let base =
                std::env::temp_dir().join(format!("bashgate-metamorphic-{}", std::process::id()));
            let root = base.join("project");
            let home = base.join("home");
            std::fs::create_dir_all(root.join("src")).expect("root");
            std::fs::create_dir_all(home.join(".ssh")).expect("home");
            for f in generate::WORKSPACE_FILES {
                std::fs::write(root.join(f), "x\n").expect("file");
            }
            let _ = std::os::unix::fs::symlink("/etc", root.join("etc-link"));
            let _ = std::os::unix::fs::symlink(home.join(".ssh"), root.join("keys"));
            let gate = Gate::builder()
                .root(&root)
                .home(Some(home))
                .with_policy(|p| p.env.clear())
                .build()
                .expect("gate");
            (gate, base)
        })
        .0
}

fn decide(command: &str) -> Verdict {
    gate().check(command)
}

fn explain(v: &Verdict) -> String {
    let rules: Vec<_> = v
        .findings
        .iter()
        .map(|f| format!("{}:{}", f.rule, f.message))
        .collect();
    format!("{} {:?}", v.decision, rules)
}

/// X's text as the body of a compound command: a heredoc's delimiter line must end
/// with a newline before the closing keyword.
fn body(x: &str) -> String {
    if x.ends_with('\n') {
        x.to_string()
    } else {
        format!("{x}\n")
    }
}

/// Every wrapping of X the property covers.
fn wrappings(x: &str, x_is_simple: bool) -> Vec<String> {
    let b = body(x);
    let mut out = vec![
        format!("( {b})"),
        format!("{{ {b}}}"),
        format!("true && {x}"),
        format!("{b}true"),
        format!("if true; then {b}fi"),
        format!("for i in 1; do {b}done"),
        format!("f() {{ {b}}}; f"),
        // The script's `$1` on are the words after its name: the caller's,
        // passed on, keep it the same command.
        format!("bash -c {} bash \"$@\"", single_quote(x)),
        format!("eval {}", single_quote(x)),
        // A space after `$(`: `$((` would start arithmetic.
        format!("echo $( {b})"),
        format!("cat <( {b})"),
    ];
    if !x.contains('\n') {
        out.push(format!("{x} # comment"));
    }
    if x_is_simple && !x.contains('\n') {
        out.push(format!("sudo {x}"));
        out.push(format!("env {x}"));
        // nohup takes no `NAME=value` words: `nohup X=1 cmd` runs a program named
        // `X=1`, a different command.
        if !x.split_whitespace().next().is_some_and(|w| w.contains('=')) {
            out.push(format!("nohup {x} &"));
        }
    }
    out
}

fn check_wrappings(x: &str, simple: bool) -> Result<(), TestCaseError> {
    let base = decide(x);
    for wrapped in wrappings(x, simple) {
        let v = decide(&wrapped);
        prop_assert!(
            v.decision >= base.decision,
            "{wrapped:?} decided {} but {x:?} decided {}",
            explain(&v),
            explain(&base)
        );
    }
    Ok(())
}

/// The pair a long random run found: each part alone is allowed, but the list
/// runs a file it has just written, whose text the gate never sees.
#[test]
fn a_list_that_runs_what_it_wrote_is_stricter_than_its_parts() {
    let (a, b) = ("/usr/bin/chmod &> dangling", "/usr/bin/sh dangling");
    let both = decide(&format!("{a}; {b}"));
    let parts = decide(a).decision.max(decide(b).decision);
    assert!(both.decision > parts, "{}", explain(&both));
    assert!(
        both.findings.iter().any(|f| f.rule == "BG204"),
        "{}",
        explain(&both)
    );
    // A program that reads its code from a file the list wrote (`sed -f`, `awk
    // -f`): BG205's written-code finding, found by a long random run too.
    let (a, b) = ("2> ./a.txt /usr/bin/ag", "/usr/bin/sed -rf ./a.txt");
    let both = decide(&format!("{a}; {b}"));
    let parts = decide(a).decision.max(decide(b).decision);
    assert!(both.decision > parts, "{}", explain(&both));
    assert!(both.findings.iter().any(written_code), "{}", explain(&both));
}

/// The case a long random run found: a word joined into shell text (`lerna exec
/// -- CMD`) inside a script nested with `'\''` quoting was read from the command
/// at a place that is not its text, so the joined script was unknown (ask) where
/// the same command unwrapped denies.
#[test]
fn a_joined_script_nested_in_quotes_is_judged_as_unwrapped() {
    let inner = "bash /dev/stdin <<< 'lerna exec -- rm -rf ~'";
    check_wrappings(inner, false).unwrap();
    let wrapped = decide(&format!("bash -c {}", single_quote(inner)));
    assert_eq!(
        wrapped.decision,
        decide(inner).decision,
        "{}",
        explain(&wrapped)
    );
}

/// BG205's finding for code a program reads from a file the same command wrote
/// (`python3 x.py`, `sed -f x` after writing `x`): an effect of one part of a list
/// on another.
fn written_code(finding: &bashgate::Finding) -> bool {
    finding.rule == "BG205" && finding.message.contains("this command wrote")
}

proptest! {
    #![proptest_config(proptest_config::config(256))]

    #[test]
    fn wrapping_a_command_never_makes_it_more_permissive(x in command(true)) {
        check_wrappings(&x, false)?;
    }

    #[test]
    fn wrapping_a_simple_command_never_makes_it_more_permissive(x in simple(false)) {
        check_wrappings(&x, !x.starts_with("exec"))?;
    }

    /// A list is never more permissive than its strictest part, and it is stricter
    /// only by what one part does to the other: a file written then run as a
    /// script of unknown text (BG204), as code (BG205's written code) or by a
    /// runner (BG218), something read then sent (BG219), a dump then filtered
    /// (BG315). The parts keep no shell state,
    /// but they can still touch the same file (`chmod &> dangling; sh dangling`:
    /// the second runs what the first wrote, found by a long random run).
    #[test]
    fn a_list_decides_like_its_strictest_part(a in independent(), b in independent()) {
        const ACROSS: [&str; 4] = ["BG204", "BG218", "BG219", "BG315"];
        let (va, vb) = (decide(&a), decide(&b));
        let both = decide(&format!("{a}; {b}"));
        let expected: Decision = va.decision.max(vb.decision);
        let explained = both
            .findings
            .iter()
            .filter(|f| f.decision > expected)
            .all(|f| ACROSS.contains(&f.rule) || written_code(f));
        prop_assert!(
            both.decision == expected || both.decision > expected && explained,
            "{:?} decided {}, parts {} and {}",
            format!("{a}; {b}"),
            explain(&both),
            explain(&va),
            explain(&vb)
        );
    }

    /// `cat 2>/dev/null FILE` is `cat FILE 2>/dev/null`: where a redirect stands
    /// among a command's words changes nothing (tree-sitter-bash hangs the words
    /// after it on the redirect; they were dropped). Only where the grammar fails
    /// on a placement (`0<&- prog a` was an ERROR; `` `a` `b` `` is one substitution
    /// to it) may that placement ask instead, as a parse problem (BG001).
    #[test]
    fn moving_a_redirect_among_the_words_changes_nothing(placements in redirect_placements()) {
        let verdicts: Vec<Verdict> = placements.iter().map(|p| decide(p)).collect();
        let least = verdicts.iter().map(|v| v.decision).min().expect("a placement");
        let (at_least, _) = verdicts
            .iter()
            .enumerate()
            .find(|(_, v)| v.decision == least)
            .expect("the least");
        for (placed, v) in placements.iter().zip(&verdicts) {
            let unparsed = v.findings.iter().any(|f| f.rule == "BG001");
            prop_assert!(
                v.decision == least || unparsed,
                "{:?} decided {} but {:?} decided {}",
                placed,
                explain(v),
                placements[at_least],
                explain(&verdicts[at_least])
            );
        }
    }

    #[test]
    fn requoting_a_plain_word_changes_nothing(
        words in prop::collection::vec(
            prop::sample::select(&[
                "rm", "ls", "cat", "sudo", "curl", "echo", "git", "a.txt", "-rf", "/etc/passwd",
                "src", "push", "--force", "build", "chmod", "777",
            ][..]),
            1..5,
        ),
        hows in prop::collection::vec(0u8..5, 5),
    ) {
        let plain = words.join(" ");
        let requoted: Vec<String> = words
            .iter()
            .zip(hows.iter().cycle())
            .map(|(w, how)| requote(w, *how))
            .collect();
        let requoted = requoted.join(" ");
        let (p, r) = (decide(&plain), decide(&requoted));
        prop_assert_eq!(
            p.decision,
            r.decision,
            "{:?} decided {} but {:?} decided {}",
            plain,
            explain(&p),
            requoted,
            explain(&r)
        );
    }
}

/// Regression (found by this property on a fresh clone): a command with a parse
/// error recovers differently inside `{ …; }` — the grammar left the redirect as
/// loose tokens in the ERROR node, so the write to `~/.ssh` was not seen and deny
/// became ask. The class: what an ERROR node holds must decide the same however the
/// text is wrapped. Each case has a parse error and a finding the error must not hide.
#[test]
fn wrapping_a_parse_error_never_makes_it_more_permissive() {
    let cases = [
        "echo \"$(( /usr/bin/echo >> ~/.ssh/id_rsa )\n)\"",
        "echo \"$(( /usr/bin/echo > ~/.bashrc )\n)\"",
        "echo \"$(( cat < ~/.ssh/id_rsa )\n)\"",
        "echo \"$(( sudo reboot )\n)\"",
        "ls \"$(( rm -rf ~ )\n)\"",
        "echo $(( x >> ~/.ssh/authorized_keys",
        "echo \"$(( /usr/bin/echo >| $HOME/.bashrc )\n)\"",
    ];
    for x in cases {
        let base = decide(x);
        assert!(
            base.findings.iter().any(|f| f.rule == "BG001"),
            "{x:?} should have a parse error: {}",
            explain(&base)
        );
        check_wrappings(x, false).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// CI draws the same cases on every run (unless a long random run was asked for).
#[test]
fn ci_runs_draw_the_same_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    if std::env::var_os("BASHGATE_PROPTEST").is_some()
        || std::env::var_os("PROPTEST_RNG_SEED").is_some()
    {
        return;
    }
    let draw = || {
        let mut runner = TestRunner::new(proptest_config::config(1));
        (0..20)
            .map(|_| {
                command(true)
                    .new_tree(&mut runner)
                    .expect("generate")
                    .current()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(), draw());
}
