//! The search tree: one preallocated arena of nodes addressed by [`NodeId`].
//!
//! Children hang off their parent as a singly linked list (first child, next sibling), so a node
//! is a fixed 32 bytes for card games (`Card` moves; see [`Tree::BYTES_PER_NODE`]) and expanding
//! never allocates. Every statistic is an atomic: a `TreeRef` handle decides how they are
//! updated. An `Exclusive` handle (from `&mut Tree`, one thread) uses plain load + store, which
//! compile to ordinary moves; a `Shared` handle (lock-free tree parallelism) uses atomic
//! read-modify-write and publishes new children with a compare-and-swap; a `Locked` handle
//! (the classic lock-per-node baseline) updates under each node's one-byte mutex.
//!
//! The node-level interface is crate-private: node ids are only sound to follow from a root
//! through published links of the same tree, which the search guarantees and outside code could
//! not.
//!
//! When the arena is full, `TreeRef::expand` returns `None` and the search carries on from the
//! leaf without expanding: a full tree degrades the search, it never aborts or reallocates.

use std::alloc::{Layout, alloc, dealloc};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};

use crossbeam::utils::CachePadded;
use parking_lot::RawMutex;
use parking_lot::lock_api::RawMutex as _;

use crate::game::Seat;

/// A handle to a node of one [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

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

/// How a node hangs in the tree: the move into it, who made it, and its links. Written when
/// the node is made; afterwards only `first_child` changes (a child is prepended), plus the
/// virtual-loss counter and the lock in the modes that use them.
///
/// Kept apart from the [`Stats`] that every pass writes, so the child-list walk of a scan, one
/// dependent load after another, runs through cache lines that other threads rarely write: in
/// a shared tree, a line another core wrote costs a transfer, and on this chain the transfers
/// cannot overlap. The statistics loads of a scan do not depend on one another and overlap.
#[repr(C)]
pub(crate) struct Links<M> {
    first_child: AtomicU32,
    next_sibling: AtomicU32,
    /// Threads currently below this node (tree parallelism with `virtual_loss` above 1).
    virtual_loss: AtomicU32,
    /// Only used by [`Locked`] handles.
    lock: RawMutex,
    /// The seat that made `mv` (meaningless at a root).
    seat: u8,
    /// The move into this node; `None` only at roots.
    mv: Option<M>,
}

/// A node's statistics, written by every iteration that passes through it.
///
/// Fields are atomics so one tree can be shared between threads; a single thread reads and
/// writes them with `Relaxed` loads and stores, which cost the same as plain fields.
#[repr(C, align(16))]
pub(crate) struct Stats {
    /// Sum of the rewards backed up through this node, for its seat, as `f64` bits.
    reward: AtomicU64,
    /// Completed visits.
    visits: AtomicU32,
    /// ISMCTS availability: times this node's move was legal when its parent was selected
    /// through (starts at 1 when the node is created, as in the reference). Children of a root
    /// keep it relative to the root's own counter; see [`Tree::availability`].
    avail: AtomicU32,
}

/// One node, seen through its two halves ([`Links`] and [`Stats`], kept in two arrays).
pub(crate) struct Node<'t, M> {
    links: &'t Links<M>,
    stats: &'t Stats,
}

impl<M> Clone for Node<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for Node<'_, M> {}

impl<M: std::fmt::Debug> std::fmt::Debug for Node<'_, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("mv", &self.links.mv)
            .field("seat", &self.links.seat)
            .field("visits", &self.stats.visits)
            .field("avail", &self.stats.avail)
            .field("reward", &f64::from_bits(self.stats.reward.load(Relaxed)))
            .field("virtual_loss", &self.links.virtual_loss)
            .finish()
    }
}

impl<'t, M: Copy> Node<'t, M> {
    /// The move into this node.
    ///
    /// # Panics
    /// At a root, which no move leads into.
    #[inline]
    pub(crate) fn mv(&self) -> M {
        match self.links.mv {
            Some(m) => m,
            None => panic!("a root node has no move"),
        }
    }

