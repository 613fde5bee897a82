//! The command's environment: a minimal set built from scratch, plus names the policy
//! passes, minus names that inject code into programs or look like secrets.
//!
//! Start-up and loader injection names (`LD_*`, `DYLD_*`, `BASH_ENV`, `ENV`,
//! `PROMPT_COMMAND`, `PYTHONPATH`, `NODE_OPTIONS`, `BASH_FUNC_*`, ...) and
//! secret-looking names or values are never passed by a glob; only a name listed
//! exactly in `env.pass` gets through, because then the user named it.

use std::collections::BTreeMap;
use std::path::Path;

/// Names the runner copies from its own environment when set.
pub const BASE_NAMES: &[&str] = &["PATH", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TZ"];

/// Exact names that make a program load or run code chosen by whoever sets them.
pub const INJECTION_NAMES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "IFS",
    "CDPATH",
    "GLOBIGNORE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "PYTHONINSPECT",
    "NODE_OPTIONS",
    "NODE_PATH",
    "RUBYLIB",
    "RUBYOPT",
    "PERL5LIB",
    "PERL5OPT",
    "PERLLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "GIT_EXEC_PATH",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_PARAMETERS",
    "SSH_ASKPASS",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "GIT_PAGER",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTFLAGS",
    "CARGO_BUILD_RUSTC_WRAPPER",
];

/// Prefixes of injection names (`LD_PRELOAD`, `DYLD_INSERT_LIBRARIES`, exported bash
/// functions).
pub const INJECTION_PREFIXES: &[&str] = &["LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG_"];

/// Parts of a name that mark it as a secret.
const SECRET_NAME_PARTS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASS_",
    "API_KEY",
    "APIKEY",
    "ACCESS_KEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
    "SESSION",
    "AUTH",
    "COOKIE",
];

/// Exact names of credentials and credential locations.
const SECRET_NAMES: &[&str] = &[
    "AWS_ACCESS_KEY_ID",
    "AWS_PROFILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CONFIG_FILE",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CLIENT_ID",
    "AZURE_TENANT_ID",
    "KUBECONFIG",
    "DOCKER_CONFIG",
    "SSH_AUTH_SOCK",
    "GPG_AGENT_INFO",
    "NPM_CONFIG_USERCONFIG",
    "DATABASE_URL",
];

/// Value prefixes of well-known credential formats.
const SECRET_VALUE_PREFIXES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghs_",
    "ghu_",
    "github_pat_",
    "glpat-",
    "sk-",
    "xoxb-",
    "xoxp-",
    "AKIA",
    "ASIA",
    "AIza",
    "npm_",
    "pypi-",
    "-----BEGIN",
];

/// Whether a name injects code into programs that start with it.
pub fn is_injection_name(name: &str) -> bool {
    INJECTION_NAMES.contains(&name)
        || INJECTION_PREFIXES.iter().any(|p| name.starts_with(p))
        || crate::rules::environment::runs_code_when_set(name)
}

/// Whether a name or its value looks like a credential.
pub fn is_secret(name: &str, value: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAMES.contains(&upper.as_str())
        || SECRET_NAME_PARTS.iter().any(|p| upper.contains(p))
        || upper.ends_with("_KEY")
        || SECRET_VALUE_PREFIXES.iter().any(|p| value.starts_with(p))
        || value.contains("://") && value.contains('@') && value.contains(':')
}

