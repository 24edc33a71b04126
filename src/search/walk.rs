//! One iteration's walk through the tree: selection, expansion and backpropagation, shared by
//! every algorithm and every parallel mode.
//!
//! Selection follows the note's reference code. At each node the walker takes the legal moves of
//! this iteration's world as a mask. If some legal move has no child yet (one AND-NOT with the
//! node's `tried` mask), it expands one of those, chosen uniformly. Otherwise it scores the
//! compatible children (one AND) by UCB, increments their availability (ISMCTS), and descends
//! into the best one. Playouts happen outside the walker, so leaf parallelism can run several
//! per walk.

use crate::cards::random_below;
use crate::game::{Game, MoveSet, Rng, TreeMove};
use crate::mask::MoveMask;

use super::held::{HELD_MOVES, Held};
use super::nast::MoveLog;
use super::rollout::Rewards;
use super::tree::{Access, Entry, NodeId, Slots, TreeRef};
use super::worlds::Worlds;

/// The selection rule's constants.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ucb {
    /// Exploration constant `c` of `mean + c·sqrt(ln(n_parent)/n)`.
    pub(crate) c: f64,
    /// Losses counted per thread currently below a node (tree modes; 0 disables).
    pub(crate) virtual_loss: u32,
    /// Passes a tree-parallel walker gathers at the top two levels before adding them to the
    /// shared tree (see [`super::held`]; 1: at every pass, every node entered with early
    /// visits).
    pub(crate) root_batch: u32,
    /// Weight `b` of the progressive-bias term `b·P(move)/(n + 1)`, where `P` is the game's
    /// learned opponent model's probability of the move among the legal moves of this
    /// iteration's world (`prior`; 0: off, and always off in games without a model).
    pub(crate) prior: f64,
}

/// Per-thread state of walks: the path from the root to the current leaf, reused across
/// iterations (a walk allocates nothing once it has grown to the game's depth; it starts with
/// room for 64), this thread's arena chunk, its root passes not yet counted, and (for NAST and
/// EPIC playouts) the log of this iteration's moves.
#[derive(Debug)]
pub(crate) struct Walker {
    ucb: Ucb,
    /// How this walk marks the nodes it enters (tree modes with `virtual_loss > 0`).
    entry: Entry,
    path: Vec<NodeId>,
    /// This thread's arena slots (shared trees).
    slots: Slots,
    /// Passes through `pending_root` not yet added to its availability counter (ISMCTS).
    root_pending: u32,
    pending_root: NodeId,
    /// Passes gathered before they are added: 1 (exact) for a walker that owns its tree.
    root_batch: u32,
    /// Whether walks log their moves in `log`.
    logging: bool,
    /// The moves of the current iteration, root first (when `logging`).
    pub(crate) log: MoveLog,
    /// The model's weight of each legal move at the node being scored, by move bit (with
    /// [`Ucb::prior`]; a move outside the first [`PRIOR_MOVES`] bits has none).
    prior_weights: [f64; PRIOR_MOVES],
    /// A tree-parallel walker's own statistics of the root's children, not yet added to the
    /// shared ones (see [`super::held`]).
    root_children: Held,
    /// The same for the root's grandchildren, a row per root child by its move bit (empty
    /// when this walker holds none). A row has statistics only if its root child has: a pass
    /// scores a root child's children only after entering it, and is backed up through it.
    grandchildren: Box<[Held]>,
    /// The move bits of the root child, and of its child, that this walk entered with their
    /// statistics kept by this walker.
    deferred: [Option<u32>; 2],
}

/// True for the handles whose walks hold the top two levels' statistics (see [`super::held`]):
/// a lock-free shared tree's (sequential searches own their tree; `tree-locked` walks hold
/// each node's lock anyway).
pub(crate) const fn holds_top_levels<A: Access>() -> bool {
    A::ATOMIC_STATS && !A::LOCKED
}

