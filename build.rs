//! Compiles the program catalogue (`catalogue/*.toml`) into static Rust tables.
//!
//! Why a build script and not a checked-in generated file: the TOML files stay the
//! one source of truth (no second copy to keep in sync, no stale-file test), and a
//! malformed entry stops the build with the file and the entry named. The tables it
//! writes are plain `static` arrays plus a name index sorted by lowercase name, so a
//! lookup is a binary search over string slices: no allocation, no hashing, no
//! parsing at run time.
//!
//! The schema is documented in `catalogue/README.md`; every key and role is checked
//! here, so a typo is a build error rather than a silently ignored fact.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Keys an entry (or a subcommand entry) may have.
const ENTRY_KEYS: &[&str] = &[
    "summary",
    "aliases",
    "facts",
    "options",
    "flags",
    "operands",
    "last",
    "modes",
    "assignments",
    "clustering",
    "options_after_operands",
    "interpreter",
    "runs_files",
    "subcommands",
    "config_keys",
];

/// Roles a value or an operand can have.
const ROLES: &[(&str, &str)] = &[
    ("command", "Command"),
    ("shell", "Shell"),
    ("shell-words", "ShellWords"),
    ("path-read", "PathRead"),
    ("path-write", "PathWrite"),
    ("path-delete", "PathDelete"),
    ("path-exec", "PathExec"),
    ("directory", "Directory"),
    ("metadata", "Metadata"),
    ("pattern", "Pattern"),
    ("text", "Text"),
    ("url", "Url"),
    ("env", "Env"),
    ("config", "Config"),
    ("signal", "Signal"),
    ("process", "Process"),
    ("subcommand", "Subcommand"),
];

/// Facts a program (or subcommand) can have.
const FACTS: &[(&str, &str)] = &[
    ("privilege", "Privilege"),
    ("network", "Network"),
    ("fetches-remote-code", "FetchesRemoteCode"),
    ("uses-project-bin", "UsesProjectBin"),
    ("installs-globally", "InstallsGlobally"),
    ("runs-project-code", "RunsProjectCode"),
    ("denylisted", "Denylisted"),
    ("shell", "Shell"),
    ("wrapper", "Wrapper"),
    ("text-only", "TextOnly"),
    ("formats-filesystem", "FormatsFilesystem"),
    ("stops-machine", "StopsMachine"),
    ("service-control", "ServiceControl"),
    ("firewall", "Firewall"),
    ("kills-by-name", "KillsByName"),
    ("kernel-settings", "KernelSettings"),
    ("schedules-jobs", "SchedulesJobs"),
    ("prints-credentials", "PrintsCredentials"),
    ("mounts", "Mounts"),
    ("changes-ownership", "ChangesOwnership"),
    ("changes-mode", "ChangesMode"),
    ("debugger", "Debugger"),
    ("destroys-data", "DestroysData"),
];

struct Ctx<'a> {
    file: &'a str,
    entry: String,
}

impl Ctx<'_> {
    fn fail(&self, msg: impl std::fmt::Display) -> ! {
        panic!("catalogue/{}: entry `{}`: {}", self.file, self.entry, msg)
    }
}

