//! The program catalogue: what the gate knows about each program, in one place.
//!
//! The data lives in `catalogue/*.toml` (one file per family, one entry per
//! program) and is compiled into the static tables of this module at build time.
//! An entry says how the program parses its options, which role each option value
//! and each operand has (a command that runs, shell text, a path read or written, a
//! pattern that is never a path, ...), its subcommands (each an entry of its own)
//! and its facts (gains privileges, talks to the network, formats a file system).
//! Rules read roles and facts from here; they keep only the mechanism of judging
//! a role.
//!
//! Names are looked up case-insensitively, after the folder is dropped and a
//! Windows `.exe` is stripped: on a case-insensitive file system `SUDO` runs `sudo`.
//!
//! ```
//! use bashgate::catalogue::{self, Fact, Role};
//! let tar = catalogue::lookup("TAR.exe").unwrap();
//! assert_eq!(tar.name, "tar");
//! assert_eq!(tar.option_role("--to-command"), Some(Role::Shell));
//! assert!(catalogue::lookup("sudo").unwrap().has(Fact::Privilege));
//! ```

mod args;
mod explain;
pub(crate) mod name_hash;
mod name_index;
pub(crate) mod schema;
mod spelling;
mod usage;
mod user;

pub use args::{Arg, Values, classify, is_assignment};
pub use explain::describe;
pub use spelling::may_spell;
pub use usage::{
    RUN_TIME_PART, Usage, changes_what_it_does, dynamic_subcommand, flags_change_what_it_does,
    usage,
};
use user::intern;
pub use user::{Catalogue, Scope};

/// What a word (an operand or an option's value) is to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The words from here on are an argv that runs (`sudo CMD...`).
    Command,
    /// One word of shell text that runs (`su -c TEXT`, `tar --to-command TEXT`).
    Shell,
    /// The words from here on, joined with spaces, run as shell text (`watch a b`).
    ShellWords,
    /// Code in another language (`python -c CODE`): the language is named.
    Code(&'static str),
    /// Options a program passes on to another one, named as a catalogue entry and
    /// its subcommands (`gcc -Wl,-plugin,X` gives `ld` options, `go build
    /// -ldflags=` gives `go tool link` options, `cargo rustc -- ARGS` gives
    /// `rustc` options): the words, from every value of the command with the same
    /// reader, are read with that entry's option table ([`options_reader`]).
    /// Spelled `options:NAME` (`options:go tool link`). Never a path itself.
    OptionsOf(&'static str),
    /// A path the program reads.
    PathRead,
    /// A path the program writes or creates.
    PathWrite,
    /// A path the program deletes.
    PathDelete,
    /// A path the program executes.
    PathExec,
    /// A folder the program changes into or works in.
    Directory,
    /// A path whose metadata only is looked at (`test -f`, `stat`): not a read.
    Metadata,
    /// A pattern or expression: never a path (`grep PATTERN`).
    Pattern,
    /// Literal text: never a path (messages, formats, names).
    Text,
    /// A URL or a host.
    Url,
    /// `NAME=value`, an environment assignment.
    Env,
    /// A `key=value` setting; keys with roles of their own are in `config_keys`.
    Config,
    /// A signal name or number.
    Signal,
    /// A process id, group or name target.
    Process,
    /// The name of a subcommand.
    Subcommand,
    /// The target of a symbolic link made (`ln -s TARGET NAME`): a relative one is
    /// relative to the link's folder, not to the working folder, so only an
    /// absolute, home or variable target names a path from here.
    LinkTarget,
    /// A module the interpreter runs as a program (`python -m pip install`): the
    /// words after it are that program's. Never a path.
    Module,
    /// Shell text when it starts with `!`, else text (git's
    /// `submodule.NAME.update`: a mode, or `!CMD`).
    ShellIfBang,
    /// A folder whose programs run (git's `core.hooksPath`, `--exec-path`).
    ExecDirectory,
    /// A bind mount `SRC:DEST[:OPTIONS]` (`docker run -v`): what runs behind it
    /// can write the host path `SRC`; a name without a path is a named volume.
    Mount,
    /// An argument of something the catalogue does not describe (a script's own
    /// arguments: `python x.py ARGS`): nobody knows its role, so it stays a
    /// possible path, read.
    Argument,
    /// A package to install, as the package manager spells it: a name from its
    /// registry (`lodash`, `requests==2.0`), or code from elsewhere — a URL, a
    /// VCS address (`git+https://...`), a hosted shorthand (`user/repo`,
    /// `github:user/repo`), or a local folder or archive (`../x`, `file:../x`),
    /// which is judged as a path read.
    Package,
    /// Data sent as it is, or a file's content when it starts with `@` (or has
    /// `=@`/`=<` after a name): curl's `-d @FILE`, `-F name=@FILE`, `-H @FILE`.
    Data,
    /// A program (or plug-in) the tool runs, named by a value that may carry its
    /// first arguments (`CC='gcc -m32'`, `RUSTC_WRAPPER=sccache`, `gcc -wrapper
    /// gdb,--args`, `gawk -l EXT`): a bare name is looked up on a search path, so
    /// it is judged as a program, not as a file here.
    Program,
    /// Options of the entry that names the value (`CFLAGS` for gcc, `RUSTFLAGS`
    /// for rustc): its words are read with that entry's option table.
    Options,
    /// The shell a tool runs its text with (make's `SHELL`): a shell the
    /// catalogue knows, by name or in a system folder, with flags only.
    ShellProgram,
    /// Another machine's daemon, cluster or listening address the program is
    /// pointed at (`docker -H`, `DOCKER_HOST`, `kubectl --server`,
    /// `--kubeconfig`, `--context`, `php -S ADDR`): what it runs or serves is
    /// reached from, or acts on, another machine. Never a path.
    Remote,
    /// A setting whose value is read from the environment: `KEY=VARIABLE`
    /// (`git --config-env=core.pager=VAR`): the key is judged as in `config`,
    /// with a value only known at run time.
    ConfigEnv,
    /// A switch of the TLS or signature check of what the program fetches
    /// (`http.sslVerify`, npm's `strict-ssl`, `GIT_SSL_NO_VERIFY`,
    /// `NODE_TLS_REJECT_UNAUTHORIZED`): turned off, whoever sits on the way can
    /// change what is fetched, installed and run. Never a path.
    Verification,
    /// A file written, or, when the value starts with `|` or `!`, shell text the
    /// output is piped to (`strace -o '|CMD'`). The reading of the words
    /// ([`classify`]) gives such a value as [`Role::Shell`] (after the mark), any
    /// other as [`Role::PathWrite`].
    PathWriteOrPipe,
    /// A revision, a file as it was at one (`REV:PATH`) or in the index (`:PATH`,
    /// `:N:PATH`), or a pathspec where the tool takes either (git's `show`, `log`,
    /// `diff`, `cat-file`): the path part names a file whose content is shown,
    /// judged as a path read, as is a static word with no colon (a path to git
    /// when it names no revision); a word only known at run time with no colon
    /// in its text is a revision.
    Revision,
    /// A `key=value,...` spec whose `src=` or `source=` field names a file read
    /// (`docker build --secret id=npm,src=.npmrc`); a spec only known at run time
    /// is judged whole.
    Source,
    /// An alias's expansion: shell text when it starts with `!`, else the
    /// program's own arguments, which can set what runs (`git -c
    /// alias.st='-c core.fsmonitor=CMD status'`; git's and hg's `alias.*`, `gh
    /// alias set`). Read as `PROGRAM EXPANSION`.
    Alias,
    /// A git credential helper: shell text after a `!`; an absolute path, a
    /// program run with the words after it; any other value `NAME ARGS` runs
    /// `git credential-NAME ARGS` through the shell (`store --file=F` writes
    /// every password to F; `store; CMD` runs CMD). Empty resets the list.
    CredentialHelper,
}

impl Role {
    /// Every role but [`Role::Code`] (which carries a language).
    pub const PLAIN: [Role; 36] = [
        Role::Command,
        Role::Shell,
        Role::ShellWords,
        Role::PathRead,
        Role::PathWrite,
        Role::PathDelete,
        Role::PathExec,
        Role::Directory,
        Role::Metadata,
        Role::Pattern,
        Role::Text,
        Role::Url,
        Role::Env,
        Role::Config,
        Role::Signal,
        Role::Process,
        Role::Subcommand,
        Role::LinkTarget,
        Role::Module,
        Role::ShellIfBang,
        Role::ExecDirectory,
        Role::Mount,
        Role::Argument,
        Role::Package,
        Role::Data,
        Role::Program,
        Role::Options,
        Role::ShellProgram,
        Role::Remote,
        Role::ConfigEnv,
        Role::Verification,
        Role::PathWriteOrPipe,
        Role::Revision,
        Role::Source,
        Role::Alias,
        Role::CredentialHelper,
    ];

    /// The role spelled as in the catalogue files (`path-read`, `code:python`);
    /// `None` for a name that is no role. A code role's language is kept for the
    /// life of the program (a user's entries are loaded once).
    pub fn parse(text: &str) -> Option<Role> {
        if let Some(lang) = text.strip_prefix("code:") {
            return schema::valid_role(text).then(|| Role::Code(intern(lang)));
        }
        if let Some(reader) = text.strip_prefix("options:") {
            return schema::valid_role(text).then(|| Role::OptionsOf(intern(reader)));
        }
        Role::PLAIN.into_iter().find(|r| r.as_str() == text)
    }

    /// The role as spelled in the catalogue files.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Command => "command",
            Role::Shell => "shell",
            Role::ShellWords => "shell-words",
            Role::Code(_) => "code",
            Role::OptionsOf(_) => "options",
            Role::PathRead => "path-read",
            Role::PathWrite => "path-write",
            Role::PathDelete => "path-delete",
            Role::PathExec => "path-exec",
            Role::Directory => "directory",
            Role::Metadata => "metadata",
            Role::Pattern => "pattern",
            Role::Text => "text",
            Role::Url => "url",
            Role::Env => "env",
            Role::Config => "config",
            Role::Signal => "signal",
            Role::Process => "process",
            Role::Subcommand => "subcommand",
            Role::LinkTarget => "link-target",
            Role::Module => "module",
            Role::ShellIfBang => "shell-if-bang",
            Role::ExecDirectory => "exec-directory",
            Role::Mount => "mount",
            Role::Argument => "argument",
            Role::Package => "package",
            Role::Data => "data",
            Role::Program => "program",
            Role::Options => "options",
            Role::ShellProgram => "shell-program",
            Role::Remote => "remote",
            Role::ConfigEnv => "config-env",
            Role::Verification => "verification",
            Role::PathWriteOrPipe => "path-write-or-pipe",
            Role::Revision => "revision",
            Role::Source => "source",
            Role::Alias => "alias",
            Role::CredentialHelper => "credential-helper",
        }
    }

    /// True for roles whose word is never a path (text, patterns, URLs...).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Role::Text
                | Role::Pattern
                | Role::Url
                | Role::Signal
                | Role::Process
                | Role::Config
                | Role::Env
                | Role::Subcommand
                | Role::Code(_)
                | Role::Shell
                | Role::ShellWords
                | Role::Module
                | Role::ShellIfBang
                | Role::Alias
                | Role::CredentialHelper
                | Role::Package
                | Role::Data
                | Role::Program
                | Role::Options
                | Role::OptionsOf(_)
                | Role::ShellProgram
                | Role::Remote
                | Role::ConfigEnv
                | Role::Verification
        )
    }

    /// The role's bit in [`Entry::role_mask`]: its position in the catalogue's list
    /// of roles (the build script's `ROLES`), every code role sharing the bit after
    /// the last, every `options:NAME` role the one after that.
    pub fn bit(self) -> u64 {
        let index = match self {
            Role::Command => 0,
            Role::Shell => 1,
            Role::ShellWords => 2,
            Role::PathRead => 3,
            Role::PathWrite => 4,
            Role::PathDelete => 5,
            Role::PathExec => 6,
            Role::Directory => 7,
            Role::Metadata => 8,
            Role::Pattern => 9,
            Role::Text => 10,
            Role::Url => 11,
            Role::Env => 12,
            Role::Config => 13,
            Role::Signal => 14,
            Role::Process => 15,
            Role::Subcommand => 16,
            Role::LinkTarget => 17,
            Role::Module => 18,
            Role::ShellIfBang => 19,
            Role::ExecDirectory => 20,
            Role::Mount => 21,
            Role::Argument => 22,
            Role::Package => 23,
            Role::Data => 24,
            Role::Program => 25,
            Role::Options => 26,
            Role::ShellProgram => 27,
            Role::Remote => 28,
            Role::ConfigEnv => 29,
            Role::Verification => 30,
            Role::PathWriteOrPipe => 31,
            Role::Revision => 32,
            Role::Source => 33,
            Role::Alias => 34,
            Role::CredentialHelper => 35,
            Role::Code(_) => 36,
            Role::OptionsOf(_) => 37,
        };
        1 << index
    }

    /// True for the roles that write: write, delete.
    pub fn writes(self) -> bool {
        matches!(
            self,
            Role::PathWrite | Role::PathDelete | Role::PathWriteOrPipe
        )
    }

    /// True for the roles whose value, when any, may make the program run any
    /// code: those that run something ([`Role::runs`]) and another program's
    /// options (`--node-options`, `-J` for the JVM).
    pub fn names_what_runs(self) -> bool {
        matches!(self, Role::Options | Role::OptionsOf(_)) || self.runs()
    }

    /// True for the roles that write a path ([`Role::writes`]) or mount one,
    /// which lets what runs there write it (`docker run -v SRC:DEST`).
    pub fn writes_or_mounts(self) -> bool {
        self.writes() || self == Role::Mount
    }

    /// True for the roles that run something: an argv, shell text or code.
    pub fn runs(self) -> bool {
        matches!(
            self,
            Role::Command
                | Role::Shell
                | Role::ShellWords
                | Role::Code(_)
                | Role::PathExec
                | Role::ShellIfBang
                | Role::Alias
                | Role::CredentialHelper
                | Role::ExecDirectory
                | Role::Program
                | Role::ShellProgram
                | Role::PathWriteOrPipe
        )
    }
}

