//! Leaf parallelism: one master walks the tree (MO-ISMCTS: its tree per seat, together); from
//! each new leaf, `threads` playouts run in parallel and the master backs all of them up.
//!
//! Playouts take about a microsecond, so the hand-off is a spin on shared words rather than a
//! channel. The master writes the leaf state, resets the claim counter and publishes
//! `(epoch, playouts)` with a `Release` store. The master and the spinning workers then claim
//! playout slots with a compare-and-swap on the counter, so when a worker is not running (more
//! threads than free cores) the master simply plays its slots itself instead of waiting for it.
//! Each slot's playout draws from a generator seeded by `(search seed, epoch, slot)`, so the
//! result does not depend on which thread ran it: with an iteration budget, leaf search is as
//! reproducible as sequential search, except with NAST or EPIC playouts, whose one table the
//! leaf's playouts read and update as they run. Waiting threads spin briefly, then yield their
//! core.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};

use crossbeam::utils::CachePadded;
use parking_lot::Mutex;

use crate::game::{Game, MAX_SEATS, Rng, next_seed, rng_from_seed};

use super::Budget;
use super::budget::{BudgetClock, CLOCK_EVERY};
use super::crew::Crew;
use super::nast::MoveLog;
use super::rollout::{Rewards, Roller};
use super::tree::{Exclusive, NodeId, Tree, TreeRef};
use super::walk::{Ucb, Walk};
use super::worlds::Worlds;

/// The signal that ends the workers' loop.
const STOP: u64 = u64::MAX;
/// Low bits of the signal and claim words: the playout count or the next slot.
const LOW_BITS: u32 = 16;
const LOW_MASK: u64 = (1 << LOW_BITS) - 1;
/// Spins before a waiting thread starts yielding its core.
const SPINS_BEFORE_YIELD: u32 = 200;

/// One playout's result, alone on its cache line.
#[derive(Default)]
struct Slot {
    /// The epoch whose playout `rewards` holds.
    done: AtomicU64,
    rewards: [AtomicU64; MAX_SEATS],
}

/// What the playouts of one epoch start from.
struct Job<G> {
    /// The leaf state.
    state: Option<G>,
    /// The moves that led to it (for NAST and EPIC; empty for playouts that log nothing).
    /// Each thread copies these moves into a log of its own, whose scratch space the copy
    /// leaves alone: cloning a whole log, scratch and all (3.6 KB), twice per leaf was what
    /// a leaf's hand-off cost most (docs/performance.md).
    log: MoveLog,
}

struct Hub<'a, G> {
    /// The current epoch's job. The master writes it only while nobody can read it: before
    /// publishing an epoch, and after every slot of the previous epoch is done. Others read it
    /// only while holding an unfinished slot of the current epoch.
    job: UnsafeCell<Job<G>>,
    /// `epoch << LOW_BITS | playouts`, or [`STOP`].
    signal: AtomicU64,
    /// `epoch << LOW_BITS | next unclaimed slot`.
    claim: AtomicU64,
    /// Set when a worker panicked, so the master stops waiting.
    failed: AtomicBool,
    /// Seed of every playout generator of this search.
    seed: u64,
    /// The playout policy and reward function.
    roller: Roller<'a>,
    slots: Vec<CachePadded<Slot>>,
}

// SAFETY: `job` is accessed only under the epoch and claim protocol described on the field;
// everything else is atomic or immutable.
unsafe impl<G: Send + Sync> Sync for Hub<'_, G> {}

impl<G: Game> Hub<'_, G> {
    /// Claims the next unplayed slot of `epoch`, if any.
    #[inline]
    fn claim(&self, epoch: u64, playouts: u64) -> Option<usize> {
        let mut cur = self.claim.load(Acquire);
        loop {
            if cur >> LOW_BITS != epoch || cur & LOW_MASK >= playouts {
                return None;
            }
            match self
                .claim
                .compare_exchange_weak(cur, cur + 1, AcqRel, Acquire)
            {
                Ok(_) => return Some((cur & LOW_MASK) as usize),
                Err(seen) => cur = seen,
            }
        }
    }

    /// Plays slot `slot` of `epoch` from the published leaf, continuing its moves in this
    /// thread's `log`, and stores the rewards.
    #[inline]
    fn play(&self, epoch: u64, slot: usize, log: &mut MoveLog) {
        // SAFETY: this thread holds slot `slot` of the current epoch and has not marked it
        // done, so the master will not write `job` until after the store below.
        let job = unsafe { &*self.job.get() };
        let mut state = job.state.clone().expect("a published leaf");
        log.copy_moves_from(&job.log);
        let mut rng = rng_from_seed(self.seed ^ (epoch << LOW_BITS | slot as u64));
        let rewards = self.roller.finish(&mut state, &mut rng, log);
        let cell = &self.slots[slot];
        for (c, r) in cell.rewards.iter().zip(rewards) {
            c.store(r.to_bits(), Relaxed);
        }
        cell.done.store(epoch, Release);
    }
}

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

/// Leaf-parallel search on a group of trees already reset for `worlds` (one tree, or
/// MO-ISMCTS's tree per seat), with the crew's threads: thread 0 (the caller) is the master.
/// Returns playouts backed up.
pub(super) fn leaf<G: Game, W: Worlds<G>>(
    crew: &Crew,
    trees: &mut [Tree<G::Move>],
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    roller: Roller<'_>,
    rng: &mut Rng,
) -> u64 {
    let threads = crew.threads();
    let clock = BudgetClock::start(budget);
    let hub = Hub::<G> {
        job: UnsafeCell::new(Job {
            state: None,
            log: MoveLog::default(),
        }),
        signal: AtomicU64::new(0),
        claim: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        seed: next_seed(rng),
        roller,
        slots: (0..threads).map(|_| CachePadded::default()).collect(),
    };
    let master_state = Mutex::new((trees, rng));
    let done = crew.run(|i| {
        if i == 0 {
            let mut guard = master_state.lock();
            let (trees, rng) = &mut *guard;
            master(&hub, trees, worlds, &clock, ucb, threads, rng)
        } else {
            worker(&hub);
            0
        }
    });
    done.iter().sum()
}

