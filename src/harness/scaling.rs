//! Parallel scaling runs: for each parallel mode and thread count, iterations per second,
//! speedup and efficiency against one thread, and playing strength against the one-thread
//! searcher both at the same time per move and at the same iterations per move.
//!
//! Equal time measures what a user gets (speed and search quality together); equal iterations
//! isolates search quality, so the gap between the two is the speed gained minus nothing, and a
//! mode that wins at equal time but loses at equal iterations is trading quality for speed.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::runner::{MatchConfig, mix, run_match};
use super::seating::Lineup;
use crate::agents;
use crate::game::{MoveSet, SeatHistories, Seen, rng_from_seed};
use crate::games::GameDef;
use crate::search::{Budget, Parallel};
use crate::spec::Spec;

/// One row of a scaling table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScaleRow {
    /// Parallel mode.
    pub mode: String,
    /// Threads.
    pub threads: usize,
    /// Iterations per second over the speed positions.
    pub iterations_per_second: f64,
    /// Mean iterations per move at the time budget.
    pub iterations_per_move: f64,
    /// Iterations per second relative to the one-thread sequential searcher.
    pub speedup: f64,
    /// Speedup divided by threads.
    pub efficiency: f64,
    /// Mean score against the one-thread searcher at equal time per move.
    pub score_equal_time: Option<f64>,
    /// Half-width of its 95% interval.
    pub ci_equal_time: Option<f64>,
    /// Mean score against the one-thread searcher at equal iterations per move.
    pub score_equal_iterations: Option<f64>,
    /// Half-width of its 95% interval.
    pub ci_equal_iterations: Option<f64>,
    /// Deals played in each strength match.
    pub deals: u64,
    /// True when threads exceed the machine's cores.
    pub oversubscribed: bool,
}

/// What a scaling run measures.
#[derive(Clone, Debug)]
pub struct ScalePlan {
    /// Game spec text.
    pub game: Spec,
    /// Base agent spec (without `parallel` / `threads`).
    pub agent: Spec,
    /// Modes to measure.
    pub modes: Vec<String>,
    /// Thread counts to measure.
    pub threads: Vec<usize>,
    /// Time per move.
    pub time_ms: u64,
    /// Positions searched for the speed measurement.
    pub positions: usize,
    /// Deals per strength match (0 skips the strength matches).
    pub deals: u64,
    /// Seed of positions and deals.
    pub seed: u64,
    /// Raised to end the strength matches early (Ctrl-C).
    pub stop: Option<crate::search::StopSignal>,
}

/// The agent spec for a mode and thread count: `base` with `parallel` and `threads` set, less
/// the options of `base` that `mode` does not take ([`Parallel::takes`]), so that one base spec
/// serves every row of a scaling table, the sequential baseline included.
pub fn agent_spec(base: &Spec, mode: &str, threads: usize) -> Spec {
    // An unknown mode keeps every option: building the agent names the mode as the error.
    let refused: Vec<&str> = match Parallel::ALL.into_iter().find(|p| p.name() == mode) {
        Some(parallel) => (Parallel::MODE_OPTIONS.into_iter())
            .filter(|option| !parallel.takes(option))
            .collect(),
        None => Vec::new(),
    };
    let mut s = base.without(&refused);
    s.set("parallel", mode);
    s.set("threads", &threads.to_string());
    s
}

/// The position the search bench and `examples/search_speed` time: the game dealt from seed 1,
/// played on through forced moves to its first decision with a choice.
pub fn first_choice_position<G: GameDef>(config: &G::Config) -> G {
    let mut rng = rng_from_seed(1);
    let mut state = G::new_game(config, &mut rng);
    while !state.is_terminal() && state.legal_moves().len() < 2 {
        let mv = state.legal_moves().random(&mut rng);
        state.play(mv);
    }
    state
}

/// A position to time searches on, with the record of the moves so far of the seat to move (so
/// that an agent with inference times its inference too).
pub type SpeedPosition<G> = (G, Vec<Seen<<G as crate::game::Game>::Move>>);

