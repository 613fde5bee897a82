//! Paths a container's command names through a bind mount. `docker run -v .:/w
//! alpine cat /w/.env` reads the project's `.env`: the container's own paths are
//! not this machine's, except below the destination of a bind mount, where they
//! are the host folder's. Each such path the command names (a word, or a token of
//! shell text it runs: `sh -c 'cat /w/.env'`) is judged as the host path it is.

use super::mounts::{host_side, is_key_form};
use super::word::{Part, Word};
use crate::catalogue::{Arg, Role};

/// For a program whose options bind host folders into a container (the
/// catalogue's `mount` role): the host paths the container's command reaches
/// through them, as words to judge as reads (`cat /w/.env` with `-v .:/w` →
/// `./.env`, with the command word's span). The command is the operands after
/// the first (the image); every token of every word counts, split at
/// whitespace and shell punctuation, so shell text the container runs is read
/// too. A mount whose host side or destination is only known at run time maps
/// nothing here (its host side is judged as a write on its own).
///
/// ## Example
/// `docker run -v "$PWD":/w alpine cat /w/.env` → `$PWD/.env`.
pub fn through_mounts(args: &[Word], values: &[Option<&str>], roles: &[Arg]) -> Vec<Word> {
    let mounts: Vec<(Word, String)> = roles
        .iter()
        .filter(|a| a.role == Role::Mount)
        .filter_map(|a| {
            let word = args.get(a.index)?;
            let spec = if a.offset == 0 {
                word.clone()
            } else {
                let text = values.get(a.index).copied().flatten()?.get(a.offset..)?;
                // `-v=.:/w`: pflag reads the value after the `=`.
                Word::literal(text.strip_prefix('=').unwrap_or(text), word.span)
            };
            Some((host_side(&spec)?, destination(&spec)?))
        })
        .collect();
    if mounts.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    let command = roles.iter().filter(|a| !a.option_value).skip(1);
    for arg in command {
        let (Some(word), Some(text)) = (
            args.get(arg.index),
            values.get(arg.index).copied().flatten(),
        ) else {
            continue;
        };
        for token in text.split(|c: char| c.is_whitespace() || ";|&<>()'\"=,`".contains(c)) {
            for (host, dest) in &mounts {
                if let Some(rest) = below(token, dest) {
                    let mut parts = host.parts.clone();
                    parts.push(Part::Literal(format!("/{rest}")));
                    found.push(Word::new(parts, word.span, host.has_quotes));
                }
            }
        }
    }
    found
}

/// What lies below `dest` in `token`: `/w/.env` below `/w` is `.env`; `/w` itself
/// is the empty path; `/wx` is not below it.
fn below<'t>(token: &'t str, dest: &str) -> Option<&'t str> {
    let rest = token.strip_prefix(dest)?;
    if rest.is_empty() || dest == "/" {
        return Some(rest);
    }
    rest.strip_prefix('/')
}

/// A mount spec's destination as static text: `SRC:DEST[:OPTIONS]`, or the
/// `target=`/`dst=`/`destination=` field of the `--mount` form. `None` when it is
/// not static or not absolute.
fn destination(spec: &Word) -> Option<String> {
    let tail = spec.parts.iter().rev().find_map(|p| match p {
        Part::Literal(t) | Part::Quoted(t) => Some(t.as_str()),
        _ => None,
    })?;
    let dest = if is_key_form(tail) {
        tail.split(',').find_map(|field| {
            let (key, value) = field.split_once('=')?;
            matches!(
                key.trim_matches('"').to_ascii_lowercase().as_str(),
                "target" | "dst" | "destination"
            )
            .then_some(value.trim_matches('"'))
        })?
    } else {
        let (_, after) = tail.split_once(':')?;
        after.split(':').next()?
    };
    let dest = dest.trim_end_matches('/');
    let dest = if dest.is_empty() { "/" } else { dest };
    dest.starts_with('/').then(|| dest.to_string())
}

#[cfg(test)]
mod tests {
    use super::{below, destination};
    use crate::model::word::Word;
    use crate::verdict::Span;

    #[test]
    fn a_destination_is_read_from_either_form() {
        let dest = |s: &str| destination(&Word::literal(s, Span::new(0, 0)));
        assert_eq!(dest(".:/w").as_deref(), Some("/w"));
        assert_eq!(dest("./src:/app/src:ro").as_deref(), Some("/app/src"));
        assert_eq!(dest("type=bind,src=.,dst=/w").as_deref(), Some("/w"));
        assert_eq!(dest("type=bind,source=.,target=/w/").as_deref(), Some("/w"));
        assert_eq!(dest("cache:relative").as_deref(), None);
        assert_eq!(below("/w/.env", "/w"), Some(".env"));
        assert_eq!(below("/wx/.env", "/w"), None);
        assert_eq!(below("/w", "/w"), Some(""));
    }
}
