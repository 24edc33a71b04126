//! Playouts: finishing a game from the end of the tree walk, and reading every seat's reward at
//! the end.

use std::fmt;

use rand::Rng as _;

use crate::game::{Game, MAX_SEATS, MoveSet, Rng};

use super::reward::RewardFn;

/// The terminal reward of each seat (entries past `num_seats` are 0).
pub type Rewards = [f64; MAX_SEATS];

/// How a playout picks its moves (`playout=` in agent specs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playout {
    /// Uniformly random legal moves ([`Game::random_playout`]).
    Random,
    /// [`Game::heuristic_move`], except that with probability `epsilon` a move is uniformly
    /// random: the rule's knowledge, with enough noise that playouts still see other lines.
    Heuristic {
        /// Probability of a random move instead of the rule's.
        epsilon: f64,
    },
}

impl Playout {
    /// The names `playout=` accepts.
    pub const NAMES: &'static str = "random or heuristic";
    /// Default `epsilon` of heuristic playouts.
    pub const DEFAULT_EPSILON: f64 = 0.1;

    /// Plays `state` to the end.
    #[inline]
    pub fn play_out<G: Game>(self, state: &mut G, rng: &mut Rng) {
        match self {
            Playout::Random => state.random_playout(rng),
            Playout::Heuristic { epsilon } => heuristic_playout(state, rng, epsilon),
        }
    }
}

impl fmt::Display for Playout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Playout::Random => f.write_str("random"),
            Playout::Heuristic { .. } => f.write_str("heuristic"),
        }
    }
}

/// The end of every iteration: a playout policy and a reward function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rollout {
    /// How moves are picked after the tree.
    pub playout: Playout,
    /// What the end is worth to each seat.
    pub reward: RewardFn,
}

impl Default for Rollout {
    /// Random playouts, positive win or loss: the note's and the thesis's baseline.
    fn default() -> Rollout {
        Rollout {
            playout: Playout::Random,
            reward: RewardFn::PositiveWinLoss,
        }
    }
}

impl Rollout {
    /// Plays `state` to the end and returns every seat's reward.
    #[inline]
    pub fn finish<G: Game>(self, state: &mut G, rng: &mut Rng) -> Rewards {
        self.playout.play_out(state, rng);
        self.reward.rewards(state)
    }
}

/// Plays uniformly random legal moves until the game ends.
#[inline]
pub fn random_playout<G: Game>(state: &mut G, rng: &mut Rng) {
    state.random_playout(rng);
}

/// Plays [`Game::heuristic_move`] until the game ends, a random move instead with probability
/// `epsilon`.
#[inline]
pub fn heuristic_playout<G: Game>(state: &mut G, rng: &mut Rng, epsilon: f64) {
    while !state.is_terminal() {
        // 53 random bits as a float in [0, 1).
        let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let mv = if u < epsilon {
            state.legal_moves().random(rng)
        } else {
            state.heuristic_move(rng)
        };
        state.play(mv);
    }
}

/// Every seat's [`Game::reward`] at a terminal state, read once so backpropagation does not
/// recompute it per node.
#[inline]
pub fn terminal_rewards<G: Game>(state: &G) -> Rewards {
    RewardFn::PositiveWinLoss.rewards(state)
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
