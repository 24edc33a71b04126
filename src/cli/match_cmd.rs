//! `cardsearch match`: a fair match between two agents, with progress, statistics and logs.

use super::stdout::{out, outln};
use clap::Args;

use super::output;
use super::series::SeriesArgs;
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::runner::run_match_resuming;
use crate::harness::stats::{DealMeans, EloText, Signed, SprtDecision};
use crate::harness::{MatchConfig, MatchReport, Sprt};
use crate::search::config::budget_from_spec;
use crate::spec::Spec;

/// Options of `cardsearch match`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Seating: 2-seat games play every deal twice with seats swapped; Sueca plays \
every deal twice with the partnerships swapped; Hearts plays every deal 6 times, every arrangement \
of two A and two B seats (--lineup 2v2), or 4 times with A rotated through the seats against three B \
(--lineup 1v3); CoinGuess lets each agent play every deal alone. The score is A's: (1 + A's mean \
reward − B's mean reward) / 2 per game, so 0.5 is even; the 95% interval is over deals."
)]
pub struct MatchArgs {
    /// First agent's spec, e.g. `ismcts:c=0.7`.
    #[arg(long, default_value = "ismcts")]
    pub a: String,
    /// Second agent's spec, e.g. `pimc:dets=20`.
    #[arg(long, default_value = "pimc")]
    pub b: String,
    /// Number of deals; each is played once per seating.
    #[arg(long, default_value_t = 100)]
    pub deals: u64,
    /// Stop early by a sequential probability ratio test between Elo differences, e.g. 0,20
    /// (α = β = 5%; not before 20 deals; games are logged as their deal is counted, so the log
    /// ends where the test stopped).
    #[arg(long)]
    pub sprt: Option<String>,
    /// The options every series of games has.
    #[command(flatten)]
    pub series: SeriesArgs,
}

impl MatchArgs {
    /// The match run when `cardsearch` is called with no arguments: 50 Tricks deals, ISMCTS
    /// against PIMC at 1000 iterations per move (a few seconds).
    pub fn default_short() -> MatchArgs {
        MatchArgs {
            a: "ismcts".into(),
            b: "pimc".into(),
            deals: 50,
            sprt: None,
            series: SeriesArgs::on("tricks"),
        }
    }

    /// Checks and converts the arguments.
    pub fn config(&self) -> Result<MatchConfig, String> {
        let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
        let series = self.series.check(self.deals)?;
        if self.sprt.is_some() && series.shard.is_some() {
            // Each shard would test its own deals and stop on its own: merged, they would be
            // neither the sequential test nor a match of fixed size.
            return Err(
                "--sprt with --shard: a sequential test stops on the deals played so far, \
                 which shards cannot share; run the test unsharded"
                    .into(),
            );
        }
        Ok(MatchConfig {
            game: series.game,
            a: spec(&self.a)?,
            b: spec(&self.b)?,
            deals: self.deals,
            seed: self.series.seed,
            budget: series.budget,
            jobs: series.jobs,
            lineup: series.lineup,
            shard: series.shard,
            sprt: self.sprt.as_deref().map(str::parse::<Sprt>).transpose()?,
            stop: None,
        })
    }
}

struct MatchVisitor<'a> {
    args: &'a MatchArgs,
    cfg: MatchConfig,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<MatchReport, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        self.args.series.run_logged(false, |finished, console| {
            run_match_resuming::<G>(&self.cfg, &config, finished, console)
        })
    }
}

/// Runs `cardsearch match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let mut cfg = args.config()?;
    // The games log is read (a run continues it) and appended to as games end, which opening
    // it checks; the summary is written at the end and must be another file.
    let log = args.series.out.as_deref().map(|log| ("--out", log));
    output::check_outputs(
        &[("--summary", args.series.summary.as_deref())],
        log.as_slice(),
    )?;
    cfg.stop = Some(super::interrupt_signal());
    let (a, b, deals, seed, match_budget) = (
        cfg.a.to_string(),
        cfg.b.to_string(),
        cfg.deals,
        cfg.seed,
        cfg.budget.describe(),
    );
    let game = cfg.game.clone();
    let shard = cfg
        .shard
        .map_or(String::new(), |(i, n)| format!(", shard {i}/{n}"));
    let report =
        games::dispatch(&game, MatchVisitor { args, cfg }).map_err(|e| e.to_string())??;
    let budget = budget_line(&match_budget, &[&report.a.spec, &report.b.spec]);
    outln!("{game}: A = {a} vs B = {b}, {deals} deals, {budget}, seed {seed}{shard}")?;
    out!("{}", format_report(&report))?;
    args.series.write_summary(&report)
}

