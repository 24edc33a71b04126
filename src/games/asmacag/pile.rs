//! Card kinds and piles: ASMACAG has no suits, only kinds (numbers and the two specials), so
//! a hand, the board or the unseen pool is a multiset of kinds, kept as sixteen 4-bit counters
//! in one `u64`.
//!
//! Kind `k` for `k <= 13` is the number card `k`; kind 14 is ×2 and kind 15 is ÷2. A counter
//! holds at most 15 copies, so the deck options cap every kind at 15: then every pile, being
//! part of the deck, fits, and piles add and subtract as plain integers (no counter carries
//! into its neighbour).

use std::fmt;
use std::str::FromStr;

use crate::game::Rng;

/// The highest number a number card may carry.
pub const MAX_NUMBER: u8 = 13;
/// The most copies of one kind a pile (and so the deck) may hold.
pub const MAX_COPIES: u32 = 15;

/// One card kind: a number `0..=13`, [`Kind::DOUBLE`] (×2) or [`Kind::HALVE`] (÷2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

impl Kind {
    /// The ×2 card: doubles the factor.
    pub const DOUBLE: Kind = Kind(14);
    /// The ÷2 card: halves the factor.
    pub const HALVE: Kind = Kind(15);

    /// The number card `n` (`n <= 13`).
    #[inline]
    pub const fn number(n: u8) -> Kind {
        assert!(n <= MAX_NUMBER);
        Kind(n)
    }

    /// The kind with counter index `i` (`i < 16`).
    #[inline]
    pub(crate) const fn from_index(i: u32) -> Kind {
        Kind(i as u8)
    }

    /// The counter index, `0..16`.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The card's number, or `None` for ×2 and ÷2.
    #[inline]
    pub const fn value(self) -> Option<u8> {
        if self.0 <= MAX_NUMBER {
            Some(self.0)
        } else {
            None
        }
    }

    /// True for a number card.
    #[inline]
    pub const fn is_number(self) -> bool {
        self.0 <= MAX_NUMBER
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Kind::DOUBLE => f.write_str("x2"),
            Kind::HALVE => f.write_str("/2"),
            Kind(n) => write!(f, "{n}"),
        }
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Kind {
    type Err = String;

    /// `0`–`13`, `x2` (also `×2`, `*2`) or `/2` (also `÷2`, `%2`).
    fn from_str(text: &str) -> Result<Kind, String> {
        match text {
            "x2" | "×2" | "*2" => Ok(Kind::DOUBLE),
            "/2" | "÷2" | "%2" => Ok(Kind::HALVE),
            _ => match text.parse::<u8>() {
                Ok(n) if n <= MAX_NUMBER && !text.starts_with('+') => Ok(Kind(n)),
                _ => Err(format!(
                    "'{text}' is not an ASMACAG card (a number 0-{MAX_NUMBER}, x2 or /2)"
                )),
            },
        }
    }
}

/// Four bits per kind: the low bit of every counter.
const LOW_BITS: u64 = 0x1111_1111_1111_1111;
/// The counters of the number kinds (0–13).
const NUMBER_COUNTERS: u64 = 0x00FF_FFFF_FFFF_FFFF;

/// A multiset of card kinds: sixteen 4-bit counters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pile(u64);

impl Pile {
    /// No cards.
    pub const EMPTY: Pile = Pile(0);

    /// `copies` cards of `kind` (`copies <= 15`).
    #[inline]
    pub const fn of(kind: Kind, copies: u32) -> Pile {
        assert!(copies <= MAX_COPIES);
        Pile((copies as u64) << (4 * kind.0))
    }

    /// Copies of `kind`.
    #[inline]
    pub const fn count(self, kind: Kind) -> u32 {
        ((self.0 >> (4 * kind.0)) & 0xF) as u32
    }

    /// True when the pile holds at least one `kind`.
    #[inline]
    pub const fn contains(self, kind: Kind) -> bool {
        self.count(kind) > 0
    }

    /// Adds one `kind` (the pile must hold fewer than 15).
    #[inline]
    pub fn add(&mut self, kind: Kind) {
        debug_assert!(self.count(kind) < MAX_COPIES, "too many {kind}");
        self.0 += 1 << (4 * kind.0);
    }

    /// Takes one `kind` out (the pile must hold one).
    #[inline]
    pub fn remove(&mut self, kind: Kind) {
        debug_assert!(self.contains(kind), "no {kind} to remove");
        self.0 -= 1 << (4 * kind.0);
    }

