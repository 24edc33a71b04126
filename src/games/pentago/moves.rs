//! Pentago-Swap moves, their notation `r,c:q1q2`, and sets of moves as 216-bit masks.

use std::fmt;

use super::board::{SWAPS, swap_index};
use crate::game::{MoveSet, TreeMove};
use crate::mask::{MoveMask, Wide};

/// Number of distinct moves: 36 cells × 6 swaps.
pub const NUM_MOVES: usize = 216;

/// A move: place a stone on a cell, then swap two quadrants. Stored as `6·cell + swap` (swap an
/// index into [`SWAPS`]), so a set of moves is a 216-bit mask.
///
/// Notation `r,c:q1q2`: row and column 0–5 (row 0 at the top), then the two quadrants swapped
/// (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right), lower first: `1,1:13` places on row 1,
/// column 1 and swaps the top-right and bottom-right quadrants. Parsing accepts the quadrants in
/// either order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PentagoMove(u8);

impl PentagoMove {
    /// The move placing on bit `cell` (`6·row + col`) with swap `swap` (an index into [`SWAPS`]).
    #[inline]
    pub const fn new(cell: u32, swap: usize) -> PentagoMove {
        debug_assert!(cell < 36 && swap < 6);
        PentagoMove((cell * 6) as u8 + swap as u8)
    }

    /// The move with index `i` (`6·cell + swap`, below [`NUM_MOVES`]).
    #[inline]
    pub const fn from_index(i: usize) -> PentagoMove {
        debug_assert!(i < NUM_MOVES);
        PentagoMove(i as u8)
    }

    /// `6·cell + swap`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell's bit index, `6·row + col`.
    #[inline]
    pub const fn cell(self) -> u32 {
        self.0 as u32 / 6
    }

    /// The swap, an index into [`SWAPS`].
    #[inline]
    pub const fn swap(self) -> usize {
        self.0 as usize % 6
    }
}

impl fmt::Display for PentagoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = SWAPS[self.swap()];
        write!(f, "{},{}:{a}{b}", self.cell() / 6, self.cell() % 6)
    }
}

impl fmt::Debug for PentagoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for PentagoMove {
    type Err = String;

    fn from_str(text: &str) -> Result<PentagoMove, String> {
        let bad = |why: &str| {
            format!(
                "'{text}' is not a Pentago-Swap move ({why}; the form is r,c:q1q2, e.g. 1,1:13)"
            )
        };
        let (place, quads) = text.trim().split_once(':').ok_or_else(|| bad("no ':'"))?;
        let (r, c) = place
            .split_once(',')
            .ok_or_else(|| bad("no ',' between row and column"))?;
        let digit = |s: &str, max: u32, what: &str| -> Result<u32, String> {
            match s.trim().parse::<u32>() {
                Ok(v) if v <= max => Ok(v),
                _ => Err(bad(&format!("{what} must be 0 to {max}"))),
            }
        };
        let (row, col) = (digit(r, 5, "the row")?, digit(c, 5, "the column")?);
        let q: Vec<u32> = quads
            .trim()
            .chars()
            .map(|ch| ch.to_digit(10).filter(|&d| d <= 3))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("quadrants are digits 0 to 3"))?;
        let [a, b] = q[..] else {
            return Err(bad("name exactly two quadrants"));
        };
        let swap = swap_index(a as usize, b as usize)
            .ok_or_else(|| bad("the two quadrants must differ"))?;
        Ok(PentagoMove::new(row * 6 + col, swap))
    }
}

/// A set of moves: bit `6·cell + swap` of a 216-bit mask, iterated in that order (by cell, then
/// swap), so "is this move legal?" is one bit test and the `k`-th move is a few popcounts and a
/// select.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct PentagoMoves {
    bits: Wide,
}

impl PentagoMoves {
    /// No move.
    pub const EMPTY: PentagoMoves = PentagoMoves { bits: [0; 4] };

