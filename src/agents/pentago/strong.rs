//! `pentago-strong`: UCT with Pentago-Swap's tactics built into the search.
//!
//! Each decision:
//! 1. **A win at once** is played without searching.
//! 2. **The root's moves** are those that neither lose at once nor let the opponent win at once
//!    (all moves, if every one does).
//! 3. **Short proofs** (`lookahead`, default 3 plies; 1 turns them off): a move that forces a
//!    win within that many plies is played; moves after which the opponent could force one are
//!    dropped, unless every move is.
//! 4. **An exact endgame**: with at most `solve` empty cells, the alpha-beta solver (with its
//!    transposition table) tries to settle the position. A proven win is played. A proven draw
//!    keeps only the moves proven not to lose (or plays the solver's drawing move when those
//!    proofs run out of nodes). A proven loss, or no proof, leaves the decision to the search.
//! 5. **Symmetry**: one move per family of moves that a symmetry of the position maps onto
//!    each other. A single move left is played.
//! 6. **UCT** on [`Tactical`] (decisive positions are over, short endgames solved, playouts that
//!    take a win when one appears and avoid handing one over), through the shared search core:
//!    the same arena, budgets and parallel modes as every search agent (`parallel=`,
//!    `threads=`, `virtual_loss=`).
//! 7. **Tree reuse**: the search starts from the subtree of the position reached (its own last
//!    move and the opponent's reply), copied out of the last search (single-tree modes).
//!
//! Every proof of steps 3–4 stops after `solve_nodes` nodes, and as soon as the decision's
//! deadline passes or its stop signal is raised (then it proves nothing, as when out of nodes).
//! Steps 1–5 come before the search's clock starts: with a time budget their time is taken off
//! the search's, with an iteration budget they are free.

use std::time::Instant;

use super::PentagoAgent;
use super::proofs;
use super::tactical::{Rules, SYMMETRY_STONES, Tactical};
use crate::agents::{AgentError, AgentInfo, Decision};
use crate::game::{Game, MoveSet, Rng};
use crate::games::pentago::solver::Solver;
use crate::games::pentago::{Pentago, PentagoMove, PentagoMoves, symmetry, tactics};
use crate::limits;
use crate::search::config;
use crate::search::graft::{KeptTree, find_path};
use crate::search::{Algorithm, Budget, Fixed, Parallel, SearchConfig, Searcher, Tree};
use crate::spec::{OptionDoc, Spec, SpecError};

/// Documentation of `pentago-strong`.
pub const INFO: AgentInfo = AgentInfo {
    name: "pentago-strong",
    about: "Pentago-Swap only: UCT with decisive and anti-decisive moves, exact endgames, \
            symmetry, tactical playouts and tree reuse (every parallel mode)",
    options: &[
        OptionDoc {
            key: "c",
            default: "0.1",
            help: "UCB exploration constant (lower than the other agents': docs/results.md)",
        },
        OptionDoc {
            key: "preset",
            default: "none",
            help: "none | strong: accepted as by every search agent, and changes nothing \
                   here: its reward=mix:w=0.3 equals pwl in a game scored by its result alone",
        },
        OptionDoc {
            key: "playout",
            default: "random",
            help: "random only, which here means the tactical playouts: random moves, one that \
                   lets the opponent win at once redrawn up to `retries` times, a playout won \
                   as soon as its mover can win at once",
        },
        // The shared search options but `c`, `preset`, `playout` (above), the NAST and EPIC
        // `policy` and the heuristic and model playouts' `epsilon` (no such playouts here),
        // the card games' exact endgame and inference, and `turn_share` (a turn here is one
        // move; a test checks that none other is missing).
        config::OPT_REWARD,
        config::OPT_ITERATIONS,
        config::OPT_TIME,
        config::OPT_MAX_NODES,
        config::OPT_PARALLEL,
        config::OPT_THREADS,
        config::OPT_VIRTUAL_LOSS,
        OptionDoc {
            key: "lookahead",
            default: "3",
            help: "root proofs: play a win forced within this many plies (odd), avoid moves \
                   that let the opponent force one (1: only wins and losses at once)",
        },
        OptionDoc {
            key: "solve",
            default: "14",
            help: "try the exact endgame solver at the root with at most this many empty cells",
        },
        OptionDoc {
            key: "solve_nodes",
            default: "200000",
            help: "node limit of each root proof and of the root's endgame solve, 0 to 1e9 \
                   (about a minute each); a time budget or a stop ends them sooner",
        },
        OptionDoc {
            key: "tree_solve",
            default: "3",
            help: "solve positions in the tree with at most this many empty cells (0: never)",
        },
        OptionDoc {
            key: "retries",
            default: "1",
            help: "playouts redraw a move that lets the opponent win at once this many times \
                   (0 to 1000)",
        },
        OptionDoc {
            key: "symmetry",
            default: "true",
            help: "search one move per family of symmetric moves",
        },
        OptionDoc {
            key: "reuse",
            default: "true",
            help: "start from the last search's subtree (not with parallel=root)",
        },
    ],
};

