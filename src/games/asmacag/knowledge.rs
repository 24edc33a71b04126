//! What one seat knows in ASMACAG, and the determinization built from that alone.
//!
//! A seat sees its own hand, the board, every card played (all moves are public), the scores,
//! the factor and whose turn it is. It does not see the opponent's hand or the unused cards:
//! those form one pool, the *unseen* cards (the deck minus everything the seat has seen), and
//! the rules give no way to prove where any of them lies. So the consistent states are exactly
//! the ways to deal the opponent's hand size out of that pool.
//!
//! They are not equally likely. The hands are dealt first and the board then from the
//! *numbers* left (the specials go back), so the board seen is likelier the fewer numbers it
//! was drawn from, that is, the more numbers the opponent took. With `n` numbers and `s`
//! specials unseen, `k` cards in the opponent's hand and `b` numbers dealt to the board, a
//! hand of `h` numbers has weight `C(n,h) C(s,k−h) / C(b+n−h, b)`: its number of physical
//! hands times the chance of the board. The sampler draws `h` by that weight, then `h`
//! numbers and `k−h` specials uniformly among the unseen ones. (A uniform redeal of the whole
//! pool, which the rules text describes, gives the opponent about 1.8 times the specials it
//! holds at the start of a default game: session 54's rules audit, checked against the
//! dealer over 4,000 deals.)
//!
//! (The reference code instead shuffles the opponent's hand into the pool *without taking it
//! back* and deals a new hand on top of it, so its opponent ends up with twice the cards.)

use super::{Action, Actions, Asmacag, Kind, Pile, Table};
use crate::cards::CardSet;
use crate::game::{DealError, DealSampler, InfoSet, Rng, Seat, check_mover};

/// One seat's information: public facts and its own hand, nothing hidden.
///
/// Two states the seat cannot tell apart give equal knowledge (and so equal samplers); its
/// `Debug` output cannot show a card the seat has not seen, because it holds none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AsmacagKnowledge {
    observer: u8,
    /// The observer's own hand.
    hand: Pile,
    /// How many cards the opponent holds.
    opponent_cards: u8,
    /// The opponent's hand and the unused cards, mixed: the cards the observer has not seen.
    unseen: Pile,
    table: Table,
}

impl Asmacag {
    /// What `observer` knows in this state.
    pub fn knowledge(&self, observer: Seat) -> AsmacagKnowledge {
        let opponent = self.hands[observer ^ 1];
        AsmacagKnowledge {
            observer: observer as u8,
            hand: self.hands[observer],
            opponent_cards: opponent.len() as u8,
            unseen: opponent.plus(self.unused),
            table: self.table,
        }
    }
}

impl AsmacagKnowledge {
    /// The observer's own hand.
    pub fn hand(&self) -> Pile {
        self.hand
    }

    /// The cards the observer has not seen (the opponent's hand and the unused cards).
    pub fn unseen(&self) -> Pile {
        self.unseen
    }

    /// How many cards the opponent holds.
    pub fn opponent_cards(&self) -> u32 {
        self.opponent_cards as u32
    }

    /// How many number cards were dealt to the board: those on it and those played on (each
    /// number played takes one board card, and both go to the discard pile, so half of its
    /// numbers).
    pub fn board_dealt(&self) -> u32 {
        self.table.board.len() + self.table.discard.numbers().len() / 2
    }
}

impl InfoSet<Asmacag> for AsmacagKnowledge {
    type Sampler = AsmacagSampler;

    fn observer(&self) -> Seat {
        self.observer as Seat
    }

    fn num_seats(&self) -> usize {
        2
    }

    fn seat_to_move(&self) -> Option<Seat> {
        (!self.is_terminal()).then_some(self.table.to_move as Seat)
    }

    fn is_terminal(&self) -> bool {
        self.table
            .is_over(self.hand.is_empty() && self.opponent_cards == 0)
    }

    fn turn_progress(&self) -> (u32, u32) {
        (
            u32::from(self.table.actions_left),
            u32::from(self.table.actions_per_turn),
        )
    }

    fn legal_moves(&self) -> Actions {
        Actions::new(self.hand.kinds(), self.table.board.kinds())
    }

    /// An error means the knowledge contradicts itself (fewer unseen cards than the opponent
    /// holds).
    fn sampler(&self) -> Result<AsmacagSampler, DealError> {
        if self.unseen.len() < self.opponent_cards as u32 {
            return Err(DealError::Inconsistent(format!(
                "the opponent holds {} cards but only {} are unseen",
                self.opponent_cards,
                self.unseen.len()
            )));
        }
        Ok(AsmacagSampler::new(*self))
    }

    /// Every action is public and nothing is drawn, so `mv` must be given and `hand_after`
    /// must not. The action is possible exactly when the board holds the card played on and
    /// the mover may hold the card played: the observer if it does, the opponent if one is
    /// unseen.
    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<Action>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let refuse = |why: String| Err(DealError::Inconsistent(why));
        check_mover(self.seat_to_move(), seat)?;
        if self.is_terminal() {
            return refuse("the game is over".into());
        }
        let Some(action) = mv else {
            return refuse("every ASMACAG action is seen by both seats".into());
        };
        if hand_after.is_some() {
            return refuse("ASMACAG has no private draws to report".into());
        }
        if let Some(on) = action.board()
            && !self.table.board.contains(on)
        {
            return refuse(format!("{action}: the board has no {on}"));
        }
        let card = action.card();
        let cards_left = if seat == self.observer() {
            if !self.hand.contains(card) {
                return refuse(format!("{action}: seat {seat} holds no {card}"));
            }
            self.hand.remove(card);
            self.hand.len()
        } else {
            if !self.unseen.contains(card) {
                return refuse(format!(
                    "{action}: every {card} is already accounted for, seat {seat} cannot hold one"
                ));
            }
            self.unseen.remove(card);
            self.opponent_cards -= 1;
            self.opponent_cards as u32
        };
        self.table.apply(action, cards_left);
        Ok(())
    }
}

