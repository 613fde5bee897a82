//! One `analyze` result as its output: the JSON object ([`result_json`]), the same
//! object as text ([`push_result`]), or the text report's diagnostics
//! ([`Judgement::report`]), written from parts. The part that depends only on the
//! command and its verdict (`"cmd"`, `"decision"`, `"findings"`; the report's
//! diagnostics) is rendered once per distinct command, where it is judged, and
//! kept with the verdict ([`Judgement`]): agents repeat their commands, and
//! rendering the same findings again for every repeat cost more than the rest of
//! the output.

use bashgate::transcripts::FoundCommand;
use bashgate::{Decision, Verdict, report};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Which part of a command's output its repeats share: it depends on the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedPart {
    /// None kept (totals only; SARIF, built in order).
    Nothing,
    /// `"cmd":…,"decision":…,"findings":[…]`, the middle of its JSON object.
    JsonFields,
    /// The text report's diagnostics, for a command that is not allowed.
    Report,
}

/// A verdict, with the part of its output that every repeat of the command shares.
pub struct Judgement {
    /// The gate's answer.
    pub verdict: Verdict,
    /// That part, rendered.
    shared: Shared,
}

/// A [`SharedPart`], rendered.
enum Shared {
    Nothing,
    JsonFields(Box<str>),
    Report(Box<str>),
}

impl Judgement {
    /// `verdict`, given to `command`, with `part` rendered.
    pub fn new(command: &str, verdict: Verdict, part: SharedPart) -> Judgement {
        let shared = match part {
            SharedPart::JsonFields => shared_fields(command, &verdict)
                .map(Shared::JsonFields)
                .unwrap_or(Shared::Nothing),
            SharedPart::Report if verdict.decision != Decision::Allow => {
                Shared::Report(report::render_text(command, &verdict).into())
            }
            SharedPart::Report | SharedPart::Nothing => Shared::Nothing,
        };
        Judgement { verdict, shared }
    }

    /// The text report's diagnostics of `command` (which this judges), kept or
    /// rendered now.
    pub fn report(&self, command: &str) -> Cow<'_, str> {
        match &self.shared {
            Shared::Report(text) => Cow::Borrowed(text),
            _ => Cow::Owned(report::render_text(command, &self.verdict)),
        }
    }
}

/// The names this line writes itself: a passed-through field of one of these names
/// is replaced in its place, as the document does.
const OURS: [&str; 8] = [
    "cmd",
    "decision",
    "findings",
    "source",
    "line",
    "cwd",
    "timestamp",
    "id",
];

/// `"cmd":…,"decision":…,"findings":[…]`, as serde writes those three fields of an
/// object (`None` only if serde fails, which the caller answers by writing the
/// whole line another way).
fn shared_fields(command: &str, verdict: &Verdict) -> Option<Box<str>> {
    #[derive(serde::Serialize)]
    struct Fields<'a> {
        cmd: &'a str,
        decision: &'a str,
        findings: &'a [bashgate::Finding],
    }
    let object = serde_json::to_string(&Fields {
        cmd: command,
        decision: verdict.decision.as_str(),
        findings: &verdict.findings,
    })
    .ok()?;
    // `{…}`: the fields are what lies between the braces.
    Some(object.get(1..object.len() - 1)?.into())
}

/// One result as the document holds it: the passed-through fields first, then
/// ours (which win on a clash, in the passed-through field's place).
pub fn result_json(source: &str, line: usize, found: &FoundCommand, verdict: &Verdict) -> Value {
    let mut object = Map::new();
    for (k, v) in &found.extra {
        object.insert(k.clone(), v.clone());
    }
    object.insert("cmd".to_string(), Value::from(found.command.clone()));
    object.insert(
        "decision".to_string(),
        Value::from(verdict.decision.as_str()),
    );
    object.insert(
        "findings".to_string(),
        serde_json::to_value(&verdict.findings).unwrap_or(Value::Null),
    );
    object.insert("source".to_string(), Value::from(source));
    object.insert("line".to_string(), Value::from(line));
    if let Some(cwd) = &found.cwd {
        object.insert("cwd".to_string(), Value::from(cwd.clone()));
    }
    if let Some(ts) = &found.timestamp {
        object.insert("timestamp".to_string(), Value::from(ts.clone()));
    }
    if let Some(id) = &found.id {
        object.insert("id".to_string(), Value::from(id.clone()));
    }
    Value::Object(object)
}

/// Starts the next item of a JSON array kept as text: a comma after any before.
pub fn push_separator(items: &mut Vec<u8>) {
    if !items.is_empty() {
        items.push(b',');
    }
}

