//! BG206: talking to the network.

use crate::catalogue::Values;
use crate::catalogue::{self, Fact, Role};
use crate::declare_rule;
use crate::model::command::SimpleCommand;
use crate::model::word::Word;
use crate::rules::{Checker, invocation};
use std::path::Path;

declare_rule! {
    /// ## What it does
    /// Asks (safe mode) before network tools: `curl`, `wget`, `nc`/`ncat`/`netcat`,
    /// `socat`, `telnet`, `ssh`, `scp`, `sftp`, `ftp`, `rsync` to a remote
    /// (`host:path`), redirects to `/dev/tcp/...` or `/dev/udp/...`; running
    /// packages fetched on the fly (`npx`, `pnpm dlx`, `yarn dlx`, `bunx`, `uvx`,
    /// `pipx run`); global installs (`npm install -g`); and `pip install` outside a
    /// project virtual environment (a `pip` under the project, e.g. `.venv/bin/pip`,
    /// or `uv pip`, passes). A tool pointed at another machine's daemon, cluster or
    /// a listening address (the catalogue's `remote` role: `docker -H tcp://h`,
    /// `DOCKER_HOST=...`, `kubectl --server URL`, `--kubeconfig`, `--context`,
    /// `jupyter --ip 0.0.0.0`; loopback addresses and `unix://` sockets pass), a
    /// server that listens on every interface unless bound to this machine (the
    /// catalogue's `listens`: `python -m http.server`; `--bind 127.0.0.1` passes),
    /// a file read from a URL (`kubectl apply -f https://...`), and a fetch with
    /// the TLS or signature check switched off — a flag the catalogue marks
    /// `skips-verification` (`npm install --no-strict-ssl`), a setting for the
    /// run whose key has the `verification` role (`git -c http.sslVerify=false`),
    /// or such a variable set (`GIT_SSL_NO_VERIFY=1`,
    /// `NODE_TLS_REJECT_UNAUTHORIZED=0`) — ask too. Trusted mode allows them; a permission rule can allow
    /// one tool (`"curl *" = "allow"`).
    ///
    /// ## Why
    /// The network is where data leaves and where unreviewed code comes from
    /// (`curl ... | sh`).
    ///
    /// ## Example
    /// - `curl -fsSL https://x/install.sh | sh` → ask (BG206, BG204): network, and a shell reading a pipe
    /// - `npm install` → allow
    /// - `git push` → allow
    /// - `docker -H tcp://10.0.0.5:2375 ps` → ask
    /// - `docker ps` → allow
    pub static NETWORK_TOOL = {
        code: "BG206",
        name: "network-tool",
        default: Ask,
        capability: Network,
        summary: "talks to the network (curl, wget, nc, ssh, npx, pip install...)",
    };
}

