//! Bash's own tables as variables: `BASH_ALIASES` holds the aliases and `BASH_CMDS`
//! the command hash table, and assigning an element changes them like the builtin
//! does. `BASH_ALIASES[x]='rm -rf ~'` is `alias x='rm -rf ~'`; `BASH_CMDS[ls]=/bin/rm`
//! is `hash -p /bin/rm ls` (then `ls` runs `rm`). The walker judges such an
//! assignment as the builtin call it is ([`as_builtin`]), and a call of a hashed
//! name as a call of its program ([`hashed`]).

use super::command::{Assignment, SimpleCommand};
use super::word::{Part, Word};

/// Bash's own tables, read as the builtins they stand for.
pub(crate) const TABLES: &[&str] = &["BASH_ALIASES", "BASH_CMDS"];

/// The words of the builtin call an assignment to a shell table makes, if it is
/// one: `alias NAME=TEXT` or `hash -p PATH NAME`. A whole-array assignment or a
/// key only known at run time gives the call a text only known at run time.
pub(super) fn as_builtin(assignment: &Assignment) -> Option<Vec<Word>> {
    let name = assignment.name.trim_end_matches('+');
    let (table, key) = match name.split_once('[') {
        Some((table, rest)) => (table, rest.strip_suffix(']')),
        None => (name, None),
    };
    if !TABLES.contains(&table) {
        return None;
    }
    let span = assignment.span;
    let unknown = || Word::new(vec![Part::Unknown(assignment.name.clone())], span, false);
    let static_key = key.filter(|k| !k.is_empty() && !k.contains(['$', '`', '\'', '"', '\\']));
    let value = assignment.value.clone();
    let words = match (table, static_key, value) {
        ("BASH_ALIASES", Some(key), Some(value)) => {
            let mut parts = vec![Part::Literal(format!("{key}="))];
            parts.extend(value.parts);
            vec![
                Word::literal("alias", span),
                Word::new(parts, span, value.has_quotes),
            ]
        }
        ("BASH_CMDS", Some(key), Some(value)) => vec![
            Word::literal("hash", span),
            Word::literal("-p", span),
            value,
            Word::literal(key, span),
        ],
        ("BASH_ALIASES", ..) => vec![Word::literal("alias", span), unknown()],
        _ => vec![
            Word::literal("hash", span),
            Word::literal("-p", span),
            unknown(),
            unknown(),
        ],
    };
    Some(words)
}

/// The names `hash -p PATH NAME…` maps, each with its program (`None`: only known
/// at run time). A later call of NAME runs PATH, as an alias would (only a plainly
/// written call is followed; `hash -p` asks in any case, BG208).
pub(super) fn hashed(record: &SimpleCommand) -> Vec<(String, Option<String>)> {
    if record.program_str() != Some("hash") {
        return Vec::new();
    }
    let args = record.args();
    let mut path: Option<Option<String>> = None;
    let mut names = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].value() {
            Some("-p") => {
                path = Some(args.get(i + 1).and_then(Word::static_value));
                i += 2;
                continue;
            }
            Some(v) if v.starts_with("-p") => path = Some(Some(v[2..].to_string())),
            Some(v) if v.starts_with('-') => {}
            Some(v) => names.push(v.to_string()),
            None => path = path.map(|_| None),
        }
        i += 1;
    }
    match path {
        Some(path) => names.into_iter().map(|n| (n, path.clone())).collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    fn assignment(name: &str, value: Option<&str>) -> Assignment {
        let span = Span::new(0, 1);
        Assignment {
            name: name.to_string(),
            value: value.map(|v| Word::literal(v, span)),
            span,
        }
    }

    fn values(words: &[Word]) -> Vec<Option<String>> {
        words.iter().map(Word::static_value).collect()
    }

    #[test]
    fn an_alias_element_is_an_alias_call() {
        let words = as_builtin(&assignment("BASH_ALIASES[x]", Some("rm -rf ~"))).unwrap();
        assert_eq!(
            values(&words),
            [Some("alias".to_string()), Some("x=rm -rf ~".to_string())]
        );
    }

    #[test]
    fn a_hash_element_is_a_hash_call() {
        let words = as_builtin(&assignment("BASH_CMDS[ls]", Some("/bin/rm"))).unwrap();
        assert_eq!(
            values(&words)[..3],
            [
                Some("hash".into()),
                Some("-p".into()),
                Some("/bin/rm".into())
            ]
        );
        assert_eq!(values(&words)[3], Some("ls".into()));
    }

    #[test]
    fn a_whole_table_or_a_computed_key_is_unknown() {
        for name in [
            "BASH_ALIASES",
            "BASH_ALIASES[$k]",
            "BASH_CMDS",
            "BASH_CMDS+",
        ] {
            let words = as_builtin(&assignment(name, Some("x"))).unwrap();
            assert!(
                words.iter().skip(1).any(|w| w.static_value().is_none()),
                "{name}"
            );
        }
    }

    #[test]
    fn other_variables_are_not_tables() {
        for name in ["BASH_ALIASESX[x]", "PATH", "a[BASH_CMDS]", "BASH_VERSION"] {
            assert!(as_builtin(&assignment(name, Some("x"))).is_none(), "{name}");
        }
    }
}
