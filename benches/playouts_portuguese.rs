//! Random playouts from the opening of Sueca and Bisca: the speed of play + legal_moves +
//! random move choice, the inner loop of every rollout.
//!
//! `cargo bench --bench playouts_portuguese`; each iteration is one whole game from a fixed
//! deal, so throughput in elements/s is playouts per second.

use std::hint::black_box;

use cardsearch::games::{Bisca, GameDef, Sueca};
use cardsearch::{Game, MoveSet, Rng, Spec, game::rng_from_seed};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn playout<G: Game>(start: &G, rng: &mut Rng) -> f64 {
    let mut g = start.clone();
    while !g.is_terminal() {
        let mv = g.legal_moves().random(rng);
        g.play(mv);
    }
    g.reward(0)
}

fn bench_game<G: GameDef>(c: &mut Criterion, spec: &str) {
    let spec: Spec = spec.parse().unwrap();
    let config = G::config(&spec).unwrap();
    let mut rng = rng_from_seed(1);
    let start = G::new_game(&config, &mut rng);
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    group.bench_function(spec.to_string(), |b| {
        b.iter(|| black_box(playout(black_box(&start), &mut rng)))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    bench_game::<Sueca>(c, "sueca");
    bench_game::<Bisca>(c, "bisca");
    bench_game::<Bisca>(c, "bisca:exchange=true");
}

criterion_group!(benches, playouts);
criterion_main!(benches);
