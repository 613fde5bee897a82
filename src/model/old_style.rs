//! Old-style flags: `tar xzf A`, `jar cf A`. A program whose catalogue entry has
//! `old_style_flags` reads a first argument without a dash as a cluster of flags,
//! exactly as `-xzf`. The record holds that word dashed, so every reading of the
//! words — roles, facts, effects, modes — sees the flags it gives: `tar xPf A`
//! is `tar -xPf A`.

use super::word::Word;

/// Writes the first argument of the program at `program` as `-CLUSTER` when the
/// program has old-style flags (`old_style`, from its catalogue entry) and the
/// word is a static cluster of letters.
///
/// ## Example
/// `tar xzf a.tgz` → `tar -xzf a.tgz`; `tar -xzf a.tgz` and `tar a.tgz` stay.
pub fn dash_first_argument(words: &mut [Word], program: Option<usize>, old_style: bool) {
    let Some(at) = program.filter(|_| old_style) else {
        return;
    };
    let Some(cluster) = words
        .get(at + 1)
        .and_then(Word::value)
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphabetic()))
    else {
        return;
    };
    let dashed = Word::literal(&format!("-{cluster}"), words[at + 1].span);
    words[at + 1] = dashed;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    fn dashed(argv: &[&str]) -> Vec<String> {
        let mut words: Vec<Word> = argv
            .iter()
            .map(|w| Word::literal(w, Span::new(0, w.len())))
            .collect();
        let old_style = crate::model::wrappers::unwrap(&words).old_style_flags;
        dash_first_argument(&mut words, Some(0), old_style);
        words
            .iter()
            .filter_map(|w| w.value().map(str::to_string))
            .collect()
    }

    #[test]
    fn a_first_word_of_letters_is_a_cluster_of_flags() {
        assert_eq!(dashed(&["tar", "xPf", "a.tar"]), ["tar", "-xPf", "a.tar"]);
        assert_eq!(
            dashed(&["/usr/bin/tar", "cf", "a"]),
            ["/usr/bin/tar", "-cf", "a"]
        );
        assert_eq!(dashed(&["jar", "xf", "a.jar"]), ["jar", "-xf", "a.jar"]);
    }

    #[test]
    fn other_programs_and_dashed_words_stay() {
        assert_eq!(dashed(&["tar", "-xf", "a"]), ["tar", "-xf", "a"]);
        assert_eq!(dashed(&["git", "status"]), ["git", "status"]);
        assert_eq!(dashed(&["tar", "a.tar"]), ["tar", "a.tar"]);
    }
}
