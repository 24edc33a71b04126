//! Pentago-Swap (McGill COMP 424, 2019): a perfect-information board game on bitboards.
//!
//! A 6×6 board of four 3×3 quadrants (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right),
//! empty at the start; White (seat 0) moves first. A move places a stone of the mover's colour on
//! an empty cell and then swaps two different quadrants wholesale (no rotation), so there are
//! 6 × (empty cells) moves. Five in a row (row, column or diagonal) is checked only after the swap:
//! if both colours have five the game is a draw, if one does that colour wins (even when it is the
//! mover's opponent). A full board (36 plies) without five is a draw.
//!
//! Move notation `r,c:q1q2` (see [`PentagoMove`]): `1,1:13` places on row 1, column 1 (counting
//! from 0, row 0 at the top) and swaps quadrants 1 and 3.
//!
//! Deal (position) notation: the 36 cells row by row from the top, `.` empty, `W` white, `B`
//! black, rows separated by `/`, then a space and the colour to move:
//! `....../.W..../....../....../....../...... B`. The colour to move follows from the counts
//! (White moves when both have as many stones), so it may be left out; when given it must agree.
//! Whitespace and `/` between cells are ignored on input. A position with five in a row or a
//! full board is over and is not accepted as a start.
//!
//! Nothing is hidden: every seat sees the whole state, so the game's sampler returns the state
//! itself and the search agents all run plain UCT on it.

use std::fmt::Write as _;

use crate::game::{DealError, Draws, Game, HiddenInfo, PerfectInformation, Rng, Seat};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;

pub mod board;
pub mod moves;
pub mod solver;
pub mod symmetry;
pub mod tactics;

pub use moves::{NUM_MOVES, PentagoMove, PentagoMoves};

use board::{FULL, has_five, swap};

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still being played.
    Ongoing,
    /// Won by this seat (0 White, 1 Black).
    Won(u8),
    /// Drawn: both colours made five with one swap, or the board filled up.
    Draw,
}

impl Outcome {
    /// `seat`'s reward: 1 for its win, 0 for its loss, ½ for a draw (and while ongoing).
    #[inline]
    pub fn reward(self, seat: Seat) -> f64 {
        match self {
            Outcome::Won(s) if s as Seat == seat => 1.0,
            Outcome::Won(_) => 0.0,
            _ => 0.5,
        }
    }
}

/// A Pentago-Swap position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pentago {
    /// Stones of White (seat 0) and Black (seat 1), bit `6·row + col`.
    stones: [u64; 2],
    to_move: u8,
    outcome: Outcome,
}

impl Default for Pentago {
    fn default() -> Self {
        Pentago::new()
    }
}

impl Pentago {
    /// The empty board, White to move.
    pub const fn new() -> Pentago {
        Pentago {
            stones: [0, 0],
            to_move: 0,
            outcome: Outcome::Ongoing,
        }
    }

    /// A position from each colour's stones, with the colour to move following from the counts;
    /// errors unless the stones are disjoint, on the board, and counted as play makes them.
    pub fn from_stones(white: u64, black: u64) -> Result<Pentago, DealError> {
        let bad = |why: String| Err(DealError::Invalid(why));
        if (white | black) & !FULL != 0 || white & black != 0 {
            return bad("stones must be on distinct cells of the 36".into());
        }
        let (w, b) = (white.count_ones(), black.count_ones());
        if w != b && w != b + 1 {
            return bad(format!(
                "White has {w} stones and Black {b}: White moves first, so White has as many \
                 stones as Black or one more"
            ));
        }
        let mut p = Pentago {
            stones: [white, black],
            to_move: (w + b) as u8 & 1,
            outcome: Outcome::Ongoing,
        };
        p.outcome = p.judge();
        if p.outcome != Outcome::Ongoing {
            return bad("the position is already over (five in a row or a full board)".into());
        }
        Ok(p)
    }

