//! `bashgate hook <agent>`: a pre-exec gate speaking an agent's hook protocol on
//! stdin/stdout.
//!
//! The hook never widens what the agent allows: deny → deny, ask → ask (or the
//! stricter deny where the protocol cannot ask), allow → *no decision*, so the
//! agent's own permission flow decides as it did before the hook was installed.
//! "No finding" is not "known safe". `--approve` opts into answering allow, and even
//! then only for calls with no finding at all whose programs cannot act outside the
//! project ([`bashgate::may_act_remotely`]); the others ask
//! (Claude Code) or are left to the agent's own confirmation (Gemini CLI, Codex).
//!
//! Besides the shell tool, the agents' file tools are judged by the same path policy
//! ([`bashgate::Gate::check_file`]), and so is the working directory of the call.
//!
//! Every failure path fails closed in the way the agent understands: Claude Code and
//! Codex treat exit code 2 as "block" (any other non-zero exit lets the call run), so
//! errors exit 2 with the reason on stderr. Gemini CLI obeys JSON on stdout whatever
//! the exit code, and treats *no output* as allow even with exit 2, so errors there
//! print a deny decision as well.

use super::PolicyArgs;
use bashgate::may_act_remotely;
use bashgate::{Access, Decision, Gate, Verdict};
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
    /// Answer allow (skipping the agent's own prompt) for calls with no finding whose
    /// programs cannot act outside the project. Without it, an allow verdict gives
    /// no decision and the agent's own permission flow decides.
    #[arg(long)]
    approve: bool,
}

/// The hook's arguments when the command line is exactly `hook AGENT` (how agents
/// install it), read without building the whole command-line parser: a hook
/// process judges one command, and building the parser costs about as much as
/// judging it. Any other command line (`None`) goes through the parser.
pub fn plain(mut argv: impl Iterator<Item = std::ffi::OsString>) -> Option<HookArgs> {
    let _program = argv.next()?;
    if argv.next()? != "hook" {
        return None;
    }
    let agent = match argv.next()?.to_str()? {
        "claude-code" => Agent::ClaudeCode,
        "gemini" => Agent::Gemini,
        "codex" => Agent::Codex,
        _ => return None,
    };
    if argv.next().is_some() {
        return None;
    }
    Some(HookArgs {
        agent,
        policy: PolicyArgs::default(),
        ask_as: AskAs::default(),
        approve: false,
    })
}

/// What the hook input asks to do.
enum Call {
    /// The shell tool: a command run in `cwd`.
    Shell { command: String },
    /// A file tool: the paths it reads or writes.
    Files { paths: Vec<(String, Access)> },
}

/// The call and the directory it runs in.
struct ToolCall {
    call: Call,
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
    let Some(tool) = tool_call(args.agent, &value)? else {
        // Not a tool we judge: no decision.
        return Ok(0);
    };
    let gate = gate_for(args, &value, tool.cwd.as_deref())?;
    let cwd = tool.cwd.as_deref();
    let (mut verdict, remote) = match &tool.call {
        Call::Shell { command } => {
            let inspection = gate.inspect(command, cwd);
            let remote = inspection.programs.iter().find_map(|p| match p.basename() {
                None => Some("a program only known at run time".to_string()),
                Some(name) if may_act_remotely(name) => Some(format!("`{name}`")),
                Some(_) => None,
            });
            (inspection.verdict, remote)
        }
        Call::Files { paths } => {
            let mut findings = Vec::new();
            for (path, access) in paths {
                findings.extend(gate.check_file(path, *access, cwd).findings);
            }
            (Verdict::from_findings(findings), None)
        }
    };
    if let Some(dir) = cwd {
        judge_cwd(&gate, dir, &mut verdict);
    }
    Ok(answer(args, &verdict, remote.as_deref()))
}

/// A working directory outside the root and its allowed paths asks, whatever the
/// command.
fn judge_cwd(gate: &Gate, dir: &Path, verdict: &mut Verdict) {
    let judged = gate.check_cwd(dir);
    if judged.findings.is_empty() {
        return;
    }
    let mut findings = std::mem::take(&mut verdict.findings);
    findings.extend(judged.findings);
    *verdict = gate_verdict(gate, findings);
}

/// The verdict of `findings` under the gate's mode (audit allows everything).
fn gate_verdict(gate: &Gate, findings: Vec<bashgate::Finding>) -> Verdict {
    let mut verdict = Verdict::from_findings(findings);
    if gate.policy().mode == bashgate::Mode::Audit {
        verdict.decision = Decision::Allow;
    }
    verdict
}

