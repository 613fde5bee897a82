//! `bashgate install claude-code|gemini|codex [--project|--user] [--dry-run]` and
//! `bashgate uninstall ...`: add bashgate's hook to an agent's settings file or take
//! it out, merging with what is there. The file is backed up before it is changed
//! (`<file>.bashgate-backup`), a second install changes nothing, and `--dry-run`
//! prints the change as a diff without writing.
//!
//! | agent | project file | user file | event | matcher |
//! |---|---|---|---|---|
//! | claude-code | `.claude/settings.json` | `~/.claude/settings.json` | `PreToolUse` | shell and file tools |
//! | gemini | `.gemini/settings.json` | `~/.gemini/settings.json` | `BeforeTool` | shell and file tools |
//! | codex | `.codex/hooks.json` | `~/.codex/hooks.json` | `PreToolUse` | `Bash`, `apply_patch` |

use super::hook::Agent;
use super::{EXIT_CONFIG, EXIT_USAGE, discover};
use clap::Args;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// Install or uninstall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Add the hook.
    Install,
    /// Remove it.
    Uninstall,
}

#[derive(Args)]
pub struct InstallArgs {
    /// claude-code, gemini or codex.
    #[arg(value_enum)]
    agent: Agent,
    /// The project's settings file (the default), under the project root.
    #[arg(long, conflicts_with = "user")]
    project: bool,
    /// The user's settings file, under the home directory.
    #[arg(long)]
    user: bool,
    /// The project root for `--project` (default: discovered like `check`'s).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print the change as a diff; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// The command the agent runs (default: this executable's absolute path).
    #[arg(long, value_name = "PROGRAM")]
    program: Option<String>,
}

/// Where an agent keeps its hooks, and what to register.
struct Target {
    /// The settings file, relative to the project root or the home directory.
    file: &'static str,
    /// The hook event.
    event: &'static str,
    /// The tool-name matcher (a regex in all three agents).
    matcher: &'static str,
}

fn target(agent: Agent) -> Target {
    match agent {
        Agent::ClaudeCode => Target {
            file: ".claude/settings.json",
            event: "PreToolUse",
            matcher: "Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep",
        },
        Agent::Gemini => Target {
            file: ".gemini/settings.json",
            event: "BeforeTool",
            matcher: "run_shell_command|read_file|read_many_files|write_file|replace|list_directory|glob|search_file_content|grep_search",
        },
        Agent::Codex => Target {
            file: ".codex/hooks.json",
            event: "PreToolUse",
            matcher: "Bash|apply_patch",
        },
    }
}

fn agent_name(agent: Agent) -> &'static str {
    match agent {
        Agent::ClaudeCode => "claude-code",
        Agent::Gemini => "gemini",
        Agent::Codex => "codex",
    }
}

/// True for a hook entry that runs `bashgate hook ...` (whatever the path).
fn is_ours(hook: &Value) -> bool {
    let Some(command) = hook.get("command").and_then(Value::as_str) else {
        return false;
    };
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or("").trim_matches(['"', '\'']);
    let program = program.rsplit('/').next().unwrap_or(program);
    program == "bashgate" && words.next() == Some("hook")
}

pub fn run(args: &InstallArgs, action: Action) -> i32 {
    match apply(args, action) {
        Ok(()) => 0,
        Err((code, message)) => {
            eprintln!("bashgate: {message}");
            code
        }
    }
}

fn settings_path(args: &InstallArgs) -> Result<PathBuf, (i32, String)> {
    let file = target(args.agent).file;
    if args.user {
        let home =
            dirs::home_dir().ok_or((EXIT_USAGE, "no home directory for --user".to_string()))?;
        return Ok(home.join(file));
    }
    Ok(discover::root_for(args.root.as_deref()).root.join(file))
}

