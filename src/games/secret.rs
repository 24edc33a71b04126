//! Secret: a two-seat toy with a hidden move, where single-observer ISMCTS is fooled and
//! multiple-observer ISMCTS is not (issue 13; the note "ISMCTS and the Hidden Hand" ends with
//! MO-ISMCTS as the next step).
//!
//! # Rules
//!
//! At the deal a fair coin is tossed that nobody sees, not even at the end: heads, the room is
//! lit; tails, it is dark.
//!
//! 1. Seat 0 plays `safe` or `hide`, which both seats see. After `safe` the game is over: seat 0
//!    scores 0.65 and seat 1 0.35.
//! 2. After `hide`, seat 0 hides a pebble in its `left` or `right` hand. Seat 1 does not see
//!    which.
//! 3. Seat 1 points at a hand, `seek-left` or `seek-right`. It finds the pebble if it points at
//!    the right hand and the room is lit: then seat 1 scores 1 and seat 0 nothing; otherwise seat
//!    0 scores 1 and seat 1 nothing.
//!
//! The game is constant-sum (the two scores add up to 1); a score is also the seat's reward.
//!
//! # The optimal strategy
//!
//! After `hide`, seat 0 hiding each way with probability 1/2 is found with probability
//! 1/2 · 1/2 = 1/4 whatever seat 1 does, and seat 1 pointing each way with probability 1/2 finds
//! it with probability 1/4 whatever seat 0 does: `hide` is worth 3/4 to seat 0, more than the
//! 0.65 of `safe`. **Seat 0's optimal first move is `hide`** (then either hand with equal
//! probability; seat 1 then points either way). A seat 1 that saw the hand would find the pebble
//! whenever the room is lit, and `hide` would be worth only 1/2, less than `safe`.
//!
//! A search that models seat 1 as seeing the hand, as single-observer ISMCTS does from seat 0's
//! seat (seat 1's decisions sit below seat 0's `left` and `right` in seat 0's one tree), values
//! `hide` near 1/2 and plays `safe`. MO-ISMCTS gives seat 1 a tree in which the hiding move is
//! one unseen step, so seat 1 must point without knowing. (The dark room is there for the
//! search's sake as much as the game's: without a chance element, two UCB learners, the hider
//! and the seeker, both deterministic once their children exist, can fall into step, the seeker
//! pointing at the hand the hider is about to pick every time; random rewards keep them apart.)
//!
//! Deal notation: the hidden coin, `H` (lit) or `T` (dark).

use std::fmt;

use crate::cards::CardSet;
use crate::game::{
    DealError, DealSampler, Game, HiddenInfo, IndexedMove, InfoSet, MoveBits, MoveSet, Rng, Seat,
};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;

/// What seat 0 scores with `safe`.
pub const SAFE: f64 = 0.65;

/// A move of Secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecretMove {
    /// Seat 0 takes the sure 0.65.
    Safe,
    /// Seat 0 goes on to hide the pebble.
    Hide,
    /// Seat 0 hides the pebble in its left hand (unseen by seat 1).
    Left,
    /// Seat 0 hides the pebble in its right hand (unseen by seat 1).
    Right,
    /// Seat 1 points at the left hand.
    SeekLeft,
    /// Seat 1 points at the right hand.
    SeekRight,
}

impl SecretMove {
    const ALL: [SecretMove; 6] = [
        SecretMove::Safe,
        SecretMove::Hide,
        SecretMove::Left,
        SecretMove::Right,
        SecretMove::SeekLeft,
        SecretMove::SeekRight,
    ];

    fn name(self) -> &'static str {
        match self {
            SecretMove::Safe => "safe",
            SecretMove::Hide => "hide",
            SecretMove::Left => "left",
            SecretMove::Right => "right",
            SecretMove::SeekLeft => "seek-left",
            SecretMove::SeekRight => "seek-right",
        }
    }
}

impl IndexedMove for SecretMove {
    fn index(self) -> u32 {
        self as u32
    }

    fn from_index(index: u32) -> SecretMove {
        SecretMove::ALL[index as usize]
    }
}

impl fmt::Display for SecretMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Secret position: the hidden coin and the moves so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Secret {
    /// The room is lit (the coin shows heads).
    lit: bool,
    first: Option<SecretMove>,
    hand: Option<SecretMove>,
    seek: Option<SecretMove>,
}

impl Secret {
    /// The start of the game, the room lit or dark.
    pub fn new(lit: bool) -> Secret {
        Secret {
            lit,
            ..Secret::default()
        }
    }
}

impl Game for Secret {
    type Move = SecretMove;
    type Moves = MoveBits<SecretMove>;

    fn num_seats(&self) -> usize {
        2
    }

    fn current_seat(&self) -> Seat {
        usize::from(self.hand.is_some())
    }

