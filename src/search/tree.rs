//! The search tree: one preallocated arena of nodes addressed by [`NodeId`].
//!
//! A node's children sit in one contiguous **block** of slots, allocated whole the first time
//! the node is expanded and sized by the moves that could ever be legal there (its `possible`
//! mask: for ISMCTS, every card the player to move could hold). The child for move `m` is slot
//! `block + rank of m in possible`, and the node keeps a mask of the moves that have a child
//! (`tried`). Masks are the game's [`MoveMask`] (through its move type, [`TreeMove`]): a `u64`
//! in card games, 256 bits in games with more moves (ASMACAG, Pentago-Swap), whose links entries
//! are then larger. So "untried legal moves" is one AND-NOT, "compatible children" is one AND, and the
//! selection scan reads exactly the compatible children at addresses it computes, with no chain
//! of dependent loads; cards of one suit are neighbours in the mask, so the children a
//! follow-suit rule leaves are neighbours in memory. Blocks are never moved, and a child's slot
//! is written before its bit is published, so threads that share the tree never see a
//! half-made child.
//!
//! Node `i` is entry `i` of two arrays of 16-byte entries: `Links` (the `tried` mask, the
//! block, the move; written when the node is made and when it gets children) and `Stats`
//! (written by every pass). A scan reads only the statistics of the compatible children, which
//! for one suit share one or two cache lines. The slot just before a block is its header: it
//! holds the block's `possible` mask, in its statistics entry when the mask fits in one word
//! (beside the children's statistics, which the scan reads anyway), else in its links entry's
//! `tried` field.
//!
//! Every statistic is an atomic: a `TreeRef` handle decides how they are updated. An
//! `Exclusive` handle (from `&mut Tree`, one thread) uses plain load + store, which compile to
//! ordinary moves; a `Shared` handle (lock-free tree parallelism) uses atomic read-modify-write;
//! a `Locked` handle (the classic lock-per-node baseline) updates under each node's one-byte
//! mutex.
//!
//! The node-level interface is crate-private: node ids are only sound to follow from a root
//! through published children of the same tree, which the search guarantees and outside code
//! could not.
//!
//! When the arena has no room for a block, `TreeRef::expand` returns `None` and the search
//! carries on from the leaf without expanding: a full tree degrades the search, it never aborts
//! or reallocates.

use std::alloc::{Layout, alloc, dealloc};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::*};

use crossbeam::utils::CachePadded;
use parking_lot::RawMutex;
use parking_lot::lock_api::RawMutex as _;

use crate::game::{Seat, TreeMove};
use crate::mask::{AtomicMask, MoveMask};

/// The move mask of move type `M`.
type Mask<M> = <M as TreeMove>::Mask;
/// Its atomic counterpart, as nodes store it.
type AtomicOf<M> = <Mask<M> as MoveMask>::Atomic;

/// A handle to a node of one [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// "No node".
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

/// How a node hangs in the tree: the move into it, who made it, and where its children are.
/// Written when the node is made; afterwards only its children (`tried`, and the block on the
/// first expansion) change, and the lock in the modes that use it.
///
/// Kept apart from the [`Stats`] that every pass writes: a scan reads the statistics of the
/// compatible children and the links of the one it descends into, and in a shared tree the
/// links lines stay clean in the other core's cache.
#[repr(C)]
pub(crate) struct Links<M: TreeMove> {
    /// Moves (bits of [`crate::game::MoveSet::bits`]) that have a child. A bit is set only
    /// after its child's slot is written (`Release`), and only by the thread that holds the
    /// node's expansion (its lock in shared trees).
    tried: AtomicOf<M>,
    /// The children block: its first slot, and in the top bits ([`SHIFT_BITS`]) log2 of the
    /// distance between consecutive children (see [`Tree::ROOT_STRIDE`]); 0 until the first
    /// expansion (slot 0 is always a root, never a child).
    block: AtomicU32,
    /// Used by [`Locked`] handles, and by [`Shared`] handles to make one child at a time.
    lock: RawMutex,
    /// The seat that made `mv` (meaningless at a root) in the low two bits; above them, the
    /// children made before this one under the same parent, at most [`MAX_BIRTH`]: selection
    /// breaks ties between equal scores in favour of the child made last (of the children made
    /// after the 63rd, which only games with more than 64 moves have, the one with the lowest
    /// move bit).
    seat_birth: u8,
    /// The move into this node; `None` only at roots.
    mv: Option<M>,
}

/// Where [`Links::block`] keeps the stride's log2: above every slot index
/// ([`Tree::MAX_CAPACITY`] is 2^30).
const SHIFT_BITS: u32 = 30;
/// Bits of [`Links::seat_birth`] that hold the seat ([`crate::game::MAX_SEATS`] is 4).
const SEAT_BITS: u32 = 2;
/// The largest birth count [`Links::seat_birth`] holds: enough for 64 children. A wider node's
/// later children share it (a byte keeps the card games' links entries at 16 bytes).
const MAX_BIRTH: u32 = (1 << (8 - SEAT_BITS)) - 1;

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
pub(crate) struct Node<'t, M: TreeMove> {
    links: &'t Links<M>,
    stats: &'t Stats,
}

impl<M: TreeMove> Clone for Node<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: TreeMove> Copy for Node<'_, M> {}

impl<M: TreeMove + std::fmt::Debug> std::fmt::Debug for Node<'_, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("mv", &self.links.mv)
            .field("seat_birth", &self.links.seat_birth)
            .field("visits", &self.stats.visits)
            .field("avail", &self.stats.avail)
            .field("reward", &f64::from_bits(self.stats.reward.load(Relaxed)))
            .field(
                "tried",
                &format_args!("{:#x?}", self.links.tried.load(Relaxed)),
            )
            .finish()
    }
}

