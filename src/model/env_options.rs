//! Options a program takes from the environment: `TAR_OPTIONS=-x tar -f a.tar`
//! runs `tar -x -f a.tar`, and `export TAR_OPTIONS=--remove-files; tar -cf a.tar
//! src` deletes `src`. The walker adds the command as the program reads it, its
//! options from the environment among its words, beside the command as written,
//! so every rule judges what those options do (flags that delete or unpack,
//! effects, names made) and not only the code they run.

use super::command::{Origin, SimpleCommand};
use super::scope::Scope;
use super::word::{Part, Word};
use crate::catalogue::{self, Role};

/// The command `record` as its program reads it with the options its catalogue
/// entry takes from environment variables (`env_keys` with the `options` role):
/// the value of each such variable the command sets (`TAR_OPTIONS=-x tar …`,
/// `env TAR_OPTIONS=-x tar …`) or the script set before it (`export
/// TAR_OPTIONS=-x`; an assignment without `export` counts too, as the variable
/// may already be exported), cut at blanks, right after the program: GNU tar puts
/// them before the command line's options, and so does every other reader (an
/// old-style first word is dashed already, `tar xf` is `tar -xf`).
/// Their words carry the span of the assignment that set them (of the program's
/// word for a variable set by an earlier command). The variable's own assignment
/// stays with the command as written, where the rules judge it.
///
/// `None` when nothing is added: no such variable has a value known here (one only
/// known at run time is asked about where it is set), the program is a function
/// or alias of that name, or its entry has subcommands, whose options from the
/// environment (`GOFLAGS` for `go build`) apply below the subcommand and are judged
/// only for what they run.
pub fn as_read(record: &SimpleCommand, scope: &Scope) -> Option<SimpleCommand> {
    // Nearly every command: nothing set, nothing to read.
    if record.assignments.is_empty() && scope.has_no_vars()
        || record.origin != Origin::Simple
        || record.shadowed
    {
        return None;
    }
    let program = record.program?;
    let entry = record.program_str().and_then(catalogue::lookup)?;
    if !entry.subcommands.is_empty() {
        return None;
    }
    let mut words = Vec::new();
    for (key, _) in entry.env_keys.iter().filter(|(_, r)| *r == Role::Options) {
        let given = record.assignments.iter().rev().find(|a| a.name == *key);
        // `TAR_OPTIONS="$TAR_OPTIONS -x"`: what it inherited adds to what it gives.
        let (value, span) = match given {
            Some(a) => (own_options(key, a.value.as_ref()), a.span),
            None => (
                scope.value_of(key).map(str::to_string),
                record.words[program].span,
            ),
        };
        let Some(value) = value else { continue };
        words.extend(
            value
                .split_ascii_whitespace()
                .map(|w| Word::new(smallvec::smallvec![Part::Quoted(w.to_string())], span, true)),
        );
    }
    if words.is_empty() {
        return None;
    }
    let mut read = record.clone();
    read.assignments
        .retain(|a| entry.env_key_role(&a.name) != Some(Role::Options));
    read.words.splice(program + 1..program + 1, words);
    Some(read)
}

/// The text of an options variable's value with its own earlier value left out
/// (`NODE_OPTIONS="$NODE_OPTIONS --max-old-space-size=4096"`: what it inherited
/// was already in effect), each inherited part a word boundary; `None` when any
/// other part is only known at run time.
pub(crate) fn own_options(name: &str, value: Option<&Word>) -> Option<String> {
    let mut text = String::new();
    for part in &value?.parts {
        match part {
            Part::Literal(t) | Part::Quoted(t) => text.push_str(t),
            Part::Variable { name: n, .. } if n == name => text.push(' '),
            _ => return None,
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use crate::model::built_in_project;

    /// The words of each record of `source`, as text.
    fn records(source: &str) -> Vec<Vec<String>> {
        built_in_project(source)
            .commands
            .iter()
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| w.value().unwrap_or("?").to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn options_from_the_environment_join_the_words() {
        let read = records("TAR_OPTIONS='-x -v' tar -f a.tar");
        assert_eq!(read.len(), 2);
        assert_eq!(read[1], ["tar", "-x", "-v", "-f", "a.tar"]);
        let read = records("export TAR_OPTIONS=--remove-files; tar -cf a.tar src");
        assert_eq!(
            read.last().unwrap(),
            &["tar", "--remove-files", "-cf", "a.tar", "src"]
        );
        // An old-style first word is dashed before: it stays a cluster of flags.
        let read = records("TAR_OPTIONS=-P tar xf a.tar");
        assert_eq!(read[1], ["tar", "-P", "-xf", "a.tar"]);
        // Its own earlier value, inherited, is left out.
        let read = records("TAR_OPTIONS=\"$TAR_OPTIONS --remove-files\" tar -cf a.tar src");
        assert_eq!(read[1], ["tar", "--remove-files", "-cf", "a.tar", "src"]);
    }

    #[test]
    fn nothing_is_added_without_a_known_value() {
        assert_eq!(records("tar -cf a.tar src").len(), 1);
        assert_eq!(records("TAR_OPTIONS=\"$X\" tar -cf a.tar src").len(), 1);
        assert_eq!(records("LESS=-R tar -cf a.tar src").len(), 1);
        let shadowed = records("tar() { :; }; TAR_OPTIONS=-x tar -f a");
        assert!(
            shadowed
                .iter()
                .all(|words| !words.contains(&"-x".to_string()))
        );
    }
}