/// A fact about a program or a subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// Runs its command with elevated privileges (`sudo`, `doas`).
    Privilege,
    /// Talks to the network.
    Network,
    /// Copies a remote repository into a folder of the project without being a
    /// network command of its own (`git submodule add URL DIR`): what it fetched
    /// runs unseen when the command then runs it, as after `git clone`.
    Clones,
    /// Downloads code and runs it (`npx`, `pipx run`).
    FetchesRemoteCode,
    /// Runs the project's own binary when the project has it (`npx eslint` with
    /// `node_modules/.bin/eslint`), and fetches it otherwise.
    UsesProjectBin,
    /// Installs outside the project (`npm install -g`).
    InstallsGlobally,
    /// Runs what the project contains (`make`, `npm test`, `cargo build`).
    RunsProjectCode,
    /// On the executable denylist: never started by an agent.
    Denylisted,
    /// A shell: `-c TEXT` and its stdin are scripts.
    Shell,
    /// Runs another program given in its arguments (`env`, `nice`, `timeout`).
    Wrapper,
    /// Its operands are text, never paths (`echo`, `printf`).
    TextOnly,
    /// Formats a file system.
    FormatsFilesystem,
    /// Stops or reboots the machine.
    StopsMachine,
    /// Starts, stops or changes system services.
    ServiceControl,
    /// Changes the firewall.
    Firewall,
    /// Kills processes by name.
    KillsByName,
    /// Changes kernel settings.
    KernelSettings,
    /// Installs jobs that run later.
    SchedulesJobs,
    /// Prints credentials or secrets.
    PrintsCredentials,
    /// Mounts or unmounts file systems.
    Mounts,
    /// Changes file ownership.
    ChangesOwnership,
    /// Changes file modes.
    ChangesMode,
    /// A debugger: attaches to or runs programs under control.
    Debugger,
    /// Destroys data beyond recovery.
    DestroysData,
    /// Deletes the files it names (`rm`), or those it matches or leaves out when a
    /// flag says so (`find -delete`, `git clean -f`, `rsync --delete`).
    DeletesFiles,
    /// This use only queries (`systemctl status`, `crontab -l`): the program's facts
    /// about changing the system do not apply.
    ReadOnly,
    /// Moves the shell's working folder to its `directory` operand (`cd`, `pushd`):
    /// `-` is the previous folder, no operand is home.
    ChangesDirectory,
    /// Sends a signal to its `process` operands (`kill`): `-1` is every process
    /// the user owns; a first word with a dash may be the signal (`-9`).
    SignalsProcesses,
    /// As `PAGER`, `EDITOR` or `VISUAL` it only shows or edits what it is given
    /// (`cat`, `less`, `vim`): naming it, with flags that take no value, is
    /// harmless.
    PlainPager,
    /// Its path operands may name another machine (`rsync host:path`): such a
    /// use talks to the network.
    RemoteOperands,
    /// Installs into the environment of the interpreter it belongs to (`pip
    /// install`): outside the project unless the program is the project's own,
    /// named by a path (`.venv/bin/pip`).
    InstallsIntoInterpreter,
    /// Prints the environment (`printenv`; `env` with nothing to run), secrets
    /// included.
    PrintsEnvironment,
    /// Stores code or a setting that runs later, outside the gate (`direnv allow`
    /// approves `.envrc`).
    Persists,
    /// Sends the files or history it names to another machine (`gh gist create
    /// FILE`, `git push`, `curl -T FILE`; `scp`/`rsync` when the destination is
    /// another host).
    SendsFiles,
    /// Writes settings given as `KEY VALUE` or `KEY=VALUE` operands (`git config
    /// KEY VALUE`, `npm config set KEY VALUE`, `npm pkg set KEY=VALUE`): each key
    /// is judged with the entry's `config_keys` and `key_facts`.
    WritesSettings,
    /// Points the package manager at another source of packages (`npm install
    /// --registry URL`, `pip install --index-url URL`, `npm config set registry
    /// URL`): what it installs, and the code that runs with it, comes from there.
    ChangesPackageSource,
    /// The settings it reads or writes are outside the project, the user's or the
    /// machine's (`git config --global`, `--system`): they act on every later run.
    OutsideSettings,
    /// The link targets it makes are read from the working folder, not from the
    /// link's folder (`ln -sr`).
    RelativeLinkTargets,
    /// Its last operand is the name it makes even when that is a folder, never a
    /// folder to put things into (`ln -T`, `ln -n`).
    NoTargetDirectory,
    /// Names a remote (its first operand) and the location it points to (its
    /// `url` operand): `git remote add NAME URL`, `set-url`. A later push to that
    /// name sends there.
    PointsRemote,
    /// Reads commands from stdin whatever its operands (`ed FILE`, `ex -s FILE`,
    /// `sqlite3 DB`): fed by a pipe, a redirect or a heredoc, that text runs, and
    /// its commands run shell text (`!cmd`) and write any file.
    StdinCommands,
    /// An operand spelled as a remote package is downloaded and run: `NAME@VERSION`
    /// (`go run pkg@v1.2.3`), a URL (`deno run https://...`), a registry scheme
    /// (`npm:`, `jsr:`, `github:`) or a flake reference (`nix run nixpkgs#hello`);
    /// a local path runs the project's.
    RemoteSpec,
    /// An operand `@FILE` is read as more arguments (`gcc @args`, `javac @opts`):
    /// the arguments that run are not on the command line.
    ResponseFiles,
    /// This use changes the settings the program's other facts describe, where
    /// the program alone only reads them: `sysctl -w`, `sysctl -p` (loads a file
    /// of settings), `sysctl --system`.
    ChangesSettings,
    /// Acts on whole trees below the folders it names (`chmod -R`, `chown -R`).
    Recursive,
    /// Copies what it reads on stdin into its `path-write` operands (`tee FILE`):
    /// the text piped or fed to it is what those files hold.
    CopiesInput,
    /// Adds to the files it writes instead of replacing them (`tee -a`).
    Appends,
    /// Prints its operands without the newline it otherwise ends with (`echo -n`).
    NoNewline,
    /// A flag that switches off the TLS or signature check of what the program
    /// fetches (`npm install --no-strict-ssl`, `helm --insecure-skip-tls-verify`,
    /// `uv --allow-insecure-host`).
    SkipsVerification,
    /// Serves on every network interface unless a `remote` value binds it to
    /// this machine (`python -m http.server`, busybox `httpd`): what it serves,
    /// the working folder or the project's app, is reachable from other machines.
    Listens,
    /// Starts its command and returns before that command ends (`screen -dm`,
    /// `setsid -f`, `tmux new -d`, `sudo -b`): the command runs beside the rest of
    /// the command line, like a job started with `&`, and finds the links and
    /// files made after it started.
    Detaches,
    /// Writes the files its input names (`tar -x`, `unzip`, `patch`, `git
    /// apply`): which files, only the archive or the patch knows, so a runner
    /// later in the command may run one of them (BG218).
    WritesInputNames,
    /// A word in the subcommand's place runs as a program, with the words after
    /// it as its arguments. On an entry: any word that names none of its
    /// subcommands (`pnpm eslint .`, `pnpm sh -c …`: a script of that name, or
    /// else a program on `PATH`). On a subcommand: its own word (`microk8s kubectl
    /// get pods` runs `kubectl`).
    ProgramSubcommands,
}

