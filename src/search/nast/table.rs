//! The n-gram statistics of one search, per seat, shared by its threads: dense tables for
//! n <= 2, a hashed table above, each cell holding (count, total reward) and the policy's
//! weight of them, and the end-of-iteration update that adds an iteration's moves.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::mask::MoveMask;

use super::super::reward::RewardFn;
use super::super::rollout::Rewards;
use super::log::{Logged, MoveLog};
use super::policy::{Candidate, Policy};
use super::{
    BIGRAM, EPISODE, HASH_SLOTS, HASHED, MAX_N, MOVES, NONE, Ngrams, POSITIONS, PROBES, SEATS,
    UNSEEN_MEAN,
};

/// Dense index of the first move's slot for `seat` at trick position `pos` after the move
/// `prev` ([`NONE`] at the start of the log) in the dense layout `L`: what
/// [`NgramStats::dense_base`] gives for the context [`NgramStats::context`] would build,
/// computed without building it.
#[inline(always)]
pub(super) fn dense_row<const L: u8>(seat: u8, pos: u8, prev: u8) -> usize {
    let episodic = L & EPISODE != 0;
    let bigram = L & BIGRAM != 0;
    let positions = if episodic { POSITIONS } else { 1 };
    let contexts = if bigram { MOVES + 1 } else { 1 };
    let pos = if episodic { pos as usize } else { 0 };
    // EPIC looks back only within the trick: its first move has no move before.
    let prev = match (bigram, episodic && pos == 0) {
        (false, _) => 0,
        (true, true) => NONE as usize,
        (true, false) => prev as usize,
    };
    ((seat as usize * positions + pos) * contexts + prev) * MOVES
}

/// One n-gram's statistics, as read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    /// Times the n-gram was played in an iteration.
    pub count: u32,
    /// Rewards of those iterations to the seat that made its last move, summed (0…1 each).
    pub total: f64,
}

impl Stat {
    /// The mean reward, [`UNSEEN_MEAN`] for an n-gram never seen.
    #[inline]
    pub fn mean(self) -> f64 {
        if self.count == 0 {
            UNSEEN_MEAN
        } else {
            self.total / f64::from(self.count)
        }
    }

    /// Count in the high half, total as an `f32` in the low half: one word, so a reader never
    /// sees a count from one update and a total from another.
    #[inline]
    fn pack(self) -> u64 {
        u64::from(self.count) << 32 | u64::from((self.total as f32).to_bits())
    }

    #[inline]
    fn unpack(word: u64) -> Stat {
        Stat {
            count: (word >> 32) as u32,
            total: f64::from(f32::from_bits(word as u32)),
        }
    }
}
/// Where an n-gram's statistics live, short of its last move: the seat that makes the move,
/// the move's position in the trick (EPIC), and the `n − 1` moves before it ([`NONE`] past the
/// start of the log or the episode), most recent first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Context {
    pub(super) seat: u8,
    pub(super) pos: u8,
    pub(super) before: [u8; MAX_N as usize - 1],
}

/// One n-gram's cell: its statistics ([`Stat::pack`]) and the policy's weight of them
/// ([`Policy::value`], as `f64` bits), side by side in one 16-byte line share. The two are
/// stored one after the other, so a reader on another thread may pair a weight with the
/// statistics of the update before: like a lost update, a bounded bias in a rollout policy.
#[derive(Debug, Default)]
#[repr(align(16))]
pub(super) struct Cell {
    stat: AtomicU64,
    value: AtomicU64,
}

/// The n-gram statistics of one search, per seat, shared by its threads.
#[derive(Debug)]
pub struct NgramStats {
    config: Ngrams,
    /// n <= 2: one cell per (seat, position, previous move, move).
    pub(super) dense: Box<[Cell]>,
    /// n >= 3: open addressing, a key (0: empty) and its cell per slot.
    keys: Box<[AtomicU32]>,
    values: Box<[Cell]>,
    /// UCB1 only ([`Policy::explore`] as `f64` bits): each cell's exploration factor, at the
    /// cell's index in `dense` or `values` (only one of them is in use); empty for the other
    /// policies, so that their cells stay 16 bytes.
    explore: Box<[AtomicU64]>,
    /// The policy's weight of an n-gram never seen.
    unseen: f64,
}

