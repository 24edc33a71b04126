//! What one seat of a trick-taking game knows, and where the cards it has not seen may be.
//!
//! Sueca, Bisca, Hearts and Tricks hide cards the same way (ASMACAG's cards are kinds, and its
//! own `knowledge` module does this work): some cards are unseen by the observer, and each
//! lies with one of a few *holders* (another seat's hand, an unseen stock) whose size is known and
//! which may only hold certain cards (a void suit, the other constraints the rules prove). The
//! [`CardInfoSet`] is the game's state with every unseen card taken out, its *public part*, plus the
//! observer; the game says, through [`HiddenCards`], how to take cards out, where they may be, and
//! how to put a sampled split back. Samplers and view-mode updates are written once, here, for all
//! card games, and since they start from the public part they cannot hold a card the observer has
//! not seen.

use crate::cards::{Card, CardSet};
use crate::deal::{ConstrainedDeal, Holder, MAX_HOLDERS};
use crate::game::{DealError, DealSampler, Game, InfoSet, MoveSet, Rng, Seat, check_mover};

/// Where the cards an observer has not seen may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unseen {
    /// The holders: another seat's hand or a hidden pile, with the number of unseen cards it
    /// holds and the cards it may hold.
    pub holders: [Holder; MAX_HOLDERS],
    /// Number of holders in use.
    pub num_holders: usize,
    /// The seat each holder is, or `None` for a pile (a stock).
    pub seats: [Option<Seat>; MAX_HOLDERS],
    /// Cards the observer knows a holder has (the turned-up trump with Sueca's dealer, the
    /// cards it passed in Hearts): not among the unseen cards, and put back with that holder.
    pub fixed: [CardSet; MAX_HOLDERS],
    /// The unseen cards.
    pub unknown: CardSet,
}

impl Unseen {
    /// No holder yet, nothing unseen.
    pub const NONE: Unseen = Unseen {
        holders: [Holder {
            size: 0,
            allowed: CardSet::EMPTY,
        }; MAX_HOLDERS],
        num_holders: 0,
        seats: [None; MAX_HOLDERS],
        fixed: [CardSet::EMPTY; MAX_HOLDERS],
        unknown: CardSet::EMPTY,
    };

    /// Adds a holder: `size` unseen cards from those in `allowed`, plus the known `fixed`
    /// ones; `seat` is `None` for a pile.
    pub fn add(&mut self, seat: Option<Seat>, size: usize, allowed: CardSet, fixed: CardSet) {
        let i = self.num_holders;
        self.holders[i] = Holder { size, allowed };
        self.seats[i] = seat;
        self.fixed[i] = fixed;
        self.num_holders += 1;
    }

    /// Holder `i` as a message names it: `seat 3`, or `the stock` for a pile.
    fn holder_name(&self, i: usize) -> String {
        match self.seats.get(i).copied().flatten() {
            Some(seat) => format!("seat {seat}"),
            None => "the stock".to_string(),
        }
    }

    /// `error` with the deal's holders named as seats: `holder 1` becomes `seat 3`, `holders
    /// 0, 2` becomes `seat 1 and the stock`.
    pub fn name_holders(&self, error: DealError) -> DealError {
        let who = |i: usize| self.holder_name(i);
        let name = |text: String| {
            let mut out = String::new();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("holder") {
                out.push_str(&rest[..at]);
                let after = rest[at + "holder".len()..].trim_start_matches('s');
                let list_len = after
                    .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == ' '))
                    .unwrap_or(after.len());
                let (list, tail) = after.split_at(list_len);
                let names: Vec<String> = list
                    .split(',')
                    .filter_map(|t| t.trim().parse().ok())
                    .map(who)
                    .collect();
                out.push_str(&names.join(" and "));
                if list.ends_with(' ') {
                    out.push(' ');
                }
                rest = tail;
            }
            out.push_str(rest);
            out
        };
        match error {
            DealError::Inconsistent(m) => DealError::Inconsistent(name(m)),
            DealError::Invalid(m) => DealError::Invalid(name(m)),
        }
    }

    /// Errors when a holder is known to have a card that its plays have ruled out (Sueca's
    /// dealer, holding the turned-up trump, has shown it holds no card of that suit; a Hearts
    /// seat has shown it holds none of the cards passed to it): no deal fits. The counting of
    /// the unseen cards cannot see this, as known cards are not among them.
    pub fn check_known_cards(&self) -> Result<(), DealError> {
        for i in 0..self.num_holders {
            let ruled_out = self.fixed[i] - self.holders[i].allowed;
            if !ruled_out.is_empty() {
                return Err(DealError::Inconsistent(format!(
                    "{} is known to hold {ruled_out}, but its plays have shown it holds none \
                     of them",
                    self.holder_name(i)
                )));
            }
        }
        Ok(())
    }

    /// The cards `seat` may hold as far as the observer can tell: the unseen cards it may take
    /// and the cards known to be with it.
    pub fn possible_for(&self, seat: Seat) -> CardSet {
        (0..self.num_holders)
            .filter(|&i| self.seats[i] == Some(seat))
            .fold(CardSet::EMPTY, |acc, i| {
                acc | (self.holders[i].allowed & self.unknown) | self.fixed[i]
            })
    }
}

