//! A check's program filter: the program names a check can ever match, gathered
//! once from the check's own table, so that a command running any other program
//! skips the check before its arguments are read. Most commands run a program no
//! table names (`ls`, `cat`, `cargo`), and a check that scans a long table for
//! each of them spends more than the whole walk.
//!
//! The filter only ever lets more through than the check matches: names compare
//! as the checks compare them (basename, `.exe` stripped, any case), and a command
//! whose program is not a static word always reaches the check (fail closed).

use crate::catalogue::program_basename;
use crate::model::command::{SimpleCommand, basename};
use std::sync::OnceLock;

/// The programs a check can match, built on first use from `names`.
pub struct ProgramFilter {
    /// The check's program names as its table spells them.
    names: fn() -> Vec<&'static str>,
    /// Those names lowercased, sorted and without repeats.
    sorted: OnceLock<Vec<String>>,
}

impl ProgramFilter {
    /// A filter over the names `names` returns (called once, on first use).
    pub const fn new(names: fn() -> Vec<&'static str>) -> ProgramFilter {
        ProgramFilter {
            names,
            sorted: OnceLock::new(),
        }
    }

    fn sorted(&self) -> &[String] {
        self.sorted.get_or_init(|| {
            let mut names: Vec<String> = (self.names)()
                .into_iter()
                .map(str::to_ascii_lowercase)
                .collect();
            names.sort_unstable();
            names.dedup();
            names
        })
    }

    /// True when `program` (a basename, `.exe` stripped) is one of the names, in
    /// any case.
    pub fn contains(&self, program: &str) -> bool {
        self.sorted()
            .binary_search_by(|probe| {
                probe
                    .bytes()
                    .cmp(program.bytes().map(|b| b.to_ascii_lowercase()))
            })
            .is_ok()
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
        for name in ["", "gi", "gitx", "ls", "dockerd"] {
            assert!(!FILTER.contains(name), "{name}");
        }
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