/// Most specials (×2 and ÷2, at most [`super::pile::MAX_COPIES`] copies each) a deck holds: the
/// opponent's hand can hold a number of numbers in a range at most this wide.
const MAX_SPECIALS: usize = 2 * super::pile::MAX_COPIES as usize;

/// Deals the opponent's hand from the unseen cards as likely as the deal made it (module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AsmacagSampler {
    knowledge: AsmacagKnowledge,
    /// The fewest numbers the opponent's hand can hold.
    fewest: u32,
    /// How many more it can hold at most.
    range: u32,
    /// `thresholds[i]`: the probability that the hand holds at most `fewest + i` numbers, in
    /// units of 2^-53, computed once per decision (the sampler is built once per decision,
    /// [`InfoSet::sampler`], and every iteration draws from it).
    thresholds: [u64; MAX_SPECIALS],
}

impl DealSampler<Asmacag> for AsmacagSampler {
    /// The distinct states: the sub-multisets of the unseen cards of the opponent's hand size
    /// (distinct as states, not equally likely: kinds with more unseen copies are more likely
    /// to be held, and hands with more numbers, module doc).
    fn count(&self) -> u128 {
        let k = self.knowledge;
        let want = k.opponent_cards as usize;
        // ways[j]: sub-multisets of size j of the kinds seen so far.
        let mut ways = vec![0u128; want + 1];
        ways[0] = 1;
        for kind in 0..16 {
            let copies = k.unseen.count(Kind::from_index(kind)) as usize;
            for j in (0..=want).rev() {
                ways[j] = (1..=copies.min(j)).fold(ways[j], |acc, c| acc + ways[j - c]);
            }
        }
        ways[want]
    }

    #[inline]
    fn sample(&self, rng: &mut Rng) -> Asmacag {
        let k = &self.knowledge;
        let numbers = k.unseen.numbers();
        let specials = k.unseen.minus(numbers);
        let u = rand::Rng::next_u64(rng) >> 11;
        let below = self.thresholds[..self.range as usize]
            .iter()
            .take_while(|&&t| t <= u)
            .count();
        let h = self.fewest + below as u32;
        let hand = numbers
            .draw(h, rng)
            .plus(specials.draw(k.opponent_cards as u32 - h, rng));
        self.with_opponent(hand)
    }

    /// Every distinct opponent's hand once, kinds taken in order (the count above).
    fn for_each_state(&self, f: &mut dyn FnMut(Asmacag)) -> bool {
        let k = &self.knowledge;
        self.each_opponent_hand(0, k.opponent_cards as u32, Pile::EMPTY, &mut |hand| {
            f(self.with_opponent(hand))
        });
        true
    }
}

impl AsmacagSampler {
    /// The sampler of `knowledge` (which has at least as many unseen cards as the opponent
    /// holds), with the distribution of how many numbers the opponent holds: the weight of
    /// the module doc, `C(n,h) C(s,k−h) / C(b+n−h, b)`, computed from one `h` to the next by
    /// their ratio `(k−h)(b+n−h) / ((h+1)(s−k+h+1))` (no factorials).
    fn new(knowledge: AsmacagKnowledge) -> AsmacagSampler {
        let k = &knowledge;
        let want = k.opponent_cards as u32;
        let n = k.unseen.numbers().len();
        let s = k.unseen.len() - n;
        let (fewest, most) = (want.saturating_sub(s), want.min(n));
        // At most min(s, k) + 1 values, so at most MAX_SPECIALS thresholds between them.
        let range = most - fewest;
        let (kf, nf, sf, bf) = (want as f64, n as f64, s as f64, k.board_dealt() as f64);
        let ratio = |h: u32| {
            let h = h as f64;
            (kf - h) * (bf + nf - h) / ((h + 1.0) * (sf - kf + h + 1.0))
        };
        let mut weights = [0.0; MAX_SPECIALS + 1];
        let mut weight = 1.0;
        for (i, h) in (fewest..=most).enumerate() {
            weights[i] = weight;
            weight *= ratio(h);
        }
        let total: f64 = weights.iter().sum();
        let mut thresholds = [u64::MAX; MAX_SPECIALS];
        let mut below = 0.0;
        for i in 0..range as usize {
            below += weights[i];
            thresholds[i] = (below / total * (1u64 << 53) as f64) as u64;
        }
        AsmacagSampler {
            knowledge,
            fewest,
            range,
            thresholds,
        }
    }

    /// The state in which the opponent holds `opponent` (part of the unseen cards).
    fn with_opponent(&self, opponent: Pile) -> Asmacag {
        let k = &self.knowledge;
        let mut hands = [Pile::EMPTY; 2];
        hands[k.observer as usize] = k.hand;
        hands[k.observer as usize ^ 1] = opponent;
        Asmacag {
            hands,
            unused: k.unseen.minus(opponent),
            table: k.table,
        }
    }

    /// Calls `f` with `chosen` plus every sub-multiset of `left` more cards of the unseen kinds
    /// from `kind` on.
    fn each_opponent_hand(&self, kind: u32, left: u32, chosen: Pile, f: &mut dyn FnMut(Pile)) {
        if left == 0 {
            return f(chosen);
        }
        if kind == 16 {
            return;
        }
        let copies = self.knowledge.unseen.count(Kind::from_index(kind));
        for take in 0..=copies.min(left) {
            let hand = chosen.plus(Pile::of(Kind::from_index(kind), take));
            self.each_opponent_hand(kind + 1, left - take, hand, f);
        }
    }
}
