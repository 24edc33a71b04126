//! The search loops: sequential, root-parallel and tree-parallel (lock-free or locked).
//!
//! Every loop runs the same [`Walker`] iteration. Sequential search owns its tree
//! ([`Exclusive`] access, no atomic read-modify-write). Root parallelism runs that same loop on
//! one private tree per thread with its own seed and a share of the iteration budget, and the
//! caller merges root statistics by move. Tree parallelism shares one tree: threads claim
//! iterations in chunks from a [`SharedBudget`] and walk with [`Shared`] (lock-free) or
//! [`Locked`] (per-node lock) access, adding virtual loss on the way down.
//!
//! [`Shared`]: super::tree::Shared
//! [`Locked`]: super::tree::Locked

use parking_lot::Mutex;

use crate::game::{Game, Rng, rng_from_seed};

use super::Budget;
use super::budget::{BudgetClock, CLOCK_EVERY, SharedBudget};
use super::crew::{Crew, seeds};
use super::rollout::{Rewards, Rollout};
use super::tree::{Concurrent, Exclusive, NodeId, Tree};
use super::walk::{Ucb, Walker};
use super::worlds::Worlds;

/// One iteration: world, walk, playout, backup.
#[inline]
fn iterate<G: Game, W: Worlds<G>, A: super::tree::Access>(
    walker: &mut Walker,
    tree: super::tree::TreeRef<'_, G::Move, A>,
    worlds: &W,
    i: u64,
    rollout: Rollout,
    rng: &mut Rng,
) {
    let (root, mut state) = phases::determinize(worlds, i, rng);
    phases::select_expand(walker, tree, worlds, NodeId(root), &mut state, rng);
    let rewards = phases::playout(rollout, &mut state, rng);
    if W::AVAILABILITY {
        phases::backpropagate::<G, A, true>(walker, tree, &rewards);
    } else {
        phases::backpropagate::<G, A, false>(walker, tree, &rewards);
    }
}

/// The four phases of an iteration as named functions. They inline into one loop in normal
/// builds; with the `profile-phases` feature they stay out of line, so a flamegraph attributes
/// the time of each phase by name (at the cost of four calls per iteration).
mod phases {
    use super::*;

    /// Determinization: the world this iteration plays in (a fresh sample for ISMCTS).
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn determinize<G: Game, W: Worlds<G>>(
        worlds: &W,
        i: u64,
        rng: &mut Rng,
    ) -> (u32, G) {
        worlds.world(i, rng)
    }

    /// Selection and expansion: the walk from the root to a new leaf.
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn select_expand<G: Game, W: Worlds<G>, A: super::super::tree::Access>(
        walker: &mut Walker,
        tree: super::super::tree::TreeRef<'_, G::Move, A>,
        worlds: &W,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
    ) {
        walker.descend(tree, worlds, root, state, rng, 1);
    }

    /// The playout to the end of the game, and the rewards there.
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn playout<G: Game>(rollout: Rollout, state: &mut G, rng: &mut Rng) -> Rewards {
        rollout.finish(state, rng)
    }

    /// Backpropagation of the playout's rewards along the walked path.
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn backpropagate<G: Game, A: super::super::tree::Access, const AVAIL: bool>(
        walker: &mut Walker,
        tree: super::super::tree::TreeRef<'_, G::Move, A>,
        rewards: &Rewards,
    ) {
        walker.backup::<_, A, AVAIL>(tree, 1, rewards);
    }
}

/// Single-threaded search on a tree already reset for `worlds`. Returns iterations done.
pub(super) fn sequential<G: Game, W: Worlds<G>>(
    tree: &mut Tree<G::Move>,
    worlds: &W,
    clock: &BudgetClock,
    ucb: Ucb,
    rollout: Rollout,
    rng: &mut Rng,
) -> u64 {
    let t = tree.exclusive();
    let mut walker = Walker::new(ucb, false);
    let mut done = 0;
    while !clock.exhausted(done) {
        iterate::<G, W, Exclusive>(&mut walker, t, worlds, done, rollout, rng);
        done += 1;
    }
    done
}

/// Root parallelism: one sequential search per tree and crew thread. Iteration budgets are split
/// evenly (the first `n % threads` trees do one more); every thread stops at the same deadline.
/// Returns the iterations done in each tree.
pub(super) fn root<G: Game, W: Worlds<G>>(
    crew: &Crew,
    trees: &mut [Tree<G::Move>],
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    rollout: Rollout,
    rng: &mut Rng,
) -> Vec<u64> {
    let n = trees.len();
    let seeds = seeds(rng, n);
    let start = BudgetClock::start(budget);
    let cells: Vec<Mutex<&mut Tree<G::Move>>> = trees.iter_mut().map(Mutex::new).collect();
    crew.run(|i| {
        let Some(cell) = cells.get(i) else { return 0 };
        let mut tree = cell.lock();
        let clock = start.portion(i, n);
        let mut rng = rng_from_seed(seeds[i]);
        sequential(&mut tree, worlds, &clock, ucb, rollout, &mut rng)
    })
}

/// Tree parallelism with access discipline `A` ([`super::tree::Shared`] or
/// [`super::tree::Locked`]) on one tree already reset for `worlds`.
pub(super) fn tree<G: Game, W: Worlds<G>, A: Concurrent>(
    crew: &Crew,
    tree: &Tree<G::Move>,
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    rollout: Rollout,
    rng: &mut Rng,
) -> u64 {
    let threads = crew.threads();
    let seeds = seeds(rng, threads);
    let shared = SharedBudget::start(budget);
    let done = crew.run(|i| {
        let t = tree.concurrent::<A>();
        let mut walker = Walker::new(ucb, true);
        let mut rng = rng_from_seed(seeds[i]);
        // Iteration numbers interleave threads so PIMC's roots are used evenly.
        let mut index = i as u64;
        let mut done = 0u64;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            loop {
                let k = shared.claim(CLOCK_EVERY);
                if k == 0 {
                    break;
                }
                for _ in 0..k {
                    iterate::<G, W, A>(&mut walker, t, worlds, index, rollout, &mut rng);
                    index += threads as u64;
                }
                done += k;
            }
        }));
        if let Err(panic) = run {
            // A panic (a bug in a game, say) must not leave the others waiting: free the lock
            // this thread may hold, stop them, and let the crew report the panic.
            t.release_held_lock();
            shared.stop();
            std::panic::resume_unwind(panic);
        }
        walker.flush_root_passes(t);
        done
    });
    done.iter().sum()
}
