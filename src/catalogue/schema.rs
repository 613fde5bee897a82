//! The catalogue's entry schema: reading one TOML entry into a checked [`Spec`].
//!
//! One reader for both places entries come from: `build.rs` includes this file to
//! check and compile `catalogue/*.toml`, and the policy uses it for the user's
//! `[programs.NAME]` tables in `bashgate.toml`. Both therefore accept exactly the
//! same keys, roles and facts, and a mistake is reported the same way: the dotted
//! key at fault and what is wrong. The file uses nothing but `std` and `toml`, so
//! the build script can include it as it is.

/// Keys an entry (or a subcommand entry) may have.
pub const ENTRY_KEYS: &[&str] = &[
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
    // Its options count after a subcommand's name too (`npm install --prefix DIR`).
    "global_options",
    "interpreter",
    "runs_files",
    "subcommands",
    "config_keys",
    // Environment variables the program reads whose value has a role (`CC` for make).
    "env_keys",
    "flag_facts",
    // In-place edits and options whose role depends on a mode flag.
    "in_place",
    "mode_options",
    "old_style_flags",
    // Names the entry answers to by prefix (`mkfs.` for every `mkfs.TYPE`).
    "name_prefixes",
    // Flags after which the words up to a terminator run (`find -exec ... ;`).
    "embedded_commands",
    "effects",
    // Facts a settings key adds when the use sets it (`registry` changes where
    // packages come from), and the settings files that hold the entry's keys.
    "key_facts",
    "config_files",
];

/// Roles a value or an operand can have, as spelled in the files, with the name of
/// the `Role` variant. The position of a role is its bit in an entry's role mask;
/// every `code:LANGUAGE` role shares the bit after the last.
pub const ROLES: &[(&str, &str)] = &[
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
    ("link-target", "LinkTarget"),
    ("module", "Module"),
    ("shell-if-bang", "ShellIfBang"),
    ("exec-directory", "ExecDirectory"),
    ("mount", "Mount"),
    ("argument", "Argument"),
    ("package", "Package"),
    ("data", "Data"),
    ("program", "Program"),
    ("options", "Options"),
    ("shell-program", "ShellProgram"),
    ("remote", "Remote"),
    ("config-env", "ConfigEnv"),
    ("verification", "Verification"),
    ("path-write-or-pipe", "PathWriteOrPipe"),
    ("revision", "Revision"),
    ("source", "Source"),
    ("alias", "Alias"),
    ("credential-helper", "CredentialHelper"),
];

/// Facts a program (or subcommand) can have, as spelled in the files, with the
/// name of the `Fact` variant.
pub const FACTS: &[(&str, &str)] = &[
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
    ("deletes-files", "DeletesFiles"),
    ("read-only", "ReadOnly"),
    ("changes-directory", "ChangesDirectory"),
    ("signals-processes", "SignalsProcesses"),
    ("plain-pager", "PlainPager"),
    ("remote-operands", "RemoteOperands"),
    ("installs-into-interpreter", "InstallsIntoInterpreter"),
    ("prints-environment", "PrintsEnvironment"),
    ("persists", "Persists"),
    ("sends-files", "SendsFiles"),
    ("writes-settings", "WritesSettings"),
    ("changes-package-source", "ChangesPackageSource"),
    ("outside-settings", "OutsideSettings"),
    ("relative-link-targets", "RelativeLinkTargets"),
    ("no-target-directory", "NoTargetDirectory"),
    ("points-remote", "PointsRemote"),
    ("stdin-commands", "StdinCommands"),
    ("remote-spec", "RemoteSpec"),
    ("response-files", "ResponseFiles"),
    ("changes-settings", "ChangesSettings"),
    ("recursive", "Recursive"),
    ("copies-input", "CopiesInput"),
    ("appends", "Appends"),
    ("no-newline", "NoNewline"),
    ("skips-verification", "SkipsVerification"),
    ("listens", "Listens"),
    ("detaches", "Detaches"),
    ("writes-input-names", "WritesInputNames"),
    ("program-subcommands", "ProgramSubcommands"),
    ("clones", "Clones"),
];

