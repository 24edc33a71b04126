//! Bisca de nove: the Portuguese two-player game of the thesis (its `games/bisca.js`).
//!
//! The 40-card pack ([`portuguese`](super::portuguese)): nine cards each, the other 22 form the
//! stock, whose bottom card is turned face up; its suit is trump and it is the last card drawn.
//! While the stock has cards there is no obligation to follow suit; once it is empty a player must
//! follow the led suit if able (never obliged to beat or to trump). The highest trump wins the
//! trick, else the highest card of the led suit; the winner draws first, then the other player,
//! and the winner leads. Twenty tricks in all; 61+ card points wins, 60–60 is a tie; match units as
//! Sueca (61–90 → 1, 91–119 → 2, 120 → 4, or 4 for all twenty tricks with `bandeira=tricks`).
//!
//! With `exchange=true` the holder of the 2 of trumps may, on its turn and while the stock has at
//! least two cards, exchange it for the face-up card: a move of its own ([`BiscaMove::EXCHANGE`],
//! written `exchange`), after which the same player plays a card. The 2 becomes the face-up bottom
//! card and the card taken is known to be in the exchanger's hand.
//!
//! This module has the rules; `moves` the move and its set, `hidden` what a seat knows, how a
//! deal is rewound to its start, and the deals consistent with what a seat knows.
//!
//! # Deal notation
//!
//! `leader=L | hand0 | hand1 | stock`: the seat that leads the first trick, the two hands of nine
//! cards (any order), and the 22 stock cards **in draw order**: the first card written is drawn
//! first and the last one is the face-up bottom card, whose suit is trump. For example
//!
//! ```text
//! leader=0 | AC 7C KC JC QC 6C 5C 4C 3C | 3S 4S 5S 6S 7S JS QS KS AS | 2C 2H AH 3H … 2S 2D
//! ```
//!
//! [`GameDef::deal_text`] writes this form for a state that has not been played yet and
//! [`GameDef::from_deal`] reads it; the leader of the text wins over the `leader` option. Wrong
//! sizes, duplicate or missing cards and cards outside the pack are [`DealError::Invalid`] errors
//! that name the problem.
//!
//! ```
//! use cardsearch::games::{Bisca, GameDef};
//! use cardsearch::game::rng_from_seed;
//! use cardsearch::{Game, MoveSet};
//! let config = Bisca::config(&"bisca:exchange=true".parse().unwrap()).unwrap();
//! let mut rng = rng_from_seed(1);
//! let mut game = Bisca::new_game(&config, &mut rng);
//! assert_eq!(Bisca::from_deal(&config, &game.deal_text()).unwrap(), game);
//! while !game.is_terminal() {
//!     let mv = game.legal_moves().random(&mut rng);
//!     game.play(mv);
//! }
//! assert_eq!(game.score(0) + game.score(1), 120.0);
//! ```

use std::hint::select_unpredictable;
use std::sync::OnceLock;

use crate::cards::{Card, CardList, CardSet, Suit, random_below};
use crate::game::{DealError, Draws, Game, MoveSet, Rng, Seat};
use crate::search::opponent_model::{ModelFeatures, OpponentModel};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::portuguese::{self as pt, Bandeira, DECK};

mod hidden;
mod moves;
#[cfg(test)]
mod tests;

pub use moves::{BiscaMove, BiscaMoves};

/// Seats at the table.
pub const SEATS: usize = 2;
/// Cards per hand.
pub const HAND: usize = 9;
/// Cards in the stock at the start.
pub const STOCK: usize = 22;
/// Tricks in a deal.
pub const TRICKS: u32 = 20;

/// A Bisca position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bisca {
    hands: [CardSet; SEATS],
    /// Cards each seat has played.
    played: [CardSet; SEATS],
    /// Suits each seat has shown it lacks; recorded only once the stock is empty, since before
    /// that not following says nothing.
    voids: [CardSet; SEATS],
    /// Cards in the tricks each seat has taken.
    won: [CardSet; SEATS],
    /// Cards everyone saw go into each hand: the face-up card when drawn, the card taken in an
    /// exchange. What is still known to be there is `shown & hand`.
    shown: [CardSet; SEATS],
    /// The stock in draw order; `stock[next..]` is still there and `stock[STOCK - 1]` is the
    /// face-up card.
    stock: [Card; STOCK],
    next: u8,
    /// The card led to the current trick, if one has been.
    lead: Option<Card>,
    trump: Suit,
    to_move: u8,
    /// The seat that led the first trick (for the deal notation).
    first_leader: u8,
    /// Whether the exchange variant is on.
    exchange: bool,
    bandeira: Bandeira,
}

