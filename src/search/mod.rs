//! Search algorithms over an arena tree: UCT, determinized UCT (PIMC) and SO-ISMCTS.

pub mod budget;

pub use budget::{Budget, BudgetClock};
