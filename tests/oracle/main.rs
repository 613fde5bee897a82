//! The execution oracle: run each command under real bash in a sandbox, trace what it
//! did, and prove the gate saw it.
//!
//! Property, per command: **every program bash started is one the gate reported at a
//! command position** (by basename), and **every path outside the workspace that was
//! opened, written, created or removed is covered by a path finding** — unless the
//! verdict asks or denies for a reason that covers everything (parse failure, input
//! limit, a program name or script only known at run time, inline interpreter code,
//! or a path whose target the gate could not know). Any difference is a bypass and is
//! printed with the command, the verdict and the trace lines.
//!
//! Which touches count: every write attempt (even one the read-only sandbox refused);
//! reads by the shell itself that are not a library's (`O_CLOEXEC`) own; reads under
//! the fake HOME; and reads by a program of a path named in its argv (so `ls` reading
//! `/etc/localtime` for its own use does not count, `cat /etc/hostname` does).
//!
//! Runs the whole corpus and generated commands (`BASHGATE_ORACLE_CASES`, default
//! 300; seed `BASHGATE_ORACLE_SEED`). Needs bubblewrap and strace: without them the
//! tests say so and pass, unless `BASHGATE_ORACLE=require` (CI sets it).
//!
//! A longer run: `BASHGATE_ORACLE_CASES=20000 cargo test --release --test oracle`.

#[path = "../common/corpus_commands.rs"]
mod corpus_commands;
#[path = "../common/generate.rs"]
mod generate;
mod sandbox;
mod trace;

use corpus_commands::corpus_commands;

use bashgate::{Decision, Gate, Inspection};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sandbox::Sandbox;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use trace::{Touch, Trace};

/// Longest a command may run in the sandbox.
const TIMEOUT: Duration = Duration::from_secs(5);

/// Rules whose ask or deny covers anything the command might start or touch
/// (BG214: after a mode the gate does not model, what follows is not read as
/// bash runs it).
const COVERS_ALL: &[&str] = &[
    "BG001", "BG002", "BG003", "BG203", "BG204", "BG205", "BG211", "BG212", "BG214",
];

/// Programs a program starts on its own, which the gate does not list: bare `xargs`
/// runs `echo`.
/// and `flock -c`, `su -c`, `script -c` and `watch` hand their script to a shell
/// (whose commands the gate does walk).
const IMPLICIT: &[(&str, &str)] = &[
    ("xargs", "echo"),
    ("flock", "sh"),
    ("script", "sh"),
    ("su", "bash"),
    ("su", "sh"),
    ("watch", "sh"),
];

/// Files a login or interactive shell reads at startup: the user's environment,
/// trusted like the programs on PATH (the sandbox's are empty).
const SHELL_STARTUP: &[&str] = &[
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/profile.d",
    "/.profile",
    "/.bash_profile",
    "/.bash_login",
    "/.bashrc",
    "/.bash_history",
    "/.inputrc",
    "/etc/inputrc",
    "/terminfo/",
];

fn is_shell(image: &str) -> bool {
    matches!(image, "bash" | "sh" | "dash")
}

/// `bash -l`, `bash -lc`, `bash --login`, `bash -i`, `bash --rcfile F -i`: a shell
/// that reads startup files.
fn starts_login_shell(argv: &[String]) -> bool {
    let mut args = argv.iter().skip(1);
    while let Some(a) = args.next() {
        if !a.starts_with(['-', '+']) {
            return false;
        }
        if a == "--login" || (!a.starts_with("--") && (a.contains('l') || a.contains('i'))) {
            return true;
        }
        // Options whose value is the next word (`bash --rcfile F -i`, `-O extglob`).
        if matches!(
            a.as_str(),
            "--rcfile" | "--init-file" | "-o" | "+o" | "-O" | "+O"
        ) {
            args.next();
        }
    }
    false
}

/// Files the loader and C library read for themselves (character sets, locales,
/// user and group names, the time zone) in any program, the shell included.
const LIBRARY_DATA: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.preload",
    "/etc/locale.alias",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/localtime",
    "/proc/filesystems",
    "/usr/lib/x86_64-linux-gnu/gconv/",
    "/usr/lib/aarch64-linux-gnu/gconv/",
    "/usr/lib/locale/",
    "/usr/share/locale/",
    "/usr/share/zoneinfo/",
    "/usr/lib/",
    "/lib/",
    "/lib64/",
];

/// What a network client's resolver and TLS library read on their own, whatever
/// the command names (`curl etc-link` reads `/etc/hosts` to look up the host
/// `etc-link`, not because the link leads to `/etc`); OpenSSL opens its
/// configuration without close-on-exec.
const NETWORK_LIBRARY_DATA: &[&str] = &[
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/usr/lib/ssl/openssl.cnf",
    "/etc/ssl/openssl.cnf",
];

