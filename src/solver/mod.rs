//! Exact endgames: a double-dummy solver for the perfect-information game of every trick-taking
//! game here, and what is built on it — the hybrid ISMCTS + solver endgame agent, the solver as
//! an ISMCTS leaf evaluator, and `cardsearch solve`.
//!
//! # The solver
//!
//! [`Solver`] is alpha-beta over the game's own state (copied, never undone), with
//! - **null-window searches** driven by bisection on the value range ([`Solver::value`]): each
//!   pass asks "is the value at least β?", which prunes far more than one full-window search
//!   over a range of 120 points;
//! - a **transposition table** ([`Table`]) preallocated once, holding a lower and an upper bound
//!   per position and the best move found, keyed by the cards still held, the trick in progress
//!   and the few facts the future depends on ([`Solvable::key`]); it stores the value *still to
//!   come* (the final value minus what is already banked), so a position reached by different
//!   tricks shares one entry; a new deal starts a new table generation in O(1);
//! - **quick bounds** ([`Solvable::bounds`]): the points already banked and still in play cut a
//!   search off as soon as the window lies outside them;
//! - **equivalent-card reduction** ([`order`]): cards adjacent in strength in one hand, with no
//!   card between them still in play and worth the same, are one move;
//! - **move ordering**: the table's best move, then a one-trick look ahead (win cheaply, give
//!   points to a partner who is winning, throw the least when losing).
//!
//! A node allocates nothing: a state is a few hundred bytes on the stack and the moves a
//! fixed array.
//!
//! # Values
//!
//! The solver maximises the value of one seat's side, the *root* (usually the seat to move at
//! the start): Sueca the team's final card points, Bisca the seat's final card points, Tricks the
//! seat's tricks, Hearts minus the seat's final penalty points, moon included, against the other
//! three playing together to hurt it (the *paranoid* reduction that makes a four-player game a
//! two-sided one). [`Solvable::value_margin`] turns a value into what people read: the point margin
//! (own minus other side) for the two-sided games, the penalty points for Hearts.
//!
//! # The hook for generic code
//!
//! Everything above the games is generic over [`HiddenInfo`](crate::game::HiddenInfo) games
//! without a solver bound, so a game offers its solver through [`Game::exact`]
//! (`None` by default): an [`Endgame`] object whose methods the hybrid agent, the leaf evaluator
//! and the CLI call once per solve.

use std::fmt;

use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};

pub mod bisca;
pub mod hearts;
pub mod hybrid;
pub mod leaf;
pub mod order;
pub mod positions;
pub mod reference;
mod search;
pub mod sueca;
pub mod table;
pub mod tricks;

pub use hybrid::{EndgameConfig, Pick};
pub use search::{MoveValue, Solver};
pub use table::Table;

/// Why a position could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The position is outside what the solver handles (a passing phase, a pending exchange).
    #[error("the solver cannot handle this position: {0}")]
    Unsupported(String),
    /// The search gave up after its node limit. (The front ends name the option that raises
    /// it through [`SolveError::explained`].)
    #[error("gave up after {0} nodes: the position is too large for the node limit")]
    NodeLimit(u64),
    /// The solve's watch asked it to stop (Ctrl-C at the command line).
    #[error("stopped after {0} nodes")]
    Stopped(u64),
    /// The game is already over.
    #[error("the game is over: there is nothing to solve")]
    Over,
    /// The game has no exact solver.
    #[error("this game has no exact solver (solvable: sueca, bisca, hearts, tricks)")]
    NoSolver,
}

impl SolveError {
    /// The error as a front end reports it: past the node limit, with the option that raises
    /// it as that front end spells it (`--node-limit`, `node_limit`) and its value `limit`.
    pub fn explained(&self, limit_option: &str, limit: u64) -> String {
        match self {
            SolveError::NodeLimit(_) => format!("{self}; raise {limit_option} (now {limit})"),
            _ => self.to_string(),
        }
    }
}

/// Every legal move's exact value for the seat to move (see the module's values), with a
/// fresh solver of the default size and no node limit. (The engine protocol's `solve` and
/// `cardsearch solve` answer through [`read_values`], under a node limit and a stop signal.)
/// For many solves keep a [`Solver`] and call [`Endgame::move_values`].
pub fn solve_moves<G: Game>(state: &G) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
    let ops = G::exact().ok_or(SolveError::NoSolver)?;
    let mut solver = Solver::new(Solver::DEFAULT_TABLE_BITS);
    let mut out = Vec::new();
    ops.move_values(&mut solver, state, &mut out)?;
    Ok(out)
}

