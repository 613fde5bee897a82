//! BG301 and BG302: the environment — variables that load code into every program
//! started after them, and reading secrets out of it.

use crate::catalogue::Values;
use crate::catalogue::{self, Fact, Role};
use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::model::paths::Resolved;
use crate::model::word::{Part, Word};
use crate::rules::Checker;
use crate::verdict::Decision;

declare_rule! {
    /// ## What it does
    /// Denies setting a variable that makes other programs load or run code — as a
    /// prefix (`LD_PRELOAD=x cmd`), through `env VAR=...`, `export`, `declare -x`,
    /// `readonly`, `read`, `printf -v`, `mapfile`, `getopts`, a nameref, or a plain
    /// assignment: `LD_PRELOAD`, `LD_AUDIT`, `DYLD_*`,
    /// `BASH_ENV`, `ENV`, `PROMPT_COMMAND`, `BASH_FUNC_*`, `GIT_SSH`,
    /// `GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`, `GIT_PROXY_COMMAND`, `GIT_ASKPASS`,
    /// `SSH_ASKPASS`, `GIT_CONFIG_*`, `LESSOPEN`, `PS0`–`PS4` with a substitution,
    /// `PYTHONSTARTUP`, `RUBYOPT`, `PERL5OPT`, `PATHEXT`, `GCONV_PATH`, `GIT_EXEC_PATH`,
    /// `GIT_CONFIG_GLOBAL`/`_SYSTEM`, `JAVA_TOOL_OPTIONS`, `MAKEFILES`, `RSYNC_RSH`;
    /// options read from the environment (the catalogue's `env_keys` with the
    /// `options` role: `TAR_OPTIONS`, `ZIPOPT`, `UNZIP`, `GZIP`, `LESS`,
    /// `MAKEFLAGS`, `NODE_OPTIONS`, `CFLAGS`, `RUSTFLAGS`...) with an option the
    /// reader's entry says runs a command, code or programs from a folder
    /// (`--to-command=`, `--eval`, `--require`, `-B DIR`, `-fplugin=`), and such an
    /// option passed on by one program to another (`gcc -Wl,-plugin,LIB`, `javac
    /// -J-javaagent:JAR`, `cargo rustc -- -Z codegen-backend=LIB`); the words a
    /// value adds to the variable's inherited value are the ones judged
    /// (`NODE_OPTIONS="$NODE_OPTIONS --max-old-space-size=4096"` is fine); pagers and editors (`PAGER`, `GIT_PAGER`,
    /// `MANPAGER`, `EDITOR`, `VISUAL`, `GIT_EDITOR`, `GIT_SEQUENCE_EDITOR`,
    /// `KUBE_EDITOR`, `FCEDIT`...) set to anything but a plain
    /// pager or editor (`cat`, `less`, `more`, `true`, `vim`...); search paths
    /// (`PATH`, `LD_LIBRARY_PATH`, `PYTHONPATH`, `PYTHONHOME`, `RUBYLIB`, `PERL5LIB`,
    /// `CLASSPATH`, `GEM_PATH`, `LUA_PATH`,
    /// `NODE_PATH`) that put anything but project folders first. Asks when a
    /// variable moves where programs read settings files whose keys run programs
    /// (`HOME`, `XDG_CONFIG_HOME`, `ZDOTDIR`, `CARGO_HOME`, `DOCKER_CONFIG`,
    /// `NPM_CONFIG_USERCONFIG`, `PSQLRC`...): a `.gitconfig` the command wrote
    /// would run its `core.fsmonitor`.
    ///
    /// ## Why
    /// These are the quiet ways to run code: every later program loads the library,
    /// sources the file or runs the "pager". `export PATH="$HOME/.local/bin:$PATH"`
    /// makes every later command name resolve first in a folder the agent can write
    /// outside the project.
    ///
    /// ## Example
    /// - `LD_PRELOAD=/tmp/x.so ls` → deny
    /// - `gcc -Wl,-plugin,/tmp/x.so main.c` → deny
    /// - `gcc -Wl,--as-needed main.c` → allow
    /// - `GIT_PAGER=cat git log` → allow
    /// - `PYTHONPATH=src python -m app` → allow
    /// - `HOME=. git status` → ask
    pub static LOADER_ENV = {
        code: "BG301",
        name: "loader-or-startup-env",
        default: Deny,
        capability: SensitiveEnv,
        summary: "sets a variable that loads code (LD_PRELOAD, BASH_ENV, PATH prepends...)",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a command reads secrets out of the environment: `printenv`, `env`
    /// or `set` with nothing to run, `export -p`, `declare -p`/`-x`, `typeset -p`,
    /// `/proc/*/environ`, `ps e`/`ps auxe`/`ps -E` (other processes' environments), and any expansion of a variable whose name says it holds a
    /// secret (`$GITHUB_TOKEN`, `$AWS_SECRET_ACCESS_KEY`, `$OPENAI_API_KEY`,
    /// `$DB_PASSWORD`: a part named KEY, TOKEN, SECRET, PASSWORD, PASSWD,
    /// CREDENTIAL(S), PRIVATE or APIKEY). The same read asked for another way:
    /// a program or flag that prints the environment (the catalogue's
    /// `prints-environment`: `make -p`, `php -i`, `envsubst`), code in a data
    /// tool's language that reads it whole (`jq -n env`), `declare -p NAME` of a
    /// secret, an indirect expansion (`${!k}`, whose name is only a value) and a
    /// nameref to a secret (`declare -n r=GITHUB_TOKEN`).
    ///
    /// ## Why
    /// An agent's context window is not a safe place for credentials, and what it
    /// prints may be logged or sent on.
    ///
    /// ## Example
    /// - `echo $GITHUB_TOKEN` → ask
    /// - `env | grep KEY` → ask
    /// - `env | grep PATH` → allow (one name that is not a secret's, see BG315)
    /// - `env FOO=1 make` → allow
    /// - `echo $PATH` → allow
    /// - `k=AWS_SECRET_ACCESS_KEY; echo ${!k}` → ask
    /// - `declare -p GITHUB_TOKEN` → ask
    /// - `echo ${!GITHUB*}` → allow (names only)
    pub static SECRET_ENV_READ = {
        code: "BG302",
        name: "secret-env-read",
        default: Ask,
        capability: SensitiveEnv,
        summary: "reads secrets from the environment (printenv, env, $..._TOKEN)",
    };
}

declare_rule! {
    /// ## What it does
    /// Asks when a value names the program a tool runs (the catalogue's `program`
    /// role) and that program is not an ordinary one: an environment variable a
    /// build reads (`CC`, `CXX`, `LD`, `AR`, `RUSTC`, `RUSTC_WRAPPER`,
    /// `CARGO_BUILD_RUSTC_WRAPPER`... as a prefix, through `env` or `export`), a
    /// make variable (`make CC=...`), a setting (`mvn -Dexec.executable=...`,
    /// `cargo --config build.rustc-wrapper=...`) or an option (`gcc -wrapper`,
    /// `gawk -l`), or options a tool reads from a variable that name a program
    /// (`RUSTFLAGS='-C linker=...'`, `MAKEFLAGS='SHELL=...'`), a path outside the
    /// project (`TAR_OPTIONS='-C /etc'`), or are only known at run time
    /// (`MAKEFLAGS="$FLAGS"`; options that load code are BG301's); the same for
    /// options one program passes on to another (`go build -ldflags=-extld=X`,
    /// `cargo rustc -- -C linker=X`, `gcc -Wl,…`: see `passed_options`) and for an
    /// option naming what runs whose attached value is only known at run time
    /// (`go build -toolexec=$T`).
    /// The value is shell text, names a program outside the project,
    /// a program the catalogue does not know, or one that runs any text it is
    /// given (a shell, an interpreter), or gives it arguments that are not plain
    /// flags.
    ///
    /// ## Why
    /// The tool runs the value as a program with its own arguments appended:
    /// `CC='sh -c "..."' make` runs shell text at every compile, hidden from the
    /// command line the gate reads.
    ///
    /// ## Example
    /// - `CC='sh -c id' make` → ask
    /// - `RUSTC_WRAPPER=/tmp/w cargo build` → ask
    /// - `go build -ldflags=-extld=/tmp/w .` → ask
    /// - `go build -toolexec=$T .` → ask
    /// - `CC=clang make` → allow
    /// - `make CC='gcc -m32'` → allow
    pub static PROGRAM_SETTING = {
        code: "BG303",
        name: "program-setting",
        default: Ask,
        capability: SensitiveEnv,
        summary: "names the program a tool runs (CC=, RUSTC_WRAPPER=, make CC=, gcc -wrapper) as shell text, an interpreter or a program outside the project",
    };
}

const LOADERS: &[&str] = &[
    "LD_PRELOAD",
    "LD_AUDIT",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONSTARTUP",
    "RUBYOPT",
    "PERL5OPT",
    "PERL5DB",
    "BROWSER",
    // glibc loads character-set converters from here (iconv, any program).
    "GCONV_PATH",
    // git runs its `git-*` subcommands from here.
    "GIT_EXEC_PATH",
    // Config files whose settings run programs (`core.pager`, `core.fsmonitor`...).
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG",
    // A JVM adds these options to every start: `-javaagent:` loads code.
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    // make reads these makefiles before the project's.
    "MAKEFILES",
    // Programs rsync and CVS run to reach the remote side.
    "RSYNC_RSH",
    "RSYNC_CONNECT_PROG",
    "CVS_RSH",
    "SVN_SSH",
    // Windows-style shells (Git Bash, MSYS) pick which file runs by these extensions.
    "PATHEXT",
    // Lua runs this code (or `@FILE`) before the script.
    "LUA_INIT",
    "LUA_INIT_5_1",
    "LUA_INIT_5_2",
    "LUA_INIT_5_3",
    "LUA_INIT_5_4",
    // .NET loads these into every process (with `CORECLR_ENABLE_PROFILING=1`).
    "CORECLR_PROFILER_PATH",
    "CORECLR_PROFILER_PATH_32",
    "CORECLR_PROFILER_PATH_64",
    "DOTNET_STARTUP_HOOKS",
    // Mercurial reads these settings files, whose hooks run programs.
    "HGRCPATH",
    // vim and ex run these commands at start (`:!CMD` runs a shell).
    "VIMINIT",
    "EXINIT",
];

/// True for a variable whose value, when set, makes programs load or run code:
/// this rule's loaders, pagers and editors, the search paths but `PATH`, and the
/// names that say they hold a command (`FOO_COMMAND`, `X_EDITOR`). The runner
/// never passes one of these from its own environment by a glob: the one list
/// the gate judges is the one the runner keeps out.
// Read by the runner only: a gate-only build does not call it.
#[cfg_attr(not(feature = "exec"), allow(dead_code))]
pub fn runs_code_when_set(name: &str) -> bool {
    LOADERS.contains(&name)
        || PAGERS.contains(&name)
        || (name != "PATH" && SEARCH_PATHS.contains(&name))
        || crate::model::command_names::variable_names_a_command(name)
}

/// Variables that move where programs read their settings and startup files
/// (`.gitconfig`, `.bashrc`, `.npmrc`, `~/.cargo/config.toml`, a kubeconfig's
/// `exec` plugin, docker's `credsStore`), whose keys run programs: set, the files
/// read are ones the agent can write (or this command wrote). BG301 asks.
const SETTINGS_HOMES: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "ZDOTDIR",
    "CARGO_HOME",
    "DOCKER_CONFIG",
    "GNUPGHOME",
    "NPM_CONFIG_USERCONFIG",
    "npm_config_userconfig",
    "NPM_CONFIG_GLOBALCONFIG",
    "npm_config_globalconfig",
    "BUNDLE_APP_CONFIG",
    "RIPGREP_CONFIG_PATH",
    "MYVIMRC",
    "PSQLRC",
    "IRBRC",
    "R_PROFILE_USER",
    "PYTHONUSERBASE",
    "CURL_HOME",
    "WGETRC",
];
const PAGERS: &[&str] = &[
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "SYSTEMD_PAGER",
    "SYSTEMD_EDITOR",
    "KUBE_EDITOR",
    "SUDO_EDITOR",
    "FCEDIT",
    "SVN_EDITOR",
    "HGEDITOR",
];
const SEARCH_PATHS: &[&str] = &[
    "PATH",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "PYTHONHOME",
    "RUBYLIB",
    "PERL5LIB",
    "NODE_PATH",
    "DYLD_LIBRARY_PATH",
    "CLASSPATH",
    "PERLLIB",
    "GEM_PATH",
    "LUA_PATH",
    "LUA_CPATH",
    "LUA_PATH_5_1",
    "LUA_PATH_5_2",
    "LUA_PATH_5_3",
    "LUA_PATH_5_4",
    "LUA_CPATH_5_1",
    "LUA_CPATH_5_2",
    "LUA_CPATH_5_3",
    "LUA_CPATH_5_4",
    "TCLLIBPATH",
];