impl Fact {
    /// Every fact, in the order of the catalogue's list.
    pub const ALL: &'static [Fact] = &[
        Fact::Privilege,
        Fact::Network,
        Fact::FetchesRemoteCode,
        Fact::UsesProjectBin,
        Fact::InstallsGlobally,
        Fact::RunsProjectCode,
        Fact::Denylisted,
        Fact::Shell,
        Fact::Wrapper,
        Fact::TextOnly,
        Fact::FormatsFilesystem,
        Fact::StopsMachine,
        Fact::ServiceControl,
        Fact::Firewall,
        Fact::KillsByName,
        Fact::KernelSettings,
        Fact::SchedulesJobs,
        Fact::PrintsCredentials,
        Fact::Mounts,
        Fact::ChangesOwnership,
        Fact::ChangesMode,
        Fact::Debugger,
        Fact::DestroysData,
        Fact::DeletesFiles,
        Fact::ReadOnly,
        Fact::ChangesDirectory,
        Fact::SignalsProcesses,
        Fact::PlainPager,
        Fact::RemoteOperands,
        Fact::InstallsIntoInterpreter,
        Fact::PrintsEnvironment,
        Fact::Persists,
        Fact::SendsFiles,
        Fact::WritesSettings,
        Fact::ChangesPackageSource,
        Fact::OutsideSettings,
        Fact::RelativeLinkTargets,
        Fact::NoTargetDirectory,
        Fact::PointsRemote,
        Fact::StdinCommands,
        Fact::RemoteSpec,
        Fact::ResponseFiles,
        Fact::ChangesSettings,
        Fact::Recursive,
        Fact::CopiesInput,
        Fact::Appends,
        Fact::NoNewline,
        Fact::SkipsVerification,
        Fact::Listens,
        Fact::Detaches,
        Fact::WritesInputNames,
        Fact::ProgramSubcommands,
        Fact::Clones,
    ];

    /// The fact's bit in [`Entry::flag_fact_mask`]: its position in [`Fact::ALL`].
    pub fn bit(self) -> u64 {
        let index = Fact::ALL.iter().position(|f| *f == self).unwrap_or(63);
        1 << index
    }

    /// The fact spelled as in the catalogue files; `None` for a name that is no fact.
    pub fn parse(text: &str) -> Option<Fact> {
        Fact::ALL.iter().copied().find(|f| f.as_str() == text)
    }

    /// The fact as spelled in the catalogue files.
    pub fn as_str(self) -> &'static str {
        match self {
            Fact::Privilege => "privilege",
            Fact::Network => "network",
            Fact::FetchesRemoteCode => "fetches-remote-code",
            Fact::Clones => "clones",
            Fact::UsesProjectBin => "uses-project-bin",
            Fact::InstallsGlobally => "installs-globally",
            Fact::RunsProjectCode => "runs-project-code",
            Fact::Denylisted => "denylisted",
            Fact::Shell => "shell",
            Fact::Wrapper => "wrapper",
            Fact::TextOnly => "text-only",
            Fact::FormatsFilesystem => "formats-filesystem",
            Fact::StopsMachine => "stops-machine",
            Fact::ServiceControl => "service-control",
            Fact::Firewall => "firewall",
            Fact::KillsByName => "kills-by-name",
            Fact::KernelSettings => "kernel-settings",
            Fact::SchedulesJobs => "schedules-jobs",
            Fact::PrintsCredentials => "prints-credentials",
            Fact::Mounts => "mounts",
            Fact::ChangesOwnership => "changes-ownership",
            Fact::ChangesMode => "changes-mode",
            Fact::Debugger => "debugger",
            Fact::DestroysData => "destroys-data",
            Fact::DeletesFiles => "deletes-files",
            Fact::ReadOnly => "read-only",
            Fact::ChangesDirectory => "changes-directory",
            Fact::SignalsProcesses => "signals-processes",
            Fact::PlainPager => "plain-pager",
            Fact::RemoteOperands => "remote-operands",
            Fact::InstallsIntoInterpreter => "installs-into-interpreter",
            Fact::PrintsEnvironment => "prints-environment",
            Fact::Persists => "persists",
            Fact::SendsFiles => "sends-files",
            Fact::WritesSettings => "writes-settings",
            Fact::ChangesPackageSource => "changes-package-source",
            Fact::OutsideSettings => "outside-settings",
            Fact::RelativeLinkTargets => "relative-link-targets",
            Fact::NoTargetDirectory => "no-target-directory",
            Fact::PointsRemote => "points-remote",
            Fact::StdinCommands => "stdin-commands",
            Fact::RemoteSpec => "remote-spec",
            Fact::ResponseFiles => "response-files",
            Fact::ChangesSettings => "changes-settings",
            Fact::Recursive => "recursive",
            Fact::CopiesInput => "copies-input",
            Fact::Appends => "appends",
            Fact::NoNewline => "no-newline",
            Fact::SkipsVerification => "skips-verification",
            Fact::Listens => "listens",
            Fact::Detaches => "detaches",
            Fact::WritesInputNames => "writes-input-names",
            Fact::ProgramSubcommands => "program-subcommands",
        }
    }
}

/// An option that takes a value, with the value's role.
#[derive(Debug)]
pub struct OptionSpec {
    /// Its spellings (`-o`, `--output`).
    pub names: &'static [&'static str],
    /// What its value is.
    pub role: Role,
    /// The roles of the words after the value, for an option that takes several
    /// (`bwrap --bind SRC DEST`); empty for one value.
    pub more: &'static [Role],
}

/// A flag that changes what the operands are (`watch -x` runs an argv, not shell
/// text; `sudo -l` runs nothing).
#[derive(Debug)]
pub struct ModeSpec {
    /// Its spellings.
    pub flags: &'static [&'static str],
    /// The operand roles while it is given (empty: the operands run nothing).
    pub operands: &'static [Role],
}

/// Facts a flag adds when it is given (`find -delete`: deletes files).
#[derive(Debug)]
pub struct FlagFacts {
    /// Its spellings.
    pub flags: &'static [&'static str],
    /// The facts it adds.
    pub facts: &'static [Fact],
}

/// Options whose value changes role while a mode flag is given (`tar -c` writes
/// its `-f` archive, `tar -x` writes into its `-C` folder).
#[derive(Debug)]
pub struct ModeOptions {
    /// The mode flag's spellings.
    pub flags: &'static [&'static str],
    /// The options and their roles in this mode.
    pub options: &'static [OptionSpec],
}

/// A flag after which the words up to a terminator are a command that runs (`find
/// -exec CMD... ;`).
#[derive(Debug)]
pub struct EmbeddedCommand {
    /// The flag's spellings.
    pub flags: &'static [&'static str],
    /// The words that end the command (`;`, `+`).
    pub ends: &'static [&'static str],
}

/// What the catalogue knows about one program (or one subcommand).
#[derive(Debug)]
pub struct Entry {
    /// The canonical name.
    pub name: &'static str,
    /// The family (the catalogue file it comes from).
    pub family: &'static str,
    /// One line: what the program does.
    pub summary: &'static str,
    /// Other names of the same program.
    pub aliases: &'static [&'static str],
    /// Its facts.
    pub facts: &'static [Fact],
    /// Options that take a value, with the value's role.
    pub options: &'static [OptionSpec],
    /// Flags worth naming (they take no value).
    pub flags: &'static [&'static str],
    /// Roles of the operands by position; the last one repeats. `Command` and
    /// `ShellWords` take every word from there on.
    pub operands: &'static [Role],
    /// The role of the last operand when there are two or more (`cp SRC... DEST`).
    pub last: Option<Role>,
    /// Flags that change the operands' roles.
    pub modes: &'static [ModeSpec],
    /// Accepts `NAME=value` words before its operands (`env`, `sudo`).
    pub assignments: bool,
    /// Short options cluster (`-xvf`).
    pub clustering: bool,
    /// Options may follow operands (GNU getopt); false: the first operand ends them.
    pub options_after_operands: bool,
    /// Its options count after a subcommand's name too, where the subcommand has
    /// no option of that name (`npm install --prefix DIR`, `kubectl get pods
    /// --kubeconfig F`): global options, read anywhere on the line.
    pub global_options: bool,
    /// The language of the code it runs, for interpreters.
    pub interpreter: Option<&'static str>,
    /// Project files it runs (`make` runs `Makefile`).
    pub runs_files: &'static [&'static str],
    /// Settings keys whose value has a role (`core.pager` runs shell text).
    pub config_keys: &'static [(&'static str, Role)],
    /// Environment variables it reads whose value has a role (`CC` for make: a
    /// program it runs).
    pub env_keys: &'static [(&'static str, Role)],
    /// Flags that add facts when given (`crontab -r`, `find -delete`).
    pub flag_facts: &'static [FlagFacts],
    /// Every fact a flag of the entry or of its subcommands can add, one bit per
    /// fact ([`Fact::bit`]), computed when the entry is built.
    pub flag_fact_mask: u64,
    /// Its subcommands, each an entry of its own.
    pub subcommands: &'static [Entry],
    /// Every role the entry and its subcommands use, one bit per role
    /// ([`Role::bit`]), computed at build time.
    pub role_mask: u64,
    /// The roles of the words of a command (options, operands, modes), in the entry
    /// and its subcommands: [`Entry::role_mask`] without the settings keys.
    pub word_role_mask: u64,
    /// Every fact the entry or one of its subcommands has (their `facts`), one bit
    /// per fact ([`Fact::bit`]), computed when the entry is built.
    pub fact_mask: u64,
    /// The spellings of the options of the entry, its mode options and its
    /// subcommands whose value names a path written or mounted
    /// ([`Role::writes_or_mounts`]), sorted, computed when the entry is built: the
    /// cheap test before reading a command for the files it writes.
    pub write_options: &'static [&'static str],
    /// Flags that make it edit its file operands in place (`sed -i`, `perl -pi`):
    /// its operands read are written. A short one counts inside a cluster and
    /// takes the rest of it as a backup suffix (`-i.bak`, `--in-place=.bak`).
    pub in_place: &'static [&'static str],
    /// Options whose role a mode flag changes (`tar -x` writes into `-C DIR`).
    pub mode_options: &'static [ModeOptions],
    /// The first word, when it has no dash, is a cluster of flags (`tar xzf A`).
    pub old_style_flags: bool,
    /// Flags after which the words up to a terminator run (`find -exec ... ;`).
    pub embedded_commands: &'static [EmbeddedCommand],
    /// Operations of this entry that act remotely or cannot be undone.
    pub effects: &'static [EffectSpec],
    /// True when the entry or one of its subcommands lists an effect, computed
    /// when the entry is built: the cheap check before reading a command's words
    /// for one (`git` has them, under `push`; `ls` has none).
    pub effects_below: bool,
    /// Facts a settings key adds when the use sets it (`registry`: changes where
    /// packages come from); `flags` holds the key patterns, matched as
    /// [`Entry::config_key_role`] matches.
    pub key_facts: &'static [FlagFacts],
    /// Settings files, by name, that hold this entry's keys (`.npmrc`): a write of
    /// one is judged key by key as the entry's settings command would be.
    pub config_files: &'static [&'static str],
}

