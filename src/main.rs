//! The `cardsearch` command: see `cardsearch --help`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    cardsearch::allocator::return_memory_promptly();
    std::process::exit(cardsearch::cli::run());
}
