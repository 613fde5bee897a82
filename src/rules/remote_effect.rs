//! BG210: commands whose effect leaves the project or cannot be undone — rewriting a
//! remote's history, publishing a package, deleting cloud or cluster resources,
//! destroying infrastructure, throwing away uncommitted work, widening permissions.
//!
//! The facts are catalogue data: each entry (a program or a subcommand) may list
//! `effects`, each with its words, the flags that must (or must not) be given, an
//! optional named test, what happens and a safer alternative (`bashgate explain
//! git`). This file is the mechanism: how a command's words are read against an
//! effect, and how the finding is built. Arguments are read the way the programs
//! read them: short flags in any cluster (`-fd`), long flags with or without
//! `=value`, values of the entry's options that take one skipped. Conditions that
//! are code rather than option words (SQL without `WHERE`, a setuid mode) are the
//! functions of [`test_named`], which the data names. Wrappers (`sudo`, `env`,
//! `xargs`...) are already unwrapped by the walker, so the program here is the one
//! that runs.

use crate::catalogue::Values;
use crate::catalogue::{EffectSpec, Entry, Fact, Role};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::Checker;
use crate::verdict::Span;

declare_rule! {
    /// ## What it does
    /// Asks before commands whose effect is remote or irreversible, under every mode
    /// and hook setting:
    ///
    /// - git: `push` that rewrites or deletes remote refs (`--force`, `-f`,
    ///   `--force-with-lease`, `--mirror`, `--delete`, `-d`, `--prune`, a `+ref` or
    ///   `:ref` refspec), `reset --hard`, `checkout -- PATH`/`checkout .`/`checkout
    ///   -f`, `restore PATH` (the work tree), `clean -f`, `branch -D` (or `-d -f`),
    ///   `stash drop|clear`, `reflog expire`, `filter-branch`;
    /// - containers and clusters: `docker system|volume|image|container prune`,
    ///   `docker volume rm`, `kubectl delete|drain`, `helm uninstall|delete`;
    /// - infrastructure: `terraform destroy`/`tofu destroy`, `apply -auto-approve`,
    ///   `apply -destroy`;
    /// - publishing: `npm|pnpm|yarn publish|unpublish`, `cargo publish|yank`, `twine
    ///   upload`, `gem push`, `poetry publish`, `uv publish`;
    /// - hosted services and clouds: `gh repo delete`, `gh release delete`, `aws s3 rm
    ///   --recursive`, `aws s3 rb`, `aws s3 sync --delete`, `aws SERVICE delete-*` and
    ///   `terminate-*`, `gcloud ... delete`, `az ... delete`, `gsutil rm`;
    /// - databases: `psql -c`, `mysql -e`, `sqlite3 DB SQL`... given `DROP`, `TRUNCATE`
    ///   or `DELETE` without `WHERE`;
    /// - permissions: `chmod` adding setuid/setgid (`u+s`, `4755`), and recursive
    ///   `chmod`/`chown`/`chgrp`.
    ///
    /// A conditional entry whose argument is only known at run time (`git push origin
    /// "$REF"`: the ref could be `+main`) asks as well, and so does a word only known
    /// at run time where an effect names one (`git stash $OP`: it could be `drop`).
    /// Each finding carries a safer alternative (`suggestion`, shown as `help:`).
    ///
    /// ## Why
    /// No finding from the other rules does not make such a command safe: these act
    /// on shared state outside the project (a remote, a registry, a cluster, a cloud
    /// account) or destroy work that exists nowhere else, and an agent's mistake there
    /// cannot be undone by the agent. A person should see them first.
    ///
    /// ## Example
    /// - `git push --force origin main` → ask
    /// - `git push origin main` → allow
    /// - `terraform destroy -auto-approve` → ask
    /// - `terraform plan` → allow
    /// - `npm publish` → ask
    /// - `npm pack` → allow
    /// - `kubectl delete ns prod` → ask
    /// - `kubectl get ns` → allow
    pub static REMOTE_OR_IRREVERSIBLE = {
        code: "BG210",
        name: "remote-or-irreversible",
        default: Ask,
        capability: Destructive,
        summary: "acts remotely or irreversibly (force push, publish, kubectl delete, terraform destroy)",
    };
}

