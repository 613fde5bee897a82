//! The catalogue is the one place that names programs: a rule file (`src/rules/*.rs`)
//! that spells a catalogued program's name in a string literal holds a fact the
//! catalogue should hold. The few places a rule truly needs a name are listed in
//! [`ALLOWED`], each with the reason; any other name found fails this test, and so
//! does an allowance for a file that no longer names that program (the list stays
//! short and true).

use std::collections::BTreeSet;

/// (rule file, name, why the rule names it). A name of `*` allows every name in
/// that file.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "environment.rs",
        "exec",
        "the cargo feature `exec` (the runner reads this list), not the builtin",
    ),
    (
        "sql_escapes.rs",
        "pager",
        "a client's command (mysql's `pager CMD`), not the `pager` program",
    ),
    // Shell builtins and shell syntax: the shell's own, not a program's options.
    (
        "shell_mode.rs",
        "*",
        "bash's own modes: `set`, `shopt`, a shell's invocation flags and option names (`vi`, `emacs`, `noglob`): the shell's language, not programs' options",
    ),
    (
        "descriptor_code.rs",
        "source",
        "the builtin's script is read by the nested-script walk, not as inline code",
    ),
    (
        "descriptor_code.rs",
        ".",
        "the builtin's script is read by the nested-script walk, not as inline code",
    ),
    (
        "nested_shell.rs",
        "fc",
        "`fc` re-runs the shell's own history: a builtin",
    ),
    (
        "remote_effect.rs",
        "reset",
        "a verb in other programs' subcommand names (`db:reset`), not the `reset` program",
    ),
    (
        "remote_effect.rs",
        "truncate",
        "a verb in other programs' subcommand names (`table:truncate`), not the `truncate` program",
    ),
    (
        "destructive.rs",
        "history",
        "a builtin of the shell, named for what erasing its history means; the flags are the catalogue's",
    ),
    (
        "destructive.rs",
        "hash",
        "a builtin of the shell, named for what mapping a name means; the option is the catalogue's",
    ),
    (
        "destructive.rs",
        "enable",
        "a builtin of the shell, named for what loading a builtin means; the option is the catalogue's",
    ),
    (
        "permission.rs",
        "pwd",
        "a built-in permission pattern (a command that never acts)",
    ),
    (
        "permission.rs",
        "true",
        "a built-in permission pattern (a command that never acts)",
    ),
    (
        "permission.rs",
        "false",
        "a built-in permission pattern (a command that never acts)",
    ),
    (
        "environment.rs",
        "set",
        "dumping the environment: a shell builtin",
    ),
    (
        "environment.rs",
        "export",
        "dumping the environment: a shell builtin",
    ),
    (
        "environment.rs",
        "declare",
        "dumping the environment: a shell builtin",
    ),
    (
        "environment.rs",
        "typeset",
        "dumping the environment: a shell builtin",
    ),
    (
        "environment.rs",
        "readonly",
        "dumping variables: a shell builtin",
    ),
    (
        "environment.rs",
        "local",
        "dumping variables: a shell builtin",
    ),
    (
        "credentials.rs",
        "set",
        "a dump the grep filter may follow: a shell builtin",
    ),
    (
        "credentials.rs",
        "export",
        "a dump the grep filter may follow: a shell builtin",
    ),
    (
        "credentials.rs",
        "declare",
        "a dump the grep filter may follow: a shell builtin",
    ),
    (
        "credentials.rs",
        "typeset",
        "a dump the grep filter may follow: a shell builtin",
    ),
    (
        "credentials.rs",
        "env",
        "`env` alone dumps the environment: no program runs",
    ),
    (
        "credentials.rs",
        "printenv",
        "`printenv` alone dumps the environment",
    ),
    (
        "remote_effect.rs",
        ".",
        "a pathspec of one dot (`git checkout .`), not the `.` builtin",
    ),
    // Code that reads one program's own syntax.
    (
        "credentials.rs",
        "grep",
        "`env | grep NAME`: the filter is read with grep's option letters",
    ),
    (
        "credentials.rs",
        "aws",
        "`aws configure get KEY`: whether KEY is a secret is code",
    ),
    (
        "credentials.rs",
        "pass",
        "`pass` with no name lists the store: a condition on operands",
    ),
    (
        "credentials.rs",
        "npm",
        "`npm config get KEY`: whether KEY is a secret is code",
    ),
    (
        "credentials.rs",
        "pnpm",
        "`pnpm config get KEY`: whether KEY is a secret is code",
    ),
    (
        "credentials.rs",
        "yarn",
        "`yarn config get KEY`: whether KEY is a secret is code",
    ),
    (
        "credentials.rs",
        "docker",
        "`docker compose config` interpolates unless a flag says not to: a condition on the words",
    ),
    (
        "credentials.rs",
        "docker-compose",
        "`docker-compose config` interpolates unless a flag says not to: a condition on the words",
    ),
    (
        "environment.rs",
        "jq",
        "the name of an embedded language (`code:jq`), whose environment accessors are code",
    ),
    (
        "environment.rs",
        "awk",
        "the name of an embedded language (`code:awk`), whose environment accessors are code",
    ),
    (
        "environment.rs",
        "yq",
        "the name of an embedded language (`code:yq`), whose environment accessors are code",
    ),
    (
        "environment.rs",
        "envsubst",
        "yq's `envsubst` operator, not the envsubst program (the catalogue's)",
    ),
    (
        "environment.rs",
        "npm",
        "`npm run env`: the script name is an operand any word fills, so a condition on it is code",
    ),
    (
        "environment.rs",
        "yarn",
        "`yarn run env`: the script name is an operand any word fills, so a condition on it is code",
    ),
    (
        "persistence.rs",
        "mkdir",
        "an empty folder runs nothing: `mkdir .github/workflows`",
    ),
    (
        "remote_effect.rs",
        "rsync",
        "copies to other hosts without the network fact (a local copy is not network use)",
    ),
    (
        "inline_script.rs",
        "yq",
        "yq's own language (`load`) is read",
    ),
    (
        "inline_script.rs",
        "jq",
        "jq's own language: judged by content (it runs nothing)",
    ),
    (
        "environment.rs",
        "env",
        "the accessor of an embedded language (`env.X`, `env(X)`), not the env program",
    ),
    (
        "inline_script.rs",
        "sed",
        "sed's own language (`s///`, `e`, `w`) is parsed",
    ),
    (
        "inline_script.rs",
        "awk",
        "awk's own language (`system()`, `print >`) is parsed",
    ),
    (
        "inline_script.rs",
        "mlr",
        "Miller's own language (`system()`, `tee >`) is parsed",
    ),
    (
        "inline_script.rs",
        "tee",
        "Miller's `tee` verb and output statement, not the tee program",
    ),
    (
        "inline_script.rs",
        "split",
        "Miller's `split` verb, not the split program",
    ),
    (
        "inline_script.rs",
        "exec",
        "Miller's `exec()` function, not the builtin",
    ),
    (
        "inline_script.rs",
        "rpm",
        "rpm's macro language (`%(...)`, `%{lua:...}`) is parsed",
    ),
    (
        "network.rs",
        "false",
        "a value that switches a check off (`http.sslVerify=false`), not the program",
    ),
    (
        "sql_escapes.rs",
        "tee",
        "mysql's `tee FILE` client command inside SQL text, not the tee program",
    ),
    (
        "sql_escapes.rs",
        "install",
        "DuckDB's and MySQL's `INSTALL` statement inside SQL text, not the install program",
    ),
    (
        "sql_escapes.rs",
        "export",
        "DuckDB's `EXPORT DATABASE` statement inside SQL text, not the builtin",
    ),
    (
        "sql_functions.rs",
        "file",
        "ClickHouse's `file()` table function inside SQL text, not the file program",
    ),
    (
        "sql_functions.rs",
        "join",
        "SQL's `JOIN` keyword before a quoted file name, not the join program",
    ),
    (
        "sql_escapes.rs",
        "source",
        "mysql's `source FILE` client command inside SQL text, not the builtin",
    ),
    (
        "inline_script.rs",
        "perl",
        "perl's `s///`/`tr///` substitutions are parsed",
    ),
    (
        "inline_script.rs",
        "tr",
        "perl's `tr///` operator, not the tr program",
    ),
    // A preset is policy data: the command names a bash tool's own denylist holds.
    (
        "taskdev.rs",
        "*",
        "the bash-tool preset's own denylist and task runners, as that tool names them",
    ),
];

