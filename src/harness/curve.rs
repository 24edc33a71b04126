//! Strength against budget: an agent played at a ladder of budgets (iterations or time per move)
//! against a fixed reference and against itself at half the budget, with the Elo gained per
//! doubling of the budget fitted over all points.
//!
//! Two estimates of the gain per doubling come out of one run. Against the reference, the Elo
//! of every point is regressed on log₂ of the budget (weighted by each point's precision): the
//! slope is the gain per doubling over the whole ladder. Against the half budget, each match
//! measures one doubling directly; their precision-weighted mean is the second estimate, and
//! the per-point values show where the gain fades.
//!
//! Every match plays the same deals (one seed), so the points are not independent: a deal that
//! favours the agent at one rung tends to at the others. The fits keep their precision
//! weights, but their intervals come from the covariance of the points, each pair's
//! correlation measured over the deals both matches played (with the delta method, the
//! correlation of two Elo estimates is that of their per-deal scores), and Student's t at the
//! deals' degrees of freedom. Treated as independent, correlated points made the half-budget
//! interval too narrow (in Tricks about 85% coverage) and the slope's too wide.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::runner::{
    GameRecord, MatchConfig, MatchObserver, MatchReport, agents_spec, run_match_resuming,
};
use super::seating::Lineup;
use super::stats::{EloText, Signed, Tally, elo_of, t95};
use crate::games::GameDef;
use crate::search::{Budget, StopSignal};
use crate::spec::Spec;

/// One rung of the ladder: a budget per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rung {
    /// Iterations per move.
    Iterations(u64),
    /// Milliseconds per move.
    Millis(u64),
}

impl Rung {
    /// The amount (iterations or milliseconds).
    pub fn amount(self) -> u64 {
        match self {
            Rung::Iterations(n) | Rung::Millis(n) => n,
        }
    }

    /// The same kind of budget with half the amount (at least 1).
    pub fn half(self) -> Rung {
        match self {
            Rung::Iterations(n) => Rung::Iterations((n / 2).max(1)),
            Rung::Millis(n) => Rung::Millis((n / 2).max(1)),
        }
    }

    /// The spec option that sets it (`iterations=N` or `time_ms=N`).
    fn option(self) -> (&'static str, String) {
        match self {
            Rung::Iterations(n) => ("iterations", n.to_string()),
            Rung::Millis(n) => ("time_ms", n.to_string()),
        }
    }

    /// Short text: `8000 it` or `20 ms`.
    pub fn describe(self) -> String {
        match self {
            Rung::Iterations(n) => format!("{n} it"),
            Rung::Millis(n) => format!("{n} ms"),
        }
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct CurvePlan {
    /// The game.
    pub game: Spec,
    /// The agent whose curve this is (its budget is set per rung).
    pub agent: Spec,
    /// The fixed opponent.
    pub reference: Spec,
    /// The reference's budget per move, unless its spec sets its own.
    pub reference_budget: Budget,
    /// The budgets, in increasing order.
    pub rungs: Vec<Rung>,
    /// Also play every rung against the agent at half the budget.
    pub against_half: bool,
    /// Deals per match.
    pub deals: u64,
    /// Match seed (the same deals at every rung).
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Raised to end the run early (Ctrl-C).
    pub stop: Option<StopSignal>,
}

/// One match's result as the curve reports it: A's mean score with its 95% interval and the
/// Elo difference it implies, with that interval and the standard error of the Elo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    /// Mean score of the rung's agent (0.5 = even).
    pub score: f64,
    /// 95% interval of the score.
    pub interval: (f64, f64),
    /// The Elo difference.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_interval: (f64, f64),
    /// Standard error of the Elo difference (delta method), for weighting.
    pub elo_se: f64,
    /// Deals played.
    pub deals: u64,
    /// The rung's agent's mean game points per game.
    pub points: f64,
    /// The opponent's mean game points per game.
    pub opponent_points: f64,
    /// The rung's agent's points per game minus the opponent's, with its 95% interval over
    /// deals (`None` below two deals): how a game scored in points (Sueca's card points,
    /// Hearts's penalty points) moves with the budget when its wins barely do.
    #[serde(default)]
    pub points_margin: f64,
    /// The interval of `points_margin`.
    #[serde(default)]
    pub points_margin_interval: Option<(f64, f64)>,
    /// The rung's agent's mean search iterations per move.
    pub iterations_per_move: f64,
}

impl Scored {
    /// Half the width of the Elo difference's symmetric 95% interval, `elo ± h`: the standard
    /// error times Student's t at deals − 1 degrees of freedom, as the score's interval uses
    /// (at 20 deals t is 2.09, 7% wider than the normal 1.96). At most 2,000, the whole Elo
    /// range, which is what fewer than two deals (an unknown spread) give.
    pub fn elo_half_width(&self) -> f64 {
        (t95(self.deals.saturating_sub(1)) * self.elo_se).min(2000.0)
    }

