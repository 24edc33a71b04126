//! Samples per second of `ConstrainedDeal::sample` (one determinization per search iteration),
//! and the cost of `ConstrainedDeal::new` (once per decision).

use std::hint::black_box;

mod common;

use cardsearch::deal::{ConstrainedDeal, Holder};
use cardsearch::game::rng_from_seed;
use cardsearch::games::{GameDef, Sueca};
use cardsearch::{CardSet, DealSampler, Game, HiddenInfo, Suit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A real Sueca position after four tricks in which two of the observer's opponents have shown
/// voids: the first seed (in order) whose random play gets there, so the position is fixed.
fn sueca_midgame_with_voids() -> Sueca {
    for seed in 0u64.. {
        let mut rng = rng_from_seed(seed);
        let mut g = Sueca::new_game(&Sueca::config(&"sueca".parse().unwrap()).unwrap(), &mut rng);
        for _ in 0..16 {
            let m = g.legal_moves().random(&mut rng);
            g.play(m);
        }
        let observer = g.current_seat();
        let voided = (1..4)
            .filter(|k| !g.voids((observer + k) % 4).is_empty())
            .count();
        if voided >= 2 {
            return g;
        }
    }
    unreachable!()
}

fn cards(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn void(suits: &[Suit]) -> CardSet {
    suits
        .iter()
        .fold(CardSet::FULL, |a, &s| a - CardSet::suit(s))
}

/// (name, unknown cards, holders)
fn cases() -> Vec<(&'static str, CardSet, Vec<Holder>)> {
    let mut rng = rng_from_seed(1);
    let hearts_own = CardSet::FULL.random_subset(13, &mut rng);
    let sueca_pack = CardSet::FULL - cards("8C 9C TC 8D 9D TD 8H 9H TH 8S 9S TS");
    let bisca_own = sueca_pack.random_subset(9, &mut rng);
    let bisca_trump = (sueca_pack - bisca_own).random(&mut rng).set();
    vec![
        (
            "hearts opening 3x13, no constraints",
            CardSet::FULL - hearts_own,
            vec![
                Holder {
                    size: 13,
                    allowed: CardSet::FULL
                };
                3
            ],
        ),
        (
            "sueca midgame 6/6/5, two voids",
            cards("2C 4C 6C QC KC 3D 5D JD 7D 2H 3H 5H AH 4S 6S JS AS"),
            vec![
                Holder {
                    size: 6,
                    allowed: void(&[Suit::Clubs]),
                },
                Holder {
                    size: 6,
                    allowed: void(&[Suit::Hearts]),
                },
                Holder {
                    size: 5,
                    allowed: CardSet::FULL,
                },
            ],
        ),
        (
            "bisca opponent 9 + stock 21",
            sueca_pack - bisca_own - bisca_trump,
            vec![
                Holder {
                    size: 9,
                    allowed: CardSet::FULL,
                },
                Holder {
                    size: 21,
                    allowed: CardSet::FULL,
                },
            ],
        ),
        (
            "hearts midgame 9/9/8, voids in three suits",
            cards("2C 5C 9C JC KC 3D 4D 8D TD QD AD 2H 6H 7H 9H JH QH 3S 5S 6S 8S TS QS KS AS 4H"),
            vec![
                Holder {
                    size: 9,
                    allowed: void(&[Suit::Clubs]),
                },
                Holder {
                    size: 9,
                    allowed: void(&[Suit::Diamonds, Suit::Spades]),
                },
                Holder {
                    size: 8,
                    allowed: void(&[Suit::Hearts]),
                },
            ],
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut sample = c.benchmark_group("deal_sample");
    sample.throughput(Throughput::Elements(1));
    for (name, unknown, holders) in cases() {
        let deal = ConstrainedDeal::new(unknown, &holders).unwrap();
        let mut rng = rng_from_seed(7);
        sample.bench_function(name, |b| b.iter(|| black_box(deal.sample(&mut rng))));
    }
    // The full determinization a search iteration does: sample the hidden hands and build the
    // whole game state.
    let sueca = sueca_midgame_with_voids();
    let sampler = sueca.deal_sampler(sueca.current_seat()).unwrap();
    let mut rng = rng_from_seed(7);
    sample.bench_function("sueca game state after 4 tricks, two opponents void", |b| {
        b.iter(|| black_box(sampler.sample(&mut rng)))
    });
    sample.finish();
    let mut new = c.benchmark_group("deal_new");
    new.throughput(Throughput::Elements(1));
    for (name, unknown, holders) in cases() {
        new.bench_function(name, |b| {
            b.iter(|| black_box(ConstrainedDeal::new(black_box(unknown), &holders).unwrap()))
        });
    }
    new.finish();
}

criterion_group! {
    name = benches;
    config = common::profiled();
    targets = bench
}
criterion_main!(benches);