/// Positions with a real choice, collected from seeded random games (a few per game, spread
/// over the game so that early and late decisions both count).
pub fn speed_positions<G: GameDef>(
    config: &G::Config,
    count: usize,
    seed: u64,
) -> Vec<SpeedPosition<G>> {
    let mut out = Vec::with_capacity(count);
    for game in 0u64.. {
        let mut rng = rng_from_seed(mix(seed, &[game, 7]));
        let mut state = G::new_game(config, &mut rng);
        let mut histories = SeatHistories::new(state.num_seats());
        let mut ply = 0;
        while !state.is_terminal() && out.len() < count {
            let moves = state.legal_moves();
            if moves.len() > 1 && ply % 5 == 0 {
                let mover = state.current_seat();
                out.push((state.clone(), histories.of(mover).to_vec()));
            }
            let mv = moves.random(&mut rng);
            histories.record(&state, mv);
            state.play(mv);
            ply += 1;
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

/// Iterations per second and per move of each of `specs` at `time_ms` over `positions`.
///
/// The searchers take turns at every position (the first to search moves along one place per
/// position) rather than each searching every position in a block: a machine whose speed drifts
/// within a run (a virtual CPU that switches between speeds, a neighbour's load) then slows all
/// of them alike, so their ratios hold even when their rates do not. Each searcher draws from
/// its own generator seeded by `seed`, so its searches do not depend on the others.
/// `progress(done)` is called after each position.
pub fn measure_speeds<G: GameDef>(
    specs: &[Spec],
    positions: &[SpeedPosition<G>],
    time_ms: u64,
    seed: u64,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<(f64, f64)>, String> {
    let mut searchers = Vec::with_capacity(specs.len());
    for spec in specs {
        let agent = agents::build::<G>(spec).map_err(|e| e.to_string())?;
        searchers.push((agent, rng_from_seed(seed), 0u64, Duration::ZERO));
    }
    let n = searchers.len();
    for (k, (p, history)) in positions.iter().enumerate() {
        for turn in 0..n {
            let (agent, rng, iterations, elapsed) = &mut searchers[(k + turn) % n];
            let start = Instant::now();
            let view = crate::agents::view_for(agent.as_ref(), p, p.current_seat(), history);
            let d = agent
                .choose(view, Budget::millis(time_ms), rng)
                .map_err(|e| e.to_string())?;
            *elapsed += start.elapsed();
            *iterations += d.iterations;
        }
        progress(k + 1);
    }
    Ok(searchers
        .iter()
        .map(|(_, _, iterations, elapsed)| {
            (
                *iterations as f64 / elapsed.as_secs_f64().max(1e-9),
                *iterations as f64 / positions.len().max(1) as f64,
            )
        })
        .collect())
}

/// Runs the whole plan; `progress(done, total, label)` is called as steps finish.
pub fn run_scale<G: GameDef>(
    plan: &ScalePlan,
    config: &G::Config,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<ScaleRow>, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let positions = speed_positions::<G>(config, plan.positions, plan.seed);
    let baseline = agent_spec(&plan.agent, "sequential", 1);
    let cases: Vec<(&String, usize)> = (plan.modes.iter())
        .flat_map(|mode| plan.threads.iter().map(move |&t| (mode, t)))
        .collect();
    let mut specs = vec![baseline.clone()];
    specs.extend(
        cases
            .iter()
            .map(|&(mode, t)| agent_spec(&plan.agent, mode, t)),
    );
    let matches = if plan.deals > 0 { 2 } else { 0 };
    let steps = positions.len() + (specs.len() - 1) * matches;
    let label = format!("speed: {} searchers in turn at each position", specs.len());
    progress(0, steps, &label);
    let speeds = measure_speeds(&specs, &positions, plan.time_ms, plan.seed, &mut |k| {
        progress(k, steps, &label)
    })?;
    let mut done = positions.len();
    let (base_ips, base_ipm) = speeds[0];
    let mut rows = Vec::new();
    for ((&(mode, threads), spec), &(ips, ipm)) in cases.iter().zip(&specs[1..]).zip(&speeds[1..]) {
        let mut row = ScaleRow {
            mode: mode.clone(),
            threads,
            iterations_per_second: ips,
            iterations_per_move: ipm,
            speedup: ips / base_ips,
            efficiency: ips / base_ips / threads as f64,
            score_equal_time: None,
            ci_equal_time: None,
            score_equal_iterations: None,
            ci_equal_iterations: None,
            deals: plan.deals,
            oversubscribed: threads > cores,
        };
        if plan.deals > 0 {
            let iterations = (base_ipm.round() as u64).max(1);
            for (equal_time, budget) in [
                (true, Budget::millis(plan.time_ms)),
                (false, Budget::iterations(iterations)),
            ] {
                let label = if equal_time {
                    "equal time"
                } else {
                    "equal iterations"
                };
                progress(
                    done,
                    steps,
                    &format!("{mode} × {threads} vs sequential × 1 at {label}"),
                );
                let cfg = MatchConfig {
                    game: plan.game.clone(),
                    a: spec.clone(),
                    b: baseline.clone(),
                    deals: plan.deals,
                    seed: plan.seed,
                    budget,
                    // One game at a time: concurrent games would steal the searchers' cores.
                    jobs: 1,
                    lineup: Lineup::TwoVsTwo,
                    shard: None,
                    sprt: None,
                    stop: plan.stop.clone(),
                };
                let report = run_match::<G>(&cfg, config, &mut super::runner::Quiet)?;
                if report.interrupted {
                    return Err("interrupted: the measurements so far are not written".into());
                }
                let t = &report.tally;
                let (score, ci) = (Some(t.mean()), Some(t.half_width()));
                if equal_time {
                    (row.score_equal_time, row.ci_equal_time) = (score, ci);
                } else {
                    (row.score_equal_iterations, row.ci_equal_iterations) = (score, ci);
                }
                done += 1;
            }
        }
        rows.push(row);
    }
    progress(done, steps, "done");
    Ok(rows)
}

/// The rows as CSV with a header line.
pub fn to_csv(rows: &[ScaleRow]) -> String {
    let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.4}"));
    let mut out = String::from(
        "mode,threads,oversubscribed,iterations_per_second,iterations_per_move,speedup,efficiency,score_equal_time,ci_equal_time,score_equal_iterations,ci_equal_iterations,deals\n",
    );
    for r in rows {
        out += &format!(
            "{},{},{},{:.0},{:.1},{:.4},{:.4},{},{},{},{},{}\n",
            r.mode,
            r.threads,
            r.oversubscribed,
            r.iterations_per_second,
            r.iterations_per_move,
            r.speedup,
            r.efficiency,
            opt(r.score_equal_time),
            opt(r.ci_equal_time),
            opt(r.score_equal_iterations),
            opt(r.ci_equal_iterations),
            r.deals
        );
    }
    out
}

/// A text table of the rows, as printed.
pub fn to_table(rows: &[ScaleRow]) -> String {
    let score = |s: Option<f64>, c: Option<f64>| match (s, c) {
        (Some(s), Some(c)) => format!("{s:.3} ± {c:.3}"),
        _ => "-".to_string(),
    };
    let mut out = format!(
        "{:<12} {:>7} {:>12} {:>8} {:>10} {:>15} {:>17}\n",
        "mode",
        "threads",
        "iter/s",
        "speedup",
        "efficiency",
        "vs 1T equal time",
        "vs 1T equal iters"
    );
    for r in rows {
        out += &format!(
            "{:<12} {:>7} {:>12.0} {:>8.2} {:>10.2} {:>15} {:>17}{}\n",
            r.mode,
            r.threads,
            r.iterations_per_second,
            r.speedup,
            r.efficiency,
            score(r.score_equal_time, r.ci_equal_time),
            score(r.score_equal_iterations, r.ci_equal_iterations),
            if r.oversubscribed {
                "  (oversubscribed)"
            } else {
                ""
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sueca::Sueca;

    /// Every searcher searches every position once, with its own options, and the rates come
    /// back in the order of the specs, whoever searched first at a position.
    #[test]
    fn interleaved_speeds_search_every_position_once_per_searcher() {
        let positions = speed_positions::<Sueca>(&Default::default(), 5, 11);
        let specs: Vec<Spec> = [
            "ismcts:iterations=300",
            "pimc:iterations=120",
            "ismcts:iterations=40",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        let mut seen = Vec::new();
        let speeds = measure_speeds(&specs, &positions, 60_000, 3, &mut |k| seen.push(k)).unwrap();
        assert_eq!(seen, [1, 2, 3, 4, 5]);
        let per_move: Vec<f64> = speeds.iter().map(|&(_, ipm)| ipm).collect();
        assert_eq!(per_move, [300.0, 120.0, 40.0]);
        assert!(speeds.iter().all(|&(ips, _)| ips > 0.0));
    }

    /// A base spec with options that only the tree modes (or the root and tree modes) take
    /// builds a searcher for every mode, the sequential baseline included, and keeps those
    /// options where the mode takes them.
    #[test]
    fn one_base_spec_serves_every_mode() {
        let base: Spec = "ismcts:playout=nast,virtual_loss=3,root_batch=64,nast_tables=thread"
            .parse()
            .unwrap();
        for mode in ["sequential", "root", "tree", "tree-locked", "leaf"] {
            let spec = agent_spec(&base, mode, if mode == "sequential" { 1 } else { 2 });
            crate::agents::build::<Sueca>(&spec).unwrap_or_else(|e| panic!("{mode}: {e}"));
            let tree = mode.starts_with("tree");
            assert_eq!(spec.has("virtual_loss"), tree, "{mode}");
            assert_eq!(spec.has("root_batch"), tree, "{mode}");
            assert_eq!(spec.has("nast_tables"), tree || mode == "root", "{mode}");
        }
    }
}