/// True when a prompt string may run code when bash expands it: a substitution,
/// and what evaluates a value again (an array subscript, `${!x}`, `${x@P}`), as
/// written or in a value only known at run time (`PS4=$x`). Plain `$NAME` and
/// `${NAME}` are expanded once: `PS4='+ ${BASH_SOURCE}:${LINENO}: '` runs nothing.
fn prompt_runs_code(value: &Word, text: &str) -> bool {
    if value.has_substitution() || text.contains("$(") || text.contains('`') {
        return true;
    }
    let Some(v) = value.value() else {
        return true;
    };
    crate::model::arithmetic::braced_expansions(v)
        .any(|inner| inner.starts_with('!') || inner.contains(['[', '@']))
        || v.contains("$((")
}

/// Why setting `name` to `value` loads code, if it does.
fn loads_code(
    name: &str,
    value: Option<&Word>,
    cmd: &SimpleCommand,
    cx: &Checker,
) -> Option<String> {
    let text = value.map(Word::display).unwrap_or_default();
    let static_value = value.and_then(Word::value);
    if LOADERS.contains(&name)
        || name.starts_with("BASH_FUNC_")
        || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
    {
        return Some(format!("`{name}` makes other programs load or run code"));
    }
    if name.starts_with("DYLD_") && name != "DYLD_LIBRARY_PATH" {
        return Some(format!("`{name}` injects code into every program"));
    }
    if name == "PS4" && value.is_some_and(|w| prompt_runs_code(w, &text)) {
        return Some("`PS4` with a command substitution runs it on every traced line".into());
    }
    if matches!(name, "PS0" | "PS1" | "PS2" | "PS3")
        && value.is_some_and(|w| prompt_runs_code(w, &text))
    {
        return Some(format!(
            "`{name}` with a command substitution runs it at every prompt of an interactive shell"
        ));
    }
    if PAGERS.contains(&name) {
        return match static_value {
            Some(v) if plain_pager(v) => None,
            _ => Some(format!(
                "`{name}` runs `{text}` whenever a program pages or edits"
            )),
        };
    }
    if SEARCH_PATHS.contains(&name) {
        return search_path(name, value?, cmd, cx);
    }
    None
}

