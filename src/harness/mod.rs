//! The match harness: fair seating, deals, budgets, statistics and logs.
