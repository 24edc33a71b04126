//! Bisca's perfect-information model: both hands and the stock order known (after the stock
//! is empty this is the game itself; before, the analysis of a known deal). The root seat
//! maximises its card points. The exchange of the 2 of trumps is not searched: positions
//! where it is still possible are refused.

use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};
use crate::games::Bisca;
use crate::games::bisca::{BiscaMove, STOCK};
use crate::games::portuguese as pt;

use super::order::Portuguese;
use super::{Solvable, SolveError, with_flags};

impl Solvable for Bisca {
    type Order = Portuguese;
    const MARGIN_NAME: &'static str = "margin";
    const THESIS_CARDS: Option<u32> = Some(15);

    fn check_solvable(&self) -> Result<(), SolveError> {
        let two = pt::two_of(self.trump());
        let two_played = (self.played(0) | self.played(1)).contains(two);
        if self.exchange_allowed()
            && self.stock_len() >= 2
            && !two_played
            && self.face_up() != Some(two)
        {
            return Err(SolveError::Unsupported(
                "Bisca's exchange of the 2 of trumps is still possible (the solver plays cards only)"
                    .into(),
            ));
        }
        Ok(())
    }
    #[inline]
    fn cards_left(&self) -> usize {
        self.hand(0).len() + self.hand(1).len() + self.stock_len()
    }
    #[inline]
    fn card_moves(&self) -> CardSet {
        self.legal_moves().cards()
    }
    #[inline]
    fn card_move(card: Card) -> BiscaMove {
        BiscaMove::play(card)
    }
    #[inline]
    fn move_card(mv: BiscaMove) -> Option<Card> {
        mv.card()
    }
    #[inline]
    fn in_play(&self) -> CardSet {
        let mut cards = self.hand(0) | self.hand(1) | self.trick_cards();
        for &c in self.stock() {
            cards.insert(c);
        }
        cards
    }
    #[inline]
    fn banked(&self, root: Seat) -> i32 {
        self.points(root) as i32
    }
    #[inline]
    fn bounds(&self, root: Seat) -> (i32, i32) {
        let banked = self.banked(root);
        // Points not yet taken by either seat: 120 less what both have taken.
        let taken = self.points(0) + self.points(1);
        (banked, banked + (pt::TOTAL_POINTS - taken) as i32)
    }
    #[inline]
    fn key(&self) -> [u64; 2] {
        let next = (STOCK - self.stock_len()) as u32;
        let lead = self.lead().map_or(0, |c| c.index() as u32 + 1);
        [
            with_flags(
                self.hand(0),
                self.current_seat() as u32 | next << 1 | lead << 6,
            ),
            self.hand(1).0,
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
        pt::beats(card, best, self.trump())
    }
    #[inline]
    fn trick_gain(&self, winner: Seat, points: i32, root: Seat) -> i32 {
        if winner == root { points } else { -points }
    }
    #[inline]
    fn points_of(cards: CardSet) -> i32 {
        pt::points(cards) as i32
    }
    fn value_margin(&self, value: i32) -> i32 {
        super::sueca::pack_margin(value)
    }
    fn reward_of(&self, value: i32) -> Option<f64> {
        Some(pt::reward(value as u32))
    }
}
