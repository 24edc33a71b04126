//! What a Hearts seat knows ([`HiddenInfo`], [`HiddenCards`]): its hand, its passes and the cards
//! passed to it, every card played, and what the plays prove; and the deals consistent with it.

use crate::cards::{Card, CardSet};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, Game, HiddenInfo, Rng, Seat, possible_cards};
use crate::games::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

use super::{HAND, Hearts, PASS_CARDS, Pass, SEATS, TWO_OF_CLUBS};

impl HiddenInfo for Hearts {
    type InfoSet = CardInfoSet<Hearts>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Hearts> {
        CardInfoSet::of(self, observer)
    }

    fn can_rewind(&self) -> bool {
        self.pass == Pass::None
    }

    /// Without passing, hands change only by plays; a pass moves cards the state no longer
    /// traces, so a deal with passing cannot be rewound.
    fn dealt(&self) -> Option<Hearts> {
        if self.pass != Pass::None {
            return None;
        }
        let hands = std::array::from_fn(|s| self.hands[s] | self.played[s]);
        Hearts::from_hands(hands, Pass::None).ok()
    }

    fn possible_moves(&self, observer: Seat) -> CardSet {
        let mover = self.to_move as usize;
        if self.passes_left > 0 {
            // Passing: the observer knows its own hand and picks, nothing of anyone else's.
            return possible_cards(
                mover,
                observer,
                self.hands[observer],
                CardSet::FULL - self.passed[observer],
                CardSet::EMPTY,
            );
        }
        let unplayed = CardSet::FULL - self.played.iter().fold(CardSet::EMPTY, |all, &p| all | p);
        if self.pass != Pass::None {
            // The cards the observer received may have been passed before its search began
            // (unseen), so its hand is not the same in every determinization: any card still
            // out, but never a card the mover has proven it does not hold.
            return unplayed - self.excluded[mover];
        }
        possible_cards(
            mover,
            observer,
            self.hands[observer],
            unplayed,
            self.excluded[mover],
        )
    }
}

/// In a public part, the seat to move when the observer does not know it: after the passes, the
/// holder of 2♣ leads, which the others learn when it does.
const LEADER_UNKNOWN: u8 = SEATS as u8;

impl Hearts {
    /// How many cards `seat` has picked to pass so far (seats pick in order, three each).
    fn picked(&self, seat: Seat) -> usize {
        let picked_in_all = SEATS * PASS_CARDS - self.passes_left as usize;
        picked_in_all
            .saturating_sub(seat * PASS_CARDS)
            .min(PASS_CARDS)
    }

    /// Where 2♣ is as `observer` knows it, once passes are delivered: its own hand, the
    /// receiver of its passes if it passed 2♣, or nobody it knows.
    pub(super) fn known_holder_of_two_of_clubs(&self, observer: Seat) -> Option<Seat> {
        if self.hands[observer].contains(TWO_OF_CLUBS) {
            Some(observer)
        } else if self.passed[observer].contains(TWO_OF_CLUBS) {
            Some(self.pass.receiver(observer))
        } else {
            None
        }
    }

    /// True before the first card of the first trick.
    pub(super) fn before_first_lead(&self) -> bool {
        self.passes_left == 0 && self.tricks == 0 && self.in_trick == 0
    }
}

