//! How a NAST playout step picks a move from the statistics of the n-grams the legal moves
//! would complete: the thesis's four policies (Gibbs, ε-greedy, roulette, UCB1), their exact
//! distributions and the buffer-free draws the playout makes from them.

use std::fmt;

use crate::game::Rng;

use super::super::rollout::unit_f64;
use super::table::Stat;
use super::{MOVES, UNSEEN_MEAN};

/// How a NAST playout picks a move from the statistics of the n-grams the legal moves would
/// complete (`policy=`; the thesis's section 5.4.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Gibbs sampling: probability proportional to `exp(mean / tau)`.
    Gibbs {
        /// Temperature: towards 0 greedy, towards infinity uniform.
        tau: f64,
    },
    /// ε-greedy: the best mean with probability `1 − epsilon` (shared among ties), any other
    /// move with probability `epsilon` (shared equally).
    EGreedy {
        /// Probability of a move that is not the best.
        epsilon: f64,
    },
    /// Roulette wheel: probability proportional to the mean.
    Roulette,
    /// UCB1: uniformly among the moves of maximal `mean + c·sqrt(ln(Σ count) / count)`, an
    /// unseen n-gram's value being infinite.
    Ucb1 {
        /// Exploration constant.
        c: f64,
    },
}

impl Policy {
    /// The names `policy=` accepts, for help texts.
    pub const NAMES: &'static str = "gibbs[:tau=T], egreedy[:epsilon=E], roulette or ucb1[:c=C]";
    /// The thesis's defaults (n=2 with Gibbs τ = 1, ε = 0.2, UCB1 c = 0.7, from Powley et al.).
    pub const DEFAULT: Policy = Policy::Gibbs { tau: 1.0 };
    /// Default Gibbs temperature.
    pub const DEFAULT_TAU: f64 = 1.0;
    /// The lowest Gibbs temperature: a weight `exp((mean − 1) / tau)` is then at least
    /// `exp(−100)`, far from underflow (below it, every weight could round to 0).
    pub const MIN_TAU: f64 = 0.01;
    /// Default ε of ε-greedy.
    pub const DEFAULT_EPSILON: f64 = 0.2;
    /// Default UCB1 constant.
    pub const DEFAULT_C: f64 = 0.7;

