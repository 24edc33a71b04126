//! ASMACAG speed: a whole random game (deal included, as the reference's 0.5 ms per game is
//! timed), one turn evaluation (a line of three actions played and judged), and evaluations
//! per second of every agent planning the first turn with a budget of 10,000 evaluations
//! (ISMCTS: 10,000 iterations for its first action).
//!
//! `cargo bench --bench asmacag`; filter with e.g. `cargo bench --bench asmacag -- ntboe`.

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use cardsearch::agents::{self, turn};
use cardsearch::game::rng_from_seed;
use cardsearch::games::asmacag::{Asmacag, AsmacagConfig};
use cardsearch::{Budget, Game, GameDef, MoveSet, Spec, View};

/// Evaluations (iterations) per decision.
const EVALUATIONS: u64 = 10_000;

fn asmacag(c: &mut Criterion) {
    let config = AsmacagConfig::default();
    let mut group = c.benchmark_group("asmacag");
    group.throughput(Throughput::Elements(1));
    let mut rng = rng_from_seed(1);
    group.bench_function("random_game", |b| {
        b.iter(|| {
            let mut g = Asmacag::new_game(&config, &mut rng);
            g.random_playout(&mut rng);
            black_box(g.reward(0))
        })
    });
    let start = Asmacag::new_game(&config, &mut rng_from_seed(42));
    let (line, _) = turn::random_turn(&start, 0, &mut rng);
    group.bench_function("evaluation", |b| {
        b.iter(|| black_box(turn::evaluate(black_box(&start), 0, &line)))
    });
    group.finish();

    let mut group = c.benchmark_group("asmacag/first_turn");
    group.sample_size(10);
    for spec in ["osla", "turn-mcts", "oe", "ntboe", "ismcts"] {
        let mut agent = agents::build::<Asmacag>(&spec.parse::<Spec>().unwrap()).unwrap();
        // OSLA looks at each legal action once, whatever the budget.
        let evaluations = if spec == "osla" {
            start.legal_moves().len() as u64
        } else {
            EVALUATIONS
        };
        group.throughput(Throughput::Elements(evaluations));
        let mut rng = rng_from_seed(7);
        group.bench_function(spec, |b| {
            b.iter(|| {
                let d = agent
                    .choose(
                        View::new(&start, 0, &[]),
                        Budget::iterations(EVALUATIONS),
                        &mut rng,
                    )
                    .unwrap();
                assert_eq!(d.iterations, evaluations);
                d.mv
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::profiled();
    targets = asmacag
}
criterion_main!(benches);
