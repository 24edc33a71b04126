//! Inference: determinizations weighted by how well each deal explains the others' plays.
//!
//! A uniform sampler treats every deal the observer cannot rule out as equally likely, so a
//! play that tells a strong player something ("she ducked a trick her ace would have taken
//! cheaply: she has no ace") is noise to it. Here, once per decision, `infer=N` candidate deals
//! are drawn from the uniform sampler; each is rewound to the deal ([`HiddenInfo::dealt`]) and
//! the game is replayed along the moves the observer saw, scoring every move of another seat by
//! an opponent model: the game's own heuristic rule ([`Game::heuristic_moves`]) followed with
//! probability `1 − ε` (uniformly among the moves it cannot tell apart) and a uniformly random
//! legal move otherwise,
//!
//! `P(move | deal) = (1 − ε)·[move ∈ H]/|H| + ε/|legal|`.
//!
//! A candidate's weight is the product over the replayed moves (the likelihood of the plays if
//! the others played by the model); N states are then drawn from the candidates in proportion
//! to their weights (systematic resampling) and the search samples its determinizations
//! uniformly from that pool ([`Inferred`], a [`DealSampler`], so every search, parallel mode and
//! world source works unchanged). ε bounds how far one play can move the weights: each move
//! changes a deal's weight by a factor between `ε/|legal|` and `(1 − ε) + ε/|legal|`, so the
//! default ε = 0.5 keeps an unexplained play from ruling a deal out (the others are searchers,
//! not the rule). Games that cannot rewind (draws, passes) or list their rule's choices, and
//! histories with a move the observer did not see, are searched uniformly as before.
//!
//! The exact endgame (`endgame=`) uses the same model without resampling: it solves every
//! deal of the information set (or a uniform sample of them) and counts each by its
//! [`likelihood`], so its means are over the posterior of the deals
//! ([`crate::solver::hybrid::decide_weighted`]).

use std::fmt;
use std::time::Instant;

use crate::cards::random_below;
use crate::game::{DealSampler, Game, HiddenInfo, MoveSet, Rng, Seat, Seen};
use crate::limits;
use crate::spec::{OptionDoc, Spec, SpecError};

/// The `infer`, `infer_eps` and `infer_model` options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferenceConfig {
    /// Candidate deals drawn and weighted per decision (0: no inference).
    pub candidates: u32,
    /// The opponent model's probability of a uniformly random move.
    pub epsilon: f64,
    /// How the others are assumed to choose their moves.
    pub model: OpponentModelKind,
}

/// The opponent model inference weighs deals by (`infer_model=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentModelKind {
    /// The game's heuristic rule ([`Game::heuristic_moves`]), uniformly among its choices.
    Rule,
    /// The game's learned model ([`Game::opponent_model`], [`super::opponent_model`]).
    Learned,
}

impl Default for InferenceConfig {
    fn default() -> InferenceConfig {
        InferenceConfig {
            candidates: 0,
            epsilon: InferenceConfig::DEFAULT_EPSILON,
            model: OpponentModelKind::Rule,
        }
    }
}

/// The `infer` option.
pub const OPT_INFER: OptionDoc = OptionDoc {
    key: "infer",
    default: "0",
    help: "ismcts: weight N candidate deals per decision by how well they explain the others' \
           plays under the game's heuristic rule, and search determinizations drawn from them \
           (0 off; games that can rewind a deal: sueca, hearts without passing, bisca \
           without the exchange, elsewhere an error; with a time budget, fewer once a tenth of \
           it is spent, at least 32); with endgame=, the solver's deals count by the same \
           likelihood",
};
/// The `infer_model` option.
pub const OPT_INFER_MODEL: OptionDoc = OptionDoc {
    key: "infer_model",
    default: "rule",
    help: "inference: how the others are assumed to play: rule (the game's heuristic rule) or \
           learned (the game's model fitted to logged games, models/; sueca, hearts, bisca)",
};
/// The `infer_eps` option.
pub const OPT_INFER_EPS: OptionDoc = OptionDoc {
    key: "infer_eps",
    default: "0.5",
    help: "inference: the opponent model's probability of a random move instead of the rule's",
};