/// A mistake in an entry: the dotted key inside the entry (`options."--x"`,
/// `subcommands.clone.facts`; empty for the entry itself) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The key at fault, as a path of keys inside the entry.
    pub key: Vec<String>,
    /// What is wrong.
    pub message: String,
}

impl SchemaError {
    fn at(key: &[&str], message: impl Into<String>) -> SchemaError {
        SchemaError {
            key: key.iter().map(|k| k.to_string()).collect(),
            message: message.into(),
        }
    }
}

/// An option that takes one value or more: its spellings and the role of each
/// value word (`--bind SRC DEST` has two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpecText {
    /// Its spellings (`-o`, `--output`).
    pub names: Vec<String>,
    /// The role of each value, in order; at least one.
    pub roles: Vec<String>,
}

/// Facts a flag adds: its spellings and the facts.
pub type FlagFactsText = (Vec<String>, Vec<String>);

/// A mode: its flag spellings and the operand roles while it is given.
pub type ModeText = (Vec<String>, Vec<String>);

/// Options whose role a mode flag changes: the flag's spellings and the options
/// (`tar -c` writes its `-f` archive).
pub type ModeOptionsText = (Vec<String>, Vec<OptionSpecText>);

/// One entry as read from TOML and checked: every key known, every role and fact
/// spelled right. Keys the entry does not give are `None` (or empty), so a user's
/// entry can say which keys it overrides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spec {
    /// One line: what the program does.
    pub summary: Option<String>,
    /// Other names.
    pub aliases: Option<Vec<String>>,
    /// Facts, as spelled.
    pub facts: Option<Vec<String>>,
    /// Options that take values.
    pub options: Option<Vec<OptionSpecText>>,
    /// Flags worth naming.
    pub flags: Option<Vec<String>>,
    /// Operand roles by position.
    pub operands: Option<Vec<String>>,
    /// The role of the last of several operands.
    pub last: Option<String>,
    /// Flags that change the operands' roles.
    pub modes: Option<Vec<ModeText>>,
    /// Takes `NAME=value` words.
    pub assignments: Option<bool>,
    /// Short options cluster.
    pub clustering: Option<bool>,
    /// Options may follow operands.
    pub options_after_operands: Option<bool>,
    /// Its options count after a subcommand's name too.
    pub global_options: Option<bool>,
    /// The language of the code it runs.
    pub interpreter: Option<String>,
    /// Project files it runs.
    pub runs_files: Option<Vec<String>>,
    /// Settings keys with roles (keys lowercase).
    pub config_keys: Option<Vec<(String, String)>>,
    /// Environment variables with roles (names as spelled).
    pub env_keys: Option<Vec<(String, String)>>,
    /// Facts a flag adds when it is given (`find -delete` deletes files).
    pub flag_facts: Option<Vec<FlagFactsText>>,
    /// Operations that act remotely or cannot be undone, with their conditions.
    pub effects: Option<Vec<EffectText>>,
    /// Subcommands, each an entry of its own, in file order.
    pub subcommands: Vec<(String, Spec)>,
    /// Flags that make the program edit its file operands in place (`sed -i`).
    pub in_place: Option<Vec<String>>,
    /// Options whose role a mode flag changes (`tar -x` writes into `-C DIR`).
    pub mode_options: Option<Vec<ModeOptionsText>>,
    /// The first word, without a dash, is a cluster of flags (`tar xzf A`).
    pub old_style_flags: Option<bool>,
    /// Every name starting with one of these is this program (`mkfs.`).
    pub name_prefixes: Option<Vec<String>>,
    /// Flags after which the words up to a terminator are a command that runs.
    pub embedded_commands: Option<Vec<ModeText>>,
    /// Facts a settings key adds when the use sets it: the key patterns (`a|b`,
    /// lowercase) and the facts.
    pub key_facts: Option<Vec<FlagFactsText>>,
    /// Settings files (by name) whose keys are this entry's `config_keys` and
    /// `key_facts` (`.npmrc`).
    pub config_files: Option<Vec<String>>,
}

