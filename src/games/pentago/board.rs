//! Pentago-Swap bitboards: cells, quadrant swaps, the 32 lines of five and their tests.
//!
//! A board is a `u64` with bit `6·row + col` set for each stone of one colour (36 bits used, row
//! 0 at the top). Quadrants are numbered 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
//! A swap moves two quadrants wholesale, which on a bitboard is two masked shifts: quadrant `b`
//! is quadrant `a` translated by a fixed number of bits.

/// The 36 cells.
pub const FULL: u64 = (1 << 36) - 1;

/// Cells per row and column.
pub const SIDE: u32 = 6;

/// The bit of the cell at `row`, `col` (both below 6).
#[inline]
pub const fn cell(row: u32, col: u32) -> u32 {
    row * SIDE + col
}

/// The top-left quadrant's cells; the others are this mask shifted by [`QUADRANT_OFFSET`].
const Q0: u64 = 0b111 | 0b111 << 6 | 0b111 << 12;

/// How far each quadrant's cells are from the top-left quadrant's, in bits.
pub const QUADRANT_OFFSET: [u32; 4] = [0, 3, 18, 21];

/// Each quadrant's cells.
pub const QUADRANT: [u64; 4] = [
    Q0,
    Q0 << QUADRANT_OFFSET[1],
    Q0 << QUADRANT_OFFSET[2],
    Q0 << QUADRANT_OFFSET[3],
];

/// The quadrant of a cell.
#[inline]
pub const fn quadrant_of(cell: u32) -> usize {
    let (row, col) = (cell / SIDE, cell % SIDE);
    (2 * (row / 3) + col / 3) as usize
}

/// The six swaps, as pairs of quadrants with the lower first. A move's swap is an index into
/// this table.
pub const SWAPS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// The index in [`SWAPS`] of the swap of quadrants `a` and `b` (in either order), if they differ.
pub const fn swap_index(a: usize, b: usize) -> Option<usize> {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut s = 0;
    while s < SWAPS.len() {
        if SWAPS[s].0 == lo && SWAPS[s].1 == hi {
            return Some(s);
        }
        s += 1;
    }
    None
}

/// One swap as a bit permutation: cells outside both quadrants stay, quadrant `a`'s move up by
/// `shift` bits into quadrant `b`, and `b`'s move down into `a`.
#[derive(Clone, Copy, Debug)]
struct SwapMasks {
    keep: u64,
    low: u64,
    high: u64,
    shift: u32,
}

const SWAP_MASKS: [SwapMasks; 6] = {
    let mut out = [SwapMasks {
        keep: 0,
        low: 0,
        high: 0,
        shift: 0,
    }; 6];
    let mut s = 0;
    while s < 6 {
        let (a, b) = SWAPS[s];
        out[s] = SwapMasks {
            keep: FULL & !(QUADRANT[a] | QUADRANT[b]),
            low: QUADRANT[a],
            high: QUADRANT[b],
            shift: QUADRANT_OFFSET[b] - QUADRANT_OFFSET[a],
        };
        s += 1;
    }
    out
};

/// The board after swap `s` (an index into [`SWAPS`]). Every swap is its own inverse.
#[inline(always)]
pub const fn swap(x: u64, s: usize) -> u64 {
    let m = SWAP_MASKS[s];
    (x & m.keep) | ((x & m.low) << m.shift) | ((x & m.high) >> m.shift)
}

/// The four line directions as (bit step, cells where a line of five may start).
const DIRECTIONS: [(u32, u64); 4] = {
    let mut h = 0u64; // along a row: starts in columns 0 and 1
    let mut v = 0u64; // down a column: starts in rows 0 and 1
    let mut d = 0u64; // down and right: rows 0-1, columns 0-1
    let mut a = 0u64; // down and left: rows 0-1, columns 4-5
    let mut row = 0;
    while row < SIDE {
        let mut col = 0;
        while col < SIDE {
            let bit = 1u64 << cell(row, col);
            if col <= 1 {
                h |= bit;
            }
            if row <= 1 {
                v |= bit;
                if col <= 1 {
                    d |= bit;
                }
                if col >= 4 {
                    a |= bit;
                }
            }
            col += 1;
        }
        row += 1;
    }
    [(1, h), (SIDE, v), (SIDE + 1, d), (SIDE - 1, a)]
};

/// The 32 lines of five cells (12 in rows, 12 in columns, 8 diagonal).
pub const LINES: [u64; 32] = {
    let mut out = [0u64; 32];
    let mut n = 0;
    let mut dir = 0;
    while dir < 4 {
        let (step, starts) = DIRECTIONS[dir];
        let mut p = 0;
        while p < 36 {
            if starts >> p & 1 == 1 {
                let mut line = 0u64;
                let mut i = 0;
                while i < 5 {
                    line |= 1 << (p + i * step);
                    i += 1;
                }
                out[n] = line;
                n += 1;
            }
            p += 1;
        }
        dir += 1;
    }
    assert!(n == 32);
    out
};

