#!/usr/bin/env bash
# The thesis's chapter-6 experiments (issue 11) at its own settings, one game at a time:
# SO-ISMCTS against PIMC, the reward functions at the thesis's constants, the NAST policies and
# n-gram lengths, and the exploration-constant sweep. Every row is a `cardsearch match` with
# seats or partnerships swapped on every deal, logged to $OUT/ROW.jsonl; run the same command
# again to resume (finished games are not replayed), then it prints one summary per row
# (the match report and the card points / match units of scripts/points_interval.py).
#
#   scripts/chapter6.sh GAME [ROW...]        # GAME: sueca, bisca or hearts; default every row
#
# Environment: OUT (default target/chapter6/GAME), DEALS (default 300), JOBS (default 2),
# CARDSEARCH (default the repository's target/release/cardsearch, from wherever the script is
# run). The rows of one group share a seed, so they play the same deals. Row names: pimc (the thesis's PIMC, a vote per world), pimc-sum (our
# default PIMC, visits summed over worlds), wl sd mix roulette ucb1 gibbs egreedy nast1 nast3
# nast4 c0 c0.25 c0.5 c1.0 c1.5 c2.0 (plain ISMCTS's constant), wl-c0 … wl-c2.0 and sd-c0 …
# sd-c2.0 (the thesis's sweeps of the WL and SD constants).
set -euo pipefail

game=${1:?usage: $0 sueca|bisca|hearts [ROW...]}
shift
bin=${CARDSEARCH:-$(dirname "$0")/../target/release/cardsearch}
out=${OUT:-target/chapter6/$game}
deals=${DEALS:-300}
jobs=${JOBS:-2}
[[ -x $bin ]] || { echo "$0: no binary at $bin (cargo build --release, or set CARDSEARCH)" >&2; exit 2; }

# The thesis's exploration constants for pwl / wl / sd (its section 6.4). In Bisca it used
# 0.25 for every reward including the pwl baseline, so there both sides of a reward row use it.
case $game in
    sueca) base=ismcts; c_wl=1.75; c_sd=0.5; c_mix=0.7 ;;
    bisca) base=ismcts:c=0.25; c_wl=0.25; c_sd=0.25; c_mix=0.25 ;;
    hearts) base=ismcts; c_wl=1.5; c_sd=0.25; c_mix=0.7 ;;
    *) echo "$0: unknown game '$game' (sueca, bisca or hearts)" >&2; exit 2 ;;
esac

# name | seed | iterations | agent A | agent B
rows=(
    "pimc|601|10000|ismcts|pimc:vote=true"
    "pimc-sum|601|10000|ismcts|pimc"
    "wl|602|10000|ismcts:reward=wl,c=$c_wl|$base"
    "sd|603|10000|ismcts:reward=sd,c=$c_sd|$base"
    "mix|604|10000|ismcts:reward=mix:w=0.3,c=$c_mix|$base"
    "roulette|605|10000|ismcts:playout=nast,policy=roulette|ismcts"
    "ucb1|605|10000|ismcts:playout=nast,policy=ucb1|ismcts"
    "gibbs|605|10000|ismcts:playout=nast,policy=gibbs|ismcts"
    "egreedy|605|10000|ismcts:playout=nast,policy=egreedy|ismcts"
    "nast1|606|10000|ismcts:playout=nast:n=1,policy=ucb1|ismcts"
    "nast3|606|10000|ismcts:playout=nast:n=3,policy=ucb1|ismcts"
    "nast4|606|10000|ismcts:playout=nast:n=4,policy=ucb1|ismcts"
    "c0|607|2500|ismcts:c=0|ismcts"
    "c0.25|607|2500|ismcts:c=0.25|ismcts"
    "c0.5|607|2500|ismcts:c=0.5|ismcts"
    "c1.0|607|2500|ismcts:c=1.0|ismcts"
    "c1.5|607|2500|ismcts:c=1.5|ismcts"
    "c2.0|607|2500|ismcts:c=2.0|ismcts"
)
# The thesis's own constant sweeps (its figures 6.5 and 6.6): SD and WL at each c against the
# same reward at 0.7, 2,500 iterations; 1.75 is the constant it chose for WL in Sueca.
for c in 0 0.25 0.5 1.0 1.5 1.75 2.0; do
    rows+=("wl-c$c|609|2500|ismcts:reward=wl,c=$c|ismcts:reward=wl,c=0.7")
done
for c in 0 0.25 0.5 1.0 1.5 2.0; do
    rows+=("sd-c$c|610|2500|ismcts:reward=sd,c=$c|ismcts:reward=sd,c=0.7")
done

wanted=("$@")
for w in "${wanted[@]}"; do
    [[ " $(printf '%s ' "${rows[@]%%|*}") " == *" $w "* ]] || {
        echo "$0: unknown row '$w' (rows: $(printf '%s ' "${rows[@]%%|*}"))" >&2
        exit 2
    }
done
mkdir -p "$out"
for row in "${rows[@]}"; do
    IFS='|' read -r name seed iters a b <<<"$row"
    if [[ ${#wanted[@]} -gt 0 && ! " ${wanted[*]} " == *" $name "* ]]; then
        continue
    fi
    echo "== $game $name: $a against $b, $iters iterations, $deals deals, seed $seed"
    "$bin" match --game "$game" --a "$a" --b "$b" --iterations "$iters" --deals "$deals" \
        --seed "$seed" --jobs "$jobs" --out "$out/$name.jsonl" >"$out/$name.report.txt"
    cat "$out/$name.report.txt"
    python3 "$(dirname "$0")/points_interval.py" "$out/$name.jsonl" | tee "$out/$name.points.txt"
done
