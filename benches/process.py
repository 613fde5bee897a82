#!/usr/bin/env python3
"""Whole-process figures for the README, in one run on one machine:

1. `bashgate hook claude-code` start to decision (a PreToolUse JSON on stdin, the
   decision on stdout) against starting `/bin/true`, both spawned the same way, runs
   interleaved so machine noise hits both alike: median, p90 and the ratio.
2. `bashgate analyze` throughput on a large generated transcript (the 42 agent
   commands repeated, one `{"cmd": ...}` line each, `--input jsonl`): commands per
   second, best of three runs.

Run from the repository root after `cargo build --release`:
    python3 benches/process.py [RUNS] [TRANSCRIPT_COMMANDS]
"""
import json, os, pathlib, statistics, subprocess, sys, tempfile, time

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 300
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 420_000
binary = pathlib.Path("target/release/bashgate").resolve()
if not binary.exists():
    sys.exit("build first: cargo build --release")
commands = json.loads(pathlib.Path("benches/agent-commands.json").read_text())


def p90(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]


def timed(argv, stdin):
    start = time.perf_counter_ns()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter_ns() - start) / 1000.0  # µs


with tempfile.TemporaryDirectory() as root:
    hook_input = json.dumps({
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status && cargo test"},
        "cwd": root,
    }).encode()
    hook_argv = [str(binary), "hook", "claude-code"]
    env_root = dict(os.environ, HOME=root)
    hook, true = [], []
    for _ in range(10):  # warm the page cache
        timed(hook_argv, hook_input)
        timed(["/bin/true"], b"")
    for _ in range(runs):
        hook.append(timed(hook_argv, hook_input))
        true.append(timed(["/bin/true"], b""))
    print(f"| process | median | p90 |")
    print(f"|---|---|---|")
    print(f"| `/bin/true` | {statistics.median(true):.0f} µs | {p90(true):.0f} µs |")
    print(f"| `bashgate hook claude-code` | {statistics.median(hook):.0f} µs | {p90(hook):.0f} µs |")
    print(f"\nhook / true: median {statistics.median(hook) / statistics.median(true):.2f}, "
          f"p90 {p90(hook) / p90(true):.2f} ({runs} runs each, interleaved)")

    transcript = pathlib.Path(root) / "transcript.jsonl"
    with transcript.open("w") as f:
        for i in range(lines):
            f.write(json.dumps({"cmd": commands[i % len(commands)]}) + "\n")
    argv = [str(binary), "analyze", "--root", root, "--no-config", "--input", "jsonl",
            "--format", "jsonl", str(transcript)]
    best = min(timed(argv, b"") for _ in range(3)) / 1e6
    print(f"\nanalyze: {lines} commands in {best:.2f} s = {lines / best:,.0f} commands/s "
          f"(best of 3, {os.cpu_count()} cores)")
