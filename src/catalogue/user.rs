//! The user's own entries: `[programs.NAME]` tables in `bashgate.toml`, with the
//! same schema as `catalogue/*.toml`, extending the catalogue with new programs or
//! overriding what it says about known ones.
//!
//! A [`Catalogue`] is the effective catalogue of a policy: the user's entries
//! first, the built-in tables otherwise. While a gate judges a command it makes its
//! policy's catalogue the active one on the judging thread ([`Catalogue::enter`]),
//! so every lookup in the model and the rules ([`super::lookup`]) sees the user's
//! entries without each call site having to carry them, and no call site can
//! forget to. A policy with no user entries costs one relaxed atomic load per
//! lookup.
//!
//! How an entry combines with the built-in one it names: every key the user gives
//! replaces that key of the built-in entry; keys not given keep the built-in
//! value; subcommands combine by name in the same way. `[programs.python3]` names
//! the entry `python3` finds (`python`), so it applies under every alias. A
//! program the catalogue does not know needs a `summary`.
//!
//! User entries live as long as the program: a config is loaded a handful of times
//! per process, and each distinct entry is kept once however often it is loaded.

use super::schema::{OptionSpecText, SchemaError, Spec};
use super::{
    EffectSpec, EmbeddedCommand, Entry, Fact, FlagFacts, ModeOptions, ModeSpec, OptionSpec, Role,
};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// One name of the user's table: the lowercase name, its entry, and the config
/// file it comes from.
#[derive(Debug, Clone, Copy)]
struct Named {
    name: &'static str,
    entry: &'static Entry,
    source: &'static str,
}

/// The effective catalogue: the user's `[programs.NAME]` entries over the
/// built-in tables. Cheap to copy; the default has no user entries.
#[derive(Clone, Copy, Default)]
pub struct Catalogue {
    user: Option<&'static [Named]>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .user
            .unwrap_or_default()
            .iter()
            .map(|n| n.name)
            .collect();
        f.debug_struct("Catalogue")
            .field("user_entries", &names)
            .finish()
    }
}

/// Set once any policy has user entries: until then no lookup reads the
/// thread-local active catalogue.
static ANY_USER_ENTRIES: AtomicBool = AtomicBool::new(false);

thread_local! {
    static ACTIVE: Cell<Option<&'static [Named]>> = const { Cell::new(None) };
}

/// While alive, the catalogue it was made from is the active one on this thread;
/// dropping it restores the one before.
#[must_use = "the catalogue is active only while the scope lives"]
pub struct Scope {
    previous: Option<&'static [Named]>,
    // Not Send: the scope belongs to the thread it was entered on.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.previous;
        ACTIVE.with(|a| a.set(previous));
    }
}

/// Which user catalogue is active on this thread, as a number that differs between
/// catalogues (0 for none): what a remembered lookup depends on.
#[inline]
pub(super) fn active_table() -> usize {
    if !ANY_USER_ENTRIES.load(Ordering::Relaxed) {
        return 0;
    }
    // Tables live for the whole process: an address is never reused by another.
    ACTIVE.with(Cell::get).map_or(0, |t| t.as_ptr() as usize)
}

/// The user's entry for `key` (a basename) in the active catalogue, if any.
pub(super) fn active_lookup(key: &str) -> Option<&'static Entry> {
    if !ANY_USER_ENTRIES.load(Ordering::Relaxed) {
        return None;
    }
    ACTIVE.with(Cell::get).and_then(|table| find(table, key))
}

