//! A learned opponent model for inference: how likely a seat is to play each legal card, given
//! only what that seat knew (its hand and the cards played so far).
//!
//! The model is a conditional logit: each legal move is read as a few discrete features
//! ([`Game::model_features`]: one index per feature table, each a parameter), its score is
//! the sum of those parameters, and the probability of a move is the softmax of the scores
//! over the legal moves. The parameters are fitted by maximum likelihood, with an L2 penalty,
//! to the moves of logged games (`cardsearch fit-model`, [`fit`]); the fitted table ships in
//! `models/` and the game embeds it.
//!
//! Inference ([`super::inference`]) reads it in place of the heuristic rule (`infer_model=
//! learned`): a deal in which the others' actual plays are likely under the model counts for
//! more. Because the features only use the mover's own hand and public cards, the same table
//! scores a play in every candidate deal, and only the mover's hypothesised hand changes the
//! probability.

use std::sync::OnceLock;

use crate::cards::CardSet;
use crate::game::{Game, MoveSet};

/// Feature tables a move is read through; unused ones repeat index 0 of a table whose
/// parameter is fitted like any other.
pub const MODEL_TABLES: usize = 4;

/// The largest parameter magnitude a model may have: a move's weight, the product of
/// [`MODEL_TABLES`] factors `exp(θ)`, then stays far inside `f64`'s range.
pub const MAX_PARAM: f64 = 50.0;

/// One legal move as the model reads it: an index into the parameters per feature table.
pub type ModelFeatures = [u16; MODEL_TABLES];

/// Two features every trick game's tables use, for `card` of the mover's `hand`, given
/// `suit` (the hand's cards of the card's suit), `stronger` (the pack's cards of that suit
/// that beat it) and the cards `gone` from play: its rank among `suit` (0 lowest, 1 highest,
/// 2 between, 3 the only one) and whether it is the suit's master (1: no stronger card is left
/// outside the hand).
pub fn rank_and_master(
    card: CardSet,
    suit: CardSet,
    hand: CardSet,
    stronger: CardSet,
    gone: CardSet,
) -> (usize, usize) {
    let others = suit.0 & !card.0;
    let rank = match (others & !stronger.0 != 0, others & stronger.0 != 0) {
        (false, false) => 3,
        (false, true) => 0,
        (true, false) => 1,
        (true, true) => 2,
    };
    let master = (stronger.0 & !gone.0 & !hand.0 == 0) as usize;
    (rank, master)
}

/// The fitted parameters of one game's model.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentModel {
    params: Vec<f64>,
    /// `exp` of each parameter: a move's softmax weight is the product of its features'
    /// factors, four multiplications instead of an exponential per legal move.
    factors: Vec<f64>,
}

impl OpponentModel {
    /// A model with every parameter 0: every legal move equally likely.
    pub fn uniform(len: usize) -> OpponentModel {
        OpponentModel::from_params(vec![0.0; len])
    }

    /// The model with parameters `params` (as [`fit`] returns them).
    pub fn from_params(params: Vec<f64>) -> OpponentModel {
        let factors = params.iter().map(|p| p.exp()).collect();
        OpponentModel { params, factors }
    }

