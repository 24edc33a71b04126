//! Search speed from the command line, for quick checks between criterion runs.
//!
//! ```text
//! cargo run --release --example search_speed -- speed [GAME…] [--agent SPEC]… [--iterations N] [--runs R] [--interleave]
//! cargo run --release --example search_speed -- overshoot [GAME…] [--agent SPEC]… [--ms T] [--runs R]
//! cargo run --release --example search_speed -- latency
//! cargo run --release --example search_speed -- ratio [GAME…] [--agent SPEC] [--modes M,…] [--rounds N] [--runs R]
//! ```
//!
//! Every mode searches the game's bench positions (`benches/positions.jsonl`: opening, after 3
//! and 6 tricks, two tricks from the end, for a few deals; a game without any searches its first
//! decision with a choice). `speed` reports iterations per second of fixed-iteration searches:
//! the median over positions of each position's median over runs by wall time, the total over
//! all runs by the process's CPU time (Linux), which stays meaningful on a loaded machine for
//! one-thread searches, and the arena slots used per iteration; with `--interleave` the agents
//! take turns at every position and run, so that all of them meet the same machine state
//! (no CPU-time rate then). `overshoot` runs fixed-time searches and reports how long after the budget the move
//! came back: median, 99th percentile and maximum over all positions and runs. `latency` prints the one-way core-to-core
//! hand-off time (`cardsearch::harness::machine`), which bounds what shared-tree modes gain from
//! a second thread; `speed` prints it too, before its runs. `ratio` measures 2-thread / 1-thread
//! iterations per second of every parallel mode in rounds, and 2-thread / sequential (the agent
//! without a parallel mode), each round with the machine's state beside it (see `ratios`).

use std::time::{Duration, Instant};

use cardsearch::agents;
use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::harness::scaling::{agent_spec, first_choice_position};
use cardsearch::{Budget, MoveSet, Spec, View};

#[path = "../benches/common/positions.rs"]
mod positions;
use positions::bench_positions;

struct Run<'a> {
    agents: &'a [String],
    budget: Budget,
    runs: usize,
    overshoot: bool,
    /// Print nothing; `visit` still returns each agent's median.
    quiet: bool,
    /// Each run of each position searched by every agent in turn, rather than each agent's
    /// runs one after another (see `visit`); the CPU-time rate is then not reported.
    interleave: bool,
}

/// CPU seconds used by this process so far (all threads), from `/proc/self/stat` on Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel's USER_HZ is 100 on every mainstream Linux configuration.
    Some(ticks / 100.0)
}