/// Where a node's children are: slot `start + (rank of the move in possible << shift)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block<K> {
    start: u32,
    possible: K,
    shift: u32,
}

impl<K: MoveMask> Block<K> {
    /// The block as its header has it, when a walk's possible moves differ (kept out of line:
    /// the comparison must stay a predicted branch, not a data dependency). Within one search
    /// they never differ; a node grafted from an earlier search (tree reuse) was made when the
    /// seat knew less, so its block may have room for more moves than the walk now thinks
    /// possible, never fewer.
    #[cold]
    #[inline(never)]
    fn mismatch(start: u32, stored: K, walk: K, shift: u32) -> Block<K> {
        debug_assert!(
            walk.and_not(stored).is_empty(),
            "possible_moves has a move its node's block lacks: {walk:?} against {stored:?}"
        );
        Block {
            start,
            possible: stored,
            shift,
        }
    }

    /// The moves this block has slots for.
    #[inline]
    pub(crate) fn possible(&self) -> K {
        self.possible
    }

    /// The slot of the child for move bit `bit`, which must be in [`Block::possible`].
    #[inline]
    pub(crate) fn child(&self, bit: u32) -> NodeId {
        debug_assert!(self.possible.has(bit));
        NodeId(self.start + (self.possible.rank(bit) << self.shift))
    }
}

impl<'t, M: TreeMove> Node<'t, M> {
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
        (self.links.seat_birth & ((1 << SEAT_BITS) - 1)) as Seat
    }

    /// Children made under the same parent before this one.
    #[inline]
    pub(crate) fn birth(&self) -> u8 {
        self.links.seat_birth >> SEAT_BITS
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

    /// Sum of backed-up rewards for [`Node::seat`].
    #[inline]
    pub(crate) fn reward(&self) -> f64 {
        f64::from_bits(self.stats.reward.load(Relaxed))
    }

    /// The moves that have a child. `Acquire` pairs with the `Release` that published each
    /// child, so its slot is visible to a thread that did not write it.
    #[inline]
    pub(crate) fn tried(&self) -> Mask<M> {
        self.links.tried.load(Acquire)
    }
}

/// The values a new node starts with.
struct NewNode<M> {
    mv: Option<M>,
    seat: Seat,
    birth: u8,
    visits: u32,
    avail: u32,
}

impl<M> NewNode<M> {
    /// A fresh root.
    const ROOT: NewNode<M> = NewNode {
        mv: None,
        seat: 0,
        birth: 0,
        visits: 0,
        avail: 0,
    };

