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

use std::fmt;
use std::hint::select_unpredictable;
use std::sync::OnceLock;

use crate::cards::{Card, CardList, CardSet, Suit, random_below};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, Draws, Game, HiddenInfo, MoveSet, Rng, Seat, Seen, TreeMove};
use crate::search::opponent_model::{ModelFeatures, OpponentModel};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::portuguese::{self as pt, Bandeira, DECK};
use super::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

/// Seats at the table.
pub const SEATS: usize = 2;
/// Cards per hand.
pub const HAND: usize = 9;
/// Cards in the stock at the start.
pub const STOCK: usize = 22;
/// Tricks in a deal.
pub const TRICKS: u32 = 20;

/// The bit of a [`BiscaMoves`] set that stands for the exchange: bit 63 is no card (ranks use
/// the low 13 bits of each 16-bit lane), so the exchange rides along in the same `u64`.
const EXCHANGE_BIT: u8 = 63;

/// One Bisca move: play a card, or exchange the 2 of trumps for the face-up card.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BiscaMove(u8);

impl BiscaMove {
    /// Exchange the 2 of trumps in hand for the face-up card (variant `exchange=true`).
    pub const EXCHANGE: BiscaMove = BiscaMove(EXCHANGE_BIT);

    /// Playing `card`.
    #[inline]
    pub const fn play(card: Card) -> BiscaMove {
        BiscaMove(card.index())
    }

    /// The card played, or `None` for the exchange.
    #[inline]
    pub const fn card(self) -> Option<Card> {
        if self.0 == EXCHANGE_BIT {
            None
        } else {
            Card::from_index(self.0)
        }
    }

    /// True for the exchange.
    #[inline]
    pub const fn is_exchange(self) -> bool {
        self.0 == EXCHANGE_BIT
    }
}

impl From<Card> for BiscaMove {
    fn from(card: Card) -> BiscaMove {
        BiscaMove::play(card)
    }
}

impl fmt::Display for BiscaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.card() {
            Some(card) => write!(f, "{card}"),
            None => write!(f, "exchange"),
        }
    }
}

impl fmt::Debug for BiscaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of Bisca moves: the playable cards, plus the exchange when it is allowed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BiscaMoves(u64);

impl BiscaMoves {
    /// The cards that may be played.
    #[inline]
    pub const fn cards(self) -> CardSet {
        CardSet(self.0 & !(1 << EXCHANGE_BIT))
    }

    /// True when the exchange is among the moves.
    #[inline]
    pub const fn has_exchange(self) -> bool {
        self.0 >> EXCHANGE_BIT & 1 != 0
    }
}

impl MoveSet<BiscaMove> for BiscaMoves {
    #[inline]
    fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    fn contains(&self, mv: BiscaMove) -> bool {
        self.0 >> mv.0 & 1 != 0
    }
    #[inline]
    fn nth(&self, k: usize) -> BiscaMove {
        // CardSet's select works on the raw bits, so the exchange bit is selected like a card.
        BiscaMove(CardSet(self.0).nth(k).index())
    }
    #[inline]
    fn random(&self, rng: &mut Rng) -> BiscaMove {
        BiscaMove(CardSet(self.0).random(rng).index())
    }
    #[inline]
    fn for_each(&self, mut f: impl FnMut(BiscaMove)) {
        let mut bits = self.0;
        while bits != 0 {
            f(BiscaMove(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }
    #[inline]
    fn bits(&self) -> u64 {
        self.0
    }
}

impl TreeMove for BiscaMove {
    type Mask = u64;
    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }
    #[inline]
    fn from_bit(bit: u32) -> BiscaMove {
        BiscaMove(bit as u8)
    }
}

impl fmt::Display for BiscaMoves {
    /// The cards as a [`CardSet`] writes them, then `exchange` if it is allowed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.cards().is_empty(), self.has_exchange()) {
            (false, true) => write!(f, "{} exchange", self.cards()),
            (true, true) => write!(f, "exchange"),
            _ => write!(f, "{}", self.cards()),
        }
    }
}

impl fmt::Debug for BiscaMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

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
            ("hand 0".to_string(), hands[0], HAND),
            ("hand 1".to_string(), hands[1], HAND),
            ("the stock".to_string(), stock_set, STOCK),
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
    /// [`HiddenInfo::rewind`]) it beat NAST UCB1 alone by 19 Elo (+3 … +36, 600 deals) at
    /// 16,000 iterations and by 24 at 200 ms a move; the same model as a progressive-bias prior
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
            return BiscaMoves(moves.0 | 1 << EXCHANGE_BIT);
        }
        BiscaMoves(moves.0)
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
            include_str!("../../models/bisca-opponent.txt"),
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

impl HiddenInfo for Bisca {
    type InfoSet = CardInfoSet<Bisca>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Bisca> {
        CardInfoSet::of(self, observer)
    }

    fn can_rewind(&self) -> bool {
        !self.exchange
    }