/// Why setting `name` to `value` moves where programs read settings that run
/// programs ([`SETTINGS_HOMES`]), if it does: any value but the variable's own
/// (`CARGO_HOME="$CARGO_HOME"`).
fn moves_settings(name: &str, value: Option<&Word>) -> Option<String> {
    if !SETTINGS_HOMES.contains(&name) {
        return None;
    }
    let own = value.is_some_and(
        |w| matches!(w.parts.as_slice(), [Part::Variable { name: n, .. }] if n == name),
    );
    if own {
        return None;
    }
    let text = value.map(Word::display).unwrap_or_default();
    Some(format!(
        "`{name}={text}` moves where programs read their settings and startup files, whose keys run programs (`core.fsmonitor`, `script-shell`, a kubeconfig's `exec`): they would be files the agent can write"
    ))
}

/// A search path must put only project folders before the inherited value (and,
/// when it replaces the value, only project or standard system folders).
fn search_path(name: &str, value: &Word, cmd: &SimpleCommand, cx: &Checker) -> Option<String> {
    // Split the word's parts at `:` into entries; `$NAME` of the same variable marks
    // where the inherited value goes.
    let mut entries: Vec<Vec<Part>> = vec![Vec::new()];
    for part in &value.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) if t.contains(':') => {
                let quoted = matches!(part, Part::Quoted(_));
                for (k, piece) in t.split(':').enumerate() {
                    if k > 0 {
                        entries.push(Vec::new());
                    }
                    if !piece.is_empty() {
                        let p = if quoted {
                            Part::Quoted(piece.into())
                        } else {
                            Part::Literal(piece.into())
                        };
                        if let Some(last) = entries.last_mut() {
                            last.push(p);
                        }
                    }
                }
            }
            other => {
                if let Some(last) = entries.last_mut() {
                    last.push(other.clone());
                }
            }
        }
    }
    let inherits =
        |e: &Vec<Part>| matches!(e.as_slice(), [Part::Variable { name: n, .. }] if n == name);
    let inherited_at = entries.iter().position(inherits);
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    let system = |p: &std::path::Path| {
        crate::model::command::SYSTEM_BIN_DIRS
            .iter()
            .any(|d| p == std::path::Path::new(d))
            || p.starts_with("/usr/lib")
            || p.starts_with("/lib")
            || p.starts_with("/usr/local/lib")
    };
    let checked = match inherited_at {
        Some(at) => &entries[..at],
        None => &entries[..],
    };
    for entry in checked {
        if entry.is_empty() {
            continue;
        }
        let word = Word::new(entry.clone(), value.span, value.has_quotes);
        let inside = match cx.paths.resolve(&word, cwd) {
            Resolved::Path { path, .. } => {
                matches!(
                    cx.paths.place(&path),
                    crate::policy::paths::Place::Inside | crate::policy::paths::Place::Allowed
                ) || (inherited_at.is_none() && system(&path))
            }
            _ => false,
        };
        if !inside {
            return Some(format!(
                "`{name}` puts `{}` before the usual search path: programs would be found there first",
                word.display()
            ));
        }
    }
    None
}

