//! Heuristic playouts in every game: the rule's moves are legal, playouts end, and they are
//! still random enough (epsilon) to reach different ends.

use std::collections::HashSet;

use cardsearch::game::{MoveSet, rng_from_seed};
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::search::{Playout, RewardFn};

struct Check;

impl GameVisitor for Check {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        let mut rng = rng_from_seed(12);
        let mut ends = HashSet::new();
        for _ in 0..200 {
            let mut state = G::new_game(&config, &mut rng);
            // From a random point of the game, so every phase is covered.
            let skip = rand::Rng::next_u32(&mut rng) % 20;
            for _ in 0..skip {
                if state.is_terminal() {
                    break;
                }
                let mv = state.heuristic_move(&mut rng);
                assert!(state.legal_moves().contains(mv), "illegal {mv}");
                let random = state.legal_moves().random(&mut rng);
                state.play(random);
            }
            let start = state.clone();
            Playout::Heuristic { epsilon: 0.0 }.play_out(&mut state, &mut rng);
            assert!(state.is_terminal());
            let mut noisy = start.clone();
            Playout::Heuristic { epsilon: 0.3 }.play_out(&mut noisy, &mut rng);
            assert!(noisy.is_terminal());
            for seat in 0..state.num_seats() {
                let r = RewardFn::Mix { weight: 0.5 }.reward(&state, seat);
                assert!((0.0..=1.0).contains(&r));
            }
            ends.insert(format!("{noisy:?}"));
        }
        // Even CoinGuess, with four ends in all, reaches more than one.
        assert!(ends.len() > 1, "noisy playouts always end alike");
    }
}

#[test]
fn heuristic_playouts_are_legal_and_end_in_every_game() {
    for info in games::all() {
        games::dispatch(&info.name.parse().unwrap(), Check).unwrap();
    }
}
