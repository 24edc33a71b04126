//! Search algorithms over an arena tree: UCT, determinized UCT (PIMC) and SO-ISMCTS.

pub mod budget;
pub mod tree;

pub use budget::{Budget, BudgetClock, SharedBudget};
pub use tree::{NodeId, Tree};
