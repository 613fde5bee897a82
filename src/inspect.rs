//! [`Inspection`]: a verdict together with every program the gate saw start. The
//! verdict says what the gate decided; the program list says what it *looked at*, so
//! a test can run the command under real bash and prove that nothing started which
//! the gate never saw.

use crate::model::command::{SimpleCommand, basename};
use crate::verdict::{Span, Verdict};

/// The gate's verdict and the programs behind it.
///
/// ```
/// use bashgate::Gate;
/// let gate = Gate::builder().root("/project").build()?;
/// let seen = gate.inspect("find . -name x -exec rm {} ;", None);
/// assert!(seen.saw_program("find") && seen.saw_program("rm"));
/// # Ok::<(), bashgate::ConfigError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Inspection {
    /// The verdict, exactly as [`crate::Gate::check_in`] returns it.
    pub verdict: Verdict,
    /// Every program at a command position, wrappers (`sudo`, `env`, `xargs`...) and
    /// embedded commands (`find -exec`) included, in walk order.
    pub programs: Vec<ProgramStart>,
}

/// One program the gate saw start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramStart {
    /// The program word's static value as written (`/usr/bin/rm`, `./x.sh`, `rm`);
    /// `None` when it is only known at run time.
    pub name: Option<String>,
    /// Where the program word stands in the original command.
    pub span: Span,
    /// True for a wrapper the gate passed through to reach the real program.
    pub wrapper: bool,
}

impl ProgramStart {
    /// The name without its folder (`/usr/bin/rm` → `rm`): what `execve` shows as the
    /// file's last component.
    pub fn basename(&self) -> Option<&str> {
        self.name.as_deref().map(basename)
    }
}

impl Inspection {
    /// Collects the programs of the walked `commands`.
    pub(crate) fn new(verdict: Verdict, commands: &[SimpleCommand]) -> Inspection {
        let mut programs = Vec::new();
        for cmd in commands {
            for &i in &cmd.wrappers {
                if let Some(word) = cmd.words.get(i) {
                    programs.push(ProgramStart {
                        name: word.static_value(),
                        span: word.span,
                        wrapper: true,
                    });
                }
            }
            if let Some(word) = cmd.name() {
                programs.push(ProgramStart {
                    name: word.static_value(),
                    span: word.span,
                    wrapper: false,
                });
            }
        }
        Inspection { verdict, programs }
    }

    /// True when the gate saw a program whose basename is `name`.
    pub fn saw_program(&self, name: &str) -> bool {
        self.programs.iter().any(|p| p.basename() == Some(name))
    }
}
