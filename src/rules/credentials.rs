//! BG315: commands that print credentials — tokens, keys, passwords — to their
//! output, where the agent reads them. The program catalogue marks them with the
//! fact `prints-credentials`: on the program, the subcommand, or a flag
//! (`flag_facts`); the two whose printing depends on an operand's value are
//! narrowed by [`CONDITIONS`].

use crate::catalogue::Fact;
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::Checker;
use crate::rules::environment::is_secret_name;
use crate::rules::invocation::Invocation;

declare_rule! {
    /// ## What it does
    /// Asks when a command prints a credential: `gh auth token`, `gh auth status
    /// -t`, `aws configure get` of a secret key, `aws configure export-credentials`,
    /// `aws sts get-session-token`/`assume-role`, `aws ecr get-login-password`,
    /// `gcloud auth print-access-token`, `az account get-access-token`, `kubectl
    /// config view --raw`, `kubectl create token`, `docker-credential-*`, `gpg
    /// --export-secret-keys`, `git credential fill`, `pass NAME`, `op read`, `op item
    /// get`, `vault read`, `vault token create`, `heroku auth:token`, `fly auth
    /// token`, `az acr login --expose-token`, `age -d`, a settings read of a secret
    /// key (`npm config get //registry.npmjs.org/:_authToken`). The programs and
    /// subcommands are the
    /// catalogue's `prints-credentials` entries (`bashgate explain gh`); dumping the
    /// environment is BG302.
    ///
    /// ## Why
    /// Printing a credential puts it in the agent's context, its logs and whatever
    /// the output is sent to next — the same as reading `~/.aws/credentials`, which
    /// asks (BG107).
    ///
    /// ## Example
    /// - `gh auth token` → ask
    /// - `gh auth status` → allow
    /// - `kubectl config view --raw` → ask
    /// - `kubectl config view` → allow (secrets are redacted)
    /// - `aws configure get aws_secret_access_key` → ask
    /// - `aws configure get region` → allow
    pub static PRINTS_CREDENTIALS = {
        code: "BG315",
        name: "prints-credentials",
        default: Ask,
        capability: SensitiveEnv,
        summary: "prints a credential (gh auth token, aws sts get-session-token, kubectl config view --raw...)",
    };
}

/// A catalogue entry marked `prints-credentials` whose printing depends on the
/// value of an operand, which is code rather than data.
pub struct Condition {
    /// The programs' canonical names.
    pub programs: &'static [&'static str],
    /// The subcommand chain (`["configure", "get"]`).
    pub subcommands: &'static [&'static str],
    /// True when this call prints a credential.
    pub prints: fn(&Invocation) -> bool,
}

/// The conditional entries; every other marked entry (or flag) always prints one.
/// Which subcommands and flags print is catalogue data (`flag_facts`: `gh auth
/// status -t`, `kubectl config view --raw`, `gpg --export-secret-keys`).
pub static CONDITIONS: &[Condition] = &[
    Condition {
        programs: &["aws"],
        subcommands: &["configure", "get"],
        prints: names_a_secret,
    },
    // `npm config get //registry.npmjs.org/:_authToken`, `yarn config get
    // npmAuthToken`: a settings read of a secret key.
    Condition {
        programs: &["npm", "pnpm", "yarn"],
        subcommands: &["config", "get"],
        prints: names_a_secret,
    },
    // `docker compose config` prints the compose file with the environment and
    // `.env` interpolated, unless told not to or asked for names only.
    Condition {
        programs: &["docker"],
        subcommands: &["compose", "config"],
        prints: interpolates,
    },
    Condition {
        programs: &["docker-compose"],
        subcommands: &["config"],
        prints: interpolates,
    },
    Condition {
        // `pass` alone lists the store; `pass NAME` prints NAME.
        programs: &["pass"],
        subcommands: &[],
        prints: |inv| inv.operands().next().is_some(),
    },
];

