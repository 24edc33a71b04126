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
//! taken after the passes were delivered does not hold it (see `HeartsSampler`) and writes the
//! hands as they were after passing.
//!
//! # What a seat knows (determinization)
//!
//! Its own hand; every card played and by whom; the voids revealed by failing to follow suit;
//! hand sizes; whether hearts are broken; the cards it passed, which stay fixed in the receiver's
//! hand until the receiver plays them; the cards it received; and, once play starts, that the seat
//! to lead the first trick holds 2♣. During the passing phase it knows what it has passed so far;
//! the cards other seats have picked but not yet delivered are as unknown as the rest of their
//! hands. Only the plain void rule is used as a hard constraint: the first-trick and heart-leading
//! rules hint at more (a seat that discards a heart on the first trick has no safe card) but are
//! not modelled. See `HeartsSampler`.

use std::fmt;
use std::hint::select_unpredictable;
use std::sync::OnceLock;

use crate::cards::{Card, CardList, CardSet, Rank, Suit};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, Draws, Game, HiddenInfo, MAX_SEATS, Rng, Seat, possible_cards};
use crate::search::opponent_model::{ModelFeatures, OpponentModel};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

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
    /// A determinization taken after delivery does not know every seat's passes (see
    /// `HeartsSampler`); for it this is the hands as they were after passing, which is still a
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
            include_str!("../../models/hearts-opponent.txt"),
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

/// What the learned opponent model reads of a Hearts position ([`Hearts::model_view`]), read
/// once per position and then per legal card ([`HeartsModelView::features`]).
#[derive(Clone, Copy, Debug)]
struct HeartsModelView {
    hand: CardSet,
    gone: CardSet,
    /// The place in the trick (0 leads).
    place: usize,
    /// 1 when the mover cannot follow the led suit.
    void: usize,
    lead_suit: CardSet,
    /// The index of the trick's best card so far (`None` when leading).
    best: Option<u32>,
    /// The penalty points in the trick: none, hearts only, Q♠.
    in_trick: usize,
}

impl HeartsModelView {
    /// How the model reads `card`, one of the mover's legal cards. Four tables, each a cross
    /// of discrete features:
    /// 1. the place in the trick (0 leads), void in the led suit, whether the card would take
    ///    the trick so far, its kind (a plain card, a heart, Q♠, or K♠/A♠), its rank in four
    ///    bands (2-5, 6-9, 10-J, Q-A);
    /// 2. the place, void, the card's rank among the hand's cards of its suit (lowest,
    ///    highest, between, only), whether it is its suit's master (no higher card of the suit
    ///    left outside the hand), its kind;
    /// 3. the place, taking the trick, the penalty points already in it (none, hearts only,
    ///    Q♠), its kind;
    /// 4. leading or not, its kind, the hand's length in its suit, its rank band.
    #[inline]
    fn features(&self, card: Card) -> ModelFeatures {
        let (hand, place, void, in_trick) = (self.hand, self.place, self.void, self.in_trick);
        // Rank order is index order within a suit's lane: the trick's best is its highest
        // card of the led suit, and a card takes the trick when it is above that.
        let takes = match self.best {
            Some(best) => {
                (self.lead_suit.contains(card) && u32::from(card.index()) > best) as usize
            }
            None => 0,
        };
        let kind = if card == QUEEN_OF_SPADES {
            2
        } else if card.suit() == Suit::Hearts {
            1
        } else if card.suit() == Suit::Spades && card.rank() > Rank::Queen {
            3
        } else {
            0
        };
        let band = match card.rank().index() {
            0..=3 => 0,
            4..=7 => 1,
            8..=9 => 2,
            _ => 3,
        };
        let lane = CardSet::suit(card.suit());
        // Rank order is index order: the stronger cards are the lane's bits above the card.
        let above = CardSet(lane.0 & !((2u64 << card.index()) - 1));
        let suit = hand & lane;
        let (rank_in_hand, master) = crate::search::opponent_model::rank_and_master(
            card.set(),
            suit,
            hand,
            above,
            self.gone,
        );
        let length = suit.len().clamp(1, 4) - 1;
        let leading = (place == 0) as usize;
        let t1 = (((place * 2 + void) * 2 + takes) * 4 + kind) * 4 + band;
        let t2 = 256 + (((place * 2 + void) * 4 + rank_in_hand) * 2 + master) * 4 + kind;
        let t3 = 512 + ((place * 2 + takes) * 3 + in_trick) * 4 + kind;
        let t4 = 608 + ((leading * 4 + kind) * 4 + length) * 4 + band;
        [t1 as u16, t2 as u16, t3 as u16, t4 as u16]
    }
}

/// Parameters of the learned opponent model's feature tables (`HeartsModelView::features`).
pub const MODEL_PARAMS: usize = 256 + 256 + 96 + 128;

impl Hearts {
    /// What the learned opponent model reads of this position (in play, not passing), from
    /// the mover's own view: its hand, the trick and the cards played.
    fn model_view(&self) -> HeartsModelView {
        let hand = self.hands[self.to_move as usize];
        let place = self.in_trick as usize;
        let following = self.trick & self.lead_suit;
        HeartsModelView {
            hand,
            gone: self.played[0] | self.played[1] | self.played[2] | self.played[3],
            place,
            void: (place > 0 && (hand & self.lead_suit).is_empty()) as usize,
            lead_suit: self.lead_suit,
            best: following.0.checked_ilog2(),
            in_trick: match points_in(self.trick) {
                0 => 0,
                1..=12 => 1,
                _ => 2,
            },
        }
    }

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

impl HiddenInfo for Hearts {
    type InfoSet = CardInfoSet<Hearts>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Hearts> {
        CardInfoSet::of(self, observer)
    }

    fn can_rewind(&self) -> bool {
        self.pass == Pass::None
    }

    /// Without passing, hands change only by plays; a pass moves cards the state no longer
    /// traces, so a deal with passing cannot be rewound.
    fn dealt(&self) -> Option<Hearts> {
        if self.pass != Pass::None {
            return None;
        }
        let hands = std::array::from_fn(|s| self.hands[s] | self.played[s]);
        Hearts::from_hands(hands, Pass::None).ok()
    }

