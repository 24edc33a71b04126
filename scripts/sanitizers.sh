#!/usr/bin/env bash
# Undefined behaviour and data races in the code that shares memory between threads: the arena
# (`src/search/tree.rs`, the crate's unsafe code), the leaf hand-off (`src/search/leaf.rs`), tree
# reuse's copy, every shared-tree parallel mode and the engine stopping a running search — under
# Miri (the first four) and ThreadSanitizer (all); and the parsers, the protocol and the log
# readers under coverage-guided fuzzing with AddressSanitizer.
# None runs in CI (they need a nightly toolchain and take minutes); docs/reliability.md has
# the last results.
#
#   scripts/sanitizers.sh            # all three
#   scripts/sanitizers.sh miri       # Miri only (about 10-14 minutes on 2 cores)
#   scripts/sanitizers.sh tsan       # ThreadSanitizer only (an instrumented std build, then the tests)
#   scripts/sanitizers.sh fuzz       # the fuzz/ targets, FUZZ_SECONDS each (default 600), after a
#                                    # 10-minute instrumented build
#
# Needs: rustup toolchain nightly with rust-src, and miri for the Miri half
#   (rustup component add --toolchain nightly miri rust-src); cargo-fuzz for the fuzzing
#   (cargo install cargo-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case "$what" in all | miri | tsan | fuzz) ;; *)
    echo "sanitizers.sh: unknown mode '$what' (known: all, miri, tsan, fuzz)" >&2
    exit 2
    ;;
esac
# Miri needs its component; both need the standard library's source (Miri's own sysroot, and
# ThreadSanitizer's instrumented std build).
need=()
[[ $what != fuzz ]] && need+=(rust-src)
[[ $what == all || $what == miri ]] && need+=(miri)
if [[ $what == all || $what == fuzz ]] && ! command -v cargo-fuzz >/dev/null; then
    echo "sanitizers.sh: fuzzing needs cargo-fuzz: cargo install cargo-fuzz" >&2
    exit 2
fi
installed=$(rustup component list --toolchain nightly --installed 2>/dev/null || true)
for component in "${need[@]+"${need[@]}"}"; do
    if ! grep -q "^$component" <<<"$installed"; then
        echo "sanitizers.sh: needs the nightly toolchain's $component: rustup component add --toolchain nightly ${need[*]}" >&2
        exit 2
    fi
done
target=${SANITIZER_TARGET_DIR:-target/sanitizers}

if [[ $what == all || $what == fuzz ]]; then
    # A starting corpus of real sessions (every game, every agent family, views, solves) from
    # the session fuzzer, then each target for FUZZ_SECONDS under AddressSanitizer. Leak checks
    # are off: libFuzzer checks for leaks after each input, and a dropped search's thread pool
    # may still be exiting then, its threads' destructor lists (glibc's
    # `__cxa_thread_atexit_impl`) not yet freed; such a report does not repeat when the input is
    # run again alone. A crash leaves its input in fuzz/artifacts/ and stops the script.
    seconds=${FUZZ_SECONDS:-600}
    cargo run --release --example fuzz_protocol -- --requests 16384 --seed 7 \
        --write-seeds fuzz/corpus/protocol >/dev/null
    # And real logs of every game for `logs` (what replay, merge and resumed matches read).
    mkdir -p fuzz/corpus/parsers fuzz/corpus/logs
    for game in tricks coinguess sueca bisca hearts asmacag secret pentago-swap; do
        rm -f "fuzz/corpus/logs/$game"
        cargo run --release -- match --game "$game" --a ismcts --b random --deals 2 \
            --iterations 30 --out "fuzz/corpus/logs/$game" >/dev/null
    done
    (
        cd fuzz
        for t in parsers protocol logs; do
            seeds=()
            [[ -d seeds/$t ]] && seeds=("seeds/$t")
            cargo +nightly fuzz run -O "$t" "corpus/$t" "${seeds[@]+"${seeds[@]}"}" -- \
                -timeout=20 -rss_limit_mb=6144 -max_total_time="$seconds" -detect_leaks=0 \
                -print_final_stats=1
        done
    )
fi

if [[ $what == all || $what == miri ]]; then
    # Tree Borrows, not Stacked Borrows: rayon's crossbeam-epoch breaks the stricter model's
    # rules in its own code (Local::element_of), which would stop every multi-threaded test
    # before it reached ours; the arena's own unit tests also pass under Stacked Borrows.
    # Integer-to-pointer casts are crossbeam's and parking_lot's; leaks are crossbeam-epoch's
    # global garbage still queued at exit. Isolation is off for /proc/meminfo (arena sizing).
    export MIRIFLAGS="-Zmiri-disable-isolation -Zmiri-tree-borrows -Zmiri-permissive-provenance -Zmiri-ignore-leaks"
    CARGO_TARGET_DIR=$target/miri cargo +nightly miri test --lib -- \
        search::tree:: search::leaf:: search::graft::
    CARGO_TARGET_DIR=$target/miri cargo +nightly miri test --test it -- \
        search::thousands_of_short_shared_tree_searches_account_for_every_iteration
fi

if [[ $what == all || $what == tsan ]]; then
    host=$(rustc +nightly -vV | sed -n 's/^host: //p')
    # The sanitizer's flags replace .cargo/config.toml's; keep its CPU level on x86-64.
    cpu=""
    [[ $host == x86_64-* ]] && cpu="-C target-cpu=x86-64-v3"
    export RUSTFLAGS="-Zsanitizer=thread $cpu"
    export TSAN_OPTIONS="halt_on_error=1"
    # The `cardsearch` binary the protocol tests run is built on the system allocator
    # (`system-alloc`): mimalloc is C code the sanitizer does not instrument, and it reported the
    # memory mimalloc hands between threads as races. `memory_returns_after_large_searches`
    # measures mimalloc's release of memory, which that build does not have.
    log=$(mktemp)
    CARGO_TARGET_DIR=$target/tsan cargo +nightly test -Zbuild-std --target "$host" \
        --features system-alloc --lib --test it -- \
        search:: mo_ismcts:: nast:: pentago:: protocol:: match_harness:: tournament:: cli:: \
        replay_merge:: turn_agents:: \
        --skip memory_returns_after_large_searches --test-threads=1 2>&1 | tee "$log"
    # A report in a child process (the engine under the protocol tests) is printed, not raised.
    if grep -q "WARNING: ThreadSanitizer" "$log"; then
        echo "sanitizers.sh: ThreadSanitizer reported a race (above)" >&2
        exit 1
    fi
fi