/// The words of one command at one level of its catalogue entry (the program, or
/// a subcommand it names), as an effect's condition sees them.
pub struct Call<'a> {
    /// The entry at this level.
    pub entry: &'static Entry,
    /// Every argument after this level's name (`None`: only known at run time).
    pub args: &'a [Option<&'a str>],
    /// The positional words at this level with their indices (`None`: only known
    /// at run time), the effect's words first.
    all: &'a [(usize, Option<&'a str>)],
    /// How many of `all` are the effect's words.
    words: usize,
}

impl<'a> Call<'a> {
    /// Positional words after the effect's words (`None`: only known at run time).
    pub fn rest(&self) -> impl Iterator<Item = Option<&'a str>> + '_ {
        self.all
            .get(self.words..)
            .unwrap_or_default()
            .iter()
            .map(|(_, w)| *w)
    }

    /// Every static positional word at this level, the effect's words included.
    pub fn positionals(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.all.iter().filter_map(|(_, w)| *w)
    }

    /// True when any of the flag spellings is given (see [`flag_matches`]).
    pub fn has(&self, spellings: &[&str]) -> bool {
        options(self.args).any(|arg| spellings.iter().any(|s| flag_matches(arg, s)))
    }
}

/// The function of a named test (`test = "sql-destroys"` in the catalogue); every
/// name the schema accepts has one (a test below checks).
pub fn test_named(name: &str) -> Option<fn(&Call) -> bool> {
    let test: fn(&Call) -> bool = match name {
        "refspec-rewrites" => refspec_rewrites,
        "pathspec-given" => pathspec_given,
        "names-delete" => names_delete,
        "names-publish" => names_publish,
        "sql-destroys" => sql_destroys,
        "setuid-mode" => |call| call.positionals().next().is_some_and(setuid_mode),
        "http-method-changes" => http_method_changes,
        _ => return None,
    };
    Some(test)
}

/// The static option words (before `--`).
fn options<'a>(args: &'a [Option<&'a str>]) -> impl Iterator<Item = &'a str> {
    args.iter()
        .filter_map(|a| *a)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1)
}

/// The positional words of `args` with their indexes: options and the values of
/// the entry's value options removed; everything after `--` is positional.
fn positionals<'a>(entry: &Entry, args: &[Option<&'a str>]) -> Vec<(usize, Option<&'a str>)> {
    positional_words(entry, args, false).collect()
}

