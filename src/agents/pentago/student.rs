//! `pentago-student`: the player of the student's COMP 424 report (seed
//! `003_04afcbbf74b0fb74.txt`), rebuilt from the report's words alone.
//!
//! What the report says, and how it is read here:
//! - **Opening.** On the empty board: place on (1,1) and swap the top-right and bottom-right
//!   quadrants (`1,1:13`). As second player with one stone on the board: place on one of the
//!   quadrant centres (1,1), (1,4), (4,1), (4,4); the report does not say which or with which
//!   swap, so this takes the first legal move on one of them in the engine's move order.
//! - **Search.** Plain UCT for 1,500 ms (`time_ms`, default 1500; `iterations=N` instead gives a
//!   machine-independent budget). Selection descends while a node has children, by
//!   `wins/visits + c·sqrt(ln(parent visits)/visits)` with `c = 2`, an unvisited child first.
//!   A leaf never visited is played out as it is; a visited one gets **all its children at
//!   once** and the first child is played out. Playouts are uniformly random, scored **+10** if
//!   the student wins, **−10** if it loses, 0 for a draw, and the same score is added to every
//!   node on the path up to the root. The report never turns the score round for the
//!   opponent's nodes, so neither does this: the opponent's choices in the tree are also made
//!   by the student's own score, as if the opponent helped.
//! - **The move.** The root child with the best UCB value (as in the report; not the most
//!   visited). Then two safety checks: if some legal move wins at once, play it; otherwise
//!   walk the root children from the best UCB value down and take the first after which the
//!   opponent cannot win at once (nor has won by the swap); if there is none, keep the best.
//!
//! The tree is an arena of nodes sized once (`max_nodes`); when it is full, leaves stop being
//! expanded and are played out as they are. The safety checks use the game's immediate-win scan,
//! which gives the answers the report's "play every move on a copy" loop would, faster.

use std::time::{Duration, Instant};

use super::PentagoAgent;
use crate::agents::{AgentError, AgentInfo, ChildStat, Decision};
use crate::game::{Game, MoveSet, Rng};
use crate::games::pentago::{Pentago, PentagoMove, tactics};
use crate::limits;
use crate::search::{Budget, BudgetClock};
use crate::spec::{OptionDoc, Spec, SpecError};

/// Documentation of `pentago-student`.
pub const INFO: AgentInfo = AgentInfo {
    name: "pentago-student",
    about: "Pentago-Swap only: the student's UCT player of the COMP 424 report (c=2, +/-10 \
            playouts, all children at once, fixed opening, two safety checks, 1500 ms)",
    options: &[
        OptionDoc {
            key: "c",
            default: "2",
            help: "UCB exploration constant on the +/-10 score scale (0 to 1e6)",
        },
        OptionDoc {
            key: "time_ms",
            default: "1500",
            help: "milliseconds per move (its own budget: the match budget is not used)",
        },
        OptionDoc {
            key: "iterations",
            default: "none",
            help: "iterations per move instead of time_ms (time_ms too if both are given)",
        },
        OptionDoc {
            key: "max_nodes",
            default: "2097152",
            help: "tree capacity in nodes (32 bytes each), 2 to 268435456 (2^28), reserved \
                   before each search; a full tree stops growing",
        },
    ],
};

/// The report's time per move.
pub const DEFAULT_TIME_MS: u64 = 1500;

/// Score of a won, drawn and lost playout, for the student.
const WIN: f64 = 10.0;

/// The quadrant centres the second player's opening places on, in the report's order.
const CENTRES: [u32; 4] = [7, 10, 25, 28];

/// One node of the student's tree; its children are `first .. first + count`.
#[derive(Clone, Copy, Debug)]
struct Node {
    wins: f64,
    visits: f64,
    parent: u32,
    first: u32,
    count: u8,
    mv: PentagoMove,
}

/// The student's player.
#[derive(Debug)]
pub struct StudentAgent {
    c: f64,
    /// Its own budget, the spec's or the default, which replaces the caller's.
    budget: Budget,
    /// True when the caller's budget is used instead ([`PentagoAgent::use_given_budget`]).
    given_budget: bool,
    max_nodes: usize,
    nodes: Vec<Node>,
    /// True when the last search found the arena too full to expand a node.
    full: bool,
}

