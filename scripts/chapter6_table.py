#!/usr/bin/env python3
"""Markdown rows of docs/results.md's chapter-6 tables from a scripts/chapter6.sh output folder.

Usage: scripts/chapter6_table.py OUT [ROW ...]     # OUT: e.g. target/chapter6/bisca

Each row comes from ROW.report.txt (`cardsearch match`'s report) and ROW.points.txt
(scripts/points_interval.py): A's score and Elo with their 95% intervals, won / drew / lost, the
card-point margin and, where the game has them, the match-unit margin. An interval that excludes
0.5 (score) or 0 (margins) is bold. Rows default to every row the folder holds, in the order of
scripts/chapter6.sh.
"""
import os
import re
import sys

ORDER = ["pimc", "pimc-sum", "wl", "sd", "mix", "roulette", "ucb1", "gibbs", "egreedy", "nast1",
         "nast3", "nast4", "c0", "c0.25", "c0.5", "c1.0", "c1.5", "c2.0"]
# The thesis's sweeps of the WL and SD constants, each against its own reward at c 0.7.
ORDER += [f"wl-c{c}" for c in ("0", "0.25", "0.5", "1.0", "1.5", "1.75", "2.0")]
ORDER += [f"sd-c{c}" for c in ("0", "0.25", "0.5", "1.0", "1.5", "2.0")]
LABELS = {
    "pimc": "SO-ISMCTS (A) vs PIMC with voting (B: `pimc:vote=true`)",
    "pimc-sum": "SO-ISMCTS (A) vs PIMC summing visits (B: `pimc`)",
    "wl": "`reward=wl`", "sd": "`reward=sd`", "mix": "`reward=mix:w=0.3`",
    "roulette": "NAST n=2 roulette", "ucb1": "NAST n=2 UCB1", "gibbs": "NAST n=2 Gibbs τ=1",
    "egreedy": "NAST n=2 ε-greedy ε=0.2", "nast1": "NAST n=1 UCB1", "nast3": "NAST n=3 UCB1",
    "nast4": "NAST n=4 UCB1",
}
NUM = r"([+-−]?\d+(?:\.\d+)?)"


def bold_if(text, low, high, zero):
    return f"**{text}**" if low > zero or high < zero else text


def num(s):
    return float(s.replace("−", "-"))


def row(out, name):
    report = open(os.path.join(out, name + ".report.txt")).read()
    points = open(os.path.join(out, name + ".points.txt")).read()
    m = re.search(r"A mean score (\d\.\d+) ± [\d.]+ \(95% CI (\d\.\d+)–(\d\.\d+)\), Elo "
                  + NUM + r" \(" + NUM + " … " + NUM + r"\)", report)
    score, lo, hi = float(m[1]), float(m[2]), float(m[3])
    elo = f"{m[4]} ({m[5]} … {m[6]})"
    cell = bold_if(f"{m[1]} ({m[2]}–{m[3]}), {elo}", lo, hi, 0.5)
    g = re.search(r"A won (\d+), drew (\d+), lost (\d+)", report)
    budget = re.search(r"(\d+) it per move", report)[1]
    if name.startswith("c"):
        label = f"`c={name[1:]}` (B: c 0.7)"
    elif re.fullmatch(r"(wl|sd)-c[\d.]+", name):
        reward, c = name.split("-c")
        label = f"`reward={reward},c={c}` (B: `reward={reward}`, c 0.7)"
    else:
        label = LABELS.get(name, name)
    if name in ("wl", "sd", "mix"):
        label += " (c " + re.search(r"A: ismcts:c=([\d.]+)", report)[1] + ")"
    cells = [label, f"{int(budget):,}", cell, f"{g[1]} / {g[2]} / {g[3]}"]
    for kind in ("points", "units"):
        p = re.search(kind + r" margin A-B per game: " + NUM + r" \(95% CI " + NUM + " … " + NUM
                      + r"\)", points)
        if p:
            cells.append(bold_if(f"{p[1]} ({p[2]} … {p[3]})", num(p[2]), num(p[3]), 0.0))
    # The tables' minus sign, not a hyphen.
    cells = [re.sub(r"(?<![\w`=])-(?=\d)", "−", c) for c in cells]
    return "| " + " | ".join(re.sub(r"−0(?=[ )])", "0", c) for c in cells) + " |"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    out = sys.argv[1]
    names = sys.argv[2:] or [n for n in ORDER
                             if os.path.exists(os.path.join(out, n + ".points.txt"))]
    if not names:
        sys.exit(f"chapter6_table.py: no finished rows (NAME.points.txt) in {out}")
    for name in names:
        try:
            print(row(out, name))
        except (OSError, TypeError) as e:
            sys.exit(f"chapter6_table.py: row {name} in {out}: {e}")


if __name__ == "__main__":
    main()
