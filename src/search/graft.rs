//! Tree reuse between decisions: finding the node of the position reached since the last search,
//! and copying its subtree, statistics and all, into another arena.
//!
//! Copying (rather than re-rooting in place) leaves the arena's layout alone: every search still
//! starts from a freshly reset tree whose roots are the first nodes, and the copy is a fraction
//! of the old tree (the part below one move of each side).

use super::tree::{Entry, NodeId, Slots, Tree};

/// The node reached from root 0 by following `moves`, if the tree has every step.
pub(crate) fn find_path<M: Copy + PartialEq>(tree: &Tree<M>, moves: &[M]) -> Option<NodeId> {
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
pub(crate) fn visits<M: Copy>(tree: &Tree<M>, id: NodeId) -> u32 {
    tree.node(id).visits()
}

/// Copies everything below `from` in `src` under `to` in `dst` (which must have no children
/// yet), as far as `dst` has room, and adds `from`'s visits to `to`. Of `from`'s own children
/// only those whose move passes `keep` are copied (a root may allow fewer moves than the node
/// it was). Children keep their order. Returns the nodes copied.
pub(crate) fn copy_subtree<M: Copy + PartialEq>(
    src: &Tree<M>,
    from: NodeId,
    dst: &mut Tree<M>,
    to: NodeId,
    keep: impl Fn(M) -> bool,
) -> u64 {
    let t = dst.exclusive();
    t.update(to, src.node(from).visits(), 0.0, Entry::Unmarked);
    let mut copied = 0;
    let mut slots = Slots::default();
    let mut stack = vec![(from, to)];
    let mut kids = Vec::new();
    while let Some((s, d)) = stack.pop() {
        kids.clear();
        kids.extend(
            src.children(s)
                .filter(|(_, n)| s != from || keep(n.mv()))
                .map(|(id, _)| id),
        );
        // New children are prepended: adding them last to first keeps the order.
        let mut head = NodeId::NONE;
        for &c in kids.iter().rev() {
            let n = src.node(c);
            let Some(id) = t.expand(d, n.mv(), n.seat(), Entry::Unmarked, head, &mut slots) else {
                return copied;
            };
            t.update(id, n.visits(), n.reward(), Entry::Unmarked);
            head = id;
            copied += 1;
            stack.push((c, id));
        }
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_subtree_has_the_same_moves_statistics_and_order() {
        let mut src = Tree::<u8>::new(64).unwrap();
        src.reset(1);
        let root = src.root(0);
        let t = src.exclusive();
        let mut slots = Slots::default();
        let a = t
            .expand(root, 1, 0, Entry::Unmarked, NodeId::NONE, &mut slots)
            .unwrap();
        t.update(a, 10, 6.0, Entry::Unmarked);
        let mut head = NodeId::NONE;
        for mv in [5u8, 6, 7] {
            let c = t
                .expand(a, mv, 1, Entry::Unmarked, head, &mut slots)
                .unwrap();
            t.update(c, mv as u32, 1.5, Entry::Unmarked);
            head = c;
            let g = t
                .expand(c, 9, 0, Entry::Unmarked, NodeId::NONE, &mut slots)
                .unwrap();
            t.update(g, 1, 1.0, Entry::Unmarked);
        }
        assert_eq!(find_path(&src, &[1, 6]).map(|id| visits(&src, id)), Some(6));
        assert_eq!(find_path(&src, &[1, 8]), None);

        let mut dst = Tree::<u8>::new(64).unwrap();
        dst.reset(1);
        let to = dst.root(0);
        let copied = copy_subtree(&src, a, &mut dst, to, |mv| mv != 6);
        assert_eq!(copied, 4, "two children kept, each with its child");
        assert_eq!(dst.node(to).visits(), 10);
        let below: Vec<(u8, u32, f64)> = dst
            .children(to)
            .map(|(_, n)| (n.mv(), n.visits(), n.reward()))
            .collect();
        let want: Vec<(u8, u32, f64)> = src
            .children(a)
            .filter(|(_, n)| n.mv() != 6)
            .map(|(_, n)| (n.mv(), n.visits(), n.reward()))
            .collect();
        assert_eq!(below, want);
        assert_eq!(find_path(&dst, &[7, 9]).map(|id| visits(&dst, id)), Some(1));

        // A small arena takes what fits.
        let mut tiny = Tree::<u8>::new(3).unwrap();
        tiny.reset(1);
        let to = tiny.root(0);
        assert_eq!(copy_subtree(&src, a, &mut tiny, to, |_| true), 2);
    }
}
