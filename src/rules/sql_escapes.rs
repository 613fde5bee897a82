//! SQL clients that run shell text from their SQL: `psql -c '\! CMD'` and `mysql -e
//! '\! CMD'` or `system CMD` (the clients' shell escapes), `sqlite3 DB '.shell CMD'`
//! and `.system CMD` (dot-commands), output piped to a program (`\o |CMD`,
//! `.output |CMD`), `COPY ... PROGRAM`, native code loaded (`.load`,
//! `load_extension()`), and files outside the project named by the client's own
//! commands (`.output /tmp/x`, `\i ~/x.sql`, `ATTACH '/tmp/x.db'`), programs the
//! client starts itself (psql's backticks and `\setenv`, an editor, sqlite's
//! `.excel`), and SQL functions that read, write or run (`readfile()`,
//! `writefile()`, `pg_read_file()`, DuckDB's `FROM '.env'`: see
//! `sql_functions.rs`). The text is something the gate cannot parse out of the
//! SQL, so it is inline code it cannot analyse (BG205).

use crate::catalogue::Role;
use crate::model::command::SimpleCommand;
use crate::rules::Checker;
use crate::rules::inline_script::INLINE_SCRIPT;
use crate::rules::sql_functions;

/// Reports each `code:sql` argument that holds a client shell escape.
///
/// ## Example
/// - `psql -c '\! id'` → ask
/// - `sqlite3 app.db '.shell id'` → ask
/// - `sqlite3 :memory: "select readfile('/etc/passwd')"` → ask
/// - `duckdb -c "select * from read_csv('data/*.csv')"` → allow
/// - `psql -c 'select 1'` → allow
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if !entry.mentions(&[Role::Code("sql")]) {
        return;
    }
    let args = cmd.args();
    for &arg in cx.args(cmd).iter() {
        if arg.role != Role::Code("sql") {
            continue;
        }
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let Some(sql) = word.value().and_then(|v| v.get(arg.offset..)) else {
            continue;
        };
        // A file a client command names inside the project that the policy calls
        // sensitive (`.import .env t`, `\i .env`) is as much a secret read.
        let sensitive = |name: &str| {
            let path = crate::model::paths::normalize_lexically(&cx.cwd.join(name));
            cx.paths.is_sensitive(&path)
        };
        let outside = crate::rules::inline_script::names_outside_path;
        let found = shell_escape(sql, &sensitive)
            .or_else(|| sql_functions::reach(sql, &sensitive, &outside));
        if let Some((escape, what)) = found {
            cx.report(
                &INLINE_SCRIPT,
                word.span,
                format!(
                    "`{}` {what} through `{escape}` in its SQL, which the gate cannot analyse",
                    entry.name
                ),
            );
        }
    }
}

/// Client commands that read or write the file (or move to the folder) they
/// name: sqlite's dot-commands, psql's and mysql's meta-commands, and the SQL
/// statements that name files (`COPY`, `ATTACH`, `VACUUM INTO`, DuckDB's `EXPORT`
/// and `IMPORT DATABASE`).
const FILE_COMMANDS: &[&str] = &[
    ".output",
    ".once",
    ".save",
    ".backup",
    ".restore",
    ".read",
    ".import",
    ".open",
    ".cd",
    ".clone",
    "\\o",
    "\\out",
    "\\i",
    "\\include",
    "\\ir",
    "\\w",
    "\\write",
    "\\t",
    "\\.",
    "\\copy",
    "\\cd",
    "\\lo_import",
    "\\lo_export",
    "tee",
    "source",
    "copy",
    "attach",
    "vacuum",
    "export",
    "import",
];