    /// Parses `gibbs`, `gibbs:tau=T`, `egreedy`, `egreedy:epsilon=E`, `roulette`, `ucb1` or
    /// `ucb1:c=C`.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let (name, param) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let value =
            |key: &str, default: f64, ok: fn(f64) -> bool, range: &str| match param {
                None => Ok(default),
                Some(p) => {
                    let v = p.strip_prefix(key).and_then(|v| v.strip_prefix('=')).ok_or_else(|| {
                    format!("policy={text}: {name} takes only {key}= (e.g. {name}:{key}={default})")
                })?;
                    let x: f64 = v
                        .parse()
                        .map_err(|_| format!("policy={text}: {key}={v} is not a number"))?;
                    if x.is_finite() && ok(x) {
                        Ok(x)
                    } else {
                        Err(format!("policy={text}: {key} must be {range}"))
                    }
                }
            };
        match name {
            "gibbs" => Ok(Policy::Gibbs {
                tau: value(
                    "tau",
                    Self::DEFAULT_TAU,
                    |x| x >= Self::MIN_TAU,
                    "at least 0.01",
                )?,
            }),
            "egreedy" => Ok(Policy::EGreedy {
                epsilon: value(
                    "epsilon",
                    Self::DEFAULT_EPSILON,
                    |x| (0.0..=1.0).contains(&x),
                    "from 0 to 1",
                )?,
            }),
            "roulette" if param.is_none() => Ok(Policy::Roulette),
            "roulette" => Err(format!("policy={text}: roulette takes no parameter")),
            "ucb1" => Ok(Policy::Ucb1 {
                c: value("c", Self::DEFAULT_C, |x| x >= 0.0, "at least 0")?,
            }),
            _ => Err(format!("policy={text} is not one of {}", Self::NAMES)),
        }
    }

    /// The weight the statistics `s` give their move under this policy, before any
    /// normalisation: Gibbs `exp((mean − 1) / tau)` (at most 1, as means are at most 1, so no
    /// overflow at any temperature), the mean otherwise. The tables store it beside the
    /// statistics whenever they change ([`NgramStats`](super::NgramStats)), so a playout step reads one weight per
    /// legal move instead of dividing, and for Gibbs exponentiating, per legal move: a move's
    /// statistics change once an iteration but are read at every step that offers the move.
    #[inline]
    pub fn value(self, s: Stat) -> f64 {
        match self {
            // (mean − 1) / tau with one division in the update loop, not two: 1 / tau is the
            // same for every update and leaves the loop, and the update is bound by the
            // length of each cell's chain of dependent operations.
            Policy::Gibbs { tau } if s.count > 0 => {
                super::super::fastexp::exp(s.total / (f64::from(s.count) * tau) - UNSEEN_MEAN / tau)
            }
            Policy::Gibbs { .. } => 1.0,
            Policy::Roulette | Policy::EGreedy { .. } | Policy::Ucb1 { .. } => s.mean(),
        }
    }

    /// What the tables store beside [`Policy::value`] for an n-gram played `count` times:
    /// UCB1's exploration factor ([`ucb1_explore`]); 0 for the other policies, which store
    /// nothing there.
    #[inline]
    pub(super) fn explore(self, count: u32) -> f64 {
        match self {
            Policy::Ucb1 { c } => ucb1_explore(c, count),
            _ => 0.0,
        }
    }

    /// Writes each move's selection weight into `weights` (as many as `stats`) and returns
    /// their sum: the policy's distribution, unnormalised. A zero sum means uniform.
    pub fn weights(self, stats: &[Stat], weights: &mut [f64]) -> f64 {
        let mut found = [Candidate::default(); MOVES];
        for (c, &s) in found.iter_mut().zip(stats) {
            *c = Candidate::of(self, s);
        }
        self.candidate_weights(&found[..stats.len()], weights)
    }

    /// [`Policy::weights`] from the candidates' stored values.
    pub(super) fn candidate_weights(self, found: &[Candidate], weights: &mut [f64]) -> f64 {
        let weights = &mut weights[..found.len()];
        match self {
            Policy::Gibbs { .. } | Policy::Roulette => {
                for (w, c) in weights.iter_mut().zip(found) {
                    *w = c.value.max(0.0);
                }
            }
            Policy::EGreedy { epsilon } => {
                let weight = egreedy_weight(found, epsilon);
                for (w, c) in weights.iter_mut().zip(found) {
                    *w = weight(c);
                }
            }
            Policy::Ucb1 { .. } => {
                let score = ucb1_score(found);
                let mut top = f64::MIN;
                for (w, s) in weights.iter_mut().zip(found) {
                    *w = score(s);
                    top = top.max(*w);
                }
                for w in weights.iter_mut() {
                    *w = if *w == top { 1.0 } else { 0.0 };
                }
            }
        }
        weights.iter().sum()
    }

    /// Draws an index into `stats` with the policy's probabilities; `stats` must not be empty.
    pub fn choose(self, stats: &[Stat], rng: &mut Rng) -> usize {
        let mut found = [Candidate::default(); MOVES];
        for (c, &s) in found.iter_mut().zip(stats) {
            *c = Candidate::of(self, s);
        }
        self.choose_candidate(&found[..stats.len()], rng)
    }

    /// [`Policy::choose`] from the candidates' stored values: the playout's step.
    #[inline]
    pub(super) fn choose_candidate(self, found: &[Candidate], rng: &mut Rng) -> usize {
        match self {
            // The weights are the stored values: sample straight from them, no weight buffer.
            Policy::Gibbs { .. } | Policy::Roulette => {
                let total: f64 = found.iter().map(|c| c.value.max(0.0)).sum();
                sample(
                    found.iter().map(|c| c.value.max(0.0)),
                    total,
                    found.len(),
                    rng,
                )
            }
            // The draw `sample` would make over `candidate_weights`, without the buffer.
            Policy::EGreedy { epsilon } => egreedy_pick(found, epsilon, rng),
            Policy::Ucb1 { .. } => ucb1_pick(found, rng),
        }
    }
}

/// ε-greedy's weight of each of `found`: the best mean shares `1 − epsilon`, the others
/// share `epsilon` (all of it to the best when every mean is the best).
#[inline]
fn egreedy_weight(found: &[Candidate], epsilon: f64) -> impl Fn(&Candidate) -> f64 {
    let best = found.iter().map(|c| c.value).fold(f64::MIN, f64::max);
    let top = found.iter().filter(|c| c.value == best).count();
    let rest = found.len() - top;
    let (to_best, to_other) = match rest {
        0 => (1.0, 0.0),
        _ => ((1.0 - epsilon) / top as f64, epsilon / rest as f64),
    };
    move |c: &Candidate| if c.value == best { to_best } else { to_other }
}

/// ε-greedy's draw ([`Policy::EGreedy`]) without a weight buffer: the weights of
/// [`Policy::candidate_weights`], summed and sampled in the same order, so the draw is the
/// one [`sample`] makes over that buffer.
#[inline]
fn egreedy_pick(found: &[Candidate], epsilon: f64, rng: &mut Rng) -> usize {
    let weight = egreedy_weight(found, epsilon);
    let total: f64 = found.iter().map(&weight).sum();
    sample(found.iter().map(&weight), total, found.len(), rng)
}

/// UCB1's exploration factor of an n-gram played `count` times, `c / sqrt(count)` (0 for one
/// never played, whose score is infinite anyway): what the tables store beside the mean, so
/// that a playout step takes one square root, not a division and a square root per legal move.
#[inline]
pub(super) fn ucb1_explore(c: f64, count: u32) -> f64 {
    if count == 0 {
        0.0
    } else {
        c / f64::from(count).sqrt()
    }
}

