//! A tree-parallel thread's own statistics of the top two levels of a shared tree (the root's
//! children and grandchildren), gathered for a batch of passes and then added to the shared
//! ones.
//!
//! Every iteration passes through a root child and one of its children, so in a shared tree
//! the threads write those few nodes' statistics (the early visit, the backup, and the
//! availability of every compatible child) on nearly every pass, and each thread's next scan
//! of them misses the lines the other has just written: with iterations of half a microsecond
//! and a cross-core hand-off of 50-70 ns that traffic is most of a second thread's cost.
//! (Measured: two threads kept to disjoint halves of the root's moves, so that they share no
//! node below the root, scale 1.97x in Sueca, against 1.22x when they share the tree.)
//!
//! Instead a thread adds its passes through those nodes here, scores them by the shared
//! statistics plus its own, and adds its own to the shared ones every [`Ucb::root_batch`]
//! passes and when its search ends ([`Walker::flush_root_passes`]). The other threads see a
//! thread's results there at most that many passes late; deeper, nothing changes. A held node
//! gets no early visit (virtual loss): the thread's own next pass sees its statistics at once,
//! and the others' choices are spread by their own UCB terms. Holding deeper levels too, in
//! rows found by the parent's id, was measured and cost more than it saved (performance.md,
//! session 31): below the second level a row rarely sees a second pass within a batch.
//!
//! [`Ucb::root_batch`]: super::walk::Ucb::root_batch
//! [`Walker::flush_root_passes`]: super::walk::Walker::flush_root_passes

use crate::game::TreeMove;

use super::tree::{Access, Entry, NodeId, TreeRef};

/// Children per node a thread can hold statistics for: move bits below this (every card
/// game's); a game with wider moves keeps its statistics shared.
pub(crate) const HELD_MOVES: usize = 64;

/// One node's children's statistics that this thread has gathered and not yet shared, by
/// move bit.
#[derive(Clone, Debug)]
pub(crate) struct Held {
    /// Visits.
    pub(crate) visits: [u32; HELD_MOVES],
    /// Availability (a root's children count theirs through the root's counter instead, see
    /// [`super::tree::Tree::availability`], and leave this at 0).
    pub(crate) avail: [u32; HELD_MOVES],
    /// Reward totals (for the child's seat).
    pub(crate) reward: [f64; HELD_MOVES],
    /// Move bits with statistics here.
    pub(crate) held: u64,
}

impl Held {
    /// Nothing held.
    pub(crate) const EMPTY: Held = Held {
        visits: [0; HELD_MOVES],
        avail: [0; HELD_MOVES],
        reward: [0.0; HELD_MOVES],
        held: 0,
    };

    /// Counts `visits` playouts with total `reward` through the child of move bit `bit`.
    #[inline]
    pub(crate) fn add(&mut self, bit: u32, visits: u32, reward: f64) {
        let bit = bit as usize;
        self.visits[bit] += visits;
        self.reward[bit] += reward;
        self.held |= 1 << bit;
    }

    /// Adds the statistics held here for `parent`'s children to the shared tree's and forgets
    /// them.
    pub(crate) fn flush<M: TreeMove + PartialEq, A: Access>(
        &mut self,
        tree: TreeRef<'_, M, A>,
        parent: NodeId,
    ) {
        let Some(block) = tree.block(tree.node(parent)) else {
            debug_assert_eq!(self.held, 0, "statistics held for children never made");
            return;
        };
        let mut bits = self.held;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let id = block.child(bit);
            let bit = bit as usize;
            if self.visits[bit] > 0 {
                tree.update(id, self.visits[bit], self.reward[bit], Entry::Unmarked);
            }
            if self.avail[bit] > 0 {
                tree.add_avail_batch(id, self.avail[bit]);
            }
            self.visits[bit] = 0;
            self.avail[bit] = 0;
            self.reward[bit] = 0.0;
        }
        self.held = 0;
    }
}