/// The spellings of the options of `entry`, its mode options and its
/// subcommands whose value names a path written or mounted, sorted, once each:
/// what [`Entry::write_options`] holds (the build script writes it for the
/// built-in entries, a user's entries are given it when read).
pub(crate) fn write_options_of(entry: &Entry) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = entry
        .options
        .iter()
        .chain(entry.mode_options.iter().flat_map(|m| m.options))
        .filter(|o| o.role.writes_or_mounts() || o.more.iter().any(|r| r.writes_or_mounts()))
        .flat_map(|o| o.names.iter().copied())
        .chain(
            entry
                .subcommands
                .iter()
                .flat_map(|s| s.write_options.iter().copied()),
        )
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// An operation that acts remotely or cannot be undone (`git reset --hard`,
/// `terraform destroy`), with the condition on the command's words. Every
/// condition given must hold; the remote-effect rule (BG210) reads them.
#[derive(Debug)]
pub struct EffectSpec {
    /// Positional words after the entry's name: `a|b` alternatives, `*` any one
    /// word, `prefix-*` a prefix. Empty: the entry's name alone.
    pub words: &'static [&'static str],
    /// Any one of these flags is given (empty: no flag needed).
    pub flags: &'static [&'static str],
    /// And any one of these as well.
    pub also: &'static [&'static str],
    /// None of these is given.
    pub unless: &'static [&'static str],
    /// At least one operand follows the words.
    pub operands: bool,
    /// A condition that is code, by name (`sql-destroys`).
    pub test: Option<&'static str>,
    /// A word only known at run time may be one of `flags`: the effect applies.
    pub dynamic_asks: bool,
    /// What happens.
    pub what: &'static str,
    /// A safer alternative.
    pub suggestion: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

impl Entry {
    /// True when the entry has the fact.
    pub fn has(&self, fact: Fact) -> bool {
        self.facts.contains(&fact)
    }

    /// True when the entry or one of its subcommands has the fact (`git` for
    /// `points-remote`: `git remote add`): one mask test instead of a walk.
    pub fn tree_has(&self, fact: Fact) -> bool {
        self.fact_mask & fact.bit() != 0
    }

    /// True when a flag of the entry or of one of its subcommands can add the fact
    /// (`git` for `deletes-files`: `git clean -f`): one mask test, the cheap check
    /// before reading a command's words with [`usage`].
    pub fn flag_may_add(&self, fact: Fact) -> bool {
        self.flag_fact_mask & fact.bit() != 0
    }

    /// True when some use of the program can have the fact: the entry, a
    /// subcommand or a flag gives it ([`Entry::tree_has`] or
    /// [`Entry::flag_may_add`]), the facts a [`usage`] collects. False: no
    /// reading of the words can find it, so they need not be read.
    pub fn use_may_have(&self, fact: Fact) -> bool {
        (self.fact_mask | self.flag_fact_mask) & fact.bit() != 0
    }

    /// The role of an option's value, when the option takes one. `-o` and
    /// `--output` are looked up as spelled (an `=value` part is ignored).
    pub fn option_role(&self, option: &str) -> Option<Role> {
        self.option(option).map(|o| o.role)
    }

    /// The option spelled `option` (an `=value` part is ignored), when it takes a
    /// value.
    pub fn option(&self, option: &str) -> Option<&'static OptionSpec> {
        // A byte scan, not a string search: this runs for every option word.
        let option = match option.bytes().position(|b| b == b'=') {
            Some(at) => &option[..at],
            None => option,
        };
        self.options
            .iter()
            .find(|o| o.names.contains(&option))
            .or_else(|| self.abbreviated(option))
    }

    /// The option the static start `prefix` of a word spells with its value
    /// attached, and where that value starts (the value itself may be only known
    /// at run time, so missing): before a `=` (`--out=`, `-ldflags=`), after a
    /// spelling the catalogue writes with its mark (`-javaagent:`, `-Wl,`,
    /// `--inspect=`: [`Entry::colon_option`]), or after a one-letter option that
    /// takes a value (`-DKEY=`, `-J`, `-j`; after flags that cluster, `-xI`).
    pub fn attached_option(&self, prefix: &str) -> Option<(&'static OptionSpec, usize)> {
        if prefix.len() < 2 || !prefix.starts_with('-') {
            return None;
        }
        if let Some(at) = prefix.find('=')
            && let Some(option) = self.option(&prefix[..at])
        {
            return Some((option, at + 1));
        }
        // The value may be all dynamic: a stand-in makes the spelling complete.
        if let Some(found) = self.colon_option(&format!("{prefix}x")) {
            return Some(found);
        }
        if prefix.starts_with("--") {
            return None;
        }
        if !self.clustering {
            return self.option(prefix.get(..2)?).map(|option| (option, 2));
        }
        // Flags, then the letter that takes the rest as its value.
        for (at, letter) in prefix.char_indices().skip(1) {
            if let Some(option) = self.short_option(letter) {
                return Some((option, at + letter.len_utf8()));
            }
            if !letter.is_ascii_alphanumeric() {
                return None;
            }
        }
        None
    }

    /// The option whose spelling ends in `:`, `,` or `=` that `word` starts with,
    /// and that spelling's length: `-javaagent:JAR` carries its value after the
    /// colon, `-Wl,A,B` a comma list after the comma, and `--inspect=ADDR` a value
    /// only when attached (`--inspect` alone is a flag). Only spellings the
    /// catalogue writes with the mark are read so (`ffmpeg -c:v` is not `-c`).
    pub fn colon_option(&self, word: &str) -> Option<(&'static OptionSpec, usize)> {
        const MARKS: [char; 3] = [':', ',', '='];
        if !word.starts_with('-') || !word.contains(MARKS) {
            return None;
        }
        self.options.iter().find_map(|spec| {
            spec.names
                .iter()
                .find(|n| n.ends_with(MARKS) && word.len() > n.len() && word.starts_with(**n))
                .map(|n| (spec, n.len()))
        })
    }

    /// The option a long-option prefix stands for: GNU `getopt_long`, git and npm
    /// accept any unambiguous prefix (`tar --to-comm=CMD` is `--to-command`). The
    /// catalogue lists only some of a program's options, so a prefix of a listed
    /// one is read as that one — a program that finds it ambiguous, or takes no
    /// abbreviations, stops with an error and runs nothing — and when several listed
    /// options share the prefix, one whose value runs something wins. A word that is
    /// a listed flag is that flag.
    fn abbreviated(&self, option: &str) -> Option<&'static OptionSpec> {
        if !option.starts_with("--") || option.len() < 3 || self.flags.contains(&option) {
            return None;
        }
        let mut found = None;
        for spec in self.options {
            if spec
                .names
                .iter()
                .any(|n| n.starts_with("--") && n.starts_with(option))
            {
                if spec.role.runs() {
                    return Some(spec);
                }
                found.get_or_insert(spec);
            }
        }
        found
    }

    /// True when the option word `word` (no `=value`) is read as a listed option
    /// only as a prefix of its name ([`Entry::option`]: `--test` of node's
    /// `--test-reporter`): the program may as well have an option of that exact
    /// name the catalogue does not list, which takes no value. Readers judge the
    /// next word both ways.
    pub fn only_abbreviates(&self, word: &str) -> bool {
        word.starts_with("--")
            && !word.contains('=')
            && self.option(word).is_some_and(|o| !o.names.contains(&word))
    }

    /// True when the option word `word` takes the next word as its value, by the
    /// option table: `-C DIR`, `--file FILE`; in a short cluster the value-taking
    /// letter must come last (`-xvf FILE`); `--opt=value` carries its own.
    pub fn takes_next_word(&self, word: &str) -> bool {
        if word.contains('=') {
            return false;
        }
        if word.starts_with("--") || !self.clustering {
            return self.option(word).is_some();
        }
        let mut letters = word.chars().skip(1).peekable();
        while let Some(c) = letters.next() {
            if self.short_takes_value(c) {
                return letters.peek().is_none();
            }
        }
        false
    }

    /// True when a short option letter takes a value (`-n 5`, `-n5`).
    pub fn short_takes_value(&self, letter: char) -> bool {
        self.short_option_role(letter).is_some()
    }

    /// The role of the value of the short option `-letter`, without building the
    /// option's name.
    pub fn short_option_role(&self, letter: char) -> Option<Role> {
        self.short_option(letter).map(|o| o.role)
    }

    /// The short option `-letter`, when it takes a value.
    pub fn short_option(&self, letter: char) -> Option<&'static OptionSpec> {
        // A short option name is two ASCII bytes: compare bytes, not characters.
        let letter = u8::try_from(letter).ok().filter(u8::is_ascii)?;
        self.options
            .iter()
            .find(|o| o.names.iter().any(|n| n.as_bytes() == [b'-', letter]))
    }

    /// The subcommand named `name` (or one of its aliases), case-sensitively as the
    /// programs themselves do.
    pub fn subcommand(&self, name: &str) -> Option<&'static Entry> {
        self.subcommands
            .iter()
            .find(|s| s.name == name || s.aliases.contains(&name))
    }

    /// The subcommand the program runs when its first operand, `args[at]`, names
    /// none: the word after it, when the word before it is an option this entry
    /// does not know to take a value and the word after it names a subcommand.
    /// The program reads such an option's value there (`pip --timeout 5
    /// install`, `kubectl --v 9 delete`, `npm --loglevel silly publish`); the
    /// catalogue does not list every option, so the subcommand the program would
    /// run is the one read (more facts, never fewer: were the option a flag, the
    /// program would stop at an unknown subcommand). `args` are this level's
    /// words.
    ///
    /// ```
    /// let pip = bashgate::catalogue::lookup("pip").unwrap();
    /// let args = [Some("--timeout"), Some("5"), Some("install"), Some("x")];
    /// let (at, sub) = pip.subcommand_after_unknown_value(&args, 1).unwrap();
    /// assert_eq!((at, sub.name), (2, "install"));
    /// let args = [Some("--verbose"), Some("x.txt")];
    /// assert!(pip.subcommand_after_unknown_value(&args, 1).is_none());
    /// ```
    pub fn subcommand_after_unknown_value(
        &self,
        args: &[Option<&str>],
        at: usize,
    ) -> Option<(usize, &'static Entry)> {
        // Cheapest first: most entries have no subcommands, and reading an
        // option walks the entry's table.
        if self.subcommands.is_empty() {
            return None;
        }
        let option = args.get(at.checked_sub(1)?).copied().flatten()?;
        let sub = self.subcommand(args.get(at + 1).copied().flatten()?)?;
        self.may_take_unknown_value(option).then_some((at + 1, sub))
    }

    /// True when `word` is an option this entry does not know to take a value
    /// (nor to take none: the catalogue lists the options that matter), so the
    /// program may read the next word as its value.
    pub fn may_take_unknown_value(&self, word: &str) -> bool {
        word.len() > 1
            && word.starts_with('-')
            && word != "--"
            && !word.contains('=')
            && !self.takes_next_word(word)
    }

    /// The role of operand number `position` (from 0) of `count` operands.
    pub fn operand_role(&self, position: usize, count: usize) -> Option<Role> {
        if count > 1
            && position + 1 == count
            && let Some(last) = self.last
        {
            return Some(last);
        }
        self.operands
            .get(position)
            .or(self.operands.last())
            .copied()
    }

    /// True when the entry or one of its subcommands uses one of `roles` anywhere
    /// (an option, an operand, a mode, a settings key): one mask test, the cheap
    /// check before reading a command's arguments. Every code role counts as one.
    pub fn mentions(&self, roles: &[Role]) -> bool {
        roles.iter().any(|r| self.role_mask & r.bit() != 0)
    }

    /// True when an option, operand or mode of the entry or of one of its
    /// subcommands has `role` (settings keys aside): one mask test.
    pub fn words_mention(&self, role: Role) -> bool {
        self.word_role_mask & role.bit() != 0
    }

    /// True when any option, operand or mode of the entry or of its subcommands has
    /// a role that `matches` accepts (a walk over the entry; see [`Entry::mentions`]).
    pub fn any_role(&self, matches: &dyn Fn(Role) -> bool) -> bool {
        self.options
            .iter()
            .any(|o| matches(o.role) || o.more.iter().any(|r| matches(*r)))
            || self.operands.iter().any(|r| matches(*r))
            || self.last.is_some_and(matches)
            || self
                .modes
                .iter()
                .any(|m| m.operands.iter().any(|r| matches(*r)))
            || self.config_keys.iter().any(|(_, r)| matches(*r))
            || self.env_keys.iter().any(|(_, r)| matches(*r))
            || (!self.in_place.is_empty() && matches(Role::PathWrite))
            || self.mode_options.iter().any(|m| {
                m.options
                    .iter()
                    .any(|o| matches(o.role) || o.more.iter().any(|r| matches(*r)))
            })
            || self.subcommands.iter().any(|s| s.any_role(matches))
    }

    /// The role of an environment variable the program reads (`CC` for make),
    /// its name matched exactly.
    pub fn env_key_role(&self, name: &str) -> Option<Role> {
        // A byte scan for the `*`: asked for every assignment of a command, over
        // every key of the entry (`make` has dozens).
        self.env_keys
            .iter()
            .find(|(key, _)| {
                *key == name
                    || key.bytes().position(|b| b == b'*').is_some_and(|star| {
                        // `CARGO_TARGET_*_LINKER`: any text in place of the `*`.
                        let (head, tail) = (&key[..star], &key[star + 1..]);
                        name.len() > head.len() + tail.len()
                            && name.starts_with(head)
                            && name.ends_with(tail)
                    })
            })
            .map(|(_, role)| *role)
    }

    /// The role of a settings key (`core.pager`), matching `*` in the catalogue's
    /// keys against one dotted segment (`filter.*.clean`).
    pub fn config_key_role(&self, key: &str) -> Option<Role> {
        // Most entries and subcommands have no keys: asked for each of a tree's.
        if self.config_keys.is_empty() {
            return None;
        }
        let key = settings_key(key);
        let head = first_segment(&key);
        self.config_keys
            .iter()
            .find(|(pattern, _)| may_match(pattern, head) && key_matches(pattern, &key))
            .map(|(_, role)| *role)
            .or_else(|| key_names_a_command(&key).then_some(Role::Shell))
    }

    /// The facts setting `key` adds (`key_facts`), matched as in
    /// [`Entry::config_key_role`].
    pub fn key_facts_of(&self, key: &str) -> impl Iterator<Item = Fact> + '_ {
        let key = settings_key(key).into_owned();
        let head = first_segment(&key).len();
        self.key_facts
            .iter()
            .filter(move |k| {
                k.flags
                    .iter()
                    .any(|p| may_match(p, &key[..head]) && key_matches(p, &key))
            })
            .flat_map(|k| k.facts.iter().copied())
    }
}

