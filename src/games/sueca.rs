//! Sueca: the Portuguese four-player partnership game of the thesis (section 3).
//!
//! The 40-card pack ([`portuguese`](super::portuguese)), ten cards each; partners sit opposite
//! (team 0 = seats 0 and 2, team 1 = seats 1 and 3). One card of the dealer's hand, chosen
//! uniformly, is turned up: its suit is trump, everyone sees it, and it stays in the dealer's hand
//! until the dealer plays it. The seat after the dealer leads; players must follow the led suit if
//! able, otherwise play anything. The highest trump wins the trick, else the highest card of the
//! led suit; the winner leads next. After ten tricks a team with 61 or more card points wins,
//! 60–60 is a tie. Match units: 61–90 → 1, 91–119 → 2, 120 → 4 (`bandeira=tricks`: 4 for all ten
//! tricks instead).
//!
//! # Deal notation
//!
//! `dealer=D trump=CARD | hand0 | hand1 | hand2 | hand3`: a header naming the dealer seat and the
//! turned-up card (which must be in the dealer's hand), then the four hands of ten cards each, in
//! seat order, in the crate's card notation (any order within a hand). For example
//!
//! ```text
//! dealer=3 trump=7H | 2C 3C 4C 5C 6C 7C JC QC KC AC | 2D … | … | … 7H …
//! ```
//!
//! [`GameDef::deal_text`] writes this form (hands sorted) and [`GameDef::from_deal`] reads it;
//! the dealer of the text wins over the `dealer` option. A deal with wrong sizes, duplicate or
//! missing cards, cards outside the pack, or a trump card the dealer does not hold is a
//! [`DealError::Invalid`] that names the problem.
//!
//! ```
//! use cardsearch::games::{GameDef, Sueca};
//! use cardsearch::game::rng_from_seed;
//! use cardsearch::{Game, MoveSet};
//! let config = Sueca::config(&"sueca".parse().unwrap()).unwrap();
//! let mut rng = rng_from_seed(1);
//! let mut game = Sueca::new_game(&config, &mut rng);
//! let again = Sueca::from_deal(&config, &game.deal_text()).unwrap();
//! assert_eq!(game, again);
//! while !game.is_terminal() {
//!     let mv = game.legal_moves().random(&mut rng);
//!     game.play(mv);
//! }
//! assert_eq!(game.score(0) + game.score(1), 120.0);
//! ```

use std::hint::select_unpredictable;
use std::sync::OnceLock;

use crate::cards::{Card, CardList, CardSet, Suit};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, Draws, Game, HiddenInfo, Rng, Seat, possible_cards};
use crate::search::opponent_model::{ModelFeatures, OpponentModel};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::portuguese::{self as pt, Bandeira, DECK};
use super::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

/// Seats at the table.
pub const SEATS: usize = 4;
/// Cards per hand at the start.
pub const HAND: usize = 10;
/// Tricks in a deal.
pub const TRICKS: u32 = 10;

/// A Sueca position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sueca {
    hands: [CardSet; SEATS],
    /// Cards each seat has played.
    played: [CardSet; SEATS],
    /// Suits each seat has shown it lacks (failed to follow), as full-suit masks.
    voids: [CardSet; SEATS],
    /// Cards in the tricks each team has taken.
    won: [CardSet; 2],
    /// Cards on the table in the current trick.
    trick: CardSet,
    /// The turned-up card; its suit is trump.
    trump: Card,
    /// The card led to the current trick (meaningful while `trick` is not empty).
    lead: Card,
    /// The card winning the current trick so far, and its seat.
    best: Card,
    best_seat: u8,
    /// The seat that led the current trick.
    leader: u8,
    to_move: u8,
    dealer: u8,
    bandeira: Bandeira,
}

/// Everything the options decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuecaConfig {
    /// The dealer of random deals (the seat after it leads).
    pub dealer: Seat,
    /// What earns 4 match units.
    pub bandeira: Bandeira,
}

impl Default for SuecaConfig {
    fn default() -> SuecaConfig {
        SuecaConfig {
            dealer: 3,
            bandeira: Bandeira::Points,
        }
    }
}

impl Sueca {
    /// The card winning the trick in progress and its seat; `None` before the trick is led.
    pub fn trick_best(&self) -> Option<(Card, Seat)> {
        (!self.trick.is_empty()).then_some((self.best, self.best_seat as Seat))
    }

    /// A game from explicit hands, dealer and turned-up card; errors name what is wrong.
    pub fn from_hands(
        hands: [CardSet; SEATS],
        dealer: Seat,
        trump: Card,
        bandeira: Bandeira,
    ) -> Result<Sueca, DealError> {
        if dealer >= SEATS {
            return Err(DealError::Invalid(format!(
                "dealer {dealer} is not a seat (0..3)"
            )));
        }
        const NAMES: [&str; SEATS] = ["hand 0", "hand 1", "hand 2", "hand 3"];
        pt::check_partition(&[0, 1, 2, 3].map(|s| (NAMES[s], hands[s], HAND)))?;
        if !hands[dealer].contains(trump) {
            return Err(DealError::Invalid(format!(
                "trump card {trump} is not in the dealer's hand (seat {dealer})"
            )));
        }
        let leader = ((dealer + 1) % SEATS) as u8;
        Ok(Sueca {
            hands,
            played: [CardSet::EMPTY; SEATS],
            voids: [CardSet::EMPTY; SEATS],
            won: [CardSet::EMPTY; 2],
            trick: CardSet::EMPTY,
            trump,
            lead: trump,
            best: trump,
            best_seat: leader,
            leader,
            to_move: leader,
            dealer: dealer as u8,
            bandeira,
        })
    }

