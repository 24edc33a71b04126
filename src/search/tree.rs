//! The search tree: one preallocated arena of nodes addressed by [`NodeId`].
//!
//! Children hang off their parent as a singly linked list (first child, next sibling), so a node
//! is a fixed 32 bytes for card games (`Card` moves; see [`Tree::BYTES_PER_NODE`]) and expanding
//! never allocates. Every statistic is an atomic: a [`TreeRef`] handle decides how they are
//! updated. An [`Exclusive`] handle (from `&mut Tree`, one thread) uses plain load + store, which
//! compile to ordinary moves; a [`Shared`] handle (lock-free tree parallelism) uses atomic
//! read-modify-write and publishes new children with a compare-and-swap; a [`Locked`] handle
//! (the classic lock-per-node baseline) updates under each node's one-byte mutex.
//!
//! When the arena is full, [`TreeRef::expand`] returns `None` and the search carries on from the
//! leaf without expanding: a full tree degrades the search, it never aborts or reallocates.

use std::alloc::{Layout, alloc, dealloc};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};

use parking_lot::RawMutex;
use parking_lot::lock_api::RawMutex as _;

use crate::game::Seat;

/// A handle to a node of one [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// "No node": the end of a child list.
    pub const NONE: NodeId = NodeId(u32::MAX);

    /// True for [`NodeId::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == NodeId::NONE
    }

    /// The arena index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One node: the move into it, who made that move, and its statistics.
///
/// Fields are atomics so one tree can be shared between threads; a single thread reads and
/// writes them with `Relaxed` loads and stores, which cost the same as plain fields.
pub struct Node<M> {
    /// Sum of the rewards backed up through this node, for `seat`, as `f64` bits.
    reward: AtomicU64,
    /// Completed visits.
    visits: AtomicU32,
    /// ISMCTS availability: times this node's move was legal when its parent was selected
    /// through (starts at 1 when the node is created, as in the reference).
    avail: AtomicU32,
    /// Threads currently below this node (tree parallelism's virtual loss).
    virtual_loss: AtomicU32,
    first_child: AtomicU32,
    next_sibling: AtomicU32,
    /// Only used by [`Locked`] handles.
    lock: RawMutex,
    /// The seat that made `mv` (meaningless at a root).
    seat: u8,
    /// The move into this node; `None` only at roots.
    mv: Option<M>,
}

impl<M: std::fmt::Debug> std::fmt::Debug for Node<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("mv", &self.mv)
            .field("seat", &self.seat)
            .field("visits", &self.visits)
            .field("avail", &self.avail)
            .field("reward", &f64::from_bits(self.reward.load(Relaxed)))
            .field("virtual_loss", &self.virtual_loss)
            .finish()
    }
}

impl<M: Copy> Node<M> {
    fn new(mv: Option<M>, seat: Seat, next_sibling: NodeId, virtual_loss: u32) -> Node<M> {
        Node {
            reward: AtomicU64::new(0f64.to_bits()),
            visits: AtomicU32::new(0),
            avail: AtomicU32::new(1),
            virtual_loss: AtomicU32::new(virtual_loss),
            first_child: AtomicU32::new(NodeId::NONE.0),
            next_sibling: AtomicU32::new(next_sibling.0),
            lock: RawMutex::INIT,
            seat: seat as u8,
            mv,
        }
    }

    /// The move into this node.
    ///
    /// # Panics
    /// At a root, which no move leads into.
    #[inline]
    pub fn mv(&self) -> M {
        match self.mv {
            Some(m) => m,
            None => panic!("a root node has no move"),
        }
    }

    /// The seat that made the move into this node.
    #[inline]
    pub fn seat(&self) -> Seat {
        self.seat as Seat
    }

    /// Completed visits.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Availability count (ISMCTS).
    #[inline]
    pub fn avail(&self) -> u32 {
        self.avail.load(Relaxed)
    }

    /// Threads currently searching below this node.
    #[inline]
    pub fn virtual_loss(&self) -> u32 {
        self.virtual_loss.load(Relaxed)
    }

    /// Sum of backed-up rewards for [`Node::seat`].
    #[inline]
    pub fn reward(&self) -> f64 {
        f64::from_bits(self.reward.load(Relaxed))
    }

    /// The first child, or [`NodeId::NONE`]. `Acquire` pairs with the `Release` that published
    /// it, so the child's fields are visible to a thread that did not write them.
    #[inline]
    pub fn first_child(&self) -> NodeId {
        NodeId(self.first_child.load(Acquire))
    }

