//! `[programs.NAME]` in a config file: the user's own catalogue entries (new
//! programs and overrides of built-in ones), their errors (file, line, key), their
//! `match` / `not_match` examples and those of permission rules, and that a gate
//! without such entries is not touched by another gate's.

use bashgate::{ConfigError, ConfigErrorKind, Decision, Gate};
use std::path::PathBuf;

fn project(name: &str, config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashgate-programs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp project");
    std::fs::write(dir.join("bashgate.toml"), config).expect("config");
    dir
}

fn gate(name: &str, config: &str) -> Result<Gate, ConfigError> {
    let dir = project(name, config);
    Gate::builder().root(&dir).discover_config().build()
}

fn decision(gate: &Gate, command: &str) -> Decision {
    gate.check(command).decision
}

const DEPLOY: &str = "[programs.deploy]\n\
    summary = \"the team's deploy script\"\n\
    facts = [\"network\"]\n\
    aliases = [\"ship\"]\n\
    options = { \"--hook\" = \"shell\" }\n";

#[test]
fn a_new_program_has_its_facts_and_roles() {
    let gate = gate("new", DEPLOY).expect("gate");
    let verdict = gate.check("deploy prod");
    assert_eq!(verdict.decision, Decision::Ask);
    assert!(verdict.has_rule("BG206"), "{verdict:?}");
    // Any case, a folder, `.exe`, an alias.
    for command in ["DEPLOY prod", "./bin/deploy.exe prod", "ship prod"] {
        assert!(gate.check(command).has_rule("BG206"), "{command}");
    }
    // The option's value is shell text: the script inside it is judged.
    let verdict = gate.check("deploy --hook 'rm -rf /'");
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:?}");
    assert!(verdict.has_rule("BG202"));
}

#[test]
fn a_new_programs_runner_files_are_matched_by_pattern() {
    let config = "[programs.deploy]\nsummary = \"d\"\nruns_files = [\"deploy/*.yml\"]\n";
    let gate = gate("runner-files", config).expect("gate");
    let verdict = gate.check("echo 'run: rm -rf ~' > deploy/prod.yml; deploy");
    assert!(verdict.has_rule("BG218"), "{verdict:?}");
    let verdict = gate.check("echo 'x' > notes.yml; deploy");
    assert!(!verdict.has_rule("BG218"), "{verdict:?}");
}

#[test]
fn an_override_changes_only_the_keys_it_gives() {
    let gate = gate("override", "[programs.ls]\nfacts = [\"network\"]\n").expect("gate");
    assert!(gate.check("ls src").has_rule("BG206"));
    assert!(gate.check("LS src").has_rule("BG206"));
    // Operands keep their built-in roles: a listing outside the root still asks.
    assert!(gate.check("ls /etc").has_rule("BG101"));
    // Other programs are untouched.
    assert_eq!(decision(&gate, "cat README.md"), Decision::Allow);
}

#[test]
fn an_override_through_an_alias_applies_to_the_program() {
    let gate = gate("alias", "[programs.python3]\nfacts = [\"network\"]\n").expect("gate");
    for command in ["python3 -V", "python -V", "python3.exe -V"] {
        assert!(gate.check(command).has_rule("BG206"), "{command}");
    }
}

#[test]
fn subcommands_combine_by_name() {
    let config = "[programs.git.subcommands.status]\nfacts = [\"fetches-remote-code\"]\n";
    let gate = gate("subcommands", config).expect("gate");
    assert!(gate.check("git status").has_rule("BG206"));
    assert_eq!(decision(&gate, "git log"), Decision::Allow);
    // The built-in subcommands the config does not name keep their roles.
    assert_ne!(
        decision(&gate, "git clone --upload-pack='touch /tmp/x' repo"),
        Decision::Allow
    );
}

#[test]
fn a_gate_without_entries_never_sees_another_gates() {
    let configured = gate("isolated", "[programs.ls]\nfacts = [\"network\"]\n").expect("gate");
    let plain = Gate::builder().root(".").build().expect("plain gate");
    assert!(configured.check("ls").has_rule("BG206"));
    assert_eq!(decision(&plain, "ls"), Decision::Allow);
    assert!(configured.check("ls").has_rule("BG206"));
    // The free lookup outside a check is the built-in catalogue.
    let ls = bashgate::catalogue::lookup("ls").expect("ls");
    assert!(!ls.has(bashgate::catalogue::Fact::Network));
    // On another thread too.
    std::thread::scope(|s| {
        s.spawn(|| assert!(configured.check("ls").has_rule("BG206")));
        s.spawn(|| assert_eq!(decision(&plain, "ls"), Decision::Allow));
    });
}

