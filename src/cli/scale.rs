//! `cardsearch scale`: parallel scaling of a search agent — speed and strength per mode and
//! thread count — written as a table, CSV, JSON and an SVG plot.

use super::stdout::{out, outln};
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::output;
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::plot::scaling_svg;
use crate::harness::scaling::{ScalePlan, ScaleRow, run_scale, to_csv, to_table};
use crate::limits;
use crate::spec::Spec;

/// Options of `cardsearch scale`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "For each mode and thread count: iterations/s over fixed positions, speedup and \
efficiency against the one-thread sequential searcher, and the mean score (95% interval) of a match \
against that searcher at equal time per move and at equal iterations per move (the one-thread \
searcher's mean iterations at that time). Thread counts above the machine's cores are marked \
oversubscribed."
)]
pub struct ScaleArgs {
    /// Game spec.
    #[arg(long, default_value = "sueca")]
    pub game: String,
    /// Base agent spec, without a budget, parallel mode or thread count (the rows set them;
    /// virtual_loss, root_batch and nast_tables are left out of the rows whose mode does not
    /// take them).
    #[arg(long, default_value = "ismcts")]
    pub agent: String,
    /// Comma-separated parallel modes.
    #[arg(long, default_value = "root,tree,leaf")]
    pub modes: String,
    /// Comma-separated thread counts.
    #[arg(long, default_value = "1,2,4")]
    pub threads: String,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 50)]
    pub time_ms: u64,
    /// Positions searched for the speed measurement.
    #[arg(long, default_value_t = 40)]
    pub positions: usize,
    /// Deals per strength match (0 measures speed only).
    #[arg(long, default_value_t = 50)]
    pub deals: u64,
    /// Seed of positions and deals.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output prefix: writes PREFIX.csv, PREFIX.json and PREFIX.svg.
    #[arg(long, default_value = "scale")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Reads a comma-separated list; an item given twice is refused, as it would be measured and
/// reported twice under one label.
fn parse_list<T>(s: &str, what: &str) -> Result<Vec<T>, String>
where
    T: std::str::FromStr + PartialEq + std::fmt::Display,
{
    let v: Result<Vec<T>, _> = s.split(',').map(|x| x.trim().parse::<T>()).collect();
    let v = match v {
        Ok(v) if !v.is_empty() => v,
        _ => {
            return Err(format!(
                "malformed --{what} '{s}': expected a comma-separated list"
            ));
        }
    };
    if let Some(twice) = v
        .iter()
        .enumerate()
        .find_map(|(i, x)| v[..i].contains(x).then_some(x))
    {
        return Err(format!("--{what}: {twice} is given twice"));
    }
    Ok(v)
}

/// The most positions a speed measurement searches.
const MAX_POSITIONS: usize = 100_000;

/// Builds every agent of a plan, to reject bad options before measuring.
struct CheckPlan<'a>(&'a ScalePlan);

impl GameVisitor for CheckPlan<'_> {
    type Output = Result<(), String>;
    fn visit<G: GameDef>(self, _config: G::Config) -> Self::Output {
        let plan = self.0;
        let base = crate::harness::scaling::agent_spec(&plan.agent, "sequential", 1);
        crate::agents::build::<G>(&base).map_err(|e| e.to_string())?;
        for mode in &plan.modes {
            for &threads in &plan.threads {
                let spec = crate::harness::scaling::agent_spec(&plan.agent, mode, threads);
                crate::agents::build::<G>(&spec).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

struct ScaleVisitor<'a> {
    plan: &'a ScalePlan,
    quiet: bool,
}

impl GameVisitor for ScaleVisitor<'_> {
    type Output = Result<Vec<ScaleRow>, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        let bar = if self.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(1)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} steps, ETA {eta} {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        let rows = run_scale::<G>(self.plan, &config, &mut |done, total, label| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(label.to_string());
        });
        bar.finish_and_clear();
        rows
    }
}

/// Runs `cardsearch scale`.
pub fn run(args: &ScaleArgs) -> Result<(), String> {
    let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
    let threads: Vec<usize> = parse_list(&args.threads, "threads")?;
    let flag = |e: String| format!("--{e}");
    for &t in &threads {
        limits::positive_at_most("threads", t, limits::MAX_THREADS).map_err(flag)?;
    }
    limits::positive_at_most("time-ms", args.time_ms, limits::MAX_TIME_MS).map_err(flag)?;
    limits::positive_at_most("positions", args.positions, MAX_POSITIONS).map_err(flag)?;
    if args.deals > limits::MAX_DEALS {
        return Err(format!(
            "--deals={} must be at most {}",
            args.deals,
            limits::MAX_DEALS
        ));
    }
    let agent = spec(&args.agent)?;
    super::refuse_set_options(
        "--agent",
        &agent,
        &["iterations", "time_ms", "parallel", "threads"],
        "scale sets each row's budget by --time-ms, its mode by --modes and its threads by \
         --threads",
    )?;
    let plan = ScalePlan {
        game: spec(&args.game)?,
        agent,
        modes: parse_list(&args.modes, "modes")?,
        threads,
        time_ms: args.time_ms,
        positions: args.positions,
        deals: args.deals,
        seed: args.seed,
        stop: Some(super::interrupt_signal()),
    };
    // Every agent of the plan is built, and every output checked, before anything is measured,
    // so a bad option or path is an error at once, not after minutes of timing.
    games::dispatch(&plan.game, CheckPlan(&plan)).map_err(|e| e.to_string())??;
    let [csv, json, svg] = output::table_outputs(&args.out)?;
    // Shared-tree speedups depend on how fast a cache line moves between cores, which on a
    // virtual machine changes with the host's placement: measured on both sides of the run.
    let handoff_before = handoff_latency_ns();
    let rows = games::dispatch(
        &plan.game.clone(),
        ScaleVisitor {
            plan: &plan,
            quiet: args.quiet,
        },
    )
    .map_err(|e| e.to_string())??;
    let handoff_after = handoff_latency_ns();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    outln!(
        "{} on {}, {} ms per move, {} speed positions, {} deals per strength match, {cores} cores",
        plan.agent,
        plan.game,
        plan.time_ms,
        plan.positions,
        plan.deals
    )?;
    outln!(
        "core-to-core hand-off: {handoff_before:.0} ns one way before the run, {handoff_after:.0} ns after"
    )?;
    out!("{}", to_table(&rows))?;
    output::write_text(&csv, &to_csv(&rows))?;
    output::write_json(
        &json,
        &serde_json::json!({
            "game": plan.game.to_string(),
            "agent": plan.agent.to_string(),
            "time_ms": plan.time_ms,
            "positions": plan.positions,
            "deals": plan.deals,
            "seed": plan.seed,
            "cores": cores,
            "handoff_ns_before": handoff_before,
            "handoff_ns_after": handoff_after,
            "rows": rows,
        }),
    )?;
    let title = format!(
        "{} on {}, {} ms/move ({cores} cores, hand-off {handoff_before:.0}/{handoff_after:.0} ns)",
        plan.agent, plan.game, plan.time_ms
    );
    scaling_svg(&rows, &title, &svg)?;
    outln!("wrote {0}.csv, {0}.json, {0}.svg", args.out.display())?;
    Ok(())
}

/// One-way core-to-core hand-off time in nanoseconds (see `harness::machine`).
fn handoff_latency_ns() -> f64 {
    crate::harness::machine::quick_handoff_latency().as_secs_f64() * 1e9
}
