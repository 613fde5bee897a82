#!/usr/bin/env python3
"""Summarizes `cargo bench --bench per_command`: median, p90 and max per measure over
the 42 commands, the ratio of Gate::check to the bare parse per command, and which
commands the fast lexer takes. Run from the repository root after the bench."""
import json, pathlib, statistics

base = pathlib.Path("target/criterion/per-command")
cmds = json.loads(pathlib.Path("benches/agent-commands.json").read_text())

def estimate(kind, i):
    path = base / f"{kind}_{i:02}" / "new" / "estimates.json"
    return json.loads(path.read_text())["median"]["point_estimate"] / 1000.0  # µs

def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]

rows = {k: [estimate(k, i) for i in range(len(cmds))] for k in ("check", "parse", "split")}
print("| measure | median | p90 | max |")
print("|---|---|---|---|")
for k, label in (("split", "shell_words::split"), ("parse", "bare tree-sitter parse"), ("check", "Gate::check")):
    v = rows[k]
    print(f"| {label} | {statistics.median(v):.2f} µs | {p(v, 0.9):.2f} µs | {max(v):.1f} µs |")
ratios = [c / q for c, q in zip(rows["check"], rows["parse"])]
print(f"\ncheck / parse per command: median {statistics.median(ratios):.2f}, p90 {p(ratios, 0.9):.2f}")
print(f"sum check / sum parse: {sum(rows['check']) / sum(rows['parse']):.2f}")
