#!/usr/bin/env python3
"""How well time budgets hold: moves searched at `--ms` milliseconds through the engine protocol.

Without --game/--agent: every listed agent (and, for the search agents, a set of options that
change what happens around the search: endgames, tree reuse, inference, parallel modes) on every
game, up to --plies moves of one deal each, and the slowest moves listed. With --game and
--agent: that pair over --deals deals, and the median, 90th percentile and maximum wall time of
a `go` (protocol round trip included) and of the reply's own `time_ms`.

Wall times need a quiet machine. Moves that search nothing (forced) are left out.
"""
import argparse
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import Engine, EngineError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Options of the search agents that add work around the search itself.
VARIANTS = {
    "ismcts": ["", "preset=strong", "infer=200", "endgame=thesis", "endgame=20", "endgame=40",
               "reuse=true", "leaf_solve=10", "playout=nast", "playout=heuristic",
               "parallel=tree,threads=2", "parallel=root,threads=2", "parallel=leaf,threads=2"],
    "pimc": ["", "endgame=20", "parallel=tree,threads=2"],
    "uct": ["", "reuse=true"],
    "mo-ismcts": ["", "parallel=tree,threads=2"],
}


def moves(engine, game, spec, seed, ms, plies):
    """(wall ms, reply ms) of each searched move of one deal, and the engine's reason where it
    refused a `go` (the deal stops there; None if none was refused)."""
    out = []
    engine.ask(cmd="new", game=game, seed=seed)
    for _ in range(plies):
        start = time.perf_counter()
        try:
            reply = engine.ask(cmd="go", agent=spec, time_ms=ms, play=True)
        except EngineError as e:
            return out, e.error
        wall = (time.perf_counter() - start) * 1000
        if reply["iterations"] > 0:
            out.append((wall, reply["time_ms"]))
        if reply.get("terminal"):
            break
    return out, None


def p90(xs):
    """The 90th percentile of the sorted `xs` by nearest rank: the smallest value at least 90%
    of them do not exceed (not the maximum of ten)."""
    return xs[-(-9 * len(xs) // 10) - 1]  # ceil(0.9 n) - 1 in integers (0.9 * 70 > 63)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "cardsearch"))
    ap.add_argument("--ms", type=float, default=20.0, help="milliseconds a move")
    ap.add_argument("--game")
    ap.add_argument("--agent")
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--plies", type=int, default=12, help="moves of each deal in the survey")
    ap.add_argument("--show", type=int, default=20, help="slowest moves listed by the survey")
    args = ap.parse_args()
    if bool(args.game) != bool(args.agent):
        sys.exit("time_budgets.py: give --game and --agent together (one pair), or neither "
                 "(the survey)")
    if not 0 < args.ms < math.inf:
        sys.exit(f"time_budgets.py: --ms must be a positive number of milliseconds, not "
                 f"{args.ms:g}")
    for name in ("deals", "plies", "show"):
        if getattr(args, name) < 1:
            sys.exit(f"time_budgets.py: --{name} must be at least 1, not {getattr(args, name)}")
    engine = Engine(args.engine)
    if args.game and args.agent:
        walls, replies = [], []
        try:
            for seed in range(args.deals):
                searched, refused = moves(engine, args.game, args.agent, seed, args.ms, 10_000)
                if refused:
                    sys.exit(f"time_budgets.py: {args.game} {args.agent}: the engine refused "
                             f"a move of deal {seed}: {refused}")
                for wall, reply in searched:
                    walls.append(wall)
                    replies.append(reply)
        except EngineError as e:  # `new` refused: no such game
            sys.exit(f"time_budgets.py: --game {args.game}: {e.error}")
        finally:
            engine.close()
        if not walls:
            sys.exit(f"time_budgets.py: {args.game} {args.agent}: no move searched (every move "
                     "forced)")
        for name, xs in (("wall", walls), ("reply time_ms", replies)):
            xs.sort()
            print(f"{args.game} {args.agent} at {args.ms:g} ms, {len(xs)} moves, {name}: median "
                  f"{statistics.median(xs):.1f}, p90 {p90(xs):.1f}, max {xs[-1]:.1f} ms")
        return
    games = [g["name"] for g in engine.ask(cmd="games")["games"]]
    agents = [a["name"] for a in engine.ask(cmd="agents")["agents"]]
    rng = random.Random(1)
    seen = []
    for game in games:
        for agent in agents:
            for variant in VARIANTS.get(agent, [""]):
                spec = agent + (":" + variant if variant else "")
                # A refusal ends that pair's deal: some agents play only some games.
                searched, _ = moves(engine, game, spec, rng.randrange(1000), args.ms, args.plies)
                for wall, reply in searched:
                    seen.append((wall, reply, game, spec))
    engine.close()
    seen.sort(reverse=True)
    print(f"{len(seen)} searched moves at {args.ms:g} ms; the slowest (agents with their own "
          f"budget, such as pentago-student's 1.5 s, come first):")
    for wall, reply, game, spec in seen[:args.show]:
        print(f"  {wall:8.1f} ms wall, {reply:8.1f} ms reply  {game} {spec}")


if __name__ == "__main__":
    main()