    /// The next sibling, or [`NodeId::NONE`]. Written before the node is published, never after.
    #[inline]
    pub fn next_sibling(&self) -> NodeId {
        NodeId(self.next_sibling.load(Relaxed))
    }
}

/// A preallocated arena of nodes with a fixed capacity.
///
/// The memory is reserved once (`max_nodes × BYTES_PER_NODE`; the operating system commits pages
/// only as they are first written) and reused by every search: [`Tree::reset`] just rewinds the
/// bump pointer.
pub struct Tree<M> {
    base: NonNull<Node<M>>,
    capacity: u32,
    /// Next free slot. May run past `capacity` by at most one per racing thread (shared mode).
    len: AtomicU32,
    roots: u32,
}

// SAFETY: every field reachable through `&Tree` is an atomic, a one-byte lock, or written once
// before it is published (see `Tree::write_slot`); the `Exclusive` handle that uses non-atomic
// read-modify-write can only be made from `&mut Tree`.
unsafe impl<M: Send + Sync> Send for Tree<M> {}
// SAFETY: as above.
unsafe impl<M: Send + Sync> Sync for Tree<M> {}

impl<M> Drop for Tree<M> {
    fn drop(&mut self) {
        // SAFETY: allocated in `Tree::new` with this layout; nodes need no drop (`M: Copy`).
        unsafe { dealloc(self.base.as_ptr().cast(), Self::layout(self.capacity)) }
    }
}

impl<M> std::fmt::Debug for Tree<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .field("roots", &self.roots)
            .finish()
    }
}

/// Why a tree could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// The capacity is outside `1..=MAX_CAPACITY`.
    #[error("max_nodes={0} is out of range (1 to {max})", max = Tree::<()>::MAX_CAPACITY)]
    Capacity(u64),
    /// The allocator refused the arena.
    #[error("cannot allocate a tree of {0} nodes")]
    OutOfMemory(u32),
}

impl<M> Tree<M> {
    /// The default capacity: 2^21 nodes (64 MiB of address space for card games, committed only
    /// as used), room for about four seconds of single-threaded search at 500k iterations/s.
    pub const DEFAULT_CAPACITY: u32 = 1 << 21;
    /// The largest capacity accepted (2^28 nodes, 8 GiB for card games).
    pub const MAX_CAPACITY: u32 = 1 << 28;
    /// Bytes per node for this move type (32 for [`crate::Card`]).
    pub const BYTES_PER_NODE: usize = std::mem::size_of::<Node<M>>();

    fn layout(capacity: u32) -> Layout {
        Layout::array::<Node<M>>(capacity as usize).expect("capacity checked in Tree::new")
    }

    /// An empty arena for `capacity` nodes.
    pub fn new(capacity: u64) -> Result<Tree<M>, TreeError> {
        if capacity == 0 || capacity > Self::MAX_CAPACITY as u64 {
            return Err(TreeError::Capacity(capacity));
        }
        let capacity = capacity as u32;
        // SAFETY: the layout has non-zero size (`Node` is never zero-sized).
        let ptr = unsafe { alloc(Self::layout(capacity)) };
        let base = NonNull::new(ptr.cast()).ok_or(TreeError::OutOfMemory(capacity))?;
        Ok(Tree {
            base,
            capacity,
            len: AtomicU32::new(0),
            roots: 0,
        })
    }

    /// The most nodes this arena holds.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Nodes in use (roots included).
    pub fn len(&self) -> u32 {
        self.len.load(Relaxed).min(self.capacity)
    }

    /// True when no search has been started since the last reset.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of roots of the current search.
    pub fn num_roots(&self) -> u32 {
        self.roots
    }

    /// The `r`-th root.
    pub fn root(&self, r: u32) -> NodeId {
        debug_assert!(r < self.roots);
        NodeId(r)
    }
}

impl<M: Copy> Tree<M> {
    /// Forgets the previous search and makes `roots` fresh roots (ids `0..roots`). Returns the
    /// number actually made: at most the capacity.
    pub fn reset(&mut self, roots: u32) -> u32 {
        let roots = roots.min(self.capacity);
        for r in 0..roots {
            // SAFETY: `&mut self`: no other reference to any slot exists.
            unsafe { self.write_slot(r, Node::new(None, 0, NodeId::NONE, 0)) };
        }
        self.roots = roots;
        *self.len.get_mut() = roots;
        roots
    }

