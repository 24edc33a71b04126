//! Cards and sets of cards as bitboards.
//!
//! A [`Card`] is a bit index: `suit * 16 + rank`, ranks in natural order (2 = 0 … A = 12).
//! A [`CardSet`] is a `u64` with one 16-bit lane per suit, so set algebra, suit masks and
//! "highest card of a suit" are single machine instructions. Games that rank cards in another
//! order (Sueca's A 7 K J Q …) keep that order in the game, not here.
//!
//! ```
//! use cardsearch::{Card, CardSet};
//! let hand: CardSet = "AS 7S KH 2C".parse().unwrap();
//! assert_eq!(hand.len(), 4);
//! assert!(hand.contains("7S".parse::<Card>().unwrap()));
//! assert_eq!(hand.to_string(), "2C KH 7S AS");
//! ```

use std::fmt;
use std::hint;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::str::FromStr;

/// The four suits, in the order of their bit lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// ♣
    Clubs = 0,
    /// ♦
    Diamonds = 1,
    /// ♥
    Hearts = 2,
    /// ♠
    Spades = 3,
}

impl Suit {
    /// All suits in lane order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit of lane `i` (0..4).
    #[inline]
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    /// The lane index 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ASCII letter of the card notation.
    pub const fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// The suit symbol, for people.
    pub const fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// Parses one suit letter (either case).
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// The thirteen ranks in natural order (2 lowest, ace highest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = two … 12 = ace).
    #[inline]
    pub const fn from_index(i: usize) -> Rank {
        Rank::ALL[i]
    }

    /// Index 0 (two) … 12 (ace).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ASCII character of the card notation (`T` for ten).
    pub const fn letter(self) -> char {
        [
            '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
        ][self as usize]
    }

    /// Parses a rank: one of `23456789TJQKA` (either case) or `10`.
    pub fn parse(s: &str) -> Option<Rank> {
        if s == "10" {
            return Some(Rank::Ten);
        }
        let mut chars = s.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        Rank::ALL
            .iter()
            .copied()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }
}

/// One card: a bit index `suit * 16 + rank` into a [`CardSet`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    #[inline]
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((suit as u8) * 16 + rank as u8)
    }

    /// The card at bit `index`, if that bit is a real card (lane offset below 13).
    #[inline]
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 64 && index % 16 < 13 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The bit index of this card in a [`CardSet`].
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 >> 4) as usize)
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_index((self.0 & 15) as usize)
    }

    /// The one-card set.
    #[inline]
    pub const fn set(self) -> CardSet {
        CardSet(1u64 << self.0)
    }

    /// Rank then suit symbol, e.g. `Q♠`, for people.
    pub fn pretty(self) -> String {
        format!("{}{}", self.rank().letter(), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card or a set of cards could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardParseError {
    /// The text is not rank-then-suit.
    #[error(
        "malformed card '{0}': expected a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S)"
    )]
    Malformed(String),
    /// The same card appears twice in a set.
    #[error("card {0} appears twice")]
    Duplicate(Card),
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        let s = text.trim();
        let malformed = || CardParseError::Malformed(text.to_string());
        let suit_char = s.chars().last().ok_or_else(malformed)?;
        let suit = Suit::from_letter(suit_char).ok_or_else(malformed)?;
        let rank = Rank::parse(&s[..s.len() - suit_char.len_utf8()]).ok_or_else(malformed)?;
        Ok(Card::new(rank, suit))
    }
}

/// A set of cards: one bit per card, one 16-bit lane per suit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(pub u64);

