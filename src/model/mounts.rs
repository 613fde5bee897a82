//! Bind mounts: `docker run -v SRC:DEST[:OPTIONS]` and `--mount
//! type=bind,source=SRC,target=DEST`. What runs behind the mount can write the host
//! path `SRC`, so `SRC` is judged as a path written; `-v /:/host` reaches the whole
//! machine, `-v ./data:/data` only the project.

use super::word::{Part, Word};

/// The host side of a mount spec `SRC:DEST[:OPTIONS]`, as a word to judge as a
/// path: `None` for a named volume (`cache:/root/.cache`) or a container path alone
/// (`-v /data`). A spec only known at run time with no `:` in its literal text may
/// hold anything, so the whole word is judged.
///
/// ## Example
/// `"$(pwd)":/app` → `$(pwd)`; `~/.ssh:/root/.ssh:ro` → `~/.ssh`; `cache:/x` → none.
pub fn host_side(spec: &Word) -> Option<Word> {
    if let Some(source) = key_value_source(spec) {
        return source;
    }
    let mut parts = Vec::new();
    let mut cut = false;
    for part in &spec.parts {
        match part {
            Part::Literal(text) | Part::Quoted(text) if text.contains(':') => {
                let head = text.split(':').next().unwrap_or_default();
                if !head.is_empty() {
                    parts.push(match part {
                        Part::Literal(_) => Part::Literal(head.to_string()),
                        _ => Part::Quoted(head.to_string()),
                    });
                }
                cut = true;
                break;
            }
            other => parts.push(other.clone()),
        }
    }
    if !cut {
        // No colon: a container path (`-v /data`), unless the value is dynamic.
        return spec.value().is_none().then(|| spec.clone());
    }
    let host = match parts.first()? {
        Part::Literal(text) | Part::Quoted(text) => text.starts_with(['/', '.', '~']),
        _ => true,
    };
    host.then(|| Word::new(parts, spec.span, spec.has_quotes))
}

/// The file a `key=value,...` spec reads ([`crate::catalogue::Role::Source`]):
/// its `src=` or `source=` field (`id=npm,src=.npmrc` → `.npmrc`). A spec only
/// known at run time that is not of that form may hold anything: the whole word.
///
/// ## Example
/// `id=npm,src=$HOME/.npmrc` → `$HOME/.npmrc`; `id=x,env=TOKEN` → none.
pub fn source_field(spec: &Word) -> Option<Word> {
    match key_value_source(spec) {
        Some(source) => source,
        None => spec.value().is_none().then(|| spec.clone()),
    }
}

/// True when a spec's text is the `key=value,...` form of `--mount` (a `=`
/// before any `:`), not `SRC:DEST`.
pub fn is_key_form(text: &str) -> bool {
    text.find('=')
        .is_some_and(|eq| text.find(':').is_none_or(|colon| eq < colon))
}

/// The host side of the `--mount` form `type=bind,source=SRC,target=DEST`: the
/// value of `source` (or `src`) when it is a host path, `Some(None)` when the form
/// names none (a volume, a tmpfs); `None` when `spec` is not that form (its first
/// text has no `=` before any `:`).
fn key_value_source(spec: &Word) -> Option<Option<Word>> {
    let first = match spec.parts.first() {
        Some(Part::Literal(text) | Part::Quoted(text)) => text,
        _ => return None,
    };
    if !is_key_form(first) {
        return None;
    }
    // The fields, split at commas in the text; a dynamic part stays in its field.
    let mut fields: Vec<Vec<Part>> = vec![Vec::new()];
    for part in &spec.parts {
        match part {
            Part::Literal(text) | Part::Quoted(text) => {
                let quoted = matches!(part, Part::Quoted(_));
                for (k, piece) in text.split(',').enumerate() {
                    if k > 0 {
                        fields.push(Vec::new());
                    }
                    if !piece.is_empty() {
                        let piece = piece.to_string();
                        fields.last_mut()?.push(if quoted {
                            Part::Quoted(piece)
                        } else {
                            Part::Literal(piece)
                        });
                    }
                }
            }
            other => fields.last_mut()?.push(other.clone()),
        }
    }
    let source = fields.into_iter().find_map(|mut field| {
        // Docker reads the spec as CSV: a field may be quoted (`"source=/"`), and
        // keys are read in any case (`Source=`).
        if let Some(Part::Literal(tail) | Part::Quoted(tail)) = field.last_mut()
            && tail.len() > 1
            && tail.ends_with('"')
        {
            tail.pop();
        }
        let (Part::Literal(head) | Part::Quoted(head)) = field.first_mut()? else {
            return None;
        };
        let unquoted = head.strip_prefix('"').unwrap_or(head);
        let value = ["source=", "src="]
            .iter()
            .find_map(|key| {
                unquoted
                    .get(..key.len())
                    .filter(|k| k.eq_ignore_ascii_case(key))
                    .map(|_| &unquoted[key.len()..])
            })?
            .to_string();
        if value.is_empty() {
            field.remove(0);
        } else {
            *head = value;
        }
        Some(field)
    });
    let Some(parts) = source.filter(|p| !p.is_empty()) else {
        return Some(None);
    };
    let host = match parts.first() {
        Some(Part::Literal(text) | Part::Quoted(text)) => text.starts_with(['/', '.', '~']),
        _ => true,
    };
    Some(host.then(|| Word::new(parts, spec.span, spec.has_quotes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    fn literal(text: &str) -> Word {
        Word::literal(text, Span::new(0, text.len()))
    }

    #[test]
    fn host_paths_and_named_volumes() {
        let host = |s: &str| host_side(&literal(s)).and_then(|w| w.static_value());
        assert_eq!(host("/:/host").as_deref(), Some("/"));
        assert_eq!(host("./data:/data").as_deref(), Some("./data"));
        assert_eq!(host("..:/app").as_deref(), Some(".."));
        assert_eq!(
            host("/var/run/docker.sock:/var/run/docker.sock").as_deref(),
            Some("/var/run/docker.sock")
        );
        assert_eq!(host("cache:/root/.cache"), None);
        assert_eq!(
            host("type=bind,\"source=/\",target=/h").as_deref(),
            Some("/")
        );
        assert_eq!(
            host("type=bind,Source=/etc,target=/e").as_deref(),
            Some("/etc")
        );
        assert_eq!(host("/data"), None);
    }

    #[test]
    fn the_key_value_form_names_its_source() {
        let host = |s: &str| host_side(&literal(s)).and_then(|w| w.static_value());
        assert_eq!(host("type=bind,src=/,dst=/host").as_deref(), Some("/"));
        assert_eq!(
            host("type=bind,source=/etc,target=/etc,readonly").as_deref(),
            Some("/etc")
        );
        assert_eq!(
            host("target=/x,source=./data,type=bind").as_deref(),
            Some("./data")
        );
        assert_eq!(host("type=volume,src=cache,dst=/cache"), None);
        assert_eq!(host("type=tmpfs,dst=/tmp"), None);
        // A source only known at run time is judged as it stands.
        let dynamic = Word::new(
            vec![
                Part::Literal("type=bind,src=".into()),
                Part::Variable {
                    name: "PWD".into(),
                    quoted: false,
                },
                Part::Literal(",dst=/app".into()),
            ],
            Span::new(0, 28),
            false,
        );
        let source = host_side(&dynamic).expect("a host side");
        assert!(matches!(source.parts.as_slice(), [Part::Variable { name, .. }] if name == "PWD"));
    }
}
