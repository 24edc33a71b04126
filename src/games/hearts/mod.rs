//! Hearts: four players, each for themselves, avoid hearts and the queen of spades.
//!
//! The rules are those of `rules.md`, which match OpenSpiel's `hearts` with `pass_cards=false`
//! by default: 52 cards, 13 each, aces high, no trump. The holder of 2♣ leads it to the first
//! trick; players must follow suit if able; on the first trick a player who cannot follow may not
//! discard a heart or Q♠ unless the hand holds nothing else; hearts may not be led until broken
//! (a heart or Q♠ has been played) unless the hand holds only hearts. The highest card of the led
//! suit wins the trick and leads the next. Each heart is 1 point and Q♠ 13, 26 in all. A player who
//! takes all 26 *shoots the moon*: they score 0 and every other player 26.
//!
//! # Passing
//!
//! The option `pass=none|left|right|across` (default `none`) adds a passing phase before the
//! first trick. It is played as ordinary moves so the search can reason about it: seat 0 picks its
//! three cards one move at a time, then seat 1, 2 and 3. A picked card leaves the hand at once
//! (so a seat never picks the same card twice). When all twelve cards are picked they are delivered
//! together — left is the next seat in play order (`seat + 1`), across `seat + 2`, right
//! `seat + 3` — and the holder of 2♣ (who may just have received it) leads.
//!
//! # Outcome: score and reward
//!
//! [`Game::score`] is the seat's penalty points, lower is better: the points taken so far, with
//! the moon adjustment (0 for the shooter, 26 for the others) as soon as one seat holds all 26,
//! which decides the moon.
//!
//! [`Game::reward`] is 1 for a sole winner (lowest score), `1/k` for each of `k` players tied
//! for the lowest score, and 0 for the rest. Sharing one unit of win among the tied winners keeps
//! the rewards of every finished game summing to 1, so the game stays constant-sum as the
//! two-player games are (a flat 0.5 would make a three-way tie worth 1.5 to the table, more than a
//! win), and a two-way tie is the engine's usual 0.5. (Four-way ties cannot happen: 26 is not
//! divisible by 4.) A seat that cares about its margin can search on [`Game::score`] instead.
//!
//! # Deal notation
//!
//! The four hands, seat 0 first, separated by `|`; each hand is a card list in the notation of
//! `rules.md` (order does not matter):
//!
//! ```text
//! 2C 5C 9C QC 3D 8D JD 4H 9H KH 6S TS AS | … | … | …
//! ```
//!
//! ```
//! use cardsearch::games::GameDef;
//! use cardsearch::games::hearts::{Hearts, HeartsConfig};
//! use cardsearch::Game;
//!
//! let deal = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC | 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD \
//!             | 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH | 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS";
//! let mut game = Hearts::from_deal(&HeartsConfig::default(), deal).unwrap();
//! assert_eq!(game.deal_text(), deal.split_whitespace().collect::<Vec<_>>().join(" "));
//! assert_eq!(game.legal_moves().to_string(), "2C");
//! for card in ["2C", "5D", "KH"] {
//!     game.play(card.parse().unwrap());
//! }
//! // Seat 3 cannot follow clubs and, on the first trick, may not discard Q♠.
//! assert_eq!(game.legal_moves().len(), 12);
//! assert!(Hearts::from_deal(&HeartsConfig::default(), "2C 3C | 4C").is_err());
//! ```
//!
//! Each hand must have 13 different cards and together they must be the 52-card pack. The passing
//! direction is the game's option, not part of the deal. [`GameDef::deal_text`] writes the hands as
//! they were dealt (before any passing) for any state whose history it holds; a determinization
//! taken after the passes were delivered does not hold every seat's passes (they are unseen
//! moves it drew) and writes the hands as they were after passing.
//!
//! # What a seat knows (determinization)
//!
//! Its own hand; every card played and by whom; the voids revealed by failing to follow suit;
//! hand sizes; whether hearts are broken; the cards it passed, which stay fixed in the receiver's
//! hand until the receiver plays them; the cards it received; and, once play starts, that the seat
//! to lead the first trick holds 2♣. During the passing phase it knows what it has passed so far;
//! the cards other seats have picked but not yet delivered are as unknown as the rest of their
//! hands. What the rules prove is used as a hard constraint ([`Hearts::excluded`]): a seat that
//! fails to follow suit holds none of it, one that discards a point card on the first trick holds
//! only point cards, and one that leads a heart before hearts are broken holds
//! nothing but hearts. The sampler is the card games' shared one (`unseen::CardSampler`).
//!
//! This module has the rules; `hidden` what a seat knows and the deals consistent with it, and
//! `model` what the learned opponent model reads of a position.