    fn links(&self) -> Links<M>
    where
        M: TreeMove,
    {
        debug_assert!(self.seat < 1 << SEAT_BITS && self.birth as u32 <= MAX_BIRTH);
        Links {
            tried: AtomicOf::<M>::new(Mask::<M>::EMPTY),
            block: AtomicU32::new(0),
            lock: RawMutex::INIT,
            seat_birth: self.seat as u8 | self.birth << SEAT_BITS,
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
/// its `Links` and its `Stats`.
///
/// The memory is reserved once (`max_nodes × BYTES_PER_NODE`; the operating system commits pages
/// only as they are first written) and reused by every search: [`Tree::reset`] just rewinds the
/// bump pointer. Capacity counts slots: a node's children block takes a slot for every move that
/// could be legal there, made into a child or not.
pub struct Tree<M: TreeMove> {
    links: NonNull<Links<M>>,
    stats: NonNull<Stats>,
    capacity: u32,
    /// Next free slot. May run past `capacity` by at most one chunk per racing thread (shared
    /// mode). On a cache line of its own: threads bump it while every node access reads `base`.
    len: CachePadded<AtomicU32>,
    /// Set when a request for slots found no room (read by [`Tree::is_full`]): `len` reaching
    /// the capacity does not say it, since a thread's last chunk may be cut short by the
    /// capacity and still serve every expansion asked of it.
    full: AtomicBool,
    roots: u32,
    /// Roots and their children sit on cache lines of their own (shared searches).
    padded: bool,
}

// SAFETY: every field reachable through `&Tree` is an atomic, a one-byte lock, or written once
// before it is published (see `Tree::write_slot`); the `Exclusive` handle that uses non-atomic
// read-modify-write can only be made from `&mut Tree`.
unsafe impl<M: TreeMove + Send + Sync> Send for Tree<M> {}
// SAFETY: as above.
unsafe impl<M: TreeMove + Send + Sync> Sync for Tree<M> {}

impl<M: TreeMove> Drop for Tree<M> {
    fn drop(&mut self) {
        let (links, stats) = Self::layouts(self.capacity);
        // SAFETY: allocated in `Tree::new` with these layouts; nodes need no drop (`M: Copy`).
        unsafe {
            dealloc(self.links.as_ptr().cast(), links);
            dealloc(self.stats.as_ptr().cast(), stats);
        }
    }
}

impl<M: TreeMove> std::fmt::Debug for Tree<M> {
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
    #[error("max_nodes={0} is out of range (1 to {max})", max = MAX_CAPACITY)]
    Capacity(u64),
    /// The allocator refused the arena.
    #[error("cannot allocate a tree of {0} nodes")]
    OutOfMemory(u32),
}

/// [`Tree::MAX_CAPACITY`], for every move type.
pub(crate) const MAX_CAPACITY: u32 = 1 << SHIFT_BITS;

impl<M: TreeMove> Tree<M> {
    /// The largest capacity accepted (2^30 slots, 32 GiB of address space for card games;
    /// searches size their arenas from the budget, see [`super::arena_size`]).
    pub const MAX_CAPACITY: u32 = MAX_CAPACITY;
    /// Bytes per slot for this move type (32 for [`crate::Card`]: 16 of links, 16 of
    /// statistics).
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

    /// The most children a block has: one per bit of the move mask (64 in card games).
    const MAX_CHILDREN: u64 = Mask::<M>::BITS as u64;

    /// The most slots one iteration can take: it makes at most one children block (a header
    /// and a slot per possible move, at most `Tree::MAX_CHILDREN`), and in a shared tree a
    /// block that does not fit in what is left of its thread's chunk leaves that rest unused
    /// (less than the block).
    pub const MAX_SLOTS_PER_ITERATION: u64 = 2 * (1 + Self::MAX_CHILDREN);

    /// The most slots a root takes beyond [`Tree::MAX_SLOTS_PER_ITERATION`]: itself and its
    /// alignment, and in a shared tree the padding of its children (a cache line each, see
    /// `Tree::ROOT_STRIDE`) and the rest of the chunk its block did not fit in.
    pub const MAX_SLOTS_PER_ROOT: u64 =
        Self::ROOT_STRIDE as u64 * (1 + Self::MAX_CHILDREN) + Slots::CHUNK as u64;

    /// The most slots a thread of a shared tree claims and leaves unused: one partly used
    /// chunk.
    pub const MAX_SLOTS_PER_THREAD: u64 = Slots::CHUNK as u64;

    /// Slots between consecutive root children in a shared search (and the alignment of the
    /// roots): enough that each root child's entries in both arrays have cache lines of their
    /// own, so threads under different root moves do not contend (4 for card games). 1 when
    /// the entries do not tile cache lines.
    const ROOT_STRIDE: u32 = {
        let links = std::mem::size_of::<Links<M>>();
        let stats = std::mem::size_of::<Stats>();
        if CACHE_LINE.is_multiple_of(links) && CACHE_LINE.is_multiple_of(stats) {
            let smaller = if links < stats { links } else { stats };
            (CACHE_LINE / smaller) as u32
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
            full: AtomicBool::new(false),
            roots: 0,
            padded: false,
        })
    }

    /// The most slots this arena holds.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Slots in use (roots included): the nodes made plus the unused slots of their parents'
    /// children blocks.
    pub fn len(&self) -> u32 {
        self.len.load(Relaxed).min(self.capacity)
    }

    /// True when an expansion found no room: the tree stopped growing during the search.
    pub fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Records that a request for slots found no room, and answers it.
    #[cold]
    fn no_room(&self) -> Option<u32> {
        if !self.full.load(Relaxed) {
            self.full.store(true, Relaxed);
        }
        None
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

impl<M: TreeMove> Tree<M> {
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
        *self.full.get_mut() = false;
        *self.len.get_mut() = if shared {
            // Every thread writes the roots: keep other nodes off their cache lines.
            roots.next_multiple_of(Self::ROOT_STRIDE).min(self.capacity)
        } else {
            roots
        };
        roots
    }

    /// The children block of `node`, if it has been expanded. `Acquire` pairs with the
    /// `Release` that published the block after writing its header.
    #[inline]
    pub(crate) fn block(&self, node: Node<'_, M>) -> Option<Block<Mask<M>>> {
        let word = node.links.block.load(Acquire);
        if word == 0 {
            return None;
        }
        let start = word & ((1 << SHIFT_BITS) - 1);
        Some(Block {
            start,
            possible: self.header(start).load(Relaxed),
            shift: word >> SHIFT_BITS,
        })
    }

    /// [`Tree::block`] for a walk that has worked out the node's possible moves itself (they
    /// are the same at every visit): the child slots are computed from `possible`, without
    /// waiting for the header load, which only confirms it. A game whose possible moves are
    /// not the same at every visit (a bug, which debug builds report) gets the header's.
    #[inline]
    pub(crate) fn block_of(&self, node: Node<'_, M>, possible: Mask<M>) -> Option<Block<Mask<M>>> {
        let word = node.links.block.load(Acquire);
        if word == 0 {
            return None;
        }
        let start = word & ((1 << SHIFT_BITS) - 1);
        let stored = self.header(start).load(Relaxed);
        let shift = word >> SHIFT_BITS;
        if stored != possible {
            return Some(Block::mismatch(start, stored, possible, shift));
        }
        Some(Block {
            start,
            possible,
            shift,
        })
    }

    /// True when a mask fits in the first word of a statistics entry.
    const HEADER_IN_STATS: bool = std::mem::size_of::<AtomicOf<M>>()
        <= std::mem::size_of::<AtomicU64>()
        && std::mem::align_of::<AtomicOf<M>>() <= std::mem::align_of::<Stats>();

    /// The `possible` mask of the block that starts at slot `start`, kept in the slot before
    /// it, which no node uses: in the first word of its statistics entry when the mask fits
    /// there, else in its links entry's `tried` field.
    #[inline]
    fn header(&self, start: u32) -> &AtomicOf<M> {
        debug_assert!(start >= 1 && start <= self.len());
        let slot = start as usize - 1;
        // SAFETY: `slot` is below `len`, taken with the block and never a node. In the first
        // case the mask's atomic is no larger and no more aligned than the `AtomicU64` at the
        // start of the statistics entry (checked by `HEADER_IN_STATS`), and that word is only
        // used as this atomic; in the second, the links entry's `tried` field has the type.
        unsafe {
            if Self::HEADER_IN_STATS {
                let word = &raw const (*self.stats.as_ptr().add(slot)).reward;
                &*word.cast::<AtomicOf<M>>()
            } else {
                &(*self.links.as_ptr().add(slot)).tried
            }
        }
    }

    /// The node `id`, which must have been reached from a root through published children.
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> Node<'_, M> {
        debug_assert!(id.0 < self.len());
        // SAFETY: `id` came from a root or a published child, so its slot was fully written
        // (before the `Release` that published it) and is only changed through atomics since.
        unsafe {
            Node {
                links: &*self.links.as_ptr().add(id.index()),
                stats: &*self.stats.as_ptr().add(id.index()),
            }
        }
    }

    /// Adds `visits` to the visit count of every root (for searches that do not count them as
    /// they go): a fresh root then holds the search's iterations, and a grafted one (tree reuse)
    /// the kept node's visits too, at least what its children hold between them (children of
    /// moves no longer legal were not kept).
    pub(crate) fn add_root_visits(&mut self, visits: u64) {
        for r in 0..self.roots {
            let count = self.stats_mut(NodeId(r)).visits.get_mut();
            *count = (u64::from(*count) + visits).min(u32::MAX as u64) as u32;
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
    /// `i < capacity`, and no other thread can reach slot `i`: it is in a block whose owner
    /// has not published it as a child, or the caller holds `&mut Tree`.
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

    /// The children of `id`, in move-bit order.
    pub(crate) fn children(&self, id: NodeId) -> Children<'_, M> {
        let n = self.node(id);
        Children {
            tree: self,
            left: n.tried(),
            block: self.block(n),
        }
    }
}

/// Iterator over the children of a node.
pub(crate) struct Children<'t, M: TreeMove> {
    tree: &'t Tree<M>,
    left: Mask<M>,
    block: Option<Block<Mask<M>>>,
}

impl<'t, M: TreeMove> Iterator for Children<'t, M> {
    type Item = (NodeId, Node<'t, M>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let bit = self.left.pop_lowest()?;
        let id = self.block?.child(bit);
        Some((id, self.tree.node(id)))
    }
}

/// How a [`TreeRef`] touches shared state. Sealed: [`Exclusive`], [`Shared`] and [`Locked`].
pub(crate) trait Access: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Statistics use atomic read-modify-write (else load + store, which is only correct
    /// when one thread owns the node: the whole tree, or the node's lock).
    const ATOMIC_STATS: bool;
    /// Blocks come from shared chunks, and a node's children are made under its lock.
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

/// A thread's chunk of arena slots in a shared tree. Threads claim slots a chunk at a time, so
/// making children blocks rarely touches the arena's shared bump pointer, and each thread's
/// blocks sit together in memory. A search leaves at most one partly used chunk per thread,
/// and a block that does not fit in what is left of a chunk leaves that rest unused.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slots {
    next: u32,
    end: u32,
}

impl Slots {
    /// Slots claimed at once (8 KiB of card-game slots; a card game's block has at most 65, a
    /// wide game's may be larger than a chunk and then gets a chunk of its own size).
    pub(crate) const CHUNK: u32 = 256;
}

/// How a thread marks the nodes on its path while its playout is in flight (tree modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Not at all (one thread, or `virtual_loss=0`).
    Unmarked,
    /// Virtual loss `V`: `V` visits counted on the way down, the reward and `1 - V` more visits
    /// added at backup. While the playout is in flight the node shows `V` more visits and the
    /// same reward (`V` losses), and afterwards exactly one more visit, with no counter to
    /// undo.
    Early(u32),
}

/// The access disciplines that many threads may use at once.
pub(crate) trait Concurrent: Access {}
impl Concurrent for Shared {}
impl Concurrent for Locked {}

/// One thread owns the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exclusive;
/// Many threads, lock-free statistics.
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
pub(crate) struct TreeRef<'t, M: TreeMove, A> {
    tree: &'t Tree<M>,
    _access: PhantomData<A>,
}

