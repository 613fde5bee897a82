//! `find` hands the names it found to the command `-exec` runs, as `{}`. Where the
//! find's own tests name them (`-name .env`, `-iname 'id_*'`, `-path ./config/x`),
//! the command reads those: `find . -name .env -exec cat {} +` reads `./.env` as
//! `cat ./.env` does. The walker judges the embedded command once more for each
//! such name, `{}` replaced (see `walk.rs`).

use super::word::Word;

/// Most names one `find` is read with.
const MAX_NAMES: usize = 8;

/// The paths `find`'s arguments `args` name for what it finds: each static
/// `-name`/`-iname` name under each static start folder (`.` when none is
/// given), and each static `-path`/`-ipath`/`-wholename` path as written. A
/// pattern with a glob character names no one path and is left out (`{}` stays
/// a name only known at run time).
///
/// ## Example
/// `. -name .env -exec cat {} +` → `./.env`; `src lib -name id_rsa` →
/// `src/id_rsa`, `lib/id_rsa`; `. -name '*.key'` and `. -type f` → none.
pub fn found_names(args: &[Word]) -> Vec<String> {
    let starts: Vec<&str> = args
        .iter()
        .map_while(|w| w.value().filter(|v| !v.starts_with(['-', '(', '!'])))
        .collect();
    let dynamic_start = args.first().is_some_and(|w| w.value().is_none());
    let starts = if starts.is_empty() && !dynamic_start {
        vec!["."]
    } else {
        starts
    };
    let mut out = Vec::new();
    for pair in args.windows(2) {
        let (Some(test), Some(pattern)) = (pair[0].value(), pair[1].value()) else {
            continue;
        };
        if pattern.contains(['*', '?', '[']) {
            continue;
        }
        match test {
            "-name" | "-iname" if !pattern.contains('/') => {
                for start in &starts {
                    out.push(format!("{}/{pattern}", start.trim_end_matches('/')));
                }
            }
            "-path" | "-ipath" | "-wholename" | "-iwholename" => out.push(pattern.to_string()),
            _ => {}
        }
    }
    out.truncate(MAX_NAMES);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Span;

    fn names(args: &[&str]) -> Vec<String> {
        let words: Vec<Word> = args
            .iter()
            .map(|a| Word::literal(a, Span::new(0, 1)))
            .collect();
        found_names(&words)
    }

    #[test]
    fn the_names_a_find_tests_for_under_each_start() {
        assert_eq!(
            names(&[".", "-name", ".env", "-exec", "cat", "{}", "+"]),
            ["./.env"]
        );
        assert_eq!(names(&["-name", ".env"]), ["./.env"]);
        assert_eq!(
            names(&["src/", "lib", "-iname", "id_rsa"]),
            ["src/id_rsa", "lib/id_rsa"]
        );
        assert_eq!(names(&[".", "-path", "./config/.env"]), ["./config/.env"]);
    }

    #[test]
    fn a_find_without_name_tests_names_nothing() {
        assert!(names(&[".", "-type", "f", "-exec", "wc", "-l", "{}", "+"]).is_empty());
        assert!(names(&[".", "-name", "*.key", "-exec", "cat", "{}", "+"]).is_empty());
    }
}
