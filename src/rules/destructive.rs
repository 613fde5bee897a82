//! BG208: commands that destroy data or the system's availability.

use crate::catalogue::Values;
use crate::catalogue::{self, Fact, Role};
use crate::declare_rule;
use crate::model::command::{SimpleCommand, basename};
use crate::model::path_roles::{PathUse, Role as PathRole};
use crate::model::word::Word;
use crate::model::wrapper_words::own_words;
use crate::rules::Checker;
use crate::verdict::Decision;

declare_rule! {
    /// ## What it does
    /// Denies commands whose only purpose is to destroy a file system or stop the
    /// machine: `mkfs` and `mkfs.*`, `mke2fs`, `shutdown`, `reboot`, `halt`,
    /// `poweroff`, `init 0`/`init 6`, `telinit 0`/`6`, `systemctl
    /// poweroff|reboot|halt|kexec`, `kill -9 -1` (every process the user owns),
    /// `dd of=/dev/...`, `shred` of a device, a redirect into a block device
    /// (`> /dev/sda`), recursive `chmod`/`chown`/`chgrp` of `/` or a top-level system
    /// folder, `crontab -r`, `enable -f` (loads a builtin from a shared object),
    /// defining `command_not_found_handle`, and the fork-bomb shape: a function that
    /// calls itself in a pipeline or in the background (`:(){ :|:& };:`).
    ///
    /// Asks for commands that are sometimes legitimate but change the system or other
    /// processes: `kill` of process 1 (init; in a container, the container
    /// itself), `kill` of a whole process group (`kill 0`, the agent's own;
    /// `kill -- -4242`), `pkill`, `killall`, `systemctl`, `service`, `launchctl`,
    /// `iptables`/`ip6tables`/`nft`/`ufw`/`firewall-cmd`, `sysctl -w`, `crontab -e`
    /// or a crontab file, `history -c`, `hash -p` (maps a name to any program),
    /// `mv x /dev/null`.
    ///
    /// ## Why
    /// No development task needs these, and their damage cannot be undone by the
    /// agent. The popular blocklist hooks miss even `mkfs.ext4 /dev/sda`.
    ///
    /// ## Example
    /// - `mkfs.ext4 /dev/sda` → deny
    /// - `kill -9 -1` → deny
    /// - `kill 0` → ask
    /// - `kill -9 1` → ask
    /// - `kill -9 1234` → allow
    pub static DESTRUCTIVE = {
        code: "BG208",
        name: "destructive",
        default: Deny,
        capability: Destructive,
        summary: "destroys a file system or stops the machine (mkfs, shutdown, fork bomb, kill -1)",
    };
}