    /// Half the width of the points margin's interval (it is symmetric about the margin).
    pub fn points_margin_half_width(&self) -> Option<f64> {
        self.points_margin_interval.map(|(lo, hi)| (hi - lo) / 2.0)
    }

    /// From a match report (A is the rung's agent).
    pub fn of(report: &MatchReport) -> Scored {
        let t: &Tally = &report.tally;
        let (score, se) = (t.mean(), t.std_error());
        // dElo/dscore = 400 / (ln 10 · s (1 − s)), with s kept off 0 and 1.
        let s = score.clamp(0.01, 0.99);
        let elo_se = se * 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
        let (lo, hi) = t.interval();
        Scored {
            score,
            interval: (lo, hi),
            elo: elo_of(score),
            elo_interval: (elo_of(lo), elo_of(hi)),
            elo_se,
            deals: t.deals,
            points: report.a.mean_points(),
            opponent_points: report.b.mean_points(),
            points_margin: report.points_margin.mean(),
            points_margin_interval: report.points_margin.interval(),
            iterations_per_move: report.a.iterations as f64 / report.a.moves.max(1) as f64,
        }
    }
}

/// One rung's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// The budget.
    pub rung: Rung,
    /// Against the fixed reference.
    pub vs_reference: Scored,
    /// Against the same agent at half the budget (when measured).
    pub vs_half: Option<Scored>,
}

/// An Elo-per-doubling estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gain {
    /// Elo per doubling of the budget.
    pub elo_per_doubling: f64,
    /// Its 95% interval.
    pub interval: (f64, f64),
}

/// The whole curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// Game spec.
    pub game: String,
    /// Agent spec (without the rung's budget).
    pub agent: String,
    /// Reference spec.
    pub reference: String,
    /// True when the agent is a cheating baseline (it reads hidden cards).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent_cheating: bool,
    /// True when the reference is a cheating baseline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference_cheating: bool,
    /// Match seed.
    pub seed: u64,
    /// The rungs.
    pub points: Vec<CurvePoint>,
    /// Slope of Elo against the reference on log₂ budget.
    pub slope_vs_reference: Option<Gain>,
    /// Mean gain of the half-budget matches.
    pub mean_vs_half: Option<Gain>,
    /// True when the run was stopped before every rung was played: the points are the rungs
    /// finished.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// The agent at one rung: its spec with the rung's budget replacing any it had.
pub fn at_rung(agent: &Spec, rung: Rung) -> Spec {
    let mut spec = agent.without(&["iterations", "time_ms"]);
    let (key, value) = rung.option();
    spec.set(key, &value);
    spec
}

/// A match's score per deal (the mean over the deal's seatings), by deal index.
pub type DealScores = BTreeMap<u64, f64>;

/// One estimate a fit combines: an Elo difference with its standard error, and the per-deal
/// scores it came from, which say how it moves with the fit's other estimates.
#[derive(Clone, Copy, Debug)]
pub struct Estimate<'a> {
    /// The Elo difference.
    pub elo: f64,
    /// Its standard error.
    pub se: f64,
    /// The match's per-deal scores (empty: independent of every other estimate).
    pub deals: &'a DealScores,
}