/// Everything the options decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BiscaConfig {
    /// The seat that leads the first trick of random deals.
    pub leader: Seat,
    /// The variant where the 2 of trumps may be exchanged for the face-up card.
    pub exchange: bool,
    /// What earns 4 match units.
    pub bandeira: Bandeira,
}

impl Bisca {
    /// A game from explicit hands, stock (in draw order, the face-up card last) and first leader;
    /// errors name what is wrong.
    pub fn from_parts(
        hands: [CardSet; SEATS],
        stock: [Card; STOCK],
        leader: Seat,
        config: &BiscaConfig,
    ) -> Result<Bisca, DealError> {
        if leader >= SEATS {
            return Err(DealError::Invalid(format!(
                "leader {leader} is not a seat (0..1)"
            )));
        }
        let stock_set = CardSet::from_cards(stock);
        pt::check_partition(&[
            ("hand 0", hands[0], HAND),
            ("hand 1", hands[1], HAND),
            ("the stock", stock_set, STOCK),
        ])?;
        Ok(Bisca {
            hands,
            played: [CardSet::EMPTY; SEATS],
            voids: [CardSet::EMPTY; SEATS],
            won: [CardSet::EMPTY; SEATS],
            shown: [CardSet::EMPTY; SEATS],
            stock,
            next: 0,
            lead: None,
            trump: stock[STOCK - 1].suit(),
            to_move: leader as u8,
            first_leader: leader as u8,
            exchange: config.exchange,
            bandeira: config.bandeira,
        })
    }

    /// A seat's hand (the true state: only the harness and cheating agents see the other hand).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The cards `seat` has played so far.
    pub fn played(&self, seat: Seat) -> CardSet {
        self.played[seat]
    }

    /// The suits `seat` is known to lack (only ever learned once the stock is empty).
    pub fn voids(&self, seat: Seat) -> CardSet {
        self.voids[seat]
    }

    /// The cards of `seat`'s hand that everyone knows are there (the face-up card it drew, the
    /// card it took in an exchange).
    pub fn known_in_hand(&self, seat: Seat) -> CardSet {
        self.shown[seat] & self.hands[seat]
    }

    /// The trump suit.
    pub fn trump(&self) -> Suit {
        self.trump
    }

    /// The face-up card while it is in the stock.
    pub fn face_up(&self) -> Option<Card> {
        (self.stock_len() > 0).then_some(self.stock[STOCK - 1])
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        STOCK - self.next as usize
    }

    /// The cards left in the stock, next to be drawn first (the true state).
    pub fn stock(&self) -> &[Card] {
        &self.stock[self.next as usize..]
    }

    /// The card led to the current trick, if any.
    pub fn lead(&self) -> Option<Card> {
        self.lead
    }

    /// The cards in the tricks `seat` has taken.
    pub fn won(&self, seat: Seat) -> CardSet {
        self.won[seat]
    }

    /// Card points `seat` has taken.
    pub fn points(&self, seat: Seat) -> u32 {
        pt::points(self.won[seat])
    }

    /// Tricks `seat` has taken.
    pub fn tricks_won(&self, seat: Seat) -> u32 {
        (self.won[seat].len() / SEATS) as u32
    }

    /// True when the exchange variant is on.
    pub fn exchange_allowed(&self) -> bool {
        self.exchange
    }

    /// What the learned opponent model reads of this position, from the mover's view:
    /// Sueca's tables with Bisca's own situations, leading or replying, while the stock lasts
    /// (no obligation to follow) or after (follow suit, voids shown).
    fn model_view(&self) -> pt::ModelView {
        let hand = self.hands[self.to_move as usize];
        let stock_empty = self.next as usize == STOCK;
        pt::ModelView {
            hand,
            situation: usize::from(self.lead.is_some()) + 2 * usize::from(stock_empty),
            leading: self.lead.is_none(),
            trick: self.lead.map(|lead| pt::TrickSoFar {
                best: lead,
                partner_winning: false,
                points: pt::card_points(lead),
                last: true,
            }),
            void: stock_empty
                && self
                    .lead
                    .is_some_and(|lead| (hand & pt::suit_mask(lead)).is_empty()),
            trump: self.trump,
            gone: self.played[0] | self.played[1],
        }
    }