    /// Draws the past the state does not keep: which card each seat drew after each trick.
    /// Replaying `history` gives each card's trick and each trick's winner (who drew first);
    /// then, for each seat, the draw slots are filled from the last back, each with a card
    /// the seat held and played after that draw (or holds still), uniformly among those not
    /// yet placed, and the nine left are its hand as dealt. Going from the last draw back, the
    /// cards a slot may take are those of the later slots and more, and how many there are
    /// does not depend on the earlier choices, so every consistent past is equally likely
    /// (the face-up card, drawn in sight by the last trick's loser, is fixed). `None` with the
    /// exchange variant on, or for a history that does not lead here.
    fn rewind(&self, history: &[Seen<BiscaMove>], rng: &mut Rng) -> Option<Bisca> {
        if self.exchange {
            return None;
        }
        // Cards played in each trick, and who won each trick.
        let mut played_in = [CardSet::EMPTY; TRICKS as usize];
        let mut winners = [0usize; TRICKS as usize];
        let (mut trick, mut leader, mut lead) = (0, self.first_leader as usize, None);
        for &(seat, mv) in history {
            let card = mv?.card()?;
            if trick >= TRICKS as usize {
                return None;
            }
            played_in[trick].insert(card);
            match lead {
                None if seat == leader => lead = Some(card),
                Some(led) if seat == leader ^ 1 => {
                    leader = if pt::beats(card, led, self.trump) {
                        seat
                    } else {
                        leader
                    };
                    winners[trick] = leader;
                    trick += 1;
                    lead = None;
                }
                _ => return None,
            }
        }
        let rounds = self.next as usize / 2;
        if trick.min(STOCK / 2) != rounds
            || leader != self.to_move as usize ^ usize::from(lead.is_some())
        {
            return None;
        }
        let mut stock = self.stock;
        let mut hands = [CardSet::EMPTY; SEATS];
        for (seat, hand) in hands.iter_mut().enumerate() {
            let mut left = self.hands[seat] | self.played[seat];
            // The cards played by the end of trick k: none of them was drawn after it.
            let mut gone_by = played_in[..rounds]
                .iter()
                .fold(CardSet::EMPTY, |a, &t| a | t);
            for k in (0..rounds).rev() {
                let slot = 2 * k + usize::from(seat != winners[k]);
                let card = if slot == STOCK - 1 {
                    stock[STOCK - 1]
                } else {
                    let eligible = left - gone_by;
                    if eligible.is_empty() {
                        return None;
                    }
                    eligible.random(rng)
                };
                if !left.contains(card) {
                    return None;
                }
                left.remove(card);
                stock[slot] = card;
                gone_by -= played_in[k];
            }
            *hand = left;
        }
        let config = BiscaConfig {
            leader: self.first_leader as Seat,
            exchange: false,
            bandeira: self.bandeira,
        };
        Bisca::from_parts(hands, stock, self.first_leader as Seat, &config).ok()
    }

    fn possible_moves(&self, _observer: Seat) -> BiscaMoves {
        // Every seat draws unseen cards from the stock, the observer too, so no hand is the
        // same in every determinization: any card still out, less the suits the mover has shown
        // void in (recorded once the stock is empty), and the exchange while the stock lasts.
        let mover = self.to_move as usize;
        let unplayed = DECK - self.played[0] - self.played[1] - self.voids[mover];
        let exchange = (self.exchange && (self.next as usize) < STOCK) as u64;
        BiscaMoves(unplayed.0 | exchange << EXCHANGE_BIT)
    }
}

impl Bisca {
    /// Cards `seat` holds: nine, plus one per stock trick, minus those played.
    fn hand_size(&self, seat: Seat) -> usize {
        HAND + self.next as usize / 2 - self.played[seat].len()
    }

    /// In a public part, the stock slots nobody has seen (those drawn, and those still face
    /// down) all hold the face-up card: a fixed filler, so that public parts that differ only
    /// in unseen cards are equal. Play never reads them.
    fn blank_stock(&mut self) {
        let face_up = self.stock[STOCK - 1];
        self.stock[..STOCK - 1].fill(face_up);
    }
}

/// What a seat of Bisca sees: its own hand and the cards it drew, the face-up trump card while it
/// is in the stock, every card played and by whom, the cards everyone saw go into the other hand
/// (the face-up card drawn last, a card taken in an exchange), and, once the stock is empty, the
/// voids shown by failing to follow. The other hand's remaining cards and the stock's order are
/// unseen; the order in which cards were drawn in the past is not kept at all.
/// Calls `f` with every order of `cards[..k]` (Heap's algorithm), `cards` itself first.
fn for_each_permutation(cards: &mut [Card], k: usize, f: &mut dyn FnMut(&[Card])) {
    if k <= 1 {
        f(cards);
        return;
    }
    for i in 0..k - 1 {
        for_each_permutation(cards, k - 1, f);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        cards.swap(j, k - 1);
    }
    for_each_permutation(cards, k - 1, f);
}

