//! Transcript readers and `bashgate analyze`, on fixtures written from the formats'
//! documentation (tests/fixtures/transcripts), and — when `BASHGATE_REAL_TRANSCRIPTS`
//! names a folder of real Claude Code and Codex transcripts — on those too.

use bashgate::transcripts::{
    InputFormat, Outcome, ReaderState, Record, TranscriptReader, detect_format, expand_inputs,
    open_input,
};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts")
        .join(name)
}

fn read(path: &Path, format: InputFormat) -> Vec<Record> {
    let file = std::fs::File::open(path).expect("open fixture");
    let mut state = ReaderState::default();
    TranscriptReader::new(BufReader::new(file), format, &mut state).collect()
}

/// A command's line, text and cwd.
type Found = (usize, String, Option<String>);

/// (line, command, cwd) for every command; line numbers of errors.
fn commands(records: &[Record]) -> (Vec<Found>, Vec<usize>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for r in records {
        match &r.outcome {
            Outcome::Commands(cs) => found.extend(
                cs.iter()
                    .map(|c| (r.line, c.command.clone(), c.cwd.clone())),
            ),
            Outcome::Error(_) => errors.push(r.line),
        }
    }
    (found, errors)
}

#[test]
fn lines_format_joins_continuations_and_reports_bad_bytes() {
    let records = read(&fixture("lines.txt"), InputFormat::Lines);
    let (found, errors) = commands(&records);
    let cmds: Vec<(usize, &str)> = found.iter().map(|(l, c, _)| (*l, c.as_str())).collect();
    assert_eq!(
        cmds,
        vec![
            (1, "ls -la"),
            (3, "git status && \\\n  sudo ls"),
            (5, "echo 'café'"),
            (7, "make \\\\"),
            (8, "rm -rf /"),
        ]
    );
    assert_eq!(errors, vec![6]);
    assert_eq!(
        records.iter().map(|r| r.lines).sum::<usize>(),
        8,
        "every physical line accounted for"
    );
}

