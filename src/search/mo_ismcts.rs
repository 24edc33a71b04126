//! Multiple-observer information-set MCTS (Cowling, Powley and Whitehouse 2012, MO-ISMCTS): one
//! tree per seat, all descended together on each iteration's determinization.
//!
//! SO-ISMCTS keeps one tree of the searching seat's information sets, so the other seats'
//! decisions in it sit below moves they never saw: a seat that must answer a choice made out of
//! its sight is modelled as seeing it (and the searcher's own hidden choices look transparent to
//! it). MO-ISMCTS gives every seat a tree of its own information sets: an edge of seat `t`'s tree
//! is a move as `t` observes it. Each step selects in the tree of the seat to move (UCB over
//! availability, [`Walker::step`]); every other tree that sees the move follows it
//! ([`Walker::follow`]); a tree that cannot see it ([`crate::Game::next_move_seen_by`]: another
//! seat's Hearts pass, the secret choice of [`crate::games::secret`]) stays where it is, because
//! to that seat the move's one observation ("a move was made") leads to one node, whose
//! statistics no selection reads. Every tree backs up the playout's rewards along its own path,
//! each node for the seat that made its move, so a node entered by a seat's own move, the only
//! kind its own selections read, holds that seat's reward.
//!
//! Where every move is seen by every seat the trees have the same shape as the SO-ISMCTS tree
//! and a selection at a node of seat `s` reads exactly the statistics SO-ISMCTS keeps at that
//! node: with the same generator the two searches make the same decisions (tested).
//!
//! Trees are kept in the searching seat's order: tree `k` belongs to seat `observer + k`.

use crate::game::{Game, MoveSet, Rng, Seat, TreeMove};
use crate::mask::MoveMask;

use super::tree::{Access, NodeId, TreeRef};
use super::walk::{Step, Walker};
use super::worlds::Worlds;

/// The children mask of a node in a tree whose seat missed a move the searching seat saw: such
/// a node stands for several of the searcher's information sets, so the searcher's
/// [`Worlds::possible_moves`] is not the same at every visit; every move bit gets a slot.
fn any_move<G: Game>() -> <G::Move as TreeMove>::Mask {
    <<G::Move as TreeMove>::Mask as MoveMask>::FULL
}

/// One MO-ISMCTS walk from `root` of every seat's tree (`trees[k]` and `walkers[k]` belong to
/// seat `observer + k`, where the observer is the seat to move in `state`), playing the moves on
/// `state`. Ends where the tree of the seat to move makes a new node, has no room, or has
/// stopped (one node per tree and iteration), or at the end of the game. `weight` playouts will
/// be backed up through the walk (leaf parallelism), added to the availability a selection
/// counts. Returns the number of seats, whose walkers hold paths to back up.
#[inline]
pub(crate) fn descend<G: Game, W: Worlds<G>, A: Access>(
    walkers: &mut [Walker],
    trees: &[TreeRef<'_, G::Move, A>],
    worlds: &W,
    root: NodeId,
    state: &mut G,
    rng: &mut Rng,
    weight: u32,
) -> usize {
    // One lock per walk is what `Locked` handles record; MO walks several trees at once.
    debug_assert!(!A::LOCKED, "MO-ISMCTS does not run tree-locked");
    let seats = state.num_seats();
    assert!(
        seats <= walkers.len() && seats <= trees.len(),
        "a tree per seat"
    );
    let observer = state.current_seat();
    for (walker, &tree) in walkers.iter_mut().zip(trees).take(seats) {
        walker.start(tree, root);
    }
    let tree_of = |seat: Seat| (seat + seats - observer) % seats;
    // Trees still descending, and trees that have missed a move the observer saw.
    let mut live = (1u32 << seats) - 1;
    let mut merged = 0u32;
    while !state.is_terminal() {
        let mover = state.current_seat();
        let m = tree_of(mover);
        if live >> m & 1 == 0 {
            break;
        }
        let moves = state.legal_moves();
        let seen = worlds.possible_moves(state, &moves).bits();
        let possible = |merged: u32, k: usize| {
            if merged >> k & 1 != 0 {
                any_move::<G>()
            } else {
                seen
            }
        };
        // The observer's own root children count availability through the root (their moves
        // are the observer's, legal in every world); no other tree's root is like that.
        let step = walkers[m].step(
            trees[m],
            state,
            &moves,
            possible(merged, m),
            true,
            m == 0,
            rng,
            weight,
        );
        let (bit, last) = match step {
            Step::Down(bit) => (bit, false),
            Step::Expanded(bit) => (bit, true),
            Step::Stop => break,
        };
        let mv = G::Move::from_bit(bit);
        debug_assert!(state.next_move_seen_by(mover), "a seat sees its own move");
        let observer_sees = state.next_move_seen_by(observer);
        for k in 0..seats {
            if k == m || live >> k & 1 == 0 {
                continue;
            }
            if !state.next_move_seen_by((observer + k) % seats) {
                if observer_sees {
                    merged |= 1 << k;
                }
                continue;
            }
            if !walkers[k].follow(trees[k], mv, bit, mover, possible(merged, k)) {
                live &= !(1 << k);
            }
        }
        state.play(mv);
        if last {
            break;
        }
    }
    seats
}