fn find(table: &'static [Named], key: &str) -> Option<&'static Entry> {
    table
        .iter()
        .find(|n| n.name.eq_ignore_ascii_case(key))
        .map(|n| n.entry)
}

impl Catalogue {
    /// True when the user gave no entries.
    pub fn is_builtin(&self) -> bool {
        self.user.is_none()
    }

    /// Makes this the catalogue every lookup on this thread sees until the
    /// returned scope is dropped.
    pub fn enter(&self) -> Scope {
        let previous = ACTIVE.with(|a| a.replace(self.user));
        Scope {
            previous,
            _thread: std::marker::PhantomData,
        }
    }

    /// The effective entry for a program name: the user's, else the built-in one
    /// (by basename, any case, `.exe` stripped, as [`super::lookup`]).
    pub fn lookup(&self, name: &str) -> Option<&'static Entry> {
        let key = super::program_basename(name);
        self.user
            .and_then(|table| find(table, key))
            .or_else(|| super::builtin_lookup(key))
    }

    /// The config file a user entry for `name` comes from; `None` for a built-in
    /// entry or an unknown name.
    pub fn source(&self, name: &str) -> Option<&'static str> {
        let key = super::program_basename(name);
        self.user?
            .iter()
            .find(|n| n.name.eq_ignore_ascii_case(key))
            .map(|n| n.source)
    }

    /// The names of the user's entries (lowercase, aliases included), sorted.
    pub fn user_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = self
            .user
            .unwrap_or_default()
            .iter()
            .map(|n| n.name)
            .collect();
        names.sort_unstable();
        names
    }

    /// This catalogue with the user's entry `name` (read from `source`) on top.
    /// An error names the key inside the entry that is wrong.
    pub fn with_entry(
        &self,
        name: &str,
        spec: &Spec,
        source: &str,
    ) -> Result<Catalogue, SchemaError> {
        if !super::schema::valid_name(name) {
            return Err(SchemaError {
                key: Vec::new(),
                message: format!("`{name}` is not a valid program name"),
            });
        }
        let base = self.lookup(name);
        let entry = intern_entry(name, base, spec)?;
        let source = leak_str(source);
        let mut names: Vec<String> = vec![entry.name.to_ascii_lowercase()];
        names.extend(entry.aliases.iter().map(|a| a.to_ascii_lowercase()));
        if let Some(base) = base {
            names.extend(base.aliases.iter().map(|a| a.to_ascii_lowercase()));
        }
        names.push(super::program_basename(name).to_ascii_lowercase());
        let mut table: Vec<Named> = self
            .user
            .unwrap_or_default()
            .iter()
            .filter(|n| !names.iter().any(|m| m == n.name))
            .copied()
            .collect();
        names.sort();
        names.dedup();
        for n in names {
            table.push(Named {
                name: leak_str(&n),
                entry,
                source,
            });
        }
        table.sort_by_key(|n| n.name);
        ANY_USER_ENTRIES.store(true, Ordering::Relaxed);
        Ok(Catalogue {
            user: Some(intern_table(table)),
        })
    }
}

/// Keeps each distinct built entry once for the life of the program.
fn intern_entry(
    name: &str,
    base: Option<&'static Entry>,
    spec: &Spec,
) -> Result<&'static Entry, SchemaError> {
    static ENTRIES: Mutex<Option<HashMap<String, &'static Entry>>> = Mutex::new(None);
    let key = format!(
        "{name}\u{0}{:?}\u{0}{spec:?}",
        base.map(|b| b as *const Entry)
    );
    let mut guard = ENTRIES.lock().unwrap_or_else(|p| p.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    if let Some(entry) = map.get(&key) {
        return Ok(entry);
    }
    let canonical = base.map_or(name, |b| b.name);
    let entry: &'static Entry = Box::leak(Box::new(merge(canonical, base, spec)?));
    map.insert(key, entry);
    Ok(entry)
}

/// Keeps each distinct table once. Its entries and strings are interned already,
/// so their addresses identify it.
fn intern_table(table: Vec<Named>) -> &'static [Named] {
    type Key = Vec<(usize, usize, usize)>;
    static TABLES: Mutex<Option<HashMap<Key, &'static [Named]>>> = Mutex::new(None);
    let key: Key = table
        .iter()
        .map(|n| {
            (
                n.name.as_ptr() as usize,
                n.entry as *const Entry as usize,
                n.source.as_ptr() as usize,
            )
        })
        .collect();
    let mut guard = TABLES.lock().unwrap_or_else(|p| p.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    map.entry(key).or_insert_with(|| Vec::leak(table))
}

fn leak_str(text: &str) -> &'static str {
    static STRINGS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut strings = STRINGS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(found) = strings.iter().find(|s| **s == text) {
        return found;
    }
    let leaked: &'static str = String::leak(text.to_string());
    strings.push(leaked);
    leaked
}

/// Interns the language name of a code role.
pub(super) fn intern(text: &str) -> &'static str {
    leak_str(text)
}

fn leak_strs(list: &[String]) -> &'static [&'static str] {
    Vec::leak(list.iter().map(|s| leak_str(s)).collect())
}

fn parse_roles(list: &[String]) -> &'static [Role] {
    Vec::leak(list.iter().filter_map(|r| Role::parse(r)).collect())
}

fn options(list: &[OptionSpecText]) -> &'static [OptionSpec] {
    Vec::leak(
        list.iter()
            .filter_map(|o| {
                let role = Role::parse(o.roles.first()?)?;
                Some(OptionSpec {
                    names: leak_strs(&o.names),
                    role,
                    more: parse_roles(o.roles.get(1..).unwrap_or_default()),
                })
            })
            .collect(),
    )
}

