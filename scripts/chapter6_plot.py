#!/usr/bin/env python3
"""The chapter-6 tables of docs/results.md as one SVG: each row's Elo with its 95% interval.

Usage: scripts/chapter6_plot.py [--results docs/results.md] [--out docs/data/ch6/chapter6.svg]

Reads the tables of the section "The thesis's chapter 6 at its own settings" (the 300-deal
tables of each game and the later tables of rows rerun over 1,000 deals) and draws, per game,
every row of scripts/chapter6.sh with the largest number of deals the section has for it. A
filled dot is a row over 1,000 deals, an open one over 300; dark rows have an interval that
excludes 0 Elo. Head-to-head rows, which have no plain-ISMCTS side, are left out.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chapter6_table import LABELS, ORDER  # noqa: E402  (one list of rows for both scripts)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["Sueca", "Bisca", "Hearts"]
SIGNED = r"([+−-]?\d+)"
VALUES = re.compile(r"(\d\.\d{3}) \((\d\.\d{3})–(\d\.\d{3})\), " + SIGNED + r" \(" + SIGNED
                    + " … " + SIGNED + r"\)")
POLICIES = {"roulette": "roulette", "UCB1": "ucb1", "Gibbs": "gibbs", "ε-greedy": "egreedy"}


def signed(text):
    return int(text.replace("−", "-"))


def row_key(label):
    """The scripts/chapter6.sh row a table's first cell names, or None."""
    if "head to head" in label:
        return None
    if "PIMC with voting" in label:
        return "pimc"
    if "PIMC summing visits" in label:
        return "pimc-sum"
    m = re.search(r"`reward=(wl|sd|mix)", label)
    if m:
        return m[1]
    m = re.search(r"NAST n=(\d) (\S+)", label)
    if m:
        return POLICIES.get(m[2]) if m[1] == "2" else f"nast{m[1]}"
    m = re.search(r"`c=([\d.]+)`", label)
    if m:
        return f"c{m[1]}"
    return None


def section(text):
    """The chapter-6 section of docs/results.md (ValueError if it has none)."""
    first = "## The thesis's chapter 6 at its own settings"
    after = "### The thesis's findings, checked against its text"
    start, end = text.find(first), text.find(after)
    if start < 0 or end < start:
        raise ValueError(f"no section from '{first}' to '{after}'")
    return text[start:end]


def read_rows(text):
    """{(game, row): (deals, elo, low, high, label)}, the most deals for each row."""
    rows = {}
    table_game, table_deals = None, 300
    for line in section(text).splitlines():
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        values = VALUES.search(line)
        if values is None:
            # A header: "Sueca row", "Sueca row, 1,000 deals (…)" or a mixed table's "row".
            table_game = next((g for g in GAMES if cells[0].startswith(g + " row")), None)
            table_deals = 1000 if "1,000" in cells[0] else 300
            continue
        label = cells[0]
        game = next((g for g in GAMES if label.startswith(g + ", ")), table_game)
        key = row_key(label)
        if game is None or key is None:
            continue
        deals = 1000 if "1,000" in label or cells[1].startswith("1,000") else table_deals
        elo, low, high = (signed(values[i]) for i in (4, 5, 6))
        if deals >= rows.get((game, key), (0,))[0]:
            rows[(game, key)] = (deals, elo, low, high, label_of(key, label))
    return rows


def label_of(key, label):
    """The plot's label of row `key`, whose table label is `label`."""
    if key in ("pimc", "pimc-sum"):
        return "SO-ISMCTS against PIMC, " + ("voting" if key == "pimc" else "visits summed")
    if key.startswith("c"):
        return f"c = {key[1:]} against 0.7 (2,500 it)"
    short = LABELS.get(key, key).replace("`", "")
    # The reward rows' constant differs by game: the table's label has it.
    c = re.search(r"\((?:both sides )?c ([\d.]+)", label)
    return f"{short}, c {c[1]}" if key in ("wl", "sd", "mix") and c else short


def nice_step(span):
    for step in (5, 10, 20, 25, 50, 100):
        if span / step <= 8:
            return step
    return 200


def svg(rows):
    label_w, plot_w, row_h, head_h = 250, 420, 17, 44
    width = label_w + plot_w + 200
    parts, y = [], 10
    for game in GAMES:
        keys = [k for k in ORDER if (game, k) in rows]
        if not keys:
            continue
        lows = [rows[(game, k)][2] for k in keys] + [0]
        highs = [rows[(game, k)][3] for k in keys] + [0]
        step = nice_step(max(highs) - min(lows))
        x_min = step * ((min(lows) // step) - (1 if min(lows) % step == 0 else 0))
        x_max = step * (-(-max(highs) // step) + (1 if max(highs) % step == 0 else 0))

        def x(elo):
            return label_w + plot_w * (elo - x_min) / (x_max - x_min)

        height = head_h + row_h * len(keys)
        parts.append(f'<text x="10" y="{y + 16}" font-weight="bold">{game}: each row\'s agent '
                     f'against its baseline, Elo with 95% interval</text>')
        top, bottom = y + head_h - 6, y + height
        for tick in range(x_min, x_max + 1, step):
            parts.append(f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom}" '
                         f'stroke="{"#888" if tick == 0 else "#e4e4e4"}"/>')
            parts.append(f'<text x="{x(tick):.1f}" y="{top - 3}" font-size="10" '
                         f'text-anchor="middle">{tick:+d}</text>'.replace("+0<", "0<"))
        for i, key in enumerate(keys):
            deals, elo, low, high, label = rows[(game, key)]
            cy = y + head_h + row_h * i + row_h / 2
            colour = "#1f4e9c" if low > 0 or high < 0 else "#999"
            fill = colour if deals >= 1000 else "white"
            parts.append(f'<text x="10" y="{cy + 4:.1f}" font-size="11">{label}</text>')
            parts.append(f'<line x1="{x(low):.1f}" y1="{cy:.1f}" x2="{x(high):.1f}" y2="{cy:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<circle cx="{x(elo):.1f}" cy="{cy:.1f}" r="4" fill="{fill}" '
                         f'stroke="{colour}" stroke-width="1.5"/>')
            parts.append(f'<text x="{label_w + plot_w + 8}" y="{cy + 4:.1f}" font-size="10">'
                         f'{elo:+d} ({low:+d} … {high:+d}), {deals:,} deals</text>')
        y = bottom + 18
    legend = ('filled: 1,000 deals; open: 300 deals; blue: the interval excludes 0. '
              'docs/results.md, "The thesis\'s chapter 6 at its own settings"')
    parts.append(f'<text x="10" y="{y + 4}" font-size="10">{legend}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 14}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results.md"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "data", "ch6", "chapter6.svg"))
    args = ap.parse_args()
    try:
        text = open(args.results, encoding="utf-8").read()
        rows = read_rows(text)
    except (OSError, ValueError) as e:
        sys.exit(f"{args.results}: {e}")
    if not rows:
        sys.exit(f"{args.results}: no chapter-6 rows found")
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(svg(rows))
    except OSError as e:
        sys.exit(f"cannot write {args.out}: {e.strerror}")
    for game in GAMES:
        n = sum(1 for g, _ in rows if g == game)
        big = sum(1 for (g, _), r in rows.items() if g == game and r[0] >= 1000)
        print(f"{game}: {n} rows, {big} over 1,000 deals")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
