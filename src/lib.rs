//! # cardsearch
//!
//! Monte Carlo tree search for hidden-information card games, built to be fast on every core and
//! to measure itself honestly.
//!
//! - [`cards`]: `Card`, `Suit`, `Rank` and the `CardSet` bitboard.
//! - [`game`]: the `Game` / `HiddenInfo` traits, each seat's `InfoSet` and the agent's `View`.
//! - [`deal`]: exactly uniform constrained deal sampling (determinization).
//! - [`games`]: the games and the registry that builds them from specs.
//! - [`search`]: the arena tree and the search algorithms.
//! - [`solver`]: the exact endgame solver, the hybrid endgame agent and the leaf evaluator.
//! - [`agents`]: agents built from specs (`ismcts:c=0.7`).
//! - [`harness`]: fair matches, statistics and logs.
#![deny(missing_docs)]

pub mod agents;
pub mod allocator;
pub mod cards;
pub mod cli;
pub mod cpu;
pub mod deal;
pub mod game;
pub mod games;
pub mod harness;
pub mod limits;
pub mod mask;
pub mod protocol;
pub mod search;
pub mod solver;
pub mod spec;

pub use agents::{Agent, Decision};
pub use cards::{Card, CardParseError, CardSet, Rank, Suit};
pub use game::{DealError, DealSampler, Game, HiddenInfo, InfoSet, MoveSet, Rng, Seat, View};
pub use games::{GameDef, GameVisitor};
pub use search::Budget;
pub use spec::{Spec, SpecError};