    /// The node `id`, which must have been reached from a root through published links.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<M> {
        debug_assert!(id.0 < self.len());
        // SAFETY: `id` came from a root or a published link, so its slot was fully written
        // (before the `Release` that published it) and is never written again in this search.
        unsafe { &*self.base.as_ptr().add(id.index()) }
    }

    /// Writes a whole node into slot `i`.
    ///
    /// # Safety
    /// `i < capacity`, and no other thread can reach slot `i`: it was just handed out by the
    /// bump allocator and not yet published, or the caller holds `&mut Tree`.
    #[inline]
    unsafe fn write_slot(&self, i: u32, node: Node<M>) {
        debug_assert!(i < self.capacity);
        // SAFETY: guaranteed by the caller.
        unsafe { self.base.as_ptr().add(i as usize).write(node) }
    }

    /// An exclusive handle: plain loads and stores, one thread.
    pub fn exclusive(&mut self) -> TreeRef<'_, M, Exclusive> {
        TreeRef {
            tree: self,
            _access: PhantomData,
        }
    }

    /// A handle for one of several threads sharing the tree ([`Shared`] or [`Locked`]).
    pub fn concurrent<A: Concurrent>(&self) -> TreeRef<'_, M, A> {
        TreeRef {
            tree: self,
            _access: PhantomData,
        }
    }

    /// A lock-free shared handle for tree parallelism.
    pub fn shared(&self) -> TreeRef<'_, M, Shared> {
        self.concurrent()
    }

    /// A shared handle that serialises work at each node with the node's lock.
    pub fn locked(&self) -> TreeRef<'_, M, Locked> {
        self.concurrent()
    }

    /// The children of `id`, in list order (most recently added first).
    pub fn children(&self, id: NodeId) -> Children<'_, M> {
        Children {
            tree: self,
            next: self.node(id).first_child(),
        }
    }
}

/// Iterator over the children of a node.
pub struct Children<'t, M> {
    tree: &'t Tree<M>,
    next: NodeId,
}

impl<'t, M: Copy> Iterator for Children<'t, M> {
    type Item = (NodeId, &'t Node<M>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next.is_none() {
            return None;
        }
        let id = self.next;
        let node = self.tree.node(id);
        self.next = node.next_sibling();
        Some((id, node))
    }
}

/// How a [`TreeRef`] touches shared state. Sealed: [`Exclusive`], [`Shared`] and [`Locked`].
pub trait Access: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Statistics use atomic read-modify-write (else load + store, which is only correct
    /// when one thread owns the node: the whole tree, or the node's lock).
    const ATOMIC_STATS: bool;
    /// Slots come from `fetch_add` and children are published by compare-and-swap.
    const ATOMIC_LINKS: bool;
    /// Selection and updates hold the node's lock.
    const LOCKED: bool;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Exclusive {}
    impl Sealed for super::Shared {}
    impl Sealed for super::Locked {}
}

/// The access disciplines that many threads may use at once.
pub trait Concurrent: Access {}
impl Concurrent for Shared {}
impl Concurrent for Locked {}

/// One thread owns the tree.
#[derive(Clone, Copy, Debug)]
pub struct Exclusive;
/// Many threads, lock-free.
#[derive(Clone, Copy, Debug)]
pub struct Shared;
/// Many threads, one lock per node.
#[derive(Clone, Copy, Debug)]
pub struct Locked;

impl Access for Exclusive {
    const ATOMIC_STATS: bool = false;
    const ATOMIC_LINKS: bool = false;
    const LOCKED: bool = false;
}
impl Access for Shared {
    const ATOMIC_STATS: bool = true;
    const ATOMIC_LINKS: bool = true;
    const LOCKED: bool = false;
}
impl Access for Locked {
    const ATOMIC_STATS: bool = false;
    const ATOMIC_LINKS: bool = true;
    const LOCKED: bool = true;
}

/// A tree seen through one access discipline. `Exclusive` handles borrow the tree mutably, so
/// the cheap non-atomic updates can never race.
pub struct TreeRef<'t, M, A> {
    tree: &'t Tree<M>,
    _access: PhantomData<A>,
}

impl<M, A> Clone for TreeRef<'_, M, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M, A> Copy for TreeRef<'_, M, A> {}

