//! Paths that name an open file descriptor instead of a file: `/dev/stdin`,
//! `/dev/fd/N`, `/proc/self/fd/N`. A program given one as its script (`bash
//! /dev/stdin`, `source /dev/fd/3`, `make -f /dev/stdin`) runs whatever feeds that
//! descriptor — a heredoc, a here-string, a pipe — so the script is that feed, not a
//! file the path rules can judge.

use super::command::{Heredoc, Redirect};
use super::word::Word;

/// The descriptor `path` names, when it names one: `/dev/stdin` (0), `/dev/stdout`
/// (1), `/dev/stderr` (2), `/dev/fd/N`, and `/proc/P/fd/N` for `self`,
/// `thread-self` or a numeric pid (the shell's own pid is only known at run time).
/// Spellings with extra slashes or `.` and `..` components count the same.
///
/// ## Example
/// `/dev//./stdin` → 0; `/proc/self/fd/3` → 3; `/dev/null` → none.
pub fn descriptor_named(path: &str) -> Option<u32> {
    if !path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    match parts.as_slice() {
        ["dev", "stdin"] => Some(0),
        ["dev", "stdout"] => Some(1),
        ["dev", "stderr"] => Some(2),
        ["dev", "fd", n] => number(n),
        ["proc", pid, "fd", n] if is_process(pid) => number(n),
        _ => None,
    }
}

fn number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn is_process(pid: &str) -> bool {
    matches!(pid, "self" | "thread-self") || number(pid).is_some()
}

/// What a command's redirects put on one of its descriptors.
#[derive(Debug)]
pub enum Feed<'a> {
    /// A heredoc.
    Heredoc(&'a Heredoc),
    /// A here-string's word.
    HereString(&'a Word),
    /// A file, another descriptor, or an output redirect: content the gate cannot see.
    Other,
    /// No redirect: whatever the command inherits (a pipe, the caller's stdin).
    Inherited,
}

/// What feeds descriptor `fd` of a command with `redirects`: the last redirect of
/// that descriptor wins, as in bash.
///
/// ## Example
/// `bash /dev/fd/3 3<<< 'ls'` → descriptor 3 is the here-string `'ls'`.
pub fn feed_of(fd: u32, redirects: &[Redirect]) -> Feed<'_> {
    let mut feed = Feed::Inherited;
    for redirect in redirects {
        let target_fd = match redirect.fd.as_deref() {
            Some(digits) => number(digits),
            None if redirect.operator.starts_with('<') => Some(0),
            None if redirect.operator.starts_with('&') => None,
            None => Some(1),
        };
        // `&>` and `&>>` write stdout and stderr.
        let both = redirect.fd.is_none() && redirect.operator.starts_with('&');
        if target_fd != Some(fd) && !(both && (fd == 1 || fd == 2)) {
            continue;
        }
        feed = match (
            &redirect.heredoc,
            redirect.operator.as_str(),
            &redirect.target,
        ) {
            (Some(heredoc), _, _) => Feed::Heredoc(heredoc),
            (None, "<<<", Some(word)) => Feed::HereString(word),
            _ => Feed::Other,
        };
    }
    feed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_spellings() {
        assert_eq!(descriptor_named("/dev/stdin"), Some(0));
        assert_eq!(descriptor_named("//dev/./stdin"), Some(0));
        assert_eq!(descriptor_named("/dev/../dev/fd/0"), Some(0));
        assert_eq!(descriptor_named("/dev/fd/3"), Some(3));
        assert_eq!(descriptor_named("/proc/self/fd/0"), Some(0));
        assert_eq!(descriptor_named("/proc/thread-self/fd/7"), Some(7));
        assert_eq!(descriptor_named("/proc/1234/fd/0"), Some(0));
        assert_eq!(descriptor_named("/dev/stderr"), Some(2));
        assert_eq!(descriptor_named("/dev/null"), None);
        assert_eq!(descriptor_named("/dev/fd/x"), None);
        assert_eq!(descriptor_named("/proc/self/environ"), None);
        assert_eq!(descriptor_named("dev/stdin"), None);
        assert_eq!(descriptor_named("/proc/abc/fd/0"), None);
    }
}