/// `key` as the catalogue writes settings keys: in lower case, and apt's `::`
/// between segments written as dots, a last `::` (apt's append to a list:
/// `-o APT::Update::Pre-Invoke::=CMD`) dropped. Copied only when it changes.
fn settings_key(key: &str) -> std::borrow::Cow<'_, str> {
    let key: std::borrow::Cow<'_, str> = if key.bytes().any(|b| b.is_ascii_uppercase()) {
        key.to_ascii_lowercase().into()
    } else {
        key.into()
    };
    // A byte test first: asked for every key of every entry with keys.
    if key.as_bytes().contains(&b':') && key.contains("::") {
        key.trim_end_matches(':').replace("::", ".").into()
    } else {
        key
    }
}

/// The text of `key` before its first dot (all of it when it has none).
/// True when a settings key the entry does not list says by its last segment
/// that its value is a command (`gpg.ssh.defaultKeyCommand`, `foo.bar-cmd`,
/// `x.post-hook`, `tool.helper`): programs name such settings the same way
/// everywhere, so one nobody listed is read as shell text. `key` is in lower case.
fn key_names_a_command(key: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "command", "cmd", "program", "hook", "editor", "pager", "askpass", "helper", "wrapper",
    ];
    let last = key.rsplit(['.', ':']).next().unwrap_or(key);
    last == "exec" || SUFFIXES.iter().any(|s| last.ends_with(s))
}

fn first_segment(key: &str) -> &str {
    key.split_once('.').map_or(key, |(head, _)| head)
}

/// Whether `pattern` can match a key whose first segment is `head`: it starts with
/// a `*` or with that segment whole. A byte comparison that rules out almost every
/// pattern of a long list (git's) before [`key_matches`] reads the segments.
fn may_match(pattern: &str, head: &str) -> bool {
    let (bytes, head) = (pattern.as_bytes(), head.as_bytes());
    match bytes.first() {
        Some(b'*') => true,
        // The first byte before the comparison: most patterns differ there. A
        // first segment may be empty (make's `.SHELLFLAGS`).
        first => {
            (head.is_empty() || first == head.first())
                && bytes.starts_with(head)
                && matches!(bytes.get(head.len()), None | Some(b'.'))
        }
    }
}

/// `filter.*.clean` matches `filter.lfs.clean`; `alias.*` matches `alias.co`; a
/// `*` stands for one or more segments, as git's subsection is everything between
/// the first and the last dot (`filter.a.b.clean`, `url.https://x.example/.insteadof`);
/// a segment `*:registry` matches any segment ending in `:registry`
/// (`@scope:registry`); a last `**` matches the rest, dots and all
/// (`mirror.**` matches `mirror.https://rubygems.org`); a `**` before other
/// segments matches one or more segments, the others matching the key's last
/// ones (`http.**.sslverify` matches `http.https://example.com.sslverify`).
fn key_matches(pattern: &str, key: &str) -> bool {
    // Segment by segment on the text itself: no allocation (every settings word
    // of every command is matched against its entry's keys).
    if key.is_empty() {
        return false;
    }
    let (head, rest) = match pattern.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (pattern, None),
    };
    // Most patterns differ from the key in their first, literal segment: rule that
    // out before looking for the key's dots.
    if !head.starts_with('*') && !key.starts_with(head) {
        return false;
    }
    let (key_head, key_rest) = match key.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (key, None),
    };
    match (head, rest) {
        // A last `*` or `**`: one segment or more, the rest.
        ("*" | "**", None) => true,
        // `*` and a `**` before other segments: one segment or more.
        ("*" | "**", Some(rest)) => {
            let mut tail = key_rest;
            while let Some(t) = tail {
                if key_matches(rest, t) {
                    return true;
                }
                tail = t.split_once('.').map(|(_, r)| r);
            }
            false
        }
        (literal, rest) => {
            let same = literal == key_head
                || literal
                    .strip_prefix('*')
                    .is_some_and(|end| !end.is_empty() && key_head.ends_with(end));
            same && match (rest, key_rest) {
                (None, None) => true,
                (Some(rest), Some(key_rest)) => key_matches(rest, key_rest),
                _ => false,
            }
        }
    }
}

/// A setting's key and value as programs read `KEY=VALUE`, and ssh's `KEY VALUE`
/// and `KEY = VALUE`: the key ends at the first `=` or blank. `None` for a word
/// with neither (a bare key).
///
/// ## Example
/// `ProxyCommand sh -c 'a=b'` → (`ProxyCommand`, `sh -c 'a=b'`).
pub fn setting(text: &str) -> Option<(&str, &str)> {
    let end = text.find(|c: char| c == '=' || c.is_whitespace())?;
    let (key, rest) = text.split_at(end);
    let rest = rest.trim_start();
    let value = rest.strip_prefix('=').map_or(rest, str::trim_start);
    (!key.is_empty()).then_some((key, value))
}

/// The catalogue key of a program name: its basename with a Windows `.exe` (in any
/// case) stripped. Case is left to the lookup.
pub fn program_basename(name: &str) -> &str {
    // The text after the last `/` or `\\` (both ASCII, so the cut is a character
    // boundary); a byte scan, as this runs for every lookup.
    let base = match name.bytes().rposition(|b| b == b'/' || b == b'\\') {
        Some(at) => name.get(at + 1..).unwrap_or(name),
        None => name,
    };
    match base.len().checked_sub(4) {
        Some(cut)
            if base
                .get(cut..)
                .is_some_and(|s| s.eq_ignore_ascii_case(".exe")) =>
        {
            base.get(..cut).unwrap_or(base)
        }
        _ => base,
    }
}