    /// The model of `text`: one parameter per line, `#` comment lines and blank lines skipped;
    /// exactly `len` parameters, each finite, or an error naming the line.
    pub fn parse(text: &str, len: usize) -> Result<OpponentModel, String> {
        let mut params: Vec<f64> = Vec::with_capacity(len);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let v: f64 = line
                .parse()
                .map_err(|_| format!("line {}: '{line}' is not a number", i + 1))?;
            if !v.is_finite() {
                return Err(format!("line {}: '{line}' is not finite", i + 1));
            }
            params.push(v);
        }
        if params.len() != len {
            return Err(format!(
                "{} parameters, the game's model has {len}",
                params.len()
            ));
        }
        if let Some(p) = params.iter().find(|p| p.abs() > MAX_PARAM) {
            return Err(format!(
                "parameter {p} is beyond ±{MAX_PARAM}: a move's weight could overflow"
            ));
        }
        Ok(OpponentModel::from_params(params))
    }

    /// A game's shipped model, embedded at build time as `text` (the file `name` in `models/`),
    /// parsed once into `cell` on first use. A shipped model that does not parse is a broken
    /// build, which a test checks, so it panics naming the file.
    pub fn embedded(
        cell: &'static OnceLock<OpponentModel>,
        text: &str,
        len: usize,
        name: &str,
    ) -> &'static OpponentModel {
        cell.get_or_init(|| {
            OpponentModel::parse(text, len).unwrap_or_else(|e| panic!("models/{name}: {e}"))
        })
    }

    /// The parameters, in table order.
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// A move's softmax weight: `exp` of the sum of its features' parameters, as the product
    /// of their stored factors.
    #[inline]
    pub fn weight(&self, f: &ModelFeatures) -> f64 {
        f.iter().map(|&i| self.factors[i as usize]).product()
    }

    /// The mean log-likelihood (natural log) this model gives a move of `decisions`, mixed with
    /// a uniformly random move with probability `epsilon` as inference mixes it.
    pub fn mean_log_likelihood(&self, decisions: &[Decision], epsilon: f64) -> f64 {
        let mut sum = 0.0;
        for d in decisions {
            let total: f64 = d.options.iter().map(|f| self.weight(f)).sum();
            let p = self.weight(&d.options[d.chosen]) / total;
            sum += ((1.0 - epsilon) * p + epsilon / d.options.len() as f64).ln();
        }
        sum / decisions.len().max(1) as f64
    }

    /// The model's probability that the seat to move in `state` plays `mv` (legal there);
    /// `None` when the game does not describe its moves to the model.
    pub fn probability<G: Game>(&self, state: &G, mv: G::Move) -> Option<f64> {
        self.probability_among(state, mv).map(|(p, _)| p)
    }

    /// [`OpponentModel::probability`] and the number of legal moves it was shared among, from
    /// one pass over the moves ([`Game::visit_model_features`]).
    #[inline]
    pub fn probability_among<G: Game>(&self, state: &G, mv: G::Move) -> Option<(f64, usize)> {
        let (mut total, mut played, mut moves) = (0.0, 0.0, 0);
        let described = state.visit_model_features(|m, features| {
            let w = self.weight(&features);
            total += w;
            moves += 1;
            if m == mv {
                played = w;
            }
        });
        (described && total > 0.0).then(|| (played / total, moves))
    }

    /// Writes the model as [`OpponentModel::parse`] reads it, under the comment lines of
    /// `header`.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for p in &self.params {
            out.push_str(&format!("{p:.6}\n"));
        }
        out
    }
}

/// One decision of a logged game, as the model reads it: the legal moves' features and which
/// of them was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Each legal move's features (at least two moves: forced moves tell nothing).
    pub options: Vec<ModelFeatures>,
    /// The index in `options` of the move played.
    pub chosen: usize,
}

impl Decision {
    /// The decision at `state` if `mv` is played there: `None` for a forced move or a game
    /// without model features.
    pub fn at<G: Game>(state: &G, mv: G::Move) -> Option<Decision> {
        let legal = state.legal_moves();
        if legal.len() < 2 {
            return None;
        }
        let mut options = Vec::with_capacity(legal.len());
        let mut chosen = None;
        let described = state.visit_model_features(|m, features| {
            if m == mv {
                chosen = Some(options.len());
            }
            options.push(features);
        });
        Some(Decision {
            options,
            chosen: chosen.filter(|_| described)?,
        })
    }
}

/// Settings of [`fit`].
#[derive(Clone, Copy, Debug)]
pub struct FitSettings {
    /// L2 penalty per parameter, per decision: the objective is the mean log-likelihood minus
    /// `l2 · Σ θ²`.
    pub l2: f64,
    /// Full-batch gradient steps (Adam).
    pub steps: usize,
    /// Adam's step size.
    pub rate: f64,
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            l2: 1e-4,
            steps: 400,
            rate: 0.05,
        }
    }
}