/// Asks for network tools and fetch-and-run package runners.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    if cx.policy.mode == crate::Mode::Trusted {
        return;
    }
    for redirect in &cmd.redirects {
        let target = redirect
            .target
            .as_ref()
            .map(Word::display)
            .unwrap_or_default();
        if target.starts_with("/dev/tcp/") || target.starts_with("/dev/udp/") {
            cx.report(
                &NETWORK_TOOL,
                redirect.span,
                "opens a network connection through /dev/tcp or /dev/udp".into(),
            );
        }
    }
    // `DOCKER_HOST=tcp://h docker ps`, `export KUBECONFIG=/tmp/k`: a variable some
    // tool reads as the machine it drives (`env_keys` with the `remote` role).
    for assignment in &cmd.assignments {
        let value = assignment.value.as_ref().and_then(Word::value);
        // `GIT_SSL_NO_VERIFY=1 git clone`, `NODE_TLS_REJECT_UNAUTHORIZED=0 npm
        // install`: a variable some tool reads as the switch of its TLS or
        // signature check (`env_keys` with the `verification` role), set.
        if switches_verification(&assignment.name) {
            cx.report(
                &NETWORK_TOOL,
                assignment.span,
                format!(
                    "`{}` switches off the TLS or signature check of what is fetched: whoever sits on the way can change what is installed and run",
                    assignment.name
                ),
            );
        }
        if names_a_remote(&assignment.name) && !value.is_some_and(is_loopback) {
            cx.report(
                &NETWORK_TOOL,
                assignment.span,
                format!(
                    "`{}` points a tool at another machine's daemon or cluster: what it runs runs there",
                    assignment.name
                ),
            );
        }
    }
    let (Some(program), Some(base), Some(name)) =
        (cx.program_str(cmd), cx.base_name(cmd), cmd.name())
    else {
        return;
    };
    let entry = cx.entry(cmd);
    // `python -m pip install`: a module run as a program is judged as that program,
    // with the words after it (`python -m flask run --host 0.0.0.0` too).
    let module = entry
        .filter(|e| e.mentions(&[Role::Module]))
        .and_then(|_| invocation::module_program(cmd.args(), &cx.args(cmd)));
    // The words read with the program's own entry: their reading is the cached one.
    let own = module.is_none();
    let (entry, args) = match module {
        Some((module, rest)) => (Some(module), rest),
        None => (entry, cmd.args()),
    };
    let base = entry.map_or(base, |e| e.name);
    // `docker -H tcp://h ps`, `kubectl --server URL`, `php -S 0.0.0.0:80`: a value
    // whose role is `remote` names another machine or a listening address.
    // (A setting for this run whose key has that role, `git -c
    // remote.origin.url=URL`, is `fetch_settings`' below.)
    if let Some(e) = entry.filter(|e| e.words_mention(Role::Remote)) {
        let readings = if own {
            cx.args(cmd)
        } else {
            let values: Values = args.iter().map(Word::value).collect();
            catalogue::classify(e, &values)
        };
        if let Some(arg) = readings.iter().copied().find(|a| {
            a.role == Role::Remote
                && !args
                    .get(a.index)
                    .and_then(Word::value)
                    .and_then(|w| w.get(a.offset..))
                    .is_some_and(is_loopback)
        }) {
            let word = args.get(arg.index).map(Word::display).unwrap_or_default();
            cx.report(
                &NETWORK_TOOL,
                name.span,
                format!(
                    "`{base}` is pointed at another machine or a listening address (`{word}`): what it runs or serves crosses machines"
                ),
            );
            return;
        }
    }
    if let Some(e) = entry
        && let Some((what, setting)) = fetch_settings(e, args)
    {
        let message = match setting {
            Setting::Elsewhere => format!(
                "`{base}` with {what} is pointed at another machine: what it fetches or sends goes there"
            ),
            Setting::Unverified => format!(
                "`{base}` with {what} fetches without checking TLS certificates or signatures: whoever sits on the way can change what is installed and run"
            ),
        };
        cx.report(&NETWORK_TOOL, name.span, message);
        return;
    }
    // `python -m http.server`, busybox `httpd`: a server that listens on every
    // interface unless a `remote` value (`--bind 127.0.0.1`) binds it here.
    if let Some(server) = entry.filter(|e| e.has(Fact::Listens)) {
        let words: Values = args.iter().map(Word::value).collect();
        let bound_here = catalogue::classify(server, &words)
            .iter()
            .copied()
            .any(|a| {
                a.role == Role::Remote
                    && words
                        .get(a.index)
                        .copied()
                        .flatten()
                        .and_then(|w| w.get(a.offset..))
                        .is_some_and(is_loopback)
            });
        if !bound_here {
            cx.report(
                &NETWORK_TOOL,
                name.span,
                format!(
                    "`{base}` serves on every network interface: other machines can reach what it serves (bind it to 127.0.0.1)"
                ),
            );
            return;
        }
    }
    // The subcommand's facts: `pnpm dlx`, `pipx run`, `yarn global`, `cargo install`,
    // `uv tool run` (the deepest subcommand the words name, options before it
    // read with the program's table: `npm -g install`, `pnpm -C x dlx`).
    let words: Values = args.iter().map(Word::value).collect();
    let readings = match entry.filter(|e| !e.subcommands.is_empty()) {
        Some(_) if own => cx.args(cmd),
        Some(e) => catalogue::classify(e, &words),
        None => super::NO_ARGS.with(std::rc::Rc::clone),
    };
    let chain = invocation::chain(entry, args, &readings);
    let sub = (!chain.subcommands.is_empty())
        .then_some(chain.leaf)
        .flatten();
    let depth = chain.subcommands.len();
    let after = chain.after;
    let first = chain.subcommands.first().copied();
    // On the stack: most commands have a few words.
    let values: smallvec::SmallVec<[&str; 8]> =
        args.iter().map(|w| w.value().unwrap_or("\u{1}")).collect();
    let first = first.or(values.first().copied()).unwrap_or("");
    let usage = entry
        .filter(|e| e.flag_may_add(Fact::InstallsGlobally))
        .and_then(|e| match own {
            true => cx.usage(cmd),
            false => Some(std::rc::Rc::new(catalogue::usage(e, &words))),
        });
    let global_flag = usage
        .as_ref()
        .and_then(|u| u.flag_for(Fact::InstallsGlobally));
    // `npx eslint` where the project has eslint runs project code, like `npm run`.
    let runner = if sub.is_some_and(|s| s.has(Fact::UsesProjectBin)) {
        sub
    } else {
        entry.filter(|e| e.has(Fact::UsesProjectBin))
    };
    if let Some(runner) = runner
        && runs_project_bin(runner, args.get(after..).unwrap_or(&[]), cx.paths.root())
    {
        return;
    }
    // `uv run https://…/x.py`, `deno run https://…/x.ts`: a program or a script
    // named by a URL is code fetched from the network and run. `kubectl apply -f
    // https://…`, `pip install -r https://…`: a file the program reads named by a
    // URL is fetched, and what it says is applied or installed.
    let roles = (own && entry.is_some_and(|e| e.mentions(&[Role::PathExec, Role::PathRead])))
        .then(|| cx.args(cmd));
    if let Some((url, runs)) =
        url_value(program, entry, &words, roles.as_deref().map(Vec::as_slice))
    {
        let message = if runs {
            format!("runs code fetched from {url}")
        } else {
            format!("`{base}` reads {url} from the network and acts on what it says")
        };
        cx.report(&NETWORK_TOOL, name.span, message);
        return;
    }
    let reason = match base {
        _ if entry.is_some_and(|e| e.has(Fact::Network)) => {
            Some(format!("`{base}` talks to the network"))
        }
        _ if sub.is_some_and(|s| s.has(Fact::FetchesRemoteCode))
            && !names_no_package(sub, args.get(after..).unwrap_or(&[])) =>
        {
            Some(format!("`{base} {first}` downloads and runs a package"))
        }
        // `go run pkg@v1.2.3`, `deno run https://...`, `nix run nixpkgs#hello`:
        // an operand spelled as a remote package.
        _ if sub.or(entry).is_some_and(|s| s.has(Fact::RemoteSpec))
            && remote_spec_operand(sub.or(entry), args.get(after..).unwrap_or(&[])) =>
        {
            Some(format!(
                "`{base} {first}` downloads and runs a remote package"
            ))
        }
        _ if sub.is_some_and(|s| s.has(Fact::Network)) && depth > 1 => {
            Some(format!("`{base} {first}` talks to the network"))
        }
        _ if sub.is_some_and(|s| s.has(Fact::InstallsGlobally)) => {
            Some(format!("`{base} {first}` installs outside the project"))
        }
        _ if entry.is_some_and(|e| e.has(Fact::RemoteOperands))
            && values.iter().any(|v| is_remote(v)) =>
        {
            Some(format!("`{base}` to or from a remote host"))
        }
        // `npm install -g`: a flag of the subcommand installs outside the project.
        _ if global_flag.is_some() => Some(format!(
            "`{base} {first} {}` installs a package globally",
            global_flag.unwrap_or_default()
        )),
        // A program named by a path is the project's own (`.venv/bin/pip`).
        _ if sub.is_some_and(|s| s.has(Fact::InstallsIntoInterpreter))
            && !program.contains('/') =>
        {
            Some(format!(
                "`{base} {first}` outside a project virtual environment"
            ))
        }
        _ => None,
    };
    if let Some(message) = reason {
        cx.report(&NETWORK_TOOL, name.span, message);
    }
}

