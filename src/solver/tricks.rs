//! Tricks' perfect-information model: the root seat maximises its tricks (the unseen stock
//! plays no part).

use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};
use crate::games::Tricks;
use crate::games::tricks::HAND;

use super::order::Natural;
use super::{Solvable, SolveError, moves_are_cards, with_flags};

impl Solvable for Tricks {
    type Order = Natural;
    const MARGIN_NAME: &'static str = "margin";
    const THESIS_CARDS: Option<u32> = None;

    fn check_solvable(&self) -> Result<(), SolveError> {
        Ok(())
    }
    #[inline]
    fn cards_left(&self) -> usize {
        (self.hand(0) | self.hand(1)).len()
    }
    moves_are_cards!();
    #[inline]
    fn in_play(&self) -> CardSet {
        self.hand(0) | self.hand(1) | self.trick_cards()
    }
    #[inline]
    fn banked(&self, root: Seat) -> i32 {
        self.tricks_won(root) as i32
    }
    #[inline]
    fn bounds(&self, root: Seat) -> (i32, i32) {
        let banked = self.banked(root);
        let left = self.hand(0).len().max(self.hand(1).len()) as i32;
        (banked, banked + left)
    }
    #[inline]
    fn key(&self) -> [u64; 2] {
        [
            with_flags(self.hand(0) | self.hand(1), self.current_seat() as u32),
            self.trick_cards().0,
        ]
    }
    #[inline]
    fn trick_best(&self) -> Option<(Card, Seat)> {
        self.lead().map(|c| (c, self.current_seat() ^ 1))
    }
    #[inline]
    fn trick_cards(&self) -> CardSet {
        self.lead().map_or(CardSet::EMPTY, Card::set)
    }
    #[inline]
    fn beats(&self, card: Card, best: Card) -> bool {
        card.suit() == best.suit() && card.rank() > best.rank()
    }
    #[inline]
    fn trick_gain(&self, winner: Seat, _points: i32, root: Seat) -> i32 {
        if winner == root { 1 } else { -1 }
    }
    #[inline]
    fn points_of(_cards: CardSet) -> i32 {
        0
    }
    fn value_margin(&self, value: i32) -> i32 {
        2 * value - HAND as i32
    }
    fn reward_of(&self, value: i32) -> Option<f64> {
        let half = HAND as i32 / 2;
        Some(match value {
            v if v > half => 1.0,
            v if v == half => 0.5,
            _ => 0.0,
        })
    }
}