/// Folders bash searches for a script named without a slash (`bash name`).
const PATH_DIRS: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/// Devices and pseudo-files any command may use.
const SAFE: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
];

fn ready() -> bool {
    match sandbox::unavailable() {
        None => true,
        Some(why) => {
            let required = std::env::var("BASHGATE_ORACLE").is_ok_and(|v| v == "require");
            assert!(!required, "the execution oracle cannot run: {why}");
            eprintln!("skipping the execution oracle: {why}");
            false
        }
    }
}

fn gate_for(sandbox: &Sandbox) -> Gate {
    Gate::builder()
        .root(&sandbox.workspace)
        .home(Some(sandbox.home.clone()))
        .with_policy(|p| {
            p.env.clear();
        })
        .build()
        .expect("gate")
}

/// One difference between what bash did and what the gate saw.
struct Bypass {
    command: String,
    what: String,
    line: String,
}

/// Runs `command` and returns every bypass in it, and whether the run timed out (its
/// trace up to then is still compared).
fn examine(sandbox: &Sandbox, command: &str) -> (Vec<Bypass>, bool) {
    // The gate looks at the workspace (symlinks, files) as the command will find
    // it: reset first, or the previous command's leftovers decide the verdict and
    // which worker drew which command changes the outcome.
    sandbox.reset();
    let gate = gate_for(sandbox);
    let inspection = gate.inspect(command, None);
    let verdict = &inspection.verdict;
    // Fork bombs are denied and would only exhaust the process limit.
    if verdict
        .findings
        .iter()
        .any(|f| f.message.contains("fork bomb"))
    {
        return (Vec::new(), false);
    }
    let run = sandbox.run(command, TIMEOUT);
    let trace = trace::parse(&run.output);
    (
        compare(sandbox, command, &inspection, &trace),
        run.timed_out,
    )
}

fn compare(
    sandbox: &Sandbox,
    command: &str,
    inspection: &Inspection,
    trace: &Trace,
) -> Vec<Bypass> {
    let verdict = &inspection.verdict;
    let cautious = verdict.decision != Decision::Allow;
    let covers_all = cautious
        && verdict
            .findings
            .iter()
            .any(|f| COVERS_ALL.contains(&f.rule));
    let unknown_path = cautious
        && verdict
            .findings
            .iter()
            .any(|f| f.rule.starts_with("BG1") && f.path.is_none());
    let mut out = Vec::new();
    for exec in &trace.execs {
        let name = trace::basename(&exec.path);
        let implicit = IMPLICIT.contains(&(exec.launcher.as_str(), name))
            // execvp runs a file without a `#!` line (ENOEXEC) with /bin/sh: the
            // program the gate saw is the file, which `sh` is reading.
            || (name == "sh"
                && exec
                    .argv
                    .get(1)
                    .is_some_and(|file| inspection.saw_program(trace::basename(file))));
        if !exec.commanded || covers_all || implicit || inspection.saw_program(name) {
            continue;
        }
        out.push(Bypass {
            command: command.to_string(),
            what: format!(
                "program `{name}` started (by {}) but the gate never saw it",
                exec.launcher
            ),
            line: exec.line.clone(),
        });
    }
    let workspace = canonical(&sandbox.workspace);
    for touch in &trace.touches {
        // `//dev/./stdin` is `/dev/stdin`: compare the spelling without empty and
        // `.` components.
        let spelled = lexical(&touch.path);
        if !touch.path.starts_with('/') || SAFE.contains(&spelled.as_str()) {
            continue;
        }
        if spelled.starts_with("/dev/fd/") || spelled.starts_with("/proc/self/fd/") {
            continue;
        }
        let path = written_path(touch);
        if path.starts_with(&workspace) || !counts(command, touch, &path) {
            continue;
        }
        if covers_all || unknown_path || covered(&path, inspection) {
            continue;
        }
        let verb = if touch.write { "wrote" } else { "read" };
        out.push(Bypass {
            command: command.to_string(),
            what: format!(
                "{} {verb} {} outside the workspace; no finding covers it (verdict {})",
                touch.image,
                path.display(),
                verdict.decision
            ),
            line: touch.line.clone(),
        });
    }
    out
}

/// `path` without empty and `.` components (`//dev/./stdin` → `/dev/stdin`).
fn lexical(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    format!("/{}", parts.join("/"))
}

