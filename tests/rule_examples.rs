//! Every rule's `## Example` section is executable: each `` - `COMMAND` → DECISION ``
//! line is run through the gate, so the `bashgate explain` pages never lie.
//!
//! Line forms (anything after the decision is prose):
//! - `` - `cat /etc/passwd` → ask ``: the decision, and the rule among the findings
//!   (for allow: the rule not among them);
//! - `` - `bash -c "sudo reboot"` → deny (BG207, BG208): … ``: these rules instead;
//! - `` - with `"git push *" = "ask"`: `git push` → ask ``: with that permission rule;
//! - `` - with `preset = "taskdev"`: `make` → deny ``: a config line that is not a
//!   permission rule (it starts with a bare key: `preset =`, `denylist =`) is
//!   applied as it stands;
//! - `` - with `preset = "taskdev"`, cwd `../..`, env `LD_PRELOAD`: `cargo test` → deny ``:
//!   the command judged from that directory (relative to the root) as a task setting
//!   those environment keys (`Gate::check_task`).
//!
//! The examples run in a fixture: a project root holding `src/main.rs`, `.env`,
//! `.env.example` and a link `notes` to the fixture home's `notes` folder; the home
//! holds `.ssh/id_rsa`, `.bashrc` and `notes/todo.txt`.

use bashgate::{Decision, Gate, RULES};
use std::path::PathBuf;

struct Example {
    config: Option<String>,
    cwd: Option<String>,
    env: Vec<String>,
    command: String,
    decision: Decision,
    rules: Option<Vec<String>>,
}

/// Parses one example line; `None` for prose.
fn parse_line(line: &str) -> Option<Example> {
    let rest = line.trim().strip_prefix("- ")?;
    let (mut cwd, mut env) = (None, Vec::new());
    let (config, rest) = match rest.strip_prefix("with `") {
        Some(after) => {
            let (config, mut rest) = after.split_once('`')?;
            loop {
                if let Some(more) = rest.strip_prefix(", cwd `") {
                    let (dir, after) = more.split_once('`')?;
                    cwd = Some(dir.to_string());
                    rest = after;
                } else if let Some(more) = rest.strip_prefix(", env `") {
                    let (keys, after) = more.split_once('`')?;
                    env = keys.split(' ').map(str::to_string).collect();
                    rest = after;
                } else {
                    break;
                }
            }
            (Some(config.to_string()), rest.strip_prefix(": ")?)
        }
        None => (None, rest),
    };
    let rest = rest.strip_prefix('`')?;
    let (command, rest) = rest.rsplit_once("` → ")?;
    let word_end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let decision = Decision::parse(&rest[..word_end])?;
    let after = rest[word_end..].trim_start();
    let rules = after.strip_prefix('(').and_then(|inner| {
        let (codes, _) = inner.split_once(')')?;
        let codes: Vec<String> = codes.split(", ").map(str::to_string).collect();
        let is_code = |c: &String| c.len() == 5 && c.starts_with("BG");
        codes.iter().all(is_code).then_some(codes)
    });
    Some(Example {
        config,
        cwd,
        env,
        command: command.to_string(),
        decision,
        rules,
    })
}

fn examples(doc: &str) -> Vec<Example> {
    let Some((_, section)) = doc.split_once("## Example") else {
        return Vec::new();
    };
    let section = section.split("\n## ").next().unwrap_or("");
    section.lines().filter_map(parse_line).collect()
}

struct Fixture {
    root: PathBuf,
    home: PathBuf,
}

fn fixture() -> Fixture {
    let base = std::env::temp_dir().join(format!("bashgate-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("project");
    let home = base.join("home");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(root.join(".env"), "TOKEN=x\n").unwrap();
    std::fs::write(root.join(".env.example"), "TOKEN=\n").unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "key\n").unwrap();
    std::fs::write(home.join(".bashrc"), "\n").unwrap();
    std::fs::create_dir_all(home.join("notes")).unwrap();
    std::fs::write(home.join("notes/todo.txt"), "x\n").unwrap();
    std::os::unix::fs::symlink(home.join("notes"), root.join("notes")).unwrap();
    Fixture { root, home }
}

#[test]
fn every_rule_has_runnable_examples_both_ways() {
    for rule in RULES {
        let examples = examples(rule.doc);
        assert!(
            examples.iter().any(|e| e.decision != Decision::Allow),
            "{}: no example it catches",
            rule.code
        );
        assert!(
            examples.iter().any(|e| e.decision == Decision::Allow),
            "{}: no look-alike example it leaves alone",
            rule.code
        );
    }
}

#[test]
fn rule_examples_decide_as_documented() {
    let fx = fixture();
    let mut failures = Vec::new();
    let mut count = 0;
    for rule in RULES {
        for example in examples(rule.doc) {
            count += 1;
            let mut builder = Gate::builder().root(&fx.root).home(Some(fx.home.clone()));
            if let Some(config) = &example.config {
                // A permission rule's key is a quoted pattern; a bare key is a
                // setting of the policy itself.
                let text = if config.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    format!("{config}\n")
                } else {
                    format!("[permission.bash]\n{config}\n")
                };
                let path = fx.root.join("example.toml");
                builder = builder.with_policy(|p| p.apply_toml(&text, &path).expect("config"));
            }
            let gate = builder.build().expect("gate");
            let cwd = example.cwd.as_ref().map(|c| fx.root.join(c));
            let env: Vec<&str> = example.env.iter().map(String::as_str).collect();
            let verdict = gate.check_task(&example.command, cwd.as_deref(), &env);
            let codes: Vec<&str> = verdict.findings.iter().map(|f| f.rule).collect();
            let expected: Vec<String> = match &example.rules {
                Some(rules) => rules.clone(),
                None if example.decision == Decision::Allow => Vec::new(),
                None => vec![rule.code.to_string()],
            };
            let rules_ok = expected.iter().all(|c| codes.contains(&c.as_str()))
                && (example.decision != Decision::Allow || !codes.contains(&rule.code));
            if verdict.decision != example.decision || !rules_ok {
                failures.push(format!(
                    "{}: `{}` documented {} {:?}, got {} {:?}",
                    rule.code, example.command, example.decision, expected, verdict.decision, codes
                ));
            }
        }
    }
    assert!(count >= 2 * RULES.len(), "only {count} examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn example_lines_parse_as_documented() {
    let e = parse_line("- `cat /etc/passwd` → ask").unwrap();
    assert_eq!(
        (e.command.as_str(), e.decision),
        ("cat /etc/passwd", Decision::Ask)
    );
    let e = parse_line("- `a` → deny (BG207, BG208): prose").unwrap();
    assert_eq!(e.rules.unwrap(), vec!["BG207", "BG208"]);
    let e = parse_line("- with `\"x *\" = \"ask\"`: `x y` → ask").unwrap();
    assert_eq!(e.config.as_deref(), Some("\"x *\" = \"ask\""));
    let e = parse_line("- with `preset = \"taskdev\"`, cwd `..`, env `A B`: `x` → deny").unwrap();
    assert_eq!(e.cwd.as_deref(), Some(".."));
    assert_eq!(e.env, vec!["A", "B"]);
    assert!(parse_line("prose with `code` → in it").is_none());
    let e = parse_line("- `a` → ask (run at the root)").unwrap();
    assert!(e.rules.is_none());
}