/// True for a valid program or alias name.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-:[{".contains(c))
}

/// True for a role as spelled in the files (`path-read`, `code:python`,
/// `options:go tool link`: an entry's name and its subcommands', one space apart).
pub fn valid_role(text: &str) -> bool {
    if let Some(reader) = text.strip_prefix("options:") {
        return !reader.is_empty() && reader.split(' ').all(valid_name);
    }
    match text.strip_prefix("code:") {
        Some(lang) => !lang.is_empty() && lang.chars().all(|c| c.is_ascii_alphanumeric()),
        None => ROLES.iter().any(|(n, _)| *n == text),
    }
}

/// Reads one entry. `extra_keys` are keys the caller handles itself (a user's
/// `match`/`not_match` examples); they are skipped here, not refused.
pub fn parse_entry(table: &toml::Table, extra_keys: &[&str]) -> Result<Spec, SchemaError> {
    let mut spec = Spec::default();
    for (key, value) in table {
        let k = key.as_str();
        match k {
            "summary" => match value.as_str() {
                Some(s) if !s.is_empty() => spec.summary = Some(s.to_string()),
                _ => return Err(SchemaError::at(&[k], "`summary` is one non-empty line")),
            },
            "aliases" => {
                let names = strings(value, k)?;
                if let Some(bad) = names.iter().find(|n| !valid_name(n)) {
                    return Err(SchemaError::at(
                        &[k],
                        format!("`{bad}` is not a valid program name"),
                    ));
                }
                spec.aliases = Some(names);
            }
            "facts" => spec.facts = Some(facts(value, &[k])?),
            "options" => spec.options = Some(options(value)?),
            "flags" => {
                let flags = strings(value, k)?;
                for f in &flags {
                    option_names(f, &[k])?;
                }
                spec.flags = Some(flags);
            }
            "operands" => spec.operands = Some(roles(value, &[k])?),
            "last" => match value.as_str() {
                Some(r) => spec.last = Some(checked_role(r, &[k])?),
                None => return Err(SchemaError::at(&[k], "`last` is one role")),
            },
            "modes" => spec.modes = Some(modes(value)?),
            "assignments" => spec.assignments = Some(boolean(value, k)?),
            "clustering" => spec.clustering = Some(boolean(value, k)?),
            "options_after_operands" => spec.options_after_operands = Some(boolean(value, k)?),
            "global_options" => spec.global_options = Some(boolean(value, k)?),
            "interpreter" => match value.as_str() {
                Some(s) if !s.is_empty() => spec.interpreter = Some(s.to_string()),
                _ => return Err(SchemaError::at(&[k], "`interpreter` names a language")),
            },
            "runs_files" => spec.runs_files = Some(runs_files(value, k)?),
            "config_keys" => spec.config_keys = Some(config_keys(value)?),
            "env_keys" => spec.env_keys = Some(env_keys(value)?),
            "flag_facts" => spec.flag_facts = Some(flag_facts(value)?),
            "effects" => spec.effects = Some(effects(value)?),
            "key_facts" => spec.key_facts = Some(key_facts(value)?),
            "config_files" => {
                let files = strings(value, k)?;
                if let Some(bad) = files
                    .iter()
                    .find(|f| f.is_empty() || f.contains('/') || f.chars().any(char::is_whitespace))
                {
                    return Err(SchemaError::at(
                        &[k],
                        format!("`{bad}` is not a file name (no folder)"),
                    ));
                }
                spec.config_files = Some(files);
            }
            "subcommands" => {
                let Some(subs) = value.as_table() else {
                    return Err(SchemaError::at(&[k], "`subcommands` is a table of entries"));
                };
                for (name, sub) in subs {
                    let Some(sub_table) = sub.as_table() else {
                        return Err(SchemaError::at(&[k, name], "a subcommand is a table"));
                    };
                    let parsed = parse_entry(sub_table, &[]).map_err(|mut e| {
                        e.key.insert(0, name.clone());
                        e.key.insert(0, k.to_string());
                        e
                    })?;
                    spec.subcommands.push((name.clone(), parsed));
                }
            }
            "in_place" => {
                let flags = strings(value, k)?;
                for f in &flags {
                    option_names(f, &[k])?;
                }
                spec.in_place = Some(flags);
            }
            "mode_options" => spec.mode_options = Some(mode_options(value)?),
            "old_style_flags" => spec.old_style_flags = Some(boolean(value, k)?),
            "embedded_commands" => {
                let Some(table) = value.as_table() else {
                    return Err(SchemaError::at(
                        &[k],
                        "`embedded_commands` is a table of `\"-exec|-ok\" = [\";\", \"+\"]`",
                    ));
                };
                let mut list = Vec::new();
                for (spelled, ends) in table {
                    let key = [k, spelled.as_str()];
                    let names = option_names(spelled, &key)?;
                    let ends = strings(ends, k)?;
                    if ends.is_empty() || ends.iter().any(String::is_empty) {
                        return Err(SchemaError::at(&key, "name the words that end the command"));
                    }
                    list.push((names, ends));
                }
                spec.embedded_commands = Some(list);
            }
            "name_prefixes" => {
                let prefixes = strings(value, k)?;
                if let Some(bad) = prefixes.iter().find(|n| !valid_name(n)) {
                    return Err(SchemaError::at(
                        &[k],
                        format!("`{bad}` is not a valid name prefix"),
                    ));
                }
                spec.name_prefixes = Some(prefixes);
            }
            _ if extra_keys.contains(&k) => {}
            _ => {
                return Err(SchemaError::at(
                    &[k],
                    format!("unknown key `{k}` (known: {})", ENTRY_KEYS.join(", ")),
                ));
            }
        }
    }
    Ok(spec)
}

