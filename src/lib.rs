//! bashgate decides whether a bash command an AI coding agent wants to run may run.
//!
//! It parses the command into a real bash syntax tree (tree-sitter-bash), walks every
//! place where a program starts, a path is named or a file is written, and returns a
//! [`Verdict`]: allow, ask or deny, with [`Finding`]s that say which rule fired,
//! where (a byte span) and why. Anything it does not understand is never allowed.
//!
//! ```
//! use bashgate::{Decision, Gate};
//! let gate = Gate::builder().root(".").build()?;
//! let verdict = gate.check("bash -c \"sudo reboot\"");
//! assert_eq!(verdict.decision, Decision::Deny);
//! assert!(verdict.has_rule("BG207"));
//! # Ok::<(), bashgate::ConfigError>(())
//! ```

//! ## Layers
//!
//! Data flows one way: the CLI calls the [`Gate`]; the gate builds the model of the
//! command (`model`: parse, walk, records), runs the rules over its records, and folds
//! their findings into a verdict. Rules read the model and ask the policy where paths
//! lie; the policy uses the model's path resolver; the model uses the parser. No layer
//! reaches back up.

// One audited function may use unsafe code: the runner's `pre_exec` resource
// limits (src/exec/limits.rs explains why).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod catalogue;
mod config_examples;
#[cfg(feature = "exec")]
pub mod exec;
mod file_access;
mod gate;
mod inspect;
#[cfg(feature = "mcp")]
pub mod mcp;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod parse;
mod policy;
pub mod report;
mod rules;
#[cfg(feature = "transcripts")]
pub mod transcripts;
mod verdict;

pub use gate::{Gate, GateBuilder};
pub use inspect::{Inspection, ProgramStart};
pub use model::path_roles::Access;
pub use policy::sandbox::{Limits, Network, SandboxPolicy, Toolchain};
pub use policy::user_config_path;
pub use policy::{
    AGENT_SETTINGS, BASH_TOOL_DENYLIST, ConfigError, ConfigErrorKind, Mode, Policy, Preset,
    USER_AGENT_SETTINGS,
};
/// The one list of places whose content runs later outside the gate (BG217).
pub use rules::persistence::{
    PERSISTENCE_PLACES, PersistencePlace, Shape as PlaceShape, When as PlaceWhen,
};
pub use rules::remote_effect::may_act_remotely;
pub use rules::{MAX_FINDING_TEXT, RULES, Rule};
pub use verdict::{Capability, Decision, Finding, MAX_FINDINGS, Span, Verdict};
