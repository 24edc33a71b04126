//! Determinized UCT, or perfect-information Monte Carlo (PIMC): sample D worlds once, search each
//! as if it were the truth, vote by summed root visits.
//!
//! The D worlds get D roots in one arena and iteration `i` searches root `i mod D`, so every
//! budget and parallel mode works unchanged. PIMC suffers strategy fusion: in CoinGuess it
//! gambles, because each of its worlds shows the coin.

use crate::game::{DealError, DealSampler, HiddenInfo, Rng, View};

use super::worlds::Fixed;

/// `dets` determinizations drawn from the observer's sampler.
pub fn worlds<G: HiddenInfo>(
    view: &View<'_, G>,
    dets: u32,
    rng: &mut Rng,
) -> Result<Fixed<G>, DealError> {
    let sampler = view.deal_sampler()?;
    Ok(Fixed((0..dets).map(|_| sampler.sample(rng)).collect()))
}
