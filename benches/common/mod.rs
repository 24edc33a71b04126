//! Shared criterion configuration: `cargo bench --bench NAME -- --profile-time 10` writes a
//! flamegraph per benchmark to `target/criterion/<group>/<bench>/profile/flamegraph.svg`, sampled
//! by pprof with frame pointers (signal-safe unwinding; no perf-event permissions needed).

use criterion::Criterion;
use pprof::criterion::{Output, PProfProfiler};

/// Criterion with the pprof flamegraph profiler attached.
pub fn profiled() -> Criterion {
    Criterion::default().with_profiler(PProfProfiler::new(997, Output::Flamegraph(None)))
}
