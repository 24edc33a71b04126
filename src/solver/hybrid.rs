//! The hybrid endgame (thesis section 6.6): once few cards are left, a search agent decides by
//! the exact solver instead of by its tree.
//!
//! The information set's deals are solved one by one: all of them when they are few (counted
//! exactly by the deal sampler, [`DealSampler::count`]), else a uniform sample of them. When the
//! set holds one deal (Bisca once the stock is empty, or any position where every card is known)
//! that is perfect play. For each deal the solver gives every legal move's exact value; a move's
//! score over the deals is its mean **reward** (the game's win 1, tie ½, loss 0, which the
//! two-sided games' exact values decide), ties broken by its mean **value** (card points for the
//! root side; for Hearts, whose reward depends on the others' scores, the mean value alone).
//! With `endgame_pick=vote` each deal instead votes for its best moves (shared equally among
//! equals), as the thesis's minimax did; ties go to the better mean.

use std::time::Instant;

use crate::agents::{ChildStat, Decision};
use crate::game::{DealSampler, Game, MoveSet, Rng, TreeMove};
use crate::limits;
use crate::search::{Budget, StopSignal};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::{MoveValue, SolveError, Solver};

/// How often a solve inside a decision looks at the clock and the stop signal: every 4,096
/// nodes, a fraction of a millisecond.
const BUDGET_CHECK_NODES: u64 = 1 << 12;

/// How the hybrid turns the deals' exact values into one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pick {
    /// The best mean reward, then the best mean value.
    #[default]
    Mean,
    /// The most votes, a deal voting for its best moves.
    Vote,
}

/// When the endgame starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cards {
    /// Never: the tree decides every move.
    #[default]
    Off,
    /// Once at most this many cards are left to play (in hands and stock).
    UpTo(u32),
    /// At the thesis's point: 13 cards left in Sueca and Hearts, 15 in Bisca.
    Thesis,
}

impl Cards {
    /// The number of cards for a game whose thesis value is `thesis`.
    pub fn limit(self, thesis: Option<u32>) -> Option<u32> {
        match self {
            Cards::Off => None,
            Cards::UpTo(n) => Some(n),
            Cards::Thesis => thesis,
        }
    }
}

/// The endgame options of a search agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameConfig {
    /// When the solver takes over the decision.
    pub cards: Cards,
    /// How it picks among moves.
    pub pick: Pick,
    /// Every deal of the information set is solved when there are at most this many; else
    /// this many are sampled (fewer if a time budget runs out first).
    pub deals: u32,
    /// ISMCTS leaf evaluator: a playout from a leaf with at most this many cards left is the
    /// solver's optimal line instead of random moves (0: never).
    pub leaf: u32,
    /// The most solver nodes one decision may visit; `None` (`endgame_nodes=auto`): no limit
    /// under a time budget, which bounds the solve itself, else [`Self::DEFAULT_NODES`].
    pub nodes: Option<u64>,
}

impl Default for EndgameConfig {
    fn default() -> EndgameConfig {
        EndgameConfig {
            cards: Cards::Off,
            pick: Pick::Mean,
            deals: EndgameConfig::DEFAULT_DEALS,
            leaf: 0,
            nodes: None,
        }
    }
}

/// The `endgame` option.
pub const OPT_ENDGAME: OptionDoc = OptionDoc {
    key: "endgame",
    default: "0",
    help: "decide by the exact solver once at most N cards are left to play (0 off; `thesis`: 13 \
           in Sueca and Hearts, 15 in Bisca; far from the end a deal takes up to seconds (a whole \
           Sueca deal about 3 s, a Hearts deal far longer), so endgame_nodes and a time budget \
           bound a large N)",
};
/// The `endgame_pick` option.
pub const OPT_ENDGAME_PICK: OptionDoc = OptionDoc {
    key: "endgame_pick",
    default: "mean",
    help: "mean (best mean reward over the deals, then mean points) or vote (each deal votes)",
};
/// The `endgame_deals` option.
pub const OPT_ENDGAME_DEALS: OptionDoc = OptionDoc {
    key: "endgame_deals",
    default: "2000",
    help: "solve every consistent deal when there are at most this many, else a uniform sample \
           of this many (cut short by a time budget or endgame_nodes)",
};
/// The `endgame_nodes` option.
pub const OPT_ENDGAME_NODES: OptionDoc = OptionDoc {
    key: "endgame_nodes",
    default: "auto",
    help: "the most solver nodes the endgame may visit for one decision (about 15 million a \
           second); the deals solved by then decide, none solved leaves the move to the tree. \
           auto: 33554432 (2^25, 2-3 s) under an iteration budget, no limit under a time budget",
};
/// The `leaf_solve` option.
pub const OPT_LEAF_SOLVE: OptionDoc = OptionDoc {
    key: "leaf_solve",
    default: "0",
    help: "ismcts only: a playout from a leaf with at most N cards left (at most 16) follows the \
           exact solver's line instead of random moves (0 off)",
};