    fn legal_moves(&self) -> Self::Moves {
        use SecretMove::*;
        match (self.first, self.hand, self.seek) {
            (None, ..) => MoveBits::of(&[Safe, Hide]),
            (Some(Hide), None, _) => MoveBits::of(&[Left, Right]),
            (Some(Hide), Some(_), None) => MoveBits::of(&[SeekLeft, SeekRight]),
            _ => MoveBits::of(&[]),
        }
    }

    fn play(&mut self, mv: SecretMove) {
        debug_assert!(self.legal_moves().contains(mv), "illegal {mv}");
        match (self.first, self.hand) {
            (None, _) => self.first = Some(mv),
            (Some(_), None) => self.hand = Some(mv),
            _ => self.seek = Some(mv),
        }
    }

    fn is_terminal(&self) -> bool {
        self.first == Some(SecretMove::Safe) || self.seek.is_some()
    }

    fn reward(&self, seat: Seat) -> f64 {
        let seat0 = match (self.first, self.hand, self.seek) {
            (Some(SecretMove::Safe), ..) => SAFE,
            (_, Some(hand), Some(seek)) => {
                let found =
                    self.lit && (hand == SecretMove::Left) == (seek == SecretMove::SeekLeft);
                if found { 0.0 } else { 1.0 }
            }
            _ => 0.5,
        };
        if seat == 0 { seat0 } else { 1.0 - seat0 }
    }

    fn score(&self, seat: Seat) -> f64 {
        self.reward(seat)
    }

    fn parse_move(&self, text: &str) -> Result<SecretMove, String> {
        SecretMove::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| {
                format!(
                    "'{text}' is not a Secret move (safe, hide, left, right, seek-left, seek-right)"
                )
            })
    }

    /// The hiding move is seen by seat 0 alone.
    fn next_move_seen_by(&self, seat: Seat) -> bool {
        !(self.first == Some(SecretMove::Hide) && self.hand.is_none()) || seat == 0
    }
}

/// What a seat knows: every move but, for seat 1, the hand the pebble is in; nobody knows the
/// coin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretInfo {
    observer: Seat,
    /// The game as the observer knows it, with placeholders where it does not: the room dark,
    /// and the hand `left` when `hidden` (the sampler draws both).
    known: Secret,
    /// True when the pebble is hidden and the observer did not see where.
    hidden: bool,
}

/// Draws the coin, and the hand the pebble is in where the observer did not see it,
/// uniformly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretSampler(SecretInfo);

impl DealSampler<Secret> for SecretSampler {
    fn sample(&self, rng: &mut Rng) -> Secret {
        let bits = rand::Rng::next_u32(rng);
        let mut state = self.0.known;
        state.lit = bits & 1 == 1;
        if self.0.hidden {
            state.hand = Some(if bits & 2 == 0 {
                SecretMove::Left
            } else {
                SecretMove::Right
            });
        }
        state
    }

    fn count(&self) -> u128 {
        if self.0.hidden { 4 } else { 2 }
    }

    fn for_each_state(&self, f: &mut dyn FnMut(Secret)) -> bool {
        let hands: &[Option<SecretMove>] = if self.0.hidden {
            &[Some(SecretMove::Left), Some(SecretMove::Right)]
        } else {
            &[self.0.known.hand]
        };
        for lit in [false, true] {
            for &hand in hands {
                f(Secret {
                    lit,
                    hand,
                    ..self.0.known
                });
            }
        }
        true
    }
}

impl InfoSet<Secret> for SecretInfo {
    type Sampler = SecretSampler;

    fn observer(&self) -> Seat {
        self.observer
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn seat_to_move(&self) -> Option<Seat> {
        (!self.is_terminal()).then(|| self.known.current_seat())
    }

    fn is_terminal(&self) -> bool {
        // Which hand the coin is in does not decide when the game ends.
        self.known.is_terminal()
    }

    fn legal_moves(&self) -> MoveBits<SecretMove> {
        self.known.legal_moves()
    }

    fn sampler(&self) -> Result<SecretSampler, DealError> {
        Ok(SecretSampler(*self))
    }

    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<SecretMove>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        crate::game::check_mover(self.seat_to_move(), seat)?;
        if self.is_terminal() {
            return bad("the game is over".into());
        }
        if hand_after.is_some() {
            return bad("Secret has no cards".into());
        }
        let seen = self.known.next_move_seen_by(self.observer);
        // The coin does not decide which moves are legal or when the game ends.
        match mv {
            None if seen => bad(format!(
                "seat {} sees this move: say which it was",
                self.observer
            )),
            None => {
                // Any hand will do for the legal moves that follow; `hidden` marks it unknown.
                self.known.play(SecretMove::Left);
                self.hidden = true;
                Ok(())
            }
            Some(m) if !seen => bad(format!(
                "seat {} cannot see which hand the pebble is in (send it unseen, not {m})",
                self.observer
            )),
            Some(m) if !self.known.legal_moves().contains(m) => {
                bad(format!("{m} is not legal for seat {seat} here"))
            }
            Some(m) => {
                self.known.play(m);
                Ok(())
            }
        }
    }
}

impl HiddenInfo for Secret {
    type InfoSet = SecretInfo;