fn names_of(list: &[(&str, &str)]) -> String {
    list.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

fn strings(value: &toml::Value, key: &str) -> Result<Vec<String>, SchemaError> {
    let error = || SchemaError::at(&[key], format!("`{key}` is a list of strings"));
    let items = value.as_array().ok_or_else(error)?;
    items
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(error))
        .collect()
}

/// A runner's files: names, or a path's last components (`Makefile`,
/// `test_*.py`, `.github/workflows/*.yml`), matched component by component with at
/// most one `*` each. Anything the matcher would take literally and never match
/// (a second `*`, another pattern character, an empty, `.` or `..` component) is
/// an error, never a pattern silently dropped.
fn runs_files(value: &toml::Value, key: &str) -> Result<Vec<String>, SchemaError> {
    let names = strings(value, key)?;
    let bad = |name: &str| {
        name.split('/').any(|part| {
            part.is_empty()
                || part == "."
                || part == ".."
                || part.matches('*').count() > 1
                || part.contains(['?', '[', ']', '{', '}', '|', '!', '\\'])
        })
    };
    match names.iter().find(|n| bad(n)) {
        Some(name) => Err(SchemaError::at(
            &[key],
            format!(
                "`{name}`: a file name or a path's last components (`Makefile`, `test_*.py`, \
                 `.github/workflows/*.yml`), one name per string, at most one `*` per \
                 component and no other pattern character"
            ),
        )),
        None => Ok(names),
    }
}

fn boolean(value: &toml::Value, key: &str) -> Result<bool, SchemaError> {
    value
        .as_bool()
        .ok_or_else(|| SchemaError::at(&[key], format!("`{key}` is true or false")))
}

fn checked_role(text: &str, key: &[&str]) -> Result<String, SchemaError> {
    if valid_role(text) {
        return Ok(text.to_string());
    }
    let message = if text.starts_with("code:") {
        format!("`{text}`: a code role names its language (`code:python`)")
    } else if text.starts_with("options:") {
        format!("`{text}`: an options role names the entry that reads them (`options:ld`)")
    } else {
        format!(
            "unknown role `{text}` (known: {}, code:LANGUAGE, options:NAME)",
            names_of(ROLES)
        )
    };
    Err(SchemaError::at(key, message))
}