impl StudentAgent {
    /// Reads the options of `spec` (the caller checks for unknown options).
    pub fn from_spec(spec: &Spec) -> Result<StudentAgent, SpecError> {
        let err = |m: String| SpecError(format!("{}: {m}", spec.name));
        // The same range as every other agent's `c`: an exploration term a million times a
        // playout's +/-10 is already pure exploration.
        let c = crate::search::config::exploration_from_spec(spec, 2.0)?;
        let time_ms: Option<u64> = spec
            .raw("time_ms")
            .map(|_| spec.get("time_ms", 0))
            .transpose()?;
        let iterations: Option<u64> = spec
            .raw("iterations")
            .map(|_| spec.get("iterations", 0))
            .transpose()?;
        if let Some(t) = time_ms {
            limits::positive_at_most("time_ms", t, limits::MAX_TIME_MS).map_err(err)?;
        }
        if let Some(n) = iterations {
            limits::positive_at_most("iterations", n, limits::MAX_ITERATIONS).map_err(err)?;
        }
        let budget = Budget {
            iterations,
            time: match (time_ms, iterations) {
                (None, None) => Some(Duration::from_millis(DEFAULT_TIME_MS)),
                (t, _) => t.map(Duration::from_millis),
            },
            stop: None,
        };
        let max_nodes: usize = spec.get("max_nodes", 1 << 21)?;
        if !(2..=limits::MAX_OWN_TREE_NODES as usize).contains(&max_nodes) {
            return Err(err(format!(
                "max_nodes={max_nodes} must be 2 to {}",
                limits::MAX_OWN_TREE_NODES
            )));
        }
        Ok(StudentAgent {
            c,
            budget,
            given_budget: false,
            max_nodes,
            nodes: Vec::new(),
            full: false,
        })
    }

    /// The UCB value of node `i`, whose parent has `parent_visits` visits.
    fn ucb(&self, i: usize, parent_visits: f64) -> f64 {
        let n = &self.nodes[i];
        if n.visits == 0.0 {
            return f64::INFINITY;
        }
        n.wins / n.visits + self.c * (parent_visits.ln() / n.visits).sqrt()
    }

    /// The child of `i` with the best UCB value (the first of equals).
    fn best_child(&self, i: usize) -> usize {
        let n = self.nodes[i];
        let mut best = n.first as usize;
        let mut best_value = f64::NEG_INFINITY;
        for k in n.first as usize..(n.first + n.count as u32) as usize {
            let v = self.ucb(k, n.visits);
            if v > best_value {
                best = k;
                best_value = v;
            }
        }
        best
    }

    /// Adds every child of node `i` at `state`; false when the game is over there or the arena
    /// is full.
    fn expand(&mut self, i: usize, state: &Pentago) -> bool {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return false;
        }
        if self.nodes.len() + moves.len() > self.max_nodes {
            self.full = true;
            return false;
        }
        let first = self.nodes.len() as u32;
        moves.for_each(|mv| {
            self.nodes.push(Node {
                wins: 0.0,
                visits: 0.0,
                parent: i as u32,
                first: 0,
                count: 0,
                mv,
            })
        });
        self.nodes[i].first = first;
        self.nodes[i].count = moves.len() as u8;
        true
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self, root: &Pentago, me: usize, rng: &mut Rng) {
        let mut state = *root;
        let mut i = 0;
        while self.nodes[i].count > 0 {
            i = self.best_child(i);
            state.play(self.nodes[i].mv);
        }
        if self.nodes[i].visits > 0.0 && self.expand(i, &state) {
            i = self.nodes[i].first as usize;
            state.play(self.nodes[i].mv);
        }
        state.random_playout(rng);
        let score = WIN * (2.0 * state.reward(me) - 1.0);
        loop {
            let n = &mut self.nodes[i];
            n.visits += 1.0;
            n.wins += score;
            if i == 0 {
                break;
            }
            i = n.parent as usize;
        }
    }

    /// The report's opening moves, when they apply.
    fn opening(state: &Pentago) -> Option<PentagoMove> {
        let stones = (state.stones()[0] | state.stones()[1]).count_ones();
        match stones {
            0 => Some("1,1:13".parse().expect("a valid move")),
            1 => CENTRES
                .iter()
                .find(|&&c| state.empty() >> c & 1 == 1)
                .map(|&c| PentagoMove::new(c, 0)),
            _ => None,
        }
    }

    /// The safety checks after the search: a win at once if there is one, else the first root
    /// child by UCB value that does not let the opponent win at once.
    fn safe_choice(&self, state: &Pentago, me: usize) -> PentagoMove {
        let (mine, theirs) = state.mover_and_opponent();
        if let Some(win) = tactics::winning_moves(mine, theirs).iter().next() {
            return win;
        }
        let root = self.nodes[0];
        let mut order: Vec<usize> =
            (root.first as usize..(root.first + root.count as u32) as usize).collect();
        let values: Vec<f64> = order.iter().map(|&k| self.ucb(k, root.visits)).collect();
        // Best UCB value first; equal values keep the children's order (a stable sort).
        order.sort_by(|&a, &b| {
            let (va, vb) = (
                values[a - root.first as usize],
                values[b - root.first as usize],
            );
            vb.partial_cmp(&va).unwrap_or(std::cmp::Ordering::Equal)
        });
        let loses = |mv: PentagoMove| {
            let mut next = *state;
            next.play(mv);
            if next.is_terminal() {
                return next.reward(me) == 0.0;
            }
            next.mover_can_win()
        };
        let best = self.nodes[order[0]].mv;
        order
            .iter()
            .map(|&k| self.nodes[k].mv)
            .find(|&mv| !loses(mv))
            .unwrap_or(best)
    }
}

