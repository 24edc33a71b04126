//! `cardsearch profile`: runs searches under a sampling profiler and writes a flamegraph SVG.
//!
//! pprof samples with `SIGPROF` from `setitimer` (no perf-event permissions, no root) and
//! unwinds with frame pointers, which is safe inside the signal handler; the build forces frame
//! pointers (`.cargo/config.toml`), so every frame of the project shows by name.

use super::stdout::outln;
use std::fs::File;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use crate::agents;
use crate::game::{MoveSet, SeatHistories, rng_from_seed};
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::runner::{agent_seed, mix};
use crate::search::{Budget, StopSignal};
use crate::spec::Spec;

/// Options of `cardsearch profile`.
#[derive(Args, Debug, Clone)]
pub struct ProfileArgs {
    /// Game spec.
    #[arg(long, default_value = "sueca")]
    pub game: String,
    /// Agent spec to profile, e.g. `ismcts`, `pimc:dets=20`, `ismcts:parallel=tree,threads=2`.
    #[arg(long, default_value = "ismcts")]
    pub agent: String,
    /// Seconds of searching to sample.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Iterations per decision (searches run back to back from the positions of random games).
    #[arg(long, default_value_t = 10_000)]
    pub iterations: u64,
    /// Sampling frequency in Hz (at most 10,000: the profiler's timer counts whole
    /// microseconds, and above a million a second it would never fire).
    #[arg(long, default_value_t = 997)]
    pub frequency: i32,
    /// Seed of the positions searched.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where to write the flamegraph SVG.
    #[arg(long, default_value = "profiles/profile.svg")]
    pub out: PathBuf,
}

/// What a profiling run did.
#[derive(Debug, Clone, Copy)]
pub struct ProfileRun {
    /// Decisions searched.
    pub decisions: u64,
    /// Iterations over all decisions.
    pub iterations: u64,
    /// Wall time spent searching.
    pub elapsed: Duration,
}

/// Runs decisions of `agent` back to back for `seconds`: each random game is played with the
/// agent choosing at every position that has a choice (single-move positions are skipped).
pub struct SearchLoad<'a> {
    /// The agent spec.
    pub agent: &'a Spec,
    /// Wall time to keep searching: a decision still searching then is stopped, whatever its
    /// budget (`--iterations`, or the agent spec's own).
    pub seconds: f64,
    /// Iterations per decision.
    pub iterations: u64,
    /// Seed of the games.
    pub seed: u64,
}

impl GameVisitor for SearchLoad<'_> {
    type Output = Result<ProfileRun, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        // An agent per seat, as in a match: what one carries between its own decisions (a
        // kept subtree, n-gram statistics) is then profiled too.
        let mut seat_agents = Vec::new();
        let start = Instant::now();
        let limit = Duration::from_secs_f64(self.seconds.max(0.0));
        // The run ends at `limit` even inside a decision: a timer raises the searches' stop
        // signal then, which ends any budget, the agent spec's own included.
        let stop = StopSignal::new();
        let timer = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            timer.raise();
        });
        let budget = Budget::iterations(self.iterations).with_stop(stop);
        let mut run = ProfileRun {
            decisions: 0,
            iterations: 0,
            elapsed: Duration::ZERO,
        };
        for game in 0u64.. {
            let mut state = G::new_game(&config, &mut rng_from_seed(mix(self.seed, &[game])));
            // The agents' generators are seeded as a match seeds them, apart from the deal's:
            // the generator that dealt the game would hold the deal in its past outputs.
            let mut rngs: Vec<_> = (0..state.num_seats())
                .map(|seat| rng_from_seed(agent_seed(self.seed, game, 0, seat)))
                .collect();
            // Each seat's record of the moves, as a match gives it: an agent that reads the
            // others' plays (inference) is profiled doing so.
            let mut histories = SeatHistories::new(state.num_seats());
            while seat_agents.len() < state.num_seats() {
                let agent = agents::build::<G>(self.agent).map_err(|e| e.to_string())?;
                agent.check_game(&state.info_set(state.current_seat()))?;
                seat_agents.push(agent);
            }
            while !state.is_terminal() {
                let seat = state.current_seat();
                let moves = state.legal_moves();
                let mv = if moves.len() > 1 {
                    let view = agents::view_for(
                        seat_agents[seat].as_ref(),
                        &state,
                        seat,
                        histories.of(seat),
                    );
                    let d = seat_agents[seat]
                        .choose(view, budget.clone(), &mut rngs[seat])
                        .map_err(|e| e.to_string())?;
                    run.decisions += 1;
                    run.iterations += d.iterations;
                    d.mv
                } else {
                    moves.nth(0)
                };
                histories.record(&state, mv);
                state.play(mv);
                if start.elapsed() >= limit {
                    run.elapsed = start.elapsed();
                    return Ok(run);
                }
            }
        }
        unreachable!("the game loop only ends by returning")
    }
}

