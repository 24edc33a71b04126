//! UCT on a perfect-information state.
//!
//! In a hidden-information game this is the cheating baseline: it searches the true state, so
//! it knows every hidden card. UCB is `mean + c·sqrt(ln(parent visits)/visits)`.

use crate::game::{HiddenInfo, View};

use super::worlds::Fixed;

/// The one world of a UCT decision: the true state, hidden cards included, or `None` when the
/// view has none to lend (a view built from an information set alone). Calling this is
/// cheating in a hidden-information game, and agents that do must say so.
pub fn worlds_cheating<G: HiddenInfo>(view: &View<'_, G>) -> Option<Fixed<G>> {
    view.true_state_cheating()
        .map(|state| Fixed(vec![state.clone()]))
}
