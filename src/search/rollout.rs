//! Playouts: finishing a game from the end of the tree walk, and reading every seat's reward at
//! the end.

use std::fmt;

use rand::Rng as _;

use crate::game::{Game, MAX_SEATS, MoveSet, Rng, TreeMove};
use crate::mask::MoveMask;

use super::nast::{self, MoveLog, NgramStats, Ngrams};
use super::opponent_model::OpponentModel;
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
    /// Moves drawn from the game's learned opponent model ([`Game::opponent_model`]: the
    /// softmax of its fitted scores over the legal moves, a model of how the search itself
    /// plays), except that with probability `epsilon` a move is uniformly random. Only games
    /// with a model offer it; elsewhere it plays uniformly random moves.
    Model {
        /// Probability of a random move instead of the model's.
        epsilon: f64,
    },
    /// NAST or EPIC: moves picked by a policy over n-gram statistics learned from the search's
    /// own iterations ([`super::nast`]). The statistics belong to a search: a playout run
    /// outside one ([`Playout::play_out`]) has none and plays uniformly random moves.
    Ngrams(Ngrams),
}

impl Playout {
    /// The names `playout=` accepts.
    pub const NAMES: &'static str = "random, heuristic, model, nast[:n=N] or epic[:n=N]";
    /// Default `epsilon` of heuristic and model playouts.
    pub const DEFAULT_EPSILON: f64 = 0.1;

    /// Plays `state` to the end.
    #[inline]
    pub fn play_out<G: Game>(self, state: &mut G, rng: &mut Rng) {
        match self {
            Playout::Random | Playout::Ngrams(_) => state.random_playout(rng),
            Playout::Heuristic { epsilon } => heuristic_playout(state, rng, epsilon),
            Playout::Model { epsilon } => match G::opponent_model() {
                Some(model) => model_playout(state, rng, epsilon, model),
                None => state.random_playout(rng),
            },
        }
    }
}

impl fmt::Display for Playout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Playout::Random => f.write_str("random"),
            Playout::Heuristic { .. } => f.write_str("heuristic"),
            Playout::Model { .. } => f.write_str("model"),
            Playout::Ngrams(g) => {
                let kind = if g.episodic { "epic" } else { "nast" };
                write!(f, "{kind}:n={}", g.n)
            }
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

/// A search's rollout at run time: the settings and, for NAST and EPIC, the statistics its
/// threads share. Passed by value into every search loop; the loop calls [`Roller::finish`]
/// and does not know which playout runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Roller<'a> {
    /// The settings.
    pub(crate) rollout: Rollout,
    /// The n-gram statistics, when the playout is NAST or EPIC: the one table every thread
    /// shares, or with tables per thread (`nast_tables=thread`) one per thread, of which a
    /// thread's roller ([`Roller::for_thread`]) keeps its own. Empty for other playouts.
    pub(crate) tables: &'a [NgramStats],
}

impl<'a> Roller<'a> {
    /// The roller thread `i` of a root- or tree-parallel search plays with: its own table
    /// when the search keeps one per thread, else the shared one.
    pub(crate) fn for_thread(self, i: usize) -> Roller<'a> {
        match self.tables {
            [_, _, ..] => Roller {
                tables: self.tables.get(i..=i).unwrap_or(&self.tables[..1]),
                ..self
            },
            _ => self,
        }
    }

    /// The statistics this roller's playouts read and update.
    #[inline]
    fn stats(self) -> Option<&'a NgramStats> {
        self.tables.first()
    }

    /// True when walks must log their moves for the statistics.
    pub(crate) fn logs_moves(self) -> bool {
        self.stats().is_some()
    }

    /// Plays `state` to the end and returns every seat's reward. With n-gram statistics, the
    /// playout's moves are logged after the walk's in `log`, and the whole iteration is added
    /// to the statistics.
    #[inline]
    pub(crate) fn finish<G: Game>(
        self,
        state: &mut G,
        rng: &mut Rng,
        log: &mut MoveLog,
    ) -> Rewards {
        match self.stats() {
            None => self.rollout.finish(state, rng),
            Some(stats) => {
                nast::playout(state, rng, stats, log);
                let rewards = self.rollout.reward.rewards(state);
                stats.record(log, &rewards, self.rollout.reward);
                rewards
            }
        }
    }
}

/// A uniformly random float in [0, 1) from 53 random bits.
#[inline]
pub(crate) fn unit_f64(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
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
        let mv = if unit_f64(rng) < epsilon {
            state.legal_moves().random(rng)
        } else {
            state.heuristic_move(rng)
        };
        state.play(mv);
    }
}

/// Plays moves drawn from `model` ([`model_move`]) until the game ends.
pub fn model_playout<G: Game>(state: &mut G, rng: &mut Rng, epsilon: f64, model: &OpponentModel) {
    let mut scratch = ModelScratch::default();
    while !state.is_terminal() {
        let mv = model_move(state, rng, epsilon, model, &mut scratch);
        state.play(mv);
    }
}

/// A model draw's working space: the running sums of the legal moves' weights and their bits,
/// reused by every step of a playout (a step reads only what it wrote).
#[derive(Clone, Debug)]
pub struct ModelScratch {
    sums: [f64; MODEL_MOVES],
    bits: [u32; MODEL_MOVES],
}

impl Default for ModelScratch {
    fn default() -> ModelScratch {
        ModelScratch {
            sums: [0.0; MODEL_MOVES],
            bits: [0; MODEL_MOVES],
        }
    }
}

/// The most legal moves [`model_move`] draws among by the model (one per bit of a 64-bit move
/// mask; every game with a model has fewer).
const MODEL_MOVES: usize = 64;

/// A legal move of `state` (not terminal) drawn from `model`: each with probability
/// proportional to its weight ([`OpponentModel::weight`], the model's softmax), except that
/// with probability `epsilon`, and wherever the model cannot describe the legal moves (or
/// there are more than `MODEL_MOVES`), it is uniformly random. A forced move takes no draw.
#[inline]
pub fn model_move<G: Game>(
    state: &G,
    rng: &mut Rng,
    epsilon: f64,
    model: &OpponentModel,
    scratch: &mut ModelScratch,
) -> G::Move {
    let legal = state.legal_moves();
    let count = legal.bits().count() as usize;
    if count == 1 {
        return G::Move::from_bit(legal.bits().select(0));
    }
    if count > MODEL_MOVES || unit_f64(rng) < epsilon {
        return legal.random(rng);
    }
    let ModelScratch { sums, bits } = scratch;
    let mut k = 0;
    let mut total = 0.0;
    let described = state.visit_model_features(|mv, features| {
        total += model.weight(&features);
        sums[k] = total;
        bits[k] = mv.bit();
        k += 1;
    });
    if described && k == count {
        G::Move::from_bit(bits[nast::sample_sums(&sums[..k], rng)])
    } else {
        legal.random(rng)
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
