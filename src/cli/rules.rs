//! `bashgate rules` and `bashgate explain CODE`.

use super::{EXIT_USAGE, parse_preset};
use bashgate::{Preset, RULES, Rule};
use clap::Args;

#[derive(Args)]
pub struct RulesArgs {
    /// List what this preset turns on instead of every rule.
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
}

pub fn list(args: &RulesArgs) -> i32 {
    if let Some(preset) = args.preset {
        return list_preset(preset);
    }
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

fn list_preset(preset: Preset) -> i32 {
    println!("preset {preset} (mode: safe)\n");
    println!("{}\n", preset.description());
    for code in preset.rule_codes() {
        if let Some(rule) = Rule::by_code(code) {
            println!(
                "{}  {:<28} {:<5} {}",
                rule.code,
                rule.name,
                rule.default.as_str(),
                rule.summary
            );
        }
    }
    if preset == Preset::BashToolDenylist {
        println!("denylist: {}", bashgate::BASH_TOOL_DENYLIST.join(" "));
    }
    println!("\nplus every rule of the safe mode (`bashgate rules`)");
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