/// [`positionals`], one at a time (the first operand needs no list). `exact`: an
/// option read as a listed one only as a prefix of its name takes no value
/// ([`Entry::only_abbreviates`]: the other reading of such a word).
fn positional_words<'a, 'b>(
    entry: &'b Entry,
    args: &'b [Option<&'a str>],
    exact: bool,
) -> impl Iterator<Item = (usize, Option<&'a str>)> + 'b {
    let mut i = 0;
    let mut options_end = false;
    std::iter::from_fn(move || {
        while i < args.len() {
            let at = i;
            i += 1;
            match args[at] {
                None => return Some((at, None)),
                Some("--") if !options_end => options_end = true,
                Some(a) if !options_end && a.starts_with('-') && a.len() > 1 => {
                    if entry.takes_next_word(a) && !(exact && entry.only_abbreviates(a)) {
                        i += 1;
                    }
                }
                Some(a) => return Some((at, Some(a))),
            }
        }
        None
    })
}

/// Does the positional word `got` match the effect word `want` (`a|b`, `*`,
/// `prefix-*`)?
fn word_matches(want: &str, got: Option<&str>) -> bool {
    let Some(got) = got else {
        return false;
    };
    // Split at the byte: a `char` pattern sets up a searcher for every word.
    want.as_bytes()
        .split(|&b| b == b'|')
        .any(|alt| match alt.strip_suffix(b"*") {
            Some(b"") => true,
            Some(prefix) => got
                .as_bytes()
                .get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
            None => alt.eq_ignore_ascii_case(got.as_bytes()),
        })
}

/// Whether `effect` (of the entry at this level) applies to `args`, whose
/// positional words are `all` (see [`positionals`]): `Some(false)` when its
/// conditions hold, `Some(true)` when only a word known at run time may make them
/// hold, `None` when it does not apply.
fn applies(
    entry: &'static Entry,
    effect: &EffectSpec,
    args: &[Option<&str>],
    all: &[(usize, Option<&str>)],
    deepest: bool,
) -> Option<bool> {
    let n = effect.words.len();
    // A word only known at run time where the effect names one may be it (`git
    // stash $OP`: `drop`), at the deepest level the words name; above it only
    // after named words that match (`git reflog $X`: `expire`), as the words
    // after a subcommand are read there without that subcommand's options (`docker
    // run -v $V img`: the `*` of `docker * prune` is `run`, `$V` no operand).
    let named = |i: usize| i > 0 && effect.words[..i].iter().all(|w| !w.contains('*'));
    if all.len() < n
        || !effect
            .words
            .iter()
            .zip(all)
            .enumerate()
            .all(|(i, (want, (_, got)))| {
                (got.is_none() && (deepest || named(i))) || word_matches(want, *got)
            })
    {
        return None;
    }
    let dynamic_word = all[..n].iter().any(|(_, got)| got.is_none());
    let call = Call {
        entry,
        args,
        all,
        words: n,
    };
    let others = (effect.also.is_empty() || call.has(effect.also))
        && !call.has(effect.unless)
        && (!effect.operands || call.rest().next().is_some())
        && effect
            .test
            .is_none_or(|name| test_named(name).is_some_and(|test| test(&call)));
    if !others {
        return None;
    }
    if effect.flags.is_empty() || call.has(effect.flags) {
        return Some(dynamic_word);
    }
    // A flag hidden in a word only known at run time could be the one.
    (effect.dynamic_asks && args.iter().any(Option::is_none)).then_some(true)
}

/// The index of the first operand of `entry` in `args` at or after `from`.
fn first_operand(entry: &Entry, args: &[Option<&str>], from: usize) -> Option<usize> {
    let rest = args.get(from..)?;
    positional_words(entry, rest, false)
        .next()
        .map(|(i, _)| from + i)
}

/// The effect that applies to `cmd`, and whether a word only known at run time
/// decided it. The deepest subcommand the words name is tried first, then each
/// level above it (an effect's own words may name what the catalogue does not
/// describe as a subcommand: `git reflog expire`). `entry` is the program's.
fn effect_of(cmd: &SimpleCommand, entry: &'static Entry) -> Option<(&'static EffectSpec, bool)> {
    if !entry.effects_below {
        return None;
    }
    let args: Values = cmd.args().iter().map(Word::value).collect();
    let mut levels: smallvec::SmallVec<[(&Entry, usize); 4]> = smallvec::smallvec![(entry, 0usize)];
    let mut level = entry;
    let mut from = 0;
    while !level.subcommands.is_empty()
        && let Some(at) = first_operand(level, &args, from)
        && let Some((at, sub)) = args[at]
            .and_then(|w| level.subcommand(w))
            .map(|sub| (at, sub))
            .or_else(|| {
                let (next, sub) = level.subcommand_after_unknown_value(&args[from..], at - from)?;
                Some((from + next, sub))
            })
    {
        level = sub;
        from = at + 1;
        levels.push((sub, from));
    }
    // A dynamic word naming the subcommand is BG203's; one naming an effect's word
    // at the deepest level, which has no subcommands, may be that word.
    let leaf = level.subcommands.is_empty();
    for (k, (entry, from)) in levels.into_iter().rev().enumerate() {
        let dynamic_words = leaf && k == 0;
        if entry.effects.is_empty() {
            continue;
        }
        let words = &args[from..];
        // The positional words once per level, not once per effect.
        let all = positionals(entry, words);
        // `kubectl --v 9 delete ns x`: the first positional word may be the value
        // of an option the entry does not know; the effect's words then start
        // after it.
        let after_unknown_value = all.first().is_some_and(|&(first, _)| {
            first
                .checked_sub(1)
                .and_then(|i| words[i])
                .is_some_and(|option| entry.may_take_unknown_value(option))
        });
        // `tool --dry destroy`: an option read as a listed one only as a prefix
        // of its name may be a flag of its own; the words are read so too.
        let flag_reading: Vec<(usize, Option<&str>)> =
            if words.iter().flatten().any(|w| entry.only_abbreviates(w)) {
                positional_words(entry, words, true).collect()
            } else {
                Vec::new()
            };
        let mut readings: Vec<&[(usize, Option<&str>)]> = vec![&all];
        if after_unknown_value {
            readings.push(&all[1..]);
        }
        if !flag_reading.is_empty() {
            readings.push(&flag_reading);
        }
        for positional in readings {
            for effect in entry.effects {
                if let Some(dynamic) = applies(entry, effect, words, positional, dynamic_words) {
                    return Some((effect, dynamic));
                }
            }
        }
    }
    None
}

/// True when `program` can act outside the project in ordinary use: its entry (or
/// a subcommand) has effects, talks to the network or fetches code. A hook that
/// approves calls (`--approve`) never approves these; it leaves them to the
/// agent's own permission flow.
pub fn may_act_remotely(program: &str) -> bool {
    crate::catalogue::lookup(program).is_some_and(|entry| {
        // rsync copies to and from other hosts, but a local copy is not network
        // use, so its entry has no `network` fact (the network rule reads its
        // operands instead): named here, once.
        entry.name == "rsync"
            || entry.tree_has(Fact::Network)
            || entry.tree_has(Fact::FetchesRemoteCode)
            || entry.effects_below
    })
}

/// Asks for the commands whose catalogue entry lists an effect that applies.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(word) = cmd.name() else {
        return;
    };
    let Some((effect, dynamic)) = cx.entry(cmd).and_then(|e| effect_of(cmd, e)) else {
        return;
    };
    let end = cmd.args().last().map_or(word.span.end, |w| w.span.end);
    let message = if dynamic {
        format!(
            "{} (an argument only known at run time may make it so)",
            effect.what
        )
    } else {
        effect.what.to_string()
    };
    cx.report_suggesting(
        &REMOTE_OR_IRREVERSIBLE,
        Span::new(word.span.start, end),
        message,
        effect.suggestion,
    );
}