/// The entry for a program name, looked up by basename, case-insensitively, with
/// `.exe` stripped: `/usr/bin/tar`, `TAR`, `tar.exe` and `gtar` all find `tar`;
/// a version pin is dropped (`pnpm@9` finds `pnpm`).
/// While a gate judges a command, the user's `[programs.NAME]` entries of its
/// policy come first (see [`Catalogue`]).
pub fn lookup(name: &str) -> Option<&'static Entry> {
    let table = user::active_table();
    match memo::recall(name, table) {
        Some(found) => found,
        None => lookup_and_keep(name, table),
    }
}

/// [`lookup`] of a name the memo does not hold: the index probe, kept in the memo.
/// Out of line, so the memo's answer (nearly every call) costs no more than its
/// compare.
#[cold]
#[inline(never)]
fn lookup_and_keep(name: &str, table: usize) -> Option<&'static Entry> {
    let key = program_basename(name);
    let found = user::active_lookup(key)
        .or_else(|| builtin_lookup(key))
        .or_else(|| versioned(key))
        .or_else(|| cross_named(key))
        .or_else(|| pinned(key));
    memo::keep(name, table, found);
    found
}

/// The program a name pinned to a version names, as package runners take it
/// (`corepack pnpm@9 publish`, `npx eslint@8 .`, `uvx ruff@0.5 check`): the
/// name before the `@`. A scoped package (`@scope/x`) is not one.
fn pinned(name: &str) -> Option<&'static Entry> {
    let at = name.bytes().position(|b| b == b'@').filter(|&at| at > 0)?;
    lookup(&name[..at])
}

/// The interpreter or shell a name with a version, an ABI flag or a build suffix
/// names, as distributions install them: `python3.13t`, `python3.12-dbg`,
/// `pypy3.10`, `bash5`, `zsh-5.9`, `perl5.38.2`, `node20`, `php8.3`. Only an
/// entry that runs code of its own (an interpreter or a shell) is answered, so a
/// name that merely ends in digits (`base64`) keeps its own reading.
fn versioned(name: &str) -> Option<&'static Entry> {
    let runs_code = |e: &&'static Entry| e.interpreter.is_some() || e.has(Fact::Shell);
    // Names are matched without regard to case (`PYTHON3.13T`).
    let lower = name.to_ascii_lowercase();
    let name = lower.as_str();
    let base = name
        .strip_suffix("-dbg")
        .or_else(|| name.strip_suffix("-debug"))
        .unwrap_or(name);
    if base.len() < name.len()
        && let Some(found) = lookup(base).filter(runs_code)
    {
        return Some(found);
    }
    // `3.13t`: a version, then ABI flags (`t` free-threaded, `d` debug, `m`, `u`).
    let flagless = base.trim_end_matches(['t', 'd', 'm', 'u']);
    let versioned = if flagless.ends_with(|c: char| c.is_ascii_digit()) {
        flagless
    } else {
        base
    };
    let stem = versioned.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let stem = stem.strip_suffix(['-', '_']).unwrap_or(stem);
    if stem.is_empty() || stem.len() == versioned.len() {
        return None;
    }
    let key = program_basename(stem);
    let found = user::active_lookup(key).or_else(|| builtin_lookup(key))?;
    // Another program installed under a version (`gcc-12`, `clang-14`,
    // `pip3.11`, `lldb-18`): only with a `-` or a dotted version, so a name that
    // merely ends in a digit is not taken for another program, and never one
    // whose arguments are only text (less strict than an unknown program).
    let spelled_as_version =
        versioned[stem.len()..].starts_with(['-', '_']) || versioned[stem.len()..].contains('.');
    (runs_code(&found) || (spelled_as_version && !found.has(Fact::TextOnly))).then_some(found)
}

/// A cross tool named with its target's triplet, as toolchains install them
/// (`x86_64-linux-gnu-gcc`, `aarch64-linux-gnu-gcc-12`, `arm-none-eabi-gdb`):
/// the program after the triplet. Only a name that starts with a machine
/// architecture is read so.
fn cross_named(name: &str) -> Option<&'static Entry> {
    const ARCHES: &[&str] = &[
        "x86_64",
        "i386",
        "i486",
        "i586",
        "i686",
        "aarch64",
        "arm",
        "armv7",
        "armhf",
        "riscv32",
        "riscv64",
        "mips",
        "mipsel",
        "mips64",
        "mips64el",
        "powerpc",
        "powerpc64",
        "powerpc64le",
        "ppc64le",
        "s390x",
        "loongarch64",
        "sparc64",
        "amd64",
        "arm64",
    ];
    let (arch, _) = name.split_once('-')?;
    if !ARCHES.contains(&arch.to_ascii_lowercase().as_str()) {
        return None;
    }
    // The shortest tail that names a program (`gcc-12` before `gnu-gcc-12`).
    name.rmatch_indices('-')
        .map(|(at, _)| &name[at + 1..])
        .filter(|t| !t.is_empty())
        .find_map(lookup)
}

/// The names [`lookup`] answered lately on this thread: the checks of one command
/// ask for the same program (and its wrapper) many times over, and a compare of a
/// short name costs less than the basename cut and a probe of the index. A name
/// has one slot, picked by its length and its first and last bytes, so a pipeline
/// of many programs keeps most of them and a look-up compares one slot.
mod memo {
    use super::Entry;
    use std::cell::Cell;

    /// Slots (a power of two).
    const SLOTS: usize = 32;

    /// Longest name kept; longer ones are looked up every time.
    const LONGEST: usize = 30;

    #[derive(Clone, Copy)]
    struct Slot {
        /// Bytes of `name` in use; 0 for an empty slot.
        len: u8,
        name: [u8; LONGEST],
        /// The user catalogue active when it was looked up ([`super::user::active_table`]).
        table: usize,
        found: Option<&'static Entry>,
    }

    const EMPTY: Slot = Slot {
        len: 0,
        name: [0; LONGEST],
        table: 0,
        found: None,
    };

    thread_local! {
        static MEMO: [Cell<Slot>; SLOTS] = const { [const { Cell::new(EMPTY) }; SLOTS] };
    }

    /// The slot of a name (not empty).
    #[inline]
    fn slot_of(bytes: &[u8]) -> usize {
        let first = usize::from(bytes.first().copied().unwrap_or(0));
        let last = usize::from(bytes.last().copied().unwrap_or(0));
        (first ^ (last << 1) ^ (bytes.len() << 3)) & (SLOTS - 1)
    }

    /// What `name` found under `table`, when it is one of the names asked lately.
    #[inline]
    pub(super) fn recall(name: &str, table: usize) -> Option<Option<&'static Entry>> {
        let bytes = name.as_bytes();
        if bytes.is_empty() || bytes.len() > LONGEST {
            return None;
        }
        MEMO.with(|slots| {
            let s = slots.get(slot_of(bytes))?.get();
            (usize::from(s.len) == bytes.len()
                && s.table == table
                && s.name.get(..bytes.len()) == Some(bytes))
            .then_some(s.found)
        })
    }

    /// Keeps what `name` found under `table`, in place of what its slot held.
    pub(super) fn keep(name: &str, table: usize, found: Option<&'static Entry>) {
        let bytes = name.as_bytes();
        let Ok(len) = u8::try_from(bytes.len()) else {
            return;
        };
        if bytes.is_empty() || bytes.len() > LONGEST {
            return;
        }
        let mut slot = Slot {
            len,
            table,
            found,
            ..EMPTY
        };
        if let Some(head) = slot.name.get_mut(..bytes.len()) {
            head.copy_from_slice(bytes);
        }
        MEMO.with(|slots| {
            if let Some(cell) = slots.get(slot_of(bytes)) {
                cell.set(slot);
            }
        });
    }
}

/// The built-in entry for a basename (any case).
fn builtin_lookup(key: &str) -> Option<&'static Entry> {
    // Most names are lowercase already: one probe of the hash index. A name with
    // capitals takes the case-folding binary search.
    let id = if key.bytes().any(|b| b.is_ascii_uppercase()) {
        let found = INDEX.binary_search_by(|(probe, _)| compare_lowercase(probe, key));
        found.ok().and_then(|i| INDEX.get(i)).map(|(_, id)| *id)
    } else {
        name_index::find(key)
    };
    id.or_else(|| prefix_id(key))
        .and_then(|id| ENTRIES.get(usize::from(id)))
}

/// The entry a name reaches by one of the catalogue's name prefixes (`mkfs.` for
/// `mkfs.ext4` and any other `mkfs.TYPE`), tried only when the name is not known.
fn prefix_id(key: &str) -> Option<u16> {
    PREFIXES
        .iter()
        .find(|(prefix, _)| {
            key.len() > prefix.len()
                && key
                    .get(..prefix.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
        })
        .map(|(_, id)| *id)
}

/// The canonical name of a program, when the catalogue knows it.
pub fn canonical(name: &str) -> Option<&'static str> {
    lookup(name).map(|e| e.name)
}

/// The canonical name of a program when the catalogue knows it (`SUDO`, `gtar`,
/// `rm.exe` → `sudo`, `tar`, `rm`), else the name unchanged.
pub fn canonical_or(name: &str) -> &str {
    canonical(name).unwrap_or(name)
}

/// True when the program has the fact.
pub fn has_fact(name: &str, fact: Fact) -> bool {
    lookup(name).is_some_and(|e| e.has(fact))
}

/// Every entry.
pub fn entries() -> &'static [Entry] {
    ENTRIES
}

/// Every entry and subcommand that reads environment variables (non-empty
/// `env_keys`), in the order a depth-first walk of [`entries`] meets them (an
/// entry before its subcommands). A rule that asks which program reads a variable
/// scans these few instead of the whole catalogue for every assignment.
pub fn env_readers() -> &'static [&'static Entry] {
    static READERS: std::sync::LazyLock<Vec<&'static Entry>> = std::sync::LazyLock::new(|| {
        fn collect(entries: &'static [Entry], into: &mut Vec<&'static Entry>) {
            for e in entries {
                if !e.env_keys.is_empty() {
                    into.push(e);
                }
                collect(e.subcommands, into);
            }
        }
        let mut readers = Vec::new();
        collect(ENTRIES, &mut readers);
        readers
    });
    &READERS
}

/// The entry an [`Role::OptionsOf`] role names: a program's entry, then its
/// subcommands, one space apart (`go tool link`); `None` when the catalogue has
/// no such entry (a test holds every built-in role to one that exists).
pub fn options_reader(reader: &str) -> Option<&'static Entry> {
    let mut names = reader.split(' ');
    let mut entry = lookup(names.next()?)?;
    for name in names {
        entry = entry.subcommand(name)?;
    }
    Some(entry)
}

