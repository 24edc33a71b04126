//! The search agents: `ismcts`, `mo-ismcts`, `pimc` and the cheating baseline `uct`.

use std::time::Instant;

use super::{Agent, AgentError, AgentInfo, Decision};
use crate::game::{HiddenInfo, MoveSet, PerfectInformation, Rng, Seat, View};
use crate::search::config::{self, MO_ISMCTS_OPTIONS, PIMC_OPTIONS, SEARCH_OPTIONS};
use crate::search::worlds::Fixed;
use crate::search::{
    Algorithm, Budget, Sampled, SearchConfig, SearchError, SearchResult, Searcher, Worlds,
    inference, ismcts, pimc, uct,
};
use crate::solver::Solver;
use crate::solver::hybrid::{self, Cards};
use crate::solver::leaf::LeafWorlds;
use crate::spec::{Spec, SpecError};

/// Documentation of `ismcts`.
pub const ISMCTS_INFO: AgentInfo = AgentInfo {
    name: "ismcts",
    about: "single-observer information-set MCTS: one tree, a fresh determinization per iteration",
    options: SEARCH_OPTIONS,
};

/// Documentation of `mo-ismcts`.
pub const MO_ISMCTS_INFO: AgentInfo = AgentInfo {
    name: "mo-ismcts",
    about: "multiple-observer information-set MCTS: a tree per seat, each move as that seat \
            sees it (parallel: sequential, root or tree)",
    options: MO_ISMCTS_OPTIONS,
};

/// Documentation of `pimc`.
pub const PIMC_INFO: AgentInfo = AgentInfo {
    name: "pimc",
    about: "determinized UCT (perfect-information Monte Carlo): search D sampled deals, vote",
    options: PIMC_OPTIONS,
};

/// Documentation of `uct`.
pub const UCT_INFO: AgentInfo = AgentInfo {
    name: "uct",
    about: "CHEATING baseline: UCT on the true state, seeing every hidden card",
    options: SEARCH_OPTIONS,
};

/// An agent that searches: the algorithm and parallel mode come from its spec.
pub struct SearchAgent<G: HiddenInfo> {
    name: &'static str,
    searcher: Searcher<G::Move>,
    /// The hybrid endgame (`endgame=N`) is on.
    hybrid: bool,
    /// Its exact solver's table: made at the first endgame decision, dropped by
    /// [`Agent::release_memory`] (megabytes an idle engine need not hold).
    solver: Option<Solver>,
}

impl<G: HiddenInfo> std::fmt::Debug for SearchAgent<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchAgent")
            .field("spec", &Agent::<G>::spec(self))
            .finish()
    }
}

impl<G: HiddenInfo> SearchAgent<G> {
    /// An agent for a configuration (the name is `ismcts`, `uct` or `pimc` by algorithm).
    pub fn new(config: SearchConfig) -> Result<SearchAgent<G>, SpecError> {
        let name = match config.algorithm {
            Algorithm::Ismcts => ISMCTS_INFO.name,
            Algorithm::MoIsmcts => MO_ISMCTS_INFO.name,
            Algorithm::Uct => UCT_INFO.name,
            Algorithm::Pimc { .. } => PIMC_INFO.name,
        };
        let err = |msg: String| SpecError(format!("{name}: {msg}"));
        let endgame = config.endgame;
        let mut hybrid = false;
        if !endgame.is_off() {
            let Some(ops) = G::exact() else {
                return Err(err(
                    "endgame and leaf_solve need a game with an exact solver (the trick-taking games)"
                        .into(),
                ));
            };
            if endgame.cards == Cards::Thesis && ops.thesis_cards().is_none() {
                return Err(err(
                    "endgame=thesis: the thesis played no endgame in this game; give a number of cards"
                        .into(),
                ));
            }
            hybrid = endgame.cards != Cards::Off;
        }
        let searcher = Searcher::new(config).map_err(|e| err(e.to_string()))?;
        Ok(SearchAgent {
            name,
            searcher,
            hybrid,
            solver: None,
        })
    }

    /// Reads the agent's options from `spec` (the caller checks for unknown options).
    pub fn from_spec(spec: &Spec, algorithm: Algorithm) -> Result<SearchAgent<G>, SpecError> {
        let expanded = config::with_preset(spec, G::STRONG_PRESET, algorithm)?;
        let config = SearchConfig::from_spec(&expanded, algorithm);
        spec.mark_read_from(&expanded);
        SearchAgent::new(config?)
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        self.searcher.config()
    }
}

impl<G: HiddenInfo> Agent<G> for SearchAgent<G> {
    fn spec(&self) -> String {
        format!("{}:{}", self.name, self.searcher.config().options_text())
    }

    fn is_cheating(&self) -> bool {
        // Reading the true state of a game with nothing hidden is not cheating.
        self.searcher.config().algorithm == Algorithm::Uct && !G::PERFECT_INFORMATION
    }

    fn release_memory(&mut self) {
        self.searcher.release_memory();
        self.solver = None;
    }

    fn search_trees(&self) -> Option<&[crate::search::Tree<G::Move>]> {
        Some(self.searcher.trees())
    }