    /// The seat that made the move into this node.
    #[inline]
    pub(crate) fn seat(&self) -> Seat {
        self.links.seat as Seat
    }

    /// Completed visits.
    #[inline]
    pub(crate) fn visits(&self) -> u32 {
        self.stats.visits.load(Relaxed)
    }

    /// The raw availability field (ISMCTS); for a child of a root use
    /// [`Tree::availability`].
    #[inline]
    pub(crate) fn avail(&self) -> u32 {
        self.stats.avail.load(Relaxed)
    }

    /// Threads currently searching below this node.
    #[inline]
    pub(crate) fn virtual_loss(&self) -> u32 {
        self.links.virtual_loss.load(Relaxed)
    }

    /// Sum of backed-up rewards for [`Node::seat`].
    #[inline]
    pub(crate) fn reward(&self) -> f64 {
        f64::from_bits(self.stats.reward.load(Relaxed))
    }

    /// The first child, or [`NodeId::NONE`]. `Acquire` pairs with the `Release` that published
    /// it, so the child's fields are visible to a thread that did not write them.
    #[inline]
    pub(crate) fn first_child(&self) -> NodeId {
        NodeId(self.links.first_child.load(Acquire))
    }

    /// The next sibling, or [`NodeId::NONE`]. Written before the node is published, never after.
    #[inline]
    pub(crate) fn next_sibling(&self) -> NodeId {
        NodeId(self.links.next_sibling.load(Relaxed))
    }
}

/// The values a new node starts with.
struct NewNode<M> {
    mv: Option<M>,
    seat: Seat,
    next_sibling: NodeId,
    visits: u32,
    virtual_loss: u32,
    avail: u32,
}

impl<M> NewNode<M> {
    /// A fresh root.
    const ROOT: NewNode<M> = NewNode {
        mv: None,
        seat: 0,
        next_sibling: NodeId::NONE,
        visits: 0,
        virtual_loss: 0,
        avail: 0,
    };

    fn links(&self) -> Links<M>
    where
        M: Copy,
    {
        Links {
            first_child: AtomicU32::new(NodeId::NONE.0),
            next_sibling: AtomicU32::new(self.next_sibling.0),
            virtual_loss: AtomicU32::new(self.virtual_loss),
            lock: RawMutex::INIT,
            seat: self.seat as u8,
            mv: self.mv,
        }
    }

    fn stats(&self) -> Stats {
        Stats {
            reward: AtomicU64::new(0f64.to_bits()),
            visits: AtomicU32::new(self.visits),
            avail: AtomicU32::new(self.avail),
        }
    }
}

/// The cache line size the arena is laid out for.
const CACHE_LINE: usize = 64;

/// A preallocated arena of nodes with a fixed capacity: node `i` is entry `i` of two arrays,
/// its [`Links`] and its [`Stats`].
///
/// The memory is reserved once (`max_nodes × BYTES_PER_NODE`; the operating system commits pages
/// only as they are first written) and reused by every search: [`Tree::reset`] just rewinds the
/// bump pointer.
pub struct Tree<M> {
    links: NonNull<Links<M>>,
    stats: NonNull<Stats>,
    capacity: u32,
    /// Next free slot. May run past `capacity` by at most one block per racing thread (shared
    /// mode). On a cache line of its own: threads bump it while every node access reads `base`.
    len: CachePadded<AtomicU32>,
    roots: u32,
    /// Roots and their children sit on cache lines of their own (shared searches).
    padded: bool,
}

// SAFETY: every field reachable through `&Tree` is an atomic, a one-byte lock, or written once
// before it is published (see `Tree::write_slot`); the `Exclusive` handle that uses non-atomic
// read-modify-write can only be made from `&mut Tree`.
unsafe impl<M: Send + Sync> Send for Tree<M> {}
// SAFETY: as above.
unsafe impl<M: Send + Sync> Sync for Tree<M> {}