use std::fmt;
use std::hint::select_unpredictable;
use std::sync::OnceLock;

use crate::cards::{Card, CardList, CardSet, Rank, Suit};
use crate::game::{DealError, Draws, Game, MAX_SEATS, Rng, Seat};
use crate::search::opponent_model::{ModelFeatures, OpponentModel};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;

mod hidden;
mod model;
#[cfg(test)]
mod tests;

pub use model::MODEL_PARAMS;

/// Number of seats.
pub const SEATS: usize = 4;

/// Cards per hand.
pub const HAND: usize = 13;

/// Cards each seat passes when passing is on.
pub const PASS_CARDS: usize = 3;

/// Tricks in a deal.
pub const TRICKS: usize = 13;

/// The penalty points in the pack, and what every other player scores when one shoots the moon.
pub const TOTAL_POINTS: u8 = 26;

/// The 2♣, which leads the first trick.
pub const TWO_OF_CLUBS: Card = Card::new(Rank::Two, Suit::Clubs);

/// The Q♠, worth 13 points.
pub const QUEEN_OF_SPADES: Card = Card::new(Rank::Queen, Suit::Spades);

/// All hearts.
pub const HEARTS: CardSet = CardSet::suit(Suit::Hearts);

/// The cards worth points: the hearts and Q♠. Playing one breaks hearts.
pub const POINT_CARDS: CardSet = CardSet(HEARTS.0 | 1 << QUEEN_OF_SPADES.index());

/// Where passed cards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pass {
    /// No passing (the default, as in the thesis and OpenSpiel with `pass_cards=false`).
    #[default]
    None,
    /// To the next seat in play order (`seat + 1`).
    Left,
    /// To the seat opposite (`seat + 2`).
    Across,
    /// To the previous seat in play order (`seat + 3`).
    Right,
}

