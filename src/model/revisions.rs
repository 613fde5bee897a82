//! Revision operands (the catalogue's `revision` role: git's `show`, `log`,
//! `diff`, `cat-file`): `REV`, a file as it was at a revision (`REV:PATH`), a
//! file in the index (`:PATH`, `:N:PATH`), or a pathspec, which git takes where a
//! revision may stand (`git log -p .env`, `git diff -- .env`), magic included
//! (`:(top).env`, `:/.env`, `:!x`). `git show HEAD:.env` prints the file as `cat
//! .env` does, so the path part is judged as a path read: a secret never written
//! to the working tree is still in the history.

use super::word::{Part, Word};

/// The path `word` names as a revision operand, as a word to judge as a path
/// read: the part after the first `:` (with an index stage or pathspec magic
/// taken off), or the whole word when it has no colon and is static or starts
/// with a tilde (a path when it names no revision). `None` for a revision alone, only known at run
/// time (`"$REF"`, `git log $REF`), or a colon with nothing after it (`HEAD:`,
/// the revision's whole tree).
///
/// ## Example
/// `HEAD:.env` → `.env`; `:0:.env` → `.env`; `:(top)x/.env` → `x/.env`; `.env`
/// → `.env`; `HEAD:$F` → `$F`; `"$REF"` → none.
pub fn path_of(word: &Word) -> Option<Word> {
    let colon = word
        .parts
        .iter()
        .enumerate()
        .find_map(|(k, part)| match part {
            Part::Literal(text) | Part::Quoted(text) => text.find(':').map(|at| (k, at)),
            _ => None,
        });
    let Some((k, at)) = colon else {
        let path = word.value().is_some() || matches!(word.parts.first(), Some(Part::Tilde(_)));
        return path.then(|| word.clone());
    };
    let mut parts: Vec<Part> = Vec::with_capacity(word.parts.len() - k);
    let (Part::Literal(text) | Part::Quoted(text)) = &word.parts[k] else {
        return None;
    };
    let mut rest = &text[at + 1..];
    // A colon at the word's start opens an index path or a pathspec's magic.
    if k == 0 && at == 0 {
        rest = without_magic(rest);
    }
    if !rest.is_empty() {
        // Git reads the path as written: no tilde expansion after the colon.
        parts.push(match &word.parts[k] {
            Part::Literal(_) => Part::Literal(rest.to_string()),
            _ => Part::Quoted(rest.to_string()),
        });
    }
    parts.extend(word.parts[k + 1..].iter().cloned());
    (!parts.is_empty()).then(|| Word::new(parts, word.span, word.has_quotes))
}

/// `rest` (the text after a leading `:`) without an index stage (`0:`..`3:`) or
/// pathspec magic (`(top,icase)`, or the short forms `/`, `!`, `^`).
fn without_magic(rest: &str) -> &str {
    let bytes = rest.as_bytes();
    if bytes.len() >= 2 && matches!(bytes[0], b'0'..=b'3') && bytes[1] == b':' {
        return &rest[2..];
    }
    if let Some(long) = rest.strip_prefix('(') {
        return long.split_once(')').map_or(rest, |(_, path)| path);
    }
    rest.trim_start_matches(['/', '!', '^'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    fn path(parts: Vec<Part>) -> Option<String> {
        let word = Word::new(parts, Span::new(0, 1), false);
        path_of(&word).map(|w| match w.value() {
            Some(v) => v.to_string(),
            None => format!("{:?}", w.parts),
        })
    }

    fn literal(text: &str) -> Option<String> {
        path(vec![Part::Literal(text.to_string())])
    }

    #[test]
    fn the_path_after_the_revision_is_read() {
        assert_eq!(literal("HEAD:.env").as_deref(), Some(".env"));
        assert_eq!(
            literal("stash@{0}:config/.env").as_deref(),
            Some("config/.env")
        );
        assert_eq!(literal("HEAD~2:./.env").as_deref(), Some("./.env"));
        assert_eq!(literal(":.env").as_deref(), Some(".env"));
        assert_eq!(literal(":2:.env").as_deref(), Some(".env"));
        assert_eq!(literal(":(top,icase)x/.env").as_deref(), Some("x/.env"));
        assert_eq!(literal(":/.env").as_deref(), Some(".env"));
        assert_eq!(literal(":!Cargo.lock").as_deref(), Some("Cargo.lock"));
        // Git takes `~` after the colon literally.
        assert_eq!(literal("HEAD:~/x").as_deref(), Some("~/x"));
    }

    #[test]
    fn a_word_without_a_colon_is_a_path_when_static() {
        assert_eq!(literal(".env").as_deref(), Some(".env"));
        assert_eq!(literal("main").as_deref(), Some("main"));
        let home = path(vec![
            Part::Tilde(String::new()),
            Part::Literal("/.ssh".into()),
        ]);
        assert!(home.is_some_and(|p| p.contains("Tilde")));
        let dynamic = vec![Part::Variable {
            name: "REF".into(),
            quoted: true,
        }];
        assert_eq!(path(dynamic), None);
    }

    #[test]
    fn a_dynamic_path_after_the_colon_stays_dynamic() {
        let parts = vec![
            Part::Literal("HEAD:".into()),
            Part::Variable {
                name: "F".into(),
                quoted: false,
            },
        ];
        let found = path(parts).unwrap();
        assert!(found.contains("Variable"), "{found}");
        assert_eq!(literal("HEAD:"), None);
    }
}
