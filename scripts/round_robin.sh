#!/usr/bin/env bash
# Round robin over `cardsearch match`: every pair of agents plays a fair match (seats swapped,
# every deal twice), with match's own progress bar per pairing, then a table of all pairings
# (wins / losses / ties and the first agent's mean score with its 95% interval over deals) and
# each agent's score over all its games (the match's score of each game, as the pairings' rows).
#
#   scripts/round_robin.sh [MATCH OPTIONS] -- AGENT AGENT [AGENT...]
#
# MATCH OPTIONS go to every `cardsearch match` (e.g. --game asmacag --deals 500 --seed 1
# --iterations 1000 or --time-ms 100, --jobs 2). Agent specs may carry their own budgets
# (`ntboe:iterations=5000`). Every pairing's summary is kept as JSON in $OUT (default: a
# fresh directory under target/round_robin/), and the table is also written there as
# table.md. Set CARDSEARCH to use another binary (default the repository's
# target/release/cardsearch).
#
# Example (the NTBOE paper's tournament at 1,000 evaluations per turn):
#   scripts/round_robin.sh --game asmacag --deals 500 --iterations 1000 -- \
#       random osla turn-mcts oe ntboe
set -euo pipefail

bin=${CARDSEARCH:-$(dirname "$0")/../target/release/cardsearch}
opts=()
while [[ $# -gt 0 && $1 != "--" ]]; do
    opts+=("$1")
    shift
done
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [MATCH OPTIONS] -- AGENT AGENT [AGENT...]" >&2
    exit 2
fi
shift
agents=("$@")
if [[ ${#agents[@]} -lt 2 ]]; then
    echo "$0: give at least two agents after --" >&2
    exit 2
fi
if [[ ! -x $bin ]]; then
    echo "$0: no binary at $bin (cargo build --release, or set CARDSEARCH)" >&2
    exit 2
fi
out=${OUT:-target/round_robin/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

n=${#agents[@]}
pairs=$((n * (n - 1) / 2))
k=0
for ((i = 0; i < n; i++)); do
    for ((j = i + 1; j < n; j++)); do
        k=$((k + 1))
        echo "[$k/$pairs] ${agents[i]} vs ${agents[j]}" >&2
        "$bin" match "${opts[@]}" --a "${agents[i]}" --b "${agents[j]}" \
            --summary "$out/pair-$i-$j.json" >"$out/pair-$i-$j.txt"
        tail -n +2 "$out/pair-$i-$j.txt" | grep -E "mean score|games " >&2
    done
done

python3 - "$out" "${agents[@]}" <<'PY' | tee "$out/table.md"
import json, re, sys

out, agents = sys.argv[1], sys.argv[2:]
n = len(agents)
total = [0.0] * n
games = [0] * n
print("| A | B | A wins | B wins | ties | A score (95% CI over deals) |")
print("|---|---|---:|---:|---:|---|")
for i in range(n):
    for j in range(i + 1, n):
        summary = json.load(open(f"{out}/pair-{i}-{j}.json"))
        t = summary["tally"]
        # The score and its interval as the match printed them.
        text = open(f"{out}/pair-{i}-{j}.txt").read()
        score = re.search(r"A mean score (\S+) .*\(95% CI (\S+)\)", text)
        print(f"| {agents[i]} | {agents[j]} | {t['wins']} | {t['losses']} | {t['draws']} "
              f"| {score.group(1)} ({score.group(2)}) |")
        # A's score summed over its games, as the match scores a game: (1 + A's mean reward -
        # B's) / 2, which is not win 1, tie 0.5 where a game ends between (Hearts 2v2: 0.75).
        # The tally sums each deal's mean over its seatings.
        score_a = t["sum"] * summary["seatings_per_deal"]
        total[i] += score_a
        total[j] += t["games"] - score_a
        games[i] += t["games"]
        games[j] += t["games"]
print()
print("| agent | score over all its games |")
print("|---|---:|")
for a, s, g in sorted(zip(agents, total, games), key=lambda x: -x[1] / x[2]):
    print(f"| {a} | {s / g:.3f} ({g} games) |")
PY
