//! The `cardsearch` command: see `cardsearch --help`.

// mimalloc, except in builds for ThreadSanitizer (`--features system-alloc`): the sanitizer
// instruments the system allocator, not mimalloc's C code, and would report the memory mimalloc
// hands between threads as races (docs/reliability.md).
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Before any search code runs: an older CPU gets a line naming what it lacks, not an
    // illegal instruction.
    if let Err(message) = cardsearch::cpu::check() {
        eprintln!("error: {message}");
        std::process::exit(2);
    }
    cardsearch::allocator::configure();
    std::process::exit(cardsearch::cli::run());
}