/// Cells `p` where `x` holds `p, p+d, …, p+4d` (before masking by valid starts).
#[inline(always)]
const fn run5(x: u64, d: u32) -> u64 {
    let t = x & (x >> d);
    let t = t & (t >> (2 * d));
    t & (x >> (4 * d))
}

/// True when `x` holds five in a row.
#[inline]
pub const fn has_five(x: u64) -> bool {
    let [(h, hs), (v, vs), (d, ds), (a, as_)] = DIRECTIONS;
    (run5(x, h) & hs) | (run5(x, v) & vs) | (run5(x, d) & ds) | (run5(x, a) & as_) != 0
}

/// The cells of `empty` that would give `mine` five in a row (`mine` and `empty` disjoint).
#[inline]
pub const fn completions(mine: u64, empty: u64) -> u64 {
    let mut out = 0;
    let mut dir = 0;
    while dir < 4 {
        let (d, starts) = DIRECTIONS[dir];
        let (a1, a2, a3, a4) = (mine >> d, mine >> (2 * d), mine >> (3 * d), mine >> (4 * d));
        let front = mine & a1;
        let back = a3 & a4;
        let front3 = front & a2;
        // Line from p: the cell at offset j is empty and the other four are mine.
        let c0 = empty & a1 & a2 & back & starts;
        let c1 = (empty >> d) & mine & a2 & back & starts;
        let c2 = (empty >> (2 * d)) & front & back & starts;
        let c3 = (empty >> (3 * d)) & front3 & a4 & starts;
        let c4 = (empty >> (4 * d)) & front3 & a3 & starts;
        out |= c0 | c1 << d | c2 << (2 * d) | c3 << (3 * d) | c4 << (4 * d);
        dir += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;
    use rand::Rng as _;

    fn random_board(rng: &mut crate::game::Rng, density: u32) -> u64 {
        let mut x = 0;
        for b in 0..36 {
            if rng.next_u32() % 100 < density {
                x |= 1 << b;
            }
        }
        x
    }

    #[test]
    fn quadrants_tile_the_board_and_lines_are_distinct() {
        assert_eq!(QUADRANT.iter().fold(0, |a, q| a | q), FULL);
        assert_eq!(QUADRANT.iter().map(|q| q.count_ones()).sum::<u32>(), 36);
        for c in 0..36 {
            assert_ne!(QUADRANT[quadrant_of(c)] & 1 << c, 0);
        }
        let mut lines = LINES.to_vec();
        lines.sort();
        lines.dedup();
        assert_eq!(lines.len(), 32);
        assert!(LINES.iter().all(|l| l.count_ones() == 5 && l & !FULL == 0));
    }

    #[test]
    fn a_swap_exchanges_two_quadrants_cell_for_cell() {
        for (s, &(a, b)) in SWAPS.iter().enumerate() {
            assert_eq!(swap_index(b, a), Some(s));
            for c in 0..36u32 {
                let moved = swap(1 << c, s);
                assert_eq!(moved.count_ones(), 1);
                let to = moved.trailing_zeros();
                let q = quadrant_of(c);
                let expect_q = if q == a {
                    b
                } else if q == b {
                    a
                } else {
                    q
                };
                assert_eq!(quadrant_of(to), expect_q, "swap {s} cell {c}");
                // Same place inside the quadrant.
                assert_eq!((to / 6) % 3, (c / 6) % 3);
                assert_eq!((to % 6) % 3, (c % 6) % 3);
                assert_eq!(swap(moved, s), 1 << c, "a swap is its own inverse");
            }
        }
        assert_eq!(swap_index(2, 2), None);
    }

    #[test]
    fn has_five_and_completions_agree_with_the_line_list() {
        let mut rng = rng_from_seed(1);
        for i in 0..20_000 {
            let x = random_board(&mut rng, 30 + i % 50) & FULL;
            let expect = LINES.iter().any(|&l| l & !x == 0);
            assert_eq!(has_five(x), expect, "{x:#x}");
            let empty = random_board(&mut rng, 50) & !x & FULL;
            let mut want = 0;
            for &l in &LINES {
                let rest = l & !x;
                if rest.count_ones() == 1 && rest & empty != 0 {
                    want |= rest;
                }
            }
            assert_eq!(completions(x, empty), want, "{x:#x} {empty:#x}");
        }
    }
}
