//! Settings a command writes as operands (`git config KEY VALUE`, `npm config set
//! KEY=VALUE`, `npm pkg set scripts.x=...`): the subcommand that writes them, and
//! the keys and values it is given, read with the catalogue's entries. The nested
//! scripts (`git config core.pager CMD` runs CMD later) and the persistence rule
//! read them the same way.

use super::word::Word;
use crate::catalogue::Values;
use crate::catalogue::{self, Entry};

/// The deepest subcommand of `leaf` its first operands name, even where its
/// operands are keys rather than subcommand names (`git config set`, `bundle
/// config get`), with the words after it.
pub(crate) fn named_subcommand<'c>(
    leaf: &'static Entry,
    rest: &'c [Word],
) -> (&'static Entry, &'c [Word]) {
    let (leaf, rest, _) = settings_use(leaf, rest);
    (leaf, rest)
}

/// [`named_subcommand`], with the entry whose `config_keys` describe the keys the
/// subcommand writes: the nearest with keys on the way down (`git` for `git
/// config set`, `npm config` for `npm config set`).
pub(crate) fn settings_use<'c>(
    mut leaf: &'static Entry,
    mut rest: &'c [Word],
) -> (&'static Entry, &'c [Word], Option<&'static Entry>) {
    let mut keys = (!leaf.config_keys.is_empty()).then_some(leaf);
    while !leaf.subcommands.is_empty() {
        let values: Values = rest.iter().map(Word::value).collect();
        let first = catalogue::classify(leaf, &values)
            .iter()
            .copied()
            .find(|a| !a.option_value)
            .map(|a| a.index);
        let Some((at, sub)) = first.and_then(|at| {
            let sub = leaf.subcommand(values.get(at).copied().flatten()?)?;
            Some((at, sub))
        }) else {
            break;
        };
        leaf = sub;
        rest = rest.get(at + 1..).unwrap_or_default();
        if !leaf.config_keys.is_empty() {
            keys = Some(leaf);
        }
    }
    (leaf, rest, keys)
}

/// The key of a `KEY=VALUE` word (the whole word for a `KEY VALUE` pair).
pub(crate) fn value_key(word: &str, joined: bool) -> &str {
    if joined {
        word.split_once('=').map_or(word, |(k, _)| k)
    } else {
        word
    }
}

/// The settings a use writes, from its operands (option values skipped by the
/// entry's options): a `KEY=VALUE` word (value `None`: it is in the word), or a
/// key followed by its value. A key with no value is a query, unless the word
/// after it is one the entry does not know as an option: `git config alias.x
/// '-c core.fsmonitor=CMD status'` stores the word as the value (a tool takes
/// an unknown dash word there as its value, not as an option it lacks).
pub(crate) fn settings_written<'c>(
    leaf: &Entry,
    rest: &'c [Word],
) -> Vec<(&'c Word, Option<&'c Word>)> {
    let values: Values = rest.iter().map(Word::value).collect();
    let operands: Vec<&Word> = catalogue::classify(leaf, &values)
        .iter()
        .copied()
        .filter(|a| !a.option_value)
        .filter_map(|a| rest.get(a.index))
        .collect();
    // Words the classifier does not name (an entry whose operands have no role).
    let operands = if operands.is_empty() {
        rest.iter()
            .filter(|w| !w.value().is_some_and(|v| v.starts_with('-') && v.len() > 1))
            .collect()
    } else {
        operands
    };
    let mut out = Vec::new();
    let mut words = operands.into_iter().peekable();
    while let Some(key) = words.next() {
        match key.value() {
            Some(v) if v.contains('=') => out.push((key, None)),
            _ => {
                if let Some(value) = words.next() {
                    out.push((key, Some(value)));
                } else if let Some(value) = dash_value(leaf, rest, key) {
                    out.push((key, Some(value)));
                } else if key.value().is_none() {
                    // A dynamic word alone may be `KEY=VALUE`.
                    out.push((key, None));
                }
            }
        }
    }
    out
}

/// The word after `key` in `rest` when it starts with `-` and names none of the
/// entry's options or flags: the value of the setting (`git config alias.x -p`).
fn dash_value<'c>(leaf: &Entry, rest: &'c [Word], key: &Word) -> Option<&'c Word> {
    let at = rest.iter().position(|w| std::ptr::eq(w, key))?;
    let next = rest.get(at + 1)?;
    let text = next.value()?;
    let name = text.split_once('=').map_or(text, |(n, _)| n);
    let known = leaf.option(name).is_some() || leaf.flags.contains(&name) || text == "--";
    (text.starts_with('-') && !known).then_some(next)
}