#[test]
fn claude_sessions_count_each_bash_call_once_and_skip_hooks() {
    let records = read(&fixture("claude/session-1.jsonl"), InputFormat::Claude);
    let (found, errors) = commands(&records);
    let got: Vec<(usize, &str, Option<&str>)> = found
        .iter()
        .map(|(l, c, d)| (*l, c.as_str(), d.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (4, "cargo test", Some("/work/proj")),
            (
                7,
                "cat > src/x.ts << 'EOF'\nexport const x = \"héllo ✓\";\nEOF",
                Some("/work/proj/web")
            ),
            (9, "sudo ls /root", Some("/work/proj")),
            (17, "npm run dev", Some("/work/proj")),
        ]
    );
    assert_eq!(
        errors,
        vec![11, 12],
        "bad JSON and a Bash call without a command"
    );
    assert!(
        !found.iter().any(|(_, c, _)| c.contains("guard.sh")),
        "hook commands are not agent commands"
    );
    assert_eq!(records.len(), 17);
    let first = match &records[3].outcome {
        Outcome::Commands(cs) => cs[0].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(first.id.as_deref(), Some("toolu_A"));
    assert_eq!(first.timestamp.as_deref(), Some("2026-02-12T14:11:52.000Z"));
}

#[test]
fn codex_rollouts_unwrap_argv_and_resolve_workdir() {
    let records = read(&fixture("codex/rollout.jsonl"), InputFormat::Codex);
    let (found, errors) = commands(&records);
    let got: Vec<(usize, &str, Option<&str>)> = found
        .iter()
        .map(|(l, c, d)| (*l, c.as_str(), d.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (5, "cargo test --workspace", Some("/work/proj")),
            (6, "ls -la", Some("/work/proj/sub")),
            (7, "python3 -i", Some("/work/proj")),
            (9, "print(1)\n", Some("/work/proj")),
            (15, "sudo rm -rf /", Some("/work/proj/pkg")),
            (16, "echo ünïcödé", Some("/work/proj")),
        ]
    );
    assert_eq!(errors, vec![12]);
    let stdin = match &records[8].outcome {
        Outcome::Commands(cs) => cs[0].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(stdin.extra.get("kind"), Some(&Value::from("write_stdin")));
    let legacy = read(&fixture("codex/legacy.jsonl"), InputFormat::Codex);
    let (found, errors) = commands(&legacy);
    assert_eq!(
        found,
        vec![(4, "make test".to_string(), Some("/work/legacy".to_string()))]
    );
    assert!(errors.is_empty());
}

#[test]
fn jsonl_takes_cmd_or_command_and_passes_fields_through() {
    let records = read(&fixture("commands.jsonl"), InputFormat::Jsonl);
    let (found, errors) = commands(&records);
    let cmds: Vec<&str> = found.iter().map(|(_, c, _)| c.as_str()).collect();
    assert_eq!(
        cmds,
        vec![
            "ls -la",
            "sudo reboot",
            "git status && rm -rf build",
            "git commit -m 'it'\\''s done'",
            "cat src/lib.rs",
        ]
    );
    assert_eq!(errors, vec![6, 7, 8, 9]);
    match &records[0].outcome {
        Outcome::Commands(cs) => {
            assert_eq!(cs[0].extra.get("tag"), Some(&Value::from("a")));
            assert_eq!(cs[0].extra.get("id"), Some(&Value::from(7)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_byte_order_mark_is_not_content() {
    let input = "\u{feff}{\"cmd\": \"ls\"}\n";
    let mut state = ReaderState::default();
    let records: Vec<Record> =
        TranscriptReader::new(input.as_bytes(), InputFormat::Jsonl, &mut state).collect();
    assert!(
        matches!(&records[0].outcome, Outcome::Commands(c) if c[0].command == "ls"),
        "{records:?}"
    );
}

#[test]
fn formats_are_detected_from_content() {
    let head = |p: &str| -> Vec<String> {
        BufReader::new(std::fs::File::open(fixture(p)).expect("open"))
            .lines()
            .take(20)
            .map(|l| l.unwrap_or_default())
            .collect()
    };
    assert_eq!(
        detect_format(&head("claude/session-1.jsonl")),
        InputFormat::Claude
    );
    assert_eq!(
        detect_format(&head("codex/rollout.jsonl")),
        InputFormat::Codex
    );
    assert_eq!(
        detect_format(&head("codex/legacy.jsonl")),
        InputFormat::Codex
    );
    assert_eq!(detect_format(&head("commands.jsonl")), InputFormat::Jsonl);
    assert_eq!(
        detect_format(&["ls -la".into(), "git status".into()]),
        InputFormat::Lines
    );
}

#[test]
fn directories_are_walked_and_gzip_is_read() {
    let inputs = expand_inputs(&[fixture("claude").display().to_string()]);
    assert_eq!(inputs.len(), 2);
    let dir = std::env::temp_dir().join(format!("bashgate-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let gz = dir.join("lines.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).expect("create"),
        flate2::Compression::default(),
    );
    enc.write_all(b"ls\nsudo ls\n").expect("write");
    enc.finish().expect("finish");
    let inputs = expand_inputs(&[dir.display().to_string()]);
    let input = inputs.into_iter().next().expect("one input").expect("ok");
    let reader = open_input(&input).expect("open");
    let mut state = ReaderState::default();
    let records: Vec<Record> =
        TranscriptReader::new(reader, InputFormat::Lines, &mut state).collect();
    assert_eq!(records.len(), 2);
    assert!(expand_inputs(&["/no/such/file".into()])[0].is_err());
}

fn analyze(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .arg("analyze")
        .args(args)
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("bashgate-analyze-no-config"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin.unwrap_or("").as_bytes())
        .expect("write");
    drop(pipe);
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analyze_json_summary_adds_up() {
    let dir = fixture("");
    let (code, out, _) = analyze(&["--format", "json", &dir.display().to_string()], None);
    assert_eq!(code, Some(0));
    let doc: Value = serde_json::from_str(&out).expect("json");
    let s = &doc["summary"];
    let n = |k: &str| s[k].as_u64().expect(k);
    assert_eq!(
        n("lines_read"),
        n("lines_with_commands") + n("lines_without_commands") + n("unreadable_lines")
    );
    assert_eq!(n("commands"), n("allow") + n("ask") + n("deny"));
    // claude dir 5 + codex 6 + legacy 1 + commands.jsonl 5 + lines.txt 5
    assert_eq!(n("commands"), 22);
    assert_eq!(n("unreadable_lines"), 2 + 1 + 4 + 1);
    let results = doc["results"].as_array().expect("results");
    assert_eq!(results.len() as u64, n("commands") + n("unreadable_lines"));
    let formats: Vec<&str> = s["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|i| i["format"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        formats,
        vec!["claude", "claude", "codex", "codex", "jsonl", "lines"]
    );
}

#[test]
fn analyze_jsonl_keeps_input_order_and_passes_fields_through() {
    let input = "{\"cmd\":\"ls\",\"n\":1}\n{\"cmd\":\"sudo ls\",\"n\":2}\nnot json\n{\"command\":\"eval $X\",\"n\":3}\n";
    let (code, out, _) = analyze(&["--input", "jsonl", "--format", "jsonl", "-"], Some(input));
    assert_eq!(code, Some(0));
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["cmd"], "ls");
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(lines[0]["n"], 1);
    assert_eq!(lines[1]["decision"], "deny");
    assert_eq!(lines[1]["findings"][0]["rule"], "BG207");
    assert_eq!(lines[2]["line"], 3);
    assert!(lines[2]["error"].as_str().is_some());
    assert_eq!(lines[3]["decision"], "ask");
    assert_eq!(lines[3]["n"], 3);
}

/// A JSON line keeps the passed-through fields in the order the input gave them,
/// whichever place `cmd` had; a repeated command (judged once, its line's shared
/// part written again) keeps its own fields and line; a long one too.
#[test]
fn analyze_jsonl_lines_keep_their_fields_in_order_when_repeated() {
    let long = format!("echo {} | sudo tee /etc/x", "a".repeat(3000));
    let input = format!(
        "{{\"z\":1,\"cmd\":\"sudo ls\",\"a\":2,\"m\":3}}\n\
         {{\"cmd\":\"sudo ls\",\"q\":[4]}}\n\
         {{\"cmd\":{long:?}}}\n{{\"cmd\":{long:?},\"n\":5}}\n"
    );
    let (code, out, _) = analyze(
        &["--input", "jsonl", "--format", "jsonl", "-"],
        Some(&input),
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].starts_with("{\"z\":1,\"a\":2,\"m\":3,\"cmd\":\"sudo ls\",\"decision\":\"deny\""),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with(",\"line\":1}"), "{}", lines[0]);
    assert!(lines[1].starts_with("{\"q\":[4],\"cmd\":\"sudo ls\",\"decision\":\"deny\""));
    let values: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values[0]["findings"], values[1]["findings"]);
    assert_eq!(values[1]["line"], 2);
    assert_eq!(values[2]["cmd"], long.as_str());
    assert_eq!(values[2]["decision"], "deny");
    assert_eq!(values[2]["findings"], values[3]["findings"]);
    assert_eq!(values[3]["n"], 5);
    assert!(values[2].get("n").is_none());
}

/// Chunks are judged in parallel while the next is read: results still come out in
/// input order, across chunk boundaries, with unreadable lines in their places.
#[test]
fn analyze_keeps_input_order_across_chunks() {
    let n = 10_000;
    let kind = |i: usize| match (i % 13, i % 7) {
        (0, _) => "bad",
        (_, 0) => "deny",
        _ => "allow",
    };
    let mut input = String::new();
    for i in 1..=n {
        input.push_str(&match kind(i) {
            "bad" => format!("not json {i}\n"),
            "deny" => format!("{{\"cmd\":\"sudo echo {i}\",\"n\":{i}}}\n"),
            _ => format!("{{\"cmd\":\"echo {i}\",\"n\":{i}}}\n"),
        });
    }
    let (code, out, _) = analyze(
        &["--input", "jsonl", "--format", "jsonl", "-"],
        Some(&input),
    );
    assert_eq!(code, Some(0));
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), n);
    for (i, line) in (1..=n).zip(&lines) {
        assert_eq!(line["line"], i, "{line}");
        match kind(i) {
            "bad" => assert!(line["error"].is_string(), "{line}"),
            decision => {
                assert_eq!(line["n"], i, "{line}");
                assert_eq!(line["decision"], decision, "{line}");
            }
        }
    }
    // The text report lists the flagged commands in input order too.
    let (_, text, _) = analyze(&["--input", "jsonl", "-"], Some(&input));
    let flagged: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("-:")?.strip_suffix(": deny"))
        .filter_map(|l| l.parse().ok())
        .collect();
    let expected: Vec<usize> = (1..=n).filter(|&i| kind(i) == "deny").collect();
    assert_eq!(flagged, expected);
}

/// A command judged once in a run is not judged again, but only for the same
/// working directory: the same text in another one gets its own verdict, within a
/// chunk and across chunks.
#[test]
fn analyze_gives_a_repeated_command_its_own_cwds_verdict() {
    let root = std::env::temp_dir().join(format!("bashgate-memo-{}", std::process::id()));
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    let root = root.display().to_string();
    let n = 9_000;
    let mut input = String::new();
    for i in 0..n {
        let cwd = if i % 2 == 0 {
            root.clone()
        } else {
            format!("{root}/sub")
        };
        input.push_str(&format!("{{\"cmd\":\"cat ../x.txt\",\"cwd\":\"{cwd}\"}}\n"));
    }
    let (code, out, err) = analyze(
        &[
            "--root", &root, "--input", "jsonl", "--format", "jsonl", "-",
        ],
        Some(&input),
    );
    assert_eq!(code, Some(0), "{err}");
    let decisions: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line")["decision"].to_string())
        .collect();
    assert_eq!(decisions.len(), n);
    for (i, decision) in decisions.iter().enumerate() {
        // From the root `..` leaves the project; from `sub` it is the root.
        let expected = if i % 2 == 0 { "\"ask\"" } else { "\"allow\"" };
        assert_eq!(decision, expected, "line {}", i + 1);
    }
}

#[test]
fn analyze_fail_on_sets_the_exit_code() {
    let input = "ls\neval $X\n";
    assert_eq!(analyze(&["--fail-on", "ask"], Some(input)).0, Some(1));
    assert_eq!(analyze(&["--fail-on", "deny"], Some(input)).0, Some(0));
    assert_eq!(
        analyze(&["--fail-on", "deny"], Some("sudo ls\n")).0,
        Some(2)
    );
    assert_eq!(analyze(&[], Some("sudo ls\n")).0, Some(0));
    let (code, _, err) = analyze(&["/no/such/input"], None);
    assert_eq!(code, Some(74));
    assert!(err.contains("/no/such/input"));
}

#[test]
fn analyze_text_report_names_the_format_and_shows_carets() {
    let (_, out, _) = analyze(&["-"], Some("ls\ngit status && sudo ls\n"));
    assert!(out.contains("(format: lines)"), "{out}");
    assert!(out.contains("-:2: deny"), "{out}");
    assert!(out.contains("^^^^"), "{out}");
}

#[test]
fn analyze_decides_like_check() {
    // Every command of the corpus, judged by analyze in one run, must get check's
    // decision (same gate, same root).
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut cmds = Vec::new();
    for entry in std::fs::read_dir(corpus).expect("corpus") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let value: toml::Value = toml::from_str(&text).expect("toml");
        for case in value
            .get("case")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            if case.get("config").is_none()
                && case.get("mode").is_none()
                && case.get("cwd").is_none()
                && let Some(cmd) = case.get("cmd").and_then(|c| c.as_str())
            {
                cmds.push(cmd.to_string());
            }
        }
    }
    // Plus generated commands: a fixed-seed mix of words, operators and quoting.
    let tokens = [
        "ls",
        "sudo",
        "rm",
        "-rf",
        "/",
        "~",
        "cat",
        "/etc/passwd",
        "&&",
        "|",
        ";",
        "$(id)",
        "'a b'",
        "\"$HOME\"",
        "curl",
        "x",
        "eval",
        "$X",
        "> /tmp/o",
        "2>&1",
        "cd ..",
        "python3 -c 'x'",
        "<<EOF\nhi\nEOF\n",
        "env",
    ];
    let mut seed: u64 = 0xa11ce;
    for _ in 0..300 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let n = 1 + (seed % 7) as usize;
        let words: Vec<&str> = (0..n)
            .map(|k| tokens[((seed >> (k * 5)) % tokens.len() as u64) as usize])
            .collect();
        cmds.push(words.join(" "));
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let input: String = cmds
        .iter()
        .map(|c| serde_json::json!({"cmd": c}).to_string() + "\n")
        .collect();
    let (_, out, _) = analyze(
        &[
            "--root",
            root,
            "--no-config",
            "--input",
            "jsonl",
            "--format",
            "jsonl",
            "-",
        ],
        Some(&input),
    );
    let gate = bashgate::Gate::builder().root(root).build().expect("gate");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), cmds.len());
    for (cmd, line) in cmds.iter().zip(&lines) {
        assert_eq!(line["cmd"].as_str(), Some(cmd.as_str()));
        assert_eq!(
            line["decision"].as_str(),
            Some(gate.check(cmd).decision.as_str()),
            "{cmd}"
        );
    }
}