/// True when an initializer (`npm init`, a subcommand whose first operand is the
/// package it fetches and runs) is given none: only flags follow (`npm init -y`
/// writes a package.json and runs nothing). Any other word may name one.
fn names_no_package(sub: Option<&catalogue::Entry>, rest: &[Word]) -> bool {
    sub.is_some_and(|s| s.operands.first() == Some(&Role::Package))
        && rest
            .iter()
            .all(|w| w.value().is_some_and(|v| v.starts_with('-') && v != "--"))
}

/// A URL the command runs code from (`true`) or reads a file from (`false`): its
/// program named by a URL (what a runner such as `uv run` was given to run), a
/// value whose role is `path-exec` (the script a runtime runs: `deno run URL`) or,
/// failing those, `path-read` (`kubectl apply -f URL`). One reading of the words.
/// `roles` is the reading of `words` with `entry` when the caller has it already.
fn url_value<'w>(
    program: &'w str,
    entry: Option<&catalogue::Entry>,
    words: &[Option<&'w str>],
    roles: Option<&[catalogue::Arg]>,
) -> Option<(&'w str, bool)> {
    if is_url(program) {
        return Some((program, true));
    }
    let entry = entry.filter(|e| e.mentions(&[Role::PathExec, Role::PathRead]))?;
    // A program that spells remote code its own way (`go run pkg@v1`, `nix run
    // github:o/r`, a URL's scheme) reads `github.com/o/r` as an import path or a
    // folder: only a URL is remote there.
    let hosted = !entry.tree_has(Fact::RemoteSpec);
    let mut read = None;
    let classified;
    let roles = match roles {
        Some(roles) => roles,
        None => {
            classified = catalogue::classify(entry, words);
            &classified
        }
    };
    for &arg in roles {
        if !matches!(arg.role, Role::PathExec | Role::PathRead) {
            continue;
        }
        let Some(url) = words
            .get(arg.index)
            .copied()
            .flatten()
            .and_then(|w| w.get(arg.offset..))
            .filter(|v| is_url(v) || (hosted && hosted_repository(v)))
        else {
            continue;
        };
        if arg.role == Role::PathExec {
            return Some((url, true));
        }
        read.get_or_insert(url);
    }
    read.map(|url| (url, false))
}