impl Pass {
    /// Every direction, with the option value that names it.
    pub const ALL: [(Pass, &'static str); 4] = [
        (Pass::None, "none"),
        (Pass::Left, "left"),
        (Pass::Right, "right"),
        (Pass::Across, "across"),
    ];

    /// How many seats along, in play order, the cards travel.
    #[inline]
    pub const fn offset(self) -> usize {
        match self {
            Pass::None => 0,
            Pass::Left => 1,
            Pass::Across => 2,
            Pass::Right => 3,
        }
    }

    /// The seat that receives `seat`'s passed cards.
    #[inline]
    pub const fn receiver(self, seat: Seat) -> Seat {
        (seat + self.offset()) % SEATS
    }

    /// The seat whose passed cards `seat` receives.
    #[inline]
    pub const fn giver(self, seat: Seat) -> Seat {
        (seat + SEATS - self.offset()) % SEATS
    }

    /// The option value (`none`, `left`, `right`, `across`).
    pub fn name(self) -> &'static str {
        Pass::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("none", |(_, n)| n)
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of a Hearts game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct HeartsConfig {
    /// The passing direction.
    pub pass: Pass,
}

/// The penalty points in a set of cards.
#[inline]
pub const fn points_in(cards: CardSet) -> u8 {
    (cards.0 & HEARTS.0).count_ones() as u8 + 13 * ((cards.0 >> QUEEN_OF_SPADES.index()) & 1) as u8
}

/// A Hearts position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hearts {
    hands: [CardSet; SEATS],
    /// Cards each seat has played to tricks.
    played: [CardSet; SEATS],
    /// Cards each seat has proven it does not hold: a void suit shown by failing to follow; on
    /// the first trick, every card but the point cards once it discards one (it had no other);
    /// every card but the hearts once it leads a heart before they are broken (it had nothing
    /// else). See [`Hearts::excluded`].
    excluded: [CardSet; SEATS],
    /// Cards each seat has picked to pass (delivered once `passes_left` reaches 0).
    passed: [CardSet; SEATS],
    /// Cards in the current trick.
    trick: CardSet,
    /// The whole suit of the card led to the current trick; empty before the lead.
    lead_suit: CardSet,
    /// The cards a leader may lead if it holds any: 2♣ for the first trick, then all but the
    /// hearts until they are broken, then everything. Kept as a mask so `legal_moves` is a few
    /// ANDs and conditional moves rather than a chain of rule branches.
    lead_filter: CardSet,
    /// The cards a seat that cannot follow may discard if it holds any: no point cards on the
    /// first trick, anything afterwards.
    discard_filter: CardSet,
    /// Penalty points taken so far (before the moon adjustment).
    points: [u8; SEATS],
    pass: Pass,
    /// Passing moves still to come; play starts when it reaches 0.
    passes_left: u8,
    to_move: u8,
    /// Cards played to the current trick.
    in_trick: u8,
    /// Completed tricks.
    tricks: u8,
    hearts_broken: bool,
}

impl Hearts {
    /// A game from four explicit hands; errors unless they are 13 cards each and split the pack.
    pub fn from_hands(hands: [CardSet; SEATS], pass: Pass) -> Result<Hearts, DealError> {
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != HAND {
                return Err(DealError::Invalid(format!(
                    "hand {seat} has {} cards; every hand needs {HAND}",
                    hand.len()
                )));
            }
            for (other, other_hand) in hands.iter().enumerate().skip(seat + 1) {
                if let Some(card) = (*hand & *other_hand).first() {
                    return Err(DealError::Invalid(format!(
                        "card {card} is in hands {seat} and {other}"
                    )));
                }
            }
        }
        // 4 × 13 different cards of the 52 are necessarily the whole pack.
        debug_assert_eq!(hands[0] | hands[1] | hands[2] | hands[3], CardSet::FULL);
        let passes = if pass == Pass::None {
            0
        } else {
            SEATS * PASS_CARDS
        };
        let mut game = Hearts {
            hands,
            played: [CardSet::EMPTY; SEATS],
            excluded: [CardSet::EMPTY; SEATS],
            passed: [CardSet::EMPTY; SEATS],
            trick: CardSet::EMPTY,
            lead_suit: CardSet::EMPTY,
            lead_filter: TWO_OF_CLUBS.set(),
            discard_filter: CardSet(!POINT_CARDS.0 & CardSet::FULL.0),
            points: [0; SEATS],
            pass,
            passes_left: passes as u8,
            to_move: 0,
            in_trick: 0,
            tricks: 0,
            hearts_broken: false,
        };
        if passes == 0 {
            game.to_move = game.holder_of_two_of_clubs() as u8;
        }
        Ok(game)
    }

    fn holder_of_two_of_clubs(&self) -> Seat {
        (0..SEATS)
            .find(|&s| self.hands[s].contains(TWO_OF_CLUBS))
            .expect("2C is in some hand once passing is over")
    }

    /// A seat's hand (the true state: only the harness and cheating agents see other hands).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The cards `seat` has played to tricks (public).
    pub fn played(&self, seat: Seat) -> CardSet {
        self.played[seat]
    }

    /// Every card played to tricks so far (public).
    pub fn played_cards(&self) -> CardSet {
        self.played[0] | self.played[1] | self.played[2] | self.played[3]
    }

    /// The cards of the trick in progress (public).
    pub fn current_trick(&self) -> CardSet {
        self.trick
    }

    /// The cards `seat` has proven it does not hold (public): the suits it failed to follow,
    /// and what the first-trick and heart-leading rules prove. A seat may only play a card
    /// outside the first set the rules prefer (the led suit; on the first trick, a card that
    /// is not a point card; leading before hearts are broken, a card that is not a heart) when
    /// it holds none of that set, so playing one proves the whole set absent.
    pub fn excluded(&self, seat: Seat) -> CardSet {
        self.excluded[seat]
    }

    /// The cards `seat` has picked to pass (known to `seat` and, after delivery, the receiver).
    pub fn passed(&self, seat: Seat) -> CardSet {
        self.passed[seat]
    }

