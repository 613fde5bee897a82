//! `bashgate rules`, `bashgate explain CODE` and `bashgate explain PROGRAM`.

use super::{EXIT_USAGE, parse_preset};
use bashgate::{Preset, RULES, Rule};
use clap::{Args, ValueEnum};

/// Output formats of `rules`.
#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq, Eq)]
pub enum Format {
    /// One line per rule.
    #[default]
    Text,
    /// A JSON array of `{code, name, default, capability, summary}`.
    Json,
    /// The Markdown table README.md shows (a test keeps the two equal).
    Markdown,
}

#[derive(Args)]
pub struct RulesArgs {
    /// text, json or markdown.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// List what this preset turns on instead of every rule.
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
}

pub fn list(args: &RulesArgs) -> i32 {
    if let Some(preset) = args.preset {
        return list_preset(preset);
    }
    if args.format == Format::Json {
        let rules: Vec<serde_json::Value> = RULES
            .iter()
            .map(|rule| {
                serde_json::json!({
                    "code": rule.code,
                    "name": rule.name,
                    "default": rule.default,
                    "capability": rule.capability,
                    "summary": rule.summary,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(rules));
        return 0;
    }
    if args.format == Format::Markdown {
        println!("| code | name | default | what |");
        println!("|---|---|---|---|");
        for rule in RULES {
            println!(
                "| {} | {} | {} | {} |",
                rule.code,
                rule.name,
                rule.default,
                rule.summary.replace('|', "\\|")
            );
        }
        return 0;
    }
    for rule in RULES {
        print_line(rule);
    }
    0
}

/// One rule as a line of `bashgate rules`.
fn print_line(rule: &Rule) {
    println!(
        "{}  {:<28} {:<5} {}",
        rule.code,
        rule.name,
        rule.default.as_str(),
        rule.summary
    );
}

/// What a preset turns on: its own rules, on top of the safe mode's.
fn list_preset(preset: Preset) -> i32 {
    println!("preset {preset} (mode: safe)\n");
    println!("{}\n", preset.description());
    for code in preset.rule_codes() {
        if let Some(rule) = Rule::by_code(code) {
            print_line(rule);
        }
    }
    if preset == Preset::BashToolDenylist {
        println!("denylist: {}", bashgate::BASH_TOOL_DENYLIST.join(" "));
    }
    println!("\nplus every rule of the safe mode (`bashgate rules`)");
    0
}

/// Prints a rule's documentation, or what the program catalogue knows about a
/// program when `code` names no rule.
pub fn explain(code: &str, policy: &super::PolicyArgs) -> i32 {
    let Some(rule) = Rule::by_code(code) else {
        // A program: its effective entry, the config's `[programs.NAME]` first.
        let gate = match policy.gate() {
            Ok(gate) => gate,
            Err(message) => {
                eprintln!("bashgate: {message}");
                return super::EXIT_CONFIG;
            }
        };
        let catalogue = &gate.policy().programs;
        if let Some(entry) = catalogue.lookup(code) {
            let asked = bashgate::catalogue::program_basename(code);
            if !asked.eq_ignore_ascii_case(entry.name) {
                println!("{asked}: catalogued as `{}`\n", entry.name);
            }
            if let Some(file) = catalogue.source(code) {
                println!("from the config file {file} ([programs.{asked}])\n");
            }
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
