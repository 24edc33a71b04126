//! The search agents: `ismcts`, `mo-ismcts`, `pimc` and the cheating baseline `uct`.

use std::time::Instant;

use super::{Agent, AgentError, AgentInfo, Decision};
use crate::game::{
    DealSampler, HiddenInfo, InfoSet, MoveSet, PerfectInformation, Rng, Seat, Seen, TreeMove, View,
    rng_from_seed,
};
use crate::search::config::{self, MO_ISMCTS_OPTIONS, PIMC_OPTIONS, SEARCH_OPTIONS, UCT_OPTIONS};
use crate::search::graft::{KeptTree, find_path};
use crate::search::worlds::Fixed;
use crate::search::{
    Algorithm, Budget, Graft, Sampled, SearchConfig, SearchError, SearchResult, Searcher, Worlds,
    inference, ismcts, pimc, uct,
};
use crate::solver::Solver;
use crate::solver::hybrid::{self, Cards};
use crate::solver::leaf::LeafWorlds;
use crate::spec::{Spec, SpecError};

/// Inference (`infer=`) stops drawing candidate deals after this share of a time budget: at
/// 2 ms a move, a thousand candidates took most of Bisca's preset's budget, which then searched
/// a tenth of the iterations and lost by 250 Elo to the same preset with a hundred
/// (docs/results.md, "Strength against threads", session 28).
const INFERENCE_SHARE: u32 = 10;

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
            sees it (parallel: sequential, root, tree or leaf)",
    options: MO_ISMCTS_OPTIONS,
};

/// Documentation of `pimc`.
pub const PIMC_INFO: AgentInfo = AgentInfo {
    name: "pimc",
    about: "determinized UCT (perfect-information Monte Carlo): search D sampled deals, then \
            sum their visits or (vote=true) let each vote for its best move",
    options: PIMC_OPTIONS,
};

/// Documentation of `uct`.
pub const UCT_INFO: AgentInfo = AgentInfo {
    name: "uct",
    about: "CHEATING baseline: UCT on the true state, seeing every hidden card",
    options: UCT_OPTIONS,
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
    /// With tree reuse (`reuse=true`) or n-gram statistics kept (`nast_decay`): the seat and
    /// the moves so far when the last search began, which say whether the next decision
    /// continues its game and how to walk from its root to that decision's position.
    last_search: Option<(Seat, Vec<Seen<G::Move>>)>,
    /// The subtree of the last search kept for the next one.
    kept: KeptTree<G::Move>,
    /// `infer=N` or `infer_model=` was given in the spec itself, not only by a preset: a game
    /// whose deals inference cannot weigh is then an error (a preset's inference just stays
    /// off there).
    inference_asked: bool,
}

impl<G: HiddenInfo> std::fmt::Debug for SearchAgent<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchAgent")
            .field("spec", &Agent::<G>::spec(self))
            .finish()
    }
}