#[inline]
fn add_u32<A: Access>(cell: &AtomicU32, by: u32) {
    if A::ATOMIC_STATS {
        cell.fetch_add(by, Relaxed);
    } else {
        cell.store(cell.load(Relaxed).wrapping_add(by), Relaxed);
    }
}

#[inline]
fn sub_u32<A: Access>(cell: &AtomicU32, by: u32) {
    if A::ATOMIC_STATS {
        cell.fetch_sub(by, Relaxed);
    } else {
        cell.store(cell.load(Relaxed).wrapping_sub(by), Relaxed);
    }
}

#[inline]
fn add_f64<A: Access>(cell: &AtomicU64, by: f64) {
    if A::ATOMIC_STATS {
        let mut old = cell.load(Relaxed);
        loop {
            let new = (f64::from_bits(old) + by).to_bits();
            match cell.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    } else {
        cell.store((f64::from_bits(cell.load(Relaxed)) + by).to_bits(), Relaxed);
    }
}

impl<'t, M: Copy + PartialEq, A: Access> TreeRef<'t, M, A> {
    /// The underlying tree.
    #[inline]
    pub fn tree(&self) -> &'t Tree<M> {
        self.tree
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &'t Node<M> {
        self.tree.node(id)
    }

    /// Takes `id`'s lock (`Locked` handles only; a no-op otherwise).
    #[inline]
    pub fn lock(&self, id: NodeId) {
        if A::LOCKED {
            self.node(id).lock.lock();
        }
    }

    /// Releases `id`'s lock, which this thread must hold (`Locked` handles only).
    #[inline]
    pub fn unlock(&self, id: NodeId) {
        if A::LOCKED {
            // SAFETY: callers pair every `unlock` with their own earlier `lock`.
            unsafe { self.node(id).lock.unlock() };
        }
    }

    /// Adds `by` to the availability of `id`.
    #[inline]
    pub fn add_avail(&self, id: NodeId, by: u32) {
        add_u32::<A>(&self.node(id).avail, by);
    }

    /// Marks one more thread as searching below `id`.
    #[inline]
    pub fn add_virtual_loss(&self, id: NodeId) {
        add_u32::<A>(&self.node(id).virtual_loss, 1);
    }

    /// Backs up `visits` visits with total `reward` (for the node's seat) and, if
    /// `leave` is set, removes this thread's virtual loss.
    #[inline]
    pub fn update(&self, id: NodeId, visits: u32, reward: f64, leave: bool) {
        let n = self.node(id);
        add_u32::<A>(&n.visits, visits);
        add_f64::<A>(&n.reward, reward);
        if leave {
            sub_u32::<A>(&n.virtual_loss, 1);
        }
    }

    /// Adds a child of `parent` for `mv`, made by `seat`, entered by this thread (one unit of
    /// virtual loss when `enter` is set). `head` is the first child the caller saw when it
    /// checked that `mv` has no child yet. Returns the child, or `None` when the arena is full.
    ///
    /// With a [`Shared`] handle, another thread may have added the same move since `head` was
    /// read; then that child is returned (its virtual loss taken) and the slot just
    /// bump-allocated stays unused. `Locked` callers must hold `parent`'s lock.
    #[inline]
    pub fn expand(
        &self,
        parent: NodeId,
        mv: M,
        seat: Seat,
        enter: bool,
        head: NodeId,
    ) -> Option<NodeId> {
        let tree = self.tree;
        let vl = enter as u32;
        let p = tree.node(parent);
        if !A::ATOMIC_LINKS {
            debug_assert_eq!(head, p.first_child());
            let i = tree.len.load(Relaxed);
            if i >= tree.capacity {
                return None;
            }
            tree.len.store(i + 1, Relaxed);
            // SAFETY: slot `i` is past every published node and this handle is exclusive.
            unsafe { tree.write_slot(i, Node::new(Some(mv), seat, head, vl)) };
            p.first_child.store(i, Relaxed);
            return Some(NodeId(i));
        }
        // Checking first keeps `len` from creeping towards overflow once the arena is full.
        if tree.len.load(Relaxed) >= tree.capacity {
            return None;
        }
        let i = tree.len.fetch_add(1, Relaxed);
        if i >= tree.capacity {
            return None;
        }
        let mut head = head;
        // SAFETY: `fetch_add` handed slot `i` to this thread alone; nothing links to it yet.
        unsafe { tree.write_slot(i, Node::new(Some(mv), seat, head, vl)) };
        let me = tree.node(NodeId(i));
        loop {
            match p.first_child.compare_exchange(head.0, i, Release, Acquire) {
                Ok(_) => return Some(NodeId(i)),
                Err(seen) => {
                    // Someone linked children meanwhile: maybe our move.
                    let mut c = NodeId(seen);
                    while c != head {
                        let n = tree.node(c);
                        if n.mv() == mv {
                            if enter {
                                self.add_virtual_loss(c);
                            }
                            return Some(c);
                        }
                        c = n.next_sibling();
                    }
                    head = NodeId(seen);
                    me.next_sibling.store(seen, Relaxed);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;

    #[test]
    fn a_card_node_is_32_bytes() {
        assert_eq!(Tree::<Card>::BYTES_PER_NODE, 32);
    }

    #[test]
    fn expand_links_children_and_stops_at_capacity() {
        let mut tree = Tree::<u8>::new(4).unwrap();
        assert_eq!(tree.reset(1), 1);
        let t = tree.exclusive();
        let a = t.expand(NodeId(0), 10, 0, false, NodeId::NONE).unwrap();
        let b = t.expand(NodeId(0), 11, 1, false, a).unwrap();
        let c = t.expand(a, 12, 1, false, NodeId::NONE).unwrap();
        assert_eq!(t.expand(a, 13, 1, false, c), None, "full at 4 nodes");
        let moves: Vec<u8> = tree.children(NodeId(0)).map(|(_, n)| n.mv()).collect();
        assert_eq!(moves, vec![11, 10]);
        assert_eq!(tree.node(b).seat(), 1);
        assert_eq!(tree.children(a).next().unwrap().0, c);
        assert_eq!(tree.len(), 4);
        // Reset forgets everything.
        tree.reset(2);
        assert_eq!(tree.len(), 2);
        assert!(tree.node(NodeId(1)).first_child().is_none());
    }

    #[test]
    fn updates_accumulate_in_every_access_mode() {
        let mut tree = Tree::<u8>::new(8).unwrap();
        tree.reset(1);
        let e = tree.exclusive();
        let a = e.expand(NodeId(0), 1, 0, true, NodeId::NONE).unwrap();
        e.update(a, 1, 0.5, true);
        e.add_avail(a, 2);
        let s = tree.shared();
        s.add_virtual_loss(a);
        s.update(a, 2, 1.0, true);
        let l = tree.locked();
        l.lock(a);
        l.update(a, 1, 0.25, false);
        l.unlock(a);
        let n = tree.node(a);
        assert_eq!((n.visits(), n.avail(), n.virtual_loss()), (4, 3, 0));
        assert_eq!(n.reward(), 1.75);
    }

    #[test]
    fn concurrent_expansion_never_duplicates_a_move() {
        // Four threads race to add the same eight moves under one root, many times over.
        for _ in 0..200 {
            let mut tree = Tree::<u8>::new(64).unwrap();
            tree.reset(1);
            let t = tree.shared();
            std::thread::scope(|s| {
                for k in 0..4u8 {
                    s.spawn(move || {
                        for j in 0..8u8 {
                            let mv = (j + 2 * k) % 8;
                            let root = t.node(NodeId(0));
                            // Check-then-expand, as the walker does.
                            let head = root.first_child();
                            let existing = t
                                .tree()
                                .children(NodeId(0))
                                .find(|(_, n)| n.mv() == mv)
                                .map(|(id, _)| id);
                            let c = match existing {
                                Some(id) => {
                                    t.add_virtual_loss(id);
                                    id
                                }
                                None => t.expand(NodeId(0), mv, 0, true, head).unwrap(),
                            };
                            assert_eq!(t.node(c).mv(), mv);
                        }
                    });
                }
            });
            let mut moves: Vec<u8> = tree.children(NodeId(0)).map(|(_, n)| n.mv()).collect();
            let vl: u32 = tree
                .children(NodeId(0))
                .map(|(_, n)| n.virtual_loss())
                .sum();
            moves.sort();
            assert_eq!(moves, (0..8).collect::<Vec<_>>());
            assert_eq!(
                vl, 32,
                "each of the 32 expansions entered exactly one child"
            );
        }
    }

    #[test]
    fn capacity_is_checked() {
        assert!(Tree::<u8>::new(0).is_err());
        assert!(Tree::<u8>::new(u64::from(Tree::<u8>::MAX_CAPACITY) + 1).is_err());
    }
}
