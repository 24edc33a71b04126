#!/usr/bin/env python3
"""The engine's search rate through its protocol, at a game's bench positions.

    cargo build --release
    python3 scripts/engine_rate.py                              # Hearts, ismcts:c=0.7, 10 rounds
    python3 scripts/engine_rate.py --game sueca --agent ismcts --rounds 5 --gos 3

Each round sends every bench position of the game (benches/positions.jsonl) to one
`cardsearch engine` as `scripts/openspiel_hearts.py` does (`new`, the moves as `play`s), then
`--gos` 10,000-iteration `go`s there: the first with an agent made for the new game, the
others with the engine's kept agent. Prints, for each `go` in turn, the median over positions
of each position's median rate over rounds, by the engine's CPU time and by the `time_ms` it
reports, so the cost of a new agent and of the protocol can be read beside criterion's rate
for the same positions (`search/<game>/ismcts`).
"""

import argparse
import json
import os
import statistics
import sys

from engine_client import Engine, EngineError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "cardsearch"))
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--agent", default="ismcts:c=0.7")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--gos", type=int, default=3, help="searches at each position per round")
    ap.add_argument("--iterations", type=int, default=10_000)
    args = ap.parse_args()
    for name in ("rounds", "gos", "iterations"):
        if getattr(args, name) < 1:
            sys.exit(f"engine_rate.py: --{name} must be at least 1, not {getattr(args, name)}")

    with open(os.path.join(ROOT, "benches", "positions.jsonl")) as f:
        positions = [p for p in map(json.loads, f) if p["game"] == args.game]
    if not positions:
        raise SystemExit(f"no bench positions for game '{args.game}'")
    engine = Engine(args.engine)
    try:
        rates = measure(engine, args, positions)
    except EngineError as e:  # an agent or option the engine does not know, …
        sys.exit(f"engine_rate.py: {e.error}")
    finally:
        engine.close()
    print(f"{args.game}, {args.agent}, {args.iterations} iterations a go, {len(positions)} "
          f"positions, median over positions of the median of {args.rounds} rounds")
    for clock in ("cpu", "time_ms"):
        for k in range(args.gos):
            per = [statistics.median(rates[(clock, k, i)]) for i in range(len(positions))]
            which = "first go after new (new agent)" if k == 0 else f"go {k + 1} (kept agent)"
            print(f"  by {clock:8} {which:32} {statistics.median(per):12.0f} it/s")


def measure(engine, args, positions):
    """{(clock, go, position): [iterations/s per round]}."""
    rates = {}
    for rnd in range(args.rounds):
        for i, p in enumerate(positions):
            engine.ask(cmd="new", game=args.game, deal=p["deal"])
            for move in p["moves"]:
                engine.ask(cmd="play", move=move)
            for k in range(args.gos):
                # Read while the engine waits for a request: its CPU time is then exact (a
                # running thread's is only as fresh as the last scheduler tick).
                before = engine.cpu_s()
                reply = engine.ask(cmd="go", agent=args.agent, iterations=args.iterations,
                                   seed=1000 * rnd + i)
                cpu = engine.cpu_s() - before
                rates.setdefault(("cpu", k, i), []).append(reply["iterations"] / cpu)
                rates.setdefault(("time_ms", k, i), []).append(
                    reply["iterations"] / (reply["time_ms"] / 1e3))
    return rates


if __name__ == "__main__":
    main()