/// The exploration constant: with wins and losses settled by tactics, a greedier search than
/// the default 0.7 wins more (`docs/results.md`).
pub const DEFAULT_C: f64 = 0.1;

/// The card games' exact-endgame options, which the shared search reads and only the card
/// games' search agents act on: refused here.
const ENDGAME_OPTIONS: [&str; 4] = ["endgame", "endgame_pick", "endgame_deals", "endgame_nodes"];

/// Bits of the root solver's transposition table (16 bytes per entry: 4 MiB).
const TABLE_BITS: u32 = 18;

/// The strong player.
pub struct StrongAgent {
    searcher: Searcher<PentagoMove>,
    rules: Rules,
    lookahead: u32,
    solve: u32,
    solve_nodes: u64,
    solver: Solver,
    /// The subtree kept for the next search (tree reuse).
    kept: KeptTree<PentagoMove>,
    /// The last searched position and the move played there.
    last: Option<(Pentago, PentagoMove)>,
}

impl std::fmt::Debug for StrongAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StrongAgent")
            .field("spec", &PentagoAgent::spec(self))
            .finish()
    }
}

impl StrongAgent {
    /// Reads the options of `spec` (the caller checks for unknown options).
    pub fn from_spec(spec: &Spec) -> Result<StrongAgent, SpecError> {
        let err = |m: String| SpecError(format!("{}: {m}", spec.name));
        // Options the shared search reads but this agent has no use for, refused before the
        // shared reading (which would accept the endgame ones and say nothing, or refuse the
        // others in words about other games).
        if let Some(key) = ENDGAME_OPTIONS.iter().find(|k| spec.has(k)) {
            return Err(err(format!(
                "{key} does not apply: it sets the card games' exact endgame (this agent's \
                 is solve= and solve_nodes=)"
            )));
        }
        if let Some(key) = ["policy", "epsilon"].into_iter().find(|k| spec.has(k)) {
            return Err(err(format!(
                "{key} does not apply: its playouts are the tactical ones (playout=random, \
                 with retries=), which have no {key}"
            )));
        }
        let mut config = SearchConfig::from_spec(spec, Algorithm::Uct)?;
        if !spec.has("c") {
            config.c = DEFAULT_C;
        }
        if config.turn_share.is_some() {
            return Err(err(
                "turn_share does not apply: a Pentago-Swap turn is one move".into(),
            ));
        }
        if config.nast_decay > 0.0 {
            // Its decisions carry a subtree, found by its own path through the tree, which
            // does not hand the searcher its n-gram statistics.
            return Err(err(
                "nast_decay is not supported by pentago-strong (use uct or ismcts)".into(),
            ));
        }
        // Nothing may read a learned opponent model: Pentago-Swap has none.
        if let Some(option) = config.learned_model_option() {
            return Err(err(format!(
                "{option}: pentago-swap has no learned opponent model"
            )));
        }
        // Pentago-Swap has no heuristic rule: its playouts are the tactical ones by default.
        if config.heuristic_playouts() {
            return Err(err(
                "playout=heuristic: pentago-swap has no heuristic rule (the default playouts \
                 are tactical: a move that lets the opponent win at once is redrawn)"
                    .into(),
            ));
        }
        let lookahead: u32 = spec.get("lookahead", 3)?;
        if lookahead.is_multiple_of(2) || lookahead > 7 {
            return Err(err(format!(
                "lookahead={lookahead} must be odd (the proof ends with our move) and at most 7"
            )));
        }
        let solve: u32 = spec.get("solve", 14)?;
        let solve_nodes: u64 = spec.get("solve_nodes", 200_000)?;
        if solve_nodes > limits::MAX_PENTAGO_SOLVE_NODES {
            return Err(err(format!(
                "solve_nodes={solve_nodes} must be from 0 to {}",
                limits::MAX_PENTAGO_SOLVE_NODES
            )));
        }
        let tree_solve: u32 = spec.get("tree_solve", 3)?;
        if tree_solve > 5 {
            return Err(err(format!(
                "tree_solve={tree_solve} is at most 5 (each visit solves again)"
            )));
        }
        let retries: u32 = spec.get("retries", 1)?;
        // A playout's redraws are not bounded by the search's clock, which is read between
        // iterations only.
        if retries > limits::MAX_PENTAGO_RETRIES {
            return Err(err(format!(
                "retries={retries} must be from 0 to {}",
                limits::MAX_PENTAGO_RETRIES
            )));
        }
        let symmetry: bool = spec.get("symmetry", true)?;
        // Tree reuse is on by default here (not with root parallelism's tree per thread).
        if !spec.has("reuse") {
            config.reuse = config.parallel != Parallel::Root;
        }
        let searcher = Searcher::new(config).map_err(|e| err(e.to_string()))?;
        Ok(StrongAgent {
            searcher,
            rules: Rules {
                solve_empties: tree_solve,
                retries,
                symmetry,
            },
            lookahead,
            solve,
            solve_nodes,
            solver: Solver::new(TABLE_BITS),
            kept: KeptTree::default(),
            last: None,
        })
    }

