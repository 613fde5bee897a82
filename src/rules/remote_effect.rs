//! BG210: commands whose effect leaves the project or cannot be undone — rewriting a
//! remote's history, publishing a package, deleting cloud or cluster resources,
//! destroying infrastructure, throwing away uncommitted work, widening permissions.
//!
//! The facts are one data table ([`EFFECTS`]): program, subcommand words, the
//! argument condition, what happens and a safer alternative. Arguments are read the
//! way the programs read them: short flags in any cluster (`-fd`), long flags with or
//! without `=value`, options before or after the subcommand, values of options that
//! take one skipped. Wrappers (`sudo`, `env`, `xargs`...) are already unwrapped by
//! the walker, so the program here is the one that runs.

use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::rules::Checker;
use crate::rules::program_filter::ProgramFilter;
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
    /// "$REF"`: the ref could be `+main`) asks as well. Each finding carries a safer
    /// alternative (`suggestion`, shown as `help:`).
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

/// When an entry applies, given its subcommand matched.
#[derive(Clone, Copy)]
pub enum When {
    /// Always.
    Always,
    /// When any of these flags is present. A spelling `-x` (one letter) matches the
    /// letter in any short cluster; `--long` matches `--long` and `--long=...`;
    /// `-long` (one dash, several letters, terraform style) matches `-long`,
    /// `--long` and either with `=...`.
    Flag(&'static [&'static str]),
    /// A condition over the arguments.
    Test(fn(&Call) -> bool),
}

/// One fact: a program's subcommand and when it acts remotely or irreversibly.
pub struct Effect {
    /// Program names (basenames).
    pub programs: &'static [&'static str],
    /// Options of the program that take a separate value (their value is not a
    /// positional word).
    pub value_options: &'static [&'static str],
    /// The leading positional words; `*` matches any one word.
    pub subcommand: &'static [&'static str],
    /// The argument condition.
    pub when: When,
    /// What happens, for the message.
    pub what: &'static str,
    /// A safer alternative.
    pub suggestion: &'static str,
}

const GIT_VALUE_OPTIONS: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "-o",
    "--push-option",
    "--repo",
    "--receive-pack",
    "--exec",
];
const DOCKER_VALUE_OPTIONS: &[&str] = &[
    "-H",
    "--host",
    "--context",
    "-c",
    "--config",
    "-l",
    "--log-level",
    "--filter",
];
const KUBE_VALUE_OPTIONS: &[&str] = &[
    "-n",
    "--namespace",
    "--context",
    "--cluster",
    "--kubeconfig",
    "-s",
    "--server",
    "--user",
    "--kube-context",
    "-l",
    "--selector",
    "-f",
    "--filename",
    "-o",
    "--output",
];
const AWS_VALUE_OPTIONS: &[&str] = &[
    "--profile",
    "--region",
    "--endpoint-url",
    "--output",
    "--query",
    "--color",
    "--ca-bundle",
    "--cli-read-timeout",
    "--cli-connect-timeout",
];
const CLOUD_VALUE_OPTIONS: &[&str] = &[
    "--project",
    "--zone",
    "--region",
    "--account",
    "--format",
    "--configuration",
    "--subscription",
    "-g",
    "--resource-group",
    "-n",
    "--name",
    "-p",
];
const DB_VALUE_OPTIONS: &[&str] = &[
    "-h",
    "--host",
    "-p",
    "--port",
    "-U",
    "--username",
    "-u",
    "--user",
    "-d",
    "--dbname",
    "-D",
    "--database",
    "-P",
    "-S",
    "--socket",
];
const PUBLISH: &str = "publishes a package to a public registry; a release cannot be taken back";
const PUBLISH_DRY: &str =
    "check the package first with a dry run (`--dry-run`), then let a person publish";

