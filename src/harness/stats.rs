//! Match statistics: mean score with a 95% interval, wins/draws/losses, Elo with its interval,
//! and the sequential probability ratio test.
//!
//! The unit of sampling is the *deal*: all seatings of one deal share its cards (common random
//! numbers), so their scores are correlated and averaged first; the interval comes from the
//! spread of those per-deal means, which is what makes a seat-swapped match honest.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Student's t two-sided 95% quantiles for 1 to 30 degrees of freedom (the usual printed
/// table, four decimals).
const T95_TABLE: [f64; 30] = [
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
    2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
    2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom: the table up to
/// 30, the Cornish-Fisher expansion in `1/df` beyond (within 1e-4 of the exact value there,
/// and tending to [`Z95`]). A match's interval uses it because the spread of its deals is
/// estimated from the deals themselves: with five deals the normal quantile would claim a 95%
/// interval that covers the true score about 89% of the time (the unit test's example).
pub fn t95(df: u64) -> f64 {
    match df {
        0 => f64::INFINITY,
        1..=30 => T95_TABLE[df as usize - 1],
        _ => {
            let (z, v) = (Z95, df as f64);
            let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
        }
    }
}

/// Running totals of a match from the first agent's point of view.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games finished.
    pub games: u64,
    /// Games the first agent won, drew and lost.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Deals whose every seating is finished.
    pub deals: u64,
    /// Sum of per-deal mean scores.
    pub sum: f64,
    /// Sum of squared per-deal mean scores.
    pub sum_sq: f64,
}

impl Tally {
    /// Adds one game's outcome (score in [0, 1], 0.5 = even).
    pub fn add_game(&mut self, score: f64) {
        self.games += 1;
        if score > 0.5 {
            self.wins += 1;
        } else if score < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Adds a finished deal's mean score over its seatings.
    pub fn add_deal(&mut self, mean_score: f64) {
        self.deals += 1;
        self.sum += mean_score;
        self.sum_sq += mean_score * mean_score;
    }

    /// Merges another tally (for shards).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.deals += other.deals;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// Mean score over finished deals (0.5 when none).
    pub fn mean(&self) -> f64 {
        if self.deals == 0 {
            0.5
        } else {
            self.sum / self.deals as f64
        }
    }

    /// Standard error of the mean score. With fewer than two deals the spread is unknown, so
    /// it is the largest one deal's score in 0…1 can have (0.5): a curve's fit then gives such
    /// a point little weight instead of an infinite one.
    ///
    /// The deals' spread is taken as at least that of `n` deals one of which differed from the
    /// rest by half a win (variance `1/(4n)`): deals that all scored alike so far (in Sueca
    /// most split 1-1 when partnerships swap, so ten deals at 0.5 happen) show that deals
    /// rarely differ, not that they cannot, and a zero spread would claim an exact score and
    /// give a curve's fit an infinitely weighted point. In games of two seatings a deal it binds
    /// only when nearly every deal scored alike; where a deal averages many seatings (Hearts
    /// 2-vs-2: six) the deals' scores spread less, and at 10 to 20 deals the floor made the
    /// interval up to 2.4 times the sample's (session 53's audit; by 40 deals 1.07): wide, the
    /// safe side, and a reason to play more deals than that.
    pub fn std_error(&self) -> f64 {
        if self.deals < 2 {
            return 0.5;
        }
        let floor = (0.25 / self.deals as f64 / self.deals as f64).sqrt();
        sample_std_error(self.deals, self.sum, self.sum_sq).max(floor)
    }

    /// Half the width of the 95% interval of the mean score: Student's t with one degree of
    /// freedom fewer than the deals, since their spread is estimated from them (at 300 deals
    /// 0.4% wider than the normal interval, at 5 deals 42%). At most 1, which from any mean
    /// already spans every score in 0…1 (t with one degree of freedom is 12.7): a wider
    /// number would say nothing more. With fewer than two deals there is no spread to
    /// estimate, and it is 1.
    pub fn half_width(&self) -> f64 {
        if self.deals < 2 {
            return 1.0;
        }
        (t95(self.deals - 1) * self.std_error()).min(1.0)
    }

    /// The 95% interval of the mean score, clipped to the scores a deal can have (0 to 1): at
    /// a handful of deals the t interval reaches past them. All of 0…1 with fewer
    /// than two deals, whose spread is unknown.
    pub fn interval(&self) -> (f64, f64) {
        if self.deals < 2 {
            return (0.0, 1.0);
        }
        let h = self.half_width();
        ((self.mean() - h).max(0.0), (self.mean() + h).min(1.0))
    }

    /// Elo difference implied by the mean score, with its 95% interval (clamped to ±1000).
    pub fn elo(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.interval();
        (elo_of(self.mean()), elo_of(lo), elo_of(hi))
    }
}

/// The standard error of the mean of `n` ≥ 2 samples from their sum and sum of squares.
fn sample_std_error(n: u64, sum: f64, sum_sq: f64) -> f64 {
    let n = n as f64;
    let var = ((sum_sq - sum * sum / n) / (n - 1.0)).max(0.0);
    (var / n).sqrt()
}

/// The per-deal mean of an unbounded quantity (a game's points or match units, A's over B's),
/// with its 95% interval over deals, as the score's: one sample per deal, whose seatings share
/// its cards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DealMeans {
    /// Deals added.
    pub deals: u64,
    /// Sum of the per-deal means.
    pub sum: f64,
    /// Sum of their squares.
    pub sum_sq: f64,
}