/// Denies the destructive set; asks for the system-changing set.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    for redirect in &cmd.redirects {
        let target = redirect.target.as_ref().and_then(Word::value).unwrap_or("");
        if redirect.writes() && is_device(target) {
            cx.report(
                &DESTRUCTIVE,
                redirect.span,
                format!("writes straight into the device {target}"),
            );
        }
    }
    if cmd.context.function.as_deref() == Some("command_not_found_handle")
        && let Some(word) = cmd.name()
    {
        cx.report(
            &DESTRUCTIVE,
            word.span,
            "defines `command_not_found_handle`, which runs for every mistyped command".into(),
        );
    }
    scheduling_wrappers(cmd, cx);
    let (Some(name), Some(base), Some(word)) = (cmd.name_str(), cx.base_name(cmd), cmd.name())
    else {
        return;
    };
    // Names for messages and the builtins' match, borrowed unless they need folding.
    let lower: std::borrow::Cow<str> = if base.bytes().any(|b| b.is_ascii_uppercase()) {
        base.to_ascii_lowercase().into()
    } else {
        base.into()
    };
    let entry = cx.entry(cmd);
    let args = cmd.args();
    // The facts of this use: the program's, its subcommand's (`systemctl reboot`,
    // `init 0`) and its flags' (`crontab -r`, `crontab -l`).
    let usage = cx.usage(cmd);
    let has = |fact: Fact| usage.as_ref().is_some_and(|u| u.has(fact));
    let base: &str = entry.map_or(&lower, |e| e.name);
    // `systemctl reboot`, `crontab -r`: the use as a name for messages.
    let named = || match &usage {
        Some(u) if !u.subcommand_words.is_empty() => format!("{base} {}", u.subcommand_words),
        _ => lower.to_string(),
    };
    // On the stack: most commands have a few words.
    let values: smallvec::SmallVec<[&str; 8]> =
        args.iter().map(|w| w.value().unwrap_or("\u{1}")).collect();
    // `dd of=/dev/sda`, `shred /dev/sda`, `cp img /dev/sdb`: a word the catalogue
    // says is written (or deleted) names a device. The cheap text test comes
    // first: most commands name no device.
    // A `/` first: a one-byte search is cheap, a string search sets up a searcher.
    let device = if values
        .iter()
        .any(|v| v.contains('/') && v.contains("/dev/"))
    {
        device_written(&cx.path_uses(cmd))
    } else {
        None
    };
    let targets = match entry.filter(|_| has(Fact::SignalsProcesses)) {
        Some(e) => signal_targets(e, &args.iter().map(Word::value).collect::<Vec<_>>()),
        None => Vec::new(),
    };
    let deny = |m: String| (Decision::Deny, m);
    let ask = |m: String| (Decision::Ask, m);
    let verdict: Option<(Decision, String)> = match base {
        _ if has(Fact::FormatsFilesystem) => Some(deny(format!("`{lower}` formats a file system"))),
        _ if has(Fact::StopsMachine) => Some(deny(format!("`{}` stops the machine", named()))),
        _ if has(Fact::SignalsProcesses) && targets.contains(&"-1") => {
            Some(deny("kills every process the user owns (pid -1)".into()))
        }
        // Process 1 is init; in a container, the container itself.
        _ if has(Fact::SignalsProcesses) && targets.contains(&"1") => Some(ask(
            "signals process 1, init: the machine's first process, or the container itself".into(),
        )),
        _ if has(Fact::SignalsProcesses) && targets.iter().any(|p| names_a_group(p)) => Some(ask(
            format!("`{lower}` signals a whole process group (pid 0 or a negative pid)"),
        )),
        _ if has(Fact::KillsByName) => Some(ask(format!("`{lower}` kills processes by name"))),
        _ if device.is_some() => {
            device.map(|t| deny(format!("`{lower}` writes straight into the device {t}")))
        }
        _ if (has(Fact::ChangesMode) || has(Fact::ChangesOwnership))
            && has(Fact::Recursive)
            && values.iter().any(|v| is_system_top(v)) =>
        {
            Some(deny(format!("recursive `{base}` of a system folder")))
        }
        // With no operand (`systemctl`, `service --status-all`) it only lists.
        _ if has(Fact::ServiceControl)
            && !has(Fact::ReadOnly)
            && values.iter().any(|v| !v.starts_with('-')) =>
        {
            Some(ask(format!("`{lower}` manages system services")))
        }
        _ if has(Fact::Firewall) => Some(ask(format!("`{lower}` changes the firewall"))),
        // A flag that writes (`sysctl -w`, `-p`, `--system`) or a setting given a
        // value (`sysctl vm.swappiness=10`); a bare key only reads.
        _ if has(Fact::KernelSettings)
            && (usage.as_ref().is_some_and(|u| u.has(Fact::ChangesSettings))
                || sets_a_value(&cx.args(cmd), args)) =>
        {
            Some(ask(format!("`{lower}` changes kernel settings")))
        }
        _ if has(Fact::SchedulesJobs) && has(Fact::DestroysData) => {
            let flag = usage.as_ref().and_then(|u| u.flag_for(Fact::DestroysData));
            Some(deny(format!(
                "`{base} {}` deletes every scheduled job",
                flag.unwrap_or_default()
            )))
        }
        _ if has(Fact::SchedulesJobs) && !has(Fact::ReadOnly) => {
            Some(ask(format!("`{lower}` runs commands later, out of sight")))
        }
        // Shell builtins that change the shell itself, named here for what the
        // change means; which options do it is the catalogue's (a `destroys-data`
        // flag, an option whose value is a program to run).
        "history" if has(Fact::DestroysData) => {
            let flag = usage.as_ref().and_then(|u| u.flag_for(Fact::DestroysData));
            Some(ask(format!(
                "`history {}` erases the shell history",
                flag.unwrap_or_default()
            )))
        }
        "hash" if names_a_program(&cx.args(cmd)) => {
            Some(ask("`hash -p` maps a command name to any program".into()))
        }
        "enable" if names_a_program(&cx.args(cmd)) => Some(deny(
            "`enable -f` loads a builtin from a shared object".into(),
        )),
        // `mv FILE /dev/null`: a program that removes its sources (the catalogue's
        // operands `path-delete`, the last `path-write`) moving them onto /dev/null.
        _ if entry.is_some_and(|e| {
            e.operands.first() == Some(&Role::PathDelete) && e.last == Some(Role::PathWrite)
        }) && values.last().is_some_and(|v| *v == "/dev/null")
            && values.len() > 1 =>
        {
            Some(ask(format!("`{lower}` onto /dev/null destroys the file")))
        }
        _ => None,
    };
    if let Some((decision, message)) = verdict {
        cx.report_as(&DESTRUCTIVE, decision, word.span, message);
        return;
    }
    if let Some(function) = &cmd.context.function {
        let recursive = name == function;
        if recursive && (cmd.context.in_pipeline || cmd.context.background) {
            cx.report(
                &DESTRUCTIVE,
                word.span,
                format!(
                    "`{function}` calls itself in a pipeline or in the background: a fork bomb"
                ),
            );
        }
    }
}