fn apply(args: &InstallArgs, action: Action) -> Result<(), (i32, String)> {
    let path = settings_path(args)?;
    let before_text = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err((EXIT_CONFIG, format!("{}: cannot read: {e}", path.display()))),
    };
    let mut settings: Value = match before_text.as_deref() {
        None => json!({}),
        Some(text) if text.trim().is_empty() => json!({}),
        Some(text) => serde_json::from_str(text).map_err(|e| {
            (
                EXIT_CONFIG,
                format!("{}: not valid JSON ({e}); left unchanged", path.display()),
            )
        })?,
    };
    if !settings.is_object() {
        return Err((
            EXIT_CONFIG,
            format!("{}: not a JSON object; left unchanged", path.display()),
        ));
    }
    let changed = match action {
        Action::Install => install(&mut settings, args)?,
        Action::Uninstall => uninstall(&mut settings),
    };
    if !changed {
        println!(
            "{}: {}",
            path.display(),
            match action {
                Action::Install => "bashgate's hook is already there; nothing changed",
                Action::Uninstall => "no bashgate hook there; nothing changed",
            }
        );
        return Ok(());
    }
    let mut after_text = serde_json::to_string_pretty(&settings)
        .map_err(|e| (EXIT_CONFIG, format!("cannot write JSON: {e}")))?;
    after_text.push('\n');
    if args.dry_run {
        print!(
            "{}",
            diff(&path, before_text.as_deref().unwrap_or(""), &after_text)
        );
        return Ok(());
    }
    write(&path, before_text.as_deref(), &after_text)
        .map_err(|e| (EXIT_CONFIG, format!("{}: {e}", path.display())))?;
    println!(
        "{}: bashgate's hook {}",
        path.display(),
        match action {
            Action::Install => "added",
            Action::Uninstall => "removed",
        }
    );
    Ok(())
}

/// Backs the old file up, then replaces it through a temporary file.
fn write(path: &Path, before: Option<&str>, after: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if before.is_some() {
        std::fs::copy(path, backup_path(path))?;
    }
    let temp = path.with_extension("bashgate-tmp");
    std::fs::write(&temp, after)?;
    std::fs::rename(&temp, path)
}

/// `<file>.bashgate-backup`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bashgate-backup");
    path.with_file_name(name)
}

/// Adds the hook group unless a bashgate hook is already registered for the event.
fn install(settings: &mut Value, args: &InstallArgs) -> Result<bool, (i32, String)> {
    let t = target(args.agent);
    let program = match &args.program {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "bashgate".to_string()),
    };
    let quoted = if program.contains(char::is_whitespace) {
        format!("\"{program}\"")
    } else {
        program
    };
    let command = format!("{quoted} hook {}", agent_name(args.agent));
    let object = settings.as_object_mut().expect("checked object");
    let hooks = object
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let hooks = hooks.as_object_mut().ok_or((
        EXIT_CONFIG,
        "`hooks` is not an object; left unchanged".to_string(),
    ))?;
    let groups = hooks
        .entry(t.event)
        .or_insert_with(|| Value::Array(Vec::new()));
    let groups = groups.as_array_mut().ok_or((
        EXIT_CONFIG,
        format!("`hooks.{}` is not an array; left unchanged", t.event),
    ))?;
    let present = groups.iter().any(|group| {
        group
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| hs.iter().any(is_ours))
    });
    if present {
        return Ok(false);
    }
    let mut hook = json!({"type": "command", "command": command});
    if args.agent == Agent::Gemini {
        hook["name"] = json!("bashgate");
    }
    groups.push(json!({"matcher": t.matcher, "hooks": [hook]}));
    Ok(true)
}

/// Removes every bashgate hook, and groups, events and `hooks` left empty by it.
fn uninstall(settings: &mut Value) -> bool {
    let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) else {
        return false;
    };
    let mut changed = false;
    for groups in hooks.values_mut() {
        let Some(groups) = groups.as_array_mut() else {
            continue;
        };
        for group in groups.iter_mut() {
            if let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                let before = list.len();
                list.retain(|h| !is_ours(h));
                changed |= list.len() != before;
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|hs| !hs.is_empty())
        });
    }
    if changed {
        hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
        if hooks.is_empty()
            && let Some(object) = settings.as_object_mut()
        {
            object.remove("hooks");
        }
    }
    changed
}

/// A line diff (`-`/`+`/` `), longest common subsequence of lines.
fn diff(path: &Path, before: &str, after: &str) -> String {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = format!("--- {0}\n+++ {0} (after)\n", path.display());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!(" {}\n", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+{}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("-{}\n", a[i]));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_the_hook_is_installed_in_are_write_protected() {
        for agent in [Agent::ClaudeCode, Agent::Gemini, Agent::Codex] {
            let file = target(agent).file;
            assert!(
                bashgate::AGENT_SETTINGS.contains(&file),
                "{file} holds the hook, so the gate must deny writing it"
            );
        }
    }
}
