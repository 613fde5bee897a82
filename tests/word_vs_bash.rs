//! The word model against real bash: words built from quoting and escape pieces are
//! expanded by `bash -c 'printf "%s\0" WORD…'`, and wherever bashgate gives every word
//! a static value, the values must equal bash's words exactly (quote removal, escape
//! decoding, ANSI-C decoding, concatenation). Words without a static value are
//! skipped. Runs 256 cases by default (`PROPTEST_CASES` to change).

use bashgate::model;
use bashgate::model::paths::Resolver;
use proptest::prelude::*;

#[path = "common/proptest_config.rs"]
mod proptest_config;
use std::process::Command;

/// bashgate's static values for the arguments of `printf x ARGS`; `None` when any
/// argument has none.
fn bashgate_words(args: &str) -> Option<Vec<String>> {
    let src = format!("printf x {args}");
    let env = model::Env {
        cwd: std::path::Path::new("/"),
        resolver: &Resolver::default(),
        max_nesting: 8,
        fast_path: false,
    };
    let walked = model::build(&src, &env);
    if !walked.problems.is_empty() {
        // The gate asks for these (BG001); there is no value to compare.
        return None;
    }
    let cmd = walked.commands.first()?;
    cmd.words
        .get(2..)?
        .iter()
        .map(|w| w.static_value())
        .collect()
}

fn bash_words(args: &str) -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("bashgate-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let out = Command::new("bash")
        .args([
            "--norc",
            "--noprofile",
            "-c",
            &format!("printf '%s\\0' {args}"),
        ])
        .current_dir(&dir)
        .env_clear()
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", "/nonexistent-home")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let mut words: Vec<String> = text.split('\0').map(str::to_string).collect();
    words.pop();
    Some(words)
}

fn bash_available() -> bool {
    Command::new("bash")
        .arg("-c")
        .arg("true")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Printable ASCII without the characters that start globs, braces or tildes.
fn plain_char() -> impl Strategy<Value = char> {
    prop::sample::select("abcxyz019_-.,:@%+=/".chars().collect::<Vec<_>>())
}

fn printable_except(excluded: &'static str) -> impl Strategy<Value = char> {
    (0x20u8..0x7f)
        .prop_map(|b| b as char)
        .prop_filter("excluded", move |c| !excluded.contains(*c))
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(plain_char(), 1..4).prop_map(|v| v.into_iter().collect()),
        // single quotes
        prop::collection::vec(printable_except("'"), 0..5)
            .prop_map(|v| format!("'{}'", v.into_iter().collect::<String>())),
        // double quotes with escapes and stray backslashes / dollars
        prop::collection::vec(
            prop_oneof![
                printable_except("\"\\$`").prop_map(|c| c.to_string()),
                prop::sample::select(vec![
                    "\\\"", "\\\\", "\\$", "\\`", "\\a", "\\n", "$ ", "\\'"
                ])
                .prop_map(str::to_string),
            ],
            0..5
        )
        .prop_map(|v| format!("\"{}\"", v.concat())),
        // a backslash escape outside quotes
        printable_except("").prop_map(|c| format!("\\{c}")),
        // ANSI-C strings
        prop::collection::vec(
            prop_oneof![
                printable_except("'\\").prop_map(|c| c.to_string()),
                prop::sample::select(vec![
                    "\\n",
                    "\\t",
                    "\\\\",
                    "\\'",
                    "\\\"",
                    "\\a",
                    "\\e",
                    "\\E",
                    "\\?",
                    "\\x41",
                    "\\x7e",
                    "\\101",
                    "\\0101",
                    "\\u00e9",
                    "\\u263A",
                    "\\U0001F600",
                    "\\x4",
                    "\\z",
                ])
                .prop_map(str::to_string),
            ],
            0..5
        )
        .prop_map(|v| format!("$'{}'", v.concat())),
        // translated strings
        prop::collection::vec(plain_char(), 0..4)
            .prop_map(|v| format!("$\"{}\"", v.into_iter().collect::<String>())),
        // an unset variable: the word has no static value unless the grammar split
        // it off as text (`'k'v=$X-` once read as the text `kv=$X-`; bash: `kv=-`)
        prop::sample::select(vec!["$X", "$1", "$@", "$_x"]).prop_map(str::to_string),
    ]
}

fn word() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 1..4).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(proptest_config::config(256))]
    #[test]
    fn static_values_match_bash(words in prop::collection::vec(word(), 1..4)) {
        if !bash_available() {
            eprintln!("bash not found: word model not compared");
            return Ok(());
        }
        let args = words.join(" ");
        if let Some(ours) = bashgate_words(&args) {
            let theirs = bash_words(&args);
            prop_assert_eq!(Some(ours), theirs, "args: {}", args);
        }
    }
}

/// Words that once disagreed, or that pin tricky corners.
#[test]
fn regression_words_match_bash() {
    if !bash_available() {
        return;
    }
    for args in [
        r#""r"m r\m 'a'"b"c"#,
        r#"$'\x72\155' $'a\'b' $'\u00e9'"#,
        r#""a\"b" "\d" "\\" "$ ""#,
        r#"$"hi" x$'\n'y"#,
        r#"\* \? \[ \{a,b\}"#,
        r#"'' "" a''b"#,
        // Found by the property test: the grammar's `$` token carries text before it,
        // leaves white space inside strings outside any node, splits `$''`, and
        // leaves operators like `==` as anonymous argument tokens.
        r#"" $ " "$ " -$"" ==$'' $""$'' $''\$"""#,
        // bash: `\cX` is toupper(X) & 0x1f, and `\c?` is DEL.
        r#"$'\c1x' $'\cA' $'\c[' $'\c?'"#,
    ] {
        let ours = bashgate_words(args).expect(args);
        assert_eq!(Some(ours), bash_words(args), "{args}");
    }
}