    /// Every swap on every cell of `cells`.
    #[inline]
    pub fn all_on(cells: u64) -> PentagoMoves {
        let mut out = PentagoMoves::EMPTY;
        let mut rest = cells;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let first = 6 * c;
            let (word, shift) = (first / 64, first % 64);
            out.bits[word] |= 0x3F << shift;
            if shift > 58 {
                out.bits[word + 1] |= 0x3F >> (64 - shift);
            }
        }
        out
    }

    /// Adds a move.
    #[inline]
    pub fn insert(&mut self, mv: PentagoMove) {
        self.bits[mv.index() / 64] |= 1 << (mv.index() % 64);
    }

    /// Removes a move.
    #[inline]
    pub fn remove(&mut self, mv: PentagoMove) {
        self.bits[mv.index() / 64] &= !(1 << (mv.index() % 64));
    }

    /// The moves in both sets.
    #[inline]
    pub fn intersect(self, other: PentagoMoves) -> PentagoMoves {
        let mut out = self;
        for (a, b) in out.bits.iter_mut().zip(other.bits) {
            *a &= b;
        }
        out
    }

    /// An iterator over the moves in order.
    pub fn iter(self) -> impl Iterator<Item = PentagoMove> {
        (0..4).flat_map(move |w| {
            let mut word = self.bits[w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    PentagoMove::from_index(64 * w + b)
                })
            })
        })
    }
}

impl fmt::Debug for PentagoMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A move's bit is its index, `6·cell + swap`.
impl TreeMove for PentagoMove {
    type Mask = Wide;
    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }
    #[inline]
    fn from_bit(bit: u32) -> PentagoMove {
        PentagoMove::from_index(bit as usize)
    }
}

impl MoveSet<PentagoMove> for PentagoMoves {
    #[inline]
    fn len(&self) -> usize {
        self.bits.count() as usize
    }

    #[inline]
    fn contains(&self, mv: PentagoMove) -> bool {
        self.bits.has(mv.bit())
    }

    #[inline]
    fn nth(&self, k: usize) -> PentagoMove {
        PentagoMove::from_bit(self.bits.select(k as u32))
    }

    #[inline]
    fn for_each(&self, mut f: impl FnMut(PentagoMove)) {
        let mut bits = self.bits;
        while let Some(bit) = bits.pop_lowest() {
            f(PentagoMove::from_bit(bit));
        }
    }

    #[inline]
    fn bits(&self) -> Wide {
        self.bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_names_its_parts() {
        for i in 0..NUM_MOVES {
            let m = PentagoMove::from_index(i);
            let text = m.to_string();
            assert_eq!(text.parse::<PentagoMove>(), Ok(m));
        }
        let m: PentagoMove = "1,1:13".parse().unwrap();
        assert_eq!((m.cell(), SWAPS[m.swap()]), (7, (1, 3)));
        assert_eq!("1,1:31".parse::<PentagoMove>(), Ok(m), "either order");
        assert_eq!(
            " 5,0:02 ".parse::<PentagoMove>().unwrap().to_string(),
            "5,0:02"
        );
        for (bad, needle) in [
            ("11:13", "','"),
            ("1,1", "':'"),
            ("6,1:13", "row"),
            ("1,-1:13", "column"),
            ("1,1:11", "differ"),
            ("1,1:14", "0 to 3"),
            ("1,1:123", "exactly two"),
            ("", "':'"),
        ] {
            let e = bad.parse::<PentagoMove>().unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn a_set_of_every_swap_on_some_cells_is_cell_major() {
        let cells: u64 = 1 | 1 << 10 | 1 << 11 | 1 << 35;
        let set = PentagoMoves::all_on(cells);
        assert_eq!(set.len(), 24);
        let listed: Vec<usize> = set.to_vec().iter().map(|m| m.index()).collect();
        let expect: Vec<usize> = [0usize, 10, 11, 35]
            .iter()
            .flat_map(|&c| (0..6).map(move |s| 6 * c + s))
            .collect();
        assert_eq!(listed, expect);
        for (k, &i) in expect.iter().enumerate() {
            assert_eq!(set.nth(k).index(), i);
            assert!(set.contains(PentagoMove::from_index(i)));
        }
        assert!(!set.contains(PentagoMove::from_index(6)));
        assert_eq!(set.iter().count(), 24);
        let mut fewer = set;
        fewer.remove(PentagoMove::from_index(60));
        assert_eq!(fewer.len(), 23);
        fewer.insert(PentagoMove::from_index(60));
        assert_eq!(fewer, set);
        assert_eq!(set.intersect(PentagoMoves::all_on(1 << 10)).len(), 6);
    }
}