/// Pearson's correlation of two matches' per-deal scores over the deals both played; 0 with
/// fewer than two such deals or when either is constant over them (no spread to move with).
fn deal_correlation(a: &DealScores, b: &DealScores) -> f64 {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .filter_map(|(deal, &x)| b.get(deal).map(|&y| (x, y)))
        .collect();
    let n = pairs.len() as f64;
    if pairs.len() < 2 {
        return 0.0;
    }
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx).powi(2);
        syy += (y - my).powi(2);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return 0.0;
    }
    sxy / (sxx * syy).sqrt()
}

/// The 95% half-width `t · sqrt(cᵀ Σ c)` of the linear combination `Σ cᵢ·eloᵢ`, where `Σ` holds
/// each estimate's variance and each pair's covariance `ρᵢⱼ·seᵢ·seⱼ`.
fn combined_half_width(coefficients: &[f64], estimates: &[Estimate], t: f64) -> f64 {
    let mut variance = 0.0;
    for (i, (ci, ei)) in coefficients.iter().zip(estimates).enumerate() {
        variance += (ci * ei.se).powi(2);
        for (cj, ej) in coefficients.iter().zip(estimates).skip(i + 1) {
            variance += 2.0 * ci * cj * deal_correlation(ei.deals, ej.deals) * ei.se * ej.se;
        }
    }
    t * variance.max(0.0).sqrt()
}

/// Precision weights `1/se²` of the estimates.
fn weights(estimates: &[Estimate]) -> Vec<f64> {
    estimates
        .iter()
        .map(|e| 1.0 / e.se.max(1e-9).powi(2))
        .collect()
}

/// Weighted least-squares slope of the estimates' Elo on `x` (weights 1/se²), with its 95%
/// interval from their covariance and the quantile `t`; `None` with fewer than two distinct
/// `x`.
pub fn weighted_slope(x: &[f64], estimates: &[Estimate], t: f64) -> Option<Gain> {
    let w = weights(estimates);
    let sw: f64 = w.iter().sum();
    let mx = x.iter().zip(&w).map(|(x, w)| w * x).sum::<f64>() / sw;
    let sxx: f64 = x.iter().zip(&w).map(|(x, w)| w * (x - mx).powi(2)).sum();
    if estimates.len() < 2 || sxx <= 0.0 {
        return None;
    }
    // The slope is Σ cᵢ·eloᵢ with cᵢ = wᵢ (xᵢ − x̄) / Sxx.
    let c: Vec<f64> = x.iter().zip(&w).map(|(x, w)| w * (x - mx) / sxx).collect();
    let slope: f64 = c.iter().zip(estimates).map(|(c, e)| c * e.elo).sum();
    let h = combined_half_width(&c, estimates, t);
    Some(Gain {
        elo_per_doubling: slope,
        interval: (slope - h, slope + h),
    })
}

/// Precision-weighted mean of the estimates, with its 95% interval from their covariance and
/// the quantile `t`.
pub fn weighted_mean(estimates: &[Estimate], t: f64) -> Option<Gain> {
    if estimates.is_empty() {
        return None;
    }
    let w = weights(estimates);
    let sw: f64 = w.iter().sum();
    let c: Vec<f64> = w.iter().map(|w| w / sw).collect();
    let mean: f64 = c.iter().zip(estimates).map(|(c, e)| c * e.elo).sum();
    let h = combined_half_width(&c, estimates, t);
    Some(Gain {
        elo_per_doubling: mean,
        interval: (mean - h, mean + h),
    })
}

/// The per-deal scores of one rung's matches, beside its [`CurvePoint`].
#[derive(Clone, Debug, Default)]
pub struct RungDeals {
    /// Of the match against the reference.
    pub vs_reference: DealScores,
    /// Of the match against half the budget, when played.
    pub vs_half: DealScores,
}

