//! The solver as an ISMCTS leaf evaluator (`leaf_solve=N`): a playout from a leaf with at most
//! `N` cards left follows the exact solver's optimal line on that iteration's determinization
//! instead of random moves, so the leaf is scored by the deal's exact outcome.
//!
//! The hook is a game wrapper: [`LeafSolved`] is the game with one playout changed, and
//! [`LeafWorlds`] hands the search wrapped determinizations. The search code is untouched (it
//! runs on `LeafSolved<G>` like on any game); `SearchAgent::choose` picks the wrapper when the
//! option is on. A playout abstraction in the search would absorb this as one more playout
//! kind.
//!
//! Each search thread keeps one small solver of its own (a thread-local, allocated on the
//! thread's first solved playout and reused after), so a playout allocates nothing. For Hearts
//! the line is the paranoid line of the searching seat (its own penalty against the other
//! three); in the two-sided games it is the deal's exact result for everyone.

use std::cell::RefCell;
use std::fmt;

use crate::game::{Game, Rng, Seat};
use crate::search::Worlds;
use crate::search::opponent_model::{ModelFeatures, OpponentModel};

use super::Solver;

/// Table size of each thread's leaf solver: 2^14 slots (384 KiB), ample for the small
/// endgames a leaf solves.
const LEAF_TABLE_BITS: u32 = 14;

thread_local! {
    static LEAF_SOLVER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// A game whose random playouts are replaced by the solver's line once at most `below` cards
/// are left.
#[derive(Clone, PartialEq, Eq)]
pub struct LeafSolved<G> {
    /// The wrapped state.
    pub state: G,
    /// Solve playouts from positions with at most this many cards left.
    pub below: u8,
    /// Whose side the solver's line is optimal for (it matters only in Hearts).
    pub root: u8,
}

impl<G: fmt::Debug> fmt::Debug for LeafSolved<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state.fmt(f)
    }
}

impl<G: Game> Game for LeafSolved<G> {
    type Move = G::Move;
    type Moves = G::Moves;

    #[inline]
    fn num_seats(&self) -> usize {
        self.state.num_seats()
    }
    #[inline]
    fn current_seat(&self) -> Seat {
        self.state.current_seat()
    }
    #[inline]
    fn legal_moves(&self) -> G::Moves {
        self.state.legal_moves()
    }
    #[inline]
    fn play(&mut self, mv: G::Move) {
        self.state.play(mv)
    }
    #[inline]
    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }
    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        self.state.reward(seat)
    }
    fn score(&self, seat: Seat) -> f64 {
        self.state.score(seat)
    }
    fn team(&self, seat: Seat) -> usize {
        self.state.team(seat)
    }
    fn margin(&self, seat: Seat) -> f64 {
        self.state.margin(seat)
    }
    fn match_units(&self, seat: Seat) -> Option<f64> {
        self.state.match_units(seat)
    }
    const HAS_HEURISTIC: bool = G::HAS_HEURISTIC;
    fn heuristic_move(&self, rng: &mut Rng) -> G::Move {
        self.state.heuristic_move(rng)
    }
    fn parse_move(&self, text: &str) -> Result<G::Move, String> {
        self.state.parse_move(text)
    }
    fn tricks_completed(&self) -> Option<u32> {
        self.state.tricks_completed()
    }
    // Everything else the game answers is forwarded too: a method left to its default would
    // answer for a generic game, not this one (before session 54, `leaf_solve` with `prior`
    // searched unbiased, with `reward=rank` in Hearts scored as `pwl`, and in Hearts with
    // passing treated the others' passes as seen).
    #[inline]
    fn rewards(&self) -> [f64; crate::game::MAX_SEATS] {
        self.state.rewards()
    }
    fn placing(&self, seat: Seat) -> f64 {
        self.state.placing(seat)
    }
    fn heuristic(&self, seat: Seat) -> f64 {
        self.state.heuristic(seat)
    }
    const POINTS_ARE_PENALTIES: bool = G::POINTS_ARE_PENALTIES;
    const STRONG_PRESET: &'static str = G::STRONG_PRESET;
    fn heuristic_moves(&self) -> Option<G::Moves> {
        self.state.heuristic_moves()
    }
    fn model_features(&self, mv: G::Move) -> Option<ModelFeatures> {
        self.state.model_features(mv)
    }
    fn visit_model_features(&self, visit: impl FnMut(G::Move, ModelFeatures)) -> bool {
        self.state.visit_model_features(visit)
    }
    fn opponent_model() -> Option<&'static OpponentModel> {
        G::opponent_model()
    }
    fn model_params() -> usize {
        G::model_params()
    }
    #[inline]
    fn trick_position(&self) -> Option<usize> {
        self.state.trick_position()
    }
    #[inline]
    fn next_move_seen_by(&self, seat: Seat) -> bool {
        self.state.next_move_seen_by(seat)
    }
    fn picture(&self) -> Option<String> {
        self.state.picture()
    }

    /// The solver's line when few enough cards are left (and the solver takes the position),
    /// else the game's own random playout.
    #[inline]
    fn random_playout(&mut self, rng: &mut Rng) {
        if let Some(ops) = G::exact()
            && ops.cards_left(&self.state) <= self.below as usize
        {
            let root = self.root as Seat;
            let solved = LEAF_SOLVER.with_borrow_mut(|slot| {
                let solver = slot.get_or_insert_with(|| Solver::new(LEAF_TABLE_BITS));
                ops.play_out(solver, &mut self.state, root).is_ok()
            });
            if solved {
                return;
            }
        }
        self.state.random_playout(rng);
    }
}

/// The worlds of a search with every state wrapped in [`LeafSolved`].
#[derive(Clone, Debug)]
pub struct LeafWorlds<W> {
    /// The search's own worlds.
    pub inner: W,
    /// See [`LeafSolved::below`].
    pub below: u8,
    /// See [`LeafSolved::root`].
    pub root: u8,
}

impl<G: Game, W: Worlds<G>> Worlds<LeafSolved<G>> for LeafWorlds<W> {
    const AVAILABILITY: bool = W::AVAILABILITY;

    fn num_roots(&self) -> u32 {
        self.inner.num_roots()
    }

    fn num_seats(&self) -> usize {
        self.inner.num_seats()
    }

    #[inline]
    fn world(&self, i: u64, rng: &mut Rng) -> (u32, LeafSolved<G>) {
        let (root, state) = self.inner.world(i, rng);
        (
            root,
            LeafSolved {
                state,
                below: self.below,
                root: self.root,
            },
        )
    }

    #[inline]
    fn possible_moves(&self, state: &LeafSolved<G>, legal: &G::Moves) -> G::Moves {
        self.inner.possible_moves(&state.state, legal)
    }
}