impl HiddenCards for Bisca {
    fn public_part(&self, observer: Seat) -> Bisca {
        let mut public = *self;
        let opponent = observer ^ 1;
        public.hands[opponent] = self.known_in_hand(opponent);
        public.blank_stock();
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let opponent = observer ^ 1;
        let known = self.hands[opponent];
        let face_up = self.face_up().map_or(CardSet::EMPTY, Card::set);
        let mut unseen = Unseen::NONE;
        unseen.unknown =
            DECK - self.hands[observer] - self.played[0] - self.played[1] - known - face_up;
        let size = self
            .hand_size(opponent)
            .checked_sub(known.len())
            .ok_or_else(|| {
                DealError::Inconsistent(format!("seat {opponent} holds fewer cards than known"))
            })?;
        unseen.add(Some(opponent), size, DECK - self.voids[opponent], known);
        unseen.add(
            None,
            self.stock_len().saturating_sub(1),
            DECK,
            CardSet::EMPTY,
        );
        Ok(unseen)
    }

    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], rng: &mut Rng) -> Bisca {
        let mut state = *self;
        state.hands[observer ^ 1] = parts[0];
        let start = state.next as usize;
        if start < STOCK {
            // Every slot but the face-up bottom one, then a Fisher–Yates shuffle of them.
            let slots = &mut state.stock[start..STOCK - 1];
            for (slot, card) in slots.iter_mut().zip(parts[1]) {
                *slot = card;
            }
            for i in (1..slots.len()).rev() {
                let j = random_below(rng, i as u32 + 1) as usize;
                slots.swap(i, j);
            }
        }
        state
    }

    fn completions(&self, _observer: Seat) -> u128 {
        (1..self.stock_len().saturating_sub(1) as u128).fold(1u128, |f, k| f.saturating_mul(k + 1))
    }

    /// Every order of the hidden stock (all but its face-up bottom card).
    fn for_each_completion(
        &self,
        observer: Seat,
        parts: &[CardSet; MAX_HOLDERS],
        f: &mut dyn FnMut(Bisca),
    ) -> bool {
        let mut state = *self;
        state.hands[observer ^ 1] = parts[0];
        let start = (state.next as usize).min(STOCK - 1);
        let mut cards = state.stock;
        let hidden = &mut cards[start..STOCK - 1];
        for (slot, card) in hidden.iter_mut().zip(parts[1]) {
            *slot = card;
        }
        let k = hidden.len();
        for_each_permutation(hidden, k, &mut |order| {
            state.stock[start..STOCK - 1].copy_from_slice(order);
            f(state);
        });
        true
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        Some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        (self.played[0] | self.played[1]) == DECK
    }

    fn card_of(mv: BiscaMove) -> Option<Card> {
        mv.card()
    }

    fn observe_public(
        &mut self,
        observer: Seat,
        seat: Seat,
        mv: Option<BiscaMove>,
        hand_after: Option<CardSet>,
    ) -> Result<(), DealError> {
        let bad = |m: String| Err(DealError::Inconsistent(m));
        let o = observer;
        let Some(mv) = mv else {
            return bad("every Bisca move is seen".into());
        };
        let Some(card) = mv.card() else {
            // The exchange: the 2 of trumps for the face-up card, in plain sight.
            let two = pt::two_of(self.trump);
            if seat != o {
                if !self.exchange || self.stock_len() < 2 {
                    return bad("no exchange is allowed now".into());
                }
                if !self.unseen(o)?.possible_for(seat).contains(two) {
                    return bad(format!("seat {seat} cannot hold {two} to exchange"));
                }
                self.hands[seat].insert(two);
            }
            self.play_exchange();
            self.blank_stock();
            return check_no_new_cards(hand_after, self.hands[o]);
        };
        let before = self.unseen(o)?;
        let n = self.next as usize;
        self.hands[seat].insert(card);
        let winner = self.play_to_trick(card);
        match winner {
            Some(winner) if n < STOCK => {
                let face_up = self.stock[STOCK - 1];
                let last = n + 2 == STOCK;
                let loser = winner ^ 1;
                // The face-up card goes, in plain sight, to the loser of the last stock trick.
                if last {
                    self.hands[loser].insert(face_up);
                    self.shown[loser].insert(face_up);
                }
                if !(last && loser == o) {
                    // The observer's own draw: only its hand shows which card it was.
                    let Some(after) = hand_after else {
                        return bad(format!(
                            "seat {o} draws a card after this trick: give its hand after the draw"
                        ));
                    };
                    let drawn = after - self.hands[o];
                    if !after.is_superset(self.hands[o])
                        || drawn.len() != 1
                        || !before.unknown.is_superset(drawn)
                    {
                        return bad(format!(
                            "seat {o} holds {} and draws one card from the stock: {after} is \
                             not such a hand",
                            self.hands[o]
                        ));
                    }
                    self.hands[o] = after;
                }
                self.next += 2;
                check_no_new_cards(hand_after, self.hands[o])?;
            }
            _ => check_no_new_cards(hand_after, self.hands[o])?,
        }
        self.blank_stock();
        Ok(())
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

    fn mv(s: &str) -> BiscaMove {
        if s == "exchange" {
            BiscaMove::EXCHANGE
        } else {
            BiscaMove::play(c(s))
        }
    }

    fn deal_with(config: &BiscaConfig, text: &str) -> Bisca {
        Bisca::from_deal(config, text).unwrap()
    }

    fn deal(text: &str) -> Bisca {
        deal_with(&BiscaConfig::default(), text)
    }

    fn play_all(g: &mut Bisca, moves: &str) {
        for m in moves.split_whitespace() {
            let m = mv(m);
            assert!(
                g.legal_moves().contains(m),
                "{m} is not legal for seat {} (legal: {})",
                g.current_seat(),
                g.legal_moves()
            );
            g.play(m);
        }
    }

    /// Seat 0 holds nine clubs; the stock gives seat 0 (drawing first while it wins) the 2C, the
    /// AH and the diamonds 3D..AD, and seat 1 the other hearts and the 2S; the face-up card is
    /// the 2D, so diamonds are trump. Seat 1 starts with nine spades.
    const LADDER: &str = "leader=0 | AC 7C KC JC QC 6C 5C 4C 3C | 3S 4S 5S 6S 7S JS QS KS AS \
        | 2C 2H AH 3H 3D 4H 4D 5H 5D 6H 6D 7H 7D JH JD QH QD KH KD 2S AD 2D";

    #[test]
    fn the_winner_draws_first_and_leads() {
        let mut g = deal(LADDER);
        assert_eq!(
            (g.current_seat(), g.trump(), g.face_up()),
            (0, Suit::Diamonds, Some(c("2D")))
        );
        // Seat 0 leads AC; seat 1 may throw anything (no obligation while the stock lasts).
        play_all(&mut g, "AC");
        assert_eq!(g.legal_moves().cards(), g.hand(1));
        play_all(&mut g, "3S");
        assert_eq!((g.current_seat(), g.points(0)), (0, 11));
        assert!(g.hand(0).contains(c("2C")), "the winner drew the top card");
        assert!(g.hand(1).contains(c("2H")), "the loser drew the next one");
        assert_eq!(g.stock_len(), 20);
        assert_eq!((g.hand(0).len(), g.hand(1).len()), (9, 9));
        // A low club still wins against a card of another plain suit; seat 0 drew the AH.
        play_all(&mut g, "2C 2H");
        assert_eq!(g.current_seat(), 0);
        assert!(g.hand(0).contains(c("AH")) && g.hand(1).contains(c("3H")));
        play_all(&mut g, "3C 4S");
        assert_eq!(g.current_seat(), 0);
        assert_eq!(g.tricks_won(0), 3);
    }

    #[test]
    fn a_follower_that_wins_draws_first() {
        // Seat 1 leads and loses to seat 0's higher card of the led suit: seat 0 draws first.
        let mut g = deal(&LADDER.replace("leader=0", "leader=1"));
        assert_eq!(g.current_seat(), 1);
        play_all(&mut g, "3S");
        // Seat 0 has no spade and no trump: whatever it plays, seat 1 wins and draws first.
        play_all(&mut g, "AC");
        assert_eq!((g.current_seat(), g.points(1)), (1, 11));
        assert!(g.hand(1).contains(c("2C")) && g.hand(0).contains(c("2H")));
    }

    #[test]
    fn the_face_up_card_is_drawn_last_and_follow_suit_starts_when_the_stock_is_empty() {
        let mut g = deal(LADDER);
        // Seat 0 cashes clubs and the AH; seat 1 throws spades and hearts; seat 0 wins them all.
        play_all(
            &mut g,
            "AC 3S 7C 4S KC 5S JC 6S QC 7S 6C JS 5C QS 4C KS 3C AS 2C 2H",
        );
        assert_eq!((g.tricks_won(0), g.stock_len()), (10, 2));
        assert_eq!(g.face_up(), Some(c("2D")));
        // Still no obligation: seat 1 holds hearts but may throw the 2S on the AH.
        play_all(&mut g, "AH");
        assert!(g.legal_moves().cards().contains(c("2S")));
        assert_eq!(g.legal_moves().cards(), g.hand(1));
        play_all(&mut g, "2S");
        assert_eq!(g.voids(1), CardSet::EMPTY, "not following says nothing yet");
        // Seat 0 drew AD, seat 1 the face-up 2D, which everyone saw.
        assert_eq!((g.stock_len(), g.face_up()), (0, None));
        assert!(g.hand(0).contains(c("AD")));
        assert!(g.hand(1).contains(c("2D")));
        assert_eq!(g.known_in_hand(1), set("2D"));
        assert_eq!(g.hand(0), set("3D 4D 5D 6D 7D JD QD KD AD"));
        // Now seat 1 must follow the trump lead with its only diamond.
        play_all(&mut g, "3D");
        assert_eq!(g.legal_moves().cards(), set("2D"));
        play_all(&mut g, "2D");
        assert_eq!(g.known_in_hand(1), CardSet::EMPTY);
        // Then it is void in diamonds, may play anything, and is known to be void.
        play_all(&mut g, "4D");
        assert_eq!(g.legal_moves().cards(), g.hand(1));
        play_all(&mut g, "3H");
        assert_eq!(g.voids(1), CardSet::suit(Suit::Diamonds));
    }

    #[test]
    fn a_fixed_line_takes_every_trick_whatever_the_other_seat_plays() {
        // Seat 0 plays its clubs, the AH, then its diamonds (trump). Seat 1 has no club and no
        // trump until it draws the face-up 2D after trick 11, and the AH is the top heart, so
        // seat 0 wins tricks 1-11 and draws the even stock cards; from trick 12 seat 0 leads
        // trumps higher than the 2D, which seat 1 must then follow with: 20 tricks, 120 points.
        let order = "AC 7C KC JC QC 6C 5C 4C 3C 2C AH 3D 4D 5D 6D 7D JD QD KD AD";
        let mut rng = rng_from_seed(4);
        for bandeira in [Bandeira::Points, Bandeira::Tricks] {
            let config = BiscaConfig {
                bandeira,
                ..BiscaConfig::default()
            };
            for _ in 0..200 {
                let mut g = deal_with(&config, LADDER);
                for card in order.split_whitespace() {
                    assert_eq!(g.current_seat(), 0);
                    play_all(&mut g, card);
                    g.play(g.legal_moves().random(&mut rng));
                }
                assert!(g.is_terminal());
                assert_eq!((g.points(0), g.tricks_won(0)), (120, 20));
                assert_eq!(
                    (g.match_units(0), g.match_units(1)),
                    (Some(4.0), Some(-4.0))
                );
                assert_eq!((g.reward(0), g.reward(1)), (1.0, 0.0));
            }
        }
    }

    #[test]
    fn a_blank_trick_lost_makes_the_bandeira_depend_on_the_option() {
        // As above, but seat 0 keeps the 2C for trick 12, after the stock is gone: seat 1 is
        // void in clubs and trumps it with the 2D (0 points). Seat 1 then leads; seat 0 holds
        // only trumps, which seat 1 no longer has, so seat 0 takes the last 8 tricks.
        let first = "AC 7C KC JC QC 6C 5C 4C 3C AH 3D";
        for (bandeira, units) in [(Bandeira::Points, 4.0), (Bandeira::Tricks, 2.0)] {
            let config = BiscaConfig {
                bandeira,
                ..BiscaConfig::default()
            };
            let mut rng = rng_from_seed(6);
            for _ in 0..200 {
                let mut g = deal_with(&config, LADDER);
                for card in first.split_whitespace() {
                    play_all(&mut g, card);
                    g.play(g.legal_moves().random(&mut rng));
                }
                assert_eq!(g.current_seat(), 0);
                play_all(&mut g, "2C 2D");
                assert_eq!(g.current_seat(), 1);
                while !g.is_terminal() {
                    g.play(g.legal_moves().random(&mut rng));
                }
                assert_eq!(
                    (g.points(0), g.tricks_won(0), g.tricks_won(1)),
                    (120, 19, 1)
                );
                assert_eq!(
                    (g.match_units(0), g.match_units(1)),
                    (Some(units), Some(-units))
                );
            }
        }
    }

    #[test]
    fn trick_winners_with_and_without_trump() {
        // Spades are trump (face-up 2S). The follower wins with a higher card of the led suit
        // or a trump; anything else loses however high.
        let text = "leader=0 | AC 7C KC JC QC 2H 3H 4H 5H | 6C 5C 4C 3C 2C 6H AS 7S AH \
            | 7H KH JH QH 2D 3D 4D 5D 6D 7D JD QD KD AD KS JS QS 3S 4S 5S 6S 2S";
        let mut g = deal(text);
        assert_eq!(g.trump(), Suit::Spades);
        play_all(&mut g, "2H 6H");
        assert_eq!(g.current_seat(), 1, "6H over 2H");
        play_all(&mut g, "6C 7C");
        assert_eq!(g.current_seat(), 0, "7C over 6C");
        play_all(&mut g, "KC AH");
        assert_eq!(g.current_seat(), 0, "an off-suit ace loses");
        play_all(&mut g, "JC 7S");
        assert_eq!(g.current_seat(), 1, "a trump beats the led suit");
        play_all(&mut g, "AS AC");
        assert_eq!(g.current_seat(), 1, "a trump lead beats a plain ace");
        // Seat 1 took 2H 6H (0), JC 7S (13) and AS AC (22).
        assert_eq!(g.points(1), 35);
    }

    #[test]
    fn the_exchange_takes_the_face_up_card() {
        // Diamonds are trump (face-up AD); seat 1 holds the 2D.
        let text = "leader=0 | AC 7C KC JC QC 6C 5C 4C 3C | 2D 4S 5S 6S 7S JS QS KS AS \
            | 2C 2H AH 3H 3D 4H 4D 5H 5D 6H 6D 7H 7D JH JD QH QD KH KD 2S 3S AD";
        let on = BiscaConfig {
            exchange: true,
            ..BiscaConfig::default()
        };
        // Off by default: never offered.
        let mut g = deal(text);
        play_all(&mut g, "AC");
        assert!(!g.legal_moves().has_exchange());
        let mut g = deal_with(&on, text);
        // Seat 0 does not hold the 2D: no exchange for it.
        assert!(!g.legal_moves().has_exchange());
        play_all(&mut g, "AC");
        assert_eq!(g.legal_moves().len(), 10);
        assert!(g.legal_moves().has_exchange());
        assert_eq!(
            g.legal_moves().to_string(),
            "2D 4S 5S 6S 7S JS QS KS AS exchange"
        );
        // The opponent model does not describe the exchange: no one-pass reading either.
        assert!(g.model_features(BiscaMove::play(c("2D"))).is_some());
        assert!(!g.visit_model_features(|_, _| ()));
        play_all(&mut g, "exchange");
        // Same seat to move; the AD is in hand and known to be, the 2D is face up.
        assert_eq!(g.current_seat(), 1);
        assert!(g.hand(1).contains(c("AD")) && !g.hand(1).contains(c("2D")));
        assert_eq!(g.known_in_hand(1), set("AD"));
        assert_eq!(g.face_up(), Some(c("2D")));
        assert_eq!(g.stock().last(), Some(&c("2D")));
        assert!(!g.legal_moves().has_exchange());
        // The AD is a trump and wins the trick.
        play_all(&mut g, "AD");
        assert_eq!((g.current_seat(), g.points(1)), (1, 22));
        // Before the AD is played, seat 0's determinizations keep it in seat 1's hand.
        let mut g = deal_with(&on, text);
        play_all(&mut g, "AC exchange");
        let sampler = g.deal_sampler(0).unwrap();
        let mut rng = rng_from_seed(9);
        for _ in 0..100 {
            let d = sampler.sample(&mut rng);
            assert!(d.hand(1).contains(c("AD")));
            assert_eq!(d.face_up(), Some(c("2D")));
        }
    }

    #[test]
    fn no_exchange_once_the_stock_is_empty_or_with_no_two() {
        let on = BiscaConfig {
            exchange: true,
            ..BiscaConfig::default()
        };
        // The face-up card is the 2D itself: nobody ever holds it while the stock lasts.
        let mut g = deal_with(&on, LADDER);
        let mut rng = rng_from_seed(3);
        while !g.is_terminal() {
            assert!(!g.legal_moves().has_exchange());
            g.play(g.legal_moves().random(&mut rng));
        }
        // When the 2 of trumps is drawn late and kept, the exchange stops when the stock does.
        let mut rng = rng_from_seed(10);
        for _ in 0..500 {
            let mut g = Bisca::new_game(&on, &mut rng);
            while !g.is_terminal() {
                let moves = g.legal_moves();
                let two = pt::two_of(g.trump());
                let expected = g.stock_len() >= 2 && g.hand(g.current_seat()).contains(two);
                assert_eq!(moves.has_exchange(), expected);
                g.play(moves.random(&mut rng));
            }
        }
    }

    #[test]
    fn moves_parse_and_print() {
        let g = deal(LADDER);
        assert_eq!(g.parse_move("exchange"), Ok(BiscaMove::EXCHANGE));
        assert_eq!(g.parse_move("QC"), Ok(mv("QC")));
        assert_eq!(mv("QC").to_string(), "QC");
        assert_eq!(BiscaMove::EXCHANGE.to_string(), "exchange");
        assert!(
            g.parse_move("9C")
                .unwrap_err()
                .contains("not in the 40-card pack")
        );
        // A move's error is about the move, not about a deal.
        let swap = g.parse_move("swap").unwrap_err();
        assert!(swap.starts_with("malformed card 'swap'"), "{swap}");
        let moves = g.legal_moves();
        assert_eq!(moves.to_vec().len(), 9);
        assert_eq!(moves.nth(0), mv("3C"));
    }

    #[test]
    fn bad_deals_are_errors_that_name_the_problem() {
        Bisca::from_deal(&BiscaConfig::default(), LADDER).unwrap();
        let cases = [
            (
                LADDER.replace("leader=0", "leader=2"),
                "leader=2 is not a seat",
            ),
            (
                LADDER.replace("leader=0", "dealer=0"),
                "unknown header key 'dealer'",
            ),
            (LADDER.replace(" 3C |", " |"), "hand 0 has 8 cards"),
            (LADDER.replace(" 2D", ""), "the stock has 21 cards"),
            (LADDER.replace(" 2D", " 2D 2D"), "2D appears twice"),
            (
                LADDER.replace(" 3C |", " 3C 2D |"),
                "2D dealt twice (to hand 0 and to the stock)",
            ),
            (
                LADDER.replace("AD 2D", "AD 8D"),
                "8D is not in the 40-card pack",
            ),
            (
                LADDER.replace(" 2D", " 2D 3S"),
                "the stock has more than 22 cards",
            ),
            (
                LADDER.replace("AD 2D", "AD 3S"),
                "3S dealt twice (to hand 1 and to the stock)",
            ),
            (
                LADDER.replace("| 2C", "2C"),
                "expected 4 '|'-separated fields",
            ),
        ];
        for (text, needle) in cases {
            let e = Bisca::from_deal(&BiscaConfig::default(), &text)
                .expect_err(&text)
                .to_string();
            assert!(
                e.contains(needle),
                "{text}\n  gave: {e}\n  expected: {needle}"
            );
        }
        let long = format!("{} 8S", LADDER);
        assert!(Bisca::from_deal(&BiscaConfig::default(), &long).is_err());
    }

    #[test]
    fn the_registry_builds_it_by_name_and_rejects_unknown_options() {
        struct Name;
        impl crate::games::GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: GameDef>(self, _config: G::Config) -> &'static str {
                G::NAME
            }
        }
        assert!(crate::games::all().iter().any(|g| g.name == "bisca"));
        let spec: Spec = "bisca:exchange=true,leader=1".parse().unwrap();
        assert_eq!(crate::games::dispatch(&spec, Name), Ok("bisca"));
        let typo: Spec = "bisca:bandiera=tricks".parse().unwrap();
        assert!(crate::games::dispatch(&typo, Name).is_err());
    }

    #[test]
    fn options_are_read_and_checked() {
        let cfg = Bisca::config(
            &"bisca:exchange=true,leader=1,bandeira=tricks"
                .parse()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            cfg,
            BiscaConfig {
                leader: 1,
                exchange: true,
                bandeira: Bandeira::Tricks
            }
        );
        let g = Bisca::new_game(&cfg, &mut rng_from_seed(1));
        assert_eq!(g.current_seat(), 1);
        assert!(g.exchange_allowed());
        assert!(Bisca::config(&"bisca:leader=2".parse().unwrap()).is_err());
        assert!(Bisca::config(&"bisca:exchange=maybe".parse().unwrap()).is_err());
    }

    #[test]
    fn the_trick_by_trick_playout_ends_where_move_by_move_play_does() {
        // With and without the exchange, from openings and from positions part-way through
        // (mid-trick, stock phase, last stock trick, after the stock): the same generator must
        // give the same final state and leave the generator at the same point.
        let mut rng = rng_from_seed(41);
        for game in 0..4_000u64 {
            let config = BiscaConfig {
                leader: game as usize % 2,
                exchange: game % 4 < 2,
                ..BiscaConfig::default()
            };
            let start = Bisca::new_game(&config, &mut rng);
            crate::game::assert_playout_matches_reference(
                start,
                &mut rng,
                44,
                game,
                crate::game::playout_by_moves,
            );
        }
    }

    /// The trick winner by the rules' text: a trump beats a plain card, else the stronger card
    /// of the led suit in the order A 7 K J Q 6 5 4 3 2; the leader keeps any other trick.
    fn reference_follower_wins(lead: Card, follow: Card, trump: Suit) -> bool {
        const ORDER: &str = "A7KJQ65432";
        let pos = |c: Card| ORDER.find(c.rank().letter()).unwrap();
        if follow.suit() == lead.suit() {
            pos(follow) < pos(lead)
        } else {
            follow.suit() == trump
        }
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let mut rng = rng_from_seed(12);
        for game in 0..10_000 {
            let config = BiscaConfig {
                exchange: game % 2 == 1,
                leader: game % 4 / 2,
                ..BiscaConfig::default()
            };
            let mut g = Bisca::new_game(&config, &mut rng);
            assert_eq!(Bisca::from_deal(&config, &g.deal_text()).unwrap(), g);
            let start = g;
            let mut dealt = [start.hand(0), start.hand(1)];
            let mut drawn = 0;
            let mut exchanged = false;
            let mut tricks = 0;
            while !g.is_terminal() {
                let seat = g.current_seat();
                let moves = g.legal_moves();
                assert!(!moves.is_empty());
                assert!(g.hand(seat).is_superset(moves.cards()));
                assert_eq!(
                    g.hand(0).len() + g.hand(1).len() + g.stock_len() + g.lead.is_some() as usize,
                    40 - 2 * tricks
                );
                // Follow suit is required only once the stock is empty.
                if let Some(lead) = g.lead() {
                    let follow = g.hand(seat).of_suit(lead.suit());
                    let expected = if g.stock_len() == 0 && !follow.is_empty() {
                        follow
                    } else {
                        g.hand(seat)
                    };
                    assert_eq!(moves.cards(), expected);
                }
                let m = moves.random(&mut rng);
                let before = g;
                g.play(m);
                let Some(card) = m.card() else {
                    exchanged = true;
                    let two = pt::two_of(g.trump()).set();
                    dealt[seat] = (dealt[seat] - two) | before.face_up().unwrap().set();
                    continue;
                };
                if let Some(lead) = before.lead() {
                    tricks += 1;
                    let follower_won = reference_follower_wins(lead, card, g.trump());
                    let winner = if follower_won { seat } else { seat ^ 1 };
                    assert_eq!(g.current_seat(), winner);
                    if before.stock_len() > 0 {
                        // The winner drew the next card, the loser the one after.
                        let first = before.stock()[0];
                        let second = before.stock()[1];
                        assert!(g.hand(winner).contains(first), "game {game}");
                        assert!(g.hand(winner ^ 1).contains(second), "game {game}");
                        dealt[winner].insert(first);
                        dealt[winner ^ 1].insert(second);
                        drawn += 2;
                    }
                }
            }
            assert_eq!((drawn, tricks), (STOCK, 20));
            assert!(g.legal_moves().is_empty());
            assert_eq!(g.played(0), dealt[0], "game {game}");
            assert_eq!(g.played(1), dealt[1], "game {game}");
            assert!((g.played(0) & g.played(1)).is_empty());
            assert_eq!(g.played(0) | g.played(1), DECK);
            assert_eq!(g.won(0) | g.won(1), DECK);
            assert_eq!(g.points(0) + g.points(1), 120);
            assert_eq!(g.tricks_won(0) + g.tricks_won(1), 20);
            assert_eq!(g.reward(0) + g.reward(1), 1.0);
            assert_eq!(g.match_units(0).unwrap(), -g.match_units(1).unwrap());
            if !config.exchange {
                assert!(!exchanged);
            }
        }
    }

    #[test]
    fn determinizations_keep_what_the_observer_knows() {
        let mut rng = rng_from_seed(22);
        for game in 0..10_000 {
            let config = BiscaConfig {
                exchange: game % 2 == 1,
                ..BiscaConfig::default()
            };
            let mut g = Bisca::new_game(&config, &mut rng);
            let plies = random_below(&mut rng, 40);
            for _ in 0..plies {
                g.play(g.legal_moves().random(&mut rng));
            }
            let observer = random_below(&mut rng, 2) as Seat;
            let opponent = observer ^ 1;
            let sampler = g.deal_sampler(observer).unwrap();
            for _ in 0..5 {
                let d = sampler.sample(&mut rng);
                assert_eq!(d.hand(observer), g.hand(observer));
                assert_eq!(d.hand(opponent).len(), g.hand(opponent).len());
                assert!(d.hand(opponent).is_superset(g.known_in_hand(opponent)));
                assert!((d.hand(opponent) & d.voids(opponent)).is_empty());
                assert_eq!(d.face_up(), g.face_up());
                let stock_set = |s: &Bisca| CardSet::from_cards(s.stock().iter().copied());
                assert_eq!(d.stock_len(), g.stock_len());
                assert_eq!(stock_set(&d).len(), d.stock_len(), "a stock card twice");
                assert_eq!(
                    d.hand(opponent) | stock_set(&d),
                    g.hand(opponent) | stock_set(&g)
                );
                // Everything else is untouched, but the order of past draws, which the
                // observer never saw, is not kept.
                let mut same = d;
                same.hands = g.hands;
                same.stock = g.stock;
                assert_eq!(same, g);
                assert!(
                    d.stock[..d.next as usize]
                        .iter()
                        .all(|&c| c == d.stock[STOCK - 1])
                );
                if g.stock_len() == 0 {
                    assert_eq!(
                        d.hands, g.hands,
                        "nothing is hidden once the stock is empty"
                    );
                }
            }
        }
    }

    #[test]
    fn a_hidden_card_lands_in_every_stock_slot_equally_often() {
        // From the opening, seat 0 does not see 30 cards: 9 in seat 1's hand and 21 stock cards
        // above the face-up one. Each is in a given stock slot with probability 1/30. Over
        // 30,000 samples a slot's count is Binomial(30000, 1/30): mean 1000, sd ≈ 31; a margin of
        // 190 is 6 sd. The opponent's hand gets it 9000 times, sd ≈ 79, margin 480 (6 sd).
        let g = deal(LADDER);
        let card = c("KH");
        let sampler = g.deal_sampler(0).unwrap();
        let mut rng = rng_from_seed(77);
        let mut slot_counts = [0i64; STOCK];
        let mut in_hand = 0i64;
        for _ in 0..30_000 {
            let d = sampler.sample(&mut rng);
            match d.stock().iter().position(|&x| x == card) {
                Some(i) => slot_counts[i] += 1,
                None => {
                    assert!(d.hand(1).contains(card));
                    in_hand += 1;
                }
            }
        }
        assert_eq!(slot_counts[STOCK - 1], 0, "the face-up card never moves");
        for (i, &n) in slot_counts[..STOCK - 1].iter().enumerate() {
            assert!((n - 1000).abs() < 190, "slot {i}: {n}");
        }
        assert!((in_hand - 9000).abs() < 480, "hand: {in_hand}");
    }
}