    /// The passing direction.
    pub fn pass(&self) -> Pass {
        self.pass
    }

    /// True while seats are still picking cards to pass.
    #[inline]
    pub fn is_passing(&self) -> bool {
        self.passes_left > 0
    }

    /// True once a heart or Q♠ has been played.
    pub fn hearts_broken(&self) -> bool {
        self.hearts_broken
    }

    /// Completed tricks.
    pub fn tricks_played(&self) -> usize {
        self.tricks as usize
    }

    /// Penalty points `seat` has taken so far, before any moon adjustment.
    pub fn points_taken(&self, seat: Seat) -> u32 {
        self.points[seat] as u32
    }

    /// The final scores with the moon adjustment applied (meaningful once terminal; before that,
    /// the points taken so far, adjusted only if someone already holds all 26).
    pub fn final_scores(&self) -> [u8; SEATS] {
        match self.points.iter().position(|&p| p == TOTAL_POINTS) {
            Some(shooter) => {
                let mut s = [TOTAL_POINTS; SEATS];
                s[shooter] = 0;
                s
            }
            None => self.points,
        }
    }

    /// The hands as dealt, before passing, reconstructed from the hands, plays and passes.
    ///
    /// A determinization taken after delivery does not know every seat's passes (they are
    /// unseen moves it drew); for it this is the hands as they were after passing, which is still a
    /// valid split of the pack.
    pub fn dealt_hands(&self) -> [CardSet; SEATS] {
        let delivered = self.pass != Pass::None && !self.is_passing();
        if delivered && self.passed.iter().any(|p| p.len() != PASS_CARDS) {
            return std::array::from_fn(|s| self.hands[s] | self.played[s]);
        }
        std::array::from_fn(|s| {
            let received = if delivered {
                self.passed[self.pass.giver(s)]
            } else {
                CardSet::EMPTY
            };
            (self.hands[s] | self.played[s] | self.passed[s]) - received
        })
    }

    /// Scores the completed trick and hands the lead to its winner.
    #[inline]
    fn finish_trick(&mut self) {
        // The highest card of the led suit is one leading-zero count; its player is found by
        // testing that card's bit in each seat's played cards, without a branch.
        let best = (self.trick & self.lead_suit)
            .last()
            .expect("the leader followed suit");
        let i = best.index();
        let winner = (0..SEATS).fold(0u64, |w, s| {
            w | ((s as u64) * ((self.played[s].0 >> i) & 1))
        });
        self.points[winner as usize] += points_in(self.trick);
        self.tricks += 1;
        self.open_trick(winner as usize);
    }

    /// Empties the trick and gives `leader` the lead, with the rule filters of every trick
    /// after the first.
    #[inline]
    fn open_trick(&mut self, leader: Seat) {
        self.trick = CardSet::EMPTY;
        self.lead_suit = CardSet::EMPTY;
        self.in_trick = 0;
        self.to_move = leader as u8;
        self.discard_filter = CardSet::FULL;
        self.lead_filter = if self.hearts_broken {
            CardSet::FULL
        } else {
            CardSet::FULL - HEARTS
        };
    }

    #[inline]
    fn pass_card(&mut self, seat: Seat, card: Card) {
        self.passed[seat].insert(card);
        self.passes_left -= 1;
        if (self.passes_left as usize).is_multiple_of(PASS_CARDS) {
            self.to_move = (seat as u8 + 1) % SEATS as u8;
        }
        if self.passes_left == 0 {
            for s in 0..SEATS {
                self.hands[self.pass.receiver(s)] |= self.passed[s];
            }
            self.to_move = self.holder_of_two_of_clubs() as u8;
        }
    }
}

impl Game for Hearts {
    /// Heuristic playouts (duck under the trick's best card, shed Q♠ and hearts when void,
    /// lead low: `Hearts::rule_cards`, a random card one time in ten) with a light margin
    /// term: at 4,000 iterations a move it won more deals than plain ISMCTS (+11 Elo) and
    /// took 1.65 fewer penalty points a deal, both significant, where the general preset's
    /// `mix:w=0.3` with random playouts only took fewer points (docs/results.md, Hearts).
    const STRONG_PRESET: &'static str = "playout=heuristic,reward=mix:w=0.1";