/// `git push` with a `+ref`/`:ref` refspec; a word only known at run time could
/// be one.
fn refspec_rewrites(call: &Call) -> bool {
    call.args.iter().any(Option::is_none)
        || call
            .rest()
            .flatten()
            .any(|r| r.starts_with('+') || r.starts_with(':'))
}

/// Paths given: a word after `--`, or `.` (`git checkout -- a.rs`, `git checkout .`).
fn pathspec_given(call: &Call) -> bool {
    let after_dashdash = call
        .args
        .iter()
        .skip_while(|a| **a != Some("--"))
        .nth(1)
        .is_some();
    after_dashdash || call.rest().any(|w| w == Some("."))
}

/// `gcloud ... delete`, `az ... delete`: a word among the first five says so.
fn names_delete(call: &Call) -> bool {
    call.positionals().take(5).any(|w| {
        w.split([':', '-', '_', '/'])
            .any(|part| DESTRUCTIVE_VERBS.contains(&part.to_ascii_lowercase().as_str()))
    })
}

/// A build tool given a task or goal that publishes, anywhere in its task list
/// (`mvn clean deploy`, `gradle build publish`, `./gradlew
/// :lib:publishToSonatype`, `sbt publishSigned`, `mix hex.publish`, `mvn
/// release:perform`): `deploy`, a `publish…` task that is not a local one
/// (`publishToMavenLocal`, sbt's `publishLocal` and `publishM2`), `upload`, `uploadArchives`, a
/// release `perform`. A task path's last segment is the task (`:lib:publish`).
fn names_publish(call: &Call) -> bool {
    call.positionals().any(|w| {
        let lower = w.to_ascii_lowercase();
        let task = lower.rsplit(':').next().unwrap_or(&lower);
        let goal = lower.strip_prefix("release:");
        task == "deploy"
            || lower.starts_with("deploy:")
            || (task.starts_with("publish")
                && !task.ends_with("tomavenlocal")
                && !matches!(task, "publishlocal" | "publishm2"))
            || lower.ends_with(".publish")
            || matches!(task, "upload" | "uploadarchives")
            || goal.is_some_and(|g| matches!(g, "perform" | "stage"))
    })
}

