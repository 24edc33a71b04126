//! Fair seating: which agent sits in which seat for each game of a deal.
//!
//! Every deal is played once per seating, with the same cards (common random numbers), so the
//! luck of the deal cancels:
//! - 1 seat (CoinGuess): each agent plays the deal alone.
//! - 2 seats (Tricks, Bisca): the deal twice, seats swapped.
//! - 4 seats in two partnerships (Sueca): the deal twice, teams swapped.
//! - 4 individual seats (Hearts): line-up `2v2` (default) plays all 6 ways of seating two copies
//!   of each agent, so each agent sits in every seat 3 times per deal and meets every
//!   neighbour pattern; line-up `1v3` plays the 4 rotations of one first agent against three
//!   second agents, so the first agent meets the deal from every seat.

/// Which side of the match sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The first agent (`--a`).
    A,
    /// The second agent (`--b`).
    B,
}

/// How agents share the seats of a 4-seat individual game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lineup {
    /// Two seats each, every arrangement.
    #[default]
    TwoVsTwo,
    /// One first agent against three second agents, rotated.
    OneVsThree,
}

impl std::str::FromStr for Lineup {
    type Err = String;
    fn from_str(s: &str) -> Result<Lineup, String> {
        match s {
            "2v2" => Ok(Lineup::TwoVsTwo),
            "1v3" => Ok(Lineup::OneVsThree),
            _ => Err(format!("unknown line-up '{s}': expected 2v2 or 1v3")),
        }
    }
}

/// The seatings of one deal for a game with `num_seats` seats; `partners` is true when seats
/// 0 and 2 form a team against 1 and 3.
pub fn seatings(num_seats: usize, partners: bool, lineup: Lineup) -> Vec<Vec<Side>> {
    use Side::{A, B};
    match (num_seats, partners, lineup) {
        (1, _, _) => vec![vec![A], vec![B]],
        (2, _, _) => vec![vec![A, B], vec![B, A]],
        (4, true, _) => vec![vec![A, B, A, B], vec![B, A, B, A]],
        (4, false, Lineup::OneVsThree) => (0..4)
            .map(|s| (0..4).map(|i| if i == s { A } else { B }).collect())
            .collect(),
        (n, _, _) => {
            // Every way to choose half the seats for A (2v2 for four seats).
            let mut out = Vec::new();
            for mask in 0u32..(1 << n) {
                if mask.count_ones() as usize * 2 == n {
                    out.push(
                        (0..n)
                            .map(|i| if mask >> i & 1 == 1 { A } else { B })
                            .collect(),
                    );
                }
            }
            out
        }
    }
}

/// Describes the scheme in words, for `--help` and reports.
pub fn describe(num_seats: usize, partners: bool, lineup: Lineup) -> &'static str {
    match (num_seats, partners, lineup) {
        (1, _, _) => "each agent plays every deal alone",
        (2, _, _) => "every deal twice, seats swapped",
        (4, true, _) => "every deal twice, partnerships swapped",
        (4, false, Lineup::OneVsThree) => {
            "every deal 4 times, A rotated through the seats against 3 B"
        }
        _ => "every deal 6 times: every arrangement of 2 A and 2 B",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat_counts(s: &[Vec<Side>]) -> Vec<(usize, usize)> {
        let n = s[0].len();
        (0..n)
            .map(|i| {
                let a = s.iter().filter(|x| x[i] == Side::A).count();
                (a, s.len() - a)
            })
            .collect()
    }

    #[test]
    fn each_agent_sits_in_each_seat_equally_often() {
        for (n, partners, lineup) in [
            (1, false, Lineup::TwoVsTwo),
            (2, false, Lineup::TwoVsTwo),
            (4, true, Lineup::TwoVsTwo),
            (4, false, Lineup::TwoVsTwo),
        ] {
            let s = seatings(n, partners, lineup);
            for (a, b) in seat_counts(&s) {
                assert_eq!(a, b, "{n} seats, partners {partners}, {lineup:?}");
            }
        }
        let s = seatings(4, false, Lineup::TwoVsTwo);
        assert_eq!(s.len(), 6);
        // 1v3: A sits in every seat exactly once.
        let s = seatings(4, false, Lineup::OneVsThree);
        assert_eq!(seat_counts(&s), vec![(1, 3); 4]);
        // Partnerships never split a team between agents.
        for s in seatings(4, true, Lineup::TwoVsTwo) {
            assert_eq!(s[0], s[2]);
            assert_eq!(s[1], s[3]);
            assert_ne!(s[0], s[1]);
        }
    }
}