/// The client command in `sql` that runs a program, loads native code or writes
/// a file outside the project, if any, as its words and what it does:
///
/// - shell text: `\!` anywhere (psql and mysql take meta-commands after other
///   statements on a line); at the start of a line (after `;` too) sqlite's
///   `.shell`/`.system`, mysql's `system`, `pager`/`\P`; output or input piped
///   through a program: psql `\o |CMD`, `\g |CMD`, `\w |CMD`, sqlite
///   `.output |CMD`, `.once |CMD`, `.read |CMD`, `.import '|CMD'`; and
///   `COPY ... PROGRAM 'CMD'` (psql's `\copy` runs it here, the server's `COPY`
///   on the database's machine);
/// - native code: sqlite's `.load` and `load_extension(`, duckdb's `LOAD`;
/// - a file outside the project written or read by name: sqlite `.output`,
///   `.once`, `.save`, `.backup`, `.read`, psql `\o`, `\i`, `\w`, mysql `tee`,
///   `\T`, `source`, `\.`, `COPY`, psql `\copy`, sqlite `ATTACH`, `VACUUM INTO` with an
///   absolute, home or `..` path; mysql's `INTO OUTFILE`.
fn shell_escape(
    sql: &str,
    sensitive: &dyn Fn(&str) -> bool,
) -> Option<(&'static str, &'static str)> {
    const SHELL: &str = "runs shell text";
    const NATIVE: &str = "loads native code";
    const FILE: &str = "reads or writes a file outside the project";
    const SECRET: &str = "reads or writes a file the policy calls sensitive";
    if sql.contains("\\!") {
        return Some(("\\!", SHELL));
    }
    // psql runs the text between backticks in a meta-command's arguments (`\set x
    // `CMD``), and a meta-command may follow SQL on its line: a backtick after a
    // backslash on a line is taken as one for every client (in MySQL's SQL it can
    // be an identifier's quote after a string's escape: a false alarm).
    if sql
        .lines()
        .any(|line| line.find('\\').is_some_and(|at| line[at..].contains('`')))
    {
        return Some(("backticks in a meta-command", SHELL));
    }
    let lower = sql.to_ascii_lowercase();
    if lower.contains("load_extension(") {
        return Some(("load_extension()", NATIVE));
    }
    // `COPY t TO PROGRAM 'cmd'`, `\copy t from program 'cmd'`.
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    if words
        .windows(2)
        .any(|w| matches!(w[0], "to" | "from") && w[1] == "program")
        && words.iter().any(|w| matches!(*w, "copy" | "\\copy"))
    {
        return Some(("COPY ... PROGRAM", SHELL));
    }
    // `SELECT ... INTO OUTFILE '/tmp/x'` (the server writes it).
    if words
        .windows(2)
        .any(|w| w[0] == "into" && matches!(w[1], "outfile" | "dumpfile"))
    {
        return Some(("INTO OUTFILE", "writes a file on the database's machine"));
    }
    for statement in sql.split(['\n', ';']) {
        let statement = statement.trim_start();
        let mut parts = statement.split_whitespace();
        let first = parts.next().unwrap_or_default().to_ascii_lowercase();
        let rest = statement
            .get(
                statement
                    .find(char::is_whitespace)
                    .unwrap_or(statement.len())..,
            )
            .unwrap_or_default()
            .trim_start();
        let operand = rest.trim_start_matches(['\'', '"']);
        let piped = operand.starts_with('|');
        let outside = crate::rules::inline_script::names_outside_path(rest);
        match first.as_str() {
            ".shell" => return Some((".shell", SHELL)),
            ".system" => return Some((".system", SHELL)),
            "system" => return Some(("system", SHELL)),
            "pager" | "\\p" if !rest.is_empty() => return Some(("pager", SHELL)),
            ".output" | ".once" | ".read" | ".import" | "\\o" | "\\out" | "\\g" | "\\gx"
            | "\\w" | "\\write"
                if piped =>
            {
                return Some(("a pipe to a program", SHELL));
            }
            ".load" => return Some((".load", NATIVE)),
            "load" if !rest.is_empty() => return Some(("LOAD", "loads an extension or a file")),
            // DuckDB fetches an extension's native code (`INSTALL httpfs`).
            "install" | "force" if !rest.is_empty() => {
                return Some(("INSTALL", "fetches native code"));
            }
            // The editor (`\e`, mysql's `edit`), the system's spreadsheet or editor
            // (sqlite's `.excel`, `.once -x`, `.once -e`): programs the environment
            // names.
            "\\e" | "\\edit" | "\\ef" | "\\ev" | "edit" | ".excel" => {
                return Some((".excel or an editor", "runs a program"));
            }
            ".once" | ".output"
                if rest
                    .split_whitespace()
                    .any(|t| matches!(t, "-x" | "-e" | "--x" | "--e")) =>
            {
                return Some((".once -x or -e", "runs a program"));
            }
            // `\setenv PAGER CMD` sets what psql runs later; `\getenv v NAME` reads
            // the environment into SQL.
            "\\setenv" => return Some(("\\setenv", SHELL)),
            "\\getenv" => return Some(("\\getenv", "reads the environment")),
            // `.archive -x` writes the files an archive holds, wherever they say.
            ".archive" | ".ar" => return Some((".archive", "writes the files of an archive")),
            first if FILE_COMMANDS.contains(&first) && outside => {
                return Some(("a file named outside the project", FILE));
            }
            first
                if FILE_COMMANDS.contains(&first)
                    && rest
                        .split(|c: char| c.is_whitespace() || c == ';')
                        .map(|t| t.trim_matches(['\'', '"']))
                        .any(|t| !t.is_empty() && sensitive(t)) =>
            {
                return Some(("a sensitive file named", SECRET));
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::shell_escape;

    #[test]
    fn escapes_and_look_alikes() {
        let escape = |sql| shell_escape(sql, &|name: &str| name == ".env").map(|(e, _)| e);
        assert_eq!(escape("\\! id"), Some("\\!"));
        assert_eq!(escape("select 1; \\! id"), Some("\\!"));
        assert_eq!(escape(".shell id"), Some(".shell"));
        assert_eq!(escape(".tables\n.system id"), Some(".system"));
        assert_eq!(escape("SYSTEM id"), Some("system"));
        assert_eq!(escape("select 'system' from t"), None);
        assert_eq!(escape(".tables"), None);
        assert_eq!(escape(".import .env t"), Some("a sensitive file named"));
        assert_eq!(escape("\\i '.env'"), Some("a sensitive file named"));
        assert_eq!(escape(".import data.csv t"), None);
        assert_eq!(escape("select * from system_users"), None);
        assert_eq!(escape(".output '|id'"), Some("a pipe to a program"));
        assert_eq!(escape("\\o | id"), Some("a pipe to a program"));
        assert_eq!(escape("copy t to program 'id'"), Some("COPY ... PROGRAM"));
        assert_eq!(escape(".load /tmp/x"), Some(".load"));
        assert_eq!(
            escape("select load_extension('x')"),
            Some("load_extension()")
        );
        assert_eq!(
            escape(".output /tmp/x"),
            Some("a file named outside the project")
        );
        assert_eq!(escape(".output build/out.csv"), None);
        assert_eq!(
            escape("select * from programs where kind = 'to program'"),
            None
        );
        assert_eq!(escape("select source from t"), None);
        assert_eq!(escape("\\set x `id`"), Some("backticks in a meta-command"));
        assert_eq!(
            escape("select 1 \\gset `id`"),
            Some("backticks in a meta-command")
        );
        assert_eq!(escape("select `col` from t"), None);
        assert_eq!(escape("\\setenv PAGER id"), Some("\\setenv"));
        assert_eq!(escape("\\getenv v GITHUB_TOKEN"), Some("\\getenv"));
        assert_eq!(escape("\\e"), Some(".excel or an editor"));
        assert_eq!(escape("\\echo hi"), None);
        assert_eq!(escape(".once -x"), Some(".once -x or -e"));
        assert_eq!(escape(".once out.csv"), None);
        assert_eq!(escape("INSTALL httpfs"), Some("INSTALL"));
        assert_eq!(
            escape(".cd /home/u"),
            Some("a file named outside the project")
        );
        assert_eq!(escape(".cd data"), None);
        assert_eq!(
            escape("\\lo_import '/etc/shadow'"),
            Some("a file named outside the project")
        );
        assert_eq!(
            escape("export database '/tmp/d'"),
            Some("a file named outside the project")
        );
        assert_eq!(escape(".archive -x"), Some(".archive"));
    }
}