/// UCB1's score of each of `found`: `mean + c·sqrt(ln(Σ count) / count)`, computed as
/// `mean + sqrt(ln(Σ count)) · (c / sqrt(count))` from the stored factor ([`ucb1_explore`]);
/// infinite for an unseen n-gram.
#[inline]
fn ucb1_score(found: &[Candidate]) -> impl Fn(&Candidate) -> f64 {
    let total: u64 = found.iter().map(|s| u64::from(s.count)).sum();
    let sqrt_ln_total = ucb1_sqrt_ln(total);
    move |s: &Candidate| ucb1_mean_term(s.count, s.value) + sqrt_ln_total * s.explore
}

/// `sqrt(ln(Σ count))`, the factor every move's exploration term shares at a UCB1 step.
#[inline(always)]
pub(super) fn ucb1_sqrt_ln(total: u64) -> f64 {
    super::super::fastln::ln(total.max(1) as f64).sqrt()
}

/// The first term of a UCB1 score: the mean, or infinity for an unseen n-gram (whose stored
/// exploration factor is 0, so the score stays infinite).
#[inline(always)]
pub(super) fn ucb1_mean_term(count: u32, mean: f64) -> f64 {
    if count == 0 { f64::INFINITY } else { mean }
}

/// UCB1's draw ([`Policy::Ucb1`]) without a weight buffer: uniformly among the candidates of
/// maximal score, an unseen one's being infinite. It draws exactly what [`sample`] draws over
/// [`Policy::candidate_weights`] (one `unit_f64`, the `⌊u · ties⌋`-th tie, which is where
/// `sample` stops over weights of 1 for the ties and 0 for the rest).
#[inline]
pub(super) fn ucb1_pick(found: &[Candidate], rng: &mut Rng) -> usize {
    let score = ucb1_score(found);
    let mut scores = [0.0; MOVES];
    let scores = &mut scores[..found.len()];
    let mut top = f64::MIN;
    for (x, s) in scores.iter_mut().zip(found) {
        *x = score(s);
        top = top.max(*x);
    }
    pick_among_maxima(scores, top, rng)
}

/// Uniformly among the indices of `scores` equal to their maximum `top`, as [`sample`] draws
/// over weights of 1 for those and 0 for the rest (one `unit_f64`, the `⌊u · ties⌋`-th tie).
/// The maximum, its ties and the first tie come from passes with no branch on the data: which
/// move leads is as random as the statistics, and as branches the comparisons mispredicted.
#[inline(always)]
pub(super) fn pick_among_maxima(scores: &[f64], top: f64, rng: &mut Rng) -> usize {
    let ties = scores.iter().map(|&x| u32::from(x == top)).sum::<u32>();
    let first = scores.iter().take_while(|&&x| x < top).count();
    // `sample` would draw u in [0, ties) and stop at the ⌊u⌋-th tie (subtracting 1.0 from
    // u is exact there); with one tie it stops at it whatever u is.
    let u = unit_f64(rng) * f64::from(ties);
    if ties == 1 {
        return first;
    }
    let j = (u as u32).min(ties - 1);
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &x)| x == top)
        .nth(j as usize)
        .map_or(first, |(i, _)| i)
}

/// Draws an index with probability proportional to `weights` (`len` of them, summing to
/// `total`); uniformly when the total is zero or not finite.
#[inline(always)]
pub(super) fn sample(
    weights: impl Iterator<Item = f64> + Clone,
    total: f64,
    len: usize,
    rng: &mut Rng,
) -> usize {
    if total <= 0.0 || !total.is_finite() {
        return crate::cards::random_below(rng, len as u32) as usize;
    }
    let mut u = unit_f64(rng) * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if u < w {
            return i;
        }
        u -= w;
        if w > 0.0 {
            last = i;
        }
    }
    // Rounding left `u` at or past the last weight: the last move with any weight.
    last
}

/// What a playout step reads of one legal move's n-gram: its count, the policy's stored weight
/// of its statistics ([`Policy::value`]) and, for UCB1, its stored exploration factor
/// ([`ucb1_explore`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    pub(super) count: u32,
    pub(super) value: f64,
    pub(super) explore: f64,
}

impl Candidate {
    #[inline]
    pub(super) fn of(policy: Policy, s: Stat) -> Candidate {
        Candidate {
            count: s.count,
            value: policy.value(s),
            explore: policy.explore(s.count),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Gibbs { tau } => write!(f, "gibbs:tau={tau}"),
            Policy::EGreedy { epsilon } => write!(f, "egreedy:epsilon={epsilon}"),
            Policy::Roulette => f.write_str("roulette"),
            Policy::Ucb1 { c } => write!(f, "ucb1:c={c}"),
        }
    }
}