/// True when `text` is a URL that names remote content (`https://`, `ftp://`...):
/// a scheme of letters, digits, `+`, `-`, `.` before `://`, other than `file`.
fn is_url(text: &str) -> bool {
    // A byte scan for the `:` first: most words have none.
    let Some(colon) = text.bytes().position(|b| b == b':') else {
        return false;
    };
    if !text.as_bytes()[colon..].starts_with(b"://") {
        return false;
    }
    let scheme = &text[..colon];
    !scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && !text
            .get(..7)
            .is_some_and(|head| head.eq_ignore_ascii_case("file://"))
}

/// True when `text` names a repository on a code host without a scheme, as
/// kustomize, Terraform and Go read it: `github.com/o/r//dir?ref=x`,
/// `git@github.com:o/r`, `git::https://...`. A folder of the project with such a
/// name would start with `./`.
fn hosted_repository(text: &str) -> bool {
    const HOSTS: &[&str] = &[
        "github.com/",
        "gitlab.com/",
        "bitbucket.org/",
        "codeberg.org/",
    ];
    text.starts_with("git@")
        || text.starts_with("git::")
        || HOSTS.iter().any(|h| {
            text.get(..h.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(h))
        })
}

/// True when a package runner (`npx`, `npm exec`, `bunx`) runs a binary the
/// project already has: a static name with no `@version`, no `--package` option,
/// found in `node_modules/.bin` or among `package.json`'s dependencies. Any other
/// name is fetched from the registry and run.
fn runs_project_bin(runner: &catalogue::Entry, args: &[Word], root: &Path) -> bool {
    let values: Values = args.iter().map(Word::value).collect();
    let roles = catalogue::classify(runner, &values);
    if roles.iter().any(|a| a.option_value) {
        // `-p PKG`, `--package=PKG`, `-c TEXT`: names a package or runs text.
        return false;
    }
    let Some(name) = roles
        .iter()
        .find(|a| a.role == Role::Command)
        .and_then(|a| values.get(a.index).copied().flatten())
    else {
        return false;
    };
    let plain = !name.is_empty()
        && !name.contains(['/', '\\'])
        && !name.starts_with('.')
        && !name.get(1..).is_some_and(|rest| rest.contains('@'))
        && !name.starts_with('@');
    if !plain {
        return false;
    }
    let bin = root.join("node_modules/.bin").join(name);
    if bin.is_file() {
        return true;
    }
    let Ok(text) = std::fs::read_to_string(root.join("package.json")) else {
        return false;
    };
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    ["dependencies", "devDependencies", "optionalDependencies"]
        .iter()
        .any(|key| manifest.get(key).and_then(|d| d.get(name)).is_some())
}