/// The table of facts.
pub static EFFECTS: &[Effect] = &[
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["push"],
        when: When::Test(git_push_rewrites),
        what: "`git push` that overwrites or deletes refs on the remote (history others may have)",
        suggestion: "push without forcing; if a rewrite is really needed, `git push --force-with-lease` after a person reviewed it",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["reset"],
        when: When::Flag(&["--hard"]),
        what: "`git reset --hard` throws away uncommitted changes",
        suggestion: "`git stash` keeps the changes recoverable; `git reset --keep` refuses to discard them",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["checkout"],
        when: When::Test(git_checkout_discards),
        what: "`git checkout` of paths throws away their uncommitted changes",
        suggestion: "`git stash push -- PATH` keeps the changes recoverable",
    },
    Effect {
        programs: &["git"],
        value_options: &["-C", "-c", "--git-dir", "--work-tree", "-s", "--source"],
        subcommand: &["restore"],
        when: When::Test(git_restore_discards),
        what: "`git restore` of the work tree throws away uncommitted changes",
        suggestion: "`git stash push -- PATH` keeps the changes recoverable; `git restore --staged` only unstages",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["clean"],
        when: When::Test(git_clean_deletes),
        what: "`git clean -f` deletes untracked files, which exist nowhere else",
        suggestion: "`git clean -n` lists what would be deleted",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["branch"],
        when: When::Test(git_branch_force_delete),
        what: "`git branch -D` deletes a branch even when its commits are merged nowhere",
        suggestion: "`git branch -d` refuses to delete unmerged work",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["stash", "drop"],
        when: When::Always,
        what: "`git stash drop` deletes stashed changes",
        suggestion: "`git stash list` and `git stash show -p` first; keep the stash",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["stash", "clear"],
        when: When::Always,
        what: "`git stash clear` deletes every stashed change",
        suggestion: "`git stash list` first; drop single stashes after review",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["reflog", "expire"],
        when: When::Always,
        what: "`git reflog expire` removes the record that makes lost commits recoverable",
        suggestion: "leave the reflog to `git gc`'s defaults",
    },
    Effect {
        programs: &["git"],
        value_options: GIT_VALUE_OPTIONS,
        subcommand: &["filter-branch"],
        when: When::Always,
        what: "`git filter-branch` rewrites the whole history",
        suggestion: "work on a fresh clone, and let a person review before any push",
    },
    Effect {
        programs: &["docker", "podman"],
        value_options: DOCKER_VALUE_OPTIONS,
        subcommand: &["system", "prune"],
        when: When::Always,
        what: "`docker system prune` deletes every stopped container, unused network and dangling image (and volumes with `--volumes`)",
        suggestion: "remove the one container or image by name (`docker rm NAME`)",
    },
    Effect {
        programs: &["docker", "podman"],
        value_options: DOCKER_VALUE_OPTIONS,
        subcommand: &["volume", "rm"],
        when: When::Always,
        what: "`docker volume rm` deletes the data stored in the volume",
        suggestion: "back the volume up first (`docker run --rm -v VOL:/v busybox tar c /v`)",
    },
    Effect {
        programs: &["docker", "podman"],
        value_options: DOCKER_VALUE_OPTIONS,
        subcommand: &["volume", "prune"],
        when: When::Always,
        what: "`docker volume prune` deletes the data of every unused volume",
        suggestion: "remove one volume by name after checking it",
    },
    Effect {
        programs: &["docker", "podman"],
        value_options: DOCKER_VALUE_OPTIONS,
        subcommand: &["*", "prune"],
        when: When::Always,
        what: "`docker ... prune` deletes every unused object of its kind",
        suggestion: "remove the one object by name",
    },
    Effect {
        programs: &["kubectl", "oc"],
        value_options: KUBE_VALUE_OPTIONS,
        subcommand: &["delete"],
        when: When::Always,
        what: "`kubectl delete` deletes cluster resources (a namespace takes everything in it)",
        suggestion: "`kubectl delete --dry-run=server` shows what would go; let a person run it",
    },
    Effect {
        programs: &["kubectl", "oc"],
        value_options: KUBE_VALUE_OPTIONS,
        subcommand: &["drain"],
        when: When::Always,
        what: "`kubectl drain` evicts every workload from a node",
        suggestion: "`kubectl cordon` stops new scheduling without evicting",
    },
    Effect {
        programs: &["helm"],
        value_options: KUBE_VALUE_OPTIONS,
        subcommand: &["uninstall"],
        when: When::Always,
        what: "`helm uninstall` deletes a release and its cluster resources",
        suggestion: "`helm uninstall --dry-run` shows what would go",
    },
    Effect {
        programs: &["helm"],
        value_options: KUBE_VALUE_OPTIONS,
        subcommand: &["delete"],
        when: When::Always,
        what: "`helm delete` deletes a release and its cluster resources",
        suggestion: "`helm uninstall --dry-run` shows what would go",
    },
    Effect {
        programs: &["terraform", "tofu", "terragrunt"],
        value_options: &["-chdir"],
        subcommand: &["destroy"],
        when: When::Always,
        what: "`terraform destroy` deletes the real infrastructure the state describes",
        suggestion: "`terraform plan -destroy` shows what would be deleted",
    },
    Effect {
        programs: &["terraform", "tofu", "terragrunt"],
        value_options: &["-chdir"],
        subcommand: &["apply"],
        when: When::Flag(&["-auto-approve", "-destroy"]),
        what: "`terraform apply` without its confirmation prompt changes real infrastructure",
        suggestion: "`terraform plan -out=PLAN`, review it, then apply that plan",
    },
    Effect {
        programs: &["npm", "pnpm", "yarn", "bun"],
        value_options: &["--registry", "--tag", "--access", "--otp"],
        subcommand: &["publish"],
        when: When::Test(not_dry_run),
        what: PUBLISH,
        suggestion: PUBLISH_DRY,
    },
    Effect {
        programs: &["npm", "pnpm", "yarn"],
        value_options: &["--registry", "--otp"],
        subcommand: &["unpublish"],
        when: When::Always,
        what: "`npm unpublish` removes a published version others may depend on",
        suggestion: "`npm deprecate` warns users without breaking them",
    },
    Effect {
        programs: &["yarn"],
        value_options: &[],
        subcommand: &["npm", "publish"],
        when: When::Test(not_dry_run),
        what: PUBLISH,
        suggestion: PUBLISH_DRY,
    },
    Effect {
        programs: &["cargo"],
        value_options: &["--registry", "--token", "-p", "--package", "--index"],
        subcommand: &["publish"],
        when: When::Test(not_dry_run),
        what: PUBLISH,
        suggestion: "`cargo publish --dry-run` checks the package; let a person publish",
    },
    Effect {
        programs: &["cargo"],
        value_options: &["--registry", "--token", "--version", "--index"],
        subcommand: &["yank"],
        when: When::Always,
        what: "`cargo yank` withdraws a published version others may depend on",
        suggestion: "let a person decide on yanking",
    },
    Effect {
        programs: &["twine"],
        value_options: &["-r", "--repository", "--repository-url"],
        subcommand: &["upload"],
        when: When::Always,
        what: PUBLISH,
        suggestion: "`twine check dist/*` checks the package; let a person upload",
    },
    Effect {
        programs: &["gem"],
        value_options: &["--host", "-k", "--key"],
        subcommand: &["push"],
        when: When::Always,
        what: PUBLISH,
        suggestion: "`gem build` checks the package; let a person push",
    },
    Effect {
        programs: &["poetry", "uv", "hatch", "flit"],
        value_options: &["-r", "--repository", "--index", "--publish-url"],
        subcommand: &["publish"],
        when: When::Test(not_dry_run),
        what: PUBLISH,
        suggestion: PUBLISH_DRY,
    },
    Effect {
        programs: &["gh"],
        value_options: &["-R", "--repo"],
        subcommand: &["repo", "delete"],
        when: When::Always,
        what: "`gh repo delete` deletes a hosted repository with its issues and pull requests",
        suggestion: "`gh repo archive` keeps it readable and reversible",
    },
    Effect {
        programs: &["gh"],
        value_options: &["-R", "--repo"],
        subcommand: &["release", "delete"],
        when: When::Always,
        what: "`gh release delete` deletes a published release and its assets",
        suggestion: "edit the release (`gh release edit --draft`) instead",
    },
    Effect {
        programs: &["aws"],
        value_options: AWS_VALUE_OPTIONS,
        subcommand: &["s3", "rm"],
        when: When::Flag(&["--recursive"]),
        what: "`aws s3 rm --recursive` deletes every object under the prefix",
        suggestion: "`aws s3 rm --recursive --dryrun` lists what would be deleted",
    },
    Effect {
        programs: &["aws"],
        value_options: AWS_VALUE_OPTIONS,
        subcommand: &["s3", "rb"],
        when: When::Always,
        what: "`aws s3 rb` deletes a bucket (with `--force`, its objects too)",
        suggestion: "let a person delete buckets",
    },
    Effect {
        programs: &["aws"],
        value_options: AWS_VALUE_OPTIONS,
        subcommand: &["s3", "sync"],
        when: When::Flag(&["--delete"]),
        what: "`aws s3 sync --delete` deletes objects missing from the source",
        suggestion: "`aws s3 sync --delete --dryrun` lists what would be deleted",
    },
    Effect {
        programs: &["aws"],
        value_options: AWS_VALUE_OPTIONS,
        subcommand: &["*", "*"],
        when: When::Test(aws_deletes),
        what: "an `aws ... delete-*`/`terminate-*` call deletes cloud resources",
        suggestion: "most AWS calls accept `--dry-run`; let a person delete",
    },
    Effect {
        programs: &["gcloud", "az"],
        value_options: CLOUD_VALUE_OPTIONS,
        subcommand: &[],
        when: When::Test(cloud_deletes),
        what: "a `gcloud`/`az ... delete` deletes cloud resources",
        suggestion: "list the resource (`... describe`/`show`) and let a person delete it",
    },
    Effect {
        programs: &["gsutil"],
        value_options: &["-o", "-h"],
        subcommand: &["rm"],
        when: When::Always,
        what: "`gsutil rm` deletes cloud storage objects",
        suggestion: "list them with `gsutil ls` and let a person delete",
    },
    Effect {
        programs: &[
            "psql",
            "mysql",
            "mariadb",
            "sqlite3",
            "clickhouse-client",
            "cockroach",
        ],
        value_options: DB_VALUE_OPTIONS,
        subcommand: &[],
        when: When::Test(sql_destroys),
        what: "SQL that drops, truncates or deletes every row of a table",
        suggestion: "run it in a transaction you can roll back, or add a `WHERE`; let a person run it",
    },
    Effect {
        programs: &["chmod"],
        value_options: &["--reference"],
        subcommand: &[],
        when: When::Test(chmod_widens),
        what: "`chmod` sets setuid/setgid or changes modes recursively",
        suggestion: "change the mode of the single files that need it, without setuid/setgid",
    },
    Effect {
        programs: &["chown", "chgrp"],
        value_options: &["--reference", "--from"],
        subcommand: &[],
        when: When::Flag(&["-R", "--recursive"]),
        what: "recursive ownership change of a whole tree",
        suggestion: "change the owner of the single files that need it",
    },
];

