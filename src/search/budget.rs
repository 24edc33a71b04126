//! How long a search may run: a number of iterations, a wall-clock time, or both (whichever
//! runs out first). The clock is read every few iterations, never every one.

use std::time::{Duration, Instant};

/// A search budget. At least one limit must be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop after this many iterations.
    pub iterations: Option<u64>,
    /// Stop once this much wall time has passed.
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            time: None,
        }
    }

    /// A budget of `ms` milliseconds.
    pub fn millis(ms: u64) -> Budget {
        Budget {
            iterations: None,
            time: Some(Duration::from_millis(ms)),
        }
    }

    /// The deadline of a search that starts at `start`, if time-limited.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.map(|t| start + t)
    }

    /// Short text such as `1000 it` or `50 ms` or `1000 it / 50 ms`.
    pub fn describe(&self) -> String {
        match (self.iterations, self.time) {
            (Some(n), None) => format!("{n} it"),
            (None, Some(t)) => format!("{} ms", t.as_millis()),
            (Some(n), Some(t)) => format!("{n} it / {} ms", t.as_millis()),
            (None, None) => "unbounded".to_string(),
        }
    }
}

/// Tracks a budget inside a search loop: counts iterations and checks the clock only every
/// `CLOCK_EVERY` iterations, because reading the clock costs about as much as a short playout.
#[derive(Clone, Debug)]
pub struct BudgetClock {
    max_iterations: u64,
    deadline: Option<Instant>,
}

/// How many iterations pass between clock reads.
pub const CLOCK_EVERY: u64 = 16;

impl BudgetClock {
    /// Starts the clock now.
    pub fn start(budget: &Budget) -> BudgetClock {
        BudgetClock {
            max_iterations: budget.iterations.unwrap_or(u64::MAX),
            deadline: budget.deadline(Instant::now()),
        }
    }

    /// True when a search that has completed `done` iterations must stop.
    #[inline]
    pub fn exhausted(&self, done: u64) -> bool {
        if done >= self.max_iterations {
            return true;
        }
        match self.deadline {
            Some(d) if done % CLOCK_EVERY == 0 => Instant::now() >= d,
            _ => false,
        }
    }

    /// True when the wall-clock deadline (if any) has passed; reads the clock.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The iteration limit (`u64::MAX` when only time is limited).
    pub fn max_iterations(&self) -> u64 {
        self.max_iterations
    }
}
