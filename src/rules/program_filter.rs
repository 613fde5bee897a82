//! A check's program filter: the program names a check can ever match, gathered
//! once from the check's own table, so that a command running any other program
//! skips the check before its arguments are read. Most commands run a program no
//! table names (`ls`, `cat`, `cargo`), and a check that scans a long table for
//! each of them spends more than the whole walk.
//!
//! The filter only ever lets more through than the check matches: names compare
//! as the checks compare them (basename, `.exe` stripped, any case), and a command
//! whose program is not a static word always reaches the check (fail closed).

use crate::catalogue::name_hash::{SLOT_BITS, first_slot};
use crate::catalogue::program_basename;
use crate::model::command::{SimpleCommand, basename};
use std::sync::OnceLock;

/// Longest name the filter lowercases on the stack; a longer one may match.
const LONGEST: usize = 64;

/// One bit per hash slot.
const WORDS: usize = (1 << SLOT_BITS) / 64;

/// The programs a check can match, as a bitmap of their hashes built on first
/// use from `names`: a name whose bit is clear is none of them; a set bit means
/// it may be one (a rare collision only costs running the check). Building it
/// allocates nothing but the list `names` returns, so a one-command process (a
/// hook) pays little for it.
pub struct ProgramFilter {
    /// The check's program names as its table spells them.
    names: fn() -> Vec<&'static str>,
    /// Bit `first_slot(lowercase name)` set for each name.
    bits: OnceLock<[u64; WORDS]>,
}

/// The hash slot of `name` lowercased; `None` for a name too long to lowercase
/// on the stack.
fn slot(name: &str) -> Option<usize> {
    let bytes = name.as_bytes();
    let mut lower = [0u8; LONGEST];
    let lower = lower.get_mut(..bytes.len())?;
    for (to, from) in lower.iter_mut().zip(bytes) {
        *to = from.to_ascii_lowercase();
    }
    Some(first_slot(lower) % (1 << SLOT_BITS))
}

impl ProgramFilter {
    /// A filter over the names `names` returns (called once, on first use).
    pub const fn new(names: fn() -> Vec<&'static str>) -> ProgramFilter {
        ProgramFilter {
            names,
            bits: OnceLock::new(),
        }
    }

    fn bits(&self) -> &[u64; WORDS] {
        self.bits.get_or_init(|| {
            let mut bits = [0u64; WORDS];
            for name in (self.names)() {
                match slot(name) {
                    Some(at) => bits[at / 64] |= 1 << (at % 64),
                    // A name too long to hash here: every name may match.
                    None => return [u64::MAX; WORDS],
                }
            }
            bits
        })
    }

    /// True when `program` (a basename, `.exe` stripped) may be one of the names,
    /// in any case; false only when it is none of them.
    pub fn contains(&self, program: &str) -> bool {
        match slot(program) {
            Some(at) => self.bits()[at / 64] & (1 << (at % 64)) != 0,
            None => true,
        }
    }

    /// True unless `cmd` runs a static program that is none of the names: a
    /// command with no program word, or a dynamic one, may match.
    pub fn may_match(&self, cmd: &SimpleCommand) -> bool {
        match cmd.name_str() {
            Some(name) => self.contains(program_basename(basename(name))),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::command::{Context, Origin};
    use crate::model::word::Word;
    use crate::verdict::Span;

    static FILTER: ProgramFilter = ProgramFilter::new(|| vec!["git", "Docker", "kubectl", "git"]);

    #[test]
    fn names_match_in_any_case_folder_and_exe() {
        for name in ["git", "GIT", "docker", "DOCKER.EXE", "kubectl"] {
            assert!(FILTER.contains(program_basename(basename(name))), "{name}");
        }
        // No collision among these few (the filter may only ever say "may").
        for name in ["", "gi", "gitx", "ls", "dockerd"] {
            assert!(!FILTER.contains(name), "{name}");
        }
        let long = "x".repeat(LONGEST + 1);
        assert!(FILTER.contains(&long), "a name too long to hash may match");
    }

    fn command(words: &[Word]) -> SimpleCommand {
        let mut cmd = SimpleCommand::new(Origin::Simple, Span::new(0, 0), Context::default());
        cmd.words = words.to_vec();
        cmd.program = (!words.is_empty()).then_some(0);
        cmd
    }

    #[test]
    fn commands_of_other_programs_are_filtered_out() {
        assert!(FILTER.may_match(&command(&[Word::literal("/usr/bin/git", Span::new(0, 12))])));
        assert!(FILTER.may_match(&command(&[Word::literal(
            "C:\\bin\\Git.exe",
            Span::new(0, 14)
        )])));
        assert!(!FILTER.may_match(&command(&[Word::literal("ls", Span::new(0, 2))])));
    }

    #[test]
    fn commands_without_a_static_program_are_never_filtered_out() {
        assert!(FILTER.may_match(&command(&[])));
    }
}
