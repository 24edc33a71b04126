//! One iteration's walk through the tree: selection, expansion and backpropagation, shared by
//! every algorithm and every parallel mode.
//!
//! Selection follows the note's reference code. At each node the walker scans the children once,
//! collecting those whose move is legal in this iteration's world and scoring them by UCB. If
//! some legal move has no child yet, it expands one of those, chosen uniformly. Otherwise it
//! increments the availability of every compatible child (ISMCTS) and descends into the best
//! one. Playouts happen outside the walker, so leaf parallelism can run several per walk.

use crate::cards::random_below;
use crate::game::{Game, MoveSet, Rng};

use super::rollout::Rewards;
use super::tree::{Access, Entry, NodeId, Slots, TreeRef};

/// The selection rule's constants.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ucb {
    /// Exploration constant `c` of `mean + c·sqrt(ln(n_parent)/n)`.
    pub(crate) c: f64,
    /// Losses counted per thread currently below a node (tree modes; 0 disables).
    pub(crate) virtual_loss: u32,
}

/// Per-thread scratch for walks: the path from the root to the current leaf, and the
/// compatible children of the node being scanned.
///
/// Both buffers are reused across iterations, so a walk allocates nothing once they have grown
/// to the game's depth and branching. They start with room for a path of 64 nodes and 256
/// children (more than any game's moves: Pentago-Swap has up to 216), so a walker made for one
/// search does not grow them in it.
#[derive(Debug)]
pub(crate) struct Walker {
    ucb: Ucb,
    /// How this walk marks the nodes it enters (tree modes with `virtual_loss > 0`).
    entry: Entry,
    path: Vec<NodeId>,
    compatible: Vec<NodeId>,
    /// This thread's arena slots (shared trees).
    slots: Slots,
    /// Passes through `pending_root` not yet added to its availability counter (ISMCTS).
    root_pending: u32,
    pending_root: NodeId,
    /// Passes gathered before they are added: 1 (exact) for a walker that owns its tree.
    root_batch: u32,
}

/// `ln(x)` for `x >= 1`, inlined: UCB takes one logarithm per child per level, and a libm call
/// in the middle of the child scan costs more than its arithmetic (register spills around the
/// call, no overlap with the next child's loads). Absolute error below 1e-9.
#[inline]
pub(crate) fn ln(x: f64) -> f64 {
    const MANTISSA: u64 = (1 << 52) - 1;
    let bits = x.to_bits();
    let mut exponent = (bits >> 52) as i64 - 1023;
    let mut m = f64::from_bits((bits & MANTISSA) | (1023 << 52));
    // Centre the mantissa on 1 so the series converges fast: m in [0.707, 1.414).
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        exponent += 1;
    }
    // ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …) with s = (m − 1)/(m + 1), |s| < 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let series = 1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0))));
    exponent as f64 * std::f64::consts::LN_2 + 2.0 * s * series
}

/// The best child so far by UCB, compared without dividing: `num/den` against `num'/den'` as
/// `num·den' > num'·den` (every `den` is a positive visit count).
struct Best {
    id: NodeId,
    num: f64,
    den: f64,
}

impl Best {
    const NONE: Best = Best {
        id: NodeId::NONE,
        num: 0.0,
        den: 1.0,
    };

    /// Keeps the first of equal scores, as a `>` scan would.
    #[inline]
    fn offer(&mut self, id: NodeId, num: f64, den: f64) {
        if self.id.is_none() || num * self.den > self.num * den {
            *self = Best { id, num, den };
        }
    }
}

impl Walker {
    /// Root passes a tree-parallel walker gathers before adding them to the shared root's
    /// availability counter. Every iteration passes through the root, so adding each one
    /// would move the root's cache line between the threads' cores once per iteration; in
    /// batches the counter lags by at most `ROOT_BATCH - 1` passes per other thread, a few in
    /// the thousands that the logarithm in UCB barely sees.
    pub(crate) const ROOT_BATCH: u32 = 8;

    /// Uniform draws [`Walker::pick_untried`] tries in a large move set before its exact pass.
    const UNTRIED_DRAWS: u32 = 16;

