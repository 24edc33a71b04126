//! Move masks: one bit per move of a game, the index of a search tree's children.
//!
//! Search trees keep a node's children in one block indexed by the rank of the move's bit among
//! the moves possible there, and a mask of the moves that have a child (see
//! `crate::search::tree`). Games with at most 64 distinct moves (the card games) use `u64`;
//! games with more (ASMACAG's 198 actions, Pentago-Swap's 216 moves) use `[u64; 4]`. Every
//! operation the tree and its walk need is here, so the tree is the same code for both and a
//! card game's node, and its compiled search, are what they were with a bare `u64`.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::cards::select_bit;

/// A set of move bits below [`MoveMask::BITS`].
pub trait MoveMask: Copy + Eq + Debug + Send + Sync + 'static {
    /// Bits in the mask: every move's bit is below it.
    const BITS: u32;
    /// No move.
    const EMPTY: Self;
    /// Every move bit.
    const FULL: Self;
    /// The mask as a tree node stores it, shared between threads.
    type Atomic: AtomicMask<Self>;

    /// This mask with `bit` set too.
    fn with(self, bit: u32) -> Self;
    /// True when `bit` is set.
    fn has(self, bit: u32) -> bool;
    /// The bits set in both.
    fn and(self, other: Self) -> Self;
    /// The bits set in `self` and not in `other`.
    fn and_not(self, other: Self) -> Self;
    /// True when no bit is set.
    fn is_empty(self) -> bool;
    /// Number of bits set.
    fn count(self) -> u32;
    /// Number of bits set below `bit`.
    fn rank(self, bit: u32) -> u32;
    /// The `k`-th set bit counting from the lowest (`k < count()`).
    fn select(self, k: u32) -> u32;
    /// Clears the lowest set bit and returns it, or `None` when no bit is set.
    fn pop_lowest(&mut self) -> Option<u32>;
}

/// A [`MoveMask`] that threads can read while one thread at a time adds bits.
pub trait AtomicMask<K>: Send + Sync {
    /// A cell holding `mask`.
    fn new(mask: K) -> Self;
    /// The mask. With a wide mask each word is loaded on its own: a reader racing a writer sees
    /// every bit published before its load, which is all the tree needs (bits are only added).
    fn load(&self, order: Ordering) -> K;
    /// Replaces the mask.
    fn store(&self, mask: K, order: Ordering);
}

impl MoveMask for u64 {
    const BITS: u32 = 64;
    const EMPTY: u64 = 0;
    const FULL: u64 = u64::MAX;
    type Atomic = AtomicU64;

    #[inline(always)]
    fn with(self, bit: u32) -> u64 {
        self | 1 << bit
    }
    #[inline(always)]
    fn has(self, bit: u32) -> bool {
        self >> bit & 1 != 0
    }
    #[inline(always)]
    fn and(self, other: u64) -> u64 {
        self & other
    }
    #[inline(always)]
    fn and_not(self, other: u64) -> u64 {
        self & !other
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn rank(self, bit: u32) -> u32 {
        (self & ((1u64 << bit) - 1)).count_ones()
    }
    #[inline(always)]
    fn select(self, k: u32) -> u32 {
        select_bit(self, k)
    }
    #[inline(always)]
    fn pop_lowest(&mut self) -> Option<u32> {
        if *self == 0 {
            return None;
        }
        let bit = self.trailing_zeros();
        *self &= *self - 1;
        Some(bit)
    }
}

impl AtomicMask<u64> for AtomicU64 {
    #[inline(always)]
    fn new(mask: u64) -> AtomicU64 {
        AtomicU64::new(mask)
    }
    #[inline(always)]
    fn load(&self, order: Ordering) -> u64 {
        AtomicU64::load(self, order)
    }
    #[inline(always)]
    fn store(&self, mask: u64, order: Ordering) {
        AtomicU64::store(self, mask, order)
    }
}

/// Words of a [`Wide`] mask.
const WORDS: usize = 4;

/// A 256-bit mask: bit `b` is bit `b % 64` of word `b / 64`.
pub type Wide = [u64; WORDS];

impl MoveMask for Wide {
    const BITS: u32 = 64 * WORDS as u32;
    const EMPTY: Wide = [0; WORDS];
    const FULL: Wide = [u64::MAX; WORDS];
    type Atomic = [AtomicU64; WORDS];