    fn exact() -> Option<&'static dyn crate::solver::Endgame<Hearts>> {
        Some(&crate::solver::Exact::<Hearts>::NEW)
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
        if self.passes_left > 0 {
            return hand;
        }
        // Leading: the lead filter, else anything (only hearts left). Following: the led suit,
        // else the discard filter, else anything (only point cards left on the first trick).
        let (first, second) = if self.in_trick > 0 {
            (self.lead_suit, self.discard_filter)
        } else {
            (self.lead_filter, CardSet::FULL)
        };
        // The first non-empty of `a`, `b`, `hand`, without branches: which case applies is
        // as random as the deal, so a branch here would often be mispredicted.
        let (a, b) = ((hand & first).0, (hand & second).0);
        let a_missing = ((a == 0) as u64).wrapping_neg();
        let b_missing = ((b == 0) as u64).wrapping_neg();
        CardSet(a | (a_missing & (b | (b_missing & hand.0))))
    }

    #[inline(always)]
    fn play(&mut self, card: Card) {
        debug_assert!(self.legal_moves().contains(card), "illegal {card}");
        let p = self.to_move as usize;
        self.hands[p].remove(card);
        if self.passes_left > 0 {
            self.pass_card(p, card);
            return;
        }
        let bit = card.set();
        let leading = self.in_trick == 0;
        // The rule's preferred sets, as `legal_moves` applies them: a card outside the first
        // proves the hand held none of it, and a card outside the second too, none of either.
        let (first, second) = if leading {
            (self.lead_filter, CardSet::FULL)
        } else {
            (self.lead_suit, self.discard_filter)
        };
        let missed = |set: CardSet| {
            if (bit & set).is_empty() {
                set
            } else {
                CardSet::EMPTY
            }
        };
        self.excluded[p] |= missed(first) | missed(second);
        self.played[p] |= bit;
        self.trick |= bit;
        self.hearts_broken |= !(bit & POINT_CARDS).is_empty();
        self.lead_suit = if leading {
            CardSet::suit(card.suit())
        } else {
            self.lead_suit
        };
        self.in_trick += 1;
        if self.in_trick as usize == SEATS {
            self.finish_trick();
        } else {
            self.to_move = (p as u8 + 1) % SEATS as u8;
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.tricks as usize == TRICKS
    }

    /// Plays the passing phase and the trick in progress card by card, then whole tricks, each
    /// drawn from one generator output ([`Draws::restart`]). A trick has a known shape (a lead,
    /// then three followers in seat order; the first trick's extra rules are a copy of the loop
    /// body), and the winner is a maximum over packed entries, so there is no branch on leading,
    /// the end of the trick or who is winning it. The hands are the starting hands minus one mask
    /// of cards gone; from the fourth trick a legal set's `k`-th card is read from the hand's
    /// [`CardList`] at a position its counts give; the last trick's forced cards need no lookup.
    /// The played cards are filled in at once, since every card still held will be played by
    /// its holder. It ends in the state `playout_by_moves_restarting` reaches.
    fn random_playout(&mut self, rng: &mut Rng) {
        let mut draws = Draws::new();
        while self.passes_left > 0 || self.in_trick > 0 {
            let card = draws.pick(rng, &self.legal_moves());
            self.play(card);
        }
        // The hands as they are now; a hand later is its cards not yet played (`gone`), so a
        // card leaves its holder's hand by one OR, with no store and reload through a hand slot
        // on the path from one card to the next.
        let start = self.hands;
        for (played, hand) in self.played.iter_mut().zip(start) {
            *played |= hand;
        }
        let mut gone = 0u64;
        // From the fourth trick on, when every hand holds at most ten cards, each hand is also a
        // list in card order: a legal set's `k`-th card is at the position the hand's own counts
        // give, read with a shift, not found by a select.
        let mut lists = [CardList::default(); SEATS];
        let mut excluded = self.excluded;
        let mut points = self.points;
        let mut broken = self.hearts_broken;
        let mut leader = self.to_move as usize;
        let mut played_any = false;
        // One trick; `$first` (a constant) adds the first trick's rules: 2♣ leads, and a seat
        // that cannot follow discards no point card if it has another; with `$last` every hand
        // holds one card, all moves are forced, and they take their draws but need no select.
        macro_rules! trick {
            ($first:expr, $last:expr, $listed:expr) => {
                draws.restart();
                let before = gone;
                let hand = start[leader].0 & !before;
                let lead = if $first {
                    // The leader holds 2♣ by construction; the one legal move still takes a draw.
                    draws.below(rng, 1);
                    TWO_OF_CLUBS
                } else if $last {
                    draws.below(rng, 1);
                    CardSet(hand).lowest()
                } else {
                    let safe = hand & !HEARTS.0;
                    let no_hearts = !broken && safe != 0;
                    let legal = CardSet(select_unpredictable(no_hearts, safe, hand));
                    let k = draws.below(rng, legal.len() as u32) as usize;
                    if $listed {
                        // Without hearts, the cards from the first spade on sit after them.
                        let low = (hand & 0xFFFF_FFFF).count_ones() as usize;
                        let hearts = (hand & HEARTS.0).count_ones() as usize;
                        let skip = select_unpredictable(no_hearts && k >= low, hearts, 0);
                        lists[leader].take(k + skip)
                    } else {
                        legal.nth(k)
                    }
                };
                let led_suit = 0x1FFF << (lead.index() & 0x30);
                if !$first {
                    // A heart led before they are broken proves the hand held only hearts.
                    let heart_led = led_suit == HEARTS.0;
                    excluded[leader].0 |=
                        select_unpredictable(!broken && heart_led, (CardSet::FULL - HEARTS).0, 0);
                }
                // The three followers, written out (as a loop the optimiser kept it rolled, and
                // the draws' bookkeeping with it), each giving its card's bit and its trick
                // entry: the best card so far as one number, whether it follows the led suit,
                // then its card index (rank order within a suit), then its place in the trick.
                // None depends on another, and they are combined in trees.
                macro_rules! follower {
                    ($place:expr) => {{
                        let seat = (leader + $place) % SEATS;
                        // This trick's other cards are not in this hand anyway.
                        let hand = start[seat].0 & !before;
                        let follow = hand & led_suit;
                        let other = if $first {
                            let safe = hand & !POINT_CARDS.0;
                            // Discarding a point card proves the hand holds nothing else.
                            excluded[seat].0 |= select_unpredictable(
                                follow == 0 && safe == 0,
                                !POINT_CARDS.0 & CardSet::FULL.0,
                                0,
                            );
                            select_unpredictable(safe == 0, hand, safe)
                        } else {
                            hand
                        };
                        let legal = CardSet(select_unpredictable(follow == 0, other, follow));
                        let k = draws.below(rng, legal.len() as u32) as usize;
                        let card = if $last {
                            legal.lowest()
                        } else if $listed {
                            // The led suit's cards are together in the list, after those of
                            // the lanes below it; a void seat may play any card.
                            let below = (hand & ((1 << (lead.index() & 0x30)) - 1)).count_ones();
                            lists[seat]
                                .take(k + select_unpredictable(follow == 0, 0, below as usize))
                        } else {
                            legal.nth(k)
                        };
                        // The card is of the led suit exactly when the hand has some, and a
                        // void is shown exactly when it has none.
                        excluded[seat].0 |= select_unpredictable(follow == 0, led_suit, 0);
                        let entry =
                            ((follow != 0) as u32) << 8 | (card.index() as u32) << 2 | $place;
                        (card.set().0, entry)
                    }};
                }
                let (b1, e1) = follower!(1);
                let (b2, e2) = follower!(2);
                let (b3, e3) = follower!(3);
                let trick = (lead.set().0 | b1) | (b2 | b3);
                gone = before | trick;
                let max = |a: u32, b: u32| select_unpredictable(a > b, a, b);
                let best = max(max(1 << 8 | (lead.index() as u32) << 2, e1), max(e2, e3));
                leader = (leader + (best & 3) as usize) % SEATS;
                points[leader] += points_in(CardSet(trick));
                broken |= trick & POINT_CARDS.0 != 0;
                played_any = true;
            };
        }
        let mut trick = self.tricks as usize;
        if trick == 0 {
            trick!(true, false, false);
            trick += 1;
        }
        // Hands of more than ten cards: too many for a list.
        while trick < TRICKS - CardList::CAPACITY {
            trick!(false, false, false);
            trick += 1;
        }
        if trick < TRICKS - 1 {
            lists = start.map(|hand| CardList::new(CardSet(hand.0 & !gone)));
        }
        while trick < TRICKS - 1 {
            trick!(false, false, true);
            trick += 1;
        }
        if trick < TRICKS {
            trick!(false, true, false);
        }
        self.hands = start.map(|hand| CardSet(hand.0 & !gone));
        self.excluded = excluded;
        self.points = points;
        self.hearts_broken = broken;
        if played_any {
            self.tricks = TRICKS as u8;
            self.open_trick(leader);
        }
    }

    fn reward(&self, seat: Seat) -> f64 {
        self.rewards()[seat]
    }

    /// The lowest final score wins, shared equally among the seats tied on it. All four seats
    /// at once: the end of every search iteration asks for all of them, and the moon check and
    /// the minimum are then made once rather than once per seat.
    fn rewards(&self) -> [f64; MAX_SEATS] {
        let scores = self.final_scores();
        let best = scores.iter().copied().min().unwrap_or(0);
        let winners = scores.iter().filter(|&&s| s == best).count();
        let share = 1.0 / winners as f64;
        let mut r = [0.0; MAX_SEATS];
        for (slot, &s) in r.iter_mut().zip(&scores) {
            *slot = if s == best { share } else { 0.0 };
        }
        r
    }

    fn score(&self, seat: Seat) -> f64 {
        self.final_scores()[seat] as f64
    }

    /// The share of the other three seats that took more penalty points than `seat`, an
    /// equal count counting half.
    fn placing(&self, seat: Seat) -> f64 {
        let scores = self.final_scores();
        let beaten: u32 = (0..SEATS)
            .filter(|&s| s != seat)
            .map(|s| 2 * (scores[s] > scores[seat]) as u32 + (scores[s] == scores[seat]) as u32)
            .sum();
        beaten as f64 / (2 * (SEATS - 1)) as f64
    }

    /// The others' mean penalty points minus the seat's, over the 26 a deal holds.
    fn margin(&self, seat: Seat) -> f64 {
        let scores = self.final_scores();
        let others: u32 = (0..SEATS)
            .filter(|&s| s != seat)
            .map(|s| scores[s] as u32)
            .sum();
        (others as f64 / (SEATS - 1) as f64 - scores[seat] as f64) / TOTAL_POINTS as f64
    }

    /// Penalty points count against a seat: the fewest points among the others minus its own.
    fn heuristic(&self, seat: Seat) -> f64 {
        let scores = self.final_scores();
        let best_other = (0..SEATS).filter(|&s| s != seat).map(|s| scores[s]).min();
        (best_other.unwrap_or(0) as f64) - scores[seat] as f64
    }

    fn tricks_completed(&self) -> Option<u32> {
        Some(self.tricks_played() as u32)
    }

    fn trick_position(&self) -> Option<usize> {
        Some(usize::from(self.in_trick))
    }

    /// Passes are seen only by the passer (the receiver sees the cards when they arrive).
    fn next_move_seen_by(&self, seat: Seat) -> bool {
        !self.is_passing() || seat == self.current_seat()
    }

    const HAS_HEURISTIC: bool = true;
    const POINTS_ARE_PENALTIES: bool = true;

    /// A card of the rule's choice (`Hearts::rule_cards`), at random among its ties.
    fn heuristic_move(&self, rng: &mut Rng) -> Card {
        self.rule_cards().random(rng)
    }

    fn heuristic_moves(&self) -> Option<CardSet> {
        Some(self.rule_cards())
    }

    fn model_features(&self, card: Card) -> Option<ModelFeatures> {
        // Passes are not modelled: inference replays only deals without passing.
        (self.passes_left == 0).then(|| self.model_view().features(card))
    }

    fn visit_model_features(&self, mut visit: impl FnMut(Card, ModelFeatures)) -> bool {
        if self.passes_left > 0 {
            return false;
        }
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
            include_str!("../../../models/hearts-opponent.txt"),
            MODEL_PARAMS,
            "hearts-opponent.txt",
        ))
    }

    fn model_params() -> usize {
        MODEL_PARAMS
    }

    fn parse_move(&self, text: &str) -> Result<Card, String> {
        text.parse().map_err(|e| format!("{e}"))
    }
}

