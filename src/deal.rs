//! Constrained, exactly uniform deal sampling: the engine of determinization.
//!
//! A [`ConstrainedDeal`] describes what an observer does not know: a set of unknown cards and the
//! holders they are split among (the other hands, an unseen stock), each with a known size and a set
//! of cards it may hold (void suits removed, for instance). [`ConstrainedDeal::sample`] draws one
//! split uniformly among all consistent splits.
//!
//! # Method
//!
//! Rejection sampling can need thousands of tries under voids, and greedy "most constrained
//! first" assignment is biased, so the sampler counts instead. [`ConstrainedDeal::new`] first
//! checks Hall's condition (every set of holders can be filled from the cards allowed to it) so
//! that inconsistent information is an error naming the culprit, then gives away cards that only
//! one holder can take and fills holders that must take every card they may hold. The remaining
//! cards fall into groups by *signature*, the set of holders allowed to take them (with voids these
//! are suits or unions of suits): within a group the cards are interchangeable. A dynamic program
//! over the groups, whose state is the vector of room left in each holder, counts the completions
//! of every state exactly in `u128`, into a dense table. [`ConstrainedDeal::sample`] then walks the
//! groups: in each it draws an exactly uniform integer below the state's count and picks the
//! composition (how many of the group's cards each holder takes) whose cumulative weight, the
//! multinomial times the completions after it, covers that integer, then splits the group's cards
//! by that composition with a partial Fisher–Yates shuffle. The last group's composition is forced
//! by the room left. All random integers are drawn without bias (multiply-shift with rejection), so
//! each split has probability exactly `1 / count()`; sampling allocates nothing.

use std::fmt::Write as _;

use rand::Rng as _;

use crate::cards::CardSet;
use crate::game::{DealError, Rng};

/// The most holders a deal can have (three opponents and a stock).
pub const MAX_HOLDERS: usize = 4;

/// Signatures are non-empty sets of holders, so there are at most this many groups.
const MAX_GROUPS: usize = (1 << MAX_HOLDERS) - 1;

/// Room per holder in one byte each: at most 52 cards, so the high bit of every byte is free
/// for the borrow test in [`fits`].
type Packed = u32;
const HIGH_BITS: Packed = 0x8080_8080;

/// One place unknown cards can be: a hand or a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// How many of the unknown cards it holds.
    pub size: usize,
    /// The cards it may hold (cards outside the unknown set are ignored).
    pub allowed: CardSet,
}

/// Cards that every holder may take interchangeably: same signature.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Group {
    cards: CardSet,
    /// Bit `h` set when holder `h` may take these cards.
    holders: u8,
    /// This group's compositions are `comps[first..end]`.
    first: u32,
    end: u32,
    /// This group's cards are `deck[start..start + size]`.
    start: u8,
    size: u8,
    /// The holders of `holders`, listed, so that sampling needs no bit loops.
    members: [u8; MAX_HOLDERS],
    num_members: u8,
}

/// One way to share a group's cards among its holders.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Comp {
    /// Cards per holder, packed like the room.
    take: Packed,
    /// How far the dense table index moves when this composition is taken.
    offset: u32,
    /// Ways to choose which cards go where: the multinomial coefficient.
    ways: u128,
}

/// A prepared sampler for one observer's uncertainty.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstrainedDeal {
    unknown: CardSet,
    /// Cards every consistent split gives to the same holder.
    fixed: [CardSet; MAX_HOLDERS],
    groups: [Group; MAX_GROUPS],
    num_groups: usize,
    /// The free cards' bit indices, group after group: shuffled partially, on a copy, to split
    /// a group without counting bits. 64 long so that indices masked by 63 need no bounds check.
    deck: [u8; 64],
    /// Room left in each holder once `fixed` is dealt, packed.
    start_room: Packed,
    /// Dense table index of `start_room`.
    start_index: u32,
    /// Entries per group in `counts`.
    table_len: usize,
    /// `counts[g * table_len + i]`: ways to deal groups `g..` into the room of state `i`.
    /// Empty when there are fewer than two groups (nothing to choose between groups).
    counts: Vec<u128>,
    comps: Vec<Comp>,
    total: u128,
}