/// Whether a `pass` entry (`NAME` or `PREFIX*`) matches `name`.
fn pattern_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// Builds the command's environment.
///
/// - `from`: the runner's environment;
/// - `pass`: the policy's `env.pass` entries;
/// - `home`, `tmp`: the private HOME and TMPDIR;
/// - `fixed`: names set by the runner itself (toolchain homes), applied last.
///
/// ```
/// use bashgate::exec::env::build;
/// use std::path::Path;
/// let from = [("PATH", "/usr/bin"), ("LD_PRELOAD", "/x.so"), ("GITHUB_TOKEN", "ghp_x"),
///     ("CARGO_TERM_COLOR", "never")]
///     .map(|(n, v)| (n.to_string(), v.to_string()));
/// let env = build(from, &["CARGO_*".into(), "LD_*".into()], Path::new("/h"), Path::new("/t"), &[]);
/// assert_eq!(env["PATH"], "/usr/bin");
/// assert_eq!(env["HOME"], "/h");
/// assert_eq!(env["CARGO_TERM_COLOR"], "never");
/// assert!(!env.contains_key("LD_PRELOAD") && !env.contains_key("GITHUB_TOKEN"));
/// ```
pub fn build(
    from: impl IntoIterator<Item = (String, String)>,
    pass: &[String],
    home: &Path,
    tmp: &Path,
    fixed: &[(String, String)],
) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    for (name, value) in from {
        let base = BASE_NAMES.contains(&name.as_str()) || name.starts_with("LC_");
        let exact = pass.iter().any(|p| p == &name);
        let globbed = pass.iter().any(|p| pattern_matches(p, &name));
        let dangerous = is_injection_name(&name) || is_secret(&name, &value);
        if exact || ((base || globbed) && !dangerous) {
            env.insert(name, value);
        }
    }
    env.entry("PATH".to_string())
        .or_insert_with(|| "/usr/local/bin:/usr/bin:/bin".to_string());
    env.insert("HOME".into(), home.to_string_lossy().into_owned());
    env.insert("TMPDIR".into(), tmp.to_string_lossy().into_owned());
    for (name, value) in fixed {
        env.insert(name.clone(), value.clone());
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(from: &[(&str, &str)], pass: &[&str]) -> BTreeMap<String, String> {
        let from = from.iter().map(|(n, v)| (n.to_string(), v.to_string()));
        let pass: Vec<String> = pass.iter().map(|p| p.to_string()).collect();
        build(from, &pass, Path::new("/h"), Path::new("/t"), &[])
    }

    #[test]
    fn only_the_minimal_set_passes_by_default() {
        let env = run(
            &[
                ("PATH", "/bin"),
                ("LANG", "C.UTF-8"),
                ("LC_ALL", "C"),
                ("EDITOR", "vi"),
                ("FOO", "1"),
            ],
            &[],
        );
        let names: Vec<&str> = env.keys().map(String::as_str).collect();
        assert_eq!(names, ["HOME", "LANG", "LC_ALL", "PATH", "TMPDIR"]);
    }

    #[test]
    fn globs_never_pass_injection_or_secret_names_but_exact_names_do() {
        let from = [
            ("LD_PRELOAD", "/evil.so"),
            ("LD_LIBRARY_PATH", "/x"),
            ("BASH_FUNC_ls%%", "() { :; }"),
            ("NPM_TOKEN", "abc"),
            ("NPM_CACHE", "/c"),
            ("NPM_HOST", "ghp_abcdef"),
        ];
        let env = run(&from, &["*"]);
        assert!(!env.contains_key("LD_PRELOAD"));
        assert!(!env.contains_key("LD_LIBRARY_PATH"));
        assert!(!env.contains_key("BASH_FUNC_ls%%"));
        assert!(!env.contains_key("NPM_TOKEN"));
        assert!(
            !env.contains_key("NPM_HOST"),
            "a token-shaped value is a secret"
        );
        assert_eq!(env["NPM_CACHE"], "/c");
        let env = run(&from, &["LD_LIBRARY_PATH", "NPM_TOKEN"]);
        assert_eq!(env["LD_LIBRARY_PATH"], "/x");
        assert_eq!(env["NPM_TOKEN"], "abc");
        assert!(!env.contains_key("LD_PRELOAD"));
    }

    #[test]
    fn globs_never_pass_what_the_gate_judges_as_running_code() {
        let from = [
            ("GIT_SEQUENCE_EDITOR", "x"),
            ("HGRCPATH", "/x"),
            ("SVN_SSH", "x"),
            ("DEPLOY_COMMAND", "x"),
            ("CLASSPATH", "/x"),
            ("PATH", "/opt/bin"),
            ("CARGO_TERM_COLOR", "never"),
        ];
        let env = run(&from, &["*"]);
        let names: Vec<&str> = env.keys().map(String::as_str).collect();
        assert_eq!(names, ["CARGO_TERM_COLOR", "HOME", "PATH", "TMPDIR"]);
        assert_eq!(env["PATH"], "/opt/bin");
    }

    #[test]
    fn home_and_tmpdir_are_always_the_private_ones() {
        let env = run(
            &[("HOME", "/root"), ("TMPDIR", "/tmp")],
            &["HOME", "TMPDIR"],
        );
        assert_eq!(env["HOME"], "/h");
        assert_eq!(env["TMPDIR"], "/t");
    }

    #[test]
    fn secrets_are_recognised_by_name_and_value() {
        assert!(is_secret("AWS_SECRET_ACCESS_KEY", "x"));
        assert!(is_secret("OPENAI_API_KEY", "x"));
        assert!(is_secret("GH_TOKEN", "x"));
        assert!(is_secret("X", "AKIAIOSFODNN7EXAMPLE"));
        assert!(is_secret("X", "postgres://u:p@db/x"));
        assert!(!is_secret("CARGO_TERM_COLOR", "always"));
        assert!(!is_secret("PATH", "/usr/bin"));
    }
}
