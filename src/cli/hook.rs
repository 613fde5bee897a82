//! `bashgate hook <agent>`: a pre-exec gate speaking an agent's hook protocol on
//! stdin/stdout.
//!
//! Every failure path fails closed in the way the agent understands: Claude Code and
//! Codex treat exit code 2 as "block" (any other non-zero exit lets the call run), so
//! errors exit 2 with the reason on stderr. Gemini CLI obeys JSON on stdout whatever
//! the exit code, and treats *no output* as allow even with exit 2, so errors there
//! print a deny decision as well.

use super::PolicyArgs;
use bashgate::{Decision, Gate, Verdict};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Exit code that blocks the tool call in Claude Code and Codex.
const EXIT_BLOCK: i32 = 2;
/// Largest hook input read from stdin.
const MAX_INPUT: u64 = 16 * 1024 * 1024;

/// The agents whose hook protocol we speak.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code PreToolUse (`hookSpecificOutput.permissionDecision`).
    ClaudeCode,
    /// Gemini CLI BeforeTool (`decision` / `reason`).
    Gemini,
    /// Codex CLI PreToolUse (Claude-compatible input; blocks with exit 2).
    Codex,
}

/// What `hook codex` does with an `ask` verdict: Codex's PreToolUse hook cannot ask.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum AskAs {
    /// Block the call, telling the agent why (fail closed; the default).
    #[default]
    Deny,
    /// Say nothing and let the agent's own approval policy decide.
    Defer,
}

#[derive(Args)]
pub struct HookArgs {
    /// claude-code, gemini or codex.
    #[arg(value_enum)]
    agent: Agent,
    #[command(flatten)]
    policy: PolicyArgs,
    /// For codex: what an `ask` verdict becomes.
    #[arg(long, value_enum, default_value_t = AskAs::Deny)]
    ask_as: AskAs,
}

/// A shell call extracted from the hook input.
struct ShellCall {
    command: String,
    cwd: Option<PathBuf>,
}

pub fn run(args: &HookArgs) -> i32 {
    match handle(args) {
        Ok(code) => code,
        Err(reason) => fail_closed(args.agent, &reason),
    }
}

/// Reports an error the way that blocks the call in this agent.
fn fail_closed(agent: Agent, reason: &str) -> i32 {
    eprintln!("bashgate: {reason}");
    if agent == Agent::Gemini {
        println!(
            "{}",
            json!({"decision": "deny", "reason": format!("bashgate could not judge this call: {reason}")})
        );
    }
    EXIT_BLOCK
}

fn handle(args: &HookArgs) -> Result<i32, String> {
    let mut input = String::new();
    std::io::stdin()
        .take(MAX_INPUT)
        .read_to_string(&mut input)
        .map_err(|e| format!("cannot read hook input from stdin: {e}"))?;
    if input.trim().is_empty() {
        return Err("empty hook input on stdin".to_string());
    }
    let value: Value =
        serde_json::from_str(&input).map_err(|e| format!("hook input is not valid JSON: {e}"))?;
    let Some(call) = shell_call(args.agent, &value)? else {
        // Not a shell tool: pass through untouched.
        return Ok(0);
    };
    let gate = gate_for(args, &value, call.cwd.as_deref())?;
    let verdict = gate.check_in(&call.command, call.cwd.as_deref());
    Ok(answer(args, &verdict))
}

/// The shell command in the hook input, `None` for other tools.
fn shell_call(agent: Agent, value: &Value) -> Result<Option<ShellCall>, String> {
    let tool = value
        .get("tool_name")
        .and_then(Value::as_str)
        .ok_or("hook input has no string `tool_name`")?;
    let shell_tool = match agent {
        Agent::ClaudeCode | Agent::Codex => tool == "Bash",
        Agent::Gemini => tool == "run_shell_command",
    };
    if !shell_tool {
        return Ok(None);
    }
    let input = value
        .get("tool_input")
        .ok_or("hook input has no `tool_input`")?;
    let command = input
        .get("command")
        .and_then(Value::as_str)
        .ok_or("`tool_input.command` is missing or not a string")?;
    let base = value.get("cwd").and_then(Value::as_str).map(PathBuf::from);
    let cwd = match (agent, input.get("dir_path").and_then(Value::as_str)) {
        (Agent::Gemini, Some(dir)) if !dir.is_empty() => {
            let dir = Path::new(dir);
            Some(match (&base, dir.is_absolute()) {
                (Some(b), false) => b.join(dir),
                _ => dir.to_path_buf(),
            })
        }
        _ => base,
    };
    Ok(Some(ShellCall {
        command: command.to_string(),
        cwd,
    }))
}

/// The project root: `--root`, else the agent's project-dir variable, else the hook's
/// `cwd`.
fn gate_for(args: &HookArgs, value: &Value, cwd: Option<&Path>) -> Result<Gate, String> {
    let mut policy = args.policy.clone();
    if policy.root.is_none() {
        let var = match args.agent {
            Agent::ClaudeCode => "CLAUDE_PROJECT_DIR",
            Agent::Gemini => "GEMINI_PROJECT_DIR",
            Agent::Codex => "CODEX_PROJECT_DIR",
        };
        let from_env = std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_dir());
        let from_input = value
            .get("cwd")
            .and_then(Value::as_str)
            .map(PathBuf::from)
            .or_else(|| cwd.map(Path::to_path_buf))
            .filter(|p| p.is_dir());
        policy.root = from_env.or(from_input);
        if policy.root.is_none() {
            return Err("no project root: pass --root, or give a `cwd` that exists".to_string());
        }
    }
    policy.gate()
}

/// One or two readable lines listing the findings.
fn reason(verdict: &Verdict) -> String {
    if verdict.findings.is_empty() {
        return "bashgate: no findings".to_string();
    }
    let parts: Vec<String> = verdict
        .findings
        .iter()
        .filter(|f| f.decision == verdict.decision)
        .take(3)
        .map(|f| format!("{} {} `{}`: {}", f.rule, f.name, f.text.trim(), f.message))
        .collect();
    let more = verdict.findings.len().saturating_sub(parts.len());
    let mut text = format!("bashgate {}: {}", verdict.decision, parts.join("; "));
    if more > 0 {
        text.push_str(&format!(" (+{more} more)"));
    }
    text
}

fn answer(args: &HookArgs, verdict: &Verdict) -> i32 {
    let reason = reason(verdict);
    match args.agent {
        Agent::ClaudeCode => {
            println!(
                "{}",
                json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": verdict.decision.as_str(),
                    "permissionDecisionReason": reason,
                }})
            );
            0
        }
        Agent::Gemini => {
            println!(
                "{}",
                json!({"decision": verdict.decision.as_str(), "reason": reason})
            );
            0
        }
        Agent::Codex => {
            let block = match verdict.decision {
                Decision::Deny => true,
                Decision::Ask => args.ask_as == AskAs::Deny,
                Decision::Allow => false,
            };
            if block {
                eprintln!("{reason}");
                EXIT_BLOCK
            } else {
                0
            }
        }
    }
}