impl<M> Drop for Tree<M> {
    fn drop(&mut self) {
        let (links, stats) = Self::layouts(self.capacity);
        // SAFETY: allocated in `Tree::new` with these layouts; nodes need no drop (`M: Copy`).
        unsafe {
            dealloc(self.links.as_ptr().cast(), links);
            dealloc(self.stats.as_ptr().cast(), stats);
        }
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
    /// The largest capacity accepted (2^30 nodes, 32 GiB of address space for card games;
    /// searches size their arenas from the budget, see [`super::arena_size`]).
    pub const MAX_CAPACITY: u32 = 1 << 30;
    /// Bytes per node for this move type (32 for [`crate::Card`]: 16 of links, 16 of statistics).
    pub const BYTES_PER_NODE: usize =
        std::mem::size_of::<Links<M>>() + std::mem::size_of::<Stats>();

    /// The layouts of the links and statistics arrays, each starting on a cache line.
    fn layouts(capacity: u32) -> (Layout, Layout) {
        fn layout<T>(capacity: u32) -> Layout {
            let size = std::mem::size_of::<T>() * capacity as usize;
            let align = std::mem::align_of::<T>().max(CACHE_LINE);
            Layout::from_size_align(size, align).expect("capacity checked in Tree::new")
        }
        (layout::<Links<M>>(capacity), layout::<Stats>(capacity))
    }

    /// Nodes per cache line in both arrays when their entries tile lines exactly (4 for card
    /// games), else 1.
    const NODES_PER_LINE: u32 = {
        let links = std::mem::size_of::<Links<M>>();
        let stats = std::mem::size_of::<Stats>();
        if CACHE_LINE.is_multiple_of(links) && CACHE_LINE.is_multiple_of(stats) {
            let bigger = if links > stats { links } else { stats };
            (CACHE_LINE / bigger) as u32
        } else {
            1
        }
    };

    /// An empty arena for `capacity` nodes.
    pub fn new(capacity: u64) -> Result<Tree<M>, TreeError> {
        if capacity == 0 || capacity > Self::MAX_CAPACITY as u64 {
            return Err(TreeError::Capacity(capacity));
        }
        let capacity = capacity as u32;
        let (links_layout, stats_layout) = Self::layouts(capacity);
        // SAFETY: both layouts have non-zero size (neither half of a node is zero-sized).
        let links = NonNull::new(unsafe { alloc(links_layout) }.cast::<Links<M>>())
            .ok_or(TreeError::OutOfMemory(capacity))?;
        // SAFETY: as above.
        let Some(stats) = NonNull::new(unsafe { alloc(stats_layout) }.cast::<Stats>()) else {
            // SAFETY: allocated just above with this layout.
            unsafe { dealloc(links.as_ptr().cast(), links_layout) };
            return Err(TreeError::OutOfMemory(capacity));
        };
        Ok(Tree {
            links,
            stats,
            capacity,
            len: CachePadded::new(AtomicU32::new(0)),
            roots: 0,
            padded: false,
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

    /// True when an expansion found no room: the tree stopped growing during the search.
    pub fn is_full(&self) -> bool {
        self.len.load(Relaxed) >= self.capacity
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
    pub(crate) fn root(&self, r: u32) -> NodeId {
        debug_assert!(r < self.roots);
        NodeId(r)
    }
}

impl<M: Copy> Tree<M> {
    /// Forgets the previous search and makes `roots` fresh roots (ids `0..roots`). Returns the
    /// number actually made: at most the capacity.
    pub fn reset(&mut self, roots: u32) -> u32 {
        self.reset_for(roots, false)
    }

    /// [`Tree::reset`] for a search whose threads will share the tree: the roots and their
    /// children then get cache lines of their own, which costs a few slots.
    pub fn reset_shared(&mut self, roots: u32) -> u32 {
        self.reset_for(roots, true)
    }

    fn reset_for(&mut self, roots: u32, shared: bool) -> u32 {
        let roots = roots.min(self.capacity);
        for r in 0..roots {
            // SAFETY: `&mut self`: no other reference to any slot exists.
            unsafe { self.write_slot(r, &NewNode::ROOT) };
        }
        self.roots = roots;
        self.padded = shared;
        *self.len.get_mut() = if shared {
            // Every thread writes the roots: keep other nodes off their cache lines.
            roots
                .next_multiple_of(Self::NODES_PER_LINE)
                .min(self.capacity)
        } else {
            roots
        };
        roots
    }

    /// The node `id`, which must have been reached from a root through published links.
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> Node<'_, M> {
        debug_assert!(id.0 < self.len());
        // SAFETY: `id` came from a root or a published link, so its slot was fully written
        // (before the `Release` that published it) and is only changed through atomics since.
        unsafe {
            Node {
                links: &*self.links.as_ptr().add(id.index()),
                stats: &*self.stats.as_ptr().add(id.index()),
            }
        }
    }

    /// Sets the visit count of every root (for searches that do not count them as they go).
    pub(crate) fn set_root_visits(&mut self, visits: u64) {
        let visits = visits.min(u32::MAX as u64) as u32;
        for r in 0..self.roots {
            *self.stats_mut(NodeId(r)).visits.get_mut() = visits;
        }
    }

    fn stats_mut(&mut self, id: NodeId) -> &mut Stats {
        assert!(id.0 < self.len());
        // SAFETY: `&mut self`, and `id` is a written slot (a root, below `len`).
        unsafe { &mut *self.stats.as_ptr().add(id.index()) }
    }

    /// True when `id` is one of the roots.
    #[inline]
    pub(crate) fn is_root(&self, id: NodeId) -> bool {
        id.0 < self.roots
    }

    /// The ISMCTS availability of `id`, a child of `parent`.
    ///
    /// A root's legal moves are the observer's, the same in every world, so at a root every
    /// child is available whenever the root is selected through. The root therefore counts
    /// those selections in its own `avail` field (one update per iteration instead of one per
    /// child, which matters when threads share the root) and each child stores its count
    /// relative to that counter, offset when the child was created.
    #[inline]
    pub(crate) fn availability(&self, id: NodeId, parent: NodeId) -> u32 {
        let own = self.node(id).avail();
        if self.is_root(parent) {
            own.wrapping_add(self.node(parent).avail())
        } else {
            own
        }
    }

    /// The initial `avail` field of a new child of `parent`: availability 1.
    #[inline]
    fn initial_avail(&self, parent: NodeId) -> u32 {
        if self.is_root(parent) {
            1u32.wrapping_sub(self.node(parent).avail())
        } else {
            1
        }
    }

    /// Writes a whole node into slot `i`.
    ///
    /// # Safety
    /// `i < capacity`, and no other thread can reach slot `i`: it was just handed out by the
    /// bump allocator and not yet published, or the caller holds `&mut Tree`.
    #[inline]
    unsafe fn write_slot(&self, i: u32, node: &NewNode<M>) {
        debug_assert!(i < self.capacity);
        // SAFETY: guaranteed by the caller.
        unsafe {
            self.links.as_ptr().add(i as usize).write(node.links());
            self.stats.as_ptr().add(i as usize).write(node.stats());
        }
    }

    /// An exclusive handle: plain loads and stores, one thread.
    pub(crate) fn exclusive(&mut self) -> TreeRef<'_, M, Exclusive> {
        TreeRef {
            tree: self,
            _access: PhantomData,
        }
    }

    /// A handle for one of several threads sharing the tree ([`Shared`] or [`Locked`]).
    pub(crate) fn concurrent<A: Concurrent>(&self) -> TreeRef<'_, M, A> {
        TreeRef {
            tree: self,
            _access: PhantomData,
        }
    }

    /// A lock-free shared handle for tree parallelism.
    #[cfg(test)]
    pub(crate) fn shared(&self) -> TreeRef<'_, M, Shared> {
        self.concurrent()
    }

    /// A shared handle that serialises work at each node with the node's lock.
    #[cfg(test)]
    pub(crate) fn locked(&self) -> TreeRef<'_, M, Locked> {
        self.concurrent()
    }