fn roles(value: &toml::Value, key: &[&str]) -> Result<Vec<String>, SchemaError> {
    let error = || SchemaError::at(key, "a list of roles");
    let items = value.as_array().ok_or_else(error)?;
    items
        .iter()
        .map(|v| {
            v.as_str()
                .ok_or_else(error)
                .and_then(|r| checked_role(r, key))
        })
        .collect()
}

fn option_names(spelled: &str, key: &[&str]) -> Result<Vec<String>, SchemaError> {
    let names: Vec<String> = spelled.split('|').map(str::to_string).collect();
    for n in &names {
        // `+` alone names the editors' and pagers' `+CMD` (the value attached); `-`
        // alone a lone-dash flag (`env -` is `env -i`, `su -` is `su -l`). A
        // last `=` (`--inspect=`) takes a value only when attached.
        let bare = n.strip_suffix('=').unwrap_or(n);
        let ok = n == "+"
            || n == "-"
            || (bare.starts_with('-') || bare.starts_with('+'))
                && bare.len() > 1
                && !bare.contains('=');
        if !ok {
            return Err(SchemaError::at(
                key,
                format!("option `{n}` is spelled `-x`, `--long`, `-long` or `--long=`"),
            ));
        }
    }
    Ok(names)
}

fn mode_options(value: &toml::Value) -> Result<Vec<ModeOptionsText>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["mode_options"],
            "`mode_options` is a table of `\"-x|--extract\" = { \"-C\" = \"ROLE\" }`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, list) in table {
        let key = ["mode_options", spelled.as_str()];
        let names = option_names(spelled, &key)?;
        let parsed = options(list).map_err(|mut e| {
            // `options."-f"` inside the mode reads `mode_options."-c"."-f"`.
            if let Some(first) = e.key.first_mut() {
                *first = spelled.clone();
            }
            e.key.insert(0, "mode_options".to_string());
            e
        })?;
        out.push((names, parsed));
    }
    Ok(out)
}

fn options(value: &toml::Value) -> Result<Vec<OptionSpecText>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["options"],
            "`options` is a table of `\"-o|--output\" = \"ROLE\"`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, r) in table {
        let key = ["options", spelled.as_str()];
        let names = option_names(spelled, &key)?;
        // One role, or one role per value word (`"--bind" = ["path-read", "path-write"]`).
        let roles = match r {
            toml::Value::String(s) => vec![checked_role(s, &key)?],
            toml::Value::Array(_) => roles(r, &key)?,
            _ => {
                return Err(SchemaError::at(
                    &key,
                    "an option's role is a string, or a list of roles for an option with several values",
                ));
            }
        };
        if roles.is_empty() {
            return Err(SchemaError::at(
                &key,
                "an option that takes values names at least one role",
            ));
        }
        out.push(OptionSpecText { names, roles });
    }
    Ok(out)
}

fn modes(value: &toml::Value) -> Result<Vec<ModeText>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["modes"],
            "`modes` is a table of `\"-x|--exec\" = [ROLES]`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, list) in table {
        let key = ["modes", spelled.as_str()];
        let names = option_names(spelled, &key)?;
        out.push((names, roles(list, &key)?));
    }
    Ok(out)
}

fn config_keys(value: &toml::Value) -> Result<Vec<(String, String)>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["config_keys"],
            "`config_keys` is a table of `\"core.pager\" = \"ROLE\"`",
        ));
    };
    let mut out = Vec::new();
    for (name, r) in table {
        let key = ["config_keys", name.as_str()];
        if name.is_empty() || name.chars().any(char::is_whitespace) {
            return Err(SchemaError::at(
                &key,
                format!("config key `{name}` is not a key"),
            ));
        }
        let Some(r) = r.as_str() else {
            return Err(SchemaError::at(&key, "a settings key's role is a string"));
        };
        out.push((name.to_ascii_lowercase(), checked_role(r, &key)?));
    }
    Ok(out)
}

