//! `cardsearch solve`: every legal move's exact value in a position whose cards are all known.

use super::stdout::outln;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::game::{MoveSet, rng_from_seed};
use crate::games::{self, GameDef, GameVisitor};
use crate::solver::{Solver, read_values};
use crate::spec::Spec;

/// Options of `cardsearch solve`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "The position is the deal (in the game's deal notation, see \
`cardsearch games` and rules.md) after the moves given, or a random deal (--seed) after random \
moves down to --cards cards left. Values are for the seat to move with every card known \
(Bisca: hands and the stock's order): the final point margin of its side (Sueca team points, \
Bisca points, Tricks tricks: own minus the other side's), or for Hearts its final penalty \
points, moon included, with the other three playing against it."
)]
pub struct SolveArgs {
    /// Game spec: sueca, bisca, hearts or tricks (with options).
    #[arg(long, default_value = "sueca")]
    pub game: String,
    /// The deal, in the game's deal notation; without it a random deal from --seed.
    #[arg(long)]
    pub deal: Option<String>,
    /// Moves played from the deal before solving, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Seed of the random deal (and of the random moves of --cards) when --deal is not given.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Play random moves (after --moves) until at most this many cards are left to play.
    #[arg(long)]
    pub cards: Option<usize>,
    /// Give up after this many search nodes (a whole deal of Sueca or Hearts is far too big).
    #[arg(long, default_value_t = 2_000_000_000)]
    pub node_limit: u64,
}

/// One solved position, ready to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// The deal text (`--deal` reproduces the position with `moves`).
    pub deal: String,
    /// Every move played from the deal.
    pub moves: Vec<String>,
    /// The seat to move.
    pub seat: usize,
    /// Cards left to play.
    pub cards_left: usize,
    /// What the values measure: `margin` or `penalty`.
    pub measure: &'static str,
    /// Each legal move, its value as people read it, and the outcome it leads to, best first.
    pub values: Vec<(String, i32, Option<f64>)>,
    /// Search nodes.
    pub nodes: u64,
    /// Seconds spent solving.
    pub seconds: f64,
}

struct SolveVisitor<'a> {
    args: &'a SolveArgs,
}

impl GameVisitor for SolveVisitor<'_> {
    type Output = Result<Solved, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        let args = self.args;
        let ops = G::exact().ok_or_else(|| {
            format!(
                "{} has no exact solver (solvable: sueca, bisca, hearts, tricks)",
                G::NAME
            )
        })?;
        let mut rng = rng_from_seed(args.seed);
        let mut state = match &args.deal {
            Some(text) => G::from_deal(&config, text).map_err(|e| e.to_string())?,
            None => G::new_game(&config, &mut rng),
        };
        let deal = state.deal_text();
        let mut moves = Vec::new();
        for (i, text) in args.moves.split_whitespace().enumerate() {
            if state.is_terminal() {
                return Err(format!("move {} '{text}': the game is already over", i + 1));
            }
            let mv = state
                .parse_move(text)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            if !state.legal_moves().contains(mv) {
                return Err(format!(
                    "move {} '{text}' is not legal for seat {} (legal: {})",
                    i + 1,
                    state.current_seat(),
                    state
                        .legal_moves()
                        .to_vec()
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            state.play(mv);
            moves.push(mv.to_string());
        }
        if let Some(cards) = args.cards {
            while !state.is_terminal() && ops.cards_left(&state) > cards {
                let mv = state.legal_moves().random(&mut rng);
                state.play(mv);
                moves.push(mv.to_string());
            }
        }
        if state.is_terminal() {
            return Err("the game is over: there is nothing to solve".into());
        }
        let start = Instant::now();
        let progress = Progress::new(start);
        let interrupt = super::interrupt_signal();
        let mut solver =
            Solver::new(20)
                .with_node_limit(args.node_limit)
                .with_watch(PROGRESS_NODES, {
                    let progress = progress.clone();
                    move |nodes| {
                        progress.show(nodes);
                        !interrupt.is_raised()
                    }
                });
        let values = read_values(ops, &mut solver, &state);
        progress.clear();
        let values = values.map_err(|e| e.explained("--node-limit", args.node_limit))?;
        let seconds = start.elapsed().as_secs_f64();
        Ok(Solved {
            deal,
            moves,
            seat: state.current_seat(),
            cards_left: ops.cards_left(&state),
            measure: ops.margin_name(),
            values: values
                .iter()
                .map(|v| (v.mv.to_string(), v.value, v.reward))
                .collect(),
            nodes: solver.nodes(),
            seconds,
        })
    }
}

/// How often a solve reports its progress and looks for Ctrl-C: about a tenth of a second.
const PROGRESS_NODES: u64 = 1 << 20;

/// The progress line of a long solve on stderr: nothing for the first second (most solves
/// end well before), then the nodes so far and their rate, cleared at the end.
#[derive(Clone)]
struct Progress {
    bar: ProgressBar,
    start: Instant,
}

impl Progress {
    fn new(start: Instant) -> Progress {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} solving: {msg} (Ctrl-C stops)")
                .expect("valid template"),
        );
        Progress { bar, start }
    }

    fn show(&self, nodes: u64) {
        let seconds = self.start.elapsed().as_secs_f64();
        if seconds < 1.0 {
            return;
        }
        if self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_message(format!(
            "{:.1} M nodes, {:.1} M nodes/s",
            nodes as f64 / 1e6,
            nodes as f64 / seconds / 1e6
        ));
    }

    fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// Solves the position the arguments describe.
pub fn solve(args: &SolveArgs) -> Result<Solved, String> {
    let game: Spec = args
        .game
        .parse()
        .map_err(|e: crate::SpecError| e.to_string())?;
    games::dispatch(&game, SolveVisitor { args }).map_err(|e| e.to_string())?
}

/// Runs `cardsearch solve`.
pub fn run(args: &SolveArgs) -> Result<(), String> {
    let s = solve(args)?;
    outln!("deal: {}", s.deal)?;
    if !s.moves.is_empty() {
        outln!("moves: {}", s.moves.join(" "))?;
    }
    outln!(
        "seat {} to move, {} cards left; exact {} of each move for seat {}'s side (* best):",
        s.seat,
        s.cards_left,
        s.measure,
        s.seat
    )?;
    let best = s.values.first().map(|v| v.1);
    for (mv, value, reward) in &s.values {
        let outcome = match reward {
            Some(r) if *r == 1.0 => "win",
            Some(r) if *r == 0.5 => "tie",
            Some(_) => "loss",
            None => "",
        };
        let mark = if Some(*value) == best { "*" } else { " " };
        let value = if s.measure == "penalty" {
            format!("{value}")
        } else {
            format!("{value:+}")
        };
        outln!("  {mark} {mv:<8} {value:>5}  {outcome}")?;
    }
    outln!(
        "{} nodes in {:.3} s ({:.0} nodes/s)",
        s.nodes,
        s.seconds,
        s.nodes as f64 / s.seconds.max(1e-9)
    )?;
    Ok(())
}
