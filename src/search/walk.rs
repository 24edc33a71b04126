//! One iteration's walk through the tree: selection, expansion and backpropagation, shared by
//! every algorithm and every parallel mode.
//!
//! Selection follows the note's reference code. At each node the walker scans the children once,
//! counting those whose move is legal in this iteration's world and scoring them by UCB. If some
//! legal move has no child yet, it expands one of those, chosen uniformly. Otherwise it increments
//! the availability of every compatible child (ISMCTS) and descends into the best one. Playouts
//! happen outside the walker, so leaf parallelism can run several per walk.

use crate::cards::random_below;
use crate::game::{Game, MoveSet, Rng};

use super::rollout::Rewards;
use super::tree::{Access, NodeId, TreeRef};

/// The selection rule's constants.
#[derive(Clone, Copy, Debug)]
pub struct Ucb {
    /// Exploration constant `c` of `mean + c·sqrt(ln(n_parent)/n)`.
    pub c: f64,
    /// Losses counted per thread currently below a node (tree modes; 0 disables).
    pub virtual_loss: u32,
}

/// Per-thread scratch for walks: the path from the root to the current leaf.
///
/// The path buffer is reused across iterations, so a walk allocates nothing once the buffer has
/// grown to the game's depth (it is created with room for 64 plies).
#[derive(Debug)]
pub struct Walker {
    ucb: Ucb,
    /// Whether this walk adds and removes virtual loss (tree modes with `virtual_loss > 0`).
    track_virtual_loss: bool,
    path: Vec<NodeId>,
}

/// `(w + c·sqrt(ln_parent·n)) / n`, which is `w/n + c·sqrt(ln_parent/n)` with one division.
#[inline]
fn ucb_score(reward: f64, n: f64, ln_parent: f64, c: f64) -> f64 {
    (reward + c * (ln_parent * n).sqrt()) / n
}

impl Walker {
    /// A walker for one thread. `track_virtual_loss` is for tree-parallel walks.
    pub fn new(ucb: Ucb, track_virtual_loss: bool) -> Walker {
        Walker {
            ucb,
            track_virtual_loss: track_virtual_loss && ucb.virtual_loss > 0,
            path: Vec::with_capacity(64),
        }
    }

    /// The nodes of the last walk, root first.
    pub fn path(&self) -> &[NodeId] {
        &self.path
    }

    /// Selects from `root` through `state` (playing the tree moves on it) and expands one node
    /// if the arena has room. `weight` is the number of playouts that will be backed up through
    /// this path (leaf parallelism), added to availability.
    ///
    /// `AVAIL` selects ISMCTS semantics: children filtered by legality in `state`, UCB over
    /// availability. Without it, every child is legal (a perfect-information tree) and UCB uses
    /// the parent's visits.
    #[inline]
    pub fn descend<G: Game, A: Access, const AVAIL: bool>(
        &mut self,
        tree: TreeRef<'_, G::Move, A>,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
        weight: u32,
    ) {
        let c = self.ucb.c;
        let vl = self.ucb.virtual_loss as f64;
        let track = self.track_virtual_loss;
        self.path.clear();
        self.path.push(root);
        let mut node = root;
        tree.lock(node);
        loop {
            if state.is_terminal() {
                tree.unlock(node);
                return;
            }
            let legal = state.legal_moves();
            let n_legal = legal.len();
            let here = tree.node(node);
            // Every scan below starts from this head: the list behind it never changes (new
            // children are only ever prepended), so counts and choices agree with each other.
            let head = here.first_child();
            let mut compatible = 0usize;
            let mut best = NodeId::NONE;
            if !head.is_none() {
                let ln_parent = if AVAIL {
                    0.0
                } else {
                    let n = here.visits() as f64 + vl * here.virtual_loss() as f64;
                    n.max(1.0).ln()
                };
                let mut best_score = f64::NEG_INFINITY;
                let mut id = head;
                while !id.is_none() {
                    let child = tree.node(id);
                    let next = child.next_sibling();
                    if !AVAIL || legal.contains(child.mv()) {
                        compatible += 1;
                        let n = child.visits() as f64 + vl * child.virtual_loss() as f64;
                        let score = if n == 0.0 {
                            // Linked by another thread and not yet backed up: try it.
                            f64::INFINITY
                        } else {
                            let ln = if AVAIL {
                                ((child.avail() + weight) as f64).ln()
                            } else {
                                ln_parent
                            };
                            ucb_score(child.reward(), n, ln, c)
                        };
                        if score > best_score || best.is_none() {
                            best_score = score;
                            best = id;
                        }
                    }
                    id = next;
                }
            }
            if compatible < n_legal {
                let mv = if head.is_none() {
                    legal.random(rng)
                } else {
                    pick_untried::<G, A>(tree, head, &legal, n_legal - compatible, rng)
                };
                let seat = state.current_seat();
                let child = tree.expand(node, mv, seat, track, head);
                tree.unlock(node);
                if let Some(child) = child {
                    state.play(mv);
                    self.path.push(child);
                }
                return;
            }
            if AVAIL {
                let mut id = head;
                while !id.is_none() {
                    let child = tree.node(id);
                    if legal.contains(child.mv()) {
                        tree.add_avail(id, weight);
                    }
                    id = child.next_sibling();
                }
            }
            tree.unlock(node);
            tree.lock(best);
            if track {
                tree.add_virtual_loss(best);
            }
            state.play(tree.node(best).mv());
            self.path.push(best);
            node = best;
        }
    }

    /// Backs `visits` playouts with per-seat reward totals `rewards` up the last walk's path.
    #[inline]
    pub fn backup<M: Copy + PartialEq, A: Access>(
        &self,
        tree: TreeRef<'_, M, A>,
        visits: u32,
        rewards: &Rewards,
    ) {
        let (&root, below) = self.path.split_first().expect("a walk starts at a root");
        tree.lock(root);
        tree.update(root, visits, 0.0, false);
        tree.unlock(root);
        for &id in below {
            tree.lock(id);
            let seat = tree.node(id).seat();
            tree.update(id, visits, rewards[seat], self.track_virtual_loss);
            tree.unlock(id);
        }
    }
}

/// A uniformly random legal move without a child in the list starting at `head`, of which
/// there are `untried`.
#[inline]
fn pick_untried<G: Game, A: Access>(
    tree: TreeRef<'_, G::Move, A>,
    head: NodeId,
    legal: &G::Moves,
    untried: usize,
    rng: &mut Rng,
) -> G::Move {
    let mut k = random_below(rng, untried as u32) as usize;
    for j in 0..legal.len() {
        let mv = legal.nth(j);
        let mut id = head;
        let mut tried = false;
        while !id.is_none() {
            let child = tree.node(id);
            if child.mv() == mv {
                tried = true;
                break;
            }
            id = child.next_sibling();
        }
        if !tried {
            if k == 0 {
                return mv;
            }
            k -= 1;
        }
    }
    unreachable!("the scan counted {untried} untried legal moves")
}
