#!/usr/bin/env python3
"""Hearts matches between this engine's agents and OpenSpiel's C++ ISMCTS, with 95% intervals.

    pip install open-spiel
    cargo build --release
    python3 scripts/openspiel_match.py --deals 4                      # a short check
    python3 scripts/openspiel_match.py --agent ismcts:preset=strong --iterations 30000 \\
        --os-sims 1000 --deals 200 --seed 1 --jobs 2 --out os-hearts.jsonl

Each deal is played in every arrangement of two engine seats (A) and two OpenSpiel seats (B),
six games, as `cardsearch match` seats Hearts. The engine's seats play through `cardsearch engine`
in view mode (docs/protocol.md): each knows its own cards and the moves played, nothing else.
OpenSpiel's seats are `ISMCTSBot`s with one random rollout per simulation and fresh
determinizations (`ResampleFromInfostate`), playing OpenSpiel's `hearts` (pass_cards=false; its
other defaults are this engine's rules). A third engine process with the whole deal referees:
every move is checked legal there and in OpenSpiel (the same seat to move and the same legal
moves at every step), and the result (rewards, penalty points) is read from it.

Budgets: `--iterations` or `--time-ms` for the engine, `--os-sims` or `--os-time-ms` for
OpenSpiel (wall clock). Iteration budgets give each side the same work on any machine, but not
the same games for the same seed: OpenSpiel's `ISMCTSBot` is not repeatable even with its seed
(2.0.2: three bots of one seed on one position, 20 simulations a move, did not all play alike);
time budgets need a quiet machine with at most one worker (`--jobs`) per core. Every game's
mean time a move on each side (the engine's searches as it reports them, OpenSpiel's as this
process's CPU time) is in the log and the report, so an "equal time" claim can be checked.

OpenSpiel's returns for Hearts are points (0-36, higher is better), not win or loss, so its UCT
constant is on that scale: `--os-c`, default 5, the best of the constants tried against the same
opponent on the same deals (docs/results.md, "Hearts against OpenSpiel").

The log (`--out`, JSON lines, one game each) has the fields of `cardsearch match` logs that
`scripts/points_interval.py` reads: `game`, `seed`, `deal_index`, `seating_index` (the
arrangement, 0-5), `seatings_per_deal` (6), `seats` "A"/"B", `agent_a` (the agent with its
budget, e.g. `ismcts:preset=strong,iterations=1000`), `agent_b` (e.g.
`openspiel-ismcts:c=5,sims=1000`), `rewards` and `scores`, then each side's time a move.
Rerunning with the same `--out` and the same settings continues the run, skipping the deals
already there; other settings (agent, budgets, seed, `--os-c`) are refused, naming the field
that differs, and so is a log written before the lines kept their settings. `--report LOG`
prints the report of a log without playing.
"""

import argparse
import itertools
import json
import math
import multiprocessing
import os
import sys
import time

from engine_client import Engine
from openspiel_common import openspiel_state
from points_interval import interval, t95

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MASK64 = (1 << 64) - 1


