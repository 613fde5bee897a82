//! The data-driven corpus: every `corpus/*.toml` case is a command with the decision
//! and the exact set of rule codes the gate must give it. Cases run against a fixed
//! fixture world (a project root and a home directory built in a temp folder), so
//! path rules see the same files everywhere.
//!
//! Case fields: `cmd`, `decision` (allow|ask|deny), `rules` (exact set of codes,
//! default none), `near` (codes this look-alike must NOT trigger; documents which
//! rule it guards), `mode` (optional), `cwd` (optional, relative to the root),
//! `config` (optional TOML applied to the policy), `env` (optional environment keys
//! the task sets, judged with `Gate::check_task`), `why` (optional note).
//!
//! A meta-test checks every registered rule has cases both ways: at least one that
//! triggers it and one look-alike (`near`) that must not.

use bashgate::{Decision, Gate, GateBuilder, Mode};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusFile {
    #[serde(rename = "case", default)]
    cases: Vec<Case>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    cmd: String,
    decision: String,
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    near: Vec<String>,
    mode: Option<String>,
    cwd: Option<String>,
    config: Option<String>,
    #[serde(default)]
    env: Vec<String>,
    #[allow(dead_code)]
    why: Option<String>,
}

/// The fixture world: `<tmp>/project` (the root) and `<tmp>/home` (HOME).
pub struct World {
    pub root: PathBuf,
    pub home: PathBuf,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let base = std::env::temp_dir().join(format!("bashgate-corpus-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("project");
        let home = base.join("home");
        for dir in [
            root.join("src/nested"),
            root.join("build"),
            root.join("scripts"),
            root.join("node_modules/.bin"),
            home.join(".ssh"),
            home.join(".aws"),
            home.join(".config/gcloud"),
            home.join("other-project"),
        ] {
            std::fs::create_dir_all(&dir).expect("create fixture dir");
        }
        for (file, text) in [
            (root.join("Cargo.toml"), "[package]\nname = \"x\"\n"),
            (root.join("src/lib.rs"), "pub fn x() {}\n"),
            (root.join("src/main.rs"), "fn main() {}\n"),
            (root.join("README.md"), "# x\n"),
            (root.join(".env"), "TOKEN=x\n"),
            (root.join("scripts/deploy.sh"), "echo deploy\n"),
            // A tool the project has: `npx eslint` runs project code.
            (root.join("node_modules/.bin/eslint"), "#!/bin/sh\n"),
            (
                root.join("package.json"),
                "{\"devDependencies\": {\"prettier\": \"3\"}}\n",
            ),
            (home.join(".ssh/id_rsa"), "key\n"),
            (home.join(".bashrc"), "# rc\n"),
            (home.join(".aws/credentials"), "[default]\n"),
            (home.join("notes.txt"), "notes\n"),
            // A folder holding a file named like an option: a glob there passes it.
            (root.join("scripts/dashed/-rf"), "\n"),
            (root.join("scripts/dashed/a.txt"), "\n"),
            // A repository: `git rev-parse --show-toplevel` is the root.
            (root.join(".git/HEAD"), "ref: refs/heads/main\n"),
        ] {
            if let Some(folder) = file.parent() {
                std::fs::create_dir_all(folder).expect("create fixture folder");
            }
            std::fs::write(&file, text).expect("write fixture file");
        }
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink("/etc", root.join("etc-link"));
            let _ = std::os::unix::fs::symlink(home.join(".ssh"), root.join("keys"));
            let _ = std::os::unix::fs::symlink("src", root.join("src-link"));
            // A dangling link: writing through it creates its target.
            let _ =
                std::os::unix::fs::symlink("/etc/bashgate-dangling-target", root.join("dangling"));
        }
        World {
            root: std::fs::canonicalize(&root).expect("canonical root"),
            home: std::fs::canonicalize(&home).expect("canonical home"),
        }
    })
}

fn load_cases() -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read corpus file");
        let parsed: CorpusFile =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        cases.extend(parsed.cases.into_iter().map(|c| (name.clone(), c)));
    }
    cases
}

/// The environment the corpus commands see: `TMPDIR` outside the project,
/// `XDG_CONFIG_HOME` in the fixture home, `OLDPWD` unknown.
fn fixture_env(policy: &mut bashgate::Policy) {
    let world = world();
    policy.env.clear();
    policy
        .env
        .insert("TMPDIR".into(), "/tmp/bashgate-corpus-tmp".into());
    policy.env.insert(
        "XDG_CONFIG_HOME".into(),
        world.home.join(".config").display().to_string(),
    );
}

fn gate_for(case: &Case) -> Gate {
    let world = world();
    let mut builder = GateBuilder::default()
        .root(&world.root)
        .home(Some(world.home.clone()))
        .with_policy(fixture_env);
    if let Some(mode) = &case.mode {
        builder = builder.mode(Mode::parse(mode).expect("corpus mode"));
    }
    if let Some(config) = &case.config {
        let config_path = world.root.join("corpus-case.toml");
        builder =
            builder.with_policy(|p| p.apply_toml(config, &config_path).expect("corpus config"));
    }
    builder.build().expect("gate")
}

