//! Rule tests for Pentago-Swap, and a perft count checked by an independent implementation.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::game::{MoveSet, assert_playout_matches_reference, playout_by_moves, rng_from_seed};

fn position(text: &str) -> Pentago {
    Pentago::from_deal(&(), text).unwrap()
}

fn mv(text: &str) -> PentagoMove {
    text.parse().unwrap()
}

#[test]
fn the_move_count_is_six_per_empty_cell() {
    let mut rng = rng_from_seed(1);
    for _ in 0..200 {
        let mut p = Pentago::new();
        while !p.is_terminal() {
            let moves = p.legal_moves();
            assert_eq!(moves.len(), 6 * p.empty().count_ones() as usize);
            // Every move places on an empty cell; each swap appears once per cell.
            moves.for_each(|m| assert_eq!(p.empty() >> m.cell() & 1, 1));
            p.play(moves.random(&mut rng));
        }
        assert!(p.legal_moves().is_empty());
    }
    assert_eq!(Pentago::new().legal_moves().len(), 216);
}

#[test]
fn five_counts_only_after_the_swap() {
    // White fills row 0, column 4: five before the swap. Swapping the top quadrants turns the
    // row into W W . W W W, so the game goes on; a swap of the bottom quadrants leaves it: a win.
    let p = position("WWWW../....../BBB.../B...../....../...... W");
    let mut q = p;
    q.play(mv("0,4:01"));
    assert!(!q.is_terminal(), "{}", q.grid());
    let mut q = p;
    q.play(mv("0,4:23"));
    assert_eq!(q.outcome(), Outcome::Won(0));
    // And a swap makes five that the placement alone does not: row 3 reads W W . W W W after
    // placing on (3,5); swapping the bottom quadrants makes it W W W W W . (columns 0-4).
    let p = position("B.B.../B.B.../....../WW.WW./....../...... W");
    let mut q = p;
    q.play(mv("3,5:23"));
    assert_eq!(q.outcome(), Outcome::Won(0), "{}", q.grid());
    let mut q = p;
    q.play(mv("3,5:01"));
    assert!(!q.is_terminal(), "{}", q.grid());
}

#[test]
fn a_swap_that_gives_both_colours_five_draws() {
    // Rows 3 and 4 read W W . W W W and B B . B B B: no five now, five for both once the bottom
    // quadrants are swapped, whatever White places.
    let p = position("....../....../....../WW.WWW/BB.BBB/...... W");
    assert!(!p.is_terminal());
    let mut q = p;
    q.play(mv("0,0:23"));
    assert_eq!(q.outcome(), Outcome::Draw);
    assert_eq!((q.reward(0), q.reward(1)), (0.5, 0.5));
    let mut q = p;
    q.play(mv("0,0:01"));
    assert!(!q.is_terminal());
}

#[test]
fn the_mover_loses_when_its_swap_gives_only_the_opponent_five() {
    // Black's row 4 becomes five after swapping the bottom quadrants; White to move has no line.
    let p = position("W...../...W../W...../...W../BB.BBB/W..... W");
    let mut q = p;
    q.play(mv("5,5:23"));
    assert_eq!(q.outcome(), Outcome::Won(1), "{}", q.grid());
    assert_eq!((q.reward(0), q.reward(1)), (0.0, 1.0));
    // Any other swap keeps the game going.
    let mut q = p;
    q.play(mv("5,5:01"));
    assert!(!q.is_terminal());
}

/// A game of 36 plies in which nobody ever makes five: at each ply a random move after which
/// neither colour has five, from a seeded generator (the search retries with the next seed when
/// it gets stuck, which is rare).
fn full_board_game() -> Vec<PentagoMove> {
    for seed in 0.. {
        let mut rng = rng_from_seed(seed);
        let mut p = Pentago::new();
        let mut moves = Vec::new();
        while !p.is_terminal() {
            let quiet: Vec<PentagoMove> = p
                .legal_moves()
                .iter()
                .filter(|&m| {
                    let mut q = p;
                    q.play(m);
                    let [w, b] = q.stones();
                    !board::has_five(w) && !board::has_five(b)
                })
                .collect();
            if quiet.is_empty() {
                break;
            }
            let m = quiet[crate::cards::random_below(&mut rng, quiet.len() as u32) as usize];
            p.play(m);
            moves.push(m);
        }
        if moves.len() == 36 {
            return moves;
        }
    }
    unreachable!()
}

#[test]
fn a_full_board_without_five_is_a_draw_after_36_plies() {
    let moves = full_board_game();
    let mut p = Pentago::new();
    for (i, &m) in moves.iter().enumerate() {
        assert!(!p.is_terminal(), "over after {i} plies");
        assert_eq!(
            p.current_seat(),
            i % 2,
            "White moves first, then turns alternate"
        );
        p.play(m);
    }
    assert_eq!(p.empty(), 0);
    assert_eq!(p.outcome(), Outcome::Draw);
    assert_eq!(p.stones()[0].count_ones(), 18);
    assert!(p.legal_moves().is_empty());
}