/// True when an agent's spec names its own budget (`iterations=` or `time_ms=`, as
/// [`budget_from_spec`] reads it), which replaces the match's for that agent. A full spec, as
/// logs and reports keep it, says so also when the budget is a default of the agent's
/// (pentago-student's).
pub fn has_own_budget(spec: &Spec) -> bool {
    budget_from_spec(spec).is_ok_and(|own| own.is_some())
}

/// [`has_own_budget`] of a spec as text (false for text that is not a spec).
pub fn names_own_budget(spec: &str) -> bool {
    spec.parse::<Spec>().is_ok_and(|s| has_own_budget(&s))
}

/// The turn planners, whose budget is a turn's, not a move's: in a game of several actions a
/// turn (ASMACAG) the paper's regime gives them the budget per turn.
const TURN_PLANNERS: [&str; 4] = [
    crate::agents::osla::INFO.name,
    crate::agents::turn_mcts::INFO.name,
    crate::agents::evolution::INFO.name,
    crate::agents::ntboe::INFO.name,
];

/// What budget the agents of a match or tournament searched with, for its headline: the match's
/// (`match_budget`, as `Budget::describe` words it) for every agent whose full spec in `agents`
/// does not name its own ([`has_own_budget`]), per turn for the turn planners. Two agents are
/// A and B.
pub fn budget_line(match_budget: &str, agents: &[&str]) -> String {
    let own: Vec<bool> = agents.iter().map(|a| names_own_budget(a)).collect();
    let planner = |a: &&str| TURN_PLANNERS.contains(&a.split(':').next().unwrap_or(a));
    let per = if agents.iter().zip(&own).any(|(a, &own)| !own && planner(a)) {
        "per move (per turn for the turn planners)"
    } else {
        "per move"
    };
    match own[..] {
        _ if !own.contains(&true) => format!("{match_budget} {per}"),
        _ if !own.contains(&false) => "each agent's own budget".to_string(),
        [true, false] => format!("B {match_budget} {per}, A its own budget"),
        [false, true] => format!("A {match_budget} {per}, B its own budget"),
        _ => format!("{match_budget} {per} unless an agent's spec sets its own"),
    }
}

/// `, A − B +m (95% CI lo … hi)` for a margin over deals, with `decimals`; empty before any deal
/// has both sides at the table (one-seat games), and without the interval before two.
fn margin_text(m: &DealMeans, decimals: usize) -> String {
    if m.deals == 0 {
        return String::new();
    }
    let interval = match m.interval() {
        Some((lo, hi)) => format!(
            " (95% CI {} … {})",
            Signed(lo, decimals),
            Signed(hi, decimals)
        ),
        None if m.deals >= 2 => " (every deal alike: no interval)".to_string(),
        None => String::new(),
    };
    format!(", A − B {}{interval}", Signed(m.mean(), decimals))
}