/// One result as JSON text, exactly as [`result_json`] renders it, appended to
/// `out` from its parts (no document built first: that cost more than most
/// checks): the passed-through fields, the judgement's shared part, then this
/// result's own fields. A passed-through field with one of our names, or a
/// judgement without the shared part, takes the document's way.
pub fn push_result(
    out: &mut Vec<u8>,
    source: &str,
    line: usize,
    found: &FoundCommand,
    judgement: &Judgement,
) {
    let start = out.len();
    let shared = match &judgement.shared {
        Shared::JsonFields(fields) if !found.extra.keys().any(|k| OURS.contains(&k.as_str())) => {
            Some(fields)
        }
        _ => None,
    };
    let written = shared.and_then(|shared| {
        out.push(b'{');
        for (key, value) in &found.extra {
            serde_json::to_writer(&mut *out, key).ok()?;
            out.push(b':');
            serde_json::to_writer(&mut *out, value).ok()?;
            out.push(b',');
        }
        out.extend_from_slice(shared.as_bytes());
        out.extend_from_slice(b",\"source\":");
        serde_json::to_writer(&mut *out, source).ok()?;
        out.extend_from_slice(b",\"line\":");
        serde_json::to_writer(&mut *out, &line).ok()?;
        for (name, value) in [
            (&b",\"cwd\":"[..], &found.cwd),
            (b",\"timestamp\":", &found.timestamp),
            (b",\"id\":", &found.id),
        ] {
            if let Some(value) = value {
                out.extend_from_slice(name);
                serde_json::to_writer(&mut *out, value).ok()?;
            }
        }
        out.push(b'}');
        Some(())
    });
    if written.is_none() {
        out.truncate(start);
        let document = result_json(source, line, found, &judgement.verdict);
        out.extend_from_slice(document.to_string().as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashgate::Gate;
    use serde_json::json;

    fn found(command: &str, extra: Value, cwd: Option<&str>, id: Option<&str>) -> FoundCommand {
        FoundCommand {
            command: command.to_string(),
            cwd: cwd.map(str::to_string),
            timestamp: Some("2026-11-28T10:00:00Z".to_string()).filter(|_| id.is_some()),
            id: id.map(str::to_string),
            extra: extra.as_object().cloned().unwrap_or_default(),
        }
    }

    /// The line written from its parts is the document's text, byte for byte: with
    /// findings, passed-through fields, optional fields, and a clash; and so is the
    /// line of a judgement kept without its shared part.
    #[test]
    fn result_lines_are_the_documents_text() {
        let gate = Gate::builder()
            .root("/tmp/bashgate-line-test")
            .build()
            .unwrap();
        let cases = [
            found("ls -la", json!({}), None, None),
            found(
                "sudo rm -rf / \"x\"\n",
                json!({"n": 1, "z": [1, {"a": null}]}),
                None,
                Some("toolu_1"),
            ),
            found("eval $X", json!({"note": "é\u{1}"}), Some("/tmp"), None),
            found(
                "cat ~/.ssh/id_rsa",
                json!({"cwd": "/tmp", "decision": "mine"}),
                Some("/tmp"),
                None,
            ),
            found(
                "echo \u{7f}\t\"\\\u{2028}",
                json!({"k\"": "\u{0}"}),
                None,
                None,
            ),
        ];
        for f in &cases {
            let document = result_json("t \"1\".jsonl", 7, f, &gate.check(&f.command)).to_string();
            for part in [
                SharedPart::JsonFields,
                SharedPart::Nothing,
                SharedPart::Report,
            ] {
                let judgement = Judgement::new(&f.command, gate.check(&f.command), part);
                let mut out = b"before,".to_vec();
                push_result(&mut out, "t \"1\".jsonl", 7, f, &judgement);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    format!("before,{document}"),
                    "{}",
                    f.command
                );
            }
        }
    }

    /// The shared part is the command's three fields for JSON, its diagnostics for
    /// the report (none for an allowed command): what a repeat reuses.
    #[test]
    fn the_shared_part_is_the_command_and_its_verdict() {
        let gate = Gate::builder()
            .root("/tmp/bashgate-line-test")
            .build()
            .unwrap();
        let judgement = Judgement::new("sudo ls", gate.check("sudo ls"), SharedPart::JsonFields);
        let Shared::JsonFields(fields) = &judgement.shared else {
            panic!("the JSON fields are kept");
        };
        assert!(fields.starts_with("\"cmd\":\"sudo ls\",\"decision\":\"deny\",\"findings\":[{"));
        assert!(fields.ends_with("}]"));
        let judgement = Judgement::new("sudo ls", gate.check("sudo ls"), SharedPart::Report);
        assert!(matches!(judgement.shared, Shared::Report(_)));
        let fresh = report::render_text("sudo ls", &gate.check("sudo ls"));
        assert_eq!(judgement.report("sudo ls"), fresh);
        assert!(fresh.contains("BG207"));
        for part in [SharedPart::Nothing, SharedPart::Report] {
            let judgement = Judgement::new("ls", gate.check("ls"), part);
            assert!(matches!(judgement.shared, Shared::Nothing));
        }
        let judgement = Judgement::new("sudo ls", gate.check("sudo ls"), SharedPart::Nothing);
        assert_eq!(judgement.report("sudo ls"), fresh);
    }
}
