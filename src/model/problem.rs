//! What the model could not turn into records, as data: parse problems of the command
//! or of a nested script, nesting past the limit, a brace expansion too large to
//! analyse. The input rules turn each into a finding; the model knows no rule.

pub use crate::parse::ProblemKind;
use crate::verdict::Span;

/// Something the model could not analyse fully; never harmless.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The parser reported a problem (in the command, or in a nested script when
    /// `nested` is true), at `span` of the original command.
    Parse {
        /// What the parser found.
        kind: ProblemKind,
        /// Where, in the original command.
        span: Span,
        /// In a nested script (`bash -c '…'`), not the command itself.
        nested: bool,
    },
    /// The parser produced no tree at all.
    Unparsed {
        /// The text that could not be parsed.
        span: Span,
        /// In a nested script.
        nested: bool,
    },
    /// Scripts nested in scripts deeper than the limit: the inner one was not
    /// analysed.
    NestingLimit {
        /// The script that was not analysed.
        span: Span,
        /// The limit.
        limit: u32,
    },
    /// A body that runs more than once (a loop, a function at its calls) kept
    /// changing what the gate knows after every pass it followed, or the command
    /// asked for more repeated walking than the budget: later passes were not
    /// analysed.
    RepeatLimit {
        /// The loop, or the call.
        span: Span,
    },
    /// A static brace list too large or deep to expand could hide any word.
    BraceTooLarge {
        /// The word.
        span: Span,
    },
}
