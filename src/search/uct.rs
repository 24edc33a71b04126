//! UCT on a perfect-information state.
//!
//! In a hidden-information game this is the cheating baseline: it searches the true state, so
//! it knows every hidden card. UCB is `mean + c·sqrt(ln(parent visits)/visits)`.

use crate::game::{HiddenInfo, View};

use super::worlds::Fixed;

/// The one world of a UCT decision: the true state, hidden cards included. Calling this is
/// cheating, and agents that do must say so.
pub fn worlds_cheating<G: HiddenInfo>(view: &View<'_, G>) -> Fixed<G> {
    Fixed(vec![view.true_state_cheating().clone()])
}
