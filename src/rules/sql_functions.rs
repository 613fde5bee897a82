//! SQL that reaches files, programs or the network through functions rather than
//! the client's own commands: sqlite's `readfile()`, `writefile()`, `edit()` and
//! `fsdir()`, PostgreSQL's `pg_read_file()` and large objects, MySQL's
//! `LOAD_FILE()`, DuckDB's `read_csv()`/`read_text()` family and its scans of a
//! quoted file name (`FROM '.env'`), ClickHouse's `file()`, `url()` and
//! `executable()`. The database engine runs them where the client runs, with the
//! user's rights, so they are reads, writes and programs as much as `cat`, `tee`
//! and `sh` are; the gate only sees them as text inside SQL.
//!
//! A reader naming a literal file inside the project that the policy does not
//! call sensitive passes (`read_csv('data/*.csv')`); anything else it names, or a
//! name that is not one literal (`readfile('.e' || 'nv')`), is reported.
//! Writers and program runners are reported whatever they name.
//!
//! The text is searched as written, strings included: a function named inside a
//! string literal is reported too (a false alarm), which is the safe side of
//! misreading where a string ends (`E'\''`, MySQL's backslash escapes).

use crate::rules::code_names;

/// What a function does with what it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Does {
    /// Reads the file or folder its first argument names (or the URL).
    Reads,
    /// Writes a file.
    Writes,
    /// Runs a program.
    Runs,
}

/// SQL functions of the common engines that read, write or run, by name.
const FUNCTIONS: &[(&str, Does)] = &[
    // SQLite's shell (its fileio extension is built in).
    ("readfile", Does::Reads),
    ("fsdir", Does::Reads),
    ("writefile", Does::Writes),
    ("edit", Does::Runs),
    // PostgreSQL (the server's files; a local server is this machine).
    ("pg_read_file", Does::Reads),
    ("pg_read_binary_file", Does::Reads),
    ("pg_ls_dir", Does::Reads),
    ("pg_stat_file", Does::Reads),
    ("lo_import", Does::Reads),
    ("lo_export", Does::Writes),
    ("pg_file_write", Does::Writes),
    // MySQL and MariaDB.
    ("load_file", Does::Reads),
    // DuckDB: readers of files, globs and URLs.
    ("read_csv", Does::Reads),
    ("read_csv_auto", Does::Reads),
    ("read_text", Does::Reads),
    ("read_blob", Does::Reads),
    ("read_json", Does::Reads),
    ("read_json_auto", Does::Reads),
    ("read_json_objects", Does::Reads),
    ("read_ndjson", Does::Reads),
    ("read_ndjson_auto", Does::Reads),
    ("read_parquet", Does::Reads),
    ("parquet_scan", Does::Reads),
    ("parquet_metadata", Does::Reads),
    ("parquet_schema", Does::Reads),
    ("read_xlsx", Does::Reads),
    ("sniff_csv", Does::Reads),
    ("glob", Does::Reads),
    // ClickHouse's table functions.
    ("file", Does::Reads),
    ("url", Does::Reads),
    ("s3", Does::Reads),
    ("hdfs", Does::Reads),
    ("executable", Does::Runs),
];

/// The first function call (or quoted-name scan) in `sql` that reaches a file,
/// program or URL the gate cannot let pass, as the function's name and what it
/// does there. `sensitive` and `outside` judge a named file.
pub fn reach(
    sql: &str,
    sensitive: &dyn Fn(&str) -> bool,
    outside: &dyn Fn(&str) -> bool,
) -> Option<(&'static str, &'static str)> {
    let lower = sql.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    for (name, end) in code_names::names(&lower) {
        // `"pg_read_file"(…)`, `` `load_file`(…) ``: a quoted name is a name.
        let mut next = end;
        if matches!(bytes.get(next), Some(b'"' | b'`')) {
            next += 1;
        }
        next = skip_blanks(bytes, next);
        if let Some(&(function, does)) = FUNCTIONS.iter().find(|(f, _)| *f == name)
            && bytes.get(next) == Some(&b'(')
        {
            match does {
                Does::Runs => return Some((function, "runs a program")),
                Does::Writes => return Some((function, "writes a file the gate cannot follow")),
                Does::Reads => {
                    if let Some(what) = read_reach(sql, next + 1, true, sensitive, outside) {
                        return Some((function, what));
                    }
                }
            }
        }
        // DuckDB reads a quoted name after `FROM`/`JOIN` as a file.
        if matches!(name, "from" | "join")
            && bytes.get(next) == Some(&b'\'')
            && let Some(what) = read_reach(sql, next, false, sensitive, outside)
        {
            return Some(("a quoted file name", what));
        }
    }
    None
}