/// Positions with a choice every 13th move of four seeded random games (seeds 0-3).
fn seeded_positions<G: GameDef>(config: &G::Config) -> Vec<G> {
    let mut positions = Vec::new();
    for seed in 0..4 {
        let mut rng = rng_from_seed(seed);
        let mut state = G::new_game(config, &mut rng);
        let mut ply = 0;
        while !state.is_terminal() {
            if ply % 13 == 0 && state.legal_moves().len() > 1 {
                positions.push(state.clone());
            }
            let mv = state.legal_moves().random(&mut rng);
            state.play(mv);
            ply += 1;
        }
    }
    positions
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

impl GameVisitor for Run<'_> {
    /// The median (iterations/s, or overshoot µs) of each agent, in order.
    type Output = Vec<f64>;

    fn visit<G: GameDef>(self, config: G::Config) -> Vec<f64> {
        let mut medians = Vec::with_capacity(self.agents.len());
        let replayed: Result<Vec<G>, String> = bench_positions(G::NAME)
            .iter()
            .map(|p| p.state(&config))
            .collect();
        let positions = match replayed {
            Ok(positions) if !positions.is_empty() => positions,
            Ok(_) => vec![first_choice_position(&config)],
            // The bench positions were recorded with the game's default options; others (Hearts
            // with passing, say) may make their moves illegal.
            Err(e) => {
                eprintln!(
                    "{}: the bench positions do not replay with these options ({e}); searching \
                     seeded random positions instead",
                    G::NAME
                );
                seeded_positions(&config)
            }
        };
        let mut agents: Vec<_> = self
            .agents
            .iter()
            .map(|spec| {
                agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2);
                })
            })
            .collect();
        let n = positions.len();
        // Per agent and position: a sample per run (iterations/s, or overshoot µs); arena slots
        // used; per agent: iterations and CPU seconds (not known when the agents interleave).
        let mut samples = vec![vec![Vec::with_capacity(self.runs); n]; agents.len()];
        let mut slots = vec![vec![0.0; n]; agents.len()];
        let mut iterations = vec![0u64; agents.len()];
        let mut cpu = vec![None; agents.len()];
        let mut search = |a: usize, r: usize, i: usize| {
            let agent = &mut agents[a];
            let state = &positions[i];
            let mut rng = rng_from_seed(r as u64);
            let view = View::new(state, state.current_seat(), &[]);
            let start = Instant::now();
            let d = agent
                .choose(view, self.budget.clone(), &mut rng)
                .expect("a legal position");
            let wall = start.elapsed();
            iterations[a] += d.iterations;
            samples[a][i].push(if self.overshoot {
                let budget = self.budget.time.unwrap_or(Duration::ZERO);
                (wall.as_secs_f64() - budget.as_secs_f64()) * 1e6
            } else {
                d.iterations as f64 / wall.as_secs_f64()
            });
            let used: u64 = agent
                .search_trees()
                .map_or(0, |trees| trees.iter().map(|t| t.len() as u64).sum());
            slots[a][i] = used as f64 / d.iterations.max(1) as f64;
        };
        if self.interleave {
            // Every agent searches each position in turn, so that all of them meet the same
            // machine: on a VM whose speed moves by a fifth within seconds, agents measured one
            // after another compare machine states as much as agents.
            for r in 0..self.runs {
                for i in 0..n {
                    for a in 0..self.agents.len() {
                        search(a, r, i);
                    }
                }
            }
        } else {
            for (a, cpu) in cpu.iter_mut().enumerate() {
                let cpu_start = cpu_seconds();
                for r in 0..self.runs {
                    for i in 0..n {
                        search(a, r, i);
                    }
                }
                *cpu = cpu_start.zip(cpu_seconds()).map(|(a, b)| b - a);
            }
        }
        for (a, spec) in self.agents.iter().enumerate() {
            let (samples, slots, iterations, cpu) =
                (&mut samples[a], &mut slots[a], iterations[a], cpu[a]);
            let name = G::NAME;
            if self.overshoot {
                let mut all: Vec<f64> = samples.concat();
                all.sort_by(|a, b| a.partial_cmp(b).unwrap());
                medians.push(percentile(&all, 0.5));
                if !self.quiet {
                    println!(
                        "{name:8} {spec:40} overshoot µs: median {:8.1}  p99 {:8.1}  max {:8.1}  ({} it/move, {n} positions)",
                        percentile(&all, 0.5),
                        percentile(&all, 0.99),
                        all[all.len() - 1],
                        iterations / (self.runs * n) as u64
                    );
                }
                continue;
            }
            // Each position's median over runs, then the median over positions.
            let mut per_position: Vec<f64> = samples
                .iter_mut()
                .map(|s| {
                    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
                    percentile(s, 0.5)
                })
                .collect();
            per_position.sort_by(|a, b| a.partial_cmp(b).unwrap());
            slots.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let median = percentile(&per_position, 0.5);
            medians.push(median);
            if !self.quiet {
                let per_cpu = cpu.map_or("n/a".to_string(), |c| {
                    format!("{:.0}", iterations as f64 / c)
                });
                println!(
                    "{name:8} {spec:40} {median:10.0} it/s wall (median over {n} positions of the median of {} runs; positions {:.0} to {:.0}), {per_cpu} it/CPU-s, {:.1} slots/it",
                    self.runs,
                    per_position[0],
                    per_position[n - 1],
                    percentile(slots, 0.5),
                );
            }
        }
        medians
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "speed".into());
    if !["speed", "overshoot", "latency", "ratio"].contains(&mode.as_str()) {
        eprintln!("unknown mode '{mode}' (speed, overshoot, latency or ratio)");
        std::process::exit(2);
    }
    let overshoot = mode == "overshoot";
    let (mut game_names, mut agent_specs) = (Vec::new(), Vec::new());
    let (mut iterations, mut ms, mut runs) = (10_000u64, 10u64, if overshoot { 25 } else { 10 });
    let mut rounds = 10usize;
    // `ratio` compares agents, so it always interleaves them; `speed` does on request.
    let mut interleave = mode == "ratio";
    let mut modes = "root,tree,tree-locked,leaf".to_string();
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the flag");
        let number = |v: String| -> u64 {
            v.parse().unwrap_or_else(|_| {
                eprintln!("'{v}' is not a number");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--agent" => agent_specs.push(value()),
            "--iterations" => iterations = number(value()),
            "--ms" => ms = number(value()),
            "--runs" => runs = number(value()) as usize,
            "--rounds" => rounds = number(value()) as usize,
            "--modes" => modes = value(),
            "--interleave" => interleave = true,
            _ => game_names.push(a),
        }
    }
    if mode == "latency" || mode == "speed" {
        println!("core-to-core hand-off: {:.0} ns one way", handoff_ns());
        if mode == "latency" {
            return;
        }
    }
    if game_names.is_empty() {
        game_names = games::all().iter().map(|g| g.name.to_string()).collect();
    }
    if agent_specs.is_empty() {
        agent_specs.push("ismcts".into());
    }
    let budget = if overshoot {
        Budget::millis(ms)
    } else {
        Budget::iterations(iterations)
    };
    let measure = |game: &str, agents: &[String], quiet: bool| -> Vec<f64> {
        let spec: Spec = game.parse().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
        let run = Run {
            agents,
            budget: budget.clone(),
            runs,
            overshoot,
            quiet,
            interleave,
        };
        games::dispatch(&spec, run).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        })
    };
    if mode == "ratio" {
        let modes: Vec<&str> = modes.split(',').collect();
        ratios(&game_names, &agent_specs[0], &modes, rounds, &measure);
        return;
    }
    for game in &game_names {
        measure(game, &agent_specs, false);
    }
}

