//! Cheap tests of whether a word may give one of some options or flags: a
//! superset of how [`super::classify`] and [`super::usage`] read it, made to skip
//! those readings for the commands that cannot give one (`git log --oneline -n
//! 20` gives no option whose value git writes).

/// True when the word `word` may give one of `names` (spellings as the catalogue
/// writes them: `-o`, `--output`, `--network=host`, a BSD letter `e`), however the
/// program reads its words: the name itself, a long name abbreviated (`--out` for
/// `--output`), a name with its value glued on (`-o-x`, `--output=-x`,
/// `-javaagent:x`), a letter of a cluster of short options (`-so` gives `-o`), and
/// a letter of a word of letters without a dash (BSD-style flags, `ps aux`; an
/// old-style first word, `tar xf`, is dashed in the record already). A superset:
/// the cluster test ignores whether the program clusters and where the letter
/// stands.
///
/// ```
/// use bashgate::catalogue::may_spell;
/// assert!(may_spell("--out", &["-o", "--output"]));
/// assert!(may_spell("-so", &["-o", "--output"]));
/// assert!(may_spell("auxe", &["e"]));
/// assert!(!may_spell("--oneline", &["-o", "--output"]));
/// assert!(!may_spell("-n", &["-o", "--output"]));
/// ```
pub fn may_spell(word: &str, names: &[&str]) -> bool {
    if names.is_empty() {
        return false;
    }
    let Some(rest) = word.strip_prefix('-') else {
        // Letters without a dash: BSD-style flags.
        return word.bytes().all(|b| b.is_ascii_alphabetic())
            && word
                .bytes()
                .any(|b| names.iter().any(|n| gives_letter(n, b)));
    };
    if rest.is_empty() {
        return false;
    }
    let spelled = word.split_once('=').map_or(word, |(name, _)| name);
    names.iter().any(|name| {
        let name = name.split_once('=').map_or(*name, |(name, _)| name);
        spelled.starts_with(name) || (spelled.len() > 2 && name.starts_with(spelled))
    }) || (!rest.starts_with('-')
        && rest
            .bytes()
            .any(|b| names.iter().any(|n| gives_letter(n, b))))
}

/// True when the spelling `name` is the one-letter option or flag `letter`
/// (`-f`, or the BSD letter `f`).
fn gives_letter(name: &str, letter: u8) -> bool {
    matches!(name.as_bytes(), [b'-', l] | [l] if *l == letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: [&str; 2] = ["-o", "--output"];

    #[test]
    fn names_abbreviations_glued_values_and_clusters_are_given() {
        for word in [
            "-o",
            "--output",
            "--output=x",
            "--outp",
            "--o",
            "-o-x",
            "-ofile",
            "-so",
            "-o:-x",
        ] {
            assert!(may_spell(word, &OUTPUT), "{word}");
        }
        assert!(may_spell("-javaagent:x.jar", &["-javaagent:"]));
        assert!(may_spell("--network=host", &["--network=host"]));
        assert!(may_spell("auxe", &["e"]));
        assert!(may_spell("xzf", &["-x"]));
    }

    #[test]
    fn other_options_operands_and_lone_dashes_are_not() {
        for word in ["-n", "--oneline", "--", "-", "--no-pager", "out.txt", "x"] {
            assert!(!may_spell(word, &OUTPUT), "{word}");
        }
        assert!(!may_spell("a.tar", &["-x"]));
        assert!(!may_spell("a1", &["-a"]));
        assert!(!may_spell("-o", &[]));
    }
}