/// Which of a walker's [`Held`] rows a selection step scores with.
#[derive(Clone, Copy)]
enum Row {
    /// The root's children.
    Root,
    /// The children of the root child with this move bit.
    Grandchildren(u32),
}

/// Move bits the progressive-bias prior covers: one 64-bit mask, every game with a learned
/// model.
const PRIOR_MOVES: usize = 64;

/// `ln(x)` for `x >= 1`, inlined: UCB takes one logarithm per child per level, and a libm call
/// in the middle of the child scan costs more than its arithmetic (register spills around the
/// call, no overlap with the next child's loads). Absolute error below 1e-9.
#[inline]
pub(crate) const fn ln(x: f64) -> f64 {
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

/// Entries of [`LN_SMALL`]: every count of a search of up to 65,536 passes (512 KB). The root's
/// children have the largest availability counts, all of them near the number of passes so far,
/// so each pass reads the same one or two lines of the table; at 1,024 entries the root's
/// children took [`ln`]'s division and series instead, 8-9% of a 10,000-iteration ISMCTS search
/// (docs/performance.md, "The logarithm table covers the root's children").
const LN_SMALL_LEN: usize = 1 << 16;

/// [`ln`] of `0..LN_SMALL_LEN` (entry 0 unused), worked out at compile time by the same
/// function, so a lookup gives exactly the bits a call would.
static LN_SMALL: [f64; LN_SMALL_LEN] = {
    let mut t = [0.0; LN_SMALL_LEN];
    let mut i = 1;
    while i < LN_SMALL_LEN {
        t[i] = ln(i as f64);
        i += 1;
    }
    t
};

/// `ln(n)` for a count `n >= 1`: a table lookup for small counts.
#[inline]
fn ln_count(n: u32) -> f64 {
    match LN_SMALL.get(n as usize) {
        Some(&v) => v,
        None => ln(n as f64),
    }
}

/// What one selection step did; the move is given by its bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Entered an existing child: the walk goes on from it.
    Down(u32),
    /// Made a new child: the walk ends there.
    Expanded(u32),
    /// Stopped at the node: no child can be entered or made (the arena is full).
    Stop,
}

/// The best child so far by UCB, compared without dividing: `num/den` against `num'/den'` as
/// `num·den' > num'·den` (every `den` is a positive visit count).
#[derive(Clone, Copy)]
struct Best {
    id: NodeId,
    /// The child's move bit.
    bit: u32,
    num: f64,
    den: f64,
}

impl Best {
    /// No child yet: a score of minus infinity, below every child's, so no tie with it is
    /// possible. (It was -1, below every `pwl` score; a `wl` child that lost every iteration
    /// scores exactly -1 when `c = 0`, tied with it, and the tie-break then read the empty
    /// handle's slot.)
    const NONE: Best = Best {
        id: NodeId::NONE,
        bit: 0,
        num: f64::NEG_INFINITY,
        den: 1.0,
    };

    /// Keeps the better score; of equal scores, the child made last.
    #[inline]
    fn offer<M: TreeMove + PartialEq, A: Access>(&mut self, tree: TreeRef<'_, M, A>, new: Best) {
        let (mine, theirs) = (new.num * self.den, self.num * new.den);
        // A branch, not a select: the best child is usually found early and rarely beaten, and
        // a select would chain every comparison to the one before (measured slower).
        if mine > theirs || (mine == theirs && younger(tree, new.id, self.id)) {
            *self = new;
        }
    }
}

/// True when sibling `a` was made after sibling `b`.
#[inline]
fn younger<M: TreeMove + PartialEq, A: Access>(
    tree: TreeRef<'_, M, A>,
    a: NodeId,
    b: NodeId,
) -> bool {
    tree.node(a).birth() > tree.node(b).birth()
}

