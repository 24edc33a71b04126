#!/usr/bin/env python3
"""The chapter-6 results of docs/results.md as two SVG plots.

Usage: scripts/chapter6_plot.py [--results docs/results.md] [--out docs/data/ch6/chapter6.svg]
                                [--reports docs/data/ch6] [--constants-out FILE]

Reads the tables of the section "The thesis's chapter 6 at its own settings" (the 300-deal
tables of each game and the later tables of rows rerun over 1,000 deals) and draws, per game,
every row of scripts/chapter6.sh with the largest number of deals the section has for it. A
filled dot is a row over 1,000 deals, an open one over 300; dark rows have an interval that
excludes 0 Elo. Head-to-head rows, which have no plain-ISMCTS side, are left out.

The second plot (`--constants-out`, by default chapter6-constants.svg beside the first) is the
exploration-constant sweeps as the thesis drew them (its figures 6.5 and 6.6): per game, the
Elo of each reward (PWL, WL, SD) at each c against the same reward at c = 0.7, with 95%
intervals, read from the match reports in `--reports` (GAME-cC.txt, GAME-wl-cC.txt,
GAME-sd-cC.txt, each `-1000deals` where there is one).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chapter6_table import LABELS, ORDER  # noqa: E402  (one list of rows for both scripts)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["Sueca", "Bisca", "Hearts"]
# An Elo as the tables and reports write it, hyphen or minus sign; at cardsearch's clamp it is an
# open bound (`≤-1000`, `≥+1000`: the score's interval touches 0 or 1), read as ±1000.
SIGNED = r"([≤≥]?[+−-]?\d+)"
VALUES = re.compile(r"(\d\.\d{3}) \((\d\.\d{3})–(\d\.\d{3})\), " + SIGNED + r" \(" + SIGNED
                    + " … " + SIGNED + r"\)")
POLICIES = {"roulette": "roulette", "UCB1": "ucb1", "Gibbs": "gibbs", "ε-greedy": "egreedy"}


ELO_LIMIT = 1000


def signed(text):
    return int(text.replace("−", "-").lstrip("≤≥"))


def elo_text(elo):
    """`elo` as the reports write it: a value at the clamp as the open bound it is."""
    if elo >= ELO_LIMIT:
        return f"≥+{ELO_LIMIT}"
    if elo <= -ELO_LIMIT:
        return f"≤-{ELO_LIMIT}"
    return f"{elo:+d}"


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


def axis(lows, highs, pad):
    """An Elo axis covering 0 and every interval: (low end, high end, tick step), the ends on
    ticks; with `pad`, an end that falls on a tick gets one more step of room."""
    low, high = min(lows + [0]), max(highs + [0])
    step = next((s for s in (5, 10, 20, 25, 50, 100) if (high - low) / s <= 8), 200)
    start = step * (low // step) - (step if pad and low % step == 0 else 0)
    end = step * -(-high // step) + (step if pad and high % step == 0 else 0)
    return start, end, step


def document(width, height, parts):
    """A white SVG page of the given size holding the elements `parts`."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def rows_svg(rows):
    label_w, plot_w, row_h, head_h = 250, 420, 17, 44
    width = label_w + plot_w + 200
    parts, y = [], 10
    for game in GAMES:
        keys = [k for k in ORDER if (game, k) in rows]
        if not keys:
            continue
        x_min, x_max, step = axis([rows[(game, k)][2] for k in keys],
                                  [rows[(game, k)][3] for k in keys], pad=True)

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
                         f'{elo_text(elo)} ({elo_text(low)} … {elo_text(high)}), {deals:,} '
                         'deals</text>')
        y = bottom + 18
    legend = ('filled: 1,000 deals; open: 300 deals; blue: the interval excludes 0. '
              'docs/results.md, "The thesis\'s chapter 6 at its own settings"')
    parts.append(f'<text x="10" y="{y + 4}" font-size="10">{legend}</text>')
    return document(width, y + 14, parts)


REPORT = re.compile(r"A mean score [\d.]+ ± [\d.]+ \(95% CI [\d.]+–[\d.]+\), Elo "
                    + SIGNED + r" \(" + SIGNED + " … " + SIGNED + r"\), (\d+) deals")
REWARDS = [("pwl", "", "#222"), ("wl", "wl-", "#1f4e9c"), ("sd", "sd-", "#d9730d")]
CONSTANTS = ["0", "0.25", "0.5", "1.0", "1.5", "1.75", "2.0"]


def read_sweeps(folder):
    """{(game, reward, c): (deals, elo, low, high)} from the match reports in `folder`."""
    sweeps = {}
    for game in GAMES:
        for reward, prefix, _ in REWARDS:
            for c in CONSTANTS:
                for suffix in ("-1000deals", ""):
                    path = os.path.join(folder, f"{game.lower()}-{prefix}c{c}{suffix}.txt")
                    if os.path.exists(path):
                        m = REPORT.search(open(path, encoding="utf-8").read())
                        if m is None:
                            raise ValueError(f"{path}: no score line")
                        sweeps[(game, reward, float(c))] = (
                            int(m[4]), signed(m[1]), signed(m[2]), signed(m[3]))
                        break
    return sweeps


