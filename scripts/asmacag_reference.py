#!/usr/bin/env python3
"""ASMACAG games played by the NTBOE paper's own Python code, written down for this engine's tests.

The paper's authors published their Python implementation of ASMACAG (github.com/VizCo1/ASMACAG;
`rules.md` takes its defaults from it). This script runs that code, from a checkout you give it
(`--reference DIR`, the folder holding its `Game` package; nothing of it is copied here), with
the paper's parameters: it deals with the reference's own `GameState.reset`, lists the legal
actions with its `Observation.get_actions` and plays them with its `SimpleForwardModel`. It
writes one JSON line per game to `tests/data/asmacag-reference.jsonl`: the deal and the actions
in this engine's notation, a digest of the player to move and the legal actions at every
decision, and the final scores. `tests/it/conformance.rs` replays every game here and must find
the same; it needs no Python.

Actions are drawn at random, except that a ×2 or ÷2 is played only when it is the first special
card in the reference's hand: the reference's `Card.__eq__` makes every special equal to every
other, so playing one removes the hand's first special, whichever it is (this engine removes the
card played, on purpose: `src/games/asmacag/mod.rs`). Games avoiding that step are the rules
both implement alike.

    python3 scripts/asmacag_reference.py --reference ~/ASMACAG   # writes tests/data/asmacag-reference.jsonl
"""

import argparse
import json
import os
import random
import sys

from fnv import FNV_OFFSET, fnv1a64
import types

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                   "asmacag-reference.jsonl")



def load_reference(path):
    """The reference's `Game` package. Its `Game.Game` imports `func_timeout` (for time limits
    on players), which the rules do not use: a stub stands in when it is not installed."""
    sys.path.insert(0, path)
    try:
        import func_timeout  # noqa: F401
    except ImportError:
        sys.modules["func_timeout"] = types.ModuleType("func_timeout")
    import Game
    return Game


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", required=True,
                        help="a checkout of github.com/VizCo1/ASMACAG (the folder with Game/)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.reference, "Game")):
        sys.exit(f"asmacag_reference.py: no Game package in {args.reference}")
    game = load_reference(args.reference)
    number, double = game.CardType.NUMBER, game.CardType.MULT2

    def card_text(card):
        if card.get_type() == number:
            return str(card.get_number())
        return "x2" if card.get_type() == double else "/2"

    def action_text(action):
        played = card_text(action.get_played_card())
        board = action.get_board_card()
        return played if board is None else f"{played}>{card_text(board)}"

    # The paper's game, as this engine's default: 9 cards each, 20 on the board, 3 actions, five
    # 1s and 6s, eight of each number between, six ×2 and six ÷2.
    params = game.GameParameters(
        amount_cards_on_hand=9, amount_cards_on_board=20, amount_action_points=3,
        min_number=1, max_number=6, amount_cards_limit_number=5, amount_cards_normal_number=8,
        amount_cards_mult2=6, amount_cards_div2=6)
    rules = params.forward_model
    with open(args.out, "w") as out:
        for index in range(args.games):
            random.seed(args.seed * 1_000_003 + index)
            state = game.GameState(params)
            state.reset()
            parts = [state.player_0_hand, state.player_1_hand, state.board, state.main_deck]
            deal = " | ".join(" ".join(card_text(c) for c in p.get_cards()) for p in parts)
            actions, digest = [], FNV_OFFSET
            while not rules.is_terminal(state):
                legal = game.Observation(state, randomise_hidden_info=False).get_actions()
                texts = sorted({action_text(a) for a in legal})
                line = f"{state.current_turn}:{' '.join(texts)}\n"
                digest = fnv1a64(line.encode(), digest)
                hand = state.player_0_hand if state.current_turn == 0 else state.player_1_hand
                first_special = next((c.get_type() for c in hand.get_cards()
                                      if c.get_type() != number), None)
                allowed = [a for a in legal if a.get_played_card().get_type() in
                           (number, first_special)]
                action = random.choice(sorted(allowed, key=action_text))
                actions.append(action_text(action))
                rules.step(state, action)
                rules.on_turn_ended(state)
            record = {"game": index, "deal": deal, "actions": " ".join(actions),
                      "legal_digest": f"{digest:016x}",
                      "scores": [state.player_0_score, state.player_1_score]}
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"wrote {args.games} games to {os.path.relpath(args.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
