//! How many slots a search's arenas get: enough for the budget, within what the machine has.
//!
//! Every search algorithm here takes at most a fixed number of slots per iteration (one
//! children block and what its making may leave unused, [`SlotCosts`]), so an iteration budget
//! bounds how many slots a search can need. A time budget does not: its arena is sized for a
//! generous iteration rate per thread over the whole time, capped by the machine's memory.
//! Arenas reserve address space and the operating system commits pages only as slots are
//! written, so a large reservation costs nothing until it is used (a search commits its real
//! use, about 4-5 slots per ISMCTS iteration, not the bound); the cap keeps one search within
//! half the machine's memory even if it runs at that rate for the whole budget.

use super::budget::Budget;

/// Iterations per second per thread that a time-budgeted arena is sized for: well above any
/// measured rate (about 1–2 M/s per thread on the card games), so that the tree never fills
/// before the memory cap does.
pub const SIZING_RATE_PER_THREAD: u64 = 8_000_000;

/// The most slots a search can take, by what takes them (from the tree's layout:
/// [`super::Tree::MAX_SLOTS_PER_ITERATION`] and the like).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotCosts {
    /// Per iteration.
    pub iteration: u64,
    /// Per root, beyond its iterations.
    pub root: u64,
    /// Per thread of a tree, beyond its iterations.
    pub thread: u64,
}

/// The memory the arenas of one search may use when the machine's size cannot be read.
const FALLBACK_MEMORY: u64 = 4 << 30;

/// The physical memory of this machine in bytes (Linux: `/proc/meminfo`), if known. Read once
/// per process: every search asks, and the kernel takes about 15 µs to write the file out,
/// nearly 1% of a 2 ms move.
pub fn physical_memory() -> Option<u64> {
    static MEMORY: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *MEMORY.get_or_init(read_physical_memory)
}

/// [`physical_memory`] from `/proc/meminfo`.
fn read_physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The most nodes all the arenas of one search may hold together: half the machine's memory.
pub fn machine_nodes(bytes_per_node: usize) -> u64 {
    physical_memory().unwrap_or(FALLBACK_MEMORY) / 2 / bytes_per_node.max(1) as u64
}

/// The capacity each of `trees` arenas needs for a search with `budget` run by `threads`
/// threads and `roots` roots per tree, taking at most `costs` slots, at most `cap` (the spec's
/// `max_nodes`, or the machine's share per tree).
pub fn slots_per_tree(
    budget: &Budget,
    threads: usize,
    trees: usize,
    roots: u32,
    costs: SlotCosts,
    cap: u64,
) -> u64 {
    let trees = trees.max(1) as u64;
    let per_tree_threads = (threads as u64).div_ceil(trees);
    let by_iterations = budget.iterations.map(|n| n.div_ceil(trees));
    // From the exact duration, rounded up: whole milliseconds would size a budget of 1 ms or
    // less for no iteration at all, and its tree would fill at once.
    let by_time = budget.time.map(|t| {
        let per_thread = (t.as_nanos().saturating_mul(SIZING_RATE_PER_THREAD as u128))
            .div_ceil(1_000_000_000)
            .min(u64::MAX as u128) as u64;
        per_thread.saturating_mul(per_tree_threads)
    });
    let iterations = match (by_iterations, by_time) {
        (Some(i), Some(t)) => i.min(t),
        (Some(i), None) => i,
        (None, Some(t)) => t,
        (None, None) => u64::MAX,
    };
    iterations
        .saturating_mul(costs.iteration)
        .saturating_add((roots as u64).saturating_mul(1 + costs.root))
        .saturating_add(per_tree_threads.saturating_mul(costs.thread))
        .min(cap)
        .max(roots as u64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn iteration_budgets_get_what_they_can_use_and_time_budgets_the_rate() {
        let cap = 1 << 40;
        let costs = SlotCosts {
            iteration: 3,
            root: 5,
            thread: 7,
        };
        let slots = |budget: &Budget, threads, trees, roots, cap| {
            slots_per_tree(budget, threads, trees, roots, costs, cap)
        };
        assert_eq!(
            slots(&Budget::iterations(1000), 1, 1, 1, cap),
            1000 * 3 + 6 + 7
        );
        // Root parallelism splits the iterations among the trees, a thread each.
        assert_eq!(
            slots(&Budget::iterations(1000), 4, 4, 1, cap),
            250 * 3 + 6 + 7
        );
        // Two threads on one tree.
        let time = Budget::millis(50);
        assert_eq!(
            slots(&time, 2, 1, 1, cap),
            50 * (SIZING_RATE_PER_THREAD / 1000) * 2 * 3 + 6 + 2 * 7
        );
        // Both limits: the smaller.
        let both = Budget {
            iterations: Some(10),
            time: Some(Duration::from_secs(1)),
            stop: None,
        };
        assert_eq!(slots(&both, 1, 1, 20, cap), 10 * 3 + 20 * 6 + 7);
        // The cap wins, but never below the roots.
        assert_eq!(slots(&Budget::millis(60_000), 2, 1, 1, 5000), 5000);
        assert_eq!(slots(&Budget::iterations(5), 1, 1, 50, 10), 51);
        // No limit at all saturates to the cap.
        assert_eq!(slots(&Budget::default(), 1, 1, 1, cap), cap);
    }

    #[test]
    fn time_budgets_under_a_millisecond_are_sized_for_their_rate() {
        let costs = SlotCosts {
            iteration: 3,
            root: 5,
            thread: 7,
        };
        let slots = |time| {
            let budget = Budget {
                iterations: None,
                time: Some(time),
                stop: None,
            };
            slots_per_tree(&budget, 1, 1, 1, costs, u64::MAX)
        };
        // Half a millisecond at the sizing rate: 4,000 iterations, not none.
        let per_ms = SIZING_RATE_PER_THREAD / 1000;
        assert_eq!(slots(Duration::from_micros(500)), per_ms / 2 * 3 + 6 + 7);
        assert_eq!(
            slots(Duration::from_micros(1500)),
            per_ms * 3 / 2 * 3 + 6 + 7
        );
        // Rounded up: a nanosecond still gets its iteration.
        assert_eq!(slots(Duration::from_nanos(1)), 3 + 6 + 7);
        // A day saturates nothing.
        assert_eq!(
            slots(Duration::from_secs(86_400)),
            86_400 * SIZING_RATE_PER_THREAD * 3 + 6 + 7
        );
    }

    #[test]
    fn the_machine_share_is_half_the_memory() {
        // On Linux the size is read, not the fallback: a parser that stopped reading
        // /proc/meminfo would size every tree by the fallback's 4 GiB without a word. (The
        // share is then checked against the same reading: what is tested is the half.)
        let memory = if cfg!(target_os = "linux") {
            let memory = physical_memory().expect("Linux reports MemTotal in /proc/meminfo");
            // MemTotal is in KiB, and any machine that runs the tests has more than 64 MiB.
            assert!(
                memory.is_multiple_of(1024) && memory > 64 << 20,
                "{memory} bytes"
            );
            memory
        } else {
            physical_memory().unwrap_or(FALLBACK_MEMORY)
        };
        assert_eq!(machine_nodes(32), memory / 64);
        assert_eq!(machine_nodes(1), memory / 2);
    }
}
