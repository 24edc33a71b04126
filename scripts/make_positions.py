#!/usr/bin/env python3
"""Writes benches/positions.jsonl: the positions the search benches, `search_speed positions`,
scripts/ab_speed.py and scripts/openspiel_hearts.py time.

Per game, DEALS seeded deals and four stages of each (see GAMES): the first decision with a
choice, the first one after 3 and after 6 completed tricks, and the first one with two tricks
left. Moves
between them are uniformly random legal moves from Python's generator seeded by the label, so
the file is a pure function of this script and the engine's dealing (`new` with a seed). Each
line: {"label", "game", "deal", "moves"}; replaying `moves` from `deal` reaches the position.
Lines of games this script does not generate (Pentago-Swap's positions, written by hand) are
kept as they are, after the generated ones.

Run once with a built engine: python3 scripts/make_positions.py [ENGINE] (default the
repository's target/release/cardsearch). It writes the repository's benches/positions.jsonl
from whatever folder it is run in.
"""

import json
import os
import random
import sys

from engine_client import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# game -> (plies per trick, completed tricks at each stage): the opening, after 3 and 6 tricks,
# and two tricks before the end (Tricks has only four tricks: after 0, 1 and 2).
GAMES = {
    "tricks": (2, [0, 1, 2]),
    "sueca": (4, [0, 3, 6, 8]),
    "hearts": (4, [0, 3, 6, 11]),
    "bisca": (2, [0, 3, 6, 18]),
}
DEALS = [1, 2]


def position(engine, game, seed, tricks, per_trick):
    label = f"{game}/deal{seed}/t{tricks}"
    rng = random.Random(label)
    deal = engine.ask(cmd="new", game=game, seed=seed)["deal"]
    moves = []
    while True:
        legal = engine.ask(cmd="legal")["moves"]
        if len(moves) >= tricks * per_trick and len(legal) >= 2:
            return {"label": label, "game": game, "deal": deal, "moves": moves}
        mv = rng.choice(legal)
        engine.ask(cmd="play", move=mv)
        moves.append(mv)


def kept_lines(path):
    """The lines of `path` for games not in GAMES, as they are (none if there is no file)."""
    try:
        with open(path) as f:
            return [line for line in f if line.strip() and json.loads(line)["game"] not in GAMES]
    except FileNotFoundError:
        return []


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    if len(sys.argv) > 2:
        sys.exit("usage: python3 scripts/make_positions.py [ENGINE]")
    engine = Engine(sys.argv[1] if len(sys.argv) > 1
                    else os.path.join(ROOT, "target", "release", "cardsearch"))
    path = os.path.join(ROOT, "benches", "positions.jsonl")
    out = []
    for game, (per_trick, stages) in GAMES.items():
        for seed in DEALS:
            for tricks in stages:
                out.append(position(engine, game, seed, tricks, per_trick))
    kept = kept_lines(path)
    with open(path, "w") as f:
        for p in out:
            f.write(json.dumps(p) + "\n")
        f.writelines(kept)
    print(f"{len(out)} positions written to {os.path.relpath(path)}, {len(kept)} other lines "
          "kept")


if __name__ == "__main__":
    main()