/// Whether a touch is the command's doing rather than a program's own business: the
/// shell's own opens (redirects, `cd`, `source`), and what a program the command
/// started was told to touch in its argv.
fn counts(command: &str, touch: &Touch, path: &Path) -> bool {
    let shown = path.to_string_lossy();
    let library = LIBRARY_DATA
        .iter()
        .any(|p| touch.path.starts_with(p) || shown.starts_with(p));
    if library && (touch.cloexec || touch.path.contains("gconv")) {
        return false;
    }
    let network_library = NETWORK_LIBRARY_DATA
        .iter()
        .any(|p| touch.path == *p || shown == *p);
    if network_library && !touch.write {
        return false;
    }
    if !touch.commanded {
        return false;
    }
    // The C library reads its own memory map, in any program (`grep /` names `/`,
    // which is a pattern, not a claim on every file).
    if !touch.write && touch.path.starts_with("/proc/") && touch.path.ends_with("/maps") {
        return false;
    }
    // Arguments `xargs` read from stdin are data the gate cannot see (a known
    // limit): only what the command text itself names counts.
    let from_stdin = |arg: &str| touch.launcher == "xargs" && !command.contains(arg);
    if is_shell(&touch.image) {
        let startup = starts_login_shell(&touch.argv)
            && SHELL_STARTUP.iter().any(|f| {
                touch.path.starts_with(f) || touch.path.ends_with(f) || touch.path.contains(f)
            });
        // `bash name` looks for the script `name` on PATH: the gate saw `bash`.
        let script_lookup = !touch.write
            && PATH_DIRS.iter().any(|d| {
                Path::new(&touch.path).parent() == Some(Path::new(d))
                    && touch
                        .argv
                        .iter()
                        .any(|a| touch.path.ends_with(&format!("/{a}")))
            });
        // The C library reads its own memory map.
        let own_map = touch.path.starts_with("/proc/") && touch.path.ends_with("/maps");
        // The `bind` builtin starts readline, which reads its own configuration
        // (`/etc/inputrc`, `~/.inputrc`) and the terminal's description.
        let readline = !touch.write
            && command.contains("bind")
            && (touch.path.ends_with("inputrc") || touch.path.contains("/terminfo/"));
        if startup || readline {
            return false;
        }
        return touch.write || !touch.cloexec && !script_lookup && !own_map;
    }
    let cwd = touch.cwd.as_deref().map(Path::new);
    touch.argv.iter().skip(1).any(|arg| {
        let value = arg.split_once('=').map(|(_, v)| v).unwrap_or(arg);
        [arg.as_str(), value].iter().any(|a| {
            if a.is_empty() || a.starts_with('-') || from_stdin(a) {
                return false;
            }
            let named = match cwd {
                Some(cwd) => cwd.join(a),
                None => PathBuf::from(a),
            };
            let named = canonical(&named);
            named.is_absolute() && path.starts_with(&named)
        })
    })
}

/// The file bash's history writing replaces with `path`, when `path` is its
/// temporary sibling `FILE-NNNNN.tmp` (digits: the process id).
fn history_temporary(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let (file, digits) = name.strip_suffix(".tmp")?.rsplit_once('-')?;
    let numbered = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    numbered.then(|| path.with_file_name(file))
}

/// True when a path finding names `path`, a folder above it, or a glob matching it.
/// A path with an unexpanded `{…}` (dash does no brace expansion; the gate reads
/// `sh -c` as bash and expands it) is covered by a finding in the same folder.
/// Likewise a path with a literal `$'…'` (dash has no ANSI-C quoting). Bash writes
/// a history file (`history -w FILE`) through a temporary sibling `FILE-NNNNN.tmp`
/// renamed over it: a finding on FILE covers it.
fn covered(path: &Path, inspection: &Inspection) -> bool {
    if let Some(target) = history_temporary(path)
        && covered(&target, inspection)
    {
        return true;
    }
    let text = path.to_string_lossy();
    if (text.contains('{') && text.contains('}')) || text.contains("$\\") {
        let parent = path.parent();
        let same_folder = inspection.verdict.findings.iter().any(|f| {
            f.path
                .as_deref()
                .is_some_and(|q| Path::new(q).parent() == parent)
        });
        if same_folder {
            return true;
        }
    }
    inspection.verdict.findings.iter().any(|f| {
        let Some(q) = &f.path else {
            return false;
        };
        let q_path = canonical(Path::new(q));
        if path.starts_with(&q_path) || path.starts_with(q) {
            return true;
        }
        globset::Glob::new(q)
            .map(|g| g.compile_matcher().is_match(path))
            .unwrap_or(false)
    })
}

