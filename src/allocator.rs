//! The allocator's settings: mimalloc (the binary's global allocator) returns freed memory to
//! the operating system at once.
//!
//! mimalloc keeps pages it has freed for a delay (a second in mimalloc 3) and purges them only
//! when the freeing heap next does some work, so a long-running engine that once ran a search with a large tree
//! or many threads kept hundreds of megabytes it no longer used (the threads' heaps are
//! abandoned, not purged). With no purge delay, and abandoned pages purged when their thread
//! ends, memory goes back as soon as a search's trees and threads are dropped. Searches do not
//! allocate per iteration, so the extra purging costs nothing measurable.

use libmimalloc_sys as ffi;

/// mimalloc's `mi_option_purge_delay` (milliseconds before freed memory is purged): its
/// position in `mi_option_e` (the same in mimalloc 2 and 3), just before the
/// `mi_option_use_numa_nodes` that `libmimalloc-sys` names; the test below checks it against
/// the option's documented default.
const PURGE_DELAY: ffi::mi_option_t = ffi::mi_option_use_numa_nodes - 1;

/// Makes mimalloc return freed memory at once. Call at the start of `main`.
pub fn return_memory_promptly() {
    // SAFETY: setting options is thread-safe in mimalloc, and this one takes a plain integer.
    unsafe { ffi::mi_option_set(PURGE_DELAY, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_positions_are_mimallocs() {
        // SAFETY: reading options is thread-safe.
        unsafe {
            // mimalloc 3's default purge delay is 1000 ms (its options.c); tests run without
            // the binary's setting, and this test is the only one that changes it.
            if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
                assert_eq!(ffi::mi_option_get(PURGE_DELAY), 1000);
            }
            // The neighbouring options have other documented defaults: use_numa_nodes 0,
            // max_errors 32 (well apart from 10).
            assert_eq!(ffi::mi_option_get(ffi::mi_option_max_errors), 32);
            return_memory_promptly();
            assert_eq!(ffi::mi_option_get(PURGE_DELAY), 0);
        }
    }
}
