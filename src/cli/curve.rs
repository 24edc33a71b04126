//! `cardsearch curve`: strength against budget — an agent at a ladder of budgets against a fixed
//! reference and against itself at half the budget — as a table, CSV, JSON and an SVG plot.

use super::stdout::{out, outln};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::games::{self, GameDef, GameVisitor};
use crate::harness::MatchReport;
use crate::harness::curve::{Curve, CurvePlan, Rung, run_curve, to_csv, to_table};
use crate::harness::plot::curve_svg;
use crate::harness::runner::{GameRecord, MatchObserver};

use super::output;
use super::series::{GameLog, log_error, open_log};
use crate::limits;
use crate::spec::Spec;

/// Options of `cardsearch curve`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Each budget is one match of --deals deals against --reference (seats swapped \
as in `match`) and, unless --no-half, one against the same agent at half the budget. The fit \
gives the Elo gained per doubling of the budget two ways: the slope of Elo against the reference \
over log2 of the budget, and the mean of the half-budget matches. Iteration budgets give the \
same result on any machine; time budgets need a quiet one. Every game is logged to PREFIX.jsonl: \
the same command run again plays only the games that log lacks."
)]
pub struct CurveArgs {
    /// Game spec.
    #[arg(long, default_value = "sueca")]
    pub game: String,
    /// The agent whose curve this is, without a budget (each rung sets it).
    #[arg(long, default_value = "ismcts")]
    pub agent: String,
    /// The fixed opponent.
    #[arg(long, default_value = "ismcts")]
    pub reference: String,
    /// The reference's iterations per move (unless its spec sets its own budget).
    #[arg(long, default_value_t = 1000)]
    pub reference_iterations: u64,
    /// Comma-separated iterations per move, e.g. 1000,2000,4000 (the default is
    /// 1000,2000,4000,8000); each even, as it is played against its half, unless --no-half.
    #[arg(long, conflicts_with = "time_ms")]
    pub iterations: Option<String>,
    /// Comma-separated milliseconds per move, e.g. 10,20,40; each even unless --no-half.
    #[arg(long)]
    pub time_ms: Option<String>,
    /// Deals per match.
    #[arg(long, default_value_t = 200)]
    pub deals: u64,
    /// Match seed: every rung plays the same deals.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Skip the matches against half the budget.
    #[arg(long)]
    pub no_half: bool,
    /// Output prefix: writes PREFIX.csv, PREFIX.json and PREFIX.svg, and every game to
    /// PREFIX.jsonl as it ends (run the same command again to resume a stopped curve).
    #[arg(long, default_value = "curve")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Progress over every game of every match, and the log every new game is appended to.
struct Progress {
    bar: ProgressBar,
    /// Matches started so far (the current one included), set as each starts.
    started: Arc<AtomicU64>,
    matches: u64,
    log: GameLog,
}

impl MatchObserver for Progress {
    fn game_finished(&mut self, record: &GameRecord, report: &MatchReport, done: u64, total: u64) {
        self.log.write(record);
        // Every match of a plan has the same number of games.
        self.bar.set_length(self.matches * total);
        self.bar
            .set_position(self.started.load(Relaxed).saturating_sub(1) * total + done);
        let (lo, hi) = report.tally.interval();
        self.bar
            .set_message(format!("{:.3} [{lo:.3}, {hi:.3}]", report.tally.mean()));
    }
}

struct CurveVisitor<'a> {
    plan: &'a CurvePlan,
    quiet: bool,
    /// The games log (`PREFIX.jsonl`): where new games go, and the games a stopped run left.
    /// Opened only once every agent is built, so a bad option leaves no file behind.
    games_log: &'a Path,
}

impl GameVisitor for CurveVisitor<'_> {
    type Output = Result<Curve, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        // Every agent of the plan is built before any game, so a bad option fails at once.
        for rung in &self.plan.rungs {
            for spec in [
                crate::harness::curve::at_rung(&self.plan.agent, *rung),
                crate::harness::curve::at_rung(&self.plan.agent, rung.half()),
            ] {
                crate::agents::build::<G>(&spec).map_err(|e| e.to_string())?;
            }
        }
        crate::agents::build::<G>(&self.plan.reference).map_err(|e| e.to_string())?;
        let (log, finished) = open_log(Some(self.games_log), self.quiet)?;
        let bar = if self.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, ETA {eta} {prefix} {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        let matches = self.plan.rungs.len() as u64 * if self.plan.against_half { 2 } else { 1 };
        let started = Arc::new(AtomicU64::new(0));
        let mut progress = Progress {
            bar: bar.clone(),
            started: started.clone(),
            matches,
            log: GameLog::new(log),
        };
        let curve = run_curve::<G>(
            self.plan,
            &config,
            finished,
            &mut progress,
            &mut |_, label| {
                started.fetch_add(1, Relaxed);
                bar.set_prefix(label.to_string());
            },
        );
        bar.finish_and_clear();
        // As for matches: a game that could not be logged is reported before anything else.
        progress.log.finish()?;
        curve
    }
}