    #[inline]
    fn play_card(&mut self, card: Card) {
        if let Some(winner) = self.play_to_trick(card) {
            let n = self.next as usize;
            if n < STOCK {
                self.hands[winner].insert(self.stock[n]);
                self.hands[winner ^ 1].insert(self.stock[n + 1]);
                self.next += 2;
                if n + 2 == STOCK {
                    // The loser drew the face-up card in plain sight.
                    self.shown[winner ^ 1].insert(self.stock[STOCK - 1]);
                }
            }
        }
    }

    /// Plays `card` to the trick, without the draws that follow a trick; returns the trick's
    /// winner when the card completes it.
    #[inline]
    fn play_to_trick(&mut self, card: Card) -> Option<Seat> {
        let p = self.to_move as usize;
        self.hands[p].remove(card);
        self.played[p].insert(card);
        let Some(lead) = self.lead else {
            self.lead = Some(card);
            self.to_move ^= 1;
            return None;
        };
        if self.next as usize == STOCK && card.suit() != lead.suit() {
            self.voids[p] |= pt::suit_mask(lead);
        }
        let winner = if pt::beats(card, lead, self.trump) {
            p
        } else {
            p ^ 1
        };
        self.won[winner] |= card.set() | lead.set();
        self.lead = None;
        self.to_move = winner as u8;
        Some(winner)
    }

    /// A random move of `seat`, whose hand is `hand` (and `list`, the same cards as a
    /// [`CardList`]), while the stock lasts, as `playout_by_moves` draws it: a card of the hand,
    /// taken out of both, or (variant on, 2 of trumps in hand) the exchange, which is made at
    /// once, after which the seat moves again.
    #[inline(always)]
    fn random_stock_phase_card(
        &mut self,
        hand: &mut CardSet,
        list: &mut CardList,
        seat: usize,
        draws: &mut Draws,
        rng: &mut Rng,
    ) -> Card {
        let two = pt::two_of(self.trump);
        // The 2 of trumps' bit if the variant is on, else nothing.
        let exchanger = (self.exchange as u64) << two.index();
        loop {
            let exchange = hand.0 & exchanger != 0;
            let cards = hand.len();
            // The exchange, when allowed, is the last move in order (its bit is above every
            // card's).
            let k = draws.below(rng, (cards + exchange as usize) as u32) as usize;
            if k < cards {
                let card = list.take(k);
                hand.remove(card);
                return card;
            }
            let face_up = self.stock[STOCK - 1];
            hand.remove(two);
            hand.insert(face_up);
            *list = CardList::new(*hand);
            self.shown[seat].insert(face_up);
            self.stock[STOCK - 1] = two;
        }
    }

    fn play_exchange(&mut self) {
        let p = self.to_move as usize;
        let two = pt::two_of(self.trump);
        let face_up = self.stock[STOCK - 1];
        self.hands[p].remove(two);
        self.hands[p].insert(face_up);
        self.shown[p].insert(face_up);
        self.stock[STOCK - 1] = two;
    }
}

impl Game for Bisca {
    /// NAST with UCB1 playouts (the thesis's best for Bisca) and positive win or loss: at 20 ms
    /// a move it beat the general preset by 46 Elo, whose margin reward buys card points but
    /// not wins here; with inference by the learned model (the pasts of the draws drawn, see
    /// [`HiddenInfo::rewind`](crate::game::HiddenInfo::rewind)) it beat NAST UCB1 alone by
    /// 19 Elo (+3 … +36, 600 deals) at 16,000 iterations and by 24 at 200 ms a move; the same model as a progressive-bias prior
    /// in selection (`prior=64`) beat that preset by 60 Elo at 16,000 iterations and
    /// NAST UCB1 by 57 at 20 ms and by 80 at 200 ms a move (docs/results.md).
    const STRONG_PRESET: &'static str = "playout=nast,policy=ucb1,reward=pwl,infer=1000,\
         infer_model=learned,infer_eps=0.1,prior=64";