/// The arguments of one command, as an entry's condition sees them.
pub struct Call<'a> {
    /// Every argument after the program (`None`: only known at run time).
    pub args: &'a [Option<String>],
    /// Positional words after the subcommand, options and their values removed.
    pub rest: Vec<&'a str>,
    /// Every positional word, the subcommand included.
    pub positionals: Vec<&'a str>,
}

impl Call<'_> {
    /// True when any of the flag spellings is present (see [`When::Flag`]).
    pub fn has(&self, spellings: &[&str]) -> bool {
        options(self.args).any(|arg| spellings.iter().any(|s| flag_matches(arg, s)))
    }

    /// The value of the first option spelled one of `spellings` (`-c SQL`,
    /// `-cSQL`, `--command=SQL`, `--command SQL`).
    pub fn value_of(&self, spellings: &[&str]) -> Vec<Option<&str>> {
        let mut found = Vec::new();
        let mut i = 0;
        while i < self.args.len() {
            let Some(arg) = self.args[i].as_deref() else {
                i += 1;
                continue;
            };
            if arg == "--" {
                break;
            }
            for s in spellings {
                if arg == *s {
                    found.push(self.args.get(i + 1).and_then(|a| a.as_deref()));
                } else if let Some(v) = arg.strip_prefix(s) {
                    if s.starts_with("--") {
                        if let Some(v) = v.strip_prefix('=') {
                            found.push(Some(v));
                        }
                    } else if s.len() == 2 {
                        found.push(Some(v));
                    }
                }
            }
            i += 1;
        }
        found
    }
}

