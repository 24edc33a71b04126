//! Tree reuse between decisions: finding the node of the position reached since the last search,
//! and copying its subtree, statistics and all, into another arena.
//!
//! Copying (rather than re-rooting in place) leaves the arena's layout alone: every search still
//! starts from a freshly reset tree whose roots are the first nodes, and the copy is a fraction
//! of the old tree (the part below one move of each side). Each copied node gets a children
//! block sized by the same possible moves as its original, and its children are made in the
//! order the original's were (their births, which break selection ties, stay in order).

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

/// Visits of a node.
pub(crate) fn visits<M: TreeMove>(tree: &Tree<M>, id: NodeId) -> u32 {
    tree.node(id).visits()
}

/// Copies everything below `from` in `src` under `to` in `dst` (which must have no children
/// yet), as far as `dst` has room, and adds `from`'s visits to `to`. `to`'s children block is
/// sized by `keep`, and of `from`'s own children only those whose moves are in `keep` are
/// copied (a root may allow fewer moves than the node it was); `None` keeps `from`'s own
/// possible moves. Returns the nodes copied.
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
        let possible = match keep {
            Some(keep) if s == from => keep,
            _ => block.possible(),
        };
        kids.clear();
        kids.extend(
            src.children(s)
                .filter(|(_, n)| possible.has(n.mv().bit()))
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
            copied += 1;
            stack.push((c, id));
        }
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the child for `mv` of `parent` (possible moves `possible`) with statistics.
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
        assert_eq!(find_path(&src, &[1, 6]).map(|id| visits(&src, id)), Some(6));
        assert_eq!(find_path(&src, &[1, 8]), None);

        let mut dst = Tree::<u8>::new(64).unwrap();
        dst.reset(1);
        let to = dst.root(0);
        let copied = copy_subtree(&src, a, &mut dst, to, Some(below & !(1 << 6)));
        assert_eq!(copied, 4, "two children kept, each with its child");
        assert_eq!(dst.node(to).visits(), 10);
        let stats = |t: &Tree<u8>, id| -> Vec<(u8, u32, f64, u8)> {
            t.children(id)
                .map(|(_, n)| (n.mv(), n.visits(), n.reward(), n.birth()))
                .collect()
        };
        assert_eq!(stats(&dst, to), [(5, 5, 2.5, 1), (7, 7, 3.5, 0)]);
        assert_eq!(find_path(&dst, &[7, 9]).map(|id| visits(&dst, id)), Some(1));

        // Everything, with the node's own possible moves.
        let mut all = Tree::<u8>::new(64).unwrap();
        all.reset(1);
        let to = all.root(0);
        assert_eq!(copy_subtree(&src, a, &mut all, to, None), 6);
        assert_eq!(stats(&all, to), stats(&src, a));

        // A small arena takes what fits: the root's block (a header and 4 slots) and its
        // first child's block (a header and a slot), no more.
        let mut tiny = Tree::<u8>::new(8).unwrap();
        tiny.reset(1);
        let to = tiny.root(0);
        assert_eq!(copy_subtree(&src, a, &mut tiny, to, None), 4);
    }
}