/// The estimates of the gain per doubling from a curve's points and their matches' per-deal
/// scores (`deals[i]` beside `points[i]`): none while any point has fewer than two deals, whose
/// spread is unknown.
pub fn fit(points: &[CurvePoint], deals: &[RungDeals]) -> (Option<Gain>, Option<Gain>) {
    let fewest = points
        .iter()
        .map(|p| p.vs_reference.deals)
        .min()
        .unwrap_or(0);
    if fewest < 2 {
        return (None, None);
    }
    let t = t95(fewest - 1);
    let none = DealScores::new();
    let deals_of = |i: usize, half: bool| {
        deals
            .get(i)
            .map_or(&none, |d| if half { &d.vs_half } else { &d.vs_reference })
    };
    let x: Vec<f64> = points
        .iter()
        .map(|p| (p.rung.amount() as f64).log2())
        .collect();
    let vs_ref: Vec<Estimate> = points
        .iter()
        .enumerate()
        .map(|(i, p)| Estimate {
            elo: p.vs_reference.elo,
            se: p.vs_reference.elo_se,
            deals: deals_of(i, false),
        })
        .collect();
    let vs_half: Vec<Estimate> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.vs_half.as_ref().map(|h| Estimate {
                elo: h.elo,
                se: h.elo_se,
                deals: deals_of(i, true),
            })
        })
        .collect();
    (weighted_slope(&x, &vs_ref, t), weighted_mean(&vs_half, t))
}

/// Passes every game on to `inner` and keeps the match's per-deal scores: what the fits need
/// of each match beyond its report.
struct CollectDeals<'o> {
    inner: &'o mut dyn MatchObserver,
    /// Sum of A's scores and games, by deal index.
    sums: BTreeMap<u64, (f64, u32)>,
}

impl<'o> CollectDeals<'o> {
    /// Starts with the games taken from the log among the match's first `deals` (a log may
    /// hold more deals than this run plays; the match leaves those out, and so do the fits).
    fn new(
        inner: &'o mut dyn MatchObserver,
        resumed: &[GameRecord],
        deals: u64,
    ) -> CollectDeals<'o> {
        let mut collect = CollectDeals {
            inner,
            sums: BTreeMap::new(),
        };
        for r in resumed.iter().filter(|r| r.deal_index < deals) {
            collect.add(r);
        }
        collect
    }

    fn add(&mut self, record: &GameRecord) {
        let sum = self.sums.entry(record.deal_index).or_default();
        sum.0 += record.score_a;
        sum.1 += 1;
    }

    fn scores(&self) -> DealScores {
        self.sums
            .iter()
            .map(|(&deal, &(sum, games))| (deal, sum / f64::from(games)))
            .collect()
    }
}

impl MatchObserver for CollectDeals<'_> {
    fn game_finished(
        &mut self,
        record: &GameRecord,
        report: &MatchReport,
        games_done: u64,
        games_total: u64,
    ) {
        self.add(record);
        self.inner
            .game_finished(record, report, games_done, games_total);
    }
}

/// The agents of every match of the plan, as a game log names them (`agent_a`, `agent_b`).
fn logged_pairs<G: GameDef>(plan: &CurvePlan) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for &rung in &plan.rungs {
        let a = agents_spec::<G>(&at_rung(&plan.agent, rung));
        pairs.push((a.clone(), agents_spec::<G>(&plan.reference)));
        if plan.against_half {
            pairs.push((a, agents_spec::<G>(&at_rung(&plan.agent, rung.half()))));
        }
    }
    pairs
}