    fn possible_moves(&self, observer: Seat) -> CardSet {
        let mover = self.to_move as usize;
        if self.passes_left > 0 {
            // Passing: the observer knows its own hand and picks, nothing of anyone else's.
            return possible_cards(
                mover,
                observer,
                self.hands[observer],
                CardSet::FULL - self.passed[observer],
                CardSet::EMPTY,
            );
        }
        let unplayed = CardSet::FULL - self.played.iter().fold(CardSet::EMPTY, |all, &p| all | p);
        if self.pass != Pass::None {
            // The cards the observer received may have been passed before its search began
            // (unseen), so its hand is not the same in every determinization: any card still
            // out, but never a card the mover has proven it does not hold.
            return unplayed - self.excluded[mover];
        }
        possible_cards(
            mover,
            observer,
            self.hands[observer],
            unplayed,
            self.excluded[mover],
        )
    }
}

/// In a public part, the seat to move when the observer does not know it: after the passes, the
/// holder of 2♣ leads, which the others learn when it does.
const LEADER_UNKNOWN: u8 = SEATS as u8;

impl Hearts {
    /// How many cards `seat` has picked to pass so far (seats pick in order, three each).
    fn picked(&self, seat: Seat) -> usize {
        let picked_in_all = SEATS * PASS_CARDS - self.passes_left as usize;
        picked_in_all
            .saturating_sub(seat * PASS_CARDS)
            .min(PASS_CARDS)
    }

    /// Where 2♣ is as `observer` knows it, once passes are delivered: its own hand, the
    /// receiver of its passes if it passed 2♣, or nobody it knows.
    fn known_holder_of_two_of_clubs(&self, observer: Seat) -> Option<Seat> {
        if self.hands[observer].contains(TWO_OF_CLUBS) {
            Some(observer)
        } else if self.passed[observer].contains(TWO_OF_CLUBS) {
            Some(self.pass.receiver(observer))
        } else {
            None
        }
    }

    /// True before the first card of the first trick.
    fn before_first_lead(&self) -> bool {
        self.passes_left == 0 && self.tricks == 0 && self.in_trick == 0
    }
}

/// What a seat of Hearts sees: its own hand; the cards it picked to pass, which stay in the
/// receiver's hand until played; once delivered, the cards passed to it; every card played and
/// by whom; and what the plays prove ([`Hearts::excluded`]). It does not see which cards the
/// others picked to pass (those are moves it cannot see: a sample draws them), nor, before the
/// first lead, who holds 2♣ unless it holds it or passed it.
impl HiddenCards for Hearts {
    fn public_part(&self, observer: Seat) -> Hearts {
        let mut public = *self;
        let received_from = if self.passes_left == 0 && self.pass != Pass::None {
            Some(self.pass.giver(observer))
        } else {
            None
        };
        for seat in (0..SEATS).filter(|&s| s != observer) {
            public.hands[seat] = CardSet::EMPTY;
            if Some(seat) != received_from {
                public.passed[seat] = CardSet::EMPTY;
            }
        }
        if self.before_first_lead() && self.known_holder_of_two_of_clubs(observer).is_none() {
            public.to_move = LEADER_UNKNOWN;
        }
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let o = observer;
        let mut unseen = Unseen::NONE;
        let passing = self.is_passing();
        // What the observer passed stays with the receiver until played.
        let with_receiver = if passing || self.pass == Pass::None {
            CardSet::EMPTY
        } else {
            self.passed[o] - self.played_cards()
        };
        unseen.unknown = CardSet::FULL - self.hands[o] - self.played_cards() - self.passed[o];
        for seat in (1..SEATS).map(|k| (o + k) % SEATS) {
            if passing {
                // A hand and its picked cards: 13 cards, nothing known about them.
                unseen.add(Some(seat), HAND, CardSet::FULL, CardSet::EMPTY);
                continue;
            }
            let fixed = if seat == self.pass.receiver(o) {
                with_receiver
            } else {
                CardSet::EMPTY
            };
            let size = (HAND - self.played[seat].len())
                .checked_sub(fixed.len())
                .ok_or_else(|| {
                    DealError::Inconsistent(format!("seat {seat} holds fewer cards than known"))
                })?;
            unseen.add(Some(seat), size, CardSet::FULL - self.excluded[seat], fixed);
        }
        Ok(unseen)
    }

    fn with_unseen(&self, observer: Seat, parts: &[CardSet; MAX_HOLDERS], rng: &mut Rng) -> Hearts {
        let mut state = *self;
        for (i, seat) in (1..SEATS).map(|k| (observer + k) % SEATS).enumerate() {
            let mut cards = parts[i];
            if self.is_passing() {
                let picked = cards.random_subset(self.picked(seat), rng);
                state.passed[seat] = picked;
                cards -= picked;
            }
            state.hands[seat] = cards;
        }
        if state.to_move == LEADER_UNKNOWN {
            state.to_move = state.holder_of_two_of_clubs() as u8;
        }
        state
    }