/// `awk 'BEGIN{print ENVIRON["API_KEY"]}'`, `jq -n env.GITHUB_TOKEN`, `yq '.x =
/// env(AWS_SECRET_ACCESS_KEY)'`: code in a program's own language (a word the
/// catalogue gives a code role) reading a secret out of the environment. A
/// pattern that only mentions one (`grep 'process.env.API_KEY'`) reads nothing.
fn code_secret_reads(cmd: &SimpleCommand, cx: &mut Checker) {
    if !cx.entry(cmd).is_some_and(|e| e.mentions(&[Role::Code("")])) {
        return;
    }
    let args = cmd.args();
    if !args
        .iter()
        .filter_map(Word::value)
        .any(|v| v.contains("env") || v.contains("ENV"))
    {
        return;
    }
    for &arg in cx.args(cmd).iter() {
        if !matches!(arg.role, Role::Code(_)) {
            continue;
        }
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let Some(text) = word.value().and_then(|v| v.get(arg.offset..)) else {
            continue;
        };
        if let Some(name) = embedded_secret_read(text) {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                format!("reads `{name}` out of the environment in the program's own language"),
            );
        } else if let Role::Code(language) = arg.role
            && let Some(how) = whole_environment_read(language, text)
        {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                format!("{how}: every variable, secrets among them"),
            );
        }
    }
}

/// How code in a data tool's language reads the environment as a whole, or a
/// variable whose name is only known at run time: jq's `env` and `$ENV` (not
/// `env.NAME`, `$ENV["NAME"]`), awk's `ENVIRON` (not `ENVIRON["NAME"]`: `for (k
/// in ENVIRON)`, `ENVIRON[k]`), yq's `envsubst`. Names inside string literals
/// are text, not reads (`select(.name == "env")`).
///
/// ## Example
/// `jq -n env`, `awk 'BEGIN{for (k in ENVIRON) print ENVIRON[k]}'` → the whole
/// environment; `jq -n env.HOME` → one variable, judged by its name.
pub fn whole_environment_read(language: &str, text: &str) -> Option<&'static str> {
    let (tokens, how): (&[&str], &str) = match language {
        "jq" => (&["env", "$ENV"], "the jq filter reads the environment"),
        "awk" => (&["ENVIRON"], "the awk program reads the environment"),
        "yq" => (
            &["envsubst"],
            "the yq expression substitutes the environment",
        ),
        _ => return None,
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    tokens
        .iter()
        .any(|token| {
            text.match_indices(token).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = &text[at + token.len()..];
                let whole_word = !before.is_some_and(|c| ident(c) || c == '.' || c == '$')
                    && !after.starts_with(ident);
                whole_word && !in_string(&text[..at]) && !names_one(language, after)
            })
        })
        .then_some(how)
}

/// True when `before` (the text before a token) leaves an open `"` string.
fn in_string(before: &str) -> bool {
    let mut open = false;
    let mut escaped = false;
    for c in before.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => open = !open,
            _ => escaped = false,
        }
    }
    open
}

/// True when the text after an environment token names one variable literally:
/// `.NAME`, `."NAME"`, `["NAME"]`, `.["NAME"]` (jq), `["NAME"]` (awk), `(NAME)`
/// (yq's `env(NAME)`). [`embedded_secret_read`] judges that name.
fn names_one(language: &str, after: &str) -> bool {
    let after = after.trim_start();
    let quoted = |s: &str| {
        s.strip_prefix('"')
            .and_then(|s| s.split_once('"'))
            .is_some_and(|(name, _)| !name.is_empty() && !name.contains('\\'))
    };
    match language {
        "jq" => match after.strip_prefix('.') {
            Some(rest) => {
                rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    || quoted(rest)
                    || rest.strip_prefix('[').is_some_and(quoted)
            }
            None => after.strip_prefix('[').is_some_and(quoted),
        },
        "awk" => after
            .strip_prefix('[')
            .is_some_and(|s| quoted(s.trim_start())),
        _ => false,
    }
}

/// How languages that programs embed read a variable: awk's `ENVIRON["X"]`, jq's
/// `env.X`, `$ENV.X` and `env["X"]`, yq's `env(X)` and `strenv(X)`, `getenv("X")`, Python's
/// `os.environ["X"]`, Node's `process.env.X`.
const ENV_ACCESSORS: &[&str] = &[
    "ENVIRON[",
    "env.",
    "$ENV.",
    "env[",
    "$ENV[",
    "env.[",
    "$ENV.[",
    "env(",
    "strenv(",
    "getenv(",
    "environ[",
    "environ.get(",
];

/// The secret-looking variable a word's text reads with one of the
/// [`ENV_ACCESSORS`], if any.
fn embedded_secret_read(text: &str) -> Option<&str> {
    ENV_ACCESSORS.iter().find_map(|accessor| {
        text.match_indices(accessor).find_map(|(at, _)| {
            let rest = text[at + accessor.len()..].trim_start_matches(['"', '\'', ' ']);
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            (!name.is_empty() && is_secret_name(name)).then_some(name)
        })
    })
}

/// Secret-looking variable names.
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.split('_').any(|part| {
        matches!(
            part,
            "KEY"
                | "TOKEN"
                | "SECRET"
                | "PASSWORD"
                | "PASSWD"
                | "CREDENTIAL"
                | "CREDENTIALS"
                | "PRIVATE"
                | "APIKEY"
                | "PAT"
        )
    }) || upper.ends_with("TOKEN")
        || upper.ends_with("APIKEY")
        || upper.ends_with("SECRET")
}

/// True when some catalogue entry (or subcommand) reads the variable `name` as
/// the program it runs (`env_keys` with the `program` role).
fn names_a_program(name: &str) -> bool {
    catalogue::env_key_readers(name).any(|(_, role)| role == Role::Program)
}