/// The bits of a lane that are real ranks.
const LANE: u64 = 0x1FFF;
/// The lowest bit of every lane: one rank in all four suits, shifted by the rank.
const RANK_COLUMN: u64 = 1 | 1 << 16 | 1 << 32 | 1 << 48;

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52-card pack.
    pub const FULL: CardSet = CardSet(LANE | LANE << 16 | LANE << 32 | LANE << 48);

    /// All thirteen cards of one suit.
    #[inline]
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE << (16 * suit as u32))
    }

    /// All four cards of one rank.
    #[inline]
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(0x0001_0001_0001_0001u64 << rank as u32)
    }

    /// The set of the given cards.
    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> CardSet {
        cards.into_iter().fold(CardSet::EMPTY, |s, c| s | c.set())
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when there are no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 != 0
    }

    /// True when every card of `other` is in `self`.
    #[inline]
    pub const fn is_superset(self, other: CardSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// The cards of one suit in this set.
    #[inline]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & CardSet::suit(suit).0)
    }

    /// The set with `card` added.
    #[inline]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// The set with `card` removed.
    #[inline]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.0))
    }

    /// Adds a card.
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes a card.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The card with the lowest bit index (lowest suit lane, then lowest rank).
    #[inline]
    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The card with the lowest bit index, for a set known not to be empty (of an empty set it
    /// gives a card outside the pack, like [`CardSet::nth`] past the end): one instruction, for
    /// hot loops where the set's size is known.
    #[inline]
    pub fn lowest(self) -> Card {
        debug_assert!(!self.is_empty());
        Card(self.0.trailing_zeros() as u8)
    }

    /// The card with the highest bit index.
    #[inline]
    pub fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(63 - self.0.leading_zeros() as u8))
        }
    }

    /// Removes and returns the lowest card.
    #[inline]
    pub fn pop_first(&mut self) -> Option<Card> {
        let c = self.first()?;
        self.0 &= self.0 - 1;
        Some(c)
    }

    /// The `k`-th card (0-based) in bit order; `k` must be below `len()`.
    #[inline]
    pub fn nth(self, k: usize) -> Card {
        debug_assert!(k < self.len());
        Card(select_bit(self.0, k as u32) as u8)
    }

    /// A uniformly random member; the set must not be empty.
    #[inline]
    pub fn random<R: rand::Rng + ?Sized>(self, rng: &mut R) -> Card {
        debug_assert!(!self.is_empty());
        self.nth(random_below(rng, self.len() as u32) as usize)
    }

    /// The members of the lowest rank present, in every suit that holds it (empty for an empty
    /// set): the four lanes folded into one, so one bit scan instead of a loop over the cards.
    #[inline]
    pub fn lowest_rank(self) -> CardSet {
        match self.ranks_present() {
            0 => CardSet::EMPTY,
            ranks => CardSet(self.0 & RANK_COLUMN << ranks.trailing_zeros()),
        }
    }

    /// The members of the highest rank present, in every suit that holds it (empty for an
    /// empty set).
    #[inline]
    pub fn highest_rank(self) -> CardSet {
        match self.ranks_present().checked_ilog2() {
            None => CardSet::EMPTY,
            Some(top) => CardSet(self.0 & RANK_COLUMN << top),
        }
    }

    /// One bit per rank held in any suit, in lane order.
    #[inline]
    fn ranks_present(self) -> u64 {
        (self.0 | self.0 >> 16 | self.0 >> 32 | self.0 >> 48) & LANE
    }

    /// The members with the smallest `key` (empty for an empty set).
    #[inline]
    pub fn min_set_by_key(self, mut key: impl FnMut(Card) -> u32) -> CardSet {
        let mut best = u32::MAX;
        let mut ties = CardSet::EMPTY;
        for card in self.iter() {
            let k = key(card);
            if k < best {
                best = k;
                ties = card.set();
            } else if k == best {
                ties.insert(card);
            }
        }
        ties
    }

    /// A uniformly random card among the members with the smallest `key`, or `None` for an
    /// empty set: how rule-based playout policies choose ("the least valuable card") while
    /// staying random between cards the rule cannot tell apart.
    #[inline]
    pub fn random_min_by_key<R: rand::Rng + ?Sized>(
        self,
        rng: &mut R,
        key: impl FnMut(Card) -> u32,
    ) -> Option<Card> {
        let ties = self.min_set_by_key(key);
        (!ties.is_empty()).then(|| ties.random(rng))
    }

    /// `k` distinct cards chosen uniformly at random (all of them if `k >= len()`).
    #[inline]
    pub fn random_subset<R: rand::Rng + ?Sized>(self, k: usize, rng: &mut R) -> CardSet {
        let n = self.len();
        if k >= n {
            return self;
        }
        // Draw whichever side is smaller: k members, or the n - k that stay out.
        let (draw, keep_drawn) = if 2 * k <= n {
            (k, true)
        } else {
            (n - k, false)
        };
        let mut rest = self;
        let mut drawn = CardSet::EMPTY;
        for _ in 0..draw {
            let c = rest.random(rng);
            rest.remove(c);
            drawn.insert(c);
        }
        if keep_drawn { drawn } else { rest }
    }

    /// Iterates over the cards in bit order.
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards written in notation with unicode suit symbols, for people.
    pub fn pretty(self) -> String {
        self.iter().map(Card::pretty).collect::<Vec<_>>().join(" ")
    }
}