/// The entries and subcommands that read the environment variable `name`, with
/// the role its value has for each (`CC` → make's and cmake's `program`), in the
/// order of [`env_readers`]. An index by name, built once: every assignment of
/// every command asks it several times.
pub fn env_key_readers(name: &str) -> impl Iterator<Item = (&'static Entry, Role)> + '_ {
    /// An entry with `*` keys, and each such key's text before and after the `*`.
    type Patterned = (&'static Entry, Vec<(&'static str, &'static str)>);
    type Index = (
        std::collections::HashMap<&'static str, Vec<(&'static Entry, Role)>>,
        Vec<Patterned>,
    );
    static INDEX: std::sync::LazyLock<Index> = std::sync::LazyLock::new(|| {
        let mut exact: std::collections::HashMap<&'static str, Vec<(&'static Entry, Role)>> =
            std::collections::HashMap::new();
        let mut patterned: Vec<Patterned> = Vec::new();
        for entry in env_readers() {
            for (key, role) in entry.env_keys {
                if let Some((head, tail)) = key.split_once('*') {
                    match patterned.iter_mut().find(|(e, _)| std::ptr::eq(*e, *entry)) {
                        Some((_, ends)) => ends.push((head, tail)),
                        None => patterned.push((*entry, vec![(head, tail)])),
                    }
                } else {
                    exact.entry(*key).or_default().push((*entry, *role));
                }
            }
        }
        (exact, patterned)
    });
    let (exact, patterned) = &*INDEX;
    // An entry with `*` keys reads `name` through one only when a key's two ends
    // fit it (most names fit none: a compare of a few bytes each); its exact keys
    // are in `exact`, met first.
    exact.get(name).into_iter().flatten().copied().chain(
        patterned
            .iter()
            .filter(move |(_, ends)| {
                ends.iter().any(|(head, tail)| {
                    name.len() > head.len() + tail.len()
                        && name.starts_with(head)
                        && name.ends_with(tail)
                })
            })
            .filter_map(move |(e, _)| e.env_key_role(name).map(|role| (*e, role))),
    )
}

