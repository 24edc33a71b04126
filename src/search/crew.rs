//! The threads of a parallel search, and the seeds of their generators: what every parallel
//! mode (root, tree, leaf) starts from.

use parking_lot::Mutex;
use rayon::ThreadPool;

use crate::game::{Rng, next_seed};

/// The threads of one parallel search: the calling thread and a private pool of the others.
///
/// The caller works too (as thread 0, the leaf master), so a search starts at once and does not
/// wait for a sleeping thread to wake up when it ends; the pool is started once per agent.
/// `rayon`'s scoped broadcast hands one job to every pool thread for a few microseconds per
/// search, where spawning threads would cost tens of microseconds per thread per move.
pub(crate) struct Crew {
    pool: Option<ThreadPool>,
    threads: usize,
}

impl Crew {
    /// A crew of `threads` threads (the caller and `threads - 1` pool threads).
    pub(crate) fn new(threads: usize) -> Result<Crew, rayon::ThreadPoolBuildError> {
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .thread_name(|i| format!("search-{}", i + 1))
                .build()?;
            Some(pool)
        } else {
            None
        };
        Ok(Crew { pool, threads })
    }

    /// Number of threads, the caller included.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work(i)` for every thread `i` at once, `i = 0` on the calling thread, and returns
    /// the results in thread order. A panic in any of them is resumed here after all finish.
    pub(crate) fn run<R: Send>(&self, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
        let Some(pool) = &self.pool else {
            return vec![work(0)];
        };
        let results: Vec<Mutex<Option<R>>> = (0..self.threads).map(|_| Mutex::new(None)).collect();
        pool.in_place_scope(|scope| {
            scope.spawn_broadcast(|_, ctx| {
                let i = ctx.index() + 1;
                let r = work(i);
                *results[i].lock() = Some(r);
            });
            let r = work(0);
            *results[0].lock() = Some(r);
        });
        results
            .into_iter()
            .map(|r| r.into_inner().expect("every thread of the crew ran"))
            .collect()
    }
}

/// Seeds for `n` worker generators, drawn from the caller's.
pub(crate) fn seeds(rng: &mut Rng, n: usize) -> Vec<u64> {
    (0..n).map(|_| next_seed(rng)).collect()
}
