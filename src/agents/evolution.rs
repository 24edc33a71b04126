//! `oe`: Online Evolution (Justesen et al.), the paper's evolutionary baseline. A genome is a
//! whole turn; its fitness is the heuristic after playing it.
//!
//! As in the reference: a population of random turns is evaluated; then, generation after
//! generation, the best `survival` share is kept and every other genome is replaced by a
//! uniform crossover of two different survivors (each action from either parent, the other
//! parent's when the first's is illegal at that point, a random legal action when both are),
//! mutated with probability `mutation` (one random action redrawn, later actions that became
//! illegal repaired at random) and evaluated. The plan is the best genome evaluated.
//!
//! Differences from the reference, all deliberate: a mutated action is always a *different*
//! legal action where there is one (the reference may draw the same one again); the best
//! genome is taken over the whole population, not only the survivors of the last sort; and an
//! evaluation is counted once per new genome (the reference plays each crossover child twice).

use super::turn::{
    Line, OPT_ITERATIONS, OPT_PARALLEL, OPT_THREADS, OPT_TIME, Plan, TurnPlanner, boxed,
    probability, random_turn, rebuild, replay,
};
use super::{Agent, AgentInfo};
use crate::cards::random_below;
use crate::game::{Game, HiddenInfo, MoveSet, Rng, Seat};
use crate::search::BudgetClock;
use crate::spec::{OptionDoc, Spec, SpecError};
use rand::RngExt as _;

/// Documentation for `cardsearch agents`.
pub const INFO: AgentInfo = AgentInfo {
    name: "oe",
    about: "Online Evolution over whole-turn genomes: uniform crossover, mutation, repair",
    options: &[
        OptionDoc {
            key: "pop",
            default: "125",
            help: "population size",
        },
        OptionDoc {
            key: "mutation",
            default: "0.15",
            help: "probability that a new genome has one action redrawn",
        },
        OptionDoc {
            key: "survival",
            default: "0.15",
            help: "share of the population kept each generation (at least one genome)",
        },
        OPT_ITERATIONS,
        OPT_TIME,
        OPT_PARALLEL,
        OPT_THREADS,
    ],
};

/// A turn and its fitness.
#[derive(Clone, Copy, Debug)]
struct Genome<M> {
    line: Line<M>,
    fitness: f64,
}

/// The Online Evolution planner.
#[derive(Debug)]
pub struct Evolution<M> {
    pop: usize,
    mutation: f64,
    survival: f64,
    population: Vec<Genome<M>>,
}

impl<M: Copy> Evolution<M> {
    /// A planner with population `pop`, mutation rate and survival share.
    pub fn new(pop: usize, mutation: f64, survival: f64) -> Evolution<M> {
        Evolution {
            pop,
            mutation,
            survival,
            population: Vec::new(),
        }
    }

    /// Survivors per generation: the `survival` share, at least one.
    fn survivors(&self) -> usize {
        ((self.survival * self.pop as f64) as usize).clamp(1, self.pop)
    }
}

/// Uniform crossover of `a` and `b` played from `world`: at each action a fair coin says which
/// parent is asked first; its action if legal there, else the other's, else a random legal one.
fn crossover<G: Game>(
    world: &G,
    seat: Seat,
    a: &Line<G::Move>,
    b: &Line<G::Move>,
    rng: &mut Rng,
) -> (Line<G::Move>, f64) {
    replay(
        world,
        seat,
        |slot, legal, rng| {
            let (first, second) = if rng.random::<bool>() { (a, b) } else { (b, a) };
            [first.at(slot), second.at(slot)]
                .into_iter()
                .flatten()
                .find(|&m| legal.contains(m))
                .unwrap_or_else(|| legal.random(rng))
        },
        rng,
    )
}

impl<G: Game> TurnPlanner<G> for Evolution<G::Move> {
    fn plan(&mut self, world: &G, seat: Seat, clock: &BudgetClock, rng: &mut Rng) -> Plan<G::Move> {
        self.population.clear();
        self.population.reserve(self.pop);
        let mut done = 0;
        while self.population.len() < self.pop && !clock.exhausted(done) {
            let (line, fitness) = random_turn(world, seat, rng);
            self.population.push(Genome { line, fitness });
            done += 1;
        }
        let keep = self.survivors();
        'generations: while keep < self.pop
            && self.population.len() == self.pop
            && !clock.exhausted(done)
        {
            // Unstable sort: no buffer to allocate.
            self.population
                .sort_unstable_by(|x, y| y.fitness.total_cmp(&x.fitness));
            let (parents, children) = self.population.split_at_mut(keep);
            for child in children.iter_mut() {
                if clock.exhausted(done) {
                    break 'generations;
                }
                let i = random_below(rng, keep as u32) as usize;
                let mut j = random_below(rng, keep as u32) as usize;
                while keep > 1 && j == i {
                    j = random_below(rng, keep as u32) as usize;
                }
                let (mut line, mut fitness) =
                    crossover(world, seat, &parents[i].line, &parents[j].line, rng);
                if rng.random::<f64>() < self.mutation && !line.is_empty() {
                    let at = random_below(rng, line.len() as u32) as usize;
                    (line, fitness) = rebuild(world, seat, &line, |slot, _| slot == at, rng);
                }
                *child = Genome { line, fitness };
                done += 1;
            }
        }
        match self
            .population
            .iter()
            .reduce(|a, b| if b.fitness > a.fitness { b } else { a })
        {
            Some(best) => Plan::new(best.line, best.fitness, done),
            None => Plan::empty(),
        }
    }
}

/// Builds `oe` from its spec.
pub fn build<G: HiddenInfo>(spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let pop: usize = spec.get("pop", 125)?;
    if !(2..=1_000_000).contains(&pop) {
        return Err(SpecError(format!(
            "{}: pop={pop} must be 2 to 1000000",
            spec.name
        )));
    }
    let mutation = probability(spec, "mutation", 0.15)?;
    let survival = probability(spec, "survival", 0.15)?;
    boxed(
        spec,
        INFO.name,
        format!("pop={pop},mutation={mutation},survival={survival}"),
        move || Evolution::new(pop, mutation, survival),
    )
}