fn master<G: Game, W: Worlds<G>>(
    hub: &Hub<'_, G>,
    trees: &mut [Tree<G::Move>],
    worlds: &W,
    clock: &BudgetClock,
    ucb: Ucb,
    threads: usize,
    rng: &mut Rng,
) -> u64 {
    let _stop = StopOnDrop(&hub.signal);
    let t: Vec<TreeRef<'_, G::Move, Exclusive>> = trees.iter_mut().map(Tree::exclusive).collect();
    let mut walk = Walk::new(ucb, false, false, hub.roller.logs_moves(), t.len());
    // The log the master's own share of a leaf's playouts continue in.
    let mut leaf_log = MoveLog::default();
    let max = clock.max_iterations();
    // Read the clock about every CLOCK_EVERY playouts, as the other modes do.
    let clock_every = (CLOCK_EVERY / threads as u64).max(1);
    let mut done = 0u64;
    let mut batches = 0u64;
    let mut epoch = 0u64;
    loop {
        if done >= max || clock.out_of_time(batches, clock_every) {
            break;
        }
        let k = (threads as u64).min(max - done);
        let (root, mut state) = worlds.world(batches, rng);
        batches += 1;
        walk.descend(&t, worlds, NodeId(root), &mut state, rng, k as u32);
        let mut sums: Rewards = [0.0; MAX_SEATS];
        if state.is_terminal() || k == 1 {
            // Nothing to share out: one playout, or a leaf that is already the end.
            let rewards = hub.roller.finish(&mut state, rng, walk.log());
            for (s, r) in sums.iter_mut().zip(rewards) {
                *s = r * k as f64;
            }
        } else {
            // SAFETY: every slot of the previous epoch is done and no slot of the next one is
            // claimable yet, so nobody reads `job` now.
            let job = unsafe { &mut *hub.job.get() };
            job.state = Some(state);
            job.log.copy_moves_from(walk.log());
            epoch += 1;
            hub.claim.store(epoch << LOW_BITS, Relaxed);
            hub.signal.store(epoch << LOW_BITS | k, Release);
            // Play slots until none is left, then wait for those that workers took.
            while let Some(slot) = hub.claim(epoch, k) {
                hub.play(epoch, slot, &mut leaf_log);
            }
            for slot in &hub.slots[..k as usize] {
                spin_until(|| {
                    assert!(!hub.failed.load(Acquire), "a leaf worker panicked");
                    slot.done.load(Acquire) == epoch
                });
                // Summed in slot order, so the totals do not depend on who played what.
                for (s, r) in sums.iter_mut().zip(&slot.rewards) {
                    *s += f64::from_bits(r.load(Relaxed));
                }
            }
        }
        if W::AVAILABILITY {
            walk.backup::<_, _, true>(&t, k as u32, &sums);
        } else {
            walk.backup::<_, _, false>(&t, k as u32, &sums);
        }
        done += k;
    }
    done
}

fn worker<G: Game>(hub: &Hub<'_, G>) {
    let _fail = FailOnPanic(&hub.failed);
    let mut log = MoveLog::default();
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
        let (epoch, playouts) = (signal >> LOW_BITS, signal & LOW_MASK);
        while let Some(slot) = hub.claim(epoch, playouts) {
            hub.play(epoch, slot, &mut log);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TreeMove;
    use crate::games::{GameDef, Sueca};
    use crate::search::nast::{NgramStats, Ngrams, Policy};
    use crate::search::reward::RewardFn;
    use crate::search::rollout::{Playout, Rollout};

    #[test]
    fn a_leaf_playout_continues_the_walks_moves_in_its_own_log() {
        // The walk played five moves and the playout the other 35 of a Sueca deal: the n-gram
        // statistics count every one of the 40 once, however many moves the playing thread's
        // log held from its last leaf.
        let ngrams = Ngrams {
            n: 2,
            policy: Policy::Gibbs { tau: 1.0 },
            episodic: false,
        };
        let stats = NgramStats::new(ngrams);
        let mut rng = rng_from_seed(3);
        let mut state = Sueca::new_game(&Default::default(), &mut rng);
        let mut walk_log = MoveLog::default();
        for _ in 0..5 {
            let mv = state.legal_moves().random(&mut rng);
            walk_log.push(&state, mv.bit());
            state.play(mv);
        }
        let mut stale = MoveLog::default();
        for _ in 0..30 {
            stale.push(&state, 0);
        }
        let mut hub = Hub::<Sueca> {
            job: UnsafeCell::new(Job {
                state: Some(state),
                log: MoveLog::default(),
            }),
            signal: AtomicU64::new(0),
            claim: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            seed: 1,
            roller: Roller {
                rollout: Rollout {
                    playout: Playout::Ngrams(ngrams),
                    reward: RewardFn::PositiveWinLoss,
                },
                tables: std::slice::from_ref(&stats),
            },
            slots: vec![CachePadded::default()],
        };
        hub.job.get_mut().log.copy_moves_from(&walk_log);
        hub.play(1, 0, &mut stale);
        assert_eq!(stats.total_count(), 40);
        assert_eq!(stale.len(), 40);
        assert_eq!(hub.slots[0].done.load(Relaxed), 1);
    }
}