/// True when an operand (not an option's value) is spelled as a remote package:
/// `NAME@VERSION`, a URL, a registry scheme (`npm:x`, `jsr:@std/x`, `github:o/r`)
/// or a flake reference (`nixpkgs#hello`; `.#app` is local).
fn remote_spec_operand(entry: Option<&catalogue::Entry>, args: &[Word]) -> bool {
    let Some(entry) = entry else {
        return false;
    };
    let values: Values = args.iter().map(Word::value).collect();
    catalogue::classify(entry, &values)
        .iter()
        .filter(|a| !a.option_value && a.role != Role::Argument)
        .any(|a| {
            values
                .get(a.index)
                .copied()
                .flatten()
                // `uv run https://…/x.py`: a command named by a URL is judged as
                // the command it starts (one finding for one word).
                .is_some_and(|v| remote_spec(v) && !(a.role == Role::Command && is_url(v)))
        })
}

/// See [`remote_spec_operand`].
fn remote_spec(v: &str) -> bool {
    let local = v.starts_with(['.', '/', '~']);
    let scheme = v.split_once(':').is_some_and(|(s, _)| {
        s.len() >= 2
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    v.get(1..).is_some_and(|rest| rest.contains('@'))
        || v.contains("://")
        || (!local && scheme)
        || (!local && v.contains('#'))
}

/// `host:path` or `user@host:path` (not a local path with a colon, not a URL).
fn is_remote(v: &str) -> bool {
    match v.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/') && !v.starts_with('-'),
        None => false,
    }
}

/// True when some catalogue entry (or subcommand) reads the variable `name` as
/// the machine, daemon or cluster it drives (`env_keys` with the `remote` role:
/// `DOCKER_HOST`, `KUBECONFIG`).
fn names_a_remote(name: &str) -> bool {
    catalogue::env_key_readers(name).any(|(_, role)| role == Role::Remote)
}

/// True when some catalogue entry (or subcommand) reads the variable `name` as
/// the switch of its TLS or signature check (`env_keys` with the
/// `verification` role: `GIT_SSL_NO_VERIFY`, `NODE_TLS_REJECT_UNAUTHORIZED`).
/// Setting one at all asks: its spelling says which value turns the check off.
fn switches_verification(name: &str) -> bool {
    catalogue::env_key_readers(name).any(|(_, role)| role == Role::Verification)
}

/// What a setting or flag for this run changes about what the program fetches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    /// It fetches from, or sends to, another machine or source.
    Elsewhere,
    /// It fetches without the TLS or signature check.
    Unverified,
}