    /// A walker for one thread. `track_virtual_loss` is for tree-parallel walks.
    pub(crate) fn new(ucb: Ucb, track_virtual_loss: bool) -> Walker {
        let entry = match (track_virtual_loss, ucb.virtual_loss) {
            (false, _) | (true, 0) => Entry::Unmarked,
            (true, 1) => Entry::EarlyVisit,
            (true, _) => Entry::VirtualLoss,
        };
        Walker {
            ucb,
            entry,
            path: Vec::with_capacity(64),
            compatible: Vec::with_capacity(256),
            slots: Slots::default(),
            root_pending: 0,
            pending_root: NodeId::NONE,
            root_batch: if track_virtual_loss {
                Self::ROOT_BATCH
            } else {
                1
            },
        }
    }

    /// Adds the root passes this walker still holds to `root`'s availability; a tree-parallel
    /// thread calls it once its last iteration is backed up.
    pub(crate) fn flush_root_passes<M: Copy + PartialEq, A: Access>(
        &mut self,
        tree: TreeRef<'_, M, A>,
    ) {
        if self.root_pending > 0 {
            tree.add_root_passes(self.pending_root, self.root_pending);
            self.root_pending = 0;
        }
    }

    /// Selects from `root` through `state` (playing the tree moves on it) and expands one node
    /// if the arena has room. `weight` is the number of playouts that will be backed up through
    /// this path (leaf parallelism), added to availability.
    ///
    /// `AVAIL` selects ISMCTS semantics: children filtered by legality in `state`, UCB over
    /// availability. Without it, every child is legal (a perfect-information tree) and UCB uses
    /// the parent's visits.
    #[inline]
    pub(crate) fn descend<G: Game, A: Access, const AVAIL: bool>(
        &mut self,
        tree: TreeRef<'_, G::Move, A>,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
        weight: u32,
    ) {
        let c = self.ucb.c;
        // Early visits are already in the visit counts.
        let vl = if self.entry == Entry::VirtualLoss {
            self.ucb.virtual_loss as f64
        } else {
            0.0
        };
        let entry = self.entry;
        self.path.clear();
        self.path.push(root);
        let mut node = root;
        // ISMCTS searches the information sets of the seat to move at the root.
        let observer = state.current_seat();
        tree.lock(node);
        loop {
            if state.is_terminal() {
                tree.unlock(node);
                return;
            }
            let legal = state.legal_moves();
            if AVAIL && !state.next_move_seen_by(observer) {
                // A move the searcher will never see is not a branch of its tree: it is drawn at
                // random, like the hidden cards of the determinization.
                state.play(legal.random(rng));
                continue;
            }
            let here = tree.node(node);
            // Every scan starts from this head: the list behind it never changes (children are
            // only ever prepended), so the count, the choice and the expansion agree.
            let head = here.first_child();
            self.compatible.clear();
            let mut best = Best::NONE;
            // Root children count availability relative to the root (see Tree::availability).
            let at_root = self.path.len() == 1;
            // This thread's own passes not yet added count too.
            if AVAIL && at_root && node != self.pending_root {
                self.flush_root_passes(tree);
                self.pending_root = node;
            }
            let avail_base = if AVAIL && at_root {
                here.avail().wrapping_add(self.root_pending)
            } else {
                0
            };
            if !head.is_none() {
                let ln_parent = if AVAIL {
                    0.0
                } else {
                    ln((here.visits() as f64 + vl * here.virtual_loss() as f64).max(1.0))
                };
                // A child linked by another thread and not yet backed up has no statistics:
                // it goes first.
                let mut unvisited = NodeId::NONE;
                let mut id = head;
                while !id.is_none() {
                    let child = tree.node(id);
                    let next = child.next_sibling();
                    if !AVAIL || legal.contains(child.mv()) {
                        self.compatible.push(id);
                        let n = child.visits() as f64 + vl * child.virtual_loss() as f64;
                        if n == 0.0 {
                            if unvisited.is_none() {
                                unvisited = id;
                            }
                        } else {
                            let ln_avail = if AVAIL {
                                let avail = child.avail().wrapping_add(avail_base);
                                ln(avail.wrapping_add(weight) as f64)
                            } else {
                                ln_parent
                            };
                            // mean + c·sqrt(ln/n) = (reward + c·sqrt(ln·n)) / n
                            best.offer(id, child.reward() + c * (ln_avail * n).sqrt(), n);
                        }
                    }
                    id = next;
                }
                if !unvisited.is_none() {
                    best.id = unvisited;
                }
            }
            if self.compatible.len() < legal.len() {
                let mv = if head.is_none() {
                    legal.random(rng)
                } else {
                    self.pick_untried::<G, A>(tree, &legal, rng)
                };
                let seat = state.current_seat();
                let child = tree.expand(node, mv, seat, entry, head, &mut self.slots);
                tree.unlock(node);
                if let Some(child) = child {
                    state.play(mv);
                    self.path.push(child);
                }
                return;
            }
            if AVAIL {
                if at_root {
                    self.root_pending += weight;
                    if self.root_pending >= self.root_batch {
                        self.flush_root_passes(tree);
                    }
                } else {
                    for &id in &self.compatible {
                        tree.add_avail(id, weight);
                    }
                }
            }
            let best = best.id;
            tree.unlock(node);
            tree.lock(best);
            tree.enter(best, entry);
            state.play(tree.node(best).mv());
            self.path.push(best);
            node = best;
        }
    }