impl Walker {
    /// A walker for one thread. `track_virtual_loss` is for tree-parallel walks;
    /// `hold_grandchildren` for a lock-free shared tree's walks that select below the root's
    /// children (SO-ISMCTS: one tree, see [`super::held`]); `logging` for playouts that learn
    /// from every move of an iteration (NAST, EPIC).
    pub(crate) fn new(
        ucb: Ucb,
        track_virtual_loss: bool,
        hold_grandchildren: bool,
        logging: bool,
    ) -> Walker {
        let entry = match (track_virtual_loss, ucb.virtual_loss) {
            (false, _) | (true, 0) => Entry::Unmarked,
            (true, v) => Entry::Early(v),
        };
        Walker {
            ucb,
            entry,
            path: Vec::with_capacity(64),
            slots: Slots::default(),
            root_pending: 0,
            pending_root: NodeId::NONE,
            // Every iteration passes through the root, so adding each pass to its availability
            // counter would move the root's cache line between the threads' cores once per
            // iteration; in batches of `root_batch` it lags by at most `root_batch - 1` passes
            // per other thread.
            root_batch: if track_virtual_loss {
                ucb.root_batch.max(1)
            } else {
                1
            },
            logging,
            log: MoveLog::default(),
            prior_weights: [0.0; PRIOR_MOVES],
            root_children: Held::EMPTY,
            // Made once per search, never inside an iteration.
            grandchildren: if hold_grandchildren && track_virtual_loss && ucb.root_batch > 1 {
                vec![Held::EMPTY; HELD_MOVES].into_boxed_slice()
            } else {
                Box::default()
            },
            deferred: [None; 2],
        }
    }

    /// With a progressive-bias weight set and a game whose learned model describes every
    /// legal move of `state`: the model's weight of each legal move into `prior_weights`, and
    /// the factor `b / total weight` that turns one into `b·P(move)`. Otherwise 0 (no bias).
    ///
    /// Only the weight's test is inlined into the child scan: the model's loop, inlined too,
    /// made the compiler keep the whole loader out of line and call it at every scanned node,
    /// bias or not (1-2.5% of a plain ISMCTS iteration's instructions, by game).
    #[inline(always)]
    fn load_prior<G: Game>(&mut self, state: &G) -> f64 {
        if self.ucb.prior > 0.0 {
            self.load_prior_weights(state)
        } else {
            0.0
        }
    }

    /// [`Walker::load_prior`]'s work once a bias is set.
    #[inline(never)]
    fn load_prior_weights<G: Game>(&mut self, state: &G) -> f64 {
        let b = self.ucb.prior;
        let Some(model) = G::opponent_model() else {
            return 0.0;
        };
        let weights = &mut self.prior_weights;
        let mut total = 0.0;
        let mut fits = true;
        let described = state.visit_model_features(|mv, features| {
            let w = model.weight(&features);
            match weights.get_mut(mv.bit() as usize) {
                Some(slot) => *slot = w,
                None => fits = false,
            }
            total += w;
        });
        if described && fits && total > 0.0 {
            b / total
        } else {
            0.0
        }
    }

    /// Logs the move with bit `bit` that `state` is about to play, if this walker logs.
    #[inline]
    fn note<G: Game>(&mut self, state: &G, bit: u32) {
        if self.logging {
            self.log.push(state, bit);
        }
    }

    /// Adds the root passes this walker still holds to `root`'s availability, and the root
    /// children's statistics it holds to theirs; a tree-parallel thread calls it once its last
    /// iteration is backed up.
    pub(crate) fn flush_root_passes<M: TreeMove + PartialEq, A: Access>(
        &mut self,
        tree: TreeRef<'_, M, A>,
    ) {
        if self.root_pending > 0 {
            tree.add_root_passes(self.pending_root, self.root_pending);
            self.root_pending = 0;
        }
        self.flush_root_children(tree);
    }

