//! Equivalent-card reduction: cards of one hand that are adjacent in strength, with no card
//! between them still in play, and worth the same, are one move.
//!
//! Why that is exact: the only things the rules ask of a card are its suit, how it compares
//! with the other cards still to be played, and what it is worth. Two such cards compare alike
//! with every card still in play (nothing lies between them), so swapping them in any line of
//! play changes no trick's winner, no legality and no score. The solver searches the lowest
//! card of each run; the others get its value.
//!
//! A [`StrengthOrder`] rearranges a card set so that each 16-bit suit lane lists its cards from
//! weakest to strongest; then "the next weaker card in play" is one mask and one
//! leading-zero count.

use crate::cards::{Card, CardSet};

/// How a game orders the cards of a suit and which neighbours are worth the same.
pub trait StrengthOrder {
    /// `set` with each lane's bits rearranged into strength order (bit `16 s + i` is the
    /// `i`-th weakest card of suit `s`). The default is the natural order (2 low, ace high).
    #[inline]
    fn ordered(set: CardSet) -> u64 {
        set.0
    }
    /// The card at ordered bit index `i`.
    #[inline]
    fn card_at(i: u32) -> Card {
        Card::from_index(i as u8).expect("a card")
    }
    /// True when the cards at ordered indices `lo < hi` of one suit are worth the same under
    /// every scoring rule of the game.
    fn same_worth(lo: u32, hi: u32) -> bool;
}

/// The next weaker card in play below ordered index `b`, in the same suit.
#[inline]
fn next_below(in_play: u64, b: u32) -> Option<u32> {
    let below = in_play & ((1u64 << b) - 1) & (0xFFFF << (b & 48));
    (below != 0).then(|| 63 - below.leading_zeros())
}

/// The legal moves left after merging equivalent cards: the weakest card of each run.
/// `legal` must be cards of one hand, and `in_play` every card still held, on the table or in a
/// stock (a superset of `legal`).
#[inline]
pub fn representatives<O: StrengthOrder>(legal: CardSet, in_play: CardSet) -> CardSet {
    let (l, p) = (O::ordered(legal), O::ordered(in_play));
    let mut bits = l;
    let mut keep = CardSet::EMPTY;
    while bits != 0 {
        let b = bits.trailing_zeros();
        bits &= bits - 1;
        let merged = match next_below(p, b) {
            Some(prev) => l >> prev & 1 != 0 && O::same_worth(prev, b),
            None => false,
        };
        if !merged {
            keep.insert(O::card_at(b));
        }
    }
    keep
}

/// The card `card` is merged into by [`representatives`] (itself if it is the weakest of its
/// run).
pub fn representative_of<O: StrengthOrder>(card: Card, legal: CardSet, in_play: CardSet) -> Card {
    let (l, p) = (O::ordered(legal), O::ordered(in_play));
    let mut b = O::ordered(card.set()).trailing_zeros();
    while let Some(prev) = next_below(p, b) {
        if l >> prev & 1 == 0 || !O::same_worth(prev, b) {
            break;
        }
        b = prev;
    }
    O::card_at(b)
}

/// A lane mask repeated in all four lanes.
const fn lanes(m: u64) -> u64 {
    m | m << 16 | m << 32 | m << 48
}

/// The Portuguese 40-card pack (Sueca, Bisca): strength 2 3 4 5 6 Q J K 7 A; only the 2–6 are
/// worth the same (nothing).
#[derive(Debug)]
pub struct Portuguese;

/// Natural rank index of each strength 0..9 of the Portuguese pack.
const PT_RANK_OF_STRENGTH: [u8; 16] = [0, 1, 2, 3, 4, 10, 9, 11, 5, 12, 0, 0, 0, 0, 0, 0];

impl StrengthOrder for Portuguese {
    #[inline]
    fn ordered(set: CardSet) -> u64 {
        let x = set.0;
        // 2–6 stay; 7 (bit 5) goes to 8; J (9) to 6 and A (12) to 9; Q (10) to 5; K (11) to 7.
        (x & lanes(0x1F))
            | (x & lanes(1 << 5)) << 3
            | (x & lanes(1 << 9 | 1 << 12)) >> 3
            | (x & lanes(1 << 10)) >> 5
            | (x & lanes(1 << 11)) >> 4
    }
    #[inline]
    fn card_at(i: u32) -> Card {
        let natural = (i & 48) as u8 | PT_RANK_OF_STRENGTH[(i & 15) as usize];
        Card::from_index(natural).expect("a card of the pack")
    }
    #[inline]
    fn same_worth(_lo: u32, hi: u32) -> bool {
        hi & 15 < 5
    }
}

/// Hearts: natural order (2 low, ace high); every card but Q♠ is worth what its suit
/// neighbours are (hearts 1, the rest 0).
#[derive(Debug)]
pub struct HeartsOrder;

impl StrengthOrder for HeartsOrder {
    #[inline]
    fn same_worth(lo: u32, hi: u32) -> bool {
        let queen = crate::games::hearts::QUEEN_OF_SPADES.index() as u32;
        lo != queen && hi != queen
    }
}

/// Natural order and every card worth the same (a trick is a trick): Tricks.
#[derive(Debug)]
pub struct Natural;

impl StrengthOrder for Natural {
    #[inline]
    fn same_worth(_lo: u32, _hi: u32) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::portuguese::{self as pt, DECK};

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn portuguese_lanes_are_in_strength_order() {
        for card in DECK {
            let i = Portuguese::ordered(card.set()).trailing_zeros();
            assert_eq!(i & 15, pt::strength(card), "{card}");
            assert_eq!(i & 48, card.index() as u32 & 48);
            assert_eq!(Portuguese::card_at(i), card);
        }
    }

    #[test]
    fn runs_of_equal_worth_merge_and_cards_in_play_between_split_them() {
        // Sueca pack: 2 3 4 of spades in hand, the 5 gone, 6 in hand: one run of four zero
        // cards; Q and J are worth 2 and 3, so they stay apart; 7 and A stay apart too.
        let hand = set("2S 3S 4S 6S QS JS 7S AS");
        let in_play = hand | set("KC");
        assert_eq!(
            representatives::<Portuguese>(hand, in_play),
            set("2S QS JS 7S AS")
        );
        // The 5 still in play (another hand, or on the table) splits the run.
        assert_eq!(
            representatives::<Portuguese>(hand, in_play | set("5S")),
            set("2S 6S QS JS 7S AS")
        );
        assert_eq!(
            representative_of::<Portuguese>("6S".parse().unwrap(), hand, in_play),
            "2S".parse().unwrap()
        );
        // Hearts: hearts merge with hearts, Q♠ never merges.
        let hand = set("2H 3H 5H JS QS KS");
        let in_play = hand | set("4C");
        assert_eq!(
            representatives::<HeartsOrder>(hand, in_play),
            set("2H JS QS KS")
        );
        // With Q♠ gone, J♠ and K♠ are neighbours worth nothing: one move.
        let hand = set("JS KS");
        assert_eq!(representatives::<HeartsOrder>(hand, hand), set("JS"));
        assert_eq!(
            representatives::<Natural>(set("JS QS AS"), set("JS QS KS AS")),
            set("JS AS")
        );
    }
}
