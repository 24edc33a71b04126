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

A game is known by `deal_index` and `seating_index`, its deal's games number `seatings_per_deal`
and its match by `agent_a` and `agent_b`. Logs of scripts/openspiel_match.py from before it
wrote these fields are still read: each deal's lines are taken as its seatings in file order,
as many as the arrangements of its seats (6 for two A and two B), with a note on stderr that
such a log cannot show whether a resumed run mixed settings. A log mixing lines with and
without the fields is refused.
"""
import json
import math
import sys
from collections import defaultdict

# The fields that place a game in its match; older scripts/openspiel_match.py logs have none.
MATCH_FIELDS = ("seating_index", "seatings_per_deal", "agent_a", "agent_b")


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
    """Mean of `xs` with its 95% t interval, as cardsearch's `DealMeans::interval` gives it:
    no interval (None, None) with fewer than two values, whose spread is unknown, or when every
    value is the same, which says the deals rarely differ, not that the mean is exact."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, None, None
    var = max(sum((x - m) ** 2 for x in xs) / (n - 1), 0.0)
    se = math.sqrt(var / n)
    if se <= 1e-12 * max(abs(m), 1.0):
        return m, None, None
    h = t95(n - 1) * se
    return m, m - h, m + h


def margins(g):
    """{"points": A's mean per seat minus B's, "units": likewise} of game `g`, for the kinds it
    has; TypeError or ValueError where its seats or values are not what a log holds."""
    seats = g["seats"]
    if not isinstance(seats, list) or not all(s in ("A", "B") for s in seats):
        raise ValueError('seats must be a list of "A" and "B"')
    out = {}
    for key, values in (("points", g.get("scores")), ("units", g.get("units"))):
        if not values:
            continue
        if not isinstance(values, list) or len(values) != len(seats):
            raise ValueError(f"{'scores' if key == 'points' else key} must have one number a seat")
        a = [float(v) for s, v in zip(seats, values) if s == "A"]
        b = [float(v) for s, v in zip(seats, values) if s == "B"]
        # A game where one side has no seat (a one-seat game) has no margin.
        if a and b:
            out[key] = sum(a) / len(a) - sum(b) / len(b)
    return out


def per_deal_margins(path):
    """Each complete deal's margins in the one match logged at `path`, by deal index, the
    number of deals left out as incomplete, and whether the log is an older
    scripts/openspiel_match.py one (no MATCH_FIELDS: seatings in file order); ValueError on a
    bad line, a game logged twice or a log of several matches (a tournament's)."""
    per_deal = defaultdict(lambda: {"points": [], "units": [], "games": 0, "seatings": 0})
    seen, pairs = set(), set()
    legacy = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            where = f"{path}:{number}"
            try:
                g = json.loads(line)
            except ValueError as e:
                raise ValueError(f"{where}: not a JSON line ({e})") from None
            if not isinstance(g, dict):
                raise ValueError(f"{where}: not a match log line (not a JSON object)")
            old = not any(k in g for k in MATCH_FIELDS)
            if legacy is None:
                legacy = old
            elif old != legacy:
                raise ValueError(f"{where}: the log mixes lines with and without "
                                 f"{', '.join(MATCH_FIELDS)}; give the log of one match")
            try:
                deal = per_deal[g["deal_index"]]
                if old:
                    # An older openspiel_match.py line: its deal's games in the order written,
                    # one for each arrangement of its seats.
                    seating = deal["games"]
                    seatings = math.comb(len(g["seats"]), g["seats"].count("A"))
                else:
                    seating, seatings = g["seating_index"], g["seatings_per_deal"]
                    pairs.add((g["agent_a"], g["agent_b"]))
                    if not all(isinstance(x, int) for x in (seating, seatings)):
                        raise ValueError("seating_index and seatings_per_deal must be whole "
                                         "numbers")
                found = margins(g)
            except KeyError as e:
                raise ValueError(f"{where}: not a match log line (no {e})") from None
            except (TypeError, ValueError, AttributeError) as e:
                raise ValueError(f"{where}: not a match log line ({e})") from None
            if len(pairs) > 1:
                raise ValueError(f"{where}: the log holds more than one match (a "
                                 "tournament's?); give the log of one match")
            game = (g["deal_index"], seating)
            if game in seen:
                raise ValueError(f"{where}: deal {game[0]} seating {game[1]} is logged twice")
            if not 0 <= seating < seatings:
                raise ValueError(f"{where}: deal {game[0]} has more games than its {seatings} "
                                 "seatings (one logged twice?)" if old else
                                 f"{where}: seating_index {seating} is not one of the "
                                 f"{seatings} seatings_per_deal")
            seen.add(game)
            deal["games"] += 1
            deal["seatings"] = seatings
            for key, value in found.items():
                deal[key].append(value)
    if not per_deal:
        raise ValueError(f"{path}: no games in the log")
    complete = {k: d for k, d in per_deal.items() if d["games"] == d["seatings"]}
    return complete, len(per_deal) - len(complete), bool(legacy)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    for path in sys.argv[1:]:
        try:
            per_deal, incomplete, legacy = per_deal_margins(path)
        except OSError as e:
            sys.exit(f"points_interval.py: cannot read {path}: {e.strerror}")
        except UnicodeDecodeError:
            sys.exit(f"points_interval.py: {path}: not UTF-8 text (not a match log)")
        except ValueError as e:
            sys.exit(f"points_interval.py: {e}")
        if legacy:
            print(f"points_interval.py: {path} has no seating_index (an older "
                  "openspiel_match.py log): each deal's games taken in file order; whether a "
                  "resumed run mixed settings cannot be checked", file=sys.stderr)
        left_out = f", {incomplete} unfinished left out" if incomplete else ""
        print(path, f"({len(per_deal)} deals{left_out})")
        for key in ("points", "units"):
            xs = [sum(d[key]) / len(d[key]) for d in per_deal.values() if d[key]]
            if xs:
                m, lo, hi = interval(xs)
                if lo is not None:
                    ci = f" (95% CI {lo:+.2f} … {hi:+.2f})"
                else:
                    ci = " (every deal alike: no interval)" if len(xs) >= 2 else ""
                print(f"  {key} margin A-B per game: {m:+.2f}{ci}")


if __name__ == "__main__":
    main()
