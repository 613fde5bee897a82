//! The compliance suite of `bashgate exec`: what the gate cannot see is still held
//! inside the policy by the kernel.
//!
//! Each case runs, where it makes sense, three ways: the gate alone (`check`), the
//! sandbox alone (`exec --no-gate`) and both (`exec`). The sandbox alone must hold every
//! filesystem and network case. Outside locations are decoy folders created under a
//! temporary folder outside the project root; the real HOME and system files are never
//! touched.
//!
//! Without Landlock (or a process limit) the cases say so and pass, unless
//! `BASHGATE_EXEC_SANDBOX=require` (CI sets it): then they fail loudly.

mod background;
mod cli;
mod env;
mod fs;
mod net;
mod output;
mod processes;
mod sockets;
mod toolchains;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// A decoy's contents: seeing it in any output means the sandbox leaked.
pub const SECRET: &str = "decoy-secret-7f3a";

/// A project root and decoy folders beside it, all under one temporary folder that
/// is removed afterwards.
pub struct Fixture {
    pub base: PathBuf,
    pub root: PathBuf,
    pub decoy: PathBuf,
}

#[allow(clippy::new_without_default)] // a fixture creates folders; no silent default
impl Fixture {
    pub fn new() -> Fixture {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir().join(format!(
            "bashgate-exec-suite-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("root");
        let decoy = base.join("decoy");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&decoy).unwrap();
        let base = std::fs::canonicalize(base).unwrap();
        let root = base.join("root");
        let decoy = base.join("decoy");
        std::fs::write(decoy.join("secret"), SECRET).unwrap();
        Fixture { base, root, decoy }
    }

    /// Writes an executable script into the root.
    pub fn script(&self, name: &str, body: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root.join(name);
        std::fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Writes `bashgate.toml`-style policy text to a file outside the root.
    pub fn config(&self, text: &str) -> PathBuf {
        let path = self.base.join("policy.toml");
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `bashgate check` from the root: the gate alone.
    pub fn gate(&self, command: &str) -> String {
        // `check` judges from the directory it runs in; the runner runs in the root.
        let out = Command::new(env!("CARGO_BIN_EXE_bashgate"))
            .current_dir(&self.root)
            .args(["check", "--no-config", "--format", "json", "--root"])
            .arg(&self.root)
            .arg("--")
            .arg(command)
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        json["decision"].as_str().unwrap().to_string()
    }

    /// `bashgate exec --format json` with extra flags; the parsed JSON and the
    /// process output.
    pub fn exec(&self, flags: &[&str], command: &str) -> (Value, Output) {
        self.exec_with(flags, command, &[])
    }

    /// [`Fixture::exec`] with extra variables in the runner's environment.
    pub fn exec_with(
        &self,
        flags: &[&str],
        command: &str,
        env: &[(&str, &str)],
    ) -> (Value, Output) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_bashgate"));
        cmd.args(["exec", "--no-config", "--format", "json", "--root"])
            .arg(&self.root)
            .args(flags)
            .arg("--")
            .arg(command)
            .current_dir(&self.root);
        for (name, value) in env {
            cmd.env(name, value);
        }
        let out = cmd.output().unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}\nstderr: {}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (json, out)
    }

    /// The sandbox alone, required.
    pub fn sandbox_alone(&self, command: &str) -> Value {
        self.exec(&["--no-gate", "--sandbox", "require"], command).0
    }

    /// Gate and sandbox, sandbox required.
    pub fn both(&self, command: &str) -> Value {
        self.exec(&["--sandbox", "require"], command).0
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

/// The output of a run.
pub fn output(json: &Value) -> &str {
    json["output"].as_str().unwrap_or("")
}

/// Whether the sandbox can run here. Without it the suite skips (and says so), or
/// fails when `BASHGATE_EXEC_SANDBOX=require`.
pub fn sandbox_available() -> bool {
    static AVAILABLE: OnceLock<Result<(), String>> = OnceLock::new();
    let result = AVAILABLE.get_or_init(|| {
        let fixture = Fixture::new();
        let (json, out) = fixture.exec(&["--no-gate", "--sandbox", "require"], "true");
        if json["ran"] == Value::Bool(true) && json["exit_code"] == 0 {
            Ok(())
        } else {
            Err(format!(
                "{} {}",
                json["error"],
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    });
    match result {
        Ok(()) => true,
        Err(why) => {
            let required = std::env::var("BASHGATE_EXEC_SANDBOX").is_ok_and(|v| v == "require");
            assert!(!required, "the sandbox is required but cannot run: {why}");
            eprintln!("skipped: the sandbox cannot run here: {why}");
            false
        }
    }
}

/// A Python the sandbox can start without a toolchain preset: the system's, not a
/// version manager's shim (whose home the sandbox does not grant, so a case run
/// through it would fail before it tried anything). `None` without one.
pub fn system_python() -> Option<&'static str> {
    ["/usr/bin/python3", "/bin/python3"]
        .into_iter()
        .find(|path| Path::new(path).exists())
}

/// The system Python, when the sandbox can run here and there is one; `None` (the
/// case says it skips) otherwise.
pub fn sandbox_and_python() -> Option<&'static str> {
    if !sandbox_available() {
        return None;
    }
    let python = system_python();
    if python.is_none() {
        eprintln!("skipped: no system python");
    }
    python
}

/// Whether a program is installed.
pub fn have(program: &str) -> bool {
    Command::new("bash")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Live processes whose process group is `pgid` (from /proc). Zombies are dead: an
/// orphan killed with its group waits for init to reap it, which some container
/// inits do late.
pub fn group_members(pgid: u32) -> Vec<u32> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command name in parentheses: state ppid pgrp ...
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        let zombie = fields.first() == Some(&"Z");
        if !zombie && fields.get(2).and_then(|p| p.parse::<u32>().ok()) == Some(pgid) {
            members.push(pid);
        }
    }
    members
}

/// Asserts the file still holds the decoy secret.
pub fn assert_decoy_intact(path: &Path) {
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        SECRET,
        "{}",
        path.display()
    );
}