    /// The moves the root searches, or a move to play at once.
    fn root_moves(&mut self, state: &Pentago) -> Result<PentagoMoves, PentagoMove> {
        let (me, opp) = state.mover_and_opponent();
        if let Some(win) = tactics::winning_moves(me, opp).iter().next() {
            return Err(win);
        }
        let mut moves = tactics::safe_moves(me, opp);
        if moves.is_empty() {
            // Every move loses at once or next move: let the search pick one.
            moves = state.legal_moves();
        }
        if self.lookahead >= 3 {
            let (plies, limit) = (self.lookahead, self.solve_nodes);
            if let Some(mv) = proofs::forced_win(&mut self.solver, me, opp, plies, limit) {
                return Err(mv);
            }
            moves = proofs::not_forced_losses(&mut self.solver, me, opp, moves, plies, limit);
        }
        if state.empty().count_ones() <= self.solve {
            match self.solver.best_move(me, opp, self.solve_nodes) {
                Some((1, mv)) => return Err(mv),
                Some((0, mv)) => moves = self.not_losing(state, moves).ok_or(mv)?,
                _ => {}
            }
        }
        let [w, b] = state.stones();
        if self.rules.symmetry && (w | b).count_ones() <= SYMMETRY_STONES {
            moves = symmetry::distinct_moves(moves, symmetry::stabilizer(w, b));
        }
        if moves.len() == 1 {
            return Err(moves.nth(0));
        }
        Ok(moves)
    }

    /// Of `moves` in a position proven drawn, those proven not to lose; `None` when a proof runs
    /// out of nodes.
    fn not_losing(&mut self, state: &Pentago, moves: PentagoMoves) -> Option<PentagoMoves> {
        let mut out = PentagoMoves::EMPTY;
        for mv in moves.iter() {
            let mut next = *state;
            next.play(mv);
            let keep = if next.is_terminal() {
                next.reward(state.current_seat()) >= 0.5
            } else {
                let (m, o) = next.mover_and_opponent();
                // Not losing for us: the opponent cannot force a win.
                !self.solver.at_least(m, o, 1, self.solve_nodes)?
            };
            if keep {
                out.insert(mv);
            }
        }
        Some(out)
    }

    /// Keeps the last search's subtree of `state` for the next search; false when there is
    /// none (no last search, or `state` is not two plies after it).
    fn keep_subtree(&mut self, state: &Pentago) -> bool {
        let Some((before, mine)) = self.last else {
            return false;
        };
        let tree = &self.searcher.trees()[0];
        let Some(after_mine) = find_path(tree, &[mine]) else {
            return false;
        };
        let mut after = before;
        after.play(mine);
        let reply = tree.children(after_mine).map(|(_, n)| n.mv()).find(|&r| {
            let mut p = after;
            p.play(r);
            p == *state
        });
        let Some(node) = reply.and_then(|r| find_path(tree, &[mine, r])) else {
            return false;
        };
        self.kept.keep(tree, node)
    }

