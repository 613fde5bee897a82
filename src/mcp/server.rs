//! [`BashgateServer`]: the MCP tool handler over one [`Gate`].

use super::ask::{self, Refusal};
use super::shells::{ShellLimits, ShellRegistry};
use super::tools::{CheckCommand, KillShell, ListShells, ReadOutput, RunCommand};
use crate::exec::{
    Approval, DEFAULT_TIMEOUT, MAX_TIMEOUT, Outcome, RunOptions, Runner, SandboxMode, Started,
};
use crate::{Decision, Gate, Verdict, report};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What the server tells the agent about itself at initialisation.
const INSTRUCTIONS: &str = "bashgate judges bash commands before they run and runs the \
    ones it allows confined by the kernel (Landlock), with a minimal environment, a \
    deadline and bounded output. check_command returns the verdict (allow / ask / deny) \
    with findings: rule code, byte span, reason. run_command runs a command like a Bash \
    tool; when the gate asks, the user is asked (elicitation) or the result says \
    permission_required; deny never runs. Background shells: run_command with \
    run_in_background, then read_output, kill_shell, list_shells.";

/// How the server runs commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerOptions {
    /// Landlock strictness for every command it runs.
    pub sandbox: SandboxMode,
    /// Bounds and deadline of background shells.
    pub shells: ShellLimits,
}

/// The MCP server: the tools over one gate. Cheap to clone (the gate and the shell
/// registry are shared).
#[derive(Clone)]
pub struct BashgateServer {
    gate: Arc<Gate>,
    options: ServerOptions,
    shells: ShellRegistry,
    tool_router: ToolRouter<BashgateServer>,
}

impl std::fmt::Debug for BashgateServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BashgateServer").finish_non_exhaustive()
    }
}

#[tool_router(router = tool_router)]
impl BashgateServer {
    /// A server judging with `gate` and running commands as `options` say.
    pub fn new(gate: Gate, options: ServerOptions) -> BashgateServer {
        BashgateServer {
            gate: Arc::new(gate),
            options,
            shells: ShellRegistry::new(options.shells),
            tool_router: Self::tool_router(),
        }
    }

    /// The background shells (the server kills them all when it exits).
    pub fn shells(&self) -> &ShellRegistry {
        &self.shells
    }

    /// `check_command`: the verdict JSON of `bashgate check --format json`.
    #[tool(
        name = "check_command",
        description = "Judge a bash command without running it. Returns the verdict as JSON: \
            {\"decision\": \"allow\"|\"ask\"|\"deny\", \"findings\": [{\"rule\", \"name\", \
            \"decision\", \"capability\", \"message\", \"span\": {\"start\", \"end\"}, \"text\"}]}. \
            allow: safe to run; ask: needs the user's approval; deny: must not run.",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    pub async fn check_command(
        &self,
        Parameters(args): Parameters<CheckCommand>,
    ) -> Result<CallToolResult, ErrorData> {
        let cwd = args.cwd.as_deref().map(|c| self.resolve_cwd(c));
        let verdict = self.gate.check_in(&args.command, cwd.as_deref());
        let json = report::to_json(&verdict);
        let value: serde_json::Value = serde_json::from_str(&json)
            .map_err(|e| ErrorData::internal_error(format!("verdict JSON: {e}"), None))?;
        let mut result = CallToolResult::success(vec![ContentBlock::text(json)]);
        result.structured_content = Some(value);
        Ok(result)
    }

