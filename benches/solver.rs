//! The exact solver's speed: positions per second and nodes per second on the issue's
//! positions, and the hybrid endgame's decision time.
//!
//! - `solver/sueca-20`, `solver/sueca-28`: Sueca with 5 and 7 tricks left (20, 28 cards), at
//!   the start of a trick; `solver/hearts-20`, `solver/hearts-28` the same for Hearts;
//!   `solver/bisca-18`: Bisca the moment the stock runs out (9 + 9 cards). Each solves
//!   [`POSITIONS`] positions (seeds 0..) for the seat to move: one exact value each.
//! - `solver/sueca-20-plain`: the same positions without the table and the equivalent-card
//!   reduction (alpha-beta alone), to show what those two are worth.
//! - `hybrid/sueca-13`: the thesis's hybrid decision with 13 cards left (the fourth seat of
//!   trick 7 to move, with at least two legal moves): every consistent deal of the information
//!   set solved (up to 9!/(3!3!3!) = 1680), every move's value.
//!
//! Before criterion runs, each group is solved once and its node count and time printed, which
//! is where nodes per second come from (node counts do not depend on the machine).

use std::time::Instant;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use cardsearch::game::rng_from_seed;
use cardsearch::games::{Bisca, GameDef, Hearts, Sueca};
use cardsearch::solver::hybrid::{self, Cards, EndgameConfig};
use cardsearch::solver::positions::bench_position;
use cardsearch::solver::{Solvable, Solver};
use cardsearch::{Budget, Game, View};

mod common;

/// Positions per group.
const POSITIONS: u64 = 8;

/// The positions of one group.
fn positions<G: GameDef + Solvable>(spec: &str, cards: usize) -> Vec<G> {
    let config = G::config(&spec.parse().unwrap()).unwrap();
    (0..POSITIONS)
        .map(|seed| bench_position(&config, cards, true, seed))
        .collect()
}

/// Solves every position once; returns the nodes.
fn solve_all<G: Solvable>(solver: &mut Solver, states: &[G]) -> u64 {
    solver.reset_nodes();
    for g in states {
        solver.value(g, g.current_seat()).unwrap();
    }
    solver.nodes()
}

fn group<G: Solvable>(c: &mut Criterion, name: &str, states: &[G], plain: bool) {
    let mut solver = Solver::new(Solver::DEFAULT_TABLE_BITS);
    if plain {
        solver = solver.without_table_and_reduction();
    }
    let start = Instant::now();
    let nodes = solve_all(&mut solver, states);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{name}: {} positions, {nodes} nodes ({:.0} per position), one pass {:.3} s: {:.0} positions/s, {:.2}M nodes/s",
        states.len(),
        nodes as f64 / states.len() as f64,
        seconds,
        states.len() as f64 / seconds,
        nodes as f64 / seconds / 1e6
    );
    let mut g = c.benchmark_group("solver");
    g.throughput(Throughput::Elements(states.len() as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| solve_all(&mut solver, states))
    });
    g.finish();
}

fn solver(c: &mut Criterion) {
    let sueca20 = positions::<Sueca>("sueca", 20);
    group(c, "sueca-20", &sueca20, false);
    group(c, "sueca-20-plain", &sueca20, true);
    group(c, "sueca-28", &positions::<Sueca>("sueca", 28), false);
    group(c, "hearts-20", &positions::<Hearts>("hearts", 20), false);
    group(c, "hearts-28", &positions::<Hearts>("hearts", 28), false);
    group(c, "bisca-18", &positions::<Bisca>("bisca", 18), false);
}

fn hybrid_decision(c: &mut Criterion) {
    let config = Sueca::config(&"sueca".parse().unwrap()).unwrap();
    // Positions with a choice to make (a forced move never reaches the hybrid).
    let states: Vec<Sueca> = (0..)
        .map(|seed| bench_position::<Sueca>(&config, 13, false, seed))
        .filter(|g| g.legal_moves().len() >= 2)
        .take(POSITIONS as usize)
        .collect();
    let cfg = EndgameConfig {
        cards: Cards::Thesis,
        ..EndgameConfig::default()
    };
    // Made once, as an agent keeps it between decisions.
    let mut solver = Some(Solver::new(Solver::DEFAULT_TABLE_BITS));
    let mut decide = |g: &Sueca| {
        let view = View::new(g, g.current_seat(), &[]);
        let sampler = view.deal_sampler().unwrap();
        let legal = view.legal_moves();
        let d = hybrid::decide(
            &cfg,
            &mut solver,
            &sampler,
            &legal,
            &Budget::iterations(1),
            &mut rng_from_seed(1),
        )
        .expect("13 cards left is the thesis's endgame");
        (d.iterations, legal.len())
    };
    let start = Instant::now();
    let mut deals = 0;
    for g in &states {
        let one = Instant::now();
        let (n, moves) = decide(g);
        deals += n;
        println!(
            "  hybrid sueca-13 position: {n} deals, {moves} legal moves, {:.1} ms",
            one.elapsed().as_secs_f64() * 1e3
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "hybrid sueca-13: {} decisions, {deals} deals solved, one pass {:.3} s: {:.1} ms per decision",
        states.len(),
        seconds,
        seconds * 1e3 / states.len() as f64
    );
    let mut g = c.benchmark_group("hybrid");
    g.throughput(Throughput::Elements(states.len() as u64));
    g.sample_size(10);
    g.bench_function("sueca-13", |b| {
        b.iter(|| {
            for s in &states {
                decide(s);
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::profiled();
    targets = solver, hybrid_decision
}
criterion_main!(benches);
