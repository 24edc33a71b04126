//! Agents: anything that picks a move from a [`View`]. Built from specs such as
//! `ismcts:c=0.7,threads=2` by [`build`]; `cardsearch agents` lists them with their options.

use std::time::Duration;

use crate::game::{DealError, HiddenInfo, Rng, Seat, Seen, View};
use crate::search::{Algorithm, Budget};

pub use crate::search::ChildStat;
use crate::spec::{OptionDoc, Spec, SpecError};

pub mod evolution;
pub mod ntboe;
pub mod osla;
pub mod pentago;
pub mod random;
pub mod search;
pub mod turn;
pub mod turn_mcts;

pub use random::RandomAgent;
pub use search::SearchAgent;

/// What an agent decided and what it cost.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    /// The chosen move.
    pub mv: M,
    /// Search iterations completed (0 for agents that do not search).
    pub iterations: u64,
    /// Wall time spent choosing.
    pub elapsed: Duration,
    /// Root statistics, most visited first (empty for agents that do not search).
    pub children: Vec<ChildStat<M>>,
    /// Search tree nodes in use at the end of the decision, over all trees (0 without a tree).
    pub nodes: u64,
    /// True when a tree ran out of room during the search and stopped growing.
    pub tree_full: bool,
    /// True when the exact endgame's solver node limit (`endgame_nodes`) cut this decision's
    /// solving short: the deals solved before the limit decided, or none was solved and the
    /// tree decided instead.
    pub endgame_cut: bool,
}

impl<M> Decision<M> {
    /// A decision made without searching: no iterations, no tree.
    pub fn without_search(mv: M, elapsed: Duration) -> Decision<M> {
        Decision {
            mv,
            iterations: 0,
            elapsed,
            children: Vec::new(),
            nodes: 0,
            tree_full: false,
            endgame_cut: false,
        }
    }
}

/// Why an agent could not decide.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgentError {
    /// The view's information admits no state: it is self-contradictory.
    #[error(transparent)]
    NoConsistentDeal(#[from] DealError),
    /// The agent reads the true state (a cheating baseline) and the view has none to lend.
    #[error("agent {0} reads hidden cards, and this view has only one seat's information")]
    NeedsTrueState(String),
    /// The search could not get what it needs (memory for its tree).
    #[error("{0}")]
    Resources(String),
}

/// `seat`'s view of `state` for `agent`, with its record `history`: the true state is lent
/// ([`View::lending_truth`]) only to an agent that reads it and says so, a cheating baseline
/// ([`Agent::is_cheating`]); every other agent's view holds the seat's information set alone.
/// Every harness that holds the true state builds its agents' views here.
pub fn view_for<'a, G: HiddenInfo>(
    agent: &dyn Agent<G>,
    state: &'a G,
    seat: Seat,
    history: &'a [Seen<G::Move>],
) -> View<'a, G> {
    if agent.is_cheating() {
        View::lending_truth(state, seat, history)
    } else {
        View::new(state, seat, history)
    }
}