/// What in this use of `entry` points it elsewhere or switches off its TLS or
/// signature check, if anything:
///
/// - a setting given for this run as an option's value (`git -c KEY=VALUE`,
///   `cargo --config KEY=VALUE`) whose key has the `remote` role and names
///   another machine (`remote.origin.pushurl=URL`), or that `key_facts` mark
///   `changes-package-source` (`url.URL.insteadOf=...`): elsewhere;
/// - such a setting whose key has the `verification` role and whose value turns
///   it off (`http.sslVerify=false`), or a flag the catalogue marks
///   `skips-verification` (`npm install --no-strict-ssl`): unverified.
///
/// Most commands give no such flag or setting: the words are scanned for one
/// before anything is read with the option table.
fn fetch_settings(entry: &'static catalogue::Entry, args: &[Word]) -> Option<(String, Setting)> {
    let settings = entry.mentions(&[Role::Config])
        && args
            .iter()
            .any(|w| w.value().is_none_or(|v| v.contains('=')));
    let flags = entry.flag_may_add(Fact::SkipsVerification)
        && args.iter().any(|w| {
            w.value().is_none_or(|v| {
                v.starts_with('-') && spells_flag(entry, Fact::SkipsVerification, v)
            })
        });
    if !settings && !flags {
        return None;
    }
    let words: Values = args.iter().map(Word::value).collect();
    // The program's entry and the subcommands its leading words name (`git clone
    // -c KEY=V`, `npm install --no-strict-ssl`).
    let mut entries = vec![entry];
    for word in &words {
        let Some(next) = word.and_then(|w| entries.last().and_then(|e| e.subcommand(w))) else {
            break;
        };
        entries.push(next);
    }
    if settings {
        // Only an option's value is a setting for this run: an operand is one a
        // settings command writes (`git config KEY V`, judged by BG217).
        for &arg in catalogue::classify(entry, &words).iter() {
            if arg.role != Role::Config || !arg.option_value {
                continue;
            }
            let Some((key, value)) = words
                .get(arg.index)
                .copied()
                .flatten()
                .and_then(|w| w.get(arg.offset..))
                .and_then(|s| s.split_once('='))
            else {
                continue;
            };
            let what = || format!("`{key}={value}`");
            if entries
                .iter()
                .any(|e| e.key_facts_of(key).any(|f| f == Fact::ChangesPackageSource))
            {
                return Some((what(), Setting::Elsewhere));
            }
            match entries.iter().rev().find_map(|e| e.config_key_role(key)) {
                Some(Role::Remote) if !is_loopback(value) => {
                    return Some((what(), Setting::Elsewhere));
                }
                Some(Role::Verification) if turns_off(value) => {
                    return Some((what(), Setting::Unverified));
                }
                _ => {}
            }
        }
    }
    if flags {
        // Such a flag is a global option: the program's counts after a
        // subcommand's name too (`npm install --strict-ssl=false`).
        let tail = words.get(entries.len() - 1..).unwrap_or_default();
        let flag = entries
            .iter()
            .filter(|e| e.flag_may_add(Fact::SkipsVerification))
            .find_map(|e| {
                [catalogue::usage(e, tail), catalogue::usage(entry, &words)]
                    .iter()
                    .find_map(|u| {
                        u.flag_for(Fact::SkipsVerification)
                            .map(|f| format!("`{f}`"))
                    })
            });
        if let Some(flag) = flag {
            return Some((flag, Setting::Unverified));
        }
    }
    None
}

/// True when `word` may be one of the flags that add `fact` in `entry` or its
/// subcommands: as spelled, with `=value`, a long prefix, or a letter in a short
/// cluster. A cheap test before the words are read with the option table.
fn spells_flag(entry: &catalogue::Entry, fact: Fact, word: &str) -> bool {
    let given = word.split_once('=').map_or(word, |(name, _)| name);
    entry
        .flag_facts
        .iter()
        .filter(|spec| spec.facts.contains(&fact))
        .flat_map(|spec| spec.flags.iter())
        .any(|flag| {
            let name = flag.split_once('=').map_or(*flag, |(n, _)| n);
            given == name
                || (name.len() == 2
                    && !name.starts_with("--")
                    && !word.starts_with("--")
                    && name.get(1..).is_some_and(|letter| word.contains(letter)))
                || (name.starts_with("--") && given.len() >= 4 && name.starts_with(given))
        })
        || entry.subcommands.iter().any(|s| spells_flag(s, fact, word))
}

/// True when a switch's value turns it off: `false`, `0`, `no`, `off`, or empty.
pub fn turns_off(value: &str) -> bool {
    ["false", "0", "no", "off", ""]
        .iter()
        .any(|off| value.trim().eq_ignore_ascii_case(off))
}

/// True when `value` names this machine only: a loopback address or name, with
/// an optional scheme and port (`localhost:8000`, `http://127.0.0.1:6443`,
/// `[::1]`), a local socket (`unix:///var/run/docker.sock`), or a scheme with
/// no host (`qemu:///system`). Anything else,
/// `0.0.0.0` (every interface) included, is reached from or reaches another
/// machine.
pub fn is_loopback(value: &str) -> bool {
    // `--bind ::1`: the IPv6 loopback address without brackets.
    if value.starts_with("unix://") || value == "::1" {
        return true;
    }
    let rest = value.split_once("://").map_or(value, |(_, rest)| rest);
    let host = rest.split('/').next().unwrap_or_default();
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = if let Some(inner) = host.strip_prefix('[') {
        inner.split(']').next().unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or_default()
    };
    // `qemu:///system`: a scheme with no host is this machine's.
    (host.is_empty() && value.contains(":///"))
        || host.eq_ignore_ascii_case("localhost")
        || host == "::1"
        || (host.starts_with("127.")
            && host.split('.').count() == 4
            && host
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
}
