//! `bashgate rules`, `bashgate explain CODE` and `bashgate explain PROGRAM`.

use super::EXIT_USAGE;
use bashgate::rules::{RULES, by_code};

pub fn list() -> i32 {
    for rule in RULES {
        println!(
            "{}  {:<28} {:<5} {}",
            rule.code,
            rule.name,
            rule.default.as_str(),
            rule.summary
        );
    }
    0
}

/// Prints a rule's documentation, or what the program catalogue knows about a
/// program when `code` names no rule.
pub fn explain(code: &str) -> i32 {
    let Some(rule) = by_code(code) else {
        if let Some(entry) = bashgate::catalogue::lookup(code) {
            print!("{}", bashgate::catalogue::describe(entry));
            return 0;
        }
        eprintln!(
            "bashgate: no rule or catalogued program `{code}` (see `bashgate rules`; \
             programs are looked up by name, e.g. `bashgate explain tar`)"
        );
        return EXIT_USAGE;
    };
    println!("{} {} (default: {})\n", rule.code, rule.name, rule.default);
    for line in rule.doc.lines() {
        println!("{}", line.strip_prefix(' ').unwrap_or(line));
    }
    0
}