    /// `run_command`: the Bash-tool contract through the gate and the runner.
    #[tool(
        name = "run_command",
        description = "Run a bash command (bash -c, from the project root) after bashgate \
            judges it, confined by the kernel (Landlock: writes only inside the project, no \
            network unless the policy allows it), with a minimal environment, its own \
            process group and a deadline. Foreground (default): waits and returns stdout \
            and stderr merged (capped at 100 KiB, head and tail kept), then `exit: N` for \
            a non-zero exit or `bash: timed out after Ns` (exit code 124). Background \
            (run_in_background: true): returns {\"shell_id\"} at once; use read_output, \
            kill_shell, list_shells. If the gate asks, the user is asked to approve (when \
            the client supports elicitation); otherwise the result has isError: true and \
            structuredContent {\"status\": \"permission_required\", \"capabilities\", \
            \"findings\"}. A denied command never runs (status \"denied\").",
        annotations(destructive_hint = true, open_world_hint = false)
    )]
    pub async fn run_command(
        &self,
        Parameters(args): Parameters<RunCommand>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let timeout = match args.timeout {
            Some(0) => return Ok(error_result("timeout must be at least 1 millisecond")),
            Some(ms) => Some(Duration::from_millis(ms)),
            None => None,
        };
        let verdict = self.gate.check(&args.command);
        let approval = match verdict.decision {
            Decision::Allow => Approval::NotGiven,
            Decision::Deny => return Ok(ask::refused(&args.command, &verdict, Refusal::Denied)),
            Decision::Ask if !ask::client_can_elicit(&context.peer) => {
                let why = Refusal::PermissionRequired;
                return Ok(ask::refused(&args.command, &verdict, why));
            }
            Decision::Ask => {
                if !ask::ask_user(&context.peer, &args.command, &verdict).await {
                    let why = Refusal::NotApproved;
                    return Ok(ask::refused(&args.command, &verdict, why));
                }
                Approval::Given
            }
        };
        if args.run_in_background.unwrap_or(false) {
            self.run_in_background(args, timeout, approval).await
        } else {
            self.run_in_foreground(args, timeout.unwrap_or(DEFAULT_TIMEOUT), approval)
                .await
        }
    }

    /// `read_output`: a background shell's status and new output.
    #[tool(
        name = "read_output",
        description = "Read a background shell's new output and status. Returns \
            {\"shell_id\", \"status\": {\"state\": \"running\"|\"exited\"|\"signaled\"|\
            \"killed\"|\"timed_out\", \"value\"?}, \"ended\", \"exit_code\", \"output\", \
            \"offset\", \"next_offset\", \"dropped_bytes\"}. Without `since` it returns \
            what was written since the previous read; with `since` (a byte offset, e.g. a \
            previous next_offset) it reads from there. Only the newest 1 MiB is kept: \
            dropped_bytes counts bytes after `since` that are gone. Read until ended is true.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    pub async fn read_output(
        &self,
        Parameters(args): Parameters<ReadOutput>,
    ) -> Result<CallToolResult, ErrorData> {
        let read = match self.shells.read(&args.shell_id, args.since) {
            Ok(read) => read,
            Err(why) => return Ok(error_result(&why)),
        };
        let output = String::from_utf8_lossy(&read.output).into_owned();
        let structured = json!({
            "shell_id": args.shell_id,
            "status": read.status,
            "ended": read.ended,
            "exit_code": if read.ended { Some(read.status.exit_code()) } else { None },
            "output": output,
            "offset": read.offset,
            "next_offset": read.next_offset,
            "dropped_bytes": read.dropped,
        });
        let mut text = String::new();
        if read.dropped > 0 {
            text.push_str(&format!("[bashgate: {} bytes dropped]\n", read.dropped));
        }
        text.push_str(&output);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[{}]", status_line(read.status, read.ended)));
        Ok(with_structured(
            CallToolResult::success(vec![ContentBlock::text(text)]),
            structured,
        ))
    }

    /// `kill_shell`: kills a background shell's whole process group.
    #[tool(
        name = "kill_shell",
        description = "Kill a background shell started by this server: its whole process \
            group. Returns {\"shell_id\", \"status\"}; its output stays readable with \
            read_output.",
        annotations(
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub async fn kill_shell(
        &self,
        Parameters(args): Parameters<KillShell>,
    ) -> Result<CallToolResult, ErrorData> {
        let shells = self.shells.clone();
        let id = args.shell_id.clone();
        let killed = tokio::task::spawn_blocking(move || shells.kill(&id))
            .await
            .map_err(|e| ErrorData::internal_error(format!("kill_shell: {e}"), None))?;
        match killed {
            Ok(status) => {
                let structured = json!({"shell_id": args.shell_id, "status": status});
                let text = format!("{}: {}", args.shell_id, status_line(status, true));
                Ok(with_structured(
                    CallToolResult::success(vec![ContentBlock::text(text)]),
                    structured,
                ))
            }
            Err(why) => Ok(error_result(&why)),
        }
    }

    /// `list_shells`: this server's background shells.
    #[tool(
        name = "list_shells",
        description = "List this server's background shells: {\"shells\": [{\"shell_id\", \
            \"command\", \"description\", \"pid\", \"status\", \"ended\", \"elapsed_secs\", \
            \"deadline_secs\", \"output_bytes\"}]}.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    pub async fn list_shells(
        &self,
        Parameters(_args): Parameters<ListShells>,
    ) -> Result<CallToolResult, ErrorData> {
        let shells: Vec<Value> = self
            .shells
            .list()
            .into_iter()
            .map(|s| {
                json!({
                    "shell_id": s.id,
                    "command": s.command,
                    "description": s.description,
                    "pid": s.pid,
                    "status": s.status,
                    "ended": s.ended,
                    "elapsed_secs": s.elapsed_secs,
                    "deadline_secs": s.deadline_secs,
                    "output_bytes": s.output_bytes,
                })
            })
            .collect();
        let structured = json!({ "shells": shells });
        let text = structured.to_string();
        Ok(with_structured(
            CallToolResult::success(vec![ContentBlock::text(text)]),
            structured,
        ))
    }
}

