//! CoinGuess: the one-player strategy-fusion test of the note "ISMCTS and the Hidden Hand".
//!
//! Move 1: `safe` (reward 0.6, game over) or `gamble`. After `gamble`, guess `H` or `T` about a
//! hidden fair coin: right 1, wrong 0. The gamble is worth 0.5 to anyone who cannot see the coin,
//! so `safe` is correct; a searcher that gambles is fusing strategies across worlds.
//!
//! Deal notation: the coin, `H` or `T`.

use std::fmt;

use crate::game::{
    DealError, DealSampler, Game, HiddenInfo, IndexedMove, InfoSet, MoveBits, MoveSet, Rng, Seat,
};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;

/// A CoinGuess move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoinMove {
    /// Take the sure 0.6.
    Safe,
    /// Go on to guess the coin.
    Gamble,
    /// Guess heads.
    GuessHeads,
    /// Guess tails.
    GuessTails,
}

impl IndexedMove for CoinMove {
    fn index(self) -> u32 {
        self as u32
    }

    fn from_index(index: u32) -> CoinMove {
        [
            CoinMove::Safe,
            CoinMove::Gamble,
            CoinMove::GuessHeads,
            CoinMove::GuessTails,
        ][index as usize]
    }
}

impl fmt::Display for CoinMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CoinMove::Safe => "safe",
            CoinMove::Gamble => "gamble",
            CoinMove::GuessHeads => "H",
            CoinMove::GuessTails => "T",
        })
    }
}

/// A CoinGuess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinGuess {
    heads: bool,
    first: Option<CoinMove>,
    guess: Option<CoinMove>,
}

impl CoinGuess {
    /// A fresh game with the coin showing heads (`true`) or tails.
    pub fn new(heads: bool) -> CoinGuess {
        CoinGuess {
            heads,
            first: None,
            guess: None,
        }
    }
}

impl Game for CoinGuess {
    type Move = CoinMove;
    type Moves = MoveBits<CoinMove>;

    fn num_seats(&self) -> usize {
        1
    }

    fn current_seat(&self) -> Seat {
        0
    }

    fn legal_moves(&self) -> Self::Moves {
        match (self.first, self.guess) {
            (None, _) => MoveBits::of(&[CoinMove::Safe, CoinMove::Gamble]),
            (Some(CoinMove::Gamble), None) => {
                MoveBits::of(&[CoinMove::GuessHeads, CoinMove::GuessTails])
            }
            _ => MoveBits::of(&[]),
        }
    }

    fn play(&mut self, mv: CoinMove) {
        debug_assert!(self.legal_moves().contains(mv), "illegal {mv}");
        if self.first.is_none() {
            self.first = Some(mv);
        } else {
            self.guess = Some(mv);
        }
    }

    fn is_terminal(&self) -> bool {
        self.first == Some(CoinMove::Safe) || self.guess.is_some()
    }

    fn reward(&self, _seat: Seat) -> f64 {
        match (self.first, self.guess) {
            (Some(CoinMove::Safe), _) => 0.6,
            (_, Some(g)) if (g == CoinMove::GuessHeads) == self.heads => 1.0,
            _ => 0.0,
        }
    }

    fn score(&self, seat: Seat) -> f64 {
        self.reward(seat)
    }

    fn parse_move(&self, text: &str) -> Result<CoinMove, String> {
        match text {
            "safe" => Ok(CoinMove::Safe),
            "gamble" => Ok(CoinMove::Gamble),
            "H" => Ok(CoinMove::GuessHeads),
            "T" => Ok(CoinMove::GuessTails),
            _ => Err(format!(
                "'{text}' is not a CoinGuess move (safe, gamble, H, T)"
            )),
        }
    }
}

/// What the player knows: its own moves. The coin stays hidden, even after a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinInfo {
    first: Option<CoinMove>,
    guess: Option<CoinMove>,
}

impl CoinInfo {
    /// The game as the player knows it, with the coin showing `heads`.
    fn with_coin(self, heads: bool) -> CoinGuess {
        CoinGuess {
            heads,
            first: self.first,
            guess: self.guess,
        }
    }
}

