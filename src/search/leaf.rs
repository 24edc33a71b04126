//! Leaf parallelism: one master walks the tree; at each new leaf every thread runs one playout
//! from the same leaf state and the master backs up all the results.
//!
//! Playouts take about a microsecond, so the hand-off is a spin on one shared word rather than a
//! channel: the master writes the leaf state, then publishes `(epoch, active threads)` with a
//! `Release` store; each worker spins on that word, copies the state, plays out, writes its
//! rewards to its own cache line and publishes its epoch. Spinners fall back to
//! `yield_now` after a short while, so more threads than cores slow down but never livelock.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};

use crossbeam::utils::CachePadded;
use parking_lot::Mutex;

use crate::game::{Game, MAX_SEATS, Rng, rng_from_seed};

use super::Budget;
use super::budget::{BudgetClock, CLOCK_EVERY};
use super::rollout::{Rewards, random_playout, terminal_rewards};
use super::searcher::seeds;
use super::tree::{NodeId, Tree};
use super::walk::{Ucb, Walker};
use super::worlds::Worlds;

/// The signal that ends the workers' loop.
const STOP: u64 = u64::MAX;
/// Bits of the signal word that carry the number of active threads.
const COUNT_BITS: u32 = 16;
/// Spins before a waiting thread starts yielding its core.
const SPINS_BEFORE_YIELD: u32 = 256;

/// One worker's result cell, alone on its cache line.
#[derive(Default)]
struct Slot {
    /// The epoch whose playout `rewards` holds.
    done: AtomicU64,
    rewards: [AtomicU64; MAX_SEATS],
}

struct Hub<G> {
    /// The leaf state of the current epoch. Written by the master only while no worker reads
    /// it: before publishing an epoch, after every active worker has published its result.
    job: UnsafeCell<Option<G>>,
    /// `epoch << COUNT_BITS | active threads`, or [`STOP`].
    signal: AtomicU64,
    /// Set when a worker panicked, so the master stops waiting for it.
    failed: AtomicBool,
    slots: Vec<CachePadded<Slot>>,
}

// SAFETY: `job` is only accessed under the epoch protocol described on the field; everything
// else is atomic.
unsafe impl<G: Send + Sync> Sync for Hub<G> {}

/// Waits until `ready` holds: spins briefly, then yields the core between checks.
#[inline]
fn spin_until(mut ready: impl FnMut() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < SPINS_BEFORE_YIELD {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// Stops the workers however the master leaves (a panic in a game included).
struct StopOnDrop<'a>(&'a AtomicU64);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(STOP, Release);
    }
}

/// Marks the hub failed if a worker unwinds.
struct FailOnPanic<'a>(&'a AtomicBool);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Release);
        }
    }
}

/// Leaf-parallel search on a tree already reset for `worlds`, with the pool's `threads`
/// threads: thread 0 is the master. Returns playouts backed up.
pub(super) fn leaf<G: Game, W: Worlds<G>>(
    pool: &rayon::ThreadPool,
    tree: &mut Tree<G::Move>,
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    threads: usize,
    rng: &mut Rng,
) -> u64 {
    let seeds = seeds(rng, threads);
    let clock = BudgetClock::start(budget);
    let hub = Hub::<G> {
        job: UnsafeCell::new(None),
        signal: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        slots: (0..threads).map(|_| CachePadded::default()).collect(),
    };
    let tree = Mutex::new(tree);
    let done = pool.broadcast(|ctx| {
        let i = ctx.index();
        let mut rng = rng_from_seed(seeds[i]);
        if i == 0 {
            let mut tree = tree.lock();
            master(&hub, &mut tree, worlds, &clock, ucb, threads, &mut rng)
        } else {
            worker(&hub, i, &mut rng);
            0
        }
    });
    done.iter().sum()
}

fn master<G: Game, W: Worlds<G>>(
    hub: &Hub<G>,
    tree: &mut Tree<G::Move>,
    worlds: &W,
    clock: &BudgetClock,
    ucb: Ucb,
    threads: usize,
    rng: &mut Rng,
) -> u64 {
    let _stop = StopOnDrop(&hub.signal);
    let t = tree.exclusive();
    let mut walker = Walker::new(ucb, false);
    let max = clock.max_iterations();
    // Read the clock about every CLOCK_EVERY playouts, as the other modes do.
    let clock_every = (CLOCK_EVERY / threads as u64).max(1);
    let mut done = 0u64;
    let mut batches = 0u64;
    let mut epoch = 0u64;
    loop {
        if done >= max || (batches.is_multiple_of(clock_every) && clock.past_deadline()) {
            break;
        }
        let k = (threads as u64).min(max - done) as u32;
        let (root, mut state) = worlds.world(batches, rng);
        batches += 1;
        if W::AVAILABILITY {
            walker.descend::<G, _, true>(t, NodeId(root), &mut state, rng, k);
        } else {
            walker.descend::<G, _, false>(t, NodeId(root), &mut state, rng, k);
        }
        let mut sums: Rewards = [0.0; MAX_SEATS];
        if state.is_terminal() || k == 1 {
            // Nothing to share: every playout from a terminal state ends the same way.
            random_playout(&mut state, rng);
            let r = terminal_rewards(&state);
            for (s, v) in sums.iter_mut().zip(r) {
                *s = v * k as f64;
            }
        } else {
            // SAFETY: every worker active in the previous epoch has published its result, and
            // workers read `job` only after seeing a new epoch, so nobody is reading it now.
            unsafe { *hub.job.get() = Some(state.clone()) };
            epoch += 1;
            hub.signal.store(epoch << COUNT_BITS | k as u64, Release);
            random_playout(&mut state, rng);
            sums = terminal_rewards(&state);
            for slot in &hub.slots[1..k as usize] {
                spin_until(|| {
                    assert!(!hub.failed.load(Acquire), "a leaf worker panicked");
                    slot.done.load(Acquire) == epoch
                });
                for (s, r) in sums.iter_mut().zip(&slot.rewards) {
                    *s += f64::from_bits(r.load(Relaxed));
                }
            }
        }
        walker.backup(t, k, &sums);
        done += k as u64;
    }
    done
}

fn worker<G: Game>(hub: &Hub<G>, index: usize, rng: &mut Rng) {
    let _fail = FailOnPanic(&hub.failed);
    let slot = &hub.slots[index];
    let mut last = 0u64;
    loop {
        let mut signal = last;
        spin_until(|| {
            signal = hub.signal.load(Acquire);
            signal != last
        });
        if signal == STOP {
            return;
        }
        last = signal;
        let active = (signal & ((1 << COUNT_BITS) - 1)) as usize;
        if index >= active {
            continue;
        }
        // SAFETY: the master published this epoch after writing `job` and will not write it
        // again before this worker publishes its result below.
        let mut state = unsafe { (*hub.job.get()).clone() }.expect("a published leaf");
        random_playout(&mut state, rng);
        for (cell, r) in slot.rewards.iter().zip(terminal_rewards(&state)) {
            cell.store(r.to_bits(), Relaxed);
        }
        slot.done.store(signal >> COUNT_BITS, Release);
    }
}
