//! `ntboe`: N-Tuple Bandit Online Evolution, the paper's own algorithm.
//!
//! A turn is a tuple of actions, one per *slot*. A model of 1-D bandits (one per slot: the mean
//! heuristic of turns with that action there) and 2-D bandits (one per pair of slots: the same
//! for that pair of actions) learns from every evaluated turn. After `inits` random turns seed
//! the model, each iteration makes `neighbours` distinct mutations of the current turn (one
//! random slot always changes, every other slot with probability `mutation`), ranks them by the
//! model alone (the mean over the bandits of `mean + c·sqrt(ln N / n)`, with an unseen arm worth
//! 10^7 plus a random tie-break, as in the reference), plays out only the best one with the
//! forward model, updates the model with its heuristic, and keeps it as the current turn if it
//! beats the current one. One evaluation per iteration.
//!
//! Actions become bandit arms through a vocabulary built per decision (interned as they first
//! appear, in a table sized from the root's legal actions; for ASMACAG every later action of the
//! turn is among the root's). Slots are the actions of the first random turn; a longer turn's
//! extra actions are not modelled.
//!
//! Difference from the reference, deliberate: a neighbour's changed action is a random *legal*
//! action at that point of the turn (the paper's description), and actions that became illegal
//! are repaired at random, so every turn ranked and played is legal. The reference mutates into
//! the whole 38-value action space and lets the forward model penalise illegal actions, which
//! can make it play an illegal action in the real game. Making a neighbour legal steps the
//! forward model through it, but its heuristic is read only for the one neighbour the model
//! picks.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rand::RngExt as _;

use super::turn::{
    Line, MAX_TURN, OPT_ITERATIONS, OPT_PARALLEL, OPT_THREADS, OPT_TIME, Plan, TurnPlanner, boxed,
    exploration, probability, random_turn, rebuild,
};
use super::{Agent, AgentInfo};
use crate::cards::random_below;
use crate::game::{Game, HiddenInfo, MoveSet, Rng, Seat};
use crate::search::BudgetClock;
use crate::spec::{OptionDoc, Spec, SpecError};

/// Documentation for `cardsearch agents`.
pub const INFO: AgentInfo = AgentInfo {
    name: "ntboe",
    about: "N-tuple bandit online evolution: 1-D and 2-D bandits over the turn's action slots",
    options: &[
        OptionDoc {
            key: "c",
            default: "8",
            help: "UCB exploration constant of the bandits (rewards are score differences)",
        },
        OptionDoc {
            key: "neighbours",
            default: "5",
            help: "mutations of the current turn ranked by the model each iteration",
        },
        OptionDoc {
            key: "mutation",
            default: "0.55",
            help: "probability that each slot besides the one always changed is changed",
        },
        OptionDoc {
            key: "inits",
            default: "1000",
            help: "random turns evaluated first to seed the model (part of the budget)",
        },
        OPT_ITERATIONS,
        OPT_TIME,
        OPT_PARALLEL,
        OPT_THREADS,
    ],
};

/// Value of an arm never pulled: far above any real UCB value, as in the reference.
const UNSEEN: f64 = 1e7;
/// Gene of an empty slot, or of an action the vocabulary had no room for.
const OTHER: u16 = 0;

/// Statistics of one bandit arm.
#[derive(Clone, Copy, Debug, Default)]
struct Arm {
    pulls: u32,
    sum: f64,
}

/// A turn with its genes (arm indices per slot) and its heuristic.
#[derive(Clone, Copy, Debug)]
struct Candidate<M> {
    line: Line<M>,
    genes: [u16; MAX_TURN],
    value: f64,
}

/// FxHash: moves are a few bytes, and the vocabulary is looked up for every slot of every
/// neighbour, where SipHash would cost more than the rest of the ranking.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The NTBOE planner.
#[derive(Debug)]
pub struct Ntboe<M> {
    c: f64,
    neighbours: usize,
    mutation: f64,
    inits: u64,
    /// Action → gene (`1..`); [`OTHER`] is 0.
    vocabulary: HashMap<M, u16, BuildHasherDefault<FxHasher>>,
    /// Genes one slot can hold: the vocabulary's room plus [`OTHER`].
    width: usize,
    /// Slots modelled.
    slots: usize,
    /// 1-D bandits: `slots × width` arms.
    one: Vec<Arm>,
    /// 2-D bandits, one per pair of slots in order (0,1), (0,2), …: `width × width` arms each.
    two: Vec<Arm>,
    /// Updates so far (every bandit is updated by every evaluation, so this is each one's N).
    updates: u64,
    candidates: Vec<Candidate<M>>,
}

impl<M: Copy + Eq + Hash> Ntboe<M> {
    /// A planner with the paper's parameters.
    pub fn new(c: f64, neighbours: usize, mutation: f64, inits: u64) -> Ntboe<M> {
        Ntboe {
            c,
            neighbours,
            mutation,
            inits,
            vocabulary: HashMap::default(),
            width: 0,
            slots: 0,
            one: Vec::new(),
            two: Vec::new(),
            updates: 0,
            candidates: Vec::new(),
        }
    }

    /// Empties the model for a turn whose first action has `root_actions` choices and whose
    /// turns are `slots` actions long.
    fn reset(&mut self, root_actions: usize, slots: usize) {
        let room = (root_actions + 16).min(u16::MAX as usize - 1);
        self.vocabulary.clear();
        self.vocabulary.reserve(room);
        self.width = room + 1;
        self.slots = slots.clamp(1, MAX_TURN);
        let pairs = self.slots * (self.slots - 1) / 2;
        self.one.clear();
        self.one.resize(self.slots * self.width, Arm::default());
        self.two.clear();
        self.two
            .resize(pairs * self.width * self.width, Arm::default());
        self.updates = 0;
        self.candidates.clear();
        self.candidates.reserve(self.neighbours);
    }