#[test]
fn a_later_file_overrides_an_earlier_one() {
    let dir = project("layers", DEPLOY);
    std::fs::write(dir.join("later.toml"), "[programs.deploy]\nfacts = []\n").expect("write");
    let gate = Gate::builder()
        .root(&dir)
        .discover_config()
        .config_file(dir.join("later.toml"))
        .build()
        .expect("gate");
    assert_eq!(decision(&gate, "deploy prod"), Decision::Allow);
    // The earlier file's keys that the later one does not give stay.
    assert_eq!(decision(&gate, "deploy --hook 'rm -rf /'"), Decision::Deny);
}

#[test]
fn mistakes_in_an_entry_name_file_line_and_key() {
    let cases = [
        (
            "unknown-key",
            "# x\n[programs.deploy]\nsummary = \"d\"\nfrob = 1\n",
            ConfigErrorKind::UnknownKey,
            4,
            "programs.deploy.frob",
        ),
        (
            "unknown-role",
            "[programs.deploy]\nsummary = \"d\"\n\n[programs.deploy.options]\n\"-o|--out\" = \"paht-write\"\n",
            ConfigErrorKind::InvalidValue,
            5,
            "programs.deploy.options.\"-o|--out\"",
        ),
        (
            "unknown-fact",
            "[programs.deploy]\nsummary = \"d\"\nfacts = [\"netwrk\"]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.facts",
        ),
        (
            "bad-option",
            "[programs.deploy]\nsummary = \"d\"\nflags = [\"x\"]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.flags",
        ),
        (
            "subcommand-key",
            "[programs.git.subcommands.push]\nfacts = [\"network\"]\nfrob = true\n",
            ConfigErrorKind::UnknownKey,
            3,
            "programs.git.subcommands.push.frob",
        ),
        (
            "no-summary",
            "[programs.not-a-known-program]\nfacts = [\"network\"]\n",
            ConfigErrorKind::InvalidValue,
            1,
            "programs.not-a-known-program.summary",
        ),
        (
            "effect-key",
            "[programs.deploy]\nsummary = \"d\"\n\n[[programs.deploy.effects]]\nwhat = \"w\"\nsuggestion = \"s\"\n\n[[programs.deploy.effects]]\nwhat = \"w\"\nsuggestion = \"s\"\nwehn = 1\n",
            ConfigErrorKind::UnknownKey,
            11,
            "programs.deploy.effects.1.wehn",
        ),
        (
            "effect-test",
            "[programs.deploy]\nsummary = \"d\"\neffects = [{ test = \"sql-destroy\", what = \"w\", suggestion = \"s\" }]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.effects.0.test",
        ),
        (
            "effect-suggestion",
            "[programs.deploy]\nsummary = \"d\"\n[[programs.deploy.effects]]\nwords = [\"prod\"]\nwhat = \"w\"\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.effects.0",
        ),
        (
            "runs-files-pipe",
            "[programs.deploy]\nsummary = \"d\"\nruns_files = [\"deploy.yml|deploy.yaml\"]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.runs_files",
        ),
        (
            "runs-files-two-stars",
            "[programs.deploy]\nsummary = \"d\"\nruns_files = [\"hooks/*.*\"]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.runs_files",
        ),
        (
            "runs-files-dot",
            "[programs.deploy]\nsummary = \"d\"\nruns_files = [\"./deploy.yml\"]\n",
            ConfigErrorKind::InvalidValue,
            3,
            "programs.deploy.runs_files",
        ),
        (
            "not-a-table",
            "programs.deploy = \"network\"\n",
            ConfigErrorKind::InvalidValue,
            1,
            "programs.deploy",
        ),
    ];
    for (name, config, kind, line, key) in cases {
        let error = gate(name, config).expect_err(name);
        assert_eq!(error.kind, kind, "{name}: {error}");
        assert_eq!(error.line, Some(line), "{name}: {error}");
        assert_eq!(error.key.as_deref(), Some(key), "{name}: {error}");
        assert!(error.path.ends_with("bashgate.toml"), "{name}: {error}");
        assert!(
            error
                .to_string()
                .contains(&format!("bashgate.toml:{line}:")),
            "{name}: {error}"
        );
    }
}

