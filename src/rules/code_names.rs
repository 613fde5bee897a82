//! The names in a small language's text, as the rules that read SQL and Miller
//! expressions look for calls (`readfile(`, `system(`) and statements (`tee >`):
//! runs of letters, digits, `_` and `$`, each with where it ends, so the caller
//! can look at what follows it.

/// Each name in `text` (a run of ASCII letters, digits, `_` and `$`) with the byte
/// offset just past it. `$` belongs to the name, so a field or variable (`$system`
/// in Miller) is not the function of that name.
pub fn names(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !is_name_byte(bytes[at]) {
            at += 1;
        }
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        while at < bytes.len() && is_name_byte(bytes[at]) {
            at += 1;
        }
        Some((&text[start..at], at))
    })
}

/// A byte of a name (`pg_read_file`, `read_csv_auto`, `$x`).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn names_with_their_ends() {
        let found: Vec<(&str, usize)> = names("select readfile('a'), $x.y").collect();
        assert_eq!(
            found,
            vec![
                ("select", 6),
                ("readfile", 15),
                ("a", 18),
                ("$x", 24),
                ("y", 26)
            ]
        );
        assert_eq!(names("  ( ) ").count(), 0);
    }
}
