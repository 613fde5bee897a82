//! Pins the syntax trees tree-sitter-bash produces for the constructs the
//! analyzer relies on.
//!
//! The analyzer walks tree-sitter-bash's trees by node kind and field name, so
//! a grammar upgrade that silently changes a shape could silently change a
//! verdict. Every case in `grammar-tests/*.txt` holds a bash source and the
//! S-expression `Node::to_sexp()` gives for its root; this test fails, listing
//! every difference at once, when the parser's output no longer matches.
//!
//! After a deliberate upgrade, `BASHGATE_UPDATE_GRAMMAR=1 cargo test --test
//! grammar` rewrites the files with the new trees, to be reviewed as a diff.

use std::fs;
use std::path::{Path, PathBuf};

use tree_sitter::Parser;

/// The environment variable that switches the comparison into update mode.
const UPDATE_VAR: &str = "BASHGATE_UPDATE_GRAMMAR";

/// Below this many cases the corpus no longer covers what the analyzer needs;
/// guards against the suite passing because files went missing.
const MIN_CASES: usize = 45;

/// One pinned case: a bash source and the tree expected for it.
struct Case {
    title: String,
    source: String,
    tree: String,
}

/// The corpus folder, found from the manifest so the test runs from any
/// working directory.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar-tests")
}

/// Every `*.txt` file of the corpus, sorted so reports and rewrites are
/// deterministic.
fn corpus_files() -> Result<Vec<PathBuf>, String> {
    let dir = corpus_dir();
    let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|ext| ext == "txt") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// True for a line made only of `ch`, at least three long: the corpus
/// format's header (`=`) and divider (`-`) lines.
fn is_rule(line: &str, ch: char) -> bool {
    let line = line.trim_end();
    line.len() >= 3 && line.chars().all(|c| c == ch)
}

/// Splits a corpus file into cases, in tree-sitter's corpus format: a title
/// between two `===` lines, the source, a `---` line, then the tree. Blank
/// lines around the source are not part of it, so a source carries no
/// trailing newline, like a command an agent sends.
fn parse_corpus(text: &str) -> Result<Vec<Case>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        if !is_rule(lines[i], '=') {
            return Err(format!("line {}: expected a `===` header", i + 1));
        }
        let title_start = i + 1;
        let title_end = (title_start..lines.len())
            .find(|&j| is_rule(lines[j], '='))
            .ok_or_else(|| format!("line {}: header never closed", i + 1))?;
        let divider = (title_end + 1..lines.len())
            .find(|&j| is_rule(lines[j], '-'))
            .ok_or_else(|| format!("line {}: case has no `---` divider", i + 1))?;
        let next = (divider + 1..lines.len())
            .find(|&j| is_rule(lines[j], '='))
            .unwrap_or(lines.len());
        cases.push(Case {
            title: lines[title_start..title_end].join(" ").trim().to_string(),
            source: lines[title_end + 1..divider]
                .join("\n")
                .trim_matches('\n')
                .to_string(),
            tree: lines[divider + 1..next].join("\n").trim().to_string(),
        });
        i = next;
    }
    Ok(cases)
}

/// Writes cases back in the canonical layout, so an update rewrites a file
/// the same way each time and diffs show only real changes.
fn render_corpus(cases: &[Case]) -> String {
    let header = "=".repeat(80);
    let divider = "-".repeat(80);
    let blocks: Vec<String> = cases
        .iter()
        .map(|c| {
            format!(
                "{header}\n{}\n{header}\n\n{}\n\n{divider}\n\n{}\n",
                c.title, c.source, c.tree
            )
        })
        .collect();
    blocks.join("\n")
}

/// A parser for bash; building one cannot fail unless the grammar crate is
/// incompatible with the tree-sitter runtime, which is worth a clear message.
fn bash_parser() -> Result<Parser, String> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|e| format!("tree-sitter-bash does not load: {e}"))?;
    Ok(parser)
}

/// The root S-expression of `source`, or why there is none.
fn actual_tree(parser: &mut Parser, source: &str) -> Result<String, String> {
    parser
        .parse(source, None)
        .map(|tree| tree.root_node().to_sexp())
        .ok_or_else(|| "the parser returned no tree".to_string())
}

/// Makes trees comparable regardless of layout: whitespace runs become one
/// space, and no space stays just inside a parenthesis.
fn normalise(tree: &str) -> String {
    tree.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(" )", ")")
}

/// Splits an S-expression into `(`, `)` and atoms. A quoted atom (`'('` after
/// UNEXPECTED, `")"` after MISSING) always ends its node, so it runs to the
/// quote that is followed by `)`, whatever it holds.
fn tokens(sexp: &str) -> Vec<String> {
    let chars: Vec<char> = sexp.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        i += 1;
        match c {
            _ if c.is_whitespace() => continue,
            '(' | ')' => {}
            '\'' | '"' => {
                while i < chars.len() && !(chars[i] == c && chars.get(i + 1) == Some(&')')) {
                    i += 1;
                }
                i = (i + 1).min(chars.len());
            }
            _ => {
                while i < chars.len() && !chars[i].is_whitespace() && !"()".contains(chars[i]) {
                    i += 1;
                }
            }
        }
        out.push(chars[start..i].iter().collect());
    }
    out
}

