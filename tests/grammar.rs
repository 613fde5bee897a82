//! Pins the syntax trees tree-sitter-bash gives for the constructs bashgate relies on.
//! Each `grammar-tests/*.txt` file holds cases in tree-sitter's corpus format: a
//! title between `====` lines, the source, `---`, and the expected S-expression.
//! A grammar upgrade that changes a shape fails here, loudly, before it can change a
//! verdict quietly. `BASHGATE_UPDATE_GRAMMAR=1` rewrites the files with the trees the
//! current grammar gives (review the diff before committing).

use std::path::{Path, PathBuf};

struct Case {
    title: String,
    source: String,
    expected: String,
}

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("grammar-tests folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// Splits a corpus file into cases.
fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("====") {
            i += 1;
            continue;
        }
        let title = lines.get(i + 1).copied().unwrap_or("").trim().to_string();
        i += 3; // title and the closing ==== line
        let mut source = Vec::new();
        while i < lines.len() && lines[i] != "---" {
            source.push(lines[i]);
            i += 1;
        }
        i += 1;
        let mut expected = Vec::new();
        while i < lines.len() && !lines[i].starts_with("====") {
            expected.push(lines[i]);
            i += 1;
        }
        cases.push(Case {
            title,
            source: source.join("\n").trim_end_matches('\n').to_string(),
            expected: expected.join("\n").trim().to_string(),
        });
    }
    cases
}

fn sexp(source: &str) -> String {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .expect("grammar loads");
    let tree = parser.parse(source, None).expect("a tree");
    tree.root_node().to_sexp()
}

/// Collapses white space so pretty-printed and one-line trees compare equal.
fn normalize(tree: &str) -> String {
    let collapsed = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed.replace("( ", "(").replace(" )", ")")
}

/// Indents an S-expression two spaces per level, one node per line (a field name
/// stays with its node: `name: (word)`).
fn pretty(tree: &str) -> String {
    let spaced = tree.replace('(', " ( ").replace(')', " ) ");
    let mut out = String::new();
    let mut depth = 0usize;
    let mut field: Option<&str> = None;
    for token in spaced.split_whitespace() {
        match token {
            "(" => {
                if !out.is_empty() {
                    out.push('\n');
                    out.push_str(&"  ".repeat(depth));
                }
                if let Some(f) = field.take() {
                    out.push_str(f);
                    out.push(' ');
                }
                out.push('(');
                depth += 1;
            }
            ")" => {
                depth = depth.saturating_sub(1);
                out.push(')');
            }
            t if t.ends_with(':') => field = Some(t),
            t => {
                if !out.ends_with('(') {
                    out.push(' ');
                }
                out.push_str(t);
            }
        }
    }
    out
}

fn render(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        out.push_str(&format!(
            "================================================================================\n{}\n================================================================================\n{}\n---\n\n{}\n\n",
            case.title,
            case.source,
            pretty(&sexp(&case.source))
        ));
    }
    out
}

#[test]
fn grammar_shapes_are_pinned() {
    let update = std::env::var_os("BASHGATE_UPDATE_GRAMMAR").is_some();
    let mut failures = Vec::new();
    let mut total = 0;
    for file in files() {
        let text = std::fs::read_to_string(&file).expect("read");
        let cases = parse_cases(&text);
        total += cases.len();
        if update {
            std::fs::write(&file, render(&cases)).expect("write");
            continue;
        }
        for case in &cases {
            let actual = sexp(&case.source);
            if normalize(&actual) != normalize(&case.expected) {
                failures.push(format!(
                    "{} / {}\n  expected: {}\n  actual:   {}",
                    file.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    case.title,
                    normalize(&case.expected),
                    normalize(&actual)
                ));
            }
        }
    }
    assert!(total >= 45, "only {total} grammar cases");
    assert!(
        failures.is_empty(),
        "{} grammar shapes changed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_case_has_a_source_and_a_tree() {
    for file in files() {
        let text = std::fs::read_to_string(&file).expect("read");
        for case in parse_cases(&text) {
            assert!(
                !case.source.trim().is_empty(),
                "{}: empty source",
                case.title
            );
            assert!(
                case.expected.starts_with("(program"),
                "{}: no tree",
                case.title
            );
        }
    }
}
