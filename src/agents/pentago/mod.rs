//! The Pentago-Swap agents: `pentago-student`, the student's player of the COMP 424 report, and
//! `pentago-strong`, UCT with tactics and an exact endgame built into the search.
//!
//! Both know the game's rules beyond the `Game` interface (immediate wins, the solver), so they
//! are written for [`Pentago`] alone. [`build`] wraps one as an `Agent<G>` for whatever `G` the
//! caller has, after checking that `G` is Pentago-Swap: the wrapper turns the view's state and
//! the decision's moves between `G` and [`Pentago`] with `Any` downcasts, which cannot fail once
//! the types are known to be equal.

use std::any::{Any, TypeId};

use super::{Agent, AgentError, AgentInfo, ChildStat, Decision};
use crate::game::{HiddenInfo, Rng, View};
use crate::games::pentago::{Pentago, PentagoMove};
use crate::search::{Budget, Tree};
use crate::spec::{Spec, SpecError};

pub mod proofs;
pub mod strong;
pub mod student;
pub mod tactical;

pub use strong::StrongAgent;
pub use student::StudentAgent;

/// An agent for Pentago-Swap positions.
pub trait PentagoAgent: Send {
    /// The full spec, every option written out.
    fn spec(&self) -> String;
    /// Picks a move in `state` (not over; the seat to move is the agent's). `budget.stop` ends
    /// the search early, as for every agent.
    fn choose(
        &mut self,
        state: &Pentago,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<PentagoMove>, AgentError>;
    /// Gives back the memory of the last decision's search (see [`Agent::release_memory`]).
    fn release_memory(&mut self) {}
    /// See [`Agent::use_given_budget`].
    fn use_given_budget(&mut self) {}
    /// See [`Agent::keeps_trees`].
    fn keeps_trees(&self) -> bool {
        false
    }
    /// The search trees of the last decision, for inspection; `None` for agents that keep none
    /// in the shared arena.
    fn search_trees(&self) -> Option<&[Tree<PentagoMove>]> {
        None
    }
}

/// Documentation of the Pentago-Swap agents.
pub const INFOS: [AgentInfo; 2] = [student::INFO, strong::INFO];

/// True for the names of the Pentago-Swap agents.
pub fn is_pentago_agent(name: &str) -> bool {
    INFOS.iter().any(|i| i.name == name)
}

/// Builds the Pentago-Swap agent named by `spec` for game type `G`, which must be
/// [`Pentago`]; the caller checks for unknown options afterwards.
pub fn build<G: HiddenInfo>(spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    if TypeId::of::<G>() != TypeId::of::<Pentago>() {
        return Err(SpecError(format!(
            "{} plays only {}",
            spec.name,
            <Pentago as crate::games::GameDef>::NAME
        )));
    }
    Ok(match spec.name.as_str() {
        "pentago-student" => Box::new(OnPentago(StudentAgent::from_spec(spec)?)),
        _ => Box::new(OnPentago(StrongAgent::from_spec(spec)?)),
    })
}

/// A [`PentagoAgent`] as an `Agent<G>` for `G` = [`Pentago`] (checked when built).
struct OnPentago<A>(A);

/// `x` as a `T`, for `T` the same type as `X`.
fn same<X: Any, T: Any + Copy>(x: &X) -> T {
    *(x as &dyn Any)
        .downcast_ref::<T>()
        .expect("built only for Pentago-Swap")
}

impl<G: HiddenInfo, A: PentagoAgent> Agent<G> for OnPentago<A> {
    fn spec(&self) -> String {
        self.0.spec()
    }

    fn search_trees(&self) -> Option<&[Tree<G::Move>]> {
        let trees = self.0.search_trees()?;
        assert_eq!(TypeId::of::<G::Move>(), TypeId::of::<PentagoMove>());
        // SAFETY: `G::Move` is `PentagoMove` (checked just above; `G` is `Pentago`, checked when
        // the wrapper was built), so both slices have the same element type and layout.
        Some(unsafe { &*(trees as *const [Tree<PentagoMove>] as *const [Tree<G::Move>]) })
    }

    fn release_memory(&mut self) {
        self.0.release_memory();
    }

    fn use_given_budget(&mut self) {
        self.0.use_given_budget();
    }

    fn keeps_trees(&self) -> bool {
        self.0.keeps_trees()
    }

    fn choose(
        &mut self,
        view: View<'_, G>,
        budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<G::Move>, AgentError> {
        // Nothing is hidden in Pentago-Swap: the one state consistent with the seat's
        // information is the position itself (drawing it uses no randomness).
        let state = view.determinize(rng)?;
        let state: &Pentago = (&state as &dyn Any)
            .downcast_ref()
            .expect("built only for Pentago-Swap");
        let d = self.0.choose(state, budget, rng)?;
        Ok(Decision {
            mv: same(&d.mv),
            iterations: d.iterations,
            elapsed: d.elapsed,
            children: d
                .children
                .iter()
                .map(|c| ChildStat {
                    mv: same(&c.mv),
                    visits: c.visits,
                    availability: c.availability,
                    mean: c.mean,
                    votes: c.votes,
                })
                .collect(),
            nodes: d.nodes,
            tree_full: d.tree_full,
            endgame_cut: d.endgame_cut,
        })
    }
}
