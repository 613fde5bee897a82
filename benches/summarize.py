#!/usr/bin/env python3
"""Summarizes the criterion runs for the README, from the repository root:

    python3 benches/summarize.py            # after `cargo bench --bench per_command`
    python3 benches/summarize.py classes    # after `cargo bench --bench classes`

per_command: median, p90 and max per measure over the 42 agent commands (each
command's own median), and the ratio of Gate::check to the bare parse per command.
classes: per command class, the median and p90 of every sample of the class's
commands (time per iteration), for the tokenizer, the bare parse and Gate::check,
with the check / parse ratio of the medians."""
import json, pathlib, statistics, sys


def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def per_command():
    base = pathlib.Path("target/criterion/per-command")
    cmds = json.loads(pathlib.Path("benches/agent-commands.json").read_text())

    def estimate(kind, i):
        path = base / f"{kind}_{i:02}" / "new" / "estimates.json"
        return json.loads(path.read_text())["median"]["point_estimate"] / 1000.0  # µs

    rows = {k: [estimate(k, i) for i in range(len(cmds))] for k in ("check", "parse", "split")}
    print("| measure | median | p90 | max |")
    print("|---|---|---|---|")
    for k, label in (("split", "shell_words::split"), ("parse", "bare tree-sitter parse"), ("check", "Gate::check")):
        v = rows[k]
        print(f"| {label} | {statistics.median(v):.2f} µs | {p(v, 0.9):.2f} µs | {max(v):.1f} µs |")
    ratios = [c / q for c, q in zip(rows["check"], rows["parse"])]
    print(f"\ncheck / parse per command: median {statistics.median(ratios):.2f}, p90 {p(ratios, 0.9):.2f}")
    print(f"sum check / sum parse: {sum(rows['check']) / sum(rows['parse']):.2f}")


def classes():
    base = pathlib.Path("target/criterion/classes")
    samples = {}  # (class, measure) -> per-iteration times in µs
    for path in sorted(base.glob("*/new/sample.json")):
        name = path.parent.parent.name  # CLASS_MEASURE_I
        cls, measure, _ = name.rsplit("_", 2)
        data = json.loads(path.read_text())
        times = [t / n / 1000.0 for t, n in zip(data["times"], data["iters"])]
        samples.setdefault((cls, measure), []).extend(times)
    # The bench's own order (benches/classes.rs), then any other class.
    known = ["plain", "quoted", "pipeline", "list", "heredoc", "nested-bash-c",
             "pipeline-10", "pipeline-100", "list-10", "list-100",
             "subst-pipeline-10", "subst-pipeline-100"]
    found = {cls for cls, _ in samples}
    order = [c for c in known if c in found] + sorted(found - set(known))
    print("| class | split median / p90 | parse median / p90 | check median / p90 | check / parse |")
    print("|---|---|---|---|---|")
    for cls in order:
        cells = []
        for measure in ("split", "parse", "check"):
            v = samples.get((cls, measure), [])
            cells.append(f"{statistics.median(v):.2f} / {p(v, 0.9):.2f} µs" if v else "-")
        check = statistics.median(samples[(cls, "check")])
        parse = statistics.median(samples[(cls, "parse")])
        print(f"| {cls} | {' | '.join(cells)} | {check / parse:.2f} |")


if len(sys.argv) > 1 and sys.argv[1] == "classes":
    classes()
else:
    per_command()