/// Measures `(game, agents, quiet)`: each agent's median iterations per second.
type Measure<'a> = dyn Fn(&str, &[String], bool) -> Vec<f64> + 'a;

/// One-way core-to-core hand-off time in nanoseconds.
fn handoff_ns() -> f64 {
    cardsearch::harness::machine::quick_handoff_latency().as_secs_f64() * 1e9
}

/// Rounds of 2-thread / 1-thread ratios for every game and parallel mode. In each round and game
/// the sequential search and every mode's one-thread and two-thread searches take turns at every
/// position and run, so all of a round's rates for a game are measured interleaved at the scale
/// of milliseconds. Measured one agent after another, seconds apart, they were not comparable
/// on this VM: its one-thread speed moves by up to 40% within seconds (a single busy core runs
/// faster than two busy ones when the host lets it), so root mode, which shares nothing,
/// read anywhere from 1.36 to 2.67. For the same reason, with root among the modes every other
/// mode's two-thread rate is also printed over root's: what sharing a tree costs, apart from
/// what the machine gives a second thread. Each round records the machine's state first: the
/// core-to-core hand-off time and how many cores two busy threads get. On a virtual machine
/// both change over minutes with the host's placement. A round is "clean" when two busy threads
/// got two cores (capacity ≥ 1.9) as it started; the hand-off time is not a filter but part of
/// what is measured (a real machine's cores are that far apart too), so it is printed beside.
fn ratios(games: &[String], agent: &str, modes: &[&str], rounds: usize, measure: &Measure<'_>) {
    let capacity_work = 30_000_000;
    let root = modes.iter().position(|&m| m == "root");
    let mut all: Vec<Row<'_>> = Vec::new();
    println!(
        "round  hand-off ns  capacity  game     mode         seq it/s    1T it/s    2T it/s  ratio  2T/seq  2T/root-2T"
    );
    for round in 1..=rounds {
        let latency = handoff_ns();
        let capacity = cardsearch::harness::machine::two_thread_capacity(capacity_work);
        let clean = capacity >= 1.9;
        for game in games {
            // The sequential search beside each mode's one thread: a mode's own overhead
            // makes its one-thread search slower, which raises 2T / 1T without making two
            // threads any faster, so 2T / sequential is printed too.
            let base: Spec = agent.parse().unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            let spec = |mode: &str, threads: usize| agent_spec(&base, mode, threads).to_string();
            let mut agents = vec![spec("sequential", 1)];
            for &mode in modes {
                agents.push(spec(mode, 1));
                agents.push(spec(mode, 2));
            }
            let m = measure(game, &agents, true);
            let (seq, one, two) = (m[0], |k: usize| m[1 + 2 * k], |k: usize| m[2 + 2 * k]);
            for (k, &mode) in modes.iter().enumerate() {
                let (ratio, vs_seq) = (two(k) / one(k), two(k) / seq);
                let vs_root = root.filter(|&r| r != k).map(|r| two(k) / two(r));
                println!(
                    "{round:5}  {latency:11.0}  {capacity:8.2}  {game:8} {mode:12} {seq:10.0} {:10.0} {:10.0}  {ratio:5.2}  {vs_seq:6.2}  {:>11}{}",
                    one(k),
                    two(k),
                    vs_root.map_or("-".to_string(), |x| format!("{x:.2}")),
                    if clean { "" } else { "  (not clean)" }
                );
                all.push(Row {
                    clean,
                    game: game.clone(),
                    mode,
                    ratio,
                    vs_seq,
                    vs_root,
                });
            }
        }
    }
    let median = |mut v: Vec<f64>| -> Option<f64> {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (!v.is_empty()).then(|| v[v.len() / 2])
    };
    println!(
        "\nmedian 2T/1T ratio   game     mode          all rounds   clean rounds   (all rounds: 2T / sequential, 2T / root's 2T)"
    );
    for game in games {
        for &mode in modes {
            let pick = |clean_only: bool, value: fn(&Row) -> Option<f64>| {
                median(
                    all.iter()
                        .filter(|r| &r.game == game && r.mode == mode && (r.clean || !clean_only))
                        .filter_map(value)
                        .collect(),
                )
            };
            let show = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.2}"));
            let clean_rounds = all
                .iter()
                .filter(|r| &r.game == game && r.mode == mode && r.clean)
                .count();
            println!(
                "                     {game:8} {mode:12} {:>10}   {:>6} ({clean_rounds} of {rounds})   2T/seq {:>5}   2T/root-2T {:>5}",
                show(pick(false, |r| Some(r.ratio))),
                show(pick(true, |r| Some(r.ratio))),
                show(pick(false, |r| Some(r.vs_seq))),
                show(pick(false, |r| r.vs_root)),
            );
        }
    }
}

/// One mode's measurements in one round of `ratios`.
struct Row<'a> {
    clean: bool,
    game: String,
    mode: &'a str,
    /// Two threads over one thread of the mode.
    ratio: f64,
    /// Two threads over the sequential search.
    vs_seq: f64,
    /// Two threads over root mode's two threads, when root was measured too (and this is not it).
    vs_root: Option<f64>,
}
