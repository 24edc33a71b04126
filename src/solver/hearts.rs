//! Hearts' perfect-information model, paranoid: the root seat minimises its final penalty
//! points (moon included) and the other three together maximise them. The value is minus the
//! penalty, so that the root maximises it like every other game's.
//!
//! The moon makes the points still to come depend on who has taken points so far, so the key
//! carries a *moon state*: nobody yet, only seat `s`, or several seats (then nobody can shoot
//! and points simply add up).

use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};
use crate::games::Hearts;
use crate::games::hearts::{SEATS, TOTAL_POINTS, points_in};

use super::order::HeartsOrder;
use super::{Solvable, SolveError, moves_are_cards, with_flags};

/// 0: nobody has taken points; `1 + s`: only seat `s` has; 5: several seats have.
#[inline]
fn moon_state(g: &Hearts) -> u32 {
    let mut state = 0;
    for s in 0..SEATS {
        if g.points_taken(s) > 0 {
            state = if state == 0 { 1 + s as u32 } else { 5 };
        }
    }
    state
}

/// Every card still in a hand.
#[inline]
fn held(g: &Hearts) -> CardSet {
    g.hand(0) | g.hand(1) | g.hand(2) | g.hand(3)
}

impl Solvable for Hearts {
    type Order = HeartsOrder;
    const MARGIN_NAME: &'static str = "penalty";
    const THESIS_CARDS: Option<u32> = Some(13);

    fn check_solvable(&self) -> Result<(), SolveError> {
        if self.is_passing() {
            return Err(SolveError::Unsupported(
                "Hearts is still in its passing phase".into(),
            ));
        }
        Ok(())
    }
    #[inline]
    fn cards_left(&self) -> usize {
        held(self).len()
    }
    moves_are_cards!();
    #[inline]
    fn in_play(&self) -> CardSet {
        held(self) | self.current_trick()
    }
    #[inline]
    fn final_value(&self, root: Seat) -> i32 {
        -(self.final_scores()[root] as i32)
    }
    #[inline]
    fn banked(&self, root: Seat) -> i32 {
        -(self.points_taken(root) as i32)
    }
    #[inline]
    fn bounds(&self, root: Seat) -> (i32, i32) {
        if moon_state(self) == 5 {
            // Nobody can shoot: the root keeps what it has and may take what is left.
            let banked = self.banked(root);
            (banked - points_in(self.in_play()) as i32, banked)
        } else {
            (-(TOTAL_POINTS as i32), 0)
        }
    }
    #[inline]
    fn key(&self) -> [u64; 2] {
        [
            with_flags(
                held(self),
                self.current_seat() as u32 | moon_state(self) << 2,
            ),
            self.current_trick().0,
        ]
    }
    #[inline]
    fn trick_best(&self) -> Option<(Card, Seat)> {
        let trick = self.current_trick();
        if trick.is_empty() {
            return None;
        }
        let leader = (self.current_seat() + SEATS - trick.len()) % SEATS;
        let lead = (trick & self.played(leader)).first()?;
        let best = trick.of_suit(lead.suit()).last()?;
        let seat = (0..SEATS).find(|&s| self.played(s).contains(best))?;
        Some((best, seat))
    }
    #[inline]
    fn trick_cards(&self) -> CardSet {
        self.current_trick()
    }
    #[inline]
    fn beats(&self, card: Card, best: Card) -> bool {
        card.suit() == best.suit() && card.rank() > best.rank()
    }
    #[inline]
    fn trick_gain(&self, winner: Seat, points: i32, root: Seat) -> i32 {
        if winner == root { -points } else { 0 }
    }
    #[inline]
    fn points_of(cards: CardSet) -> i32 {
        points_in(cards) as i32
    }
    fn value_margin(&self, value: i32) -> i32 {
        -value
    }
    fn reward_of(&self, _value: i32) -> Option<f64> {
        None
    }
}
