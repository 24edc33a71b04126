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
# A signed number as the reports print it, with a hyphen or the tables' minus sign; an Elo bound
# at cardsearch's clamp is open (`≤-1000`, `≥+1000`: the score's interval touches 0 or 1), and a
# margin over one deal has no interval (`-inf … +inf`).
NUM = r"([≤≥]?[+\-−]?\d+(?:\.\d+)?)"
MARGIN = r"([+\-−]?(?:\d+(?:\.\d+)?|inf))"


def bold_if(text, low, high, zero):
    return f"**{text}**" if low > zero or high < zero else text


def num(s):
    return float(s.replace("−", "-"))


def find(pattern, text, path, what):
    """The match of `pattern` in `text`; ValueError naming `path` and `what` when none."""
    m = re.search(pattern, text)
    if m is None:
        raise ValueError(f"{path}: no {what}")
    return m


def row(out, name):
    report_path = os.path.join(out, name + ".report.txt")
    points_path = os.path.join(out, name + ".points.txt")
    report = open(report_path, encoding="utf-8").read()
    points = open(points_path, encoding="utf-8").read()
    m = find(r"A mean score (\d\.\d+) ± [\d.]+ \(95% CI (\d\.\d+)–(\d\.\d+)\), Elo "
             + NUM + r" \(" + NUM + " … " + NUM + r"\)", report, report_path,
             "score line ('A mean score … (95% CI …), Elo …')")
    score, lo, hi = float(m[1]), float(m[2]), float(m[3])
    # An open bound (≤-1000, ≥+1000) is kept as printed: the table says what the report says.
    elo = f"{m[4]} ({m[5]} … {m[6]})"
    cell = bold_if(f"{m[1]} ({m[2]}–{m[3]}), {elo}", lo, hi, 0.5)
    g = find(r"A won (\d+), drew (\d+), lost (\d+)", report, report_path,
             "'A won …, drew …, lost …' line")
    budget = find(r"(\d+) it per move", report, report_path, "iteration budget ('N it per move')")[1]
    if name.startswith("c"):
        label = f"`c={name[1:]}` (B: c 0.7)"
    elif re.fullmatch(r"(wl|sd)-c[\d.]+", name):
        reward, c = name.split("-c")
        label = f"`reward={reward},c={c}` (B: `reward={reward}`, c 0.7)"
    else:
        label = LABELS.get(name, name)
    if name in ("wl", "sd", "mix"):
        label += " (c " + find(r"A: ismcts:c=([\d.]+)", report, report_path,
                               "agent line ('A: ismcts:c=…')")[1] + ")"
    cells = [label, f"{int(budget):,}", cell, f"{g[1]} / {g[2]} / {g[3]}"]
    for kind in ("points", "units"):
        # The interval is left out for one deal or deals all alike (points_interval.py).
        p = re.search(kind + r" margin A-B per game: " + MARGIN + r"(?: \(95% CI " + MARGIN
                      + " … " + MARGIN + r"\))?", points)
        if p and p[2] is not None:
            cells.append(bold_if(f"{p[1]} ({p[2]} … {p[3]})", num(p[2]), num(p[3]), 0.0))
        elif p:
            cells.append(f"{p[1]} (no interval)")
        elif kind == "points":
            raise ValueError(f"{points_path}: no 'points margin A-B per game' line "
                             "(scripts/points_interval.py's output)")
    # The tables' minus sign, not a hyphen.
    cells = [re.sub(r"(?<![\w`=])-(?=\d|inf)", "−", c) for c in cells]
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
        except OSError as e:
            sys.exit(f"chapter6_table.py: row {name} in {out}: cannot read {e.filename}: "
                     f"{e.strerror}")
        except ValueError as e:  # UnicodeDecodeError too
            sys.exit(f"chapter6_table.py: row {name} in {out}: {e}")


if __name__ == "__main__":
    main()
