//! What the turn-planning agents share: the turn as a line of actions, the agent that plays a
//! plan out over the actions of its turn, the budgets, and root parallelism.
//!
//! In a multi-action game (ASMACAG: three actions a turn) the paper's agents plan the whole
//! turn at its first action and then play the plan out. The harness still asks for one action
//! at a time, so a [`TurnAgent`] keeps its plan between calls, and before playing the next
//! planned action checks that the observer's information is exactly what the plan expected;
//! if not (someone else moved, the plan ran out, a new game), it plans again from what it sees.
//! A turn is the run of moves by one seat: it ends when another seat is to move or the game
//! ends, so the planners work on any game (where turns are one move they plan one move).
//!
//! A planner ([`TurnPlanner`]) gets one determinization of the observer's view. The paper's
//! agents look no further than the end of their own turn, where the opponent's hidden cards
//! play no part, so one world serves the whole plan. It judges lines with
//! [`Game::heuristic`] (the score difference) and counts one *evaluation* per line it plays out
//! with the forward model: that is the iteration count budgets limit and reports show.

use std::time::Instant;

use parking_lot::Mutex;

use super::{AgentError, ChildStat, Decision};
use crate::game::{Game, HiddenInfo, MoveSet, Rng, Seat, TreeMove, View, rng_from_seed};
use crate::limits;
use crate::search::config::{budget_from_spec, budget_text, exploration_from_spec};
use crate::search::{Budget, BudgetClock, Crew, seeds};
use crate::spec::{OptionDoc, Spec, SpecError};

/// The most actions a plan holds; a longer turn is planned again after this many.
pub const MAX_TURN: usize = 16;

/// Up to [`MAX_TURN`] actions of one turn, stored inline (no heap).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Line<M> {
    moves: [Option<M>; MAX_TURN],
    len: u8,
}

impl<M: std::fmt::Debug> std::fmt::Debug for Line<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.moves[..self.len as usize].iter().flatten())
            .finish()
    }
}

impl<M: Copy> Default for Line<M> {
    fn default() -> Line<M> {
        Line {
            moves: [None; MAX_TURN],
            len: 0,
        }
    }
}

impl<M: Copy> Line<M> {
    /// No actions.
    pub fn new() -> Line<M> {
        Line::default()
    }

    /// Number of actions.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there is no action.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when no more actions fit.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len() == MAX_TURN
    }

    /// Action `i` (`i < len()`).
    #[inline]
    pub fn get(&self, i: usize) -> M {
        self.moves[i].expect("an action within the line")
    }

    /// Action `i`, or `None` past the end.
    #[inline]
    pub fn at(&self, i: usize) -> Option<M> {
        if i < self.len() { self.moves[i] } else { None }
    }

    /// Appends an action (the line must not be full).
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len as usize] = Some(mv);
        self.len += 1;
    }

    /// Keeps the first `n` actions.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n as u8);
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = M> + '_ {
        self.moves[..self.len()].iter().map(|m| m.expect("set"))
    }
}

/// True while `seat`'s turn goes on in `state`: the game is not over and `seat` is to move.
#[inline]
pub fn in_turn<G: Game>(state: &G, seat: Seat) -> bool {
    !state.is_terminal() && state.current_seat() == seat
}

/// Plays `line` from `state` as far as `seat`'s turn lasts; returns how many actions it played.
#[inline]
pub fn play_line<G: Game>(state: &mut G, seat: Seat, line: &Line<G::Move>) -> usize {
    for (i, mv) in line.iter().enumerate() {
        if !in_turn(state, seat) {
            return i;
        }
        state.play(mv);
    }
    line.len()
}

/// Plays `seat`'s turn on a copy of `world`, each action chosen by `pick(slot, legal, rng)`
/// among the legal ones (at most [`MAX_TURN`] of them), and returns the line and the heuristic
/// after it: one evaluation. Every planner's lines are made here.
#[inline]
pub fn replay<G: Game>(
    world: &G,
    seat: Seat,
    mut pick: impl FnMut(usize, &G::Moves, &mut Rng) -> G::Move,
    rng: &mut Rng,
) -> (Line<G::Move>, f64) {
    let mut state = world.clone();
    let mut line = Line::new();
    while in_turn(&state, seat) && !line.is_full() {
        let mv = pick(line.len(), &state.legal_moves(), rng);
        line.push(mv);
        state.play(mv);
    }
    (line, state.heuristic(seat))
}

