//! What a Bisca seat knows ([`HiddenInfo`], [`HiddenCards`]): its hand, the face-up trump, the
//! cards played, the cards known to be in the other hand (the face-up card taken in an exchange
//! or drawn last), and, once the stock is empty, the suits each seat has shown it lacks; how a
//! deal is rewound to its start; and the deals consistent with what a seat knows.

use crate::cards::{Card, CardSet, random_below};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, HiddenInfo, Rng, Seat, Seen};
use crate::games::portuguese::{self as pt, DECK};
use crate::games::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

use super::{Bisca, BiscaConfig, BiscaMove, BiscaMoves, HAND, SEATS, STOCK, TRICKS};

impl HiddenInfo for Bisca {
    type InfoSet = CardInfoSet<Bisca>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Bisca> {
        CardInfoSet::of(self, observer)
    }

    fn can_rewind(&self) -> bool {
        !self.exchange
    }

    /// Draws the past the state does not keep: which card each seat drew after each trick.
    /// Replaying `history` gives each card's trick and each trick's winner (who drew first);
    /// then, for each seat, the draw slots are filled from the last back, each with a card
    /// the seat held and played after that draw (or holds still), uniformly among those not
    /// yet placed, and the nine left are its hand as dealt. Going from the last draw back, the
    /// cards a slot may take are those of the later slots and more, and how many there are
    /// does not depend on the earlier choices, so every consistent past is equally likely
    /// (the face-up card, drawn in sight by the last trick's loser, is fixed). `None` with the
    /// exchange variant on, or for a history that does not lead here.
    fn rewind(&self, history: &[Seen<BiscaMove>], rng: &mut Rng) -> Option<Bisca> {
        if self.exchange {
            return None;
        }
        // Cards played in each trick, and who won each trick.
        let mut played_in = [CardSet::EMPTY; TRICKS as usize];
        let mut winners = [0usize; TRICKS as usize];
        let (mut trick, mut leader, mut lead) = (0, self.first_leader as usize, None);
        for &(seat, mv) in history {
            let card = mv?.card()?;
            if trick >= TRICKS as usize {
                return None;
            }
            played_in[trick].insert(card);
            match lead {
                None if seat == leader => lead = Some(card),
                Some(led) if seat == leader ^ 1 => {
                    leader = if pt::beats(card, led, self.trump) {
                        seat
                    } else {
                        leader
                    };
                    winners[trick] = leader;
                    trick += 1;
                    lead = None;
                }
                _ => return None,
            }
        }
        let rounds = self.next as usize / 2;
        if trick.min(STOCK / 2) != rounds
            || leader != self.to_move as usize ^ usize::from(lead.is_some())
        {
            return None;
        }
        let mut stock = self.stock;
        let mut hands = [CardSet::EMPTY; SEATS];
        for (seat, hand) in hands.iter_mut().enumerate() {
            let mut left = self.hands[seat] | self.played[seat];
            // The cards played by the end of trick k: none of them was drawn after it.
            let mut gone_by = played_in[..rounds]
                .iter()
                .fold(CardSet::EMPTY, |a, &t| a | t);
            for k in (0..rounds).rev() {
                let slot = 2 * k + usize::from(seat != winners[k]);
                let card = if slot == STOCK - 1 {
                    stock[STOCK - 1]
                } else {
                    let eligible = left - gone_by;
                    if eligible.is_empty() {
                        return None;
                    }
                    eligible.random(rng)
                };
                if !left.contains(card) {
                    return None;
                }
                left.remove(card);
                stock[slot] = card;
                gone_by -= played_in[k];
            }
            *hand = left;
        }
        let config = BiscaConfig {
            leader: self.first_leader as Seat,
            exchange: false,
            bandeira: self.bandeira,
        };
        Bisca::from_parts(hands, stock, self.first_leader as Seat, &config).ok()
    }

    fn possible_moves(&self, _observer: Seat) -> BiscaMoves {
        // Every seat draws unseen cards from the stock, the observer too, so no hand is the
        // same in every determinization: any card still out, less the suits the mover has shown
        // void in (recorded once the stock is empty), and the exchange while the stock lasts.
        let mover = self.to_move as usize;
        let unplayed = DECK - self.played[0] - self.played[1] - self.voids[mover];
        let exchange = self.exchange && (self.next as usize) < STOCK;
        BiscaMoves::new(unplayed, exchange)
    }
}

impl Bisca {
    /// Cards `seat` holds: nine, plus one per stock trick, minus those played.
    fn hand_size(&self, seat: Seat) -> usize {
        HAND + self.next as usize / 2 - self.played[seat].len()
    }

    /// In a public part, the stock slots nobody has seen (those drawn, and those still face
    /// down) all hold the face-up card: a fixed filler, so that public parts that differ only
    /// in unseen cards are equal. Play never reads them.
    fn blank_stock(&mut self) {
        let face_up = self.stock[STOCK - 1];
        self.stock[..STOCK - 1].fill(face_up);
    }
}

