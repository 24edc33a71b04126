//! `osla`: one-step look-ahead, the paper's greedy baseline. At every action it tries each
//! legal action, judges the state after it with the heuristic, and plays the best; it never
//! looks at the actions after it.
//!
//! Ties go to the last best action in the game's order, as in the reference's `>=` loop (for
//! ASMACAG: ×2, ÷2, then number plays ascending; so ÷2 beats ×2 when both are best).

use super::turn::{Line, Plan, TurnAgent, TurnOptions, TurnPlanner};
use super::{Agent, AgentInfo};
use crate::game::{Game, HiddenInfo, MoveSet, Rng, Seat};
use crate::search::BudgetClock;
use crate::spec::{Spec, SpecError};

/// Documentation for `cardsearch agents`.
pub const INFO: AgentInfo = AgentInfo {
    name: "osla",
    about: "one-step look-ahead: the legal action with the best score difference after it",
    options: &[],
};

/// The greedy planner: a plan of one action.
#[derive(Clone, Copy, Debug, Default)]
pub struct Osla;

impl<G: Game> TurnPlanner<G> for Osla {
    fn plan(
        &mut self,
        world: &G,
        seat: Seat,
        _clock: &BudgetClock,
        _rng: &mut Rng,
    ) -> Plan<G::Move> {
        let mut best = (f64::NEG_INFINITY, None);
        let mut evaluations = 0;
        world.legal_moves().for_each(|mv| {
            let mut state = world.clone();
            state.play(mv);
            evaluations += 1;
            let value = state.heuristic(seat);
            if value >= best.0 {
                best = (value, Some(mv));
            }
        });
        let mut line = Line::new();
        if let Some(mv) = best.1 {
            line.push(mv);
        }
        Plan::new(line, best.0, evaluations)
    }
}

/// Builds `osla` (it has no options: it looks at every legal action once, whatever the budget).
pub fn build<G: HiddenInfo>(_spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let agent =
        TurnAgent::<G, Osla>::new(INFO.name, String::new(), TurnOptions::SEQUENTIAL, || Osla)?;
    Ok(Box::new(agent))
}
