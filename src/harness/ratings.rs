//! Ratings of many agents from the results of their pairings: the Bradley–Terry (Elo) model
//! fitted jointly over every pairing by penalized maximum likelihood, with 95% intervals.
//!
//! Agent `i` is expected to score `1 / (1 + 10^(-(r_i - r_j) / 400))` against agent `j`. A game's
//! score is in [0, 1] (a draw is ½, a 4-seat game can score in between), and the likelihood is
//! the Bernoulli one with fractional outcomes — ties count as half a win and half a loss, as
//! Elo and Ordo count them. Ratings are found by Newton's method with one agent anchored at 0.
//! The intervals come from the observed information (the inverse Hessian of the
//! log-likelihood); the binomial variance `p(1 − p)` they assume is the largest a score in
//! [0, 1] with mean `p` can have. Against a sandwich estimate clustered by deal (each deal's
//! games over every pairing) they were 1.2 to 3 times too wide in Tricks, Sueca and Hearts
//! (session 53's audit), but nothing guarantees that in a game whose seatings of one deal
//! move together. One drawn game per pairing is added as a prior so that an agent that wins
//! every game still gets a finite rating: the fit is the prior's maximum, not the
//! likelihood's, which moves a rating by a few Elo at 40 to 60 games a pairing and by hundreds
//! when an agent wins or loses nearly every game (the tournament report marks those).

use serde::{Deserialize, Serialize};

use super::stats::Z95;

/// Elo points per unit of natural log-odds.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The games of one pairing, from the first agent's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// The first agent.
    pub a: usize,
    /// The second agent.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// The first agent's total score (a win 1, a draw ½).
    pub score_a: f64,
}

/// One agent's rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The agent's spec.
    pub agent: String,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Fits the ratings of `agents` to the results, with `agents[anchor]` at 0. Errors when some
/// agent is not connected to the anchor by played games (its rating would be undefined).
pub fn fit(
    agents: &[String],
    results: &[PairResult],
    anchor: usize,
) -> Result<Vec<Rating>, String> {
    let n = agents.len();
    if anchor >= n {
        return Err(format!("anchor {anchor} is not one of the {n} agents"));
    }
    check_connected(agents, results, anchor)?;
    // Free parameters: every agent but the anchor, in log-odds units.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let index = |i: usize| free.iter().position(|&f| f == i);
    let mut r = vec![0.0; n];
    let mut cov = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        let (grad, info) = derivatives(n, results, &r);
        let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
        let h: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| free.iter().map(|&j| info[i][j]).collect())
            .collect();
        cov = invert(&h).ok_or("the ratings cannot be fitted: the results are degenerate")?;
        // Newton step on a concave log-likelihood: r += I⁻¹ ∇.
        let mut largest: f64 = 0.0;
        for (k, &i) in free.iter().enumerate() {
            let step: f64 = (0..free.len()).map(|l| cov[k][l] * g[l]).sum();
            r[i] += step;
            largest = largest.max(step.abs());
        }
        if largest < 1e-12 {
            break;
        }
    }
    Ok((0..n)
        .map(|i| {
            let sd = index(i).map_or(0.0, |k| cov[k][k].max(0.0).sqrt());
            let elo = r[i] * ELO_PER_NAT;
            let half = Z95 * sd * ELO_PER_NAT;
            Rating {
                agent: agents[i].clone(),
                elo,
                low: elo - half,
                high: elo + half,
            }
        })
        .collect())
}

/// The gradient of the log-likelihood and the observed information matrix (minus its Hessian)
/// at ratings `r` (log-odds units), the prior's drawn game included.
fn derivatives(n: usize, results: &[PairResult], r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut grad = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for p in results {
        let (games, score) = (p.games + 1.0, p.score_a + 0.5);
        let expected = 1.0 / (1.0 + (r[p.b] - r[p.a]).exp());
        let d = score - games * expected;
        grad[p.a] += d;
        grad[p.b] -= d;
        let w = games * expected * (1.0 - expected);
        info[p.a][p.a] += w;
        info[p.b][p.b] += w;
        info[p.a][p.b] -= w;
        info[p.b][p.a] -= w;
    }
    (grad, info)
}

