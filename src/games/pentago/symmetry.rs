//! The symmetries of Pentago-Swap: the eight rotations and reflections of the square.
//!
//! Each maps lines of five to lines of five and quadrants to quadrants, and turns a swap of
//! quadrants `a, b` into the swap of their images (a swap translates one quadrant onto the other,
//! and a rotation or reflection turns that translation into the translation between the images).
//! So two positions that one of them maps onto each other have the same value, and in a position
//! that a symmetry maps onto itself, moves that it maps onto each other are equally good: only
//! one of each such family needs searching. The empty board's 216 moves fall into 30 families.
//!
//! No other symmetry is used: swapping quadrants is not one (it breaks lines that cross
//! quadrants), so the "swap group" gives no equivalences of positions.

use super::board::{SWAPS, quadrant_of, swap_index};
use super::moves::{NUM_MOVES, PentagoMove, PentagoMoves};
use crate::game::MoveSet;

/// Number of symmetries (the identity is number 0).
pub const SYMMETRIES: usize = 8;

/// Where symmetry `g` takes the cell at `row`, `col`.
const fn map_cell(g: usize, row: u32, col: u32) -> (u32, u32) {
    match g {
        0 => (row, col),
        1 => (col, 5 - row),     // a quarter turn clockwise
        2 => (5 - row, 5 - col), // a half turn
        3 => (5 - col, row),     // a quarter turn anticlockwise
        4 => (row, 5 - col),     // mirrored left to right
        5 => (5 - row, col),     // mirrored top to bottom
        6 => (col, row),         // about the main diagonal
        _ => (5 - col, 5 - row), // about the other diagonal
    }
}

/// `CELLS[g][c]`: the image of cell `c` under symmetry `g`.
static CELLS: [[u8; 36]; SYMMETRIES] = {
    let mut out = [[0u8; 36]; SYMMETRIES];
    let mut g = 0;
    while g < SYMMETRIES {
        let mut c = 0;
        while c < 36 {
            let (r, k) = map_cell(g, c / 6, c % 6);
            out[g][c as usize] = (r * 6 + k) as u8;
            c += 1;
        }
        g += 1;
    }
    out
};

/// `MOVES[g][m]`: the index of the image of move `m` under symmetry `g`.
static MOVES: [[u8; NUM_MOVES]; SYMMETRIES] = {
    let mut out = [[0u8; NUM_MOVES]; SYMMETRIES];
    let mut g = 0;
    while g < SYMMETRIES {
        // A quadrant's image is the quadrant of its centre cell's image.
        let mut quads = [0usize; 4];
        let mut q = 0;
        while q < 4 {
            let (r, k) = map_cell(g, 1 + 3 * (q as u32 / 2), 1 + 3 * (q as u32 % 2));
            quads[q] = quadrant_of(r * 6 + k);
            q += 1;
        }
        let mut m = 0;
        while m < NUM_MOVES {
            let (a, b) = SWAPS[m % 6];
            let s = match swap_index(quads[a], quads[b]) {
                Some(s) => s,
                None => panic!("a symmetry keeps quadrants apart"),
            };
            let cell = CELLS[g][m / 6] as usize;
            out[g][m] = (cell * 6 + s) as u8;
            m += 1;
        }
        g += 1;
    }
    out
};

/// The image of a board under symmetry `g`.
pub fn transform(board: u64, g: usize) -> u64 {
    let mut out = 0;
    let mut rest = board;
    while rest != 0 {
        out |= 1 << CELLS[g][rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    out
}

/// The image of a move under symmetry `g`.
#[inline]
pub fn transform_move(mv: PentagoMove, g: usize) -> PentagoMove {
    PentagoMove::from_index(MOVES[g][mv.index()] as usize)
}

/// The symmetries other than the identity that map the position (`white`, `black`) onto itself,
/// as bit `g` for symmetry `g`.
pub fn stabilizer(white: u64, black: u64) -> u8 {
    let mut out = 0;
    for g in 1..SYMMETRIES {
        if transform(white, g) == white && transform(black, g) == black {
            out |= 1 << g;
        }
    }
    out
}

/// One move of each family that the symmetries `stab` (from [`stabilizer`]) map onto each
/// other: the lowest-numbered. Returns `moves` unchanged when `stab` is empty.
pub fn distinct_moves(moves: PentagoMoves, stab: u8) -> PentagoMoves {
    if stab == 0 {
        return moves;
    }
    let mut out = moves;
    moves.for_each(|mv| {
        let smallest = (1..SYMMETRIES)
            .filter(|g| stab >> g & 1 == 1)
            .all(|g| transform_move(mv, g) >= mv);
        if !smallest {
            out.remove(mv);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::Pentago;
    use super::*;
    use crate::game::{Game, rng_from_seed};

    #[test]
    fn symmetries_commute_with_play() {
        // Playing a move and mapping the result equals mapping the position and playing the
        // mapped move, on random games: the symmetries are symmetries of the rules.
        let mut rng = rng_from_seed(3);
        for _ in 0..300 {
            let mut p = Pentago::new();
            while !p.is_terminal() {
                let mv = p.legal_moves().random(&mut rng);
                for g in 0..SYMMETRIES {
                    let [w, b] = p.stones();
                    let mut mapped =
                        Pentago::from_stones(transform(w, g), transform(b, g)).unwrap();
                    mapped.play(transform_move(mv, g));
                    let mut next = p;
                    next.play(mv);
                    let [w2, b2] = next.stones();
                    assert_eq!(mapped.stones(), [transform(w2, g), transform(b2, g)]);
                    assert_eq!(mapped.outcome(), next.outcome());
                }
                p.play(mv);
            }
        }
    }

    #[test]
    fn the_empty_board_has_30_families_of_moves() {
        let p = Pentago::new();
        assert_eq!(stabilizer(0, 0), 0b1111_1110);
        let distinct = distinct_moves(p.legal_moves(), stabilizer(0, 0));
        assert_eq!(distinct.len(), 30);
        // Every move is the image of exactly one kept move's family.
        let mut covered = PentagoMoves::EMPTY;
        for mv in distinct.iter() {
            for g in 0..SYMMETRIES {
                covered.insert(transform_move(mv, g));
            }
        }
        assert_eq!(covered, p.legal_moves());
        // A lone stone off both diagonals leaves no symmetry.
        let mut q = p;
        q.play("0,1:01".parse().unwrap());
        let [w, b] = q.stones();
        assert_eq!(stabilizer(w, b), 0);
        assert_eq!(distinct_moves(q.legal_moves(), 0), q.legal_moves());
    }
}
