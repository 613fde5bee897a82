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
