//! The search: alpha-beta with a transposition table, driven by null-window tests.

use crate::cards::{Card, CardSet};
use crate::game::{MoveSet, Seat};

use super::order::{StrengthOrder, representative_of, representatives};
use super::table::{Bounds, NO_MOVE, Table};
use super::{Solvable, SolveError};

/// The exact value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Its exact value for the seat to move (see [`Solvable`]'s values).
    pub value: i32,
}

/// More moves than any hand has cards.
const MAX_MOVES: usize = 16;

/// A node's moves, best first: each an ordering score times 256 plus the card's bit index,
/// so that one integer comparison sorts them (equal scores: higher index first).
struct Moves {
    scored: [i32; MAX_MOVES],
    len: usize,
}

impl Moves {
    /// The cards in order.
    #[inline]
    fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.scored[..self.len]
            .iter()
            .map(|&k| Card::from_index(k as u8).expect("a card index"))
    }
}

/// An exact solver with its preallocated table. Reuse one for many solves: nothing is
/// allocated after [`Solver::new`].
#[derive(Debug)]
pub struct Solver {
    table: Table,
    nodes: u64,
    node_limit: u64,
    /// The node count at which the search next stops to look at the limit and the watch: one
    /// comparison a node, whichever of the two is set.
    next_check: u64,
    watch: Option<Watch>,
    /// Why the solve in progress gave up, if it did.
    abort: Option<Abort>,
    /// Whether a solve since the last [`reset_nodes`](Self::reset_nodes) gave up at the node
    /// limit (a decision's report says so).
    limit_hit: bool,
    /// Without the table and the equivalent-card reduction (alpha-beta alone): for checking
    /// and measuring what those two change.
    plain: bool,
    last: [Option<i32>; 64],
}

/// Why a solve gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abort {
    /// The node limit was reached.
    NodeLimit,
    /// The watch asked it to stop.
    Stopped,
}

/// A solve's progress callback (see [`Solver::with_watch`]).
struct Watch {
    every: u64,
    report: Box<dyn FnMut(u64) -> bool + Send>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").field("every", &self.every).finish()
    }
}

impl Solver {
    /// The default table: 2^18 slots (6 MiB), ample for endgames of up to 28 cards.
    pub const DEFAULT_TABLE_BITS: u32 = 18;

    /// A solver with a table of `2^table_bits` slots and no node limit.
    pub fn new(table_bits: u32) -> Solver {
        Solver {
            table: Table::new(table_bits),
            nodes: 0,
            node_limit: u64::MAX,
            next_check: u64::MAX,
            watch: None,
            abort: None,
            limit_hit: false,
            plain: false,
            last: [None; 64],
        }
    }

    /// The same solver without its transposition table and equivalent-card reduction
    /// (alpha-beta with null-window tests alone). Values are the same; only speed changes.
    pub fn without_table_and_reduction(mut self) -> Solver {
        self.plain = true;
        self
    }

    /// Gives up (with [`SolveError::NodeLimit`]) once a solve has visited `limit` nodes in all.
    pub fn with_node_limit(mut self, limit: u64) -> Solver {
        self.set_node_limit(limit);
        self
    }

    /// [`with_node_limit`](Self::with_node_limit) on a solver kept between decisions: `limit`
    /// counts from the nodes already visited ([`nodes`](Self::nodes)), so reset them first for
    /// a limit on what comes next.
    pub fn set_node_limit(&mut self, limit: u64) {
        self.node_limit = limit;
        self.arm();
    }

    /// Calls `report` with the nodes visited so far every `every` nodes of a solve (a progress
    /// line); a `false` from it gives the solve up with [`SolveError::Stopped`] (Ctrl-C).
    pub fn with_watch(
        mut self,
        every: u64,
        report: impl FnMut(u64) -> bool + Send + 'static,
    ) -> Solver {
        self.set_watch(every, report);
        self
    }

