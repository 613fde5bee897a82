//! The policy as a macOS sandbox profile (SBPL), printed by
//! `bashgate exec --print-profile macos`. The runner does not use it yet and it is
//! untested on macOS; it is generated so the mapping can be reviewed and pinned.
//!
//! The mapping mirrors the Landlock ruleset: deny by default; read everywhere the
//! system needs to start programs; read-write beneath the root, `allowed_paths` and
//! the private folders; read-only beneath `read_only_paths` and toolchain homes;
//! network outbound only as the policy allows; unix sockets only with
//! `unix_sockets = "on"`.

use crate::Policy;
use crate::policy::sandbox::{Network, UnixSockets};
use std::fmt::Write as _;
use std::path::Path;

/// System locations a macOS program needs to start.
const MACOS_SYSTEM_READ_ONLY: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/System",
    "/Library",
    "/opt/homebrew",
    "/private/etc",
    "/private/var/db/timezone",
    "/dev",
];

/// SBPL string literal: backslashes and quotes escaped.
fn quoted(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The profile text for `policy`; `private` is the folder holding the private HOME
/// and TMPDIR (a parameter, since it is created per run).
///
/// ```
/// let policy = bashgate::Policy::new("/srv/project");
/// let text = bashgate::exec::profile_macos::render(&policy, "/tmp/bashgate-exec".as_ref());
/// assert!(text.starts_with("(version 1)\n(deny default)\n"));
/// assert!(text.contains("(subpath \"/srv/project\")"));
/// ```
pub fn render(policy: &Policy, private: &Path) -> String {
    let mut out = String::from("(version 1)\n(deny default)\n");
    out.push_str(
        "(allow process-fork)\n(allow process-exec)\n(allow signal (target same-sandbox))\n",
    );
    out.push_str("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n");
    out.push_str("(allow file-read-metadata)\n");
    out.push_str("\n; system locations programs need to start\n(allow file-read*\n");
    for path in MACOS_SYSTEM_READ_ONLY {
        let _ = writeln!(out, "  (subpath {})", quoted(Path::new(path)));
    }
    out.push_str(
        ")\n(allow file-write-data\n  (literal \"/dev/null\")\n  (literal \"/dev/zero\"))\n",
    );
    out.push_str(
        "\n; project root, allowed paths, private HOME and TMPDIR\n(allow file-read* file-write*\n",
    );
    let _ = writeln!(out, "  (subpath {})", quoted(&policy.root));
    for path in &policy.allowed_paths {
        let _ = writeln!(out, "  (subpath {})", quoted(path));
    }
    let _ = writeln!(out, "  (subpath {}))", quoted(private));
    let mut read_only: Vec<std::path::PathBuf> = policy.read_only_paths.clone();
    if let Some(home) = &policy.home {
        for toolchain in &policy.sandbox.toolchains {
            read_only.extend(toolchain.home_folders().iter().map(|f| home.join(f)));
        }
    }
    if !read_only.is_empty() {
        out.push_str("\n; read-only paths and toolchain homes\n(allow file-read*\n");
        for path in &read_only {
            let _ = writeln!(out, "  (subpath {})", quoted(path));
        }
        out.push_str(")\n");
    }
    out.push_str("\n; network\n");
    match &policy.sandbox.network {
        Network::Off => out.push_str("(deny network*)\n"),
        Network::On => out.push_str("(allow network*)\n"),
        Network::Connect(ports) => {
            out.push_str("(allow network-outbound\n");
            for port in ports {
                let _ = writeln!(out, "  (remote tcp \"*:{port}\")");
            }
            out.push_str(")\n");
        }
    }
    // Later rules win: unix sockets follow their own key, whatever the network's.
    match policy.sandbox.unix_sockets {
        UnixSockets::Off if policy.sandbox.network != Network::Off => {
            out.push_str("(deny network* (remote unix-socket))\n");
        }
        UnixSockets::On => out.push_str("(allow network-outbound (remote unix-socket))\n"),
        UnixSockets::Off => {}
    }
    out
}