/// A uniformly random turn and the heuristic after it.
#[inline]
pub fn random_turn<G: Game>(world: &G, seat: Seat, rng: &mut Rng) -> (Line<G::Move>, f64) {
    replay(world, seat, |_, legal, rng| legal.random(rng), rng)
}

/// A planned turn and what finding it cost.
#[derive(Clone, Debug)]
pub struct Plan<M> {
    /// The actions, in order; empty only when the budget allowed no evaluation.
    pub line: Line<M>,
    /// The planner's value of the line (the heuristic after it, for the evolutionary planners).
    pub value: f64,
    /// Lines played out with the forward model.
    pub evaluations: u64,
    /// Statistics of the first action's alternatives, for planners that keep them.
    pub children: Vec<ChildStat<M>>,
    /// Tree nodes in use at the end, for planners with a tree.
    pub nodes: u64,
    /// True when a tree ran out of room and stopped growing.
    pub tree_full: bool,
}

impl<M: Copy> Plan<M> {
    /// A plan of `line` worth `value` after `evaluations`, with nothing else to report.
    pub fn new(line: Line<M>, value: f64, evaluations: u64) -> Plan<M> {
        Plan {
            line,
            value,
            evaluations,
            children: Vec::new(),
            nodes: 0,
            tree_full: false,
        }
    }

    /// A plan that found nothing (no evaluation allowed).
    pub fn empty() -> Plan<M> {
        Plan::new(Line::new(), f64::NEG_INFINITY, 0)
    }
}

/// A search for the best line of one turn.
pub trait TurnPlanner<G: Game>: Send + Sized {
    /// Plans `seat`'s turn from `world` (where `seat` is to move) until `clock` runs out.
    fn plan(&mut self, world: &G, seat: Seat, clock: &BudgetClock, rng: &mut Rng) -> Plan<G::Move>;

    /// The plan of a root-parallel search from the plans of independent copies (same world,
    /// different seeds): by default the line with the best value, with the evaluations of all.
    fn combine(_planners: &[Self], plans: Vec<Plan<G::Move>>) -> Plan<G::Move> {
        let evaluations = plans.iter().map(|p| p.evaluations).sum();
        let mut best = plans
            .into_iter()
            .filter(|p| !p.line.is_empty())
            .reduce(|a, b| if b.value > a.value { b } else { a })
            .unwrap_or_else(Plan::empty);
        best.evaluations = evaluations;
        best
    }

    /// Gives back memory kept between searches (a tree), for a harness that keeps the agent.
    fn release_memory(&mut self) {}

    /// Takes the memory [`TurnPlanner::plan`] will use (a tree), before the clock starts: an
    /// error, naming what could not be had, when the machine cannot give it. A planner that
    /// allocates nothing of a size it was given leaves the default.
    fn reserve(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// Options every turn planner takes: its budget and its threads.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnOptions {
    /// A budget overriding the match's (evaluations and/or time per turn).
    pub budget: Option<Budget>,
    /// Independent copies searching in parallel (root parallelism); 1 is sequential.
    pub threads: usize,
}

/// Option `iterations` of every turn planner.
pub const OPT_ITERATIONS: OptionDoc = OptionDoc {
    key: "iterations",
    default: "match budget",
    help: "evaluations per turn (lines played out with the forward model)",
};
/// Option `time_ms` of every turn planner.
pub const OPT_TIME: OptionDoc = OptionDoc {
    key: "time_ms",
    default: "match budget",
    help: "milliseconds per turn (spent at the turn's first action)",
};
/// Option `parallel` of every turn planner.
pub const OPT_PARALLEL: OptionDoc = OptionDoc {
    key: "parallel",
    default: "sequential",
    help: "sequential | root (independent searches on `threads` threads, best plan wins)",
};
/// Option `threads` of every turn planner.
pub const OPT_THREADS: OptionDoc = OptionDoc {
    key: "threads",
    default: "1",
    help: "threads of parallel=root",
};
/// The options of [`TurnOptions`], for `cardsearch agents`.
pub const TURN_OPTIONS: &[OptionDoc] = &[OPT_ITERATIONS, OPT_TIME, OPT_PARALLEL, OPT_THREADS];

impl TurnOptions {
    /// One thread, the match's budget.
    pub const SEQUENTIAL: TurnOptions = TurnOptions {
        budget: None,
        threads: 1,
    };

