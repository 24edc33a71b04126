//! Sueca's perfect-information model: the team of the root seat maximises its card points.

use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};
use crate::games::Sueca;
use crate::games::portuguese as pt;

use super::order::Portuguese;
use super::{Solvable, SolveError, moves_are_cards, with_flags};

impl Solvable for Sueca {
    type Order = Portuguese;
    const MARGIN_NAME: &'static str = "margin";
    const THESIS_CARDS: Option<u32> = Some(13);

    fn check_solvable(&self) -> Result<(), SolveError> {
        Ok(())
    }
    #[inline]
    fn cards_left(&self) -> usize {
        held(self).len()
    }
    moves_are_cards!();
    #[inline]
    fn in_play(&self) -> CardSet {
        held(self) | self.trick()
    }
    #[inline]
    fn banked(&self, root: Seat) -> i32 {
        self.points(root & 1) as i32
    }
    #[inline]
    fn bounds(&self, root: Seat) -> (i32, i32) {
        let banked = self.banked(root);
        (banked, banked + pt::points(self.in_play()) as i32)
    }
    #[inline]
    fn key(&self) -> [u64; 2] {
        [
            with_flags(held(self), self.current_seat() as u32),
            self.trick().0,
        ]
    }
    #[inline]
    fn trick_best(&self) -> Option<(Card, Seat)> {
        Sueca::trick_best(self)
    }
    #[inline]
    fn trick_cards(&self) -> CardSet {
        self.trick()
    }
    #[inline]
    fn beats(&self, card: Card, best: Card) -> bool {
        pt::beats(card, best, self.trump())
    }
    #[inline]
    fn trick_gain(&self, winner: Seat, points: i32, root: Seat) -> i32 {
        if (winner ^ root) & 1 == 0 {
            points
        } else {
            -points
        }
    }
    #[inline]
    fn points_of(cards: CardSet) -> i32 {
        pt::points(cards) as i32
    }
    fn value_margin(&self, value: i32) -> i32 {
        pack_margin(value)
    }
    fn reward_of(&self, value: i32) -> Option<f64> {
        Some(pt::reward(value as u32))
    }
}

/// The point margin of a side that took `points` of the Portuguese pack's 120 (Sueca, Bisca).
pub(super) fn pack_margin(points: i32) -> i32 {
    2 * points - pt::TOTAL_POINTS as i32
}

/// Every card still in a hand.
#[inline]
fn held(g: &Sueca) -> CardSet {
    g.hand(0) | g.hand(1) | g.hand(2) | g.hand(3)
}