/// Flips the hidden coin: both sides are consistent with what the player knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinSampler(CoinInfo);

impl DealSampler<CoinGuess> for CoinSampler {
    fn sample(&self, rng: &mut Rng) -> CoinGuess {
        self.0.with_coin(rand::Rng::next_u32(rng) & 1 == 1)
    }

    fn count(&self) -> u128 {
        2
    }

    fn for_each_state(&self, f: &mut dyn FnMut(CoinGuess)) -> bool {
        f(self.0.with_coin(false));
        f(self.0.with_coin(true));
        true
    }
}

impl InfoSet<CoinGuess> for CoinInfo {
    type Sampler = CoinSampler;

    fn observer(&self) -> Seat {
        0
    }

    fn num_seats(&self) -> usize {
        1
    }

    fn seat_to_move(&self) -> Option<Seat> {
        (!self.is_terminal()).then_some(0)
    }

    fn is_terminal(&self) -> bool {
        // The coin does not decide when the game ends.
        self.with_coin(true).is_terminal()
    }

    fn legal_moves(&self) -> MoveBits<CoinMove> {
        self.with_coin(true).legal_moves()
    }

    fn sampler(&self) -> Result<CoinSampler, DealError> {
        Ok(CoinSampler(*self))
    }

    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<CoinMove>,
        hand_after: Option<crate::cards::CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        if seat != 0 || self.is_terminal() {
            return bad(format!("seat {seat} is not to move"));
        }
        if hand_after.is_some() {
            return bad("CoinGuess has no hands".into());
        }
        let Some(mv) = mv.filter(|&m| self.legal_moves().contains(m)) else {
            return bad(format!("{mv:?} is not a legal move here"));
        };
        let mut game = self.with_coin(true);
        game.play(mv);
        (self.first, self.guess) = (game.first, game.guess);
        Ok(())
    }
}

impl HiddenInfo for CoinGuess {
    type InfoSet = CoinInfo;

    fn info_set(&self, _observer: Seat) -> CoinInfo {
        CoinInfo {
            first: self.first,
            guess: self.guess,
        }
    }

    /// The moves do not depend on the coin.
    fn possible_moves(&self, _observer: Seat) -> MoveBits<CoinMove> {
        self.legal_moves()
    }
}

impl GameDef for CoinGuess {
    const NAME: &'static str = "coinguess";
    const ABOUT: &'static str =
        "1 player: take a sure 0.6, or gamble and guess a hidden coin (the strategy-fusion test)";
    const OPTIONS: &'static [OptionDoc] = &[];
    type Config = ();

    fn config(_spec: &Spec) -> Result<(), SpecError> {
        Ok(())
    }

    fn new_game(_config: &(), rng: &mut Rng) -> CoinGuess {
        CoinGuess::new(rand::Rng::next_u32(rng) & 1 == 1)
    }

    fn from_deal(_config: &(), deal: &str) -> Result<CoinGuess, DealError> {
        match deal.trim() {
            "H" => Ok(CoinGuess::new(true)),
            "T" => Ok(CoinGuess::new(false)),
            other => Err(DealError::Invalid(format!(
                "a CoinGuess deal is the coin, H or T, not '{other}'"
            ))),
        }
    }

    fn deal_text(&self) -> String {
        (if self.heads { "H" } else { "T" }).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_follow_the_note() {
        let mut g = CoinGuess::new(true);
        g.play(CoinMove::Safe);
        assert!(g.is_terminal());
        assert_eq!(g.reward(0), 0.6);
        for (guess, r) in [(CoinMove::GuessHeads, 1.0), (CoinMove::GuessTails, 0.0)] {
            let mut g = CoinGuess::new(true);
            g.play(CoinMove::Gamble);
            assert!(!g.is_terminal());
            g.play(guess);
            assert!(g.is_terminal());
            assert_eq!(g.reward(0), r);
        }
    }
}