impl ConstrainedDeal {
    /// Prepares sampling `unknown` into `holders` (at most [`MAX_HOLDERS`]). Errors, naming the
    /// problem, when the sizes do not add up to the number of unknown cards, when a card can go to
    /// no holder, or when no split satisfies the constraints (some holders need more cards than
    /// they may take). Holders are named by their 0-based position in `holders`.
    pub fn new(unknown: CardSet, holders: &[Holder]) -> Result<ConstrainedDeal, DealError> {
        let bad = |msg: String| Err(DealError::Inconsistent(msg));
        let n = holders.len();
        if n > MAX_HOLDERS {
            return bad(format!("{n} holders, at most {MAX_HOLDERS} supported"));
        }
        let total = holders.iter().fold(0usize, |a, h| a.saturating_add(h.size));
        if total != unknown.len() {
            return bad(format!(
                "{} unknown cards but the holders' sizes add up to {total}",
                unknown.len()
            ));
        }
        let mut room = [0usize; MAX_HOLDERS];
        let mut allowed = [CardSet::EMPTY; MAX_HOLDERS];
        for (i, h) in holders.iter().enumerate() {
            room[i] = h.size;
            allowed[i] = h.allowed & unknown;
        }
        let union = |mask: usize| {
            (0..n)
                .filter(|h| mask >> h & 1 == 1)
                .fold(CardSet::EMPTY, |a, h| a | allowed[h])
        };
        let nobody = unknown - union((1 << n) - 1);
        if !nobody.is_empty() {
            return bad(format!("no holder may take {nobody}"));
        }
        let with_room = (0..n).filter(|&h| room[h] > 0).fold(0, |a, h| a | 1 << h);
        let stuck = unknown - union(with_room);
        if !stuck.is_empty() {
            return bad(format!("only holders of size 0 may take {stuck}"));
        }
        // Hall's condition for this transportation problem: a split exists exactly when every set
        // of holders may take at least as many cards as it needs. Smallest sets first, so the
        // message names the tightest culprit.
        for k in 1..=n as u32 {
            for mask in (1..1usize << n).filter(|m| m.count_ones() == k) {
                let need: usize = (0..n).filter(|h| mask >> h & 1 == 1).map(|h| room[h]).sum();
                let may = union(mask);
                if may.len() < need {
                    let names = holder_names(mask);
                    let (verb, obj) = if k == 1 {
                        ("needs", "it")
                    } else {
                        ("need", "them")
                    };
                    let listed = if may.is_empty() {
                        String::new()
                    } else {
                        format!(" ({may})")
                    };
                    return bad(format!(
                        "{names} {verb} {need} cards but only {} unknown cards{listed} may go to {obj}",
                        may.len()
                    ));
                }
            }
        }

        // Forced cards: a card only one holder with room may take, and a holder whose room equals
        // the cards it may still take. Both hold in every consistent split, so dealing them now
        // changes no probability and shrinks the counting problem.
        let mut fixed = [CardSet::EMPTY; MAX_HOLDERS];
        let mut free = unknown;
        let mut live = with_room;
        loop {
            let mut changed = false;
            for h in 0..n {
                if live >> h & 1 == 0 {
                    continue;
                }
                let others = (0..n)
                    .filter(|&j| j != h && live >> j & 1 == 1)
                    .fold(CardSet::EMPTY, |a, j| a | allowed[j]);
                let mine = free & allowed[h];
                let only = mine - others;
                let give = if mine.len() == room[h] { mine } else { only };
                if give.is_empty() {
                    continue;
                }
                if give.len() > room[h] {
                    // Unreachable after the Hall check; kept as an error rather than a panic.
                    return bad(format!(
                        "holder {h} must take {give} but has room for {}",
                        room[h]
                    ));
                }
                fixed[h] |= give;
                free -= give;
                room[h] -= give.len();
                if room[h] == 0 {
                    live &= !(1 << h);
                }
                changed = true;
            }
            if !changed {
                break;
            }
        }

        let mut groups = [Group::default(); MAX_GROUPS];
        let mut num_groups = 0;
        for sig in 1..1usize << n {
            if sig & !live != 0 {
                continue;
            }
            let mut cards = free;
            for (h, &a) in allowed.iter().enumerate().take(n) {
                if live >> h & 1 == 1 {
                    if sig >> h & 1 == 1 {
                        cards &= a;
                    } else {
                        cards -= a;
                    }
                }
            }
            if !cards.is_empty() {
                groups[num_groups] = Group {
                    cards,
                    holders: sig as u8,
                    first: 0,
                    end: 0,
                    start: 0,
                    size: cards.len() as u8,
                    members: [0; MAX_HOLDERS],
                    num_members: 0,
                };
                let g = &mut groups[num_groups];
                for h in (0..n).filter(|h| sig >> h & 1 == 1) {
                    g.members[g.num_members as usize] = h as u8;
                    g.num_members += 1;
                }
                num_groups += 1;
            }
        }
        let grouped: usize = groups[..num_groups].iter().map(|g| g.cards.len()).sum();
        if grouped != free.len() || room.iter().sum::<usize>() != free.len() {
            // Unreachable after the Hall check (every free card has a live holder).
            return bad(format!("the cards {free} cannot be placed"));
        }
        // The last group is dealt by what room is left, without a choice; make it the one with
        // the most compositions, and walk the smaller choices first.
        groups[..num_groups].sort_by_key(|g| {
            binom(
                g.cards.len() + g.holders.count_ones() as usize - 1,
                g.holders.count_ones() as usize - 1,
            )
        });

        let mut deck = [0u8; 64];
        let mut at = 0;
        for g in &mut groups[..num_groups] {
            g.start = at as u8;
            for c in g.cards {
                deck[at] = c.index();
                at += 1;
            }
        }
        let start_room = pack(&room);
        let mut deal = ConstrainedDeal {
            unknown,
            fixed,
            groups,
            num_groups,
            deck,
            start_room,
            start_index: 0,
            table_len: 0,
            counts: Vec::new(),
            comps: Vec::new(),
            total: 1,
        };
        match num_groups {
            0 => {}
            1 => {
                let outside =
                    (0..MAX_HOLDERS).any(|h| room[h] > 0 && groups[0].holders >> h & 1 == 0);
                deal.total = if outside { 0 } else { multinomial(&room) };
            }
            _ => deal.count_completions(&room),
        }
        if deal.total == 0 {
            // Unreachable after the Hall check.
            return bad("no split satisfies the constraints".to_string());
        }
        Ok(deal)
    }

