#!/usr/bin/env python3
"""OpenSpiel's C++ ISMCTS and this engine's SO-ISMCTS on the same Hearts positions, interleaved.

    pip install open-spiel
    cargo build --release
    python3 scripts/openspiel_hearts.py                       # target/release/cardsearch
    python3 scripts/openspiel_hearts.py --engine PATH --rounds 5 --wall

The positions are the Hearts bench positions (benches/positions.jsonl: two deals, each at the
first decision with a choice after 0, 3 and 6 tricks and with two tricks left). Each is replayed
in OpenSpiel's `hearts` (pass_cards=false; its other defaults are the rules this engine plays:
2C leads, no points on the first trick, hearts must be broken, the queen of spades breaks
them) by dealing the same cards (OpenSpiel deals chance card k to player k mod 4; seat i here is
player i there) and applying the same moves, and checked: the same seat to move and the same
legal moves.

Both search from the seat to move with one random rollout per simulation, a fresh
determinization each time, UCT constant 0.7: OpenSpiel's `ISMCTSBot` with a
`RandomRolloutEvaluator(1)` and unlimited world samples; this engine's `ismcts` through
`cardsearch engine` (docs/protocol.md). In each round every position is searched by OpenSpiel
(`--os-sims` simulations) and then by the engine (`--iterations`), so both see the same machine.
Both run on one CPU (`--cpu`, by default the first this script may use; `all` leaves it to
the scheduler): on a VM whose vCPUs run at different speeds, two processes left where they
start can each keep a different one for a whole run. Time is CPU time (this process's for
OpenSpiel, which runs in it; the engine process's from
/proc/PID/schedstat), which a loaded machine does not stretch; `--wall` uses wall-clock time.
Prints per position each side's median rate over rounds and their ratio, and the median over
rounds of the two searches' ratio in each round ("paired": the two ran back to back, so it
compares them on one machine state), then the medians of all of these over positions.
"""

import argparse
import json
import os
import statistics
import sys
import time

from engine_client import Engine, pin_to_one_cpu
from openspiel_common import openspiel_state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def setup(engine, position):
    """`position` in the engine; returns its `legal` reply."""
    engine.ask(cmd="new", game="hearts", deal=position["deal"])
    for move in position["moves"]:
        engine.ask(cmd="play", move=move)
    return engine.ask(cmd="legal")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "cardsearch"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=10_000, help="engine iterations per search")
    ap.add_argument("--os-sims", type=int, default=1_000, help="OpenSpiel simulations per search")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--cpu", help="the CPU both sides run on, or 'all' (default: the first CPU "
                    "this script may use)")
    args = ap.parse_args()
    for name in ("rounds", "iterations", "os_sims"):
        if getattr(args, name) < 1:
            sys.exit(f"openspiel_hearts.py: --{name.replace('_', '-')} must be at least 1, not "
                     f"{getattr(args, name)}")
    # Imported here, not at the top, so that --help works without OpenSpiel.
    try:
        import pyspiel
    except ImportError:
        sys.exit("openspiel_hearts.py: needs OpenSpiel (pip install open-spiel)")

    positions = [json.loads(line) for line in open(os.path.join(ROOT, "benches", "positions.jsonl"))]
    positions = [p for p in positions if p["game"] == "hearts"]
    game = pyspiel.load_game("hearts", {"pass_cards": False})
    # This process runs OpenSpiel; the engine inherits the placement.
    if args.cpu != "all":
        print(f"OpenSpiel and the engine on CPU {pin_to_one_cpu(args.cpu)}", file=sys.stderr)
    engine = Engine(args.engine)
    states = []
    for p in positions:
        state = openspiel_state(game, p["deal"], p["moves"])
        legal = setup(engine, p)
        ours = sorted(legal["moves"])
        theirs = sorted(state.action_to_string(a) for a in state.legal_actions())
        if state.current_player() != legal["seat"] or ours != theirs:
            sys.exit(f"{p['label']}: the positions differ (seat {legal['seat']} vs "
                     f"{state.current_player()}, moves {ours} vs {theirs})")
        states.append(state)

    clock = time.perf_counter if args.wall else time.process_time
    rates = {}  # (label, side) -> [per round]
    for rnd in range(args.rounds):
        for i, (p, state) in enumerate(zip(positions, states)):
            seed = 1000 * rnd + i
            bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 0.7,
                                    args.os_sims, -1,
                                    pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
            start = clock()
            bot.step(state)
            rates.setdefault((p["label"], "openspiel"), []).append(args.os_sims / (clock() - start))
            setup(engine, p)
            before = engine.cpu_s()
            reply = engine.ask(cmd="go", agent="ismcts:c=0.7", iterations=args.iterations, seed=seed)
            seconds = reply["time_ms"] / 1e3 if args.wall else engine.cpu_s() - before
            rates.setdefault((p["label"], "engine"), []).append(reply["iterations"] / seconds)
        print(f"round {rnd + 1} of {args.rounds} done", file=sys.stderr)
    engine.ask(cmd="quit")

    kind = "wall-clock" if args.wall else "CPU-time"
    print(f"Hearts, {kind} simulations (iterations) per second, median of {args.rounds} rounds "
          f"per position; OpenSpiel {args.os_sims} simulations, engine {args.iterations} "
          f"iterations per search")
    print(f"{'position':20} {'OpenSpiel ISMCTS':>17} {'cardsearch ismcts':>18} {'ratio':>7} "
          f"{'paired':>7}")
    rows = []
    for p in positions:
        os_rates = rates[(p["label"], "openspiel")]
        our_rates = rates[(p["label"], "engine")]
        os_rate, our_rate = statistics.median(os_rates), statistics.median(our_rates)
        # Each round's two searches of a position ran back to back, so their ratio compares
        # the two on one machine state; this VM's speed moves by a fifth between rounds.
        paired = statistics.median(ours / theirs for ours, theirs in zip(our_rates, os_rates))
        rows.append((os_rate, our_rate, paired))
        print(f"{p['label']:20} {os_rate:17.0f} {our_rate:18.0f} {our_rate / os_rate:7.1f} "
              f"{paired:7.1f}")
    med_os = statistics.median(r[0] for r in rows)
    med_ours = statistics.median(r[1] for r in rows)
    med_ratio = statistics.median(r[1] / r[0] for r in rows)
    med_paired = statistics.median(r[2] for r in rows)
    print(f"{'median':20} {med_os:17.0f} {med_ours:18.0f} {med_ratio:7.1f} {med_paired:7.1f}")


if __name__ == "__main__":
    main()