    /// White's and Black's stones.
    pub fn stones(&self) -> [u64; 2] {
        self.stones
    }

    /// The stones of the seat to move and of the other seat.
    #[inline]
    pub fn mover_and_opponent(&self) -> (u64, u64) {
        let m = self.to_move as usize;
        (self.stones[m], self.stones[m ^ 1])
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> u64 {
        FULL & !(self.stones[0] | self.stones[1])
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// True when the seat to move has a move that wins at once.
    #[inline]
    pub fn mover_can_win(&self) -> bool {
        let (me, opp) = self.mover_and_opponent();
        tactics::can_win(me, opp)
    }

    /// The outcome of the current stones, checked as after a swap.
    #[inline(always)]
    fn judge(&self) -> Outcome {
        match (has_five(self.stones[0]), has_five(self.stones[1])) {
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Won(0),
            (false, true) => Outcome::Won(1),
            (false, false) if self.empty() == 0 => Outcome::Draw,
            _ => Outcome::Ongoing,
        }
    }

    /// The position after `mv` when it comes from the position the stones `(me, opp)` of the
    /// mover and the opponent describe: the mover's and opponent's stones after the move.
    #[inline]
    pub const fn after(me: u64, opp: u64, mv: PentagoMove) -> (u64, u64) {
        let s = mv.swap();
        (swap(me | 1 << mv.cell(), s), swap(opp, s))
    }

    /// The board as a 6×6 grid for people, quadrants marked, with the colour to move or the
    /// result.
    pub fn grid(&self) -> String {
        let mut out = String::from("    0 1 2   3 4 5\n");
        for row in 0..6 {
            if row == 3 {
                out.push_str("    ------+------\n");
            }
            let _ = write!(out, " {row}  ");
            for col in 0..6 {
                if col == 3 {
                    out.push_str("| ");
                }
                out.push(self.cell_char(row * 6 + col));
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str(&match self.outcome {
            Outcome::Ongoing => format!(
                "    {} to move",
                if self.to_move == 0 { "White" } else { "Black" }
            ),
            Outcome::Won(0) => "    White won".to_string(),
            Outcome::Won(_) => "    Black won".to_string(),
            Outcome::Draw => "    drawn".to_string(),
        });
        out
    }

    fn cell_char(&self, c: u32) -> char {
        if self.stones[0] >> c & 1 == 1 {
            'W'
        } else if self.stones[1] >> c & 1 == 1 {
            'B'
        } else {
            '.'
        }
    }
}

impl Game for Pentago {
    type Move = PentagoMove;
    type Moves = PentagoMoves;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.to_move as Seat
    }

    #[inline]
    fn legal_moves(&self) -> PentagoMoves {
        if self.outcome != Outcome::Ongoing {
            return PentagoMoves::EMPTY;
        }
        PentagoMoves::all_on(self.empty())
    }

    #[inline]
    fn play(&mut self, mv: PentagoMove) {
        debug_assert!(self.outcome == Outcome::Ongoing, "play after the end");
        debug_assert!(self.empty() >> mv.cell() & 1 == 1, "{mv} on a taken cell");
        let s = mv.swap();
        self.stones[self.to_move as usize] |= 1 << mv.cell();
        self.stones = [swap(self.stones[0], s), swap(self.stones[1], s)];
        self.to_move ^= 1;
        self.outcome = self.judge();
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }

    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        self.outcome.reward(seat)
    }

    fn score(&self, seat: Seat) -> f64 {
        self.reward(seat)
    }

    /// The same moves as [`crate::game::playout_by_moves`], without building move sets: the
    /// `k`-th move of a position is the `k/6`-th empty cell with swap `k % 6`.
    #[inline]
    fn random_playout(&mut self, rng: &mut Rng) {
        let mut draws = Draws::new();
        while self.outcome == Outcome::Ongoing {
            let empty = self.empty();
            let k = draws.below(rng, 6 * empty.count_ones());
            let cell = crate::cards::select_bit(empty, k / 6);
            self.play(PentagoMove::new(cell, (k % 6) as usize));
        }
    }

    fn parse_move(&self, text: &str) -> Result<PentagoMove, String> {
        text.parse()
    }

    fn picture(&self) -> Option<String> {
        Some(self.grid())
    }
}

impl HiddenInfo for Pentago {
    const PERFECT_INFORMATION: bool = true;
    type InfoSet = PerfectInformation<Pentago>;

    fn info_set(&self, observer: Seat) -> PerfectInformation<Pentago> {
        PerfectInformation::new(*self, observer)
    }

    /// Nothing is hidden: the legal moves.
    fn possible_moves(&self, _observer: Seat) -> PentagoMoves {
        self.legal_moves()
    }
}

impl GameDef for Pentago {
    const NAME: &'static str = "pentago-swap";
    const ABOUT: &'static str = "2 players, 6x6 board: place a stone, swap two quadrants; five in a row \
         after the swap wins (perfect information)";
    const OPTIONS: &'static [OptionDoc] = &[];
    type Config = ();

    fn config(_spec: &Spec) -> Result<(), SpecError> {
        Ok(())
    }

    /// The empty board: every game starts there (seats swap between the two games of a deal).
    fn new_game(_config: &(), _rng: &mut Rng) -> Pentago {
        Pentago::new()
    }

    fn from_deal(_config: &(), deal: &str) -> Result<Pentago, DealError> {
        let mut cells = Vec::with_capacity(37);
        for ch in deal.chars().filter(|c| !c.is_whitespace() && *c != '/') {
            cells.push(ch);
        }
        let to_move = if cells.len() == 37 { cells.pop() } else { None };
        if cells.len() != 36 {
            return Err(DealError::Invalid(format!(
                "a Pentago-Swap position is 36 cells of '.', 'W', 'B' (rows separated by '/'), \
                 optionally followed by the colour to move; found {} characters",
                cells.len() + to_move.is_some() as usize
            )));
        }
        let (mut white, mut black) = (0u64, 0u64);
        for (i, ch) in cells.iter().enumerate() {
            match ch {
                '.' => {}
                'W' => white |= 1 << i,
                'B' => black |= 1 << i,
                other => {
                    return Err(DealError::Invalid(format!(
                        "'{other}' at cell {i} (row {}, column {}) is not '.', 'W' or 'B'",
                        i / 6,
                        i % 6
                    )));
                }
            }
        }
        let p = Pentago::from_stones(white, black)?;
        let expect = if p.to_move == 0 { 'W' } else { 'B' };
        match to_move {
            Some(c) if c != 'W' && c != 'B' => Err(DealError::Invalid(format!(
                "the colour to move is 'W' or 'B', not '{c}'"
            ))),
            Some(c) if c != expect => Err(DealError::Invalid(format!(
                "'{c}' to move, but with these stones {expect} is to move (White moves first)"
            ))),
            _ => Ok(p),
        }
    }

    fn deal_text(&self) -> String {
        let mut out = String::with_capacity(44);
        for row in 0..6 {
            if row > 0 {
                out.push('/');
            }
            for col in 0..6 {
                out.push(self.cell_char(row * 6 + col));
            }
        }
        out.push(' ');
        out.push(if self.to_move == 0 { 'W' } else { 'B' });
        out
    }
}

/// A position after `min + random_below(spread)` uniformly random moves from the empty board,
/// or fewer if the game ends first: the tests' source of varied positions.
#[cfg(test)]
pub(crate) fn random_position(rng: &mut Rng, min: u32, spread: u32) -> Pentago {
    let mut p = Pentago::new();
    for _ in 0..min + crate::cards::random_below(rng, spread) {
        if p.is_terminal() {
            break;
        }
        p.play(crate::game::MoveSet::random(&p.legal_moves(), rng));
    }
    p
}

#[cfg(test)]
mod tests;
