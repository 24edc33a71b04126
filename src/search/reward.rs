//! Reward functions: what the end of a playout is worth to each seat, the quantity a search
//! maximises. The thesis compares several (chapter 6); `mix` is the hybrid it proposes in 6.4.
//!
//! Ranges matter because the UCB constant `c` is tuned for one: `pwl`, `sd` and `mix` lie in
//! 0…1, the range the default `c = 0.7` is for; `wl` lies in −1…1, twice as wide, so the same `c`
//! explores half as much there (`wl` with `c = 1.4` searches exactly as `pwl` with `c = 0.7`).

use std::fmt;

use crate::game::{Game, MAX_SEATS};

use super::rollout::Rewards;

/// The largest magnitude of [`Game::match_units`] (a bandeira in Sueca and Bisca).
pub const MAX_MATCH_UNITS: f64 = 4.0;

/// A reward function (`reward=` in agent specs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RewardFn {
    /// `pwl`: positive win or loss — 1 a win, 0.5 a tie, 0 a loss ([`Game::reward`]).
    PositiveWinLoss,
    /// `wl`: win or loss — 1, 0, −1.
    WinLoss,
    /// `sd`: scores difference — the team's match units where the game has them (Sueca, Bisca:
    /// ±1, ±2, ±4), else the score margin ([`Game::margin`]: Hearts' point difference), mapped
    /// from −1…1 to 0…1.
    ScoreDifference,
    /// `mix:w=W`: `(1 − W)·pwl + W·margin`, the margin mapped to 0…1: win first, then by how
    /// much. Where a win's margin is always positive and a loss's negative (Sueca, Bisca, Tricks),
    /// every W below 1 keeps every win above every loss; in Hearts a loser can have a positive
    /// margin (others took more), so a large W can prefer a good loss to a narrow win.
    Mix {
        /// Weight of the score margin, 0…1.
        weight: f64,
    },
    /// `rank`: the share of the other sides finished ahead of, ties half ([`Game::placing`]):
    /// `pwl` itself where there are two sides; in Hearts, how many of the three others took
    /// more points, a denser signal than first place alone and, unlike the margin, one that
    /// never prefers a worse place for a better count.
    Rank,
}

impl RewardFn {
    /// The names `reward=` accepts, for help texts.
    pub const NAMES: &'static str = "pwl, wl, sd, rank or mix:w=W (0 <= W <= 1)";

    /// Parses `pwl`, `wl`, `sd`, `rank` or `mix:w=W`.
    pub fn parse(text: &str) -> Result<RewardFn, String> {
        match text {
            "pwl" => Ok(RewardFn::PositiveWinLoss),
            "wl" => Ok(RewardFn::WinLoss),
            "sd" => Ok(RewardFn::ScoreDifference),
            "rank" => Ok(RewardFn::Rank),
            _ => {
                let weight = text
                    .strip_prefix("mix:w=")
                    .ok_or_else(|| format!("reward={text} is not one of {}", Self::NAMES))?;
                let weight: f64 = weight
                    .parse()
                    .map_err(|_| format!("reward={text}: w={weight} is not a number"))?;
                if !(0.0..=1.0).contains(&weight) {
                    return Err(format!("reward={text}: w must be from 0 to 1"));
                }
                Ok(RewardFn::Mix { weight })
            }
        }
    }

    /// Every seat's reward at the terminal `state` (entries past `num_seats` are 0).
    #[inline]
    pub fn rewards<G: Game>(self, state: &G) -> Rewards {
        if matches!(self, RewardFn::PositiveWinLoss) {
            return state.rewards();
        }
        let mut r = [0.0; MAX_SEATS];
        for (seat, slot) in r.iter_mut().enumerate().take(state.num_seats()) {
            *slot = self.reward(state, seat);
        }
        r
    }

    /// One seat's reward at the terminal `state`.
    #[inline]
    pub fn reward<G: Game>(self, state: &G, seat: usize) -> f64 {
        let unit = |x: f64| 0.5 * (x + 1.0);
        match self {
            RewardFn::PositiveWinLoss => state.reward(seat),
            RewardFn::WinLoss => 2.0 * state.reward(seat) - 1.0,
            RewardFn::ScoreDifference => unit(match state.match_units(seat) {
                Some(units) => units / MAX_MATCH_UNITS,
                None => state.margin(seat),
            }),
            RewardFn::Mix { weight } => {
                (1.0 - weight) * state.reward(seat) + weight * unit(state.margin(seat))
            }
            RewardFn::Rank => state.placing(seat),
        }
    }

