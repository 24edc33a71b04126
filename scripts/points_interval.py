#!/usr/bin/env python3
"""Per-game point and match-unit margins of agent A over B in a match log, with 95% intervals.

Usage: scripts/points_interval.py LOG.jsonl [LOG.jsonl ...]

Deals are the independent unit (their seatings share the cards), so each finished deal's mean
margin is one sample (a deal some of whose seatings are missing is left out, as `cardsearch merge`
leaves it out): A's mean per seat minus B's mean per seat, averaged over the deal's seatings. The
interval is mean ± t standard errors over deals, t the 95% quantile of Student's t with deals − 1
degrees of freedom, as in `cardsearch`'s reports. In Hearts points count against a seat, so a
negative margin favours A there.

`cardsearch match` now prints these margins itself, and `cardsearch merge LOG.jsonl` prints them
for a log it wrote; this script serves logs written elsewhere (scripts/openspiel_match.py).
"""
import json
import math
import sys
from collections import defaultdict


# Student's t two-sided 95% quantiles for 1-30 degrees of freedom; beyond, the Cornish-Fisher
# expansion (src/harness/stats.rs, `t95`, has the same and tests them).
T95 = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
       2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
       2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]


def t95(df):
    if df <= len(T95):
        return T95[df - 1]
    z, v = 1.959963984540054, float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v * v)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3))


def interval(xs):
    """Mean of `xs` with its 95% t interval (the whole real line with fewer than two)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, -math.inf, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = t95(n - 1) * math.sqrt(var / n)
    return m, m - h, m + h


def per_deal_margins(path):
    """Each complete deal's margins in the one match logged at `path`, by deal index, and the
    number of deals left out as incomplete; ValueError on a bad line, a game logged twice or a
    log of several matches (a tournament's)."""
    per_deal = defaultdict(lambda: {"points": [], "units": [], "games": 0, "seatings": 0})
    seen, pairs = set(), set()
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                g = json.loads(line)
                game = (g["deal_index"], g["seating_index"])
                pairs.add((g["agent_a"], g["agent_b"]))
                deal = per_deal[g["deal_index"]]
                deal["games"] += 1
                deal["seatings"] = g["seatings_per_deal"]
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}:{number}: not a match log line ({e})") from None
            if len(pairs) > 1:
                raise ValueError(f"{path}:{number}: the log holds more than one match (a "
                                 "tournament's?); give the log of one match")
            if game in seen:
                raise ValueError(f"{path}:{number}: deal {game[0]} seating {game[1]} is logged twice")
            seen.add(game)
            for key, values in (("points", g.get("scores")), ("units", g.get("units"))):
                if not values:
                    continue
                a = [v for s, v in zip(g["seats"], values) if s == "A"]
                b = [v for s, v in zip(g["seats"], values) if s == "B"]
                # A game where one side has no seat (a one-seat game) has no margin.
                if a and b:
                    deal[key].append(sum(a) / len(a) - sum(b) / len(b))
    complete = {k: d for k, d in per_deal.items() if d["games"] == d["seatings"]}
    return complete, len(per_deal) - len(complete)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    for path in sys.argv[1:]:
        try:
            per_deal, incomplete = per_deal_margins(path)
        except (OSError, ValueError) as e:
            sys.exit(f"points_interval.py: {e}")
        left_out = f", {incomplete} unfinished left out" if incomplete else ""
        print(path, f"({len(per_deal)} deals{left_out})")
        for key in ("points", "units"):
            xs = [sum(d[key]) / len(d[key]) for d in per_deal.values() if d[key]]
            if xs:
                m, lo, hi = interval(xs)
                print(f"  {key} margin A-B per game: {m:+.2f} (95% CI {lo:+.2f} … {hi:+.2f})")


if __name__ == "__main__":
    main()
