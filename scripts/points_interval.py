#!/usr/bin/env python3
"""Per-game point and match-unit margins of agent A over B in a match log, with 95% intervals.

Usage: scripts/points_interval.py LOG.jsonl [LOG.jsonl ...]

Deals are the independent unit (their seatings share the cards), so each deal's mean margin is
one sample: A's mean per seat minus B's mean per seat, averaged over the deal's seatings. The
interval is mean ± 1.96 standard errors over deals. In Hearts points count against a seat, so a
negative margin favours A there.
"""
import json
import math
import sys
from collections import defaultdict


def interval(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    h = 1.96 * math.sqrt(var / n)
    return m, m - h, m + h


def main():
    for path in sys.argv[1:]:
        per_deal = defaultdict(lambda: {"points": [], "units": []})
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            g = json.loads(line)
            for key, values in (("points", g.get("scores")), ("units", g.get("units"))):
                if not values:
                    continue
                a = [v for s, v in zip(g["seats"], values) if s == "A"]
                b = [v for s, v in zip(g["seats"], values) if s == "B"]
                per_deal[g["deal_index"]][key].append(sum(a) / len(a) - sum(b) / len(b))
        print(path, f"({len(per_deal)} deals)")
        for key in ("points", "units"):
            xs = [sum(d[key]) / len(d[key]) for d in per_deal.values() if d[key]]
            if xs:
                m, lo, hi = interval(xs)
                print(f"  {key} margin A-B per game: {m:+.2f} (95% CI {lo:+.2f} … {hi:+.2f})")


if __name__ == "__main__":
    main()