impl InferenceConfig {
    /// Default ε of the opponent model.
    pub const DEFAULT_EPSILON: f64 = 0.5;

    /// True when inference is on.
    pub fn is_on(&self) -> bool {
        self.candidates > 0
    }

    /// Reads `infer` and `infer_eps` from an agent spec.
    pub fn from_spec(spec: &Spec) -> Result<InferenceConfig, SpecError> {
        let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
        let candidates: u32 = spec.get("infer", 0)?;
        if candidates > limits::MAX_INFER_CANDIDATES {
            return Err(err(format!(
                "infer={candidates} must be at most {}",
                limits::MAX_INFER_CANDIDATES
            )));
        }
        let epsilon: f64 = spec.get("infer_eps", InferenceConfig::DEFAULT_EPSILON)?;
        if !(epsilon > 0.0 && epsilon <= 1.0) {
            return Err(err(format!(
                "infer_eps={epsilon} must be above 0 and at most 1 (0 would rule out deals)"
            )));
        }
        if spec.has("infer_eps") && candidates == 0 {
            return Err(err("infer_eps applies only with infer=N".into()));
        }
        let model = match spec.raw("infer_model").unwrap_or("rule") {
            "rule" => OpponentModelKind::Rule,
            "learned" => OpponentModelKind::Learned,
            other => {
                return Err(err(format!(
                    "infer_model={other}: expected rule or learned"
                )));
            }
        };
        if spec.has("infer_model") && candidates == 0 {
            return Err(err("infer_model applies only with infer=N".into()));
        }
        Ok(InferenceConfig {
            candidates,
            epsilon,
            model,
        })
    }

    /// The options that differ from the defaults, as `key=value` words.
    pub fn options_text(&self) -> Vec<String> {
        if !self.is_on() {
            return Vec::new();
        }
        let mut parts = vec![format!("infer={}", self.candidates)];
        if self.epsilon != InferenceConfig::DEFAULT_EPSILON {
            parts.push(format!("infer_eps={}", self.epsilon));
        }
        if self.model == OpponentModelKind::Learned {
            parts.push("infer_model=learned".into());
        }
        parts
    }
}

/// Determinizations drawn uniformly from a pool resampled by weight: a [`DealSampler`] whose
/// states all come from the observer's own uniform sampler, so it holds nothing the observer
/// has not seen beyond what that sampler makes up.
#[derive(Clone)]
pub struct Inferred<G> {
    pool: Vec<G>,
    count: u128,
    effective: f64,
}

impl<G> fmt::Debug for Inferred<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Made-up deals, but still nothing a reader needs: the pool's size and quality only.
        f.debug_struct("Inferred")
            .field("pool", &self.pool.len())
            .field("effective", &self.effective)
            .finish()
    }
}

impl<G> Inferred<G> {
    /// The effective sample size of the weights (Kish): the number of equally weighted deals
    /// the weighted candidates are worth; the candidate count when the plays told nothing.
    pub fn effective(&self) -> f64 {
        self.effective
    }

    /// The pool the search draws from.
    pub fn pool(&self) -> &[G] {
        &self.pool
    }
}

impl<G: Game> DealSampler<G> for Inferred<G> {
    #[inline]
    fn sample(&self, rng: &mut Rng) -> G {
        self.pool[random_below(rng, self.pool.len() as u32) as usize].clone()
    }

    fn count(&self) -> u128 {
        self.count
    }
}

/// The probability the opponent model of `config` gives the seat to move in `state` of
/// playing `mv` (legal there): `(1 − ε)·model + ε/|legal|`, where the model is the heuristic
/// rule (uniform among its choices) or the learned model. `None` when the game has no such
/// model.
pub fn move_probability<G: Game>(state: &G, mv: G::Move, config: &InferenceConfig) -> Option<f64> {
    let (modelled, legal) = match config.model {
        OpponentModelKind::Rule => {
            let rule = state.heuristic_moves()?;
            let p = if rule.contains(mv) {
                1.0 / rule.len() as f64
            } else {
                0.0
            };
            (p, state.legal_moves().len())
        }
        OpponentModelKind::Learned => G::opponent_model()?.probability_among(state, mv)?,
    };
    Some((1.0 - config.epsilon) * modelled + config.epsilon / legal as f64)
}