    /// Reads the common options of `spec`.
    pub fn from_spec(spec: &Spec) -> Result<TurnOptions, SpecError> {
        let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
        let mode = spec.choice("parallel", &["sequential", "root"], "sequential")?;
        let threads: usize = spec.get("threads", 1)?;
        limits::positive_at_most("threads", threads, limits::MAX_THREADS).map_err(err)?;
        if mode == "sequential" && threads > 1 {
            return Err(err(format!("threads={threads} needs parallel=root")));
        }
        Ok(TurnOptions {
            budget: budget_from_spec(spec)?,
            threads,
        })
    }

    /// The options written out, as `from_spec` reads them back.
    pub fn text(&self) -> String {
        let mut parts = budget_text(self.budget.as_ref());
        let mode = if self.threads > 1 {
            "root"
        } else {
            "sequential"
        };
        parts.push(format!("parallel={mode}"));
        parts.push(format!("threads={}", self.threads));
        parts.join(",")
    }
}

/// Builds a [`TurnAgent`] for `spec`: the common options are read here, the planner's own
/// (already read and written out as `options`) are in `make`.
pub fn boxed<G: HiddenInfo, P: TurnPlanner<G> + 'static>(
    spec: &Spec,
    name: &'static str,
    options: String,
    make: impl Fn() -> P,
) -> Result<Box<dyn super::Agent<G>>, SpecError> {
    let common = TurnOptions::from_spec(spec)?;
    Ok(Box::new(TurnAgent::<G, P>::new(
        name, options, common, make,
    )?))
}

/// A probability option of `spec`: a number from 0 to 1.
pub fn probability(spec: &Spec, key: &str, default: f64) -> Result<f64, SpecError> {
    let v: f64 = spec.get(key, default)?;
    if !(0.0..=1.0).contains(&v) {
        return Err(SpecError(format!(
            "{}: {key}={v} must be between 0 and 1",
            spec.name
        )));
    }
    Ok(v)
}

/// The exploration constant `c` of `spec` (as the tree searches read theirs).
pub fn exploration(spec: &Spec, default: f64) -> Result<f64, SpecError> {
    exploration_from_spec(spec, default)
}

/// An agent that plans its turn with a [`TurnPlanner`] and plays the plan out.
pub struct TurnAgent<G: HiddenInfo, P> {
    name: &'static str,
    /// The planner's own options, written out.
    options: String,
    common: TurnOptions,
    /// One planner per thread.
    planners: Vec<P>,
    crew: Option<Crew>,
    /// The plan being played out.
    plan: Line<G::Move>,
    /// Index in `plan` of the next action to play.
    next: usize,
    /// What the observer should know before each planned action (entry `i` for action `i`,
    /// entry 0 unused), read off the planned world.
    expected: Vec<G::InfoSet>,
}

impl<G: HiddenInfo, P: TurnPlanner<G>> TurnAgent<G, P> {
    /// An agent named `name` (with its planner options written out as `options`) running one
    /// planner per thread, made by `make`.
    pub fn new(
        name: &'static str,
        options: String,
        common: TurnOptions,
        make: impl Fn() -> P,
    ) -> Result<TurnAgent<G, P>, SpecError> {
        let threads = common.threads;
        let crew = if threads > 1 {
            Some(Crew::new(threads).map_err(|e| SpecError(format!("{name}: {e}")))?)
        } else {
            None
        };
        Ok(TurnAgent {
            name,
            options,
            common,
            planners: (0..threads).map(|_| make()).collect(),
            crew,
            plan: Line::new(),
            next: 0,
            expected: Vec::with_capacity(MAX_TURN),
        })
    }

    /// Runs the planners on `world` within `budget`.
    fn search(&mut self, world: &G, seat: Seat, budget: &Budget, rng: &mut Rng) -> Plan<G::Move> {
        let clock = BudgetClock::start(budget);
        let Some(crew) = &self.crew else {
            return self.planners[0].plan(world, seat, &clock, rng);
        };
        let n = self.planners.len();
        let seeds = seeds(rng, n);
        let cells: Vec<Mutex<&mut P>> = self.planners.iter_mut().map(Mutex::new).collect();
        let plans = crew.run(|i| {
            let Some(cell) = cells.get(i) else {
                return Plan::empty();
            };
            cell.lock().plan(
                world,
                seat,
                &clock.portion(i, n),
                &mut rng_from_seed(seeds[i]),
            )
        });
        drop(cells);
        P::combine(&self.planners, plans)
    }

