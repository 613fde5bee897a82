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

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod catalogue;
pub mod command;
mod fastpath;
mod gate;
pub mod inspect;
pub mod nested;
pub mod parse;
pub mod path_roles;
pub mod paths;
pub mod permission;
pub mod policy;
pub mod report;
pub mod rules;
pub mod script;
pub mod transcripts;
pub mod verdict;
pub mod word;
pub mod wrappers;

pub use gate::{Gate, GateBuilder};
pub use inspect::{Inspection, ProgramStart};
pub use policy::{ConfigError, Mode, Policy};
pub use rules::Rule;
pub use verdict::{Capability, Decision, Finding, Span, Verdict};