/// Every name and alias of a built-in catalogue entry, as spelled.
fn catalogue_names() -> BTreeSet<&'static str> {
    bashgate::catalogue::entries()
        .iter()
        .flat_map(|e| std::iter::once(e.name).chain(e.aliases.iter().copied()))
        .collect()
}

/// The string literals of Rust source outside comments, with their line numbers;
/// the `#[cfg(test)]` module at the end of a file is left out (tests may name
/// anything).
fn string_literals(source: &str) -> Vec<(usize, String)> {
    let source = source
        .find("#[cfg(test)]")
        .map_or(source, |at| &source[..at]);
    let mut out = Vec::new();
    let mut chars = source.chars().peekable();
    let mut line = 1;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            // A character literal, `'"'` among them; a lifetime has no closing quote.
            '\'' => {
                let ahead: Vec<char> = chars.clone().take(3).collect();
                match ahead.as_slice() {
                    ['\\', _, '\''] => {
                        chars.nth(2);
                    }
                    [_, '\'', ..] => {
                        chars.nth(1);
                    }
                    _ => {}
                }
            }
            '"' => {
                let start = line;
                let mut text = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(escaped) = chars.next() {
                                if escaped == '\n' {
                                    line += 1;
                                }
                                text.push(escaped);
                            }
                        }
                        '"' => break,
                        '\n' => {
                            line += 1;
                            text.push(c);
                        }
                        _ => text.push(c),
                    }
                }
                out.push((start, text));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_lexer_finds_literals_outside_comments() {
    let source = "let a = \"git\"; // \"npm\"\n/// \"cargo\"\nlet b = '\"'; let c = \"x\\\"y\";\n#[cfg(test)]\nmod t { \"ls\" }";
    let found: Vec<(usize, String)> = string_literals(source);
    assert_eq!(found, vec![(1, "git".to_string()), (3, "x\"y".to_string())]);
}