impl EndgameConfig {
    /// Default of `endgame_deals`: every deal of Sueca's or Hearts' 13-card endgame (at most
    /// 9!/(3!3!3!) = 1680).
    pub const DEFAULT_DEALS: u32 = 2000;

    /// The node limit of one decision under a budget with no time limit (`endgame_nodes=auto`):
    /// 2^25, 2-3 s of solving. Every endgame of the thesis's size fits many times over (all
    /// 1,680 deals of a 13-card Sueca or Hearts endgame take about a million nodes), while a
    /// deal far from the end does not (a whole Sueca deal takes 42 million, a whole Hearts deal
    /// far more): without it `endgame=52` under an iteration budget would search for days.
    pub const DEFAULT_NODES: u64 = 1 << 25;

    /// The node limit of one decision under `budget`: the option's, else the default when the
    /// budget has no time limit, else none.
    pub fn node_limit(&self, budget: &Budget) -> Option<u64> {
        match self.nodes {
            Some(n) => Some(n),
            None if budget.time.is_none() => Some(EndgameConfig::DEFAULT_NODES),
            None => None,
        }
    }

    /// True when neither the endgame nor the leaf evaluator is on.
    pub fn is_off(&self) -> bool {
        self.cards == Cards::Off && self.leaf == 0
    }

    /// Reads `endgame`, `endgame_pick`, `endgame_deals` and `leaf_solve` from an agent spec.
    pub fn from_spec(spec: &Spec) -> Result<EndgameConfig, SpecError> {
        let cards = match spec.raw("endgame") {
            None | Some("0") => Cards::Off,
            Some("thesis") => Cards::Thesis,
            Some(text) => Cards::UpTo(text.parse().map_err(|_| {
                SpecError(format!(
                    "{}: option endgame={text} must be a number of cards or `thesis`",
                    spec.name
                ))
            })?),
        };
        let pick = match spec.choice("endgame_pick", &["mean", "vote"], "mean")? {
            "vote" => Pick::Vote,
            _ => Pick::Mean,
        };
        let deals: u32 = spec.get("endgame_deals", EndgameConfig::DEFAULT_DEALS)?;
        limits::positive_at_most("endgame_deals", deals, limits::MAX_ENDGAME_DEALS)
            .map_err(|e| SpecError(format!("{}: {e}", spec.name)))?;
        let leaf: u32 = spec.get("leaf_solve", 0)?;
        if leaf > limits::MAX_LEAF_SOLVE_CARDS {
            return Err(SpecError(format!(
                "{}: leaf_solve={leaf} must be at most {} (every playout from such a leaf is \
                 an exact solve; for larger endgames use endgame=N)",
                spec.name,
                limits::MAX_LEAF_SOLVE_CARDS
            )));
        }
        let nodes: Option<u64> = spec.get_or_auto("endgame_nodes")?;
        if let Some(n) = nodes {
            limits::positive_at_most("endgame_nodes", n, limits::MAX_ENDGAME_NODES)
                .map_err(|e| SpecError(format!("{}: {e}", spec.name)))?;
        }
        if cards == Cards::Off
            && let Some(key) = ["endgame_pick", "endgame_deals", "endgame_nodes"]
                .into_iter()
                .find(|k| spec.has(k))
        {
            return Err(SpecError(format!(
                "{}: {key} applies only with endgame=N or endgame=thesis",
                spec.name
            )));
        }
        Ok(EndgameConfig {
            cards,
            pick,
            deals,
            leaf,
            nodes,
        })
    }

    /// The options that differ from the defaults, as `key=value` words.
    pub fn options_text(&self) -> Vec<String> {
        let mut parts = Vec::new();
        match self.cards {
            Cards::Off => {}
            Cards::UpTo(n) => parts.push(format!("endgame={n}")),
            Cards::Thesis => parts.push("endgame=thesis".to_string()),
        }
        if self.cards != Cards::Off {
            if self.pick == Pick::Vote {
                parts.push("endgame_pick=vote".to_string());
            }
            if self.deals != EndgameConfig::DEFAULT_DEALS {
                parts.push(format!("endgame_deals={}", self.deals));
            }
            if let Some(n) = self.nodes {
                parts.push(format!("endgame_nodes={n}"));
            }
        }
        if self.leaf > 0 {
            parts.push(format!("leaf_solve={}", self.leaf));
        }
        parts
    }
}

/// Totals of one legal move over the deals solved, each deal counted by its weight.
#[derive(Clone, Copy, Debug)]
struct Tally<M> {
    mv: M,
    reward: f64,
    value: f64,
    votes: f64,
}