/// Runs the plan; `observer` sees every game of every match, and `progress(rung, label)` is
/// called as each match starts. `finished` are games a stopped run of the same plan logged
/// (not played again; a game of any other plan is an error). Stops early (returning the rungs
/// finished) if the stop signal is raised.
pub fn run_curve<G: GameDef>(
    plan: &CurvePlan,
    config: &G::Config,
    finished: Vec<GameRecord>,
    observer: &mut dyn MatchObserver,
    progress: &mut dyn FnMut(usize, &str),
) -> Result<Curve, String> {
    let pairs = logged_pairs::<G>(plan);
    // A log tells matches apart by their two agents: two matches of the same pair (a reference
    // that is the agent at some rung's half budget) would be one match twice over.
    for (i, pair) in pairs.iter().enumerate() {
        if pairs[..i].contains(pair) {
            return Err(format!(
                "two matches of this curve would both be {} vs {}: give a reference other than \
                 the agent at a rung's half budget, or --no-half",
                pair.0, pair.1
            ));
        }
    }
    let mut resumed: Vec<Vec<GameRecord>> = vec![Vec::new(); pairs.len()];
    for (k, r) in finished.into_iter().enumerate() {
        let pair = (r.agent_a.clone(), r.agent_b.clone());
        match pairs.iter().position(|p| *p == pair) {
            Some(m) => resumed[m].push(r),
            None => {
                return Err(format!(
                    "logged game {} ({} vs {}) is not a game of this curve's matches",
                    k + 1,
                    r.agent_a,
                    r.agent_b
                ));
            }
        }
    }
    let mut resumed = resumed.into_iter();
    let mut points = Vec::new();
    let mut deals = Vec::new();
    let mut interrupted = false;
    for (i, &rung) in plan.rungs.iter().enumerate() {
        let agent = at_rung(&plan.agent, rung);
        let mut play = |b: Spec, observer: &mut dyn MatchObserver| {
            let cfg = MatchConfig {
                game: plan.game.clone(),
                a: agent.clone(),
                b,
                deals: plan.deals,
                seed: plan.seed,
                // The rung's agents carry their own budgets: this one is the reference's.
                budget: plan.reference_budget.clone(),
                jobs: plan.jobs,
                lineup: Lineup::TwoVsTwo,
                shard: None,
                sprt: None,
                stop: plan.stop.clone(),
            };
            // The plan's matches come in the order `logged_pairs` lists them.
            let finished = resumed.next().unwrap_or_default();
            let mut collect = CollectDeals::new(observer, &finished, plan.deals);
            let report = run_match_resuming::<G>(&cfg, config, finished, &mut collect)?;
            Ok::<_, String>((report, collect.scores()))
        };
        progress(i, &format!("{} vs reference", rung.describe()));
        let (vs_reference, reference_deals) = play(plan.reference.clone(), observer)?;
        if vs_reference.interrupted {
            interrupted = true;
            break;
        }
        let mut rung_deals = RungDeals {
            vs_reference: reference_deals,
            vs_half: DealScores::new(),
        };
        let vs_half = if plan.against_half {
            progress(
                i,
                &format!("{} vs {}", rung.describe(), rung.half().describe()),
            );
            let (r, half_deals) = play(at_rung(&plan.agent, rung.half()), observer)?;
            if r.interrupted {
                interrupted = true;
                break;
            }
            rung_deals.vs_half = half_deals;
            Some(Scored::of(&r))
        } else {
            None
        };
        points.push(CurvePoint {
            rung,
            vs_reference: Scored::of(&vs_reference),
            vs_half,
        });
        deals.push(rung_deals);
    }
    let (slope_vs_reference, mean_vs_half) = fit(&points, &deals);
    let cheating = |spec: &Spec| {
        crate::agents::build::<G>(spec)
            .map(|a| a.is_cheating())
            .unwrap_or(false)
    };
    Ok(Curve {
        game: plan.game.to_string(),
        agent: plan.agent.to_string(),
        reference: plan.reference.to_string(),
        agent_cheating: cheating(&plan.agent),
        reference_cheating: cheating(&plan.reference),
        seed: plan.seed,
        points,
        slope_vs_reference,
        mean_vs_half,
        interrupted,
    })
}

/// The curve as a table for people.
pub fn to_table(curve: &Curve) -> String {
    let mut out = format!(
        "{:>10} {:>24} {:>17} {:>19} {:>26} {:>13} {:>13}\n",
        "budget",
        "score vs reference",
        "Elo vs reference",
        "points vs ref",
        "score vs half budget",
        "Elo/doubling",
        "iter/move"
    );
    for p in &curve.points {
        let r = &p.vs_reference;
        let half = p.vs_half.as_ref().map_or(String::from("—"), |h| {
            format!("{:.3} ({:.3}–{:.3})", h.score, h.interval.0, h.interval.1)
        });
        let gain = p.vs_half.as_ref().map_or(String::from("—"), |h| {
            format!("{} ±{:.0}", EloText(h.elo), h.elo_half_width())
        });
        let points = match r.points_margin_half_width() {
            Some(h) => format!("{} ±{h:.1}", Signed(r.points_margin, 1)),
            None => Signed(r.points_margin, 1).to_string(),
        };
        out += &format!(
            "{:>10} {:>24} {:>17} {:>19} {:>26} {:>13} {:>13.0}\n",
            p.rung.describe(),
            format!("{:.3} ({:.3}–{:.3})", r.score, r.interval.0, r.interval.1),
            format!("{} ±{:.0}", EloText(r.elo), r.elo_half_width()),
            points,
            half,
            gain,
            r.iterations_per_move
        );
    }
    let gain = |g: &Option<Gain>| {
        g.map_or("not enough points".to_string(), |g| {
            format!(
                "{} Elo per doubling (95% CI {} … {})",
                Signed(g.elo_per_doubling, 1),
                Signed(g.interval.0, 1),
                Signed(g.interval.1, 1)
            )
        })
    };
    out += &format!(
        "fit over all points: vs reference {}; vs half budget {}\n",
        gain(&curve.slope_vs_reference),
        gain(&curve.mean_vs_half)
    );
    if curve.interrupted {
        out += &format!(
            "INTERRUPTED: only the {} rung(s) above were finished (run the same command again \
             to continue)\n",
            curve.points.len()
        );
    }
    out
}