    /// The trick in progress as the heuristic rule reads it; `None` before it is led.
    fn trick_so_far(&self) -> Option<pt::TrickSoFar> {
        let seat = self.to_move as usize;
        (!self.trick.is_empty()).then(|| pt::TrickSoFar {
            best: self.best,
            partner_winning: (self.best_seat as usize ^ seat) & 1 == 0,
            points: pt::points(self.trick),
            last: self.trick.len() == SEATS - 1,
        })
    }

    /// What the learned opponent model reads of this position, from the mover's view.
    fn model_view(&self) -> pt::ModelView {
        let hand = self.hands[self.to_move as usize];
        let trick = self.trick_so_far();
        pt::ModelView {
            hand,
            situation: pt::sueca_situation(self.trick.len(), trick),
            leading: self.trick.is_empty(),
            trick,
            void: !self.trick.is_empty() && (hand & pt::suit_mask(self.lead)).is_empty(),
            trump: self.trump.suit(),
            gone: self.played[0] | self.played[1] | self.played[2] | self.played[3],
        }
    }

    /// A seat's hand (the true state: only the harness and cheating agents see other hands).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The cards `seat` has played so far.
    pub fn played(&self, seat: Seat) -> CardSet {
        self.played[seat]
    }

    /// The suits `seat` is known to lack, as a set of whole suits.
    pub fn voids(&self, seat: Seat) -> CardSet {
        self.voids[seat]
    }

    /// The turned-up card.
    pub fn trump_card(&self) -> Card {
        self.trump
    }

    /// The trump suit.
    pub fn trump(&self) -> Suit {
        self.trump.suit()
    }

    /// The dealer seat.
    pub fn dealer(&self) -> Seat {
        self.dealer as Seat
    }

    /// The cards on the table in the current trick.
    pub fn trick(&self) -> CardSet {
        self.trick
    }

    /// The seat that led the current trick (or leads the next one).
    pub fn trick_leader(&self) -> Seat {
        self.leader as Seat
    }

    /// The cards in the tricks `team` has taken.
    pub fn won(&self, team: usize) -> CardSet {
        self.won[team]
    }

    /// Card points `team` has taken.
    pub fn points(&self, team: usize) -> u32 {
        pt::points(self.won[team])
    }

    /// Tricks `team` has taken.
    pub fn tricks_won(&self, team: usize) -> u32 {
        (self.won[team].len() / SEATS) as u32
    }

    /// The option that decides what earns 4 match units.
    pub fn bandeira(&self) -> Bandeira {
        self.bandeira
    }
}

impl Game for Sueca {
    /// The general preset's win-then-margin reward, with inference by the learned opponent
    /// model (`models/sueca-opponent.txt`): at 4,000 iterations a move it beat plain ISMCTS by
    /// 24 Elo where the rule-based model gained nothing (docs/results.md, inference). Since
    /// session 23 its playouts draw from the same model too: at 20 ms a move that beat the
    /// preset with random playouts by 11 Elo (+5 … +17, 2,000 deals) and 1.6 card points a game,
    /// on two thirds of its iterations, and at 200 ms by 26 (+9 … +43, 300 deals)
    /// (docs/results.md, "Learned-model playouts").
    const STRONG_PRESET: &'static str =
        "playout=model,infer=1000,infer_model=learned,infer_eps=0.1";

