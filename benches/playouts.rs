//! Random playouts per second from the opening of every registered game (one core).
//!
//! `cargo bench --bench playouts` — each game's playout starts from the same seeded deal and
//! plays uniformly random legal moves to the end, as a search rollout does.

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use cardsearch::game::{MoveSet, rng_from_seed};
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::{Game, Spec};

struct PlayoutBench<'a>(&'a mut Criterion);

impl GameVisitor for PlayoutBench<'_> {
    type Output = ();
    fn visit<G: GameDef>(self, config: G::Config) {
        let start: G = G::new_game(&config, &mut rng_from_seed(42));
        let mut rng = rng_from_seed(7);
        let mut group = self.0.benchmark_group("playout");
        group.throughput(Throughput::Elements(1));
        group.bench_function(G::NAME, |b| {
            b.iter(|| {
                let mut s = black_box(&start).clone();
                while !s.is_terminal() {
                    let m = s.legal_moves().random(&mut rng);
                    s.play(m);
                }
                black_box(s.reward(0))
            })
        });
        group.finish();
    }
}

fn playouts(c: &mut Criterion) {
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), PlayoutBench(c)).expect("registered game");
    }
}

criterion_group! {
    name = benches;
    config = common::profiled();
    targets = playouts
}
criterion_main!(benches);