impl NgramStats {
    /// Empty statistics for `config`, sized for it: dense tables for n <= 2 (NAST n=2: 266 KB;
    /// EPIC n=2: 1 MB), a hashed table of 5 MB above; UCB1 adds 8 bytes a cell for its
    /// exploration factors.
    pub fn new(config: Ngrams) -> NgramStats {
        let cells = |n: usize| (0..n).map(|_| Cell::default()).collect();
        let (dense, slots): (Box<[Cell]>, usize) = if config.n <= 2 {
            let positions = if config.episodic { POSITIONS } else { 1 };
            let contexts = if config.n == 2 { MOVES + 1 } else { 1 };
            (cells(SEATS * positions * contexts * MOVES), 0)
        } else {
            (cells(0), HASH_SLOTS)
        };
        let explored = match config.policy {
            Policy::Ucb1 { .. } => dense.len().max(slots),
            _ => 0,
        };
        let stats = NgramStats {
            config,
            dense,
            keys: (0..slots).map(|_| AtomicU32::new(0)).collect(),
            values: cells(slots),
            explore: (0..explored).map(|_| AtomicU64::new(0)).collect(),
            unseen: config.policy.value(Stat::default()),
        };
        stats.reset();
        stats
    }

    /// The settings the statistics are for.
    pub fn config(&self) -> Ngrams {
        self.config
    }

    /// Plays counted over every n-gram: with no update lost, the number of moves logged by
    /// every iteration (a measure of what concurrent updates lose).
    pub fn total_count(&self) -> u64 {
        self.dense
            .iter()
            .chain(self.values.iter())
            .map(|a| u64::from(Stat::unpack(a.stat.load(Relaxed)).count))
            .sum()
    }

    /// Forgets every statistic (before each search; not while one runs).
    pub fn reset(&self) {
        let unseen = self.unseen.to_bits();
        for a in self.dense.iter().chain(self.values.iter()) {
            a.stat.store(0, Relaxed);
            a.value.store(unseen, Relaxed);
        }
        for e in self.explore.iter() {
            e.store(0, Relaxed);
        }
        for k in self.keys.iter() {
            k.store(0, Relaxed);
        }
    }

    /// Keeps what the last search learned for the next search of the same game, each n-gram's
    /// play count scaled by `factor` (rounded to the nearest whole play) and its mean kept:
    /// `factor` 1 keeps everything, 0 forgets everything as [`Self::reset`] does (statistics
    /// "decayed between moves" rather than cleared; not while a search runs).
    ///
    /// The mean is kept exactly where the scaled count is not 0 (the total is the mean times
    /// the new count, stored as the tables store totals), so the policies rank the moves as
    /// the last search left them, with less confidence.
    pub fn decay(&self, factor: f64) {
        debug_assert!((0.0..=1.0).contains(&factor));
        for cells in [&self.dense, &self.values] {
            for (i, cell) in cells.iter().enumerate() {
                let s = Stat::unpack(cell.stat.load(Relaxed));
                if s.count == 0 {
                    continue;
                }
                // A count that rounds to 0 stores the empty statistics: never seen.
                let count = (f64::from(s.count) * factor).round() as u32;
                let total = if count == 0 {
                    0.0
                } else {
                    s.mean() * f64::from(count)
                };
                self.store(cells, i, Stat { count, total });
            }
        }
    }

    /// The context of the next move, at `seat` and trick position `pos`, after the moves
    /// `before` (oldest first).
    #[inline]
    pub(super) fn context(&self, before_moves: &[Logged], seat: u8, pos: u8) -> Context {
        let n = self.config.n as usize;
        let mut before = [NONE; MAX_N as usize - 1];
        // EPIC looks back only within the trick: `pos` moves of it came before.
        let reach = if self.config.episodic {
            (n - 1).min(pos as usize)
        } else {
            n - 1
        };
        for (b, m) in before.iter_mut().zip(before_moves.iter().rev()).take(reach) {
            *b = m.bit;
        }
        Context {
            seat,
            pos: if self.config.episodic { pos } else { 0 },
            before,
        }
    }

