//! Judging a config's example commands (`match`, `not_match`) when the gate is
//! built: an example that decides otherwise is a [`ConfigError`] naming it, so a
//! policy that no longer does what its author wrote down never yields a gate. What
//! each kind of example must do is documented with the examples
//! (`src/policy/examples.rs`) and in the README.

use crate::gate::Gate;
use crate::policy::ConfigError;
use crate::policy::examples::{Example, Expect, Subject};
use crate::policy::permission::best_match;
use crate::verdict::{Decision, Verdict};

impl Gate {
    /// Judges every example command of the policy's config files; the first that
    /// decides otherwise is an error naming it (file, line, key and command).
    /// [`crate::GateBuilder::build`] calls this; a gate made with [`Gate::new`]
    /// from a policy loaded by hand can call it too.
    ///
    /// ```
    /// use bashgate::{ConfigErrorKind, Gate, Policy};
    /// let mut policy = Policy::new(".");
    /// let text = "[programs.deploy]\nsummary = \"deploys\"\nfacts = [\"network\"]\n\
    ///             not_match = [\"deploy --dry-run\"]\n";
    /// policy.apply_toml(text, "bashgate.toml".as_ref())?;
    /// let error = Gate::new(policy).check_examples().unwrap_err();
    /// assert_eq!(error.kind, ConfigErrorKind::FailedExample);
    /// assert_eq!(error.line, Some(4));
    /// # Ok::<(), bashgate::ConfigError>(())
    /// ```
    pub fn check_examples(&self) -> Result<(), ConfigError> {
        self.policy()
            .examples
            .iter()
            .try_for_each(|example| self.check_example(example))
    }

    fn check_example(&self, example: &Example) -> Result<(), ConfigError> {
        let (verdict, commands) = self.judge_with_commands(&example.command);
        match &example.subject {
            Subject::Program(name) => {
                let starts = commands.iter().any(|cmd| {
                    cmd.program_str()
                        .and_then(|p| self.policy().programs.lookup(p))
                        .is_some_and(|e| e.name == name)
                });
                if !starts {
                    return Err(example.error(&format!("does not start `{name}`")));
                }
                match (example.expect, verdict.decision) {
                    (Expect::Match, Decision::Allow) => {
                        Err(example
                            .error("is allowed; a `match` example must be caught (ask or deny)"))
                    }
                    (Expect::NotMatch, decision) if decision != Decision::Allow => Err(example
                        .error(&format!(
                            "decides {decision} ({}); a `not_match` example must be allowed",
                            rules_of(&verdict)
                        ))),
                    _ => Ok(()),
                }
            }
            Subject::Permission(rule) => {
                let permissions = &self.policy().permissions;
                let decides = commands.iter().any(|cmd| {
                    best_match(permissions, cmd).is_some_and(|best| best.pattern == rule.pattern)
                });
                match example.expect {
                    Expect::Match if !decides => Err(example.error(&format!(
                        "is not decided by the rule \"{}\" (no simple command matches it, \
                         or a more specific rule wins)",
                        rule.pattern
                    ))),
                    Expect::Match if verdict.decision != rule.decision => {
                        Err(example.error(&format!(
                            "decides {} ({}), not the rule's {}",
                            verdict.decision,
                            rules_of(&verdict),
                            rule.decision
                        )))
                    }
                    Expect::NotMatch if decides => {
                        Err(example.error(&format!("is decided by the rule \"{}\"", rule.pattern)))
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// The rule codes of a verdict's findings that are not allow, for messages.
fn rules_of(verdict: &Verdict) -> String {
    let codes: Vec<&str> = verdict
        .findings
        .iter()
        .filter(|f| f.decision != Decision::Allow)
        .map(|f| f.rule)
        .collect();
    if codes.is_empty() {
        "no findings".into()
    } else {
        codes.join(", ")
    }
}
