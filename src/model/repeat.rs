//! Bodies that run more than once: a loop's body, and a function's body at every
//! call. What one pass leaves behind — a variable assigned, a link made, a file
//! written, the directory moved — is what the next pass starts from, so a command
//! harmless on the first pass may not be on the second: `c=true; for i in 1 2; do
//! $c; c=reboot; done` runs `reboot`, `for i in 1 2; do cat l/shadow; ln -s /etc l;
//! done` reads `/etc/shadow`.
//!
//! The walker walks such a body again while a pass changes what it knows (a
//! [`Mark`] taken before the pass is compared with the state after it). A body
//! whose pass changes nothing is walked once. After [`MAX_PASSES`] passes that
//! still change it, what keeps changing is widened to "known only at run time" and
//! the body is walked again ([`WIDENED_PASSES`]); if even that does not settle it,
//! or the walk has repeated more text than [`REPEAT_BUDGET`], the command asks
//! (BG002): a repetition the gate did not follow to its end is not one it allows.
//! A recursive function is not widened: past [`MAX_RUNS`] runs it asks.
//!
//! A trap's text is such a body too: set now, run at the end of the command (or
//! on a signal, at any point after): the walker walks it again at the end.

use super::dash_names::DashName;
use super::links::Link;
use super::scope::Scope;
use super::written;

/// Passes over a loop's body before what keeps changing is widened: the first,
/// and one from what it left (which sees every value the body assigns once).
pub(super) const MAX_PASSES: u32 = 2;

/// Runs of a recursive function's body, at most (not widened).
pub(super) const MAX_RUNS: usize = 4;

/// Passes after widening before the body is given up on: one to reach values
/// only known at run time, one to see that they stay so (a link to `$x` made
/// once `x` is unknown is a new link; the pass after makes the same one).
pub(super) const WIDENED_PASSES: u32 = 2;

/// Runs of trap texts at the end of one command, at most (a trap's text may set a
/// trap).
pub(super) const MAX_TRAP_RUNS: usize = 64;

/// Bytes of script walked again (loop passes after the first, function bodies
/// walked at their calls) in one command, at most: a bound on the work nested loops
/// and many calls can ask for.
pub(super) const REPEAT_BUDGET: usize = 256 * 1024;

/// What the walker knows at one point, as far as a later pass can see it.
#[derive(Clone, Debug)]
pub(super) struct Mark {
    /// The innermost scope: variables, directory, definitions.
    pub scope: Scope,
    /// Files written so far, with their texts.
    pub written: written::Files,
    /// Links made so far, in the order that decides which one a path goes through.
    pub links: Vec<Link>,
    /// Files named like options created so far.
    pub dash_named: Vec<DashName>,
}

/// The walker's state, borrowed: what a [`Mark`] is taken of and compared with.
pub(super) struct State<'a> {
    /// The innermost scope.
    pub scope: &'a Scope,
    /// Files written so far.
    pub written: &'a written::Files,
    /// Links made so far.
    pub links: &'a [Link],
    /// Files named like options created so far.
    pub dash_named: &'a [DashName],
}

impl Mark {
    /// A copy of `state`.
    pub fn of(state: State<'_>) -> Mark {
        Mark {
            scope: state.scope.clone(),
            written: state.written.clone(),
            links: state.links.to_vec(),
            dash_named: state.dash_named.to_vec(),
        }
    }

    /// True when `now` knows exactly what this mark knew: a pass that started
    /// here would do what the last one did.
    pub fn settled(&self, now: State<'_>) -> bool {
        self.links == now.links
            && self.dash_named.len() == now.dash_named.len()
            && self.written.same_as(now.written)
            && self.scope.same_as(now.scope)
    }
}

/// Adds links made by a command, each replacing an equal one made before (a pass
/// that makes the same links again leaves the list as it was).
pub(super) fn add_links(links: &mut Vec<Link>, made: Vec<Link>) {
    for link in made {
        links.retain(|l| *l != link);
        links.push(link);
    }
}

/// Adds files named like options, once each.
pub(super) fn add_dash_named(names: &mut Vec<DashName>, made: Vec<DashName>) {
    for name in made {
        if !names.contains(&name) {
            names.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Mark, State, add_links};
    use crate::model::links::{Link, known as link};
    use crate::model::scope::Scope;
    use crate::model::written::Files;
    use std::path::PathBuf;

    fn state<'a>(scope: &'a Scope, written: &'a Files, links: &'a [Link]) -> State<'a> {
        State {
            scope,
            written,
            links,
            dash_named: &[],
        }
    }

    #[test]
    fn making_the_same_links_again_leaves_the_list_as_it_was() {
        let mut links = Vec::new();
        add_links(&mut links, vec![link("/p/a", "/p/x"), link("/p/b", "/etc")]);
        let before = links.clone();
        add_links(&mut links, vec![link("/p/a", "/p/x"), link("/p/b", "/etc")]);
        assert_eq!(links, before);
        add_links(&mut links, vec![link("/p/a", "/p/y")]);
        assert_ne!(links, before);
    }

    #[test]
    fn a_pass_that_assigns_in_another_order_is_settled() {
        let mut scope = Scope::default();
        scope.set_var("a", Some("1".into()));
        scope.set_var("b", Some("2".into()));
        let written = Files::default();
        let mark = Mark::of(state(&scope, &written, &[]));
        // The next pass assigns the same values, `b` first: `b` moves last, then `a`.
        scope.set_var("b", Some("2".into()));
        scope.set_var("a", Some("1".into()));
        assert!(mark.settled(state(&scope, &written, &[])));
        scope.set_var("a", Some("3".into()));
        assert!(!mark.settled(state(&scope, &written, &[])));
    }

    #[test]
    fn a_link_or_a_file_text_is_a_change() {
        let scope = Scope::default();
        let mut written = Files::default();
        let mark = Mark::of(state(&scope, &written, &[]));
        assert!(!mark.settled(state(&scope, &written, &[link("/p/l", "/etc")])));
        written.note(PathBuf::from("/p/f"), Some("x".into()), false);
        assert!(!mark.settled(state(&scope, &written, &[])));
    }

    #[test]
    fn widening_forgets_what_changed_and_keeps_the_rest() {
        let mut before = Scope::default();
        before.set_var("x", Some("a".into()));
        before.set_var("keep", Some("k".into()));
        let mut after = before.clone();
        after.set_var("x", Some("a/a".into()));
        after.widen_from(&before);
        let widened = after.clone();
        after.set_var("x", None);
        assert!(after.same_as(&widened), "x is unknown after widening");
        let mut kept = widened.clone();
        kept.set_var("keep", Some("k".into()));
        assert!(kept.same_as(&widened), "keep kept its value");

        let mut files = Files::default();
        files.note(PathBuf::from("/p/log"), Some("a".into()), false);
        let old = files.clone();
        files.note(PathBuf::from("/p/log"), Some("b".into()), true);
        files.widen_from(&old);
        assert_eq!(files.get(&PathBuf::from("/p/log")), Some(&None));
    }
}