/// The static option words (before `--`).
fn options(args: &[Option<String>]) -> impl Iterator<Item = &str> {
    args.iter()
        .filter_map(|a| a.as_deref())
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1)
}

/// Does the option word `arg` spell the flag `spelling`?
fn flag_matches(arg: &str, spelling: &str) -> bool {
    if let Some(long) = spelling.strip_prefix("--") {
        let Some(given) = arg.strip_prefix("--") else {
            return false;
        };
        return given == long || given.strip_prefix(long).is_some_and(|r| r.starts_with('='));
    }
    let Some(name) = spelling.strip_prefix('-') else {
        return false;
    };
    if name.chars().count() == 1 {
        // A short flag: any cluster of letters (`-fd`), but not a long option.
        let Some(cluster) = arg.strip_prefix('-') else {
            return false;
        };
        return !cluster.starts_with('-')
            && cluster.chars().all(|c| c.is_ascii_alphanumeric())
            && cluster.contains(name);
    }
    // One-dash long option (terraform): `-name`, `--name`, `=value` allowed.
    let given = arg.trim_start_matches('-');
    given == name || given.strip_prefix(name).is_some_and(|r| r.starts_with('='))
}

/// Positional words: options and the values of value options removed; everything
/// after `--` is positional. Dynamic words are `None`.
fn positionals<'a>(args: &'a [Option<String>], value_options: &[&str]) -> Vec<Option<&'a str>> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options_end = false;
    while i < args.len() {
        match args[i].as_deref() {
            None => out.push(None),
            Some("--") if !options_end => options_end = true,
            Some(a) if !options_end && a.starts_with('-') && a.len() > 1 => {
                if value_options.contains(&a) {
                    i += 1;
                }
            }
            Some(a) => out.push(Some(a)),
        }
        i += 1;
    }
    out
}