fn main() {
    println!("cargo::rerun-if-changed=catalogue");
    println!("cargo::rerun-if-changed=build.rs");
    let dir = Path::new("catalogue");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("catalogue/: cannot read the folder: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::new();
    let mut index: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut entries = Vec::new();
    for path in &files {
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        println!("cargo::rerun-if-changed={}", path.display());
        let family = file.trim_end_matches(".toml").to_string();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("catalogue/{file}: cannot read: {e}"));
        let table: toml::Table = text
            .parse()
            .unwrap_or_else(|e| panic!("catalogue/{file}: not valid TOML: {e}"));
        for (name, value) in &table {
            let ctx = Ctx {
                file: &file,
                entry: name.clone(),
            };
            let Some(entry) = value.as_table() else {
                ctx.fail("an entry is a table: `[name]`")
            };
            check_name(&ctx, name);
            let (code, _) = entry_code(&ctx, name, &family, entry);
            let id = entries.len();
            entries.push(code);
            let mut names = vec![name.clone()];
            names.extend(string_list(&ctx, entry, "aliases"));
            for alias in names {
                check_name(&ctx, &alias);
                let key = alias.to_ascii_lowercase();
                if let Some((_, other)) = index.insert(key, (id, name.clone())) {
                    ctx.fail(format!("the name `{alias}` is already used by `{other}`"));
                }
            }
        }
    }
    out.push_str("/// Every catalogue entry, in file order.\n");
    out.push_str("pub static ENTRIES: &[Entry] = &[\n");
    for code in &entries {
        out.push_str(code);
        out.push_str(",\n");
    }
    out.push_str("];\n\n");
    out.push_str("/// Every name and alias (lowercase), sorted, with the index of its entry.\n");
    out.push_str("pub static INDEX: &[(&str, u16)] = &[\n");
    for (key, (id, _)) in &index {
        let _ = writeln!(out, "    ({key:?}, {id}),");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalogue.rs");
    std::fs::write(&dest, out).expect("write the generated catalogue");
}

fn check_name(ctx: &Ctx, name: &str) {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-:[{".contains(c));
    if !ok {
        ctx.fail(format!("`{name}` is not a valid program name"));
    }
}

fn string_list(ctx: &Ctx, entry: &toml::Table, key: &str) -> Vec<String> {
    match entry.get(key) {
        None => Vec::new(),
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|v| match v.as_str() {
                Some(s) => s.to_string(),
                None => ctx.fail(format!("`{key}` is a list of strings")),
            })
            .collect(),
        Some(_) => ctx.fail(format!("`{key}` is a list of strings")),
    }
}

/// The generated expression for a role, and its bit in the entry's role mask
/// (bit = position in ROLES; `code:*` is the last bit).
fn role(ctx: &Ctx, text: &str, mask: &mut u32) -> String {
    if let Some(lang) = text.strip_prefix("code:") {
        *mask |= 1 << ROLES.len();
        if lang.is_empty() || !lang.chars().all(|c| c.is_ascii_alphanumeric()) {
            ctx.fail(format!(
                "`{text}`: a code role names its language (`code:python`)"
            ));
        }
        return format!("Role::Code({lang:?})");
    }
    match ROLES.iter().position(|(n, _)| *n == text) {
        Some(bit) => {
            *mask |= 1 << bit;
            format!("Role::{}", ROLES[bit].1)
        }
        None => ctx.fail(format!(
            "unknown role `{text}` (known: {}, code:LANGUAGE)",
            ROLES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        )),
    }
}

fn roles(ctx: &Ctx, entry: &toml::Table, key: &str, mask: &mut u32) -> String {
    let list = string_list(ctx, entry, key);
    let parts: Vec<String> = list.iter().map(|r| role(ctx, r, mask)).collect();
    format!("&[{}]", parts.join(", "))
}

fn option_names(ctx: &Ctx, spelled: &str) -> Vec<String> {
    let names: Vec<String> = spelled.split('|').map(str::to_string).collect();
    for n in &names {
        let ok = (n.starts_with('-') || n.starts_with('+')) && n.len() > 1 && !n.contains('=');
        if !ok {
            ctx.fail(format!("option `{n}` is spelled `-x`, `--long` or `-long`"));
        }
    }
    names
}

fn options(ctx: &Ctx, entry: &toml::Table, mask: &mut u32) -> String {
    let Some(value) = entry.get("options") else {
        return "&[]".into();
    };
    let Some(table) = value.as_table() else {
        ctx.fail("`options` is a table of `\"-o|--output\" = \"ROLE\"`")
    };
    let mut parts = Vec::new();
    for (spelled, r) in table {
        let Some(r) = r.as_str() else {
            ctx.fail(format!("option `{spelled}`: its role is a string"))
        };
        let names = option_names(ctx, spelled);
        parts.push(format!(
            "OptionSpec {{ names: &{names:?}, role: {} }}",
            role(ctx, r, mask)
        ));
    }
    format!("&[{}]", parts.join(", "))
}

fn modes(ctx: &Ctx, entry: &toml::Table, mask: &mut u32) -> String {
    let Some(value) = entry.get("modes") else {
        return "&[]".into();
    };
    let Some(table) = value.as_table() else {
        ctx.fail("`modes` is a table of `\"-x|--exec\" = [ROLES]`")
    };
    let mut parts = Vec::new();
    for (spelled, list) in table {
        let names = option_names(ctx, spelled);
        let Some(items) = list.as_array() else {
            ctx.fail(format!("mode `{spelled}`: a list of operand roles"))
        };
        let rs: Vec<String> = items
            .iter()
            .map(|v| match v.as_str() {
                Some(s) => role(ctx, s, mask),
                None => ctx.fail(format!("mode `{spelled}`: a list of operand roles")),
            })
            .collect();
        parts.push(format!(
            "ModeSpec {{ flags: &{names:?}, operands: &[{}] }}",
            rs.join(", ")
        ));
    }
    format!("&[{}]", parts.join(", "))
}

fn config_keys(ctx: &Ctx, entry: &toml::Table, mask: &mut u32) -> String {
    let Some(value) = entry.get("config_keys") else {
        return "&[]".into();
    };
    let Some(table) = value.as_table() else {
        ctx.fail("`config_keys` is a table of `\"core.pager\" = \"ROLE\"`")
    };
    let mut parts = Vec::new();
    for (key, r) in table {
        let Some(r) = r.as_str() else {
            ctx.fail(format!("config key `{key}`: its role is a string"))
        };
        if key.is_empty() || key.chars().any(|c| c.is_whitespace()) {
            ctx.fail(format!("config key `{key}` is not a key"));
        }
        parts.push(format!(
            "({:?}, {})",
            key.to_ascii_lowercase(),
            role(ctx, r, mask)
        ));
    }
    format!("&[{}]", parts.join(", "))
}

fn facts(ctx: &Ctx, entry: &toml::Table) -> String {
    let parts: Vec<String> = string_list(ctx, entry, "facts")
        .iter()
        .map(|f| match FACTS.iter().find(|(n, _)| n == f) {
            Some((_, v)) => format!("Fact::{v}"),
            None => ctx.fail(format!(
                "unknown fact `{f}` (known: {})",
                FACTS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            )),
        })
        .collect();
    format!("&[{}]", parts.join(", "))
}

fn boolean(ctx: &Ctx, entry: &toml::Table, key: &str, default: bool) -> bool {
    match entry.get(key) {
        None => default,
        Some(toml::Value::Boolean(b)) => *b,
        Some(_) => ctx.fail(format!("`{key}` is true or false")),
    }
}

fn optional_role(ctx: &Ctx, entry: &toml::Table, key: &str, mask: &mut u32) -> String {
    match entry.get(key) {
        None => "None".into(),
        Some(toml::Value::String(s)) => format!("Some({})", role(ctx, s, mask)),
        Some(_) => ctx.fail(format!("`{key}` is one role")),
    }
}

fn optional_str(ctx: &Ctx, entry: &toml::Table, key: &str) -> String {
    match entry.get(key) {
        None => "None".into(),
        Some(toml::Value::String(s)) => format!("Some({s:?})"),
        Some(_) => ctx.fail(format!("`{key}` is a string")),
    }
}

fn entry_code(ctx: &Ctx, name: &str, family: &str, entry: &toml::Table) -> (String, u32) {
    let mut mask = 0u32;
    for key in entry.keys() {
        if !ENTRY_KEYS.contains(&key.as_str()) {
            ctx.fail(format!(
                "unknown key `{key}` (known: {})",
                ENTRY_KEYS.join(", ")
            ));
        }
    }
    let summary = match entry.get("summary") {
        Some(toml::Value::String(s)) if !s.is_empty() => s.clone(),
        _ => ctx.fail("`summary` (one line saying what the program does) is required"),
    };
    let aliases = string_list(ctx, entry, "aliases");
    let flags = string_list(ctx, entry, "flags");
    for f in &flags {
        option_names(ctx, f);
    }
    let runs_files = string_list(ctx, entry, "runs_files");
    let subcommands = match entry.get("subcommands") {
        None => "&[]".to_string(),
        Some(toml::Value::Table(subs)) => {
            let mut parts = Vec::new();
            for (sub, value) in subs {
                let sub_ctx = Ctx {
                    file: ctx.file,
                    entry: format!("{} {}", ctx.entry, sub),
                };
                let Some(table) = value.as_table() else {
                    sub_ctx.fail("a subcommand is a table")
                };
                let (code, sub_mask) = entry_code(&sub_ctx, sub, family, table);
                mask |= sub_mask;
                parts.push(code);
            }
            format!("&[{}]", parts.join(", "))
        }
        Some(_) => ctx.fail("`subcommands` is a table of entries"),
    };
    let facts = facts(ctx, entry);
    let options = options(ctx, entry, &mut mask);
    let operands = roles(ctx, entry, "operands", &mut mask);
    let last = optional_role(ctx, entry, "last", &mut mask);
    let modes = modes(ctx, entry, &mut mask);
    let config_keys = config_keys(ctx, entry, &mut mask);
    let code = format!(
        "Entry {{ name: {name:?}, family: {family:?}, summary: {summary:?}, aliases: &{aliases:?}, \
         facts: {facts}, options: {options}, flags: &{flags:?}, operands: {operands}, last: {last}, \
         modes: {modes}, assignments: {assignments}, clustering: {clustering}, \
         options_after_operands: {after}, interpreter: {interpreter}, runs_files: &{runs_files:?}, \
         config_keys: {config_keys}, subcommands: {subcommands}, role_mask: {mask} }}",
        assignments = boolean(ctx, entry, "assignments", false),
        clustering = boolean(ctx, entry, "clustering", true),
        after = boolean(ctx, entry, "options_after_operands", true),
        interpreter = optional_str(ctx, entry, "interpreter"),
    );
    (code, mask)
}
