//! A loop variable in its place. `for f in .env keys/*; do cat "$f"; done` reads
//! `.env` and each name `keys/*` matches: the walker proves such a variable a
//! relative path below the working folder (it is "confined"), but a check that
//! stopped there would miss what the loop's words themselves name — a secret, a
//! symlink that leads outside, a name like an option. [`in_place_of`] gives the
//! word with each of the loop's words in the variable's place, so the path and
//! option checks judge them as they judge the words written out.

use super::word::{Part, Word};
use std::rc::Rc;

/// `word` with each of a loop's words in the place of its variable, for every
/// confined loop variable of `loops` it holds (none: empty). A word that is the
/// variable alone (`"$f"`) becomes each loop word as written, globs included
/// (`for f in *`: the names `*` matches, one per pass); a word with more around
/// the variable (`"src/$f.bak"`) gets the loop word's parts in its place. Each
/// variable is put in place on its own, the others left as they are.
///
/// ## Example
/// `"$f"` with `f` over `.env src/*` → `.env`, `src/*`.
pub fn in_place_of(word: &Word, loops: &[(String, Rc<[Word]>)]) -> Vec<Word> {
    let mut out = Vec::new();
    for (name, values) in loops {
        let holds = |p: &Part| matches!(p, Part::Variable { name: n, .. } if n == name);
        if !word.parts.iter().any(holds) {
            continue;
        }
        if word.parts.len() == 1 {
            out.extend(values.iter().map(|v| {
                let mut value = v.clone();
                value.span = word.span;
                value
            }));
            continue;
        }
        for value in values.iter() {
            let mut parts = Vec::with_capacity(word.parts.len() + value.parts.len());
            for part in &word.parts {
                if holds(part) {
                    parts.extend(value.parts.iter().cloned());
                } else {
                    parts.push(part.clone());
                }
            }
            out.push(Word::new(
                parts,
                word.span,
                word.has_quotes || value.has_quotes,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::in_place_of;
    use crate::model::word::{Part, Word};
    use crate::verdict::Span;
    use std::rc::Rc;

    fn variable(name: &str) -> Part {
        Part::Variable {
            name: name.to_string(),
            quoted: true,
        }
    }

    #[test]
    fn each_loop_word_takes_the_variables_place() {
        let values: Rc<[Word]> = Rc::from(vec![
            Word::literal(".env", Span::default()),
            Word::literal("src/*", Span::default()),
        ]);
        let loops = vec![("f".to_string(), values)];
        let alone = Word::new(vec![variable("f")], Span::new(4, 8), true);
        let texts: Vec<String> = in_place_of(&alone, &loops)
            .iter()
            .map(|w| w.display())
            .collect();
        assert_eq!(texts, [".env", "src/*"]);
        assert!(
            in_place_of(&alone, &loops)
                .iter()
                .all(|w| w.span == Span::new(4, 8))
        );
        let around = Word::new(
            vec![
                Part::Quoted("./".into()),
                variable("f"),
                Part::Quoted(".bak".into()),
            ],
            Span::default(),
            true,
        );
        let first = &in_place_of(&around, &loops)[0];
        assert_eq!(first.value(), Some("./.env.bak"));
        let other = Word::new(vec![variable("g")], Span::default(), true);
        assert!(in_place_of(&other, &loops).is_empty());
    }
}
