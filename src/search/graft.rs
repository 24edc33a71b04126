//! Tree reuse between decisions: finding the node of the position reached since the last search,
//! and copying its subtree, statistics and all, into another arena.
//!
//! Copying (rather than re-rooting in place) leaves the arena's layout alone: every search still
//! starts from a freshly reset tree whose roots are the first nodes, and the copy is a fraction
//! of the old tree (the part below the moves played since). Each copied node gets a children
//! block sized by the same possible moves as its original, and its children are made in the
//! order the original's were (their births, which break selection ties, stay in order), with
//! the original's visits, rewards and ISMCTS availability.
//!
//! [`KeptTree`] holds a subtree between two decisions: the searcher's arena is reset by the next
//! search, so the subtree is copied out first and grafted back under the new root
//! ([`super::Searcher::run_grafted`]). Nothing is reclaimed in place: the old tree is simply
//! overwritten by the next search, so there is no pause to collect it.

use super::tree::{Entry, NodeId, Slots, Tree};
use crate::game::TreeMove;
use crate::mask::MoveMask;

/// The node reached from root 0 by following `moves`, if the tree has every step.
pub(crate) fn find_path<M: TreeMove + PartialEq>(tree: &Tree<M>, moves: &[M]) -> Option<NodeId> {
    if tree.num_roots() == 0 {
        return None;
    }
    let mut node = tree.root(0);
    for &mv in moves {
        node = tree.children(node).find(|(_, n)| n.mv() == mv)?.0;
    }
    Some(node)
}

/// A subtree kept from one search for the next (tree reuse), in an arena of its own.
pub(crate) struct KeptTree<M: TreeMove> {
    arena: Option<Tree<M>>,
    /// The last `keep` kept a subtree (else the arena's content is stale).
    held: bool,
}

impl<M: TreeMove> Default for KeptTree<M> {
    fn default() -> Self {
        KeptTree {
            arena: None,
            held: false,
        }
    }
}

impl<M: TreeMove + PartialEq> KeptTree<M> {
    /// Keeps the subtree of `tree` below `node`, statistics and all, in place of anything kept
    /// before. False, keeping nothing, when `node` was never visited or there is no memory for
    /// the copy (the next search then starts afresh).
    pub(crate) fn keep(&mut self, tree: &Tree<M>, node: NodeId) -> bool {
        self.held = false;
        if tree.node(node).visits() == 0 {
            return false;
        }
        // The subtree is part of `tree`: an arena of that tree's size holds it. A new one is
        // made twice that size, so that the kept subtrees of a growing game do not each need
        // a new arena (its pages are faulted in afresh, milliseconds for a large subtree).
        let need = u64::from(tree.len()).max(2);
        if self
            .arena
            .as_ref()
            .is_none_or(|t| u64::from(t.capacity()) < need)
        {
            self.arena = None;
            let roomy = need
                .saturating_mul(2)
                .min(u64::from(Tree::<M>::MAX_CAPACITY));
            let Ok(arena) = Tree::new(roomy.max(need)) else {
                return false;
            };
            self.arena = Some(arena);
        }
        let arena = self.arena.as_mut().expect("made just above");
        arena.reset(1);
        let root = arena.root(0);
        copy_subtree(tree, node, arena, root, None);
        self.held = true;
        true
    }

    /// The subtree the last [`KeptTree::keep`] kept, if it kept one.
    pub(crate) fn kept(&self) -> Option<&Tree<M>> {
        self.arena.as_ref().filter(|_| self.held)
    }

    /// Forgets the kept subtree and returns its arena's memory.
    pub(crate) fn release_memory(&mut self) {
        self.arena = None;
        self.held = false;
    }
}

