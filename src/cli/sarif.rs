//! SARIF 2.1.0 output for `bashgate analyze --format sarif`, so audits land in
//! code-scanning tools: one result per ask or deny finding, located at the
//! transcript line the command came from; every rule is described in the driver.
//! A test validates the output against the SARIF 2.1.0 JSON schema.

use bashgate::RULES;
use bashgate::{Decision, Verdict};
use serde_json::{Value, json};

/// The SARIF level of a decision.
fn level(decision: Decision) -> &'static str {
    match decision {
        Decision::Deny => "error",
        Decision::Ask => "warning",
        Decision::Allow => "note",
    }
}

/// Collects results; [`Builder::finish`] wraps them in a log.
#[derive(Default)]
pub struct Builder {
    results: Vec<Value>,
}

impl Builder {
    /// Adds the ask/deny findings of one judged command.
    pub fn add(&mut self, source: &str, line: usize, command: &str, verdict: &Verdict) {
        let uri = if source == "-" { "stdin" } else { source };
        for finding in verdict
            .findings
            .iter()
            .filter(|f| f.decision != Decision::Allow)
        {
            let index = RULES.iter().position(|r| r.code == finding.rule);
            let mut result = json!({
                "ruleId": finding.rule,
                "level": level(finding.decision),
                "message": {"text": format!("{}: {} (in `{}`)", finding.decision, finding.message, command.trim())},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"startLine": line.max(1)}
                    }
                }],
                "properties": {
                    "command": command,
                    "decision": verdict.decision.as_str(),
                    "span": {"start": finding.span.start, "end": finding.span.end},
                },
            });
            if let Some(i) = index {
                result["ruleIndex"] = json!(i);
            }
            if let Some(suggestion) = &finding.suggestion {
                result["properties"]["suggestion"] = json!(suggestion);
            }
            self.results.push(result);
        }
    }

    /// The SARIF log, with `summary` as the run's properties.
    pub fn finish(self, summary: &Value) -> Value {
        let rules: Vec<Value> = RULES
            .iter()
            .map(|rule| {
                json!({
                    "id": rule.code,
                    "name": rule.name,
                    "shortDescription": {"text": rule.summary},
                    "fullDescription": {"text": rule.doc.trim()},
                    "help": {"text": format!("bashgate explain {}", rule.code)},
                    "defaultConfiguration": {"level": level(rule.default)},
                })
            })
            .collect();
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "bashgate",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }},
                "invocations": [{"executionSuccessful": true}],
                "results": self.results,
                "properties": {"summary": summary},
            }]
        })
    }
}
