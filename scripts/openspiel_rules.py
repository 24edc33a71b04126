#!/usr/bin/env python3
"""Hearts games played by OpenSpiel's own rules, written down for this engine's tests.

OpenSpiel's `hearts` (C++, through `pip install open-spiel`) is an implementation of Hearts
written independently of this one, with the same rules by default (`../shared/rules.md`). This
script plays games in it and writes one JSON line per game to `tests/data/hearts-openspiel.jsonl`:
the pass direction, the deal in this engine's notation, every move played (passes included), a
digest of the legal moves OpenSpiel offered at every decision, and each seat's final points. The
test `tests/it/conformance.rs` replays every game here and must find the same legal moves at
every decision (the same digest) and the same points; it needs no Python.

The games are chosen to reach the rules random play seldom does:
- every pass direction (none, left, across, right) equally often;
- dealt at random, or "stacked" with 10 to 13 of one seat's cards from the hearts and Q♠ (a hand
  that may discard a point card on the first trick because it holds nothing else), or with 9
  hearts and four winners of other suits (a hand that wins early tricks, then holds only hearts
  and must lead one before they break);
- played at random, by "moon" (one seat always plays its highest legal card, the others their
  lowest: moon shots), or by "points" (everyone plays Q♠ or its highest heart where it may).

    python3 scripts/openspiel_rules.py                 # writes tests/data/hearts-openspiel.jsonl
    python3 scripts/openspiel_rules.py --show 17       # one game's decisions, for a failing test
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv import FNV_OFFSET, fnv1a64  # noqa: E402
from openspiel_common import openspiel_state  # noqa: E402

DIRECTIONS = ["none", "left", "across", "right"]
RANKS = "23456789TJQKA"
SUITS = "CDHS"
PACK = [r + s for s in SUITS for r in RANKS]
POINT_CARDS = [r + "H" for r in RANKS] + ["QS"]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "hearts-openspiel.jsonl")



def decision_line(player, legal):
    """One decision as the digest reads it: the player, a colon, the legal cards sorted as
    strings and separated by spaces, a newline."""
    return f"{player}:{' '.join(sorted(legal))}\n"


def deal_hands(rng, stacked_seat, leader):
    """Four hands of 13. With `stacked_seat`, that seat first takes 10 to 13 point cards; with
    `leader` too, it takes 9 hearts and the aces and kings of spades and diamonds instead, so
    that it wins early tricks and then holds only hearts before they are broken."""
    pack = PACK[:]
    rng.shuffle(pack)
    hands = [[] for _ in range(4)]
    if stacked_seat is not None:
        hearts = [r + "H" for r in RANKS]
        rng.shuffle(hearts)
        if leader:
            hands[stacked_seat] = hearts[:9] + ["AS", "KS", "AD", "KD"]
        else:
            points = hearts + ["QS"]
            rng.shuffle(points)
            hands[stacked_seat] = points[:rng.randint(10, 13)]
        pack = [c for c in pack if c not in hands[stacked_seat]]
    for seat in range(4):
        while len(hands[seat]) < 13:
            hands[seat].append(pack.pop())
    return hands


def rank(card):
    return RANKS.index(card[0])


def choose(policy, rng, player, legal, passing):
    """The move `policy` plays among `legal` (card strings) for `player`."""
    kind, _, arg = policy.partition(":")
    if kind == "moon" and not passing:
        highest = player == int(arg)
        return (max if highest else min)(legal, key=rank)
    if kind == "moon" and player == int(arg):
        return min(legal, key=rank)  # the shooter passes its low cards
    if kind == "points" and not passing:
        if "QS" in legal:
            return "QS"
        hearts = [c for c in legal if c[1] == "H"]
        if hearts:
            return max(hearts, key=rank)
    return rng.choice(sorted(legal))


def play(pyspiel_game, index, seed, show=False):
    """Game `index`: its record, and with `show` each decision printed."""
    rng = random.Random(seed * 1_000_003 + index)
    direction = index % 4
    kind = (index // 4) % 5
    # Half the moon games give the shooter a hand that leads hearts before they break.
    leader = kind == 2 and (index // 20) % 2 == 1
    stacked_seat = rng.randrange(4) if kind >= 3 or leader else None
    shooter = stacked_seat if leader else rng.randrange(4)
    policy = ["random", "random", f"moon:{shooter}", "random", "points"][kind]
    hands = deal_hands(rng, stacked_seat, leader)
    deal = " | ".join(" ".join(h) for h in hands)
    state = openspiel_state(pyspiel_game, deal, direction=direction)
    moves, digest, decisions = [], FNV_OFFSET, 0
    while not state.is_terminal():
        player = state.current_player()
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        line = decision_line(player, actions)
        digest = fnv1a64(line.encode(), digest)
        passing = decisions < 12 and direction != 0
        card = choose(policy, rng, player, list(actions), passing)
        if show:
            print(f"{decisions:2} {line.rstrip()}  -> {card}")
        moves.append(card)
        state.apply_action(actions[card])
        decisions += 1
    # OpenSpiel's return is 26 less the seat's points (a moon shot: 26 for the shooter, 0 else).
    points = [int(round(26 - r)) for r in state.returns()]
    return {
        "game": index,
        "pass": DIRECTIONS[direction],
        "policy": policy,
        "deal": deal,
        "moves": " ".join(moves),
        "legal_digest": f"{digest:016x}",
        "points": points,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--show", type=int, help="print game N's decisions instead of writing")
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("openspiel_rules.py: needs OpenSpiel (pip install open-spiel)")
    # OpenSpiel's defaults are rules.md's; passing is on so that every direction can be dealt
    # (its "No Pass" outcome is the game without passing).
    game = pyspiel.load_game("hearts", {"pass_cards": True})
    if args.show is not None:
        print(json.dumps(play(game, args.show, args.seed, show=True)))
        return
    with open(args.out, "w") as out:
        for index in range(args.games):
            out.write(json.dumps(play(game, index, args.seed), separators=(",", ":")) + "\n")
    print(f"wrote {args.games} games to {os.path.relpath(args.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
