//! Immediate wins: which moves end the game at once, found without playing them.
//!
//! A move places a stone and then swaps two quadrants, and lines are checked after the swap.
//! Rather than swapping the board for each of the six swaps, the lines are swapped instead: the
//! line `L` exists after swap `s` exactly when the cells `swap(L, s)` hold five stones before it
//! (every swap is its own inverse). The 32 lines under the 6 swaps give 168 distinct "virtual
//! lines" in the board's own coordinates, each tagged with the swaps it serves. The mover wins
//! at once with swap `s` when a virtual line of `s` holds four of its stones and an empty cell
//! (or five of its stones already) and the opponent has no line after `s` (both is a draw).

use super::board::{FULL, LINES, QUADRANT, QUADRANT_OFFSET, has_five, swap};
use super::moves::{PentagoMove, PentagoMoves};

/// A line of five as it sits before a swap, with the swaps (bit `s`) that make it a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VirtualLine {
    /// The five cells, in the coordinates before the swap.
    pub(crate) cells: u64,
    /// Bit `s` set when swap `s` turns these cells into a line.
    pub(crate) swaps: u8,
}

/// How many distinct virtual lines there are (counted when compiling).
const NUM_VIRTUAL: usize = {
    let all = all_virtual();
    let mut n = 0;
    let mut i = 0;
    while i < all.len() {
        if first_of(&all, i) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Every (line, swap) pair as a virtual line, duplicates included.
const fn all_virtual() -> [VirtualLine; 192] {
    let mut out = [VirtualLine { cells: 0, swaps: 0 }; 192];
    let mut s = 0;
    while s < 6 {
        let mut l = 0;
        while l < 32 {
            out[s * 32 + l] = VirtualLine {
                cells: swap(LINES[l], s),
                swaps: 1 << s,
            };
            l += 1;
        }
        s += 1;
    }
    out
}

/// True when entry `i` is the first with its cells.
const fn first_of(all: &[VirtualLine; 192], i: usize) -> bool {
    let mut j = 0;
    while j < i {
        if all[j].cells == all[i].cells {
            return false;
        }
        j += 1;
    }
    true
}

/// The distinct virtual lines, each with every swap it serves.
pub(crate) static VIRTUAL: [VirtualLine; NUM_VIRTUAL] = {
    let all = all_virtual();
    let mut out = [VirtualLine { cells: 0, swaps: 0 }; NUM_VIRTUAL];
    let mut n = 0;
    let mut i = 0;
    while i < all.len() {
        if first_of(&all, i) {
            let mut swaps = 0;
            let mut j = i;
            while j < all.len() {
                if all[j].cells == all[i].cells {
                    swaps |= all[j].swaps;
                }
                j += 1;
            }
            out[n] = VirtualLine {
                cells: all[i].cells,
                swaps,
            };
            n += 1;
        }
        i += 1;
    }
    out
};

/// The board after moving each quadrant `q` to quadrant `to[q]` (cells keep their place inside
/// the quadrant).
const fn permute(x: u64, to: [usize; 4]) -> u64 {
    let mut out = 0;
    let mut q = 0;
    while q < 4 {
        let cells = x & QUADRANT[q];
        let (from, dest) = (QUADRANT_OFFSET[q], QUADRANT_OFFSET[to[q]]);
        out |= if dest >= from {
            cells << (dest - from)
        } else {
            cells >> (from - dest)
        };
        q += 1;
    }
    out
}

/// The odd permutations of the four quadrants: the products of three swaps.
const ODD_PERMUTATIONS: [[usize; 4]; 12] = {
    let mut out = [[0; 4]; 12];
    let mut n = 0;
    let mut code = 0;
    while code < 256 {
        let p = [code & 3, code >> 2 & 3, code >> 4 & 3, code >> 6 & 3];
        let distinct = p[0] != p[1]
            && p[0] != p[2]
            && p[0] != p[3]
            && p[1] != p[2]
            && p[1] != p[3]
            && p[2] != p[3];
        if distinct {
            let mut inversions = 0;
            let mut i = 0;
            while i < 4 {
                let mut j = i + 1;
                while j < 4 {
                    inversions += (p[i] > p[j]) as usize;
                    j += 1;
                }
                i += 1;
            }
            if inversions % 2 == 1 {
                out[n] = p;
                n += 1;
            }
        }
        code += 1;
    }
    assert!(n == 12);
    out
};

/// The cells that become a line of five after some odd permutation of the quadrants, distinct.
static ODD_LINES: [u64; 240] = {
    let mut out = [0u64; 240];
    let mut n = 0;
    let mut p = 0;
    while p < 12 {
        let mut l = 0;
        while l < 32 {
            let cells = permute(LINES[l], ODD_PERMUTATIONS[p]);
            let mut seen = false;
            let mut i = 0;
            while i < n {
                seen |= out[i] == cells;
                i += 1;
            }
            if !seen {
                out[n] = cells;
                n += 1;
            }
            l += 1;
        }
        p += 1;
    }
    assert!(n == 240);
    out
};

/// False when the side with stones `me` cannot possibly win within three plies (its move, a
/// reply, its move), whatever is played: three swaps move the quadrants by an odd permutation
/// and add two of its stones, so some line must already hold three of its stones, and none of
/// the opponent's, after one of those permutations. A cheap filter before a proof search.
pub fn may_win_within_three(me: u64, opp: u64) -> bool {
    me.count_ones() >= 3
        && ODD_LINES
            .iter()
            .any(|&v| v & opp == 0 && (v & me).count_ones() >= 3)
}

/// The swaps after which `stones` form five in a row (bit `s` for swap `s`).
#[inline]
pub fn lines_after_swaps(stones: u64) -> u8 {
    let mut out = 0;
    for s in 0..6 {
        out |= (has_five(swap(stones, s)) as u8) << s;
    }
    out
}

/// Scans the virtual lines for the mover's immediate wins, calling `found(cells, swaps)` with
/// the cells to place on and the swaps that win from them, until it returns `true`. Returns
/// whether it did.
#[inline]
fn scan_wins(me: u64, opp: u64, mut found: impl FnMut(u64, u8) -> bool) -> bool {
    // Four of the mover's stones in one line are needed; the opponent's lines after each swap
    // are worked out only once a candidate shows up (rarely, and then once per position).
    if me.count_ones() < 4 {
        return false;
    }
    let empty = FULL & !(me | opp);
    let mut opp_lines: Option<u8> = None;
    for v in VIRTUAL.iter() {
        let own = (me & v.cells).count_ones();
        if own < 4 {
            continue;
        }
        let cells = if own == 5 { empty } else { v.cells & empty };
        if cells == 0 {
            continue;
        }
        let blocked = *opp_lines.get_or_insert_with(|| lines_after_swaps(opp));
        let swaps = v.swaps & !blocked;
        if swaps != 0 && found(cells, swaps) {
            return true;
        }
    }
    false
}

/// True when the side with stones `me`, to move, can win with its next move (the position must
/// not be over).
#[inline]
pub fn can_win(me: u64, opp: u64) -> bool {
    scan_wins(me, opp, |_, _| true)
}

/// Every move that wins at once for the side with stones `me`, to move.
pub fn winning_moves(me: u64, opp: u64) -> PentagoMoves {
    let mut out = PentagoMoves::EMPTY;
    scan_wins(me, opp, |cells, swaps| {
        let mut rest = cells;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            for s in 0..6 {
                if swaps >> s & 1 == 1 {
                    out.insert(PentagoMove::new(c, s));
                }
            }
        }
        false
    });
    out
}

/// The mover's moves that do not hand the game over: those that neither end it in the
/// opponent's favour (only the opponent has five after the swap) nor leave the opponent a win
/// on its next move. Moves that win or draw at once are kept.
pub fn safe_moves(me: u64, opp: u64) -> PentagoMoves {
    let opp_lines = lines_after_swaps(opp);
    let mut out = PentagoMoves::EMPTY;
    let mut rest = FULL & !(me | opp);
    while rest != 0 {
        let c = rest.trailing_zeros();
        rest &= rest - 1;
        for s in 0..6 {
            let (m, o) = (swap(me | 1 << c, s), swap(opp, s));
            let keep = if has_five(m) {
                true // a win, or a draw when both have five
            } else if opp_lines >> s & 1 == 1 {
                false // only the opponent has five
            } else {
                // A full board is a draw; otherwise the reply must not win.
                (m | o) == FULL || !can_win(o, m)
            };
            if keep {
                out.insert(PentagoMove::new(c, s));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Pentago;
    use super::*;
    use crate::game::{Game, MoveSet, rng_from_seed};

    /// The mover's winning moves found by playing every move.
    fn wins_by_playing(p: &Pentago) -> PentagoMoves {
        let mover = p.current_seat();
        let mut out = PentagoMoves::EMPTY;
        for mv in p.legal_moves().iter() {
            let mut q = *p;
            q.play(mv);
            if q.is_terminal() && q.reward(mover) == 1.0 {
                out.insert(mv);
            }
        }
        out
    }

    #[test]
    fn no_win_within_three_plies_escapes_the_filter() {
        // Wherever a win within three plies is proven, the filter must let it through.
        let mut rng = rng_from_seed(30);
        let mut solver = super::super::solver::Solver::new(0);
        let (mut proven, mut filtered) = (0, 0);
        for _ in 0..3000 {
            let p = super::super::random_position(&mut rng, 4, 20);
            let (me, opp) = p.mover_and_opponent();
            if p.is_terminal() || can_win(me, opp) {
                continue;
            }
            let may = may_win_within_three(me, opp);
            filtered += !may as u32;
            if solver.wins_within(me, opp, 3, u64::MAX) == Some(true) {
                proven += 1;
                assert!(may, "{p:?}");
            }
        }
        assert!(proven > 20 && filtered > 500, "{proven} {filtered}");
    }

    #[test]
    fn there_are_168_virtual_lines_covering_every_line_and_swap() {
        assert_eq!(VIRTUAL.len(), 168);
        let served: u32 = VIRTUAL.iter().map(|v| v.swaps.count_ones()).sum();
        assert_eq!(served, 192);
    }

    #[test]
    fn winning_and_safe_moves_agree_with_playing_every_move() {
        let mut rng = rng_from_seed(12);
        let (mut positions, mut with_wins, mut with_unsafe) = (0, 0, 0);
        while positions < 3000 {
            let p = super::super::random_position(&mut rng, 6, 24);
            if p.is_terminal() {
                continue;
            }
            positions += 1;
            let (me, opp) = p.mover_and_opponent();
            let want = wins_by_playing(&p);
            assert_eq!(winning_moves(me, opp), want, "{p:?}");
            assert_eq!(can_win(me, opp), !want.is_empty(), "{p:?}");
            with_wins += !want.is_empty() as u32;
            // Safe: not an immediate loss, and no immediate win for the reply.
            let mover = p.current_seat();
            let mut safe = PentagoMoves::EMPTY;
            for mv in p.legal_moves().iter() {
                let mut q = p;
                q.play(mv);
                let ok = if q.is_terminal() {
                    q.reward(mover) >= 0.5
                } else {
                    wins_by_playing(&q).is_empty()
                };
                if ok {
                    safe.insert(mv);
                }
            }
            with_unsafe += (safe.len() < p.legal_moves().len()) as u32;
            if positions % 10 == 0 {
                assert_eq!(safe_moves(me, opp), safe, "{p:?}");
            }
        }
        // The sample must exercise both sides of each check.
        assert!(
            with_wins > 100 && with_unsafe > 100,
            "{with_wins} {with_unsafe}"
        );
    }
}