    /// Fills the dense table of completions for two or more groups, at the states that sampling
    /// can reach.
    fn count_completions(&mut self, room: &[usize; MAX_HOLDERS]) {
        // The room of one holder is implied by the others (the total room before group `g` is the
        // number of cards in groups `g..`), so it gets no table dimension; pick the largest.
        let implied = (0..MAX_HOLDERS).max_by_key(|&h| room[h]).unwrap_or(0);
        let mut stride = [0usize; MAX_HOLDERS];
        let mut len = 1;
        for h in 0..MAX_HOLDERS {
            if h != implied {
                stride[h] = len;
                len *= room[h] + 1;
            }
        }
        self.table_len = len;
        self.start_index = (0..MAX_HOLDERS).map(|h| room[h] * stride[h]).sum::<usize>() as u32;

        // The last group takes whatever room is left, so it needs no list of compositions.
        let groups = self.num_groups;
        for g in 0..groups - 1 {
            let first = self.comps.len() as u32;
            let group = self.groups[g];
            let mut take = [0usize; MAX_HOLDERS];
            compositions(
                group.cards.len(),
                group.holders,
                room,
                0,
                &mut take,
                &mut |x| {
                    self.comps.push(Comp {
                        take: pack(x),
                        offset: (0..MAX_HOLDERS).map(|h| x[h] * stride[h]).sum::<usize>() as u32,
                        ways: multinomial(x),
                    })
                },
            );
            self.groups[g].first = first;
            self.groups[g].end = self.comps.len() as u32;
        }

        // Forward: the states (table index, packed room) each group can be reached in. A state's
        // room is at most the start's, so the index moves down by exactly the offset.
        let mut seen = vec![false; groups * len];
        let mut reach: Vec<Vec<(u32, Packed)>> = vec![Vec::new(); groups];
        reach[0].push((self.start_index, self.start_room));
        seen[self.start_index as usize] = true;
        for g in 0..groups - 1 {
            let group = self.groups[g];
            let (now, later) = reach.split_at_mut(g + 1);
            for &(i, state) in &now[g] {
                for c in &self.comps[group.first as usize..group.end as usize] {
                    if fits(c.take, state) {
                        let j = i - c.offset;
                        let mark = &mut seen[(g + 1) * len + j as usize];
                        if !*mark {
                            *mark = true;
                            later[0].push((j, state - c.take));
                        }
                    }
                }
            }
        }

        // Backward: completions of each reachable state.
        self.counts = vec![0u128; groups * len];
        for g in (0..groups).rev() {
            let group = self.groups[g];
            for &(i, state) in &reach[g] {
                let value = if g + 1 == groups {
                    let s = unpack(state);
                    let outside = (0..MAX_HOLDERS).any(|h| s[h] > 0 && group.holders >> h & 1 == 0);
                    if outside { 0 } else { multinomial(&s) }
                } else {
                    let next = &self.counts[(g + 1) * len..(g + 2) * len];
                    self.comps[group.first as usize..group.end as usize]
                        .iter()
                        .filter(|c| fits(c.take, state))
                        .map(|c| c.ways * next[(i - c.offset) as usize])
                        .sum()
                };
                self.counts[g * len + i as usize] = value;
            }
        }
        self.total = self.counts[self.start_index as usize];
    }