impl<G: HiddenInfo> SearchAgent<G> {
    /// An agent for a configuration (the name is `ismcts`, `mo-ismcts`, `uct` or `pimc` by
    /// algorithm; on a perfect-information game every algorithm searches as UCT, see `choose`).
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
        // With nothing hidden every algorithm is UCT on the state itself (see `choose`); a
        // MO-ISMCTS searcher would keep a tree per seat (and split its arena among them) and
        // select by availability, a search that is neither UCT nor any better here.
        let config = if G::PERFECT_INFORMATION && config.algorithm == Algorithm::MoIsmcts {
            SearchConfig {
                algorithm: Algorithm::Uct,
                ..config
            }
        } else {
            config
        };
        let searcher = Searcher::new(config).map_err(|e| err(e.to_string()))?;
        Ok(SearchAgent {
            name,
            searcher,
            hybrid,
            solver: None,
            last_search: None,
            kept: KeptTree::default(),
            inference_asked: false,
        })
    }

    /// Reads the agent's options from `spec` (the caller checks for unknown options).
    pub fn from_spec(spec: &Spec, algorithm: Algorithm) -> Result<SearchAgent<G>, SpecError> {
        let expanded = config::with_preset(spec, G::STRONG_PRESET, algorithm)?;
        let config = SearchConfig::from_spec(&expanded, algorithm);
        spec.mark_read_from(&expanded);
        let config = config?;
        if let Some(option) = config.learned_model_option()
            && G::opponent_model().is_none()
        {
            return Err(SpecError(format!(
                "{}: {option}: this game has no learned opponent model (sueca, hearts and bisca have)",
                spec.name
            )));
        }
        if config.heuristic_playouts() && !G::HAS_HEURISTIC {
            return Err(SpecError(format!(
                "{}: playout=heuristic: this game has no heuristic rule, so its playouts would \
                 be random ones (sueca, hearts, bisca and asmacag have one)",
                spec.name
            )));
        }
        let mut agent = SearchAgent::new(config)?;
        // Naming the model asks for the preset's inference as much as `infer=` does
        // (`preset=strong,infer_model=rule` in Bisca would weigh nothing).
        agent.inference_asked = spec.has("infer") || spec.has("infer_model");
        Ok(agent)
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        self.searcher.config()
    }

    /// True when this decision is a later one of the last search's game, by the same seat:
    /// its moves so far extend the last search's.
    fn continues_last_search(&self, view: &View<'_, G>) -> bool {
        let Some((seat, before)) = &self.last_search else {
            return false;
        };
        let now = view.history();
        *seat == view.observer() && now.len() > before.len() && now[..before.len()] == before[..]
    }

    /// True when a search passes something to the next decision of its game (a subtree, or
    /// n-gram statistics), so that the agent must remember where the last search began.
    fn carries_between_decisions(&self) -> bool {
        let config = self.searcher.config();
        config.reuse || config.nast_decay > 0.0
    }

    /// Keeps the last search's subtree below the moves played since, when this decision
    /// continues that search's game: the same seat, its moves so far a continuation of the
    /// last search's, every move since seen by the seat and in the tree. False otherwise (the
    /// search then starts afresh).
    fn keep_subtree(&mut self, view: &View<'_, G>) -> bool {
        let Some((seat, before)) = &self.last_search else {
            return false;
        };
        let now = view.history();
        // The first move since is the seat's own, from the last search's root.
        if !self.continues_last_search(view) || now[before.len()].0 != *seat {
            return false;
        }
        // Once per decision, not per iteration.
        let mut path = Vec::with_capacity(now.len() - before.len());
        for &(_, mv) in &now[before.len()..] {
            let Some(mv) = mv else {
                // A move the seat did not see: the tree cannot be followed through it.
                return false;
            };
            path.push(mv);
        }
        let Some(tree) = self.searcher.trees().first() else {
            return false;
        };
        find_path(tree, &path).is_some_and(|node| self.kept.keep(tree, node))
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
        // The next search starts afresh, without a subtree; the n-gram statistics are small
        // and stay with the searcher, so with `nast_decay` alone the next decision of this
        // game still continues from them.
        self.kept.release_memory();
        if self.searcher.config().reuse {
            self.last_search = None;
        }
    }

    fn keeps_trees(&self) -> bool {
        self.searcher.config().reuse
    }

    fn check_game(&self, info: &G::InfoSet) -> Result<(), String> {
        let inference = &self.searcher.config().inference;
        // Inference replays the moves since the deal from each candidate; a game that cannot
        // rewind to its deal (draws it does not trace, passes) leaves every candidate unweighed.
        // Whether it can is a matter of the game's options, which any consistent deal shows.
        let deal = info.sampler().ok().map(|s| s.sample(&mut rng_from_seed(0)));
        let asked = self.inference_asked && inference.is_on();
        if asked && !deal.as_ref().is_some_and(G::can_rewind) {
            return Err(format!(
                "{}: infer={}: this game cannot replay its deals, so inference would do nothing \
                 (it works in sueca, hearts without passing and bisca without the exchange)",
                self.name, inference.candidates
            ));
        }
        // The rule model weighs a play by the game's heuristic rule's choices; a game that
        // cannot list them (Bisca) would leave every candidate unweighed.
        let rule_listed = |d: &G| d.is_terminal() || d.heuristic_moves().is_some();
        if asked
            && inference.model == crate::search::inference::OpponentModelKind::Rule
            && !deal.as_ref().is_some_and(rule_listed)
        {
            return Err(format!(
                "{}: infer_model=rule: this game's heuristic rule does not list its choices, so \
                 inference would weigh nothing; use infer_model=learned",
                self.name
            ));
        }
        if self.searcher.config().turn_share.is_some()
            && !info.is_terminal()
            && info.turn_progress().1 == 1
        {
            return Err(format!(
                "{}: turn_share applies to games whose turn is several actions (asmacag); \
                 this game's turn is one move",
                self.name
            ));
        }
        Ok(())
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
        let budget = match config.turn_share {
            Some(share) => budget.scaled(turn_share_factor(share, view.turn_progress())),
            None => budget,
        };
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
        // Whether the endgame's node limit cut this decision's solving short.
        let mut endgame_cut = false;
        if self.hybrid {
            let solver = &mut self.solver;
            let inference = self.searcher.config().inference;
            let (observer, history) = (view.observer(), view.history());
            // The pasts a rewind draws (Bisca's) come from a copy of the generator, so the
            // decision's own draws stay as they were.
            let mut pasts = rng.clone();
            let decision = match (&sampled, view.true_state_cheating()) {
                // With inference on, each deal counts by how well it explains the others'
                // plays: the endgame's means are over the posterior of the deals.
                (Some(s), _) if inference.is_on() => hybrid::decide_weighted(
                    &endgame,
                    solver,
                    &s.sampler,
                    |deal: &G| {
                        inference::likelihood(deal, observer, history, &inference, &mut pasts)
                    },
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
            // The hybrid clears the solver's flag at the start of each decision.
            endgame_cut = self.solver.as_ref().is_some_and(Solver::hit_node_limit);
            if let Some(mut d) = decision {
                d.elapsed = start.elapsed();
                d.endgame_cut = endgame_cut;
                return Ok(d);
            }
        }
        // n-gram statistics kept: decayed, not cleared, when this decision continues the
        // last search's game.
        if self.searcher.config().nast_decay > 0.0 && self.continues_last_search(&view) {
            self.searcher.continue_game();
        }
        // Tree reuse: the last search's subtree below the moves played since, if it has one.
        let reused = self.searcher.config().reuse && self.keep_subtree(&view);
        let graft = if reused { self.kept.kept() } else { None }.map(|kept| (kept, legal.bits()));
        let result = match algorithm {
            Algorithm::Ismcts | Algorithm::MoIsmcts => {
                // MO-ISMCTS draws its worlds as SO-ISMCTS does; the searcher keeps its trees.
                let worlds = sampled.expect("built for ismcts");
                let observer = view.observer();
                // Inference may take a tenth of a time budget; the rest is the search's.
                let inference_deadline = budget.time.map(|t| start + t / INFERENCE_SHARE);
                let inferred = inference::infer(
                    &worlds.sampler,
                    observer,
                    view.history(),
                    &self.searcher.config().inference,
                    inference_deadline,
                    rng,
                );
                let leaf = (endgame.leaf > 0 && G::exact().is_some())
                    .then(|| endgame.leaf.min(u8::MAX as u32) as u8);
                let budget = budget.charged_from(start);
                let how = IsmctsRun {
                    leaf,
                    observer,
                    graft,
                };
                match inferred {
                    Some(pool) => {
                        let worlds = Sampled {
                            sampler: pool,
                            observer,
                            seats: worlds.seats,
                        };
                        run_ismcts(&mut self.searcher, worlds, how, &budget, rng)
                    }
                    None => run_ismcts(&mut self.searcher, worlds, how, &budget, rng),
                }
            }
            Algorithm::Uct => {
                let worlds = if G::PERFECT_INFORMATION {
                    Fixed(vec![view.determinize(rng)?])
                } else {
                    uct::worlds_cheating(&view)
                        .ok_or_else(|| AgentError::NeedsTrueState(Agent::<G>::spec(self)))?
                };
                self.searcher
                    .run_grafted(&worlds, &budget.charged_from(start), rng, graft)
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
        if self.carries_between_decisions() {
            self.last_search = Some((view.observer(), view.history().to_vec()));
        }
        Ok(Decision {
            mv,
            iterations: result.iterations,
            elapsed: start.elapsed(),
            children,
            nodes: result.nodes,
            tree_full: result.tree_full,
            endgame_cut,
        })
    }
}

/// What a decision's per-move budget is multiplied by under `turn_share=share`, with
/// `(left, of)` actions of its turn left (this one included) out of `of`: a turn of `of`
/// actions has `of` per-move budgets in all, its first action gets `share` of them and each
/// later one an even part of the rest. Turns of one move keep the per-move budget.
fn turn_share_factor(share: f64, (left, of): (u32, u32)) -> f64 {
    match of {
        0 | 1 => 1.0,
        _ if left >= of => share * f64::from(of),
        _ => (1.0 - share) * f64::from(of) / f64::from(of - 1),
    }
}

/// How an ISMCTS search runs besides its worlds and budget.
struct IsmctsRun<'a, M: TreeMove> {
    /// The solver is the playout from leaves with at most this many cards left.
    leaf: Option<u8>,
    /// The searching seat.
    observer: Seat,
    /// A kept subtree to start from (tree reuse).
    graft: Option<Graft<'a, M>>,
}

/// Runs ISMCTS over `worlds` as `how` says.
fn run_ismcts<G: HiddenInfo, W: Worlds<G>>(
    searcher: &mut Searcher<G::Move>,
    worlds: W,
    how: IsmctsRun<'_, G::Move>,
    budget: &Budget,
    rng: &mut Rng,
) -> Result<SearchResult<G::Move>, SearchError> {
    match how.leaf {
        Some(below) => {
            let worlds = LeafWorlds {
                inner: worlds,
                below,
                root: how.observer as u8,
            };
            searcher.run_grafted(&worlds, budget, rng, how.graft)
        }
        None => searcher.run_grafted(&worlds, budget, rng, how.graft),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, rng_from_seed};
    use crate::games::{Asmacag, Bisca, GameDef, Sueca};

    fn agent<G: HiddenInfo>(text: &str) -> SearchAgent<G> {
        let spec: Spec = text.parse().unwrap();
        let agent = SearchAgent::from_spec(&spec, Algorithm::Ismcts).unwrap();
        spec.finish().unwrap();
        agent
    }

    fn root_visits<M>(d: &Decision<M>) -> u64 {
        d.children.iter().map(|c| c.visits).sum()
    }

    /// A state with the moves that led to it as seen, and the moves since the agent's decision.
    type Round<G> = (G, Vec<Seen<<G as Game>::Move>>, Vec<<G as Game>::Move>);

    /// A game of `name` in which `agent` decides at the first move, then the others play the
    /// moves its tree explored most (so the tree has the position reached), until the agent's
    /// seat is to move again. Returns the state, the moves as seen, and the moves since the
    /// agent's decision.
    fn one_round<G: GameDef>(
        name: &str,
        agent: &mut SearchAgent<G>,
        seed: u64,
        budget: &Budget,
    ) -> Round<G> {
        let config = G::config(&name.parse().unwrap()).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut state = G::new_game(&config, &mut rng);
        let me = state.current_seat();
        let first = agent
            .choose(View::new(&state, me, &[]), budget.clone(), &mut rng)
            .unwrap();
        assert_eq!(
            root_visits(&first),
            first.iterations,
            "nothing to reuse at first"
        );
        let (mut seen, mut path) = (vec![(me, Some(first.mv))], vec![first.mv]);
        state.play(first.mv);
        while state.current_seat() != me {
            let tree = &agent.searcher.trees()[0];
            let node = find_path(tree, &path).expect("the tree has the moves so far");
            let legal = state.legal_moves();
            let (_, most) = tree
                .children(node)
                .filter(|(_, n)| legal.contains(n.mv()))
                .max_by_key(|(_, n)| n.visits())
                .expect("the tree explored a legal move here");
            let mv = most.mv();
            seen.push((state.current_seat(), Some(mv)));
            path.push(mv);
            state.play(mv);
        }
        (state, seen, path)
    }

    /// The second decision of `spec`'s agent in a game of `name` starts from the subtree below
    /// the moves played since the first: its root holds exactly the kept visits of the moves
    /// legal now plus its own iterations. Without the moves since (one hidden, or none given),
    /// or with reuse off, it holds its own iterations only. False, having tested nothing, when
    /// the tree had nothing below the moves played.
    fn reuses<G: GameDef>(name: &str, spec: &str, seed: u64) -> bool {
        let budget = Budget::iterations(3000);
        let mut on = agent::<G>(spec);
        let (state, seen, path) = one_round(name, &mut on, seed, &budget);
        let tree = &on.searcher.trees()[0];
        let node = find_path(tree, &path).unwrap();
        let legal = state.legal_moves();
        let kept: u64 = tree
            .children(node)
            .filter(|(_, n)| legal.contains(n.mv()))
            .map(|(_, n)| n.visits() as u64)
            .sum();
        if kept == 0 {
            // The others' moves led to a leaf of the last tree (likelier when threads race):
            // nothing to keep, so nothing to test on this deal.
            return false;
        }
        let me = state.current_seat();
        let mut rng = rng_from_seed(1);
        let view = View::new(&state, me, &seen);
        let second = on.choose(view, budget.clone(), &mut rng).unwrap();
        assert_eq!(
            root_visits(&second),
            second.iterations + kept,
            "{name} {spec}"
        );

        let mut hidden = seen.clone();
        hidden[1].1 = None;
        for history in [&hidden[..], &[]] {
            let mut again = agent::<G>(spec);
            one_round(name, &mut again, seed, &budget);
            let view = View::new(&state, me, history);
            let d = again.choose(view, budget.clone(), &mut rng).unwrap();
            assert_eq!(root_visits(&d), d.iterations, "{name} {spec}");
        }
        let mut off = agent::<G>("ismcts");
        let (state, seen, _) = one_round(name, &mut off, seed, &budget);
        let view = View::new(&state, state.current_seat(), &seen);
        let d = off.choose(view, budget, &mut rng).unwrap();
        assert_eq!(root_visits(&d), d.iterations, "{name} off");
        true
    }

    #[test]
    fn a_reused_search_starts_from_the_subtree_below_the_moves_played() {
        // Bisca: the old tree guessed at the card the seat has drawn since; the root keeps only
        // the moves legal now. Two seats, so the kept node is two plies down.
        // Seeded sequential searches are the same every run; with two threads the tree differs,
        // so the first of a few deals where the moves played stay inside the tree is tested.
        assert!(reuses::<Bisca>("bisca", "ismcts:reuse=true", 5));
        let tree = "ismcts:reuse=true,parallel=tree,threads=2";
        assert!((0..10).any(|seed| reuses::<Bisca>("bisca", tree, seed)));
        // Sueca: a whole round of four moves down.
        assert!(reuses::<Sueca>("sueca", "ismcts:reuse=true", 5));
    }

    #[test]
    fn nast_decay_carries_the_ngram_statistics_to_the_next_decision_of_a_game() {
        // One round of Sueca: the agent's first decision searches 400 iterations, its second
        // (the others having played) one. An iteration logs at most the 36 moves left then
        // (forced moves are not drawn, and some are not logged), so after the second search
        // the tables hold the first search's plays plus at most 36 when they were kept
        // (nast_decay=1), and at most 36 when they were cleared: without nast_decay, or when
        // the decision does not continue the last search's game. The engine protocol releases
        // an agent's memory after each decision, which must not lose them.
        let plays = |a: &SearchAgent<Sueca>| a.searcher.ngram_stats().unwrap().total_count();
        for (spec, continues, kept) in [
            ("ismcts:playout=nast", true, false),
            ("ismcts:playout=nast,nast_decay=1", true, true),
            ("ismcts:playout=epic,policy=ucb1,nast_decay=1", true, true),
            ("ismcts:playout=nast,nast_decay=1", false, false),
        ] {
            let mut agent = agent::<Sueca>(spec);
            let mut rng = rng_from_seed(5);
            let config = Sueca::config(&"sueca".parse().unwrap()).unwrap();
            let mut state = Sueca::new_game(&config, &mut rng);
            let me = state.current_seat();
            let mut seen = Vec::new();
            while seen.is_empty() || state.current_seat() != me {
                let mv = if seen.is_empty() {
                    let view = View::new(&state, me, &[]);
                    let budget = Budget::iterations(400);
                    agent.choose(view, budget, &mut rng).unwrap().mv
                } else {
                    state.legal_moves().random(&mut rng)
                };
                seen.push((state.current_seat(), Some(mv)));
                state.play(mv);
            }
            let first = plays(&agent);
            assert!(first > 400 * 30, "{spec}: {first}");
            agent.release_memory();
            let history = if continues { &seen[..] } else { &[] };
            let view = View::new(&state, me, history);
            let d = agent.choose(view, Budget::iterations(1), &mut rng).unwrap();
            assert_eq!(d.iterations, 1);
            let own = plays(&agent)
                .checked_sub(if kept { first } else { 0 })
                .expect("the first search's plays kept");
            assert!(
                (1..=36).contains(&own),
                "{spec}, continues {continues}: {own}"
            );
        }
    }

    #[test]
    fn turn_share_splits_a_turns_budget_by_the_actions_left() {
        // A turn of three: the first action gets the share of three budgets, the other two
        // halve the rest; the three always add up to three budgets.
        for share in [0.2, 1.0 / 3.0, 0.6, 0.9] {
            let parts: Vec<f64> = (1..=3)
                .rev()
                .map(|left| turn_share_factor(share, (left, 3)))
                .collect();
            assert!((parts.iter().sum::<f64>() - 3.0).abs() < 1e-12, "{share}");
            assert!((parts[0] - 3.0 * share).abs() < 1e-12, "{share}");
            assert_eq!(parts[1], parts[2]);
        }
        // Turns of one move keep the per-move budget whatever the share.
        assert_eq!(turn_share_factor(0.9, (1, 1)), 1.0);

        // In an ASMACAG game, each of the agent's decisions searches exactly its part.
        let name = "asmacag";
        let config = Asmacag::config(&name.parse().unwrap()).unwrap();
        let mut rng = rng_from_seed(3);
        let mut state = Asmacag::new_game(&config, &mut rng);
        let mut agent = agent::<Asmacag>("ismcts:turn_share=0.6,reuse=true");
        let budget = Budget::iterations(1000);
        let mut seen = Vec::new();
        // With each seat's record of the moves, the later actions of a turn start from the
        // first's tree (reuse) and still search exactly their part.
        let mut histories = crate::game::SeatHistories::new(state.num_seats());
        while !state.is_terminal() {
            let me = state.current_seat();
            let view = histories.view(&state, me);
            let progress = view.turn_progress();
            let d = agent.choose(view, budget.clone(), &mut rng).unwrap();
            if state.legal_moves().len() > 1 && me == 0 {
                let want = match progress.0 {
                    3 => 1800,
                    _ => 600,
                };
                assert_eq!(progress.1, 3);
                assert_eq!(d.iterations, want, "{progress:?}");
                seen.push(progress.0);
            }
            histories.record(&state, d.mv);
            state.play(d.mv);
        }
        // Every position in the turn was met.
        for left in 1..=3 {
            assert!(seen.contains(&left), "{seen:?}");
        }
    }

    #[test]
    fn a_tree_thread_adds_every_held_statistic_to_its_tree() {
        // A lock-free tree thread holds its passes through the root's children and
        // grandchildren and adds them to the tree every `root_batch` passes and when its search
        // ends. Every pass through a node that is not an end of the game goes on into one of
        // its children or ends at a new one, so afterwards a node's visits are one (the pass
        // that made it) plus its children's, at the held levels as below them. One thread, so
        // that no other can end a pass early at a node it has just made; a batch of 7, so that
        // 2,000 iterations leave part of a batch for the end. Sueca's first trick has no end of
        // the game in the top three levels.
        let config = Sueca::config(&"sueca".parse().unwrap()).unwrap();
        let mut agent = agent::<Sueca>("ismcts:parallel=tree,threads=1,root_batch=7");
        let mut rng = rng_from_seed(41);
        for _ in 0..4 {
            let state = Sueca::new_game(&config, &mut rng);
            let me = state.current_seat();
            let d = agent
                .choose(
                    View::new(&state, me, &[]),
                    Budget::iterations(2000),
                    &mut rng,
                )
                .unwrap();
            assert_eq!(root_visits(&d), 2000);
            let tree = &agent.searcher.trees()[0];
            let mut checked = 0;
            let mut below = vec![tree.root(0)];
            for _level in 0..2 {
                for parent in std::mem::take(&mut below) {
                    for (id, node) in tree.children(parent) {
                        let children: u64 =
                            tree.children(id).map(|(_, c)| u64::from(c.visits())).sum();
                        assert_eq!(u64::from(node.visits()), 1 + children, "node {id:?}");
                        checked += 1;
                        below.push(id);
                    }
                }
            }
            assert!(checked > 20, "{checked} nodes checked");
        }
    }
}