/// The first device a command writes or deletes through its arguments, as the
/// catalogue's roles read them (redirects are judged on their own).
fn device_written(uses: &[PathUse]) -> Option<String> {
    uses.iter()
        .filter(|u| u.access.writes() && u.role != PathRole::Redirect)
        .filter_map(|u| u.word.value().map(str::to_string))
        .find(|v| is_device(v))
}

/// A block or character device other than the harmless ones.
fn is_device(path: &str) -> bool {
    path.starts_with("/dev/")
        && !matches!(
            path,
            "/dev/null"
                | "/dev/zero"
                | "/dev/stdout"
                | "/dev/stderr"
                | "/dev/stdin"
                | "/dev/tty"
                | "/dev/random"
                | "/dev/urandom"
        )
        && !path.starts_with("/dev/fd/")
        && !path.starts_with("/dev/tcp/")
        && !path.starts_with("/dev/udp/")
}

/// True when an operand the entry reads as a setting (`config`: `sysctl KEY=VALUE`)
/// is given a value, or may be: a word only known at run time. `roles` is the
/// reading of `args` with the program's entry.
fn sets_a_value(roles: &[catalogue::Arg], args: &[Word]) -> bool {
    roles.iter().any(|arg| {
        arg.role == Role::Config
            && !arg.option_value
            && args
                .get(arg.index)
                .and_then(Word::value)
                .is_none_or(|v| v.contains('='))
    })
}

/// True when an option's value names a program or library to run or load (the
/// catalogue's `path-exec`: `hash -p PATH NAME`, `enable -f LIB NAME`).
fn names_a_program(roles: &[catalogue::Arg]) -> bool {
    roles
        .iter()
        .any(|arg| arg.option_value && arg.role == Role::PathExec)
}

/// `/` or a top-level system folder (`/etc`, `/usr`, `/bin`, `/home`...).
fn is_system_top(v: &str) -> bool {
    let trimmed = v.trim_end_matches(['/', '*']);
    trimmed.is_empty() && v.starts_with('/')
        || matches!(
            trimmed,
            "/etc"
                | "/usr"
                | "/bin"
                | "/sbin"
                | "/lib"
                | "/lib64"
                | "/var"
                | "/home"
                | "/root"
                | "/boot"
                | "/opt"
                | "/srv"
                | "/System"
                | "/Users"
                | "/Library"
        )
}

/// The static pid operands of a program with the `signals-processes` fact, read
/// with its entry's options and list modes (`kill -9 -1`, `kill -KILL 0`, `kill
/// -- -1`, `kill -s KILL -1`); none for a list mode (`kill -l`). The first option
/// is the signal (`kill -1 1234` sends SIGHUP to 1234).
fn signal_targets<'a>(entry: &catalogue::Entry, args: &[Option<&'a str>]) -> Vec<&'a str> {
    let mut targets = Vec::new();
    let mut operands = false;
    let mut i = 0;
    while i < args.len() {
        let Some(a) = args[i] else {
            i += 1;
            operands = true;
            continue;
        };
        if operands {
            targets.push(a);
        } else if a == "--" {
            operands = true;
        } else if entry
            .modes
            .iter()
            .any(|m| m.operands.is_empty() && m.flags.contains(&a))
        {
            // `kill -l`: a mode whose operands are no targets (it lists signals).
            return Vec::new();
        } else {
            // An option with its value (`-s KILL`), the signal (`-9`, `-KILL`) or
            // the first operand: the targets start here.
            if !a.starts_with('-') {
                targets.push(a);
            } else if !a.contains('=') && entry.option(a).is_some() && !entry.only_abbreviates(a) {
                i += 1;
            }
            operands = true;
        }
        i += 1;
    }
    targets
}

/// True for a pid that names a whole process group: `0` (the caller's own, the
/// agent's shell among it) or a negative pid (`-4242`); `-1` is every process.
fn names_a_group(pid: &str) -> bool {
    pid == "0"
        || pid
            .strip_prefix('-')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A wrapper that hands its command to a scheduler or another service
/// (`systemd-run CMD`: a transient unit run by the service manager; `flatpak-spawn
/// --host CMD`; a new terminal window) asks like `at`: it runs outside this process
/// tree, out of sight: the walker unwraps it to judge the command, and the wrapper's own
/// fact must not be lost on the way.
fn scheduling_wrappers(cmd: &SimpleCommand, cx: &mut Checker) {
    for (k, &at) in cmd.wrappers.iter().enumerate() {
        let Some(word) = cmd.words.get(at) else {
            continue;
        };
        let Some(entry) = word
            .value()
            .and_then(|name| catalogue::lookup(basename(name)))
            .filter(|e| e.has(Fact::SchedulesJobs))
        else {
            continue;
        };
        let own: Values = own_words(cmd, k).iter().map(Word::value).collect();
        if !catalogue::usage(entry, &own).has(Fact::ReadOnly) {
            cx.report_as(
                &DESTRUCTIVE,
                Decision::Ask,
                word.span,
                format!(
                    "`{}` hands its command to a service that runs it outside this process tree, out of sight",
                    entry.name
                ),
            );
        }
    }
}
