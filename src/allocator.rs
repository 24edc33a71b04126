//! The allocator's settings: mimalloc (the binary's global allocator) keeps freed memory for
//! the next search while the program works, and gives it back to the operating system when the
//! engine falls idle.
//!
//! Freed memory returned to the operating system at once (the setting before) made every
//! search pay for its arena twice: a page fault and the kernel's zeroing at the first touch of
//! each page, even when the search before had just freed the same amount. Through the engine
//! protocol, where each `go` frees its arena after replying, that was about 7% of a
//! 10,000-iteration Hearts `go` (docs/performance.md, "Memory kept between searches"). Kept
//! for [`PURGE_DELAY_MS`] after it is freed, a search's memory is there for the next one; the
//! engine calls [`release_idle_memory`] once it has waited a second for a request, because
//! mimalloc purges expired memory only when it next does some work, so an idle engine that once
//! ran a search with a large tree or many threads would otherwise keep hundreds of megabytes
//! it no longer uses. Searches do not allocate per iteration, so none of this touches the
//! search itself.

use libmimalloc_sys as ffi;

/// mimalloc's `mi_option_purge_delay` (milliseconds before freed memory is purged): its
/// position in `mi_option_e` (the same in mimalloc 2 and 3), just before the
/// `mi_option_use_numa_nodes` that `libmimalloc-sys` names; the test below checks it against
/// the option's documented default.
const PURGE_DELAY: ffi::mi_option_t = ffi::mi_option_use_numa_nodes - 1;

/// How long freed memory stays with the allocator before it goes back to the operating system
/// while the program keeps working: long enough that a search started soon after another reuses
/// its pages, short enough that a busy engine does not hold what it has stopped using.
pub const PURGE_DELAY_MS: std::ffi::c_long = 1000;

/// Sets the allocator's purge delay to [`PURGE_DELAY_MS`]. Call at the start of `main`.
pub fn configure() {
    // SAFETY: setting options is thread-safe in mimalloc, and this one takes a plain integer.
    unsafe { ffi::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) }
}

/// Gives every freed page back to the operating system now, whatever its delay, for a program
/// about to sit idle.
pub fn release_idle_memory() {
    // SAFETY: a forced collection of the calling thread's heap, which also purges the
    // process-wide arenas' freed memory; callable from any thread at any time.
    unsafe { ffi::mi_collect(true) }
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
            ffi::mi_option_set(PURGE_DELAY, 0);
            configure();
            assert_eq!(ffi::mi_option_get(PURGE_DELAY), PURGE_DELAY_MS);
        }
    }
}
