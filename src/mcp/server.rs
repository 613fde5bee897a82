//! [`BashgateServer`]: the MCP tool handler over one [`Gate`].

use super::tools::CheckCommand;
use crate::{Gate, report};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use std::path::PathBuf;
use std::sync::Arc;

/// What the server tells the agent about itself at initialisation.
const INSTRUCTIONS: &str = "bashgate judges bash commands before they run. \
    check_command returns the verdict (allow / ask / deny) with findings: rule code, \
    byte span, reason. Treat ask as needing the user's approval and deny as final.";

/// The MCP server: the tools over one gate. Cheap to clone (the gate is shared).
#[derive(Clone)]
pub struct BashgateServer {
    gate: Arc<Gate>,
    tool_router: ToolRouter<BashgateServer>,
}

impl std::fmt::Debug for BashgateServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BashgateServer").finish_non_exhaustive()
    }
}

#[tool_router(router = tool_router)]
impl BashgateServer {
    /// A server judging with `gate`.
    pub fn new(gate: Gate) -> BashgateServer {
        BashgateServer {
            gate: Arc::new(gate),
            tool_router: Self::tool_router(),
        }
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
}

impl BashgateServer {
    /// `cwd` made absolute against the project root.
    fn resolve_cwd(&self, cwd: &str) -> PathBuf {
        let root = &self.gate.policy().root;
        let joined = root.join(cwd);
        std::fs::canonicalize(&joined).unwrap_or(joined)
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
