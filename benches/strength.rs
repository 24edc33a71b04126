//! Strength versus threads: a small `cardsearch scale` sweep that prints its table.
//!
//! For each parallel mode and thread count it measures iterations per second, then plays the
//! one-thread sequential searcher at equal time and at equal iterations per move and prints the
//! mean scores with 95% intervals (the same code as `cardsearch scale`). The defaults keep it to
//! about a minute, so its intervals are wide (±0.1 at 10 deals); pass `cardsearch scale` options
//! after `--` for a real measurement, e.g.
//!
//! ```text
//! cargo bench --bench strength -- --deals 200 --time-ms 20 --threads 1,2,4
//! ```
//!
//! Files go to `target/strength.{csv,json,svg}` unless `--out` says otherwise. A criterion-style
//! name filter that does not match "strength" skips the sweep, so `cargo bench -- playouts`
//! does not run it. Criterion's `--test` (run every bench once, to see that it works) runs the
//! sweep at 2 deals and 2 positions, and `--list` names it, so `cargo bench -- --test` and
//! `cargo bench -- --list` work across every bench.

use clap::Parser;

use cardsearch::cli::scale::{ScaleArgs, run};

/// The sweep's options: `cardsearch scale`'s, with later values replacing the defaults below.
#[derive(Parser)]
#[command(args_override_self = true)]
struct Sweep {
    #[command(flatten)]
    scale: ScaleArgs,
}

/// A minute-long sweep on Sueca: the game the parallel targets are about.
const DEFAULTS: &[&str] = &[
    "--game",
    "sueca",
    "--modes",
    "root,tree,leaf",
    "--threads",
    "1,2",
    "--time-ms",
    "5",
    "--positions",
    "10",
    "--deals",
    "10",
    "--out",
    "target/strength",
    "--quiet",
];

fn main() {
    // Cargo passes `--bench`; a bare word is a name filter, as for criterion benches.
    let mut options = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--bench" => continue,
            "--list" => {
                println!("strength: bench");
                return;
            }
            "--test" => {
                options.extend(["--deals", "2", "--positions", "2"].map(String::from));
                continue;
            }
            _ => {}
        }
        if !arg.starts_with('-') && options.last().is_none_or(|o: &String| !o.starts_with("--")) {
            if !"strength".contains(arg.as_str()) {
                return;
            }
            continue;
        }
        options.push(arg);
    }
    let argv = std::iter::once("strength".to_string())
        .chain(DEFAULTS.iter().map(|s| s.to_string()))
        .chain(options);
    let sweep = match Sweep::try_parse_from(argv) {
        Ok(s) => s,
        Err(e) => e.exit(),
    };
    if let Err(e) = run(&sweep.scale) {
        eprintln!("strength bench: {e}");
        std::process::exit(1);
    }
}
