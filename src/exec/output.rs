//! Merged output with bounded memory. The command's stdout and stderr share one
//! pipe, so their bytes arrive in the order they were written. Two bounded views are
//! kept while the pipe is read:
//!
//! - [`Capture`]: what a finished command reports — the first half of the cap and the
//!   last half, with a marker between them that says how many bytes were left out;
//! - [`Unread`]: what a background command's caller has not read yet — the newest
//!   bytes up to the cap; older unread bytes are dropped and counted.
//!
//! Neither ever holds more than its cap, whatever the command prints.

use std::collections::VecDeque;

/// Default output cap: 100 KiB, as agents' Bash tools use.
pub const DEFAULT_OUTPUT_CAP: usize = 100 * 1024;

/// The head and tail of everything the command printed, within a byte cap.
#[derive(Debug)]
pub struct Capture {
    cap: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    dropped: u64,
}

impl Capture {
    /// An empty capture keeping at most `cap` bytes.
    pub fn new(cap: usize) -> Capture {
        Capture {
            cap,
            head: Vec::new(),
            tail: VecDeque::new(),
            dropped: 0,
        }
    }

    /// Adds bytes as they arrive.
    pub fn push(&mut self, mut bytes: &[u8]) {
        let head_cap = self.cap / 2;
        if self.head.len() < head_cap {
            let take = bytes.len().min(head_cap - self.head.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        let tail_cap = self.cap - head_cap;
        if bytes.len() >= tail_cap {
            self.dropped += (self.tail.len() + bytes.len() - tail_cap) as u64;
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - tail_cap..]);
            return;
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(tail_cap);
        self.tail.drain(..overflow);
        self.dropped += overflow as u64;
        self.tail.extend(bytes);
    }

    /// Bytes left out so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The kept bytes, with the truncation marker between head and tail when bytes
    /// were left out.
    pub fn render(&self) -> Vec<u8> {
        let mut out = self.head.clone();
        if self.dropped > 0 {
            if !out.ends_with(b"\n") && !out.is_empty() {
                out.push(b'\n');
            }
            out.extend_from_slice(truncation_marker(self.cap, self.dropped).as_bytes());
            out.push(b'\n');
        }
        out.extend(self.tail.iter());
        out
    }
}

/// The line put where output was left out.
pub fn truncation_marker(cap: usize, dropped: u64) -> String {
    format!("[bashgate: output capped at {cap} bytes; {dropped} bytes left out here]")
}

/// Output a background command's caller has not read yet, newest bytes kept.
#[derive(Debug)]
pub struct Unread {
    cap: usize,
    bytes: VecDeque<u8>,
    dropped: u64,
}

/// New output taken from a background command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputChunk {
    /// The bytes, in the order they were written (stdout and stderr merged).
    pub bytes: Vec<u8>,
    /// Bytes written since the previous read that were dropped before this one
    /// because the caller read too slowly (they came before `bytes`).
    pub dropped: u64,
}

impl Unread {
    /// An empty buffer keeping at most `cap` unread bytes.
    pub fn new(cap: usize) -> Unread {
        Unread {
            cap,
            bytes: VecDeque::new(),
            dropped: 0,
        }
    }

    /// Adds bytes as they arrive, dropping the oldest unread ones over the cap.
    pub fn push(&mut self, bytes: &[u8]) {
        let bytes = if bytes.len() > self.cap {
            self.dropped += (bytes.len() - self.cap) as u64;
            &bytes[bytes.len() - self.cap..]
        } else {
            bytes
        };
        let overflow = (self.bytes.len() + bytes.len()).saturating_sub(self.cap);
        self.bytes.drain(..overflow);
        self.dropped += overflow as u64;
        self.bytes.extend(bytes);
    }

    /// Takes everything unread and the count of bytes dropped since the last take.
    pub fn take(&mut self) -> OutputChunk {
        OutputChunk {
            bytes: self.bytes.drain(..).collect(),
            dropped: std::mem::take(&mut self.dropped),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_keeps_everything_under_the_cap() {
        let mut c = Capture::new(10);
        c.push(b"abc");
        c.push(b"defgh");
        assert_eq!(c.render(), b"abcdefgh");
        assert_eq!(c.dropped(), 0);
    }

    #[test]
    fn capture_keeps_head_and_tail_and_counts_the_rest() {
        let mut c = Capture::new(10);
        for chunk in b"0123456789abcdefghij".chunks(3) {
            c.push(chunk);
        }
        assert_eq!(c.dropped(), 10);
        let text = String::from_utf8(c.render()).unwrap();
        assert!(
            text.starts_with(
                "01234\n[bashgate: output capped at 10 bytes; 10 bytes left out here]\n"
            )
        );
        assert!(text.ends_with("fghij"), "{text}");
    }

    #[test]
    fn capture_of_one_huge_write_stays_bounded() {
        let mut c = Capture::new(100);
        c.push(&vec![b'x'; 1_000_000]);
        assert_eq!(c.dropped(), 1_000_000 - 100);
        assert!(c.render().len() < 200);
    }

    #[test]
    fn unread_drops_oldest_and_reports_it_once() {
        let mut u = Unread::new(4);
        u.push(b"abc");
        u.push(b"def");
        let chunk = u.take();
        assert_eq!(chunk.bytes, b"cdef");
        assert_eq!(chunk.dropped, 2);
        u.push(b"g");
        assert_eq!(
            u.take(),
            OutputChunk {
                bytes: b"g".to_vec(),
                dropped: 0
            }
        );
        u.push(b"0123456789");
        assert_eq!(
            u.take(),
            OutputChunk {
                bytes: b"6789".to_vec(),
                dropped: 6
            }
        );
    }
}