impl Hearts {
    /// The cards the heuristic rule chooses among: pass the highest cards (Q♠ and the spades
    /// above it first); lead the lowest card (of any suit); following suit, play the highest
    /// card that loses the trick, or if none does, the highest when this card closes the trick
    /// (Q♠ kept back if another will do) and the lowest otherwise; unable to follow, discard
    /// Q♠, then the highest heart, then the highest card.
    fn rule_cards(&self) -> CardSet {
        let legal = self.legal_moves();
        let highest = CardSet::highest_rank;
        let high_spades = CardSet::from_cards([
            QUEEN_OF_SPADES,
            Card::new(Rank::King, Suit::Spades),
            Card::new(Rank::Ace, Suit::Spades),
        ]);
        if self.passes_left > 0 {
            let dangerous = legal & high_spades;
            return highest(if dangerous.is_empty() {
                legal
            } else {
                dangerous
            });
        }
        if self.in_trick == 0 {
            return legal.lowest_rank();
        }
        let followed = self.trick & self.lead_suit;
        let best = followed.last().expect("a led card");
        if (legal & self.lead_suit).is_empty() {
            for preference in [QUEEN_OF_SPADES.set(), HEARTS] {
                let card = highest(legal & preference);
                if !card.is_empty() {
                    return card;
                }
            }
            return highest(legal);
        }
        let below = CardSet(legal.0 & (best.set().0 - 1));
        if let Some(duck) = below.last() {
            return duck.set();
        }
        if usize::from(self.in_trick) == SEATS - 1 {
            let safe = legal.without(QUEEN_OF_SPADES);
            let choice = if safe.is_empty() { legal } else { safe };
            return choice.last().expect("a card").set();
        }
        legal.first().expect("a card").set()
    }
}

