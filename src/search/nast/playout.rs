//! The NAST and EPIC playout: a loop compiled once per table layout, each step reading the
//! legal moves' n-gram statistics from one table row and drawing by the policy, with no
//! dispatch and no allocation per step.

use crate::game::{Game, MoveSet, Rng, TreeMove};
use crate::mask::MoveMask;

use super::super::rollout::unit_f64;
use super::log::{MoveLog, trick_position};
use super::policy::{Candidate, Policy, pick_among_maxima, ucb1_mean_term, ucb1_sqrt_ln};
use super::table::{NgramStats, Row};
use super::{BIGRAM, EPISODE, HASHED, MOVES, Ngrams};

/// Plays `state` to the end by `config`'s policy over `stats`, logging the moves after those
/// already in `log`.
#[inline]
pub fn playout<G: Game>(state: &mut G, rng: &mut Rng, stats: &NgramStats, log: &mut MoveLog) {
    with_layout!(stats.config().layout(), L => match stats.config().policy {
        // Each policy's draw compiled into the loop: no dispatch per step.
        Policy::Gibbs { .. } | Policy::Roulette => {
            playout_by::<G, L>(state, rng, stats, log, |row, bits, rng, scratch| {
                draw_by_weights(stats, row, bits, rng, scratch)
            })
        }
        Policy::Ucb1 { .. } => {
            playout_by::<G, L>(state, rng, stats, log, |row, bits, rng, scratch| {
                draw_ucb1(stats, row, bits, rng, scratch)
            })
        }
        policy => playout_by::<G, L>(state, rng, stats, log, |row, bits, rng, scratch| {
            let k = stats.candidates(row, bits, &mut scratch.found);
            bits.select(policy.choose_candidate(&scratch.found[..k], rng) as u32)
        }),
    })
}

/// One playout step's bookkeeping, shared by both loops: the seat to move, its position in the
/// trick where layout `L` keys on it (0 otherwise, which no update of `L` reads), and the
/// legal moves.
#[inline(always)]
fn step<G: Game, const L: u8>(state: &G) -> (u8, u8, <G::Move as TreeMove>::Mask) {
    let pos = if Ngrams::keys_on_position(L) {
        trick_position(state)
    } else {
        0
    };
    (state.current_seat() as u8, pos, state.legal_moves().bits())
}

/// [`playout`] in layout `L`, each move that is not forced drawn by `draw` from the table row
/// of its context, the legal moves and the thread's scratch space.
#[inline(always)]
fn playout_by<G: Game, const L: u8>(
    state: &mut G,
    rng: &mut Rng,
    stats: &NgramStats,
    log: &mut MoveLog,
    mut draw: impl FnMut(Row, <G::Move as TreeMove>::Mask, &mut Rng, &mut Scratch) -> u32,
) {
    let mut prev = log.last_bit();
    while !state.is_terminal() {
        let (seat, pos, bits) = step::<G, L>(state);
        let bit = if bits.count() == 1 {
            bits.select(0)
        } else {
            let row = stats.row::<L>(seat, pos, prev, log);
            draw(row, bits, rng, &mut log.scratch)
        };
        log.push_logged(seat, bit as u8, pos);
        prev = bit as u8;
        state.play(G::Move::from_bit(bit));
    }
}

/// A playout draw's working space: the offered moves' bits and what each policy's draw keeps
/// per move (running sums of weights, UCB1 scores and factors, ε-greedy's candidates). One per
/// thread ([`MoveLog`]): a draw reads only what it wrote, and zeroing it per step or per playout
/// cost more than the draw.
#[derive(Clone, Debug)]
pub(super) struct Scratch {
    /// Running sums of the weights (weighted draws) or the scores (UCB1).
    pub(super) sums: [f64; MOVES],
    /// UCB1: each offered move's exploration factor.
    pub(super) explore: [f64; MOVES],
    /// The offered moves' bits.
    pub(super) offered: [u32; MOVES],
    /// ε-greedy: what each offered move's n-gram holds.
    pub(super) found: [Candidate; MOVES],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            sums: [0.0; MOVES],
            explore: [0.0; MOVES],
            offered: [0; MOVES],
            found: [Candidate::default(); MOVES],
        }
    }
}