/// Reads a comma-separated list of positive budgets; with `halves`, each must have an exact
/// half, as its match against half the budget is counted as one doubling.
fn rungs(
    text: &str,
    what: &str,
    max: u64,
    halves: bool,
    make: fn(u64) -> Rung,
) -> Result<Vec<Rung>, String> {
    let mut out = Vec::new();
    for item in text.split(',') {
        let n: u64 = item
            .trim()
            .parse()
            .map_err(|_| format!("--{what}: '{}' is not a number", limits::excerpt(item)))?;
        limits::positive_at_most(what, n, max).map_err(|e| format!("--{e}"))?;
        if halves && n % 2 == 1 {
            return Err(format!(
                "--{what}: {n} has no exact half to play against (give even budgets, or \
                 --no-half)"
            ));
        }
        // A rung given twice would be one rung in the report, with half the games asked for.
        if out.contains(&make(n)) {
            return Err(format!("--{what}: {n} is given twice"));
        }
        out.push(make(n));
    }
    out.sort_by_key(|r| r.amount());
    Ok(out)
}

/// Runs `cardsearch curve`.
pub fn run(args: &CurveArgs) -> Result<(), String> {
    let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
    let halves = !args.no_half;
    let rungs = match (&args.iterations, &args.time_ms) {
        (Some(list), None) => rungs(
            list,
            "iterations",
            limits::MAX_ITERATIONS,
            halves,
            Rung::Iterations,
        )?,
        (None, Some(list)) => rungs(list, "time-ms", limits::MAX_TIME_MS, halves, Rung::Millis)?,
        (None, None) => rungs(
            "1000,2000,4000,8000",
            "iterations",
            limits::MAX_ITERATIONS,
            halves,
            Rung::Iterations,
        )?,
        (Some(_), Some(_)) => return Err("give --iterations or --time-ms, not both".into()),
    };
    limits::positive_at_most("deals", args.deals, limits::MAX_DEALS)
        .map_err(|e| format!("--{e}"))?;
    limits::positive_at_most("jobs", args.jobs, limits::MAX_JOBS).map_err(|e| format!("--{e}"))?;
    let reference = spec(&args.reference)?;
    limits::positive_at_most(
        "reference-iterations",
        args.reference_iterations,
        limits::MAX_ITERATIONS,
    )
    .map_err(|e| format!("--{e}"))?;
    let agent = spec(&args.agent)?;
    super::refuse_set_options(
        "--agent",
        &agent,
        &["iterations", "time_ms"],
        "curve sets each rung's budget by --iterations or --time-ms",
    )?;
    let plan = CurvePlan {
        game: spec(&args.game)?,
        agent,
        reference,
        reference_budget: crate::search::Budget::iterations(args.reference_iterations),
        rungs,
        against_half: !args.no_half,
        deals: args.deals,
        seed: args.seed,
        jobs: args.jobs,
        stop: Some(super::interrupt_signal()),
    };
    let [csv, json, svg] = output::table_outputs(&args.out)?;
    // Every game goes to PREFIX.jsonl as it ends, so a stopped curve resumes where it stopped.
    let games_log = output::prefixed(&args.out, "jsonl");
    let curve = games::dispatch(
        &plan.game.clone(),
        CurveVisitor {
            plan: &plan,
            quiet: args.quiet,
            games_log: &games_log,
        },
    )
    .map_err(|e| e.to_string())?
    .map_err(|e| log_error(Some(&games_log), e))?;
    outln!(
        "{}: {} at each budget vs {} and vs half its budget, {} deals per match, seed {}",
        curve.game,
        format!(
            "{}{}",
            curve.agent,
            super::cheating_mark(curve.agent_cheating)
        ),
        format!(
            "{}{}",
            curve.reference,
            super::cheating_mark(curve.reference_cheating)
        ),
        args.deals,
        args.seed
    )?;
    out!("{}", to_table(&curve))?;
    output::write_text(&csv, &to_csv(&curve))?;
    output::write_json(&json, &curve)?;
    let title = format!("{}: {} (seed {})", curve.game, curve.agent, curve.seed);
    curve_svg(&curve, &title, &svg)?;
    outln!(
        "wrote {}, {}, {} (the games: {})",
        csv.display(),
        json.display(),
        svg.display(),
        games_log.display()
    )?;
    Ok(())
}
