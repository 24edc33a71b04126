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

use crate::cards::{Card, CardSet, Suit};
use crate::deal::{ConstrainedDeal, Holder};
use crate::game::{DealError, DealSampler, Game, HiddenInfo, Rng, Seat};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::portuguese::{self as pt, Bandeira, DECK};

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
        let holdings: Vec<(String, CardSet, usize)> = (0..SEATS)
            .map(|s| (format!("hand {s}"), hands[s], HAND))
            .collect();
        pt::check_partition(&holdings)?;
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
        let follow = hand.0 & (CardSet::suit(self.lead.suit()).0 | leading);
        CardSet(if follow == 0 { hand.0 } else { follow })
    }

    #[inline]
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
        self.voids[p].0 |= CardSet::suit(self.lead.suit()).0 & (off_suit as u64).wrapping_neg();
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
        (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]).is_empty()
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

    fn match_units(&self, seat: Seat) -> Option<f64> {
        let team = seat & 1;
        Some(pt::match_units(
            self.points(team),
            self.tricks_won(team),
            TRICKS,
            self.bandeira,
        ))
    }

    fn parse_move(&self, text: &str) -> Result<Card, String> {
        pt::parse_pack_card(text, "move").map_err(|e| e.to_string())
    }
}

/// Samples the other three hands for one observer.
///
/// Built once per decision: the unknown cards are everything outside the observer's hand, the
/// played cards and the turned-up card while the dealer still holds it (that card stays fixed in
/// the dealer's hand); each other seat gets its hand size, minus its voids.
#[derive(Clone, Debug)]
pub struct SuecaSampler {
    base: Sueca,
    seats: [u8; SEATS - 1],
    fixed: [CardSet; SEATS - 1],
    deal: ConstrainedDeal,
}

impl DealSampler<Sueca> for SuecaSampler {
    #[inline]
    fn sample(&self, rng: &mut Rng) -> Sueca {
        let split = self.deal.sample(rng);
        let mut state = self.base;
        for ((&seat, part), fixed) in self.seats.iter().zip(split).zip(self.fixed) {
            state.hands[seat as usize] = part | fixed;
        }
        state
    }
}

impl HiddenInfo for Sueca {
    type Sampler = SuecaSampler;

    fn deal_sampler(&self, observer: Seat) -> Result<SuecaSampler, DealError> {
        let dealer = self.dealer as usize;
        let trump_fixed = if dealer != observer && self.hands[dealer].contains(self.trump) {
            self.trump.set()
        } else {
            CardSet::EMPTY
        };
        let mut seats = [0u8; SEATS - 1];
        let mut fixed = [CardSet::EMPTY; SEATS - 1];
        let mut holders = [Holder {
            size: 0,
            allowed: CardSet::EMPTY,
        }; SEATS - 1];
        let mut unknown = CardSet::EMPTY;
        for (i, seat) in (1..SEATS).map(|k| (observer + k) % SEATS).enumerate() {
            let known = if seat == dealer {
                trump_fixed
            } else {
                CardSet::EMPTY
            };
            seats[i] = seat as u8;
            fixed[i] = known;
            unknown |= self.hands[seat] - known;
            holders[i] = Holder {
                size: self.hands[seat].len() - known.len(),
                allowed: DECK - self.voids[seat],
            };
        }
        Ok(SuecaSampler {
            base: *self,
            seats,
            fixed,
            deal: ConstrainedDeal::new(unknown, &holders)?,
        })
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
        let dealer = spec.get("dealer", 3usize)?;
        if dealer >= SEATS {
            return Err(SpecError(format!(
                "{}: option dealer={dealer} must be a seat 0..3",
                spec.name
            )));
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert!(g.parse_move("Q").is_err());
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
