//! `cardsearch replay`: plays a logged game again from its deal and checks its result.

use super::stdout::outln;
use std::path::PathBuf;

use clap::Args;

use crate::harness::Side;
use crate::harness::log::{read_game, replay_record, rerun_decision};

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
    /// Re-run the decision at this ply (counting from 0, as listed) with the logged agent and
    /// its generator, sequentially, and print what it found.
    #[arg(long = "move")]
    pub ply: Option<usize>,
    /// Write that decision's search tree to this file: `.dot` (Graphviz) or `.json`.
    #[arg(long)]
    pub dump_tree: Option<PathBuf>,
    /// Levels of the tree to write below the root.
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
}

/// Runs `cardsearch replay`.
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    // Check the arguments before printing anything, so an error is the only output.
    let format = tree_format(args)?;
    super::output::check_outputs(
        &[("--dump-tree", args.dump_tree.as_deref())],
        &[("the log replayed", &args.log)],
    )?;
    let logged = read_game(&args.log, args.game).map_err(|e| e.to_string())?;
    let r = &logged.record;
    if let Some(ply) = args.ply.filter(|&p| p >= r.moves.len()) {
        return Err(format!(
            "there is no move {ply}: the game has {} moves (counting from 0)",
            r.moves.len()
        ));
    }
    let replayed = replay_record(r).map_err(|e| format!("{}: {e}", logged.origin))?;
    // By seat: a person's seat (`cardsearch play`) is named so, even on a side whose partner
    // is an engine.
    let agent = |seat: usize| {
        let side = match r.seats[seat] {
            Side::A => "A",
            Side::B => "B",
        };
        format!("{side} = {}", r.spec_of(seat))
    };
    outln!(
        "{} game {} ({}): {}, deal {} seating {}, seed {}, {} per move",
        args.log.display(),
        args.game,
        logged.origin,
        r.game,
        r.deal_index,
        r.seating_index,
        r.seed,
        r.budget
    )?;
    outln!("  deal: {}", r.deal)?;
    print_picture(replayed.start_picture.as_deref())?;
    for seat in 0..r.seats.len() {
        outln!(
            "  seat {seat}: {} (agent seed {})",
            agent(seat),
            r.agent_seeds[seat]
        )?;
    }
    outln!(
        "  {:>4}  {:>4}  {:<4} {:<8} {:>10} {:>10}",
        "ply",
        "seat",
        "side",
        "move",
        "iterations",
        "µs"
    )?;
    let mut tricks_before = Some(0);
    for (i, (seat, mv, iterations, micros)) in replayed.plies.iter().enumerate() {
        outln!(
            "  {i:>4}  {seat:>4}  {:<4} {mv:<8} {iterations:>10} {micros:>10}",
            format!("{:?}", r.seats[*seat])
        )?;
        // Trick-taking games: a rule after each completed trick, naming who leads next (the
        // trick's winner in every game here).
        let tricks = replayed.tricks_after[i];
        if let (Some(t), Some(before)) = (tricks, tricks_before)
            && t > before
        {
            match replayed.plies.get(i + 1) {
                Some((leader, ..)) => outln!("  ── trick {t} complete; seat {leader} leads")?,
                None => outln!("  ── trick {t} complete")?,
            }
        }
        tricks_before = tricks;
        print_picture(replayed.pictures_after[i].as_deref())?;
    }
    let list = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    outln!("  rewards by seat: {}", list(&replayed.rewards))?;
    outln!("  scores by seat:  {}", list(&replayed.scores))?;
    if let Some(u) = &replayed.units {
        outln!("  units by seat:   {}", list(u))?;
    }
    outln!(
        "  A's score {:.3} — replayed result equals the logged one",
        r.score_a
    )?;
    if let Some(ply) = args.ply {
        rerun(args, r, ply, format)?;
    }
    Ok(())
}

/// A board game's position, indented under the move list.
fn print_picture(picture: Option<&str>) -> Result<(), String> {
    for line in picture.into_iter().flat_map(str::lines) {
        outln!("        {line}")?;
    }
    Ok(())
}

/// The tree file's format from its name: `dot` or `json`.
fn tree_format(args: &ReplayArgs) -> Result<Option<&'static str>, String> {
    let Some(p) = &args.dump_tree else {
        return Ok(None);
    };
    if args.ply.is_none() {
        return Err("--dump-tree needs --move M: which decision's tree".into());
    }
    match p.extension().and_then(|e| e.to_str()) {
        Some("dot") => Ok(Some("dot")),
        Some("json") => Ok(Some("json")),
        _ => Err(format!(
            "--dump-tree {}: the name must end in .dot or .json",
            p.display()
        )),
    }
}

fn rerun(
    args: &ReplayArgs,
    r: &crate::harness::GameRecord,
    ply: usize,
    format: Option<&str>,
) -> Result<(), String> {
    let rerun = rerun_decision(r, ply, args.depth)?;
    outln!(
        "  move {ply}: seat {} re-run as {} for {} iterations: {} (logged {})",
        rerun.seat,
        rerun.spec,
        rerun.iterations,
        rerun.rerun_move,
        rerun.logged_move
    )?;
    let why = if rerun.logged_parallel {
        "the match searched in parallel, so this re-run is not the logged search"
    } else {
        "this sequential re-run should have reproduced it; a time budget that cut the logged \
         search's inference or endgame solving short, or another build of cardsearch, would \
         explain it"
    };
    for (p, logged, again) in &rerun.diverged {
        outln!("  warning: at move {p} the re-run chose {again}, the log has {logged}: {why}")?;
    }
    if let (Some(path), Some(format)) = (&args.dump_tree, format) {
        let tree = rerun.tree.ok_or_else(|| {
            format!(
                "move {ply} has no search tree: {}",
                if rerun.iterations == 0 {
                    "the agent did not search (a forced move, or an agent that does not search)"
                } else {
                    "this agent does not expose its tree"
                }
            )
        })?;
        let text = match format {
            "dot" => tree.to_dot(),
            _ => serde_json::to_string_pretty(&tree).expect("serialisable") + "\n",
        };
        super::output::write_text(path, &text)?;
        outln!(
            "  tree written to {} (depth {})",
            path.display(),
            args.depth
        )?;
    }
    Ok(())
}
