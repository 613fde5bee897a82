//! Presets from every door: `--preset` on the command line, `preset = "..."` in a
//! config file, `bashgate rules --preset NAME`, and a bad name is a clear error.

use bashgate::{ConfigErrorKind, Decision, Gate, Policy, Preset};
use std::process::Command;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bashgate"));
    cmd.env(
        "XDG_CONFIG_HOME",
        std::env::temp_dir().join("bashgate-presets-no-config"),
    );
    cmd
}

fn check(args: &[&str]) -> (i32, String) {
    let out = bin()
        .args(["check", "--no-config", "--root", env!("CARGO_MANIFEST_DIR")])
        .args(args)
        .output()
        .expect("run bashgate");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_with_the_taskdev_preset_denies_what_the_runner_rejects() {
    let (code, out) = check(&["--preset", "taskdev", "--format", "json", "--", "make test"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("\"rule\":\"BG404\""), "{out}");
    let (code, out) = check(&["--preset", "taskdev", "--", "cargo test"]);
    assert_eq!(code, 0, "{out}");
    // Without the preset, `make test` is an ordinary command.
    let (code, _) = check(&["--", "make test"]);
    assert_eq!(code, 0);
}

#[test]
fn check_with_the_bash_tool_denylist_denies_mount_behind_a_wrapper() {
    let (code, out) = check(&["--preset", "bash-tool-denylist", "--", "env A=1 umount x"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("BG201"), "{out}");
}

#[test]
fn an_unknown_preset_is_a_usage_error_naming_the_choices() {
    let out = bin()
        .args(["check", "--preset", "nope", "--", "ls"])
        .output()
        .expect("run bashgate");
    assert_eq!(out.status.code(), Some(64));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("taskdev, sandbox-koda or bash-tool-denylist"),
        "{err}"
    );
}

#[test]
fn rules_lists_what_each_preset_turns_on() {
    let out = bin()
        .args(["rules", "--preset", "taskdev"])
        .output()
        .expect("run bashgate");
    let text = String::from_utf8_lossy(&out.stdout);
    for code in Preset::Taskdev.rule_codes() {
        assert!(text.contains(code), "{code} missing from:\n{text}");
    }
    let out = bin()
        .args(["rules", "--preset", "bash-tool-denylist"])
        .output()
        .expect("run bashgate");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("chroot") && text.contains("mkfs*"), "{text}");
}

#[test]
fn a_config_file_sets_the_preset_and_rejects_an_unknown_one() {
    let mut policy = Policy::new(env!("CARGO_MANIFEST_DIR"));
    policy
        .apply_toml("preset = \"taskdev\"\n", "bashgate.toml".as_ref())
        .expect("valid preset");
    assert_eq!(policy.preset, Some(Preset::Taskdev));
    assert_eq!(Gate::new(policy).check("make").decision, Decision::Deny);
    let mut policy = Policy::new(env!("CARGO_MANIFEST_DIR"));
    let err = policy
        .apply_toml("preset = \"nope\"\n", "bashgate.toml".as_ref())
        .expect_err("unknown preset");
    assert_eq!(err.kind, ConfigErrorKind::InvalidValue);
    assert!(err.message.contains("nope"), "{}", err.message);
}

#[test]
fn every_preset_round_trips_its_name() {
    for preset in Preset::ALL {
        assert_eq!(Preset::parse(preset.as_str()), Some(preset));
        assert!(!preset.description().is_empty());
    }
}