    fn exact() -> Option<&'static dyn crate::solver::Endgame<Sueca>> {
        Some(&crate::solver::Exact::<Sueca>::NEW)
    }

    type Move = Card;
    type Moves = CardSet;

    fn num_seats(&self) -> usize {
        SEATS
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.to_move as Seat
    }

    #[inline]
    fn legal_moves(&self) -> CardSet {
        let hand = self.hands[self.to_move as usize];
        // Leading, the mask is every card; following, the led suit unless the hand has none.
        // Written as selects rather than branches: in random playouts they are unpredictable.
        let leading = (self.trick.is_empty() as u64).wrapping_neg();
        let follow = hand.0 & (pt::suit_mask(self.lead).0 | leading);
        CardSet(if follow == 0 { hand.0 } else { follow })
    }

    #[inline(always)]
    fn play(&mut self, card: Card) {
        let p = self.to_move as usize;
        debug_assert!(self.legal_moves().contains(card), "illegal {card}");
        self.hands[p].remove(card);
        self.played[p].insert(card);
        let leading = self.trick.is_empty();
        if leading {
            self.lead = card;
            self.leader = p as u8;
        }
        // Not following shows a void in the led suit (never true of the lead itself).
        let off_suit = (card.index() ^ self.lead.index()) >> 4 != 0;
        self.voids[p].0 |= pt::suit_mask(self.lead).0 & (off_suit as u64).wrapping_neg();
        if leading | pt::beats(card, self.best, self.trump.suit()) {
            self.best = card;
            self.best_seat = p as u8;
        }
        self.trick.insert(card);
        let next = ((p + 1) % SEATS) as u8;
        if next == self.leader {
            let winner = self.best_seat;
            self.won[(winner & 1) as usize] |= self.trick;
            self.trick = CardSet::EMPTY;
            self.leader = winner;
            self.to_move = winner;
        } else {
            self.to_move = next;
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        // The seat to move has not played to this trick, so it holds the most cards: its hand
        // is empty only when every hand is.
        self.hands[self.to_move as usize].is_empty()
    }

    /// Finishes the trick in progress card by card, then plays whole tricks, each drawn from one
    /// generator output ([`Draws::restart`]), ending in the state `playout_by_moves_restarting`
    /// reaches. A trick's shape is known in advance (a lead, then three followers in seat
    /// order), so there is no branch on leading, the end of the trick or who is winning it
    /// (selects instead: in random play they are coin flips). What bounds the speed is the chain
    /// from one card to the next, so the loop keeps it short: hands are the starting hands
    /// minus a mask of cards gone, a legal set's `k`-th card is read from the hand's
    /// [`CardList`] at a position its counts give, the followers are independent of each other,
    /// and the last trick's forced cards need no lookup at all. The played cards are filled in
    /// at once, since every card still held will be played by its holder.
    fn random_playout(&mut self, rng: &mut Rng) {
        let mut draws = Draws::new();
        while !self.trick.is_empty() {
            let card = draws.pick(rng, &self.legal_moves());
            self.play(card);
        }
        let trump = self.trump.suit();
        // The hands as they are now; a hand later is its cards not yet played (`gone`), so a
        // card leaves its holder's hand by one OR, with no store and reload through a hand slot
        // on the path from one card to the next.
        let start = self.hands;
        let to_play = start[0] | start[1] | start[2] | start[3];
        for (played, hand) in self.played.iter_mut().zip(start) {
            *played |= hand;
        }
        let mut gone = 0u64;
        let mut lists = start.map(CardList::new);
        let mut voids = self.voids;
        let (mut leader, mut lead) = (self.to_move as usize, self.lead);
        // Cards team 0 takes from here on; team 1 takes the rest of `to_play`.
        let mut won0 = 0u64;
        // The trick's best card so far as one number: its trick rank, then its place in the
        // trick (0 for the lead), then its card index, so that the highest number is the
        // winner and says which card and whose it is.
        let entry = |card: Card, follows: bool, place: u32| {
            pt::trick_rank(card, follows, trump) << 8 | place << 6 | card.index() as u32
        };
        let mut top = None;
        // One trick, every hand holding `$left` cards; with `$last` (a constant) one card each,
        // all moves forced: they take their draws but need no select.
        macro_rules! trick {
            ($left:expr, $last:expr) => {
                draws.restart();
                // Every hand holds `$left` cards, so the lead's index is drawn before the leader
                // is known.
                let k = draws.below(rng, $left) as usize;
                let before = gone;
                let hand = CardSet(start[leader].0 & !before);
                lead = if $last {
                    hand.lowest()
                } else {
                    lists[leader].take(k)
                };
                let led_suit = pt::suit_mask(lead).0;
                // The three followers, written out (as a loop the optimiser kept it rolled, and
                // the draws' bookkeeping with it), each giving its card's bit and its trick
                // entry: none depends on another, and they are combined in trees.
                macro_rules! follower {
                    ($place:expr) => {{
                        let seat = (leader + $place) % SEATS;
                        // This trick's other cards are not in this hand anyway.
                        let hand = start[seat].0 & !before;
                        let follow = hand & led_suit;
                        let legal = CardSet(select_unpredictable(follow == 0, hand, follow));
                        let k = draws.below(rng, legal.len() as u32) as usize;
                        // The led suit's cards are together in the list, after those of the
                        // lanes below it.
                        let below = (hand & ((1 << (lead.index() & 0x30)) - 1)).count_ones();
                        let at = k + select_unpredictable(follow == 0, 0, below) as usize;
                        let card = if $last {
                            legal.lowest()
                        } else {
                            lists[seat].take(at)
                        };
                        // The card is of the led suit exactly when the hand has some, and a
                        // void is shown exactly when it has none.
                        voids[seat].0 |= select_unpredictable(follow == 0, led_suit, 0);
                        (card.set().0, entry(card, follow != 0, $place))
                    }};
                }
                let (b1, e1) = follower!(1);
                let (b2, e2) = follower!(2);
                let (b3, e3) = follower!(3);
                let trick = (lead.set().0 | b1) | (b2 | b3);
                gone = before | trick;
                let max = |a: u32, b: u32| select_unpredictable(a > b, a, b);
                let best = max(max(entry(lead, true, 0), e1), max(e2, e3));
                leader = (leader + (best >> 6 & 3) as usize) % SEATS;
                won0 |= select_unpredictable(leader & 1 == 0, trick, 0);
                top = Some(best);
            };
        }
        // Every hand holds one card per trick left.
        let tricks = start[leader].len() as u32;
        for left in (2..=tricks).rev() {
            trick!(left, false);
        }
        if tricks > 0 {
            trick!(1, true);
        }
        self.hands = start.map(|hand| CardSet(hand.0 & !gone));
        self.voids = voids;
        self.won[0].0 |= won0;
        self.won[1].0 |= to_play.0 & !won0;
        self.lead = lead;
        if let Some(best) = top {
            self.best = Card::from_index(best as u8 & 63).expect("a card index");
        }
        self.best_seat = leader as u8;
        self.leader = leader as u8;
        self.to_move = leader as u8;
    }

    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        pt::reward(self.points(seat & 1))
    }

    fn score(&self, seat: Seat) -> f64 {
        self.points(seat & 1) as f64
    }

    fn team(&self, seat: Seat) -> usize {
        seat & 1
    }

    fn margin(&self, seat: Seat) -> f64 {
        pt::margin(self.points(seat & 1))
    }

    fn match_units(&self, seat: Seat) -> Option<f64> {
        let team = seat & 1;
        Some(pt::match_units(
            self.points(team),
            self.tricks_won(team),
            TRICKS,
            self.bandeira,
        ))
    }

    fn tricks_completed(&self) -> Option<u32> {
        Some(self.tricks_won(0) + self.tricks_won(1))
    }

    fn trick_position(&self) -> Option<usize> {
        Some(self.trick.len())
    }

    const HAS_HEURISTIC: bool = true;

    fn heuristic_move(&self, rng: &mut Rng) -> Card {
        pt::heuristic_card(
            self.legal_moves(),
            self.trick_so_far(),
            self.trump.suit(),
            rng,
        )
    }

    fn heuristic_moves(&self) -> Option<CardSet> {
        Some(pt::heuristic_cards(
            self.legal_moves(),
            self.trick_so_far(),
            self.trump.suit(),
        ))
    }

    fn model_features(&self, card: Card) -> Option<ModelFeatures> {
        Some(self.model_view().features(card))
    }

    fn visit_model_features(&self, mut visit: impl FnMut(Card, ModelFeatures)) -> bool {
        let view = self.model_view();
        for card in self.legal_moves().iter() {
            visit(card, view.features(card));
        }
        true
    }

    fn opponent_model() -> Option<&'static OpponentModel> {
        static MODEL: OnceLock<OpponentModel> = OnceLock::new();
        Some(OpponentModel::embedded(
            &MODEL,
            include_str!("../../models/sueca-opponent.txt"),
            pt::MODEL_PARAMS,
            "sueca-opponent.txt",
        ))
    }

    fn model_params() -> usize {
        pt::MODEL_PARAMS
    }

    fn parse_move(&self, text: &str) -> Result<Card, String> {
        pt::pack_card(text)
    }
}

