//! `cardsearch replay`: plays a logged game again from its deal and checks its result.

use std::path::PathBuf;

use clap::Args;

use crate::harness::Side;
use crate::harness::log::{read_game, replay_record};

/// Options of `cardsearch replay`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Games count from 0 in the order of the log's lines (game K is line K+1). The \
replay starts from the logged deal, plays the logged moves, and fails if any move is illegal or \
the final rewards or scores differ from the logged ones."
)]
pub struct ReplayArgs {
    /// A log written by `cardsearch match --out`.
    pub log: PathBuf,
    /// Which game of the log, counting from 0.
    #[arg(long, default_value_t = 0)]
    pub game: usize,
}

/// Runs `cardsearch replay`.
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    let logged = read_game(&args.log, args.game).map_err(|e| e.to_string())?;
    let r = &logged.record;
    let replayed = replay_record(r).map_err(|e| format!("{}: {e}", logged.origin))?;
    let agent = |side: Side| match side {
        Side::A => format!("A = {}", r.agent_a),
        Side::B => format!("B = {}", r.agent_b),
    };
    println!(
        "{} game {} ({}): {}, deal {} seating {}, seed {}, {} per move",
        args.log.display(),
        args.game,
        logged.origin,
        r.game,
        r.deal_index,
        r.seating_index,
        r.seed,
        r.budget
    );
    println!("  deal: {}", r.deal);
    for (seat, side) in r.seats.iter().enumerate() {
        println!(
            "  seat {seat}: {} (agent seed {})",
            agent(*side),
            r.agent_seeds[seat]
        );
    }
    println!(
        "  {:>4}  {:>4}  {:<4} {:<8} {:>10} {:>10}",
        "ply", "seat", "side", "move", "iterations", "µs"
    );
    for (i, (seat, mv, iterations, micros)) in replayed.plies.iter().enumerate() {
        println!(
            "  {i:>4}  {seat:>4}  {:<4} {mv:<8} {iterations:>10} {micros:>10}",
            format!("{:?}", r.seats[*seat])
        );
    }
    let list = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("  rewards by seat: {}", list(&replayed.rewards));
    println!("  scores by seat:  {}", list(&replayed.scores));
    if let Some(u) = &replayed.units {
        println!("  units by seat:   {}", list(u));
    }
    println!(
        "  A's score {} — replayed result equals the logged one",
        r.score_a
    );
    Ok(())
}
