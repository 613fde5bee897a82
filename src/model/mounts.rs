//! Bind mounts: `docker run -v SRC:DEST[:OPTIONS]`. What runs behind the mount can
//! write the host path `SRC`, so `SRC` is judged as a path written; `-v /:/host`
//! reaches the whole machine, `-v ./data:/data` only the project.

use super::word::{Part, Word};

/// The host side of a mount spec `SRC:DEST[:OPTIONS]`, as a word to judge as a
/// path: `None` for a named volume (`cache:/root/.cache`) or a container path alone
/// (`-v /data`). A spec only known at run time with no `:` in its literal text may
/// hold anything, so the whole word is judged.
///
/// ## Example
/// `"$(pwd)":/app` → `$(pwd)`; `~/.ssh:/root/.ssh:ro` → `~/.ssh`; `cache:/x` → none.
pub fn host_side(spec: &Word) -> Option<Word> {
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
        assert_eq!(host("/data"), None);
    }
}
