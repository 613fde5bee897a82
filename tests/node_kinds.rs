//! Every tree-sitter node kind the model and the parser wrapper match on exists in
//! the grammar, so a grammar upgrade that renames or drops a kind fails here instead
//! of silently turning a branch into dead code.
//!
//! The kinds are read from the source: string literals in `match … .kind() {` arms,
//! on lines comparing a kind (`kind() == "…"`, `matches!(….kind(), …)`,
//! `matches!(kind, …)`), and in constant lists documented as node kinds.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a line of code (escapes kept as written).
fn literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                // A char literal ('"', '\\'): skip it whole.
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\'' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
            }
            '"' => {
                let mut text = String::new();
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                    if !escaped {
                        text.push(c);
                    }
                }
                out.push(text);
            }
            _ => {}
        }
    }
    out
}

fn depth_change(line: &str, open: char, close: char) -> i32 {
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for c in line.chars() {
        if in_string {
            if c == '"' && !escaped {
                in_string = false;
            }
            escaped = c == '\\' && !escaped;
            continue;
        }
        if c == '"' {
            in_string = true;
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
        }
    }
    depth
}

/// Every node-kind literal of one source text, with its line number.
fn kinds_in(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("//") {
            i += 1;
            continue;
        }
        let kind_match = line.starts_with("match ") && line.contains("kind") && line.ends_with('{');
        let kind_matches = line.contains("matches!(") && line.contains("kind");
        let kind_list = line.starts_with("const ")
            && line.contains("&[&str]")
            && i > 0
            && lines[i - 1].to_lowercase().contains("kind");
        if kind_match {
            // The arms' patterns: literals before `=>` at the match's own depth.
            let mut depth = 1;
            i += 1;
            while i < lines.len() && depth > 0 {
                let arm = lines[i].trim_start();
                if depth == 1 && !arm.starts_with("//") {
                    let pattern = arm.split("=>").next().unwrap_or("");
                    let pattern = pattern.split(" if ").next().unwrap_or("");
                    out.extend(literals(pattern).into_iter().map(|l| (i + 1, l)));
                }
                depth += depth_change(arm, '{', '}');
                i += 1;
            }
            continue;
        }
        if kind_matches || kind_list {
            // Through the closing parenthesis or bracket.
            let (open, close) = if kind_list { ('[', ']') } else { ('(', ')') };
            let mut depth = 0;
            loop {
                let current = lines[i];
                let scan = if kind_matches && depth == 0 {
                    &current[current.find("matches!(").unwrap_or(0)..]
                } else {
                    current
                };
                out.extend(literals(scan).into_iter().map(|l| (i + 1, l)));
                depth += depth_change(scan, open, close);
                i += 1;
                if depth <= 0 || i >= lines.len() {
                    break;
                }
            }
            continue;
        }
        if line.contains("kind() ==")
            || line.contains("kind() !=")
            || line.contains("kind ==")
            || line.contains("kind !=")
        {
            for part in line.split("kind()").chain(line.split("kind ")).skip(1) {
                let part = part.trim_start();
                if let Some(rest) = part
                    .strip_prefix("== ")
                    .or_else(|| part.strip_prefix("!= "))
                    && let Some(lit) = literals(rest).into_iter().next()
                {
                    out.push((i + 1, lit));
                }
            }
        }
        i += 1;
    }
    out
}

fn grammar_has(kind: &str) -> bool {
    let language: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
    language.id_for_node_kind(kind, true) != 0 || language.id_for_node_kind(kind, false) != 0
}

#[test]
fn every_matched_node_kind_exists_in_the_grammar() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join("model"), &mut files);
    rust_files(&root.join("parse"), &mut files);
    let mut seen = 0;
    let mut missing = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (line, kind) in kinds_in(&text) {
            if kind.is_empty() {
                continue;
            }
            seen += 1;
            if !grammar_has(&kind) {
                missing.push(format!("{}:{line}: `{kind}`", file.display()));
            }
        }
    }
    // The model matches on dozens of kinds; finding few means the scan broke.
    assert!(seen >= 60, "only {seen} node-kind literals found");
    assert!(
        missing.is_empty(),
        "kinds the grammar does not have:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_kinds_in_each_form() {
    let text = "match node.kind() {\n    \"command\" | \"list\" => {}\n    _ if x => f(\"not\"),\n}\nif child.kind() == \"word\" {}\nmatches!(kind, \"string\"\n    | \"raw_string\")\n";
    let kinds: Vec<String> = kinds_in(text).into_iter().map(|(_, k)| k).collect();
    assert_eq!(kinds, ["command", "list", "word", "string", "raw_string"]);
    assert!(grammar_has("command") && grammar_has("|") && !grammar_has("no_such_kind"));
}