/// Draws one of the moves `bits` with probability proportional to its stored weight in `row`:
/// one pass reads each move's weight and keeps the running sums, then the draw counts the sums
/// at or below a uniform point of the total, with no branch on which move it lands: that is a
/// coin flip, and as a branch it cost a misprediction most steps.
#[inline(always)]
pub(super) fn draw_by_weights<K: MoveMask>(
    stats: &NgramStats,
    row: Row,
    bits: K,
    rng: &mut Rng,
    scratch: &mut Scratch,
) -> u32 {
    let Scratch { sums, offered, .. } = scratch;
    let mut total = 0.0;
    let mut k = 0;
    let mut rest = bits;
    while let Some(bit) = rest.pop_lowest() {
        // The same weights, summed in the same order, as `Policy::choose_candidate`.
        total += stats.weight_in(row, bit as u8).max(0.0);
        sums[k] = total;
        offered[k] = bit;
        k += 1;
    }
    offered[sample_sums(&sums[..k], rng)]
}

/// Draws an index with probability proportional to the steps of `sums`, the running sums of
/// the weights (the last is their total): the number of sums at or below a uniform point of
/// the total, the first index whose sum exceeds the point. Uniform when the total is zero or
/// not finite, as [`sample`].
#[inline(always)]
pub(crate) fn sample_sums(sums: &[f64], rng: &mut Rng) -> usize {
    let total = sums[sums.len() - 1];
    if total <= 0.0 || !total.is_finite() {
        return crate::cards::random_below(rng, sums.len() as u32) as usize;
    }
    let u = unit_f64(rng) * total;
    // One scalar load and compare a sum, kept from being vectorised by the opaque `u`: the
    // sums were just stored one at a time, and a vector load spanning several of those stores
    // cannot take them from the store buffer, so it waits for them to reach the cache (with
    // x86-64-v3's 4-wide loads that cost 5% of a Hearts NAST search).
    let mut below = 0;
    for &s in sums {
        below += usize::from(s <= std::hint::black_box(u));
    }
    if below < sums.len() {
        return below;
    }
    // Rounding left `u` at the total: the last move with any weight.
    sums.iter().rposition(|&s| s < total).map_or(0, |i| i + 1)
}

/// UCB1's draw among the moves `bits` from the statistics in `row`: what [`ucb1_pick`] draws over
/// their candidates, without building them. One pass reads each move's count (summed), mean
/// and exploration factor, keeping the mean (infinite for an unseen n-gram, whose factor is 0)
/// as the start of its score; a second adds `sqrt(ln ΣN)` times the factor and keeps the
/// maximum.
#[inline(always)]
pub(super) fn draw_ucb1<K: MoveMask>(
    stats: &NgramStats,
    row: Row,
    bits: K,
    rng: &mut Rng,
    scratch: &mut Scratch,
) -> u32 {
    let Scratch {
        sums: scores,
        explore,
        offered,
        ..
    } = scratch;
    let mut total = 0u64;
    let mut k = 0;
    let mut rest = bits;
    while let Some(bit) = rest.pop_lowest() {
        let c = stats.candidate_in(row, bit as u8);
        total += u64::from(c.count);
        scores[k] = ucb1_mean_term(c.count, c.value);
        explore[k] = c.explore;
        offered[k] = bit;
        k += 1;
    }
    let sqrt_ln_total = ucb1_sqrt_ln(total);
    let scores = &mut scores[..k];
    let mut top = f64::MIN;
    for (x, &e) in scores.iter_mut().zip(&explore[..k]) {
        *x += sqrt_ln_total * e;
        top = top.max(*x);
    }
    offered[pick_among_maxima(scores, top, rng)]
}