    /// The next planned action, if the plan goes on and the observer knows exactly what it
    /// expected to know at this point.
    fn continue_plan(&mut self, view: &View<'_, G>) -> Option<G::Move> {
        let mv = self.plan.at(self.next)?;
        if self.expected.get(self.next)? != view.info_set() || !view.legal_moves().contains(mv) {
            return None;
        }
        self.next += 1;
        Some(mv)
    }

    /// Keeps `line`, planned from `world`, and what the observer will know before each action.
    fn keep(&mut self, world: &G, seat: Seat, line: Line<G::Move>) {
        self.plan = line;
        self.next = 1;
        self.expected.clear();
        let mut state = world.clone();
        self.expected.push(state.info_set(seat));
        for i in 1..line.len() {
            state.play(line.get(i - 1));
            if !in_turn(&state, seat) {
                self.plan.truncate(i);
                break;
            }
            self.expected.push(state.info_set(seat));
        }
    }
}

impl<G: HiddenInfo, P: TurnPlanner<G>> super::Agent<G> for TurnAgent<G, P> {
    fn spec(&self) -> String {
        let common = self.common.text();
        if self.options.is_empty() && self.common == TurnOptions::SEQUENTIAL {
            self.name.to_string()
        } else if self.options.is_empty() {
            format!("{}:{common}", self.name)
        } else {
            format!("{}:{},{common}", self.name, self.options)
        }
    }

    fn release_memory(&mut self) {
        self.planners.iter_mut().for_each(P::release_memory);
    }

    fn choose(
        &mut self,
        view: View<'_, G>,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<G::Move>, AgentError> {
        let start = Instant::now();
        if let Some(mv) = self.continue_plan(&view) {
            return Ok(Decision::without_search(mv, start.elapsed()));
        }
        let seat = view.observer();
        let world = view.determinize(rng)?;
        for planner in &mut self.planners {
            planner
                .reserve()
                .map_err(|e| AgentError::Resources(format!("{}: {e}", self.name)))?;
        }
        let budget = budget
            .replaced_by(self.common.budget.as_ref())
            .charged_from(start);
        let plan = self.search(&world, seat, &budget, rng);
        let mv = match plan.line.at(0) {
            Some(mv) => {
                self.keep(&world, seat, plan.line);
                mv
            }
            None => {
                // The budget allowed no evaluation: any legal action will do.
                self.plan = Line::new();
                view.legal_moves().random(rng)
            }
        };
        Ok(Decision {
            mv,
            iterations: plan.evaluations,
            elapsed: start.elapsed(),
            children: plan.children,
            nodes: plan.nodes,
            tree_full: plan.tree_full,
            endgame_cut: false,
        })
    }
}

/// Plays `line` on a copy of `world` and returns the heuristic for `seat` at the end: one
/// evaluation.
#[inline]
pub fn evaluate<G: Game>(world: &G, seat: Seat, line: &Line<G::Move>) -> f64 {
    let mut state = world.clone();
    play_line(&mut state, seat, line);
    state.heuristic(seat)
}

/// Replays `line` from `world` for `seat`'s turn with changes: the action at every slot for
/// which `redraw(slot, rng)` says so becomes a random legal action other than the old one
/// (when there is another), an action that is no longer legal becomes a random legal one, and
/// if the turn lasts longer than the line it goes on at random. Returns the new line and the
/// heuristic after it (the evolutionary planners' mutation and repair).
#[inline]
pub fn rebuild<G: Game>(
    world: &G,
    seat: Seat,
    line: &Line<G::Move>,
    mut redraw: impl FnMut(usize, &mut Rng) -> bool,
    rng: &mut Rng,
) -> (Line<G::Move>, f64) {
    replay(
        world,
        seat,
        |slot, legal, rng| {
            let old = line.at(slot);
            match old {
                Some(old) if !redraw(slot, rng) && legal.contains(old) => old,
                _ => random_other(legal, old, rng),
            }
        },
        rng,
    )
}

/// A uniformly random move of `moves` other than `not`, if there is another.
#[inline]
pub fn random_other<M: TreeMove + PartialEq, S: MoveSet<M>>(
    moves: &S,
    not: Option<M>,
    rng: &mut Rng,
) -> M {
    match not {
        Some(old) if moves.len() > 1 && moves.contains(old) => loop {
            let mv = moves.random(rng);
            if mv != old {
                return mv;
            }
        },
        _ => moves.random(rng),
    }
}
