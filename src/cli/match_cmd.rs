//! `cardsearch match`: a fair match between two agents, with progress, statistics and logs.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::shard::parse_shard;
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::log::resume_log;
use crate::harness::runner::run_match_resuming;
use crate::harness::runner::{GameRecord, JsonlWriter, MatchObserver};
use crate::harness::{MatchConfig, MatchReport, Sprt};
use crate::limits::{self, positive_at_most};
use crate::search::Budget;
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
    /// Game spec, e.g. `tricks`, `sueca:bandeira=tricks`, `hearts:pass=left`.
    #[arg(long, default_value = "tricks")]
    pub game: String,
    /// First agent's spec, e.g. `ismcts:c=0.7`.
    #[arg(long, default_value = "ismcts")]
    pub a: String,
    /// Second agent's spec, e.g. `pimc:dets=20`.
    #[arg(long, default_value = "pimc")]
    pub b: String,
    /// Number of deals; each is played once per seating.
    #[arg(long, default_value_t = 100)]
    pub deals: u64,
    /// Iterations per move (default 1000 unless --time-ms is given).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Milliseconds per move: agents search until the time is up.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Match seed: deals and agents' generators derive from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at once (each agent's own search threads are set in its spec).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Line-up for 4-seat individual games: 2v2 or 1v3.
    #[arg(long, default_value = "2v2")]
    pub lineup: String,
    /// Play only shard I of N (deals with index % N == I), e.g. 0/4; `auto` takes I and N from
    /// a Slurm job array or a Kubernetes Indexed Job (docs/cluster.md).
    #[arg(long)]
    pub shard: Option<String>,
    /// Stop early by a sequential probability ratio test between Elo differences, e.g. 0,20.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Write every finished game as a JSON line to this file. Given again with the same command,
    /// the match continues: the games already in it are not played again.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the final statistics as JSON to this file.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchArgs {
    /// The match run when `cardsearch` is called with no arguments: 50 Tricks deals, ISMCTS
    /// against PIMC at 1000 iterations per move (a few seconds).
    pub fn default_short() -> MatchArgs {
        MatchArgs {
            game: "tricks".into(),
            a: "ismcts".into(),
            b: "pimc".into(),
            deals: 50,
            iterations: None,
            time_ms: None,
            seed: 0,
            jobs: 1,
            lineup: "2v2".into(),
            shard: None,
            sprt: None,
            out: None,
            summary: None,
            quiet: false,
        }
    }

    /// Checks and converts the arguments.
    pub fn config(&self) -> Result<MatchConfig, String> {
        let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
        let flag = |e: String| format!("--{e}");
        positive_at_most("deals", self.deals, limits::MAX_DEALS).map_err(flag)?;
        positive_at_most("jobs", self.jobs, limits::MAX_JOBS).map_err(flag)?;
        let budget = budget(self.iterations, self.time_ms)?;
        let shard = self.shard.as_deref().map(parse_shard).transpose()?;
        Ok(MatchConfig {
            game: spec(&self.game)?,
            a: spec(&self.a)?,
            b: spec(&self.b)?,
            deals: self.deals,
            seed: self.seed,
            budget,
            jobs: self.jobs,
            lineup: self.lineup.parse()?,
            shard,
            sprt: self.sprt.as_deref().map(str::parse::<Sprt>).transpose()?,
            stop: None,
        })
    }
}

/// `--iterations` and `--time-ms`, for the commands that share them.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Iterations per move (default 1000 unless --time-ms is given); an agent's own
    /// `iterations=` or `time_ms=` replaces it for that agent.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Milliseconds per move: agents search until the time is up.
    #[arg(long)]
    pub time_ms: Option<u64>,
}

impl BudgetArgs {
    /// The budget per move, checked.
    pub fn budget(&self) -> Result<Budget, String> {
        budget(self.iterations, self.time_ms)
    }
}

/// The budget per move of `--iterations` and `--time-ms` (1000 iterations when neither is
/// given), checked against their ceilings.
pub fn budget(iterations: Option<u64>, time_ms: Option<u64>) -> Result<Budget, String> {
    let flag = |e: String| format!("--{e}");
    if let Some(n) = iterations {
        positive_at_most("iterations", n, limits::MAX_ITERATIONS).map_err(flag)?;
    }
    if let Some(t) = time_ms {
        positive_at_most("time-ms", t, limits::MAX_TIME_MS).map_err(flag)?;
    }
    Ok(Budget {
        iterations: iterations.or(if time_ms.is_none() { Some(1000) } else { None }),
        time: time_ms.map(Duration::from_millis),
        stop: None,
    })
}

/// Progress bar and JSON-lines log of a running match or tournament.
pub struct Console {
    bar: ProgressBar,
    out: Option<LogWriter>,
    error: Option<String>,
    label: bool,
}