impl HiddenInfo for Sueca {
    type InfoSet = CardInfoSet<Sueca>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Sueca> {
        CardInfoSet::of(self, observer)
    }

    fn can_rewind(&self) -> bool {
        true
    }

    fn dealt(&self) -> Option<Sueca> {
        let hands = std::array::from_fn(|s| self.hands[s] | self.played[s]);
        Sueca::from_hands(hands, self.dealer as Seat, self.trump, self.bandeira).ok()
    }

    fn possible_moves(&self, observer: Seat) -> CardSet {
        let mover = self.to_move as usize;
        let unplayed = self.hands.iter().fold(CardSet::EMPTY, |all, &h| all | h);
        possible_cards(
            mover,
            observer,
            self.hands[observer],
            unplayed,
            self.voids[mover],
        )
    }
}

/// What a seat of Sueca sees: its own hand, the turned-up trump card (which stays in the dealer's
/// hand until played), every card played and by whom, and the voids shown by failing to follow.
/// The other three hands are unseen; their sizes follow from the cards played.
impl HiddenCards for Sueca {
    fn public_part(&self, observer: Seat) -> Sueca {
        let mut public = *self;
        for seat in (0..SEATS).filter(|&s| s != observer) {
            public.hands[seat] = CardSet::EMPTY;
        }
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let played = self.played[0] | self.played[1] | self.played[2] | self.played[3];
        let dealer = self.dealer as Seat;
        let trump_held = !played.contains(self.trump) && dealer != observer;
        let mut unseen = Unseen::NONE;
        unseen.unknown = DECK - self.hands[observer] - played;
        if trump_held {
            unseen.unknown.remove(self.trump);
        }
        for seat in (1..SEATS).map(|k| (observer + k) % SEATS) {
            let fixed = if seat == dealer && trump_held {
                self.trump.set()
            } else {
                CardSet::EMPTY
            };
            let size = HAND - self.played[seat].len() - fixed.len();
            unseen.add(Some(seat), size, DECK - self.voids[seat], fixed);
        }
        Ok(unseen)
    }

    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], _rng: &mut Rng) -> Sueca {
        let mut state = *self;
        for (i, seat) in (1..SEATS).map(|k| (observer + k) % SEATS).enumerate() {
            state.hands[seat] = parts[i];
        }
        state
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        Some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        (self.won[0] | self.won[1]).len() == DECK.len()
    }

    fn card_of(mv: Card) -> Option<Card> {
        Some(mv)
    }

    fn observe_public(
        &mut self,
        observer: Seat,
        seat: Seat,
        mv: Option<Card>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let card = mv.ok_or_else(|| DealError::Inconsistent("every Sueca move is seen".into()))?;
        // The card alone in the mover's hand: legal exactly when it follows suit or the hand may
        // be void in the led suit, which `play` then records.
        self.hands[seat].insert(card);
        let own = self.hands[observer];
        self.play(card);
        check_no_new_cards(hand_after, own - card.set())
    }
}