    /// A uniformly random legal move that no compatible child has taken.
    ///
    /// The exact pass at the end tests every legal move against every child. With Pentago-Swap's
    /// up to 216 moves that cost dominated the whole search, so sets of more than 64 moves first
    /// draw up to [`Walker::UNTRIED_DRAWS`] uniform legal moves and keep the first untried one
    /// (one scan of the children per draw). Each draw and the exact pass are uniform over the
    /// untried moves, so the choice is too. Card games never have more than 64 moves: their
    /// searches draw exactly as before.
    #[inline]
    fn pick_untried<G: Game, A: Access>(
        &self,
        tree: TreeRef<'_, G::Move, A>,
        legal: &G::Moves,
        rng: &mut Rng,
    ) -> G::Move {
        if legal.len() > 64 {
            for _ in 0..Self::UNTRIED_DRAWS {
                let mv = legal.random(rng);
                if !self.compatible.iter().any(|&id| tree.node(id).mv() == mv) {
                    return mv;
                }
            }
        }
        let untried = legal.len() - self.compatible.len();
        let mut k = random_below(rng, untried as u32);
        let mut chosen = None;
        legal.for_each(|mv| {
            if chosen.is_none() && !self.compatible.iter().any(|&id| tree.node(id).mv() == mv) {
                if k == 0 {
                    chosen = Some(mv);
                } else {
                    k -= 1;
                }
            }
        });
        chosen.expect("the scan counted the untried legal moves")
    }

    /// Backs `visits` playouts with per-seat reward totals `rewards` up the last walk's path.
    ///
    /// `AVAIL` searches leave the root's visit count alone: nothing reads it (availability
    /// replaces it), and it is the one counter every thread of a shared tree would write.
    #[inline]
    pub(crate) fn backup<M: Copy + PartialEq, A: Access, const AVAIL: bool>(
        &self,
        tree: TreeRef<'_, M, A>,
        visits: u32,
        rewards: &Rewards,
    ) {
        let (&root, below) = self.path.split_first().expect("a walk starts at a root");
        if !AVAIL {
            tree.lock(root);
            tree.update(root, visits, 0.0, Entry::Unmarked);
            tree.unlock(root);
        }
        for &id in below {
            tree.lock(id);
            let seat = tree.node(id).seat();
            tree.update(id, visits, rewards[seat], self.entry);
            tree.unlock(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inlined_ln_matches_the_library() {
        let mut x = 1.0f64;
        while x < 1e12 {
            for y in [x, x * 1.37, x * 1.414, x * 1.4143, x * 1.99] {
                assert!(
                    (ln(y) - y.ln()).abs() < 1e-9,
                    "ln({y}) = {} vs {}",
                    ln(y),
                    y.ln()
                );
            }
            x *= 2.0;
        }
        for n in 1..100_000u32 {
            assert!((ln(n as f64) - (n as f64).ln()).abs() < 1e-9);
        }
    }
}