/// A set of at most ten cards as a list in card order, six bits a card in one `u64`.
///
/// Its `i`-th card (the set's [`CardSet::nth`]) is a shift and a mask, where `nth` is a select
/// with a chain of dependent steps, and taking a card out is a few more operations: playouts
/// keep one beside each hand's set, and find a legal set's `k`-th card at the position the
/// hand's own counts give. (A `u128` version for 13-card hands measured slower than `nth`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardList(u64);

impl CardList {
    /// How many cards it holds at most.
    pub const CAPACITY: usize = 10;

    /// The cards of `set` in card order; `set` must hold at most ten cards.
    #[inline]
    pub fn new(set: CardSet) -> CardList {
        debug_assert!(set.len() <= CardList::CAPACITY);
        // Always ten steps, with no branch: a loop over the set's cards mispredicted its exit
        // at every list built. Past the last card the set is empty, and an empty set's
        // trailing-zero count, 64, masks to 0.
        let (mut bits, mut list) = (set.0, 0);
        for i in 0..CardList::CAPACITY {
            list |= (bits.trailing_zeros() as u64 & 63) << (6 * i);
            bits &= bits.wrapping_sub(1);
        }
        CardList(list)
    }

    /// The card at position `i`: the set's `nth(i)`; `i` must be below the length.
    #[inline]
    pub fn get(self, i: usize) -> Card {
        Card((self.0 >> (6 * i)) as u8 & 63)
    }

    /// Takes out the card at position `i` (below the length) and returns it; the cards after it
    /// move up one place.
    #[inline]
    pub fn take(&mut self, i: usize) -> Card {
        let card = self.get(i);
        let below = (1u64 << (6 * i)) - 1;
        self.0 = self.0 & below | (self.0 >> 6) & !below;
        card
    }

    /// Puts `card` in at position `i` (at most the length, which must stay within the
    /// capacity); the cards from there on move down one place. In card order, `i` is the
    /// number of cards in the list below `card`.
    #[inline]
    pub fn insert(&mut self, i: usize, card: Card) {
        let below = (1u64 << (6 * i)) - 1;
        self.0 = self.0 & below | (card.0 as u64) << (6 * i) | (self.0 & !below) << 6;
    }
}

/// A uniform integer in `0..n` (`n > 0`), exactly: Lemire's multiply-shift with its rejection
/// step, which almost never loops (probability below n / 2^32).
#[inline]
pub fn random_below<R: rand::Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = (rng.next_u32() as u64) * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (rng.next_u32() as u64) * n as u64;
        }
    }
    (m >> 32) as u32
}

