//! `bashgate rules` and `bashgate explain CODE`.

use super::EXIT_USAGE;
use bashgate::{RULES, Rule};

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

pub fn explain(code: &str) -> i32 {
    let Some(rule) = Rule::by_code(code) else {
        eprintln!("bashgate: no rule `{code}` (see `bashgate rules`)");
        return EXIT_USAGE;
    };
    println!("{} {} (default: {})\n", rule.code, rule.name, rule.default);
    for line in rule.doc.lines() {
        println!("{}", line.strip_prefix(' ').unwrap_or(line));
    }
    0
}