/// The entry that reads the variable `name` as more of its own options
/// (`env_keys` with the `options` role: `CFLAGS` for gcc).
fn options_of(name: &str) -> Option<&'static catalogue::Entry> {
    catalogue::env_key_readers(name)
        .find(|(_, role)| *role == Role::Options)
        .map(|(entry, _)| entry)
}

/// What the words of `value`, read as options of `entry`, make it run, with the
/// rule that judges it: an option or setting that runs a command, shell text, code
/// or a program from a folder (`--to-command=CMD`, `--require FILE`, `-B DIR`,
/// `-fplugin=`, make's `--eval`) loads code into every run of the reader (BG301);
/// one that names the program or shell it runs (`-wrapper X`, `-C linker=X`,
/// `SHELL=X`) is judged as that program (BG303); a value only known at run time
/// may hold anything (BG303 asks).
pub(super) fn options_run(
    entry: &'static catalogue::Entry,
    value: Option<&str>,
    cmd: &SimpleCommand,
    cx: &Checker,
) -> Option<(&'static crate::rules::Rule, String)> {
    options_run_within(entry, value, cmd, cx, 0)
}

/// How deep options passed on inside options are read (`go build
/// -ldflags=-extldflags=-fplugin=X`: the linker's options hold the compiler's);
/// deeper asks.
const MAX_PASSED_DEPTH: usize = 4;

/// [`options_run`], `depth` readers down.
fn options_run_within(
    entry: &'static catalogue::Entry,
    value: Option<&str>,
    cmd: &SimpleCommand,
    cx: &Checker,
    depth: usize,
) -> Option<(&'static crate::rules::Rule, String)> {
    let Some(value) = value else {
        return Some((
            &PROGRAM_SETTING,
            format!("options only known at run time reach `{}`", entry.name),
        ));
    };
    let words: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || c == '\u{1f}')
        .filter(|w| !w.is_empty())
        .collect();
    // `cargo rustc -- @FILE`, `RUSTFLAGS=@FILE`: more arguments from a file,
    // which the gate does not read (and the reader may print it in an error).
    if entry.has(Fact::ResponseFiles)
        && let Some(word) = words.iter().find(|w| w.len() > 1 && w.starts_with('@'))
    {
        return Some((
            &PROGRAM_SETTING,
            format!(
                "`{word}` gives `{}` more arguments from a file the gate does not read",
                entry.name
            ),
        ));
    }
    let values: Values = words.iter().map(|w| Some(*w)).collect();
    for &arg in catalogue::classify(entry, &values).iter() {
        let Some(word) = words.get(arg.index) else {
            continue;
        };
        let text = word.get(arg.offset..).unwrap_or_default();
        // The role of what the word names: an option's value, or a setting's.
        let (role, named) = match arg.role {
            Role::Config => match text.split_once('=') {
                Some((key, v)) => match setting_role(entry, key, &|_| true) {
                    Some(role) => (role, v),
                    None => continue,
                },
                None => continue,
            },
            role if arg.option_value => (role, text),
            // Operands passed on as a whole (`cargo rustc -- ARGS`).
            role @ Role::OptionsOf(_) => (role, text),
            _ => continue,
        };
        if let Role::OptionsOf(name) = role {
            // Options this reader passes on in turn (`-extldflags=…`, `-C link-arg=…`).
            let passed = if arg.role == Role::Config {
                super::option_words::split(named)
            } else {
                super::option_words::words_of(word, arg.offset)
            };
            let reason = match catalogue::options_reader(name) {
                Some(reader) if depth < MAX_PASSED_DEPTH => {
                    options_run_within(reader, Some(&passed), cmd, cx, depth + 1)
                }
                _ => Some((
                    &PROGRAM_SETTING,
                    format!("`{word}` passes options on to `{name}`, deeper than the gate reads"),
                )),
            };
            if reason.is_some() {
                return reason;
            }
            continue;
        }
        let reason = match role {
            Role::Program => foreign_program(Some(named), cmd, cx).map(|r| (&PROGRAM_SETTING, r)),
            Role::ShellProgram => foreign_shell(Some(named)).map(|r| (&PROGRAM_SETTING, r)),
            role if role.runs() => Some((
                &LOADER_ENV,
                format!("`{word}` makes `{}` run a program or load code", entry.name),
            )),
            // `NODE_OPTIONS=--inspect=0.0.0.0:9229`: an address the reader listens
            // on or reaches, out of the command's sight, must be this machine's.
            Role::Remote if !super::network::is_loopback(named) => Some((
                &super::network::NETWORK_TOOL,
                format!(
                    "`{word}` points `{}` at another machine or a listening address",
                    entry.name
                ),
            )),
            // `--emit=link=/x`, `-X pycache_prefix=/x`: a `KEY=PATH` setting given
            // as text names that path.
            Role::Text
                if crate::model::path_roles::setting_path(named)
                    .is_some_and(|k| !inside_project(&named[k..], cmd, cx)) =>
            {
                Some((
                    &PROGRAM_SETTING,
                    format!(
                        "`{word}` points `{}` at a path outside the project",
                        entry.name
                    ),
                ))
            }
            // `TAR_OPTIONS='-C /etc'`, `UNZIP='-d /tmp'`: a path the reader reads or
            // writes, out of the command's sight, must be the project's.
            // A path with a part only known at run time may be any path.
            Role::PathRead | Role::PathWrite | Role::PathDelete | Role::Directory
                if named.contains(super::option_words::STAND_IN)
                    || !inside_project(named, cmd, cx) =>
            {
                Some((
                    &PROGRAM_SETTING,
                    format!(
                        "`{word}` points `{}` at a path outside the project",
                        entry.name
                    ),
                ))
            }
            _ => None,
        };
        if reason.is_some() {
            return reason;
        }
    }
    None
}