/// Index of the `k`-th set bit of `x` (0-based); `k` must be below `x.count_ones()`.
///
/// Three halving steps (is the bit in the low or the high 32, 16, 8 bits? one hardware popcount
/// each) narrow `x` to one byte, and a 2 KiB table gives the bit within it. There is no branch: in random playouts `k` and the set are
/// unpredictable, and the bit-stripping loop this replaced mispredicted about once per move.
/// Each step is a popcount, a compare and a select, so the chain from `k` to the answer is short.
/// (BMI2's `pdep` would do it in one instruction, but it is microcoded and slow on AMD Zen 1
/// and 2, and not in the x86-64-v2 baseline.)
#[inline]
pub(crate) fn select_bit(x: u64, k: u32) -> u32 {
    debug_assert!(k < x.count_ones());
    let (mut x, mut k, mut base) = (x, k, 0);
    for width in [32, 16, 8] {
        let low = (x & ((1u64 << width) - 1)).count_ones();
        // Hinted so that the optimiser keeps conditional moves: with plain `if`s it turned them
        // into branches in one caller, at a mispredict per level.
        let high = k >= low;
        k = hint::select_unpredictable(high, k.wrapping_sub(low), k);
        x = hint::select_unpredictable(high, x >> width, x);
        base = hint::select_unpredictable(high, base + width, base);
    }
    base + SELECT_IN_BYTE[(k << 8 | (x as u32 & 0xFF)) as usize & 0x7FF] as u32
}

/// `SELECT_IN_BYTE[k * 256 + b]` is the position of the `k`-th set bit of the byte `b` (0 where
/// `b` has no such bit).
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut table = [0u8; 2048];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                table[k * 256 + b] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    table
};

