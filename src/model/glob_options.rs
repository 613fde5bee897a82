//! Commands that change how bash globs: `shopt -s dotglob` (`*` matches names
//! starting with `.`), `nocaseglob` (any case), `globstar` (`**` crosses folders),
//! `GLOBIGNORE=…` (set at all, dot names match too), `BASHOPTS=…` given to a shell
//! and `bash -O OPTION`. After one, a glob may match more than bash's default
//! rules say, so the path rules read later globs the relaxed way (`cat *` may
//! read `.env`). Not scoped to subshells: fail closed.

use super::command::SimpleCommand;
use super::word::Word;

/// The `shopt` options that widen what a glob matches.
const WIDENING: &[&str] = &["dotglob", "nocaseglob", "globstar"];

/// Variables that widen globbing when set: `GLOBIGNORE` in this shell, `BASHOPTS`
/// in the environment of a shell started.
const WIDENING_VARIABLES: &[&str] = &["GLOBIGNORE", "BASHOPTS"];

/// True when `record` may widen what later globs match.
///
/// ## Example
/// `shopt -s dotglob`, `shopt -s "$OPT"`, `GLOBIGNORE=x`, `export GLOBIGNORE`,
/// `bash -O dotglob -c …` → true; `shopt -u dotglob`, `shopt -s nullglob` → false.
pub fn widens(record: &SimpleCommand) -> bool {
    if record
        .assignments
        .iter()
        .any(|a| WIDENING_VARIABLES.contains(&a.name.as_str()))
    {
        return true;
    }
    let Some(name) = record.base_name() else {
        return false;
    };
    let args = record.args();
    if name == "shopt" {
        let setting = args.iter().any(|w| {
            w.value()
                .is_none_or(|v| v.starts_with('-') && v.contains('s') && !v.contains('u'))
        });
        return setting
            && args
                .iter()
                .any(|w| w.value().is_none_or(|v| WIDENING.contains(&v)));
    }
    super::nested::is_shell(name)
        && args
            .iter()
            .filter_map(Word::value)
            .any(|v| v.starts_with("-O") || v.starts_with("+O"))
}
