//! Every rule looks program names up case-insensitively, with a Windows `.exe`
//! stripped: on a case-insensitive file system `GIT` runs git and `RM.EXE` runs
//! rm. Each corpus case that starts with a catalogued program must decide the same,
//! with the same rules, when the program is spelled `UPPER` or `Name.exe`.

use bashgate::Gate;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Deserialize)]
struct CorpusFile {
    #[serde(rename = "case", default)]
    cases: Vec<toml::Table>,
}

/// Commands of cases judged with the default policy from the root.
fn plain_commands() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read corpus file");
        let parsed: CorpusFile = toml::from_str(&text).expect("corpus toml");
        for case in parsed.cases {
            let plain = ["config", "mode", "cwd", "env"]
                .iter()
                .all(|k| !case.contains_key(*k));
            if let (true, Some(cmd)) = (plain, case.get("cmd").and_then(|c| c.as_str())) {
                out.push(cmd.to_string());
            }
        }
    }
    out
}

/// Bash builtins: the shell's own, matched by bash case-sensitively and never with
/// `.exe` (`EXPORT` is not `export`), so they are left out.
const BUILTINS: &[&str] = &[
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// The first word when it is a bare lowercase name the catalogue knows (and no
/// builtin).
fn catalogued_first_word(cmd: &str) -> Option<&str> {
    let first = cmd.split([' ', '\t', ';', '|', '&', '\n']).next()?;
    let bare = !first.is_empty()
        && first
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._+-".contains(c))
        && first.starts_with(|c: char| c.is_ascii_lowercase());
    let program = bare
        && !first.contains(".exe")
        && !BUILTINS.contains(&first)
        && bashgate::catalogue::lookup(first).is_some();
    program.then_some(first)
}

#[test]
fn every_rule_ignores_the_case_of_program_names_and_exe() {
    let root = std::env::temp_dir().join(format!("bashgate-case-{}", std::process::id()));
    std::fs::create_dir_all(root.join("src")).expect("temp root");
    let gate = Gate::builder().root(&root).build().expect("gate");
    let rules = |cmd: &str| -> (String, BTreeSet<&'static str>) {
        let verdict = gate.check(cmd);
        (
            verdict.decision.to_string(),
            verdict.findings.iter().map(|f| f.rule).collect(),
        )
    };
    let mut differences = Vec::new();
    let mut compared = 0;
    for cmd in plain_commands() {
        let Some(first) = catalogued_first_word(&cmd) else {
            continue;
        };
        let rest = &cmd[first.len()..];
        let want = rules(&cmd);
        for spelled in [first.to_ascii_uppercase(), format!("{first}.exe")] {
            let variant = format!("{spelled}{rest}");
            compared += 1;
            let got = rules(&variant);
            if got != want {
                differences.push(format!("{cmd:?}: {want:?}\n  {variant:?}: {got:?}"));
            }
        }
    }
    assert!(compared > 500, "only {compared} variants compared");
    assert!(
        differences.is_empty(),
        "{} of {compared} variants decide otherwise:\n{}",
        differences.len(),
        differences.join("\n")
    );
}