/// A player. `choose` is called only when the view's observer is to move.
pub trait Agent<G: HiddenInfo>: Send {
    /// The full spec of this agent, every option written out, for logs.
    fn spec(&self) -> String;
    /// True for baselines that read the true state (they are labelled as cheating in reports).
    fn is_cheating(&self) -> bool {
        false
    }
    /// Gives back the memory the last decision's search trees hold (they are sized again by
    /// the next search). A harness that keeps an agent between decisions (the engine protocol)
    /// calls it after each one, unless [`Agent::keeps_trees`]; a match, whose next decision
    /// comes at once, does not.
    fn release_memory(&mut self) {}
    /// True when the agent's next decision in a game may start from this decision's tree
    /// (tree reuse, `reuse=true`): a harness that keeps the agent between decisions then keeps
    /// its memory too, or the reuse would never happen.
    fn keeps_trees(&self) -> bool {
        false
    }
    /// What a harness that keeps the agent between decisions calls after each one: gives back
    /// the search's memory ([`Agent::release_memory`]) unless the next decision starts from it
    /// ([`Agent::keeps_trees`]).
    fn release_idle(&mut self) {
        if !self.keeps_trees() {
            self.release_memory();
        }
    }
    /// The search trees of the last decision, read-only, for inspection; `None` for agents
    /// that keep none.
    fn search_trees(&self) -> Option<&[crate::search::Tree<G::Move>]> {
        None
    }
    /// Whether this agent, as configured, can play the game `info` is a seat's knowledge of:
    /// an error names an option the game cannot honour (one it would otherwise ignore in
    /// silence). Harnesses call it once, before any game is played, with one seat's knowledge
    /// of a first deal: the agent's own seat in matches and `play`, the first deal's seat to
    /// move in a tournament's check of every agent. It is given an information set, never a
    /// whole deal; the search agents read only public facts from it.
    fn check_game(&self, info: &G::InfoSet) -> Result<(), String> {
        let _ = info;
        Ok(())
    }
    /// Makes the budget each later [`Agent::choose`] is given the only one, for an agent with
    /// a default budget of its own (`pentago-student`'s 1.5 s a move, used where its spec
    /// sets none): a re-run of a logged decision ([`crate::harness::log::rerun_decision`])
    /// calls it to search for exactly the logged number of iterations. The default does
    /// nothing, which is right for every agent whose only budget of its own is its spec's: the
    /// re-run drops that from the spec ([`crate::harness::log::RERUN_DROPPED_OPTIONS`]).
    fn use_given_budget(&mut self) {}
    /// Picks a move. `budget` is the match's default; an agent whose spec sets its own budget
    /// uses that instead. The budget's time includes whatever the agent prepares (samplers,
    /// determinizations) before searching.
    fn choose(
        &mut self,
        view: View<'_, G>,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<G::Move>, AgentError>;
}

/// Name, description and options of one agent kind.
#[derive(Clone, Copy, Debug)]
pub struct AgentInfo {
    /// Spec name.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Options.
    pub options: &'static [OptionDoc],
}

/// Every agent kind, in the order `cardsearch agents` lists them.
pub fn all() -> Vec<AgentInfo> {
    vec![
        random::INFO,
        search::ISMCTS_INFO,
        search::MO_ISMCTS_INFO,
        search::PIMC_INFO,
        search::UCT_INFO,
        osla::INFO,
        turn_mcts::INFO,
        evolution::INFO,
        ntboe::INFO,
        pentago::INFOS[0],
        pentago::INFOS[1],
    ]
}

/// Builds the agent named by `spec`; unknown names, unknown options and bad values are errors.
pub fn build<G: HiddenInfo>(spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let agent: Box<dyn Agent<G>> = match spec.name.as_str() {
        "random" => Box::new(RandomAgent),
        "ismcts" => Box::new(SearchAgent::<G>::from_spec(spec, Algorithm::Ismcts)?),
        "mo-ismcts" => Box::new(SearchAgent::<G>::from_spec(spec, Algorithm::MoIsmcts)?),
        "pimc" => Box::new(SearchAgent::<G>::from_spec(
            spec,
            Algorithm::Pimc {
                dets: 0,
                vote: false,
            },
        )?),
        "uct" => Box::new(SearchAgent::<G>::from_spec(spec, Algorithm::Uct)?),
        "osla" => osla::build(spec)?,
        "turn-mcts" => turn_mcts::build(spec)?,
        "oe" => evolution::build(spec)?,
        "ntboe" => ntboe::build(spec)?,
        name if pentago::is_pentago_agent(name) => pentago::build::<G>(spec)?,
        other => {
            return Err(SpecError(format!(
                "unknown agent '{other}' (known: {})",
                all().iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
            )));
        }
    };
    spec.finish()?;
    Ok(agent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, rng_from_seed};
    use crate::games::{GameDef, Tricks};

    /// Builds `spec` on each of Sueca, ASMACAG and Pentago-Swap that its agent plays (its bare
    /// name builds there): the card-game agents and the turn planners on Sueca and ASMACAG, the
    /// Pentago-Swap agents on Pentago-Swap, which they alone play (on any other game they are
    /// refused before any option is read, so an option test there would check nothing).
    fn build_where_played(spec: &Spec) -> Vec<Result<(), SpecError>> {
        use crate::games::{Asmacag, Pentago, Sueca};
        fn on<G: HiddenInfo>(spec: &Spec, out: &mut Vec<Result<(), SpecError>>) {
            let bare: Spec = spec.name.parse().expect("an agent name is a spec");
            if build::<G>(&bare).is_ok() {
                out.push(build::<G>(spec).map(drop));
            }
        }
        let mut out = Vec::new();
        on::<Sueca>(spec, &mut out);
        on::<Asmacag>(spec, &mut out);
        on::<Pentago>(spec, &mut out);
        assert!(
            !out.is_empty(),
            "{} plays none of the games tried",
            spec.name
        );
        out
    }

    /// Every option `cardsearch agents` lists for an agent is one the agent knows: given at its
    /// listed default, it is accepted or refused for a reason of its own (it needs another
    /// option, a value is not a number), never as unknown or as another agent's option, on
    /// every game the agent plays.
    #[test]
    fn every_listed_option_is_known_to_its_agent() {
        for info in all() {
            for option in info.options {
                let spec = format!("{}:{}={}", info.name, option.key, option.default);
                let Ok(parsed) = spec.parse::<Spec>() else {
                    continue;
                };
                for e in build_where_played(&parsed)
                    .into_iter()
                    .filter_map(Result::err)
                {
                    let own = format!("applies to {}", info.name);
                    let another_agents = e.0.contains("applies to ") && !e.0.contains(&own);
                    assert!(
                        !e.0.contains("unknown option") && !another_agents,
                        "{spec}: {e}"
                    );
                }
            }
        }
    }

    /// The converse: every option of any agent's list that an agent accepts, set to do
    /// something, is in that agent's own list, so `cardsearch agents` hides nothing it reads.
    /// Each option is set as the agent that lists it accepts it: options whose default is "off"
    /// are set on (an agent may accept `infer=0` from a shared spec without offering
    /// inference), options whose default is no value (`iterations` and `time_ms`: "match
    /// budget") get one, and options that apply only beside another get it. The test checks
    /// that each listing agent accepts its setting: a setting nobody accepts would be refused
    /// by every agent for its value, and the check would say nothing about that option.
    #[test]
    fn every_option_an_agent_accepts_is_listed_for_it() {
        const SWITCHED_ON: &[(&str, &str)] = &[
            ("iterations", "iterations=100"),
            ("time_ms", "time_ms=100"),
            ("policy", "playout=nast,policy=ucb1"),
            ("epsilon", "playout=heuristic,epsilon=0.2"),
            ("endgame", "endgame=8"),
            ("endgame_pick", "endgame=8,endgame_pick=vote"),
            ("endgame_deals", "endgame=8,endgame_deals=3"),
            ("endgame_nodes", "endgame=8,endgame_nodes=5"),
            ("leaf_solve", "leaf_solve=8"),
            ("prior", "prior=1"),
            ("infer", "infer=100"),
            ("infer_eps", "infer=100,infer_eps=0.2"),
            ("infer_model", "infer=100,infer_model=learned"),
            ("reuse", "reuse=true"),
            ("nast_decay", "playout=nast,nast_decay=0.5"),
            (
                "nast_tables",
                "playout=nast,parallel=root,threads=2,nast_tables=thread",
            ),
            ("turn_share", "turn_share=0.5"),
            ("virtual_loss", "parallel=tree,threads=2,virtual_loss=2"),
            ("root_batch", "parallel=tree,threads=2,root_batch=16"),
        ];
        let setting = |option: &OptionDoc| {
            SWITCHED_ON
                .iter()
                .find(|(key, _)| *key == option.key)
                .map_or(format!("{}={}", option.key, option.default), |(_, on)| {
                    on.to_string()
                })
        };
        let accepted = |spec: &str| {
            spec.parse::<Spec>()
                .is_ok_and(|parsed| build_where_played(&parsed).iter().any(Result::is_ok))
        };
        let mut unaccepted = Vec::new();
        for info in all() {
            for option in info.options {
                let spec = format!("{}:{}", info.name, setting(option));
                if !accepted(&spec) {
                    unaccepted.push(spec);
                }
            }
        }
        assert!(
            unaccepted.is_empty(),
            "settings their own agent refuses (the check below would be vacuous for them): \
             {unaccepted:?}"
        );
        let every: Vec<&OptionDoc> = all().iter().flat_map(|info| info.options).collect();
        let mut hidden = Vec::new();
        for info in all() {
            for option in &every {
                if info.options.iter().any(|o| o.key == option.key) {
                    continue;
                }
                let spec = format!("{}:{}", info.name, setting(option));
                if accepted(&spec) && !hidden.contains(&spec) {
                    hidden.push(spec);
                }
            }
        }
        assert!(hidden.is_empty(), "accepted but not listed: {hidden:?}");
    }

    /// Every agent, built as a re-run builds it (its bare name: no budget of its spec's) and
    /// told to use the budget it is given, searches no more iterations than it is given: a
    /// re-run of a logged decision then searches exactly the logged count. An agent with a
    /// default budget of its own that does not honour [`Agent::use_given_budget`] searches
    /// by its default instead (`pentago-student` ran 1.5 s, hundreds of thousands of
    /// iterations, where the log had 500).
    #[test]
    fn every_agent_told_to_use_the_given_budget_searches_for_it() {
        use crate::game::MoveSet;
        use crate::games::{Pentago, Sueca};
        fn check<G: HiddenInfo>(state: &G) -> usize {
            let mut checked = 0;
            for info in all() {
                // Agents that take no budget at all (random, and osla, which weighs every
                // action once) have none to follow.
                if !info.options.iter().any(|o| o.key == "iterations") {
                    continue;
                }
                let Ok(mut agent) = build::<G>(&info.name.parse().unwrap()) else {
                    continue;
                };
                agent.use_given_budget();
                let seat = state.current_seat();
                let view = view_for(agent.as_ref(), state, seat, &[]);
                let d = agent
                    .choose(view, Budget::iterations(7), &mut rng_from_seed(1))
                    .unwrap();
                assert!(
                    d.iterations <= 7,
                    "{}: {} iterations",
                    info.name,
                    d.iterations
                );
                checked += 1;
            }
            checked
        }
        let mut rng = rng_from_seed(5);
        let sueca = Sueca::new_game(&Default::default(), &mut rng);
        // A few stones down: the student's fixed opening does not search.
        let mut pentago = Pentago::new();
        for _ in 0..4 {
            pentago.play(pentago.legal_moves().random(&mut rng));
        }
        let budgeted = all()
            .iter()
            .filter(|i| i.options.iter().any(|o| o.key == "iterations"))
            .count();
        assert_eq!(
            check(&sueca),
            budgeted - 2,
            "all but the Pentago-Swap agents"
        );
        assert_eq!(check(&pentago), budgeted);
    }

    /// Only a cheating baseline's view holds the true state: an honest agent's has none to
    /// reach, and neither has a plain `View::new`.
    #[test]
    fn the_true_state_is_lent_to_cheating_baselines_only() {
        let state = Tricks::new_game(&Default::default(), &mut rng_from_seed(3));
        let seat = state.current_seat();
        for (spec, lent) in [("ismcts", false), ("pimc", false), ("uct", true)] {
            let agent = build::<Tricks>(&spec.parse().unwrap()).unwrap();
            assert_eq!(agent.is_cheating(), lent, "{spec}");
            let view = view_for(agent.as_ref(), &state, seat, &[]);
            assert_eq!(view.true_state_cheating().is_some(), lent, "{spec}");
        }
        assert!(View::new(&state, seat, &[]).true_state_cheating().is_none());
        assert!(
            View::lending_truth(&state, seat, &[])
                .true_state_cheating()
                .is_some()
        );
    }
}
