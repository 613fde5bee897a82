#!/usr/bin/env python3
"""Instructions per check, counted exactly by callgrind, for comparing two trees on
a shared host whose speed moves from one hour to the next.

Build the driver first (the log's figures are without LTO, which links in seconds
rather than minutes; say so when you quote them):

    cargo build --release --example check_each --config 'profile.release.lto=false'

then, from the repository root:

    python3 benches/instructions.py [COMMANDS_JSON] [--out FILE] [--against FILE]

COMMANDS_JSON is a JSON array of strings (default: the 42 agent commands; the
realistic set is written to target/criterion/realistic/commands.json by
`cargo bench --bench realistic`). Each command is checked twice and the second
pass counted, one callgrind dump per check. Prints the median, p90, max and sum
over the commands and how many exceed 160 k instructions (about 20 µs on the host
of 2026-11-26). `--out FILE` writes one count per line, in the file's order;
`--against FILE` compares with such a file from another tree: the change of the
sum and the commands that moved most."""
import json, pathlib, shutil, statistics, subprocess, sys, tempfile

DRIVER = pathlib.Path("target/release/examples/check_each")
OVER = 160_000


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def counts(commands_file):
    """The instructions of each check of the second pass, in the file's order."""
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    if not DRIVER.exists():
        sys.exit(f"no driver at {DRIVER}: build it first (see the top of this file)")
    commands = json.loads(pathlib.Path(commands_file).read_text())
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-after=check_each::check_one",
                f"--callgrind-out-file={out}/cg.out",
                str(DRIVER),
                commands_file,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        dumps = sorted(
            pathlib.Path(out).glob("cg.out.*"), key=lambda p: int(p.suffix[1:])
        )
        totals = []
        for dump in dumps:
            for line in dump.read_text(errors="replace").splitlines():
                if line.startswith(("summary:", "totals:")):
                    totals.append(int(line.split()[1]))
                    break
    if len(totals) < 2 * len(commands):
        sys.exit(f"expected {2 * len(commands)} dumps, found {len(totals)}")
    return commands, totals[len(commands) : 2 * len(commands)]


def main():
    args = sys.argv[1:]
    out = against = None
    if "--out" in args:
        at = args.index("--out")
        out = args[at + 1]
        del args[at : at + 2]
    if "--against" in args:
        at = args.index("--against")
        against = args[at + 1]
        del args[at : at + 2]
    commands_file = args[0] if args else "benches/agent-commands.json"
    commands, second = counts(commands_file)
    print(f"{len(commands)} commands, second pass, instructions per check")
    print(
        f"median {statistics.median(second):,.0f}  p90 {percentile(second, 0.9):,}  "
        f"max {max(second):,}  sum {sum(second):,}  over {OVER:,}: "
        f"{sum(1 for n in second if n > OVER)}"
    )
    if out:
        pathlib.Path(out).write_text("".join(f"{n}\n" for n in second))
    if against:
        before = [int(line) for line in pathlib.Path(against).read_text().split()]
        if len(before) != len(second):
            sys.exit(f"{against} has {len(before)} counts, this run {len(second)}")
        change = (sum(second) - sum(before)) / sum(before) * 100
        print(f"against {against}: sum {sum(before):,} -> {sum(second):,} ({change:+.2f} %)")
        moved = sorted(zip((b - a for a, b in zip(before, second)), commands))
        for delta, command in moved[:5] + moved[-5:]:
            print(f"  {delta:+8,}  {command[:90]!r}")


if __name__ == "__main__":
    main()
