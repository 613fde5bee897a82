//! Matching the names of one folder against one component of a glob (`*.txt`,
//! `-*`), as the checks that read a folder need it. Compiling a matcher costs about
//! 7 µs, far more than reading a small folder, so it is compiled only once a name
//! gets past a cheap test of the pattern's literal ends, and at most once.

use std::ffi::OsStr;

/// A glob component matched against folder names, compiled on first need.
pub struct NameGlob<'p> {
    pattern: &'p str,
    /// Letters match in any case (`shopt -s nocaseglob`).
    any_case: bool,
    /// `None` until a name needs the matcher; then `Some(None)` when the glob
    /// library cannot read the pattern, which matches any name (fail closed).
    matcher: Option<Option<globset::GlobMatcher>>,
}

impl<'p> NameGlob<'p> {
    /// A glob for `pattern`, one path component (`*` never crosses a `/`).
    pub fn new(pattern: &'p str) -> Self {
        NameGlob {
            pattern,
            any_case: false,
            matcher: None,
        }
    }

    /// A glob for `pattern` whose letters match in any case.
    pub fn any_case(pattern: &'p str) -> Self {
        NameGlob {
            any_case: true,
            ..NameGlob::new(pattern)
        }
    }

    /// True when bash's glob `pattern` matches the folder entry `name`.
    pub fn matches(&mut self, name: &OsStr) -> bool {
        if !self.any_case && name.to_str().is_some_and(|n| !may_match(self.pattern, n)) {
            return false;
        }
        let (pattern, any_case) = (self.pattern, self.any_case);
        self.matcher
            .get_or_insert_with(|| {
                globset::GlobBuilder::new(pattern)
                    .literal_separator(true)
                    .case_insensitive(any_case)
                    .build()
                    .ok()
                    .map(|g| g.compile_matcher())
            })
            .as_ref()
            .is_none_or(|m| m.is_match(name))
    }
}

/// A cheap test that `pattern` can match `name` at all: the literal text before its
/// first and after its last `*` or `?` must start and end the name. Patterns with
/// classes, alternatives or escapes always may.
fn may_match(pattern: &str, name: &str) -> bool {
    if pattern.contains(['[', '{', '\\']) {
        return true;
    }
    let first = pattern.find(['*', '?']).unwrap_or(pattern.len());
    let last = pattern.rfind(['*', '?']).map_or(0, |i| i + 1);
    name.starts_with(&pattern[..first]) && name.ends_with(&pattern[last..])
}

#[cfg(test)]
mod tests {
    use super::{NameGlob, may_match};

    #[test]
    fn names_a_pattern_cannot_match_are_ruled_out_before_compiling() {
        assert!(!may_match("*.txt", "--help"));
        assert!(may_match("*.txt", "-x.txt"));
        assert!(!may_match("-r*", "--help"));
        assert!(may_match("-*", "--help"));
        assert!(may_match("*", "-rf"));
        assert!(may_match("?x*", "-xa"));
        assert!(!may_match("a*b", "ab-"));
        // Classes, alternatives and escapes are left to the matcher.
        assert!(may_match("[a-]*.txt", "--help"));
        assert!(may_match("*.{txt,md}", "--help"));
    }

    #[test]
    fn names_are_matched_as_bash_globs_them() {
        let mut glob = NameGlob::new("*.txt");
        assert!(!glob.matches("--help".as_ref()));
        assert!(glob.matches("-x.txt".as_ref()));
        let mut class = NameGlob::new("[-a]*");
        assert!(class.matches("-rf".as_ref()));
        assert!(!class.matches("b".as_ref()));
        // A pattern the glob library cannot read matches anything.
        let mut unreadable = NameGlob::new("[");
        assert!(unreadable.matches("anything".as_ref()));
        let mut any_case = NameGlob::any_case(".E*");
        assert!(any_case.matches(".env".as_ref()));
        assert!(!NameGlob::new(".E*").matches(".env".as_ref()));
    }
}
