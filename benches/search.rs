//! Search throughput: iterations per second of 10,000-iteration searches from each game's first
//! decision with a choice, for every algorithm, and SO-ISMCTS in every parallel mode × {1, 2, 4} threads.
//!
//! On Pentago-Swap the strong player's time includes its root proofs (cheap on the empty board:
//! nobody has four stones, so nothing can be proven).
//!
//! Games are taken by name from the registry (`games::all`) and built through
//! `games::dispatch`, so a newly registered game appears here by itself. Filter with criterion's
//! name filter, e.g. `cargo bench --bench search -- 'sueca/ismcts$'`.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use cardsearch::agents;
use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor, Pentago};
use cardsearch::harness::scaling::first_choice_position;
use cardsearch::{Budget, Spec, View};

/// Iterations per search.
const ITERATIONS: u64 = 10_000;

/// Where `pentago-student` is timed: its opening covers the first two plies.
const STUDENT_POSITION: &str = "....../.W..../....../....B./....../...... W";

/// The agents: each algorithm sequentially, then SO-ISMCTS in every parallel mode (on
/// Pentago-Swap, where nothing is hidden, all of them run as UCT), then a game's own agents.
fn specs(game: &str) -> Vec<String> {
    let mut out = vec!["ismcts".to_string(), "pimc".to_string(), "uct".to_string()];
    for mode in ["root", "tree", "tree-locked", "leaf"] {
        for threads in [1, 2, 4] {
            out.push(format!("ismcts:parallel={mode},threads={threads}"));
        }
    }
    // Virtual loss off, against the default of 1 above.
    for mode in ["tree", "tree-locked"] {
        out.push(format!("ismcts:parallel={mode},threads=2,virtual_loss=0"));
    }
    if game == Pentago::NAME {
        out.push(format!("pentago-student:iterations={ITERATIONS}"));
        for mode in ["sequential", "tree"] {
            for threads in [1, 2] {
                if mode == "sequential" && threads > 1 {
                    continue;
                }
                out.push(format!("pentago-strong:parallel={mode},threads={threads}"));
            }
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
        let state: G = first_choice_position(&config);
        let mut group = self.c.benchmark_group(format!("search/{}", self.game));
        group.throughput(Throughput::Elements(ITERATIONS));
        group.sample_size(10);
        for spec in specs(G::NAME) {
            let parsed: Spec = spec.parse().unwrap();
            let mut agent = agents::build::<G>(&parsed).unwrap();
            let mut rng = rng_from_seed(7);
            // The student plays a fixed opening on the empty board without searching: it is
            // timed two plies later.
            let state = if parsed.name == "pentago-student" {
                G::from_deal(&config, STUDENT_POSITION).expect("a Pentago-Swap position")
            } else {
                state.clone()
            };
            let seat = state.current_seat();
            group.bench_function(&spec, |b| {
                b.iter(|| {
                    agent
                        .choose(
                            View::new(&state, seat),
                            Budget::iterations(ITERATIONS),
                            &mut rng,
                        )
                        .expect("a legal position")
                })
            });
        }
        group.finish();
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
