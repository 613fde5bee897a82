//! The built-in lists of the path policy: files always safe to name, sensitive
//! places under the home directory, and `.env` templates that hold no secrets.

/// Files that are always safe to name.
pub const SAFE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/stdin",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
    "/dev/tty",
];

/// Sensitive paths under the home directory (the user can add, not remove).
pub const SENSITIVE_IN_HOME: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".gpg",
    ".aws",
    ".config/gcloud",
    ".kube",
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".config/fish/config.fish",
    ".inputrc",
];

/// `.env` templates that hold no secrets by convention.
pub const ENV_TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template", ".env.dist"];

/// Agents' settings files, under the project root and under the home folder:
/// where the gate's hook is installed (`bashgate install`) and where an agent
/// keeps its permissions, its hooks and the MCP servers it starts (commands it
/// runs later). Writing one can take the gate out or let the agent allow itself
/// anything, so the gate denies it, as it denies writing `bashgate.toml`.
pub const AGENT_SETTINGS: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".mcp.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/mcp.json",
    ".cursor/hooks.json",
    ".vscode/mcp.json",
];

/// Agents' settings files in the home folder only.
pub const USER_AGENT_SETTINGS: &[&str] = &[".claude.json"];