/// True when `text`, a path as a program reads it from an options variable,
/// resolves inside the project (or a folder the policy allows).
fn inside_project(text: &str, cmd: &SimpleCommand, cx: &Checker) -> bool {
    let word = Word::new(vec![Part::Literal(text.into())], cmd.span, false);
    let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
    match cx.paths.resolve(&word, cwd) {
        Resolved::Path { path, .. } => matches!(
            cx.paths.place(&path),
            crate::policy::paths::Place::Inside | crate::policy::paths::Place::Allowed
        ),
        _ => false,
    }
}

/// The role of the settings key `key` in the entry or one of its subcommands
/// (`make SHELL=`, `cargo build --config build.rustc-wrapper=X`): the first that
/// `wanted` accepts, the entry's before its subcommands'.
pub(super) fn setting_role(
    entry: &catalogue::Entry,
    key: &str,
    wanted: &dyn Fn(Role) -> bool,
) -> Option<Role> {
    entry
        .config_key_role(key)
        .filter(|r| wanted(*r))
        .or_else(|| {
            entry
                .subcommands
                .iter()
                .find_map(|s| setting_role(s, key, wanted))
        })
}

/// Why `value`, naming the program a tool runs, is not an ordinary program, if
/// it is not. Its first word (a comma list's first item: `gdb,--args`) is the
/// program; the rest are its first arguments.
fn foreign_program(value: Option<&str>, cmd: &SimpleCommand, cx: &Checker) -> Option<String> {
    let Some(value) = value.filter(|v| !v.contains(super::option_words::STAND_IN)) else {
        return Some("names a program only known at run time".into());
    };
    if value.contains([
        ';', '|', '&', '<', '>', '(', ')', '$', '`', '\'', '"', '\\', '*', '?', '[', ']', '{', '}',
        '!', '#', '\n',
    ]) {
        return Some(format!("`{value}` is shell text, not a program"));
    }
    let mut words: Vec<&str> = Vec::new();
    for (k, word) in value.split_whitespace().enumerate() {
        if k == 0 {
            words.extend(word.split(',').filter(|w| !w.is_empty()));
        } else {
            words.push(word);
        }
    }
    judge_program(&words, cmd, cx, 0)
}

/// Why `value`, naming the shell a tool runs its text with (make's `SHELL`), is
/// not a plain shell: it must be a shell the catalogue knows, named bare or in a
/// system folder (`bash`, `/bin/sh`), followed by flags only.
fn foreign_shell(value: Option<&str>) -> Option<String> {
    let Some(value) = value.filter(|v| !v.contains(super::option_words::STAND_IN)) else {
        return Some("names a shell only known at run time".into());
    };
    let mut words = value.split_whitespace();
    let first = words.next()?;
    let name = match first.rsplit_once('/') {
        Some((dir, base)) if crate::model::command::SYSTEM_BIN_DIRS.contains(&dir) => base,
        Some(_) => return Some(format!("`{first}` is not a system shell")),
        None => first,
    };
    if !catalogue::has_fact(name, Fact::Shell) {
        return Some(format!(
            "`{first}` is not a shell: the text runs as its input"
        ));
    }
    words
        .find(|w| !w.starts_with('-') || w.contains(['$', '`', ';', '|', '&', '/']))
        .map(|w| format!("gives the shell `{w}`, not a plain flag"))
}

/// Judges a program and its first arguments (see [`foreign_program`]); a wrapper
/// (`ccache gcc`) is judged by the program it runs.
fn judge_program(
    words: &[&str],
    cmd: &SimpleCommand,
    cx: &Checker,
    depth: usize,
) -> Option<String> {
    let (&first, rest) = words.split_first()?;
    if first.starts_with('~') {
        return Some(format!("`{first}` is a program outside the project"));
    }
    if first.contains('/') {
        let cwd = cx.paths.cwd_of(&cmd.context.cwd, cx.cwd);
        let word = Word::literal(first, cmd.span);
        let inside = match cx.paths.resolve(&word, cwd) {
            Resolved::Path { path, .. } => matches!(
                cx.paths.place(&path),
                crate::policy::paths::Place::Inside | crate::policy::paths::Place::Allowed
            ),
            _ => false,
        };
        if !inside {
            return Some(format!("`{first}` is a program outside the project"));
        }
        return flags_only(rest, None);
    }
    let Some(entry) = lookup_tool(first) else {
        return Some(format!("`{first}` is a program the gate does not know"));
    };
    let runs_text = entry.has(Fact::Shell)
        || entry.interpreter.is_some()
        || entry.mentions(&[
            Role::Shell,
            Role::ShellWords,
            Role::PathWriteOrPipe,
            Role::Code(""),
        ]);
    if entry.has(Fact::Wrapper) && !entry.has(Fact::Privilege) && !runs_text && depth < 4 {
        // `ccache gcc`, `sccache clang`: the program it runs is judged; alone
        // (`RUSTC_WRAPPER=sccache`) it runs the program the tool appends.
        return match rest.iter().position(|w| !w.starts_with('-')) {
            Some(at) => judge_program(&rest[at..], cmd, cx, depth + 1),
            None => flags_only(rest, Some(entry)),
        };
    }
    if entry.has(Fact::Shell)
        || entry.has(Fact::Privilege)
        || entry.interpreter.is_some()
        || entry.mentions(&[
            Role::Command,
            Role::Shell,
            Role::ShellWords,
            Role::PathWriteOrPipe,
        ])
    {
        return Some(format!("`{first}` runs any text it is given"));
    }
    // The tool hands the program files (`CC=rm make` the sources, `rg --pre
    // shred` every file searched): one that deletes or destroys its operands
    // does that to them. (Tools that write theirs, `STRIP=strip`, `gzip` as a
    // compressor, are what build tools are given.)
    if entry.has(Fact::DeletesFiles)
        || entry.has(Fact::DestroysData)
        || entry
            .operands
            .iter()
            .chain(entry.last.iter())
            .any(|r| *r == Role::PathDelete)
    {
        return Some(format!("`{first}` deletes the files it is given"));
    }
    flags_only(rest, Some(entry))
}

