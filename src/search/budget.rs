//! How long a search may run: a number of iterations, a wall-clock time, or both (whichever
//! runs out first), and a [`StopSignal`] another thread may raise to end it at once. The clock
//! and the signal are read every few iterations, never every one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A flag another thread raises to end searches now (the engine protocol's `stop`, Ctrl-C).
/// Clones share the flag; a search that sees it raised stops at its next budget check, a few
/// iterations later, and returns what it has.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// A signal not yet raised.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Asks every search watching this signal to stop.
    pub fn raise(&self) {
        self.0.store(true, Relaxed);
    }

    /// Lowers the signal again, for the next search.
    pub fn reset(&self) {
        self.0.store(false, Relaxed);
    }

    /// True once raised.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Relaxed)
    }
}

impl PartialEq for StopSignal {
    /// Two signals are equal when they are the same flag.
    fn eq(&self, other: &StopSignal) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopSignal {}

/// A search budget. At least one limit must be set.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// Stop after this many iterations.
    pub iterations: Option<u64>,
    /// Stop once this much wall time has passed.
    pub time: Option<Duration>,
    /// Stop when this is raised.
    pub stop: Option<StopSignal>,
}

impl Budget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::default()
        }
    }

    /// A budget of `ms` milliseconds.
    pub fn millis(ms: u64) -> Budget {
        Budget {
            time: Some(Duration::from_millis(ms)),
            ..Budget::default()
        }
    }

    /// This budget, also ended by `stop`.
    pub fn with_stop(self, stop: StopSignal) -> Budget {
        Budget {
            stop: Some(stop),
            ..self
        }
    }

    /// True when the stop signal, if any, has been raised.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(StopSignal::is_raised)
    }

    /// The deadline of a search that starts at `start`, if time-limited.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.map(|t| start + t)
    }

    /// This budget with its limits replaced by `own`'s when there is one (an agent spec's own
    /// budget), keeping this one's stop signal.
    pub fn replaced_by(self, own: Option<&Budget>) -> Budget {
        match own {
            Some(own) => Budget {
                stop: self.stop,
                ..own.clone()
            },
            None => self,
        }
    }

    /// This budget with its iterations and time multiplied by `factor` (iterations rounded,
    /// at least 1): a share of a turn's budget ([`super::SearchConfig::turn_share`]).
    pub fn scaled(self, factor: f64) -> Budget {
        Budget {
            iterations: self
                .iterations
                .map(|n| ((n as f64 * factor).round() as u64).max(1)),
            time: self.time.map(|t| t.mul_f64(factor)),
            ..self
        }
    }

    /// This budget less the time spent since `start` (preparing the search): a move's clock
    /// runs from the moment the agent is asked.
    pub fn charged_from(self, start: Instant) -> Budget {
        Budget {
            time: self.time.map(|t| t.saturating_sub(start.elapsed())),
            ..self
        }
    }

    /// Short text such as `1000 it` or `50 ms` or `1000 it / 50 ms`.
    pub fn describe(&self) -> String {
        // Whole milliseconds as they are (logs compare these words when a match continues);
        // the protocol's fractions of one (`time_ms: 0.5`) to the microsecond, not as `0 ms`.
        let millis = |t: Duration| {
            if t.subsec_nanos().is_multiple_of(1_000_000) {
                t.as_millis().to_string()
            } else {
                let text = format!("{:.3}", t.as_secs_f64() * 1000.0);
                text.trim_end_matches('0').to_string()
            }
        };
        match (self.iterations, self.time) {
            (Some(n), None) => format!("{n} it"),
            (None, Some(t)) => format!("{} ms", millis(t)),
            (Some(n), Some(t)) => format!("{n} it / {} ms", millis(t)),
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
    stop: Option<StopSignal>,
}

/// How many iterations pass between clock reads.
pub const CLOCK_EVERY: u64 = 16;

impl BudgetClock {
    /// Starts the clock now.
    pub fn start(budget: &Budget) -> BudgetClock {
        BudgetClock {
            max_iterations: budget.iterations.unwrap_or(u64::MAX),
            deadline: budget.deadline(Instant::now()),
            stop: budget.stop.clone(),
        }
    }

    /// A share of this clock: the same deadline and stop signal with its own iteration limit
    /// (every thread of a root-parallel search stops together).
    pub fn share(&self, max_iterations: u64) -> BudgetClock {
        BudgetClock {
            max_iterations,
            ..self.clone()
        }
    }

    /// The deadline, if time-limited.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// True when a search that has completed `done` iterations must stop.
    #[inline]
    pub fn exhausted(&self, done: u64) -> bool {
        done >= self.max_iterations || self.out_of_time(done, CLOCK_EVERY)
    }

    /// True when a search that has taken `steps` steps (iterations, or a leaf-parallel
    /// search's batches) and reads the clock every `every` steps must stop for time or its
    /// signal. A search not stopped by its signal takes at least one step however late it
    /// starts: a process descheduled for a few milliseconds (a loaded machine) would
    /// otherwise answer a short time budget with no search at all, a random move. The clock
    /// is read after the first step too, so a late search stops after one.
    #[inline]
    pub fn out_of_time(&self, steps: u64, every: u64) -> bool {
        if steps == 0 {
            return self.stop.as_ref().is_some_and(StopSignal::is_raised);
        }
        (steps == 1 || steps.is_multiple_of(every)) && self.past_deadline()
    }

    /// True when the wall-clock deadline (if any) has passed or the stop signal is raised;
    /// reads the clock.
    pub fn past_deadline(&self) -> bool {
        self.stop.as_ref().is_some_and(StopSignal::is_raised)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The iteration limit (`u64::MAX` when only time is limited).
    pub fn max_iterations(&self) -> u64 {
        self.max_iterations
    }

    /// The clock of worker `i` of `n` that split this budget: the same deadline and stop
    /// signal and an equal share of the iterations (the first `max % n` workers do one more).
    pub fn portion(&self, i: usize, n: usize) -> BudgetClock {
        let (i, n) = (i as u64, n as u64);
        let max = self.max_iterations;
        self.share(if max == u64::MAX {
            max
        } else {
            max / n + u64::from(i < max % n)
        })
    }
}

/// A budget shared by the threads of one search: they claim iterations in chunks and stop
/// together.
///
/// A thread calls [`SharedBudget::claim`] before each chunk; it reads the clock once per claim
/// and touches the shared counter only when iterations are limited, so a time-limited search
/// shares nothing but a rarely written stop flag.
#[derive(Debug)]
pub struct SharedBudget {
    max_iterations: u64,
    deadline: Option<Instant>,
    claimed: AtomicU64,
    stop: AtomicBool,
    /// Whether any claim has been granted: the first is granted past the deadline too (as
    /// [`BudgetClock::exhausted`] grants a first iteration), so a search not stopped by its
    /// signal completes at least one chunk.
    granted: AtomicBool,
    signal: Option<StopSignal>,
}

impl SharedBudget {
    /// Starts the clock now.
    pub fn start(budget: &Budget) -> SharedBudget {
        SharedBudget {
            max_iterations: budget.iterations.unwrap_or(u64::MAX),
            deadline: budget.deadline(Instant::now()),
            claimed: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            granted: AtomicBool::new(false),
            signal: budget.stop.clone(),
        }
    }

    /// Claims up to `chunk` more iterations; 0 means the search is over.
    #[inline]
    pub fn claim(&self, chunk: u64) -> u64 {
        if self.stop.load(Relaxed) {
            return 0;
        }
        if self.signal.as_ref().is_some_and(StopSignal::is_raised)
            || (self.deadline.is_some_and(|d| Instant::now() >= d) && self.granted.load(Relaxed))
        {
            self.stop.store(true, Relaxed);
            return 0;
        }
        // Read before written, so the flag's line is written once, not at every claim.
        if !self.granted.load(Relaxed) {
            self.granted.store(true, Relaxed);
        }
        if self.max_iterations == u64::MAX {
            return chunk;
        }
        let start = self.claimed.fetch_add(chunk, Relaxed);
        if start >= self.max_iterations {
            self.stop.store(true, Relaxed);
            return 0;
        }
        chunk.min(self.max_iterations - start)
    }

    /// Tells every thread to stop at its next claim.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_described_to_the_microsecond_below_a_whole_millisecond() {
        let time = |micros| Budget {
            iterations: None,
            time: Some(Duration::from_micros(micros)),
            stop: None,
        };
        assert_eq!(Budget::iterations(40).describe(), "40 it");
        assert_eq!(Budget::millis(20).describe(), "20 ms");
        assert_eq!(time(500).describe(), "0.5 ms");
        assert_eq!(time(1_250).describe(), "1.25 ms");
        let both = Budget {
            iterations: Some(9),
            ..time(50)
        };
        assert_eq!(both.describe(), "9 it / 0.05 ms");
    }

    #[test]
    fn a_scaled_budget_scales_iterations_and_time_and_keeps_the_stop_signal() {
        let both = Budget {
            iterations: Some(1000),
            time: Some(Duration::from_millis(100)),
            stop: Some(StopSignal::default()),
        };
        let half = both.clone().scaled(0.5);
        assert_eq!(half.iterations, Some(500));
        assert_eq!(half.time, Some(Duration::from_millis(50)));
        assert!(half.stop.is_some());
        // Rounded, and never below one iteration.
        assert_eq!(
            Budget::iterations(1000).scaled(0.6667).iterations,
            Some(667)
        );
        assert_eq!(Budget::iterations(3).scaled(0.01).iterations, Some(1));
        assert_eq!(
            Budget::millis(30).scaled(1.5).time,
            Some(Duration::from_millis(45))
        );
    }

    #[test]
    fn shared_budget_hands_out_exactly_the_iteration_limit() {
        let b = SharedBudget::start(&Budget::iterations(100));
        let mut total = 0;
        loop {
            let k = b.claim(16);
            if k == 0 {
                break;
            }
            total += k;
        }
        assert_eq!(total, 100);
        assert_eq!(b.claim(16), 0);
    }

    #[test]
    fn clock_counts_iterations() {
        let c = BudgetClock::start(&Budget::iterations(3));
        assert!(!c.exhausted(2));
        assert!(c.exhausted(3));
        // A budget whose time is up before the search starts still gets one iteration, and
        // only one; a raised stop signal gets none.
        let c = BudgetClock::start(&Budget::millis(0));
        assert!(!c.exhausted(0), "a search late to start still searches");
        assert!(c.exhausted(1));
        let stop = StopSignal::default();
        stop.raise();
        let stopped = Budget {
            stop: Some(stop),
            ..Budget::millis(1000)
        };
        assert!(BudgetClock::start(&stopped).exhausted(0));
        let shared = SharedBudget::start(&Budget::millis(0));
        assert_eq!(
            shared.claim(4),
            4,
            "the first claim is granted however late"
        );
        assert_eq!(shared.claim(4), 0);
        assert_eq!(SharedBudget::start(&stopped).claim(4), 0);
    }
}