/// An API client told to send a request that changes things (`gh api -X DELETE
/// repos/o/r`, `glab api --method=PUT`): the value of `-X`/`--method`, attached
/// or the next word, is a method other than GET, HEAD or OPTIONS, or only known
/// at run time.
fn http_method_changes(call: &Call) -> bool {
    let args = call.args;
    let reads = |m: &str| {
        ["GET", "HEAD", "OPTIONS"]
            .iter()
            .any(|r| m.eq_ignore_ascii_case(r))
    };
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let Some(arg) = arg else {
            i += 1;
            continue;
        };
        if *arg == "--" {
            return false;
        }
        let attached = arg
            .strip_prefix("--method=")
            .or_else(|| arg.strip_prefix("--request="))
            .or_else(|| arg.strip_prefix("-X").filter(|m| !m.is_empty()));
        let method = match attached {
            Some(m) => Some(m),
            None if matches!(*arg, "-X" | "--method" | "--request") => {
                i += 1;
                match args.get(i) {
                    Some(Some(m)) => Some(*m),
                    // Only known at run time, or missing: it may be anything.
                    _ => return true,
                }
            }
            None => None,
        };
        if method.is_some_and(|m| !reads(m)) {
            return true;
        }
        i += 1;
    }
    false
}

/// Words that name a destruction in the subcommands of cloud, deploy and database
/// CLIs, alone or as a part of a word (`apps:destroy`, `delete-user`, `db:drop`,
/// `FLUSHALL`).
const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "purge",
    "destroy",
    "terminate",
    "drop",
    "flushall",
    "flushdb",
    "wipe",
    "reset",
    "remove",
    "uninstall",
    "unpublish",
    "yank",
    "deregister",
    "erase",
    "truncate",
];
// Not `rm`: `aws s3 rm` of one object is everyday work (a recursive one has its own
// effect).

/// SQL (every word the entry's roles say is `code:sql`) that drops, truncates or
/// deletes without `WHERE`; SQL only known at run time counts.
fn sql_destroys(call: &Call) -> bool {
    crate::catalogue::classify(call.entry, call.args)
        .iter()
        .copied()
        .filter(|a| a.role == Role::Code("sql"))
        .any(|a| match call.args.get(a.index).copied().flatten() {
            None => true,
            Some(word) => destructive_sql(word.get(a.offset..).unwrap_or(word)),
        })
}

/// Does the option word `arg` spell the flag `spelling`?
fn flag_matches(arg: &str, spelling: &str) -> bool {
    if let Some(long) = spelling.strip_prefix("--") {
        let Some(given) = arg.strip_prefix("--") else {
            return false;
        };
        // `--forc` is `--force` to git and GNU getopt (an unambiguous prefix).
        let name = given.split_once('=').map_or(given, |(n, _)| n);
        return given == long
            || given.strip_prefix(long).is_some_and(|r| r.starts_with('='))
            || (name.len() >= 2 && long.starts_with(name));
    }
    let Some(name) = spelling.strip_prefix('-') else {
        return false;
    };
    if name.chars().count() == 1 {
        // A short flag: any cluster of letters (`-fd`; `unzip -o:` too), but not
        // a long option.
        let Some(cluster) = arg.strip_prefix('-') else {
            return false;
        };
        return !cluster.starts_with('-')
            && cluster
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ':')
            && cluster.contains(name);
    }
    // One-dash long option (terraform): `-name`, `--name`, `=value` allowed.
    let given = arg.trim_start_matches('-');
    given == name || given.strip_prefix(name).is_some_and(|r| r.starts_with('='))
}

/// `DROP`, `TRUNCATE`, or a `DELETE` statement without `WHERE`.
pub fn destructive_sql(sql: &str) -> bool {
    sql.split(';').any(|statement| {
        let words: Vec<String> = statement
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_uppercase)
            .collect();
        let first = words.first().map(String::as_str);
        match first {
            Some("DROP" | "TRUNCATE") => true,
            Some("DELETE") => !words.iter().any(|w| w == "WHERE"),
            Some("ALTER") => words.iter().any(|w| w == "DROP"),
            _ => false,
        }
    })
}

