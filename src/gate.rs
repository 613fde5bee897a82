//! [`Gate`]: the entry point and the judge loop — limits, then the model (parse and
//! walk), then every rule over every record, then the verdict.

use crate::inspect::Inspection;
use crate::model::{self, SimpleCommand};
use crate::policy::paths::PathJudge;
use crate::policy::{ConfigError, Mode, PermissionRule, Policy, Preset};
use crate::rules::{self, Checker, input};
use crate::verdict::{Decision, Span, Verdict};
use std::path::{Path, PathBuf};

/// The gate. Cheap to share across threads (`Sync`); each thread reuses its own
/// parser.
///
/// ```
/// use bashgate::{Decision, Gate};
/// let gate = Gate::builder().root(".").build()?;
/// assert_eq!(gate.check("ls -la").decision, Decision::Allow);
/// assert_eq!(gate.check("sudo rm -rf /").decision, Decision::Deny);
/// # Ok::<(), bashgate::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Gate {
    policy: Policy,
    paths: PathJudge,
    fast_path: bool,
}

impl Gate {
    /// A gate judging against `policy`.
    pub fn new(policy: Policy) -> Gate {
        Gate::with_fast_path(policy, true)
    }

    fn with_fast_path(policy: Policy, fast_path: bool) -> Gate {
        Gate {
            paths: PathJudge::new(&policy),
            policy,
            fast_path,
        }
    }

    /// A builder, starting from the default policy for the current directory.
    pub fn builder() -> GateBuilder {
        GateBuilder::default()
    }

    /// The policy this gate judges against.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Judges a command run from the project root.
    pub fn check(&self, command: &str) -> Verdict {
        self.check_in(command, None)
    }

    /// Judges a command run from `cwd` (the project root when `None`).
    pub fn check_in(&self, command: &str, cwd: Option<&Path>) -> Verdict {
        let verdict = self.judge(command, cwd, &[], &mut Vec::new());
        self.apply_mode(verdict)
    }

    /// Judges a task of the `taskdev` preset: the command from `cwd` with the
    /// environment keys it sets (BG409 for `PATH`, `LD_PRELOAD`, ...). Without the
    /// preset this is [`Gate::check_in`].
    ///
    /// ```
    /// use bashgate::{Decision, Gate, Preset};
    /// let gate = Gate::builder().root(".").preset(Preset::Taskdev).build()?;
    /// assert_eq!(gate.check_task("cargo test", None, &[]).decision, Decision::Allow);
    /// let verdict = gate.check_task("cargo test", None, &["LD_PRELOAD"]);
    /// assert!(verdict.has_rule("BG409"));
    /// # Ok::<(), bashgate::ConfigError>(())
    /// ```
    pub fn check_task(&self, command: &str, cwd: Option<&Path>, env_keys: &[&str]) -> Verdict {
        let verdict = self.judge(command, cwd, env_keys, &mut Vec::new());
        self.apply_mode(verdict)
    }

    /// Judges a command like [`Gate::check_in`] and also lists every program the gate
    /// saw start, wrappers included: what a test compares against what bash really
    /// ran.
    pub fn inspect(&self, command: &str, cwd: Option<&Path>) -> Inspection {
        let mut commands = Vec::new();
        let verdict = self.judge(command, cwd, &[], &mut commands);
        Inspection::new(self.apply_mode(verdict), &commands)
    }

    /// Judges raw bytes: input that is not UTF-8 asks (BG003) instead of being
    /// guessed at.
    pub fn check_bytes(&self, command: &[u8]) -> Verdict {
        match std::str::from_utf8(command) {
            Ok(text) => self.check(text),
            Err(e) => {
                let at = e.valid_up_to();
                let lossy = String::from_utf8_lossy(command);
                let finding = rules::finding(
                    &input::SUSPICIOUS_CHARACTERS,
                    Span::new(at, at + 1),
                    &lossy,
                    format!("the command is not valid UTF-8 (byte {at})"),
                );
                self.apply_mode(Verdict::from_findings(vec![finding]))
            }
        }
    }

    /// The verdict (mode applied) and the simple commands walked, for judging a
    /// config's example commands.
    pub(crate) fn judge_with_commands(&self, command: &str) -> (Verdict, Vec<SimpleCommand>) {
        let mut commands = Vec::new();
        let verdict = self.judge(command, None, &[], &mut commands);
        (self.apply_mode(verdict), commands)
    }