impl<M: TreeMove, A> Clone for TreeRef<'_, M, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: TreeMove, A> Copy for TreeRef<'_, M, A> {}

#[inline]
fn add_u32<A: Access>(cell: &AtomicU32, by: u32) {
    if A::ATOMIC_STATS {
        cell.fetch_add(by, Relaxed);
    } else {
        cell.store(cell.load(Relaxed).wrapping_add(by), Relaxed);
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

impl<'t, M: TreeMove + PartialEq, A: Access> TreeRef<'t, M, A> {
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

    /// The children block of `node`, if it has one, given its possible moves (see
    /// [`Tree::block_of`]).
    #[inline]
    pub(crate) fn block_of(&self, node: Node<'t, M>, possible: Mask<M>) -> Option<Block<Mask<M>>> {
        self.tree.block_of(node, possible)
    }

    /// The children block of `node`, if it has one (see [`Tree::block`]).
    #[inline]
    pub(crate) fn block(&self, node: Node<'t, M>) -> Option<Block<Mask<M>>> {
        self.tree.block(node)
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

    /// Adds `by` to the availability of `id` and returns the new value.
    ///
    /// Always a plain load and store, even in lock-free shared trees: a selection step bumps
    /// every compatible child, and an atomic read-modify-write on each of those contended
    /// lines stalls the thread, where a store retires into the store buffer. Two threads that
    /// bump the same child at the same instant can lose one of the two increments; availability
    /// only scales the exploration term, so an occasional lost count is harmless, while visits
    /// and rewards stay exact.
    #[inline]
    pub(crate) fn add_avail(&self, node: Node<'t, M>, by: u32) -> u32 {
        let avail = node.avail().wrapping_add(by);
        node.stats.avail.store(avail, Relaxed);
        avail
    }

    /// Adds `by` passes to root `id`'s availability counter, exactly (an atomic add in shared
    /// trees: threads add their passes in batches, and a lost batch would be a visible error).
    #[inline]
    pub(crate) fn add_root_passes(&self, id: NodeId, by: u32) {
        debug_assert!(self.tree.is_root(id));
        self.add_avail_batch(id, by);
    }

    /// Adds a batch of `by` to `id`'s availability exactly, unlike [`Self::add_avail`]: the
    /// held rows of the lock-free walk flush up to `root_batch` passes at once, and threads
    /// flush in step, so a plain store could lose a whole batch, not one count.
    #[inline]
    pub(crate) fn add_avail_batch(&self, id: NodeId, by: u32) {
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
        if let Entry::Early(v) = entry {
            add_u32::<A>(&self.node(id).stats.visits, v);
        }
    }

    /// Backs up `visits` playouts with total `reward` (for the node's seat) through a node this
    /// thread entered with `entry` (early visits already counted are taken back).
    #[inline]
    pub(crate) fn update(&self, id: NodeId, visits: u32, reward: f64, entry: Entry) {
        let n = self.node(id);
        let visits = match entry {
            Entry::Unmarked => visits,
            Entry::Early(v) => visits.wrapping_sub(v),
        };
        if visits != 0 {
            add_u32::<A>(&n.stats.visits, visits);
        }
        add_f64::<A>(&n.stats.reward, reward);
    }

    /// Takes `count` consecutive slots, the first `offset` before a multiple of `align`, or
    /// `None` when the arena has no room. Shared handles carve them from this thread's chunk
    /// `slots`.
    #[inline]
    fn take_slots(&self, count: u32, align: u32, offset: u32, slots: &mut Slots) -> Option<u32> {
        let tree = self.tree;
        let place = |from: u32| (from + offset).next_multiple_of(align) - offset;
        if !A::ATOMIC_LINKS {
            let first = place(tree.len.load(Relaxed));
            match first.checked_add(count) {
                Some(end) if end <= tree.capacity => {
                    tree.len.store(end, Relaxed);
                    return Some(first);
                }
                // Full: the tree stops growing here, as a shared tree's does (whose claims
                // have taken the rest), and `is_full` says so.
                _ => {
                    tree.len.store(tree.capacity, Relaxed);
                    return tree.no_room();
                }
            }
        }
        let first = place(slots.next);
        if first < slots.end && slots.end - first >= count {
            slots.next = first + count;
            return Some(first);
        }
        // A fresh chunk; checking first keeps `len` from creeping towards overflow once full.
        if tree.len.load(Relaxed) >= tree.capacity {
            return tree.no_room();
        }
        let want = Slots::CHUNK.max(count + align - 1);
        let chunk = tree.len.fetch_add(want, Relaxed);
        let end = chunk.saturating_add(want).min(tree.capacity);
        let first = place(chunk);
        if first >= end || end - first < count {
            return tree.no_room();
        }
        *slots = Slots {
            next: first + count,
            end,
        };
        Some(first)
    }

    /// Makes the child of `parent` for `mv` (move bit `bit`), made by `seat`, entered by this
    /// thread as `entry` says. `possible` is the parent's [`Block::possible`] mask, or the moves
    /// that could ever be legal at `parent` if it has no block yet (then the block is allocated
    /// here, sized by it). Returns the child, or `None` when the arena has no room for the
    /// block.
    ///
    /// The caller saw no child for `mv`. With a `Shared` handle another thread may have made it
    /// since; then that child is entered and returned. `Locked` callers must hold `parent`'s
    /// lock; `Shared` handles take it here, only for this, waiting while another thread holds
    /// it. Shared handles take slots from this thread's chunk `slots`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn expand(
        &self,
        parent: NodeId,
        mv: M,
        bit: u32,
        seat: Seat,
        entry: Entry,
        possible: Mask<M>,
        slots: &mut Slots,
    ) -> Option<NodeId> {
        let p = self.node(parent);
        // In shared trees a node's children are made one at a time, under its lock. A thread
        // that finds it held waits (making a child takes nanoseconds) rather than giving up:
        // giving up ended its walk above the child, so the iteration never reached the root's
        // statistics and a root's visits fell short of the iterations done.
        let take_lock = A::ATOMIC_LINKS && !A::LOCKED;
        if take_lock {
            p.links.lock.lock();
        }
        let child = self.make_child(p, parent, mv, bit, seat, entry, possible, slots);
        if take_lock {
            // SAFETY: taken just above.
            unsafe { p.links.lock.unlock() };
        }
        child
    }

    /// [`TreeRef::expand`] once this thread is the only one making children of `parent`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn make_child(
        &self,
        p: Node<'t, M>,
        parent: NodeId,
        mv: M,
        bit: u32,
        seat: Seat,
        entry: Entry,
        possible: Mask<M>,
        slots: &mut Slots,
    ) -> Option<NodeId> {
        let tried = p.links.tried.load(Acquire);
        let block = match self.tree.block_of(p, possible) {
            Some(block) => block,
            None => {
                // Every thread of a shared tree writes the root's children: in a shared search
                // each gets cache lines of its own.
                let (shift, align) = if self.tree.padded && self.tree.is_root(parent) {
                    let stride = Tree::<M>::ROOT_STRIDE;
                    (stride.trailing_zeros(), stride)
                } else {
                    (0, 1)
                };
                // The header slot, then the children from an aligned slot.
                let first = self.take_slots(1 + (possible.count() << shift), align, 1, slots)?;
                let start = first + 1;
                // Read only after the `Release` below publishes the block.
                self.tree.header(start).store(possible, Relaxed);
                p.links.block.store(start | shift << SHIFT_BITS, Release);
                Block {
                    start,
                    possible,
                    shift,
                }
            }
        };
        // A move outside the block (a game whose `possible_moves` misses a legal move, a bug
        // debug builds report) has no slot: its rank would name a sibling's or one past the
        // block. The walk plays out from the parent instead, as when the arena is full.
        if !block.possible.has(bit) {
            return None;
        }
        let id = block.child(bit);
        if tried.has(bit) {
            // Another thread made it after the caller looked.
            self.enter(id, entry);
            return Some(id);
        }
        let new = NewNode {
            mv: Some(mv),
            seat,
            birth: tried.count().min(MAX_BIRTH) as u8,
            visits: match entry {
                Entry::Unmarked => 0,
                Entry::Early(v) => v,
            },
            avail: self.tree.initial_avail(parent),
        };
        // SAFETY: `id` is in `parent`'s block and its bit is not published, and this thread
        // alone makes children of `parent`: nobody else can reach the slot.
        unsafe { self.tree.write_slot(id.0, &new) };
        p.links.tried.store(tried.with(bit), Release);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::mask::Wide;

    /// Test moves: a byte, its own bit.
    impl TreeMove for u8 {
        type Mask = u64;
        fn bit(self) -> u32 {
            self as u32
        }
        fn from_bit(bit: u32) -> u8 {
            bit as u8
        }
    }

    /// Test moves of a game with more than 64 moves.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct WideMove(u8);

    impl TreeMove for WideMove {
        type Mask = Wide;
        fn bit(self) -> u32 {
            self.0 as u32
        }
        fn from_bit(bit: u32) -> WideMove {
            WideMove(bit as u8)
        }
    }

    fn wide(bits: impl IntoIterator<Item = u8>) -> Wide {
        bits.into_iter().fold(Wide::EMPTY, |m, b| m.with(b as u32))
    }

    #[test]
    fn a_wide_node_indexes_children_past_bit_64() {
        let mut tree = Tree::<WideMove>::new(1024).unwrap();
        tree.reset(1);
        let root = NodeId(0);
        let possible = wide((0..=255).step_by(3)); // 86 moves: 0, 3, ..., 255
        let s = &mut Slots::default();
        let mut made = Vec::new();
        for mv in [255u8, 3, 129, 0, 66] {
            let t = tree.exclusive();
            let id = t
                .expand(
                    root,
                    WideMove(mv),
                    mv as u32,
                    1,
                    Entry::Unmarked,
                    possible,
                    s,
                )
                .unwrap();
            assert_eq!(id, NodeId(2 + mv as u32 / 3), "slot = rank in possible");
            made.push(id);
        }
        assert_eq!(tree.len(), 2 + 86, "header and the whole block");
        assert_eq!(tree.node(root).tried(), wide([0, 3, 66, 129, 255]));
        assert_eq!(tree.block(tree.node(root)).unwrap().possible(), possible);
        let moves: Vec<u8> = tree.children(root).map(|(_, n)| n.mv().0).collect();
        assert_eq!(moves, [0, 3, 66, 129, 255], "move-bit order");
        // Births count up to MAX_BIRTH and then stay there.
        let births: Vec<u8> = made.iter().map(|&id| tree.node(id).birth()).collect();
        assert_eq!(births, [0, 1, 2, 3, 4]);
        let t = tree.exclusive();
        for mv in (6..=252u8).step_by(3).filter(|m| ![66, 129].contains(m)) {
            t.expand(
                root,
                WideMove(mv),
                mv as u32,
                1,
                Entry::Unmarked,
                possible,
                s,
            )
            .unwrap();
        }
        let last = tree.block(tree.node(root)).unwrap().child(252);
        assert_eq!(tree.node(last).birth() as u32, MAX_BIRTH);
        assert_eq!(tree.children(root).count(), 86);
        // A grandchild's block comes after the root's; its header does not disturb the root's.
        let t = tree.exclusive();
        let g = t
            .expand(
                made[0],
                WideMove(7),
                7,
                0,
                Entry::Unmarked,
                wide([7, 200]),
                s,
            )
            .unwrap();
        assert_eq!(g, NodeId(2 + 86 + 1));
        assert_eq!(tree.block(tree.node(root)).unwrap().possible(), possible);
        assert_eq!(
            tree.block(tree.node(made[0])).unwrap().possible(),
            wide([7, 200])
        );
    }

    #[test]
    fn concurrent_expansion_of_a_wide_node_never_duplicates_a_move() {
        // Four threads race to add 200 moves spread over all four words of the mask.
        let moves: Vec<u8> = (0..200u8)
            .map(|k| k.wrapping_mul(37).wrapping_add(11))
            .collect();
        let possible = wide(moves.iter().copied());
        for _ in 0..20 {
            let mut tree = Tree::<WideMove>::new(8192).unwrap();
            tree.reset_shared(1);
            let t = tree.shared();
            let root = NodeId(0);
            std::thread::scope(|scope| {
                for k in 0..4usize {
                    let moves = &moves;
                    scope.spawn(move || {
                        let slots = &mut Slots::default();
                        for j in 0..moves.len() {
                            let mv = moves[(j + 50 * k) % moves.len()];
                            let n = t.node(root);
                            let c = if n.tried().has(mv as u32) {
                                t.tree().block(n).unwrap().child(mv as u32)
                            } else {
                                t.expand(
                                    root,
                                    WideMove(mv),
                                    mv as u32,
                                    1,
                                    Entry::Early(1),
                                    possible,
                                    slots,
                                )
                                .unwrap()
                            };
                            assert_eq!(t.node(c).mv(), WideMove(mv));
                        }
                    });
                }
            });
            let mut made: Vec<u8> = tree.children(root).map(|(_, n)| n.mv().0).collect();
            made.sort();
            let mut want = moves.clone();
            want.sort();
            assert_eq!(made, want);
            assert_eq!(tree.node(root).tried(), possible);
        }
    }

    /// Makes the child for move `mv` (its own bit) of `parent`, whose possible moves are
    /// `possible`, as the walker does.
    fn child<A: Access>(
        t: TreeRef<'_, u8, A>,
        parent: NodeId,
        mv: u8,
        possible: u64,
        entry: Entry,
        slots: &mut Slots,
    ) -> Option<NodeId> {
        t.expand(parent, mv, mv as u32, 1, entry, possible, slots)
    }

    #[test]
    fn a_card_node_is_32_bytes() {
        assert_eq!(Tree::<Card>::BYTES_PER_NODE, 32);
        assert_eq!(std::mem::size_of::<Links<Card>>(), 16);
        assert_eq!(std::mem::size_of::<Stats>(), 16);
        assert_eq!(Tree::<Card>::ROOT_STRIDE, 4);
    }

    #[test]
    fn children_share_one_block_indexed_by_move_rank() {
        let mut tree = Tree::<u8>::new(16).unwrap();
        assert_eq!(tree.reset(1), 1);
        let root = NodeId(0);
        let possible = 0b1011_0100u64; // moves 2, 4, 5, 7
        let t = tree.exclusive();
        let s = &mut Slots::default();
        let a = child(t, root, 5, possible, Entry::Unmarked, s).unwrap();
        let b = child(t, root, 2, possible, Entry::Unmarked, s).unwrap();
        assert_eq!(
            (a, b),
            (NodeId(4), NodeId(2)),
            "header at 1, block at 2, slot = rank in possible"
        );
        assert_eq!(
            tree.len(),
            6,
            "the whole block is taken at the first expansion"
        );
        let n = tree.node(root);
        assert_eq!(n.tried(), 1 << 5 | 1 << 2);
        assert_eq!(tree.block(n).unwrap().possible(), possible);
        // A grandchild's block comes after the root's.
        let t = tree.exclusive();
        let c = child(t, a, 7, 1 << 7 | 1 << 1, Entry::Unmarked, s).unwrap();
        assert_eq!(c, NodeId(8));
        let moves: Vec<(u8, u8)> = tree
            .children(root)
            .map(|(_, n)| (n.mv(), n.birth()))
            .collect();
        assert_eq!(
            moves,
            vec![(2, 1), (5, 0)],
            "move order; births in order made"
        );
        assert_eq!(tree.node(b).seat(), 1);
        // Reset forgets everything.
        tree.reset(2);
        assert_eq!(tree.len(), 2);
        assert_eq!(tree.node(NodeId(1)).tried(), 0);
        assert!(tree.block(tree.node(NodeId(1))).is_none());
    }

    #[test]
    fn a_block_that_does_not_fit_is_not_made() {
        let mut tree = Tree::<u8>::new(8).unwrap();
        tree.reset(1);
        let t = tree.exclusive();
        let s = &mut Slots::default();
        let a = child(t, NodeId(0), 0, 0b11, Entry::Unmarked, s).unwrap();
        assert!(!tree.is_full());
        let t = tree.exclusive();
        // Five more slots would be needed for `a`'s block (a header and four): four are left.
        assert_eq!(child(t, a, 0, 0b1111, Entry::Unmarked, s), None);
        assert!(tree.is_full(), "the tree stops growing");
        let t = tree.exclusive();
        // The root's block is there: its other move still gets its child.
        assert!(child(t, NodeId(0), 1, 0b11, Entry::Unmarked, s).is_some());
        assert_eq!(child(t, a, 2, 0b111, Entry::Unmarked, s), None);
        assert_eq!(tree.len(), 8);
    }

    #[test]
    fn updates_accumulate_in_every_access_mode() {
        let mut tree = Tree::<u8>::new(8).unwrap();
        tree.reset(1);
        let e = tree.exclusive();
        let a = child(
            e,
            NodeId(0),
            1,
            0b10,
            Entry::Early(2),
            &mut Slots::default(),
        )
        .unwrap();
        assert_eq!(tree.node(a).visits(), 2, "made with its early visits");
        let e = tree.exclusive();
        e.update(a, 1, 0.5, Entry::Early(2));
        assert_eq!(e.add_avail(e.node(a), 2), 3);
        let s = tree.shared();
        s.enter(a, Entry::Early(1));
        s.update(a, 2, 1.0, Entry::Early(1));
        s.enter(a, Entry::Early(3));
        assert_eq!(
            tree.node(a).visits(),
            6,
            "early visits count on the way down"
        );
        s.update(a, 1, 0.0, Entry::Early(3));
        let l = tree.locked();
        l.lock(a);
        l.update(a, 1, 0.25, Entry::Unmarked);
        l.unlock(a);
        let n = tree.node(a);
        assert_eq!(n.visits(), 5, "one per playout once they are backed up");
        assert_eq!(tree.availability(a, NodeId(0)), 3);
        assert_eq!(n.reward(), 1.75);
    }

    #[test]
    fn concurrent_expansion_never_duplicates_a_move() {
        // Four threads race to add the same eight moves under one root and under one of its
        // children, many times over.
        for _ in 0..200 {
            let mut tree = Tree::<u8>::new(4096).unwrap();
            tree.reset_shared(1);
            let t = tree.shared();
            let root = NodeId(0);
            let first = child(t, root, 0, 0xFF, Entry::Unmarked, &mut Slots::default()).unwrap();
            std::thread::scope(|s| {
                for k in 0..4u8 {
                    s.spawn(move || {
                        let slots = &mut Slots::default();
                        for parent in [root, first] {
                            for j in 0..8u8 {
                                let mv = (j + 2 * k) % 8;
                                // Check-then-expand, as the walker does; a busy parent says
                                // try again later.
                                let c = loop {
                                    let n = t.node(parent);
                                    if n.tried() >> mv & 1 != 0 {
                                        let id = t.tree().block(n).unwrap().child(mv as u32);
                                        t.enter(id, Entry::Early(1));
                                        break id;
                                    }
                                    let made = child(t, parent, mv, 0xFF, Entry::Early(1), slots);
                                    if let Some(id) = made {
                                        break id;
                                    }
                                };
                                assert_eq!(t.node(c).mv(), mv);
                            }
                        }
                    });
                }
            });
            for parent in [root, first] {
                let mut moves: Vec<u8> = tree.children(parent).map(|(_, n)| n.mv()).collect();
                let mut births: Vec<u8> = tree.children(parent).map(|(_, n)| n.birth()).collect();
                let visits: u32 = tree.children(parent).map(|(_, n)| n.visits()).sum();
                moves.sort();
                births.sort();
                assert_eq!(moves, (0..8).collect::<Vec<_>>());
                assert_eq!(
                    births,
                    (0..8).collect::<Vec<_>>(),
                    "one child made at a time"
                );
                assert_eq!(visits, 32, "each of the 32 expansions entered one child");
            }
            for (id, _) in tree.children(root) {
                assert_eq!(
                    id.0 % Tree::<u8>::ROOT_STRIDE,
                    0,
                    "root children start lines"
                );
            }
        }
    }

    #[test]
    fn root_children_count_availability_from_their_creation() {
        let mut tree = Tree::<u8>::new(16).unwrap();
        tree.reset(1);
        let root = NodeId(0);
        let t = tree.exclusive();
        let s = &mut Slots::default();
        let a = child(t, root, 1, 0b110, Entry::Unmarked, s).unwrap();
        let d = child(t, a, 9, 1 << 9, Entry::Unmarked, s).unwrap();
        t.add_root_passes(root, 1);
        let b = child(t, root, 2, 0b110, Entry::Unmarked, s).unwrap();
        t.add_root_passes(root, 2);
        t.add_avail(t.node(d), 4);
        assert_eq!(tree.availability(a, root), 4);
        assert_eq!(tree.availability(b, root), 3);
        assert_eq!(
            tree.availability(d, a),
            5,
            "below the root, the node's own count"
        );
    }

    #[test]
    fn a_full_shared_tree_still_enters_a_child_made_meanwhile() {
        // Room for the root's line and its block (a header, two moves a line each), no more.
        let stride = Tree::<u8>::ROOT_STRIDE;
        let mut tree = Tree::<u8>::new(4 * stride as u64).unwrap();
        tree.reset_shared(1);
        let t = tree.shared();
        let root = NodeId(0);
        let slots = &mut Slots::default();
        // Both threads saw no child; the first makes move 7.
        let a = child(t, root, 7, 0b1100_0000, Entry::Early(1), slots);
        assert!(a.is_some());
        let b = child(
            t,
            root,
            7,
            0b1100_0000,
            Entry::Early(1),
            &mut Slots::default(),
        );
        assert_eq!(b, a, "the second gets the child the first made");
        assert_eq!(tree.node(a.unwrap()).visits(), 2, "both entered it");
        assert!(!tree.is_full());
        let t = tree.shared();
        let c = child(t, a.unwrap(), 8, 1 << 8, Entry::Early(1), slots);
        assert_eq!(c, None, "a grandchild's block does not fit");
        assert!(tree.is_full());
    }

    #[test]
    fn a_move_outside_its_parents_block_gets_no_child() {
        // A game whose possible moves missed a legal one: release builds play out from the
        // parent rather than write a slot the move's rank would name (a sibling's, or past
        // the block).
        let mut tree = Tree::<u8>::new(64).unwrap();
        tree.reset(1);
        let s = &mut Slots::default();
        let t = tree.exclusive();
        let a = child(t, NodeId(0), 1, 0b11, Entry::Unmarked, s).unwrap();
        let t = tree.exclusive();
        assert_eq!(child(t, NodeId(0), 5, 0b11, Entry::Unmarked, s), None);
        assert!(!tree.is_full(), "the arena had room");
        assert_eq!(tree.children(NodeId(0)).count(), 1);
        assert_eq!(tree.node(a).mv(), 1);
    }

    #[test]
    fn a_chunk_cut_short_by_the_capacity_is_not_a_full_tree() {
        // The root's line and block as above, and three slots more: the thread's first chunk
        // (256 slots asked) ends at the capacity, yet holds a grandchild's block of two.
        let stride = Tree::<u8>::ROOT_STRIDE;
        let mut tree = Tree::<u8>::new(4 * stride as u64 + 3).unwrap();
        tree.reset_shared(1);
        let slots = &mut Slots::default();
        let t = tree.shared();
        let a = child(t, NodeId(0), 7, 0b1100_0000, Entry::Early(1), slots).unwrap();
        let c = child(t, a, 8, 1 << 8, Entry::Early(1), slots).unwrap();
        assert!(
            !tree.is_full(),
            "every slot asked for was given, though the chunk reached the capacity"
        );
        // The next block (a header and two) finds one slot: now the tree is full.
        let t = tree.shared();
        assert_eq!(child(t, c, 1, 0b11, Entry::Early(1), slots), None);
        assert!(tree.is_full());
        // A reset empties it.
        tree.reset_shared(1);
        assert!(!tree.is_full());
    }

    #[test]
    fn a_thread_waits_for_a_parent_another_thread_is_expanding() {
        let mut tree = Tree::<u8>::new(64).unwrap();
        tree.reset_shared(1);
        let t = tree.shared();
        let root = NodeId(0);
        let released = std::sync::atomic::AtomicBool::new(false);
        t.node(root).links.lock.lock();
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| {
                let made = child(t, root, 1, 0b10, Entry::Early(1), &mut Slots::default());
                // It can only have finished once the lock was given back.
                assert!(released.load(std::sync::atomic::Ordering::Acquire));
                made
            });
            std::thread::sleep(std::time::Duration::from_millis(20));
            released.store(true, std::sync::atomic::Ordering::Release);
            // SAFETY: locked above, by this thread.
            unsafe { t.node(root).links.lock.unlock() };
            let made = waiter.join().unwrap();
            assert!(made.is_some(), "the waiting thread made its child");
        });
        assert_eq!(tree.node(root).tried(), 0b10);
    }

    #[test]
    fn capacity_is_checked() {
        assert!(Tree::<u8>::new(0).is_err());
        assert!(Tree::<u8>::new(u64::from(Tree::<u8>::MAX_CAPACITY) + 1).is_err());
    }
}