/// A legal move's exact value as people read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadValue<M> {
    /// The move.
    pub mv: M,
    /// Its value in the game's measure ([`Endgame::margin_name`]): the point margin of the
    /// mover's side, or (Hearts) the mover's penalty points.
    pub value: i32,
    /// The mover's reward (1 win, ½ tie, 0 loss) of the outcome, where the value decides it.
    pub reward: Option<f64>,
}

/// Every legal move's exact value as people read it, best first: what `cardsearch solve`
/// prints and the engine protocol's `solve` answers.
pub fn read_values<G: Game>(
    ops: &dyn Endgame<G>,
    solver: &mut Solver,
    state: &G,
) -> Result<Vec<ReadValue<G::Move>>, SolveError> {
    let mut out = Vec::new();
    ops.move_values(solver, state, &mut out)?;
    out.sort_by_key(|m| std::cmp::Reverse(m.value));
    Ok(out
        .iter()
        .map(|m| ReadValue {
            mv: m.mv,
            value: ops.margin(state, m.value),
            reward: ops.reward_of(state, m.value),
        })
        .collect())
}

/// A trick-taking game whose perfect-information positions the [`Solver`] can search.
///
/// Implemented in this module for the games' own state types; the solver plays their own
/// [`Game::play`] rules, and the reference minimax (`reference`) checks it against plain
/// exhaustive search over the same rules.
pub trait Solvable: Game {
    /// How the reduction orders a suit and which neighbours are worth the same.
    type Order: order::StrengthOrder;

    /// `Err` naming the reason when the position is outside the solver's reach.
    fn check_solvable(&self) -> Result<(), SolveError>;
    /// Cards still to be played (in hands and, in Bisca, the stock).
    fn cards_left(&self) -> usize;
    /// The legal moves, all of which are cards in a position that passed
    /// [`check_solvable`](Self::check_solvable).
    fn card_moves(&self) -> CardSet;
    /// The move that plays `card`.
    fn card_move(card: Card) -> Self::Move;
    /// The card a move plays, if it plays one.
    fn move_card(mv: Self::Move) -> Option<Card>;
    /// Plays `card` (one of [`card_moves`](Self::card_moves)) by the game's own rules.
    #[inline]
    fn play_card(&mut self, card: Card) {
        self.play(Self::card_move(card));
    }
    /// Every card still to be played or on the table: hands, trick in progress, stock.
    fn in_play(&self) -> CardSet;
    /// The value for `root`'s side of a finished game (higher is better for it): what is
    /// banked, unless the end changes it (Hearts' moon).
    #[inline]
    fn final_value(&self, root: Seat) -> i32 {
        self.banked(root)
    }
    /// The part of the final value already decided (points taken so far): the table stores
    /// `value - banked`, which must depend only on [`key`](Self::key) within one deal.
    fn banked(&self, root: Seat) -> i32;
    /// Bounds `(lo, hi)` on the final value for `root` from here, however anyone plays.
    fn bounds(&self, root: Seat) -> (i32, i32);
    /// The position within one deal: every fact the rest of the game depends on (cards held,
    /// trick in progress, seat to move, and game-specific state) in two words.
    fn key(&self) -> [u64; 2];
    /// The best card of the trick in progress and its seat; `None` when a trick is to be led.
    fn trick_best(&self) -> Option<(Card, Seat)>;
    /// The cards of the trick in progress.
    fn trick_cards(&self) -> CardSet;
    /// True when `card` played now would take the lead of the trick from `best`.
    fn beats(&self, card: Card, best: Card) -> bool;
    /// The value a trick of `points` card points taken by `winner` adds for `root`'s side
    /// (for move ordering only).
    fn trick_gain(&self, winner: Seat, points: i32, root: Seat) -> i32;
    /// The points of a set of cards (for move ordering only).
    fn points_of(cards: CardSet) -> i32;
    /// A value as people read it: the point margin for two-sided games, penalty points for
    /// Hearts.
    fn value_margin(&self, value: i32) -> i32;
    /// The game's reward (win 1, tie 0.5, loss 0) of a final value for `root`, where the value
    /// decides it (two-sided games); `None` for Hearts, where it depends on the others' scores.
    fn reward_of(&self, value: i32) -> Option<f64>;
    /// What [`value_margin`](Self::value_margin) measures, for output: "margin", "penalty".
    const MARGIN_NAME: &'static str;
    /// Cards left when the thesis's hybrid switched to minimax (`endgame=thesis`), if it
    /// played this game.
    const THESIS_CARDS: Option<u32>;
}

