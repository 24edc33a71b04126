//! Search throughput: iterations per second of 10,000-iteration searches at every bench position
//! of each game (`benches/positions.jsonl`: the opening, after 3 and 6 tricks and two tricks from
//! the end, for a few deals), for every algorithm, SO-ISMCTS in every parallel mode on 1 and
//! 2 threads, and SO-ISMCTS with NAST and EPIC playouts.
//!
//! Each (game, agent) is a criterion group `search/<game>/<agent>` with one benchmark per
//! position; `python3 scripts/criterion_medians.py` prints the median over positions of each
//! group (and compares saved baselines; `scripts/ab_criterion.sh` runs this bench on two git
//! revisions). Games are taken by name from the registry (`games::all`); a game appears here
//! once `scripts/make_positions.py` has positions for it. Filter with criterion's name filter,
//! e.g. `cargo bench --bench search -- 'search/sueca/ismcts/'`.

mod common;
#[path = "common/positions.rs"]
mod positions;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use cardsearch::agents;
use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::{Budget, Spec};

use positions::bench_positions;

/// Iterations per search.
const ITERATIONS: u64 = 10_000;

/// The agents: each algorithm sequentially, then SO-ISMCTS in every parallel mode; on
/// Pentago-Swap also its strong player, sequential and tree-parallel.
fn specs(game: &str) -> Vec<String> {
    let mut out = vec!["ismcts".to_string(), "pimc".to_string(), "uct".to_string()];
    for mode in ["root", "tree", "tree-locked", "leaf"] {
        for threads in [1, 2] {
            out.push(format!("ismcts:parallel={mode},threads={threads}"));
        }
    }
    // NAST (n=2, each policy) and EPIC playouts (issue 11: at least 60% of plain ISMCTS).
    for playout in [
        "nast",
        "nast,policy=egreedy",
        "nast,policy=roulette",
        "nast,policy=ucb1",
        "epic",
    ] {
        out.push(format!("ismcts:playout={playout}"));
    }
    out.push("ismcts:playout=nast,parallel=tree,threads=2".to_string());
    // Virtual loss off, against the default of 1 above.
    for mode in ["tree", "tree-locked"] {
        out.push(format!("ismcts:parallel={mode},threads=2,virtual_loss=0"));
    }
    if game == "pentago-swap" {
        out.push("pentago-strong".to_string());
        for threads in [1, 2] {
            out.push(format!("pentago-strong:parallel=tree,threads={threads}"));
        }
    }
    out
}

struct Bench<'a> {
    c: &'a mut Criterion,
    game: &'a str,
}

impl GameVisitor for Bench<'_> {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        let positions: Vec<(String, G)> = bench_positions(self.game)
            .iter()
            .map(|p| (p.id().to_string(), p.state(&config).unwrap()))
            .collect();
        for spec in specs(self.game) {
            let parsed: Spec = spec.parse().unwrap();
            // An agent that cannot be built is skipped, not fatal: NAST needs a card game, and
            // scripts/ab_criterion.sh runs this file against older revisions, which lack
            // some options.
            let mut agent = match agents::build::<G>(&parsed) {
                Ok(agent) => agent,
                Err(e) => {
                    eprintln!("search/{}/{spec}: skipped ({e})", self.game);
                    continue;
                }
            };
            let mut group = self
                .c
                .benchmark_group(format!("search/{}/{spec}", self.game));
            group.throughput(Throughput::Elements(ITERATIONS));
            group.sample_size(10);
            for (id, state) in &positions {
                let mut rng = rng_from_seed(7);
                let seat = state.current_seat();
                // The decision is returned as it is (bare, or in a `Result` since agents report
                // errors), so this file builds on either side of that change (see
                // scripts/ab_criterion.sh); the positions are checked by tests/bench_positions.
                group.bench_function(id, |b| {
                    b.iter(|| {
                        agent.choose(
                            agents::view_for(agent.as_ref(), state, seat, &[]),
                            Budget::iterations(ITERATIONS),
                            &mut rng,
                        )
                    })
                });
            }
            group.finish();
        }
    }
}

fn search(c: &mut Criterion) {
    // Shared-tree throughput depends on it (see `cardsearch::harness::machine`): printed so a
    // result can be read against the machine's state when it was taken.
    let handoff = cardsearch::harness::machine::quick_handoff_latency();
    println!(
        "core-to-core hand-off: {:.0} ns one way",
        handoff.as_secs_f64() * 1e9
    );
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), Bench { c, game: info.name })
            .expect("a registered game");
    }
}

criterion_group! {
    name = benches;
    config = common::profiled();
    targets = search
}
criterion_main!(benches);
