//! The uniformly random agent.

use std::time::Instant;

use super::{Agent, AgentError, AgentInfo, Decision};
use crate::game::{HiddenInfo, MoveSet, Rng, View};
use crate::search::Budget;

/// Documentation for `cardsearch agents`.
pub const INFO: AgentInfo = AgentInfo {
    name: "random",
    about: "plays a uniformly random legal move",
    options: &[],
};

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: HiddenInfo> Agent<G> for RandomAgent {
    fn spec(&self) -> String {
        "random".to_string()
    }

    fn choose(
        &mut self,
        view: View<'_, G>,
        _budget: Budget,
        rng: &mut Rng,
    ) -> Result<Decision<G::Move>, AgentError> {
        let start = Instant::now();
        let mv = view.legal_moves().random(rng);
        Ok(Decision::without_search(mv, start.elapsed()))
    }
}