/// True when an operand names a secret setting (`aws_secret_access_key`,
/// `//registry.npmjs.org/:_authToken`, `npmAuthToken`, npm's `_auth`), or is only
/// known at run time.
fn names_a_secret(inv: &Invocation) -> bool {
    inv.operands().any(|w| {
        w.value().is_none_or(|v| {
            v.ends_with("_auth") || is_secret_name(&v.replace(['.', '-', '/', ':'], "_"))
        })
    })
}

/// True when a compose `config` prints the file with values interpolated: no
/// `--no-interpolate`, and no flag that prints names or hashes instead
/// (`--services`, `--volumes`, `--profiles`, `--images`, `--networks`,
/// `--hash`, `-q`).
fn interpolates(inv: &Invocation) -> bool {
    !inv.rest.iter().filter_map(Word::value).any(|v| {
        matches!(
            v,
            "--no-interpolate"
                | "--services"
                | "--volumes"
                | "--profiles"
                | "--images"
                | "--networks"
                | "-q"
                | "--quiet"
        ) || v.starts_with("--hash")
    })
}

/// The canonical names of the subcommand words `inv` went through.
fn chain(inv: &Invocation) -> Vec<&'static str> {
    let mut names = Vec::new();
    let mut entry = inv.entry;
    for word in &inv.subcommands {
        entry = entry.and_then(|e| e.subcommand(word));
        match entry {
            Some(e) => names.push(e.name),
            None => break,
        }
    }
    names
}

/// Reports a command that prints a credential.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if !entry.use_may_have(Fact::PrintsCredentials) {
        return;
    }
    let Some(inv) = cx.invocation(cmd) else {
        return;
    };
    // The deepest entry reached (the program's own when it has no subcommands),
    // or a flag of this use (`gh auth status -t`).
    let leaf_prints = inv.leaf.is_some_and(|e| e.has(Fact::PrintsCredentials));
    let flag_prints = entry.flag_may_add(Fact::PrintsCredentials)
        && cx
            .usage(cmd)
            .is_some_and(|u| u.flag_for(Fact::PrintsCredentials).is_some());
    // `git credential "$OP"`: a word only known at run time names a subcommand
    // that may be one that prints (`fill`).
    let dynamic_sub = inv.leaf.is_some_and(|l| {
        l.subcommands.iter().any(|s| s.has(Fact::PrintsCredentials))
            && inv.operands().next().is_some_and(|w| w.value().is_none())
    });
    if !leaf_prints && !flag_prints && !dynamic_sub {
        return;
    }
    // Dumping the environment (`printenv`, `env`) is BG302's: one finding for it.
    if cx
        .findings
        .iter()
        .any(|f| f.rule == "BG302" && f.span.start >= cmd.span.start && f.span.end <= cmd.span.end)
    {
        return;
    }
    let names = chain(&inv);
    if !flag_prints
        && !dynamic_sub
        && let Some(condition) = CONDITIONS
            .iter()
            .find(|c| c.programs.contains(&inv.program) && c.subcommands == names.as_slice())
        && !(condition.prints)(&inv)
    {
        return;
    }
    let what = std::iter::once(inv.program)
        .chain(inv.subcommands.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let span = cmd.name().map_or(cmd.span, |w| w.span);
    let span = crate::verdict::Span::new(span.start, cmd.span.end.max(span.end));
    cx.report(
        &PRINTS_CREDENTIALS,
        span,
        format!("`{what}` prints a credential into the agent's output"),
    );
}

/// Name prefixes that many secrets share: a filter on one of them lets the
/// secrets through (`env | grep AWS` prints `AWS_SECRET_ACCESS_KEY`).
const SECRET_PREFIXES: &[&str] = &[
    "AWS",
    "AZURE",
    "GCP",
    "GOOGLE",
    "GITHUB",
    "GH",
    "GITLAB",
    "OPENAI",
    "ANTHROPIC",
    "NPM",
    "DOCKER",
    "STRIPE",
    "SLACK",
    "TWILIO",
    "SENTRY",
    "DB",
    "DATABASE",
    "POSTGRES",
    "PG",
    "MYSQL",
    "REDIS",
    "MONGO",
    "HF",
    "HUGGING",
    "VAULT",
    "OP",
    "API",
    "AUTH",
    "SSH",
    "GPG",
    "SECRET",
];