fn env_keys(value: &toml::Value) -> Result<Vec<(String, String)>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["env_keys"],
            "`env_keys` is a table of `\"CC|CXX\" = \"ROLE\"`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, r) in table {
        let key = ["env_keys", spelled.as_str()];
        let Some(r) = r.as_str() else {
            return Err(SchemaError::at(&key, "a variable's role is a string"));
        };
        let role = checked_role(r, &key)?;
        for name in spelled.split('|') {
            if name.is_empty()
                || name.starts_with(|c: char| c.is_ascii_digit())
                || name.matches('*').count() > 1
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '*')
            {
                return Err(SchemaError::at(
                    &key,
                    format!("`{name}` is not a variable name"),
                ));
            }
            out.push((name.to_string(), role.clone()));
        }
    }
    Ok(out)
}

fn facts(value: &toml::Value, key: &[&str]) -> Result<Vec<String>, SchemaError> {
    let error = || SchemaError::at(key, "a list of facts");
    let items = value.as_array().ok_or_else(error)?;
    let facts: Vec<String> = items
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(error))
        .collect::<Result<_, _>>()?;
    if let Some(bad) = facts.iter().find(|f| !FACTS.iter().any(|(n, _)| n == f)) {
        return Err(SchemaError::at(
            key,
            format!("unknown fact `{bad}` (known: {})", names_of(FACTS)),
        ));
    }
    Ok(facts)
}

/// The flags of a `flag_facts` key, each alternative checked: an option
/// (`-r`, `--remove`), an option with the one value it counts with
/// (`--network=host`), or a letter without a dash, a BSD-style flag that counts in
/// a word of letters without a dash (`ps e` in `ps auxe`).
fn flag_names(spelled: &str, key: &[&str]) -> Result<Vec<String>, SchemaError> {
    spelled
        .split('|')
        .map(|n| {
            if n.len() == 1 && n.chars().all(|c| c.is_ascii_alphabetic()) {
                return Ok(n.to_string());
            }
            let name = match n.split_once('=') {
                Some((name, value)) if !value.is_empty() => name,
                _ => n,
            };
            option_names(name, key).map(|_| n.to_string())
        })
        .collect()
}

fn flag_facts(value: &toml::Value) -> Result<Vec<FlagFactsText>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["flag_facts"],
            "`flag_facts` is a table of `\"-r|--remove\" = [FACTS]`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, list) in table {
        let key = ["flag_facts", spelled.as_str()];
        let names = flag_names(spelled, &key)?;
        out.push((names, facts(list, &key)?));
    }
    Ok(out)
}

fn key_facts(value: &toml::Value) -> Result<Vec<FlagFactsText>, SchemaError> {
    let Some(table) = value.as_table() else {
        return Err(SchemaError::at(
            &["key_facts"],
            "`key_facts` is a table of `\"registry|*:registry\" = [FACTS]`",
        ));
    };
    let mut out = Vec::new();
    for (spelled, list) in table {
        let key = ["key_facts", spelled.as_str()];
        let names: Vec<String> = spelled.split('|').map(str::to_ascii_lowercase).collect();
        if names
            .iter()
            .any(|n| n.is_empty() || n.chars().any(char::is_whitespace))
        {
            return Err(SchemaError::at(
                &key,
                format!("`{spelled}` is not a list of settings keys"),
            ));
        }
        out.push((names, facts(list, &key)?));
    }
    Ok(out)
}

// ---- Effects: operations that act remotely or cannot be undone ----

/// Keys of one item of an entry's `effects` list.
pub const EFFECT_KEYS: &[&str] = &[
    "words",
    "flags",
    "also",
    "unless",
    "operands",
    "test",
    "dynamic_asks",
    "what",
    "suggestion",
];

/// Conditions that are real code rather than option words, by the name an
/// effect's `test` gives (the remote-effect rule holds one function per name).
pub const EFFECT_TESTS: &[&str] = &[
    "http-method-changes",
    "refspec-rewrites",
    "pathspec-given",
    "names-delete",
    "names-publish",
    "sql-destroys",
    "setuid-mode",
];