    /// The unknown cards.
    pub fn unknown(&self) -> CardSet {
        self.unknown
    }

    /// The number of consistent splits, each of which [`sample`](Self::sample) draws with
    /// probability exactly `1 / count()`.
    pub fn count(&self) -> u128 {
        self.total
    }

    /// Draws one consistent split uniformly; entry `i` is holder `i`'s cards.
    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> [CardSet; MAX_HOLDERS] {
        let mut out = self.fixed;
        let mut room = self.start_room;
        let mut deck = self.deck;
        let mut bits = Bits::new(rng);
        if self.num_groups >= 2 {
            let len = self.table_len;
            let mut index = self.start_index as usize;
            for g in 0..self.num_groups - 1 {
                let group = &self.groups[g];
                let next = &self.counts[(g + 1) * len..(g + 2) * len];
                let mut r = below(bits.rng, self.counts[g * len + index]);
                let comps = &self.comps[group.first as usize..group.end as usize];
                let mut chosen = None;
                for c in comps {
                    if !fits(c.take, room) {
                        continue;
                    }
                    let w = c.ways * next[index - c.offset as usize];
                    if r < w {
                        chosen = Some(c);
                        break;
                    }
                    r -= w;
                }
                // The weights of the fitting compositions add up to the count r was drawn below.
                debug_assert!(chosen.is_some(), "completion counts are inconsistent");
                let Some(c) = chosen else { break };
                deal_group(&mut out, group, c.take, &mut deck, &mut bits);
                room -= c.take;
                index -= c.offset as usize;
            }
        }
        if self.num_groups >= 1 {
            let last = &self.groups[self.num_groups - 1];
            deal_group(&mut out, last, room, &mut deck, &mut bits);
        }
        out
    }
}

impl ConstrainedDeal {
    /// Calls `f` with every consistent split exactly once (entry `i` is holder `i`'s cards), in
    /// a fixed order that depends only on the constraints: `count()` calls in all. The exact
    /// alternative to sampling when the splits are few (the hybrid endgame solver solves every
    /// one of them).
    ///
    /// The walk follows the groups of interchangeable cards as sampling does: for each group,
    /// each composition that fits the room left and still has completions (the counting table
    /// says so, so no branch ends in a dead end), then each way to choose the group's cards for
    /// that composition. It allocates nothing.
    pub fn for_each_deal(&self, mut f: impl FnMut(&[CardSet; MAX_HOLDERS])) {
        if self.num_groups == 0 {
            f(&self.fixed);
            return;
        }
        let mut out = self.fixed;
        self.deal_groups_from(
            0,
            self.start_room,
            self.start_index as usize,
            &mut out,
            &mut f,
        );
    }

    /// Enumerates the splits of groups `g..` into `room` (dense table index `index`) on top of
    /// `out`.
    fn deal_groups_from(
        &self,
        g: usize,
        room: Packed,
        index: usize,
        out: &mut [CardSet; MAX_HOLDERS],
        f: &mut dyn FnMut(&[CardSet; MAX_HOLDERS]),
    ) {
        let group = self.groups[g];
        if g + 1 == self.num_groups {
            // The last group takes whatever room is left (the tables only lead here when its
            // holders are exactly the ones with room).
            split_group(group, room, out, &mut |o| f(o));
            return;
        }
        let len = self.table_len;
        let next = &self.counts[(g + 1) * len..(g + 2) * len];
        for c in &self.comps[group.first as usize..group.end as usize] {
            if !fits(c.take, room) || next[index - c.offset as usize] == 0 {
                continue;
            }
            let (room, index) = (room - c.take, index - c.offset as usize);
            split_group(group, c.take, out, &mut |o| {
                self.deal_groups_from(g + 1, room, index, o, f)
            });
        }
    }
}