/// The entry `spec` makes over `base` (keys given replace the base's).
fn merge(name: &str, base: Option<&'static Entry>, spec: &Spec) -> Result<Entry, SchemaError> {
    if spec.name_prefixes.is_some() {
        return Err(SchemaError {
            key: vec!["name_prefixes".into()],
            message: "`name_prefixes` is read only in the built-in catalogue; name each \
                      program of yours with an entry or an alias"
                .into(),
        });
    }
    let summary = match (&spec.summary, base) {
        (Some(s), _) => leak_str(s),
        (None, Some(b)) => b.summary,
        (None, None) => {
            return Err(SchemaError {
                key: vec!["summary".into()],
                message: format!(
                    "`{name}` is not in the catalogue: its entry needs a `summary` \
                     (one line saying what the program does)"
                ),
            });
        }
    };
    let mut subcommands: Vec<Entry> = Vec::new();
    for (sub_name, sub_spec) in &spec.subcommands {
        let sub_base = base.and_then(|b| b.subcommand(sub_name));
        let sub = merge(sub_name, sub_base, sub_spec).map_err(|mut e| {
            e.key.insert(0, sub_name.clone());
            e.key.insert(0, "subcommands".into());
            e
        })?;
        subcommands.push(sub);
    }
    for sub in base.map_or(&[][..], |b| b.subcommands) {
        if !spec.subcommands.iter().any(|(n, _)| n == sub.name) {
            subcommands.push(copy(sub));
        }
    }
    let mut entry = Entry {
        name: leak_str(name),
        family: base.map_or("config", |b| b.family),
        summary,
        aliases: match &spec.aliases {
            Some(a) => leak_strs(a),
            None => base.map_or(&[], |b| b.aliases),
        },
        facts: match &spec.facts {
            Some(f) => Vec::leak(f.iter().filter_map(|f| Fact::parse(f)).collect()),
            None => base.map_or(&[], |b| b.facts),
        },
        options: match &spec.options {
            Some(o) => options(o),
            None => base.map_or(&[], |b| b.options),
        },
        flags: match &spec.flags {
            Some(f) => leak_strs(f),
            None => base.map_or(&[], |b| b.flags),
        },
        operands: match &spec.operands {
            Some(o) => parse_roles(o),
            None => base.map_or(&[], |b| b.operands),
        },
        last: match &spec.last {
            Some(r) => Role::parse(r),
            None => base.and_then(|b| b.last),
        },
        modes: match &spec.modes {
            Some(m) => Vec::leak(
                m.iter()
                    .map(|(flags, roles)| ModeSpec {
                        flags: leak_strs(flags),
                        operands: parse_roles(roles),
                    })
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.modes),
        },
        assignments: spec
            .assignments
            .unwrap_or(base.is_some_and(|b| b.assignments)),
        clustering: spec.clustering.unwrap_or(base.is_none_or(|b| b.clustering)),
        options_after_operands: spec
            .options_after_operands
            .unwrap_or(base.is_none_or(|b| b.options_after_operands)),
        global_options: spec
            .global_options
            .unwrap_or(base.is_some_and(|b| b.global_options)),
        interpreter: match &spec.interpreter {
            Some(i) => Some(leak_str(i)),
            None => base.and_then(|b| b.interpreter),
        },
        runs_files: match &spec.runs_files {
            Some(r) => leak_strs(r),
            None => base.map_or(&[], |b| b.runs_files),
        },
        config_keys: match &spec.config_keys {
            Some(keys) => Vec::leak(
                keys.iter()
                    .filter_map(|(k, r)| Some((leak_str(k), Role::parse(r)?)))
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.config_keys),
        },
        env_keys: match &spec.env_keys {
            Some(keys) => Vec::leak(
                keys.iter()
                    .filter_map(|(k, r)| Some((leak_str(k), Role::parse(r)?)))
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.env_keys),
        },
        flag_facts: match &spec.flag_facts {
            Some(list) => Vec::leak(
                list.iter()
                    .map(|(flags, facts)| FlagFacts {
                        flags: leak_strs(flags),
                        facts: Vec::leak(facts.iter().filter_map(|f| Fact::parse(f)).collect()),
                    })
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.flag_facts),
        },
        subcommands: Vec::leak(subcommands),
        role_mask: 0,
        word_role_mask: 0,
        fact_mask: 0,
        write_options: &[],
        flag_fact_mask: 0,
        in_place: match &spec.in_place {
            Some(flags) => Vec::leak(
                flags
                    .iter()
                    .flat_map(|f| f.split('|'))
                    .map(leak_str)
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.in_place),
        },
        mode_options: match &spec.mode_options {
            Some(list) => Vec::leak(
                list.iter()
                    .map(|(flags, opts)| ModeOptions {
                        flags: leak_strs(flags),
                        options: options(opts),
                    })
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.mode_options),
        },
        old_style_flags: spec
            .old_style_flags
            .unwrap_or(base.is_some_and(|b| b.old_style_flags)),
        embedded_commands: match &spec.embedded_commands {
            Some(list) => Vec::leak(
                list.iter()
                    .map(|(flags, ends)| EmbeddedCommand {
                        flags: leak_strs(flags),
                        ends: leak_strs(ends),
                    })
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.embedded_commands),
        },
        effects: match &spec.effects {
            Some(list) => Vec::leak(list.iter().map(effect).collect()),
            None => base.map_or(&[], |b| b.effects),
        },
        effects_below: false,
        key_facts: match &spec.key_facts {
            Some(list) => Vec::leak(
                list.iter()
                    .map(|(keys, facts)| FlagFacts {
                        flags: leak_strs(keys),
                        facts: Vec::leak(facts.iter().filter_map(|f| Fact::parse(f)).collect()),
                    })
                    .collect(),
            ),
            None => base.map_or(&[], |b| b.key_facts),
        },
        config_files: match &spec.config_files {
            Some(files) => leak_strs(files),
            None => base.map_or(&[], |b| b.config_files),
        },
    };
    entry.word_role_mask = word_role_mask(&entry);
    entry.role_mask = role_mask(&entry);
    entry.fact_mask = fact_mask(&entry);
    entry.write_options = Vec::leak(super::write_options_of(&entry));
    entry.flag_fact_mask = flag_fact_mask(&entry);
    entry.effects_below = effects_below(&entry);
    Ok(entry)
}