impl DealMeans {
    /// Adds one deal's mean.
    pub fn add(&mut self, x: f64) {
        self.deals += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// Merges another's deals (for shards).
    pub fn merge(&mut self, other: &DealMeans) {
        self.deals += other.deals;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The mean over deals (0 when none).
    pub fn mean(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.sum / self.deals as f64
        }
    }

    /// The 95% t interval of the mean; `None` with fewer than two deals, whose spread is
    /// unknown (and unbounded, unlike a score's), and when every deal's value was the same: a
    /// zero spread over a few deals (four Sueca deals each won by two match units) says the
    /// deals rarely differ, not that the mean is exact, and a margin has no bound to floor it
    /// by as the score's is.
    pub fn interval(&self) -> Option<(f64, f64)> {
        if self.deals < 2 {
            return None;
        }
        let se = sample_std_error(self.deals, self.sum, self.sum_sq);
        // Sums of equal values can leave a rounding residue: "the same" is relative to them.
        if se <= 1e-12 * self.mean().abs().max(1.0) {
            return None;
        }
        let h = t95(self.deals - 1) * se;
        Some((self.mean() - h, self.mean() + h))
    }
}

/// The largest Elo difference [`elo_of`] gives, either way.
pub const ELO_LIMIT: f64 = 1000.0;

/// The Elo difference whose expected score is `score`, clamped to ±[`ELO_LIMIT`] at the
/// extremes (a score of 1 is an infinite difference).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-ELO_LIMIT, ELO_LIMIT)
}

/// An Elo difference as [`Signed`] writes it with no decimals, except that one at the clamp
/// of [`elo_of`] is written as the bound it is: `≥+1000`, `≤-1000`.
#[derive(Clone, Copy, Debug)]
pub struct EloText(pub f64);

impl fmt::Display for EloText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= ELO_LIMIT {
            f.pad(&format!("≥+{ELO_LIMIT}"))
        } else if self.0 <= -ELO_LIMIT {
            f.pad(&format!("≤-{ELO_LIMIT}"))
        } else {
            Signed(self.0, 0).fmt(f)
        }
    }
}