    /// Adds the statistics of the root's children and grandchildren this walker holds to the
    /// shared ones.
    fn flush_root_children<M: TreeMove + PartialEq, A: Access>(&mut self, tree: TreeRef<'_, M, A>) {
        let held = self.root_children.held;
        if held == 0 {
            return;
        }
        // Held statistics are of children made under this root, so it has a block.
        let Some(root_block) = tree.block(tree.node(self.pending_root)) else {
            return;
        };
        let mut rows = held;
        while rows != 0 {
            let bit = rows.trailing_zeros();
            rows &= rows - 1;
            if let Some(row) = self.grandchildren.get_mut(bit as usize) {
                row.flush(tree, root_block.child(bit));
            }
        }
        self.root_children.flush(tree, self.pending_root);
    }

    /// Starts a walk at `root`, taking its lock (`Locked` handles).
    #[inline]
    pub(crate) fn start<M: TreeMove + PartialEq, A: Access>(
        &mut self,
        tree: TreeRef<'_, M, A>,
        root: NodeId,
    ) {
        self.path.clear();
        self.path.push(root);
        self.deferred = [None; 2];
        self.log.clear();
        tree.lock(root);
    }

    /// The node the walk is at.
    #[inline]
    fn at(&self) -> NodeId {
        *self.path.last().expect("a walk starts at a root")
    }

    /// Selects from `root` through `state` (playing the tree moves on it) and expands one node
    /// if the arena has room. `weight` is the number of playouts that will be backed up through
    /// this path (leaf parallelism), added to availability.
    ///
    /// With `W::AVAILABILITY` (ISMCTS) children are filtered by legality in `state` and UCB
    /// uses their availability. Without it, every child is legal (a perfect-information tree)
    /// and UCB uses the parent's visits.
    #[inline]
    pub(crate) fn descend<G: Game, W: Worlds<G>, A: Access>(
        &mut self,
        tree: TreeRef<'_, G::Move, A>,
        worlds: &W,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
        weight: u32,
    ) {
        self.start(tree, root);
        // ISMCTS searches the information sets of the seat to move at the root.
        let observer = state.current_seat();
        loop {
            if state.is_terminal() {
                tree.unlock(self.at());
                return;
            }
            let moves = state.legal_moves();
            if W::AVAILABILITY && !state.next_move_seen_by(observer) {
                // A move the searcher will never see is not a branch of its tree: it is drawn at
                // random, like the hidden cards of the determinization.
                let mv = moves.random(rng);
                if self.logging {
                    self.note(state, mv.bit());
                }
                state.play(mv);
                continue;
            }
            // The same at every visit of this node, and the block was sized by it: worked out
            // here, the children's slots do not wait for the block header to load.
            let possible = worlds.possible_moves(state, &moves).bits();
            let step = self.step(
                tree,
                state,
                &moves,
                possible,
                W::AVAILABILITY,
                W::AVAILABILITY,
                rng,
                weight,
            );
            match step {
                Step::Down(bit) => state.play(G::Move::from_bit(bit)),
                Step::Expanded(bit) => {
                    state.play(G::Move::from_bit(bit));
                    return;
                }
                Step::Stop => return,
            }
        }
    }

