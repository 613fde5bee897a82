//! Nested scripts parsed once per command. A function's body is walked again at
//! every call, a loop's body at every pass and a trap's text when its shell ends
//! (see `repeat.rs`): each walk starts from another state, but the text, and so its
//! syntax tree, is the same. The walker keeps each nested text's tree for the rest
//! of the command and walks it again instead of parsing it again. A tree parsed
//! from the same bytes is the same tree, so the records are the same either way.

use super::Problem;
use crate::parse::{ParseProblem, Parsed, SpanMap};
use std::rc::Rc;

/// Past this many trees the cache stops taking new ones (a command with more
/// distinct nested scripts parses the rest each time, as before).
const MAX_ENTRIES: usize = 32;

/// The nested texts parsed so far in one command, with their trees.
#[derive(Default)]
pub struct ParseCache {
    entries: Vec<Entry>,
}

/// One text, its tree and its parse problem (found once).
struct Entry {
    text: Box<str>,
    parsed: Rc<Parsed>,
    problem: Option<ParseProblem>,
}

impl ParseCache {
    /// The tree of `text` (parsed now, or earlier in this command), its parse
    /// problem noted at the place `map` gives it each time, as a fresh parse would.
    /// `None` when no tree came out.
    pub fn parse(
        &mut self,
        text: &str,
        map: SpanMap,
        problems: &mut Vec<Problem>,
    ) -> Option<Rc<Parsed>> {
        if let Some(entry) = self.entries.iter().find(|e| *e.text == *text) {
            super::note_problem(entry.problem, map, true, problems);
            return Some(entry.parsed.clone());
        }
        let (parsed, problem) = super::parse_into(text, map, true, problems)?;
        let parsed = Rc::new(parsed);
        if self.entries.len() < MAX_ENTRIES {
            self.entries.push(Entry {
                text: text.into(),
                parsed: parsed.clone(),
                problem,
            });
        }
        Some(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::ParseCache;
    use crate::model::Problem;
    use crate::parse::SpanMap;
    use crate::verdict::Span;
    use std::rc::Rc;

    #[test]
    fn the_same_text_is_parsed_once_and_its_problem_noted_each_time() {
        let mut cache = ParseCache::default();
        let mut problems: Vec<Problem> = Vec::new();
        let first = cache
            .parse(
                "echo (",
                SpanMap::Offset { base: 10, end: 16 },
                &mut problems,
            )
            .expect("a tree");
        let again = cache
            .parse(
                "echo (",
                SpanMap::Offset { base: 40, end: 46 },
                &mut problems,
            )
            .expect("a tree");
        assert!(
            Rc::ptr_eq(&first, &again),
            "the second walk reuses the tree"
        );
        assert_eq!(problems.len(), 2, "{problems:?}");
        let spans: Vec<Span> = problems
            .iter()
            .map(|p| match p {
                Problem::Parse { span, nested, .. } => {
                    assert!(nested);
                    *span
                }
                other => panic!("a parse problem, not {other:?}"),
            })
            .collect();
        assert!(spans[0].start >= 10 && spans[0].end <= 16, "{spans:?}");
        assert!(spans[1].start >= 40 && spans[1].end <= 46, "{spans:?}");
        let other = cache
            .parse(
                "echo ok",
                SpanMap::Offset { base: 0, end: 7 },
                &mut problems,
            )
            .expect("a tree");
        assert!(!Rc::ptr_eq(&first, &other));
        assert_eq!(problems.len(), 2);
    }
}
