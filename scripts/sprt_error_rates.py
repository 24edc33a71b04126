#!/usr/bin/env python3
"""Error rates of `cardsearch match --sprt` by simulation, with and without its minimum of deals.

Usage: scripts/sprt_error_rates.py [RUNS]   (default 4000 simulated matches per row)

Each simulated deal is two games (seats swapped) of independent outcomes, 15% of them draws; the
test is the one in src/harness/stats.rs (`Sprt`): the normal-approximation log-likelihood ratio
n (s1 - s0)(2 mean - s0 - s1) / (2 var) with the deals' sample variance, floored at 1/(4n) per
deal as the score's interval floors it, against Wald's bounds for alpha = beta = 0.05. For each
pair of hypotheses and each minimum number of deals before the test may stop, it prints how often
even agents are judged +elo1 better (false H1) and +elo1 agents are judged even (false H0): both
should be at most 5%.
"""
import math
import random
import sys


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def run(true_elo, elo0, elo1, min_deals, rng, draws=0.15, seats=2, max_deals=20000):
    p = score(true_elo)
    win = p - draws / 2
    s0, s1 = score(elo0), score(elo1)
    lo, hi = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    n, total, squares = 0, 0.0, 0.0
    while n < max_deals:
        x = 0.0
        for _ in range(seats):
            u = rng.random()
            x += 1.0 if u < win else (0.5 if u < win + draws else 0.0)
        x /= seats
        n += 1
        total += x
        squares += x * x
        if n < max(2, min_deals):
            continue
        mean = total / n
        var = max((squares - total * total / n) / (n - 1), 0.25 / n)
        llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        if llr >= hi:
            return "H1", n
        if llr <= lo:
            return "H0", n
    return "none", n


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return
    try:
        runs = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    except ValueError:
        runs = None
    # Half the runs simulate +elo1 agents, so two is the fewest that measures both rates.
    if runs is None or runs < 2 or len(sys.argv) > 2:
        sys.exit(f"sprt_error_rates.py: RUNS must be one whole number from 2 up, not "
                 f"{' '.join(sys.argv[1:])!r}")
    rng = random.Random(5)
    for elo1 in (100, 50):
        for min_deals in (2, 10, 20, 30):
            false_h1 = deals = 0
            for _ in range(runs):
                decision, n = run(0, 0, elo1, min_deals, rng)
                false_h1 += decision == "H1"
                deals += n
            false_h0 = sum(run(elo1, 0, elo1, min_deals, rng)[0] == "H0" for _ in range(runs // 2))
            print(f"--sprt 0,{elo1}, no decision before deal {min_deals:>2}: "
                  f"false H1 {false_h1 / runs:.3f}, false H0 {false_h0 / (runs // 2):.3f}, "
                  f"mean deals {deals / runs:.0f}")


if __name__ == "__main__":
    main()
