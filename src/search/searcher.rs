//! The [`Searcher`]: arenas, threads and the parallel mode, reused from one decision to the next.

use crate::agents::ChildStat;
use crate::game::{Game, Rng, next_seed};

use super::budget::{Budget, BudgetClock};
use super::config::{Parallel, SearchConfig};
use super::tree::{Tree, TreeError};
use super::walk::Ucb;
use super::worlds::Worlds;
use super::{leaf, parallel};

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
/// Threads come from a private rayon pool, started once: `ThreadPool::broadcast` runs one worker
/// on every pool thread at the same time, which the spinning hand-offs of leaf parallelism rely
/// on, and it costs a few microseconds per search where spawning scoped threads would cost tens
/// of microseconds per thread per move.
pub struct Searcher<M> {
    config: SearchConfig,
    trees: Vec<Tree<M>>,
    pool: Option<rayon::ThreadPool>,
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
        let pool = if config.parallel == Parallel::Sequential {
            None
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads)
                .thread_name(|i| format!("search-{i}"))
                .build()
                .map_err(|e| SearchError::Threads {
                    threads: config.threads,
                    message: e.to_string(),
                })?;
            Some(pool)
        };
        Ok(Searcher {
            config,
            trees,
            pool,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Searches `worlds` within `budget`. Sequential searches are a pure function of the
    /// worlds, the budget (when it has no time limit) and `rng`'s state.
    pub fn run<G: Game<Move = M>, W: Worlds<G>>(
        &mut self,
        worlds: &W,
        budget: &Budget,
        rng: &mut Rng,
    ) -> SearchResult<M> {
        for tree in &mut self.trees {
            tree.reset(worlds.num_roots());
        }
        let ucb = Ucb {
            c: self.config.c,
            virtual_loss: self.config.virtual_loss,
        };
        let threads = self.config.threads;
        let iterations = match (self.config.parallel, &self.pool) {
            (Parallel::Sequential, _) | (_, None) => {
                let clock = BudgetClock::start(budget);
                parallel::sequential(&mut self.trees[0], worlds, &clock, ucb, rng)
            }
            (Parallel::Root, Some(pool)) => {
                parallel::root(pool, &mut self.trees, worlds, budget, ucb, rng)
            }
            (Parallel::Tree, Some(pool)) => parallel::tree::<G, W, super::tree::Shared>(
                pool,
                &self.trees[0],
                worlds,
                budget,
                ucb,
                threads,
                rng,
            ),
            (Parallel::TreeLocked, Some(pool)) => parallel::tree::<G, W, super::tree::Locked>(
                pool,
                &self.trees[0],
                worlds,
                budget,
                ucb,
                threads,
                rng,
            ),
            (Parallel::Leaf, Some(pool)) => {
                leaf::leaf(pool, &mut self.trees[0], worlds, budget, ucb, threads, rng)
            }
        };
        SearchResult {
            iterations,
            children: root_stats(&self.trees, W::AVAILABILITY),
            nodes: self.trees.iter().map(|t| t.len() as u64).sum(),
        }
    }
}

/// Root children of every root of every tree, merged by move.
fn root_stats<M: Copy + Eq>(trees: &[Tree<M>], availability: bool) -> Vec<ChildStat<M>> {
    let mut merged: Vec<(ChildStat<M>, f64)> = Vec::new();
    for tree in trees {
        for r in 0..tree.num_roots() {
            let root = tree.root(r);
            let parent_visits = tree.node(root).visits() as u64;
            for (_, child) in tree.children(root) {
                let mv = child.mv();
                let i = match merged.iter().position(|(s, _)| s.mv == mv) {
                    Some(i) => i,
                    None => {
                        let empty = ChildStat {
                            mv,
                            visits: 0,
                            availability: 0,
                            mean: 0.0,
                        };
                        merged.push((empty, 0.0));
                        merged.len() - 1
                    }
                };
                let (stat, reward) = &mut merged[i];
                stat.visits += child.visits() as u64;
                stat.availability += if availability {
                    child.avail() as u64
                } else {
                    parent_visits
                };
                *reward += child.reward();
            }
        }
    }
    let mut out: Vec<ChildStat<M>> = merged
        .into_iter()
        .map(|(mut s, reward)| {
            s.mean = if s.visits == 0 {
                0.0
            } else {
                reward / s.visits as f64
            };
            s
        })
        .collect();
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