#[test]
fn corpus_cases_get_their_expected_verdicts() {
    let cases = load_cases();
    assert!(cases.len() >= 200, "corpus too small: {}", cases.len());
    let mut failures = Vec::new();
    for (file, case) in &cases {
        let gate = gate_for(case);
        let cwd = case.cwd.as_ref().map(|c| world().root.join(c));
        let env: Vec<&str> = case.env.iter().map(String::as_str).collect();
        let verdict = gate.check_task(&case.cmd, cwd.as_deref(), &env);
        let want = Decision::parse(&case.decision)
            .unwrap_or_else(|| panic!("{file}: bad decision {:?}", case.decision));
        let got_rules: BTreeSet<&str> = verdict.findings.iter().map(|f| f.rule).collect();
        let want_rules: BTreeSet<&str> = case.rules.iter().map(String::as_str).collect();
        let near_hit: Vec<&String> = case
            .near
            .iter()
            .filter(|n| got_rules.contains(n.as_str()))
            .collect();
        if verdict.decision != want || got_rules != want_rules || !near_hit.is_empty() {
            failures.push(format!(
                "{file}: {:?}\n    want {} {:?}, got {} {:?}{}",
                case.cmd,
                want,
                want_rules,
                verdict.decision,
                got_rules,
                if near_hit.is_empty() {
                    String::new()
                } else {
                    format!(" (near rules fired: {near_hit:?})")
                }
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_cases_both_ways() {
    let cases = load_cases();
    let mut missing = Vec::new();
    for rule in bashgate::RULES {
        let caught = cases
            .iter()
            .any(|(_, c)| c.rules.iter().any(|r| r == rule.code));
        let spared = cases
            .iter()
            .any(|(_, c)| c.near.iter().any(|r| r == rule.code));
        if !caught || !spared {
            missing.push(format!("{} caught:{caught} look-alike:{spared}", rule.code));
        }
    }
    assert!(
        missing.is_empty(),
        "rules without corpus cases both ways: {missing:?}"
    );
}

#[test]
fn every_rule_is_documented() {
    for rule in bashgate::RULES {
        assert!(
            rule.doc.contains("## What it does"),
            "{} lacks docs",
            rule.code
        );
        assert!(
            rule.doc.contains("## Example"),
            "{} lacks an example",
            rule.code
        );
        assert!(!rule.summary.is_empty());
    }
}

#[test]
fn fast_path_gives_the_same_verdicts_as_a_full_parse() {
    let mut commands: Vec<(Option<String>, String)> = load_cases()
        .into_iter()
        .map(|(_, c)| (c.config.clone(), c.cmd))
        .collect();
    for extra in [
        "ls -la",
        "git status",
        "FOO=bar BAZ=qux make test",
        "A=1",
        "A=1 B=2",
        "A+=1 ls",
        "env A=1 ls",
        "sudo ls",
        "sudo -u root id",
        "timeout 5 rm -rf /",
        "nice -n 5 reboot",
        "kill -9 -1",
        "kill %1",
        "mkfs.ext4 /dev/sda",
        "fdisk -l",
        "cat /etc/passwd",
        "cat ../x",
        "ls  src/  ",
        " pwd",
        "rm -rf /",
        "python3 -m pytest tests/ -x -q",
        "npm install -g x",
        "curl https://x.y/z",
        "cd /tmp",
        "cd src",
        "./scripts/deploy.sh --prod",
        "../../bin/tool",
        "/usr/bin/env A=1 B=2",
        "xargs rm",
        "command -v rm",
        "printenv",
        "env",
        "set",
        "git -c core.pager=less log",
        "ssh user@host ls",
        "LD_PRELOAD=/x.so ls",
        "export PATH=/tmp:/usr/bin",
        "exec 3",
        "2",
        "=x",
        "a=",
        "time ls",
        "if",
        "done",
        ": noop",
        ". file",
        "source x.sh",
        "bash x.sh",
        "sh",
        "eval",
        "chmod -R 777 /",
        "dd if=/dev/zero of=/dev/sda",
    ] {
        commands.push((None, extra.to_string()));
    }
    let world = world();
    let build = |fast: bool, config: &Option<String>| {
        let mut b = GateBuilder::default()
            .root(&world.root)
            .home(Some(world.home.clone()))
            .fast_path(fast);
        if let Some(config) = config {
            let path = world.root.join("corpus-case.toml");
            b = b.with_policy(|p| p.apply_toml(config, &path).expect("config"));
        }
        b.build().expect("gate")
    };
    let mut differences = Vec::new();
    for (config, cmd) in &commands {
        let fast = build(true, config).check(cmd);
        let full = build(false, config).check(cmd);
        if fast != full {
            differences.push(format!("{cmd:?}\n  fast: {fast:?}\n  full: {full:?}"));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