/// Iterator over a [`CardSet`], lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = Card(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        CardSet::from_cards(iter)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for CardSet {
            type Output = CardSet;
            #[inline]
            fn $f(self, rhs: CardSet) -> CardSet {
                CardSet(self.0 $op rhs.0)
            }
        }
        impl $atr for CardSet {
            #[inline]
            fn $af(&mut self, rhs: CardSet) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl Sub for CardSet {
    type Output = CardSet;
    #[inline]
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl SubAssign for CardSet {
    #[inline]
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

impl Not for CardSet {
    type Output = CardSet;
    /// The complement within the 52-card pack.
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

impl fmt::Display for CardSet {
    /// Cards in bit order separated by single spaces; `-` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "-");
        }
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

impl FromStr for CardSet {
    type Err = CardParseError;

    /// Cards separated by spaces or commas; `-` or an empty string is the empty set.
    fn from_str(s: &str) -> Result<CardSet, CardParseError> {
        let mut set = CardSet::EMPTY;
        for token in s.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() || token == "-" {
                continue;
            }
            let card: Card = token.parse()?;
            if set.contains(card) {
                return Err(CardParseError::Duplicate(card));
            }
            set.insert(card);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng as _, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn notation_round_trips_and_accepts_ten() {
        let c: Card = "10h".parse().unwrap();
        assert_eq!(c, Card::new(Rank::Ten, Suit::Hearts));
        assert_eq!(c.to_string(), "TH");
        let all: CardSet = CardSet::FULL.to_string().parse().unwrap();
        assert_eq!(all, CardSet::FULL);
        assert_eq!(all.len(), 52);
    }

    #[test]
    fn malformed_cards_and_duplicates_are_errors() {
        for bad in ["", "1S", "AX", "A", "QSS", "11C", "♠A"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
        assert_eq!(
            "AS KS AS".parse::<CardSet>(),
            Err(CardParseError::Duplicate("AS".parse().unwrap()))
        );
        assert!("AS KZ".parse::<CardSet>().is_err());
    }

    #[test]
    fn set_algebra_and_suit_lanes() {
        let a: CardSet = "AS KS 2H".parse().unwrap();
        let b: CardSet = "KS 3C".parse().unwrap();
        assert_eq!((a & b).to_string(), "KS");
        assert_eq!((a - b).to_string(), "2H AS");
        assert_eq!((a | b).len(), 4);
        assert_eq!(a.of_suit(Suit::Spades).len(), 2);
        assert_eq!((!a).len(), 49);
        assert_eq!(a.last(), Some("AS".parse().unwrap()));
        assert_eq!(CardSet::rank(Rank::Ace).len(), 4);
    }

    #[test]
    fn nth_matches_iteration_order() {
        let s: CardSet = "2C 9C AD 5H TS KS".parse().unwrap();
        let listed: Vec<Card> = s.iter().collect();
        for (k, c) in listed.iter().enumerate() {
            assert_eq!(s.nth(k), *c);
        }
        for k in 0..52 {
            assert_eq!(CardSet::FULL.nth(k), CardSet::FULL.iter().nth(k).unwrap());
        }
    }

    #[test]
    fn select_matches_bit_stripping_on_random_words() {
        // The broadword select against the plain definition (clear the k lowest bits, take the
        // lowest left), on words of every density, including bit 63 and the full word.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut words = vec![u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001];
        for _ in 0..20_000 {
            let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
            words.extend([a, a & b, a & b & c, a | b]);
        }
        for x in words {
            let mut y = x;
            for k in 0..x.count_ones() {
                assert_eq!(select_bit(x, k), y.trailing_zeros(), "x={x:#x} k={k}");
                y &= y - 1;
            }
        }
    }

    #[test]
    fn card_lists_take_cards_as_the_set_numbers_them() {
        // Random sets of every size up to the capacity; taking random positions one by one must
        // give the set's nth card each time, and leave the list of the rest.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for _ in 0..2_000 {
            for size in 1..=CardList::CAPACITY {
                let set = CardSet::FULL.random_subset(size, &mut rng);
                let mut rest = set;
                let mut list = CardList::new(set);
                while !rest.is_empty() {
                    let i = random_below(&mut rng, rest.len() as u32) as usize;
                    let card = rest.nth(i);
                    assert_eq!(list.get(i), card);
                    assert_eq!(list.take(i), card);
                    rest.remove(card);
                    assert_eq!(list, CardList::new(rest));
                }
                // And back in, in random order, each at the place of the cards below it.
                let mut back = set;
                while !back.is_empty() {
                    let card = back.random(&mut rng);
                    back.remove(card);
                    list.insert((rest.0 & (card.set().0 - 1)).count_ones() as usize, card);
                    rest.insert(card);
                    assert_eq!(list, CardList::new(rest));
                }
            }
        }
    }

    #[test]
    fn lowest_and_highest_rank_are_the_rank_extremes_in_every_suit() {
        let mut rng = crate::game::rng_from_seed(12);
        assert_eq!(CardSet::EMPTY.lowest_rank(), CardSet::EMPTY);
        assert_eq!(CardSet::EMPTY.highest_rank(), CardSet::EMPTY);
        for size in 0..2000 {
            let set = CardSet::FULL.random_subset(1 + size % 20, &mut rng);
            let rank = |c: Card| c.rank().index() as u32;
            assert_eq!(set.lowest_rank(), set.min_set_by_key(rank), "{set}");
            assert_eq!(
                set.highest_rank(),
                set.min_set_by_key(|c| 12 - rank(c)),
                "{set}"
            );
        }
        let hand: CardSet = "3C 3S 9H AH AD 5D".parse().unwrap();
        assert_eq!(hand.lowest_rank().to_string(), "3C 3S");
        assert_eq!(hand.highest_rank().to_string(), "AD AH");
    }

    #[test]
    fn random_member_is_uniform() {
        // 6 cards, 60,000 draws: each count ~ Binomial(60000, 1/6), sd ≈ 91; 6 sd = 548.
        let s: CardSet = "2C 9C AD 5H TS KS".parse().unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut counts = [0u32; 64];
        for _ in 0..60_000 {
            counts[s.random(&mut rng).index() as usize] += 1;
        }
        for c in s {
            let n = counts[c.index() as usize] as i64;
            assert!((n - 10_000).abs() < 548, "{c}: {n}");
        }
    }

    #[test]
    fn random_subset_has_the_right_size_and_stays_inside() {
        let s: CardSet = "2C 9C AD 5H TS KS 3S".parse().unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for k in 0..=8 {
            let sub = s.random_subset(k, &mut rng);
            assert_eq!(sub.len(), k.min(7));
            assert!(s.is_superset(sub));
        }
    }
}
