//! The architecture, checked: data flows one way through the layers
//! (cli → gate → rules → policy → model → parse, with `verdict` underneath all), and
//! no two source files import each other in a circle. A file may use its own layer
//! and the layers below it, never one above.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its height: a module may only use modules of
/// a lower height (or its own).
const LAYERS: &[(&str, u32)] = &[
    ("verdict", 0),
    ("parse", 1),
    ("catalogue", 1),
    ("model", 2),
    ("policy", 3),
    ("rules", 4),
    ("inspect", 4),
    ("report", 4),
    ("gate", 5),
    ("config_examples", 6),
    ("transcripts", 5),
    ("file_access", 6),
    ("exec", 6),
    ("mcp", 7),
];

fn height(layer: &str) -> Option<u32> {
    LAYERS
        .iter()
        .find(|(name, _)| *name == layer)
        .map(|(_, h)| *h)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file: `src/model/word/build.rs` → `model::word::build`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("file name");
    if last != "mod.rs" && last != "lib.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The module paths a file refers to through `crate::…` and `super::…`, code only
/// (comment lines are skipped).
fn references(module: &[String], is_mod_file: bool, text: &str) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for (prefix, base) in [
            ("crate::", Vec::new()),
            ("super::", {
                // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` it is `a` too.
                let mut parent = module.to_vec();
                if !is_mod_file || !parent.is_empty() {
                    parent.pop();
                }
                parent
            }),
        ] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().last();
                rest = &rest[at + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let path: Vec<String> = rest
                    .split("::")
                    .map(|seg| {
                        seg.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect::<String>()
                    })
                    .take_while(|seg| {
                        !seg.is_empty()
                            && seg
                                .chars()
                                .all(|c| c.is_lowercase() || c == '_' || c.is_ascii_digit())
                    })
                    .collect();
                let mut full = base.clone();
                full.extend(path);
                if !full.is_empty() {
                    out.insert(full);
                }
            }
        }
    }
    out
}

struct Source {
    module: Vec<String>,
    refs: BTreeSet<Vec<String>>,
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .filter_map(|file| {
            let module = module_of(&src, file);
            // The binary's files use the library from outside (`bashgate::`).
            if module.first().is_some_and(|m| m == "cli" || m == "main") || module.is_empty() {
                return None;
            }
            let text = std::fs::read_to_string(file).expect("readable");
            let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
            Some(Source {
                refs: references(&module, is_mod, &text),
                module,
            })
        })
        .collect()
}

#[test]
fn no_layer_reaches_up() {
    let mut violations = Vec::new();
    for source in sources() {
        let layer = &source.module[0];
        let own =
            height(layer).unwrap_or_else(|| panic!("module `{layer}` has no layer in LAYERS"));
        for target in &source.refs {
            let Some(theirs) = height(&target[0]) else {
                continue;
            };
            if &target[0] != layer && theirs >= own {
                violations.push(format!(
                    "{} uses {} ({} is not below {})",
                    source.module.join("::"),
                    target.join("::"),
                    target[0],
                    layer
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn no_two_files_import_each_other_in_a_circle() {
    let sources = sources();
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    // A reference names the longest module path that is a file.
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
    };
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for source in &sources {
        let edges = graph.entry(source.module.clone()).or_default();
        for target in &source.refs {
            if let Some(file) = resolve(target) {
                // A folder's `mod.rs` and its own files are one unit: a child may
                // use what its parent declares.
                let parent_of_self = source.module.starts_with(&file);
                let child_of_self = file.starts_with(&source.module);
                if file != source.module && !parent_of_self && !child_of_self {
                    edges.insert(file);
                }
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        path: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(1) => {
                let start = path.iter().position(|p| p == node).unwrap_or(0);
                let mut cycle: Vec<String> = path[start..].iter().map(|p| p.join("::")).collect();
                cycle.push(node.join("::"));
                return Some(cycle);
            }
            Some(_) => return None,
            None => {}
        }
        state.insert(node.clone(), 1);
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, state, path) {
                return Some(cycle);
            }
        }
        path.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut state, &mut Vec::new()) {
            panic!("import circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_checker_sees_references() {
    let refs = references(
        &["model".into(), "walk".into()],
        false,
        "use super::scope::Scope;\nuse crate::parse::SpanMap;\n// use crate::rules::x;\n",
    );
    assert!(refs.contains(&vec!["model".to_string(), "scope".to_string()]));
    assert!(refs.contains(&vec!["parse".to_string()]));
    assert!(!refs.iter().any(|r| r[0] == "rules"));
}
