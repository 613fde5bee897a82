//! Compiles the program catalogue (`catalogue/*.toml`) into static Rust tables.
//!
//! Why a build script and not a checked-in generated file: the TOML files stay the
//! one source of truth (no second copy to keep in sync, no stale-file test), and a
//! malformed entry stops the build with the file and the entry named. The tables it
//! writes are plain `static` arrays plus a name index sorted by lowercase name and
//! an open-addressing hash table over it, so a lookup is one hash and a probe: no
//! allocation, no table built, no parsing at run time.
//!
//! The schema is documented in `catalogue/README.md`; every key and role is checked
//! by `src/catalogue/schema.rs` (included here, and used at run time for the user's
//! `[programs.NAME]` entries), so a typo is a build error rather than a silently
//! ignored fact.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/catalogue/schema.rs"]
mod schema;

#[path = "src/catalogue/name_hash.rs"]
mod name_hash;

use schema::{FACTS, ROLES, Spec};

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
    let mut prefixes: Vec<(String, usize)> = Vec::new();
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
            let spec = schema::parse_entry(entry, &[]).unwrap_or_else(|e| {
                let at = if e.key.is_empty() {
                    String::new()
                } else {
                    format!("at `{}`: ", e.key.join("."))
                };
                ctx.fail(format!("{at}{}", e.message))
            });
            let (code, _) = entry_code(&ctx, name, &family, &spec);
            let id = entries.len();
            entries.push(code);
            for prefix in spec.name_prefixes.iter().flatten() {
                prefixes.push((prefix.to_ascii_lowercase(), id));
            }
            let mut names = vec![name.clone()];
            names.extend(spec.aliases.clone().unwrap_or_default());
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
    out.push_str("];\n\n");
    out.push_str(
        "/// Name prefixes (lowercase) with the index of their entry: `mkfs.` finds every\n",
    );
    out.push_str("/// `mkfs.TYPE`.\n");
    out.push_str("pub static PREFIXES: &[(&str, u16)] = &[\n");
    for (prefix, id) in &prefixes {
        let _ = writeln!(out, "    ({prefix:?}, {id}),");
    }
    out.push_str("];\n");
    name_slots(&mut out, index.keys());
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalogue.rs");
    std::fs::write(&dest, out).expect("write the generated catalogue");
}

/// The name index as an open-addressing hash table built at compile time (see
/// `src/catalogue/name_hash.rs`): slot `i` holds 1 + the position in `INDEX` of
/// the name placed there, 0 when empty; a name is probed for from its first slot
/// onwards until found or an empty slot.
fn name_slots<'k>(out: &mut String, keys: impl ExactSizeIterator<Item = &'k String>) {
    let size = 1usize << name_hash::SLOT_BITS;
    assert!(
        keys.len() * 4 <= size,
        "the name table needs more SLOT_BITS"
    );
    let mut slots = vec![0u16; size];
    for (position, key) in keys.enumerate() {
        let mut at = name_hash::first_slot(key.as_bytes());
        while slots[at] != 0 {
            at = (at + 1) % size;
        }
        slots[at] = u16::try_from(position + 1).expect("fewer than 65,535 names");
    }
    out.push_str("/// The name index's hash table (built by `build.rs`, read by `name_index`).\n");
    let _ = writeln!(out, "pub static NAME_SLOTS: [u16; {size}] = {slots:?};");
}

fn check_name(ctx: &Ctx, name: &str) {
    if !schema::valid_name(name) {
        ctx.fail(format!("`{name}` is not a valid program name"));
    }
}

/// The generated expression for a checked role, and its bit in the entry's role
/// mask (bit = position in ROLES; `code:*` the bit after, `options:*` the next).
fn role(text: &str, mask: &mut u64) -> String {
    if let Some(lang) = text.strip_prefix("code:") {
        *mask |= 1 << ROLES.len();
        return format!("Role::Code({lang:?})");
    }
    if let Some(reader) = text.strip_prefix("options:") {
        *mask |= 1 << (ROLES.len() + 1);
        return format!("Role::OptionsOf({reader:?})");
    }
    let bit = ROLES
        .iter()
        .position(|(n, _)| *n == text)
        .expect("the schema checked the role");
    *mask |= 1 << bit;
    format!("Role::{}", ROLES[bit].1)
}

fn roles(list: &[String], mask: &mut u64) -> String {
    let parts: Vec<String> = list.iter().map(|r| role(r, mask)).collect();
    format!("&[{}]", parts.join(", "))
}

/// The generated expression for a checked list of facts.
fn fact_list(facts: &[String]) -> String {
    let parts: Vec<String> = facts
        .iter()
        .map(|f| {
            let (_, variant) = FACTS
                .iter()
                .find(|(n, _)| n == f)
                .expect("the schema checked the fact");
            format!("Fact::{variant}")
        })
        .collect();
    format!("&[{}]", parts.join(", "))
}