/// How a card game hides its cards: what [`CardInfoSet`] needs to know of it.
pub trait HiddenCards: Game + PartialEq {
    /// This state with every card `observer` has not seen taken out, and every record of a
    /// move it did not see cleared: its public part.
    fn public_part(&self, observer: Seat) -> Self;
    /// Where the unseen cards may be, read from a public part.
    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError>;
    /// A full state from a public part and a split of the unseen cards (`parts[h]` for holder
    /// `h` of [`HiddenCards::unseen`], fixed cards included): what is still random given the
    /// split (which of a hidden hand's cards were picked to pass, the order of a stock) is
    /// drawn from `rng`.
    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], rng: &mut Rng) -> Self;
    /// Ways to complete one split (stock orders and the like), saturating.
    fn completions(&self, _observer: Seat) -> u128 {
        1
    }
    /// Calls `f` with each of the [`completions`](HiddenCards::completions) of a split once,
    /// in a fixed order, and returns true; returns false without calling `f` if the game cannot
    /// list them. The default lists the one completion of a game whose split decides the state.
    fn for_each_completion(
        &self,
        observer: Seat,
        parts: &[CardSet; MAX_HOLDERS],
        f: &mut dyn FnMut(Self),
    ) -> bool {
        if self.completions(observer) != 1 {
            return false;
        }
        // Nothing is left to chance, so the generator is never read.
        f(self.with_unseen(
            observer,
            parts,
            &mut <Rng as rand::SeedableRng>::seed_from_u64(0),
        ));
        true
    }
    /// The seat to move as the observer of this public part knows it.
    fn public_seat_to_move(&self, observer: Seat) -> Option<Seat>;
    /// True when the game is over (read from the public part).
    fn public_terminal(&self) -> bool;
    /// The card a move puts on the table, if it is a card play.
    fn card_of(mv: Self::Move) -> Option<Card>;
    /// Plays, on a public part, a move of `seat` that the observer saw as `mv` (`None`: not
    /// seen), with the observer's hand afterwards if the move gave it cards. The caller has
    /// checked that the observer's own move is legal, or that a card another seat played may be
    /// with that seat; this applies the move and records every constraint it proves, or errors
    /// if no hand of `seat` makes it legal. Whether any deal is left is checked afterwards.
    fn observe_public(
        &mut self,
        observer: Seat,
        seat: Seat,
        mv: Option<Self::Move>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError>;
}

/// One seat's information set in a card game: the public part of the state and the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardInfoSet<G> {
    public: G,
    observer: u8,
}

impl<G: HiddenCards> CardInfoSet<G> {
    /// `observer`'s information set in the full state `state`.
    pub fn of(state: &G, observer: Seat) -> CardInfoSet<G> {
        CardInfoSet {
            public: state.public_part(observer),
            observer: observer as u8,
        }
    }

    /// The public part: the state with every card the observer has not seen taken out. Not a
    /// playable state (hands are missing); read it through the game's public accessors.
    pub fn public(&self) -> &G {
        &self.public
    }
}

/// Samples the unseen cards of one [`CardInfoSet`] exactly uniformly.
#[derive(Clone, Debug, PartialEq)]
pub struct CardSampler<G> {
    public: G,
    observer: u8,
    fixed: [CardSet; MAX_HOLDERS],
    deal: ConstrainedDeal,
    completions: u128,
}

impl<G: HiddenCards> DealSampler<G> for CardSampler<G> {
    #[inline]
    fn sample(&self, rng: &mut Rng) -> G {
        let mut parts = self.deal.sample(rng);
        for (part, fixed) in parts.iter_mut().zip(self.fixed) {
            *part |= fixed;
        }
        self.public.with_unseen(self.observer as Seat, &parts, rng)
    }

