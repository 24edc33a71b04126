//! Random positions with a given number of cards left: what the solver's benches, tests and
//! examples solve.

use crate::cards::random_below;
use crate::game::{MoveSet, Rng, rng_from_seed};
use crate::games::GameDef;

use super::Solvable;

/// A position of `G` with `lo..=hi` cards left to play (uniform in the range) that the solver
/// takes, reached from a random deal by random moves.
pub fn random_position<G: GameDef + Solvable>(
    config: &G::Config,
    lo: usize,
    hi: usize,
    rng: &mut Rng,
) -> G {
    let target = lo + random_below(rng, (hi - lo + 1) as u32) as usize;
    loop {
        let mut g = G::new_game(config, rng);
        while !g.is_terminal() && (g.cards_left() > target || g.check_solvable().is_err()) {
            g.play(g.legal_moves().random(rng));
        }
        if !g.is_terminal() && g.cards_left() >= lo {
            return g;
        }
    }
}

/// The position of `seed` with exactly `cards` left and, with `trick_start`, no trick in
/// progress: for benches, which name positions by game, cards and seed.
pub fn bench_position<G: GameDef + Solvable>(
    config: &G::Config,
    cards: usize,
    trick_start: bool,
    seed: u64,
) -> G {
    let mut rng = rng_from_seed(seed);
    loop {
        let g: G = random_position(config, cards, cards, &mut rng);
        if g.cards_left() == cards && (!trick_start || g.trick_cards().is_empty()) {
            return g;
        }
    }
}
