//! An exact endgame solver: alpha-beta over bitboards with values −1 (loss), 0 (draw) and +1 (win)
//! for the side to move.
//!
//! Every node first asks whether the mover can win at once ([`tactics::can_win`], a scan of the
//! 168 virtual lines), which settles most tactical positions without generating a move. Moves are
//! then taken swap by swap: the opponent's lines after the swap and the mover's completion cells
//! are worked out once per swap, so a move that ends the game is scored without being played.
//! A transposition table (optional, fixed size, allocated once) keeps bounds of positions already
//! searched: the same position arises from many move orders. A node limit makes every call
//! bounded; a search that runs out answers `None`. So does one that its watch ([`Solver::watch`]:
//! a deadline, a stop signal) ends first.

use std::time::Instant;

use super::board::{FULL, completions, has_five, swap};
use super::moves::PentagoMove;
use super::tactics;
use crate::search::StopSignal;

/// How often a watched search looks at its deadline and stop signal: on its first node and
/// every 4,096 nodes after, a fraction of a millisecond at 15 million nodes a second.
pub const WATCH_EVERY: u64 = 1 << 12;

/// A value for the side to move: −1 loss, 0 draw, +1 win.
pub type Value = i8;

/// The depth of a search to the end of the game.
pub const EXACT: u32 = u32::MAX;

/// The search depth of a proof `plies` plies long (odd, at least 3): the last ply is the
/// check for a win at once that every node makes.
fn plies_to_depth(plies: u32) -> u32 {
    debug_assert!(
        plies % 2 == 1 && plies >= 3,
        "a proof ends with the prover's move"
    );
    plies - 1
}

/// One table entry: the position (mover's stones, opponent's stones) and bounds on its value.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The mover's stones in bits 0–35, `lower + 2` in bits 40–41, `upper + 2` in bits 42–43;
    /// 0 for an empty slot (an empty slot has no valid bounds).
    tagged: u64,
    opp: u64,
}

impl Entry {
    fn bounds(self, me: u64, opp: u64) -> Option<(Value, Value)> {
        (self.tagged != 0 && self.tagged & FULL == me && self.opp == opp).then(|| {
            (
                ((self.tagged >> 40) & 3) as Value - 2,
                ((self.tagged >> 42) & 3) as Value - 2,
            )
        })
    }
}

/// An alpha-beta solver with its transposition table (which may be empty).
#[derive(Clone, Debug)]
pub struct Solver {
    table: Vec<Entry>,
    nodes: u64,
    limit: u64,
    /// When searches give up whatever their node count (see [`Solver::watch`]).
    deadline: Option<Instant>,
    stop: Option<StopSignal>,
}

/// Nodes are counted; past the limit a search unwinds with this.
#[derive(Debug)]
struct OutOfNodes;

impl Solver {
    /// A solver with a table of `2^table_bits` entries (16 bytes each); 0 bits means no table,
    /// and then the solver allocates nothing.
    pub fn new(table_bits: u32) -> Solver {
        let table = if table_bits == 0 {
            Vec::new()
        } else {
            vec![Entry::default(); 1 << table_bits]
        };
        Solver {
            table,
            nodes: 0,
            limit: 0,
            deadline: None,
            stop: None,
        }
    }

    /// Makes every later search give up, answering `None` as when out of nodes, once
    /// `deadline` has passed or `stop` is raised: a caller with a time budget or a stop signal
    /// (the strong player's root proofs) is then never held past them by a large node limit.
    /// Looked at on each search's first node and every [`WATCH_EVERY`] nodes after. `None` and
    /// `None` (the default): searches end at their node limit only.
    pub fn watch(&mut self, deadline: Option<Instant>, stop: Option<StopSignal>) {
        self.deadline = deadline;
        self.stop = stop;
    }

