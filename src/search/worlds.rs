//! Where each iteration's world comes from: the one thing that tells the three algorithms apart
//! (MO-ISMCTS draws its worlds as SO-ISMCTS does; what sets it apart is its tree per seat).
//!
//! SO-ISMCTS draws a fresh determinization every iteration into one tree and scores children by
//! availability; UCT replays the one true state; PIMC replays D fixed determinizations, each with
//! its own root in the same arena (iteration `i` uses root `i mod D`), so budgets and every
//! parallel mode work unchanged.

use crate::game::{DealSampler, Game, HiddenInfo, Rng, Seat};

/// The worlds a search iterates over.
pub trait Worlds<G: Game>: Sync {
    /// True when children are filtered by legality in each world and explored by availability
    /// (ISMCTS); false for perfect-information trees, explored by parent visits.
    const AVAILABILITY: bool;

    /// Number of roots: one tree per fixed world, or one for a sampled information set.
    fn num_roots(&self) -> u32;

    /// Seats of the game the worlds are states of (MO-ISMCTS keeps a tree for each).
    fn num_seats(&self) -> usize;

    /// The root and the state of iteration `i`. Must not allocate.
    fn world(&self, i: u64, rng: &mut Rng) -> (u32, G);

    /// Every move that can be legal at the tree node whose walk has reached `state` (where
    /// `legal` are the legal moves), in any world of this search: the moves its children block
    /// gets slots for.
    fn possible_moves(&self, state: &G, legal: &G::Moves) -> G::Moves;
}

/// A fresh determinization per iteration from one observer's sampler (SO-ISMCTS).
#[derive(Clone, Debug)]
pub struct Sampled<S> {
    /// Draws the worlds.
    pub sampler: S,
    /// The seat whose information sets the tree's nodes are.
    pub observer: Seat,
    /// Seats of the game.
    pub seats: usize,
}

impl<G: HiddenInfo, S: DealSampler<G>> Worlds<G> for Sampled<S> {
    const AVAILABILITY: bool = true;

    fn num_roots(&self) -> u32 {
        1
    }

    fn num_seats(&self) -> usize {
        self.seats
    }

    #[inline]
    fn world(&self, _i: u64, rng: &mut Rng) -> (u32, G) {
        (0, self.sampler.sample(rng))
    }

    #[inline]
    fn possible_moves(&self, state: &G, _legal: &G::Moves) -> G::Moves {
        state.possible_moves(self.observer)
    }
}

/// Fixed perfect-information worlds, one root each: the true state (UCT) or D
/// determinizations drawn once (PIMC).
#[derive(Clone, Debug)]
pub struct Fixed<G>(pub Vec<G>);

impl<G: Game> Worlds<G> for Fixed<G> {
    const AVAILABILITY: bool = false;

    fn num_roots(&self) -> u32 {
        self.0.len() as u32
    }

    fn num_seats(&self) -> usize {
        self.0.first().map_or(1, Game::num_seats)
    }

    #[inline]
    fn world(&self, i: u64, _rng: &mut Rng) -> (u32, G) {
        let r = if self.0.len() == 1 {
            0
        } else {
            (i % self.0.len() as u64) as usize
        };
        (r as u32, self.0[r].clone())
    }

    /// Each root's world is one fixed state, so a node is one state: its legal moves.
    #[inline]
    fn possible_moves(&self, _state: &G, legal: &G::Moves) -> G::Moves {
        legal.clone()
    }
}