/// The call in the hook input, `None` for tools not judged.
fn tool_call(agent: Agent, value: &Value) -> Result<Option<ToolCall>, String> {
    let tool = value
        .get("tool_name")
        .and_then(Value::as_str)
        .ok_or("hook input has no string `tool_name`")?;
    let base = value.get("cwd").and_then(Value::as_str).map(PathBuf::from);
    let input = || {
        value
            .get("tool_input")
            .ok_or_else(|| "hook input has no `tool_input`".to_string())
    };
    let string = |input: &Value, key: &str| -> Result<String, String> {
        input
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`tool_input.{key}` is missing or not a string"))
    };
    let shell_tool = match agent {
        Agent::ClaudeCode | Agent::Codex => tool == "Bash",
        Agent::Gemini => tool == "run_shell_command",
    };
    if shell_tool {
        let input = input()?;
        let command = string(input, "command")?;
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
        return Ok(Some(ToolCall {
            call: Call::Shell { command },
            cwd,
        }));
    }
    let Some(paths) = file_tool_paths(agent, tool, value)? else {
        return Ok(None);
    };
    Ok(Some(ToolCall {
        call: Call::Files { paths },
        cwd: base,
    }))
}

/// The paths a file tool reads or writes; `None` for tools that name no files.
fn file_tool_paths(
    agent: Agent,
    tool: &str,
    value: &Value,
) -> Result<Option<Vec<(String, Access)>>, String> {
    use Access::{Read, Write};
    // (path keys, access, a key that must be present)
    let (keys, access, required): (&[&str], Access, bool) = match (agent, tool) {
        (Agent::ClaudeCode, "Read") => (&["file_path"], Read, true),
        (Agent::ClaudeCode, "Write" | "Edit" | "MultiEdit") => (&["file_path"], Write, true),
        (Agent::ClaudeCode, "NotebookEdit") => (&["notebook_path"], Write, true),
        (Agent::ClaudeCode, "NotebookRead") => (&["notebook_path"], Read, true),
        (Agent::ClaudeCode, "Glob" | "Grep" | "LS") => (&["path"], Read, false),
        (Agent::Gemini, "read_file") => (&["file_path", "absolute_path", "path"], Read, true),
        (Agent::Gemini, "write_file" | "replace" | "edit") => {
            (&["file_path", "absolute_path", "path"], Write, true)
        }
        (Agent::Gemini, "read_many_files") => (&["paths", "include"], Read, true),
        (
            Agent::Gemini,
            "list_directory" | "glob" | "search_file_content" | "grep_search" | "grep",
        ) => (&["dir_path", "path"], Read, false),
        (Agent::Codex, "apply_patch" | "Edit" | "Write") => {
            let input = value
                .get("tool_input")
                .ok_or("hook input has no `tool_input`")?;
            let patch = input
                .get("command")
                .or_else(|| input.get("patch"))
                .or_else(|| input.get("input"))
                .and_then(Value::as_str)
                .ok_or("`tool_input.command` (the patch) is missing or not a string")?;
            let paths = patch_paths(patch);
            if paths.is_empty() {
                return Err(
                    "the patch names no file (no `*** Add/Update/Delete File:` line)".into(),
                );
            }
            return Ok(Some(paths.into_iter().map(|p| (p, Write)).collect()));
        }
        _ => return Ok(None),
    };
    let input = value
        .get("tool_input")
        .ok_or("hook input has no `tool_input`")?;
    let mut paths = Vec::new();
    for key in keys {
        match input.get(*key) {
            Some(Value::String(s)) => paths.push((s.clone(), access)),
            Some(Value::Array(items)) => {
                for item in items {
                    let s = item
                        .as_str()
                        .ok_or_else(|| format!("`tool_input.{key}` holds a non-string"))?;
                    paths.push((glob_base(s).to_string(), access));
                }
            }
            Some(Value::Null) | None => {}
            Some(_) => return Err(format!("`tool_input.{key}` is not a string")),
        }
    }
    // A search pattern that is itself absolute (`/etc/**`) names where it looks.
    if let Some(pattern) = input.get("pattern").and_then(Value::as_str)
        && (pattern.starts_with('/') || pattern.starts_with('~') || pattern.contains(".."))
    {
        paths.push((glob_base(pattern).to_string(), access));
    }
    if paths.is_empty() {
        if required {
            return Err(format!("`{tool}` names no file in `tool_input`"));
        }
        // A search with no folder runs in the working directory, judged below.
        return Ok(Some(Vec::new()));
    }
    Ok(Some(paths))
}

/// The static folder a glob starts in (`/etc/**/*.conf` → `/etc/`; `src/*.rs` →
/// `src/`; no glob: the text).
fn glob_base(pattern: &str) -> &str {
    match pattern.find(['*', '?', '[', '{']) {
        Some(i) => match pattern[..i].rfind('/') {
            Some(slash) => &pattern[..=slash],
            None => ".",
        },
        None => pattern,
    }
}

/// The files a Codex `apply_patch` body adds, updates, deletes or moves to.
fn patch_paths(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim_end();
            [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix))
            .map(|p| p.trim().to_string())
        })
        .collect()
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
        .map(|f| {
            let text = f.text.trim();
            let mut part = if text.is_empty() {
                format!("{} {}: {}", f.rule, f.name, f.message)
            } else {
                format!("{} {} `{}`: {}", f.rule, f.name, text, f.message)
            };
            if let Some(suggestion) = &f.suggestion {
                part.push_str(&format!(" (instead: {suggestion})"));
            }
            part
        })
        .collect();
    let more = verdict.findings.len().saturating_sub(parts.len());
    let mut text = format!("bashgate {}: {}", verdict.decision, parts.join("; "));
    if more > 0 {
        text.push_str(&format!(" (+{more} more)"));
    }
    text
}