    /// Both piles together (no kind may exceed 15 copies).
    #[inline]
    pub fn plus(self, other: Pile) -> Pile {
        debug_assert!(
            (0..16).all(|i| self.count(Kind(i)) + other.count(Kind(i)) <= MAX_COPIES),
            "{self:?} + {other:?} overflows a counter"
        );
        Pile(self.0 + other.0)
    }

    /// This pile without `other` (which must be part of it).
    #[inline]
    pub fn minus(self, other: Pile) -> Pile {
        debug_assert!(self.includes(other), "{other:?} is not part of {self:?}");
        Pile(self.0 - other.0)
    }

    /// True when every card of `other` is in this pile (as a multiset).
    pub fn includes(self, other: Pile) -> bool {
        (0..16).all(|i| self.count(Kind(i)) >= other.count(Kind(i)))
    }

    /// The number cards of this pile.
    #[inline]
    pub const fn numbers(self) -> Pile {
        Pile(self.0 & NUMBER_COUNTERS)
    }

    /// The lowest number card in the pile, if it holds any.
    #[inline]
    pub const fn lowest_number(self) -> Option<u8> {
        match self.numbers().kinds() {
            0 => None,
            bits => Some(bits.trailing_zeros() as u8),
        }
    }

    /// The highest number card in the pile, if it holds any.
    #[inline]
    pub const fn highest_number(self) -> Option<u8> {
        match self.numbers().kinds() {
            0 => None,
            bits => Some((15 - bits.leading_zeros()) as u8),
        }
    }

    /// True when the pile is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        // Pairs of counters into bytes (at most 30 each), then all bytes summed by one multiply.
        let bytes = (self.0 & 0x0F0F_0F0F_0F0F_0F0F) + ((self.0 >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// One bit per kind present: bit `k` is set when the pile holds kind `k`.
    #[inline]
    pub const fn kinds(self) -> u16 {
        // A set bit at the bottom of every non-zero counter, then the sixteen bits (4 apart)
        // gathered into one u16 by folding halves together.
        let mut x = self.0 | (self.0 >> 1);
        x |= x >> 2;
        x &= LOW_BITS;
        x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
        x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
        x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
        ((x | (x >> 24)) & 0xFFFF) as u16
    }

    /// The `k`-th card in kind order, counting copies (`k < len()`).
    #[inline]
    pub fn nth(self, mut k: u32) -> Kind {
        debug_assert!(k < self.len());
        let mut x = self.0;
        let mut i = 0;
        loop {
            let c = (x & 0xF) as u32;
            if k < c {
                return Kind(i);
            }
            k -= c;
            x >>= 4;
            i += 1;
        }
    }

    /// A uniformly random card of a non-empty pile: each copy is equally likely.
    #[inline]
    pub fn random(self, rng: &mut Rng) -> Kind {
        self.nth(crate::cards::random_below(rng, self.len()))
    }

    /// `n` cards drawn without replacement, every set of `n` of the pile's physical cards
    /// equally likely (so the counts are multivariate hypergeometric). `n <= len()`.
    #[inline]
    pub fn draw(self, n: u32, rng: &mut Rng) -> Pile {
        debug_assert!(n <= self.len());
        let (mut rest, mut drawn) = (self, Pile::EMPTY);
        for _ in 0..n {
            let kind = rest.random(rng);
            rest.remove(kind);
            drawn.add(kind);
        }
        drawn
    }

    /// Every card, in kind order, copies repeated.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        (0..16u8).flat_map(move |i| std::iter::repeat_n(Kind(i), self.count(Kind(i)) as usize))
    }
}

impl fmt::Display for Pile {
    /// Cards in kind order separated by spaces (`1 1 4 x2 /2`); the empty pile is empty text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, k) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl FromStr for Pile {
    type Err = String;