/// The entry of a tool named with a version suffix or a target prefix, as
/// toolchains install them: `gcc-12`, `clang++-17`, `x86_64-linux-gnu-gcc`,
/// `musl-gcc` are `gcc`, `clang++`, `gcc`, `gcc`.
fn lookup_tool(name: &str) -> Option<&'static catalogue::Entry> {
    if let Some(entry) = catalogue::lookup(name) {
        return Some(entry);
    }
    let unversioned = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let unversioned = unversioned.strip_suffix('-').unwrap_or(name);
    catalogue::lookup(unversioned).or_else(|| {
        unversioned
            .rsplit_once('-')
            .and_then(|(_, tool)| catalogue::lookup(tool))
    })
}

/// Arguments given with a program must be plain flags: no operand, no path, and
/// no option of the program's that runs something (`gcc -wrapper`, `-fplugin=`).
fn flags_only(rest: &[&str], entry: Option<&catalogue::Entry>) -> Option<String> {
    if let Some(word) = rest
        .iter()
        .find(|w| !w.starts_with('-') || w.contains(['/', '~']))
    {
        return Some(format!("gives the program `{word}`, not a plain flag"));
    }
    let entry = entry?;
    let values: Values = rest.iter().map(|w| Some(*w)).collect();
    catalogue::classify(entry, &values)
        .iter()
        .find(|a| a.option_value && (a.role.runs() || !a.role.is_text()))
        .map(|a| {
            format!(
                "gives the program `{}`, an option that runs or reads something",
                rest.get(a.index).copied().unwrap_or_default()
            )
        })
}

/// Values whose catalogue role is `program`: option values and operands, `KEY=value`
/// settings whose key names a program (`make CC=X`, `mvn -Dexec.executable=X`), and
/// the environment variables the program reads (`CC=X make`).
fn program_settings(cmd: &SimpleCommand, cx: &mut Checker) {
    for assignment in &cmd.assignments {
        if let Some(entry) = options_of(&assignment.name) {
            let value =
                crate::model::env_options::own_options(&assignment.name, assignment.value.as_ref());
            if let Some((rule, reason)) = options_run(entry, value.as_deref(), cmd, cx) {
                cx.report(
                    rule,
                    assignment.span,
                    format!(
                        "`{}` gives every `{}` more options: {reason}",
                        assignment.name, entry.name
                    ),
                );
            }
        }
        if names_a_program(&assignment.name)
            || cx
                .entry(cmd)
                .is_some_and(|e| e.env_key_role(&assignment.name) == Some(Role::Program))
        {
            let value = assignment.value.as_ref().and_then(Word::value);
            if let Some(reason) = foreign_program(value, cmd, cx) {
                cx.report(
                    &PROGRAM_SETTING,
                    assignment.span,
                    format!(
                        "`{}` names the program a tool runs: {reason}",
                        assignment.name
                    ),
                );
            }
        }
    }
    let Some(entry) = cx.entry(cmd) else {
        return;
    };
    if !entry.mentions(&[
        Role::Program,
        Role::Config,
        Role::Options,
        Role::ShellProgram,
    ]) {
        return;
    }
    let args = cmd.args();
    for &arg in cx.args(cmd).iter() {
        let Some(word) = args.get(arg.index) else {
            continue;
        };
        let value = word.value().and_then(|v| v.get(arg.offset..));
        // `make CFLAGS=...`: a setting whose words are another program's options
        // (the program that reads the variable of that name as `options`).
        if arg.role == Role::Config
            && let Some((key, v)) = value.and_then(|v| v.split_once('='))
            && entry.config_key_role(key) == Some(Role::Options)
            && let Some(reader) = options_of(key).or_else(|| options_of(&key.to_ascii_uppercase()))
            && let Some((rule, reason)) = options_run(reader, Some(v), cmd, cx)
        {
            cx.report(
                rule,
                word.span,
                format!("`{key}` gives `{}` more options: {reason}", reader.name),
            );
            continue;
        }
        if arg.role == Role::Config
            && let Some((key, v)) = value.and_then(|v| v.split_once('='))
            && entry.config_key_role(key) == Some(Role::ShellProgram)
        {
            if let Some(reason) = foreign_shell(Some(v)) {
                cx.report(
                    &PROGRAM_SETTING,
                    word.span,
                    format!(
                        "names the shell `{}` runs its text with: {reason}",
                        entry.name
                    ),
                );
            }
            continue;
        }
        let judged = match arg.role {
            Role::Program => Some(value),
            Role::Config => match value.and_then(|v| v.split_once('=')) {
                Some((key, v)) if setting_role(entry, key, &|r| r == Role::Program).is_some() => {
                    Some(Some(v))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(value) = judged
            && let Some(reason) = foreign_program(value, cmd, cx)
        {
            cx.report(
                &PROGRAM_SETTING,
                word.span,
                format!("names the program `{}` runs: {reason}", entry.name),
            );
        }
    }
}

/// True when a flag or a subcommand of the entry may print the environment
/// (`ps e`, `tmux show-environment`): only then are its words read.
fn may_print_environment(entry: &catalogue::Entry) -> bool {
    entry.flag_may_add(Fact::PrintsEnvironment)
        || entry
            .subcommands
            .iter()
            .any(|s| s.tree_has(Fact::PrintsEnvironment))
}

/// Judges assignments and secret reads.
pub fn check(cmd: &SimpleCommand, cx: &mut Checker) {
    for assignment in &cmd.assignments {
        if let Some(reason) = loads_code(&assignment.name, assignment.value.as_ref(), cmd, cx) {
            cx.report(&LOADER_ENV, assignment.span, reason);
        } else if let Some(reason) = moves_settings(&assignment.name, assignment.value.as_ref()) {
            cx.report_as(&LOADER_ENV, Decision::Ask, assignment.span, reason);
        }
    }
    program_settings(cmd, cx);
    // Expansions of secret-named variables, anywhere in the command.
    let words = cmd
        .words
        .iter()
        .chain(cmd.assignments.iter().filter_map(|a| a.value.as_ref()))
        .chain(cmd.redirects.iter().filter_map(|r| r.target.as_ref()));
    for word in words {
        // `${!k}`: the variable k's value names, which may be a secret's
        // (`k=AWS_SECRET_ACCESS_KEY; echo ${!k}`).
        if let Some(name) = word.parts.iter().find_map(|p| match p {
            Part::Expansion {
                name: Some(name),
                indirect: true,
                ..
            } => Some(name),
            _ => None,
        }) {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                format!("`${{!{name}}}` reads the variable `${name}` names, which may be a secret"),
            );
        } else if let Some(name) = word.variables().find(|n| is_secret_name(n)) {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                format!("expands `${name}`, which looks like a secret"),
            );
        }
        if word
            .value()
            .is_some_and(|v| v.starts_with("/proc/") && v.ends_with("/environ"))
        {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                "reads a process's environment".into(),
            );
        }
    }
    code_secret_reads(cmd, cx);
    if cmd.origin == Origin::Test {
        return;
    }
    let (Some(program), Some(name)) = (cx.program_str(cmd), cmd.name()) else {
        // `env` alone unwraps to no program: it prints the environment.
        let env_word = cmd.wrappers.last().and_then(|&w| cmd.words.get(w));
        if let Some(word) = env_word
            && cmd.program.is_none()
            && word
                .value()
                .is_some_and(|v| crate::catalogue::has_fact(v, Fact::PrintsEnvironment))
            && cmd.script.is_none()
        {
            cx.report(
                &SECRET_ENV_READ,
                word.span,
                "`env` with nothing to run prints the whole environment".into(),
            );
        }
        return;
    };
    let base = cx.base_name(cmd).unwrap_or(program);
    let args = cmd.args();
    let values = || args.iter().filter_map(Word::value);
    // A program (not a builtin) in any case, `.exe` stripped: `PRINTENV` runs it.
    // Or a flag or subcommand that makes it print environments (`ps auxe`, `make
    // -p`, `npm run env`). A use that only reports (`envsubst --variables`, a
    // `read-only` flag) prints none.
    let prints = cx.entry(cmd).filter(|e| {
        let usage = || cx.usage(cmd);
        let read_only = || usage().is_some_and(|u| u.has(Fact::ReadOnly));
        (e.has(Fact::PrintsEnvironment) && !read_only())
            || (may_print_environment(e) && usage().is_some_and(|u| u.has(Fact::PrintsEnvironment)))
    });
    // Shell builtins (`set`, `export`, `declare`): shell semantics, named here.
    let reason = match base {
        _ if prints.is_some() => Some("prints the environment (of this or other processes)"),
        "set" if values().next().is_none() => Some("`set` with no arguments prints every variable"),
        "export" | "declare" | "typeset"
            if values().any(|v| matches!(v, "-p" | "-x" | "-px" | "-xp"))
                && cmd.assignments.is_empty() =>
        {
            Some("lists exported variables and their values")
        }
        "readonly" | "local" if values().any(|v| v == "-p") && cmd.assignments.is_empty() => {
            Some("lists variables and their values")
        }
        // `declare -p GITHUB_TOKEN`: prints the named variables' values.
        "export" | "declare" | "typeset" | "readonly" | "local"
            if values().any(|v| v.starts_with('-') && v.contains('p'))
                && cmd
                    .assignments
                    .iter()
                    .any(|a| a.value.is_none() && is_secret_name(&a.name)) =>
        {
            Some("prints a secret-looking variable's value")
        }
        // `declare -n r=GITHUB_TOKEN; echo $r`: `$r` is the secret's value.
        "declare" | "typeset" | "local"
            if values().any(|v| v.starts_with('-') && v.contains('n'))
                && cmd.assignments.iter().any(|a| {
                    a.value
                        .as_ref()
                        .and_then(Word::value)
                        .is_some_and(is_secret_name)
                }) =>
        {
            Some("makes a name that reads a secret-looking variable")
        }
        "export" if values().next().is_none() && cmd.assignments.is_empty() => {
            Some("`export` alone lists exported variables")
        }
        _ if lists_script_environment(cmd, cx) => {
            Some("`run env` lists the environment scripts see (without an `env` script)")
        }
        _ => None,
    };
    if let Some(message) = reason {
        cx.report(&SECRET_ENV_READ, name.span, message.into());
    }
}