    /// Dense index of the first move's slot of `ctx` (n <= 2): the reference that the loops'
    /// [`dense_row`] is tested against.
    #[cfg(test)]
    pub(super) fn dense_base(&self, ctx: Context) -> usize {
        let positions = if self.config.episodic { POSITIONS } else { 1 };
        let (contexts, prev) = if self.config.n == 2 {
            (MOVES + 1, ctx.before[0] as usize)
        } else {
            (1, 0)
        };
        ((ctx.seat as usize * positions + ctx.pos as usize) * contexts + prev) * MOVES
    }

    /// Hashed key of `ctx` and move `bit`, never 0.
    #[inline]
    fn key(ctx: Context, bit: u8) -> u32 {
        // 2 bits of seat, 2 of position, 7 per earlier move (NONE is 64), 6 of move: 31 bits.
        let mut k = u32::from(ctx.seat) << 2 | u32::from(ctx.pos);
        for b in ctx.before {
            k = k << 7 | u32::from(b);
        }
        (k << 6 | u32::from(bit)) + 1
    }

    /// The slot of `key`, claimed if `insert` and absent; `None` when absent (or the probes
    /// are full).
    #[inline]
    fn slot(&self, key: u32, insert: bool) -> Option<usize> {
        // Fibonacci hashing spreads the structured keys over the table.
        let start = (key.wrapping_mul(0x9E37_79B9) >> (32 - HASH_SLOTS.trailing_zeros())) as usize;
        for p in 0..PROBES {
            let i = (start + p) & (HASH_SLOTS - 1);
            match self.keys[i].load(Relaxed) {
                k if k == key => return Some(i),
                0 if insert => match self.keys[i].compare_exchange(0, key, Relaxed, Relaxed) {
                    Ok(_) => return Some(i),
                    // Another thread took it, perhaps for this key.
                    Err(k) if k == key => return Some(i),
                    Err(_) => {}
                },
                0 => return None,
                _ => {}
            }
        }
        None
    }

    /// The row of `ctx` (`base` from [`Self::dense_base`] for n <= 2).
    #[cfg(test)]
    fn row_of(&self, ctx: Context, base: usize) -> Row {
        if self.config.n <= 2 {
            Row::Dense(base)
        } else {
            Row::Hashed(ctx)
        }
    }

    /// The statistics of `ctx` followed by `bit`.
    #[cfg(test)]
    pub(super) fn get(&self, ctx: Context, base: usize, bit: u8) -> Stat {
        self.cell_in(self.row_of(ctx, base), bit)
            .map_or(Stat::default(), |c| Stat::unpack(c.stat.load(Relaxed)))
    }

    /// What a playout step reads of `ctx` followed by `bit`.
    #[cfg(test)]
    pub(super) fn candidate(&self, ctx: Context, base: usize, bit: u8) -> Candidate {
        self.candidate_in(self.row_of(ctx, base), bit)
    }

    /// Adds one play with reward `reward` to `ctx` followed by `bit` in the hashed table
    /// (n >= 3; `record` reaches dense cells directly), unless the table has no room for it.
    #[inline]
    fn add_hashed(&self, ctx: Context, bit: u8, reward: f64) {
        if let Some(i) = self.slot(Self::key(ctx, bit), true) {
            self.add_to(&self.values, i, reward);
        }
    }

    /// Adds one play with reward `reward` to the cell at `i` of `cells` (`dense` or `values`),
    /// and stores the policy's new weight of it (and UCB1's exploration factor).
    #[inline]
    pub(super) fn add_to(&self, cells: &[Cell], i: usize, reward: f64) {
        let cell = &cells[i];
        // Load and store, not an atomic add: see the module comment.
        let mut s = Stat::unpack(cell.stat.load(Relaxed));
        s.count = s.count.saturating_add(1);
        s.total += reward;
        self.store(cells, i, s);
    }

    /// Stores `s` in the cell at `i` of `cells` (`dense` or `values`) with the policy's weight
    /// of it and UCB1's exploration factor, both worked out from the total as stored (an
    /// `f32`), which is what the playouts will read.
    #[inline]
    fn store(&self, cells: &[Cell], i: usize, s: Stat) {
        let s = Stat::unpack(s.pack());
        cells[i].stat.store(s.pack(), Relaxed);
        cells[i]
            .value
            .store(self.config.policy.value(s).to_bits(), Relaxed);
        // UCB1's exploration factors sit at the cell's index in whichever array is in use.
        if let Some(explore) = self.explore.get(i) {
            explore.store(self.config.policy.explore(s.count).to_bits(), Relaxed);
        }
    }

