//! What `match` and `tournament` share: the options of a series of games (game, budget, seed,
//! parallel games, line-up, shard, log, summary), the progress console, and continuing from a
//! JSON-lines log.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::output::write_json;
use super::shard::parse_shard;
use crate::harness::log::resume_log;
use crate::harness::runner::{GameRecord, JsonlWriter, MatchObserver};
use crate::harness::{Lineup, MatchReport};
use crate::limits::{self, positive_at_most};
use crate::search::Budget;
use crate::spec::Spec;

/// The options of a series of games that `match` and `tournament` share.
#[derive(Args, Debug, Clone)]
pub struct SeriesArgs {
    /// Game spec, e.g. `tricks`, `sueca:bandeira=tricks`, `hearts:pass=left`.
    #[arg(long, default_value = "tricks")]
    pub game: String,
    /// The engine's budget per move.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Seed: deals and agents' generators derive from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at once (each agent's own search threads are set in its spec).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Line-up for 4-seat individual games: 2v2 or 1v3.
    #[arg(long, default_value = "2v2")]
    pub lineup: String,
    /// Play only shard I of N (deals with index % N == I), e.g. 0/4; `auto` takes I and N from
    /// a Slurm job array or a Kubernetes Indexed Job (docs/cluster.md). Combine logs with `merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Write every finished game as a JSON line to this file. Given again with the same command,
    /// the run continues: the games already in it are not played again.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the final statistics as JSON to this file.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// [`SeriesArgs`] checked and converted.
pub struct Series {
    /// The game.
    pub game: Spec,
    /// The budget per move.
    pub budget: Budget,
    /// Parallel games.
    pub jobs: usize,
    /// The line-up of 4-seat individual games.
    pub lineup: Lineup,
    /// The shard `(index, count)` to play, if any.
    pub shard: Option<(u64, u64)>,
}

impl SeriesArgs {
    /// The defaults of every option, on `game`.
    pub fn on(game: &str) -> SeriesArgs {
        SeriesArgs {
            game: game.into(),
            budget: BudgetArgs {
                iterations: None,
                time_ms: None,
            },
            seed: 0,
            jobs: 1,
            lineup: "2v2".into(),
            shard: None,
            out: None,
            summary: None,
            quiet: false,
        }
    }

    /// Checks every option and `deals` (which each command defaults differently).
    pub fn check(&self, deals: u64) -> Result<Series, String> {
        let flag = |e: String| format!("--{e}");
        positive_at_most("deals", deals, limits::MAX_DEALS).map_err(flag)?;
        positive_at_most("jobs", self.jobs, limits::MAX_JOBS).map_err(flag)?;
        let shard = self.shard.as_deref().map(parse_shard).transpose()?;
        if let Some((index, count)) = shard.filter(|&(index, _)| index >= deals) {
            // Shard I plays deals I, I + N, …: past the last deal it would play none and
            // report an empty match as a level one.
            return Err(format!(
                "--shard {index}/{count}: shard {index} would play deals {index}, {}, … but \
                 --deals is {deals}: give more deals or fewer shards",
                index + count
            ));
        }
        Ok(Series {
            game: self.game.parse::<Spec>().map_err(|e| e.to_string())?,
            budget: self.budget.budget()?,
            jobs: self.jobs,
            lineup: self.lineup.parse()?,
            shard,
        })
    }

    /// Runs `play` with the games already in `--out` (not to be played again) and a console that
    /// shows progress and appends each new game to the log; `label` names the agents of the
    /// current match in the progress line (tournaments).
    pub fn run_logged<R>(
        &self,
        label: bool,
        play: impl FnOnce(Vec<GameRecord>, &mut Console) -> Result<R, String>,
    ) -> Result<R, String> {
        let out = self.out.as_deref();
        let existed = out.is_some_and(Path::exists);
        let (log, finished) = open_log(out, self.quiet)?;
        let mut console = Console::new(self.quiet, log, label);
        let result = play(finished, &mut console).map_err(|e| log_error(out, e));
        console.finish()?;
        // A run refused before its first game (an agent that cannot play this game) leaves no
        // empty log of its own making behind.
        if let (Err(_), Some(path), false) = (&result, out, existed)
            && std::fs::metadata(path).is_ok_and(|m| m.len() == 0)
        {
            let _ = std::fs::remove_file(path);
        }
        result
    }

    /// Writes `report` as pretty JSON to `--summary`, where given.
    pub fn write_summary(&self, report: &impl Serialize) -> Result<(), String> {
        self.summary
            .as_deref()
            .map_or(Ok(()), |p| write_json(p, report))
    }
}

/// `--iterations` and `--time-ms`, for the commands that share them.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Iterations per move, per turn for the turn planners (default 1000 unless --time-ms is
    /// given); an agent's own `iterations=` or `time_ms=` replaces it for that agent.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Milliseconds per move (per turn for the turn planners): agents search until the time is
    /// up, or until --iterations, if also given, are spent.
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

/// The JSON-lines log new games are appended to, keeping the first write error for the end
/// (a game must not be lost silently, nor stop the games in flight).
pub struct GameLog {
    out: Option<LogWriter>,
    error: Option<String>,
}

impl GameLog {
    /// A log writing to `out` (nothing when `None`).
    pub fn new(out: Option<LogWriter>) -> GameLog {
        GameLog { out, error: None }
    }

    /// Appends `record`.
    pub fn write(&mut self, record: &GameRecord) {
        if let Some(out) = &mut self.out
            && let Err(e) = out.write(record)
        {
            self.error
                .get_or_insert(format!("cannot write game log: {e}"));
        }
    }

    /// The first error writing the log, if any.
    pub fn finish(self) -> Result<(), String> {
        self.error.map_or(Ok(()), Err)
    }
}

/// Progress bar and JSON-lines log of a running match or tournament.
pub struct Console {
    bar: ProgressBar,
    log: GameLog,
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
            log: GameLog::new(out),
            label,
        }
    }

    /// Clears the bar; the first error writing the log, if any.
    pub fn finish(self) -> Result<(), String> {
        self.bar.finish_and_clear();
        self.log.finish()
    }
}

impl MatchObserver for Console {
    fn game_finished(&mut self, record: &GameRecord, report: &MatchReport, done: u64, total: u64) {
        self.log.write(record);
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

/// The writer of a `--out` log.
pub type LogWriter = JsonlWriter<BufWriter<File>>;

/// Opens `--out` to continue it: its finished games (not played again) and the writer that
/// appends the new ones. A run stopped mid-write is reported on stderr, never an error.
pub(crate) fn open_log(
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
pub(crate) fn log_error(out: Option<&Path>, e: String) -> String {
    match out {
        Some(p) if e.starts_with("logged ") => {
            format!("{}: {e} (give another --out to start afresh)", p.display())
        }
        _ => e,
    }
}