    /// The children of `id`, in list order (most recently added first).
    pub(crate) fn children(&self, id: NodeId) -> Children<'_, M> {
        Children {
            tree: self,
            next: self.node(id).first_child(),
        }
    }
}

/// Iterator over the children of a node.
pub(crate) struct Children<'t, M> {
    tree: &'t Tree<M>,
    next: NodeId,
}

impl<'t, M: Copy> Iterator for Children<'t, M> {
    type Item = (NodeId, Node<'t, M>);

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
pub(crate) trait Access: sealed::Sealed + Copy + Send + Sync + 'static {
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

/// A thread's block of arena slots in a shared tree. Threads claim slots [`Slots::BLOCK`] at a
/// time, so expanding rarely touches the arena's shared bump pointer, and each thread's nodes
/// sit together in memory. A search leaves at most one partly used block per thread.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slots {
    next: u32,
    end: u32,
}

impl Slots {
    /// Slots claimed at once (1 KiB of card-game nodes).
    pub(crate) const BLOCK: u32 = 32;
}

/// How a thread marks the nodes on its path while its playout is in flight (tree modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Not at all (one thread, or `virtual_loss=0`).
    Unmarked,
    /// One unit in the node's virtual-loss counter, removed at backup.
    VirtualLoss,
    /// The visit counted on the way down, the reward added at backup: a virtual loss of exactly
    /// one with no counter to undo, which saves two atomic updates per node (`virtual_loss=1`).
    EarlyVisit,
}