/// True when `pattern` (a grep pattern) selects one plain name that is not a
/// secret's: letters, digits and `_` (an optional leading `^` and trailing `=`),
/// at least three characters, not secret-looking, not a prefix secrets share.
fn plain_safe_name(pattern: &str) -> bool {
    let name = pattern.strip_prefix('^').unwrap_or(pattern);
    let name = name.strip_suffix('=').unwrap_or(name);
    let upper = name.to_ascii_uppercase();
    name.len() >= 3
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !is_secret_name(name)
        && !SECRET_PREFIXES
            .iter()
            .any(|p| upper == *p || upper.starts_with(&format!("{p}_")))
}

/// True when `cmd` is `grep [-F|-w|-x|-i|-E|-G]... PATTERN` reading stdin only.
fn greps_one_safe_name(cmd: &SimpleCommand) -> bool {
    if cmd.base_name().and_then(crate::catalogue::canonical) != Some("grep")
        || !cmd.context.piped_stdin
        || !cmd.redirects.iter().all(|r| r.is_fd_duplication())
    {
        return false;
    }
    let mut pattern = None;
    for word in cmd.args() {
        match word.value() {
            Some(v) if v.starts_with('-') => {
                let flags_ok = v.len() > 1
                    && !v.starts_with("--")
                    && v[1..]
                        .chars()
                        .all(|c| matches!(c, 'F' | 'w' | 'x' | 'i' | 'E' | 'G'));
                if !flags_ok {
                    return false;
                }
            }
            Some(v) if pattern.is_none() => pattern = Some(v),
            // A second operand is a file; a dynamic word is anything.
            _ => return false,
        }
    }
    pattern.is_some_and(plain_safe_name)
}

/// True when `cmd` dumps the whole environment and does nothing else: `env`,
/// `printenv`, `set`, `export`, `export -p`, `declare -p|-x`, `typeset -p`.
fn dumps_environment(cmd: &SimpleCommand) -> bool {
    let only_flags = cmd
        .args()
        .iter()
        .all(|w| matches!(w.value(), Some("-p" | "-x" | "-px" | "-xp")));
    let plain = cmd.redirects.is_empty() && cmd.assignments.is_empty() && cmd.script.is_none();
    let env_alone = cmd.program.is_none()
        && cmd.words.len() == 1
        && cmd.words[0]
            .value()
            .is_some_and(|v| crate::catalogue::canonical(v) == Some("env"));
    // Builtins are the shell's and exact; `printenv` is a program, in any case.
    let base = cmd.base_name();
    let dump_builtin = (matches!(base, Some("set" | "export" | "declare" | "typeset"))
        || base.and_then(crate::catalogue::canonical) == Some("printenv"))
        && only_flags;
    plain && (env_alone || dump_builtin)
}

/// Drops BG302's dump finding when the dump goes straight into a grep of one safe
/// name (`env | grep PATH`, `printenv | grep -w HOME`).
pub fn check_filtered_dumps(commands: &[SimpleCommand], cx: &mut Checker) {
    for pair in commands.windows(2) {
        let [dump, filter] = pair else {
            continue;
        };
        let piped = dumps_environment(dump)
            && dump.context.in_pipeline
            && filter.context.nesting == dump.context.nesting
            && dump.span.end <= filter.span.start
            && dump.redirects.is_empty()
            && greps_one_safe_name(filter);
        if !piped {
            continue;
        }
        cx.findings.retain(|f| {
            !(f.rule == "BG302" && f.span.start >= dump.span.start && f.span.end <= dump.span.end)
        });
    }
}