/// A number (`.0`) written with its sign and `.1` decimals, as `{:+.N}` writes it, except that a value
/// that rounds to zero is `+0` (`+0.0`, …): `{:+}` writes `-0` for negative zero (an even
/// match's Elo is `-400 log10(1)`) and for small negatives, which reads as a loss.
#[derive(Clone, Copy, Debug)]
pub struct Signed(pub f64, pub usize);

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:+.*}", self.1, self.0);
        // Padded as a string, so `{:>6}` lines it up in a table.
        match text.strip_prefix('-') {
            Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => {
                f.pad(&format!("+{digits}"))
            }
            _ => f.pad(&text),
        }
    }
}

/// The expected score of a player `elo` points stronger.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Decision of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The Elo difference is elo0 or less (H0 accepted).
    AcceptH0,
    /// The Elo difference is elo1 or more (H1 accepted).
    AcceptH1,
}

/// A sequential probability ratio test between Elo differences `elo0` and `elo1`, on per-deal
/// scores with the normal (GSPRT) approximation used by chess-engine testing frameworks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// H0: the difference is `elo0`.
    pub elo0: f64,
    /// H1: the difference is `elo1`.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl Sprt {
    /// Deals before the test may stop. Its ratio divides by the deals' variance, and a variance
    /// estimated from a handful of deals is too often small: deciding from the second deal on,
    /// the test between 0 and +100 Elo accepted +100 for even agents in 8.8% of simulated
    /// matches and rejected it for +100 agents in 6.1%, where α = β = 5%; from the 20th deal on,
    /// 4.8% and 2.9% (between 0 and +50: 7.3% and 5.9% before, 5.2% and 4.9% after, within the
    /// simulation's ±0.7%), for 4 to 35% more deals on average (`scripts/sprt_error_rates.py`,
    /// 4,000 matches a row).
    pub const MIN_DEALS: u64 = 20;

    /// A test with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The log-likelihood ratio of the tally so far.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.deals < 2 {
            return 0.0;
        }
        let n = t.deals as f64;
        let mean = t.mean();
        // The deals' variance as the interval takes it, floor included: with the bare sample
        // variance two even Sueca deals (spread 0) made the ratio explode and accept H0.
        let var = t.std_error().powi(2) * n;
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        // Normal approximation: LLR = n (s1 - s0)(2 mean - s0 - s1) / (2 var).
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The bounds (lower, upper) of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Whether to stop, and with which hypothesis: never before [`Sprt::MIN_DEALS`] deals.
    pub fn decide(&self, t: &Tally) -> SprtDecision {
        if t.deals < Self::MIN_DEALS {
            return SprtDecision::Continue;
        }
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// `elo0,elo1`, e.g. `0,10`.
    fn from_str(s: &str) -> Result<Sprt, String> {
        let err =
            || format!("malformed --sprt '{s}': expected elo0,elo1 with elo0 < elo1, e.g. 0,10");
        let (a, b) = s.split_once(',').ok_or_else(err)?;
        let (e0, e1): (f64, f64) = (
            a.trim().parse().map_err(|_| err())?,
            b.trim().parse().map_err(|_| err())?,
        );
        if !e0.is_finite() || !e1.is_finite() || e0 >= e1 {
            return Err(err());
        }
        Ok(Sprt::new(e0, e1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_interval_of_known_data() {
        let mut t = Tally::default();
        for s in [1.0, 0.0, 1.0, 0.0] {
            t.add_deal(s);
        }
        assert_eq!(t.mean(), 0.5);
        // Sample variance of {1,0,1,0} is 1/3; SE = sqrt(1/12).
        assert!((t.std_error() - (1.0f64 / 12.0).sqrt()).abs() < 1e-12);
        // Four deals: t with 3 degrees of freedom, 3.1824.
        assert!((t.half_width() - 3.1824 * (1.0f64 / 12.0).sqrt()).abs() < 1e-12);
        // Twice the deals: SE sqrt(2/7 / 8), an interval inside 0…1 and symmetric.
        for s in [1.0, 0.0, 1.0, 0.0] {
            t.add_deal(s);
        }
        let (lo, hi) = t.interval();
        let half = 2.3646 * (2.0f64 / 7.0 / 8.0).sqrt();
        assert!((lo - (0.5 - half)).abs() < 1e-12 && (hi - (0.5 + half)).abs() < 1e-12);
    }

    #[test]
    fn one_deal_says_nothing_about_the_spread() {
        let mut t = Tally::default();
        assert_eq!(t.interval(), (0.0, 1.0));
        t.add_deal(1.0);
        assert_eq!(t.mean(), 1.0);
        assert_eq!(t.interval(), (0.0, 1.0));
        t.add_deal(1.0);
        // Two equal deals: the sample's spread is 0, but the spread is taken as at least one
        // deal's half-win difference (SE 1/4), and t with 1 degree of freedom spans it all.
        assert_eq!(t.interval(), (0.0, 1.0));
        // Ten even deals (Sueca's partnerships splitting every deal): SE sqrt(1/40)/sqrt(10)
        // = 0.05, not 0.
        let mut even = Tally::default();
        for _ in 0..10 {
            even.add_deal(0.5);
        }
        assert!((even.std_error() - 0.05).abs() < 1e-12);
        let (lo, hi) = even.interval();
        assert!(
            (lo - (0.5 - 2.2622 * 0.05)).abs() < 1e-12
                && (hi - (0.5 + 2.2622 * 0.05)).abs() < 1e-12
        );
        // The same ten deals with one a half-win off have the floor's spread, as designed; with
        // two off, the sample's own spread is larger and used.
        even.add_deal(1.0);
        let mut two_off = even.clone();
        two_off.add_deal(0.0);
        let sample = |t: &Tally| sample_std_error(t.deals, t.sum, t.sum_sq);
        assert!((even.std_error() - sample(&even)).abs() < 1e-12);
        assert!(sample(&two_off) > (0.25f64 / 144.0).sqrt());
        assert_eq!(two_off.std_error(), sample(&two_off));
    }

    #[test]
    fn interval_stays_within_the_possible_scores() {
        // Two deals, 1.0 and 0.2: mean 0.6, SE 0.4, so the t interval is 0.6 ± 5.08, all of 0…1.
        let mut t = Tally::default();
        t.add_deal(1.0);
        t.add_deal(0.2);
        // (Printed as 1: no score lies outside ±1 of the mean.)
        assert_eq!(t.half_width(), 1.0);
        assert_eq!(t.interval(), (0.0, 1.0));
        let mut lopsided = Tally::default();
        for s in [0.0, 0.0, 0.5] {
            lopsided.add_deal(s);
        }
        let (lo, hi) = lopsided.interval();
        assert_eq!(lo, 0.0);
        assert!((hi - (1.0 / 6.0 + lopsided.half_width())).abs() < 1e-12);
    }

    /// P(|T| < t) for Student's t with `df` degrees of freedom, by the closed forms for integer
    /// degrees of freedom (Abramowitz and Stegun 26.7.3 and 26.7.4): independent of the table
    /// and the expansion in `t95`.
    fn t_central_mass(t: f64, df: u64) -> f64 {
        let theta = (t / (df as f64).sqrt()).atan();
        let (sin, cos2) = (theta.sin(), theta.cos().powi(2));
        if df % 2 == 1 {
            // 2/π (θ + sin θ cos θ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + …)), df − 1 terms' worth.
            let (mut term, mut sum) = (theta.cos(), 0.0);
            for k in (1..df).step_by(2) {
                sum += term;
                term *= cos2 * (k + 1) as f64 / (k + 2) as f64;
            }
            2.0 / std::f64::consts::PI * (theta + sin * if df == 1 { 0.0 } else { sum })
        } else {
            // sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + …).
            let (mut term, mut sum) = (1.0, 0.0);
            for k in (0..df).step_by(2) {
                sum += term;
                term *= cos2 * (k + 1) as f64 / (k + 2) as f64;
            }
            sin * sum
        }
    }

    #[test]
    fn t_quantiles_hold_95_percent_of_students_t() {
        assert!((t_central_mass(1.0, 1) - 0.5).abs() < 1e-12); // atan(1) = π/4
        assert!((t_central_mass(2.0, 2) - 2.0 / 6f64.sqrt()).abs() < 1e-12);
        for df in 1..=400 {
            let mass = t_central_mass(t95(df), df);
            assert!(
                (mass - 0.95).abs() < 2e-5,
                "df {df}: t95 {} holds {mass}",
                t95(df)
            );
            assert!(t95(df) > Z95 && t95(df) <= t95(df.max(2) - 1), "df {df}");
        }
        assert!((t95(100_000) - Z95).abs() < 1e-4);
    }

    #[test]
    fn t_intervals_cover_95_percent_at_five_deals() {
        use rand::{RngExt, SeedableRng};
        // Five deals, each scoring 0, ¼, ½, ¾ or 1 (a four-seating deal's mean) with skewed
        // weights: the share of 20,000 seeded matches whose interval holds the true mean. A
        // 200,000-match simulation of this (outside the tests) gives the match interval (t, with
        // the spread's floor) 0.975 and the plain normal interval (1.96 sample standard errors)
        // 0.891. With a share's standard error of at most 0.0022 at 20,000 matches, the match
        // interval must cover from 0.95 (its promise) to 0.99 (not wide beyond use), and the
        // normal one less than 0.91: each bound is 6 standard errors or more from its side's
        // expected share.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let (scores, weights) = ([0.0, 0.25, 0.5, 0.75, 1.0], [0.1, 0.2, 0.3, 0.25, 0.15]);
        let truth: f64 = scores.iter().zip(weights).map(|(s, w)| s * w).sum();
        let (mut with_t, mut with_z, trials) = (0, 0, 20_000);
        for _ in 0..trials {
            let mut t = Tally::default();
            for _ in 0..5 {
                let mut u: f64 = rng.random();
                let i = weights.iter().position(|&w| {
                    u -= w;
                    u < 0.0
                });
                t.add_deal(scores[i.unwrap_or(scores.len() - 1)]);
            }
            let (lo, hi) = t.interval();
            with_t += usize::from(lo <= truth && truth <= hi);
            let h = Z95 * sample_std_error(t.deals, t.sum, t.sum_sq);
            with_z += usize::from(t.mean() - h <= truth && truth <= t.mean() + h);
        }
        let (t_share, z_share) = (with_t as f64 / trials as f64, with_z as f64 / trials as f64);
        assert!(
            (0.95..=0.99).contains(&t_share),
            "match interval covers {t_share}"
        );
        assert!(z_share < 0.91, "normal interval covers {z_share}");
    }

    #[test]
    fn deal_means_have_the_scores_interval_without_its_clipping() {
        let mut m = DealMeans::default();
        assert_eq!((m.mean(), m.interval()), (0.0, None));
        m.add(10.0);
        assert_eq!((m.mean(), m.interval()), (10.0, None));
        // 10, -2, 4: mean 4, sample variance 36, SE sqrt(12); t with 2 degrees of freedom.
        m.add(-2.0);
        let mut other = DealMeans::default();
        other.add(4.0);
        m.merge(&other);
        let (lo, hi) = m.interval().unwrap();
        let h = 4.3027 * 12f64.sqrt();
        assert!((m.mean() - 4.0).abs() < 1e-12);
        assert!((lo - (4.0 - h)).abs() < 1e-12 && (hi - (4.0 + h)).abs() < 1e-12);
        // Deals that all came out the same give no interval, not one of zero width.
        let mut alike = DealMeans::default();
        for _ in 0..4 {
            alike.add(2.0);
        }
        assert_eq!((alike.mean(), alike.interval()), (2.0, None));
        alike.add(0.1);
        assert!(alike.interval().is_some());
    }

    #[test]
    fn elo_at_the_clamp_is_written_as_a_bound() {
        assert_eq!(EloText(elo_of(1.0)).to_string(), "≥+1000");
        assert_eq!(EloText(elo_of(0.0)).to_string(), "≤-1000");
        assert_eq!(EloText(elo_of(0.75)).to_string(), "+191");
        assert_eq!(format!("{:>7}", EloText(-0.2)), "     +0");
    }

    #[test]
    fn signed_numbers_never_read_minus_zero() {
        let cases = [
            (-0.0, 0, "+0"),
            (0.0, 0, "+0"),
            (-0.3, 0, "+0"),
            (-0.6, 0, "-1"),
            (12.4, 0, "+12"),
            (-0.04, 1, "+0.0"),
            (-0.06, 1, "-0.1"),
            (-0.0004, 3, "+0.000"),
            (-1.5, 3, "-1.500"),
        ];
        for (x, decimals, want) in cases {
            assert_eq!(Signed(x, decimals).to_string(), want, "{x} to {decimals}");
        }
        // An even match's Elo is negative zero.
        assert_eq!(Signed(elo_of(0.5), 0).to_string(), "+0");
        // Widths line up as for any string.
        assert_eq!(format!("[{:>5}]", Signed(-0.2, 0)), "[   +0]");
        assert_eq!(format!("[{:>5}]", Signed(-12.0, 0)), "[  -12]");
    }

    #[test]
    fn elo_round_trips_and_is_symmetric() {
        for e in [-300.0, -50.0, 0.0, 35.0, 400.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-9);
        }
        assert!((elo_of(0.75) + elo_of(0.25)).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.848).abs() < 1e-3);
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        let sprt = Sprt::new(0.0, 20.0);
        // A strong first agent: per-deal means alternate 1 and 0.5 (mean 0.75, Elo +191).
        let mut strong = Tally::default();
        let mut even = Tally::default();
        let mut decided = (None, None);
        for i in 0..2000 {
            strong.add_deal(if i % 2 == 0 { 1.0 } else { 0.5 });
            even.add_deal(if i % 2 == 0 { 1.0 } else { 0.0 });
            if decided.0.is_none() && sprt.decide(&strong) != SprtDecision::Continue {
                decided.0 = Some(sprt.decide(&strong));
            }
            if decided.1.is_none() && sprt.decide(&even) != SprtDecision::Continue {
                decided.1 = Some(sprt.decide(&even));
            }
        }
        assert_eq!(
            decided,
            (Some(SprtDecision::AcceptH1), Some(SprtDecision::AcceptH0))
        );
        // Deals that each split evenly (Sueca's usual deal) are not yet evidence either way:
        // with the bare sample variance (0) the second one accepted H0.
        let mut split = Tally::default();
        for _ in 0..10 {
            split.add_deal(0.5);
            assert_eq!(sprt.decide(&split), SprtDecision::Continue);
        }
        // However lopsided, no decision before the minimum of deals: with a variance estimated
        // from a few deals the test errs more often than α and β say.
        let sure = Sprt::new(0.0, 100.0);
        let mut lopsided = Tally::default();
        let mut past_the_bound_early = false;
        for i in 1..=Sprt::MIN_DEALS {
            lopsided.add_deal(if i % 4 == 0 { 0.5 } else { 1.0 });
            let decision = sure.decide(&lopsided);
            if i < Sprt::MIN_DEALS {
                assert_eq!(decision, SprtDecision::Continue, "deal {i}");
                past_the_bound_early |= sure.llr(&lopsided) > sure.bounds().1;
            } else {
                assert_eq!(decision, SprtDecision::AcceptH1);
            }
        }
        assert!(
            past_the_bound_early,
            "the ratio alone would have stopped sooner"
        );
        assert!("5,1".parse::<Sprt>().is_err());
        assert!("x".parse::<Sprt>().is_err());
    }
}
