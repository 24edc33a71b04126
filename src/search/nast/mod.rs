//! NAST and EPIC playouts: the n-gram average sampling technique (Powley, Whitehouse and
//! Cowling 2013; the thesis's section 5.4) and its episodic variant.
//!
//! Every iteration's moves, from the root through the tree and the playout to the end, are
//! logged in a fixed buffer ([`MoveLog`], one per thread, no allocation). At the end each move
//! with the `n − 1` moves before it forms an n-gram, and the n-gram's statistics (count, total
//! reward) of the seat that made the move gain that seat's reward ([`NgramStats::record`]). In
//! the playout, each legal move is scored by the statistics of the n-gram it would complete, and
//! a [`Policy`] picks among them.
//!
//! EPIC (episodic information capture) groups n-grams by episode, which in card games is the
//! trick: the context of a move is only the moves before it in the same trick, and the move's
//! position within the trick is part of the key, so "the third card of a trick after the ace
//! and the seven" is one statistic wherever in the game it happens. Games without tricks have
//! no episodes: EPIC there is NAST.
//!
//! The statistics are shared by every thread of a search (atomics, relaxed, updated by load and
//! store rather than read-modify-write): two threads that update the same n-gram at the same
//! instant can lose one update, a bounded error in an average that is only a rollout bias, and
//! the cost in a sequential search is that of plain loads and stores. See docs/algorithms.md.
//!
//! The module's parts: `policy` (how a playout step picks among the legal moves' statistics),
//! `table` (the per-seat n-gram statistics and their update), `log` (the moves of one
//! iteration) and `playout` (the playout loop and its draws).

/// The longest n-gram (`n=`).
pub const MAX_N: u8 = 4;
/// Moves a [`MoveLog`] keeps; later moves of a longer game are played but not learned from.
pub const LOG_CAPACITY: usize = 256;
/// The mean reward an n-gram never seen is taken to have: the best a reward can be, so that
/// the policies try unseen replies (MAST's optimistic start).
pub const UNSEEN_MEAN: f64 = 1.0;
/// Move bits a game can have (one per bit of a 64-bit move mask).
const MOVES: usize = 64;
/// The context value "no move" (the start of the log or of an episode).
const NONE: u8 = MOVES as u8;
/// Seats a table is laid out for.
const SEATS: usize = crate::game::MAX_SEATS;
/// Positions within a trick EPIC tells apart (later positions share the last).
const POSITIONS: usize = 4;
/// Slots of a hashed table (n >= 3): 5 MB with their keys, reset before each search.
const HASH_SLOTS: usize = 1 << 18;
/// Slots a hashed lookup probes before it gives up (the n-gram then counts as unseen and its
/// update is dropped: a full table loses statistics, never correctness).
const PROBES: usize = 32;

// Table layouts, the const parameter of the playout and update loops: each loop is compiled once
// per layout, so a step's index arithmetic has no run-time branch on the configuration. Flags
// for the dense tables (n <= 2), and one value for the hashed table (n >= 3).
/// Dense layout flag: n = 2, each row is one previous move's.
const BIGRAM: u8 = 1;
/// Dense layout flag: EPIC, rows per position within the trick.
const EPISODE: u8 = 2;
/// The hashed table's layout.
const HASHED: u8 = 4;

/// Runs `$body` with `$layout` bound, as a const, to the layout value `$value`.
macro_rules! with_layout {
    ($value:expr, $layout:ident => $body:expr) => {
        match $value {
            0 => {
                const $layout: u8 = 0;
                $body
            }
            BIGRAM => {
                const $layout: u8 = BIGRAM;
                $body
            }
            EPISODE => {
                const $layout: u8 = EPISODE;
                $body
            }
            3 => {
                const $layout: u8 = BIGRAM | EPISODE;
                $body
            }
            _ => {
                const $layout: u8 = HASHED;
                $body
            }
        }
    };
}

// After the macro, which the parts use (a `macro_rules!` is in scope only below it).
mod log;
mod playout;
mod policy;
mod table;
#[cfg(test)]
mod tests;

pub use log::MoveLog;
pub use playout::playout;
pub(crate) use playout::sample_sums;
pub use policy::Policy;
pub use table::{NgramStats, Stat};

/// NAST or EPIC settings (`playout=nast:n=N` or `playout=epic:n=N`, `policy=`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ngrams {
    /// Moves per n-gram, 1 to [`MAX_N`] (1 is MAST).
    pub n: u8,
    /// How playouts pick from the statistics.
    pub policy: Policy,
    /// EPIC: n-grams within one trick, keyed by position in the trick.
    pub episodic: bool,
}

impl Ngrams {
    /// The thesis's default length.
    pub const DEFAULT_N: u8 = 2;

    /// The table layout of these settings ([`BIGRAM`] and [`EPISODE`] flags, or [`HASHED`]).
    fn layout(self) -> u8 {
        if self.n > 2 {
            return HASHED;
        }
        (if self.n == 2 { BIGRAM } else { 0 }) | (if self.episodic { EPISODE } else { 0 })
    }

    /// True when the statistics key on the position within the trick (EPIC).
    #[inline(always)]
    fn keys_on_position(layout: u8) -> bool {
        layout == HASHED || layout & EPISODE != 0
    }
}
