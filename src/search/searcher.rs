//! The [`Searcher`]: arenas, threads and the parallel mode, reused from one decision to the next.

use crate::agents::ChildStat;
use crate::game::{Game, Rng, next_seed};

use super::budget::{Budget, BudgetClock};
use super::config::{Parallel, SearchConfig};
use super::parallel::Crew;
use super::tree::{Locked, Shared, Tree, TreeError};
use super::walk::Ucb;
use super::worlds::Worlds;
use super::{leaf, parallel};

/// The most iterations one search runs: visit counters are `u32`, and leaf parallelism adds up
/// to [`super::config::MAX_THREADS`] visits at once.
pub const MAX_ITERATIONS: u64 = u32::MAX as u64 - (1 << 16);

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
}

/// Runs searches with one configuration, keeping its arenas and threads between decisions so
/// a decision allocates nothing big.
///
/// Parallel searches run on the calling thread and a private rayon pool of the other threads,
/// started once (see `parallel::Crew`).
pub struct Searcher<M> {
    config: SearchConfig,
    trees: Vec<Tree<M>>,
    crew: Option<Crew>,
}

impl<M> std::fmt::Debug for Searcher<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .field("trees", &self.trees)
            .finish()
    }
}

impl<M: Copy + Eq + Send + Sync + 'static> Searcher<M> {
    /// Reserves the arenas (one per thread in root mode, else one) and starts the threads.
    pub fn new(config: SearchConfig) -> Result<Searcher<M>, SearchError> {
        let n_trees = if config.parallel == Parallel::Root {
            config.threads
        } else {
            1
        };
        let trees = (0..n_trees)
            .map(|_| Tree::new(config.max_nodes as u64))
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
        Ok(Searcher {
            config,
            trees,
            crew,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The trees of the last search, read-only (for `cardsearch replay --dump-tree`): they keep
    /// its statistics until the next search resets them.
    pub fn trees(&self) -> &[Tree<M>] {
        &self.trees
    }

    /// Searches `worlds` within `budget`. Sequential searches are a pure function of the
    /// worlds, the budget (when it has no time limit) and `rng`'s state.
    ///
    /// At most [`MAX_ITERATIONS`] iterations are run, whatever the budget: node counters are
    /// 32-bit.
    pub fn run<G: Game<Move = M>, W: Worlds<G>>(
        &mut self,
        worlds: &W,
        budget: &Budget,
        rng: &mut Rng,
    ) -> SearchResult<M> {
        self.run_seeded(worlds, budget, rng, |_| {})
    }

    /// [`Searcher::run`], with `seed` called on the freshly reset tree before the search starts
    /// (to put back statistics kept from an earlier search: tree reuse). Only searches with one
    /// tree are seeded; root parallelism's trees start empty.
    pub fn run_seeded<G: Game<Move = M>, W: Worlds<G>>(
        &mut self,
        worlds: &W,
        budget: &Budget,
        rng: &mut Rng,
        seed: impl FnOnce(&mut Tree<M>),
    ) -> SearchResult<M> {
        let budget = &Budget {
            iterations: Some(
                budget
                    .iterations
                    .map_or(MAX_ITERATIONS, |n| n.min(MAX_ITERATIONS)),
            ),
            time: budget.time,
        };
        let shared = self.config.parallel.is_tree();
        for tree in &mut self.trees {
            if shared {
                tree.reset_shared(worlds.num_roots());
            } else {
                tree.reset(worlds.num_roots());
            }
        }
        if let [tree] = &mut self.trees[..] {
            seed(tree);
        }
        let ucb = Ucb {
            c: self.config.c,
            virtual_loss: self.config.virtual_loss,
        };
        let per_tree = match (self.config.parallel, &self.crew) {
            (Parallel::Sequential, _) | (_, None) => {
                let clock = BudgetClock::start(budget);
                let tree = &mut self.trees[0];
                vec![parallel::sequential(tree, worlds, &clock, ucb, rng)]
            }
            (Parallel::Root, Some(crew)) => {
                parallel::root(crew, &mut self.trees, worlds, budget, ucb, rng)
            }
            (Parallel::Tree, Some(crew)) => {
                let tree = &self.trees[0];
                vec![parallel::tree::<G, W, Shared>(
                    crew, tree, worlds, budget, ucb, rng,
                )]
            }
            (Parallel::TreeLocked, Some(crew)) => {
                let tree = &self.trees[0];
                vec![parallel::tree::<G, W, Locked>(
                    crew, tree, worlds, budget, ucb, rng,
                )]
            }
            (Parallel::Leaf, Some(crew)) => {
                let tree = &mut self.trees[0];
                vec![leaf::leaf(crew, tree, worlds, budget, ucb, rng)]
            }
        };
        if W::AVAILABILITY {
            // ISMCTS does not count root visits while searching (nothing reads them, and every
            // thread would write them); every iteration passed through the one root.
            for (tree, &done) in self.trees.iter_mut().zip(&per_tree) {
                tree.set_root_visits(done);
            }
        }
        SearchResult {
            iterations: per_tree.iter().sum(),
            children: root_stats(&self.trees, W::AVAILABILITY),
            nodes: self.trees.iter().map(|t| t.len() as u64).sum(),
        }
    }
}

/// Root children of every root of every tree, merged by move.
fn root_stats<M: Copy + Eq>(trees: &[Tree<M>], availability: bool) -> Vec<ChildStat<M>> {
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
            for (id, child) in tree.children(root) {
                let mv = child.mv();
                let i = match out.iter().position(|s| s.mv == mv) {
                    Some(i) => i,
                    None => {
                        out.push(ChildStat {
                            mv,
                            visits: 0,
                            availability: 0,
                            mean: 0.0,
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

/// Seeds for `n` worker generators, drawn from the caller's.
pub(super) fn seeds(rng: &mut Rng, n: usize) -> Vec<u64> {
    (0..n).map(|_| next_seed(rng)).collect()
}
