//! Search algorithms over an arena tree: SO-ISMCTS, MO-ISMCTS, UCT and determinized UCT (PIMC), each
//! sequential or parallel (root, lock-free tree, locked tree, leaf), chosen at run time.
//!
//! One core serves all of them. A [`Worlds`] source says where each iteration's state comes
//! from (a fresh determinization, the true state, or one of D fixed determinizations); a
//! walker selects, expands and backs up through a [`Tree`]; the parallel
//! modes only decide which threads run that loop on which trees. See `docs/algorithms.md`.

pub mod arena_size;
pub mod budget;
pub mod config;
mod crew;
mod fastexp;
mod fastln;
pub(crate) mod graft;
pub(crate) mod held;
pub mod inference;
pub mod ismcts;
mod leaf;
mod mo_ismcts;
pub mod nast;
pub mod opponent_model;
mod parallel;
pub mod pimc;
pub mod reward;
pub mod rollout;
pub mod searcher;
pub mod tree;
pub mod uct;
pub(crate) mod walk;
pub mod worlds;

pub use budget::{Budget, BudgetClock, SharedBudget, StopSignal};
pub use config::{Algorithm, Parallel, SearchConfig};
pub use nast::{Ngrams, Policy};
pub use reward::RewardFn;
pub use rollout::{Playout, Rollout};
pub use searcher::{ChildStat, Graft, SearchError, SearchResult, Searcher};
pub use tree::{NodeId, Tree};
pub use worlds::{Fixed, Sampled, Worlds};

/// The threads of a parallel search, for the agents that run their own loops (turn planners).
pub(crate) use crew::{Crew, seeds};