    /// True when the watch says to give up now (reads the clock).
    fn watched_out(&self) -> bool {
        self.stop.as_ref().is_some_and(StopSignal::is_raised)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of the position for the side to move (stones `me`, opponent's `opp`; the
    /// game not over), searching at most `limit` nodes.
    pub fn value(&mut self, me: u64, opp: u64, limit: u64) -> Option<Value> {
        self.start(limit);
        self.negamax(me, opp, -1, 1, EXACT).ok()
    }

    /// True when the side to move can force a win within `plies` plies (odd: its own move
    /// last), whatever the opponent does; within `limit` nodes.
    pub fn wins_within(&mut self, me: u64, opp: u64, plies: u32, limit: u64) -> Option<bool> {
        self.start(limit);
        // A null window: only "is it a win?" is asked, so every refutation cuts at once.
        self.negamax(me, opp, 0, 1, plies_to_depth(plies))
            .ok()
            .map(|v| v == 1)
    }

    /// The value for the side to move and a move that achieves it, within `limit` nodes.
    pub fn best_move(&mut self, me: u64, opp: u64, limit: u64) -> Option<(Value, PentagoMove)> {
        self.start(limit);
        self.root(me, opp, -2, EXACT).flatten()
    }

    /// A move that forces a win within `plies` plies (odd), if there is one (`Some(None)` when
    /// there is none), within `limit` nodes.
    pub fn winning_move_within(
        &mut self,
        me: u64,
        opp: u64,
        plies: u32,
        limit: u64,
    ) -> Option<Option<PentagoMove>> {
        self.start(limit);
        // Starting at alpha 0 asks of each move only whether it wins.
        let found = self.root(me, opp, 0, plies_to_depth(plies))?;
        Some(found.filter(|&(v, _)| v == 1).map(|(_, mv)| mv))
    }

    /// The best root move better than `alpha` with `depth` plies below the root's moves (see
    /// [`Solver::negamax`]): `Some(None)` when no move beats `alpha`, `None` out of nodes.
    fn root(
        &mut self,
        me: u64,
        opp: u64,
        mut alpha: Value,
        depth: u32,
    ) -> Option<Option<(Value, PentagoMove)>> {
        let mut best = None;
        let next = if depth == EXACT { EXACT } else { depth - 1 };
        let r = self.for_each_move(me, opp, |solver, mv, outcome| {
            let v = match outcome {
                Some(v) => v,
                None => {
                    let (m, o) = super::Pentago::after(me, opp, mv);
                    -solver.negamax(o, m, -1, -alpha.max(-1), next)?
                }
            };
            if v > alpha {
                alpha = v;
                best = Some((v, mv));
            }
            Ok(v == 1)
        });
        r.ok().map(|()| best)
    }

    /// True when the position is worth at least `bound` to the side to move (a null-window test,
    /// cheaper than the exact value), within `limit` nodes.
    pub fn at_least(&mut self, me: u64, opp: u64, bound: Value, limit: u64) -> Option<bool> {
        self.start(limit);
        self.negamax(me, opp, bound - 1, bound, EXACT)
            .ok()
            .map(|v| v >= bound)
    }

    fn start(&mut self, limit: u64) {
        self.nodes = 0;
        self.limit = limit;
    }

    /// Calls `visit(self, move, outcome)` for every move of the mover in `me`, where `outcome`
    /// is the move's value when it ends the game at once (`None`: the game goes on), until
    /// `visit` returns `Ok(true)`.
    fn for_each_move(
        &mut self,
        me: u64,
        opp: u64,
        mut visit: impl FnMut(&mut Self, PentagoMove, Option<Value>) -> Result<bool, OutOfNodes>,
    ) -> Result<(), OutOfNodes> {
        let empty = FULL & !(me | opp);
        let last = empty.count_ones() == 1;
        for s in 0..6 {
            let (m, o, e) = (swap(me, s), swap(opp, s), swap(empty, s));
            let opp_five = has_five(o);
            let own_five = has_five(m);
            let completes = completions(m, e);
            let mut rest = empty;
            while rest != 0 {
                let c = rest.trailing_zeros();
                rest &= rest - 1;
                let placed = swap(1 << c, s);
                let mine = own_five || completes & placed != 0;
                let outcome = match (mine, opp_five) {
                    (true, true) => Some(0),
                    (true, false) => Some(1),
                    (false, true) => Some(-1),
                    (false, false) if last => Some(0),
                    _ => None,
                };
                if visit(self, PentagoMove::new(c, s), outcome)? {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn slot(&self, me: u64, opp: u64) -> Option<usize> {
        if self.table.is_empty() {
            return None;
        }
        let h = (me ^ opp.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some((h >> 20) as usize & (self.table.len() - 1))
    }

    /// The value for the mover within the window, searching `depth` more plies before the
    /// check for a win at once (unproven leaves count 0); [`EXACT`] searches to the end and
    /// is the only depth that uses the table.
    fn negamax(
        &mut self,
        me: u64,
        opp: u64,
        mut alpha: Value,
        mut beta: Value,
        depth: u32,
    ) -> Result<Value, OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(OutOfNodes);
        }
        if (self.deadline.is_some() || self.stop.is_some())
            && self.nodes % WATCH_EVERY == 1
            && self.watched_out()
        {
            return Err(OutOfNodes);
        }
        if tactics::can_win(me, opp) {
            return Ok(1);
        }
        if depth == 0 {
            return Ok(0);
        }
        let slot = if depth == EXACT {
            self.slot(me, opp)
        } else {
            None
        };
        let (alpha0, beta0) = (alpha, beta);
        if let Some(i) = slot
            && let Some((lo, hi)) = self.table[i].bounds(me, opp)
        {
            if lo == hi || lo >= beta {
                return Ok(lo);
            }
            if hi <= alpha {
                return Ok(hi);
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        // No move wins at once, so the best is a draw unless some move leads to a won game.
        let mut best: Value = -1;
        self.for_each_move(me, opp, |solver, mv, outcome| {
            let v = match outcome {
                Some(v) => v,
                None => {
                    let (m, o) = super::Pentago::after(me, opp, mv);
                    let next = if depth == EXACT { EXACT } else { depth - 1 };
                    -solver.negamax(o, m, -beta, -alpha.max(best), next)?
                }
            };
            best = best.max(v);
            Ok(best >= beta)
        })?;
        if let Some(i) = slot {
            let (lo, hi) = if best <= alpha0 {
                (-1, best)
            } else if best >= beta0 {
                (best, 1)
            } else {
                (best, best)
            };
            self.table[i] = Entry {
                tagged: me | ((lo + 2) as u64) << 40 | ((hi + 2) as u64) << 42,
                opp,
            };
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Pentago;
    use super::*;
    use crate::game::{Game, MoveSet, rng_from_seed};

    /// The value for the mover by plain minimax over `Game::play`, no pruning.
    fn minimax(p: &Pentago) -> Value {
        let mover = p.current_seat();
        let mut best = -1;
        for mv in p.legal_moves().iter() {
            let mut q = *p;
            q.play(mv);
            let v = if q.is_terminal() {
                (q.reward(mover) * 2.0) as Value - 1
            } else {
                -minimax(&q)
            };
            best = best.max(v);
            if best == 1 {
                break;
            }
        }
        best
    }

    /// Random positions with `empties` empty cells that are not over.
    fn endgames(empties: u32, count: usize, seed: u64) -> Vec<Pentago> {
        let mut rng = rng_from_seed(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = Pentago::new();
            while !p.is_terminal() && p.empty().count_ones() > empties {
                p.play(p.legal_moves().random(&mut rng));
            }
            if !p.is_terminal() {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn solver_values_equal_plain_minimax() {
        let mut with_table = Solver::new(12);
        let mut without = Solver::new(0);
        let mut seen = [0; 3];
        for empties in 1..=4 {
            // Positions won at once are settled before any search: skip most of them.
            let all = endgames(empties, 400, empties as u64);
            let picked = all
                .iter()
                .enumerate()
                .filter(|(i, p)| i % 10 == 0 || !p.mover_can_win());
            for (_, &p) in picked {
                let (me, opp) = p.mover_and_opponent();
                let want = minimax(&p);
                seen[(want + 1) as usize] += 1;
                assert_eq!(with_table.value(me, opp, u64::MAX), Some(want), "{p:?}");
                assert_eq!(without.value(me, opp, u64::MAX), Some(want), "{p:?}");
                let (v, mv) = with_table.best_move(me, opp, u64::MAX).unwrap();
                assert_eq!(v, want);
                // The move achieves the value.
                let mut q = p;
                q.play(mv);
                let got = if q.is_terminal() {
                    (q.reward(p.current_seat()) * 2.0) as Value - 1
                } else {
                    -minimax(&q)
                };
                assert_eq!(got, want, "{p:?} {mv}");
                for bound in [0, 1] {
                    assert_eq!(
                        without.at_least(me, opp, bound, u64::MAX),
                        Some(want >= bound)
                    );
                }
            }
        }
        assert!(
            seen.iter().all(|&n| n >= 20),
            "wins, draws and losses: {seen:?}"
        );
    }

    /// True when the mover of `p` can force a win within `plies` plies, by playing every line.
    fn forced_win(p: &Pentago, plies: u32) -> bool {
        let me = p.current_seat();
        p.legal_moves().iter().any(|m| {
            let mut q = *p;
            q.play(m);
            if q.is_terminal() {
                return q.reward(me) == 1.0;
            }
            plies >= 3
                && q.legal_moves().iter().all(|r| {
                    let mut t = q;
                    t.play(r);
                    if t.is_terminal() {
                        t.reward(me) == 1.0
                    } else {
                        forced_win(&t, plies - 2)
                    }
                })
        })
    }

    #[test]
    fn proofs_of_a_win_within_three_plies_agree_with_playing_every_line() {
        let mut s = Solver::new(0);
        let mut found = 0;
        // Until eight forced wins have been checked (about one position in three hundred).
        for p in endgames(7, 3000, 21) {
            if found == 8 {
                break;
            }
            let (me, opp) = p.mover_and_opponent();
            if tactics::can_win(me, opp) {
                continue;
            }
            let want = forced_win(&p, 3);
            assert_eq!(s.wins_within(me, opp, 3, u64::MAX), Some(want), "{p:?}");
            let mv = s.winning_move_within(me, opp, 3, u64::MAX).unwrap();
            assert_eq!(mv.is_some(), want);
            if let Some(mv) = mv {
                found += 1;
                // The move wins within three plies: every reply leaves a win at once.
                let mut q = p;
                q.play(mv);
                assert!(!q.is_terminal());
                let (o, m) = q.mover_and_opponent();
                assert!(!tactics::can_win(o, m));
                for r in q.legal_moves().iter() {
                    let mut t = q;
                    t.play(r);
                    assert!(
                        t.is_terminal() && t.reward(p.current_seat()) == 1.0 || t.mover_can_win()
                    );
                }
            }
        }
        assert_eq!(found, 8);
    }

    #[test]
    fn a_node_limit_gives_up_cleanly() {
        // A position that needs a search: no win at once.
        let p = endgames(12, 20, 9)
            .into_iter()
            .find(|p| !p.mover_can_win())
            .unwrap();
        let (me, opp) = p.mover_and_opponent();
        let mut s = Solver::new(10);
        assert_eq!(s.value(me, opp, 50), None);
        assert_eq!(s.nodes(), 51, "stops at the first node past the limit");
        assert_eq!(s.best_move(me, opp, 50), None);
    }

    #[test]
    fn a_watch_ends_a_search_at_its_deadline_or_stop_whatever_the_node_limit() {
        // The empty board: no search of it ends within any node count a test could wait for.
        let (me, opp) = Pentago::new().mover_and_opponent();
        let mut s = Solver::new(10);
        s.watch(Some(Instant::now()), None);
        assert_eq!(s.value(me, opp, u64::MAX), None);
        assert_eq!(
            s.nodes(),
            1,
            "a passed deadline ends the search at its first node"
        );
        let stop = StopSignal::new();
        stop.raise();
        s.watch(None, Some(stop.clone()));
        assert_eq!(s.best_move(me, opp, u64::MAX), None);
        assert_eq!(s.winning_move_within(me, opp, 7, u64::MAX), None);
        assert_eq!(s.nodes(), 1);
        // Raised while the search runs: it ends at its next look.
        stop.reset();
        let raiser = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.raise();
            })
        };
        // (A limit, so that a watch that failed would fail the test rather than hang it.)
        let limit = 100_000_000;
        assert_eq!(s.value(me, opp, limit), None);
        assert!(s.nodes() < limit, "stopped, not out of nodes");
        raiser.join().unwrap();
        // Unwatched again, a search that fits its limit answers as before.
        s.watch(None, None);
        let p = endgames(3, 1, 5)[0];
        let (me, opp) = p.mover_and_opponent();
        assert_eq!(s.value(me, opp, u64::MAX), Some(minimax(&p)));
    }
}