/// A game's solver, reachable from code generic over games with no solver bound (through
/// [`Game::exact`]). Every call starts from a fresh table generation.
pub trait Endgame<G: Game>: Sync {
    /// See [`Solvable::check_solvable`].
    fn check_solvable(&self, state: &G) -> Result<(), SolveError>;
    /// See [`Solvable::cards_left`].
    fn cards_left(&self, state: &G) -> usize;
    /// The exact value of every legal move for the seat to move.
    fn move_values(
        &self,
        solver: &mut Solver,
        state: &G,
        out: &mut Vec<MoveValue<G::Move>>,
    ) -> Result<(), SolveError>;
    /// Plays the game to its end along a line of optimal moves for `root`'s side and its
    /// opponents.
    fn play_out(&self, solver: &mut Solver, state: &mut G, root: Seat) -> Result<(), SolveError>;
    /// See [`Solvable::value_margin`].
    fn margin(&self, state: &G, value: i32) -> i32;
    /// See [`Solvable::reward_of`].
    fn reward_of(&self, state: &G, value: i32) -> Option<f64>;
    /// See [`Solvable::MARGIN_NAME`].
    fn margin_name(&self) -> &'static str;
    /// See [`Solvable::THESIS_CARDS`].
    fn thesis_cards(&self) -> Option<u32>;
}

/// The [`Endgame`] of a [`Solvable`] game: what its [`Game::exact`] returns.
pub struct Exact<G>(std::marker::PhantomData<fn() -> G>);

impl<G> Exact<G> {
    /// The solver of `G`.
    pub const NEW: Exact<G> = Exact(std::marker::PhantomData);
}

impl<G> fmt::Debug for Exact<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Exact")
    }
}

impl<G: Solvable> Endgame<G> for Exact<G> {
    fn check_solvable(&self, state: &G) -> Result<(), SolveError> {
        state.check_solvable()
    }
    fn cards_left(&self, state: &G) -> usize {
        state.cards_left()
    }
    fn move_values(
        &self,
        solver: &mut Solver,
        state: &G,
        out: &mut Vec<MoveValue<G::Move>>,
    ) -> Result<(), SolveError> {
        solver.move_values(state, out)
    }
    fn play_out(&self, solver: &mut Solver, state: &mut G, root: Seat) -> Result<(), SolveError> {
        solver.play_out(state, root)
    }
    fn margin(&self, state: &G, value: i32) -> i32 {
        state.value_margin(value)
    }
    fn reward_of(&self, state: &G, value: i32) -> Option<f64> {
        state.reward_of(value)
    }
    fn margin_name(&self) -> &'static str {
        G::MARGIN_NAME
    }
    fn thesis_cards(&self) -> Option<u32> {
        G::THESIS_CARDS
    }
}

/// The [`Solvable`] methods of a game whose moves are plain cards (`Move = Card`,
/// `Moves = CardSet`): every legal move is a card.
macro_rules! moves_are_cards {
    () => {
        #[inline]
        fn card_moves(&self) -> CardSet {
            self.legal_moves()
        }
        #[inline]
        fn card_move(card: Card) -> Card {
            card
        }
        #[inline]
        fn move_card(mv: Card) -> Option<Card> {
            Some(mv)
        }
    };
}
pub(crate) use moves_are_cards;

/// Packs up to 12 bits of game state into the unused top three bits of each 16-bit suit lane of
/// a card set (ranks use the low 13), for [`Solvable::key`].
#[inline]
pub fn with_flags(cards: CardSet, flags: u32) -> u64 {
    debug_assert!(flags < 1 << 12);
    let f = flags as u64;
    cards.0 | (f & 7) << 13 | (f >> 3 & 7) << 29 | (f >> 6 & 7) << 45 | (f >> 9 & 7) << 61
}

#[cfg(test)]
mod tests;
