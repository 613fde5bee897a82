#!/usr/bin/env python3
"""Whole-process figures for the README, in one run on one machine:

1. `bashgate hook claude-code` start to decision (a PreToolUse JSON on stdin, the
   decision on stdout) against starting `/bin/true`, both spawned the same way, runs
   interleaved so machine noise hits both alike: median, p90 and the ratio.
2. `bashgate analyze` throughput on two large generated transcripts, one
   `{"cmd": ...}` line each, `--input jsonl`, commands per second, best of three
   runs: the 42 agent commands repeated (a run judges each distinct command once,
   so this measures the memo and the output), and the same commands made distinct
   by a comment at the end of their first line (` # 17`: every line is judged, so
   this measures the checks).

Run from the repository root after `cargo build --release` (or `cargo release-static`,
the build for hooks on Linux; the first line printed says which one it measures), or
name another binary (`target/pgo/bashgate`, built by `scripts/pgo.py`):
    python3 benches/process.py [RUNS] [TRANSCRIPT_COMMANDS] [BINARY]
"""
import json, os, pathlib, shutil, statistics, struct, subprocess, sys, tempfile, time

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 300
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 420_000
named = sys.argv[3] if len(sys.argv) > 3 else "target/release/bashgate"
binary = pathlib.Path(named).resolve()
if not binary.exists():
    sys.exit(f"no binary at {named}: build it first (cargo build --release)")
commands = json.loads(pathlib.Path("benches/agent-commands.json").read_text())


def build_kind(path):
    """How the binary is linked, from its ELF header: whether the dynamic loader runs
    (a PT_INTERP segment) and whether it is position-independent (ET_DYN)."""
    data = path.read_bytes()[:1 << 16]
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return "not a 64-bit ELF file"
    e_type, = struct.unpack_from("<H", data, 16)
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    types = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
    loader = "dynamic loader" if 3 in types else "no dynamic loader"
    address = "position-independent" if e_type == 3 else "fixed address"
    return f"{loader}, {address}"


print(f"binary: {named} ({build_kind(binary)})\n")


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
    # Measured as installed: a copy, as `cargo install` makes. The linker's own output
    # sits in the page cache in small pieces, and starting it takes about a quarter
    # more page faults (107 against 85 for the static build) and 40 % more time.
    installed = pathlib.Path(root) / "bashgate"
    shutil.copyfile(binary, installed)
    installed.chmod(0o755)
    hook_argv = [str(installed), "hook", "claude-code"]
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

    def throughput(name, command_of):
        transcript = pathlib.Path(root) / f"{name}.jsonl"
        with transcript.open("w") as f:
            for i in range(lines):
                f.write(json.dumps({"cmd": command_of(i)}) + "\n")
        argv = [str(installed), "analyze", "--root", root, "--no-config", "--input", "jsonl",
                "--format", "jsonl", str(transcript)]
        best = min(timed(argv, b"") for _ in range(3)) / 1e6
        print(f"analyze, {name}: {lines} commands in {best:.2f} s = {lines / best:,.0f} "
              f"commands/s (best of 3, {os.cpu_count()} cores)")

    print()
    throughput("repeated", lambda i: commands[i % len(commands)])
    # The comment ends the first line (a heredoc's body follows it).
    throughput("distinct", lambda i: commands[i % len(commands)].replace("\n", f" # {i}\n", 1)
               if "\n" in commands[i % len(commands)] else f"{commands[i % len(commands)]} # {i}")