impl Console {
    /// A console writing to `out`, with a progress bar unless `quiet`; `label` puts the current
    /// match's agents in the bar's message (tournaments).
    pub fn new(quiet: bool, out: Option<LogWriter>, label: bool) -> Console {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(0)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, ETA {eta} {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Console {
            bar,
            out,
            error: None,
            label,
        }
    }

    /// Clears the bar; the first error writing the log, if any.
    pub fn finish(self) -> Result<(), String> {
        self.bar.finish_and_clear();
        self.error.map_or(Ok(()), Err)
    }
}

impl MatchObserver for Console {
    fn game_finished(&mut self, record: &GameRecord, report: &MatchReport, done: u64, total: u64) {
        if let Some(out) = &mut self.out
            && let Err(e) = out.write(record)
        {
            self.error
                .get_or_insert(format!("cannot write game log: {e}"));
        }
        self.bar.set_length(total);
        self.bar.set_position(done);
        let (lo, hi) = report.tally.interval();
        let who = if self.label {
            format!("{} vs {}: ", record.agent_a, record.agent_b)
        } else {
            String::new()
        };
        self.bar.set_message(format!(
            "{who}A {:.3} [{lo:.3}, {hi:.3}]",
            report.tally.mean()
        ));
    }
}

struct MatchVisitor<'a> {
    args: &'a MatchArgs,
    cfg: MatchConfig,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<MatchReport, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        let (out, finished) = open_log(self.args.out.as_deref(), self.args.quiet)?;
        let mut console = Console::new(self.args.quiet, out, false);
        let report = run_match_resuming::<G>(&self.cfg, &config, finished, &mut console)
            .map_err(|e| log_error(self.args.out.as_deref(), e));
        console.finish()?;
        report
    }
}

/// The writer of a `--out` log.
pub type LogWriter = JsonlWriter<BufWriter<File>>;

/// Opens `--out` to continue it: its finished games (not played again) and the writer that
/// appends the new ones. A run stopped mid-write is reported on stderr, never an error.
pub fn open_log(
    out: Option<&Path>,
    quiet: bool,
) -> Result<(Option<LogWriter>, Vec<GameRecord>), String> {
    let Some(path) = out else {
        return Ok((None, Vec::new()));
    };
    let log = resume_log(path).map_err(|e| e.to_string())?;
    if let Some(w) = &log.warning {
        eprintln!("warning: {w}");
    }
    if !log.records.is_empty() && !quiet {
        eprintln!(
            "resuming: {} finished games in {} are not played again",
            log.records.len(),
            path.display()
        );
    }
    Ok((Some(JsonlWriter(BufWriter::new(log.file))), log.records))
}

/// Names the log when a resumed game does not fit the command.
pub fn log_error(out: Option<&Path>, e: String) -> String {
    match out {
        Some(p) if e.starts_with("logged ") => {
            format!("{}: {e} (give another --out to start afresh)", p.display())
        }
        _ => e,
    }
}

/// Runs `cardsearch match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let mut cfg = args.config()?;
    cfg.stop = Some(super::interrupt_signal());
    let (a, b, deals, seed, match_budget) = (
        cfg.a.to_string(),
        cfg.b.to_string(),
        cfg.deals,
        cfg.seed,
        cfg.budget.describe(),
    );
    let game = cfg.game.clone();
    let report =
        games::dispatch(&game, MatchVisitor { args, cfg }).map_err(|e| e.to_string())??;
    // An agent's own `iterations=` or `time_ms=` replaces the match budget for that agent; its
    // full spec says so also when the budget is a default of the agent's (pentago-student).
    let own_budget = |full: &str| {
        full.parse::<Spec>()
            .is_ok_and(|s| s.has("iterations") || s.has("time_ms"))
    };
    let budget = match (own_budget(&report.a.spec), own_budget(&report.b.spec)) {
        (true, true) => "each agent's own budget".to_string(),
        (true, false) => format!("B {match_budget} per move, A its own budget"),
        (false, true) => format!("A {match_budget} per move, B its own budget"),
        (false, false) => format!("{match_budget} per move"),
    };
    println!("{game}: A = {a} vs B = {b}, {deals} deals, {budget}, seed {seed}");
    print!("{}", format_report(&report));
    if let Some(p) = &args.summary {
        let text = serde_json::to_string_pretty(&report).expect("serialisable");
        std::fs::write(p, text + "\n").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

/// The final table of a match, as printed.
pub fn format_report(r: &MatchReport) -> String {
    let t = &r.tally;
    let (lo, hi) = t.interval();
    let (elo, elo_lo, elo_hi) = t.elo();
    let label = |s: &crate::harness::runner::SideTotals| {
        if s.cheating {
            format!("{} (CHEATING: sees hidden cards)", s.spec)
        } else {
            s.spec.clone()
        }
    };
    let mut out = String::new();
    out += &format!("  A: {}\n  B: {}\n", label(&r.a), label(&r.b));
    out += &format!(
        "  seating: {} ({} games per deal)\n",
        r.seating, r.seatings_per_deal
    );
    out += &format!(
        "  A mean score {:.3} ± {:.3} (95% CI {lo:.3}–{hi:.3}), Elo {elo:+.0} ({elo_lo:+.0} … {elo_hi:+.0}), {} deals\n",
        t.mean(),
        (hi - lo) / 2.0,
        t.deals
    );
    out += &format!(
        "  games {}: A won {}, drew {}, lost {}\n",
        t.games, t.wins, t.draws, t.losses
    );
    out += &format!(
        "  points per game: A {:.2}, B {:.2}",
        r.a.mean_points(),
        r.b.mean_points()
    );
    if r.has_units {
        out += &format!(
            "; match units per game: A {:+.3}, B {:+.3}",
            r.a.mean_units(),
            r.b.mean_units()
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
    if let Some(d) = r.sprt {
        out += &format!("  SPRT: {d:?}\n");
    }
    if r.interrupted {
        out += &format!(
            "  INTERRUPTED: only the {} deals whose every game finished are counted\n",
            t.deals
        );
    }
    out
}