/// The final table of a match, as printed.
pub fn format_report(r: &MatchReport) -> String {
    let t = &r.tally;
    let (lo, hi) = t.interval();
    let (elo, elo_lo, elo_hi) = t.elo();
    let label = |s: &crate::harness::runner::SideTotals| {
        format!("{}{}", s.spec, super::cheating_mark(s.cheating))
    };
    let mut out = String::new();
    out += &format!("  A: {}\n  B: {}\n", label(&r.a), label(&r.b));
    out += &format!(
        "  seating: {} ({} games per deal)\n",
        r.seating, r.seatings_per_deal
    );
    out += &format!(
        "  A mean score {:.3} ± {:.3} (95% CI {lo:.3}–{hi:.3}), Elo {} ({} … {}), {} deals\n",
        t.mean(),
        t.half_width(),
        EloText(elo),
        EloText(elo_lo),
        EloText(elo_hi),
        t.deals
    );
    out += &format!(
        "  games {}: A won {}, drew {}, lost {}\n",
        t.games, t.wins, t.draws, t.losses
    );
    out += &format!(
        "  {} per game: A {:.2}, B {:.2}{}",
        if r.points_are_penalties {
            "penalty points (fewer is better)"
        } else {
            "points"
        },
        r.a.mean_points(),
        r.b.mean_points(),
        margin_text(&r.points_margin, 2)
    );
    if r.has_units {
        out += &format!(
            "; match units per game: A {}, B {}{}",
            Signed(r.a.mean_units(), 3),
            Signed(r.b.mean_units(), 3),
            margin_text(&r.units_margin, 3)
        );
    }
    out += "\n";
    let rate = |s: &crate::harness::runner::SideTotals| {
        if s.iterations == 0 {
            "-".to_string()
        } else {
            format!("{:.0}", s.iterations_per_second())
        }
    };
    out += &format!(
        "  iterations/s while searching: A {}, B {}; mean iterations per move (forced moves search none): A {:.0}, B {:.0}\n",
        rate(&r.a),
        rate(&r.b),
        r.a.iterations as f64 / r.a.moves.max(1) as f64,
        r.b.iterations as f64 / r.b.moves.max(1) as f64
    );
    out += &format!(
        "  largest search tree: A {} nodes, B {} nodes{}\n",
        r.a.max_nodes,
        r.b.max_nodes,
        match (r.a.full_trees, r.b.full_trees) {
            (0, 0) => "; no tree ever filled".to_string(),
            (a, b) => format!("; TREE FULL (stopped growing) in A {a}, B {b} decisions"),
        }
    );
    if r.a.endgame_cuts + r.b.endgame_cuts > 0 {
        out += &format!(
            "  endgame solving cut short by its node limit (endgame_nodes) in A {}, B {} decisions\n",
            r.a.endgame_cuts, r.b.endgame_cuts
        );
    }
    match r.sprt {
        Some(SprtDecision::Continue) => {
            out += "  SPRT: no decision within the deals played\n";
        }
        Some(d) => {
            // A test that stopped early stopped where the score looked most extreme: the
            // interval above, a fixed match's, leans that way.
            out += &format!(
                "  SPRT: {d:?} after {} deals (the score and interval above are a fixed \
                 match's: a sequential stop biases them toward the hypothesis accepted)\n",
                t.deals
            );
        }
        None => {}
    }
    if r.interrupted {
        out += &format!(
            "  INTERRUPTED: only the {} deals whose every game finished are counted\n",
            t.deals
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_line_names_the_agents_that_searched_with_their_own() {
        let line = |agents: &[&str]| budget_line("1000 it", agents);
        let (own, plain) = ("ismcts:iterations=5", "ismcts:c=0.7");
        assert_eq!(line(&[plain, plain]), "1000 it per move");
        assert_eq!(line(&[own, own]), "each agent's own budget");
        assert_eq!(line(&[own, plain]), "B 1000 it per move, A its own budget");
        assert_eq!(line(&[plain, own]), "A 1000 it per move, B its own budget");
        assert_eq!(
            line(&[plain, own, plain]),
            "1000 it per move unless an agent's spec sets its own"
        );
        assert_eq!(line(&[own, own, own]), "each agent's own budget");
        // A turn planner's budget is a turn's; one with its own budget takes the match's not.
        assert_eq!(
            line(&["ntboe:threads=1", plain]),
            "1000 it per move (per turn for the turn planners)"
        );
        assert_eq!(
            line(&["osla:iterations=9", plain]),
            "B 1000 it per move, A its own budget"
        );
        assert!(names_own_budget("ismcts:iterations=20"));
        assert!(names_own_budget("pimc:time_ms=5,dets=4"));
        assert!(!names_own_budget("ismcts:c=0.4"));
    }
}
