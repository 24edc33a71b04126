//! The search loops: sequential, root-parallel and tree-parallel (lock-free or locked).
//!
//! Every loop runs the same [`Walk`] iteration over a group of trees: one tree (SO-ISMCTS, PIMC,
//! UCT), or one per seat (MO-ISMCTS). Sequential search owns its trees ([`Exclusive`] access,
//! no atomic read-modify-write). Root parallelism runs that same loop on one private group per
//! thread with its own seed and a share of the iteration budget, and the caller merges root
//! statistics by move. Tree parallelism shares one group: threads claim iterations in chunks
//! from a [`SharedBudget`] and walk with [`Shared`] (lock-free) or [`Locked`] (per-node lock)
//! access, adding virtual loss on the way down.
//!
//! [`Shared`]: super::tree::Shared
//! [`Locked`]: super::tree::Locked

use parking_lot::Mutex;

use crate::game::{Game, Rng, rng_from_seed};

use super::Budget;
use super::budget::{BudgetClock, CLOCK_EVERY, SharedBudget};
use super::crew::{Crew, seeds};
use super::rollout::{Rewards, Roller};
use super::tree::{Concurrent, Exclusive, NodeId, Tree, TreeRef};
use super::walk::{Ucb, Walk, holds_top_levels};
use super::worlds::Worlds;

/// One iteration: world, walk, playout, backup.
#[inline]
fn iterate<G: Game, W: Worlds<G>, A: super::tree::Access>(
    walk: &mut Walk,
    trees: &[TreeRef<'_, G::Move, A>],
    worlds: &W,
    i: u64,
    roller: Roller<'_>,
    rng: &mut Rng,
) {
    let (root, mut state) = phases::determinize(worlds, i, rng);
    phases::select_expand(walk, trees, worlds, NodeId(root), &mut state, rng);
    let rewards = phases::playout(roller, &mut state, rng, walk.log());
    if W::AVAILABILITY {
        phases::backpropagate::<G, A, true>(walk, trees, &rewards);
    } else {
        phases::backpropagate::<G, A, false>(walk, trees, &rewards);
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
        walk: &mut Walk,
        trees: &[TreeRef<'_, G::Move, A>],
        worlds: &W,
        root: NodeId,
        state: &mut G,
        rng: &mut Rng,
    ) {
        walk.descend(trees, worlds, root, state, rng, 1);
    }

    /// The playout to the end of the game, and the rewards there.
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn playout<G: Game>(
        roller: Roller<'_>,
        state: &mut G,
        rng: &mut Rng,
        log: &mut crate::search::nast::MoveLog,
    ) -> Rewards {
        roller.finish(state, rng, log)
    }

    /// Backpropagation of the playout's rewards along the walked path.
    #[cfg_attr(feature = "profile-phases", inline(never))]
    #[cfg_attr(not(feature = "profile-phases"), inline(always))]
    pub(super) fn backpropagate<G: Game, A: super::super::tree::Access, const AVAIL: bool>(
        walk: &mut Walk,
        trees: &[TreeRef<'_, G::Move, A>],
        rewards: &Rewards,
    ) {
        walk.backup::<_, A, AVAIL>(trees, 1, rewards);
    }
}

/// Single-threaded search on a group of trees already reset for `worlds`. Returns iterations
/// done.
pub(super) fn sequential<G: Game, W: Worlds<G>>(
    trees: &mut [Tree<G::Move>],
    worlds: &W,
    clock: &BudgetClock,
    ucb: Ucb,
    roller: Roller<'_>,
    rng: &mut Rng,
) -> u64 {
    let t: Vec<TreeRef<'_, G::Move, Exclusive>> = trees.iter_mut().map(Tree::exclusive).collect();
    let mut walk = Walk::new(ucb, false, false, roller.logs_moves(), t.len());
    let mut done = 0;
    while !clock.exhausted(done) {
        iterate::<G, W, Exclusive>(&mut walk, &t, worlds, done, roller, rng);
        done += 1;
    }
    done
}

/// Root parallelism: one sequential search per group of `group` trees and crew thread.
/// Iteration budgets are split evenly (the first `n % threads` groups do one more); every thread
/// stops at the same deadline. Returns the iterations done in each group.
#[allow(clippy::too_many_arguments)]
pub(super) fn root<G: Game, W: Worlds<G>>(
    crew: &Crew,
    trees: &mut [Tree<G::Move>],
    group: usize,
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    roller: Roller<'_>,
    rng: &mut Rng,
) -> Vec<u64> {
    let n = trees.len() / group;
    let seeds = seeds(rng, n);
    let start = BudgetClock::start(budget);
    let cells: Vec<Mutex<&mut [Tree<G::Move>]>> = trees.chunks_mut(group).map(Mutex::new).collect();
    crew.run(|i| {
        let Some(cell) = cells.get(i) else { return 0 };
        let mut trees = cell.lock();
        let clock = start.portion(i, n);
        let mut rng = rng_from_seed(seeds[i]);
        sequential(
            &mut trees,
            worlds,
            &clock,
            ucb,
            roller.for_thread(i),
            &mut rng,
        )
    })
}

/// Tree parallelism with access discipline `A` ([`super::tree::Shared`] or
/// [`super::tree::Locked`]) on one group of trees already reset for `worlds`.
pub(super) fn tree<G: Game, W: Worlds<G>, A: Concurrent>(
    crew: &Crew,
    trees: &[Tree<G::Move>],
    worlds: &W,
    budget: &Budget,
    ucb: Ucb,
    roller: Roller<'_>,
    rng: &mut Rng,
) -> u64 {
    let threads = crew.threads();
    let seeds = seeds(rng, threads);
    let shared = SharedBudget::start(budget);
    let done = crew.run(|i| {
        let t: Vec<TreeRef<'_, G::Move, A>> = trees.iter().map(Tree::concurrent::<A>).collect();
        let roller = roller.for_thread(i);
        // Rows for the root's grandchildren only for a lock-free ISMCTS walk over one tree:
        // MO-ISMCTS's trees (one a seat) select below a root child only where a seat moves
        // twice in a row, and share those levels directly rather than keep 82 KB of rows a
        // seat; locked walks update under each node's lock; and the rows hold statistics
        // relative to availability, which UCT's and PIMC's walks do not count (they would be
        // made and never read).
        let hold = holds_top_levels::<A>() && t.len() == 1 && W::AVAILABILITY;
        let mut walk = Walk::new(ucb, true, hold, roller.logs_moves(), t.len());
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
                    iterate::<G, W, A>(&mut walk, &t, worlds, index, roller, &mut rng);
                    index += threads as u64;
                }
                done += k;
            }
        }));
        if let Err(panic) = run {
            // A panic (a bug in a game, say) must not leave the others waiting: free the lock
            // this thread may hold, stop them, and let the crew report the panic.
            // Only `Locked` walks hold a lock, and they have one tree (MO-ISMCTS refuses
            // tree-locked).
            t[0].release_held_lock();
            shared.stop();
            std::panic::resume_unwind(panic);
        }
        walk.flush_root_passes(&t);
        done
    });
    done.iter().sum()
}