/// The highest `--frequency`: a sample every 100 µs already costs the search a good share of
/// its time, and pprof's timer, in whole microseconds, stops firing above a million a second.
const MAX_FREQUENCY: i32 = 10_000;

/// Runs `cardsearch profile`.
pub fn run(args: &ProfileArgs) -> Result<(), String> {
    let max = crate::limits::MAX_PROFILE_SECONDS;
    if !args.seconds.is_finite() || args.seconds <= 0.0 || args.seconds > max {
        return Err(format!(
            "--seconds must be a number above 0 and at most {max} (a day), not {}",
            args.seconds
        ));
    }
    crate::limits::positive_at_most("iterations", args.iterations, crate::limits::MAX_ITERATIONS)
        .map_err(|e| format!("--{e}"))?;
    crate::limits::positive_at_most("frequency", args.frequency, MAX_FREQUENCY)
        .map_err(|e| format!("--{e}"))?;
    let game: Spec = args
        .game
        .parse()
        .map_err(|e: crate::SpecError| e.to_string())?;
    let agent: Spec = args
        .agent
        .parse()
        .map_err(|e: crate::SpecError| e.to_string())?;
    // Check the specs before starting the profiler, so a typo costs nothing.
    games::dispatch(
        &game,
        SearchLoad {
            agent: &agent,
            seconds: 0.0,
            iterations: 1,
            seed: 0,
        },
    )
    .map_err(|e| e.to_string())??;
    // Only now open the output: creating it truncates an earlier flamegraph at that path,
    // which a typo in the specs must not cost. Still before the run, so a path that cannot
    // be written fails at once rather than after `--seconds` of profiling.
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file = File::create(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let guard = pprof::ProfilerGuardBuilder::default()
        .frequency(args.frequency)
        .blocklist(&["libc", "libgcc", "pthread", "vdso"])
        .build()
        .map_err(|e| format!("cannot start the profiler: {e}"))?;
    eprintln!("profiling {} on {} for {} s …", agent, game, args.seconds);
    let load = SearchLoad {
        agent: &agent,
        seconds: args.seconds,
        iterations: args.iterations,
        seed: args.seed,
    };
    let run = games::dispatch(&game, load).map_err(|e| e.to_string())??;
    let report = guard
        .report()
        .build()
        .map_err(|e| format!("cannot build the profile: {e}"))?;
    if report.data.is_empty() {
        // The empty file created above is no flamegraph: remove it rather than leave it.
        let _ = std::fs::remove_file(&args.out);
        return Err(format!(
            "the profiler took no samples in {:.3} s at {} Hz: raise --seconds or --frequency",
            run.elapsed.as_secs_f64(),
            args.frequency
        ));
    }
    report
        .flamegraph(file)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    outln!(
        "{} decisions, {} iterations in {:.2} s ({:.0} iterations/s); flamegraph: {}",
        run.decisions,
        run.iterations,
        run.elapsed.as_secs_f64(),
        run.iterations as f64 / run.elapsed.as_secs_f64().max(1e-9),
        args.out.display()
    )?;
    Ok(())
}
