//! The game the strong player searches: Pentago-Swap with its tactics folded into the rules, so
//! that the shared search core (arena, walk, budgets, every parallel mode) runs it unchanged.
//!
//! - **Decisive moves.** A position whose mover can win at once is over: the mover has won. The
//!   walk then never expands below it, and the parent sees the exact value.
//! - **Anti-decisive moves** follow one level up: a move after which the opponent can win at
//!   once leads to such a won-for-the-opponent position, whose exact reward 0 every visit
//!   backs up, so UCT stops choosing it as fast as its exploration term allows. At the root
//!   they are removed outright (the root's move list is computed once per decision).
//! - **Short endgames** (`solve_empties` or fewer empty cells) are solved exactly when reached
//!   and treated as over with their true value.
//! - **Symmetry.** In a position that a rotation or reflection of the board maps onto itself
//!   (checked while there are at most [`SYMMETRY_STONES`] stones), only one move of each family
//!   of equivalent moves is legal.
//! - **Playouts** stop as soon as the mover can win at once (it has won), and a random move
//!   after which the opponent could win at once is redrawn up to `retries` times.
//!
//! Every one of these is a pure function of the position, so the search stays a pure function
//! of its seed with an iteration budget, and nothing allocates.

use crate::game::{Draws, Game, MoveSet, Rng, Seat};
use crate::games::pentago::solver::Solver;
use crate::games::pentago::{Outcome, Pentago, PentagoMove, PentagoMoves, symmetry};

/// Positions with at most this many stones are checked for symmetries.
pub const SYMMETRY_STONES: u32 = 6;

/// How the tactical rules are set (the agent's options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Positions with at most this many empty cells are solved exactly when reached (0: never).
    pub solve_empties: u32,
    /// Redraws of a playout move that lets the opponent win at once.
    pub retries: u32,
    /// Only one move of each family of symmetric moves.
    pub symmetry: bool,
}

/// A position of the strong player's search.
#[derive(Clone, Copy, Debug)]
pub struct Tactical {
    pos: Pentago,
    /// The result when tactics settle the game before its end.
    settled: Option<Outcome>,
    /// The root's own move list (only set at the root of a search).
    root_moves: Option<PentagoMoves>,
    rules: Rules,
}

impl Tactical {
    /// The root of a search: `pos` (not over, the mover unable to win at once) with its legal
    /// moves given.
    pub fn root(pos: Pentago, moves: PentagoMoves, rules: Rules) -> Tactical {
        Tactical {
            pos,
            settled: None,
            root_moves: Some(moves),
            rules,
        }
    }

    /// The position.
    pub fn position(&self) -> &Pentago {
        &self.pos
    }

    /// The result tactics can tell without searching, for a position not over.
    fn settle(pos: &Pentago, rules: &Rules) -> Option<Outcome> {
        let mover = pos.current_seat() as u8;
        if pos.mover_can_win() {
            return Some(Outcome::Won(mover));
        }
        if pos.empty().count_ones() <= rules.solve_empties {
            let (me, opp) = pos.mover_and_opponent();
            // No table: small endgames are cheap, and the search must not allocate.
            let v = Solver::new(0)
                .value(me, opp, u64::MAX)
                .expect("no node limit");
            return Some(match v {
                1 => Outcome::Won(mover),
                -1 => Outcome::Won(mover ^ 1),
                _ => Outcome::Draw,
            });
        }
        None
    }

    /// One move on the raw position, for playouts: a random move, redrawn while it lets the
    /// opponent win at once and retries are left. Returns the new position and whether its
    /// mover can win at once.
    #[inline]
    fn playout_step(
        pos: &Pentago,
        retries: u32,
        draws: &mut Draws,
        rng: &mut Rng,
    ) -> (Pentago, bool) {
        let empty = pos.empty();
        let n = 6 * empty.count_ones();
        let mut tries = 0;
        loop {
            let k = draws.below(rng, n);
            let cell = crate::cards::select_bit(empty, k / 6);
            let mut next = *pos;
            next.play(PentagoMove::new(cell, (k % 6) as usize));
            if next.is_terminal() {
                return (next, false);
            }
            let threat = next.mover_can_win();
            if !threat || tries == retries {
                return (next, threat);
            }
            tries += 1;
        }
    }
}