/// The access disciplines that many threads may use at once.
pub(crate) trait Concurrent: Access {}
impl Concurrent for Shared {}
impl Concurrent for Locked {}

/// One thread owns the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exclusive;
/// Many threads, lock-free.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shared;
/// Many threads, one lock per node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Locked;

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

thread_local! {
    /// The node whose lock this thread holds in a `Locked` walk (`NodeId::NONE` when none).
    static HELD_LOCK: std::cell::Cell<u32> = const { std::cell::Cell::new(u32::MAX) };
}

/// A tree seen through one access discipline. `Exclusive` handles borrow the tree mutably, so
/// the cheap non-atomic updates can never race.
pub(crate) struct TreeRef<'t, M, A> {
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
    #[cfg(test)]
    pub(crate) fn tree(&self) -> &'t Tree<M> {
        self.tree
    }

    /// The node `id`.
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> Node<'t, M> {
        self.tree.node(id)
    }

    /// Takes `id`'s lock (`Locked` handles only; a no-op otherwise). The thread remembers it
    /// until [`TreeRef::unlock`], so a panic can release it ([`TreeRef::release_held_lock`]).
    #[inline]
    pub(crate) fn lock(&self, id: NodeId) {
        if A::LOCKED {
            self.node(id).links.lock.lock();
            HELD_LOCK.set(id.0);
        }
    }

    /// Releases `id`'s lock, which this thread must hold (`Locked` handles only).
    #[inline]
    pub(crate) fn unlock(&self, id: NodeId) {
        if A::LOCKED {
            HELD_LOCK.set(NodeId::NONE.0);
            // SAFETY: callers pair every `unlock` with their own earlier `lock`.
            unsafe { self.node(id).links.lock.unlock() };
        }
    }

    /// Releases the node lock this thread holds, if any: for a thread unwinding from a panic
    /// in the middle of a walk, so that the other threads, which may be waiting for that lock,
    /// can finish instead of waiting forever. A walk holds at most one lock at a time.
    pub(crate) fn release_held_lock(&self) {
        let held = HELD_LOCK.replace(NodeId::NONE.0);
        if A::LOCKED && held != NodeId::NONE.0 {
            // SAFETY: this thread took the lock (`lock` recorded it) and has not released it.
            unsafe { self.node(NodeId(held)).links.lock.unlock() };
        }
    }

    /// Adds `by` to the availability of `id` (for a root: of every child of the root).
    ///
    /// Always a plain load and store, even in lock-free shared trees: a selection step bumps
    /// every compatible child, and an atomic read-modify-write on each of those contended
    /// lines stalls the thread, where a store retires into the store buffer. Two threads that
    /// bump the same child at the same instant can lose one of the two increments; availability
    /// only scales the exploration term, so an occasional lost count is harmless, while visits
    /// and rewards stay exact.
    #[inline]
    pub(crate) fn add_avail(&self, id: NodeId, by: u32) {
        add_u32::<Exclusive>(&self.node(id).stats.avail, by);
    }

    /// Adds `by` passes to root `id`'s availability counter, exactly (an atomic add in shared
    /// trees: threads add their passes in batches, and a lost batch would be a visible error).
    #[inline]
    pub(crate) fn add_root_passes(&self, id: NodeId, by: u32) {
        debug_assert!(self.tree.is_root(id));
        let cell = &self.node(id).stats.avail;
        if A::ATOMIC_LINKS {
            // Also under `Locked`: the last batch is added after the walk, without the lock.
            cell.fetch_add(by, Relaxed);
        } else {
            add_u32::<A>(cell, by);
        }
    }

    /// Marks this thread as searching below `id`, as `entry` says.
    #[inline]
    pub(crate) fn enter(&self, id: NodeId, entry: Entry) {
        match entry {
            Entry::Unmarked => {}
            Entry::VirtualLoss => add_u32::<A>(&self.node(id).links.virtual_loss, 1),
            Entry::EarlyVisit => add_u32::<A>(&self.node(id).stats.visits, 1),
        }
    }

    /// Backs up `visits` playouts with total `reward` (for the node's seat) through a node this
    /// thread entered with `entry` (an early visit already counted one of the visits).
    #[inline]
    pub(crate) fn update(&self, id: NodeId, visits: u32, reward: f64, entry: Entry) {
        let n = self.node(id);
        let visits = visits - (entry == Entry::EarlyVisit) as u32;
        if visits > 0 {
            add_u32::<A>(&n.stats.visits, visits);
        }
        add_f64::<A>(&n.stats.reward, reward);
        if entry == Entry::VirtualLoss {
            sub_u32::<A>(&n.links.virtual_loss, 1);
        }
    }

    /// The child for `mv` that another thread linked under `parent` after `head`, entered as
    /// `entry`: when the arena is full, a child that exists is still worth descending into.
    fn linked_since(&self, parent: NodeId, mv: M, head: NodeId, entry: Entry) -> Option<NodeId> {
        let mut c = self.node(parent).first_child();
        while c != head {
            let n = self.node(c);
            if n.mv() == mv {
                self.enter(c, entry);
                return Some(c);
            }
            c = n.next_sibling();
        }
        None
    }

    /// Adds a child of `parent` for `mv`, made by `seat`, entered by this thread as `entry`
    /// says. `head` is the first child the caller saw when it checked that `mv` has no child
    /// yet. Returns the child, or `None` when the arena is full.
    ///
    /// With a `Shared` handle, another thread may have added the same move since `head` was
    /// read; then that child is returned (its virtual loss taken) and the slot just
    /// taken stays unused. `Locked` callers must hold `parent`'s lock. Shared handles take
    /// slots from this thread's block `slots`.
    #[inline]
    pub(crate) fn expand(
        &self,
        parent: NodeId,
        mv: M,
        seat: Seat,
        entry: Entry,
        head: NodeId,
        slots: &mut Slots,
    ) -> Option<NodeId> {
        let tree = self.tree;
        let (visits, vl) = match entry {
            Entry::Unmarked => (0, 0),
            Entry::VirtualLoss => (0, 1),
            Entry::EarlyVisit => (1, 0),
        };
        let p = tree.node(parent);
        let new = NewNode {
            mv: Some(mv),
            seat,
            next_sibling: head,
            visits,
            virtual_loss: vl,
            avail: tree.initial_avail(parent),
        };
        if !A::ATOMIC_LINKS {
            debug_assert_eq!(head, p.first_child());
            let i = tree.len.load(Relaxed);
            if i >= tree.capacity {
                return None;
            }
            tree.len.store(i + 1, Relaxed);
            // SAFETY: slot `i` is past every published node and this handle is exclusive.
            unsafe { tree.write_slot(i, &new) };
            p.links.first_child.store(i, Relaxed);
            return Some(NodeId(i));
        }
        let i = if tree.padded && tree.is_root(parent) {
            // Every thread updates the root's children: each gets its own cache line, so
            // threads under different root moves do not contend (a few slots per search).
            if tree.len.load(Relaxed) >= tree.capacity {
                return self.linked_since(parent, mv, head, entry);
            }
            let per_line = Tree::<M>::NODES_PER_LINE;
            tree.len
                .fetch_add(per_line, Relaxed)
                .next_multiple_of(per_line)
        } else {
            if slots.next == slots.end {
                // Checking first keeps `len` from creeping towards overflow once full.
                if tree.len.load(Relaxed) >= tree.capacity {
                    return self.linked_since(parent, mv, head, entry);
                }
                let start = tree.len.fetch_add(Slots::BLOCK, Relaxed);
                if start >= tree.capacity {
                    return self.linked_since(parent, mv, head, entry);
                }
                *slots = Slots {
                    next: start,
                    end: (start + Slots::BLOCK).min(tree.capacity),
                };
            }
            slots.next += 1;
            slots.next - 1
        };
        if i >= tree.capacity {
            return self.linked_since(parent, mv, head, entry);
        }
        let mut head = head;
        // SAFETY: `fetch_add` handed slot `i` to this thread alone; nothing links to it yet.
        unsafe { tree.write_slot(i, &new) };
        let me = tree.node(NodeId(i));
        loop {
            match p
                .links
                .first_child
                .compare_exchange(head.0, i, Release, Acquire)
            {
                Ok(_) => return Some(NodeId(i)),
                Err(seen) => {
                    // Someone linked children meanwhile: maybe our move.
                    let mut c = NodeId(seen);
                    while c != head {
                        let n = tree.node(c);
                        if n.mv() == mv {
                            self.enter(c, entry);
                            return Some(c);
                        }
                        c = n.next_sibling();
                    }
                    head = NodeId(seen);
                    me.links.next_sibling.store(seen, Relaxed);
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
        assert_eq!(std::mem::size_of::<Links<Card>>(), 16);
        assert_eq!(std::mem::size_of::<Stats>(), 16);
    }

    #[test]
    fn expand_links_children_and_stops_at_capacity() {
        let mut tree = Tree::<u8>::new(4).unwrap();
        assert_eq!(tree.reset(1), 1);
        let t = tree.exclusive();
        let a = t
            .expand(
                NodeId(0),
                10,
                0,
                Entry::Unmarked,
                NodeId::NONE,
                &mut Slots::default(),
            )
            .unwrap();
        let b = t
            .expand(NodeId(0), 11, 1, Entry::Unmarked, a, &mut Slots::default())
            .unwrap();
        let c = t
            .expand(
                a,
                12,
                1,
                Entry::Unmarked,
                NodeId::NONE,
                &mut Slots::default(),
            )
            .unwrap();
        assert_eq!(
            t.expand(a, 13, 1, Entry::Unmarked, c, &mut Slots::default()),
            None,
            "full at 4 nodes"
        );
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
        let a = e
            .expand(
                NodeId(0),
                1,
                0,
                Entry::VirtualLoss,
                NodeId::NONE,
                &mut Slots::default(),
            )
            .unwrap();
        e.update(a, 1, 0.5, Entry::VirtualLoss);
        e.add_avail(a, 2);
        let s = tree.shared();
        s.enter(a, Entry::VirtualLoss);
        s.update(a, 2, 1.0, Entry::VirtualLoss);
        s.enter(a, Entry::EarlyVisit);
        assert_eq!(
            tree.node(a).visits(),
            4,
            "an early visit counts on the way down"
        );
        s.update(a, 1, 0.0, Entry::EarlyVisit);
        let l = tree.locked();
        l.lock(a);
        l.update(a, 1, 0.25, Entry::Unmarked);
        l.unlock(a);
        let n = tree.node(a);
        assert_eq!((n.visits(), n.virtual_loss()), (5, 0));
        assert_eq!(tree.availability(a, NodeId(0)), 3);
        assert_eq!(n.reward(), 1.75);
    }

    #[test]
    fn concurrent_expansion_never_duplicates_a_move() {
        // Four threads race to add the same eight moves under one root, many times over.
        for _ in 0..200 {
            let mut tree = Tree::<u8>::new(128).unwrap();
            tree.reset_shared(1);
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
                                    t.enter(id, Entry::VirtualLoss);
                                    id
                                }
                                None => t
                                    .expand(
                                        NodeId(0),
                                        mv,
                                        0,
                                        Entry::VirtualLoss,
                                        head,
                                        &mut Slots::default(),
                                    )
                                    .unwrap(),
                            };
                            assert_eq!(t.node(c).mv(), mv);
                        }
                    });
                }
            });
            for (id, _) in tree.children(NodeId(0)) {
                assert_eq!(id.0 % 2, 0, "root children start cache lines");
            }
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
    fn root_children_count_availability_from_their_creation() {
        let mut tree = Tree::<u8>::new(8).unwrap();
        tree.reset(1);
        let root = NodeId(0);
        let t = tree.exclusive();
        let a = t
            .expand(
                root,
                1,
                0,
                Entry::Unmarked,
                NodeId::NONE,
                &mut Slots::default(),
            )
            .unwrap();
        let d = t
            .expand(
                a,
                9,
                1,
                Entry::Unmarked,
                NodeId::NONE,
                &mut Slots::default(),
            )
            .unwrap();
        t.add_avail(root, 1);
        let b = t
            .expand(root, 2, 0, Entry::Unmarked, a, &mut Slots::default())
            .unwrap();
        t.add_avail(root, 2);
        t.add_avail(d, 4);
        assert_eq!(tree.availability(a, root), 4);
        assert_eq!(tree.availability(b, root), 3);
        assert_eq!(
            tree.availability(d, a),
            5,
            "below the root, the node's own count"
        );
    }

    #[test]
    fn a_full_shared_tree_still_finds_a_child_linked_meanwhile() {
        // Room for the root's cache line and one root child's.
        let mut tree = Tree::<u8>::new(2 * Tree::<u8>::NODES_PER_LINE as u64).unwrap();
        tree.reset_shared(1);
        let t = tree.shared();
        let root = NodeId(0);
        // Both threads saw no child; the first links move 7 and fills the arena.
        let head = t.node(root).first_child();
        let a = t.expand(root, 7, 0, Entry::EarlyVisit, head, &mut Slots::default());
        assert!(a.is_some());
        let b = t.expand(root, 7, 0, Entry::EarlyVisit, head, &mut Slots::default());
        assert_eq!(b, a, "the second gets the child the first linked");
        assert_eq!(tree.node(a.unwrap()).visits(), 2, "both entered it");
        let t = tree.shared();
        let c = t.expand(root, 8, 0, Entry::EarlyVisit, head, &mut Slots::default());
        assert_eq!(c, None, "a new move does not fit");
    }

    #[test]
    fn capacity_is_checked() {
        assert!(Tree::<u8>::new(0).is_err());
        assert!(Tree::<u8>::new(u64::from(Tree::<u8>::MAX_CAPACITY) + 1).is_err());
    }
}