/// `git push` with a force/delete/mirror flag or a `+ref`/`:ref` refspec; a word
/// only known at run time could be either.
fn git_push_rewrites(call: &Call) -> bool {
    call.args.iter().any(Option::is_none)
        || call.has(&[
            "-f",
            "-d",
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--mirror",
            "--delete",
            "--prune",
        ])
        || call
            .rest
            .iter()
            .any(|r| r.starts_with('+') || r.starts_with(':'))
}

/// `git checkout -- PATH`, `git checkout .`, `git checkout -f`.
fn git_checkout_discards(call: &Call) -> bool {
    let after_dashdash = call
        .args
        .iter()
        .skip_while(|a| a.as_deref() != Some("--"))
        .nth(1)
        .is_some();
    after_dashdash || call.rest.contains(&".") || call.has(&["-f", "--force"])
}

/// `git restore PATH` touching the work tree (not `--staged` alone).
fn git_restore_discards(call: &Call) -> bool {
    let staged_only = call.has(&["-S", "--staged"]) && !call.has(&["-W", "--worktree"]);
    !staged_only && !call.rest.is_empty()
}

/// `git clean -f` without `-n`.
fn git_clean_deletes(call: &Call) -> bool {
    call.has(&["-f", "--force"]) && !call.has(&["-n", "--dry-run"])
}

/// `git branch -D`, `git branch -d -f`, `--delete --force`.
fn git_branch_force_delete(call: &Call) -> bool {
    call.has(&["-D"]) || (call.has(&["-d", "--delete"]) && call.has(&["-f", "--force"]))
}

fn not_dry_run(call: &Call) -> bool {
    !call.has(&["--dry-run", "-n"])
}

/// `aws SERVICE delete-*|terminate-*|remove-*`.
fn aws_deletes(call: &Call) -> bool {
    call.positionals.get(1).is_some_and(|op| {
        ["delete-", "terminate-", "remove-", "deregister-", "purge-"]
            .iter()
            .any(|p| op.starts_with(p))
    })
}

/// `gcloud ... delete`, `az ... delete`.
fn cloud_deletes(call: &Call) -> bool {
    call.positionals
        .iter()
        .take(5)
        .any(|w| matches!(*w, "delete" | "purge" | "destroy"))
}