    fn exact() -> Option<&'static dyn crate::solver::Endgame<Bisca>> {
        Some(&crate::solver::Exact::<Bisca>::NEW)
    }

    type Move = BiscaMove;
    type Moves = BiscaMoves;

    fn num_seats(&self) -> usize {
        SEATS
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.to_move as Seat
    }

    #[inline]
    fn legal_moves(&self) -> BiscaMoves {
        let hand = self.hands[self.to_move as usize];
        let mut moves = hand;
        if self.next as usize == STOCK {
            if let Some(lead) = self.lead {
                let follow = hand & pt::suit_mask(lead);
                if !follow.is_empty() {
                    moves = follow;
                }
            }
        } else if self.exchange && hand.contains(pt::two_of(self.trump)) {
            // The stock holds an even number of cards, so "not empty" is "at least two".
            return BiscaMoves::new(moves, true);
        }
        BiscaMoves::new(moves, false)
    }

    #[inline]
    fn play(&mut self, mv: BiscaMove) {
        debug_assert!(self.legal_moves().contains(mv), "illegal {mv}");
        match mv.card() {
            Some(card) => self.play_card(card),
            None => self.play_exchange(),
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        // The seat to move has not played to this trick and both hands are refilled equally, so
        // its hand is empty only when both are.
        self.hands[self.to_move as usize].is_empty()
    }

    /// Finishes the trick in progress move by move, then plays whole tricks (a lead and a
    /// reply), first while the stock lasts (no obligation to follow, both seats draw), then to the
    /// end (follow suit, voids shown), ending in the state `playout_by_moves` reaches. The
    /// trick's shape is known, so there is no branch on leading or on who wins it (a compare of
    /// trick ranks and selects instead); the two hands, and their [`CardList`]s from which a
    /// legal set's `k`-th card is read at a position the hand's counts give, live in registers
    /// and change places by selects. (Unlike Sueca and Hearts, it does not restart its draws at
    /// each trick: with two draws a trick that wastes half of every generator output, and it
    /// measured no faster.)
    fn random_playout(&mut self, rng: &mut Rng) {
        let mut draws = Draws::new();
        while self.lead.is_some() {
            let mv = draws.pick(rng, &self.legal_moves());
            self.play(mv);
        }
        let trump = self.trump;
        let mut played = self.played;
        let mut voids = self.voids;
        let mut leader = self.to_move as usize;
        // The leader's hand and the other's, in registers: after a trick the winner's becomes
        // the leader's by a select, with no store and reload through a hand slot on the path
        // from one trick to the next.
        let (mut lh, mut oh) = (self.hands[leader], self.hands[leader ^ 1]);
        // The same hands as lists in card order: a legal set's `k`-th card is at the position
        // the hand's own counts give, read with a shift, not found by a select.
        let (mut ll, mut ol) = (CardList::new(lh), CardList::new(oh));
        // Cards taken from here on, and those of them seat 0 took.
        let (mut taken, mut won0) = (0u64, 0u64);
        let mut next = self.next as usize;
        while next < STOCK {
            let other = leader ^ 1;
            let lead = self.random_stock_phase_card(&mut lh, &mut ll, leader, &mut draws, rng);
            played[leader].insert(lead);
            let reply = self.random_stock_phase_card(&mut oh, &mut ol, other, &mut draws, rng);
            played[other].insert(reply);
            let follows = (lead.index() ^ reply.index()) >> 4 == 0;
            let other_wins =
                pt::trick_rank(reply, follows, trump) > pt::trick_rank(lead, true, trump);
            let winner = select_unpredictable(other_wins, other, leader);
            let trick = lead.set().0 | reply.set().0;
            taken |= trick;
            won0 |= select_unpredictable(winner == 0, trick, 0);
            // The winner draws first.
            let (mut win_hand, mut lose_hand) = (
                select_unpredictable(other_wins, oh, lh),
                select_unpredictable(other_wins, lh, oh),
            );
            let (mut win_list, mut lose_list) = (
                select_unpredictable(other_wins, ol, ll),
                select_unpredictable(other_wins, ll, ol),
            );
            let (drawn, other_drawn) = (self.stock[next], self.stock[next + 1]);
            let place = |hand: CardSet, card: Card| (hand.0 & (card.set().0 - 1)).count_ones();
            win_list.insert(place(win_hand, drawn) as usize, drawn);
            lose_list.insert(place(lose_hand, other_drawn) as usize, other_drawn);
            win_hand.insert(drawn);
            lose_hand.insert(other_drawn);
            (lh, oh, ll, ol) = (win_hand, lose_hand, win_list, lose_list);
            next += 2;
            leader = winner;
            if next == STOCK {
                // The loser drew the face-up card in plain sight.
                self.shown[winner ^ 1].insert(self.stock[STOCK - 1]);
            }
        }
        // One trick after the stock; with `$last` (a constant) each hand holds one card, both
        // moves are forced, and they take their draws but need no select.
        macro_rules! trick {
            ($last:expr) => {
                let other = leader ^ 1;
                let k = draws.below(rng, lh.len() as u32) as usize;
                let lead = if $last { lh.lowest() } else { ll.take(k) };
                lh.remove(lead);
                played[leader].insert(lead);
                let led_suit = pt::suit_mask(lead).0;
                let follow = oh.0 & led_suit;
                let legal = CardSet(select_unpredictable(follow == 0, oh.0, follow));
                let k = draws.below(rng, legal.len() as u32) as usize;
                let reply = if $last {
                    legal.lowest()
                } else {
                    // The led suit's cards are together in the list, after those of the lanes
                    // below it; a void hand may play any card.
                    let below = (oh.0 & ((1 << (lead.index() & 0x30)) - 1)).count_ones() as usize;
                    ol.take(k + select_unpredictable(follow == 0, 0, below))
                };
                oh.remove(reply);
                played[other].insert(reply);
                // The reply follows exactly when the hand has the led suit, and shows a void
                // exactly when it has none.
                voids[other].0 |= select_unpredictable(follow == 0, led_suit, 0);
                let other_wins =
                    pt::trick_rank(reply, follow != 0, trump) > pt::trick_rank(lead, true, trump);
                let trick = lead.set().0 | reply.set().0;
                taken |= trick;
                leader = select_unpredictable(other_wins, other, leader);
                won0 |= select_unpredictable(leader == 0, trick, 0);
                (lh, oh) = (
                    select_unpredictable(other_wins, oh, lh),
                    select_unpredictable(other_wins, lh, oh),
                );
                // (The last trick leaves the lists, which nothing reads after it.)
                #[allow(unused_assignments)]
                if !$last {
                    (ll, ol) = (
                        select_unpredictable(other_wins, ol, ll),
                        select_unpredictable(other_wins, ll, ol),
                    );
                }
            };
        }
        // Both hands hold one card per trick left.
        let tricks = lh.len();
        for _ in 1..tricks {
            trick!(false);
        }
        if tricks > 0 {
            trick!(true);
        }
        self.hands[leader] = lh;
        self.hands[leader ^ 1] = oh;
        self.played = played;
        self.voids = voids;
        self.won[0].0 |= won0;
        self.won[1].0 |= taken & !won0;
        self.next = next as u8;
        self.to_move = leader as u8;
    }

    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        pt::reward(self.points(seat))
    }

    fn score(&self, seat: Seat) -> f64 {
        self.points(seat) as f64
    }

    fn margin(&self, seat: Seat) -> f64 {
        pt::margin(self.points(seat))
    }

    fn match_units(&self, seat: Seat) -> Option<f64> {
        Some(pt::match_units(
            self.points(seat),
            self.tricks_won(seat),
            TRICKS,
            self.bandeira,
        ))
    }

    fn tricks_completed(&self) -> Option<u32> {
        Some(self.tricks_won(0) + self.tricks_won(1))
    }

    fn trick_position(&self) -> Option<usize> {
        Some(usize::from(self.lead.is_some()))
    }

    const HAS_HEURISTIC: bool = true;

    fn heuristic_move(&self, rng: &mut Rng) -> BiscaMove {
        let moves = self.legal_moves();
        // Taking the face-up trump for the 2 is never worse in card terms.
        if moves.contains(BiscaMove::EXCHANGE) {
            return BiscaMove::EXCHANGE;
        }
        let trick = self.lead.map(|lead| pt::TrickSoFar {
            best: lead,
            partner_winning: false,
            points: pt::card_points(lead),
            last: true,
        });
        BiscaMove::play(pt::heuristic_card(moves.cards(), trick, self.trump, rng))
    }

    /// Sueca's four tables read with Bisca's own situations: leading or replying, while the
    /// stock lasts (no obligation to follow) or after (follow suit, voids shown). The exchange
    /// has no features: a history with one is searched uniformly.
    fn model_features(&self, mv: BiscaMove) -> Option<ModelFeatures> {
        Some(self.model_view().features(mv.card()?))
    }

    fn visit_model_features(&self, mut visit: impl FnMut(BiscaMove, ModelFeatures)) -> bool {
        let legal = self.legal_moves();
        if legal.has_exchange() {
            return false;
        }
        let view = self.model_view();
        for card in legal.cards().iter() {
            visit(BiscaMove::play(card), view.features(card));
        }
        true
    }

    fn opponent_model() -> Option<&'static OpponentModel> {
        static MODEL: OnceLock<OpponentModel> = OnceLock::new();
        Some(OpponentModel::embedded(
            &MODEL,
            include_str!("../../../models/bisca-opponent.txt"),
            pt::MODEL_PARAMS,
            "bisca-opponent.txt",
        ))
    }

    fn model_params() -> usize {
        pt::MODEL_PARAMS
    }

    fn parse_move(&self, text: &str) -> Result<BiscaMove, String> {
        if text.trim().eq_ignore_ascii_case("exchange") {
            return Ok(BiscaMove::EXCHANGE);
        }
        pt::pack_card(text)
            .map(BiscaMove::play)
            .map_err(|e| format!("{e} (or 'exchange')"))
    }
}