/// Calls `f` with `out` plus every way to give `take[h]` of the group's cards to each of its
/// holders `h` (those cards are added to `out[h]` during the call and removed after it).
fn split_group(
    group: Group,
    take: Packed,
    out: &mut [CardSet; MAX_HOLDERS],
    f: &mut dyn FnMut(&mut [CardSet; MAX_HOLDERS]),
) {
    fn give(
        members: &[u8],
        left: CardSet,
        take: Packed,
        out: &mut [CardSet; MAX_HOLDERS],
        f: &mut dyn FnMut(&mut [CardSet; MAX_HOLDERS]),
    ) {
        let Some((&h, rest)) = members.split_first() else {
            f(out);
            return;
        };
        let k = (take >> (8 * h as u32) & 0xff) as usize;
        if rest.is_empty() {
            // The last holder takes what is left, which is exactly its share.
            debug_assert_eq!(left.len(), k);
            out[h as usize] |= left;
            f(out);
            out[h as usize] -= left;
            return;
        }
        for_each_subset(left, k, &mut |part| {
            out[h as usize] |= part;
            give(rest, left - part, take, out, f);
            out[h as usize] -= part;
        });
    }
    give(
        &group.members[..group.num_members as usize],
        group.cards,
        take,
        out,
        f,
    );
}

/// Calls `f` with every `k`-card subset of `set`, in a fixed order.
fn for_each_subset(set: CardSet, k: usize, f: &mut dyn FnMut(CardSet)) {
    if k == 0 {
        f(CardSet::EMPTY);
        return;
    }
    if set.len() < k {
        return;
    }
    let mut rest = set;
    while rest.len() >= k {
        let card = rest.lowest();
        rest.remove(card);
        for_each_subset(rest, k - 1, &mut |s| f(s.with(card)));
    }
}

/// "holder 1" or "holders 0, 2".
fn holder_names(mask: usize) -> String {
    let mut s = String::from(if mask.count_ones() == 1 {
        "holder "
    } else {
        "holders "
    });
    for (i, h) in (0..MAX_HOLDERS).filter(|h| mask >> h & 1 == 1).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{h}");
    }
    s
}

/// Splits one group's cards uniformly among its holders, `take` cards each: a partial
/// Fisher–Yates shuffle of the group's slice of `deck` deals every holder but the one taking the
/// most, which gets the rest (fewest draws).
#[inline]
fn deal_group(
    out: &mut [CardSet; MAX_HOLDERS],
    group: &Group,
    take: Packed,
    deck: &mut [u8; 64],
    bits: &mut Bits<'_>,
) {
    let members = &group.members[..group.num_members as usize];
    let count = |h: u8| (take >> (8 * h as u32) & 0xff) as usize;
    let mut biggest = members[0];
    for &h in &members[1..] {
        if count(h) > count(biggest) {
            biggest = h;
        }
    }
    let end = group.start as usize + group.size as usize;
    let mut i = group.start as usize;
    let mut dealt = 0u64;
    for &h in members {
        if h == biggest {
            continue;
        }
        let mut part = 0u64;
        for _ in 0..count(h) {
            // Fisher–Yates step; position i is never read again, so only j needs the swap.
            let j = i + bits.below((end - i) as u32) as usize;
            let card = deck[j & 63];
            deck[j & 63] = deck[i & 63];
            part |= 1 << card;
            i += 1;
        }
        out[h as usize].0 |= part;
        dealt |= part;
    }
    out[biggest as usize].0 |= group.cards.0 & !dealt;
}

/// Exactly uniform small integers, two per 64-bit output of the generator.
struct Bits<'a> {
    rng: &'a mut Rng,
    spare: u64,
    has_spare: bool,
}

impl<'a> Bits<'a> {
    #[inline]
    fn new(rng: &'a mut Rng) -> Bits<'a> {
        Bits {
            rng,
            spare: 0,
            has_spare: false,
        }
    }

    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.has_spare {
            self.has_spare = false;
            (self.spare >> 32) as u32
        } else {
            self.spare = self.rng.next_u64();
            self.has_spare = true;
            self.spare as u32
        }
    }

    /// A uniform integer in `0..n` (`n >= 1`): Lemire's multiply-shift with its rejection step.
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        let mut m = self.next_u32() as u64 * n as u64;
        if (m as u32) < n {
            // 2^32 mod n: the low products below it belong to an incomplete block.
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = self.next_u32() as u64 * n as u64;
            }
        }
        (m >> 32) as u32
    }
}