/// Lays a tree out like tree-sitter's corpus files: each node on its own line,
/// indented two spaces per level, a field name before its node. Falls back to
/// the one-line form if the layout would not normalise back to the input.
fn pretty(sexp: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut after_open = false;
    let mut after_field = false;
    for token in tokens(sexp) {
        if token == "(" {
            if after_field {
                out.push(' ');
            } else if !out.is_empty() {
                out.push('\n');
                out.push_str(&"  ".repeat(depth));
            }
            out.push('(');
            depth += 1;
            after_open = true;
            after_field = false;
            continue;
        }
        if token == ")" {
            out.push(')');
            depth = depth.saturating_sub(1);
        } else if after_open {
            out.push_str(&token);
        } else if token.ends_with(':') {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
            out.push_str(&token);
            after_field = true;
        } else {
            out.push(' ');
            out.push_str(&token);
        }
        after_open = false;
    }
    if normalise(&out) == normalise(sexp) {
        out
    } else {
        sexp.to_string()
    }
}

/// Compares every case with the parser's tree and fails once with all the
/// differences, or in update mode rewrites the files with the actual trees.
#[test]
fn trees_match_the_pinned_corpus() {
    let update = std::env::var(UPDATE_VAR).is_ok_and(|v| v == "1");
    let mut parser = bash_parser().unwrap_or_else(|e| panic!("{e}"));
    let files = corpus_files().unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut cases = match parse_corpus(&text) {
            Ok(cases) => cases,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut changed = false;
        for case in &mut cases {
            let actual = match actual_tree(&mut parser, &case.source) {
                Ok(actual) => actual,
                Err(e) => {
                    failures.push(format!("{name}: {}: {e}", case.title));
                    continue;
                }
            };
            if normalise(&actual) == normalise(&case.tree) {
                continue;
            }
            if update {
                eprintln!("updated {name}: {}", case.title);
                case.tree = pretty(&actual);
                changed = true;
            } else {
                failures.push(format!(
                    "{name}: {}\n--- expected\n{}\n--- actual\n{}",
                    case.title,
                    case.tree,
                    pretty(&actual)
                ));
            }
        }
        if changed {
            // Write beside and rename, so the other test never reads half a file.
            let tmp = path.with_extension("txt.tmp");
            if let Err(e) =
                fs::write(&tmp, render_corpus(&cases)).and_then(|()| fs::rename(&tmp, path))
            {
                failures.push(format!("{name}: cannot rewrite: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} grammar case(s) differ from what tree-sitter-bash now produces \
         (if the grammar was upgraded on purpose, rerun with {UPDATE_VAR}=1 and review the diff):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Keeps the comparison from passing vacuously: the corpus must exist, hold
/// enough cases, and every case must have both a source and a tree.
#[test]
fn corpus_is_complete() {
    let files = corpus_files().unwrap_or_else(|e| panic!("{e}"));
    let mut total = 0;
    let mut problems = Vec::new();
    for path in &files {
        let name = path.display();
        let cases = fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_corpus(&text))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for case in &cases {
            if case.title.is_empty() || case.source.trim().is_empty() || case.tree.is_empty() {
                problems.push(format!(
                    "{name}: case {:?} lacks a title, source or tree",
                    case.title
                ));
            }
        }
        total += cases.len();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        total >= MIN_CASES,
        "only {total} grammar cases in {} files; at least {MIN_CASES} expected",
        files.len()
    );
}

/// S-expressions carry no text, yet the analyzer relies on a command name's
/// text keeping backslashes and quotes exactly as written (it unquotes them
/// itself), so `\rm` cannot pass for `rm` unnoticed.
#[test]
fn command_name_text_is_kept_as_written() {
    let mut parser = bash_parser().unwrap_or_else(|e| panic!("{e}"));
    for source in [
        r"\rm -rf build",
        r"r\m -rf build",
        r#""r"m -rf build"#,
        r"$'\x72m' -rf build",
    ] {
        let tree = parser.parse(source, None);
        let name = tree.as_ref().and_then(|t| {
            let command = t.root_node().named_child(0)?;
            command
                .child_by_field_name("name")?
                .utf8_text(source.as_bytes())
                .ok()
        });
        assert_eq!(name, source.split(' ').next(), "command name of {source:?}");
    }
}

/// The layout written in update mode must read back as the same tree, or an
/// update would corrupt the corpus.
#[test]
fn pretty_layout_round_trips() {
    let samples = [
        "(program (command name: (command_name (word)) argument: (word)))",
        "(program (ERROR (UNEXPECTED '(')) (if_statement (MISSING \"fi\")))",
        "(program (ERROR (UNEXPECTED ' ') (UNEXPECTED ''')))",
    ];
    for sample in samples {
        let laid_out = pretty(sample);
        assert!(laid_out.contains('\n'), "not laid out: {laid_out}");
        assert_eq!(normalise(&laid_out), normalise(sample));
        let case = Case {
            title: "t".into(),
            source: "s".into(),
            tree: laid_out,
        };
        let reread = parse_corpus(&render_corpus(&[case])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(normalise(&reread[0].tree), normalise(sample));
    }
}
