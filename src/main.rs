//! The `cardsearch` command: see `cardsearch --help`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    cardsearch::allocator::configure();
    std::process::exit(cardsearch::cli::run());
}