/// Copies everything below `from` in `src` under `to` in `dst` (which must have no children
/// yet), as far as `dst` has room, and adds `from`'s visits to `to`. Of `from`'s own children
/// only those whose moves are in `keep` are copied (a root may allow fewer moves than the node
/// it was); `None` keeps them all. Every block keeps its original's possible moves, so that a
/// later walk finds room for every move it thinks possible (it thinks no more possible than
/// when the block was made: it knows more now). Each copy has its original's visits, reward
/// and availability (relative to its parent, as [`Tree::availability`] reads it). Returns the
/// nodes copied.
pub(crate) fn copy_subtree<M: TreeMove + PartialEq>(
    src: &Tree<M>,
    from: NodeId,
    dst: &mut Tree<M>,
    to: NodeId,
    keep: Option<M::Mask>,
) -> u64 {
    let t = dst.exclusive();
    t.update(to, src.node(from).visits(), 0.0, Entry::Unmarked);
    let mut copied = 0;
    let mut slots = Slots::default();
    let mut stack = vec![(from, to)];
    let mut kids = Vec::new();
    while let Some((s, d)) = stack.pop() {
        let Some(block) = src.block(src.node(s)) else {
            continue;
        };
        let possible = block.possible();
        let wanted = match keep {
            Some(keep) if s == from => keep,
            _ => possible,
        };
        kids.clear();
        kids.extend(
            src.children(s)
                .filter(|(_, n)| wanted.has(n.mv().bit()))
                .map(|(id, n)| (n.birth(), id)),
        );
        // In the order they were made, so that births keep their order.
        kids.sort_unstable();
        for &(_, c) in &kids {
            let n = src.node(c);
            let (mv, seat) = (n.mv(), n.seat());
            let Some(id) = t.expand(d, mv, mv.bit(), seat, Entry::Unmarked, possible, &mut slots)
            else {
                return copied;
            };
            t.update(id, n.visits(), n.reward(), Entry::Unmarked);
            // A new child's availability is 1.
            t.add_avail(t.node(id), src.availability(c, s).wrapping_sub(1));
            copied += 1;
            stack.push((c, id));
        }
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the child for `mv` of `parent` (possible moves `possible`) with statistics: its
    /// availability is one more than its visits.
    fn grow(t: &mut Tree<u8>, parent: NodeId, mv: u8, possible: u64, visits: u32) -> NodeId {
        let t = t.exclusive();
        let id = t
            .expand(
                parent,
                mv,
                mv as u32,
                1,
                Entry::Unmarked,
                possible,
                &mut Slots::default(),
            )
            .unwrap();
        t.update(id, visits, visits as f64 / 2.0, Entry::Unmarked);
        t.add_avail(t.node(id), visits);
        id
    }

    #[test]
    fn a_copied_subtree_has_the_same_moves_statistics_and_order() {
        let mut src = Tree::<u8>::new(64).unwrap();
        src.reset(1);
        let root = src.root(0);
        let a = grow(&mut src, root, 1, 0b10, 10);
        let below = 1 << 5 | 1 << 6 | 1 << 7 | 1 << 8;
        // Made in the order 7, 5, 6: births 0, 1, 2.
        for mv in [7u8, 5, 6] {
            let c = grow(&mut src, a, mv, below, mv as u32);
            grow(&mut src, c, 9, 1 << 9, 1);
        }
        assert_eq!(
            find_path(&src, &[1, 6]).map(|id| src.node(id).visits()),
            Some(6)
        );
        assert_eq!(find_path(&src, &[1, 8]), None);

        let mut dst = Tree::<u8>::new(64).unwrap();
        dst.reset(1);
        let to = dst.root(0);
        let copied = copy_subtree(&src, a, &mut dst, to, Some(below & !(1 << 6)));
        assert_eq!(copied, 4, "two children kept, each with its child");
        assert_eq!(dst.node(to).visits(), 10);
        let stats = |t: &Tree<u8>, id| -> Vec<(u8, u32, f64, u8, u32)> {
            t.children(id)
                .map(|(c, n)| {
                    let avail = t.availability(c, id);
                    (n.mv(), n.visits(), n.reward(), n.birth(), avail)
                })
                .collect()
        };
        assert_eq!(stats(&dst, to), [(5, 5, 2.5, 1, 6), (7, 7, 3.5, 0, 8)]);
        assert_eq!(
            find_path(&dst, &[7, 9]).map(|id| dst.node(id).visits()),
            Some(1)
        );

        // Everything, with the node's own possible moves.
        let mut all = Tree::<u8>::new(64).unwrap();
        all.reset(1);
        let to = all.root(0);
        assert_eq!(copy_subtree(&src, a, &mut all, to, None), 6);
        assert_eq!(stats(&all, to), stats(&src, a));

        // From a root, whose children count availability relative to the root's passes.
        src.exclusive().add_root_passes(root, 5);
        assert_eq!(src.availability(a, root), 16);
        let mut from_root = Tree::<u8>::new(64).unwrap();
        from_root.reset(1);
        let to = from_root.root(0);
        assert_eq!(copy_subtree(&src, root, &mut from_root, to, None), 7);
        assert_eq!(
            from_root.availability(from_root.children(to).next().unwrap().0, to),
            16
        );

        // A small arena takes what fits: the root's block (a header and 4 slots) and its
        // first child's block (a header and a slot), no more.
        let mut tiny = Tree::<u8>::new(8).unwrap();
        tiny.reset(1);
        let to = tiny.root(0);
        assert_eq!(copy_subtree(&src, a, &mut tiny, to, None), 4);
    }
}
