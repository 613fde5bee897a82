//! `bashgate explain PROGRAM`: what the catalogue knows about a program, as text.

use super::{Entry, Role};
use std::fmt::Write as _;

fn role_name(role: Role) -> String {
    match role {
        Role::Code(lang) => format!("code ({lang})"),
        other => other.as_str().to_string(),
    }
}

/// A readable page for an entry: summary, aliases, facts, option roles, operand
/// roles, modes, settings keys and subcommands (each described in turn).
pub fn describe(entry: &Entry) -> String {
    let mut out = String::new();
    write_entry(&mut out, entry, 0);
    out
}

fn write_entry(out: &mut String, entry: &Entry, depth: usize) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(out, "{pad}{} — {}", entry.name, entry.summary);
    if depth == 0 {
        let _ = writeln!(out, "{pad}  family: {}", entry.family);
    }
    if !entry.aliases.is_empty() {
        let _ = writeln!(out, "{pad}  aliases: {}", entry.aliases.join(", "));
    }
    if !entry.facts.is_empty() {
        let facts: Vec<&str> = entry.facts.iter().map(|f| f.as_str()).collect();
        let _ = writeln!(out, "{pad}  facts: {}", facts.join(", "));
    }
    if let Some(lang) = entry.interpreter {
        let _ = writeln!(out, "{pad}  interpreter: {lang}");
    }
    if !entry.runs_files.is_empty() {
        let _ = writeln!(out, "{pad}  runs files: {}", entry.runs_files.join(", "));
    }
    if !entry.options.is_empty() {
        let _ = writeln!(out, "{pad}  options:");
        for option in entry.options {
            let _ = writeln!(
                out,
                "{pad}    {:<28} {}",
                option.names.join(", "),
                role_name(option.role)
            );
        }
    }
    for flag in entry.flag_facts {
        let facts: Vec<&str> = flag.facts.iter().map(|f| f.as_str()).collect();
        let _ = writeln!(
            out,
            "{pad}  with {}: facts {}",
            flag.flags.join(", "),
            facts.join(", ")
        );
    }
    if !entry.flags.is_empty() {
        let _ = writeln!(out, "{pad}  flags: {}", entry.flags.join(", "));
    }
    if !entry.operands.is_empty() {
        let roles: Vec<String> = entry.operands.iter().map(|r| role_name(*r)).collect();
        let _ = write!(
            out,
            "{pad}  operands: {} (the last repeats)",
            roles.join(", ")
        );
        if let Some(last) = entry.last {
            let _ = write!(out, "; the last of several: {}", role_name(last));
        }
        out.push('\n');
    }
    for mode in entry.modes {
        let roles: Vec<String> = mode.operands.iter().map(|r| role_name(*r)).collect();
        let what = if roles.is_empty() {
            "runs nothing".to_string()
        } else {
            roles.join(", ")
        };
        let _ = writeln!(
            out,
            "{pad}  with {}: operands {what}",
            mode.flags.join(", ")
        );
    }
    if entry.assignments {
        let _ = writeln!(out, "{pad}  accepts NAME=value before its operands");
    }
    if !entry.clustering {
        let _ = writeln!(out, "{pad}  short options do not cluster");
    }
    if !entry.options_after_operands {
        let _ = writeln!(out, "{pad}  options end at the first operand");
    }
    if entry.global_options {
        let _ = writeln!(
            out,
            "{pad}  its options count after a subcommand's name too"
        );
    }
    if !entry.config_keys.is_empty() {
        let _ = writeln!(out, "{pad}  settings:");
        for (key, role) in entry.config_keys {
            let _ = writeln!(out, "{pad}    {key:<28} {}", role_name(*role));
        }
    }
    for keys in entry.key_facts {
        let facts: Vec<&str> = keys.facts.iter().map(|f| f.as_str()).collect();
        let _ = writeln!(
            out,
            "{pad}  setting {}: facts {}",
            keys.flags.join(", "),
            facts.join(", ")
        );
    }
    if !entry.config_files.is_empty() {
        let _ = writeln!(
            out,
            "{pad}  settings files: {}",
            entry.config_files.join(", ")
        );
    }
    if !entry.env_keys.is_empty() {
        let _ = writeln!(out, "{pad}  environment:");
        for (key, role) in entry.env_keys {
            let _ = writeln!(out, "{pad}    {key:<28} {}", role_name(*role));
        }
    }
    write_effects(out, entry, &pad);
    if !entry.subcommands.is_empty() {
        let _ = writeln!(out, "{pad}  subcommands:");
        for sub in entry.subcommands {
            write_entry(out, sub, depth + 2);
        }
    }
}

/// The entry's effects: the words and conditions, what happens, the safer way.
fn write_effects(out: &mut String, entry: &Entry, pad: &str) {
    if entry.effects.is_empty() {
        return;
    }
    let _ = writeln!(out, "{pad}  acts remotely or irreversibly (BG210):");
    for effect in entry.effects {
        let mut when = vec![entry.name.to_string()];
        when.extend(effect.words.iter().map(|w| w.to_string()));
        let mut conditions = Vec::new();
        if !effect.flags.is_empty() {
            conditions.push(format!("with {}", effect.flags.join(" or ")));
        }
        if !effect.also.is_empty() {
            conditions.push(format!("and {}", effect.also.join(" or ")));
        }
        if !effect.unless.is_empty() {
            conditions.push(format!("without {}", effect.unless.join(" or ")));
        }
        if effect.operands {
            conditions.push("given operands".into());
        }
        if let Some(test) = effect.test {
            conditions.push(format!("when {test}"));
        }
        if effect.dynamic_asks {
            conditions.push("(or a word only known at run time)".into());
        }
        when.extend(conditions);
        let _ = writeln!(out, "{pad}    {}", when.join(" "));
        let _ = writeln!(out, "{pad}      {}", effect.what);
        let _ = writeln!(out, "{pad}      help: {}", effect.suggestion);
    }
}

#[cfg(test)]
mod tests {
    use crate::catalogue::{describe, lookup};

    #[test]
    fn the_page_names_roles_and_subcommands() {
        let page = describe(lookup("git").unwrap());
        assert!(page.contains("upload-pack"), "{page}");
        assert!(page.contains("core.pager"), "{page}");
        assert!(page.contains("clone"), "{page}");
        assert!(
            page.contains("with -f, --force: facts deletes-files"),
            "{page}"
        );
    }

    #[test]
    fn the_page_names_effects_with_their_conditions_and_help() {
        let page = describe(lookup("git").unwrap());
        assert!(page.contains("reset with --hard"), "{page}");
        assert!(page.contains("help: `git stash` keeps"), "{page}");
        assert!(page.contains("git reflog expire"), "{page}");
        let page = describe(lookup("psql").unwrap());
        assert!(page.contains("when sql-destroys"), "{page}");
        assert!(!describe(lookup("ls").unwrap()).contains("BG210"));
    }
}