    /// The gene of `mv`, interning it while the vocabulary has room (no allocation: the table
    /// was sized for that room).
    fn gene(&mut self, mv: M) -> u16 {
        if let Some(&g) = self.vocabulary.get(&mv) {
            return g;
        }
        if self.vocabulary.len() + 1 < self.width {
            let g = self.vocabulary.len() as u16 + 1;
            self.vocabulary.insert(mv, g);
            g
        } else {
            OTHER
        }
    }

    /// A candidate with the genes of `line`.
    fn candidate(&mut self, line: Line<M>, value: f64) -> Candidate<M> {
        let mut genes = [OTHER; MAX_TURN];
        for (slot, gene) in genes.iter_mut().enumerate().take(self.slots) {
            if let Some(mv) = line.at(slot) {
                *gene = self.gene(mv);
            }
        }
        Candidate { line, genes, value }
    }

    /// Adds an evaluated turn to every bandit.
    fn update(&mut self, candidate: &Candidate<M>) {
        for_each_arm(self.width, self.slots, &candidate.genes, |is_one, i| {
            let arm = if is_one {
                &mut self.one[i]
            } else {
                &mut self.two[i]
            };
            arm.pulls += 1;
            arm.sum += candidate.value;
        });
        self.updates += 1;
    }

    /// The model's value of `genes`: the mean UCB over the bandits.
    fn model_value(&self, genes: &[u16; MAX_TURN], log_updates: f64, rng: &mut Rng) -> f64 {
        let (mut sum, mut count) = (0.0, 0);
        for_each_arm(self.width, self.slots, genes, |is_one, i| {
            let arm = if is_one { self.one[i] } else { self.two[i] };
            sum += if arm.pulls == 0 {
                UNSEEN + rng.random::<f64>()
            } else {
                let n = arm.pulls as f64;
                arm.sum / n + self.c * (log_updates / n).sqrt()
            };
            count += 1;
        });
        sum / count as f64
    }
}

/// Calls `f(is_1d, index)` for every arm that `genes` pulls: one per slot in the 1-D bandits
/// (`slots × width`), one per pair of slots in the 2-D ones (`width × width` per pair).
#[inline]
fn for_each_arm(
    width: usize,
    slots: usize,
    genes: &[u16; MAX_TURN],
    mut f: impl FnMut(bool, usize),
) {
    for (slot, &g) in genes.iter().enumerate().take(slots) {
        f(true, slot * width + g as usize);
    }
    let mut pair = 0;
    for i in 0..slots {
        for j in i + 1..slots {
            f(
                false,
                (pair * width + genes[i] as usize) * width + genes[j] as usize,
            );
            pair += 1;
        }
    }
}

impl<G: Game> TurnPlanner<G> for Ntboe<G::Move> {
    fn plan(&mut self, world: &G, seat: Seat, clock: &BudgetClock, rng: &mut Rng) -> Plan<G::Move> {
        let mut done = 0;
        let mut current: Option<Candidate<G::Move>> = None;
        while done < self.inits && !clock.exhausted(done) {
            let (line, value) = random_turn(world, seat, rng);
            if done == 0 {
                self.reset(world.legal_moves().len(), line.len());
            }
            let c = self.candidate(line, value);
            self.update(&c);
            done += 1;
            if current.is_none_or(|cur| c.value > cur.value) {
                current = Some(c);
            }
        }
        let Some(mut current) = current else {
            return Plan::empty();
        };
        while !clock.exhausted(done) {
            self.candidates.clear();
            let mut tries = 0;
            // A turn with few alternatives may have fewer distinct neighbours than asked for.
            while self.candidates.len() < self.neighbours && tries < 10 * self.neighbours {
                tries += 1;
                let at = random_below(rng, current.line.len().max(1) as u32) as usize;
                let mutation = self.mutation;
                let (line, value) = rebuild(
                    world,
                    seat,
                    &current.line,
                    |slot, rng| slot == at || rng.random::<f64>() < mutation,
                    rng,
                );
                if line == current.line || self.candidates.iter().any(|c| c.line == line) {
                    continue;
                }
                let c = self.candidate(line, value);
                self.candidates.push(c);
            }
            if self.candidates.is_empty() {
                break; // the turn has no alternative at all
            }
            let log_updates = (self.updates as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0);
            for (i, c) in self.candidates.iter().enumerate() {
                let v = self.model_value(&c.genes, log_updates, rng);
                if v > best.0 {
                    best = (v, i);
                }
            }
            let chosen = self.candidates[best.1];
            self.update(&chosen);
            done += 1;
            if chosen.value > current.value {
                current = chosen;
            }
        }
        Plan::new(current.line, current.value, done)
    }
}

/// Builds `ntboe` from its spec.
pub fn build<G: HiddenInfo>(spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
    let c = exploration(spec, 8.0)?;
    let neighbours: usize = spec.get("neighbours", 5)?;
    if !(1..=10_000).contains(&neighbours) {
        return Err(err(format!("neighbours={neighbours} must be 1 to 10000")));
    }
    let mutation = probability(spec, "mutation", 0.55)?;
    let inits: u64 = spec.get("inits", 1000)?;
    if inits == 0 {
        return Err(err("inits must be at least 1".into()));
    }
    boxed(
        spec,
        INFO.name,
        format!("c={c},neighbours={neighbours},mutation={mutation},inits={inits}"),
        move || Ntboe::new(c, neighbours, mutation, inits),
    )
}