/// The natural log of a deal's likelihood of the plays in `history` by the seats other than
/// `observer`, under the opponent model; `None` when the deal cannot be replayed (no rewind, a
/// move the observer did not see, or no model of the kind asked for). Where the game rewinds
/// by drawing a past ([`HiddenInfo::rewind`]: Bisca's draws), `rng` draws it, and the result
/// is the likelihood along that one past: an unbiased estimate, up to a factor the same for
/// every deal, of the likelihood averaged over the pasts that lead to `deal`.
pub fn log_likelihood<G: HiddenInfo>(
    deal: &G,
    observer: Seat,
    history: &[Seen<G::Move>],
    config: &InferenceConfig,
    rng: &mut Rng,
) -> Option<f64> {
    let mut state = deal.rewind(history, rng)?;
    let mut log = 0.0;
    for &(seat, mv) in history {
        let mv = mv?;
        if seat != observer {
            log += move_probability(&state, mv, config)?.ln();
        }
        state.play(mv);
    }
    Some(log)
}

/// A deal's weight under the opponent model: the likelihood of the others' plays in it
/// (`exp` of [`log_likelihood`]), or 1 for every deal when the game cannot replay its deals.
/// Never 0 while `epsilon` is above 0: every play keeps the model's random-move share.
pub fn likelihood<G: HiddenInfo>(
    deal: &G,
    observer: Seat,
    history: &[Seen<G::Move>],
    config: &InferenceConfig,
    rng: &mut Rng,
) -> f64 {
    log_likelihood(deal, observer, history, config, rng).map_or(1.0, f64::exp)
}

/// The fewest candidates inference weighs before it heeds a deadline: with fewer, a pool
/// resampled from a handful of deals would hold the search to a handful of worlds.
pub const MIN_CANDIDATES_BY_DEADLINE: usize = 32;

/// The inferred sampler of one decision: `config.candidates` deals from `uniform`, weighted by
/// [`log_likelihood`] and resampled; `None` (search uniformly) when inference is off, there is
/// no play of another seat to learn from, or the game cannot replay its deals. With a
/// `deadline`, drawing candidates stops there once [`MIN_CANDIDATES_BY_DEADLINE`] are weighed,
/// and the pool holds as many deals as were weighed (a short time budget would otherwise go to
/// inference instead of search: docs/results.md, "Strength against threads", session 28).
pub fn infer<G: HiddenInfo, S: DealSampler<G>>(
    uniform: &S,
    observer: Seat,
    history: &[Seen<G::Move>],
    config: &InferenceConfig,
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> Option<Inferred<G>> {
    if !config.is_on() || !history.iter().any(|&(s, _)| s != observer) {
        return None;
    }
    let most = config.candidates as usize;
    let mut candidates = Vec::with_capacity(most);
    let mut logs = Vec::with_capacity(most);
    while candidates.len() < most {
        if candidates.len() >= MIN_CANDIDATES_BY_DEADLINE
            && deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        let deal = uniform.sample(rng);
        logs.push(log_likelihood(&deal, observer, history, config, rng)?);
        candidates.push(deal);
    }
    let n = candidates.len();
    // Weights relative to the best, so the largest is 1 and none overflows.
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    let squares: f64 = weights.iter().map(|w| w * w).sum();
    // Systematic resampling: one uniform offset, n evenly spaced pointers into the cumulative
    // weights, so each candidate is drawn floor or ceil of n times its share.
    let step = total / n as f64;
    let mut pointer = step * (random_below(rng, 1 << 20) as f64 + 0.5) / f64::from(1u32 << 20);
    let mut pool = Vec::with_capacity(n);
    let mut cumulative = 0.0;
    for (deal, w) in candidates.iter().zip(&weights) {
        cumulative += w;
        while pointer < cumulative && pool.len() < n {
            pool.push(deal.clone());
            pointer += step;
        }
    }
    // Rounding may leave the last pointer just past the total.
    while pool.len() < n {
        pool.push(candidates[n - 1].clone());
    }
    Some(Inferred {
        pool,
        count: uniform.count(),
        effective: total * total / squares,
    })
}