    #[inline]
    fn with(mut self, bit: u32) -> Wide {
        self[bit as usize / 64] |= 1 << (bit % 64);
        self
    }
    #[inline]
    fn has(self, bit: u32) -> bool {
        self[bit as usize / 64] >> (bit % 64) & 1 != 0
    }
    #[inline]
    fn and(self, other: Wide) -> Wide {
        std::array::from_fn(|w| self[w] & other[w])
    }
    #[inline]
    fn and_not(self, other: Wide) -> Wide {
        std::array::from_fn(|w| self[w] & !other[w])
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.iter().fold(0, |a, w| a | w) == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn rank(self, bit: u32) -> u32 {
        let word = bit as usize / 64;
        let below: u32 = self[..word].iter().map(|w| w.count_ones()).sum();
        below + self[word].rank(bit % 64)
    }
    #[inline]
    fn select(self, k: u32) -> u32 {
        let mut k = k;
        for (w, &word) in self.iter().enumerate() {
            let n = word.count_ones();
            if k < n {
                return 64 * w as u32 + select_bit(word, k);
            }
            k -= n;
        }
        panic!("select past the last set bit of a move mask")
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<u32> {
        for (w, word) in self.iter_mut().enumerate() {
            if let Some(bit) = word.pop_lowest() {
                return Some(64 * w as u32 + bit);
            }
        }
        None
    }
}

impl AtomicMask<Wide> for [AtomicU64; WORDS] {
    #[inline]
    fn new(mask: Wide) -> [AtomicU64; WORDS] {
        mask.map(AtomicU64::new)
    }
    #[inline]
    fn load(&self, order: Ordering) -> Wide {
        std::array::from_fn(|w| self[w].load(order))
    }
    #[inline]
    fn store(&self, mask: Wide, order: Ordering) {
        for (cell, word) in self.iter().zip(mask) {
            cell.store(word, order);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: a mask as a sorted list of bits.
    fn bits<K: MoveMask>(mut mask: K) -> Vec<u32> {
        std::iter::from_fn(|| mask.pop_lowest()).collect()
    }

    fn wide(list: &[u32]) -> Wide {
        list.iter().fold(Wide::EMPTY, |m, &b| m.with(b))
    }

    proptest! {
        #[test]
        fn wide_masks_agree_with_a_list_of_bits(
            a in proptest::collection::btree_set(0u32..256, 0..80),
            b in proptest::collection::btree_set(0u32..256, 0..80),
            probe in 0u32..256,
        ) {
            let (la, lb): (Vec<u32>, Vec<u32>) = (a.iter().copied().collect(), b.iter().copied().collect());
            let (ma, mb) = (wide(&la), wide(&lb));
            prop_assert_eq!(bits(ma), la.clone());
            prop_assert_eq!(ma.count() as usize, la.len());
            prop_assert_eq!(ma.is_empty(), la.is_empty());
            prop_assert_eq!(ma.has(probe), a.contains(&probe));
            prop_assert_eq!(ma.rank(probe) as usize, la.iter().filter(|&&x| x < probe).count());
            for (k, &bit) in la.iter().enumerate() {
                prop_assert_eq!(ma.select(k as u32), bit);
            }
            let both: Vec<u32> = la.iter().copied().filter(|x| b.contains(x)).collect();
            let only: Vec<u32> = la.iter().copied().filter(|x| !b.contains(x)).collect();
            prop_assert_eq!(bits(ma.and(mb)), both);
            prop_assert_eq!(bits(ma.and_not(mb)), only);
            let cell = <Wide as MoveMask>::Atomic::new(ma);
            prop_assert_eq!(cell.load(Ordering::Relaxed), ma);
            cell.store(mb, Ordering::Relaxed);
            prop_assert_eq!(cell.load(Ordering::Relaxed), mb);
        }

        #[test]
        fn narrow_masks_agree_with_a_list_of_bits(a in any::<u64>(), probe in 0u32..64) {
            let list: Vec<u32> = (0..64).filter(|&b| a >> b & 1 != 0).collect();
            prop_assert_eq!(bits(a), list.clone());
            prop_assert_eq!(a.rank(probe) as usize, list.iter().filter(|&&x| x < probe).count());
            for (k, &bit) in list.iter().enumerate() {
                prop_assert_eq!(a.select(k as u32), bit);
            }
        }
    }
}