/// What reading the literal that starts at `at` (blanks before it allowed)
/// reaches, when the gate cannot let it pass: not one plain literal, a URL, a
/// sensitive file, a file outside the project, or a glob that could match one.
/// A function's argument must end at `,` or `)`; a scanned name (`FROM 'x'`) at
/// anything but more string.
fn read_reach(
    sql: &str,
    at: usize,
    argument: bool,
    sensitive: &dyn Fn(&str) -> bool,
    outside: &dyn Fn(&str) -> bool,
) -> Option<&'static str> {
    const UNKNOWN: &str = "reads a file the gate cannot name";
    let bytes = sql.as_bytes();
    let open = skip_blanks(bytes, at);
    if bytes.get(open) != Some(&b'\'') {
        return Some(UNKNOWN);
    }
    let Some(length) = sql[open + 1..].find('\'') else {
        return Some(UNKNOWN);
    };
    let close = open + 1 + length;
    let name = &sql[open + 1..close];
    // `''` inside, backslash escapes, or a concatenation after: not one literal
    // the gate can read the way the engine does.
    let after = skip_blanks(bytes, close + 1);
    let ends = if argument {
        matches!(bytes.get(after), Some(b',' | b')'))
    } else {
        !matches!(bytes.get(after), Some(b'|' | b'+'))
    };
    if name.contains('\\') || bytes.get(close + 1) == Some(&b'\'') || !ends {
        return Some(UNKNOWN);
    }
    if name.contains("://") {
        return Some("reaches the network");
    }
    // A glob is judged by what is left of it (`*.env` could match `.env`), and
    // passes only with a literal extension after its last wildcard.
    let literal: String = name.chars().filter(|c| !matches!(c, '*' | '?')).collect();
    if sensitive(name) || sensitive(&literal) || outside(name) {
        return Some("reads a file the policy protects or outside the project");
    }
    let globbed = name.contains(['*', '?', '[', '{']);
    if globbed && (name.contains(['[', '{']) || !has_extension_after_glob(name)) {
        return Some(UNKNOWN);
    }
    None
}

/// True when the last name of glob `name` ends in a literal extension after its
/// last wildcard (`data/*.csv`, `**/*.parquet`), which names no dotfile.
fn has_extension_after_glob(name: &str) -> bool {
    let last = name.rsplit('/').next().unwrap_or(name);
    let tail = last.rsplit(['*', '?']).next().unwrap_or(last);
    tail.len() > 1
        && tail.starts_with('.')
        && tail[1..].bytes().all(|b| b.is_ascii_alphanumeric())
        && last.len() > tail.len()
}

/// The first position from `at` that is not a blank or a comment (`-- …`,
/// `/* … */`): SQL allows both between a function's name and its parenthesis.
fn skip_blanks(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b), _) if b.is_ascii_whitespace() => at += 1,
            (Some(b'-'), Some(b'-')) => {
                while bytes.get(at).is_some_and(|&b| b != b'\n') {
                    at += 1;
                }
            }
            (Some(b'/'), Some(b'*')) => {
                at += 2;
                while at < bytes.len() && !(bytes[at] == b'*' && bytes.get(at + 1) == Some(&b'/')) {
                    at += 1;
                }
                at = (at + 2).min(bytes.len());
            }
            _ => return at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reach;

    fn judged(sql: &str) -> Option<&'static str> {
        let sensitive = |name: &str| name.trim_start_matches("./") == ".env";
        let outside = |name: &str| name.starts_with(['/', '~']) || name.contains("..");
        reach(sql, &sensitive, &outside).map(|(function, _)| function)
    }

    #[test]
    fn functions_that_reach_files_programs_and_urls() {
        assert_eq!(judged("select writefile('x.sh', 'id')"), Some("writefile"));
        assert_eq!(judged("select edit('x', 'vi')"), Some("edit"));
        assert_eq!(judged("SELECT READFILE('/etc/passwd')"), Some("readfile"));
        assert_eq!(judged("select readfile('.env')"), Some("readfile"));
        assert_eq!(judged("select readfile('.e' || 'nv')"), Some("readfile"));
        assert_eq!(judged("select readfile(x) from t"), Some("readfile"));
        assert_eq!(
            judged("select \"pg_read_file\"('/etc/passwd')"),
            Some("pg_read_file")
        );
        assert_eq!(
            judged("select pg_catalog.pg_read_file('/x')"),
            Some("pg_read_file")
        );
        assert_eq!(
            judged("select readfile /* c */ ('/etc/passwd')"),
            Some("readfile")
        );
        assert_eq!(judged("select load_file('/etc/passwd')"), Some("load_file"));
        assert_eq!(
            judged("select * from read_csv('https://e.x/a.csv')"),
            Some("read_csv")
        );
        assert_eq!(judged("select * from read_text('*')"), Some("read_text"));
        assert_eq!(judged("select * from read_text('.e*')"), Some("read_text"));
        assert_eq!(
            judged("select * from read_text('*.env')"),
            Some("read_text")
        );
        assert_eq!(judged("select * from '.env'"), Some("a quoted file name"));
        assert_eq!(
            judged("select * from '/etc/passwd'"),
            Some("a quoted file name")
        );
        assert_eq!(judged("select * from file('/etc/passwd')"), Some("file"));
        assert_eq!(
            judged("select * from executable('x.sh', 'TSV', 'a int')"),
            Some("executable")
        );
        assert_eq!(judged("select readfile(E'\\'')"), Some("readfile"));
        // Look-alikes: names, not calls; files of the project.
        assert_eq!(judged("select * from read_csv('data/*.csv')"), None);
        assert_eq!(
            judged("select * from read_parquet('out/**/*.parquet')"),
            None
        );
        assert_eq!(judged("select readfile('notes.txt')"), None);
        assert_eq!(judged("select * from 'users'"), None);
        assert_eq!(judged("select file, url from uploads"), None);
        assert_eq!(judged("select edited from t"), None);
        assert_eq!(judged("select * from files where name = 'readfile'"), None);
    }
}