    fn completions(&self, observer: Seat) -> u128 {
        if !self.is_passing() {
            return 1;
        }
        (0..SEATS)
            .filter(|&s| s != observer)
            .map(|s| binomial(HAND, self.picked(s)))
            .product()
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        (self.to_move != LEADER_UNKNOWN).then_some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        self.is_terminal()
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
        let bad = |m: String| Err(DealError::Inconsistent(m));
        let o = observer;
        if self.is_passing() {
            match (seat == o, mv) {
                (true, Some(card)) => {
                    self.hands[o].remove(card);
                    self.passed[o].insert(card);
                }
                (true, None) => return bad("a seat sees its own passes".into()),
                (false, Some(card)) => {
                    return bad(format!(
                        "seat {o} cannot see which card seat {seat} passes (send it unseen, not {card})"
                    ));
                }
                (false, None) => {}
            }
            self.passes_left -= 1;
            if (self.passes_left as usize).is_multiple_of(PASS_CARDS) {
                self.to_move = (seat as u8 + 1) % SEATS as u8;
            }
            if self.passes_left > 0 {
                return check_no_new_cards(hand_after, self.hands[o]);
            }
            // Delivery: the observer learns what it received, from its hand.
            let Some(after) = hand_after else {
                return bad(format!(
                    "the passes are delivered: give seat {o}'s hand after receiving its cards"
                ));
            };
            let received = after - self.hands[o];
            if !after.is_superset(self.hands[o]) || received.len() != PASS_CARDS {
                return bad(format!(
                    "seat {o} holds {} and receives {PASS_CARDS} cards: {after} is not such a hand",
                    self.hands[o]
                ));
            }
            if !(received & self.passed[o]).is_empty() {
                return bad(format!(
                    "seat {o} cannot receive the cards it passed ({received})"
                ));
            }
            self.passed[self.pass.giver(o)] = received;
            self.hands[o] = after;
            self.to_move = match self.known_holder_of_two_of_clubs(o) {
                Some(s) => s as u8,
                None => LEADER_UNKNOWN,
            };
            return Ok(());
        }
        let Some(card) = mv else {
            return bad("every card played to a trick is seen".into());
        };
        if self.before_first_lead() {
            if card != TWO_OF_CLUBS {
                return bad(format!("the first trick is led with 2C, not {card}"));
            }
            self.to_move = seat as u8;
        }
        // The card alone in the mover's hand: legal exactly when the hand may lack every card
        // the rules would have preferred, which `play` then records as excluded.
        self.hands[seat].insert(card);
        let own = self.hands[o];
        self.play(card);
        check_no_new_cards(hand_after, own - card.set())
    }
}

/// `n` choose `k`.
fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DealSampler, InfoSet, rng_from_seed};

    fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    fn deal(text: &str) -> Hearts {
        Hearts::from_deal(&HeartsConfig::default(), text).unwrap()
    }

    fn deal_passing(pass: Pass, text: &str) -> Hearts {
        Hearts::from_deal(&HeartsConfig { pass }, text).unwrap()
    }

    /// The learned model's features, decoded from their table indices: (takes the trick,
    /// kind, rank band) from table 1 and (rank in hand, master) from table 2.
    fn decoded(g: &Hearts, c: &str) -> (usize, usize, usize, usize, usize) {
        let [t1, t2, ..] = g.model_features(card(c)).unwrap().map(usize::from);
        let t2 = t2 - 256;
        (t1 / 16 % 2, t1 / 4 % 4, t1 % 4, t2 / 8 % 4, t2 / 4 % 2)
    }

    #[test]
    fn model_features_read_the_trick_and_the_hand() {
        let mut g = deal(
            "4C 6C 7C 9C JC 7D AD 5H KH AH 5S TS AS | 8C QC KC 3D 4D TD JD 2H 7H 9H TH 4S QS | \
             3C AC 5D KD 4H 6H 8H JH 2S 6S 8S JS KS | 2C 5C TC 2D 6D 8D 9D QD 3H QH 3S 7S 9S",
        );
        play_all(&mut g, "2C 9C QC AC 5D");
        // Seat 3 follows the 5♦: its 2♦ ducks (lowest), its 6♦ and Q♦ take it; K♦ and A♦ are
        // still out, so Q♦ is not the master.
        assert_eq!(decoded(&g, "2D"), (0, 0, 0, 0, 0));
        assert_eq!(decoded(&g, "6D"), (1, 0, 1, 2, 0));
        assert_eq!(decoded(&g, "QD"), (1, 0, 3, 1, 0));
        play_all(&mut g, "9D");
        // Seat 0 under the 9♦: 7♦ ducks, A♦ takes and is the suit's master.
        assert_eq!(decoded(&g, "7D"), (0, 0, 1, 0, 0));
        assert_eq!(decoded(&g, "AD"), (1, 0, 3, 1, 1));
        // Passing is not modelled.
        let passing = deal_passing(
            Pass::Left,
            "4C 6C 7C 9C JC 7D AD 5H KH AH 5S TS AS | 8C QC KC 3D 4D TD JD 2H 7H 9H TH 4S QS | \
             3C AC 5D KD 4H 6H 8H JH 2S 6S 8S JS KS | 2C 5C TC 2D 6D 8D 9D QD 3H QH 3S 7S 9S",
        );
        assert!(passing.model_features(card("AS")).is_none());
        assert!(!passing.visit_model_features(|_, _| ()));
    }

    fn play_all(g: &mut Hearts, moves: &str) {
        for m in moves.split_whitespace() {
            let c = card(m);
            assert!(
                g.legal_moves().contains(c),
                "{c} not legal for seat {}: {}",
                g.current_seat(),
                g.legal_moves()
            );
            g.play(c);
        }
    }

    /// One suit per seat: seat 0's clubs win every trick, so every line is a moon for seat 0.
    const SUIT_PER_SEAT: &str = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC \
        | 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD \
        | 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH \
        | 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS";

    /// A deal where seat 3 wins the first trick with its lone AC and hearts stay unbroken.
    const BREAKING: &str = "2C 3C 4C 5C 2H 3H 4H 5H 6H 2D 3D 4D 5D \
        | 6C 7C 8C 9C 7H 8H 9H TH 6D 7D 8D 9D 2S \
        | TC JC QC KC JH QH KH TD JD QD KD 3S 4S \
        | AC AH AD 5S 6S 7S 8S 9S TS JS QS KS AS";

    #[test]
    fn two_of_clubs_holder_leads_it_and_followers_must_follow() {
        // The 2C holder is seat 2 here; it must lead 2C whatever else it holds.
        let mut g = deal(
            "6C 7C 8C 9C 7H 8H 9H TH 6D 7D 8D 9D 2S \
             | TC JC QC KC JH QH KH TD JD QD KD 3S 4S \
             | 2C 3C 4C 5C 2H 3H 4H 5H 6H 2D 3D 4D 5D \
             | AC AH AD 5S 6S 7S 8S 9S TS JS QS KS AS",
        );
        assert_eq!(g.current_seat(), 2);
        assert_eq!(g.legal_moves(), cards("2C"));
        g.play(card("2C"));
        assert_eq!(g.current_seat(), 3);
        assert_eq!(g.legal_moves(), cards("AC"));
        g.play(card("AC"));
        assert_eq!(g.legal_moves(), cards("6C 7C 8C 9C"));
        g.play(card("9C"));
        assert_eq!(g.legal_moves(), cards("TC JC QC KC"));
        g.play(card("TC"));
        // AC wins; nobody failed to follow, so no voids are known.
        assert_eq!(g.current_seat(), 3);
        assert!((0..4).all(|s| g.excluded(s).is_empty()));
    }

    #[test]
    fn first_trick_discards_exclude_points_unless_nothing_else() {
        let mut g = deal(
            "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 7D 8D AS \
             | QS AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS \
             | 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH \
             | 7C 8C 9C TC JC QC KC AC 9D TD JD QD KD",
        );
        play_all(&mut g, "2C");
        // Seat 1 has no club: anything but QS (it has no heart).
        assert_eq!(g.legal_moves(), g.hand(1) - cards("QS"));
        play_all(&mut g, "AD");
        // Seat 2 holds only hearts: it must discard one after all.
        assert_eq!(g.legal_moves(), HEARTS);
        assert!(!g.hearts_broken());
        play_all(&mut g, "2H");
        assert!(g.hearts_broken());
        assert_eq!(g.legal_moves(), cards("7C 8C 9C TC JC QC KC AC"));
        play_all(&mut g, "AC");
        assert_eq!(g.current_seat(), 3);
        assert_eq!(g.points_taken(3), 1);
        assert_eq!(g.excluded(1), CardSet::suit(Suit::Clubs));
        // Seat 2 discarded a heart on the first trick, so it holds nothing but point cards.
        assert_eq!(g.excluded(2), CardSet::FULL - POINT_CARDS);
        // After the first trick any discard is allowed: seat 1 may now shed QS on a diamond lead.
        play_all(&mut g, "KD 8D");
        assert_eq!(g.legal_moves(), g.hand(1));
        assert!(g.legal_moves().contains(QUEEN_OF_SPADES));
    }

    #[test]
    fn first_trick_with_hearts_and_queen_only_allows_both() {
        // Seat 1 has no club and nothing but hearts and QS: every card is legal.
        let mut g = deal(
            "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 7D 8D AS \
             | QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH \
             | AH AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS \
             | 7C 8C 9C TC JC QC KC AC 9D TD JD QD KD",
        );
        play_all(&mut g, "2C");
        assert_eq!(g.legal_moves(), g.hand(1));
        play_all(&mut g, "QS");
        assert!(g.hearts_broken(), "QS breaks hearts");
        // Seat 2 has safe cards, so neither AH nor (absent) QS.
        assert_eq!(g.legal_moves(), g.hand(2) - cards("AH"));
    }

    #[test]
    fn hearts_cannot_be_led_until_broken() {
        let mut g = deal(BREAKING);
        play_all(&mut g, "2C 6C TC AC");
        assert_eq!(g.current_seat(), 3);
        assert_eq!(g.points_taken(3), 0);
        assert!(!g.hearts_broken());
        // Seat 3 holds AH but may not lead it.
        assert_eq!(g.legal_moves(), g.hand(3) - cards("AH"));
        play_all(&mut g, "AD");
        assert_eq!(g.legal_moves(), cards("2D 3D 4D 5D"));
        play_all(&mut g, "2D 6D TD");
        assert_eq!(g.current_seat(), 3);
        play_all(&mut g, "5S");
        // Seat 0 has no spade and it is not the first trick: hearts are fine to discard.
        assert_eq!(g.legal_moves(), g.hand(0));
        play_all(&mut g, "6H");
        assert!(g.hearts_broken());
        assert_eq!(g.excluded(0), CardSet::suit(Suit::Spades));
        play_all(&mut g, "2S 4S");
        assert_eq!((g.current_seat(), g.points_taken(3)), (3, 1));
        // Broken: AH may be led now.
        assert_eq!(g.legal_moves(), g.hand(3));
        assert!(g.legal_moves().contains(card("AH")));
    }

    #[test]
    fn a_hand_of_only_hearts_may_lead_them_and_off_suit_high_cards_do_not_win() {
        let mut g = deal(
            "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S AH \
             | 6C 7C 8C 9C 7D 8D 9D TD 5S 6S 7S 8S 9S \
             | TC JC QC KC JD QD KD AD TS JS QS KS AS \
             | AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        );
        play_all(&mut g, "2C 6C TC AC");
        assert_eq!(g.current_seat(), 3);
        assert!(!g.hearts_broken());
        assert_eq!(
            g.legal_moves(),
            cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
        );
        play_all(&mut g, "2H");
        assert_eq!(g.legal_moves(), cards("AH"));
        play_all(&mut g, "AH");
        // Seats 1 and 2 are void in hearts; AS is the highest card played but not of the led suit.
        assert_eq!(g.legal_moves(), g.hand(1));
        play_all(&mut g, "9S AS");
        assert_eq!(g.current_seat(), 0);
        assert_eq!(g.points_taken(0), 2);
        assert_eq!(g.excluded(1), HEARTS);
        assert_eq!(g.excluded(2), HEARTS);
    }

    #[test]
    fn every_line_of_the_suit_per_seat_deal_is_a_moon() {
        let mut rng = rng_from_seed(5);
        for _ in 0..50 {
            let mut g = deal(SUIT_PER_SEAT);
            while !g.is_terminal() {
                assert_eq!(
                    g.in_trick == 0,
                    g.current_seat() == 0,
                    "seat 0 leads every trick"
                );
                g.play(g.legal_moves().random(&mut rng));
            }
            assert_eq!(g.points, [26, 0, 0, 0]);
            assert_eq!(g.final_scores(), [0, 26, 26, 26]);
            assert_eq!(
                (0..4).map(|s| g.score(s)).collect::<Vec<_>>(),
                [0.0, 26.0, 26.0, 26.0]
            );
            assert_eq!(
                (0..4).map(|s| g.reward(s)).collect::<Vec<_>>(),
                [1.0, 0.0, 0.0, 0.0]
            );
        }
    }

    #[test]
    fn whole_game_with_lowest_card_policy_ends_in_a_shared_win() {
        // Traced by hand, each seat playing its lowest legal card in bit order (clubs first):
        // trick 1 2C AC AD KD → seat 1, 0 points; trick 2 2D 3H 2H 3C → seat 1, 2 points;
        // tricks 3–12 seat 1 leads 3D…QD and takes one heart each (10 points); trick 13
        // KS AH AS QS → seat 3 takes 14 points. Seats 0 and 2 share the win at 0.
        let mut g = deal(
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC QS \
             | AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KS \
             | 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH AD \
             | KD 2S 3S 4S 5S 6S 7S 8S 9S TS JS AS 2H",
        );
        let mut winners = Vec::new();
        while !g.is_terminal() {
            let before = g.tricks;
            g.play(g.legal_moves().first().unwrap());
            if g.tricks != before {
                winners.push(g.current_seat());
            }
        }
        assert_eq!(winners, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(g.final_scores(), [0, 12, 0, 14]);
        assert_eq!(
            (0..4).map(|s| g.reward(s)).collect::<Vec<_>>(),
            [0.5, 0.0, 0.5, 0.0]
        );
    }

    #[test]
    fn reward_shares_the_win_among_tied_lowest() {
        let mut g = deal(SUIT_PER_SEAT);
        g.tricks = TRICKS as u8;
        g.points = [2, 2, 2, 20];
        assert_eq!(
            (0..4).map(|s| g.reward(s)).collect::<Vec<_>>(),
            [1.0 / 3.0; 3].into_iter().chain([0.0]).collect::<Vec<_>>()
        );
        g.points = [5, 0, 21, 0];
        assert_eq!(
            (0..4).map(|s| g.reward(s)).collect::<Vec<_>>(),
            [0.0, 0.5, 0.0, 0.5]
        );
        g.points = [0, 26, 0, 0];
        assert_eq!(g.final_scores(), [26, 0, 26, 26]);
        assert_eq!(g.reward(1), 1.0);
    }

    #[test]
    fn placing_counts_the_seats_beaten_and_half_the_ties() {
        let mut g = deal(SUIT_PER_SEAT);
        g.tricks = TRICKS as u8;
        let placings = |g: &Hearts| (0..4).map(|s| g.placing(s)).collect::<Vec<_>>();
        g.points = [2, 2, 2, 20];
        assert_eq!(placings(&g), [4.0 / 6.0, 4.0 / 6.0, 4.0 / 6.0, 0.0]);
        g.points = [5, 0, 13, 8];
        assert_eq!(placings(&g), [2.0 / 3.0, 1.0, 0.0, 1.0 / 3.0]);
        // A moon: the shooter beats all three, the others tie with each other at 26.
        g.points = [0, 26, 0, 0];
        assert_eq!(placings(&g), [2.0 / 6.0, 1.0, 2.0 / 6.0, 2.0 / 6.0]);
    }

    fn pass_all(g: &mut Hearts, picks: [&str; 4]) {
        for (seat, pick) in picks.iter().enumerate() {
            for c in cards(pick) {
                assert!(g.is_passing());
                assert_eq!(g.current_seat(), seat);
                assert_eq!(g.legal_moves(), g.hand(seat));
                g.play(c);
            }
        }
        assert!(!g.is_passing());
    }

    #[test]
    fn passing_moves_the_right_cards_in_each_direction() {
        let picks = ["2C 3C AS", "2D 3D AD", "2H 3H AH", "2S 3S QS"];
        for (pass, offset) in [(Pass::Left, 1), (Pass::Across, 2), (Pass::Right, 3)] {
            let mut g = deal_passing(
                pass,
                SUIT_PER_SEAT
                    .replace("AC", "XX")
                    .replace("AS", "AC")
                    .replace("XX", "AS")
                    .as_str(),
            );
            let dealt = g.hands;
            assert_eq!(g.current_seat(), 0);
            pass_all(&mut g, picks);
            for s in 0..4 {
                let giver = (s + 4 - offset) % 4;
                assert_eq!(pass.giver(s), giver);
                assert_eq!(pass.receiver(giver), s);
                assert_eq!(
                    g.hand(s),
                    (dealt[s] - cards(picks[s])) | cards(picks[giver])
                );
                assert_eq!(g.hand(s).len(), HAND);
            }
            // 2C went to seat `offset`, which now leads it.
            assert_eq!(g.current_seat(), offset);
            assert_eq!(g.legal_moves(), cards("2C"));
            assert_eq!(g.dealt_hands(), dealt);
        }
    }

    #[test]
    fn no_passing_phase_without_the_option() {
        let g = deal(SUIT_PER_SEAT);
        assert!(!g.is_passing());
        assert_eq!(g.legal_moves(), cards("2C"));
    }

    #[test]
    fn bad_deals_name_the_problem() {
        let cfg = HeartsConfig::default();
        let err = |text: &str| match Hearts::from_deal(&cfg, text) {
            Err(DealError::Invalid(msg)) => msg,
            other => panic!("{text:?} gave {other:?}"),
        };
        assert!(err("2C 3C").contains("expected 4"));
        let three: Vec<&str> = SUIT_PER_SEAT.split('|').take(3).collect();
        assert!(err(&three.join("|")).contains("expected 4"));
        assert!(err(&SUIT_PER_SEAT.replace("AS", "AX")).contains("hand 3"));
        assert!(err(&SUIT_PER_SEAT.replace(" AS", "")).contains("hand 3 has 12 cards"));
        assert!(err(&SUIT_PER_SEAT.replace("AS", "AH")).contains("card AH is in hands 2 and 3"));
        assert!(err(&SUIT_PER_SEAT.replace("4S", "4S 4S")).contains("hand 3"));
    }

    #[test]
    fn options_parse_and_unknown_values_are_errors() {
        let spec: Spec = "hearts:pass=across".parse().unwrap();
        assert_eq!(Hearts::config(&spec).unwrap().pass, Pass::Across);
        let spec: Spec = "hearts".parse().unwrap();
        assert_eq!(Hearts::config(&spec).unwrap().pass, Pass::None);
        let spec: Spec = "hearts:pass=up".parse().unwrap();
        assert!(Hearts::config(&spec).is_err());
        for (p, name) in Pass::ALL {
            assert_eq!(p.name(), name);
        }
    }

    /// A deliberately naive second implementation of the rules (vectors, no bitboards), used to
    /// check the fast one move by move.
    struct Reference {
        hands: Vec<Vec<Card>>,
        trick: Vec<(Seat, Card)>,
        tricks: usize,
        broken: bool,
        points: Vec<u32>,
    }

    impl Reference {
        fn new(hands: [CardSet; SEATS]) -> Reference {
            Reference {
                hands: hands.iter().map(|h| h.iter().collect()).collect(),
                trick: Vec::new(),
                tricks: 0,
                broken: false,
                points: vec![0; SEATS],
            }
        }

        fn legal(&self, seat: Seat) -> Vec<Card> {
            let hand = &self.hands[seat];
            let is_point = |c: &Card| c.suit() == Suit::Hearts || *c == QUEEN_OF_SPADES;
            if let Some(&(_, lead)) = self.trick.first() {
                let follow: Vec<Card> = hand
                    .iter()
                    .copied()
                    .filter(|c| c.suit() == lead.suit())
                    .collect();
                if !follow.is_empty() {
                    return follow;
                }
                let safe: Vec<Card> = hand.iter().copied().filter(|c| !is_point(c)).collect();
                if self.tricks == 0 && !safe.is_empty() {
                    return safe;
                }
                return hand.clone();
            }
            if self.tricks == 0 {
                return vec![TWO_OF_CLUBS];
            }
            let non_hearts: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| c.suit() != Suit::Hearts)
                .collect();
            if !self.broken && !non_hearts.is_empty() {
                return non_hearts;
            }
            hand.clone()
        }

        /// Plays a card; returns the trick's winner when it completes the trick.
        fn play(&mut self, seat: Seat, card: Card) -> Option<Seat> {
            self.hands[seat].retain(|&c| c != card);
            self.broken |= card.suit() == Suit::Hearts || card == QUEEN_OF_SPADES;
            self.trick.push((seat, card));
            if self.trick.len() < SEATS {
                return None;
            }
            let lead = self.trick[0].1.suit();
            let &(winner, _) = self
                .trick
                .iter()
                .filter(|(_, c)| c.suit() == lead)
                .max_by_key(|(_, c)| c.rank())
                .unwrap();
            for &(_, c) in &self.trick {
                self.points[winner] += match c {
                    c if c.suit() == Suit::Hearts => 1,
                    c if c == QUEEN_OF_SPADES => 13,
                    _ => 0,
                };
            }
            self.trick.clear();
            self.tricks += 1;
            Some(winner)
        }
    }

    #[test]
    fn the_trick_by_trick_playout_ends_where_move_by_move_play_does() {
        // From every passing direction, from openings and from positions part-way through
        // (mid-pass, mid-trick, first trick, late): the same generator must give the same final
        // state as play() move by move with the draws restarted at each trick, and leave the
        // generator at the same point.
        let mut rng = rng_from_seed(31);
        for game in 0..3_000u64 {
            let (pass, _) = Pass::ALL[game as usize % 4];
            let start = Hearts::new_game(&HeartsConfig { pass }, &mut rng);
            crate::game::assert_playout_matches_reference(start, &mut rng, 64, game, |g, r| {
                crate::game::playout_by_moves_restarting(g, r, |g, _| {
                    !g.is_passing() && g.in_trick == 0
                })
            });
        }
    }

    /// Plays one random game, checking every move against [`Reference`]; returns the end state.
    /// The playout rule over random positions (half its own moves, half random ones): its move
    /// is legal; following suit it plays the highest card under the winning one when there is
    /// one; unable to follow it discards Q♠ when it may, else its highest heart.
    #[test]
    fn heuristic_moves_follow_the_rule() {
        let mut rng = rng_from_seed(8);
        let (mut ducks, mut queens) = (0, 0);
        for _ in 0..400 {
            let mut g = Hearts::new_game(&HeartsConfig { pass: Pass::Left }, &mut rng);
            while !g.is_terminal() {
                let legal = g.legal_moves();
                let mv = g.heuristic_move(&mut rng);
                assert!(legal.contains(mv), "{mv} not legal in {g:?}");
                if !g.is_passing() && g.in_trick > 0 {
                    let winner = (g.trick & g.lead_suit).last().unwrap();
                    let under = CardSet(legal.0 & g.lead_suit.0 & (winner.set().0 - 1));
                    if (legal & g.lead_suit).is_empty() {
                        if legal.contains(QUEEN_OF_SPADES) {
                            assert_eq!(mv, QUEEN_OF_SPADES);
                            queens += 1;
                        } else if let Some(heart) = (legal & HEARTS).last() {
                            assert_eq!(mv, heart);
                        }
                    } else if let Some(duck) = under.last() {
                        assert_eq!(mv, duck);
                        ducks += 1;
                    }
                }
                g.play(if rand::Rng::next_u32(&mut rng) & 1 == 0 {
                    mv
                } else {
                    legal.random(&mut rng)
                });
            }
        }
        assert!(
            ducks > 100 && queens > 10,
            "rules hardly exercised: {ducks} {queens}"
        );
    }

    fn checked_random_game(pass: Pass, rng: &mut Rng) -> Hearts {
        let config = HeartsConfig { pass };
        let start = Hearts::new_game(&config, rng);
        let text = start.deal_text();
        assert_eq!(Hearts::from_deal(&config, &text).unwrap(), start, "{text}");
        let mut g = start;
        let mut passes = 0;
        while g.is_passing() {
            let moves = g.legal_moves();
            assert_eq!(moves, g.hand(g.current_seat()));
            assert_eq!(g.current_seat(), passes / PASS_CARDS);
            g.play(moves.random(rng));
            passes += 1;
        }
        assert_eq!(passes, if pass == Pass::None { 0 } else { 12 });
        let mut reference = Reference::new(g.hands);
        let mut plies = 0;
        while !g.is_terminal() {
            let seat = g.current_seat();
            let moves = g.legal_moves();
            assert!(!moves.is_empty(), "no legal move in {g:?}");
            assert!(g.hand(seat).is_superset(moves));
            assert_eq!(moves, CardSet::from_cards(reference.legal(seat)), "{g:?}");
            let c = moves.random(rng);
            g.play(c);
            if let Some(winner) = reference.play(seat, c) {
                assert_eq!(g.current_seat(), winner);
            }
            plies += 1;
        }
        assert_eq!(plies, 52);
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.points.map(u32::from).to_vec(), reference.points);
        assert_eq!(
            g.deal_text(),
            text,
            "the dealt hands are recoverable at the end"
        );
        g
    }

    #[test]
    fn random_games_keep_the_invariants_and_agree_with_the_reference_rules() {
        let mut rng = rng_from_seed(2024);
        let mut moons = 0;
        let mut games = 0;
        for (pass, count) in [
            (Pass::None, 10_000),
            (Pass::Left, 1_000),
            (Pass::Right, 1_000),
            (Pass::Across, 1_000),
        ] {
            for _ in 0..count {
                let g = checked_random_game(pass, &mut rng);
                games += 1;
                let played = g.played;
                assert_eq!(played.iter().map(|p| p.len()).sum::<usize>(), 52);
                assert_eq!(played[0] | played[1] | played[2] | played[3], CardSet::FULL);
                assert!((0..SEATS).all(|s| played[s].len() == HAND && g.hand(s).is_empty()));
                assert_eq!(g.points.iter().map(|&p| p as u32).sum::<u32>(), 26);
                let total: u32 = g.final_scores().iter().map(|&p| p as u32).sum();
                let moon = g.points.contains(&26);
                moons += moon as u32;
                assert_eq!(total, if moon { 78 } else { 26 });
                let rewards: f64 = (0..SEATS).map(|s| g.reward(s)).sum();
                assert!((rewards - 1.0).abs() < 1e-12);
            }
        }
        assert_eq!(games, 13_000);
        // Random play rarely shoots the moon, but it must be reachable for the check to mean
        // anything; this seed gives 133 moons in 13,000 games.
        assert!(moons > 0);
    }

    /// Checks one determinization against the true state `g` for `observer`.
    fn check_sample(g: &Hearts, d: &Hearts, o: Seat) {
        // Own hand and passes, and every public fact, are kept.
        assert_eq!(d.hands[o], g.hands[o]);
        assert_eq!(d.passed[o], g.passed[o]);
        assert_eq!(
            (
                d.played,
                d.excluded,
                d.trick,
                d.points,
                d.pass,
                d.passes_left
            ),
            (
                g.played,
                g.excluded,
                g.trick,
                g.points,
                g.pass,
                g.passes_left
            )
        );
        assert_eq!((d.lead_suit, d.in_trick), (g.lead_suit, g.in_trick));
        // Before the first lead, a seat that neither holds nor passed 2♣ does not know who
        // leads: in each sample, the holder of 2♣ does.
        if g.before_first_lead() && g.known_holder_of_two_of_clubs(o).is_none() {
            assert!(d.hands[d.current_seat()].contains(TWO_OF_CLUBS));
        } else {
            assert_eq!(d.to_move, g.to_move);
        }
        assert_eq!((d.tricks, d.hearts_broken), (g.tricks, g.hearts_broken));
        assert_eq!(
            (d.lead_filter, d.discard_filter),
            (g.lead_filter, g.discard_filter)
        );
        for s in 0..SEATS {
            assert_eq!(d.hands[s].len(), g.hands[s].len(), "hand size of seat {s}");
            // What the plays proved holds: no card the seat has shown it lacks.
            assert!(
                (d.hands[s] & d.excluded[s]).is_empty(),
                "seat {s} exclusion broken"
            );
        }
        let pool = |h: &Hearts| {
            (0..SEATS).filter(|&s| s != o).fold(CardSet::EMPTY, |u, s| {
                u | h.hands[s]
                    | if h.is_passing() {
                        h.passed[s]
                    } else {
                        CardSet::EMPTY
                    }
            })
        };
        assert_eq!(
            pool(d),
            pool(g),
            "the unknown cards are redistributed, not changed"
        );
        if g.is_passing() {
            for s in 0..SEATS {
                assert_eq!(d.passed[s].len(), g.passed[s].len());
                assert!((d.passed[s] & d.hands[s]).is_empty());
            }
        } else {
            if g.pass != Pass::None {
                // The observer's passes stay with the receiver until played.
                let receiver = g.pass.receiver(o);
                assert!(d.hands[receiver].is_superset(g.passed[o] - g.played_cards()));
                // It knows what it received; other seats' passes are forgotten.
                let giver = g.pass.giver(o);
                assert_eq!(d.passed[giver], g.passed[giver]);
                for s in 0..SEATS {
                    if s != o && s != giver {
                        assert!(d.passed[s].is_empty());
                    }
                }
            }
        }
        if g.current_seat() == o {
            assert_eq!(d.legal_moves(), g.legal_moves());
        }
    }

    #[test]
    fn determinizations_keep_public_facts_and_respect_voids_and_passes() {
        let mut rng = rng_from_seed(77);
        let mut varied = 0;
        let mut checked = 0;
        for game in 0..400 {
            let pass = Pass::ALL[game % 4].0;
            let mut g = Hearts::new_game(&HeartsConfig { pass }, &mut rng);
            let mut ply = 0;
            while !g.is_terminal() {
                if ply % 3 == game % 3 {
                    let o = (ply + game) % SEATS;
                    let sampler = g.deal_sampler(o).unwrap();
                    for _ in 0..4 {
                        let mut d = sampler.sample(&mut rng);
                        check_sample(&g, &d, o);
                        varied += (d.hands != g.hands) as u32;
                        let text = d.deal_text();
                        let redealt = Hearts::from_deal(&HeartsConfig { pass }, &text).unwrap();
                        if !g.is_passing() && pass != Pass::None {
                            // Written after passing: every seat holds what it held after delivery.
                            assert!(
                                (0..SEATS).all(|s| redealt.hands[s] == d.hands[s] | d.played[s])
                            );
                        } else {
                            assert_eq!(redealt.dealt_hands(), d.dealt_hands(), "{text}");
                        }
                        checked += 1;
                        // A determinization is a real game: it plays out under the same rules.
                        while !d.is_terminal() {
                            d.play(d.legal_moves().random(&mut rng));
                        }
                        assert_eq!(d.points.iter().map(|&p| p as u32).sum::<u32>(), 26);
                    }
                }
                g.play(g.legal_moves().random(&mut rng));
                ply += 1;
            }
        }
        // Most positions leave many consistent deals, so samples must usually differ from the
        // truth; a sampler that leaked the true hands would fail this.
        assert!(
            varied * 2 > checked,
            "{varied} of {checked} samples differ from the truth"
        );
    }

    #[test]
    fn only_the_holder_and_its_passer_know_who_leads_the_first_trick() {
        let mut rng = rng_from_seed(9);
        for pass in [Pass::None, Pass::Across] {
            let mut g = deal_passing(pass, BREAKING);
            while g.is_passing() {
                g.play(g.legal_moves().random(&mut rng));
            }
            let leader = g.current_seat();
            for o in (0..SEATS).filter(|&o| o != leader) {
                let info = g.info_set(o);
                let knows = g.passed[o].contains(TWO_OF_CLUBS);
                assert_eq!(info.seat_to_move(), knows.then_some(leader), "observer {o}");
                let sampler = info.sampler().unwrap();
                let mut leads = [0u32; SEATS];
                for _ in 0..300 {
                    let d = sampler.sample(&mut rng);
                    assert!(d.hand(d.current_seat()).contains(TWO_OF_CLUBS));
                    assert_eq!(d.legal_moves(), cards("2C"));
                    leads[d.current_seat()] += 1;
                }
                // Each of the three other seats holds 2♣ in about a third of the samples unless
                // the observer passed it: Binomial(300, 1/3) is 100 ± 8.2, so 50 is 6 sd away.
                for s in (0..SEATS).filter(|&s| s != o) {
                    if knows {
                        assert_eq!(leads[s], if s == leader { 300 } else { 0 });
                    } else {
                        assert!(leads[s] > 50, "seat {s} led {} times", leads[s]);
                    }
                }
            }
        }
    }

    #[test]
    fn passing_phase_samples_split_the_undelivered_passes_uniformly() {
        // Seat 2 is picking its second card. Seats 0 and 1 have picked 3 each, unseen by seat 2:
        // each of the 39 cards seat 2 cannot see is among seat 0's picks with probability 3/39.
        let mut g = deal_passing(Pass::Left, BREAKING);
        play_all(&mut g, "2C 3C 4C 6C 7C 8C TC");
        assert_eq!(g.current_seat(), 2);
        let sampler = g.deal_sampler(2).unwrap();
        let mut rng = rng_from_seed(31);
        let n = 26_000;
        let mut counts = [0u32; 64];
        for _ in 0..n {
            let d = sampler.sample(&mut rng);
            check_sample(&g, &d, 2);
            for c in d.passed(0) {
                counts[c.index() as usize] += 1;
            }
        }
        let unseen = CardSet::FULL - g.hand(2) - g.passed(2);
        assert_eq!(unseen.len(), 39);
        // Each count ~ Binomial(26000, 1/13): mean 2000, sd ≈ 43; 6 sd = 258 over 39 cards.
        for c in unseen {
            let k = counts[c.index() as usize] as i64;
            assert!((k - 2000).abs() < 258, "{c}: {k}");
        }
        for c in g.hand(2) | g.passed(2) {
            assert_eq!(counts[c.index() as usize], 0);
        }
    }

    /// Every way to deal the cards the observer cannot place, consistent with what it knows,
    /// found by brute force (small positions only).
    fn consistent_deals(g: &Hearts, o: Seat) -> Vec<[CardSet; SEATS]> {
        let others: Vec<Seat> = (0..SEATS).filter(|&s| s != o).collect();
        let pool: Vec<Card> = others
            .iter()
            .fold(CardSet::EMPTY, |u, &s| u | g.hands[s])
            .iter()
            .collect();
        let mut out = Vec::new();
        // Assign each pool card to one of the three other seats: 3^n labellings.
        for code in 0..3usize.pow(pool.len() as u32) {
            let mut hands = g.hands;
            for &s in &others {
                hands[s] = CardSet::EMPTY;
            }
            let mut x = code;
            for &c in &pool {
                hands[others[x % 3]].insert(c);
                x /= 3;
            }
            let fits = others.iter().all(|&s| {
                hands[s].len() == g.hands[s].len()
                    && (hands[s] & g.excluded[s]).is_empty()
                    && (g.pass == Pass::None
                        || s != g.pass.receiver(o)
                        || hands[s].is_superset(g.passed[o] - g.played_cards()))
            });
            if fits {
                out.push(hands);
            }
        }
        out
    }

    #[test]
    fn late_samples_cover_exactly_the_consistent_deals() {
        let mut rng = rng_from_seed(4);
        let mut positions = 0;
        let mut with_voids = 0;
        while positions < 12 {
            let pass = Pass::ALL[positions % 4].0;
            let mut g = Hearts::new_game(&HeartsConfig { pass }, &mut rng);
            while g.is_passing() || g.tricks < 10 || g.in_trick != 1 {
                g.play(g.legal_moves().random(&mut rng));
            }
            let o = (positions * 3 + 1) % SEATS;
            let expected = consistent_deals(&g, o);
            assert!(expected.contains(&g.hands));
            with_voids += (0..SEATS).any(|s| s != o && !g.excluded[s].is_empty()) as u32;
            let sampler = g.deal_sampler(o).unwrap();
            let mut seen = std::collections::HashSet::new();
            // At most a few hundred deals; 200 draws each leave a miss with chance < 1e-80.
            for _ in 0..200 * expected.len() {
                let d = sampler.sample(&mut rng);
                assert!(expected.contains(&d.hands), "inconsistent sample {d:?}");
                seen.insert(d.hands);
            }
            assert_eq!(seen.len(), expected.len());
            positions += 1;
        }
        assert!(
            with_voids > 6,
            "the positions should exercise void constraints"
        );
    }
}