/// Decides by the solver if the position is in the endgame: `sampler` gives the deals of the
/// information set (a known state for the cheating baseline). Returns `None`, leaving the
/// decision to the tree, when the game has no solver, more than the configured cards are left,
/// or the position is outside the solver's reach. `solver` is made at the first decision that
/// needs it (an agent drops it between games: [`crate::agents::Agent::release_memory`]).
pub fn decide<G: Game, S: DealSampler<G>>(
    config: &EndgameConfig,
    solver: &mut Option<Solver>,
    sampler: &S,
    legal: &G::Moves,
    budget: &Budget,
    rng: &mut Rng,
) -> Option<Decision<G::Move>> {
    decide_weighted(config, solver, sampler, |_| 1.0, legal, budget, rng)
}

/// [`decide`] with each deal counted by `weight` instead of equally: with the likelihood of
/// the others' plays in that deal under an opponent model
/// ([`crate::search::inference::likelihood`]), the means are over the posterior of the deals
/// rather than over the information set's deals alike (the way card-play programs for bridge
/// and Skat combine inference with their double-dummy solvers). Sampled deals are weighted the
/// same way (importance sampling from the uniform sampler). Weights that sum to zero leave the
/// decision to the tree (`None`).
pub fn decide_weighted<G: Game, S: DealSampler<G>>(
    config: &EndgameConfig,
    solver: &mut Option<Solver>,
    sampler: &S,
    mut weight: impl FnMut(&G) -> f64,
    legal: &G::Moves,
    budget: &Budget,
    rng: &mut Rng,
) -> Option<Decision<G::Move>> {
    let [decision] = decide_weightings(
        config,
        solver,
        sampler,
        |deal| [weight(deal)],
        legal,
        budget,
        rng,
    )?;
    decision
}

/// [`decide_weighted`] under `K` weightings of the same deals at once, each deal solved once:
/// `weights(deal)` gives its weight in each. The decisions are what `K` calls of
/// [`decide_weighted`] with the same generator would give (the deals drawn are the same), at
/// the cost of one; a test compares the information set's deals alike with their likelihood
/// this way. `None` where [`decide`] would leave the decision to the tree; a weighting whose
/// weights sum to zero gives `None` in its place.
pub fn decide_weightings<G: Game, S: DealSampler<G>, const K: usize>(
    config: &EndgameConfig,
    solver: &mut Option<Solver>,
    sampler: &S,
    mut weights: impl FnMut(&G) -> [f64; K],
    legal: &G::Moves,
    budget: &Budget,
    rng: &mut Rng,
) -> Option<[Option<Decision<G::Move>>; K]> {
    let start = Instant::now();
    // The node count and whether the limit was hit are this decision's, whatever it returns:
    // a caller reads `hit_node_limit` afterwards to report a decision cut short.
    if let Some(s) = solver.as_mut() {
        s.reset_nodes();
    }
    let ops = G::exact()?;
    // Any consistent deal tells how many cards are left and whether the solver applies: both
    // are public facts. A copy of the generator keeps the decision's own draws unchanged.
    let probe = sampler.sample(&mut rng.clone());
    let limit = config.cards.limit(ops.thesis_cards())?;
    if ops.cards_left(&probe) > limit as usize || ops.check_solvable(&probe).is_err() {
        return None;
    }
    let solver = solver.get_or_insert_with(|| Solver::new(Solver::DEFAULT_TABLE_BITS));
    // Far from the end one deal can take seconds to solve, and a whole Hearts deal far longer:
    // the decision's nodes are counted against its node limit, and the solver itself looks at
    // the clock and the stop signal as it goes, so a time budget holds within a fraction of a
    // millisecond. A deal cut short is not counted, and no deal after it is tried.
    solver.set_node_limit(config.node_limit(budget).unwrap_or(u64::MAX));
    let (time, stop) = (budget.time, budget.stop.clone());
    if time.is_some() || stop.is_some() {
        solver.set_watch(BUDGET_CHECK_NODES, move |_| {
            !(time.is_some_and(|t| start.elapsed() >= t)
                || stop.as_ref().is_some_and(StopSignal::is_raised))
        });
    }
    // Set by a deal cut short: the rest are not tried.
    let out_of_budget = std::cell::Cell::new(false);
    let mut tallies: [Tallies<G::Move>; K] = std::array::from_fn(|_| Tallies::new(legal));
    let mut values: Vec<MoveValue<G::Move>> = Vec::with_capacity(legal.len());
    // What a deal says, whatever its weights: how many were solved, and whether the game's
    // exact values gave a reward in every one.
    let (mut solved, mut has_reward) = (0u64, true);
    let mut solve = |state: G| {
        if out_of_budget.get() {
            return;
        }
        match ops.move_values(solver, &state, &mut values) {
            Ok(()) => {}
            Err(SolveError::Stopped(_) | SolveError::NodeLimit(_)) => {
                out_of_budget.set(true);
                return;
            }
            Err(_) => return,
        }
        // (reward, value) of each move in this deal; a hand holds at most 13 moves.
        let mut scores = [(0.0, 0.0); 16];
        for (mv, score) in values.iter().zip(scores.iter_mut()) {
            let reward = ops.reward_of(&state, mv.value);
            has_reward &= reward.is_some();
            *score = (reward.unwrap_or(0.0), mv.value as f64);
        }
        solved += 1;
        let scores = &scores[..values.len()];
        let best = scores
            .iter()
            .fold((f64::NEG_INFINITY, f64::NEG_INFINITY), |best, &s| {
                if s > best { s } else { best }
            });
        let winners = scores.iter().filter(|&&s| s == best).count() as f64;
        for (t, w) in tallies.iter_mut().zip(weights(&state)) {
            t.add(&values, scores, best, winners, w);
        }
    };
    let enumerated = sampler.count() <= config.deals as u128
        && sampler.for_each_state(&mut |state| solve(state));
    if !enumerated {
        for i in 0..config.deals {
            // A time budget or a stop cuts the sample short (read every few deals; a deal
            // takes microseconds to milliseconds).
            if i > 0
                && i % 4 == 0
                && (budget.time.is_some_and(|t| start.elapsed() >= t)
                    || budget.stop.as_ref().is_some_and(|s| s.is_raised()))
            {
                break;
            }
            solve(sampler.sample(rng));
            if out_of_budget.get() {
                break;
            }
        }
    }
    solver.clear_watch();
    solver.set_node_limit(u64::MAX);
    // No deal solved: leave the decision to the tree.
    if solved == 0 {
        return None;
    }
    Some(tallies.map(|t| t.decision(config.pick, solved, has_reward, start)))
}