    fn choose(
        &mut self,
        view: View<'_, G>,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<G::Move>, AgentError> {
        let start = Instant::now();
        if Agent::<G>::is_cheating(self) && view.true_state_cheating().is_none() {
            return Err(AgentError::NeedsTrueState(Agent::<G>::spec(self)));
        }
        let legal = view.legal_moves();
        if legal.len() == 1 {
            // A forced move: searching would spend the budget to learn nothing.
            return Ok(Decision::without_search(legal.nth(0), start.elapsed()));
        }
        let config = self.searcher.config();
        // The spec's own budget replaces the caller's limits; the caller's stop signal stays.
        let budget = budget.replaced_by(config.budget.as_ref());
        let (algorithm, endgame) = (config.algorithm, config.endgame);
        // With nothing hidden there is one world, the state itself: ISMCTS and PIMC are UCT on
        // it, and UCT reads nothing hidden.
        let algorithm = if G::PERFECT_INFORMATION {
            Algorithm::Uct
        } else {
            algorithm
        };
        // ISMCTS and the hybrid share the decision's sampler (PIMC draws its own worlds).
        let needs_sampler = match algorithm {
            Algorithm::Ismcts | Algorithm::MoIsmcts => true,
            Algorithm::Pimc { .. } => self.hybrid,
            Algorithm::Uct => false,
        };
        let sampled = if needs_sampler {
            Some(ismcts::worlds(&view)?)
        } else {
            None
        };
        if self.hybrid {
            let solver = &mut self.solver;
            let inference = self.searcher.config().inference;
            let (observer, history) = (view.observer(), view.history());
            let decision = match (&sampled, view.true_state_cheating()) {
                // With inference on, each deal counts by how well it explains the others'
                // plays: the endgame's means are over the posterior of the deals.
                (Some(s), _) if inference.is_on() => hybrid::decide_weighted(
                    &endgame,
                    solver,
                    &s.sampler,
                    |deal: &G| inference::likelihood(deal, observer, history, inference.epsilon),
                    &legal,
                    &budget,
                    rng,
                ),
                (Some(s), _) => hybrid::decide(&endgame, solver, &s.sampler, &legal, &budget, rng),
                // The cheating baseline solves the true state: perfect play.
                (None, Some(truth)) => {
                    let known = PerfectInformation::new(truth.clone(), view.observer());
                    hybrid::decide(&endgame, solver, &known, &legal, &budget, rng)
                }
                (None, None) => None,
            };
            if let Some(mut d) = decision {
                d.elapsed = start.elapsed();
                return Ok(d);
            }
        }
        let result = match algorithm {
            Algorithm::Ismcts | Algorithm::MoIsmcts => {
                // MO-ISMCTS draws its worlds as SO-ISMCTS does; the searcher keeps its trees.
                let worlds = sampled.expect("built for ismcts");
                let observer = view.observer();
                let inferred = inference::infer(
                    &worlds.sampler,
                    observer,
                    view.history(),
                    &self.searcher.config().inference,
                    rng,
                );
                let leaf = (endgame.leaf > 0 && G::exact().is_some())
                    .then(|| endgame.leaf.min(u8::MAX as u32) as u8);
                let budget = budget.charged_from(start);
                match inferred {
                    Some(pool) => {
                        let worlds = Sampled {
                            sampler: pool,
                            observer,
                        };
                        run_ismcts(&mut self.searcher, worlds, leaf, observer, &budget, rng)
                    }
                    None => run_ismcts(&mut self.searcher, worlds, leaf, observer, &budget, rng),
                }
            }
            Algorithm::Uct => {
                let worlds = if G::PERFECT_INFORMATION {
                    Fixed(vec![view.determinize(rng)?])
                } else {
                    uct::worlds_cheating(&view)
                        .ok_or_else(|| AgentError::NeedsTrueState(Agent::<G>::spec(self)))?
                };
                self.searcher.run(&worlds, &budget.charged_from(start), rng)
            }
            Algorithm::Pimc { dets, .. } => {
                let worlds = pimc::worlds(&view, dets, rng)?;
                self.searcher.run(&worlds, &budget.charged_from(start), rng)
            }
        }
        .map_err(|e| AgentError::Resources(format!("{}: {e}", self.name)))?;
        let mut children = result.children;
        if let Algorithm::Pimc { vote: true, .. } = algorithm {
            // Most votes first; visits break ties (the sort is stable).
            children.sort_by_key(|c| std::cmp::Reverse(c.votes));
        }
        // No child at all only when the budget allowed no iteration: any legal move will do.
        let mv = children.first().map_or_else(|| legal.random(rng), |c| c.mv);
        Ok(Decision {
            mv,
            iterations: result.iterations,
            elapsed: start.elapsed(),
            children,
            nodes: result.nodes,
            tree_full: result.tree_full,
        })
    }
}

/// Runs ISMCTS over `worlds`, with the solver as the playout from leaves with at most `leaf`
/// cards left when given.
fn run_ismcts<G: HiddenInfo, W: Worlds<G>>(
    searcher: &mut Searcher<G::Move>,
    worlds: W,
    leaf: Option<u8>,
    observer: Seat,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<SearchResult<G::Move>, SearchError> {
    match leaf {
        Some(below) => {
            let worlds = LeafWorlds {
                inner: worlds,
                below,
                root: observer as u8,
            };
            searcher.run(&worlds, budget, rng)
        }
        None => searcher.run(&worlds, budget, rng),
    }
}