    /// One selection step at the node the walk is at, whose lock the walk holds (`Locked`
    /// handles), for the seat to move in `state` with legal moves `moves`: expands an untried
    /// legal move if there is one (chosen uniformly), else descends into the compatible child
    /// of best UCB. `possible` is the moves the node's children block has (or gets) slots for.
    /// `availability`: children are filtered by legality and explored by availability
    /// (ISMCTS); `root_relative`: a root's children count availability through the root's
    /// counter (see [`super::tree::Tree::availability`]), which is right only in the tree of the
    /// seat whose decision the search is. The caller plays the returned move (which this walker
    /// has logged, if it logs).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step<G: Game, A: Access>(
        &mut self,
        tree: TreeRef<'_, G::Move, A>,
        state: &G,
        moves: &G::Moves,
        possible: <G::Move as TreeMove>::Mask,
        availability: bool,
        root_relative: bool,
        rng: &mut Rng,
        weight: u32,
    ) -> Step {
        let c = self.ucb.c;
        // Virtual losses are in the visit counts (early visits).
        let entry = self.entry;
        let node = self.at();
        let legal = moves.bits();
        let here = tree.node(node);
        // `tried` before `block`: a child is published after its parent's block, so every
        // child this mask shows has its block visible.
        let tried = here.tried();
        let block = tree.block_of(here, possible);
        let possible = block.map_or(possible, |b| b.possible());
        debug_assert!(
            legal.and_not(possible).is_empty(),
            "a legal move outside possible_moves: {state:?}"
        );
        let untried = legal.and_not(tried).and(possible);
        if !untried.is_empty() {
            // Uniformly among the untried legal moves.
            let k = random_below(rng, untried.count());
            let bit = untried.select(k);
            let mv = G::Move::from_bit(bit);
            let seat = state.current_seat();
            let child = tree.expand(node, mv, bit, seat, entry, possible, &mut self.slots);
            tree.unlock(node);
            return match child {
                Some(child) => {
                    self.note(state, bit);
                    self.path.push(child);
                    Step::Expanded(bit)
                }
                None => Step::Stop,
            };
        }
        let compat = legal.and(tried);
        let Some(block) = block.filter(|_| !compat.is_empty()) else {
            // Only legal moves the node has no slot for (a game's possible_moves missed
            // them, which debug builds catch above): play out from here.
            tree.unlock(node);
            return Step::Stop;
        };
        // Root children count availability relative to the root (see Tree::availability).
        let at_root = root_relative && self.path.len() == 1;
        // This thread's own passes not yet added count too.
        if at_root && node != self.pending_root {
            self.flush_root_passes(tree);
            self.pending_root = node;
        }
        let avail_base = if at_root {
            here.avail().wrapping_add(self.root_pending)
        } else {
            0
        };
        // A lock-free shared tree's root children, and the children of the root child this
        // walk entered so: scored with this thread's own statistics added, which it has not
        // yet shared (see super::held).
        let held_row = if holds_top_levels::<A>()
            && self.root_batch > 1
            && <G::Move as TreeMove>::Mask::BITS as usize <= HELD_MOVES
        {
            match (at_root, self.path.len(), self.deferred[0]) {
                (true, _, _) => Some(Row::Root),
                (false, 2, Some(parent)) if availability && !self.grandchildren.is_empty() => {
                    Some(Row::Grandchildren(parent))
                }
                _ => None,
            }
        } else {
            None
        };
        let ln_parent = if availability {
            0.0
        } else {
            ln_count(here.visits().max(1))
        };
        // b·P(move) = bias · weight of the move (0 without a prior).
        let bias = self.load_prior(state);
        let mut held = match held_row {
            None => None,
            Some(Row::Root) => Some(&mut self.root_children),
            Some(Row::Grandchildren(parent)) => Some(&mut self.grandchildren[parent as usize]),
        };
        let mut best = Best::NONE;
        // A child made by another thread and not yet backed up has no statistics: it goes
        // first.
        let mut unvisited = Best::NONE;
        let mut bits = compat;
        while let Some(bit) = bits.pop_lowest() {
            let id = block.child(bit);
            let child = tree.node(id);
            // Availability counts this pass (at a root, through the root's counter below).
            let (mut n, mut reward) = (child.visits() as f64, child.reward());
            let avail = match (availability, at_root, &mut held) {
                (false, _, _) => 0,
                (true, true, _) => child.avail().wrapping_add(avail_base).wrapping_add(weight),
                (true, false, None) => tree.add_avail(child, weight),
                (true, false, Some(held)) => {
                    let own = &mut held.avail[bit as usize];
                    *own = own.wrapping_add(weight);
                    held.held |= 1 << bit;
                    child.avail().wrapping_add(*own)
                }
            };
            if let Some(held) = &held {
                n += held.visits[bit as usize] as f64;
                reward += held.reward[bit as usize];
            }
            if n == 0.0 {
                if unvisited.id.is_none() || younger(tree, id, unvisited.id) {
                    unvisited = Best {
                        id,
                        bit,
                        ..Best::NONE
                    };
                }
                continue;
            }
            let ln_avail = if availability {
                ln_count(avail)
            } else {
                ln_parent
            };
            // mean + c·sqrt(ln/n) = (reward + c·sqrt(ln·n)) / n
            let mut num = reward + c * (ln_avail * n).sqrt();
            if bias > 0.0 {
                // + b·P/(n + 1), times n like the rest
                num += bias * self.prior_weights[bit as usize] * n / (n + 1.0);
            }
            best.offer(
                tree,
                Best {
                    id,
                    bit,
                    num,
                    den: n,
                },
            );
        }
        if !unvisited.id.is_none() {
            best = unvisited;
        } else if best.id.is_none() {
            // Every score was NaN, which no reward function gives: still enter a child, never
            // the empty handle.
            let bit = compat.select(0);
            best = Best {
                id: block.child(bit),
                bit,
                ..Best::NONE
            };
        }
        if at_root {
            self.root_pending += weight;
            if self.root_pending >= self.root_batch {
                self.flush_root_passes(tree);
            }
        }
        tree.unlock(node);
        tree.lock(best.id);
        if held_row.is_some() {
            // Its statistics go to the held row at backup.
            self.deferred[self.path.len() - 1] = Some(best.bit);
        } else {
            tree.enter(best.id, entry);
        }
        self.path.push(best.id);
        self.note(state, best.bit);
        // The move from its bit: playing it need not wait for the child's links to load.
        Step::Down(best.bit)
    }

    /// Follows a move that another seat's tree chose (`mv`, bit `bit`, made by `seat`) from the
    /// node the walk is at: into its child, which is made here if it is missing (in a block of
    /// `possible` moves). Returns false when this walk ends here: a child was just made (one
    /// node per tree and iteration, as in every MCTS) or the arena has no room. Not for
    /// `Locked` handles (a walk over several trees would hold several locks).
    #[inline]
    pub(crate) fn follow<M: TreeMove + PartialEq, A: Access>(
        &mut self,
        tree: TreeRef<'_, M, A>,
        mv: M,
        bit: u32,
        seat: crate::game::Seat,
        possible: M::Mask,
    ) -> bool {
        debug_assert!(!A::LOCKED);
        let node = self.at();
        let here = tree.node(node);
        if here.tried().has(bit)
            && let Some(block) = tree.block_of(here, possible)
        {
            let id = block.child(bit);
            tree.enter(id, self.entry);
            self.path.push(id);
            return true;
        }
        if let Some(child) = tree.expand(node, mv, bit, seat, self.entry, possible, &mut self.slots)
        {
            self.path.push(child);
        }
        false
    }

    /// Backs `visits` playouts with per-seat reward totals `rewards` up the last walk's path.
    ///
    /// `AVAIL` searches leave the root's visit count alone: nothing reads it (availability
    /// replaces it), and it is the one counter every thread of a shared tree would write.
    #[inline]
    pub(crate) fn backup<M: TreeMove + PartialEq, A: Access, const AVAIL: bool>(
        &mut self,
        tree: TreeRef<'_, M, A>,
        visits: u32,
        rewards: &Rewards,
    ) {
        let (&root, mut below) = self.path.split_first().expect("a walk starts at a root");
        if !AVAIL {
            tree.lock(root);
            tree.update(root, visits, 0.0, Entry::Unmarked);
            tree.unlock(root);
        }
        // The walk entered the held nodes without early visits, and without their locks (a
        // lock-free tree has none). A sequential search compiles this out.
        if holds_top_levels::<A>()
            && let (Some(bit), [child, deeper @ ..]) = (self.deferred[0], below)
        {
            let seat = tree.node(*child).seat();
            self.root_children.add(bit, visits, rewards[seat]);
            below = deeper;
            if let (Some(bit2), [grandchild, deeper @ ..]) = (self.deferred[1], below) {
                let seat = tree.node(*grandchild).seat();
                self.grandchildren[bit as usize].add(bit2, visits, rewards[seat]);
                below = deeper;
            }
        }
        for &id in below {
            tree.lock(id);
            let seat = tree.node(id).seat();
            tree.update(id, visits, rewards[seat], self.entry);
            tree.unlock(id);
        }
    }
}