/// `npm run env`, `npm run-script env`, `yarn run env`: the package managers'
/// built-in `env` script lists the environment (a project's own `env` script
/// replaces it). Read here, not as a catalogue subcommand: the script name is an
/// operand any word can fill, and `npm run $SCRIPT` names no subcommand.
fn lists_script_environment(cmd: &SimpleCommand, cx: &Checker) -> bool {
    // The program's name first (the invocation's, as it names it): reading the
    // words costs more, and this rule asks it of every command.
    let program = cx.entry(cmd).map_or(cx.base_name(cmd), |e| Some(e.name));
    if !matches!(program, Some("npm" | "yarn")) {
        return false;
    }
    cx.invocation(cmd).is_some_and(|inv| {
        matches!(inv.subcommands.as_slice(), ["run" | "run-script"])
            && inv.operands().next().and_then(Word::value) == Some("env")
    })
}

/// A pager or editor value that only shows or edits what it is given: empty, or a
/// program the catalogue calls a plain pager (`plain-pager`: cat, less, vim,
/// nano, code...) named without a folder and followed only by flags that take no
/// value (`less -FRX`, `code --wait`). `less -o FILE`, `vim -c CMD` and
/// `./less` are not.
fn plain_pager(value: &str) -> bool {
    let mut words = value.split_whitespace();
    let Some(first) = words.next() else {
        return true;
    };
    if first.contains(['/', '\\']) {
        return false;
    }
    let Some(entry) = crate::catalogue::lookup(first).filter(|e| e.has(Fact::PlainPager)) else {
        return false;
    };
    words.all(|w| {
        if w.len() < 2 || !w.starts_with('-') || w.contains('=') {
            return false;
        }
        if w.starts_with("--") || !entry.clustering {
            return entry.option(w).is_none();
        }
        w.chars()
            .skip(1)
            .all(|c| c.is_ascii_alphanumeric() && !entry.short_takes_value(c))
    })
}