impl GameDef for Bisca {
    const NAME: &'static str = "bisca";
    const ABOUT: &'static str = "2 players, 40 cards, 9 each and a 22-card stock with trump face up at \
         the bottom; follow suit only once the stock is empty; 61+ of 120 card points wins";
    const OPTIONS: &'static [OptionDoc] = &[
        OptionDoc {
            key: "leader",
            default: "0",
            help: "the seat (0 or 1) that leads the first trick of random deals",
        },
        OptionDoc {
            key: "exchange",
            default: "false",
            help: "the holder of the 2 of trumps may exchange it for the face-up card while the \
                   stock has at least 2 cards (move 'exchange')",
        },
        OptionDoc {
            key: "bandeira",
            default: "points",
            help: "what earns 4 match units: all 120 points (points) or all 20 tricks (tricks)",
        },
    ];
    type Config = BiscaConfig;

    fn config(spec: &Spec) -> Result<BiscaConfig, SpecError> {
        let leader = spec.seat("leader", 0, SEATS)?;
        Ok(BiscaConfig {
            leader,
            exchange: spec.get("exchange", false)?,
            bandeira: Bandeira::from_spec(spec)?,
        })
    }

    fn new_game(config: &BiscaConfig, rng: &mut Rng) -> Bisca {
        let mut cards = [Card::new(crate::cards::Rank::Two, Suit::Clubs); 40];
        for (slot, card) in cards.iter_mut().zip(DECK) {
            *slot = card;
        }
        for i in (1..cards.len()).rev() {
            let j = random_below(rng, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        let hand = |k: usize| CardSet::from_cards(cards[k * HAND..(k + 1) * HAND].iter().copied());
        let mut stock = [cards[0]; STOCK];
        stock.copy_from_slice(&cards[SEATS * HAND..]);
        Bisca::from_parts([hand(0), hand(1)], stock, config.leader, config)
            .expect("a split of the pack")
    }

    fn from_deal(config: &BiscaConfig, deal: &str) -> Result<Bisca, DealError> {
        let parts = pt::split_parts(deal, 4)?;
        let [leader] = pt::parse_header(parts[0], ["leader"])?;
        let leader = pt::parse_seat(leader, "leader", SEATS)?;
        let hands = [
            pt::parse_hand(parts[1], "hand 0")?,
            pt::parse_hand(parts[2], "hand 1")?,
        ];
        let mut stock = [DECK.first().expect("a card"); STOCK];
        let n = pt::parse_card_list(parts[3], "the stock", &mut stock)?;
        if n != STOCK {
            return Err(DealError::Invalid(format!(
                "the stock has {n} cards, expected {STOCK}"
            )));
        }
        Bisca::from_parts(hands, stock, leader, config)
    }

    fn deal_text(&self) -> String {
        let stock: Vec<String> = self.stock.iter().map(Card::to_string).collect();
        format!(
            "leader={} | {} | {} | {}",
            self.first_leader,
            self.hands[0],
            self.hands[1],
            stock.join(" ")
        )
    }

    fn hand_text(&self, seat: Seat) -> Option<String> {
        Some(self.hands[seat].to_string())
    }

    fn table_text(&self, observer: Seat) -> Option<String> {
        let stock = match self.face_up() {
            Some(card) => format!("{card} face up, {} cards in the stock", self.stock_len()),
            None => "the stock is out".to_string(),
        };
        // Cards everyone saw go into the other hand (the face-up card drawn, an exchange).
        let known = self.known_in_hand(observer ^ 1);
        let known = if known.is_empty() {
            String::new()
        } else {
            format!("; seat {} holds {known}", observer ^ 1)
        };
        Some(format!("trump {}: {stock}{known}", self.trump.symbol()))
    }
}
