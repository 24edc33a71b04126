#!/usr/bin/env python3
"""Every line of play of Tricks deals, by the note's own Python code, for this engine's tests.

The note "ISMCTS and the Hidden Hand" (`../shared/seeds/002_59e95ac6bcb2a5c5.txt`) defines the
Tricks game in Python. This script runs that code as the note prints it (read from the seed
file, not copied) on random deals and walks each deal's whole game tree: at every position the
player to move and the legal cards, at every end the result for the first player. It writes one
JSON line per deal to `tests/data/tricks-note.jsonl`: the deal in this engine's notation, a
digest of the walk, the number of lines of play and the first player's total result over them.
The test `tests/it/conformance.rs` walks the same trees with this engine's `Tricks` and must get
the same digest, count and total; it needs no Python.

    python3 scripts/note_tricks.py            # writes tests/data/tricks-note.jsonl
"""

import argparse
import json
import os
import random
import sys

from fnv import FNV_OFFSET, fnv1a64

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = os.path.join(HERE, "..", "..", "shared", "seeds", "002_59e95ac6bcb2a5c5.txt")
OUT = os.path.join(HERE, "..", "tests", "data", "tricks-note.jsonl")


def note_tricks_class(path):
    """The note's `Tricks` class, run from the note's text: its first code block, from
    `import math, random` to the paragraph after `result`."""
    text = open(path, encoding="utf-8").read()
    start = text.find("import math, random")
    end = text.find("The object holds the true deal")
    if start < 0 or end < start:
        raise ValueError("no Tricks code block ('import math, random' … 'The object holds the "
                         "true deal'): not the note")
    namespace = {}
    exec(compile(text[start:end], path, "exec"), namespace)  # the note's code, as printed
    return namespace["Tricks"], namespace["DECK"]


def card_text(card):
    """The note's `(suit, rank)` with ranks 0-3 as this engine's `JS`, `QH`, ..."""
    suit, rank = card
    return "JQKA"[rank] + suit



def walk(game, state, acc):
    """Depth first over every line of play, children in the order of their cards' text."""
    if state.over():
        result = state.result(1)
        acc["digest"] = fnv1a64(f"={result}\n".encode(), acc["digest"])
        acc["lines"] += 1
        acc["total"] += result
        return
    legal = sorted(state.moves(), key=card_text)
    line = f"{state.to_move - 1}:{' '.join(card_text(c) for c in legal)}\n"
    acc["digest"] = fnv1a64(line.encode(), acc["digest"])
    for card in legal:
        child = state.clone()
        child.play(card)
        walk(game, child, acc)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--note", default=SEED, help="the note's text")
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args()
    if args.deals < 1:
        sys.exit(f"note_tricks.py: --deals must be at least 1, not {args.deals}")
    try:
        tricks, deck = note_tricks_class(args.note)
    except OSError as e:
        sys.exit(f"note_tricks.py: cannot read the note {args.note}: {e.strerror} (give --note)")
    except UnicodeDecodeError:
        sys.exit(f"note_tricks.py: --note {args.note}: not UTF-8 text: not the note")
    except ValueError as e:
        sys.exit(f"note_tricks.py: --note {args.note}: {e}")
    rng = random.Random(args.seed)
    try:
        out = open(args.out, "w")
    except OSError as e:
        sys.exit(f"note_tricks.py: cannot write {args.out}: {e.strerror}")
    with out:
        for index in range(args.deals):
            cards = deck[:]
            rng.shuffle(cards)
            # A position as the note's constructor leaves one, with this deal (the constructor
            # shuffles with the global generator).
            state = tricks()
            state.hands = {1: cards[:4], 2: cards[4:8]}
            state.stock = cards[8:]
            parts = [cards[:4], cards[4:8], cards[8:]]
            deal = " | ".join(" ".join(card_text(c) for c in p) for p in parts)
            acc = {"digest": FNV_OFFSET, "lines": 0, "total": 0.0}
            walk(tricks, state, acc)
            record = {"deal": deal, "tree_digest": f"{acc['digest']:016x}",
                      "lines": acc["lines"], "first_player_total": acc["total"]}
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"wrote {args.deals} deals to {os.path.relpath(args.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