    /// [`with_watch`](Self::with_watch) on a solver kept between decisions.
    pub fn set_watch(&mut self, every: u64, report: impl FnMut(u64) -> bool + Send + 'static) {
        self.watch = Some(Watch {
            every: every.max(1),
            report: Box::new(report),
        });
        self.arm();
    }

    /// Drops the watch: solves run to their node limit again.
    pub fn clear_watch(&mut self) {
        self.watch = None;
        self.arm();
    }

    /// Sets the next node count to stop at: the limit, or the watch's next report if sooner.
    fn arm(&mut self) {
        self.next_check = match &self.watch {
            Some(w) => self.node_limit.min(self.nodes.saturating_add(w.every)),
            None => self.node_limit,
        };
    }

    /// At `next_check`: the limit reached, or a report to the watch.
    #[cold]
    fn checkpoint(&mut self) {
        if self.nodes >= self.node_limit {
            self.abort = Some(Abort::NodeLimit);
            self.limit_hit = true;
        } else if let Some(w) = &mut self.watch
            && !(w.report)(self.nodes)
        {
            self.abort = Some(Abort::Stopped);
        }
        self.arm();
    }

    /// Nodes visited since the solver was made (or [`reset_nodes`](Self::reset_nodes)).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the node counter back to zero and forgets that the node limit was hit.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.limit_hit = false;
        self.arm();
    }

    /// True when a solve since the solver was made (or since [`reset_nodes`](Self::reset_nodes))
    /// gave up at the node limit, rather than finishing or being stopped by its watch.
    pub fn hit_node_limit(&self) -> bool {
        self.limit_hit
    }

    fn start<G: Solvable>(&mut self, state: &G) -> Result<(), SolveError> {
        if state.is_terminal() {
            return Err(SolveError::Over);
        }
        state.check_solvable()?;
        self.table.new_deal();
        self.abort = None;
        Ok(())
    }

    fn finish<T>(&self, result: T) -> Result<T, SolveError> {
        match self.abort {
            None => Ok(result),
            Some(Abort::NodeLimit) => Err(SolveError::NodeLimit(self.nodes)),
            Some(Abort::Stopped) => Err(SolveError::Stopped(self.nodes)),
        }
    }

    /// The exact value of `state` for `root`'s side.
    pub fn value<G: Solvable>(&mut self, state: &G, root: Seat) -> Result<i32, SolveError> {
        self.start(state)?;
        let (lo, hi) = state.bounds(root);
        let v = self.bisect(state, root, lo, hi, (lo + hi) / 2);
        self.finish(v)
    }

    /// The exact value of every legal move of the seat to move, for that seat's side, in the
    /// order of the legal move set. Equivalent cards are solved once.
    pub fn move_values<G: Solvable>(
        &mut self,
        state: &G,
        out: &mut Vec<MoveValue<G::Move>>,
    ) -> Result<(), SolveError> {
        out.clear();
        self.start(state)?;
        let root = state.current_seat();
        let legal = state.card_moves();
        let in_play = state.in_play();
        let reps = self.moves_of::<G>(legal, in_play);
        let mut values = [0i32; 64];
        let (lo, hi) = state.bounds(root);
        let mut guess = (lo + hi) / 2;
        for card in reps {
            // The same move's value in the last position solved is the best first guess: the
            // hybrid solves deal after deal of one information set.
            if let Some(v) = self.last[card.index() as usize] {
                guess = v;
            }
            let mut child = state.clone();
            child.play_card(card);
            let v = if child.is_terminal() {
                child.final_value(root)
            } else {
                let (lo, hi) = child.bounds(root);
                self.bisect(&child, root, lo, hi, guess)
            };
            values[card.index() as usize] = v;
            self.last[card.index() as usize] = Some(v);
            guess = v;
        }
        state.legal_moves().for_each(|mv| {
            let card = G::move_card(mv).expect("a solvable position's moves are cards");
            let rep = if self.plain {
                card
            } else {
                representative_of::<G::Order>(card, legal, in_play)
            };
            out.push(MoveValue {
                mv,
                value: values[rep.index() as usize],
            });
        });
        self.finish(())
    }

    /// Plays `state` to its end along a line of optimal moves: `root`'s side maximises its
    /// value, the other side minimises it (for Hearts, the paranoid line of `root`).
    pub fn play_out<G: Solvable>(&mut self, state: &mut G, root: Seat) -> Result<(), SolveError> {
        self.start(state)?;
        let (lo, hi) = state.bounds(root);
        let target = self.bisect(state, root, lo, hi, (lo + hi) / 2);
        while !state.is_terminal() && self.abort.is_none() {
            let maximising = state.team(state.current_seat()) == state.team(root);
            let mut chosen = None;
            let entry = self.probe(state);
            let moves = self.ordered_moves(state, root, entry);
            for card in moves.cards() {
                let mut child = state.clone();
                child.play_card(card);
                // The target is the value of the position, so some move reaches it exactly.
                let reaches = if maximising {
                    self.alpha_beta(&child, root, target - 1, target) >= target
                } else {
                    self.alpha_beta(&child, root, target, target + 1) <= target
                };
                if reaches {
                    chosen = Some(card);
                    break;
                }
            }
            let Some(card) = chosen else { break };
            state.play_card(card);
        }
        self.finish(())
    }

    /// The value within `[lo, hi]` by null-window tests, the first at `guess`, then halving the
    /// interval the fail-soft results leave.
    fn bisect<G: Solvable>(
        &mut self,
        state: &G,
        root: Seat,
        mut lo: i32,
        mut hi: i32,
        guess: i32,
    ) -> i32 {
        let mut beta = guess.clamp(lo + 1, hi.max(lo + 1));
        let mut pass = 0;
        while lo < hi && self.abort.is_none() {
            let g = self.alpha_beta(state, root, beta - 1, beta);
            if g >= beta {
                lo = g;
            } else {
                hi = g;
            }
            pass += 1;
            beta = if pass < MTD_PASSES {
                // MTD(f): the next test at the bound just found.
                if g >= beta { g + 1 } else { g }
            } else {
                lo + (hi - lo + 1) / 2
            }
            .clamp(lo + 1, hi.max(lo + 1));
        }
        lo
    }

    /// The moves of `state` after the reduction, best first: the table's move (from `entry`),
    /// then by a one-trick look-ahead. Unused places are `None`.
    #[inline]
    fn ordered_moves<G: Solvable>(&self, state: &G, root: Seat, entry: Option<Bounds>) -> Moves {
        let moves = self.moves_of::<G>(state.card_moves(), state.in_play());
        debug_assert!(moves.len() <= MAX_MOVES);
        let tt_move = entry
            .filter(|e| e.best != NO_MOVE)
            .and_then(|e| Card::from_index(e.best))
            .filter(|&c| moves.contains(c));
        let mut out = Moves {
            scored: [0; MAX_MOVES],
            len: 0,
        };
        let me = state.current_seat();
        let sign = if state.team(me) == state.team(root) {
            1
        } else {
            -1
        };
        let trick_points = G::points_of(state.trick_cards());
        let best = state.trick_best();
        for card in moves {
            let score = if Some(card) == tt_move {
                // Above any score move_score gives (its magnitudes are a few thousand).
                1 << 22
            } else {
                move_score(state, card, me, root, sign, trick_points, best)
            };
            let key = score * 256 + card.index() as i32;
            // Insertion into the sorted prefix, best first.
            let mut i = out.len;
            while i > 0 && out.scored[i - 1] < key {
                out.scored[i] = out.scored[i - 1];
                i -= 1;
            }
            out.scored[i] = key;
            out.len += 1;
        }
        out
    }

    /// The moves searched: one card per run of equivalent cards.
    #[inline]
    fn moves_of<G: Solvable>(&self, legal: CardSet, in_play: CardSet) -> CardSet {
        if self.plain {
            legal
        } else {
            representatives::<G::Order>(legal, in_play)
        }
    }

    /// The table's entry for `state`, if any (none without a table).
    #[inline]
    fn probe<G: Solvable>(&self, state: &G) -> Option<Bounds> {
        if self.plain || !at_trick_start(state) {
            None
        } else {
            self.table.probe(state.key())
        }
    }

    /// Fail-soft alpha-beta: the exact value if it lies strictly inside `(alpha, beta)`, else a
    /// bound on the same side of the window.
    fn alpha_beta<G: Solvable>(
        &mut self,
        state: &G,
        root: Seat,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.checkpoint();
        }
        if self.abort.is_some() {
            return alpha;
        }
        if state.is_terminal() {
            return state.final_value(root);
        }
        let (mut lo, mut hi) = state.bounds(root);
        if lo >= beta || lo == hi {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let banked = state.banked(root);
        let entry = self.probe(state);
        if let Some(e) = entry {
            lo = lo.max(e.lo as i32 + banked);
            hi = hi.min(e.hi as i32 + banked);
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (alpha0, beta0) = (alpha, beta);
        let moves = self.ordered_moves(state, root, entry);
        let maximising = state.team(state.current_seat()) == state.team(root);
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        let mut best_move = NO_MOVE;
        for card in moves.cards() {
            let mut child = state.clone();
            child.play_card(card);
            let v = self.alpha_beta(&child, root, alpha, beta);
            if maximising {
                if v > best {
                    best = v;
                    best_move = card.index();
                    alpha = alpha.max(v);
                }
            } else if v < best {
                best = v;
                best_move = card.index();
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if self.abort.is_some() || self.plain || !at_trick_start(state) {
            return best;
        }
        // Merge with what the table knew: the window was narrowed to its bounds.
        if best <= alpha0 {
            hi = best;
        } else if best >= beta0 {
            lo = best;
        } else {
            (lo, hi) = (best, best);
        }
        let to_table = |v: i32| (v - banked).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        self.table.store(
            state.key(),
            Bounds {
                lo: to_table(lo),
                hi: to_table(hi),
                best: best_move,
            },
            state.cards_left().min(255) as u8,
        );
        best
    }
}

/// A move's promise for ordering, from the mover's side (higher first): the trick as it would
/// stand after the card, as if nobody played after it.
#[inline]
fn move_score<G: Solvable>(
    state: &G,
    card: Card,
    me: Seat,
    root: Seat,
    sign: i32,
    trick_points: i32,
    best: Option<(Card, Seat)>,
) -> i32 {
    let points = trick_points + G::points_of(card.set());
    let strength = <G::Order as StrengthOrder>::ordered(card.set()).trailing_zeros() as i32 & 15;
    match best {
        None => {
            // Leading: the trick's value if the card held, and stronger cards first when that is
            // good, weaker ones when it is not.
            let gain = sign * state.trick_gain(me, points, root);
            gain * 64 + if gain >= 0 { strength } else { -strength }
        }
        Some((best_card, best_seat)) => {
            let wins = state.beats(card, best_card);
            let winner = if wins { me } else { best_seat };
            let gain = sign * state.trick_gain(winner, points, root);
            // Win with the weakest card that wins; throw the weakest card that loses.
            gain * 64 - strength
        }
    }
}

/// Null-window tests that step to the bound the last one returned (MTD(f)) before the rest
/// halve the interval: from a good guess the value is usually found in two tests, and
/// bisection bounds the passes when the guess is poor.
const MTD_PASSES: u32 = 2;

/// Positions the table holds: those at the start of a trick. Mid-trick positions are three
/// quarters of a four-player search; storing them too saved few nodes and cost far more in cache
/// misses on the table (measured: Sueca with 20 cards left ten times slower per node).
#[inline]
fn at_trick_start<G: Solvable>(state: &G) -> bool {
    state.trick_cards().is_empty()
}