/// One weighting's totals over the deals solved (see [`decide_weightings`]).
struct Tallies<M> {
    moves: Vec<Tally<M>>,
    total_weight: f64,
}

impl<M: TreeMove + PartialEq> Tallies<M> {
    fn new(legal: &impl MoveSet<M>) -> Tallies<M> {
        Tallies {
            moves: legal
                .to_vec()
                .into_iter()
                .map(|mv| Tally {
                    mv,
                    reward: 0.0,
                    value: 0.0,
                    votes: 0.0,
                })
                .collect(),
            total_weight: 0.0,
        }
    }

    /// Counts one deal with weight `w`: `scores` are its moves' (reward, value), in the order
    /// of `values`, which is the order of the legal moves; `best` is the highest of them, which
    /// `winners` moves share.
    fn add(
        &mut self,
        values: &[MoveValue<M>],
        scores: &[(f64, f64)],
        best: (f64, f64),
        winners: f64,
        w: f64,
    ) {
        self.total_weight += w;
        for ((t, mv), &score) in self.moves.iter_mut().zip(values).zip(scores) {
            debug_assert!(t.mv == mv.mv, "every deal has the observer's legal moves");
            t.reward += w * score.0;
            t.value += w * score.1;
            if score == best {
                t.votes += w / winners;
            }
        }
    }

    /// The move of the best mean (or most votes), or `None` for weights that say nothing (all
    /// zero: every deal ruled out, which an opponent model with a random-move share cannot do).
    fn decision(
        &self,
        pick: Pick,
        solved: u64,
        has_reward: bool,
        start: Instant,
    ) -> Option<Decision<M>> {
        let n = self.total_weight;
        if !(n > 0.0 && n.is_finite()) {
            return None;
        }
        let key = |t: &Tally<M>| match pick {
            Pick::Mean => (t.reward / n, t.value / n, 0.0),
            Pick::Vote => (t.votes, t.reward / n, t.value / n),
        };
        let mut order: Vec<usize> = (0..self.moves.len()).collect();
        order.sort_by(|&a, &b| {
            key(&self.moves[b])
                .partial_cmp(&key(&self.moves[a]))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let children = order
            .iter()
            .map(|&i| {
                let t = &self.moves[i];
                ChildStat {
                    mv: t.mv,
                    visits: solved,
                    availability: solved,
                    mean: if has_reward {
                        t.reward / n
                    } else {
                        t.value / n
                    },
                    // Votes in deals' worth: the deals that voted, when every weight is 1.
                    votes: (t.votes * solved as f64 / n).round() as u64,
                }
            })
            .collect::<Vec<_>>();
        Some(Decision {
            mv: children[0].mv,
            iterations: solved,
            elapsed: start.elapsed(),
            children,
            nodes: 0,
            tree_full: false,
            endgame_cut: false,
        })
    }
}