/// One thread's walkers for one search: one for a search over one tree (SO-ISMCTS, PIMC, UCT),
/// or one per seat for MO-ISMCTS, whose trees are descended together
/// ([`super::mo_ismcts::descend`]).
#[derive(Debug)]
pub(crate) struct Walk {
    walkers: Vec<Walker>,
    /// Walkers whose paths the last walk set (the game's seats in MO-ISMCTS).
    used: usize,
}

impl Walk {
    /// Walkers for a group of `trees` trees (see [`Walker::new`]; only a single tree's walks
    /// log their moves: NAST and EPIC learn from one iteration's line of play, which a group of
    /// trees does not have for every seat, and the searches that use them refuse MO-ISMCTS).
    pub(crate) fn new(
        ucb: Ucb,
        track_virtual_loss: bool,
        hold_grandchildren: bool,
        logging: bool,
        trees: usize,
    ) -> Walk {
        debug_assert!(!logging || trees == 1);
        Walk {
            walkers: (0..trees)
                .map(|_| Walker::new(ucb, track_virtual_loss, hold_grandchildren, logging))
                .collect(),
            used: 0,
        }
    }

    /// Selection and expansion from `root` in every tree of the group through `state`, for
    /// `weight` playouts to be backed up through the walk (more than one in leaf parallelism;
    /// see [`Walker::descend`]).
    #[inline]
    pub(crate) fn descend<G: Game, W: Worlds<G>, A: Access>(
        &mut self,
        trees: &[TreeRef<'_, G::Move, A>],
        worlds: &W,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
        weight: u32,
    ) {
        if let [walker] = &mut self.walkers[..] {
            walker.descend(trees[0], worlds, root, state, rng, weight);
            self.used = 1;
        } else {
            self.used = super::mo_ismcts::descend(
                &mut self.walkers,
                trees,
                worlds,
                root,
                state,
                rng,
                weight,
            );
        }
    }

    /// Backs `visits` playouts with per-seat reward totals `rewards` up every path of the last
    /// walk (see [`Walker::backup`]).
    #[inline]
    pub(crate) fn backup<M: TreeMove + PartialEq, A: Access, const AVAIL: bool>(
        &mut self,
        trees: &[TreeRef<'_, M, A>],
        visits: u32,
        rewards: &Rewards,
    ) {
        for (walker, &tree) in self.walkers[..self.used].iter_mut().zip(trees) {
            walker.backup::<M, A, AVAIL>(tree, visits, rewards);
        }
    }

    /// The moves of the last walk, root first, for playouts that learn from them (NAST, EPIC:
    /// a walk over one tree; see [`Walk::new`]).
    #[inline]
    pub(crate) fn log(&mut self) -> &mut MoveLog {
        &mut self.walkers[0].log
    }

    /// Adds the root passes the walkers still hold (see [`Walker::flush_root_passes`]).
    pub(crate) fn flush_root_passes<M: TreeMove + PartialEq, A: Access>(
        &mut self,
        trees: &[TreeRef<'_, M, A>],
    ) {
        for (walker, &tree) in self.walkers.iter_mut().zip(trees) {
            walker.flush_root_passes(tree);
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

    #[test]
    fn the_small_count_table_gives_exactly_what_ln_computes_at_run_time() {
        // The table is filled at compile time; the search must not depend on where it was.
        let x = std::hint::black_box(1.0);
        for n in 1..LN_SMALL_LEN as u32 + 10 {
            assert_eq!(ln_count(n).to_bits(), ln(x * n as f64).to_bits(), "{n}");
        }
    }
}