    fn options_text(&self) -> String {
        format!(
            "{},lookahead={},solve={},solve_nodes={},tree_solve={},retries={},symmetry={}{}",
            self.searcher.config().options_text(),
            self.lookahead,
            self.solve,
            self.solve_nodes,
            self.rules.solve_empties,
            self.rules.retries,
            self.rules.symmetry,
            // The search options write `reuse=true`; off is this agent's exception.
            if self.searcher.config().reuse {
                ""
            } else {
                ",reuse=false"
            }
        )
    }
}

impl PentagoAgent for StrongAgent {
    fn spec(&self) -> String {
        format!("{}:{}", INFO.name, self.options_text())
    }

    fn search_trees(&self) -> Option<&[Tree<PentagoMove>]> {
        Some(self.searcher.trees())
    }

    fn keeps_trees(&self) -> bool {
        self.searcher.config().reuse
    }

    fn release_memory(&mut self) {
        // The kept subtree goes too: the next decision searches afresh.
        self.searcher.release_memory();
        self.kept.release_memory();
        self.last = None;
    }

    fn choose(
        &mut self,
        state: &Pentago,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<PentagoMove>, AgentError> {
        let start = Instant::now();
        // The spec's own budget replaces the caller's limits; the caller's stop signal stays.
        let budget = budget.replaced_by(self.searcher.config().budget.as_ref());
        // The root proofs end at the decision's deadline and stop signal too: however many
        // nodes `solve_nodes` allows them, they never hold the decision past its budget.
        self.solver
            .watch(budget.deadline(start), budget.stop.clone());
        let moves = match self.root_moves(state) {
            Ok(moves) => moves,
            Err(mv) => {
                self.last = None;
                return Ok(Decision::without_search(mv, start.elapsed()));
            }
        };
        let reused = self.searcher.config().reuse && self.keep_subtree(state);
        // The time spent above comes off a time budget.
        let budget = budget.charged_from(start);
        let worlds = Fixed(vec![Tactical::root(*state, moves, self.rules)]);
        let kept = if reused { self.kept.kept() } else { None };
        let result = self
            .searcher
            .run_grafted(&worlds, &budget, rng, kept.map(|k| (k, moves.bits())))
            .map_err(|e| AgentError::Resources(format!("{}: {e}", INFO.name)))?;
        let mv = result.best().unwrap_or_else(|| moves.random(rng));
        self.last = Some((*state, mv));
        Ok(Decision {
            mv,
            iterations: result.iterations,
            elapsed: start.elapsed(),
            children: result.children,
            nodes: result.nodes,
            tree_full: result.tree_full,
            endgame_cut: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_option_is_documented_once() {
        let keys: Vec<&str> = INFO.options.iter().map(|o| o.key).collect();
        // The card games' exact endgame and the inference over hidden cards do not apply to a
        // perfect-information game, nor a split of multi-action turns to one whose turn is one
        // move, nor a policy or an epsilon to playouts that have none (the tactical ones); n-gram statistics kept between decisions are not supported here, nor tables
        // of them per thread (Pentago-Swap has too many moves for n-gram tables), nor a prior
        // from a learned model Pentago-Swap does not have, nor root statistics held per
        // thread (UCT's root counts no availability of its own: the option is ISMCTS's).
        let not_offered = |k: &str| {
            k.starts_with("endgame")
                || k == "policy"
                || k == "epsilon"
                || k.starts_with("infer")
                || k == "leaf_solve"
                || k == "turn_share"
                || k == "nast_decay"
                || k == "nast_tables"
                || k == "prior"
                || k == "root_batch"
        };
        for o in config::SEARCH_OPTIONS
            .iter()
            .filter(|o| !not_offered(o.key))
        {
            assert_eq!(keys.iter().filter(|&&k| k == o.key).count(), 1, "{}", o.key);
        }
        assert!(!keys.iter().any(|k| not_offered(k)));
    }

    #[test]
    fn preset_strong_searches_with_the_same_rewards_as_none() {
        let strong: Spec = "pentago-strong:preset=strong".parse().unwrap();
        let reward = SearchConfig::from_spec(&strong, Algorithm::Uct)
            .unwrap()
            .rollout
            .reward;
        assert_eq!(reward.to_string(), "mix:w=0.3");
        let plain = crate::search::RewardFn::PositiveWinLoss;
        let mut outcomes = std::collections::BTreeSet::new();
        let mut rng = crate::game::rng_from_seed(7);
        for _ in 0..400 {
            let mut game = Pentago::new();
            game.random_playout(&mut rng);
            for seat in 0..2 {
                assert_eq!(reward.reward(&game, seat), plain.reward(&game, seat));
            }
            outcomes.insert((2.0 * game.reward(0)) as u8);
        }
        assert_eq!(
            outcomes.len(),
            3,
            "wins, draws and losses were all played out"
        );
    }

    #[test]
    fn options_that_do_not_apply_or_are_out_of_range_are_errors() {
        for (text, needle) in [
            ("pentago-strong:turn_share=0.5", "turn_share does not apply"),
            (
                "pentago-strong:playout=nast,nast_decay=0.5",
                "nast_decay is not supported by pentago-strong",
            ),
            ("pentago-strong:lookahead=2", "lookahead=2 must be odd"),
            (
                "pentago-strong:prior=1",
                "prior: pentago-swap has no learned opponent model",
            ),
            ("pentago-strong:tree_solve=6", "tree_solve=6 is at most 5"),
            (
                "pentago-strong:playout=heuristic",
                "playout=heuristic: pentago-swap has no heuristic rule",
            ),
            ("pentago-strong:endgame=thesis", "endgame does not apply"),
            ("pentago-strong:endgame=0", "endgame does not apply"),
            ("pentago-strong:endgame=12", "endgame does not apply"),
            (
                "pentago-strong:endgame=12,endgame_pick=vote",
                "endgame does not apply",
            ),
            (
                "pentago-strong:endgame_pick=vote",
                "endgame_pick does not apply",
            ),
            (
                "pentago-strong:endgame_deals=3",
                "endgame_deals does not apply",
            ),
            (
                "pentago-strong:endgame_nodes=5",
                "endgame_nodes does not apply",
            ),
            ("pentago-strong:policy=ucb1", "policy does not apply"),
            ("pentago-strong:policy=gibbs:tau=1", "policy does not apply"),
            ("pentago-strong:epsilon=0.1", "epsilon does not apply"),
            ("pentago-strong:epsilon=0.5", "epsilon does not apply"),
            (
                "pentago-strong:retries=1001",
                "retries=1001 must be from 0 to 1000",
            ),
            (
                "pentago-strong:retries=4294967295",
                "retries=4294967295 must be from 0 to 1000",
            ),
            (
                "pentago-strong:solve_nodes=1000000001",
                "solve_nodes=1000000001 must be from 0 to 1000000000",
            ),
            (
                "pentago-strong:solve_nodes=18446744073709551615",
                "solve_nodes=18446744073709551615 must be from 0 to 1000000000",
            ),
        ] {
            let spec: Spec = text.parse().unwrap();
            let Err(e) = StrongAgent::from_spec(&spec) else {
                panic!("{text} was accepted");
            };
            assert!(e.0.contains(needle), "{text}: {e}");
            assert!(!e.0.contains('\n'), "{text}: {e}");
        }
    }

    #[test]
    fn the_listed_playout_is_the_only_one_accepted_and_is_tactical() {
        let listed = INFO.options.iter().find(|o| o.key == "playout").unwrap();
        assert_eq!(listed.default, "random");
        assert!(listed.help.contains("tactical") && listed.help.contains("retries"));
        let spec: Spec = "pentago-strong:playout=random".parse().unwrap();
        assert!(StrongAgent::from_spec(&spec).is_ok());
        for other in ["heuristic", "model", "nast", "epic", "nast:n=3"] {
            let spec: Spec = format!("pentago-strong:playout={other}").parse().unwrap();
            assert!(StrongAgent::from_spec(&spec).is_err(), "playout={other}");
        }
    }
}