#[test]
fn positions_round_trip_and_bad_ones_are_named() {
    let mut rng = rng_from_seed(5);
    for _ in 0..200 {
        let p = random_position(&mut rng, 0, 30);
        if p.is_terminal() {
            continue;
        }
        let text = p.deal_text();
        assert_eq!(Pentago::from_deal(&(), &text), Ok(p));
        // Without the colour to move, and without row separators.
        let bare: String = text[..41].chars().filter(|&c| c != '/').collect();
        assert_eq!(Pentago::from_deal(&(), &bare), Ok(p));
    }
    assert_eq!(
        Pentago::new().deal_text(),
        "....../....../....../....../....../...... W"
    );
    for (bad, needle) in [
        ("....../....../", "36 cells"),
        ("W...../....../....../....../....../.....X", "'X'"),
        ("WW..../....../....../....../....../......", "White has 2"),
        ("B...../....../....../....../....../......", "White has 0"),
        (
            "W...../....../....../....../....../...... W",
            "B is to move",
        ),
        ("W...../....../....../....../....../...... x", "'W' or 'B'"),
        ("WWWWW./BBBB../B...../....../....../......", "already over"),
    ] {
        let e = Pentago::from_deal(&(), bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
}

#[test]
fn the_picture_shows_cells_quadrants_and_who_moves() {
    let mut p = Pentago::new();
    p.play(mv("1,1:13"));
    let pic = p.grid();
    assert_eq!(
        pic,
        "    0 1 2   3 4 5\n 0  . . . | . . .\n 1  . W . | . . .\n 2  . . . | . . .\n    \
         ------+------\n 3  . . . | . . .\n 4  . . . | . . .\n 5  . . . | . . .\n    Black to move"
    );
    assert_eq!(p.picture(), Some(pic));
}

#[test]
fn the_fast_playout_plays_the_reference_moves() {
    let mut rng = rng_from_seed(8);
    for seed in 0..300 {
        assert_playout_matches_reference(Pentago::new(), &mut rng, 30, seed, |g, r| {
            playout_by_moves(g, r)
        });
    }
}

// ---- Perft ----------------------------------------------------------------------------------

/// Move sequences and distinct positions at each depth 1..=3, by depth-first search through the
/// `Game` implementation (bitboards, move sets, swaps by masked shifts).
fn perft_bitboards() -> Vec<(u64, usize)> {
    fn walk(p: &Pentago, depth: usize, leaves: &mut [u64], seen: &mut [HashSet<[u64; 2]>]) {
        if depth == leaves.len() {
            return;
        }
        for m in p.legal_moves().iter() {
            let mut q = *p;
            q.play(m);
            leaves[depth] += 1;
            seen[depth].insert(q.stones());
            if !q.is_terminal() {
                walk(&q, depth + 1, leaves, seen);
            }
        }
    }
    let mut leaves = [0u64; 3];
    let mut seen = vec![HashSet::new(); 3];
    walk(&Pentago::new(), 0, &mut leaves, &mut seen);
    leaves
        .iter()
        .zip(&seen)
        .map(|(&l, s)| (l, s.len()))
        .collect()
}

/// The same counts from a deliberately naive implementation: a 6×6 array of characters, swaps by
/// copying 3×3 blocks, five in a row by scanning every cell in four directions; positions are
/// expanded breadth first with their multiplicities.
fn perft_arrays() -> Vec<(u64, usize)> {
    type Board = [[u8; 6]; 6];
    fn five(b: &Board, who: u8) -> bool {
        for r in 0..6i32 {
            for c in 0..6i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..5).all(|k| {
                        let (rr, cc) = (r + k * dr, c + k * dc);
                        (0..6).contains(&rr)
                            && (0..6).contains(&cc)
                            && b[rr as usize][cc as usize] == who
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn swapped(b: &Board, qa: usize, qb: usize) -> Board {
        let mut out = *b;
        let corner = |q: usize| (3 * (q / 2), 3 * (q % 2));
        let ((ra, ca), (rb, cb)) = (corner(qa), corner(qb));
        for i in 0..3 {
            for j in 0..3 {
                out[ra + i][ca + j] = b[rb + i][cb + j];
                out[rb + i][cb + j] = b[ra + i][ca + j];
            }
        }
        out
    }
    let mut level: HashMap<Board, u64> = HashMap::from([([[b'.'; 6]; 6], 1)]);
    let mut out = Vec::new();
    for depth in 0..3 {
        let who = if depth % 2 == 0 { b'W' } else { b'B' };
        let mut next: HashMap<Board, u64> = HashMap::new();
        let mut leaves = 0;
        for (b, &ways) in &level {
            for r in 0..6 {
                for c in 0..6 {
                    if b[r][c] != b'.' {
                        continue;
                    }
                    for qa in 0..4 {
                        for qb in qa + 1..4 {
                            let mut placed = *b;
                            placed[r][c] = who;
                            let after = swapped(&placed, qa, qb);
                            leaves += ways;
                            // No game ends this early (five needs five stones); a finished one
                            // would still count as a leaf but not be expanded.
                            assert!(!five(&after, b'W') && !five(&after, b'B'));
                            *next.entry(after).or_default() += ways;
                        }
                    }
                }
            }
        }
        out.push((leaves, next.len()));
        level = next;
    }
    out
}

#[test]
fn perft_to_depth_three_agrees_two_ways() {
    let fast = perft_bitboards();
    let naive = perft_arrays();
    assert_eq!(fast, naive);
    // Sequences: no game can end before ply 9, so each ply multiplies by 6 × empty cells.
    let sequences: Vec<u64> = vec![216, 216 * 210, 216 * 210 * 204];
    assert_eq!(fast.iter().map(|x| x.0).collect::<Vec<_>>(), sequences);
    // Positions: every arrangement of the right numbers of stones is reachable (the last stone
    // may be any of the mover's, placed before any swap: undo the swap, lift the stone, recurse),
    // so the counts are C(36, w) · C(36 - w, b).
    assert_eq!(
        fast.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![36, 36 * 35, 36 * 35 / 2 * 34]
    );
}