/// One effect as read from an entry: when it applies (every condition given
/// must hold) and what the finding says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EffectText {
    /// Positional words after the entry's own name, each `a|b` alternatives, `*`
    /// any one word, `x-*` a prefix.
    pub words: Vec<String>,
    /// Any one of these flags is given.
    pub flags: Vec<String>,
    /// And any one of these too.
    pub also: Vec<String>,
    /// None of these is given.
    pub unless: Vec<String>,
    /// At least one operand follows the words.
    pub operands: bool,
    /// A named condition ([`EFFECT_TESTS`]).
    pub test: Option<String>,
    /// A word only known at run time may be one of `flags`: ask.
    pub dynamic_asks: bool,
    /// What happens, for the finding.
    pub what: String,
    /// A safer alternative.
    pub suggestion: String,
}

fn effects(value: &toml::Value) -> Result<Vec<EffectText>, SchemaError> {
    let error = || {
        SchemaError::at(
            &["effects"],
            "`effects` is a list of tables `{ words = [...], flags = [...], what = \"...\", suggestion = \"...\" }`",
        )
    };
    let items = value.as_array().ok_or_else(error)?;
    let mut out = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let index = n.to_string();
        let table = item.as_table().ok_or_else(error)?;
        out.push(effect(table, &index)?);
    }
    Ok(out)
}

fn effect(table: &toml::Table, index: &str) -> Result<EffectText, SchemaError> {
    let mut e = EffectText::default();
    for (key, value) in table {
        let k = key.as_str();
        let at = ["effects", index, k];
        let text = |v: &toml::Value| -> Result<String, SchemaError> {
            match v.as_str() {
                Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
                _ => Err(SchemaError::at(&at, format!("`{k}` is one non-empty line"))),
            }
        };
        let list = |v: &toml::Value| -> Result<Vec<String>, SchemaError> {
            let bad = || SchemaError::at(&at, format!("`{k}` is a list of strings"));
            v.as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(bad))
                .collect()
        };
        let flags = |v: &toml::Value| -> Result<Vec<String>, SchemaError> {
            let mut names = Vec::new();
            for spelled in list(v)? {
                names.extend(option_names(&spelled, &at)?);
            }
            Ok(names)
        };
        match k {
            "words" => {
                let words = list(value)?;
                if let Some(bad) = words.iter().find(|w| {
                    w.is_empty() || w.split('|').any(|a| a.is_empty() || a.starts_with('-'))
                }) {
                    return Err(SchemaError::at(
                        &at,
                        format!("`{bad}` is not a word: `name`, `a|b`, `*` or `prefix-*`"),
                    ));
                }
                e.words = words;
            }
            "flags" => e.flags = flags(value)?,
            "also" => e.also = flags(value)?,
            "unless" => e.unless = flags(value)?,
            "operands" | "dynamic_asks" => {
                let b = value
                    .as_bool()
                    .ok_or_else(|| SchemaError::at(&at, format!("`{k}` is true or false")))?;
                if k == "operands" {
                    e.operands = b;
                } else {
                    e.dynamic_asks = b;
                }
            }
            "test" => {
                let name = text(value)?;
                if !EFFECT_TESTS.contains(&name.as_str()) {
                    return Err(SchemaError::at(
                        &at,
                        format!("unknown test `{name}` (known: {})", EFFECT_TESTS.join(", ")),
                    ));
                }
                e.test = Some(name);
            }
            "what" => e.what = text(value)?,
            "suggestion" => e.suggestion = text(value)?,
            _ => {
                return Err(SchemaError::at(
                    &at,
                    format!("unknown key `{k}` (known: {})", EFFECT_KEYS.join(", ")),
                ));
            }
        }
    }
    for (key, given) in [("what", &e.what), ("suggestion", &e.suggestion)] {
        if given.is_empty() {
            return Err(SchemaError::at(
                &["effects", index],
                format!("an effect needs `{key}`"),
            ));
        }
    }
    if e.dynamic_asks && e.flags.is_empty() {
        return Err(SchemaError::at(
            &["effects", index, "dynamic_asks"],
            "`dynamic_asks` says a dynamic word may be one of `flags`: give `flags`",
        ));
    }
    Ok(e)
}