fn pack(x: &[usize; MAX_HOLDERS]) -> Packed {
    x.iter()
        .enumerate()
        .fold(0, |a, (h, &v)| a | (v as Packed) << (8 * h))
}

fn unpack(x: Packed) -> [usize; MAX_HOLDERS] {
    std::array::from_fn(|h| (x >> (8 * h) & 0xff) as usize)
}

/// Whether `take <= room` in every byte: no byte of `room - take` borrows from its high bit.
#[inline]
fn fits(take: Packed, room: Packed) -> bool {
    ((room | HIGH_BITS) - take) & HIGH_BITS == HIGH_BITS
}

/// Calls `f` with every way to put `cards` cards into the holders of `mask` from holder `h` on,
/// no holder over its room.
fn compositions(
    cards: usize,
    mask: u8,
    room: &[usize; MAX_HOLDERS],
    h: usize,
    take: &mut [usize; MAX_HOLDERS],
    f: &mut impl FnMut(&[usize; MAX_HOLDERS]),
) {
    if h == MAX_HOLDERS {
        if cards == 0 {
            f(take);
        }
        return;
    }
    if mask >> h & 1 == 0 {
        take[h] = 0;
        compositions(cards, mask, room, h + 1, take, f);
        return;
    }
    for k in 0..=cards.min(room[h]) {
        take[h] = k;
        compositions(cards - k, mask, room, h + 1, take, f);
    }
    take[h] = 0;
}

/// Binomial coefficients up to 63 (group sizes plus holders, for counting compositions): the
/// largest, C(63, 31), is below 2^60.
static BINOM: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

fn binom(n: usize, k: usize) -> u128 {
    if k > n || n > 63 {
        return 0;
    }
    BINOM[n][k] as u128
}

/// Ways to deal `x[0] + x[1] + …` distinct cards into piles of those sizes; at most
/// 52! / 13!^4 < 2^96.
fn multinomial(x: &[usize; MAX_HOLDERS]) -> u128 {
    let mut n = 0;
    let mut ways = 1u128;
    for &k in x {
        n += k;
        ways *= binom(n, k);
    }
    ways
}

