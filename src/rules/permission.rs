//! BG209: the user's permission rules (and strict mode's allow-list).

use crate::declare_rule;
use crate::model::command::{Origin, SimpleCommand};
use crate::policy::permission::best_match;
use crate::policy::{Mode, PermissionRule};
use crate::rules::{
    Rule, denylist, destructive, environment, inline_script, nested_shell, network, rm,
};
use crate::verdict::{Decision, Finding};

declare_rule! {
    /// ## What it does
    /// Applies the permission rules of `[permission.bash]` in `bashgate.toml` to each
    /// simple command, wherever it stands (in a pipeline, after `&&`, inside
    /// `bash -c` or `$(...)`, behind `sudo`/`env`/`timeout`):
    ///
    /// ```toml
    /// [permission.bash]
    /// "git push *" = "ask"
    /// "npm run *" = "allow"
    /// "rm -rf build/*" = "allow"
    /// "terraform *" = "deny"
    /// ```
    ///
    /// Patterns match the normalised command: the program (`/bin/rm` is `rm`) and
    /// its arguments joined by single spaces; `*` matches any run of characters and a
    /// trailing ` *` also matches nothing. A dynamic argument can only be covered by
    /// a `*`. The most specific pattern (most literal characters) wins; ties go to
    /// the later one. `ask` and `deny` add this finding. `allow` lowers that
    /// command's gate findings (rm, nested scripts, inline code, network, denylist,
    /// secret reads) to allow — never path escapes, parse failures, dynamic program
    /// names, privilege escalation, loader variables or catastrophic deletes.
    ///
    /// In strict mode every program start that no `allow` rule (or the built-in
    /// strict preset: `npm|pnpm run *`, `yarn *`, `cargo run|test|build|check|clippy|fmt|watch *`,
    /// `go run|test|build|vet *`, `dotnet run|test|build|watch *`, `make *`,
    /// `git status|diff|log|show *`, and read-only basics such as `ls`, `cat`,
    /// `grep`, `pwd`, `echo`) covers asks with this rule.
    ///
    /// ## Why
    /// Projects differ: one needs `curl`, another wants every `git push` confirmed.
    /// Rules over the parsed command survive chaining, wrapping and quoting tricks
    /// that defeat prefix matching on the raw text.
    ///
    /// ## Example
    /// - with `"git push *" = "ask"`: `git status && git push --force` → ask
    /// - with `"git push *" = "ask"`: `git status` → allow
    pub static PERMISSION_RULE = {
        code: "BG209",
        name: "permission-rule",
        default: Ask,
        capability: DynamicCommand,
        summary: "a permission rule (or strict mode's allow-list) decided this command",
    };
}

/// Rules whose findings a user `allow` rule may lower for the command that produced
/// them: the command gates. Path escapes and parse failures are never lowered.
static LOWERABLE: &[&Rule] = &[
    &denylist::DENYLISTED_EXECUTABLE,
    &rm::RM_GATE,
    &nested_shell::NESTED_SHELL,
    &inline_script::INLINE_SCRIPT,
    &network::NETWORK_TOOL,
    &destructive::DESTRUCTIVE,
    &environment::SECRET_ENV_READ,
];

/// Strict mode's built-in allow-list.
pub const STRICT_PRESET: &[&str] = &[
    "npm run *",
    "pnpm run *",
    "yarn *",
    "cargo run *",
    "cargo test *",
    "cargo build *",
    "cargo check *",
    "cargo clippy *",
    "cargo fmt *",
    "cargo watch *",
    "go run *",
    "go test *",
    "go build *",
    "go vet *",
    "dotnet run *",
    "dotnet test *",
    "dotnet build *",
    "dotnet watch *",
    "make *",
    "git status *",
    "git diff *",
    "git log *",
    "git show *",
    "ls *",
    "cat *",
    "head *",
    "tail *",
    "wc *",
    "grep *",
    "rg *",
    "pwd",
    "echo *",
    "printf *",
    "which *",
    "true",
    "false",
    "test *",
    "cd *",
    "sort *",
    "uniq *",
    "diff *",
];

/// Applies permission rules and the mode to the findings one command produced
/// (`findings` holds only that command's findings).
pub fn apply(
    cmd: &SimpleCommand,
    rules: &[PermissionRule],
    mode: Mode,
    findings: &mut Vec<Finding>,
    source: &str,
) {
    let starts_program =
        cmd.program.is_some() && matches!(cmd.origin, Origin::Simple | Origin::Embedded(_));
    if !starts_program {
        return;
    }
    let user = best_match(rules, cmd);
    match user.map(|r| r.decision) {
        Some(Decision::Allow) => {
            let pattern = user.map(|r| r.pattern.as_str()).unwrap_or("");
            for f in findings.iter_mut() {
                let catastrophic = f.rule == rm::RM_GATE.code && f.decision == Decision::Deny;
                if LOWERABLE.iter().any(|r| r.code == f.rule) && !catastrophic {
                    f.decision = Decision::Allow;
                    f.message
                        .push_str(&format!(" (allowed by the permission rule \"{pattern}\")"));
                }
            }
        }
        Some(decision) => {
            let pattern = user.map(|r| r.pattern.as_str()).unwrap_or("");
            let mut f = crate::rules::finding(
                &PERMISSION_RULE,
                cmd.span,
                source,
                format!("the permission rule \"{pattern}\" says {decision}"),
            );
            f.decision = decision;
            findings.push(f);
        }
        None if mode == Mode::Strict => {
            let preset: Vec<PermissionRule> = STRICT_PRESET
                .iter()
                .map(|p| PermissionRule {
                    pattern: (*p).to_string(),
                    decision: Decision::Allow,
                })
                .collect();
            if best_match(&preset, cmd).is_none() {
                findings.push(crate::rules::finding(
                    &PERMISSION_RULE,
                    cmd.name().map(|w| w.span).unwrap_or(cmd.span),
                    source,
                    "strict mode: no allow rule covers this command".into(),
                ));
            }
        }
        None => {}
    }
}