/// The bits of the facts the entry's flags (and its subcommands' flags) add: the
/// position in FACTS, the order of `Fact::ALL`.
fn flag_fact_mask(spec: &Spec) -> u64 {
    let own = spec
        .flag_facts
        .iter()
        .flatten()
        .flat_map(|(_, facts)| facts)
        .filter_map(|f| FACTS.iter().position(|(n, _)| n == f))
        .fold(0u64, |m, bit| m | 1 << bit);
    spec.subcommands
        .iter()
        .fold(own, |m, (_, sub)| m | flag_fact_mask(sub))
}

/// The bits of the facts the entry and its subcommands have (their `facts` lists):
/// the position in FACTS, the order of `Fact::ALL`.
fn fact_mask(spec: &Spec) -> u64 {
    let own = spec
        .facts
        .iter()
        .flatten()
        .filter_map(|f| FACTS.iter().position(|(n, _)| n == f))
        .fold(0u64, |m, bit| m | 1 << bit);
    spec.subcommands
        .iter()
        .fold(own, |m, (_, sub)| m | fact_mask(sub))
}

/// The roles whose option value names a path written or mounted
/// (`Role::writes_or_mounts`).
const WRITES_OR_MOUNTS: [&str; 4] = ["path-write", "path-delete", "path-write-or-pipe", "mount"];

/// The spellings of the options of the entry, its mode options and its
/// subcommands whose value is written or mounted, sorted, once each.
fn write_options(spec: &Spec) -> Vec<String> {
    let mut names: Vec<String> = spec
        .options
        .iter()
        .flatten()
        .chain(
            spec.mode_options
                .iter()
                .flatten()
                .flat_map(|(_, opts)| opts),
        )
        .filter(|o| {
            o.roles
                .iter()
                .any(|r| WRITES_OR_MOUNTS.contains(&r.as_str()))
        })
        .flat_map(|o| o.names.iter().cloned())
        .chain(
            spec.subcommands
                .iter()
                .flat_map(|(_, sub)| write_options(sub)),
        )
        .collect();
    names.sort();
    names.dedup();
    names
}

/// True when the entry or one of its subcommands lists an effect.
fn effects_below(spec: &Spec) -> bool {
    spec.effects.as_ref().is_some_and(|e| !e.is_empty())
        || spec.subcommands.iter().any(|(_, sub)| effects_below(sub))
}

/// The roles an entry and its subcommands use: every place (`all`), and the words of
/// a command only (`words`: options, operands, modes; not settings keys).
#[derive(Clone, Copy, Default)]
struct Masks {
    all: u64,
    words: u64,
}

