//! Playouts: finishing a game at random, and reading every seat's reward at the end.

use crate::game::{Game, MAX_SEATS, MoveSet, Rng};

/// The terminal reward of each seat (entries past `num_seats` are 0).
pub type Rewards = [f64; MAX_SEATS];

/// Plays uniformly random legal moves until the game ends.
#[inline]
pub fn random_playout<G: Game>(state: &mut G, rng: &mut Rng) {
    while !state.is_terminal() {
        let mv = state.legal_moves().random(rng);
        state.play(mv);
    }
}

/// Every seat's [`Game::reward`] at a terminal state, read once so backpropagation does not
/// recompute it per node.
#[inline]
pub fn terminal_rewards<G: Game>(state: &G) -> Rewards {
    let mut r = [0.0; MAX_SEATS];
    for (seat, slot) in r.iter_mut().enumerate().take(state.num_seats()) {
        *slot = state.reward(seat);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;
    use crate::games::{GameDef, Tricks};

    #[test]
    fn a_playout_ends_the_game_and_rewards_are_complementary() {
        let mut rng = rng_from_seed(5);
        for _ in 0..100 {
            let mut g = Tricks::new_game(&(), &mut rng);
            random_playout(&mut g, &mut rng);
            assert!(g.is_terminal());
            let r = terminal_rewards(&g);
            assert_eq!(r[0] + r[1], 1.0);
            assert_eq!(r[2..], [0.0, 0.0]);
        }
    }
}