/// What a seat of Bisca sees: its own hand and the cards it drew, the face-up trump card while it
/// is in the stock, every card played and by whom, the cards everyone saw go into the other hand
/// (the face-up card drawn last, a card taken in an exchange), and, once the stock is empty, the
/// voids shown by failing to follow. The other hand's remaining cards and the stock's order are
/// unseen; the order in which cards were drawn in the past is not kept at all.
/// Calls `f` with every order of `cards[..k]` (Heap's algorithm), `cards` itself first.
fn for_each_permutation(cards: &mut [Card], k: usize, f: &mut dyn FnMut(&[Card])) {
    if k <= 1 {
        f(cards);
        return;
    }
    for i in 0..k - 1 {
        for_each_permutation(cards, k - 1, f);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        cards.swap(j, k - 1);
    }
    for_each_permutation(cards, k - 1, f);
}

impl HiddenCards for Bisca {
    fn public_part(&self, observer: Seat) -> Bisca {
        let mut public = *self;
        let opponent = observer ^ 1;
        public.hands[opponent] = self.known_in_hand(opponent);
        public.blank_stock();
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let opponent = observer ^ 1;
        let known = self.hands[opponent];
        let face_up = self.face_up().map_or(CardSet::EMPTY, Card::set);
        let mut unseen = Unseen::NONE;
        unseen.unknown =
            DECK - self.hands[observer] - self.played[0] - self.played[1] - known - face_up;
        let size = self
            .hand_size(opponent)
            .checked_sub(known.len())
            .ok_or_else(|| {
                DealError::Inconsistent(format!("seat {opponent} holds fewer cards than known"))
            })?;
        unseen.add(Some(opponent), size, DECK - self.voids[opponent], known);
        unseen.add(
            None,
            self.stock_len().saturating_sub(1),
            DECK,
            CardSet::EMPTY,
        );
        Ok(unseen)
    }

    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], rng: &mut Rng) -> Bisca {
        let mut state = *self;
        state.hands[observer ^ 1] = parts[0];
        let start = state.next as usize;
        if start < STOCK {
            // Every slot but the face-up bottom one, then a Fisher–Yates shuffle of them.
            let slots = &mut state.stock[start..STOCK - 1];
            for (slot, card) in slots.iter_mut().zip(parts[1]) {
                *slot = card;
            }
            for i in (1..slots.len()).rev() {
                let j = random_below(rng, i as u32 + 1) as usize;
                slots.swap(i, j);
            }
        }
        state
    }

    fn completions(&self, _observer: Seat) -> u128 {
        (1..self.stock_len().saturating_sub(1) as u128).fold(1u128, |f, k| f.saturating_mul(k + 1))
    }

    /// Every order of the hidden stock (all but its face-up bottom card).
    fn for_each_completion(
        &self,
        observer: Seat,
        parts: &[CardSet; MAX_HOLDERS],
        f: &mut dyn FnMut(Bisca),
    ) -> bool {
        let mut state = *self;
        state.hands[observer ^ 1] = parts[0];
        let start = (state.next as usize).min(STOCK - 1);
        let mut cards = state.stock;
        let hidden = &mut cards[start..STOCK - 1];
        for (slot, card) in hidden.iter_mut().zip(parts[1]) {
            *slot = card;
        }
        let k = hidden.len();
        for_each_permutation(hidden, k, &mut |order| {
            state.stock[start..STOCK - 1].copy_from_slice(order);
            f(state);
        });
        true
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        Some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        (self.played[0] | self.played[1]) == DECK
    }

    fn card_of(mv: BiscaMove) -> Option<Card> {
        mv.card()
    }

    fn observe_public(
        &mut self,
        observer: Seat,
        seat: Seat,
        mv: Option<BiscaMove>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        let o = observer;
        let Some(mv) = mv else {
            return bad("every Bisca move is seen".into());
        };
        let Some(card) = mv.card() else {
            // The exchange: the 2 of trumps for the face-up card, in plain sight.
            let two = pt::two_of(self.trump);
            if seat != o {
                if !self.exchange || self.stock_len() < 2 {
                    return bad("no exchange is allowed now".into());
                }
                if !self.unseen(o)?.possible_for(seat).contains(two) {
                    return bad(format!("seat {seat} cannot hold {two} to exchange"));
                }
                self.hands[seat].insert(two);
            }
            self.play_exchange();
            self.blank_stock();
            return check_no_new_cards(hand_after, self.hands[o]);
        };
        let before = self.unseen(o)?;
        let n = self.next as usize;
        self.hands[seat].insert(card);
        let winner = self.play_to_trick(card);
        match winner {
            Some(winner) if n < STOCK => {
                let face_up = self.stock[STOCK - 1];
                let last = n + 2 == STOCK;
                let loser = winner ^ 1;
                // The face-up card goes, in plain sight, to the loser of the last stock trick.
                if last {
                    self.hands[loser].insert(face_up);
                    self.shown[loser].insert(face_up);
                }
                if !(last && loser == o) {
                    // The observer's own draw: only its hand shows which card it was.
                    let Some(after) = hand_after else {
                        return bad(format!(
                            "seat {o} draws a card after this trick: give its hand after the draw"
                        ));
                    };
                    let drawn = after - self.hands[o];
                    if !after.is_superset(self.hands[o])
                        || drawn.len() != 1
                        || !before.unknown.is_superset(drawn)
                    {
                        return bad(format!(
                            "seat {o} holds {} and draws one card from the stock: {after} is \
                             not such a hand",
                            self.hands[o]
                        ));
                    }
                    self.hands[o] = after;
                }
                self.next += 2;
                check_no_new_cards(hand_after, self.hands[o])?;
            }
            _ => check_no_new_cards(hand_after, self.hands[o])?,
        }
        self.blank_stock();
        Ok(())
    }
}
