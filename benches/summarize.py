#!/usr/bin/env python3
"""Summarizes the criterion runs for the README, from the repository root:

    python3 benches/summarize.py            # after `cargo bench --bench per_command`
    python3 benches/summarize.py classes    # after `cargo bench --bench classes`
    python3 benches/summarize.py realistic  # after `cargo bench --bench realistic`

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


def realistic():
    base = pathlib.Path("target/criterion/realistic")
    rows = {}  # measure -> {index: median µs}
    for path in base.glob("*/new/estimates.json"):
        measure, index = path.parent.parent.name.split("_")
        rows.setdefault(measure, {})[index] = json.loads(path.read_text())["median"]["point_estimate"] / 1000.0
    check, parse = rows["check"], rows["parse"]
    print(f"{len(check)} commands")
    print("| measure | median | p90 | max | over 20 µs |")
    print("|---|---|---|---|---|")
    for label, v in (("bare tree-sitter parse", list(parse.values())), ("Gate::check", list(check.values()))):
        over = sum(1 for x in v if x > 20.0)
        print(f"| {label} | {statistics.median(v):.2f} µs | {p(v, 0.9):.2f} µs | {max(v):.1f} µs | {over} |")
    ratios = [check[i] / parse[i] for i in check if i in parse]
    print(f"\ncheck / parse per command: median {statistics.median(ratios):.2f}, p90 {p(ratios, 0.9):.2f}")
    print(f"sum check / sum parse: {sum(check.values()) / sum(parse.values()):.2f}")
    slowest = sorted(check.items(), key=lambda kv: -kv[1])[:10]
    listing = base / "commands.json"
    if not listing.exists():
        print("slowest checks (index into the set, µs):", ", ".join(f"{i} {t:.1f}" for i, t in slowest))
        return
    commands = json.loads(listing.read_text())
    print("slowest checks (µs, parse µs, command):")
    for i, t in slowest:
        text = commands[int(i)].replace("\n", "\\n")
        print(f"  {t:7.1f} {parse.get(i, float('nan')):7.1f}  {text[:100]}")


if len(sys.argv) > 1 and sys.argv[1] == "classes":
    classes()
elif len(sys.argv) > 1 and sys.argv[1] == "realistic":
    realistic()
else:
    per_command()