/// An entry's generated expression and the roles it and its subcommands use.
fn entry_code(ctx: &Ctx, name: &str, family: &str, spec: &Spec) -> (String, Masks) {
    // Roles in the command's words (`mask`), and every role, settings keys included
    // (`all_mask`, which takes the words' roles at the end).
    let mut mask = 0u64;
    let mut all_mask = 0u64;
    let Some(summary) = &spec.summary else {
        ctx.fail("`summary` (one line saying what the program does) is required")
    };
    let aliases = spec.aliases.clone().unwrap_or_default();
    let flags = spec.flags.clone().unwrap_or_default();
    // Checked by the schema (`runs_files`): names the matcher can match.
    let runs_files = spec.runs_files.clone().unwrap_or_default();
    let mut subs = Vec::new();
    for (sub, sub_spec) in &spec.subcommands {
        let sub_ctx = Ctx {
            file: ctx.file,
            entry: format!("{} {}", ctx.entry, sub),
        };
        let (code, sub_masks) = entry_code(&sub_ctx, sub, family, sub_spec);
        mask |= sub_masks.words;
        all_mask |= sub_masks.all;
        subs.push(code);
    }
    let subcommands = format!("&[{}]", subs.join(", "));
    let facts = fact_list(spec.facts.as_deref().unwrap_or_default());
    let options: Vec<String> = spec
        .options
        .iter()
        .flatten()
        .map(|o| {
            let first = role(&o.roles[0], &mut mask);
            let more = roles(&o.roles[1..], &mut mask);
            format!(
                "OptionSpec {{ names: &{:?}, role: {first}, more: {more} }}",
                o.names
            )
        })
        .collect();
    let options = format!("&[{}]", options.join(", "));
    let operands = roles(spec.operands.as_deref().unwrap_or_default(), &mut mask);
    let last = match &spec.last {
        Some(r) => format!("Some({})", role(r, &mut mask)),
        None => "None".into(),
    };
    let modes: Vec<String> = spec
        .modes
        .iter()
        .flatten()
        .map(|(names, rs)| {
            format!(
                "ModeSpec {{ flags: &{names:?}, operands: {} }}",
                roles(rs, &mut mask)
            )
        })
        .collect();
    let modes = format!("&[{}]", modes.join(", "));
    let config_keys: Vec<String> = spec
        .config_keys
        .iter()
        .flatten()
        .map(|(key, r)| {
            // Keys are matched one pattern each, in lower case: a `|` or a capital
            // would make a key that never matches.
            if key.contains('|') || key.chars().any(|c| c.is_ascii_uppercase()) {
                ctx.fail(format!(
                    "config key `{key}`: one key per line, in lower case (no `|`)"
                ));
            }
            format!("({key:?}, {})", role(r, &mut all_mask))
        })
        .collect();
    let config_keys = format!("&[{}]", config_keys.join(", "));
    let env_keys: Vec<String> = spec
        .env_keys
        .iter()
        .flatten()
        .map(|(key, r)| format!("({key:?}, {})", role(r, &mut all_mask)))
        .collect();
    let env_keys = format!("&[{}]", env_keys.join(", "));
    let flag_facts: Vec<String> = spec
        .flag_facts
        .iter()
        .flatten()
        .map(|(flags, facts)| {
            format!(
                "FlagFacts {{ flags: &{flags:?}, facts: {} }}",
                fact_list(facts)
            )
        })
        .collect();
    let flag_facts = format!("&[{}]", flag_facts.join(", "));
    let in_place = spec.in_place.clone().unwrap_or_default();
    if !in_place.is_empty() {
        // Its operands read are written while an in-place flag is given.
        role("path-write", &mut mask);
    }
    let in_place: Vec<&str> = in_place.iter().flat_map(|f| f.split('|')).collect();
    let mode_options: Vec<String> = spec
        .mode_options
        .iter()
        .flatten()
        .map(|(flags, opts)| {
            let opts: Vec<String> = opts
                .iter()
                .map(|o| {
                    let first = role(&o.roles[0], &mut mask);
                    let more = roles(&o.roles[1..], &mut mask);
                    format!(
                        "OptionSpec {{ names: &{:?}, role: {first}, more: {more} }}",
                        o.names
                    )
                })
                .collect();
            format!(
                "ModeOptions {{ flags: &{flags:?}, options: &[{}] }}",
                opts.join(", ")
            )
        })
        .collect();
    let mode_options = format!("&[{}]", mode_options.join(", "));
    let embedded: Vec<String> = spec
        .embedded_commands
        .iter()
        .flatten()
        .map(|(flags, ends)| format!("EmbeddedCommand {{ flags: &{flags:?}, ends: &{ends:?} }}"))
        .collect();
    let embedded = format!("&[{}]", embedded.join(", "));
    let effects = effects_code(spec);
    let key_facts: Vec<String> = spec
        .key_facts
        .iter()
        .flatten()
        .map(|(keys, facts)| {
            format!(
                "FlagFacts {{ flags: &{keys:?}, facts: {} }}",
                fact_list(facts)
            )
        })
        .collect();
    let key_facts = format!("&[{}]", key_facts.join(", "));
    let config_files = spec.config_files.clone().unwrap_or_default();
    let interpreter = match &spec.interpreter {
        Some(s) => format!("Some({s:?})"),
        None => "None".into(),
    };
    let masks = Masks {
        all: mask | all_mask,
        words: mask,
    };
    let code = format!(
        "Entry {{ name: {name:?}, family: {family:?}, summary: {summary:?}, aliases: &{aliases:?}, \
         facts: {facts}, options: {options}, flags: &{flags:?}, operands: {operands}, last: {last}, \
         modes: {modes}, assignments: {assignments}, clustering: {clustering}, \
         options_after_operands: {after}, global_options: {global}, interpreter: {interpreter}, runs_files: &{runs_files:?}, \
         config_keys: {config_keys}, env_keys: {env_keys}, flag_facts: {flag_facts}, flag_fact_mask: {flag_mask}, subcommands: {subcommands}, role_mask: {all}, \
         word_role_mask: {words}, fact_mask: {facts_mask}, write_options: &{write_options:?}, \
         in_place: &{in_place:?}, mode_options: {mode_options}, old_style_flags: {old_style}, \
         embedded_commands: {embedded}, effects: {effects}, effects_below: {effects_below}, key_facts: {key_facts}, \
         config_files: &{config_files:?} }}",
        assignments = spec.assignments.unwrap_or(false),
        clustering = spec.clustering.unwrap_or(true),
        after = spec.options_after_operands.unwrap_or(true),
        effects_below = effects_below(spec),
        global = spec.global_options.unwrap_or(false),
        flag_mask = flag_fact_mask(spec),
        all = masks.all,
        words = masks.words,
        facts_mask = fact_mask(spec),
        write_options = write_options(spec),
        old_style = spec.old_style_flags.unwrap_or(false),
    );
    (code, masks)
}

/// The generated expression for an entry's effects.
fn effects_code(spec: &Spec) -> String {
    let items: Vec<String> = spec
        .effects
        .iter()
        .flatten()
        .map(|e| {
            let test = match &e.test {
                Some(t) => format!("Some({t:?})"),
                None => "None".into(),
            };
            format!(
                "EffectSpec {{ words: &{:?}, flags: &{:?}, also: &{:?}, unless: &{:?}, operands: {}, \
                 test: {test}, dynamic_asks: {}, what: {:?}, suggestion: {:?} }}",
                e.words, e.flags, e.also, e.unless, e.operands, e.dynamic_asks, e.what, e.suggestion
            )
        })
        .collect();
    format!("&[{}]", items.join(", "))
}
