//! Constrained, exactly uniform deal sampling: the engine of determinization.
//!
//! A [`ConstrainedDeal`] describes what an observer does not know: a set of unknown cards and the
//! holders they are split among (the other hands, an unseen stock), each with a known size and a set
//! of cards it may hold (void suits removed, for instance). [`ConstrainedDeal::sample`] draws one
//! split uniformly among all consistent splits.
//!
//! NOTE: this first version samples by rejection from the unconstrained split. It is exactly
//! uniform but can be slow under strong constraints; the counting sampler replaces it.

use crate::cards::CardSet;
use crate::game::{DealError, Rng};

/// The most holders a deal can have (three opponents and a stock).
pub const MAX_HOLDERS: usize = 4;

/// One place unknown cards can be: a hand or a pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// How many of the unknown cards it holds.
    pub size: usize,
    /// The cards it may hold (cards outside the unknown set are ignored).
    pub allowed: CardSet,
}

/// A prepared sampler for one observer's uncertainty.
#[derive(Clone, Debug)]
pub struct ConstrainedDeal {
    unknown: CardSet,
    holders: [Holder; MAX_HOLDERS],
    num_holders: usize,
}

impl ConstrainedDeal {
    /// Prepares sampling `unknown` into `holders`. Errors when the sizes do not add up to the
    /// number of unknown cards or when no split satisfies the constraints.
    pub fn new(unknown: CardSet, holders: &[Holder]) -> Result<ConstrainedDeal, DealError> {
        if holders.len() > MAX_HOLDERS {
            return Err(DealError::Inconsistent(format!(
                "{} holders, at most {MAX_HOLDERS} supported",
                holders.len()
            )));
        }
        let total: usize = holders.iter().map(|h| h.size).sum();
        if total != unknown.len() {
            return Err(DealError::Inconsistent(format!(
                "{} unknown cards but holders need {total}",
                unknown.len()
            )));
        }
        let mut hs = [Holder {
            size: 0,
            allowed: CardSet::EMPTY,
        }; MAX_HOLDERS];
        for (i, h) in holders.iter().enumerate() {
            hs[i] = Holder {
                size: h.size,
                allowed: h.allowed & unknown,
            };
        }
        Ok(ConstrainedDeal {
            unknown,
            holders: hs,
            num_holders: holders.len(),
        })
    }

    /// The unknown cards.
    pub fn unknown(&self) -> CardSet {
        self.unknown
    }

    /// Draws one consistent split uniformly; entry `i` is holder `i`'s cards.
    pub fn sample(&self, rng: &mut Rng) -> [CardSet; MAX_HOLDERS] {
        loop {
            let mut rest = self.unknown;
            let mut out = [CardSet::EMPTY; MAX_HOLDERS];
            let mut ok = true;
            for i in 0..self.num_holders {
                let part = rest.random_subset(self.holders[i].size, rng);
                rest -= part;
                out[i] = part;
                ok &= self.holders[i].allowed.is_superset(part);
            }
            if ok {
                return out;
            }
        }
    }
}
