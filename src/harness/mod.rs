//! The match harness: fair seating, deals, budgets, statistics and logs.

pub mod curve;
pub mod log;
pub mod machine;
pub mod plot;
pub mod ratings;
pub mod runner;
pub mod scaling;
pub mod seating;
pub mod stats;
pub mod tournament;

pub use runner::{GameRecord, MatchConfig, MatchReport, run_match};
pub use seating::{Lineup, Side};
pub use stats::{Sprt, Tally};
