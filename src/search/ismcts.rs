//! Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012), as in the note
//! "ISMCTS and the Hidden Hand".
//!
//! One tree over the observer's information sets: every iteration draws a fresh determinization
//! from a sampler built once per decision, selection considers only the children legal in that
//! world (one `contains` test each), every compatible child's availability is incremented, and
//! UCB is `mean + c·sqrt(ln(availability)/visits)`. The move played is the most visited root
//! child.

use crate::game::{DealError, HiddenInfo, SamplerOf, View};

use super::worlds::Sampled;

/// The worlds of an ISMCTS decision: the observer's deal sampler.
pub fn worlds<G: HiddenInfo>(view: &View<'_, G>) -> Result<Sampled<SamplerOf<G>>, DealError> {
    Ok(Sampled {
        sampler: view.deal_sampler()?,
        observer: view.observer(),
        seats: view.num_seats(),
    })
}
