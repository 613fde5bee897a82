//! Engine tests: the word model, wrapper unwrapping, the walker's records and
//! contexts, span mapping of nested scripts, and the misparse repair.

use bashgate::model::command::{Cwd, InlineScript, Origin, SimpleCommand};
use bashgate::model::paths::Resolver;
use bashgate::model::word::Part;
use bashgate::{Gate, model, parse};
use std::path::PathBuf;

fn records(src: &str) -> Vec<SimpleCommand> {
    let env = model::Env {
        cwd: std::path::Path::new("/project"),
        resolver: &Resolver::new(Some(PathBuf::from("/home/u")), Default::default()),
        max_nesting: 8,
        fast_path: false,
    };
    model::build(src, &env).commands
}

fn programs(src: &str) -> Vec<String> {
    records(src)
        .iter()
        .filter_map(|c| c.program_name())
        .collect()
}

fn argv(src: &str) -> Vec<Option<String>> {
    records(src)[0]
        .words
        .iter()
        .map(|w| w.static_value())
        .collect()
}

#[test]
fn quote_removal_and_escapes_match_bash() {
    assert_eq!(
        argv(r#""r"m r\m 'a b' "a\"b" "\d" $'\x72\155\u0041'"#),
        vec![
            Some("rm".into()),
            Some("rm".into()),
            Some("a b".into()),
            Some("a\"b".into()),
            Some("\\d".into()),
            Some("rmA".into()),
        ]
    );
    assert_eq!(
        argv(r#"echo $"hi" "" ''"#),
        vec![
            Some("echo".into()),
            Some("hi".into()),
            Some("".into()),
            Some("".into()),
        ]
    );
}

#[test]
fn dynamic_parts_have_no_static_value() {
    for word in [
        "$X",
        "${X:-rm}",
        "$(cat rm)",
        "$(echo -e rm)",
        "`id`",
        "*.rs",
        "~/x",
        "a$((1))",
        "r?",
    ] {
        let cmd = format!("echo {word}");
        let values = argv(&cmd);
        assert_eq!(values[1], None, "{word}");
    }
}

/// Substitutions whose output is known without running anything have that value;
/// in command position and after `IFS=` they stay dynamic.
#[test]
fn known_substitutions_have_their_output_as_value() {
    for (word, value) in [
        ("$(echo rm)", "rm"),
        ("\"$(echo a  b)\"", "a b"),
        ("\"$(printf %s /x)\"", "/x"),
        ("$(dirname /etc/passwd)", "/etc"),
        ("$(basename /etc/passwd/)", "passwd"),
        ("x$(realpath -m /a/./b)", "x/a/b"),
    ] {
        let values = argv(&format!("echo {word}"));
        assert_eq!(values[1].as_deref(), Some(value), "{word}");
    }
    // Unquoted output with a space splits: not one word.
    assert_eq!(argv("echo $(echo a b)")[1], None);
    let r = records("IFS=/; echo $(echo a)");
    assert_eq!(r[1].words[1].value(), None);
    let r = records("$(echo rm) -rf x");
    assert_eq!(r[0].words[0].value(), None);
}

/// Text reaching arithmetic evaluation is a record of its own: static code is walked
/// (its commands recorded one level deeper), run-time text is a record with no script.
#[test]
fn arithmetic_contexts_record_the_code_that_reaches_them() {
    let origin = model::command::Origin::Embedded(model::ARITHMETIC.to_string());
    let r = records("x='a[$(touch p)]'; echo $((x))");
    assert!(r.iter().any(|c| c.origin == origin && c.script.is_some()));
    assert!(
        r.iter()
            .any(|c| c.program_str() == Some("touch") && c.context.nesting == 1)
    );
    let r = records("read n; echo $((n))");
    assert!(r.iter().any(|c| c.origin == origin && c.script.is_none()));
    for plain in [
        "n=$(nproc); echo $((n))",
        "for i in 1 2; do echo $((i)); done",
        "echo $((1+2))",
    ] {
        assert!(
            !records(plain).iter().any(|c| c.origin == origin),
            "{plain}"
        );
    }
}

#[test]
fn tilde_is_split_only_when_unquoted() {
    let r = records(r#"ls ~/x ~user "~"/y ~"/z""#);
    let words = &r[0].words;
    assert_eq!(words[1].parts[0], Part::Tilde(String::new()));
    assert_eq!(words[2].parts[0], Part::Tilde("user".into()));
    assert!(!matches!(words[3].parts[0], Part::Tilde(_)));
    assert!(!matches!(words[4].parts[0], Part::Tilde(_)));
}

#[test]
fn brace_expansion_splits_static_words() {
    assert_eq!(
        argv("x {a,b}c {1..3}"),
        vec![
            Some("x".into()),
            Some("ac".into()),
            Some("bc".into()),
            Some("1".into()),
            Some("2".into()),
            Some("3".into()),
        ]
    );
    // Quoted braces and `${` are not brace expansion.
    assert_eq!(
        argv(r#"x "{a,b}" {} {a}"#)[1..],
        [Some("{a,b}".into()), Some("{}".into()), Some("{a}".into())]
    );
}

#[test]
fn wrappers_are_unwrapped_like_getopt() {
    for (src, want) in [
        (
            "sudo -u root env A=1 B=2 nice -n 5 -- timeout -s KILL 5 rm x",
            "rm",
        ),
        ("xargs -I{} -P 4 sh -c 'x'", "sh"),
        ("stdbuf -oL -e0 grep x", "grep"),
        ("command -p ls", "ls"),
        ("exec -a name ls", "ls"),
        ("flock /tmp/l make", "make"),
        ("chrt -r 10 make", "make"),
        ("taskset -c 0,1 make", "make"),
        ("ionice -c 3 make", "make"),
        ("time -p make", "make"),
    ] {
        let r = records(src);
        assert_eq!(r[0].program_name().as_deref(), Some(want), "{src}");
        assert!(!r[0].wrappers.is_empty(), "{src}");
    }
    assert_eq!(records("command -v rm")[0].program, None);
    let r = records("env A=1 ls");
    assert!(r[0].assignments.iter().any(|a| a.name == "A"));
}

#[test]
fn find_exec_commands_are_their_own_records() {
    let r = records(r"find . -name x -exec rm -f {} \; -execdir ls {} +");
    let embedded: Vec<_> = r
        .iter()
        .filter(|c| c.origin == Origin::Embedded("find".into()))
        .collect();
    // Each command as written, and once more with `{}` as the name `-name` tests
    // for (`./x`).
    let programs: Vec<_> = embedded.iter().map(|c| c.program_name()).collect();
    assert_eq!(
        programs,
        [Some("rm"), Some("rm"), Some("ls"), Some("ls")].map(|p| p.map(String::from))
    );
    let last_args = |c: &SimpleCommand| c.args().last().and_then(|w| w.value()).map(String::from);
    assert_eq!(last_args(embedded[0]).as_deref(), Some("./x"));
    assert_eq!(last_args(embedded[1]).as_deref(), Some("{}"));
    assert_eq!(last_args(embedded[2]).as_deref(), Some("./x"));
}

#[test]
fn every_program_start_is_found_at_any_depth() {
    let src = "a | b && (c; { d; }) || e $(f `g`) <(h) >(i); if j; then k; elif l; then m; else m2; fi; \
               while n; do o; done; until p; do q; done; for x in 1; do r; done; \
               case y in z) s;; esac; fn() { t; }; ! u; [[ $(v) ]]; export W=$(w); x=$(y) z";
    let got = programs(src);
    for want in [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
        "s", "t", "u", "v", "w", "y", "z",
    ] {
        assert!(got.iter().any(|p| p == want), "{want} missing from {got:?}");
    }
}

#[test]
fn contexts_record_pipes_background_and_functions() {
    let r = records("a | b & f() { c; }");
    let find = |n: &str| {
        r.iter()
            .find(|c| c.program_name().as_deref() == Some(n))
            .expect(n)
    };
    assert!(find("a").context.in_pipeline && !find("a").context.piped_stdin);
    assert!(find("b").context.piped_stdin);
    assert!(find("b").context.background);
    assert_eq!(find("c").context.function.as_deref(), Some("f"));
}

#[test]
fn cwd_is_tracked_in_order_and_scoped() {
    let r = records("cd src; a; (cd /tmp; b); c; cd ..; d; cd $X; e; cd -; f");
    let cwd = |n: &str| {
        r.iter()
            .find(|c| c.program_name().as_deref() == Some(n))
            .expect(n)
            .context
            .cwd
            .clone()
    };
    assert_eq!(cwd("a"), Cwd::Known("/project/src".into()));
    assert_eq!(cwd("b"), Cwd::Known("/tmp".into()));
    assert_eq!(
        cwd("c"),
        Cwd::Known("/project/src".into()),
        "a subshell's cd does not leak"
    );
    assert_eq!(cwd("d"), Cwd::Known("/project".into()));
    assert_eq!(cwd("e"), Cwd::Unknown);
    assert_eq!(
        cwd("f"),
        Cwd::Known("/project".into()),
        "cd - returns to the previous dir"
    );
    let r = records("cd src | cat; g");
    let g = r
        .iter()
        .find(|c| c.program_name().as_deref() == Some("g"))
        .expect("g");
    assert_eq!(
        g.context.cwd,
        Cwd::Start,
        "a pipeline stage's cd does not leak"
    );
}

#[test]
fn nested_scripts_are_walked_with_mapped_spans() {
    let src = "bash -c 'ls; reboot now'";
    let r = records(src);
    assert!(matches!(r[0].script, Some(InlineScript::Parsed { .. })));
    let sudo = r
        .iter()
        .find(|c| c.program_name().as_deref() == Some("reboot"))
        .expect("reboot");
    assert_eq!(sudo.context.nesting, 1);
    let span = sudo.name().expect("name").span;
    assert_eq!(&src[span.start..span.end], "reboot");
    // Escapes decoded: the span falls back to the whole string.
    let src = r#"bash -c "echo \"x\"; reboot now""#;
    let r = records(src);
    let sudo = r
        .iter()
        .find(|c| c.program_name().as_deref() == Some("reboot"))
        .expect("reboot");
    let span = sudo.name().expect("name").span;
    assert_eq!(&src[span.start..span.end], r#""echo \"x\"; reboot now""#);
}

#[test]
fn heredoc_into_shell_is_a_nested_script() {
    let src = "bash <<'EOF'\nreboot now\nEOF";
    let sudo = records(src)
        .into_iter()
        .find(|c| c.program_name().as_deref() == Some("reboot"))
        .expect("reboot");
    let span = sudo.name().expect("name").span;
    assert_eq!(&src[span.start..span.end], "reboot");
}

#[test]
fn misparsed_pipeline_newline_is_repaired() {
    let src = "ls | grep x | wc -l\nreboot now && true";
    let parsed = parse::parse(src).expect("parse");
    assert!(!parsed.unrepaired);
    assert_eq!(parsed.text.len(), src.len() + 1);
    let got = programs(src);
    assert!(got.contains(&"reboot".to_string()), "{got:?}");
    let wc = records(src)
        .into_iter()
        .find(|c| c.program_name().as_deref() == Some("wc"))
        .expect("wc");
    assert_eq!(wc.args().len(), 1, "reboot must not be an argument of wc");
}

#[test]
fn gate_is_usable_from_many_threads() {
    let gate = std::sync::Arc::new(Gate::builder().root(".").build().expect("gate"));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let gate = gate.clone();
            std::thread::spawn(move || gate.check("sudo ls").decision)
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), bashgate::Decision::Deny);
    }
}
