//! `bashgate config`: the effective policy — built-in defaults, the user's config
//! file, the project's `bashgate.toml`, `--config` files, then flags, merged the way
//! the gate merges them — with where each value came from, and the catalogue
//! entries the config files add or override (`[programs.NAME]`).

use super::{EXIT_CONFIG, PolicyArgs, discover};
use bashgate::Policy;
use bashgate::user_config_path;
use clap::Args;
use std::fmt::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Where values of the policy came from, value by value.
#[derive(Default)]
struct Sources {
    mode: String,
    max_input_bytes: String,
    max_nesting: String,
    allowed_paths: Vec<String>,
    read_only_paths: Vec<String>,
    sensitive_paths: Vec<String>,
    denylist: Vec<String>,
    permissions: Vec<String>,
}

impl Sources {
    /// Records a layer: scalars it set, and the list items it appended.
    fn layer(&mut self, name: &str, before: &Policy, after: &Policy, keys: &[String]) {
        let set = |key: &str| keys.iter().any(|k| k == key);
        if set("mode") {
            self.mode = name.to_string();
        }
        if set("max_input_bytes") {
            self.max_input_bytes = name.to_string();
        }
        if set("max_nesting") {
            self.max_nesting = name.to_string();
        }
        let grow = |list: &mut Vec<String>, from: usize, to: usize| {
            list.extend((from..to).map(|_| name.to_string()));
        };
        grow(
            &mut self.allowed_paths,
            before.allowed_paths.len(),
            after.allowed_paths.len(),
        );
        grow(
            &mut self.read_only_paths,
            before.read_only_paths.len(),
            after.read_only_paths.len(),
        );
        grow(
            &mut self.sensitive_paths,
            before.sensitive_paths.len(),
            after.sensitive_paths.len(),
        );
        grow(
            &mut self.denylist,
            before.denylist.len(),
            after.denylist.len(),
        );
        grow(
            &mut self.permissions,
            before.permissions.len(),
            after.permissions.len(),
        );
    }
}

/// The top-level keys a config file sets.
fn keys_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .map(|table| table.keys().cloned().collect())
        .unwrap_or_default()
}

pub fn run(args: &ConfigArgs) -> i32 {
    show(&args.policy)
}

/// Prints the effective policy for these flags (`config`, `check --show-config`).
pub fn show(policy: &PolicyArgs) -> i32 {
    // The same gate the other commands build: its errors are this command's errors.
    if let Err(message) = policy.gate() {
        eprintln!("bashgate: {message}");
        return EXIT_CONFIG;
    }
    match effective(policy) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(message) => {
            eprintln!("bashgate: {message}");
            EXIT_CONFIG
        }
    }
}

fn effective(flags: &PolicyArgs) -> Result<String, String> {
    let found = discover::root_for(flags.root.as_deref());
    let mut policy = Policy::new(&found.root);
    let mut sources = Sources {
        mode: "built-in default".into(),
        max_input_bytes: "built-in default".into(),
        max_nesting: "built-in default".into(),
        ..Sources::default()
    };
    let mut files: Vec<PathBuf> = Vec::new();
    if !flags.no_config {
        if let Some(user) = user_config_path().filter(|p| p.is_file()) {
            files.push(user);
        }
        let project = policy.root.join("bashgate.toml");
        if project.is_file() {
            files.push(project);
        }
    }
    files.extend(flags.config.iter().cloned());
    for file in &files {
        let before = policy.clone();
        policy.apply_file(file).map_err(|e| e.to_string())?;
        sources.layer(
            &file.display().to_string(),
            &before,
            &policy,
            &keys_of(file),
        );
    }
    let before = policy.clone();
    let mut keys = Vec::new();
    for path in &flags.allow_path {
        policy.allowed_paths.push(super::absolute(path));
    }
    for path in &flags.read_only_path {
        policy.read_only_paths.push(super::absolute(path));
    }
    if let Some(mode) = flags.mode {
        policy.mode = mode;
        keys.push("mode".to_string());
    }
    sources.layer("command-line flag", &before, &policy, &keys);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The effective policy; `# ...` says where each value came from."
    );
    let _ = writeln!(
        out,
        "root = {:?}  # {}",
        policy.root.display().to_string(),
        found.how
    );
    let _ = writeln!(out, "mode = {:?}  # {}", policy.mode.as_str(), sources.mode);
    let _ = writeln!(
        out,
        "max_input_bytes = {}  # {}",
        policy.max_input_bytes, sources.max_input_bytes
    );
    let _ = writeln!(
        out,
        "max_nesting = {}  # {}",
        policy.max_nesting, sources.max_nesting
    );
    let list = |out: &mut String, key: &str, items: Vec<String>, from: &[String]| {
        if items.is_empty() {
            let _ = writeln!(out, "{key} = []");
            return;
        }
        let _ = writeln!(out, "{key} = [");
        for (item, source) in items.iter().zip(from) {
            let _ = writeln!(out, "    {item:?},  # {source}");
        }
        let _ = writeln!(out, "]");
    };
    let paths = |v: &[PathBuf]| v.iter().map(|p| p.display().to_string()).collect();
    list(
        &mut out,
        "allowed_paths",
        paths(&policy.allowed_paths),
        &sources.allowed_paths,
    );
    list(
        &mut out,
        "read_only_paths",
        paths(&policy.read_only_paths),
        &sources.read_only_paths,
    );
    list(
        &mut out,
        "sensitive_paths",
        policy.sensitive_paths.clone(),
        &sources.sensitive_paths,
    );
    list(
        &mut out,
        "denylist",
        policy.denylist.clone(),
        &sources.denylist,
    );
    let _ = writeln!(out, "\n[permission.bash]");
    for (rule, source) in policy.permissions.iter().zip(&sources.permissions) {
        let _ = writeln!(
            out,
            "{:?} = {:?}  # {}",
            rule.pattern,
            rule.decision.as_str(),
            source
        );
    }
    programs(&mut out, &policy.programs);
    Ok(out)
}

/// The user's `[programs.NAME]` entries as the gate uses them: each effective
/// entry once (under its canonical name, its other names listed), where it comes
/// from, whether it overrides a built-in entry, and what it now says.
fn programs(out: &mut String, catalogue: &bashgate::catalogue::Catalogue) {
    let names = catalogue.user_names();
    if names.is_empty() {
        return;
    }
    let builtin = bashgate::catalogue::Catalogue::default();
    let mut shown: Vec<&str> = Vec::new();
    for name in names {
        let Some(entry) = catalogue.lookup(name) else {
            continue;
        };
        if shown.contains(&entry.name) {
            continue;
        }
        shown.push(entry.name);
        let source = catalogue.source(name).unwrap_or("a config file");
        let what = match builtin.lookup(entry.name) {
            Some(base) => format!("overrides the built-in entry `{}`", base.name),
            None => "a program the catalogue does not know".to_string(),
        };
        let _ = writeln!(out, "\n[programs.{}]  # {source}: {what}", entry.name);
        for line in bashgate::catalogue::describe(entry).lines() {
            let _ = writeln!(out, "# {line}");
        }
    }
}
