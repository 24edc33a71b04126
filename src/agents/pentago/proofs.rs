//! The strong player's root proofs: a move that forces a win within a few plies, and the moves
//! after which the opponent could force one.

use crate::game::MoveSet;
use crate::games::pentago::board::{FULL, has_five, swap};
use crate::games::pentago::solver::Solver;
use crate::games::pentago::{Pentago, PentagoMove, PentagoMoves, tactics};

/// False when the side with `mine` cannot possibly win within `plies` plies (only decided for
/// three plies, by [`tactics::may_win_within_three`]; longer proofs are always tried).
fn may_win(mine: u64, theirs: u64, plies: u32) -> bool {
    plies > 3 || tactics::may_win_within_three(mine, theirs)
}

/// A move of the side to move (`me`) that forces a win within `plies` plies (odd, at least 3),
/// if one is proven within `limit` nodes.
pub fn forced_win(
    solver: &mut Solver,
    me: u64,
    opp: u64,
    plies: u32,
    limit: u64,
) -> Option<PentagoMove> {
    if !may_win(me, opp, plies) {
        return None;
    }
    solver.winning_move_within(me, opp, plies, limit).flatten()
}

/// Of `moves`, those after which the opponent cannot force a win within `plies` plies (moves
/// whose proof runs out of `limit` nodes are kept); all of `moves` if every one is lost so.
///
/// A stone of ours never helps the opponent (it only blocks, or makes our lines), so when the
/// opponent cannot force a win after one of our swaps without our new stone on the board, no
/// move with that swap needs a proof of its own: six proofs instead of one per move in most
/// positions, with the same answer.
pub fn not_forced_losses(
    solver: &mut Solver,
    me: u64,
    opp: u64,
    moves: PentagoMoves,
    plies: u32,
    limit: u64,
) -> PentagoMoves {
    let mut threat = [false; 6];
    for (s, t) in threat.iter_mut().enumerate() {
        let (m, o) = (swap(me, s), swap(opp, s));
        *t = !has_five(m)
            && !has_five(o)
            && may_win(o, m, plies)
            && solver.wins_within(o, m, plies, limit) != Some(false);
    }
    let mut keep = PentagoMoves::EMPTY;
    for mv in moves.iter() {
        if !(threat[mv.swap()] && loses(solver, me, opp, mv, plies, limit)) {
            keep.insert(mv);
        }
    }
    if keep.is_empty() { moves } else { keep }
}

/// True when the opponent is proven to force a win within `plies` plies after `mv` (a move
/// that ends the game is never lost this way: [`tactics::safe_moves`] judges those).
fn loses(solver: &mut Solver, me: u64, opp: u64, mv: PentagoMove, plies: u32, limit: u64) -> bool {
    let (m, o) = Pentago::after(me, opp, mv);
    !has_five(m)
        && !has_five(o)
        && (m | o) != FULL
        && may_win(o, m, plies)
        && solver.wins_within(o, m, plies, limit) == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, rng_from_seed};

    #[test]
    fn the_per_swap_shortcut_keeps_exactly_the_moves_a_proof_per_move_keeps() {
        let mut rng = rng_from_seed(40);
        let mut solver = Solver::new(0);
        let (mut positions, mut dropped) = (0, 0);
        while positions < 60 {
            let p = crate::games::pentago::random_position(&mut rng, 8, 14);
            let (me, opp) = p.mover_and_opponent();
            if p.is_terminal() || tactics::can_win(me, opp) {
                continue;
            }
            positions += 1;
            let moves = tactics::safe_moves(me, opp);
            let fast = not_forced_losses(&mut solver, me, opp, moves, 3, u64::MAX);
            let mut slow = PentagoMoves::EMPTY;
            for mv in moves.iter() {
                if !loses(&mut solver, me, opp, mv, 3, u64::MAX) {
                    slow.insert(mv);
                }
            }
            let slow = if slow.is_empty() { moves } else { slow };
            assert_eq!(fast, slow, "{p:?}");
            dropped += moves.len() - fast.len();
        }
        assert!(dropped > 50, "the sample must drop moves: {dropped}");
    }
}