/// What the hook answers, before it is spelled in an agent's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Deny,
    Ask,
    Allow,
    /// `--approve`, no finding, but not proven local: a person decides (ask where
    /// the protocol can, else the agent's own flow).
    Unproven,
    /// Say nothing: the agent's own permission flow decides.
    NoDecision,
}

/// deny → deny, ask → ask, allow → no decision; with `--approve`, allow → allow when
/// the call has no finding and acts only locally, else it is left to a person.
fn decide(args: &HookArgs, verdict: &Verdict, remote: Option<&str>) -> Answer {
    match verdict.decision {
        Decision::Deny => Answer::Deny,
        Decision::Ask => Answer::Ask,
        Decision::Allow if !args.approve => Answer::NoDecision,
        Decision::Allow if remote.is_none() && verdict.findings.is_empty() => Answer::Allow,
        Decision::Allow => Answer::Unproven,
    }
}

fn answer(args: &HookArgs, verdict: &Verdict, remote: Option<&str>) -> i32 {
    let decision = decide(args, verdict, remote);
    let reason = match (decision, remote) {
        (Answer::Unproven, Some(program)) => format!(
            "bashgate: no finding, but {program} can act outside the project; --approve approves only local commands"
        ),
        (Answer::Unproven, None) => format!(
            "bashgate: the findings lower to allow ({}), and --approve approves only calls without any",
            reason(verdict)
        ),
        _ => reason(verdict),
    };
    match args.agent {
        Agent::ClaudeCode => {
            let word = match decision {
                Answer::Deny => "deny",
                Answer::Ask | Answer::Unproven => "ask",
                Answer::Allow => "allow",
                Answer::NoDecision => return 0,
            };
            println!(
                "{}",
                json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": word,
                    "permissionDecisionReason": reason,
                }})
            );
            0
        }
        Agent::Gemini => {
            // Gemini CLI's BeforeTool knows only allow and deny: ask becomes deny,
            // with the reason sent to the agent. A call --approve cannot prove local
            // has no finding to deny for: Gemini's own confirmation decides.
            let word = match decision {
                Answer::Deny | Answer::Ask => "deny",
                Answer::Allow => "allow",
                Answer::Unproven | Answer::NoDecision => return 0,
            };
            println!("{}", json!({"decision": word, "reason": reason}));
            0
        }
        Agent::Codex => {
            // Codex's PreToolUse can block (exit 2) but neither ask nor approve.
            let block = match decision {
                Answer::Deny => true,
                Answer::Ask => args.ask_as == AskAs::Deny,
                Answer::Allow | Answer::Unproven | Answer::NoDecision => false,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> impl Iterator<Item = std::ffi::OsString> {
        words
            .iter()
            .map(std::ffi::OsString::from)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn a_plain_hook_command_line_reads_as_the_parser_reads_it() {
        use clap::Parser;
        for agent in ["claude-code", "gemini", "codex"] {
            let words = ["bashgate", "hook", agent];
            let fast = plain(argv(&words)).expect("a plain hook command line");
            let super::super::Command::Hook(parsed) = super::super::Cli::parse_from(words).command
            else {
                panic!("not a hook command");
            };
            assert_eq!(fast.agent, parsed.agent, "{agent}");
            assert_eq!(fast.ask_as, parsed.ask_as, "{agent}");
            assert_eq!(fast.approve, parsed.approve, "{agent}");
            assert_eq!(format!("{:?}", fast.policy), format!("{:?}", parsed.policy));
        }
    }

    #[test]
    fn any_other_command_line_goes_to_the_parser() {
        for words in [
            &["bashgate"][..],
            &["bashgate", "hook"],
            &["bashgate", "hook", "Claude-Code"],
            &["bashgate", "hook", "claude-code", "--approve"],
            &["bashgate", "hook", "codex", "--ask-as", "defer"],
            &["bashgate", "--color", "never", "hook", "gemini"],
            &["bashgate", "check", "claude-code"],
        ] {
            assert!(plain(argv(words)).is_none(), "{words:?}");
        }
    }

    #[test]
    fn patch_paths_are_every_file_the_patch_touches() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: src/b.rs\n*** Move to: src/c.rs\n@@\n-x\n+y\n*** Delete File: /etc/d\n*** End Patch\n";
        assert_eq!(
            patch_paths(patch),
            ["a.txt", "src/b.rs", "src/c.rs", "/etc/d"]
        );
    }

    #[test]
    fn glob_base_is_the_static_folder() {
        assert_eq!(glob_base("/etc/**/*.conf"), "/etc/");
        assert_eq!(glob_base("src/*.rs"), "src/");
        assert_eq!(glob_base("*.rs"), ".");
        assert_eq!(glob_base("/etc/passwd"), "/etc/passwd");
    }
}