/// Maximum-likelihood parameters (`len` of them) for `decisions`, with an L2 penalty, by
/// full-batch Adam from all zeros. The objective is concave, so the result depends on the data
/// and the settings only.
pub fn fit(decisions: &[Decision], len: usize, settings: FitSettings) -> Vec<f64> {
    let mut params = vec![0.0; len];
    let (mut m, mut v) = (vec![0.0; len], vec![0.0; len]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let n = decisions.len().max(1) as f64;
    let mut grad = vec![0.0; len];
    let mut probs = Vec::new();
    for step in 1..=settings.steps {
        grad.iter_mut()
            .zip(&params)
            .for_each(|(g, p)| *g = -2.0 * settings.l2 * p);
        for d in decisions {
            probs.clear();
            probs.extend(
                d.options
                    .iter()
                    .map(|f| f.iter().map(|&i| params[i as usize]).sum::<f64>()),
            );
            let top = probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut total = 0.0;
            for s in probs.iter_mut() {
                *s = (*s - top).exp();
                total += *s;
            }
            // d log p(chosen) / d score(k) = [k = chosen] − p(k).
            for (k, f) in d.options.iter().enumerate() {
                let coeff = (if k == d.chosen { 1.0 } else { 0.0 } - probs[k] / total) / n;
                for &i in f {
                    grad[i as usize] += coeff;
                }
            }
        }
        let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
        for i in 0..len {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            params[i] += settings.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decisions between two moves whose features are 0 and 1: move 1 played `k` times in `n`.
    fn two_way(k: usize, n: usize) -> Vec<Decision> {
        (0..n)
            .map(|i| Decision {
                options: vec![[0; MODEL_TABLES], [1; MODEL_TABLES]],
                chosen: usize::from(i < k),
            })
            .collect()
    }

    #[test]
    fn fitting_recovers_a_known_choice_frequency() {
        // Move 1 chosen 3 times in 4: the maximum-likelihood softmax gives it 0.75, i.e. a
        // score gap of ln 3 (spread over the 4 tables of each move).
        let params = fit(
            &two_way(300, 400),
            2,
            FitSettings {
                l2: 0.0,
                steps: 2000,
                rate: 0.02,
            },
        );
        let gap = 4.0 * (params[1] - params[0]);
        assert!((gap - 3f64.ln()).abs() < 1e-3, "gap {gap}");
        let ll = OpponentModel::from_params(params).mean_log_likelihood(&two_way(300, 400), 0.0);
        let best = 0.75f64 * 0.75f64.ln() + 0.25 * 0.25f64.ln();
        assert!((ll - best).abs() < 1e-6, "{ll} vs {best}");
    }

    #[test]
    fn the_penalty_pulls_parameters_toward_zero() {
        let free = fit(&two_way(390, 400), 2, FitSettings::default());
        let held = fit(
            &two_way(390, 400),
            2,
            FitSettings {
                l2: 0.05,
                ..FitSettings::default()
            },
        );
        assert!((held[1] - held[0]).abs() < (free[1] - free[0]).abs());
    }

    #[test]
    fn a_uniform_model_gives_every_move_the_same_log_likelihood() {
        let ll = OpponentModel::uniform(2).mean_log_likelihood(&two_way(1, 10), 0.3);
        assert!((ll - 0.5f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn parsing_checks_the_count_and_every_number() {
        let m = OpponentModel::parse("# fitted\n0.5\n\n-1.25\n", 2).unwrap();
        assert_eq!(m.params(), &[0.5, -1.25]);
        assert_eq!(OpponentModel::parse(&m.to_text("x\ny"), 2).unwrap(), m);
        assert!(
            OpponentModel::parse("0.5\n", 2)
                .unwrap_err()
                .contains("1 parameters")
        );
        assert!(
            OpponentModel::parse("0.5\nabc\n", 2)
                .unwrap_err()
                .contains("line 2")
        );
        assert!(OpponentModel::parse("0.5\ninf\n", 2).is_err());
    }
}
