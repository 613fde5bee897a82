#!/usr/bin/env python3
"""A profile-guided build of the `bashgate` binary (Linux, x86-64 or aarch64).

A check runs a little of a great deal of code (the walk, some twenty rules, the
catalogue): on the 42 agent commands it executes a third fewer instructions than
the bare tree-sitter parse, yet took longer, because about one instruction in
twenty-five missed the instruction cache (callgrind's cache model; the parse: one
in three hundred). Profile-guided optimisation lets the compiler lay out the code
a check actually runs together and keep the rare paths apart. README,
"Performance", has the figures.

Steps (all under target/pgo/, so the usual builds are not invalidated):

1. build the binary instrumented (`-Cprofile-generate`), with the release profile;
2. run it on a training set: every command of the corpus that the benchmarks do
   not measure (the realistic set is the 42 agent commands and the corpus's plain
   must-allow cases; the profile is trained on the others: asks, denies, cases
   with a setting of their own) through `bashgate analyze`, and a sample of them
   through `bashgate hook claude-code`, one process each;
3. merge the raw profiles with `llvm-profdata` (`rustup component add llvm-tools`);
4. build the binary again with the profile (`-Cprofile-use`), linked like
   `cargo release-static` unless `--dynamic` is given.

    python3 scripts/pgo.py [--dynamic]

Output: target/pgo/bashgate (the binary) and target/pgo/bashgate.profdata.

A profile fits only the build it was taken from: the same library built another way
(a program linking it with other codegen units and crate hashes, as the criterion
benchmarks or an agent CLI that embeds the gate) finds no counters for its
functions and is compiled as without a profile (measured: a driver built with this
profile ran the same instructions as without it). Run the script again after a
change to the source. Needs Python 3.11 or later (tomllib).
"""
import json, os, pathlib, shutil, subprocess, sys, tempfile, tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "pgo"
STATIC_FLAGS = ["-Ctarget-feature=+crt-static", "-Crelocation-model=static"]
HOOK_SAMPLE = 300


def run(argv, **kw):
    print("+", " ".join(str(a) for a in argv), flush=True)
    subprocess.run(argv, check=True, **kw)


def host_triple():
    for line in subprocess.run(["rustc", "-vV"], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        if line.startswith("host: "):
            return line.split(": ", 1)[1]
    sys.exit("rustc -vV names no host")


def llvm_profdata(host):
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], check=True,
                             capture_output=True, text=True).stdout.strip()
    tool = pathlib.Path(sysroot) / "lib" / "rustlib" / host / "bin" / "llvm-profdata"
    if not tool.exists():
        sys.exit(f"llvm-profdata not found at {tool}: rustup component add llvm-tools")
    return tool


def training_commands():
    """Every corpus command the benchmarks do not measure (benches/realistic.rs
    measures the 42 agent commands and the plain must-allow cases), once each."""
    measured = set(json.loads((ROOT / "benches" / "agent-commands.json").read_text()))
    cases = [case for path in sorted((ROOT / "corpus").glob("*.toml"))
             for case in tomllib.loads(path.read_text()).get("case", [])]
    for case in cases:
        plain = not any(case.get(k) for k in ("mode", "cwd", "config", "env"))
        if plain and case["decision"] == "allow":
            measured.add(case["cmd"])
    out = list(dict.fromkeys(c["cmd"] for c in cases if c["cmd"] not in measured))
    if not out:
        sys.exit("the corpus gave no training commands")
    return out


def build(target_dir, host, rustflags):
    # `--target` keeps RUSTFLAGS off build scripts and procedural macros.
    env = dict(os.environ, CARGO_ENCODED_RUSTFLAGS="\x1f".join(rustflags))
    env.pop("RUSTFLAGS", None)
    run(["cargo", "build", "--release", "--bin", "bashgate", "--target", host,
         "--target-dir", str(target_dir)], cwd=ROOT, env=env)
    return target_dir / host / "release" / "bashgate"


def train(binary, raw_dir, commands):
    with tempfile.TemporaryDirectory() as root:
        transcript = pathlib.Path(root) / "train.jsonl"
        transcript.write_text("".join(json.dumps({"cmd": c}) + "\n" for c in commands))
        env = dict(os.environ, LLVM_PROFILE_FILE=str(raw_dir / "analyze-%p-%m.profraw"))
        run([binary, "analyze", "--root", root, "--no-config", "--input", "jsonl",
             "--format", "jsonl", str(transcript)], env=env, stdout=subprocess.DEVNULL)
        env["LLVM_PROFILE_FILE"] = str(raw_dir / "hook-%m.profraw")
        step = max(1, len(commands) // HOOK_SAMPLE)
        answered = 0
        for cmd in commands[::step]:
            event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": root,
                     "tool_input": {"command": cmd}}
            done = subprocess.run([binary, "hook", "claude-code"],
                                  input=json.dumps(event).encode(), env=env,
                                  capture_output=True)
            answered += done.returncode in (0, 2)
        if answered == 0:
            sys.exit("the instrumented hook answered no event")


def main():
    dynamic = "--dynamic" in sys.argv[1:]
    unknown = [a for a in sys.argv[1:] if a != "--dynamic"]
    if unknown:
        sys.exit(f"unknown argument {unknown[0]}; usage: scripts/pgo.py [--dynamic]")
    host = host_triple()
    profdata_tool = llvm_profdata(host)
    link = [] if dynamic else STATIC_FLAGS
    raw_dir = OUT / "raw"
    shutil.rmtree(raw_dir, ignore_errors=True)
    raw_dir.mkdir(parents=True)

    instrumented = build(OUT / "generate", host, [f"-Cprofile-generate={raw_dir}"] + link)
    commands = training_commands()
    print(f"training on {len(commands)} commands", flush=True)
    train(instrumented, raw_dir, commands)
    raws = sorted(raw_dir.glob("*.profraw"))
    if not raws:
        sys.exit("the instrumented binary wrote no profile")
    profdata = OUT / "bashgate.profdata"
    run([profdata_tool, "merge", "-o", profdata] + raws)

    optimised = build(OUT / "use", host, [f"-Cprofile-use={profdata}"] + link)
    shutil.copy2(optimised, OUT / "bashgate")
    print(f"built {OUT / 'bashgate'} with the profile {profdata}")


if __name__ == "__main__":
    main()
