//! What the machine does to shared-memory search: the time one core takes to see a cache line
//! another core wrote.
//!
//! Tree and leaf parallelism pay that time on every line the threads both write, so their
//! speedups depend on it as much as on the core count. On a virtual machine it also changes with
//! where the host places the virtual CPUs (on the 2-vCPU machine these numbers come from, from
//! about 30 ns to over 250 ns one way within an hour), so a scaling measurement is only
//! comparable with another taken at a similar hand-off time. `cardsearch scale` and the search
//! bench report it next to their numbers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::*};
use std::time::{Duration, Instant};

/// Spins a waiting thread makes before it yields (in case both threads share one core, where
/// pure spinning would wait out a whole time slice per hand-off).
const SPINS_BEFORE_YIELD: u32 = 1 << 14;

/// The median one-way hand-off time between two threads, over `trials` trials of `rounds`
/// round trips each: one thread writes a counter, the other waits to see it and answers.
///
/// The operating system picks the cores; on an idle machine with at least two cores they are
/// two different ones. Takes about `trials × rounds × 2 ×` the hand-off time, and at most
/// about `trials ×` [`TRIAL_TIME`]: on a machine whose cores are all busy with other work each
/// hand-off can wait out a time slice, and a trial then stops early, its time divided by the
/// hand-offs made.
pub fn handoff_latency(trials: usize, rounds: u64) -> Duration {
    let mut samples: Vec<Duration> = (0..trials.max(1))
        .map(|_| one_trial(rounds.max(1)))
        .collect();
    samples.sort();
    samples[samples.len() / 2]
}

/// A quick default: 5 trials of 20,000 round trips (a few milliseconds on an idle machine).
pub fn quick_handoff_latency() -> Duration {
    handoff_latency(5, 20_000)
}

/// The longest one trial runs before it stops early: 20,000 round trips take a few
/// milliseconds on an idle machine, and took over 30 s of `scale` beside a match that kept
/// both of a 2-core machine's cores busy.
pub const TRIAL_TIME: Duration = Duration::from_millis(250);

/// The counter value that tells the echo thread a trial stopped early.
const STOP: u64 = u64::MAX;

/// Round trips between clock reads in a trial: a clock read costs about one hand-off.
const ROUNDS_PER_CLOCK: u64 = 256;

fn one_trial(rounds: u64) -> Duration {
    let counter = Arc::new(AtomicU64::new(0));
    let echo = {
        let counter = Arc::clone(&counter);
        std::thread::spawn(move || {
            for i in 0..rounds {
                if !wait_for(&counter, 2 * i + 1) {
                    return;
                }
                counter.store(2 * i + 2, Release);
            }
        })
    };
    let start = Instant::now();
    let mut done = 0;
    while done < rounds {
        if done % ROUNDS_PER_CLOCK == 0 && done > 0 && start.elapsed() > TRIAL_TIME {
            break;
        }
        counter.store(2 * done + 1, Release);
        wait_for(&counter, 2 * done + 2);
        done += 1;
    }
    let elapsed = start.elapsed();
    // The echo thread waits for the next round, or has finished the last.
    counter.store(STOP, Release);
    echo.join().expect("the echo thread only spins and stores");
    elapsed.div_f64((2 * done) as f64)
}

/// Waits until `counter` holds `value` (true) or [`STOP`] (false).
fn wait_for(counter: &AtomicU64, value: u64) -> bool {
    let mut spins = 0u32;
    loop {
        match counter.load(Acquire) {
            v if v == value => return true,
            STOP => return false,
            _ => {}
        }
        spins += 1;
        if spins == SPINS_BEFORE_YIELD {
            spins = 0;
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// How many cores two threads actually get: the time of a fixed piece of arithmetic on one
/// thread, times two, over the time of two threads doing it at once. About 2 with two free
/// cores, about 1 when they share one (another process, or a host that runs both virtual CPUs
/// on one physical core). Takes about three times one piece (`work` steps, ~1 ns each).
pub fn two_thread_capacity(work: u64) -> f64 {
    let one = time_work(work);
    let pair = {
        let start = Instant::now();
        let other = std::thread::spawn(move || busy(work));
        let mine = busy(work);
        let theirs = other.join().expect("a pure loop");
        std::hint::black_box(mine ^ theirs);
        start.elapsed()
    };
    2.0 * one.as_secs_f64() / pair.as_secs_f64()
}

fn time_work(work: u64) -> Duration {
    let start = Instant::now();
    std::hint::black_box(busy(work));
    start.elapsed()
}

/// A dependent chain of cheap arithmetic the optimiser cannot shorten.
fn busy(steps: u64) -> u64 {
    let mut x = std::hint::black_box(0x9E37_79B9_7F4A_7C15u64);
    for _ in 0..steps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handoff_takes_some_time_and_finishes() {
        // Only that the two threads complete the protocol and the result is positive; the
        // value itself depends on the machine and is not asserted.
        let t = handoff_latency(3, 200);
        assert!(t > Duration::ZERO);
    }

    #[test]
    fn a_trial_too_long_for_its_time_stops_early_with_a_positive_time() {
        // 2^62 round trips would take centuries: the trial must stop after about TRIAL_TIME.
        // The minute allowed here is a bound on hanging, not a measure of speed.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(handoff_latency(1, 1 << 62)));
        let t = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the trial stopped early");
        assert!(t > Duration::ZERO);
    }

    #[test]
    fn capacity_is_a_positive_ratio() {
        // The value depends on the machine's load; only its sanity is checked.
        let c = two_thread_capacity(100_000);
        assert!(c.is_finite() && c > 0.0);
    }
}