/// Compares a lowercase index key with a name of any case, byte by byte.
fn compare_lowercase(lower: &str, name: &str) -> std::cmp::Ordering {
    let a = lower.bytes();
    let b = name.bytes().map(|c| c.to_ascii_lowercase());
    a.cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_lookup_follows_the_active_catalogue() {
        // The same name asked again, before, inside and after a user catalogue
        // that gives it another entry: each answer is the active catalogue's.
        let builtin = lookup("tar").map(|e| e.summary);
        assert_eq!(lookup("tar").map(|e| e.summary), builtin);
        let spec = schema::Spec {
            summary: Some("the user's tar".to_string()),
            ..schema::Spec::default()
        };
        let mine = Catalogue::default()
            .with_entry("tar", &spec, "test")
            .expect("a valid entry");
        {
            let _scope = mine.enter();
            assert_eq!(lookup("tar").map(|e| e.summary), Some("the user's tar"));
            assert_eq!(
                lookup("/bin/tar").map(|e| e.summary),
                Some("the user's tar")
            );
        }
        assert_eq!(lookup("tar").map(|e| e.summary), builtin);
        assert_ne!(builtin, Some("the user's tar"));
    }

    #[test]
    fn lookup_ignores_case_folder_and_exe() {
        for name in ["tar", "TAR", "/usr/bin/tar", "Tar.EXE", "C:\\bin\\tar.exe"] {
            assert_eq!(lookup(name).map(|e| e.name), Some("tar"), "{name}");
        }
        assert!(lookup("no-such-program-here").is_none());
        assert!(lookup("").is_none());
        assert!(lookup(".exe").is_none());
    }

    #[test]
    fn aliases_find_their_entry() {
        assert_eq!(canonical("gtar"), Some("tar"));
        assert_eq!(canonical("python3"), Some("python"));
    }

    #[test]
    fn index_is_sorted_and_lowercase() {
        for pair in INDEX.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} / {}", pair[0].0, pair[1].0);
        }
        for (name, id) in INDEX {
            assert_eq!(*name, name.to_ascii_lowercase());
            assert!(usize::from(*id) < ENTRIES.len());
        }
    }

    #[test]
    fn roles_by_position_and_last() {
        let cp = lookup("cp").unwrap();
        assert_eq!(cp.operand_role(0, 2), Some(Role::PathRead));
        assert_eq!(cp.operand_role(1, 2), Some(Role::PathWrite));
        assert_eq!(cp.operand_role(0, 1), Some(Role::PathRead));
        let grep = lookup("grep").unwrap();
        assert_eq!(grep.operand_role(0, 3), Some(Role::Pattern));
        assert_eq!(grep.operand_role(2, 3), Some(Role::PathRead));
    }

    #[test]
    fn env_keys_and_one_letter_values() {
        let make = lookup("make").unwrap();
        assert_eq!(make.env_key_role("CC"), Some(Role::Program));
        assert_eq!(make.env_key_role("cc"), None);
        let cargo = lookup("cargo").unwrap();
        assert_eq!(
            cargo.env_key_role("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"),
            Some(Role::Program)
        );
        assert_eq!(cargo.env_key_role("CARGO_TARGET__RUNNER_X"), None);
        // `mvn -Dexec.executable=sh`: a one-letter option with its value attached
        // in a program whose options do not cluster.
        let mvn = lookup("mvn").unwrap();
        let args = classify(mvn, &[Some("-Dexec.executable=sh"), Some("exec:exec")]);
        assert!(
            args.iter()
                .any(|a| a.role == Role::Config && a.offset == 2 && a.option_value)
        );
        assert_eq!(Role::parse("program"), Some(Role::Program));
        assert_eq!(Role::parse("options"), Some(Role::Options));
    }

    #[test]
    fn subcommands_and_config_keys() {
        let git = lookup("git").unwrap();
        let clone = git.subcommand("clone").unwrap();
        assert_eq!(clone.option_role("--upload-pack"), Some(Role::Shell));
        assert_eq!(git.config_key_role("core.sshCommand"), Some(Role::Shell));
        assert_eq!(git.config_key_role("filter.lfs.clean"), Some(Role::Shell));
        assert_eq!(git.config_key_role("user.name"), None);
        assert_eq!(git.config_key_role("alias.lg"), Some(Role::Alias));
        assert_eq!(
            git.config_key_role("credential.https://x.example.helper"),
            Some(Role::CredentialHelper)
        );
        // Keys nobody listed, named as holding a command, and one that is not.
        assert_eq!(
            git.config_key_role("gpg.ssh.defaultKeyCommand"),
            Some(Role::Shell)
        );
        assert_eq!(git.config_key_role("x.y.post-hook"), Some(Role::Shell));
        assert_eq!(git.config_key_role("x.exec"), Some(Role::Shell));
        assert_eq!(git.config_key_role("core.fsmonitorHookVersion"), None);
        assert_eq!(git.config_key_role("x.executable-bit"), None);
    }

    #[test]
    fn an_attached_value_starts_after_the_option_it_spells() {
        let at = |program: &str, prefix: &str| {
            lookup(program)
                .and_then(|e| e.attached_option(prefix))
                .map(|(option, at)| (option.role, at))
        };
        let go_build = lookup("go").and_then(|g| g.subcommand("build")).unwrap();
        assert_eq!(
            go_build
                .attached_option("-toolexec=")
                .map(|(o, at)| (o.role, at)),
            Some((Role::Program, 10))
        );
        assert_eq!(at("gcc", "-Wl,"), Some((Role::OptionsOf("ld"), 4)));
        assert_eq!(at("javac", "-J"), Some((Role::OptionsOf("java"), 2)));
        // After flags that cluster: `tar -xI CMD`.
        assert_eq!(at("tar", "-xI").map(|(_, at)| at), Some(3));
        assert_eq!(at("gcc", "main.c"), None);
        assert_eq!(at("tar", "--files-from"), None);
    }

    #[test]
    fn the_build_time_fact_list_is_in_the_order_of_the_facts() {
        // The build script gives each fact the bit of its place in the schema's
        // list; `Fact::bit` the place in `Fact::ALL`: one order for both.
        let spelled: Vec<&str> = schema::FACTS.iter().map(|(name, _)| *name).collect();
        let named: Vec<&str> = Fact::ALL.iter().map(|f| f.as_str()).collect();
        assert_eq!(spelled, named);
    }

    #[test]
    fn the_build_time_role_mask_matches_the_entries() {
        let all = Role::PLAIN.into_iter().chain([Role::Code("x")]);
        for entry in entries() {
            for role in all.clone() {
                let walked = entry.any_role(&|r| r.bit() == role.bit());
                assert_eq!(entry.mentions(&[role]), walked, "{} {role:?}", entry.name);
            }
        }
    }

    #[test]
    fn the_build_time_word_role_and_fact_masks_match_the_entries() {
        fn words(entry: &Entry, role: Role) -> bool {
            let option = |o: &OptionSpec| {
                o.role.bit() == role.bit() || o.more.iter().any(|r| r.bit() == role.bit())
            };
            entry.options.iter().any(option)
                || entry
                    .operands
                    .iter()
                    .chain(entry.last.iter())
                    .any(|r| r.bit() == role.bit())
                || entry
                    .modes
                    .iter()
                    .flat_map(|m| m.operands)
                    .any(|r| r.bit() == role.bit())
                || (!entry.in_place.is_empty() && role == Role::PathWrite)
                || entry
                    .mode_options
                    .iter()
                    .flat_map(|m| m.options)
                    .any(option)
                || entry.subcommands.iter().any(|s| words(s, role))
        }
        fn facts(entry: &Entry, fact: Fact) -> bool {
            entry.has(fact) || entry.subcommands.iter().any(|s| facts(s, fact))
        }
        let all = Role::PLAIN.into_iter().chain([Role::Code("x")]);
        for entry in entries() {
            for role in all.clone() {
                assert_eq!(
                    entry.words_mention(role),
                    words(entry, role),
                    "{} {role:?}",
                    entry.name
                );
            }
            for fact in Fact::ALL {
                assert_eq!(
                    entry.tree_has(*fact),
                    facts(entry, *fact),
                    "{} {fact:?}",
                    entry.name
                );
            }
        }
        let git = lookup("git").unwrap();
        assert!(git.tree_has(Fact::PointsRemote) && !git.has(Fact::PointsRemote));
        assert!(lookup("docker").unwrap().words_mention(Role::Remote));
        // Settings keys (`git -c remote.origin.url=…`) count in the role mask only.
        assert!(
            entries()
                .iter()
                .any(|e| e.mentions(&[Role::Remote]) && !e.words_mention(Role::Remote))
        );
    }

    #[test]
    fn apt_keys_are_read_as_apt_spells_them() {
        let apt = lookup("apt-get").unwrap();
        for key in [
            "Dpkg::Pre-Invoke",
            "Dpkg::Pre-Invoke::",
            "dpkg::pre-invoke::hook",
            "APT::Update::Post-Invoke-Success::",
        ] {
            assert_eq!(apt.config_key_role(key), Some(Role::Shell), "{key}");
        }
        assert_eq!(apt.config_key_role("Dir::Bin::dpkg"), Some(Role::Program));
        assert_eq!(apt.config_key_role("Acquire::Retries"), None);
        assert_eq!(apt.config_key_role("Dpkg::Pre-Invoke-Not"), None);
    }

    #[test]
    fn the_build_time_write_options_match_the_entries() {
        fn check(entry: &'static Entry) {
            assert_eq!(
                entry.write_options,
                write_options_of(entry),
                "{}",
                entry.name
            );
            entry.subcommands.iter().for_each(check);
        }
        entries().iter().for_each(check);
        let git = lookup("git").unwrap();
        assert!(git.write_options.contains(&"--output"));
        assert!(!git.write_options.contains(&"-n"));
        // A mode's options count: `tar -c` writes its `-f` archive.
        assert!(lookup("tar").unwrap().write_options.contains(&"-f"));
    }

    #[test]
    fn the_readers_of_a_variable_are_the_entries_whose_keys_read_it() {
        // Every key as written, each `*` key with text in place of the star and
        // with none, and names no entry reads: the index gives exactly the pairs
        // a scan of every reader with `env_key_role` gives.
        let mut names: Vec<String> = ["FOO", "PATH", "", "CARGO_TARGET__RUNNER"]
            .map(String::from)
            .to_vec();
        for entry in env_readers() {
            for (key, _) in entry.env_keys {
                names.push(key.to_string());
                names.push(key.replace('*', "X_1"));
                names.push(key.replace('*', ""));
            }
        }
        let pair = |(e, r): (&'static Entry, Role)| (std::ptr::from_ref(e), r);
        for name in &names {
            let scanned: Vec<_> = env_readers()
                .iter()
                .filter_map(|e| e.env_key_role(name).map(|r| pair((*e, r))))
                .collect();
            let indexed: Vec<_> = env_key_readers(name).map(pair).collect();
            assert!(
                scanned.iter().all(|p| indexed.contains(p))
                    && indexed.iter().all(|p| scanned.contains(p)),
                "{name}: {scanned:?} against {indexed:?}"
            );
        }
        let cargo_runner = env_key_readers("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER");
        assert!(cargo_runner.map(|(_, r)| r).any(|r| r == Role::Program));
    }

    #[test]
    fn the_build_time_flag_fact_mask_matches_the_entries() {
        fn walk(entry: &Entry, fact: Fact) -> bool {
            entry.flag_facts.iter().any(|f| f.facts.contains(&fact))
                || entry.subcommands.iter().any(|s| walk(s, fact))
        }
        for entry in entries() {
            for fact in Fact::ALL {
                assert_eq!(
                    entry.flag_may_add(*fact),
                    walk(entry, *fact),
                    "{} {fact:?}",
                    entry.name
                );
            }
        }
        assert!(lookup("git").unwrap().flag_may_add(Fact::DeletesFiles));
        assert!(!lookup("ls").unwrap().flag_may_add(Fact::DeletesFiles));
    }

    #[test]
    fn a_use_may_have_the_facts_its_entry_subcommands_and_flags_give() {
        fn gives(entry: &Entry, fact: Fact) -> bool {
            entry.facts.contains(&fact)
                || entry.flag_facts.iter().any(|f| f.facts.contains(&fact))
                || entry.subcommands.iter().any(|s| gives(s, fact))
        }
        for entry in entries() {
            for fact in Fact::ALL {
                assert_eq!(
                    entry.use_may_have(*fact),
                    gives(entry, *fact),
                    "{} {fact:?}",
                    entry.name
                );
            }
        }
        let git = lookup("git").unwrap();
        // A flag's fact (`git clean -f`) and a subcommand's (`git remote add`).
        assert!(git.use_may_have(Fact::DeletesFiles) && git.use_may_have(Fact::PointsRemote));
        assert!(!lookup("ls").unwrap().use_may_have(Fact::DeletesFiles));
    }

    #[test]
    fn an_entry_has_effects_below_when_it_or_a_subcommand_lists_one() {
        fn lists(entry: &Entry) -> bool {
            !entry.effects.is_empty() || entry.subcommands.iter().any(lists)
        }
        fn check(entry: &Entry) {
            assert_eq!(entry.effects_below, lists(entry), "{}", entry.name);
            entry.subcommands.iter().for_each(check);
        }
        entries().iter().for_each(check);
        assert!(lookup("git").unwrap().effects_below);
        // Some programs list effects under their subcommands only.
        assert!(
            entries()
                .iter()
                .any(|e| e.effects.is_empty() && e.effects_below)
        );
        assert!(!lookup("ls").unwrap().effects_below);
    }

    #[test]
    fn settings_split_at_the_first_equals_sign_or_blank() {
        assert_eq!(
            setting("core.pager=less -R"),
            Some(("core.pager", "less -R"))
        );
        assert_eq!(
            setting("ProxyCommand sh -c 'a=b'"),
            Some(("ProxyCommand", "sh -c 'a=b'"))
        );
        assert_eq!(
            setting("ProxyCommand = nc %h %p"),
            Some(("ProxyCommand", "nc %h %p"))
        );
        assert_eq!(setting("key="), Some(("key", "")));
        assert_eq!(setting("bare"), None);
        assert_eq!(setting("=x"), None);
    }

    #[test]
    fn settings_keys_match_by_segment() {
        assert!(key_matches("filter.*.clean", "filter.lfs.clean"));
        assert!(!key_matches("filter.*.clean", "filter.clean"));
        assert!(key_matches("*:registry", "@acme:registry"));
        assert!(!key_matches("*:registry", "registry"));
        assert!(key_matches("mirror.**", "mirror.https://rubygems.org"));
        assert!(key_matches(
            "http.**.sslverify",
            "http.https://a.example.com.sslverify"
        ));
        assert!(key_matches("http.**.sslverify", "http.x.sslverify"));
        assert!(!key_matches("http.**.sslverify", "http.sslverify"));
        assert!(!key_matches("http.**.sslverify", "http.x.proxy"));
        assert!(!key_matches("mirror.**", "mirror"));
        // git's subsection holds dots: everything between the first and last.
        assert!(key_matches("filter.*.clean", "filter.a.b.clean"));
        assert!(key_matches(
            "url.*.insteadof",
            "url.https://evil.example/.insteadof"
        ));
        assert!(key_matches("alias.*", "alias.x.y"));
        assert!(!key_matches("filter.*.clean", "filter.a.b.smudge"));
        assert!(key_matches(
            "http.**.sslverify",
            "http.https://example.com.sslverify"
        ));
        assert!(!key_matches("http.**.sslverify", "http.sslverify"));
        assert!(key_matches("core.pager", "core.pager"));
        assert!(!key_matches("core.pager", "core.pagerx"));
        assert!(!key_matches("core", "core.pager"));
        let config = lookup("npm").unwrap();
        assert!(
            config
                .key_facts_of("@Acme:Registry")
                .any(|f| f == Fact::ChangesPackageSource)
        );
        assert_eq!(config.key_facts_of("save-exact").count(), 0);
    }

    /// Every `options:NAME` role of the built-in catalogue names an entry that
    /// exists (a misspelt reader would read the words with no table at all), and
    /// the roles are there to be checked.
    #[test]
    fn every_options_reader_exists() {
        fn readers(entry: &'static Entry, out: &mut Vec<&'static str>) {
            let mut push = |r: Role| {
                if let Role::OptionsOf(name) = r {
                    out.push(name);
                }
            };
            entry.options.iter().for_each(|o| push(o.role));
            entry.operands.iter().for_each(|r| push(*r));
            entry.config_keys.iter().for_each(|(_, r)| push(*r));
            entry.env_keys.iter().for_each(|(_, r)| push(*r));
            for sub in entry.subcommands {
                readers(sub, out);
            }
        }
        let mut names = Vec::new();
        for entry in entries() {
            readers(entry, &mut names);
        }
        assert!(names.len() >= 5, "{names:?}");
        for name in names {
            assert!(
                options_reader(name).is_some(),
                "`options:{name}` names no entry"
            );
        }
        assert!(options_reader("gcc nothing-such").is_none());
        assert_eq!(
            Role::parse("options:go tool link"),
            Some(Role::OptionsOf("go tool link"))
        );
        assert_eq!(Role::parse("options:"), None);
    }

    /// The byte filter in front of [`key_matches`] never rules out a key the
    /// pattern matches: every pattern of the catalogue, against keys made from
    /// every pattern (each `*` spelled as one and as two segments) and a few more.
    #[test]
    fn the_key_filter_keeps_every_match() {
        let patterns: Vec<&str> = entries()
            .iter()
            .flat_map(|e| {
                e.config_keys
                    .iter()
                    .map(|(p, _)| *p)
                    .chain(e.key_facts.iter().flat_map(|k| k.flags.iter().copied()))
            })
            .collect();
        assert!(patterns.len() > 100, "{} patterns", patterns.len());
        let mut keys: Vec<String> = ["user.name", "x", "@acme:registry", "core"]
            .map(String::from)
            .to_vec();
        for p in &patterns {
            keys.push(p.replace("**", "a.b").replace('*', "s"));
            keys.push(p.replace("**", "q").replace('*', "a.b"));
        }
        let mut matched = 0;
        for p in &patterns {
            for k in &keys {
                if key_matches(p, k) {
                    matched += 1;
                    assert!(may_match(p, first_segment(k)), "{p} rules out {k}");
                }
            }
        }
        assert!(matched >= patterns.len(), "{matched} matches");
        let git = lookup("git").unwrap();
        assert_eq!(git.config_key_role("Core.Pager"), Some(Role::Shell));
        assert_eq!(git.config_key_role("user.name"), None);
    }

    #[test]
    fn short_options_taking_values() {
        let sudo = lookup("sudo").unwrap();
        assert!(sudo.short_takes_value('u'));
        assert!(!sudo.short_takes_value('E'));
    }
}
