#!/usr/bin/env bash
# Regenerates every flamegraph in this folder. Run from the repository root:
#   bash profiles/make.sh
# Each profile samples 10 s of back-to-back 10,000-iteration searches from the positions of seeded
# random games (every position with a choice), at 997 Hz, with frame-pointer unwinding.
set -euo pipefail
# The profile-phases feature keeps the four phases of an iteration out of line so each shows by name.
cargo build --release --features profile-phases
bin=target/release/cardsearch
$bin profile --game sueca  --agent ismcts --seconds 10 --out profiles/sueca-ismcts.svg
$bin profile --game hearts --agent ismcts --seconds 10 --out profiles/hearts-ismcts.svg
$bin profile --game sueca  --agent pimc   --seconds 10 --out profiles/sueca-pimc.svg
$bin profile --game sueca  --agent ismcts:parallel=tree,threads=2 --seconds 10 --out profiles/sueca-ismcts-tree2.svg
$bin profile --game sueca  --agent mo-ismcts --seconds 10 --out profiles/sueca-mo-ismcts.svg
