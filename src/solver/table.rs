//! The solver's transposition table: preallocated, two slots per bucket, generations instead
//! of clearing.
//!
//! An entry holds a position's key (two words, compared in full: no false hits), a lower and an
//! upper bound on the value still to come from it, the best move found, the number of cards
//! left (how much work the entry saved) and the generation it was written in. Each solve of a
//! new deal starts a new generation, which makes every older entry free in O(1); after 255
//! generations the table is cleared once.
//!
//! A bucket is two slots: the first keeps the entry that saved the most work (most cards left),
//! the second takes whatever the first refuses. The table is allocated zeroed, so the operating
//! system maps its pages only as they are written.

/// Bounds and best move of one position, as the search reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Lower bound on the value still to come.
    pub lo: i16,
    /// Upper bound on the value still to come.
    pub hi: i16,
    /// The bit index of the best card found, or [`NO_MOVE`].
    pub best: u8,
}

/// [`Bounds::best`] when no move is known.
pub const NO_MOVE: u8 = 0xFF;

/// One slot: the key, then bounds, move, cards left and generation packed in one word.
type Slot = [u64; 3];

/// The transposition table.
pub struct Table {
    slots: Vec<Slot>,
    /// Bucket index mask (buckets are two slots).
    mask: usize,
    generation: u8,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("slots", &self.slots.len())
            .field("generation", &self.generation)
            .finish()
    }
}

#[inline]
fn pack(b: Bounds, cards: u8, generation: u8) -> u64 {
    b.lo as u16 as u64
        | (b.hi as u16 as u64) << 16
        | (b.best as u64) << 32
        | (cards as u64) << 40
        | (generation as u64) << 48
}

#[inline]
fn unpack(word: u64) -> Bounds {
    Bounds {
        lo: word as u16 as i16,
        hi: (word >> 16) as u16 as i16,
        best: (word >> 32) as u8,
    }
}

#[inline]
fn cards(word: u64) -> u8 {
    (word >> 40) as u8
}

#[inline]
fn generation(word: u64) -> u8 {
    (word >> 48) as u8
}

impl Table {
    /// A table of `2^bits` slots (24 bytes each), `bits` from 1 to 30.
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(1, 30);
        Table {
            slots: vec![[0u64; 3]; 1 << bits],
            mask: (1 << (bits - 1)) - 1,
            generation: 1,
        }
    }

    /// Slots in the table.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least two slots.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets every entry: the next deal's positions share no key with this one's.
    pub fn new_deal(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Generation 0 marks never-written slots: clear once, start again at 1.
            self.slots.fill([0; 3]);
            self.generation = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: [u64; 2]) -> usize {
        let h = (key[0] ^ key[1].rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 32) as usize & self.mask) * 2
    }

    /// The bounds stored for `key` in this generation.
    #[inline]
    pub fn probe(&self, key: [u64; 2]) -> Option<Bounds> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            if slot[0] == key[0] && slot[1] == key[1] && generation(slot[2]) == self.generation {
                return Some(unpack(slot[2]));
            }
        }
        None
    }

    /// Stores `bounds` for `key`, a position with `cards` cards left. An entry already there
    /// for the key is replaced (the caller has merged its bounds in).
    #[inline]
    pub fn store(&mut self, key: [u64; 2], bounds: Bounds, cards: u8) {
        let b = self.bucket(key);
        let g = self.generation;
        let word = pack(bounds, cards, g);
        let [first, second] = &mut self.slots[b..b + 2] else {
            unreachable!("buckets are two slots")
        };
        let same = |s: &Slot| s[0] == key[0] && s[1] == key[1] && generation(s[2]) == g;
        if same(first) {
            first[2] = word;
        } else if same(second) {
            second[2] = word;
        } else if generation(first[2]) != g || cards >= self::cards(first[2]) {
            // The deeper entry moves to the second slot rather than being lost.
            if generation(first[2]) == g {
                *second = *first;
            }
            *first = [key[0], key[1], word];
        } else {
            *second = [key[0], key[1], word];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lo: i16, hi: i16) -> Bounds {
        Bounds { lo, hi, best: 3 }
    }

    #[test]
    fn entries_round_trip_and_vanish_with_a_new_deal() {
        let mut t = Table::new(4);
        let k = [0x1234, 0x5678];
        assert_eq!(t.probe(k), None);
        t.store(k, b(-26, 120), 10);
        assert_eq!(t.probe(k), Some(b(-26, 120)));
        t.store(k, b(5, 7), 10);
        assert_eq!(t.probe(k), Some(b(5, 7)));
        t.new_deal();
        assert_eq!(t.probe(k), None);
        // 255 more deals wrap the generation: the table is cleared, nothing comes back.
        t.store(k, b(1, 1), 3);
        for _ in 0..255 {
            t.new_deal();
        }
        assert_eq!(t.probe(k), None);
    }

    #[test]
    fn a_bucket_keeps_the_deepest_entry_and_the_latest() {
        let mut t = Table::new(1); // one bucket: every key collides
        t.store([1, 0], b(1, 1), 20);
        t.store([2, 0], b(2, 2), 4);
        t.store([3, 0], b(3, 3), 8);
        // The 20-card entry stays; the second slot holds the latest of the shallower ones.
        assert_eq!(t.probe([1, 0]), Some(b(1, 1)));
        assert_eq!(t.probe([2, 0]), None);
        assert_eq!(t.probe([3, 0]), Some(b(3, 3)));
        // A deeper one takes the first slot and pushes the old first to the second.
        t.store([4, 0], b(4, 4), 24);
        assert_eq!(t.probe([4, 0]), Some(b(4, 4)));
        assert_eq!(t.probe([1, 0]), Some(b(1, 1)));
        assert_eq!(t.probe([3, 0]), None);
    }
}
