//! What the learned opponent model reads of a Hearts position: the mover's hand, the trick and
//! the cards gone, crossed with each legal card into four feature tables.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::search::opponent_model::ModelFeatures;

use super::{Hearts, QUEEN_OF_SPADES, points_in};

/// What the learned opponent model reads of a Hearts position ([`Hearts::model_view`]), read
/// once per position and then per legal card ([`HeartsModelView::features`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct HeartsModelView {
    hand: CardSet,
    gone: CardSet,
    /// The place in the trick (0 leads).
    place: usize,
    /// 1 when the mover cannot follow the led suit.
    void: usize,
    lead_suit: CardSet,
    /// The index of the trick's best card so far (`None` when leading).
    best: Option<u32>,
    /// The penalty points in the trick: none, hearts only, Q♠.
    in_trick: usize,
}

impl HeartsModelView {
    /// How the model reads `card`, one of the mover's legal cards. Four tables, each a cross
    /// of discrete features:
    /// 1. the place in the trick (0 leads), void in the led suit, whether the card would take
    ///    the trick so far, its kind (a plain card, a heart, Q♠, or K♠/A♠), its rank in four
    ///    bands (2-5, 6-9, 10-J, Q-A);
    /// 2. the place, void, the card's rank among the hand's cards of its suit (lowest,
    ///    highest, between, only), whether it is its suit's master (no higher card of the suit
    ///    left outside the hand), its kind;
    /// 3. the place, taking the trick, the penalty points already in it (none, hearts only,
    ///    Q♠), its kind;
    /// 4. leading or not, its kind, the hand's length in its suit, its rank band.
    #[inline]
    pub(super) fn features(&self, card: Card) -> ModelFeatures {
        let (hand, place, void, in_trick) = (self.hand, self.place, self.void, self.in_trick);
        // Rank order is index order within a suit's lane: the trick's best is its highest
        // card of the led suit, and a card takes the trick when it is above that.
        let takes = match self.best {
            Some(best) => {
                (self.lead_suit.contains(card) && u32::from(card.index()) > best) as usize
            }
            None => 0,
        };
        let kind = if card == QUEEN_OF_SPADES {
            2
        } else if card.suit() == Suit::Hearts {
            1
        } else if card.suit() == Suit::Spades && card.rank() > Rank::Queen {
            3
        } else {
            0
        };
        let band = match card.rank().index() {
            0..=3 => 0,
            4..=7 => 1,
            8..=9 => 2,
            _ => 3,
        };
        let lane = CardSet::suit(card.suit());
        // Rank order is index order: the stronger cards are the lane's bits above the card.
        let above = CardSet(lane.0 & !((2u64 << card.index()) - 1));
        let suit = hand & lane;
        let (rank_in_hand, master) = crate::search::opponent_model::rank_and_master(
            card.set(),
            suit,
            hand,
            above,
            self.gone,
        );
        let length = suit.len().clamp(1, 4) - 1;
        let leading = (place == 0) as usize;
        let t1 = (((place * 2 + void) * 2 + takes) * 4 + kind) * 4 + band;
        let t2 = 256 + (((place * 2 + void) * 4 + rank_in_hand) * 2 + master) * 4 + kind;
        let t3 = 512 + ((place * 2 + takes) * 3 + in_trick) * 4 + kind;
        let t4 = 608 + ((leading * 4 + kind) * 4 + length) * 4 + band;
        [t1 as u16, t2 as u16, t3 as u16, t4 as u16]
    }
}

/// Parameters of the learned opponent model's feature tables (`HeartsModelView::features`).
pub const MODEL_PARAMS: usize = 256 + 256 + 96 + 128;

impl Hearts {
    /// What the learned opponent model reads of this position (in play, not passing), from
    /// the mover's own view: its hand, the trick and the cards played.
    pub(super) fn model_view(&self) -> HeartsModelView {
        let hand = self.hands[self.to_move as usize];
        let place = self.in_trick as usize;
        let following = self.trick & self.lead_suit;
        HeartsModelView {
            hand,
            gone: self.played[0] | self.played[1] | self.played[2] | self.played[3],
            place,
            void: (place > 0 && (hand & self.lead_suit).is_empty()) as usize,
            lead_suit: self.lead_suit,
            best: following.0.checked_ilog2(),
            in_trick: match points_in(self.trick) {
                0 => 0,
                1..=12 => 1,
                _ => 2,
            },
        }
    }
}