    /// Cards separated by whitespace, in any order.
    fn from_str(text: &str) -> Result<Pile, String> {
        let mut pile = Pile::EMPTY;
        for token in text.split_whitespace() {
            let kind: Kind = token.parse()?;
            if pile.count(kind) == MAX_COPIES {
                return Err(format!("more than {MAX_COPIES} copies of {kind}"));
            }
            pile.add(kind);
        }
        Ok(pile)
    }
}

impl FromIterator<Kind> for Pile {
    fn from_iter<I: IntoIterator<Item = Kind>>(iter: I) -> Pile {
        let mut pile = Pile::EMPTY;
        for k in iter {
            pile.add(k);
        }
        pile
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;

    fn pile(text: &str) -> Pile {
        text.parse().unwrap()
    }

    #[test]
    fn lowest_and_highest_numbers_skip_the_specials() {
        assert_eq!(pile("3 5 5 x2 /2").lowest_number(), Some(3));
        assert_eq!(pile("3 5 5 x2 /2").highest_number(), Some(5));
        assert_eq!(pile("x2 /2 /2").lowest_number(), None);
        assert_eq!(pile("x2 /2 /2").highest_number(), None);
        assert_eq!(pile("0 13").highest_number(), Some(13));
    }

    #[test]
    fn counts_kinds_and_length_agree_with_a_plain_count() {
        let mut rng = rng_from_seed(1);
        for _ in 0..2000 {
            let counts: Vec<u32> = (0..16)
                .map(|_| crate::cards::random_below(&mut rng, 16))
                .collect();
            let p: Pile = (0..16u8)
                .flat_map(|i| std::iter::repeat_n(Kind(i), counts[i as usize] as usize))
                .collect();
            assert_eq!(p.len(), counts.iter().sum::<u32>());
            let mask = (0..16)
                .filter(|&i| counts[i] > 0)
                .fold(0u16, |m, i| m | 1 << i);
            assert_eq!(p.kinds(), mask, "{counts:?}");
            for (i, &c) in counts.iter().enumerate() {
                assert_eq!(p.count(Kind(i as u8)), c);
            }
            let listed: Vec<Kind> = p.iter().collect();
            for (k, kind) in listed.iter().enumerate() {
                assert_eq!(p.nth(k as u32), *kind);
            }
        }
    }

    #[test]
    fn notation_round_trips_and_rejects_what_is_not_a_card() {
        let p = pile("6 x2 1 /2 1 13 0");
        assert_eq!(p.to_string(), "0 1 1 6 13 x2 /2");
        assert_eq!(pile(&p.to_string()), p);
        assert_eq!(pile("×2 ÷2"), pile("x2 /2"));
        assert_eq!(Pile::EMPTY.to_string(), "");
        assert!(pile("x2").numbers().is_empty());
        assert_eq!(pile("3 x2 4").numbers(), pile("3 4"));
        for bad in [
            "14",
            "x3",
            "-1",
            "+3",
            "3.5",
            "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
        ] {
            assert!(bad.parse::<Pile>().is_err(), "{bad}");
        }
    }

    #[test]
    fn plus_minus_and_includes() {
        let (a, b) = (pile("1 2 2 x2"), pile("2 /2"));
        assert_eq!(a.plus(b), pile("1 2 2 2 x2 /2"));
        assert_eq!(a.plus(b).minus(b), a);
        assert!(a.includes(pile("2 2")));
        assert!(!a.includes(pile("2 2 2")));
        assert!(!a.includes(b));
    }

    #[test]
    fn draws_are_hypergeometric() {
        // Pool: 2 × "1", 1 × "2", 3 × x2 (6 cards); draw 2. The 15 equally likely pairs give
        // {1,1}: 1, {1,2}: 2, {1,x2}: 6, {2,x2}: 3, {x2,x2}: 3. With 150,000 draws each count is
        // Binomial(150000, p); 6 standard deviations is at most 6·sqrt(150000/4) ≈ 1162.
        let pool = pile("1 1 2 x2 x2 x2");
        let mut rng = rng_from_seed(8);
        let expected = [
            (pile("1 1"), 1.0),
            (pile("1 2"), 2.0),
            (pile("1 x2"), 6.0),
            (pile("2 x2"), 3.0),
            (pile("x2 x2"), 3.0),
        ];
        let mut counts = [0f64; 5];
        let n = 150_000;
        for _ in 0..n {
            let d = pool.draw(2, &mut rng);
            let i = expected
                .iter()
                .position(|(p, _)| *p == d)
                .expect("a possible draw");
            counts[i] += 1.0;
        }
        for (i, (_, w)) in expected.iter().enumerate() {
            let want = n as f64 * w / 15.0;
            assert!((counts[i] - want).abs() < 1162.0, "{counts:?}");
        }
    }
}