    fn count(&self) -> u128 {
        self.deal.count().saturating_mul(self.completions)
    }

    fn for_each_state(&self, f: &mut dyn FnMut(G)) -> bool {
        let o = self.observer as Seat;
        // Whether the game lists its completions is the same for every split: ask with the
        // first and stop at once if it cannot.
        let mut listed = true;
        self.deal.for_each_deal(|split| {
            if listed {
                let mut parts = *split;
                for (part, fixed) in parts.iter_mut().zip(self.fixed) {
                    *part |= fixed;
                }
                listed = self.public.for_each_completion(o, &parts, f);
            }
        });
        listed
    }
}

impl<G: HiddenCards + Copy> InfoSet<G> for CardInfoSet<G> {
    type Sampler = CardSampler<G>;

    fn observer(&self) -> Seat {
        self.observer as Seat
    }

    fn num_seats(&self) -> usize {
        self.public.num_seats()
    }

    fn seat_to_move(&self) -> Option<Seat> {
        if self.public.public_terminal() {
            None
        } else {
            self.public.public_seat_to_move(self.observer())
        }
    }

    fn is_terminal(&self) -> bool {
        self.public.public_terminal()
    }

    fn legal_moves(&self) -> G::Moves {
        self.public.legal_moves()
    }

    fn sampler(&self) -> Result<CardSampler<G>, DealError> {
        let o = self.observer();
        let unseen = self.public.unseen(o)?;
        unseen.check_known_cards()?;
        let deal = ConstrainedDeal::new(unseen.unknown, &unseen.holders[..unseen.num_holders])
            .map_err(|e| unseen.name_holders(e))?;
        Ok(CardSampler {
            public: self.public,
            observer: self.observer,
            fixed: unseen.fixed,
            deal,
            completions: self.public.completions(o),
        })
    }

    fn observe(
        &mut self,
        seat: Seat,
        mv: Option<G::Move>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        if self.is_terminal() {
            return bad("the game is over".into());
        }
        if seat >= self.num_seats() {
            return bad(format!("seat {seat} does not exist"));
        }
        check_mover(self.seat_to_move(), seat)?;
        let o = self.observer();
        let mut next = self.public;
        if seat == o {
            if self.seat_to_move() != Some(o) {
                return bad(format!("seat {o} is not to move"));
            }
            let Some(mv) = mv else {
                return bad(format!("seat {o} always sees its own moves"));
            };
            if !self.public.legal_moves().contains(mv) {
                return bad(format!("{mv} is not legal for seat {o} here"));
            }
            next.observe_public(o, seat, Some(mv), hand_after)?;
        } else {
            if let Some(card) = mv.and_then(G::card_of) {
                let possible = self.public.unseen(o)?.possible_for(seat);
                if !possible.contains(card) {
                    return bad(format!(
                        "seat {seat} cannot hold {card} as far as seat {o} knows (it may hold \
                         {possible})"
                    ));
                }
            }
            next.observe_public(o, seat, mv, hand_after)?;
        }
        let after = CardInfoSet {
            public: next,
            observer: self.observer,
        };
        // One counting pass decides whether any deal is left: an error is a proof.
        after.sampler()?;
        *self = after;
        Ok(())
    }
}

/// Errors unless `hand_after` is `None` or `expected`: for moves that give the observer no
/// cards it had not seen.
pub fn check_no_new_cards(hand_after: Option<CardSet>, expected: CardSet) -> Result<(), DealError> {
    match hand_after {
        Some(h) if h != expected => Err(DealError::Inconsistent(format!(
            "the seat's hand would be {expected} after this move, not {h}"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_errors_name_seats_not_holders() {
        let mut unseen = Unseen::NONE;
        unseen.add(Some(1), 3, CardSet::FULL, CardSet::EMPTY);
        unseen.add(Some(3), 3, CardSet::FULL, CardSet::EMPTY);
        unseen.add(None, 4, CardSet::FULL, CardSet::EMPTY);
        let e = DealError::Inconsistent(
            "holder 1 needs 12 cards; holders 0, 2 may take 2H only".into(),
        );
        assert_eq!(
            unseen.name_holders(e).to_string(),
            "no deal is consistent with what is known: seat 3 needs 12 cards; seat 1 and the \
             stock may take 2H only"
        );
    }
}