    /// The verdict before the mode applies; the walked commands are moved into `seen`.
    fn judge(
        &self,
        command: &str,
        cwd: Option<&Path>,
        env_keys: &[&str],
        seen: &mut Vec<SimpleCommand>,
    ) -> Verdict {
        // Every catalogue lookup while judging sees the config's `[programs.NAME]`.
        let _catalogue = self.policy.programs.enter();
        // A preset's text rules read the raw text: they hold even past the input limit.
        let preset_findings = match self.policy.preset {
            Some(Preset::Taskdev) => {
                rules::taskdev::check_task(command, cwd, env_keys, &self.policy.root)
            }
            _ => Vec::new(),
        };
        if command.len() > self.policy.max_input_bytes {
            let mut findings = preset_findings;
            findings.push(input::over_limit(command, self.policy.max_input_bytes));
            return Verdict::from_findings(findings);
        }
        let start = cwd.unwrap_or(&self.policy.root);
        let env = model::Env {
            cwd: start,
            resolver: self.paths.resolver(),
            max_nesting: self.policy.max_nesting,
            fast_path: self.fast_path,
        };
        let model = model::build(command, &env);
        let mut findings = preset_findings;
        findings.extend(input::scan_characters(command));
        findings.extend(
            model
                .problems
                .iter()
                .map(|p| input::problem_finding(p, command)),
        );
        let mut checker = Checker::new(
            &self.policy,
            &self.paths,
            start,
            command,
            findings,
            &model.commands,
        );
        for cmd in &model.commands {
            let before = checker.findings.len();
            for check in rules::CHECKS {
                check(cmd, &mut checker);
            }
            // Permission rules and strict mode see only this command's findings.
            let mut own = checker.findings.split_off(before);
            rules::permission::apply(
                cmd,
                &self.policy.permissions,
                self.policy.mode,
                &mut own,
                command,
            );
            checker.findings.append(&mut own);
        }
        for check in rules::SEQUENCE_CHECKS {
            check(&model.commands, &mut checker);
        }
        let findings = checker.into_findings();
        *seen = model.commands;
        Verdict::from_findings(findings)
    }

    /// The compiled path policy (the file-tool check judges by it too).
    pub(crate) fn path_judge(&self) -> &PathJudge {
        &self.paths
    }

    pub(crate) fn apply_mode(&self, mut verdict: Verdict) -> Verdict {
        if self.policy.mode == Mode::Audit {
            verdict.decision = Decision::Allow;
        }
        verdict
    }
}

/// Builds a [`Gate`]: the root, extra paths, config files, mode and limits.
#[derive(Clone, Debug)]
pub struct GateBuilder {
    policy: Policy,
    errors: Vec<ConfigError>,
    fast_path: bool,
}

impl Default for GateBuilder {
    fn default() -> Self {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        GateBuilder {
            policy: Policy::new(cwd),
            errors: Vec::new(),
            fast_path: true,
        }
    }
}

impl GateBuilder {
    /// The project root (canonicalised when it exists).
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        self.policy.root = std::fs::canonicalize(&root).unwrap_or(root);
        self
    }

    /// The home directory used for `~` and `$HOME` (defaults to the user's).
    pub fn home(mut self, home: Option<PathBuf>) -> Self {
        self.policy.home = home;
        self
    }

    /// Adds a folder that may be read and written.
    pub fn allow_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.policy.allowed_paths.push(path.into());
        self
    }

    /// Adds a folder that may be read.
    pub fn read_only_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.policy.read_only_paths.push(path.into());
        self
    }

    /// Adds an executable to the denylist.
    pub fn deny_executable(mut self, name: impl Into<String>) -> Self {
        self.policy.denylist.push(name.into());
        self
    }

    /// Adds a permission rule (`"git push *"`, ask).
    pub fn permission(mut self, pattern: impl Into<String>, decision: Decision) -> Self {
        self.policy.permissions.push(PermissionRule {
            pattern: pattern.into(),
            decision,
        });
        self
    }

    /// Sets the mode.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.policy.mode = mode;
        self
    }

    /// Applies a preset (its mode and rules; see [`crate::Preset`]).
    pub fn preset(mut self, preset: crate::policy::Preset) -> Self {
        preset.apply(&mut self.policy);
        self
    }

    /// Sets the input length limit in bytes.
    pub fn max_input_bytes(mut self, limit: usize) -> Self {
        self.policy.max_input_bytes = limit;
        self
    }

    /// Sets the nested-script depth limit.
    pub fn max_nesting(mut self, limit: u32) -> Self {
        self.policy.max_nesting = limit;
        self
    }

    /// Applies a TOML config file.
    pub fn config_file(mut self, path: impl AsRef<Path>) -> Self {
        if let Err(e) = self.policy.apply_file(path.as_ref()) {
            self.errors.push(e);
        }
        self
    }

    /// Applies the user's config file and the root's `bashgate.toml`, if they exist.
    pub fn discover_config(mut self) -> Self {
        if let Err(e) = self.policy.apply_discovered() {
            self.errors.push(e);
        }
        self
    }

    /// Applies a closure to the policy (for settings without a builder method).
    pub fn with_policy(mut self, f: impl FnOnce(&mut Policy)) -> Self {
        f(&mut self.policy);
        self
    }

    /// Turns the plain-words fast path off (every command is parsed). The verdicts
    /// are the same either way; this exists to prove it.
    pub fn fast_path(mut self, enabled: bool) -> Self {
        self.fast_path = enabled;
        self
    }

    /// Builds the gate, or returns the first config error recorded by
    /// [`GateBuilder::config_file`] or [`GateBuilder::discover_config`].
    ///
    /// There is no way to get a gate out of a builder that hit a config error: a
    /// broken `bashgate.toml` would otherwise lose its rules silently and the gate
    /// would allow what the config denies.
    ///
    /// ```
    /// use bashgate::Gate;
    /// let dir = std::env::temp_dir().join("bashgate-doc-build");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("broken.toml"), "mode = \"nope\"\n").unwrap();
    /// assert!(Gate::builder().root(&dir).config_file(dir.join("broken.toml")).build().is_err());
    /// ```
    pub fn build(self) -> Result<Gate, ConfigError> {
        match self.errors.into_iter().next() {
            Some(e) => Err(e),
            None => {
                let gate = Gate::with_fast_path(self.policy, self.fast_path);
                gate.check_examples()?;
                Ok(gate)
            }
        }
    }
}
