#!/usr/bin/env bash
# Before and after with criterion, in one command: runs this checkout's search bench
# (benches/search.rs and the positions it times) on two git revisions, one after the other, and
# prints the median over positions per (game, agent) of both and their ratio.
#
#   scripts/ab_criterion.sh main HEAD                       # sequential ismcts, pimc, uct
#   scripts/ab_criterion.sh main HEAD 'search/sueca/'       # any criterion filter
#   CRITERION_ARGS='--warm-up-time 1 --measurement-time 3' scripts/ab_criterion.sh main HEAD
#
# Each revision is checked out in a detached worktree in a temporary folder outside this
# checkout (cargo merges the .cargo/config.toml of every folder above the one it builds in, so a
# worktree inside the checkout would build with both revisions' rustflags), with this checkout's
# benches/search.rs, benches/common/ and benches/positions.jsonl copied over it (the bench uses
# only the crate's public game and agent interface, so it builds against older revisions back to
# e7b9712, whose agents::view_for it calls: to compare with an older one, take benches/search.rs
# from e7b9712^ into this checkout first), and
# benched with CARGO_TARGET_DIR set to this checkout's target directory: dependencies are built
# once and both runs land in target/criterion as baselines "a" and "b". The two runs are
# sequential, so run this on a quiet machine; scripts/ab_speed.py interleaves two builds
# instead, for a loaded one.
set -euo pipefail

a=${1:?usage: ab_criterion.sh REV_A REV_B [FILTER]}
b=${2:?usage: ab_criterion.sh REV_A REV_B [FILTER]}
filter=${3:-'search/[a-z]+/(ismcts|pimc|uct)/'}
root=$(git rev-parse --show-toplevel)
export CARGO_TARGET_DIR="$root/target"
scratch=$(mktemp -d)
tree=
# On any exit, a failed bench included: unregister the worktree being benched (removing its
# folder alone leaves git a stale worktree entry), then the scratch folder.
cleanup() {
    if [[ -n $tree ]] && ! git -C "$root" worktree remove --force "$tree" 2>/dev/null; then
        rm -rf "$tree"
        git -C "$root" worktree prune
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT

for side in a b; do
    rev=${!side}
    commit=$(git -C "$root" rev-parse --verify "$rev^{commit}")
    tree="$scratch/bench-$side-${commit:0:12}"
    rm -rf "$tree"
    git -C "$root" worktree add --detach "$tree" "$commit" >/dev/null
    cp "$root/benches/search.rs" "$root/benches/positions.jsonl" "$tree/benches/"
    mkdir -p "$tree/benches/common"
    cp "$root"/benches/common/*.rs "$tree/benches/common/"
    echo "== $side = $rev (${commit:0:12})" >&2
    (cd "$tree" && cargo bench --bench search -- --save-baseline "$side" ${CRITERION_ARGS:-} "$filter")
    git -C "$root" worktree remove --force "$tree"
    tree=
done
python3 "$root/scripts/criterion_medians.py" --baseline b --compare a --filter "$filter"