/// `u+s`, `g+s`, `+s`, `a=rwxs`, `4755`, `2755`, `6755`.
fn setuid_mode(mode: &str) -> bool {
    if mode.chars().all(|c| c.is_ascii_digit()) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        return digits.len() == mode.len() && digits.len() >= 4 && {
            let special = digits[digits.len() - 4];
            special & 0b110 != 0
        };
    }
    mode.split(',').any(|clause| {
        clause
            .split_once(['+', '='])
            .is_some_and(|(_, perms)| perms.contains('s'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_match_in_any_spelling() {
        assert!(flag_matches("-f", "-f"));
        assert!(flag_matches("-fd", "-f"));
        assert!(!flag_matches("--ff", "-f"));
        assert!(flag_matches("--force", "--force"));
        assert!(flag_matches(
            "--force-with-lease=main",
            "--force-with-lease"
        ));
        assert!(!flag_matches("--force-with-lease", "--force"));
        assert!(flag_matches("--forc", "--force"), "an abbreviation");
        assert!(flag_matches("--mirr", "--mirror"));
        assert!(
            !flag_matches("--f", "--force"),
            "too short to be read as one"
        );
        assert!(flag_matches("-auto-approve", "-auto-approve"));
        assert!(flag_matches("--auto-approve=true", "-auto-approve"));
        assert!(!flag_matches("-a", "-auto-approve"));
    }

    #[test]
    fn every_test_the_schema_accepts_has_a_function() {
        for name in crate::catalogue::schema::EFFECT_TESTS {
            assert!(test_named(name).is_some(), "{name}");
        }
        assert!(test_named("no-such-test").is_none());
    }

    #[test]
    fn effect_words_match_alternatives_and_prefixes() {
        assert!(word_matches("rm|remove", Some("remove")));
        assert!(word_matches("*", Some("anything")));
        assert!(word_matches("delete-*", Some("delete-stack")));
        assert!(!word_matches("delete-*", Some("describe-stacks")));
        assert!(!word_matches("*", None));
    }

    #[test]
    fn sql_is_read_for_destruction() {
        assert!(destructive_sql("DROP TABLE users"));
        assert!(destructive_sql("select 1; truncate t"));
        assert!(destructive_sql("delete from users"));
        assert!(!destructive_sql("DELETE FROM users WHERE id = 3"));
        assert!(!destructive_sql("SELECT * FROM dropped"));
        assert!(destructive_sql("alter table t drop column c"));
    }

    #[test]
    fn setuid_modes_are_recognised() {
        for mode in ["u+s", "g+s", "+s", "4755", "2755", "6755", "u=rwxs"] {
            assert!(setuid_mode(mode), "{mode}");
        }
        for mode in ["755", "0755", "u+x", "go-w", "a+r", "1777"] {
            assert!(!setuid_mode(mode), "{mode}");
        }
    }
}

#[cfg(test)]
mod remote_programs {
    use super::may_act_remotely;

    #[test]
    fn network_clients_and_programs_with_effects_may_act_remotely() {
        let old = [
            "ssh",
            "scp",
            "sftp",
            "rsync",
            "curl",
            "wget",
            "nc",
            "ncat",
            "netcat",
            "socat",
            "telnet",
            "ftp",
            "lftp",
            "http",
            "https",
            "xh",
            "httpie",
            "aria2c",
            "npx",
            "bunx",
            "uvx",
            "pipx",
            "svn",
            "hg",
            "rclone",
            "s3cmd",
            "az",
            "doctl",
            "flyctl",
            "fly",
            "heroku",
            "vercel",
            "netlify",
            "firebase",
            "wrangler",
            "pulumi",
            "ansible",
            "ansible-playbook",
            "mosh",
            "git",
            "docker",
            "podman",
            "kubectl",
            "oc",
            "helm",
            "terraform",
            "tofu",
            "terragrunt",
            "npm",
            "pnpm",
            "yarn",
            "bun",
            "cargo",
            "twine",
            "gem",
            "poetry",
            "uv",
            "hatch",
            "flit",
            "gh",
            "aws",
            "gcloud",
            "gsutil",
            "psql",
            "mysql",
            "mariadb",
            "sqlite3",
            "clickhouse-client",
            "cockroach",
            "chmod",
            "chown",
            "chgrp",
        ];
        let missing: Vec<&str> = old.into_iter().filter(|p| !may_act_remotely(p)).collect();
        assert!(missing.is_empty(), "{missing:?}");
    }
}