    /// A reward of this function mapped to 0…1 (only `wl` needs it), for statistics that
    /// assume that range: NAST's means, compared with its unseen value 1.
    #[inline]
    pub fn to_unit(self, reward: f64) -> f64 {
        match self {
            RewardFn::WinLoss => 0.5 * (reward + 1.0),
            _ => reward,
        }
    }
}

impl fmt::Display for RewardFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RewardFn::PositiveWinLoss => f.write_str("pwl"),
            RewardFn::WinLoss => f.write_str("wl"),
            RewardFn::ScoreDifference => f.write_str("sd"),
            RewardFn::Mix { weight } => write!(f, "mix:w={weight}"),
            RewardFn::Rank => f.write_str("rank"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;
    use crate::games::{GameDef, Hearts, Sueca};

    #[test]
    fn names_round_trip_and_bad_ones_are_named() {
        for text in ["pwl", "wl", "sd", "rank", "mix:w=0.25"] {
            assert_eq!(RewardFn::parse(text).unwrap().to_string(), text);
        }
        for (text, needle) in [
            ("win", "reward=win"),
            ("mix:w=2", "from 0 to 1"),
            ("mix:w=x", "w=x"),
            ("mix", "reward=mix"),
        ] {
            let e = RewardFn::parse(text).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    /// Over random Sueca and Hearts games: every reward stays in its documented range, win
    /// or loss is pwl rescaled, partners get the same reward, and `mix` orders results win
    /// first (any win above any loss) and by margin within the same result.
    #[test]
    fn rewards_keep_their_ranges_and_orders() {
        let mut rng = rng_from_seed(3);
        let mix = RewardFn::Mix { weight: 0.4 };
        let mut mixed = Vec::new();
        for _ in 0..300 {
            let mut g = Sueca::new_game(&Default::default(), &mut rng);
            g.random_playout(&mut rng);
            for seat in 0..4 {
                let pwl = RewardFn::PositiveWinLoss.reward(&g, seat);
                assert_eq!(RewardFn::WinLoss.reward(&g, seat), 2.0 * pwl - 1.0);
                assert_eq!(
                    RewardFn::Rank.reward(&g, seat),
                    pwl,
                    "two sides: rank is pwl"
                );
                for f in [RewardFn::ScoreDifference, mix] {
                    let r = f.reward(&g, seat);
                    assert!((0.0..=1.0).contains(&r), "{f} {r}");
                    assert_eq!(r, f.reward(&g, seat ^ 2), "partners differ under {f}");
                }
                let sd = RewardFn::ScoreDifference.reward(&g, seat);
                assert_eq!(sd > 0.5, pwl == 1.0, "sd and the result disagree");
                mixed.push((pwl, g.margin(seat), mix.reward(&g, seat)));
            }
            let mut h = Hearts::new_game(&Default::default(), &mut rng);
            h.random_playout(&mut rng);
            for seat in 0..4 {
                let r = RewardFn::ScoreDifference.reward(&h, seat);
                assert!((0.0..=1.0).contains(&r), "hearts sd {r}");
                // A seat sharing first place beat every other seat or tied with it.
                let rank = RewardFn::Rank.reward(&h, seat);
                assert!((0.0..=1.0).contains(&rank), "hearts rank {rank}");
                if h.reward(seat) > 0.0 {
                    assert!(rank >= 0.5, "a winner placed {rank}");
                }
            }
            // Each of the six pairs of seats hands out one beaten seat (halves on a tie), in thirds.
            let total: f64 = (0..4).map(|s| RewardFn::Rank.reward(&h, s)).sum();
            assert!((total - 2.0).abs() < 1e-12, "placings sum to {total}");
        }
        for a in &mixed {
            for b in &mixed {
                if a.0 > b.0 {
                    assert!(a.2 > b.2, "a better result must be worth more: {a:?} {b:?}");
                } else if a.0 == b.0 && a.1 > b.1 {
                    assert!(a.2 > b.2, "a bigger margin must be worth more: {a:?} {b:?}");
                }
            }
        }
    }
}