/// An exactly uniform integer in `0..n` (`n >= 1`). Below 2^64 by Lemire's multiply-shift with
/// its rejection step (so no bias at all); above, from 128 random bits with rejection of the
/// incomplete last block.
#[inline]
fn below(rng: &mut Rng, n: u128) -> u128 {
    debug_assert!(n >= 1);
    if n <= u64::MAX as u128 {
        let n = n as u64;
        let mut m = rng.next_u64() as u128 * n as u128;
        if (m as u64) < n {
            // 2^64 mod n: the low products below it belong to an incomplete block.
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = rng.next_u64() as u128 * n as u128;
            }
        }
        m >> 64
    } else {
        // 2^128 mod n values at the bottom are rejected, leaving a whole number of blocks.
        let t = n.wrapping_neg() % n;
        loop {
            let x = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            if x >= t {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng_from_seed;

    /// Every split of `unknown` among `holders`, by brute force: each card to each holder that
    /// may take it, keeping the splits with the right sizes.
    fn brute_force(unknown: CardSet, holders: &[Holder]) -> Vec<[CardSet; MAX_HOLDERS]> {
        fn go(
            cards: &[crate::cards::Card],
            holders: &[Holder],
            out: &mut [CardSet; MAX_HOLDERS],
            all: &mut Vec<[CardSet; MAX_HOLDERS]>,
        ) {
            let Some((&c, rest)) = cards.split_first() else {
                if holders
                    .iter()
                    .enumerate()
                    .all(|(h, x)| out[h].len() == x.size)
                {
                    all.push(*out);
                }
                return;
            };
            for (h, x) in holders.iter().enumerate() {
                if x.allowed.contains(c) && out[h].len() < x.size {
                    out[h].insert(c);
                    go(rest, holders, out, all);
                    out[h].remove(c);
                }
            }
        }
        let cards: Vec<_> = unknown.iter().collect();
        let mut all = Vec::new();
        go(
            &cards,
            holders,
            &mut [CardSet::EMPTY; MAX_HOLDERS],
            &mut all,
        );
        all
    }

    #[test]
    fn enumeration_visits_every_consistent_split_once() {
        // Random small problems with random voids (some with several groups, some with forced
        // cards, some with one group): the enumeration must be exactly the brute-force set,
        // without repeats, and as long as `count()`.
        let mut rng = rng_from_seed(21);
        let mut checked = 0;
        while checked < 300 {
            let n_holders = 2 + crate::cards::random_below(&mut rng, 3) as usize;
            let n_cards = 3 + crate::cards::random_below(&mut rng, 8) as usize;
            let unknown = CardSet::FULL.random_subset(n_cards, &mut rng);
            let mut sizes = vec![0usize; n_holders];
            for _ in 0..n_cards {
                sizes[crate::cards::random_below(&mut rng, n_holders as u32) as usize] += 1;
            }
            let holders: Vec<Holder> = sizes
                .iter()
                .map(|&size| {
                    let mut allowed = CardSet::FULL;
                    for suit in crate::cards::Suit::ALL {
                        if crate::cards::random_below(&mut rng, 4) == 0 {
                            allowed -= CardSet::suit(suit);
                        }
                    }
                    Holder { size, allowed }
                })
                .collect();
            let Ok(deal) = ConstrainedDeal::new(unknown, &holders) else {
                continue;
            };
            let mut seen = Vec::new();
            deal.for_each_deal(|split| seen.push(*split));
            assert_eq!(seen.len() as u128, deal.count());
            let mut expected = brute_force(unknown, &holders);
            expected.sort();
            let mut sorted = seen.clone();
            sorted.sort();
            assert_eq!(sorted, expected, "{unknown} {holders:?}");
            // The order is fixed: a second walk gives the same sequence.
            let mut again = Vec::new();
            deal.for_each_deal(|split| again.push(*split));
            assert_eq!(again, seen);
            checked += 1;
        }
    }

    #[test]
    fn fits_is_a_per_holder_comparison() {
        for a in [0usize, 1, 5, 52] {
            for b in [0usize, 1, 5, 52] {
                let room = pack(&[a, 7, 0, b]);
                let take = pack(&[b, 3, 0, a]);
                assert_eq!(fits(take, room), b <= a && a <= b, "{a} {b}");
                assert!(fits(pack(&[a.min(b), 0, 0, 0]), pack(&[a.max(b), 0, 0, 0])));
            }
        }
    }

    #[test]
    fn multinomial_matches_factorials() {
        assert_eq!(multinomial(&[2, 2, 2, 0]), 90);
        assert_eq!(
            multinomial(&[13, 13, 13, 13]),
            53_644_737_765_488_792_839_237_440_000
        );
        assert_eq!(binom(52, 26), 495_918_532_948_104);
    }

    /// `below` hits every value of a small range about equally and never reaches `n`; for a large
    /// `n` the top bits are spread evenly. The counts are Binomial(N, 1/n): 5 standard deviations
    /// around the mean is a failure chance below 1e-5 per cell for these fixed seeds.
    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = rng_from_seed(7);
        let n = 6u128;
        let draws = 60_000;
        let mut seen = [0u32; 6];
        for _ in 0..draws {
            let r = below(&mut rng, n);
            assert!(r < n);
            seen[r as usize] += 1;
        }
        let mean = draws as f64 / 6.0;
        let sd = (draws as f64 * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
        for &s in &seen {
            assert!((s as f64 - mean).abs() < 5.0 * sd, "{seen:?}");
        }
        let big = 3 * (1u128 << 100) + 12345;
        let mut thirds = [0u32; 3];
        for _ in 0..30_000 {
            let r = below(&mut rng, big);
            assert!(r < big);
            thirds[(r / (1u128 << 100)).min(2) as usize] += 1;
        }
        let sd = (30_000.0f64 * (1.0 / 3.0) * (2.0 / 3.0)).sqrt();
        for &t in &thirds {
            assert!((t as f64 - 10_000.0).abs() < 5.0 * sd, "{thirds:?}");
        }
        assert_eq!(below(&mut rng, 1), 0);
        let mut bits = Bits::new(&mut rng);
        let mut seen = [0u32; 7];
        for _ in 0..70_000 {
            seen[bits.below(7) as usize] += 1;
        }
        let sd = (70_000.0f64 * (1.0 / 7.0) * (6.0 / 7.0)).sqrt();
        for &s in &seen {
            assert!((s as f64 - 10_000.0).abs() < 5.0 * sd, "{seen:?}");
        }
    }
}
