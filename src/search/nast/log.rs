//! The moves of one iteration, from the root to the end of the playout, in a fixed buffer per
//! search thread: what the n-gram update learns from.

use crate::game::Game;

use super::playout::Scratch;
use super::{LOG_CAPACITY, NONE, POSITIONS};

/// One logged move: who made it, its move bit, and its position within the trick (read only
/// by the layouts that key on it: a playout under any other logs 0 there).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Logged {
    pub(super) seat: u8,
    pub(super) bit: u8,
    pub(super) pos: u8,
}

/// The moves of one iteration from the root to the end, in a buffer of fixed size: one per
/// search thread, cleared at the start of each walk.
#[derive(Clone, Debug)]
pub struct MoveLog {
    pub(super) len: usize,
    pub(super) moves: [Logged; LOG_CAPACITY],
    /// The weighted draws' working space, kept with the thread's log so that no playout
    /// zeroes its own.
    pub(super) scratch: Scratch,
}

impl Default for MoveLog {
    fn default() -> MoveLog {
        MoveLog {
            len: 0,
            moves: [Logged::default(); LOG_CAPACITY],
            scratch: Scratch::default(),
        }
    }
}

impl MoveLog {
    /// Forgets every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Moves logged.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is logged.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Makes this log hold the moves `other` holds, keeping its own scratch space (a leaf
    /// playout on another thread continues a walk's log without copying the walk's scratch).
    #[inline]
    pub fn copy_moves_from(&mut self, other: &MoveLog) {
        self.moves[..other.len].copy_from_slice(&other.moves[..other.len]);
        self.len = other.len;
    }

    /// Logs the move with bit `bit` that the seat to move in `state` is about to make.
    #[inline]
    pub fn push<G: Game>(&mut self, state: &G, bit: u32) {
        self.push_logged(state.current_seat() as u8, bit as u8, trick_position(state));
    }

    /// Logs a move with bit `bit` by `seat` at trick position `pos`.
    #[inline(always)]
    pub(super) fn push_logged(&mut self, seat: u8, bit: u8, pos: u8) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = Logged { seat, bit, pos };
            self.len += 1;
        }
    }

    /// The bit of the last move logged, [`NONE`] when there is none.
    #[inline]
    pub(super) fn last_bit(&self) -> u8 {
        self.moves[..self.len].last().map_or(NONE, |m| m.bit)
    }
}

/// The position of the next move within the current trick (0 for games without tricks).
#[inline]
pub(super) fn trick_position<G: Game>(state: &G) -> u8 {
    state
        .trick_position()
        .map_or(0, |p| p.min(POSITIONS - 1) as u8)
}