impl Game for Tactical {
    type Move = PentagoMove;
    type Moves = PentagoMoves;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.pos.current_seat()
    }

    #[inline]
    fn legal_moves(&self) -> PentagoMoves {
        if self.is_terminal() {
            return PentagoMoves::EMPTY;
        }
        if let Some(moves) = self.root_moves {
            return moves;
        }
        let all = self.pos.legal_moves();
        let [w, b] = self.pos.stones();
        if self.rules.symmetry && (w | b).count_ones() <= SYMMETRY_STONES {
            return symmetry::distinct_moves(all, symmetry::stabilizer(w, b));
        }
        all
    }

    #[inline]
    fn play(&mut self, mv: PentagoMove) {
        debug_assert!(self.legal_moves().contains(mv), "illegal {mv}");
        self.pos.play(mv);
        self.root_moves = None;
        if !self.pos.is_terminal() {
            self.settled = Tactical::settle(&self.pos, &self.rules);
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.settled.is_some() || self.pos.is_terminal()
    }

    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        self.settled.unwrap_or(self.pos.outcome()).reward(seat)
    }

    fn score(&self, seat: Seat) -> f64 {
        self.reward(seat)
    }

    /// Random moves until the game ends or the mover can win at once (then it has won).
    #[inline]
    fn random_playout(&mut self, rng: &mut Rng) {
        if self.is_terminal() {
            return;
        }
        let mut draws = Draws::new();
        let mut pos = self.pos;
        loop {
            let (next, threat) = Tactical::playout_step(&pos, self.rules.retries, &mut draws, rng);
            pos = next;
            if pos.is_terminal() {
                break;
            }
            if threat {
                self.settled = Some(Outcome::Won(pos.current_seat() as u8));
                break;
            }
        }
        self.pos = pos;
        self.root_moves = None;
    }

    fn parse_move(&self, text: &str) -> Result<PentagoMove, String> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveSet, rng_from_seed};
    use crate::games::pentago::tactics;

    const RULES: Rules = Rules {
        solve_empties: 3,
        retries: 2,
        symmetry: true,
    };

    #[test]
    fn a_position_the_mover_can_win_is_over_with_its_value() {
        let mut rng = rng_from_seed(4);
        let mut checked = 0;
        for _ in 0..2000 {
            let p = crate::games::pentago::random_position(&mut rng, 0, 30);
            if p.is_terminal() || p.mover_can_win() || p.empty().count_ones() <= 4 {
                continue;
            }
            let root = Tactical::root(p, p.legal_moves(), RULES);
            for mv in p.legal_moves().iter() {
                let mut t = root;
                t.play(mv);
                let mut q = p;
                q.play(mv);
                if q.is_terminal() {
                    assert_eq!(t.reward(0), q.reward(0));
                } else if q.mover_can_win() {
                    checked += 1;
                    assert!(t.is_terminal());
                    assert_eq!(t.reward(q.current_seat()), 1.0);
                    assert_eq!(t.reward(p.current_seat()), 0.0);
                } else {
                    assert!(!t.is_terminal());
                    // Every move, or one per family in a symmetric position with few stones.
                    let [w, b] = q.stones();
                    let stab = if (w | b).count_ones() <= SYMMETRY_STONES {
                        symmetry::stabilizer(w, b)
                    } else {
                        0
                    };
                    assert_eq!(
                        t.legal_moves(),
                        symmetry::distinct_moves(q.legal_moves(), stab)
                    );
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn playouts_end_in_a_settled_or_finished_game() {
        let mut rng = rng_from_seed(6);
        let root = Tactical::root(Pentago::new(), Pentago::new().legal_moves(), RULES);
        let mut settled = 0;
        for _ in 0..500 {
            let mut t = root;
            t.random_playout(&mut rng);
            assert!(t.is_terminal());
            assert_eq!(t.reward(0) + t.reward(1), 1.0);
            if let Some(Outcome::Won(s)) = t.settled {
                settled += 1;
                // Settled means the winner is to move and can win at once.
                assert_eq!(t.pos.current_seat(), s as usize);
                let (me, opp) = t.pos.mover_and_opponent();
                assert!(tactics::can_win(me, opp));
            }
        }
        assert!(
            settled > 250,
            "most random games end with a win available: {settled}"
        );
    }

    #[test]
    fn the_opening_offers_one_move_per_symmetric_family() {
        let p = Pentago::new();
        let root = Tactical::root(p, p.legal_moves(), RULES);
        let mut t = root;
        t.play("1,1:03".parse().unwrap());
        // One stone on the main diagonal: the diagonal mirror maps the position onto itself.
        assert!(t.legal_moves().len() < t.pos.legal_moves().len());
        let mut plain = Rules {
            symmetry: false,
            ..RULES
        };
        plain.solve_empties = 0;
        let mut u = Tactical::root(p, p.legal_moves(), plain);
        u.play("1,1:03".parse().unwrap());
        assert_eq!(u.legal_moves(), u.pos.legal_moves());
    }
}