def mix(*parts):
    """Independent seeds from (seed, position, ...): SplitMix64 over the parts."""
    z = 0x9E3779B97F4A7C15
    for p in parts:
        z = (z + (p & MASK64) + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
    return z & ((1 << 63) - 1)


def view_of(deal, seat):
    """The deal as `seat` sees it: its own hand, `?` for every other card."""
    hands = [h.split() for h in deal.split("|")]
    return " | ".join(" ".join(h if i == seat else ["?"] * len(h)) for i, h in enumerate(hands))


class Worker:
    """Plays whole deals: a referee, one engine per engine seat, OpenSpiel in process."""

    def __init__(self, args):
        import pyspiel
        self.pyspiel = pyspiel
        self.args = args
        self.game = pyspiel.load_game("hearts", {"pass_cards": False})
        self.referee = Engine(args.engine)
        self.players = [Engine(args.engine) for _ in range(2)]

    def close(self):
        for e in [self.referee] + self.players:
            e.close()

    def deal(self, index):
        return self.referee.ask(cmd="new", game="hearts",
                                seed=mix(self.args.seed, 1, index))["deal"]

    def os_bot(self, seed):
        a, ps = self.args, self.pyspiel
        seed &= (1 << 31) - 1  # OpenSpiel's seeds are C ints
        sims = a.os_sims if a.os_time_ms is None else 1 << 30
        clock = -1.0 if a.os_time_ms is None else a.os_time_ms / 1e3
        return ps.ISMCTSBot(seed, ps.RandomRolloutEvaluator(1, seed), a.os_c, sims, -1,
                            ps.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False, clock)

    def play(self, index, arrangement, deal, seats):
        """One game of `deal` (arrangement number `arrangement`) with A, the engine, in the
        seats marked "A"."""
        a = self.args
        ref = self.referee.ask(cmd="new", game="hearts", deal=deal)
        state = openspiel_state(self.game, deal)
        ours = {}
        for engine, seat in zip(self.players, [s for s in range(4) if seats[s] == "A"]):
            engine.ask(cmd="new", game="hearts", view={"seat": seat, "deal": view_of(deal, seat)})
            ours[seat] = engine
        bots = {s: self.os_bot(mix(a.seed, 2, index, arrangement, s))
                for s in range(4) if seats[s] == "B"}
        budget = {"iterations": a.iterations} if a.time_ms is None else {"time_ms": a.time_ms}
        time_a, time_b, iters_a, moves_a, moves_b = 0.0, 0.0, 0, 0, 0
        to_move = ref["to_move"]
        for ply in itertools.count():
            if state.current_player() != to_move:
                raise RuntimeError(f"deal {index}: OpenSpiel has player {state.current_player()} "
                                   f"to move, the referee seat {to_move}")
            legal = self.referee.ask(cmd="legal")["moves"]
            theirs = {state.action_to_string(x): x for x in state.legal_actions()}
            if sorted(legal) != sorted(theirs):
                raise RuntimeError(f"deal {index}: legal moves differ: {legal} vs {list(theirs)}")
            if seats[to_move] == "A":
                reply = ours[to_move].ask(cmd="go", agent=a.agent,
                                          seed=mix(a.seed, 3, index, arrangement, ply), **budget)
                move = reply["move"]
                time_a += reply["time_ms"]
                iters_a += reply["iterations"]
                moves_a += 1
            else:
                start = time.process_time()
                action = bots[to_move].step(state)
                time_b += (time.process_time() - start) * 1e3
                moves_b += 1
                move = state.action_to_string(action)
            state.apply_action(theirs[move])
            for engine in ours.values():
                engine.ask(cmd="play", move=move, seat=to_move)
            ref = self.referee.ask(cmd="play", move=move, seat=to_move)
            if ref["terminal"]:
                break
            to_move = ref["to_move"]
        if not state.is_terminal():
            raise RuntimeError(f"deal {index}: the referee ended the game, OpenSpiel did not")
        run = settings(a)
        return {"game": run["game"], "seed": run["seed"], "deal_index": index,
                "seating_index": arrangement, "seatings_per_deal": len(ARRANGEMENTS),
                "seats": seats, "agent_a": run["agent_a"], "agent_b": run["agent_b"],
                "rewards": ref["rewards"], "scores": ref["scores"],
                "a_ms_per_move": time_a / moves_a, "b_ms_per_move": time_b / moves_b,
                "a_iterations_per_move": iters_a / moves_a}


WORKER = None


def init_worker(args):
    global WORKER
    WORKER = Worker(args)


def play_deal(index):
    deal = WORKER.deal(index)
    return [WORKER.play(index, k, deal, s) for k, s in enumerate(ARRANGEMENTS)]


# Every way to give two of the four seats to A; a game's `seating_index` is its place here.
ARRANGEMENTS = [["A" if i in pick else "B" for i in range(4)]
                for pick in itertools.combinations(range(4), 2)]


def number(x):
    """`x` as short as it reads back exactly: 5, 0.7, 42.5."""
    return f"{x:g}" if float(f"{x:g}") == x else repr(x)


def settings(args):
    """What decides a run's games, as every line of its log records it: the game, the seed, A
    (the engine's agent with its budget, as `cardsearch match` takes an agent's own budget) and
    B (OpenSpiel's constant and budget)."""
    own = (f"iterations={args.iterations}" if args.time_ms is None
           else f"time_ms={number(args.time_ms)}")
    os_budget = (f"sims={args.os_sims}" if args.os_time_ms is None
                 else f"ms={number(args.os_time_ms)}")
    return {"game": "hearts", "seed": args.seed,
            "agent_a": args.agent + ("," if ":" in args.agent else ":") + own,
            "agent_b": f"openspiel-ismcts:c={number(args.os_c)},{os_budget}"}


# The options that set each field of `settings`, for the message that refuses a resume.
SETTING_OPTIONS = {"game": "this script plays hearts", "seed": "--seed",
                   "agent_a": "--agent, --iterations, --time-ms",
                   "agent_b": "--os-c, --os-sims, --os-time-ms"}


ELO_LIMIT = 1000


def elo(score):
    """The Elo difference whose expected score is `score`, as `cardsearch` writes it: clamped to
    ±1000, a value at the clamp written as the bound it is (`≥+1000`, `≤-1000`)."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    value = min(max(400 * math.log10(s / (1 - s)), -ELO_LIMIT), ELO_LIMIT)
    if value >= ELO_LIMIT:
        return f"≥+{ELO_LIMIT}"
    if value <= -ELO_LIMIT:
        return f"≤-{ELO_LIMIT}"
    return f"{round(value) + 0:+d}"  # + 0: never -0


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def game_problem(g):
    """What keeps `g` from being a game of this script's log, or None."""
    if not isinstance(g, dict):
        return "not a JSON object"
    if not isinstance(g.get("deal_index"), int) or isinstance(g.get("deal_index"), bool):
        return "no deal_index"
    seats = g.get("seats")
    if not isinstance(seats, list) or sorted(map(str, seats)) != ["A", "A", "B", "B"]:
        return "seats must be two \"A\" and two \"B\""
    for key in ("rewards", "scores"):
        values = g.get(key)
        if not isinstance(values, list) or len(values) != 4 or not all(map(is_number, values)):
            return f"{key} must be four numbers"
    for key in ("a_ms_per_move", "b_ms_per_move", "a_iterations_per_move"):
        if not is_number(g.get(key)):
            return f"no {key}"
    return None


def load_log(path):
    """The games logged at `path`, checked: each line a game with what the report reads, no game
    twice, and every line of one run (the same settings, where the lines record them). Exits
    with a one-line error naming the line otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = list(enumerate(f, 1))
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"openspiel_match.py: cannot read {path}: {getattr(e, 'strerror', None) or e}")
    games, first, seen = [], None, set()
    for number, line in lines:
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            g = json.loads(line)
        except ValueError as e:
            sys.exit(f"openspiel_match.py: {where}: not a JSON line ({e})")
        problem = game_problem(g)
        if problem:
            sys.exit(f"openspiel_match.py: {where}: not a game of an openspiel_match.py log "
                     f"({problem})")
        first = first or (number, g)
        for key in SETTING_OPTIONS:
            if g.get(key) != first[1].get(key):
                sys.exit(f"openspiel_match.py: {where}: {key} {g.get(key)!r}, line {first[0]}'s "
                         f"{first[1].get(key)!r}: a log holds the games of one run's settings")
        if "seating_index" in g:
            game = (g["deal_index"], g["seating_index"])
            if game in seen:
                sys.exit(f"openspiel_match.py: {where}: deal {game[0]} seating {game[1]} is "
                         "logged twice")
            seen.add(game)
        games.append(g)
    return games


def side_mean(game, key, side):
    values = [v for s, v in zip(game["seats"], game[key]) if s == side]
    return sum(values) / len(values)


def report(games, out=sys.stdout):
    """A's score (as `cardsearch match` defines it), penalty points and times, with intervals."""
    by_deal = {}
    for g in games:
        by_deal.setdefault(g["deal_index"], []).append(g)
    scores, points = [], []
    won = drew = lost = 0
    for deal_games in by_deal.values():
        s = [(1 + side_mean(g, "rewards", "A") - side_mean(g, "rewards", "B")) / 2
             for g in deal_games]
        p = [side_mean(g, "scores", "A") - side_mean(g, "scores", "B") for g in deal_games]
        scores.append(sum(s) / len(s))
        points.append(sum(p) / len(p))
        won += sum(x > 0.5 for x in s)
        drew += sum(x == 0.5 for x in s)
        lost += sum(x < 0.5 for x in s)
    m, lo, hi = score_interval(scores)
    pm, plo, phi = interval(points)
    # One deal (or deals all alike) has no interval; cardsearch then prints the margin alone.
    margin_ci = f"95% CI {plo:+.2f} … {phi:+.2f}; " if plo is not None else ""
    mean = lambda key: sum(g[key] for g in games) / len(games)
    a_points = sum(side_mean(g, "scores", "A") for g in games) / len(games)
    b_points = sum(side_mean(g, "scores", "B") for g in games) / len(games)
    print(f"{len(by_deal)} deals, {len(games)} games (every arrangement of two A and two B seats)",
          file=out)
    print(f"  A's score {m:.3f} (95% CI {lo:.3f}-{hi:.3f}), Elo {elo(m)} "
          f"({elo(lo)} … {elo(hi)}); A won / drew / lost {won} / {drew} / {lost}",
          file=out)
    print(f"  penalty points a seat a game: A {a_points:.2f}, B {b_points:.2f}; A − B "
          f"{pm:+.2f} ({margin_ci}fewer is better)", file=out)
    print(f"  time a move: A {mean('a_ms_per_move'):.1f} ms ({mean('a_iterations_per_move'):,.0f} "
          f"iterations), B {mean('b_ms_per_move'):.1f} ms CPU", file=out)


def score_interval(scores):
    """Mean deal score with its 95% interval as cardsearch's `Tally::interval` computes it: all of
    0…1 below two deals; else Student's t on the standard error, floored at that of a spread
    of half a point over the deals (so a few deals all alike do not look exact), clipped to the
    scores a deal can have."""
    n = len(scores)
    m = sum(scores) / n
    if n < 2:
        return m, 0.0, 1.0
    var = max(sum((x - m) ** 2 for x in scores) / (n - 1), 0.0)
    se = max(math.sqrt(var / n), math.sqrt(0.25 / n / n))
    h = min(t95(n - 1) * se, 1.0)
    return m, max(m - h, 0.0), min(m + h, 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "cardsearch"))
    ap.add_argument("--agent", default="ismcts:preset=strong", help="the engine's agent (A)")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, help="A's iterations a move (default 1000)")
    budget.add_argument("--time-ms", type=float, help="A's wall-clock milliseconds a move")
    os_budget = ap.add_mutually_exclusive_group()
    os_budget.add_argument("--os-sims", type=int, default=1000,
                           help="OpenSpiel's simulations a move (B; default 1000)")
    os_budget.add_argument("--os-time-ms", type=float, help="OpenSpiel's wall-clock ms a move")
    ap.add_argument("--os-c", type=float, default=5.0,
                    help="OpenSpiel's UCT constant, on its points scale (default 5)")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="deals played at once (one per core)")
    ap.add_argument("--out", help="JSON-lines log of every game; continued when it exists")
    ap.add_argument("--report", metavar="LOG", help="print the report of a log and stop")
    args = ap.parse_args()
    if args.report:
        games = load_log(args.report)
        if not games:
            sys.exit(f"openspiel_match.py: {args.report} holds no games")
        report(games)
        return
    if args.time_ms is None and args.iterations is None:
        args.iterations = 1000
    for name in ("iterations", "time_ms", "os_sims", "os_time_ms", "deals", "jobs"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            sys.exit(f"--{name.replace('_', '-')} must be positive, not {value}")
    if not (0 <= args.os_c < float("inf")):
        sys.exit(f"--os-c must be a number from 0 up, not {args.os_c}")
    if not os.path.exists(args.engine):
        sys.exit(f"no engine at {args.engine}: run `cargo build --release` or pass --engine")
    try:
        import pyspiel  # noqa: F401 (checked here for a one-line error)
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open-spiel")

    games = load_log(args.out) if args.out and os.path.exists(args.out) else []
    if games:
        # Continue only a run of these settings: its games and these would be one match.
        missing = [key for key in SETTING_OPTIONS if key not in games[0]]
        if missing:
            sys.exit(f"openspiel_match.py: {args.out} records no {', '.join(missing)} (written "
                     "before the log kept its settings), so it cannot be continued: give "
                     "another --out")
        for key, value in settings(args).items():
            have = games[0][key]
            if have != value:
                sys.exit(f"openspiel_match.py: {args.out} was played with {key} {have!r}, this "
                         f"run's is {value!r} ({SETTING_OPTIONS[key]}): rerun with its settings "
                         "or give another --out")
    done = {g["deal_index"] for g in games}
    todo = [i for i in range(args.deals) if i not in done]
    log = open(args.out, "a") if args.out else None
    print(f"A = {args.agent} ({'%d iterations' % args.iterations if args.iterations else '%g ms' % args.time_ms}), "
          f"B = OpenSpiel ISMCTS ({'%d simulations' % args.os_sims if args.os_time_ms is None else '%g ms' % args.os_time_ms}, "
          f"c = {args.os_c:g}); {len(todo)} deals to play, {len(done)} in the log", file=sys.stderr)
    started = time.time()
    try:
        play_all(args, todo, games, log, started)
    except RuntimeError as e:
        sys.exit(f"error: {e}")
    if games:
        report(games)


def play_all(args, todo, games, log, started):
    """Plays the deals in `todo` on `args.jobs` workers, logging and showing progress."""
    with multiprocessing.Pool(args.jobs, initializer=init_worker, initargs=(args,)) as pool:
        for k, deal_games in enumerate(pool.imap_unordered(play_deal, todo), 1):
            games.extend(deal_games)
            if log:
                for g in deal_games:
                    log.write(json.dumps(g) + "\n")
                log.flush()
            if k % max(1, len(todo) // 20) == 0 or k == len(todo):
                elapsed = time.time() - started
                print(f"  {k}/{len(todo)} deals, {elapsed / 60:.1f} min, about "
                      f"{elapsed / k * (len(todo) - k) / 60:.1f} min left", file=sys.stderr)


if __name__ == "__main__":
    main()
