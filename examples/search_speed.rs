//! Search speed from the command line, for quick checks between criterion runs.
//!
//! ```text
//! cargo run --release --example search_speed -- speed [GAME…] [--agent SPEC]… [--iterations N] [--runs R]
//! cargo run --release --example search_speed -- overshoot [GAME…] [--agent SPEC]… [--ms T] [--runs R]
//! ```
//!
//! `speed` reports iterations per second of fixed-iteration searches from each game's first
//! decision with a choice: the median over runs by wall time, and the total over runs by the
//! process's CPU time (Linux), which stays meaningful on a loaded machine for one-thread searches. `overshoot` runs fixed-time searches and reports how
//! long after the budget the move came back: median, 99th percentile and maximum.

use std::time::{Duration, Instant};

use cardsearch::agents;
use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::{Budget, MoveSet, Spec, View};

struct Run<'a> {
    agents: &'a [String],
    budget: Budget,
    runs: usize,
    overshoot: bool,
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

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

impl GameVisitor for Run<'_> {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        let mut rng = rng_from_seed(1);
        let mut state = G::new_game(&config, &mut rng);
        while !state.is_terminal() && state.legal_moves().len() < 2 {
            let mv = state.legal_moves().random(&mut rng);
            state.play(mv);
        }
        let seat = state.current_seat();
        for spec in self.agents {
            let mut agent = match agents::build::<G>(&spec.parse::<Spec>().unwrap()) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
            };
            let mut samples = Vec::with_capacity(self.runs);
            let mut iterations = 0;
            let cpu_start = cpu_seconds();
            for r in 0..self.runs {
                let mut rng = rng_from_seed(r as u64);
                let start = Instant::now();
                let d = agent.choose(View::new(&state, seat), self.budget, &mut rng);
                let wall = start.elapsed();
                iterations += d.iterations;
                samples.push(if self.overshoot {
                    let budget = self.budget.time.unwrap_or(Duration::ZERO);
                    (wall.as_secs_f64() - budget.as_secs_f64()) * 1e6
                } else {
                    d.iterations as f64 / wall.as_secs_f64()
                });
            }
            let cpu = cpu_start.zip(cpu_seconds()).map(|(a, b)| b - a);
            samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let name = G::NAME;
            if self.overshoot {
                println!(
                    "{name:8} {spec:40} overshoot µs: median {:8.1}  p99 {:8.1}  max {:8.1}  ({} it/move)",
                    percentile(&samples, 0.5),
                    percentile(&samples, 0.99),
                    samples[samples.len() - 1],
                    iterations / self.runs as u64
                );
            } else {
                let per_cpu = cpu.map_or("n/a".to_string(), |c| {
                    format!("{:.0}", iterations as f64 / c)
                });
                println!(
                    "{name:8} {spec:40} {:10.0} it/s wall (median of {}; min {:.0}, max {:.0}), {per_cpu} it/CPU-s",
                    percentile(&samples, 0.5),
                    self.runs,
                    samples[0],
                    samples[samples.len() - 1]
                );
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "speed".into());
    let overshoot = match mode.as_str() {
        "speed" => false,
        "overshoot" => true,
        other => {
            eprintln!("unknown mode '{other}' (speed or overshoot)");
            std::process::exit(2);
        }
    };
    let (mut game_names, mut agent_specs) = (Vec::new(), Vec::new());
    let (mut iterations, mut ms, mut runs) = (10_000u64, 10u64, if overshoot { 200 } else { 20 });
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("a value after the flag");
        match a.as_str() {
            "--agent" => agent_specs.push(value()),
            "--iterations" => iterations = value().parse().expect("a number"),
            "--ms" => ms = value().parse().expect("a number"),
            "--runs" => runs = value().parse().expect("a number"),
            _ => game_names.push(a),
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
    for game in &game_names {
        let spec: Spec = game.parse().expect("a game spec");
        let run = Run {
            agents: &agent_specs,
            budget,
            runs,
            overshoot,
        };
        if let Err(e) = games::dispatch(&spec, run) {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