/// What a seat of Hearts sees: its own hand; the cards it picked to pass, which stay in the
/// receiver's hand until played; once delivered, the cards passed to it; every card played and
/// by whom; and what the plays prove ([`Hearts::excluded`]). It does not see which cards the
/// others picked to pass (those are moves it cannot see: a sample draws them), nor, before the
/// first lead, who holds 2♣ unless it holds it or passed it.
impl HiddenCards for Hearts {
    fn public_part(&self, observer: Seat) -> Hearts {
        let mut public = *self;
        let received_from = if self.passes_left == 0 && self.pass != Pass::None {
            Some(self.pass.giver(observer))
        } else {
            None
        };
        for seat in (0..SEATS).filter(|&s| s != observer) {
            public.hands[seat] = CardSet::EMPTY;
            if Some(seat) != received_from {
                public.passed[seat] = CardSet::EMPTY;
            }
        }
        if self.before_first_lead() && self.known_holder_of_two_of_clubs(observer).is_none() {
            public.to_move = LEADER_UNKNOWN;
        }
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let o = observer;
        let mut unseen = Unseen::NONE;
        let passing = self.is_passing();
        // What the observer passed stays with the receiver until played.
        let with_receiver = if passing || self.pass == Pass::None {
            CardSet::EMPTY
        } else {
            self.passed[o] - self.played_cards()
        };
        unseen.unknown = CardSet::FULL - self.hands[o] - self.played_cards() - self.passed[o];
        for seat in (1..SEATS).map(|k| (o + k) % SEATS) {
            if passing {
                // A hand and its picked cards: 13 cards, nothing known about them.
                unseen.add(Some(seat), HAND, CardSet::FULL, CardSet::EMPTY);
                continue;
            }
            let fixed = if seat == self.pass.receiver(o) {
                with_receiver
            } else {
                CardSet::EMPTY
            };
            let size = (HAND - self.played[seat].len())
                .checked_sub(fixed.len())
                .ok_or_else(|| {
                    DealError::Inconsistent(format!("seat {seat} holds fewer cards than known"))
                })?;
            unseen.add(Some(seat), size, CardSet::FULL - self.excluded[seat], fixed);
        }
        Ok(unseen)
    }

    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], rng: &mut Rng) -> Hearts {
        let mut state = *self;
        for (i, seat) in (1..SEATS).map(|k| (observer + k) % SEATS).enumerate() {
            let mut cards = parts[i];
            if self.is_passing() {
                let picked = cards.random_subset(self.picked(seat), rng);
                state.passed[seat] = picked;
                cards -= picked;
            }
            state.hands[seat] = cards;
        }
        if state.to_move == LEADER_UNKNOWN {
            state.to_move = state.holder_of_two_of_clubs() as u8;
        }
        state
    }

    fn completions(&self, observer: Seat) -> u128 {
        if !self.is_passing() {
            return 1;
        }
        (0..SEATS)
            .filter(|&s| s != observer)
            .map(|s| binomial(HAND, self.picked(s)))
            .product()
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        (self.to_move != LEADER_UNKNOWN).then_some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        self.is_terminal()
    }

    fn card_of(mv: Card) -> Option<Card> {
        Some(mv)
    }

    fn observe_public(
        &mut self,
        observer: Seat,
        seat: Seat,
        mv: Option<Card>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        let o = observer;
        if self.is_passing() {
            match (seat == o, mv) {
                (true, Some(card)) => {
                    self.hands[o].remove(card);
                    self.passed[o].insert(card);
                }
                (true, None) => return bad("a seat sees its own passes".into()),
                (false, Some(card)) => {
                    return bad(format!(
                        "seat {o} cannot see which card seat {seat} passes (send it unseen, not {card})"
                    ));
                }
                (false, None) => {}
            }
            self.passes_left -= 1;
            if (self.passes_left as usize).is_multiple_of(PASS_CARDS) {
                self.to_move = (seat as u8 + 1) % SEATS as u8;
            }
            if self.passes_left > 0 {
                return check_no_new_cards(hand_after, self.hands[o]);
            }
            // Delivery: the observer learns what it received, from its hand.
            let Some(after) = hand_after else {
                return bad(format!(
                    "the passes are delivered: give seat {o}'s hand after receiving its cards"
                ));
            };
            let received = after - self.hands[o];
            if !after.is_superset(self.hands[o]) || received.len() != PASS_CARDS {
                return bad(format!(
                    "seat {o} holds {} and receives {PASS_CARDS} cards: {after} is not such a hand",
                    self.hands[o]
                ));
            }
            if !(received & self.passed[o]).is_empty() {
                return bad(format!(
                    "seat {o} cannot receive the cards it passed ({received})"
                ));
            }
            self.passed[self.pass.giver(o)] = received;
            self.hands[o] = after;
            self.to_move = match self.known_holder_of_two_of_clubs(o) {
                Some(s) => s as u8,
                None => LEADER_UNKNOWN,
            };
            return Ok(());
        }
        let Some(card) = mv else {
            return bad("every card played to a trick is seen".into());
        };
        if self.before_first_lead() {
            if card != TWO_OF_CLUBS {
                return bad(format!("the first trick is led with 2C, not {card}"));
            }
            self.to_move = seat as u8;
        }
        // The card alone in the mover's hand: legal exactly when the hand may lack every card
        // the rules would have preferred, which `play` then records as excluded.
        self.hands[seat].insert(card);
        let own = self.hands[o];
        self.play(card);
        check_no_new_cards(hand_after, own - card.set())
    }
}

/// `n` choose `k`.
fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}
