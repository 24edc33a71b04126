//! Bisca's moves: a card played, or the exchange of the 2 of trumps for the face-up card, and
//! their set (the card bits plus one bit for the exchange).

use std::fmt;

use crate::cards::{Card, CardSet};
use crate::game::{MoveSet, Rng, TreeMove};

/// The bit of a [`BiscaMoves`] set that stands for the exchange: bit 63 is no card (ranks use
/// the low 13 bits of each 16-bit lane), so the exchange rides along in the same `u64`.
const EXCHANGE_BIT: u8 = 63;

/// One Bisca move: play a card, or exchange the 2 of trumps for the face-up card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BiscaMove(u8);

impl BiscaMove {
    /// Exchange the 2 of trumps in hand for the face-up card (variant `exchange=true`).
    pub const EXCHANGE: BiscaMove = BiscaMove(EXCHANGE_BIT);

    /// Playing `card`.
    #[inline]
    pub const fn play(card: Card) -> BiscaMove {
        BiscaMove(card.index())
    }

    /// The card played, or `None` for the exchange.
    #[inline]
    pub const fn card(self) -> Option<Card> {
        if self.0 == EXCHANGE_BIT {
            None
        } else {
            Card::from_index(self.0)
        }
    }

    /// True for the exchange.
    #[inline]
    pub const fn is_exchange(self) -> bool {
        self.0 == EXCHANGE_BIT
    }
}

impl From<Card> for BiscaMove {
    fn from(card: Card) -> BiscaMove {
        BiscaMove::play(card)
    }
}

impl fmt::Display for BiscaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.card() {
            Some(card) => write!(f, "{card}"),
            None => write!(f, "exchange"),
        }
    }
}

impl fmt::Debug for BiscaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of Bisca moves: the playable cards, plus the exchange when it is allowed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BiscaMoves(u64);

impl BiscaMoves {
    /// The moves that play `cards`, with the exchange when `exchange` is true.
    #[inline]
    pub(super) const fn new(cards: CardSet, exchange: bool) -> BiscaMoves {
        BiscaMoves(cards.0 | (exchange as u64) << EXCHANGE_BIT)
    }

    /// The cards that may be played.
    #[inline]
    pub const fn cards(self) -> CardSet {
        CardSet(self.0 & !(1 << EXCHANGE_BIT))
    }

    /// True when the exchange is among the moves.
    #[inline]
    pub const fn has_exchange(self) -> bool {
        self.0 >> EXCHANGE_BIT & 1 != 0
    }
}

impl MoveSet<BiscaMove> for BiscaMoves {
    #[inline]
    fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    fn contains(&self, mv: BiscaMove) -> bool {
        self.0 >> mv.0 & 1 != 0
    }
    #[inline]
    fn nth(&self, k: usize) -> BiscaMove {
        // CardSet's select works on the raw bits, so the exchange bit is selected like a card.
        BiscaMove(CardSet(self.0).nth(k).index())
    }
    #[inline]
    fn random(&self, rng: &mut Rng) -> BiscaMove {
        BiscaMove(CardSet(self.0).random(rng).index())
    }
    #[inline]
    fn for_each(&self, mut f: impl FnMut(BiscaMove)) {
        let mut bits = self.0;
        while bits != 0 {
            f(BiscaMove(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }
    #[inline]
    fn bits(&self) -> u64 {
        self.0
    }
}

impl TreeMove for BiscaMove {
    type Mask = u64;
    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }
    #[inline]
    fn from_bit(bit: u32) -> BiscaMove {
        BiscaMove(bit as u8)
    }
}

impl fmt::Display for BiscaMoves {
    /// The cards as a [`CardSet`] writes them, then `exchange` if it is allowed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.cards().is_empty(), self.has_exchange()) {
            (false, true) => write!(f, "{} exchange", self.cards()),
            (true, true) => write!(f, "exchange"),
            _ => write!(f, "{}", self.cards()),
        }
    }
}

impl fmt::Debug for BiscaMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}
