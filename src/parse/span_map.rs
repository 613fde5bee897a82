//! Where the positions of a nested script's text are in the original command.

use crate::verdict::Span;

/// How positions in a nested script map to the original command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanMap {
    /// Byte `p` of the nested text is byte `base + p` of the original, up to `end`.
    Offset {
        /// Where the nested text starts in the original.
        base: usize,
        /// Where it ends.
        end: usize,
    },
    /// The nested text is not a byte-for-byte copy (escapes were decoded): every
    /// span maps to this span of the original.
    Whole(Span),
}

impl SpanMap {
    /// The identity map for a text of `len` bytes.
    pub fn identity(len: usize) -> SpanMap {
        SpanMap::Offset { base: 0, end: len }
    }

    /// The map of the part `start..end` of the nested text, parsed alone (a
    /// function's body walked again at a call).
    pub fn within(&self, start: usize, end: usize) -> SpanMap {
        match *self {
            SpanMap::Offset { base, end: limit } => SpanMap::Offset {
                base: (base + start).min(limit),
                end: (base + end).min(limit),
            },
            SpanMap::Whole(span) => SpanMap::Whole(span),
        }
    }

    /// Maps a span of the nested text to the original.
    pub fn map(&self, start: usize, end: usize) -> Span {
        match *self {
            SpanMap::Offset { base, end: limit } => Span::new(
                (base + start).min(limit),
                (base + end).min(limit).max((base + start).min(limit)),
            ),
            SpanMap::Whole(span) => span,
        }
    }
}