impl PentagoAgent for StudentAgent {
    fn spec(&self) -> String {
        let mut parts = vec![format!("c={}", self.c)];
        if let Some(t) = self.budget.time {
            parts.push(format!("time_ms={}", t.as_millis()));
        }
        if let Some(n) = self.budget.iterations {
            parts.push(format!("iterations={n}"));
        }
        parts.push(format!("max_nodes={}", self.max_nodes));
        format!("{}:{}", INFO.name, parts.join(","))
    }

    fn release_memory(&mut self) {
        self.nodes = Vec::new();
    }

    fn use_given_budget(&mut self) {
        self.given_budget = true;
    }

    fn choose(
        &mut self,
        state: &Pentago,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<PentagoMove>, AgentError> {
        let start = Instant::now();
        let me = state.current_seat();
        if let Some(mv) = Self::opening(state) {
            return Ok(Decision::without_search(mv, start.elapsed()));
        }
        self.nodes.clear();
        self.full = false;
        // The whole arena at once, before the clock: no iteration allocates.
        if self.nodes.try_reserve_exact(self.max_nodes).is_err() {
            return Err(AgentError::Resources(format!(
                "{}: no memory for a tree of {} nodes",
                INFO.name, self.max_nodes
            )));
        }
        self.nodes.push(Node {
            wins: 0.0,
            visits: 0.0,
            parent: 0,
            first: 0,
            count: 0,
            mv: PentagoMove::from_index(0),
        });
        // Its own budget, always (the caller may still stop it), except in a re-run of a
        // logged decision, which gives the logged count.
        let own = (!self.given_budget).then_some(&self.budget);
        let clock = BudgetClock::start(&budget.replaced_by(own));
        let mut done = 0;
        while !clock.exhausted(done) {
            self.iterate(state, me, rng);
            done += 1;
        }
        // The root is expanded on the second iteration; a budget of one leaves it bare.
        if self.nodes[0].count == 0 {
            self.expand(0, state);
        }
        let mv = self.safe_choice(state, me);
        let root = self.nodes[0];
        let mut children: Vec<ChildStat<PentagoMove>> = (root.first
            ..root.first + root.count as u32)
            .map(|k| {
                let n = self.nodes[k as usize];
                ChildStat {
                    mv: n.mv,
                    visits: n.visits as u64,
                    availability: root.visits as u64,
                    mean: if n.visits > 0.0 {
                        (n.wins / n.visits / WIN + 1.0) / 2.0
                    } else {
                        0.0
                    },
                    votes: 0,
                }
            })
            .collect();
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        Ok(Decision {
            mv,
            iterations: done,
            elapsed: start.elapsed(),
            children,
            nodes: self.nodes.len() as u64,
            tree_full: self.full,
            endgame_cut: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_out_of_range_are_one_line_errors_naming_the_option() {
        for (text, needle) in [
            (
                "pentago-student:c=1e7",
                "c=10000000 must be a number from 0 to 1000000",
            ),
            ("pentago-student:c=-1", "c=-1"),
            ("pentago-student:c=inf", "c=inf"),
            ("pentago-student:c=NaN", "c=NaN"),
            ("pentago-student:max_nodes=1", "max_nodes=1 must be 2 to"),
            ("pentago-student:iterations=0", "iterations=0"),
        ] {
            let spec: Spec = text.parse().unwrap();
            let Err(e) = StudentAgent::from_spec(&spec) else {
                panic!("{text} was accepted");
            };
            assert!(e.0.contains(needle), "{text}: {e}");
            assert!(!e.0.contains('\n'), "{text}: {e}");
        }
        // The ceiling itself is allowed, as for every other agent's `c`.
        let top: Spec = "pentago-student:c=1e6".parse().unwrap();
        assert!(StudentAgent::from_spec(&top).is_ok());
    }
}