#[test]
fn rule_files_name_no_program_the_catalogue_should_hold() {
    let names = catalogue_names();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("src/rules")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "the rule files were not found");
    let mut found_pairs: BTreeSet<(String, String)> = BTreeSet::new();
    let mut unexplained = Vec::new();
    for path in &files {
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        let source = std::fs::read_to_string(path).expect("read a rule file");
        for (line, literal) in string_literals(&source) {
            if !names.contains(literal.as_str()) {
                continue;
            }
            found_pairs.insert((file.clone(), literal.clone()));
            let allowed = ALLOWED
                .iter()
                .any(|(f, n, _)| *f == file && (*n == "*" || *n == literal));
            if !allowed {
                unexplained.push(format!("src/rules/{file}:{line}: \"{literal}\""));
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "rule files name programs the catalogue should hold (move the fact into \
         catalogue/*.toml, or add the place to ALLOWED with the reason):\n{}",
        unexplained.join("\n")
    );
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(f, n, _)| *n != "*" && !found_pairs.contains(&(f.to_string(), n.to_string())))
        .map(|(f, n, _)| format!("{f}: \"{n}\""))
        .collect();
    assert!(
        stale.is_empty(),
        "allowances for names the rule files no longer use (drop them):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_allowance_gives_a_reason() {
    for (file, name, why) in ALLOWED {
        assert!(file.ends_with(".rs"), "{file}");
        assert!(!name.is_empty(), "{file}");
        assert!(why.split_whitespace().count() >= 3, "{file} {name}: {why}");
    }
}