/// The points as CSV with a header line.
pub fn to_csv(curve: &Curve) -> String {
    let mut out = String::from(
        "budget,kind,score_vs_reference,lo,hi,elo_vs_reference,elo_se,score_vs_half,half_lo,half_hi,elo_vs_half,half_elo_se,iterations_per_move,points,reference_points,deals,points_margin,points_margin_lo,points_margin_hi\n",
    );
    for p in &curve.points {
        let r = &p.vs_reference;
        let kind = match p.rung {
            Rung::Iterations(_) => "iterations",
            Rung::Millis(_) => "ms",
        };
        let half = p.vs_half.as_ref().map_or(",,,,".to_string(), |h| {
            format!(
                "{:.4},{:.4},{:.4},{:.2},{:.2}",
                h.score, h.interval.0, h.interval.1, h.elo, h.elo_se
            )
        });
        let margin_interval = r
            .points_margin_interval
            .map_or(",".to_string(), |(lo, hi)| format!("{lo:.3},{hi:.3}"));
        out += &format!(
            "{},{kind},{:.4},{:.4},{:.4},{:.2},{:.2},{half},{:.1},{:.3},{:.3},{},{:.3},{margin_interval}\n",
            p.rung.amount(),
            r.score,
            r.interval.0,
            r.interval.1,
            r.elo,
            r.elo_se,
            r.iterations_per_move,
            r.points,
            r.opponent_points,
            r.deals,
            r.points_margin
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::stats::Z95;

    /// Estimates with no per-deal scores: independent of each other.
    fn independent(values: &[(f64, f64)]) -> Vec<Estimate<'static>> {
        static NONE: DealScores = DealScores::new();
        values
            .iter()
            .map(|&(elo, se)| Estimate {
                elo,
                se,
                deals: &NONE,
            })
            .collect()
    }

    #[test]
    fn the_slope_recovers_a_known_line_and_its_uncertainty() {
        // Elo = 30·log2(b) − 200 exactly, equal independent errors of 10: slope 30, interval
        // from the textbook formula se = σ / sqrt(Σ(x − x̄)²) = 10 / sqrt(10) over x = 0..4.
        let x: Vec<f64> = (0..5).map(f64::from).collect();
        let line: Vec<(f64, f64)> = x.iter().map(|x| (30.0 * x - 200.0, 10.0)).collect();
        let g = weighted_slope(&x, &independent(&line), 1.96).unwrap();
        assert!((g.elo_per_doubling - 30.0).abs() < 1e-9);
        let h = 1.96 * 10.0 / 10f64.sqrt();
        assert!((g.interval.1 - g.elo_per_doubling - h).abs() < 1e-9);
        // Precise points pull harder than imprecise ones.
        let e = independent(&[(0.0, 1.0), (10.0, 1.0), (100.0, 1000.0)]);
        let g = weighted_slope(&[0.0, 1.0, 2.0], &e, 1.96).unwrap();
        assert!((g.elo_per_doubling - 10.0).abs() < 0.1, "{g:?}");
        assert!(weighted_slope(&[1.0], &independent(&[(5.0, 1.0)]), 1.96).is_none());
    }

    #[test]
    fn the_mean_of_doublings_is_precision_weighted() {
        let g = weighted_mean(&independent(&[(10.0, 1.0), (30.0, 1.0)]), 1.96).unwrap();
        assert!((g.elo_per_doubling - 20.0).abs() < 1e-9);
        let h = 1.96 / 2f64.sqrt();
        assert!((g.interval.0 - (20.0 - h)).abs() < 1e-9);
        let g = weighted_mean(&independent(&[(10.0, 1.0), (30.0, 100.0)]), 1.96).unwrap();
        assert!((g.elo_per_doubling - 10.0).abs() < 0.01);
    }

    /// Matches of the same deals move together: two estimates whose per-deal scores are
    /// perfectly correlated say no more than one, so their mean is as uncertain as either;
    /// perfectly anti-correlated ones cancel. A slope over points that move together is more
    /// certain than over independent ones: a shift common to every point moves no slope.
    #[test]
    fn correlated_matches_widen_the_mean_and_narrow_the_slope() {
        let scores = |f: fn(f64) -> f64| -> DealScores {
            (0..40u64).map(|d| (d, f(((d * 7) % 11) as f64))).collect()
        };
        let (same, also_same, opposite) =
            (scores(|v| v), scores(|v| 0.5 * v + 1.0), scores(|v| -v));
        let pair = |a: &DealScores, b: &DealScores| {
            let e = [
                Estimate {
                    elo: 10.0,
                    se: 4.0,
                    deals: a,
                },
                Estimate {
                    elo: 30.0,
                    se: 4.0,
                    deals: b,
                },
            ];
            weighted_mean(&e, 2.0).unwrap().interval
        };
        let (lo, hi) = pair(&same, &also_same);
        assert!((lo - (20.0 - 2.0 * 4.0)).abs() < 1e-9 && (hi - 28.0).abs() < 1e-9);
        let (lo, hi) = pair(&same, &opposite);
        assert!((lo - 20.0).abs() < 1e-9 && (hi - 20.0).abs() < 1e-9);
        let independent_half = 2.0 * 4.0 / 2f64.sqrt();
        let (lo, _) = weighted_mean(&independent(&[(10.0, 4.0), (30.0, 4.0)]), 2.0)
            .unwrap()
            .interval;
        assert!((20.0 - lo - independent_half).abs() < 1e-9);
        // Three points moving together as one: the slope's variance is that of Σ cᵢ, 0.
        let x = [0.0, 1.0, 2.0];
        let together: Vec<Estimate> = [5.0, 20.0, 35.0]
            .iter()
            .map(|&elo| Estimate {
                elo,
                se: 4.0,
                deals: &same,
            })
            .collect();
        let g = weighted_slope(&x, &together, 2.0).unwrap();
        assert!((g.elo_per_doubling - 15.0).abs() < 1e-9);
        assert!(g.interval.1 - g.interval.0 < 1e-6, "{g:?}");
    }

    /// A point's score at 0.6 over `deals`, with an Elo standard error of 20.
    fn scored(deals: u64) -> Scored {
        Scored {
            score: 0.6,
            interval: (0.5, 0.7),
            elo: elo_of(0.6),
            elo_interval: (0.0, 0.0),
            elo_se: 20.0,
            deals,
            points: 0.0,
            opponent_points: 0.0,
            points_margin: 0.0,
            points_margin_interval: None,
            iterations_per_move: 1.0,
        }
    }

    /// A curve of one deal a match has points of unknown spread: no fit is claimed.
    #[test]
    fn a_curve_of_one_deal_fits_nothing() {
        let point = |rung, deals| CurvePoint {
            rung: Rung::Iterations(rung),
            vs_reference: scored(deals),
            vs_half: None,
        };
        assert_eq!(fit(&[point(2, 1), point(4, 1)], &[]), (None, None));
        let (slope, half) = fit(&[point(2, 10), point(4, 10)], &[]);
        assert!(slope.is_some() && half.is_none());
    }

    #[test]
    fn elo_intervals_use_students_t_at_the_rungs_deals() {
        // t at 9 degrees of freedom is 2.2622 (the printed table), not the normal 1.96.
        assert!((scored(10).elo_half_width() - 2.2622 * 20.0).abs() < 1e-9);
        assert!((scored(1_000_000).elo_half_width() - Z95 * 20.0).abs() < 1e-3);
        // One deal says nothing about the spread: the whole range.
        assert_eq!(scored(1).elo_half_width(), 2000.0);
    }

    /// A plan for a two-rung Tricks curve of ISMCTS against `reference`, 4 deals.
    fn tricks_plan(reference: &str) -> CurvePlan {
        CurvePlan {
            game: "tricks".parse().unwrap(),
            agent: "ismcts".parse().unwrap(),
            reference: reference.parse().unwrap(),
            reference_budget: Budget::iterations(8),
            rungs: vec![Rung::Iterations(8), Rung::Iterations(16)],
            against_half: true,
            deals: 4,
            seed: 1,
            jobs: 1,
            stop: None,
        }
    }

    fn run_tricks(plan: &CurvePlan) -> Result<Curve, String> {
        use crate::games::Tricks;
        use crate::harness::runner::Quiet;
        run_curve::<Tricks>(
            plan,
            &Default::default(),
            Vec::new(),
            &mut Quiet,
            &mut |_, _| {},
        )
    }

    /// A curve stopped before its last rung says so in its table and JSON, as a match does.
    #[test]
    fn a_stopped_curve_is_marked_interrupted() {
        let whole = run_tricks(&tricks_plan("random")).unwrap();
        assert!(!whole.interrupted && whole.points.len() == 2);
        assert!(!to_table(&whole).contains("INTERRUPTED"));
        let stop = StopSignal::new();
        stop.raise();
        let stopped = run_tricks(&CurvePlan {
            stop: Some(stop),
            ..tricks_plan("random")
        })
        .unwrap();
        assert!(stopped.interrupted && stopped.points.is_empty());
        assert!(to_table(&stopped).contains("INTERRUPTED"));
        assert!(
            serde_json::to_string(&stopped)
                .unwrap()
                .contains("\"interrupted\":true")
        );
    }

    /// A curve continued from the log of a longer one plays and fits the deals it names only:
    /// the same fits as a fresh run of as many deals.
    #[test]
    fn a_curve_continued_from_a_longer_log_fits_only_its_own_deals() {
        use crate::games::Tricks;
        struct Keep(Vec<GameRecord>);
        impl MatchObserver for Keep {
            fn game_finished(&mut self, r: &GameRecord, _: &MatchReport, _: u64, _: u64) {
                self.0.push(r.clone());
            }
        }
        let mut longer = Keep(Vec::new());
        let plan = CurvePlan {
            deals: 12,
            ..tricks_plan("random")
        };
        run_curve::<Tricks>(
            &plan,
            &Default::default(),
            Vec::new(),
            &mut longer,
            &mut |_, _| {},
        )
        .unwrap();
        let fresh = run_tricks(&tricks_plan("random")).unwrap();
        let continued = run_curve::<Tricks>(
            &tricks_plan("random"),
            &Default::default(),
            longer.0,
            &mut Keep(Vec::new()),
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(continued.points, fresh.points);
        assert_eq!(continued.slope_vs_reference, fresh.slope_vs_reference);
        assert_eq!(continued.mean_vs_half, fresh.mean_vs_half);
    }

    /// A reference that is the agent at a rung's half budget would make two matches of the same
    /// two agents, which a log cannot tell apart: refused before any game.
    #[test]
    fn a_reference_equal_to_a_half_budget_agent_is_refused() {
        let e = run_tricks(&tricks_plan("ismcts:iterations=8")).unwrap_err();
        assert!(e.contains("would both be"), "{e}");
        assert!(
            run_tricks(&CurvePlan {
                against_half: false,
                ..tricks_plan("ismcts:iterations=8")
            })
            .is_ok()
        );
    }

    #[test]
    fn a_rung_replaces_the_agents_own_budget() {
        let agent: Spec = "ismcts:c=0.5,iterations=7,time_ms=3".parse().unwrap();
        let s = at_rung(&agent, Rung::Iterations(4000));
        assert_eq!(s.to_string(), "ismcts:c=0.5,iterations=4000");
        assert_eq!(Rung::Millis(5).half(), Rung::Millis(2));
        assert_eq!(Rung::Iterations(1).half(), Rung::Iterations(1));
    }
}
