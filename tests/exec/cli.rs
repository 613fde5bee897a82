//! The command line: the "done means" cases, refusals printed as `check`
//! prints them, the macOS profile snapshot, config errors.

use super::*;
use std::process::Command;

fn bashgate(f: &Fixture, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .arg(args[0])
        .args(["--no-config", "--root"])
        .arg(&f.root)
        .args(&args[1..])
        .current_dir(&f.root)
        .output()
        .unwrap()
}

#[test]
fn ls_runs_and_prints_the_listing() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    std::fs::write(f.root.join("listed-file.txt"), "x").unwrap();
    let out = bashgate(&f, &["exec", "--", "ls -la"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("listed-file.txt"));
}

#[test]
fn reading_an_ssh_key_does_not_run_and_shows_the_finding() {
    let f = Fixture::new();
    let exec = bashgate(&f, &["exec", "--", "cat ~/.ssh/id_rsa"]);
    let check = bashgate(&f, &["check", "--", "cat ~/.ssh/id_rsa"]);
    assert_eq!(exec.status.code(), Some(1));
    assert_eq!(exec.stdout, check.stdout, "printed as check prints it");
    assert!(String::from_utf8_lossy(&exec.stdout).contains("BG107"));
    let denied = bashgate(&f, &["exec", "--yes", "--", "sudo rm -rf /"]);
    assert_eq!(denied.status.code(), Some(2), "--yes never runs a deny");
}

#[test]
fn the_macos_profile_is_pinned() {
    let f = Fixture::new();
    let config = f.config(
        "read_only_paths = [\"/opt/data\"]\nallowed_paths = [\"/srv/shared\"]\n\
         [sandbox]\nnetwork = { connect = [443] }\n",
    );
    let out = bashgate(
        &f,
        &[
            "exec",
            "--config",
            config.to_str().unwrap(),
            "--print-profile",
            "macos",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout)
        .replace(f.root.to_str().unwrap(), "<ROOT>")
        .replace(std::env::temp_dir().to_str().unwrap(), "<TMP>");
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exec/snapshots/macos.sb");
    if std::env::var("BASHGATE_UPDATE_SNAPSHOTS").is_ok() {
        std::fs::write(&snapshot, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&snapshot).unwrap();
    assert_eq!(
        text, expected,
        "BASHGATE_UPDATE_SNAPSHOTS=1 rewrites the snapshot"
    );
}

#[test]
fn a_bad_sandbox_key_is_a_config_error_with_file_and_line() {
    let f = Fixture::new();
    let config = f.config("[sandbox]\nnetwork = \"off\"\nnetwrok = \"on\"\n");
    let out = bashgate(
        &f,
        &["exec", "--config", config.to_str().unwrap(), "--", "true"],
    );
    assert_eq!(out.status.code(), Some(78));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("policy.toml") && err.contains("line 3") && err.contains("netwrok"),
        "{err}"
    );
}

#[test]
fn verbose_says_what_was_applied() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let out = bashgate(
        &f,
        &["exec", "--verbose", "--sandbox", "require", "--", "true"],
    );
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("landlock: kernel ABI"), "{err}");
    assert!(err.contains("enforced: filesystem"), "{err}");
    assert!(err.contains("network: off"), "{err}");
    let off = bashgate(
        &f,
        &["exec", "--format", "json", "--sandbox", "off", "--", "true"],
    );
    let json: Value = serde_json::from_slice(&off.stdout).unwrap();
    assert_eq!(json["sandbox"]["mode"], "off");
    assert_eq!(json["sandbox"]["landlock"], Value::Null);
}

#[test]
fn cwd_must_be_inside_the_root() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    std::fs::create_dir(f.root.join("sub")).unwrap();
    let inside = bashgate(&f, &["exec", "--cwd", "sub", "--", "pwd"]);
    assert_eq!(inside.status.code(), Some(0), "{inside:?}");
    assert_eq!(
        String::from_utf8_lossy(&inside.stdout).trim(),
        f.root.join("sub").to_str().unwrap()
    );
    let decoy = f.decoy.to_str().unwrap();
    let outside = bashgate(&f, &["exec", "--cwd", decoy, "--", "pwd"]);
    assert_eq!(outside.status.code(), Some(125), "{outside:?}");
    assert!(String::from_utf8_lossy(&outside.stderr).contains("outside the root"));
}
