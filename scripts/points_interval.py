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


def per_deal_margins(path):
    """Each deal's margins in the log at `path`, by deal index; ValueError on a bad line."""
    per_deal = defaultdict(lambda: {"points": [], "units": []})
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                g = json.loads(line)
                for key, values in (("points", g.get("scores")), ("units", g.get("units"))):
                    if not values:
                        continue
                    a = [v for s, v in zip(g["seats"], values) if s == "A"]
                    b = [v for s, v in zip(g["seats"], values) if s == "B"]
                    per_deal[g["deal_index"]][key].append(sum(a) / len(a) - sum(b) / len(b))
            except (ValueError, KeyError, TypeError, ZeroDivisionError) as e:
                raise ValueError(f"{path}:{number}: not a match log line ({e})") from None
    return per_deal


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    for path in sys.argv[1:]:
        try:
            per_deal = per_deal_margins(path)
        except (OSError, ValueError) as e:
            sys.exit(f"points_interval.py: {e}")
        print(path, f"({len(per_deal)} deals)")
        for key in ("points", "units"):
            xs = [sum(d[key]) / len(d[key]) for d in per_deal.values() if d[key]]
            if xs:
                m, lo, hi = interval(xs)
                print(f"  {key} margin A-B per game: {m:+.2f} (95% CI {lo:+.2f} … {hi:+.2f})")


if __name__ == "__main__":
    main()
