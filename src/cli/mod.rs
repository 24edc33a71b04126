//! The command-line interface: one file per subcommand (`games` and `agents` share `list`).
//! `main.rs` checks the CPU, sets up the allocator and calls [`run`].

use clap::{Parser, Subcommand};

pub mod curve;
pub mod engine;
pub mod fit_model;
pub mod list;
pub mod match_cmd;
pub mod merge;
pub mod output;
pub mod play;
pub mod profile;
pub mod replay;
pub mod scale;
pub mod series;
pub mod shard;
pub mod solve;
pub(crate) mod stdout;
pub mod tournament;

/// cardsearch: fast, parallel Monte Carlo tree search for hidden-information card games.
#[derive(Parser, Debug)]
#[command(name = "cardsearch", version, about, long_about = None)]
pub struct Cli {
    /// What to do; with none, a short Tricks match between ISMCTS and PIMC.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a fair match between two agents and report the first agent's score.
    Match(match_cmd::MatchArgs),
    /// Merge the logs of a sharded match into the report of the whole match.
    Merge(merge::MergeArgs),
    /// Play a logged game again, check its result, and optionally dump a decision's search tree.
    Replay(replay::ReplayArgs),
    /// Serve the JSON-lines engine protocol on stdin/stdout (see docs/protocol.md).
    Engine,
    /// List the games and their options.
    Games,
    /// List the agents and their options.
    Agents,
    /// Run searches under a sampling profiler and write a flamegraph SVG.
    Profile(profile::ProfileArgs),
    /// Measure parallel scaling: speed and strength per parallel mode and thread count.
    Scale(scale::ScaleArgs),
    /// Play every pairing of a list of agents and rate them jointly (Elo with intervals).
    Tournament(tournament::TournamentArgs),
    /// Print every legal move's exact value in a position with all cards known.
    Solve(solve::SolveArgs),
    /// Measure strength against budget: an agent at a ladder of budgets, Elo per doubling.
    Curve(curve::CurveArgs),
    /// Sit at the table yourself: play one seat against engine agents in the terminal.
    Play(play::PlayArgs),
    /// Fit a game's learned opponent model (for `infer_model=learned`) to logged games.
    FitModel(fit_model::FitModelArgs),
}

/// The signal raised by Ctrl-C (SIGINT) for the long commands (`match`, `scale`): the first
/// Ctrl-C ends them cleanly (games in progress abandoned, logs flushed, the report so far
/// printed); a second one exits at once with status 130.
pub fn interrupt_signal() -> crate::search::StopSignal {
    static SIGNAL: std::sync::OnceLock<crate::search::StopSignal> = std::sync::OnceLock::new();
    SIGNAL
        .get_or_init(|| {
            let signal = crate::search::StopSignal::new();
            let raised = signal.clone();
            // Without a handler (another one installed already) Ctrl-C keeps its default
            // meaning, which ends the process: nothing to report.
            let _ = ctrlc::set_handler(move || {
                if raised.is_raised() {
                    std::process::exit(130);
                }
                eprintln!("\ninterrupted: finishing cleanly (Ctrl-C again to quit at once)");
                raised.raise();
            });
            signal
        })
        .clone()
}

/// What follows a cheating baseline's name wherever a report names it ("" for other agents).
pub(crate) fn cheating_mark(cheating: bool) -> &'static str {
    if cheating {
        " (CHEATING: sees hidden cards)"
    } else {
        ""
    }
}

/// Refuses an option of `spec` (given as `flag`) that the command sets itself (`keys`): kept,
/// it would be replaced, or would replace the command's setting, without a word. `why` says
/// what sets it.
pub(crate) fn refuse_set_options(
    flag: &str,
    spec: &crate::spec::Spec,
    keys: &[&str],
    why: &str,
) -> Result<(), String> {
    match keys.iter().find(|k| spec.has(k)) {
        Some(key) => Err(format!("{flag} {spec}: drop {key}= ({why})")),
        None => Ok(()),
    }
}

/// Clap's error as one line: its first line, and where that line ends in a colon (as "the
/// following required arguments were not provided:" does), the indented lines it introduces.
fn one_line(clap_error: &str) -> String {
    let mut lines = clap_error.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments").trim();
    if !first.ends_with(':') {
        return first.to_string();
    }
    let listed: Vec<&str> = lines
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    format!("{first} {}", listed.join(", "))
}

/// Parses the command line and runs it. Returns the process exit code; errors are printed as one
/// line on stderr.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                return match e.print() {
                    Ok(()) => 0,
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => stdout::CLOSED_STATUS,
                    Err(e) => {
                        eprintln!("error: cannot write standard output: {e}");
                        1
                    }
                };
            }
            eprintln!("{} (see --help)", one_line(&e.render().to_string()));
            return 2;
        }
    };
    let result = match cli.command {
        None => match_cmd::run(&match_cmd::MatchArgs::default_short()),
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::Merge(args)) => merge::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Engine) => engine::run(),
        Some(Command::Games) => list::games(),
        Some(Command::Agents) => list::agents(),
        Some(Command::Profile(args)) => profile::run(&args),
        Some(Command::Scale(args)) => scale::run(&args),
        Some(Command::Tournament(args)) => tournament::run(&args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Curve(args)) => curve::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::FitModel(args)) => fit_model::run(&args),
    };
    match result {
        Ok(()) => 0,
        Err(e) if e == stdout::CLOSED => stdout::CLOSED_STATUS,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
