//! The [`Searcher`]: arenas, threads and the parallel mode, reused from one decision to the next.

use std::time::Instant;

use crate::game::{Game, MAX_SEATS, Rng, TreeMove};
use crate::mask::MoveMask;

use super::arena_size;
use super::budget::{Budget, BudgetClock};
use super::config::{Algorithm, Parallel, SearchConfig};
use super::crew::Crew;
use super::nast::NgramStats;
use super::rollout::{Playout, Roller};
use super::tree::{Locked, Shared, Tree, TreeError};
use super::walk::Ucb;
use super::worlds::Worlds;
use super::{graft, leaf, parallel};

/// The capacity arenas start with, before the first search sizes them.
const INITIAL_CAPACITY: u64 = 1 << 12;

/// The most iterations one search runs: visit counters are `u32`, and leaf parallelism adds up
/// to [`super::config::MAX_THREADS`] visits at once.
pub use crate::limits::MAX_ITERATIONS;

/// Search statistics of one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStat<M> {
    /// The move.
    pub mv: M,
    /// Visits (summed over trees where there are several).
    pub visits: u64,
    /// Times the move was available at the root (ISMCTS), else equal to the parent's visits.
    pub availability: u64,
    /// Mean reward for the mover.
    pub mean: f64,
    /// Roots (PIMC's worlds, root-parallel trees) whose most visited child this move is.
    pub votes: u64,
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// Completed iterations (playouts backed up), over all threads.
    pub iterations: u64,
    /// Root statistics merged by move over every root and tree, most visited first (ties:
    /// higher mean first).
    pub children: Vec<ChildStat<M>>,
    /// Tree nodes in use at the end, over all trees.
    pub nodes: u64,
    /// True when a tree ran out of room and stopped growing during the search.
    pub tree_full: bool,
}

impl<M: Copy> SearchResult<M> {
    /// The most visited root move, if the search made any child.
    pub fn best(&self) -> Option<M> {
        self.children.first().map(|c| c.mv)
    }
}

/// Why a searcher could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The tree arena.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// The worker threads.
    #[error("cannot start {threads} search threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's answer.
        message: String,
    },
    /// NAST and EPIC tables have a row per move bit below 64.
    #[error("playout=nast and playout=epic need a game with at most 64 distinct moves")]
    NgramsTooWide,
}

/// A subtree kept from an earlier search, to graft under a new root, and the moves that root
/// allows (tree reuse; see [`Searcher::run_grafted`]).
pub type Graft<'a, M> = (&'a Tree<M>, <M as TreeMove>::Mask);

/// Runs searches with one configuration, keeping its arenas and threads between decisions so
/// a decision allocates nothing big.
///
/// Parallel searches run on the calling thread and a private rayon pool of the other threads,
/// started once (see `parallel::Crew`).
pub struct Searcher<M: TreeMove> {
    config: SearchConfig,
    /// Groups of [`Searcher::group`] trees: one group per independent search (a root-parallel
    /// thread), one tree per seat in a group for MO-ISMCTS, the searching seat's first.
    trees: Vec<Tree<M>>,
    /// Trees per group: 1, or for MO-ISMCTS the seats of the last game searched
    /// ([`MAX_SEATS`] before the first search).
    group: usize,
    crew: Option<Crew>,
    /// NAST and EPIC statistics, cleared before each search (or decayed, see
    /// [`Searcher::continue_game`]): none for other playouts, one table shared by every
    /// thread and tree of a search, or with `nast_tables=thread` one per thread.
    ngrams: Vec<NgramStats>,
    /// The next search continues the game of the last one, so its n-gram statistics are
    /// decayed by `nast_decay` rather than cleared (set by [`Searcher::continue_game`], spent
    /// by the next search).
    continues_game: bool,
}

impl<M: TreeMove> std::fmt::Debug for Searcher<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .field("trees", &self.trees)
            .finish()
    }
}