impl GameDef for Hearts {
    const NAME: &'static str = "hearts";
    const ABOUT: &'static str = "4 players, 52 cards, 13 each; 2C leads, follow suit, hearts 1 and QS 13, \
         shooting the moon; lowest score wins";
    const OPTIONS: &'static [OptionDoc] = &[OptionDoc {
        key: "pass",
        default: "none",
        help: "pass 3 cards before play: none, left (to seat+1), right (to seat+3), across",
    }];
    type Config = HeartsConfig;

    fn config(spec: &Spec) -> Result<HeartsConfig, SpecError> {
        let names = Pass::ALL.map(|(_, n)| n);
        let name = spec.choice("pass", &names, "none")?;
        let pass = Pass::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map_or(Pass::None, |(p, _)| *p);
        Ok(HeartsConfig { pass })
    }

    fn new_game(config: &HeartsConfig, rng: &mut Rng) -> Hearts {
        let mut rest = CardSet::FULL;
        let mut hands = [CardSet::EMPTY; SEATS];
        for hand in hands.iter_mut().take(SEATS - 1) {
            *hand = rest.random_subset(HAND, rng);
            rest -= *hand;
        }
        hands[SEATS - 1] = rest;
        Hearts::from_hands(hands, config.pass).expect("a split of the pack")
    }

    fn from_deal(config: &HeartsConfig, deal: &str) -> Result<Hearts, DealError> {
        let parts: Vec<&str> = deal.split('|').collect();
        if parts.len() != SEATS {
            return Err(DealError::Invalid(format!(
                "expected {SEATS} '|'-separated hands, found {}",
                parts.len()
            )));
        }
        let mut hands = [CardSet::EMPTY; SEATS];
        for (seat, part) in parts.iter().enumerate() {
            hands[seat] = part
                .parse()
                .map_err(|e| DealError::Invalid(format!("hand {seat}: {e}")))?;
        }
        Hearts::from_hands(hands, config.pass)
    }

    fn deal_text(&self) -> String {
        let h = self.dealt_hands();
        format!("{} | {} | {} | {}", h[0], h[1], h[2], h[3])
    }

    fn hand_text(&self, seat: Seat) -> Option<String> {
        Some(self.hands[seat].to_string())
    }
}