/// A database client given SQL that drops, truncates or deletes without `WHERE`.
fn sql_destroys(call: &Call) -> bool {
    let mut scripts = call.value_of(&["-c", "--command", "-e", "--execute", "-q", "--query"]);
    // sqlite3 DB "SQL": the second positional.
    if let Some(sql) = call.positionals.get(1) {
        scripts.push(Some(sql));
    }
    scripts.iter().any(|s| match s {
        None => true,
        Some(sql) => destructive_sql(sql),
    })
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

/// `chmod` with a setuid/setgid mode, or recursive.
fn chmod_widens(call: &Call) -> bool {
    if call.has(&["-R", "--recursive"]) {
        return true;
    }
    call.positionals
        .first()
        .is_some_and(|mode| setuid_mode(mode))
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

/// Programs that talk to other machines as part of ordinary use (fetching, pushing,
/// copying, calling an API) without being in [`EFFECTS`].
const REMOTE_PROGRAMS: &[&str] = &[
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
];

/// True when `program` (a basename) can act outside the project in ordinary use: a
/// program of the effects table (whatever its arguments) or a network client. A hook that
/// approves calls (`--approve`) never approves these; it leaves them to the agent's
/// own permission flow.
pub fn may_act_remotely(program: &str) -> bool {
    EFFECTS.iter().any(|e| e.programs.contains(&program)) || REMOTE_PROGRAMS.contains(&program)
}

/// The entry that applies to `cmd`, and whether a dynamic argument decided it.
pub fn effect_of(cmd: &SimpleCommand) -> Option<(&'static Effect, bool)> {
    // Any case, `.exe` stripped: on a case-insensitive file system `GIT` runs git.
    let program = crate::catalogue::program_basename(basename(cmd.name_str()?));
    let args = cmd.arg_values();
    for effect in EFFECTS {
        if !effect
            .programs
            .iter()
            .any(|p| p.eq_ignore_ascii_case(program))
        {
            continue;
        }
        let all = positionals(&args, effect.value_options);
        let n = effect.subcommand.len();
        if all.len() < n {
            continue;
        }
        let matched = effect
            .subcommand
            .iter()
            .zip(&all)
            .all(|(want, got)| *want == "*" || *got == Some(*want));
        if !matched {
            continue;
        }
        let static_positionals: Vec<&str> = all.iter().flatten().copied().collect();
        let call = Call {
            args: &args,
            rest: all[n..].iter().flatten().copied().collect(),
            positionals: static_positionals,
        };
        let hit = match effect.when {
            When::Always => true,
            When::Flag(spellings) => call.has(spellings),
            When::Test(test) => test(&call),
        };
        if hit {
            return Some((effect, false));
        }
        // A flag hidden in a dynamic word could be the one; conditions over
        // arguments (`When::Test`) weigh dynamic words themselves.
        if matches!(effect.when, When::Flag(_)) && args.iter().any(Option::is_none) {
            return Some((effect, true));
        }
    }
    None
}

/// The programs of [`EFFECTS`]: a command running another one has no effect.
static EFFECT_PROGRAMS: ProgramFilter = ProgramFilter::new(|| {
    EFFECTS
        .iter()
        .flat_map(|e| e.programs.iter().copied())
        .collect()
});

/// Asks for the commands of [`EFFECTS`].
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if !EFFECT_PROGRAMS.may_match(cmd) {
        return;
    }
    let Some(word) = cmd.name() else {
        return;
    };
    let Some((effect, dynamic)) = effect_of(cmd) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_filter_lets_every_program_of_the_table_through() {
        for name in EFFECTS.iter().flat_map(|e| e.programs.iter()) {
            for spelling in [name.to_string(), name.to_ascii_uppercase()] {
                assert!(EFFECT_PROGRAMS.contains(&spelling), "{spelling}");
            }
        }
    }

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
        assert!(flag_matches("-auto-approve", "-auto-approve"));
        assert!(flag_matches("--auto-approve=true", "-auto-approve"));
        assert!(!flag_matches("-a", "-auto-approve"));
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
