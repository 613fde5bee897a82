//! The public front fails closed: a config that cannot be used is an error, never a
//! gate that silently lost the rules the config asked for.

use bashgate::{ConfigErrorKind, Decision, Gate};
use std::path::PathBuf;

fn project(name: &str, config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashgate-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp project");
    std::fs::write(dir.join("bashgate.toml"), config).expect("config");
    dir
}

const DENIES_TERRAFORM: &str = "[permission.bash]\n\"terraform *\" = \"deny\"\n";

#[test]
fn a_working_config_denies_what_it_says() {
    let dir = project("ok", DENIES_TERRAFORM);
    let gate = Gate::builder()
        .root(&dir)
        .discover_config()
        .build()
        .expect("gate");
    assert_eq!(gate.check("terraform apply").decision, Decision::Deny);
}

#[test]
fn a_broken_config_never_yields_a_gate() {
    // Each config would deny `terraform apply` if it were read whole; each has a
    // mistake. Without the error the gate would allow the command.
    let broken = [
        (
            "syntax",
            format!("{DENIES_TERRAFORM}mode = \n"),
            ConfigErrorKind::Syntax,
            Some(3),
            None,
        ),
        (
            "unknown-key",
            format!("deny_list = [\"x\"]\n{DENIES_TERRAFORM}"),
            ConfigErrorKind::UnknownKey,
            Some(1),
            Some("deny_list"),
        ),
        (
            "bad-decision",
            "[permission.bash]\n\"git status\" = \"allow\"\n\"terraform *\" = \"block\"\n"
                .to_string(),
            ConfigErrorKind::InvalidValue,
            Some(3),
            Some("permission.bash.\"terraform *\""),
        ),
        (
            "bad-mode",
            format!("mode = \"relaxed\"\n{DENIES_TERRAFORM}"),
            ConfigErrorKind::InvalidValue,
            Some(1),
            None,
        ),
    ];
    for (name, text, kind, line, key) in broken {
        let dir = project(name, &text);
        let error = Gate::builder()
            .root(&dir)
            .discover_config()
            .build()
            .expect_err(name);
        assert_eq!(error.kind, kind, "{name}: {error}");
        assert_eq!(error.line, line, "{name}: {error}");
        if let Some(key) = key {
            assert_eq!(error.key.as_deref(), Some(key), "{name}: {error}");
        }
        assert!(error.path.ends_with("bashgate.toml"), "{name}: {error}");
        assert!(
            error.to_string().contains("bashgate.toml"),
            "{name}: {error}"
        );
    }
}

#[test]
fn an_unreadable_config_file_is_an_error() {
    let dir = project("unreadable", DENIES_TERRAFORM);
    let error = Gate::builder()
        .root(&dir)
        .config_file(dir.join("missing.toml"))
        .build()
        .expect_err("missing file");
    assert_eq!(error.kind, ConfigErrorKind::Unreadable);
}

#[test]
fn a_later_good_setting_does_not_hide_an_earlier_error() {
    let dir = project("order", "mode = 3\n");
    let result = Gate::builder()
        .root(&dir)
        .config_file(dir.join("bashgate.toml"))
        .permission("terraform *", Decision::Deny)
        .build();
    assert!(result.is_err());
}