impl GameDef for Sueca {
    const NAME: &'static str = "sueca";
    const ABOUT: &'static str = "4 players in 2 teams, 40 cards, trump turned up from the dealer's hand; \
         follow suit; 61+ of 120 card points wins";
    const OPTIONS: &'static [OptionDoc] = &[
        OptionDoc {
            key: "dealer",
            default: "3",
            help: "dealer seat 0..3 of random deals; the next seat leads",
        },
        OptionDoc {
            key: "bandeira",
            default: "points",
            help: "what earns 4 match units: all 120 points (points) or all 10 tricks (tricks)",
        },
    ];
    type Config = SuecaConfig;

    fn config(spec: &Spec) -> Result<SuecaConfig, SpecError> {
        let dealer = spec.seat("dealer", 3, SEATS)?;
        Ok(SuecaConfig {
            dealer,
            bandeira: Bandeira::from_spec(spec)?,
        })
    }

    fn new_game(config: &SuecaConfig, rng: &mut Rng) -> Sueca {
        let mut rest = DECK;
        let mut hands = [CardSet::EMPTY; SEATS];
        for hand in hands.iter_mut().take(SEATS - 1) {
            *hand = rest.random_subset(HAND, rng);
            rest -= *hand;
        }
        hands[SEATS - 1] = rest;
        let trump = hands[config.dealer].random(rng);
        Sueca::from_hands(hands, config.dealer, trump, config.bandeira)
            .expect("a split of the pack")
    }

    fn from_deal(config: &SuecaConfig, deal: &str) -> Result<Sueca, DealError> {
        let parts = pt::split_parts(deal, 1 + SEATS)?;
        let [dealer, trump] = pt::parse_header(parts[0], ["dealer", "trump"])?;
        let dealer = pt::parse_seat(dealer, "dealer", SEATS)?;
        let trump = pt::parse_pack_card(trump, "trump")?;
        let mut hands = [CardSet::EMPTY; SEATS];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = pt::parse_hand(parts[1 + s], &format!("hand {s}"))?;
        }
        Sueca::from_hands(hands, dealer, trump, config.bandeira)
    }

    fn deal_text(&self) -> String {
        let hands = |s: usize| self.hands[s] | self.played[s];
        format!(
            "dealer={} trump={} | {} | {} | {} | {}",
            self.dealer,
            self.trump,
            hands(0),
            hands(1),
            hands(2),
            hands(3)
        )
    }

    fn hand_text(&self, seat: Seat) -> Option<String> {
        Some(self.hands[seat].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DealSampler;
    use crate::game::rng_from_seed;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn set(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    fn config() -> SuecaConfig {
        SuecaConfig::default()
    }

    fn deal(text: &str) -> Sueca {
        Sueca::from_deal(&config(), text).unwrap()
    }

    /// The learned model's features, decoded from their table indices: (takes the trick,
    /// trump, card-point band) from table 1 and (rank in hand, master) from table 2.
    fn decoded(g: &Sueca, card: &str) -> (usize, usize, usize, usize, usize) {
        let [t1, t2, ..] = g.model_features(c(card)).unwrap().map(usize::from);
        let t2 = t2 - 192;
        (t1 / 8 % 2, t1 / 4 % 2, t1 % 4, t2 / 4 % 4, t2 / 2 % 2)
    }

    #[test]
    fn model_features_read_the_trick_and_the_hand() {
        let mut g = deal(
            "dealer=3 trump=3H | 5C 6C JC QC AD 4H KH AH 4S AS | 4C 7C AC 5D JD 2H 6H JH JS KS | \
             KC 2D 3D 4D KD 7H QH 3S 5S QS | 2C 3C 6D 7D QD 3H 5H 2S 6S 7S",
        );
        play_all(&mut g, "6C");
        // Seat 1 follows the 6♣: its 4♣ loses (lowest, no points), the 7♣ takes it (10
        // points, between, and master, since only its own A♣ is stronger), the A♣ takes it
        // (11 points, highest, master).
        assert_eq!(decoded(&g, "4C"), (0, 0, 0, 0, 0));
        assert_eq!(decoded(&g, "7C"), (1, 0, 2, 2, 1));
        assert_eq!(decoded(&g, "AC"), (1, 0, 3, 1, 1));
        // K♣ takes the first trick, J♠ the second; seat 1 then leads the 7♣ to seat 2, which
        // has no club left: any trump takes the trick. Its 7♥ is its highest trump, but the
        // A♥ is still out.
        play_all(&mut g, "4C KC 2C 3S 2S 4S JS 7C");
        assert_eq!(decoded(&g, "7H"), (1, 1, 2, 1, 0));
        assert_eq!(decoded(&g, "2D"), (0, 0, 0, 0, 0));
    }

    fn play_all(g: &mut Sueca, cards: &str) {
        for card in cards.split_whitespace() {
            let card = c(card);
            assert!(
                g.legal_moves().contains(card),
                "{card} is not legal for seat {} (legal: {})",
                g.current_seat(),
                g.legal_moves()
            );
            g.play(card);
        }
    }

    /// Each seat holds one whole suit; dealer 2 holds hearts, so hearts are trump.
    const SUITED: &str = "dealer=2 trump=QH | 2C 3C 4C 5C 6C 7C JC QC KC AC \
        | 2D 3D 4D 5D 6D 7D JD QD KD AD | 2H 3H 4H 5H 6H 7H JH QH KH AH \
        | 2S 3S 4S 5S 6S 7S JS QS KS AS";

    /// Seat 1 holds the top clubs and low hearts, seat 0 the low clubs and top hearts (trump,
    /// turned up by dealer 0), seat 2 all diamonds, seat 3 all spades.
    const SPLIT: &str = "dealer=0 trump=AH | AH 7H KH JH QH 6C 5C 4C 3C 2C \
        | AC 7C KC JC QC 6H 5H 4H 3H 2H | 2D 3D 4D 5D 6D 7D JD QD KD AD \
        | 2S 3S 4S 5S 6S 7S JS QS KS AS";

    #[test]
    fn the_seat_after_the_dealer_leads_and_follow_suit_is_enforced() {
        let mut g = deal(SPLIT);
        assert_eq!(g.current_seat(), 1);
        assert_eq!(g.trump(), Suit::Hearts);
        assert_eq!(g.legal_moves(), g.hand(1));
        play_all(&mut g, "QC");
        // Seats 2 and 3 have no clubs: anything goes, and they are then known void.
        assert_eq!(g.legal_moves(), g.hand(2));
        play_all(&mut g, "7D");
        assert_eq!(g.voids(2), CardSet::suit(Suit::Clubs));
        play_all(&mut g, "2S");
        // Seat 0 holds clubs, so only clubs; its trumps are not playable.
        assert_eq!(g.legal_moves(), set("2C 3C 4C 5C 6C"));
        assert_eq!(g.voids(0), CardSet::EMPTY);
        play_all(&mut g, "6C");
        // QC (the highest club) wins for team 1: QC 2 + 7D 10 = 12 points.
        assert_eq!(g.current_seat(), 1);
        assert_eq!((g.tricks_won(0), g.tricks_won(1)), (0, 1));
        assert_eq!((g.points(0), g.points(1)), (0, 12));
        assert!(g.trick().is_empty());
    }

    #[test]
    fn trick_winners_with_and_without_trump() {
        // Hearts are trump (dealer 3 turned up the 2H); seat 0 leads.
        let mut g = deal(
            "dealer=3 trump=2H | KC 2C AD 2D 3H 2S 3S 4S 5S 6S \
             | 7C 3C 3D 7D 4H 7S JS QS KS AS | JC 4C AC 6C 5C KD 4D 5H 6H AH \
             | QC QD JD 6D 5D 2H 7H JH QH KH",
        );
        // All follow: the 7 outranks the king, jack and queen. 4 + 10 + 3 + 2 = 19 to team 1.
        play_all(&mut g, "KC 7C JC QC");
        assert_eq!((g.current_seat(), g.points(1)), (1, 19));
        // The ace is highest: 0 + 4 + 2 + 11 = 17 to team 0.
        play_all(&mut g, "3D KD QD AD");
        assert_eq!((g.current_seat(), g.points(0)), (0, 17));
        // Seat 3 is out of clubs and trumps with the lowest trump over three higher clubs.
        play_all(&mut g, "2C 3C 4C");
        assert_eq!(g.legal_moves(), g.hand(3));
        play_all(&mut g, "2H");
        assert_eq!((g.current_seat(), g.points(1)), (3, 19));
        // Trumps led: everyone with a trump must follow and the strongest trump wins:
        // 10 + 0 + 0 + 11 = 21 to team 0.
        play_all(&mut g, "7H");
        assert_eq!(g.legal_moves(), set("3H"));
        play_all(&mut g, "3H 4H AH");
        assert_eq!((g.current_seat(), g.points(0)), (2, 17 + 21));
        // A 7 over a jack of the led suit: 0 + 3 + 0 + 10 = 13 to team 1.
        play_all(&mut g, "4D JD 2D 7D");
        assert_eq!((g.current_seat(), g.points(1)), (1, 19 + 13));
        assert_eq!((g.tricks_won(0), g.tricks_won(1)), (2, 3));
    }

    #[test]
    fn a_trump_beats_every_plain_card_and_over_trumping_wins() {
        // Each seat holds one whole suit and dealer 2 holds the trumps: nobody can ever follow.
        let mut g = deal(SUITED);
        assert_eq!(g.current_seat(), 3);
        play_all(&mut g, "AS AC 2D 2H");
        assert_eq!(g.current_seat(), 2, "2H trumps the AS lead");
        assert_eq!(g.points(0), 22);
        play_all(&mut g, "7H KS KC KD");
        assert_eq!(g.current_seat(), 2);
        assert_eq!(g.points(0), 22 + 10 + 12);

        // Clubs led; seats 1 and 3 are void in clubs and hold trumps (hearts).
        let mut g = deal(
            "dealer=3 trump=7H | 2C 3C 4C 5C 6C 7C JC QC KC AC | 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D \
             | 7D JD QD KD AD 2S 3S 4S 5S 6S | 7H JH QH KH AH 7S JS QS KS AS",
        );
        assert_eq!(g.current_seat(), 0);
        // 2H trumps the AC, then 7H over-trumps: seat 3 wins 11 + 0 + 10 + 10 = 31.
        play_all(&mut g, "AC 2H 7D 7H");
        assert_eq!((g.current_seat(), g.points(1)), (3, 31));
        // Seat 2 must follow spades; seat 1's low trump beats them all.
        play_all(&mut g, "JS 4C 3H");
        assert_eq!(g.legal_moves(), set("2S 3S 4S 5S 6S"));
        play_all(&mut g, "2S");
        assert_eq!(g.current_seat(), 1, "the only trump, 3H, wins");
    }

    #[test]
    fn a_fixed_line_to_a_sixty_sixty_tie() {
        // Seat 1 cashes its five clubs; seat 0 must follow with its low clubs; seat 2 throws its
        // five high diamonds (30 points) and seat 3 its five low spades: team 1 has 30 + 30 = 60.
        // Then seat 1 must lead a low heart and seat 0 wins every remaining trick with higher
        // hearts: team 0 has the 30 heart points and the five high spades (30) = 60.
        let mut g = deal(SPLIT);
        play_all(
            &mut g,
            "AC AD 2S 2C  7C 7D 3S 3C  KC KD 4S 4C  JC JD 5S 5C  QC QD 6S 6C",
        );
        assert_eq!((g.tricks_won(1), g.points(1)), (5, 60));
        play_all(&mut g, "2H 2D AS AH");
        assert_eq!(g.current_seat(), 0);
        play_all(&mut g, "7H 3H 3D 7S  KH 4H 4D JS  JH 5H 5D QS  QH 6H 6D KS");
        assert!(g.is_terminal());
        assert_eq!((g.points(0), g.points(1)), (60, 60));
        assert_eq!((g.tricks_won(0), g.tricks_won(1)), (5, 5));
        for seat in 0..4 {
            assert_eq!(g.reward(seat), 0.5);
            assert_eq!(g.match_units(seat), Some(0.0));
            assert_eq!(g.score(seat), 60.0);
        }
    }

    #[test]
    fn a_fixed_line_to_ninety_points_is_one_unit() {
        // As the tie, but seat 2 throws its low diamonds early: team 1 keeps only the clubs.
        let mut g = deal(SPLIT);
        play_all(
            &mut g,
            "AC 2D 2S 2C  7C 3D 3S 3C  KC 4D 4S 4C  JC 5D 5S 5C  QC 6D 6S 6C \
             2H 7D AS AH  7H 3H JD 7S  KH 4H QD JS  JH 5H KD QS  QH 6H AD KS",
        );
        assert!(g.is_terminal());
        assert_eq!((g.points(0), g.points(1)), (90, 30));
        assert_eq!((g.reward(0), g.reward(1)), (1.0, 0.0));
        assert_eq!(
            (g.match_units(2), g.match_units(3)),
            (Some(1.0), Some(-1.0))
        );
    }

    #[test]
    fn one_seat_with_every_trump_takes_every_trick_whatever_is_played() {
        // Dealer 2 holds all hearts; every other seat one plain suit, so nobody ever follows a
        // heart lead and every plain lead is trumped by seat 2: 120 points and 10 tricks.
        let mut rng = rng_from_seed(5);
        for bandeira in [Bandeira::Points, Bandeira::Tricks] {
            for _ in 0..200 {
                let cfg = SuecaConfig {
                    bandeira,
                    ..config()
                };
                let mut g = Sueca::from_deal(&cfg, SUITED).unwrap();
                while !g.is_terminal() {
                    g.play(g.legal_moves().random(&mut rng));
                }
                assert_eq!((g.points(0), g.tricks_won(0)), (120, 10));
                assert_eq!(g.match_units(0), Some(4.0));
                assert_eq!(g.match_units(1), Some(-4.0));
                assert_eq!((g.reward(2), g.reward(3)), (1.0, 0.0));
            }
        }
    }

    #[test]
    fn all_points_without_all_tricks_is_a_bandeira_only_by_points() {
        // Seat 0 holds nine hearts (trump) and 2C; its partner, dealer 2, holds the 2H. The first
        // trick is four blank clubs won by seat 3's 5C. Afterwards seat 0 has only hearts and the
        // one other heart is its partner's 2H, so seat 0 takes every other trick however anyone
        // plays: team 0 has 120 points in 9 tricks.
        let text = "dealer=2 trump=2H | AH 7H KH JH QH 6H 5H 4H 3H 2C \
            | 3C 6C 7C 2D 3D 4D 5D 6D 7D 2S | 2H 4C JC QC JD QD KD AD 3S 4S \
            | 5C KC AC 5S 6S 7S JS QS KS AS";
        let mut rng = rng_from_seed(8);
        for (bandeira, units) in [(Bandeira::Points, 4.0), (Bandeira::Tricks, 2.0)] {
            let cfg = SuecaConfig {
                bandeira,
                ..config()
            };
            for _ in 0..100 {
                let mut g = Sueca::from_deal(&cfg, text).unwrap();
                play_all(&mut g, "5C 2C 3C 4C");
                assert_eq!((g.current_seat(), g.points(1)), (3, 0));
                while !g.is_terminal() {
                    g.play(g.legal_moves().random(&mut rng));
                }
                assert_eq!((g.points(0), g.tricks_won(0), g.tricks_won(1)), (120, 9, 1));
                assert_eq!(g.match_units(0), Some(units));
                assert_eq!(g.match_units(1), Some(-units));
            }
        }
    }

    #[test]
    fn bad_deals_are_errors_that_name_the_problem() {
        let good = SPLIT;
        Sueca::from_deal(&config(), good).unwrap();
        let cases = [
            (
                good.replace("trump=AH", "trump=2D"),
                "not in the dealer's hand",
            ),
            (
                good.replace("dealer=0", "dealer=4"),
                "dealer=4 is not a seat",
            ),
            (good.replace("dealer=0 ", ""), "lacks 'dealer='"),
            (good.replace(" 2C |", " |"), "hand 0 has 9 cards"),
            (good.replace(" 2C |", " 2C 2D |"), "2D dealt twice"),
            (
                good.replace("2C |", "8C |"),
                "8C is not in the 40-card pack",
            ),
            (good.replace("2C |", "2C 2C |"), "2C appears twice"),
            (good.replace("2C |", "XC |"), "malformed card"),
            (
                good.replace("| 2S", "2S"),
                "expected 5 '|'-separated fields",
            ),
        ];
        for (text, needle) in cases {
            let e = Sueca::from_deal(&config(), &text)
                .expect_err(&text)
                .to_string();
            assert!(
                e.contains(needle),
                "{text}\n  gave: {e}\n  expected: {needle}"
            );
        }
        // A card moved from one hand to another: sizes are wrong though every card is dealt.
        let moved = good.replace("2C |", "2C 2D |").replace("| 2D", "|");
        let e = Sueca::from_deal(&config(), &moved).unwrap_err().to_string();
        assert!(e.contains("hand 0 has 11 cards, expected 10"), "{e}");
    }

    #[test]
    fn options_are_read_and_checked() {
        let cfg = Sueca::config(&"sueca:bandeira=tricks,dealer=1".parse().unwrap()).unwrap();
        assert_eq!(
            cfg,
            SuecaConfig {
                dealer: 1,
                bandeira: Bandeira::Tricks
            }
        );
        let mut rng = rng_from_seed(2);
        let g = Sueca::new_game(&cfg, &mut rng);
        assert_eq!((g.dealer(), g.current_seat()), (1, 2));
        assert!(g.hand(1).contains(g.trump_card()));
        assert!(Sueca::config(&"sueca:dealer=4".parse().unwrap()).is_err());
        assert!(Sueca::config(&"sueca:bandeira=flag".parse().unwrap()).is_err());
    }

    #[test]
    fn moves_parse_in_card_notation_and_reject_cards_outside_the_pack() {
        let g = deal(SPLIT);
        assert_eq!(g.parse_move("QC"), Ok(c("QC")));
        assert!(
            g.parse_move("9C")
                .unwrap_err()
                .contains("not in the 40-card pack")
        );
        // The message is about the move: no "invalid deal" (the protocol's `play` said
        // "bad move 'Q': invalid deal: move: malformed card 'Q' …").
        let q = g.parse_move("Q").unwrap_err();
        assert!(q.starts_with("malformed card 'Q'"), "{q}");
        let nine = g.parse_move("9C").unwrap_err();
        assert_eq!(nine, "9C is not in the 40-card pack (no 8, 9 or 10)");
    }

    #[test]
    fn the_trick_by_trick_playout_ends_where_move_by_move_play_does() {
        // From openings and from positions part-way through, mid-trick included, for every
        // dealer: the same generator must give the same final state (hands, played cards, voids,
        // tricks won, last trick's bookkeeping) as play() move by move with the draws restarted
        // at each trick, and leave the generator at the same point.
        let mut rng = rng_from_seed(23);
        for game in 0..3_000 {
            let cfg = SuecaConfig {
                dealer: game % SEATS,
                ..config()
            };
            let start = Sueca::new_game(&cfg, &mut rng);
            crate::game::assert_playout_matches_reference(
                start,
                &mut rng,
                40,
                game as u64,
                |g, r| crate::game::playout_by_moves_restarting(g, r, |g, _| g.trick().is_empty()),
            );
        }
    }

    /// The trick winner by the rules' text, independently of the bit tricks: the first trump in
    /// strength order, else the first card of the led suit.
    fn reference_winner(cards: &[(Seat, Card)], trump: Suit) -> Seat {
        const ORDER: &str = "A7KJQ65432";
        let rank_pos = |c: Card| ORDER.find(c.rank().letter()).unwrap();
        let led = cards[0].1.suit();
        let best_in = |suit: Suit| {
            cards
                .iter()
                .filter(|(_, c)| c.suit() == suit)
                .min_by_key(|(_, c)| rank_pos(*c))
                .map(|(s, _)| *s)
        };
        best_in(trump).or_else(|| best_in(led)).unwrap()
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let mut rng = rng_from_seed(11);
        let cfg = config();
        for game in 0..10_000 {
            let mut g = Sueca::new_game(&cfg, &mut rng);
            assert_eq!(Sueca::from_deal(&cfg, &g.deal_text()).unwrap(), g);
            assert!(g.hand(g.dealer()).contains(g.trump_card()));
            let start = g;
            let mut trick: Vec<(Seat, Card)> = Vec::new();
            let mut plies = 0;
            while !g.is_terminal() {
                let seat = g.current_seat();
                let moves = g.legal_moves();
                assert!(!moves.is_empty());
                assert!(g.hand(seat).is_superset(moves));
                // Following is compulsory exactly when the seat holds the led suit.
                if let Some(&(_, lead)) = trick.first() {
                    let follow = g.hand(seat).of_suit(lead.suit());
                    assert_eq!(
                        moves,
                        if follow.is_empty() {
                            g.hand(seat)
                        } else {
                            follow
                        }
                    );
                }
                let card = moves.random(&mut rng);
                g.play(card);
                trick.push((seat, card));
                plies += 1;
                if trick.len() == 4 {
                    assert_eq!(g.current_seat(), reference_winner(&trick, g.trump()));
                    trick.clear();
                }
            }
            assert_eq!(plies, 40);
            assert!(g.legal_moves().is_empty());
            let mut all = CardSet::EMPTY;
            for s in 0..SEATS {
                assert!(
                    (all & g.played(s)).is_empty(),
                    "game {game}: a card played twice"
                );
                assert_eq!(g.played(s), start.hand(s));
                all |= g.played(s);
            }
            assert_eq!(all, DECK);
            assert_eq!(g.won(0) | g.won(1), DECK);
            assert_eq!(g.points(0) + g.points(1), 120);
            assert_eq!(g.tricks_won(0) + g.tricks_won(1), 10);
            for s in 0..SEATS {
                assert_eq!(g.reward(s) + g.reward(s ^ 1), 1.0);
                assert_eq!(g.match_units(s), g.match_units(s ^ 2));
                assert_eq!(g.match_units(s).unwrap(), -g.match_units(s ^ 1).unwrap());
            }
        }
    }

    #[test]
    fn the_turned_up_card_stays_with_the_dealer_and_other_cards_spread_by_free_slots() {
        // From the opening, seat 0 does not see 30 cards; dealer 3's turned-up 7H is fixed, so
        // 29 cards fill 10 + 10 + 9 free slots and a given hidden card lands in seats 1, 2, 3
        // with probabilities 10/29, 10/29, 9/29. Over 29,000 samples the counts have means
        // 10,000, 10,000, 9,000 and sd ≤ 81; a margin of 490 is 6 sd.
        let g = deal(
            "dealer=3 trump=7H | 2C 3C 4C 5C 6C 7C JC QC KC AC | 2D 3D 4D 5D 6D 7D JD QD KD AD \
             | 2S 3S 4S 5S 6S 7S JS QS KS AS | 2H 3H 4H 5H 6H 7H JH QH KH AH",
        );
        let sampler = g.deal_sampler(0).unwrap();
        let mut rng = rng_from_seed(31);
        let mut counts = [0i64; SEATS];
        for _ in 0..29_000 {
            let d = sampler.sample(&mut rng);
            assert!(d.hand(3).contains(c("7H")));
            let holder = (1..SEATS).find(|&s| d.hand(s).contains(c("AD"))).unwrap();
            counts[holder] += 1;
        }
        for (seat, expected) in [(1, 10_000), (2, 10_000), (3, 9_000)] {
            assert!(
                (counts[seat] - expected).abs() < 490,
                "seat {seat}: {counts:?}"
            );
        }
    }

    #[test]
    fn determinizations_keep_what_the_observer_knows() {
        let mut rng = rng_from_seed(21);
        let cfg = config();
        for _ in 0..10_000 {
            let mut g = Sueca::new_game(&cfg, &mut rng);
            let plies = crate::cards::random_below(&mut rng, 40);
            for _ in 0..plies {
                g.play(g.legal_moves().random(&mut rng));
            }
            let observer = crate::cards::random_below(&mut rng, 4) as Seat;
            let sampler = g.deal_sampler(observer).unwrap();
            for _ in 0..5 {
                let d = sampler.sample(&mut rng);
                assert_eq!(d.hand(observer), g.hand(observer));
                let mut hidden = CardSet::EMPTY;
                for s in 0..SEATS {
                    assert_eq!(d.played(s), g.played(s));
                    assert_eq!(d.hand(s).len(), g.hand(s).len());
                    assert!((d.hand(s) & d.voids(s)).is_empty(), "void broken");
                    hidden |= d.hand(s);
                }
                assert_eq!(hidden, DECK - g.won(0) - g.won(1) - g.trick());
                if g.hand(g.dealer()).contains(g.trump_card()) {
                    assert!(d.hand(d.dealer()).contains(d.trump_card()));
                }
                // Everything but the hidden hands is untouched.
                let mut same = d;
                same.hands = g.hands;
                assert_eq!(same, g);
                // Legal moves of the seat to move agree when the observer is to move.
                if g.current_seat() == observer {
                    assert_eq!(d.legal_moves(), g.legal_moves());
                }
            }
        }
    }
}