impl BashgateServer {
    fn runner(&self, timeout: Duration, output_cap: Option<usize>) -> Runner {
        let mut options = RunOptions {
            timeout,
            sandbox: self.options.sandbox,
            ..RunOptions::default()
        };
        if let Some(cap) = output_cap {
            options.output_cap = cap;
        }
        Runner::new((*self.gate).clone(), options)
    }

    async fn run_in_foreground(
        &self,
        args: RunCommand,
        timeout: Duration,
        approval: Approval,
    ) -> Result<CallToolResult, ErrorData> {
        let runner = self.runner(timeout.min(MAX_TIMEOUT), None);
        let command = args.command.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let outcome = runner.run(&command, approval);
            (runner, outcome)
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("run_command: {e}"), None))?;
        match joined {
            (_, Err(e)) => Ok(error_result(&format!("the runner could not start it: {e}"))),
            (_, Ok(Outcome::Refused(verdict))) => Ok(refusal(&args.command, &verdict)),
            (runner, Ok(Outcome::Finished(done))) => {
                let text =
                    String::from_utf8_lossy(&done.render_text(runner.timeout())).into_owned();
                let mut structured = done.to_json();
                structured["ran"] = Value::Bool(true);
                Ok(with_structured(
                    CallToolResult::success(vec![ContentBlock::text(text)]),
                    structured,
                ))
            }
        }
    }

    async fn run_in_background(
        &self,
        args: RunCommand,
        timeout: Option<Duration>,
        approval: Approval,
    ) -> Result<CallToolResult, ErrorData> {
        let admission = match self.shells.admit() {
            Ok(admission) => admission,
            Err(why) => return Ok(error_result(&why)),
        };
        let limits = self.shells.limits();
        let deadline = timeout.unwrap_or(limits.deadline).min(limits.deadline);
        let runner = self.runner(DEFAULT_TIMEOUT, Some(limits.buffer_cap));
        let command = args.command.clone();
        let started = tokio::task::spawn_blocking(move || {
            runner.spawn_with_deadline(&command, approval, deadline)
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("run_command: {e}"), None))?;
        match started {
            Err(e) => Ok(error_result(&format!("the runner could not start it: {e}"))),
            Ok(Started::Refused(verdict)) => Ok(refusal(&args.command, &verdict)),
            Ok(Started::Running(job)) => {
                let pid = job.pid();
                let id =
                    self.shells
                        .insert(admission, *job, &args.command, &args.description, deadline);
                let structured = json!({
                    "shell_id": id,
                    "pid": pid,
                    "process_group": pid,
                    "status": {"state": "running"},
                    "deadline_secs": deadline.as_secs(),
                });
                let text = format!(
                    "started in the background: shell_id {id} (read_output to follow it, \
                     kill_shell to end it; killed after {}s)",
                    deadline.as_secs()
                );
                Ok(with_structured(
                    CallToolResult::success(vec![ContentBlock::text(text)]),
                    structured,
                ))
            }
        }
    }

    /// `cwd` made absolute against the project root.
    fn resolve_cwd(&self, cwd: &str) -> PathBuf {
        let root = &self.gate.policy().root;
        let joined = root.join(cwd);
        std::fs::canonicalize(&joined).unwrap_or(joined)
    }
}

/// The refusal for a verdict the runner itself refused (the command changed meaning
/// between the server's judgement and the run, e.g. a file appeared).
fn refusal(command: &str, verdict: &Verdict) -> CallToolResult {
    let why = match verdict.decision {
        Decision::Deny => Refusal::Denied,
        _ => Refusal::PermissionRequired,
    };
    ask::refused(command, verdict, why)
}

/// A tool-level error the agent reads (`isError: true`, the reason as text and as
/// `{"error": ...}`).
fn error_result(why: &str) -> CallToolResult {
    with_structured(
        CallToolResult::error(vec![ContentBlock::text(why.to_string())]),
        json!({ "error": why }),
    )
}

fn with_structured(mut result: CallToolResult, structured: Value) -> CallToolResult {
    result.structured_content = Some(structured);
    result
}

/// `running`, `exited 3`, `killed`, `timed out` ...
fn status_line(status: crate::exec::Status, ended: bool) -> String {
    use crate::exec::Status;
    match status {
        Status::Running if ended => "ended".into(),
        Status::Running => "running".into(),
        Status::Exited(code) => format!("exited {code}"),
        Status::Signaled(signal) => format!("died of signal {signal}"),
        Status::Killed => "killed".into(),
        Status::TimedOut => "timed out".into(),
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for BashgateServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("bashgate", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}