/// Real transcripts (not part of the repository): every file is detected, read with
/// no unreadable line, and yields exactly the distinct Bash tool calls it holds,
/// counted independently here.
#[test]
fn real_transcripts_are_read_exactly() {
    let Some(dir) = std::env::var_os("BASHGATE_REAL_TRANSCRIPTS") else {
        eprintln!("BASHGATE_REAL_TRANSCRIPTS not set: real transcripts not checked");
        return;
    };
    let mut checked = 0;
    for input in expand_inputs(&[PathBuf::from(dir).display().to_string()]) {
        let input = input.expect("readable");
        let bashgate::transcripts::Input::File(path) = &input else {
            continue;
        };
        let text = std::fs::read_to_string(path).expect("utf-8");
        let head: Vec<String> = text.lines().take(20).map(str::to_string).collect();
        let format = detect_format(&head);
        let mut expected = std::collections::HashSet::new();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("json");
            if v["type"] == "assistant" {
                for b in v["message"]["content"].as_array().into_iter().flatten() {
                    if b["type"] == "tool_use" && b["name"] == "Bash" {
                        expected.insert(b["id"].as_str().unwrap_or("").to_string());
                    }
                }
            }
            if v["type"] == "response_item" && v["payload"]["type"] == "function_call" {
                let name = v["payload"]["name"].as_str().unwrap_or("");
                let args: Value =
                    serde_json::from_str(v["payload"]["arguments"].as_str().unwrap_or("{}"))
                        .unwrap_or(Value::Null);
                let stdin =
                    name == "write_stdin" && args["chars"].as_str().is_some_and(|c| !c.is_empty());
                if matches!(name, "exec_command" | "shell" | "shell_command") || stdin {
                    expected.insert(v["payload"]["call_id"].as_str().unwrap_or("").to_string());
                }
            }
        }
        let expected_format = if path.display().to_string().contains("codex") {
            InputFormat::Codex
        } else {
            InputFormat::Claude
        };
        assert_eq!(format, expected_format, "{}", path.display());
        let records = read(path, format);
        let (found, errors) = commands(&records);
        assert!(
            errors.is_empty(),
            "{}: unreadable lines {errors:?}",
            path.display()
        );
        assert_eq!(found.len(), expected.len(), "{}", path.display());
        assert!(
            found.iter().all(|(_, _, cwd)| cwd.is_some()),
            "{}: a command without cwd",
            path.display()
        );
        assert_eq!(records.len(), text.lines().count());
        checked += 1;
    }
    assert!(
        checked >= 9,
        "expected the real transcript files, found {checked}"
    );
}
