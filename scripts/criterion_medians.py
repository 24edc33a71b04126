#!/usr/bin/env python3
"""Medians over positions of the search benches (`cargo bench --bench search`).

    python3 scripts/criterion_medians.py                      # the latest run
    python3 scripts/criterion_medians.py --baseline before    # a run saved with --save-baseline before
    python3 scripts/criterion_medians.py --compare before     # latest against "before", per group
    python3 scripts/criterion_medians.py --filter 'sueca/ismcts/'

benches/search.rs makes one criterion group per (game, agent), `search/<game>/<agent>`, with a
benchmark per bench position. For each group this prints the median over its positions of
criterion's median iterations/s, the lowest and highest position, and with --compare the same
for the baseline and the median over positions of the per-position ratio (latest / baseline).

Before and after: scripts/ab_criterion.sh REV_A REV_B runs the bench on both revisions and
calls this script.
"""

import argparse
import json
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(criterion_dir, baseline, pattern):
    """{group: {position: iterations per second}} for every search bench with `baseline` whose
    full name (group/position) matches `pattern`."""
    out = {}
    for dirpath, _, files in os.walk(criterion_dir):
        if os.path.basename(dirpath) != baseline or not {"estimates.json", "benchmark.json"} <= set(files):
            continue
        try:
            with open(os.path.join(dirpath, "benchmark.json")) as f:
                bench = json.load(f)
            # Other benches (the playouts, with no function id) share the directory.
            if not bench["group_id"].startswith("search/") or bench.get("function_id") is None:
                continue
            name = bench["group_id"] + "/" + bench["function_id"]
            if not pattern.search(name):
                continue
            with open(os.path.join(dirpath, "estimates.json")) as f:
                ns = json.load(f)["median"]["point_estimate"]
            elements = (bench.get("throughput") or {}).get("Elements", 1)
            out.setdefault(bench["group_id"], {})[bench["function_id"]] = elements / (ns * 1e-9)
        except (OSError, ValueError, KeyError, TypeError, AttributeError,
                ZeroDivisionError) as e:
            sys.exit(f"criterion_medians.py: {dirpath}: not a criterion result ({e!r})")
    if not out:
        matching = f" matching --filter {pattern.pattern!r}" if pattern.pattern else ""
        sys.exit(f"criterion_medians.py: no search benches with baseline {baseline!r}{matching} "
                 f"under {criterion_dir}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=os.path.join(ROOT, "target", "criterion"))
    ap.add_argument("--baseline", default="new", help="criterion baseline to read (default: new)")
    ap.add_argument("--compare", help="a saved baseline to compare against")
    ap.add_argument("--filter", default="",
                    help="regular expression on the benchmark name (group/position), as criterion's")
    args = ap.parse_args()
    try:
        pattern = re.compile(args.filter)
    except re.error as e:
        sys.exit(f"criterion_medians.py: --filter {args.filter!r} is not a regular expression "
                 f"({e})")
    now = load(args.dir, args.baseline, pattern)
    old = load(args.dir, args.compare, pattern) if args.compare else {}
    print(f"{'group':55} {'positions':>9} {'median it/s':>12} {'lowest':>10} {'highest':>10}"
          + (f" {args.compare + ' median':>16} {'ratio':>6}" if args.compare else ""))
    for group in sorted(now):
        rates = now[group]
        line = (f"{group:55} {len(rates):9} {statistics.median(rates.values()):12.0f} "
                f"{min(rates.values()):10.0f} {max(rates.values()):10.0f}")
        if args.compare:
            base = old.get(group, {})
            common = [p for p in rates if p in base]
            if common:
                ratio = statistics.median(rates[p] / base[p] for p in common)
                line += f" {statistics.median(base[p] for p in common):16.0f} {ratio:6.3f}"
            else:
                line += f" {'-':>16} {'-':>6}"
        print(line)


if __name__ == "__main__":
    main()