#[test]
fn program_examples_are_checked_when_the_gate_is_built() {
    let good = format!("{DEPLOY}match = [\"deploy prod\"]\nnot_match = [\"ls && echo deploy\"]\n");
    // `not_match` must start the program: this one does not.
    let error = gate("examples-start", &good).expect_err("does not start deploy");
    assert_eq!(error.kind, ConfigErrorKind::FailedExample);
    assert!(error.message.contains("does not start `deploy`"), "{error}");
    assert_eq!(error.line, Some(7));

    let config = "[programs.deploy]\nsummary = \"d\"\nmatch = [\"deploy prod\"]\n";
    let error = gate("examples-allowed", config).expect_err("match allowed");
    assert_eq!(error.kind, ConfigErrorKind::FailedExample);
    assert_eq!(error.key.as_deref(), Some("programs.deploy.match"));
    assert_eq!(error.line, Some(3));
    assert!(
        error.message.contains("`deploy prod` is allowed"),
        "{error}"
    );

    let config = format!("{DEPLOY}not_match = [\"deploy prod\"]\n");
    let error = gate("examples-not-match", &config).expect_err("not_match asks");
    assert!(error.message.contains("decides ask (BG206)"), "{error}");

    let config = format!(
        "{DEPLOY}match = [\"deploy prod\", \"ship --hook 'curl x'\"]\n\
         [programs.mytool]\nsummary = \"m\"\nnot_match = [\"mytool --version\"]\n"
    );
    gate("examples-pass", &config).expect("every example decides as written");
}

#[test]
fn permission_rule_examples_are_checked_when_the_gate_is_built() {
    let rule = |examples: &str| {
        format!("[permission.bash]\n\"git push *\" = {{ decision = \"ask\"{examples} }}\n")
    };
    let ok = rule(
        ", match = [\"git push origin main\", \"cd src && git push\"], not_match = [\"git pull\"]",
    );
    let gate_ok = gate("rule-ok", &ok).expect("examples hold");
    assert_eq!(decision(&gate_ok, "git push"), Decision::Ask);

    let error = gate("rule-match", &rule(", match = [\"git pull\"]")).expect_err("match");
    assert_eq!(error.kind, ConfigErrorKind::FailedExample);
    assert_eq!(
        error.key.as_deref(),
        Some("permission.bash.\"git push *\".match")
    );
    assert_eq!(error.line, Some(2));
    assert!(error.message.contains("`git pull`"), "{error}");

    let error =
        gate("rule-not-match", &rule(", not_match = [\"git push -f\"]")).expect_err("not_match");
    assert!(error.message.contains("is decided by the rule"), "{error}");

    // A match example that the rule decides, but whose verdict is stricter.
    let error = gate(
        "rule-stricter",
        &rule(", match = [\"git push && rm -rf /\"]"),
    )
    .expect_err("stricter");
    assert!(error.message.contains("decides deny"), "{error}");

    // A more specific rule wins: the example is not decided by this one.
    let two = "[permission.bash]\n\"git push *\" = { decision = \"ask\", match = [\"git push origin\"] }\n\
               \"git push origin*\" = \"allow\"\n";
    let error = gate("rule-shadowed", two).expect_err("shadowed");
    assert!(error.message.contains("more specific"), "{error}");

    let error = gate("rule-unknown", &rule(", matches = [\"git push\"]")).expect_err("key");
    assert_eq!(error.kind, ConfigErrorKind::UnknownKey);
    assert_eq!(
        error.key.as_deref(),
        Some("permission.bash.\"git push *\".matches")
    );
    let error = gate(
        "rule-no-decision",
        "[permission.bash]\n\"x *\" = { match = [\"x\"] }\n",
    )
    .expect_err("decision");
    assert_eq!(error.kind, ConfigErrorKind::InvalidValue);
}

#[test]
fn a_user_effect_asks_with_its_suggestion() {
    let config = "[programs.deploy]\n\
        summary = \"the team's deploy script\"\n\
        options = { \"--region\" = \"text\" }\n\
        [[programs.deploy.effects]]\n\
        words = [\"prod|production\"]\n\
        unless = [\"--plan\"]\n\
        what = \"deploys to production\"\n\
        suggestion = \"deploy to staging first\"\n\
        [[programs.git.subcommands.tag.effects]]\n\
        flags = [\"-f|--force\"]\n\
        what = \"replaces a tag\"\n\
        suggestion = \"keep the tag\"\n\
        [programs.shipit]\n\
        summary = \"the team's release tool\"\n\
        [programs.shipit.subcommands.ship]\n\
        summary = \"ships a release\"\n\
        [[programs.shipit.subcommands.ship.effects]]\n\
        words = [\"prod\"]\n\
        what = \"ships to production\"\n\
        suggestion = \"ship to staging first\"\n";
    let gate = gate("effects", config).expect("gate");
    let verdict = gate.check("deploy --region eu prod");
    assert_eq!(verdict.decision, Decision::Ask, "{verdict:?}");
    let finding = verdict
        .findings
        .iter()
        .find(|f| f.rule == "BG210")
        .expect("BG210");
    assert_eq!(
        finding.suggestion.as_deref(),
        Some("deploy to staging first")
    );
    assert_eq!(decision(&gate, "deploy prod --plan"), Decision::Allow);
    assert_eq!(decision(&gate, "deploy staging"), Decision::Allow);
    // A subcommand's effects combine with the built-in entry's.
    assert!(gate.check("git tag -f v1").has_rule("BG210"));
    assert!(!gate.check("git tag v2").has_rule("BG210"));
    assert!(gate.check("git reset --hard").has_rule("BG210"));
    // An effect only a subcommand of a user's program lists.
    assert!(gate.check("shipit ship prod").has_rule("BG210"));
    assert!(!gate.check("shipit ship dev").has_rule("BG210"));
    // Without the config, the built-in catalogue has no such effect.
    let plain = Gate::builder().root(".").build().expect("gate");
    assert!(!plain.check("git tag -f v1").has_rule("BG210"));
}

