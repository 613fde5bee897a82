//! Environment cases: secrets and loader variables of the runner never reach the
//! command; `env.pass` does; the runner's own environment stays closed.

use super::*;

#[test]
fn secrets_and_loader_variables_are_absent_and_env_pass_works() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let config = f.config("[sandbox.env]\npass = [\"SUITE_*\", \"LD_*\"]\n");
    let config = config.to_str().unwrap();
    let runner_env = [
        ("GITHUB_TOKEN", "ghp_suitesecret"),
        ("SUITE_SECRET_KEY", "hidden-by-name"),
        ("LD_PRELOAD", "/nonexistent-suite.so"),
        ("BASH_ENV", "/nonexistent-bash-env"),
        ("SUITE_VISIBLE", "passed-through"),
    ];
    let (json, _) = f.exec_with(
        &["--no-gate", "--sandbox", "require", "--config", config],
        "env",
        &runner_env,
    );
    let out = output(&json);
    assert!(out.contains("SUITE_VISIBLE=passed-through"), "{json}");
    for absent in [
        "ghp_suitesecret",
        "hidden-by-name",
        "LD_PRELOAD",
        "BASH_ENV",
    ] {
        assert!(!out.contains(absent), "{absent} leaked: {out}");
    }
    let names: Vec<&str> = json["sandbox"]["env_names"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(names.contains(&"HOME") && names.contains(&"TMPDIR") && names.contains(&"PATH"));
}

#[test]
fn the_runners_own_environment_cannot_be_read_through_proc() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let (json, _) = f.exec_with(
        &["--no-gate", "--sandbox", "require"],
        "cat /proc/$PPID/environ; echo; echo done",
        &[("SUITE_PARENT_SECRET", "parent-only-value")],
    );
    assert!(!output(&json).contains("parent-only-value"), "{json}");
    assert!(output(&json).contains("done"), "{json}");
}
