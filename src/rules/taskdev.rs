//! BG401–BG409, the `taskdev` preset: the task runner's validation of tasks an agent
//! adds, reproduced rule by rule over the raw command text (the runner checks the
//! text, not the syntax tree). Every failure is its own finding and denies; the
//! gate's AST rules run on top.

use crate::declare_rule;
use crate::rules::{Rule, finding};
use crate::verdict::{Finding, Span};
use std::path::{Component, Path, PathBuf};

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task command longer than 300 characters
    /// after trimming.
    ///
    /// ## Why
    /// The task runner refuses long agent-added tasks; a long one-liner is where a
    /// payload hides. The preset keeps that limit for users who relied on it.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `cargo test aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa` → deny (BG401)
    /// - with `preset = "taskdev"`: `cargo test` → allow
    pub static TASK_TOO_LONG = {
        code: "BG401",
        name: "task-too-long",
        default: Deny,
        capability: Parse,
        summary: "taskdev: the task is longer than 300 characters",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a character outside the task runner's set:
    /// ASCII letters, digits, space and `_ . / : @ % + = , - \ " '`. The shell
    /// operators `; & | < > $ ( )` and line breaks are BG403.
    ///
    /// ## Why
    /// The runner accepts only plain words; anything else (`~`, `*`, `` ` ``, `!`,
    /// tabs, non-ASCII look-alikes) can change what the shell runs.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `cargo test ~` → deny (BG402)
    /// - with `preset = "taskdev"`: `cargo test --features a,b` → allow
    pub static TASK_CHARACTER = {
        code: "BG402",
        name: "task-character",
        default: Deny,
        capability: Parse,
        summary: "taskdev: a character outside the task runner's allowed set",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies the shell operators `; & | < > $ ( )` and
    /// line breaks (`\n`, `\r`) anywhere in the task, quoted or not.
    ///
    /// ## Why
    /// Each of them chains, redirects or substitutes: a second command behind an
    /// allowed prefix. The runner rejects them outright.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `npm run build | cat` → deny (BG403)
    /// - with `preset = "taskdev"`: `npm run build` → allow
    pub static TASK_SHELL_OPERATOR = {
        code: "BG403",
        name: "task-shell-operator",
        default: Deny,
        capability: ShellExpansion,
        summary: "taskdev: a shell operator (; & | < > $ ( ) or a line break)",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task that does not start with one of the
    /// allowed prefixes (case-insensitive): `npm run SCRIPT [-- args]`, `pnpm run
    /// SCRIPT`, `yarn [run] SCRIPT`, `dotnet run|watch|test|build`, `cargo
    /// run|test|build|watch`, `go run|test|build`.
    ///
    /// ## Why
    /// Agent-added tasks are meant to build, test and run the project through its
    /// build tool, nothing else.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `make test` → deny (BG404)
    /// - with `preset = "taskdev"`: `go test ./...` → allow
    pub static TASK_PREFIX = {
        code: "BG404",
        name: "task-prefix",
        default: Deny,
        capability: Parse,
        summary: "taskdev: the task does not start with an allowed build-tool prefix",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task that contains a second allowed prefix
    /// after the first (`npm run build npm run deploy`): exactly one is allowed.
    ///
    /// ## Why
    /// A task is one build-tool invocation; a second prefix in its arguments is an
    /// attempt to smuggle another one.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `cargo build go test` → deny (BG405)
    /// - with `preset = "taskdev"`: `cargo run --bin tool` → allow
    pub static TASK_SECOND_PREFIX = {
        code: "BG405",
        name: "task-second-prefix",
        default: Deny,
        capability: Parse,
        summary: "taskdev: more than one allowed prefix in the task",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task containing a word of the executable
    /// denylist anywhere (case-insensitive, on word boundaries: runs of letters,
    /// digits and `_`): common (`rm`, `sudo`, `curl`, `bash`, `kill`...), Linux
    /// (`fdisk`, `mkfs`, `iptables`, `systemctl`...), macOS (`diskutil`, `launchctl`,
    /// `osascript`...) and Windows (`diskpart`, `powershell`, `reg`...) lists.
    ///
    /// ## Why
    /// The runner matches the words of the text, not program positions: a script
    /// argument that names a dangerous tool is refused too.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `npm run clean -- rm` → deny (BG406)
    /// - with `preset = "taskdev"`: `npm run clean -- --confirm` → allow
    pub static TASK_DENYLISTED_WORD = {
        code: "BG406",
        name: "task-denylisted-word",
        default: Deny,
        capability: Destructive,
        summary: "taskdev: a word of the executable denylist",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a token with a `..` path segment or an
    /// absolute path outside the project root (`/`, `\` or a drive letter); for a
    /// `KEY=value` token the value is checked.
    ///
    /// ## Why
    /// A task runs in the project; a path out of it reads or writes someone else's
    /// files.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`: `cargo run -- --out=../x` → deny (BG407)
    /// - with `preset = "taskdev"`: `cargo run -- --out=target/x` → allow
    pub static TASK_PATH_ESCAPE = {
        code: "BG407",
        name: "task-path-escape",
        default: Deny,
        capability: FilesystemRead,
        summary: "taskdev: a `..` segment or an absolute path outside the root",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task whose working directory resolves
    /// outside the project root.
    ///
    /// ## Why
    /// The runner starts tasks in the project; a cwd elsewhere makes every relative
    /// path in the task point out of it.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`, cwd `../..`: `cargo test` → deny (BG408)
    /// - with `preset = "taskdev"`, cwd `src`: `cargo test` → allow
    pub static TASK_CWD = {
        code: "BG408",
        name: "task-cwd-outside-root",
        default: Deny,
        capability: FilesystemRead,
        summary: "taskdev: the task's cwd resolves outside the root",
    };
}

declare_rule! {
    /// ## What it does
    /// With the `taskdev` preset, denies a task environment key (library API
    /// `Gate::check_task`) that changes which code runs: `PATH`, `PATHEXT`,
    /// `NODE_OPTIONS`, `LD_PRELOAD`, `LD_LIBRARY_PATH`, `DYLD_*` (case-insensitive).
    ///
    /// ## Why
    /// Each of them makes the allowed prefix start or load a different program.
    ///
    /// ## Example
    /// - with `preset = "taskdev"`, env `LD_PRELOAD`: `cargo test` → deny (BG409)
    /// - with `preset = "taskdev"`, env `NODE_ENV`: `cargo test` → allow
    pub static TASK_ENV_KEY = {
        code: "BG409",
        name: "task-env-key",
        default: Deny,
        capability: SensitiveEnv,
        summary: "taskdev: an environment key that changes which code runs",
    };
}

/// Longest task after trimming (characters).
pub const MAX_TASK_CHARS: usize = 300;

/// Shell operators the runner rejects (BG403).
const OPERATORS: &[char] = &[';', '&', '|', '<', '>', '$', '(', ')', '\n', '\r'];

/// Punctuation the runner accepts besides ASCII letters, digits and space.
const ALLOWED_PUNCTUATION: &[char] = &[
    '_', '.', '/', ':', '@', '%', '+', '=', ',', '-', '\\', '"', '\'',
];

/// The executable denylist words, by the runner's lists (lowercase).
const DENYLIST_WORDS: &[&[&str]] = &[
    // common
    &[
        "rm", "rmdir", "del", "erase", "rd", "sudo", "su", "doas", "runas", "chmod", "chown",
        "chgrp", "curl", "wget", "nc", "ncat", "netcat", "telnet", "ssh", "scp", "sftp", "ftp",
        "dd", "kill", "killall", "pkill", "shutdown", "reboot", "halt", "poweroff", "eval", "bash",
        "sh", "zsh", "ksh", "csh", "fish",
    ],
    // Linux
    &[
        "mkfs",
        "mke2fs",
        "fdisk",
        "sfdisk",
        "parted",
        "wipefs",
        "mkswap",
        "swapoff",
        "mount",
        "umount",
        "chroot",
        "iptables",
        "nft",
        "systemctl",
        "service",
        "crontab",
        "useradd",
        "userdel",
        "usermod",
        "passwd",
        "visudo",
        "insmod",
        "rmmod",
        "modprobe",
        "setenforce",
    ],
    // macOS
    &[
        "diskutil",
        "csrutil",
        "launchctl",
        "osascript",
        "nvram",
        "spctl",
        "dscl",
        "fdesetup",
        "systemsetup",
    ],
    // Windows
    &[
        "diskpart",
        "bcdedit",
        "vssadmin",
        "wbadmin",
        "takeown",
        "icacls",
        "reg",
        "regedit",
        "wmic",
        "schtasks",
        "netsh",
        "certutil",
        "bitsadmin",
        "mshta",
        "rundll32",
        "regsvr32",
        "cscript",
        "wscript",
        "powershell",
        "pwsh",
    ],
];

/// Environment keys a task may not set (case-insensitive); `DYLD_` is a prefix.
const FORBIDDEN_ENV: &[&str] = &[
    "PATH",
    "PATHEXT",
    "NODE_OPTIONS",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
];

/// A whitespace-separated token of the task and its byte span in the command.
struct Token<'a> {
    text: &'a str,
    start: usize,
}

fn tokens(command: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in command.char_indices() {
        // Operators end a token too: `cargo test;` starts with `cargo test`.
        match (c.is_whitespace() || OPERATORS.contains(&c), start) {
            (true, Some(s)) => {
                out.push(Token {
                    text: &command[s..i],
                    start: s,
                });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Token {
            text: &command[s..],
            start: s,
        });
    }
    out
}

/// How many tokens the allowed prefix starting at `tokens[0]` covers, if one does.
fn prefix_len(tokens: &[Token]) -> Option<usize> {
    let word = |i: usize| tokens.get(i).map(|t| t.text.to_ascii_lowercase());
    let script = |i: usize| tokens.get(i).is_some_and(|t| !t.text.starts_with('-'));
    let tool = word(0)?;
    let sub = word(1);
    let sub = sub.as_deref();
    match tool.as_str() {
        "npm" if sub == Some("run") && script(2) => {
            // `npm run S [-- args]`: after the script only `--` and its arguments.
            match word(3).as_deref() {
                None | Some("--") => Some(3),
                Some(_) => None,
            }
        }
        "pnpm" if sub == Some("run") && script(2) => Some(3),
        "yarn" if sub == Some("run") && script(2) => Some(3),
        "yarn" if sub.is_some() && sub != Some("run") && script(1) => Some(2),
        "dotnet" if matches!(sub, Some("run" | "watch" | "test" | "build")) => Some(2),
        "cargo" if matches!(sub, Some("run" | "test" | "build" | "watch")) => Some(2),
        "go" if matches!(sub, Some("run" | "test" | "build")) => Some(2),
        _ => None,
    }
}

/// Lexically normalised `path` (`.` and `..` folded), for paths that need not exist.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn inside(root: &Path, path: &Path) -> bool {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| normalise(path));
    path.starts_with(root)
}

/// The runner's checks over a task: `command`, its `cwd` (the root when `None`),
/// and the keys of its environment. The findings' spans index `command`.
pub fn check_task(
    command: &str,
    cwd: Option<&Path>,
    env_keys: &[&str],
    root: &Path,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let whole = Span::new(0, command.len());
    let report = |out: &mut Vec<Finding>, rule: &'static Rule, span: Span, message: String| {
        out.push(finding(rule, span, command, message));
    };
    let lead = command.len() - command.trim_start().len();
    let trimmed = command.trim();
    let chars = trimmed.chars().count();
    if chars > MAX_TASK_CHARS {
        let cut = trimmed
            .char_indices()
            .nth(MAX_TASK_CHARS)
            .map_or(trimmed.len(), |(i, _)| i);
        report(
            &mut out,
            &TASK_TOO_LONG,
            Span::new(lead + cut, lead + trimmed.len()),
            format!("the task is {chars} characters long; at most {MAX_TASK_CHARS} are allowed"),
        );
    }
    // The runner trims before it checks: only the trimmed text is judged.
    for (i, c) in trimmed.char_indices() {
        let i = lead + i;
        let span = Span::new(i, i + c.len_utf8());
        if OPERATORS.contains(&c) {
            let shown = c.escape_debug();
            report(
                &mut out,
                &TASK_SHELL_OPERATOR,
                span,
                format!(
                    "`{shown}` is a shell operator; tasks may not chain, redirect or substitute"
                ),
            );
        } else if !(c.is_ascii_alphanumeric() || c == ' ' || ALLOWED_PUNCTUATION.contains(&c)) {
            report(
                &mut out,
                &TASK_CHARACTER,
                span,
                format!("`{}` is not an allowed task character", c.escape_debug()),
            );
        }
    }
    let tokens = tokens(command);
    match prefix_len(&tokens) {
        None => {
            let end = tokens[..tokens.len().min(2)]
                .last()
                .map_or(command.len(), |t| t.start + t.text.len());
            report(
                &mut out,
                &TASK_PREFIX,
                Span::new(tokens.first().map_or(0, |t| t.start), end),
                "the task does not start with an allowed prefix (npm run S, pnpm run S, \
                 yarn [run] S, dotnet run|watch|test|build, cargo run|test|build|watch, \
                 go run|test|build)"
                    .to_string(),
            );
        }
        Some(len) => {
            for i in len..tokens.len() {
                if let Some(second) = prefix_len(&tokens[i..]) {
                    let last = &tokens[i + second - 1];
                    report(
                        &mut out,
                        &TASK_SECOND_PREFIX,
                        Span::new(tokens[i].start, last.start + last.text.len()),
                        "a second task prefix: a task is exactly one build-tool invocation"
                            .to_string(),
                    );
                    break;
                }
            }
        }
    }
    let mut word_start = None;
    for (i, c) in command.char_indices().chain([(command.len(), ' ')]) {
        let is_word = c.is_ascii_alphanumeric() || c == '_';
        match (is_word, word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(s)) => {
                let word = command[s..i].to_ascii_lowercase();
                if DENYLIST_WORDS
                    .iter()
                    .any(|list| list.contains(&word.as_str()))
                {
                    report(
                        &mut out,
                        &TASK_DENYLISTED_WORD,
                        Span::new(s, i),
                        format!("`{word}` is on the task runner's executable denylist"),
                    );
                }
                word_start = None;
            }
            _ => {}
        }
    }
    for token in &tokens {
        let text: String = token
            .text
            .chars()
            .filter(|c| *c != '"' && *c != '\'')
            .collect();
        let value = text.split_once('=').map_or(text.as_str(), |(_, v)| v);
        let span = Span::new(token.start, token.start + token.text.len());
        if value.split(['/', '\\']).any(|segment| segment == "..") {
            report(
                &mut out,
                &TASK_PATH_ESCAPE,
                span,
                format!("`{value}` has a `..` segment"),
            );
            continue;
        }
        let bytes = value.as_bytes();
        let drive = bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'/' | b'\\');
        let absolute = value.starts_with('/') || value.starts_with('\\') || drive;
        if absolute && (drive || value.starts_with('\\') || !inside(root, Path::new(value))) {
            report(
                &mut out,
                &TASK_PATH_ESCAPE,
                span,
                format!("`{value}` is an absolute path outside the project root"),
            );
        }
    }
    if let Some(cwd) = cwd {
        let full = root.join(cwd);
        if !inside(root, &full) {
            report(
                &mut out,
                &TASK_CWD,
                whole,
                format!(
                    "the task's cwd {} is outside the project root",
                    full.display()
                ),
            );
        }
    }
    for key in env_keys {
        let upper = key.to_ascii_uppercase();
        if FORBIDDEN_ENV.contains(&upper.as_str()) || upper.starts_with("DYLD_") {
            report(
                &mut out,
                &TASK_ENV_KEY,
                whole,
                format!("the task may not set the environment variable {key}"),
            );
        }
    }
    out
}