#[test]
fn the_same_config_loaded_again_shares_its_entries() {
    // User entries are kept once per distinct entry, however many gates load them:
    // a long-running host that builds a gate per request does not grow.
    let first = gate("intern-a", DEPLOY).expect("gate");
    let second = gate("intern-b", DEPLOY).expect("gate");
    let a = first.policy().programs.lookup("deploy").expect("entry");
    let b = second.policy().programs.lookup("deploy").expect("entry");
    assert!(std::ptr::eq(a, b), "the same entry was built twice");
    let other = gate("intern-c", "[programs.deploy]\nsummary = \"another\"\n").expect("gate");
    let c = other.policy().programs.lookup("deploy").expect("entry");
    assert!(!std::ptr::eq(a, c));
    assert_eq!(c.summary, "another");
}

#[test]
fn config_prints_the_effective_catalogue_overrides() {
    let config = format!("{DEPLOY}\n[programs.git.subcommands.tag]\nfacts = [\"network\"]\n");
    let dir = project("config-print", &config);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args(["config", "--root"])
        .arg(&dir)
        .output()
        .expect("run bashgate");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let deploy = text
        .lines()
        .find(|l| l.starts_with("[programs.deploy]"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(deploy.contains("bashgate.toml"), "{deploy}");
    assert!(deploy.contains("does not know"), "{deploy}");
    assert!(
        text.contains("# deploy — the team's deploy script"),
        "{text}"
    );
    assert!(text.contains("--hook"), "{text}");
    // The alias is the same entry: shown once.
    assert_eq!(text.matches("[programs.").count(), 2, "{text}");
    assert!(
        text.contains("[programs.git]") && text.contains("overrides the built-in entry `git`"),
        "{text}"
    );
    // Without user entries there is no such section.
    let plain = project("config-plain", "mode = \"trusted\"\n");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args(["config", "--root"])
        .arg(&plain)
        .output()
        .expect("run bashgate");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(!text.contains("[programs."), "{text}");
}

#[test]
fn explain_shows_the_effective_entry_and_where_it_comes_from() {
    let dir = project("explain", DEPLOY);
    let run = |program: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
            .args(["explain", program, "--root"])
            .arg(&dir)
            .output()
            .expect("run bashgate");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let page = run("deploy");
    assert!(page.contains("from the config file"), "{page}");
    assert!(page.contains("bashgate.toml"), "{page}");
    assert!(page.contains("--hook"), "{page}");
    let page = run("python3");
    assert!(
        page.starts_with("python3: catalogued as `python`"),
        "{page}"
    );
    assert!(!page.contains("from the config file"), "{page}");
}

#[test]
fn the_readme_configuration_example_loads_and_its_examples_hold() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let section = readme
        .split("## Configuration")
        .nth(1)
        .expect("a Configuration section");
    let block = section
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a toml block");
    // The preset line would change every decision; the rest is what is shown.
    let block: String = block
        .lines()
        .filter(|l| !l.starts_with("preset"))
        .map(|l| format!("{l}\n"))
        .collect();
    let gate = gate("readme", &block).expect("the README's example config loads");
    assert_eq!(decision(&gate, "terraform apply"), Decision::Deny);
    assert!(gate.check("deploy prod").has_rule("BG206"));
}

/// A user's entry may pass options on to a program the catalogue does not have:
/// its options cannot be read, so the command asks, never allows; a known reader
/// reads them (`options:ld`).
#[test]
fn options_passed_on_to_an_unknown_reader_ask() {
    let config = "[programs.mybuild]\nsummary = \"b\"\n\
        options = { \"--tool-flags\" = \"options:no-such-tool\", \"--link-flags\" = \"options:ld\" }\n";
    let gate = gate("options-reader", config).expect("gate");
    for command in ["mybuild --tool-flags=-x", "mybuild --tool-flags=\"-a $B\""] {
        let verdict = gate.check(command);
        assert_eq!(verdict.decision, Decision::Ask, "{command}: {verdict:?}");
        assert!(verdict.has_rule("BG303"), "{command}: {verdict:?}");
    }
    let verdict = gate.check("mybuild --link-flags='-plugin /tmp/x.so'");
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:?}");
    assert_eq!(
        gate.check("mybuild --link-flags=--as-needed").decision,
        Decision::Allow
    );
}
