#!/usr/bin/env python3
"""Per-game points of agent A and B from a `cardsearch match --out` log, with a 95% interval.

For each game: A's points are the mean score of A's seats, B's the mean of B's seats; the
difference A - B is averaged over the deal's seatings, and the interval is over deals (normal
approximation, 1.96 standard errors), as the match's own score interval is.

Usage: python3 docs/data/points_ci.py LOG.jsonl
"""
import json
import math
import sys
from collections import defaultdict

per_deal = defaultdict(list)
a_pts, b_pts = [], []
for line in open(sys.argv[1]):
    g = json.loads(line)
    a = [s for s, side in zip(g["scores"], g["seats"]) if side == "A"]
    b = [s for s, side in zip(g["scores"], g["seats"]) if side == "B"]
    a_mean, b_mean = sum(a) / len(a), sum(b) / len(b)
    a_pts.append(a_mean)
    b_pts.append(b_mean)
    per_deal[g["deal_index"]].append(a_mean - b_mean)
diffs = [sum(v) / len(v) for v in per_deal.values()]
n = len(diffs)
mean = sum(diffs) / n
sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
half = 1.96 * sd / math.sqrt(n)
print(f"{len(a_pts)} games, {n} deals: points per game A {sum(a_pts)/len(a_pts):.2f}, "
      f"B {sum(b_pts)/len(b_pts):.2f}; A - B {mean:+.2f} (95% CI {mean-half:+.2f} … {mean+half:+.2f})")