def constants_svg(sweeps):
    panel_w, panel_h, left, top, gap = 300, 300, 48, 40, 20
    parts, x0 = [], 0
    for game in GAMES:
        points = {k: v for k, v in sweeps.items() if k[0] == game}
        if not points:
            continue
        y_min, y_max, step = axis([v[2] for v in points.values()],
                                  [v[3] for v in points.values()], pad=False)

        def px(c):
            return x0 + left + (panel_w - left - 10) * c / 2.0

        def py(elo):
            return top + (panel_h - top - 30) * (y_max - elo) / (y_max - y_min)

        parts.append(f'<text x="{x0 + left}" y="18" font-weight="bold">{game}</text>')
        for tick in range(y_min, y_max + 1, step):
            parts.append(f'<line x1="{px(0):.1f}" y1="{py(tick):.1f}" x2="{px(2):.1f}" '
                         f'y2="{py(tick):.1f}" stroke="{"#888" if tick == 0 else "#e4e4e4"}"/>')
            parts.append(f'<text x="{px(0) - 4:.1f}" y="{py(tick) + 3:.1f}" font-size="10" '
                         f'text-anchor="end">{tick}</text>')
        for c in (0, 0.5, 1.0, 1.5, 2.0):
            parts.append(f'<text x="{px(c):.1f}" y="{py(y_min) + 14:.1f}" font-size="10" '
                         f'text-anchor="middle">{c:g}</text>')
        parts.append(f'<line x1="{px(0.7):.1f}" y1="{py(y_max):.1f}" x2="{px(0.7):.1f}" '
                     f'y2="{py(y_min):.1f}" stroke="#888" stroke-dasharray="3,3"/>')
        for i, (reward, _, colour) in enumerate(REWARDS):
            # The three rewards side by side at each c, so their intervals do not overlap.
            shift = (i - 1) * 0.035
            series = sorted((c, v) for (g, r, c), v in points.items() if r == reward)
            series.append((0.7, (0, 0, 0, 0)))
            series.sort()
            line = " ".join(f"{px(c + shift):.1f},{py(v[1]):.1f}" for c, v in series)
            parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                         f'stroke-width="1.2" opacity="0.7"/>')
            for c, (deals, elo, low, high) in series:
                if deals == 0:
                    continue
                x = px(c + shift)
                parts.append(f'<line x1="{x:.1f}" y1="{py(low):.1f}" x2="{x:.1f}" '
                             f'y2="{py(high):.1f}" stroke="{colour}" stroke-width="1.5"/>')
                fill = colour if deals >= 1000 else "white"
                parts.append(f'<circle cx="{x:.1f}" cy="{py(elo):.1f}" r="3" fill="{fill}" '
                             f'stroke="{colour}" stroke-width="1.3"/>')
        x0 += panel_w + gap
    width = x0
    legend = [f'<tspan fill="{colour}">■ {reward.upper()}</tspan>' for reward, _, colour in REWARDS]
    parts.append(f'<text x="10" y="{panel_h + 12}" font-size="11">Elo (95% interval) of each '
                 f'reward at exploration constant c against the same reward at c = 0.7 (dashed), '
                 f'2,500 iterations: {" ".join(legend)}</text>')
    parts.append(f'<text x="10" y="{panel_h + 28}" font-size="10">filled: 1,000 deals; '
                 f'open: 300 deals. docs/results.md, "The thesis\'s constant sweeps for WL and '
                 f'SD" and the chapter-6 tables (PWL)</text>')
    return document(width, panel_h + 36, parts)


def write(path, text):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        sys.exit(f"cannot write {path}: {e.strerror}")
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results.md"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "data", "ch6", "chapter6.svg"))
    ap.add_argument("--reports", default=os.path.join(ROOT, "docs", "data", "ch6"))
    ap.add_argument("--constants-out", help="the sweeps' plot (default: chapter6-constants.svg "
                    "beside --out)")
    args = ap.parse_args()
    try:
        text = open(args.results, encoding="utf-8").read()
        rows = read_rows(text)
    except (OSError, ValueError) as e:
        sys.exit(f"{args.results}: {e}")
    if not rows:
        sys.exit(f"{args.results}: no chapter-6 rows found")
    try:
        sweeps = read_sweeps(args.reports)
    except (OSError, ValueError) as e:
        sys.exit(str(e))
    if not sweeps:
        sys.exit(f"{args.reports}: no constant-sweep reports (GAME-cC.txt, GAME-wl-cC.txt, …)")
    for game in GAMES:
        n = sum(1 for g, _ in rows if g == game)
        big = sum(1 for (g, _), r in rows.items() if g == game and r[0] >= 1000)
        swept = sum(1 for g, _, _ in sweeps if g == game)
        print(f"{game}: {n} rows, {big} over 1,000 deals; {swept} constant-sweep points")
    write(args.out, rows_svg(rows))
    constants_out = args.constants_out or os.path.join(os.path.dirname(args.out),
                                                       "chapter6-constants.svg")
    write(constants_out, constants_svg(sweeps))


if __name__ == "__main__":
    main()