/// A user's effect, checked by the schema reader.
fn effect(e: &super::schema::EffectText) -> EffectSpec {
    EffectSpec {
        words: leak_strs(&e.words),
        flags: leak_strs(&e.flags),
        also: leak_strs(&e.also),
        unless: leak_strs(&e.unless),
        operands: e.operands,
        test: e.test.as_deref().map(leak_str),
        dynamic_asks: e.dynamic_asks,
        what: leak_str(&e.what),
        suggestion: leak_str(&e.suggestion),
    }
}

/// A built-in subcommand entry kept as it is under a user's entry.
fn copy(entry: &'static Entry) -> Entry {
    Entry {
        subcommands: entry.subcommands,
        ..*entry
    }
}

/// The mask of every fact the entry's flags and its subcommands' flags add.
fn flag_fact_mask(entry: &Entry) -> u64 {
    let own = entry
        .flag_facts
        .iter()
        .flat_map(|f| f.facts)
        .fold(0, |m, f| m | f.bit());
    entry
        .subcommands
        .iter()
        .fold(own, |m, s| m | s.flag_fact_mask)
}

/// True when the entry or one of its subcommands lists an effect
/// ([`Entry::effects_below`]).
fn effects_below(entry: &Entry) -> bool {
    !entry.effects.is_empty() || entry.subcommands.iter().any(|s| s.effects_below)
}

/// The mask of every fact the entry and its subcommands have.
fn fact_mask(entry: &Entry) -> u64 {
    let own = entry.facts.iter().fold(0, |m, f| m | f.bit());
    entry.subcommands.iter().fold(own, |m, s| m | s.fact_mask)
}

/// The mask of every role the entry and its subcommands use ([`Role::bit`]); its
/// `word_role_mask` is set first.
fn role_mask(entry: &Entry) -> u64 {
    let keys = entry
        .config_keys
        .iter()
        .chain(entry.env_keys)
        .fold(0, |m, (_, r)| m | r.bit());
    let own = entry.word_role_mask | keys;
    entry.subcommands.iter().fold(own, |m, s| m | s.role_mask)
}

/// The mask of the roles of the words of a command, in the entry and its
/// subcommands (settings keys aside).
fn word_role_mask(entry: &Entry) -> u64 {
    let mut mask = 0;
    let mut add = |r: Role| mask |= r.bit();
    for o in entry.options {
        add(o.role);
        o.more.iter().copied().for_each(&mut add);
    }
    entry.operands.iter().copied().for_each(&mut add);
    entry.last.into_iter().for_each(&mut add);
    for m in entry.modes {
        m.operands.iter().copied().for_each(&mut add);
    }
    if !entry.in_place.is_empty() {
        add(Role::PathWrite);
    }
    for m in entry.mode_options {
        for o in m.options {
            add(o.role);
            o.more.iter().copied().for_each(&mut add);
        }
    }
    entry
        .subcommands
        .iter()
        .fold(mask, |m, s| m | s.word_role_mask)
}
