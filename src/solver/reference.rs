//! Plain minimax: every legal move, no pruning, no table, no reduction, no ordering. The
//! reference the solver's tests compare against, over the games' own rules.

use crate::game::{MoveSet, Seat};

use super::{MoveValue, Solvable};

/// The exact value of `state` for `root`'s side by exhaustive search.
pub fn minimax<G: Solvable>(state: &G, root: Seat) -> i32 {
    if state.is_terminal() {
        return state.final_value(root);
    }
    let maximising = state.team(state.current_seat()) == state.team(root);
    let mut best = if maximising { i32::MIN } else { i32::MAX };
    state.legal_moves().for_each(|mv| {
        let mut child = state.clone();
        child.play(mv);
        let v = minimax(&child, root);
        best = if maximising { best.max(v) } else { best.min(v) };
    });
    best
}

/// The exact value of every legal move for the seat to move, by exhaustive search, in the
/// order of the legal move set.
pub fn move_values<G: Solvable>(state: &G) -> Vec<MoveValue<G::Move>> {
    let root = state.current_seat();
    state
        .legal_moves()
        .to_vec()
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play(mv);
            MoveValue {
                mv,
                value: minimax(&child, root),
            }
        })
        .collect()
}