impl<M: TreeMove + Eq + Send + Sync + 'static> Searcher<M> {
    /// Reserves small arenas (a group per thread in root mode, else one group; for MO-ISMCTS
    /// [`MAX_SEATS`] trees in a group until the first search keeps one per seat of its game,
    /// else one; each search grows them to what its budget can use, see
    /// [`super::arena_size`]) and starts the threads.
    pub fn new(config: SearchConfig) -> Result<Searcher<M>, SearchError> {
        let groups = if config.parallel == Parallel::Root {
            config.threads
        } else {
            1
        };
        let group = Self::group_of(&config);
        let n_trees = groups * group;
        let trees = (0..n_trees)
            .map(|_| Tree::new(INITIAL_CAPACITY))
            .collect::<Result<Vec<_>, _>>()?;
        let crew = if config.parallel == Parallel::Sequential {
            None
        } else {
            let crew = Crew::new(config.threads).map_err(|e| SearchError::Threads {
                threads: config.threads,
                message: e.to_string(),
            })?;
            Some(crew)
        };
        let ngrams = match config.rollout.playout {
            Playout::Ngrams(_) if <M::Mask as MoveMask>::BITS > 64 => {
                return Err(SearchError::NgramsTooWide);
            }
            Playout::Ngrams(g) => {
                // SearchConfig refuses NAST for tree groups (see `Walk::new`).
                debug_assert_eq!(Self::group_of(&config), 1);
                let tables = if config.nast_per_thread {
                    config.threads.max(1)
                } else {
                    1
                };
                (0..tables).map(|_| NgramStats::new(g)).collect()
            }
            _ => Vec::new(),
        };
        Ok(Searcher {
            config,
            trees,
            group,
            crew,
            ngrams,
            continues_game: false,
        })
    }

    /// Trees per group before the first search: one per seat for MO-ISMCTS (as many as any
    /// game has, until [`Searcher::fit_groups`] learns the game's), else 1.
    fn group_of(config: &SearchConfig) -> usize {
        if config.algorithm == Algorithm::MoIsmcts {
            MAX_SEATS
        } else {
            1
        }
    }

    /// Trees per group.
    fn group(&self) -> usize {
        self.group
    }

    /// Gives MO-ISMCTS a tree per seat of the game being searched, no more: trees no walk
    /// would enter would take their share of `max_nodes` (a 2-seat game got a quarter of it
    /// per tree, not a half). Rebuilds the small arenas when the seat count changes. A one-seat
    /// game (CoinGuess) gets one tree, and MO-ISMCTS then walks it as SO-ISMCTS does, which is
    /// the same search there (the one seat sees all its moves).
    fn fit_groups(&mut self, seats: usize) -> Result<(), TreeError> {
        let seats = seats.clamp(1, MAX_SEATS);
        if self.config.algorithm != Algorithm::MoIsmcts || seats == self.group {
            return Ok(());
        }
        let groups = self.trees.len() / self.group;
        self.trees = (0..groups * seats)
            .map(|_| Tree::new(INITIAL_CAPACITY))
            .collect::<Result<Vec<_>, _>>()?;
        self.group = seats;
        Ok(())
    }

    /// The most slots one tree of this searcher may hold: the spec's `max_nodes` (or half the
    /// machine's memory) shared among the trees.
    fn cap_per_tree(&self) -> u64 {
        let total = match self.config.max_nodes {
            Some(n) => n as u64,
            None => arena_size::machine_nodes(Tree::<M>::BYTES_PER_NODE),
        };
        (total / self.trees.len() as u64).clamp(1, Tree::<M>::MAX_CAPACITY as u64)
    }

    /// Grows every arena to what a search with `budget` over `roots` roots can use, plus
    /// `extra` slots (a grafted subtree), within the cap.
    fn size_arenas(&mut self, budget: &Budget, roots: u32, extra: u64) -> Result<(), TreeError> {
        let cap = self.cap_per_tree();
        let costs = arena_size::SlotCosts {
            iteration: Tree::<M>::MAX_SLOTS_PER_ITERATION,
            root: Tree::<M>::MAX_SLOTS_PER_ROOT,
            thread: Tree::<M>::MAX_SLOTS_PER_THREAD,
        };
        // The trees of a group share the iterations of one search, each making a node per
        // iteration at most: each is sized as one search's tree.
        let need = arena_size::slots_per_tree(
            budget,
            self.config.threads,
            self.trees.len() / self.group(),
            roots,
            costs,
            cap,
        );
        let need = need.max(need.saturating_add(extra).min(cap));
        for tree in &mut self.trees {
            let capacity = tree.capacity() as u64;
            // Grown when too small, by a quarter more than needed: with tree reuse the need
            // moves with each kept subtree, and a new arena costs milliseconds (the old one's
            // pages returned, the new one's faulted in; docs/performance.md, "Setup inside the
            // move's time"). An explicit `max_nodes` below the current size is obeyed.
            if capacity < need || capacity > cap {
                *tree = Tree::new(need.saturating_add(need / 4).min(cap).max(need))?;
            }
        }
        Ok(())
    }

    /// Replaces every arena larger than the initial size by a small one, returning the larger
    /// one's memory (the next search sizes its arenas again).
    pub fn release_memory(&mut self) {
        for tree in &mut self.trees {
            if tree.capacity() as u64 > INITIAL_CAPACITY
                && let Ok(small) = Tree::new(INITIAL_CAPACITY)
            {
                *tree = small;
            }
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Says that the next search is a later decision of the same game as the last one, so
    /// that what carries between decisions (the n-gram statistics, with `nast_decay`) carries;
    /// without this call every search starts afresh.
    pub fn continue_game(&mut self) {
        self.continues_game = true;
    }

    /// Every table of NAST or EPIC statistics of the last search: the shared one, or with
    /// `nast_tables=thread` one per thread (none for other playouts).
    pub fn ngram_tables(&self) -> impl Iterator<Item = &NgramStats> {
        self.ngrams.iter()
    }

    /// The NAST or EPIC statistics of the last search (`None` for other playouts; with
    /// `nast_tables=thread`, thread 0's).
    pub fn ngram_stats(&self) -> Option<&NgramStats> {
        self.ngrams.first()
    }

    /// The trees of the last search, read-only (for `cardsearch replay --dump-tree`): they keep
    /// its statistics until the next search resets them. MO-ISMCTS keeps a tree per seat of
    /// the game, the searching seat's first, then the next seats in play order.
    pub fn trees(&self) -> &[Tree<M>] {
        &self.trees
    }

    /// Searches `worlds` within `budget`. Sequential searches are a pure function of the
    /// worlds, the budget (when it has no time limit) and `rng`'s state.
    ///
    /// At most [`MAX_ITERATIONS`] iterations are run, whatever the budget: node counters are
    /// 32-bit. Errors only when the arenas the budget needs cannot be allocated.
    pub fn run<G: Game<Move = M>, W: Worlds<G>>(
        &mut self,
        worlds: &W,
        budget: &Budget,
        rng: &mut Rng,
    ) -> Result<SearchResult<M>, SearchError> {
        self.run_grafted(worlds, budget, rng, None)
    }

    /// [`Searcher::run`], starting from a subtree kept from an earlier search (tree reuse):
    /// `graft`'s tree is copied, statistics and all, under the fresh root before the search
    /// begins, its root's children limited to the moves in `graft`'s mask (the legal moves
    /// now). Only searches with one tree are grafted; root parallelism's trees start empty.
    pub fn run_grafted<G: Game<Move = M>, W: Worlds<G>>(
        &mut self,
        worlds: &W,
        budget: &Budget,
        rng: &mut Rng,
        graft: Option<Graft<'_, M>>,
    ) -> Result<SearchResult<M>, SearchError> {
        // A time budget counts from here: sizing the arenas, resetting the trees and copying a
        // kept subtree are part of the move's time.
        let asked = Instant::now();
        // Spent by this search whatever happens to it.
        let continues = std::mem::take(&mut self.continues_game);
        let budget = &Budget {
            iterations: Some(
                budget
                    .iterations
                    .map_or(MAX_ITERATIONS, |n| n.min(MAX_ITERATIONS)),
            ),
            ..budget.clone()
        };
        // Time budgets size the arena by time alone: the iteration cap above is a counter
        // limit, not a size.
        let sizing = Budget {
            iterations: budget.time.is_none().then_some(budget.iterations).flatten(),
            ..budget.clone()
        };
        // The grafted subtree needs room beside the new search's own growth.
        let kept_slots = graft.map_or(0, |(kept, _)| u64::from(kept.len()));
        self.fit_groups(worlds.num_seats())?;
        self.size_arenas(&sizing, worlds.num_roots(), kept_slots)?;
        let shared = self.config.parallel.is_tree();
        for tree in &mut self.trees {
            if shared {
                tree.reset_shared(worlds.num_roots());
            } else {
                tree.reset(worlds.num_roots());
            }
        }
        if let ([tree], Some((kept, root_moves))) = (&mut self.trees[..], graft) {
            let root = tree.root(0);
            graft::copy_subtree(kept, kept.root(0), tree, root, Some(root_moves));
        }
        let ucb = Ucb {
            c: self.config.c,
            virtual_loss: self.config.virtual_loss,
            root_batch: self.config.root_batch,
            prior: self.config.prior,
        };
        for stats in self.ngram_tables() {
            if continues && self.config.nast_decay > 0.0 {
                stats.decay(self.config.nast_decay);
            } else {
                stats.reset();
            }
        }
        let rollout = Roller {
            rollout: self.config.rollout,
            tables: &self.ngrams,
        };
        let group = self.group();
        let budget = &budget.clone().charged_from(asked);
        let per_group = match (self.config.parallel, &self.crew) {
            (Parallel::Sequential, _) | (_, None) => {
                let clock = BudgetClock::start(budget);
                let trees = &mut self.trees[..group];
                vec![parallel::sequential(
                    trees, worlds, &clock, ucb, rollout, rng,
                )]
            }
            (Parallel::Root, Some(crew)) => parallel::root(
                crew,
                &mut self.trees,
                group,
                worlds,
                budget,
                ucb,
                rollout,
                rng,
            ),
            (Parallel::Tree, Some(crew)) => {
                let trees = &self.trees[..group];
                vec![parallel::tree::<G, W, Shared>(
                    crew, trees, worlds, budget, ucb, rollout, rng,
                )]
            }
            (Parallel::TreeLocked, Some(crew)) => {
                let trees = &self.trees[..group];
                vec![parallel::tree::<G, W, Locked>(
                    crew, trees, worlds, budget, ucb, rollout, rng,
                )]
            }
            (Parallel::Leaf, Some(crew)) => {
                let trees = &mut self.trees[..group];
                vec![leaf::leaf(crew, trees, worlds, budget, ucb, rollout, rng)]
            }
        };
        if W::AVAILABILITY {
            // ISMCTS does not count root visits while searching (nothing reads them, and every
            // thread would write them); every iteration passed through the one root, which
            // holds a grafted subtree's visits already.
            for (trees, &done) in self.trees.chunks_mut(group).zip(&per_group) {
                for tree in trees {
                    tree.add_root_visits(done);
                }
            }
        }
        // The decision is the searching seat's: the first tree of each group.
        let own: Vec<&Tree<M>> = self.trees.iter().step_by(group).collect();
        Ok(SearchResult {
            iterations: per_group.iter().sum(),
            children: root_stats(&own, W::AVAILABILITY),
            nodes: self.trees.iter().map(|t| t.len() as u64).sum(),
            tree_full: self.trees.iter().any(Tree::is_full),
        })
    }
}

/// Root children of every root of every tree, merged by move.
fn root_stats<M: TreeMove + Eq>(trees: &[&Tree<M>], availability: bool) -> Vec<ChildStat<M>> {
    // One allocation, sized for the worst case of no move in common between roots.
    let children: usize = trees
        .iter()
        .map(|t| {
            (0..t.num_roots())
                .map(|r| t.children(t.root(r)).count())
                .sum::<usize>()
        })
        .sum();
    // `mean` holds the reward sum until the end.
    let mut out: Vec<ChildStat<M>> = Vec::with_capacity(children);
    for tree in trees {
        for r in 0..tree.num_roots() {
            let root = tree.root(r);
            let parent_visits = tree.node(root).visits() as u64;
            // The child made last first (the order of the sibling lists this tree replaced), so
            // that ties below break as selection does.
            let mut kids: Vec<_> = tree.children(root).collect();
            kids.sort_by_key(|(_, child)| std::cmp::Reverse(child.birth()));
            // This root's vote: its most visited child (ties: the higher mean).
            let favourite = kids
                .iter()
                .copied()
                .max_by(|(_, a), (_, b)| {
                    let mean = |n: &super::tree::Node<'_, M>| n.reward() / n.visits().max(1) as f64;
                    a.visits().cmp(&b.visits()).then(
                        mean(a)
                            .partial_cmp(&mean(b))
                            .unwrap_or(std::cmp::Ordering::Equal),
                    )
                })
                .filter(|(_, n)| n.visits() > 0)
                .map(|(id, _)| id);
            for (id, child) in kids {
                let mv = child.mv();
                let i = match out.iter().position(|s| s.mv == mv) {
                    Some(i) => i,
                    None => {
                        out.push(ChildStat {
                            mv,
                            visits: 0,
                            availability: 0,
                            mean: 0.0,
                            votes: 0,
                        });
                        out.len() - 1
                    }
                };
                let stat = &mut out[i];
                stat.visits += child.visits() as u64;
                stat.availability += if availability {
                    tree.availability(id, root) as u64
                } else {
                    parent_visits
                };
                stat.mean += child.reward();
                stat.votes += u64::from(Some(id) == favourite);
            }
        }
    }
    for s in &mut out {
        s.mean = if s.visits == 0 {
            0.0
        } else {
            s.mean / s.visits as f64
        };
    }
    out.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(
            b.mean
                .partial_cmp(&a.mean)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    out
}