/// Every agent must be linked to the anchor through pairings with games.
fn check_connected(agents: &[String], results: &[PairResult], anchor: usize) -> Result<(), String> {
    let mut reached = vec![false; agents.len()];
    reached[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for p in results.iter().filter(|p| p.games > 0.0) {
            if reached[p.a] != reached[p.b] {
                reached[p.a] = true;
                reached[p.b] = true;
                grew = true;
            }
        }
    }
    match reached.iter().position(|&r| !r) {
        Some(i) => Err(format!(
            "no games link {} to the anchor {}: its rating is undefined",
            agents[i], agents[anchor]
        )),
        None => Ok(()),
    }
}

/// The inverse of a symmetric positive definite matrix by Gauss–Jordan elimination with partial
/// pivoting (a few dozen agents at most: no library needed); `None` when it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= p);
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    let pivot_row = a[col].clone();
                    a[row]
                        .iter_mut()
                        .zip(&pivot_row)
                        .for_each(|(v, pv)| *v -= f * pv);
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::stats::score_of;
    use rand::Rng as _;

    /// A round robin simulated from known Elo values: each game a win, a draw (with
    /// probability `draw`) or a loss, with the expected score the Elo model gives.
    fn simulate(elos: &[f64], games: u32, draw: f64, seed: u64) -> Vec<PairResult> {
        let mut rng = crate::game::rng_from_seed(seed);
        let mut out = Vec::new();
        for a in 0..elos.len() {
            for b in a + 1..elos.len() {
                let e = score_of(elos[a] - elos[b]);
                // P(win) + P(draw)/2 = e, with draws taking `draw` of the closer side's mass.
                let d = draw * 2.0 * e.min(1.0 - e);
                let w = e - d / 2.0;
                let mut score = 0.0;
                for _ in 0..games {
                    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                    score += if u < w {
                        1.0
                    } else if u < w + d {
                        0.5
                    } else {
                        0.0
                    };
                }
                out.push(PairResult {
                    a,
                    b,
                    games: f64::from(games),
                    score_a: score,
                });
            }
        }
        out
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("agent{i}")).collect()
    }

    #[test]
    fn known_elo_values_are_recovered_within_their_intervals() {
        let truth = [0.0, 150.0, -100.0, 300.0, 50.0];
        let results = simulate(&truth, 400, 0.3, 1);
        let fitted = fit(&names(5), &results, 0).unwrap();
        assert_eq!(
            (fitted[0].elo, fitted[0].low, fitted[0].high),
            (0.0, 0.0, 0.0)
        );
        for (f, t) in fitted.iter().zip(truth) {
            assert!(f.low <= t && t <= f.high, "{f:?} should cover {t}");
            // 400 games a pairing: intervals of tens of Elo, not hundreds.
            assert!(f.high - f.low < 120.0, "{f:?}");
        }
    }

    #[test]
    fn intervals_cover_the_truth_about_95_percent_of_the_time() {
        // 200 simulated tournaments × 4 free ratings. Each interval is a 95% one; the prior's
        // drawn game and the normal approximation move coverage by a point or two at most, so
        // 90%..99% is far outside what chance gives (the standard error of a coverage estimate
        // from 800 partly dependent intervals is about 1–1.5 points).
        let truth = [0.0, 100.0, -200.0, 250.0, 20.0];
        let (mut covered, mut total) = (0, 0);
        for seed in 0..200 {
            let fitted = fit(&names(5), &simulate(&truth, 100, 0.2, seed), 0).unwrap();
            for (f, t) in fitted.iter().zip(truth).skip(1) {
                total += 1;
                covered += usize::from(f.low <= t && t <= f.high);
            }
        }
        let rate = covered as f64 / total as f64;
        assert!((0.90..=0.99).contains(&rate), "coverage {rate}");
    }

    #[test]
    fn an_agent_winning_everything_still_gets_a_finite_rating() {
        let results = [
            PairResult {
                a: 0,
                b: 1,
                games: 20.0,
                score_a: 20.0,
            },
            PairResult {
                a: 1,
                b: 2,
                games: 20.0,
                score_a: 10.0,
            },
        ];
        let r = fit(&names(3), &results, 1).unwrap();
        assert!(r[0].elo.is_finite() && r[0].elo > 300.0, "{r:?}");
        assert!(r[2].elo.abs() < 1.0, "{r:?}");
    }

    #[test]
    fn unconnected_agents_are_an_error() {
        let results = [PairResult {
            a: 0,
            b: 1,
            games: 20.0,
            score_a: 12.0,
        }];
        let e = fit(&names(3), &results, 0).unwrap_err();
        assert!(e.contains("agent2"), "{e}");
    }
}