    /// Where the statistics of a move by `seat` at trick position `pos` after `log` (whose last
    /// move is `prev`) are, in layout `L`.
    #[inline(always)]
    pub(super) fn row<const L: u8>(&self, seat: u8, pos: u8, prev: u8, log: &MoveLog) -> Row {
        if L == HASHED {
            Row::Hashed(self.context(&log.moves[..log.len], seat, pos))
        } else {
            Row::Dense(dense_row::<L>(seat, pos, prev))
        }
    }

    /// Where the cell of the n-gram that `bit` completes in `row` is: its array (`dense` or
    /// `values`) and index; `None` for an n-gram the hashed table has not seen.
    #[inline]
    fn place_in(&self, row: Row, bit: u8) -> Option<(&[Cell], usize)> {
        match row {
            Row::Dense(base) => Some((&self.dense, base + bit as usize)),
            Row::Hashed(ctx) => self
                .slot(Self::key(ctx, bit), false)
                .map(|i| (&self.values[..], i)),
        }
    }

    /// The cell of the n-gram that `bit` completes in `row`; `None` for an n-gram the hashed
    /// table has not seen.
    #[inline]
    fn cell_in(&self, row: Row, bit: u8) -> Option<&Cell> {
        self.place_in(row, bit).map(|(cells, i)| &cells[i])
    }

    /// The policy's stored weight of the n-gram that `bit` completes in `row`.
    #[inline]
    pub(super) fn weight_in(&self, row: Row, bit: u8) -> f64 {
        self.cell_in(row, bit)
            .map_or(self.unseen, |c| f64::from_bits(c.value.load(Relaxed)))
    }

    /// What a playout step reads of the n-gram that `bit` completes in `row`.
    #[inline]
    pub(super) fn candidate_in(&self, row: Row, bit: u8) -> Candidate {
        match self.place_in(row, bit) {
            Some((cells, i)) => Candidate {
                count: Stat::unpack(cells[i].stat.load(Relaxed)).count,
                value: f64::from_bits(cells[i].value.load(Relaxed)),
                explore: self
                    .explore
                    .get(i)
                    .map_or(0.0, |e| f64::from_bits(e.load(Relaxed))),
            },
            None => Candidate {
                count: 0,
                value: self.unseen,
                explore: 0.0,
            },
        }
    }

    /// What a playout step reads of the n-grams each legal move (`bits`, lowest first) would
    /// complete in `row`, written to `out`; returns how many.
    #[inline]
    pub(super) fn candidates<K: MoveMask>(
        &self,
        row: Row,
        bits: K,
        out: &mut [Candidate],
    ) -> usize {
        let mut k = 0;
        let mut rest = bits;
        while let Some(bit) = rest.pop_lowest() {
            out[k] = self.candidate_in(row, bit as u8);
            k += 1;
        }
        k
    }

    /// Adds the iteration in `log`, which ended with `rewards` (by `reward`), to every n-gram
    /// it played, each for the seat that made its last move.
    #[inline]
    pub fn record(&self, log: &MoveLog, rewards: &Rewards, reward: RewardFn) {
        with_layout!(self.config.layout(), L => self.record_in::<L>(log, rewards, reward))
    }

    /// [`Self::record`] in layout `L`.
    #[inline(always)]
    fn record_in<const L: u8>(&self, log: &MoveLog, rewards: &Rewards, reward: RewardFn) {
        let moves = &log.moves[..log.len];
        let unit = rewards.map(|r| reward.to_unit(r));
        // Dense tables: the context is at most the move before, carried along.
        let mut prev = NONE;
        for (i, m) in moves.iter().enumerate() {
            let r = unit[m.seat as usize];
            if L == HASHED {
                self.add_hashed(self.context(&moves[..i], m.seat, m.pos), m.bit, r);
            } else {
                self.add_to(
                    &self.dense,
                    dense_row::<L>(m.seat, m.pos, prev) + m.bit as usize,
                    r,
                );
            }
            prev = m.bit;
        }
    }
}

/// Where a playout step finds the statistics of the moves it chooses among: a dense row
/// (n <= 2, indexed by move bit) or a context for the hashed table.
#[derive(Clone, Copy, Debug)]
pub(super) enum Row {
    Dense(usize),
    Hashed(Context),
}
