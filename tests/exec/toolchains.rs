//! Toolchain cases: the usual project commands work inside the sandbox when the policy
//! lists their toolchain.

use super::*;

#[test]
fn cargo_python_and_git_work_in_the_root() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let config = f.config("[sandbox]\ntoolchains = [\"rust\", \"python\"]\n");
    let config = config.to_str().unwrap();
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&f.root)
        .status()
        .unwrap();
    assert!(git.success());
    std::fs::write(f.root.join("file.txt"), "x").unwrap();
    let cases: [(&str, &[&str], &str); 3] = [
        ("cargo --version", &[], "cargo "),
        ("python3 -c 'print(1)'", &["--yes"], "1\n"),
        ("git status --short", &[], "?? file.txt"),
    ];
    for (command, extra, expected) in cases {
        let program = command.split_whitespace().next().unwrap();
        if !have(program) {
            eprintln!("skipped: {program} is not installed");
            continue;
        }
        let mut flags = vec!["--sandbox", "require", "--config", config];
        flags.extend_from_slice(extra);
        let (json, out) = f.exec(&flags, command);
        assert_eq!(
            json["exit_code"],
            0,
            "{command}: {json} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(output(&json).contains(expected), "{command}: {json}");
    }
}

#[test]
fn a_toolchain_home_set_in_the_runners_environment_is_passed_and_read_only() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let rustup = f.base.join("rustup-home");
    std::fs::create_dir(&rustup).unwrap();
    std::fs::write(rustup.join("marker"), "toolchain-marker").unwrap();
    let config = f.config("[sandbox]\ntoolchains = [\"rust\"]\n");
    let (json, _) = f.exec_with(
        &[
            "--no-gate",
            "--sandbox",
            "require",
            "--config",
            config.to_str().unwrap(),
        ],
        "echo \"$RUSTUP_HOME\"; cat \"$RUSTUP_HOME/marker\"; echo; touch \"$RUSTUP_HOME/written\"",
        &[("RUSTUP_HOME", rustup.to_str().unwrap())],
    );
    let out = output(&json);
    assert!(
        out.starts_with(&format!("{}\ntoolchain-marker\n", rustup.display())),
        "{json}"
    );
    assert!(out.contains("Permission denied"), "{json}");
    assert!(!rustup.join("written").exists());
}