    fn info_set(&self, observer: Seat) -> SecretInfo {
        let hidden = observer != 0 && self.hand.is_some();
        let mut known = Secret {
            lit: false,
            ..*self
        };
        if hidden {
            known.hand = Some(SecretMove::Left);
        }
        SecretInfo {
            observer,
            known,
            hidden,
        }
    }

    /// The legal moves depend on public moves only.
    fn possible_moves(&self, _observer: Seat) -> MoveBits<SecretMove> {
        self.legal_moves()
    }
}

impl GameDef for Secret {
    const NAME: &'static str = "secret";
    const ABOUT: &'static str = "2 players: seat 0 takes a sure 0.65 or hides a pebble in a hand \
                                 seat 1 must guess (the hidden-move test of MO-ISMCTS)";
    const OPTIONS: &'static [OptionDoc] = &[];
    type Config = ();

    fn config(_spec: &Spec) -> Result<(), SpecError> {
        Ok(())
    }

    fn new_game(_config: &(), rng: &mut Rng) -> Secret {
        Secret::new(rand::Rng::next_u32(rng) & 1 == 1)
    }

    fn from_deal(_config: &(), deal: &str) -> Result<Secret, DealError> {
        match deal.trim() {
            "H" => Ok(Secret::new(true)),
            "T" => Ok(Secret::new(false)),
            other => Err(DealError::Invalid(format!(
                "a Secret deal is the hidden coin, H (lit) or T (dark), not '{other}'"
            ))),
        }
    }

    fn deal_text(&self) -> String {
        (if self.lit { "H" } else { "T" }).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;

    fn play(moves: &[SecretMove]) -> Secret {
        let mut g = Secret::new(true);
        for &m in moves {
            g.play(m);
        }
        g
    }

    #[test]
    fn rewards_follow_the_rules() {
        use SecretMove::*;
        let g = play(&[Safe]);
        assert!(g.is_terminal());
        assert_eq!((g.reward(0), g.reward(1)), (SAFE, 1.0 - SAFE));
        let mut dark = play(&[Hide, Left]);
        dark.lit = false;
        dark.play(SeekLeft);
        assert_eq!(
            dark.reward(0),
            1.0,
            "in the dark the right hand still misses"
        );
        for (hand, seek, seat0) in [
            (Left, SeekLeft, 0.0),
            (Left, SeekRight, 1.0),
            (Right, SeekLeft, 1.0),
            (Right, SeekRight, 0.0),
        ] {
            let g = play(&[Hide, hand]);
            assert_eq!(g.current_seat(), 1);
            assert!(!g.is_terminal());
            let g = play(&[Hide, hand, seek]);
            assert!(g.is_terminal());
            assert_eq!((g.reward(0), g.reward(1)), (seat0, 1.0 - seat0));
        }
    }

    #[test]
    fn seat_1_never_learns_the_hand() {
        use SecretMove::*;
        let (left, right) = (play(&[Hide, Left]), play(&[Hide, Right]));
        assert!(!play(&[Hide]).next_move_seen_by(1));
        assert!(play(&[Hide]).next_move_seen_by(0));
        assert_eq!(left.info_set(1), right.info_set(1));
        assert_ne!(left.info_set(0), right.info_set(0));
        let mut dark_left = left;
        dark_left.lit = false;
        assert_eq!(
            left.info_set(0),
            dark_left.info_set(0),
            "nobody sees the coin"
        );
        let sampler = left.info_set(1).sampler().unwrap();
        assert_eq!(sampler.count(), 4);
        let mut listed = Vec::new();
        assert!(sampler.for_each_state(&mut |s| listed.push(s)));
        assert_eq!(listed.len(), 4);
        let mut rng = rng_from_seed(1);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..4000 {
            *seen.entry(sampler.sample(&mut rng)).or_insert(0) += 1;
        }
        // Each of the 4 states ~ Binomial(4000, 1/4): sd ≈ 27; 5 sd either side.
        assert_eq!(seen.len(), 4);
        assert!(
            seen.values().all(|&n| (863..=1137).contains(&n)),
            "{seen:?}"
        );
        // Following seat 1 move by move gives the same information set.
        let mut info = Secret::new(true).info_set(1);
        info.observe(0, Some(Hide), None).unwrap();
        assert!(info.observe(0, Some(Left), None).is_err());
        info.observe(0, None, None).unwrap();
        assert_eq!(info, left.info_set(1));
        assert!(info.observe(0, Some(SeekLeft), None).is_err());
    }

    #[test]
    fn moves_and_deals_parse_and_reject_clearly() {
        let g = Secret::new(false);
        assert_eq!(g.parse_move("hide"), Ok(SecretMove::Hide));
        assert!(g.parse_move("peek").unwrap_err().contains("'peek'"));
        assert_eq!(Secret::from_deal(&(), "H").unwrap().deal_text(), "H");
        assert_eq!(Secret::from_deal(&(), "T").unwrap(), g);
        assert!(Secret::from_deal(&(), "AS").is_err());
    }
}