/// The calls that act on the last component of their paths itself, never on what
/// a link there leads to: making a link, renaming (`ln -sf` replaces a link by
/// renaming a new one over it), removing, making a folder or a node.
const NO_FOLLOW_CALLS: &[&str] = &[
    "symlink(",
    "symlinkat(",
    "rename(",
    "renameat(",
    "renameat2(",
    "unlink(",
    "unlinkat(",
    "rmdir(",
    "mkdir(",
    "mkdirat(",
    "mknod(",
    "mknodat(",
    "lchown(",
];

/// Where a touch lands. A call that does not follow a link in its last component
/// (making a symlink, renaming over one, removing one) writes the link itself, not
/// what it points to (which the link, made by then, would lead the resolution
/// to): only its folder is resolved.
fn written_path(touch: &Touch) -> PathBuf {
    let path = Path::new(&touch.path);
    let no_follow = touch
        .line
        .split_whitespace()
        .any(|word| NO_FOLLOW_CALLS.iter().any(|call| word.starts_with(call)));
    match (no_follow, path.parent(), path.file_name()) {
        (true, Some(parent), Some(name)) => canonical(parent).join(name),
        _ => canonical(path),
    }
}

/// The path with symlinks of its longest existing prefix resolved, `..` removed.
fn canonical(path: &Path) -> PathBuf {
    let mut lexical = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                lexical.pop();
            }
            std::path::Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    let mut existing = lexical.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return lexical,
        }
    }
}

/// Runs `commands` on a few threads, one sandbox each, and fails listing every bypass.
fn run_all(label: &str, commands: Vec<String>) {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get() * 2)
        .unwrap_or(4)
        .min(8);
    let queue = Mutex::new(commands.into_iter().enumerate().collect::<Vec<_>>());
    let bypasses = Mutex::new(Vec::new());
    let ran = Mutex::new(0usize);
    let timeouts = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for t in 0..threads {
            let queue = &queue;
            let bypasses = &bypasses;
            let ran = &ran;
            let timeouts = &timeouts;
            scope.spawn(move || {
                let sandbox = Sandbox::new(&format!("{label}-{t}"));
                loop {
                    let Some((_, command)) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let (found, timed_out) = examine(&sandbox, &command);
                    *ran.lock().unwrap() += 1;
                    *timeouts.lock().unwrap() += usize::from(timed_out);
                    bypasses.lock().unwrap().extend(found);
                }
            });
        }
    });
    let bypasses = bypasses.into_inner().unwrap();
    let ran = ran.into_inner().unwrap();
    eprintln!(
        "oracle {label}: {ran} commands run, {} bypasses",
        bypasses.len()
    );
    if !bypasses.is_empty() {
        let mut report = String::new();
        for b in &bypasses {
            report.push_str(&format!(
                "\n--- {:?}\n    {}\n    trace: {}\n",
                b.command, b.what, b.line
            ));
        }
        panic!("{} bypasses found by the oracle:{report}", bypasses.len());
    }
}

/// `count` generated commands from a fixed seed (or `BASHGATE_ORACLE_SEED`).
pub fn generated(count: usize) -> Vec<String> {
    let seed: u64 = std::env::var("BASHGATE_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0bad_5eed);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = generate::command(true);
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).expect("generate").current())
        .collect()
}

#[test]
fn the_gate_saw_everything_bash_did_in_the_corpus() {
    if !ready() {
        return;
    }
    run_all("corpus", corpus_commands());
}

#[test]
fn the_gate_saw_everything_bash_did_in_generated_commands() {
    if !ready() {
        return;
    }
    let count = std::env::var("BASHGATE_ORACLE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    run_all("generated", generated(count));
}

#[test]
fn the_oracle_catches_a_planted_blind_spot() {
    // The comparison itself must be able to fail: a gate that saw nothing is caught.
    if !ready() {
        return;
    }
    let sandbox = Sandbox::new("selftest");
    sandbox.reset();
    let run = sandbox.run("cat ~/.ssh/id_rsa; touch /tmp/x", TIMEOUT);
    let trace = trace::parse(&run.output);
    let blind = Inspection::default();
    let found = compare(&sandbox, "cat ~/.ssh/id_rsa; touch /tmp/x", &blind, &trace);
    let text: Vec<_> = found.iter().map(|b| b.what.as_str()).collect();
    assert!(text.iter().any(|w| w.contains("`cat`")), "{text:?}");
    assert!(text.iter().any(|w| w.contains("`touch`")), "{text:?}");
    assert!(text.iter().any(|w| w.contains(".ssh/id_rsa")), "{text:?}");
    assert!(text.iter().any(|w| w.contains("/tmp/x")), "{text:?}");
    // ...and the real gate sees all of it.
    assert!(
        examine(&sandbox, "cat ~/.ssh/id_rsa; touch /tmp/x")
            .0
            .is_empty()
    );
}
