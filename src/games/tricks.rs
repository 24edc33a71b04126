//! Tricks: the two-player toy trick-taking game of the note "ISMCTS and the Hidden Hand".
//!
//! Twelve cards (spades, hearts, diamonds × J Q K A), four to each player, four in a stock that
//! nobody ever sees. Seat 0 leads the first trick; follow suit if able; the highest card of the led
//! suit wins and leads next. After four tricks, more tricks wins; equal is a tie.
//!
//! Deal notation: `hand0 | hand1 | stock`, e.g. `JS QS KH AD | AS JH QH KD | KS AH JD QD`.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::deal::MAX_HOLDERS;
use crate::game::{DealError, Game, HiddenInfo, Rng, Seat, possible_cards};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;
use super::unseen::{CardInfoSet, HiddenCards, Unseen, check_no_new_cards};

impl HiddenInfo for Tricks {
    type InfoSet = CardInfoSet<Tricks>;

    fn info_set(&self, observer: Seat) -> CardInfoSet<Tricks> {
        CardInfoSet::of(self, observer)
    }

    fn possible_moves(&self, observer: Seat) -> CardSet {
        let mover = self.to_move as usize;
        let unplayed = DECK - self.played[0] - self.played[1];
        possible_cards(
            mover,
            observer,
            self.hands[observer],
            unplayed,
            self.voids[mover],
        )
    }
}

/// Cards per hand.
pub const HAND: usize = 4;

/// The suits in play.
pub const SUITS: [Suit; 3] = [Suit::Spades, Suit::Hearts, Suit::Diamonds];

/// The 12-card pack.
pub const DECK: CardSet = CardSet(
    (CardSet::suit(Suit::Spades).0
        | CardSet::suit(Suit::Hearts).0
        | CardSet::suit(Suit::Diamonds).0)
        & (CardSet::rank(Rank::Jack).0
            | CardSet::rank(Rank::Queen).0
            | CardSet::rank(Rank::King).0
            | CardSet::rank(Rank::Ace).0),
);

/// A Tricks position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tricks {
    hands: [CardSet; 2],
    stock: CardSet,
    /// Cards each seat has played.
    played: [CardSet; 2],
    /// Suits each seat has shown it lacks (failed to follow).
    voids: [CardSet; 2],
    /// The card led to the current trick, if one has been.
    lead: Option<Card>,
    to_move: u8,
    tricks_won: [u8; 2],
}

impl Tricks {
    /// The card led to the trick in progress, if one has been.
    pub fn lead(&self) -> Option<Card> {
        self.lead
    }

    /// A game from explicit hands and stock; errors unless they split the pack 4/4/4.
    pub fn from_hands(hands: [CardSet; 2], stock: CardSet) -> Result<Tricks, DealError> {
        let all = hands[0] | hands[1] | stock;
        if hands.iter().any(|h| h.len() != HAND) || stock.len() != HAND || all != DECK {
            return Err(DealError::Invalid(format!(
                "Tricks needs hands of 4 and a stock of 4 that together are the 12 cards {DECK}"
            )));
        }
        Ok(Tricks {
            hands,
            stock,
            played: [CardSet::EMPTY; 2],
            voids: [CardSet::EMPTY; 2],
            lead: None,
            to_move: 0,
            tricks_won: [0; 2],
        })
    }

    /// A seat's hand (the true state: only the harness and cheating agents see other hands).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// Tricks taken by `seat` so far.
    pub fn tricks_won(&self, seat: Seat) -> u32 {
        self.tricks_won[seat] as u32
    }
}

impl Game for Tricks {
    fn exact() -> Option<&'static dyn crate::solver::Endgame<Tricks>> {
        Some(&crate::solver::Exact::<Tricks>::NEW)
    }

    type Move = Card;
    type Moves = CardSet;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.to_move as Seat
    }

    #[inline]
    fn legal_moves(&self) -> CardSet {
        let hand = self.hands[self.to_move as usize];
        if let Some(lead) = self.lead {
            let follow = hand.of_suit(lead.suit());
            if !follow.is_empty() {
                return follow;
            }
        }
        hand
    }

    #[inline]
    fn play(&mut self, card: Card) {
        let p = self.to_move as usize;
        debug_assert!(self.legal_moves().contains(card), "illegal {card}");
        self.hands[p].remove(card);
        self.played[p].insert(card);
        match self.lead {
            None => {
                self.lead = Some(card);
                self.to_move ^= 1;
            }
            Some(lead) => {
                if card.suit() != lead.suit() {
                    self.voids[p] |= CardSet::suit(lead.suit());
                }
                // The follower wins only with a higher card of the led suit.
                let follower_wins = card.suit() == lead.suit() && card.rank() > lead.rank();
                let winner = if follower_wins { p } else { p ^ 1 };
                self.tricks_won[winner] += 1;
                self.lead = None;
                self.to_move = winner as u8;
            }
        }
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.hands[0].is_empty() && self.hands[1].is_empty()
    }

    #[inline]
    fn reward(&self, seat: Seat) -> f64 {
        let (a, b) = (self.tricks_won[seat], self.tricks_won[seat ^ 1]);
        if a > b {
            1.0
        } else if a == b {
            0.5
        } else {
            0.0
        }
    }

    fn score(&self, seat: Seat) -> f64 {
        self.tricks_won[seat] as f64
    }

    /// Tricks won minus tricks lost, over the tricks of a deal.
    fn margin(&self, seat: Seat) -> f64 {
        let (a, b) = (
            self.tricks_won[seat] as f64,
            self.tricks_won[seat ^ 1] as f64,
        );
        (a - b) / (a + b).max(1.0)
    }

    fn tricks_completed(&self) -> Option<u32> {
        Some((self.tricks_won[0] + self.tricks_won[1]) as u32)
    }

    fn trick_position(&self) -> Option<usize> {
        Some(usize::from(self.lead.is_some()))
    }

    fn parse_move(&self, text: &str) -> Result<Card, String> {
        let card: Card = text.parse().map_err(|e| format!("{e}"))?;
        if !DECK.contains(card) {
            return Err(format!("{card} is not a Tricks card (the pack is {DECK})"));
        }
        Ok(card)
    }
}

/// What a seat of Tricks sees: its own hand, every card played and by whom, the tricks, and the
/// voids shown by failing to follow. The other hand and the stock are unseen.
impl HiddenCards for Tricks {
    fn public_part(&self, observer: Seat) -> Tricks {
        let mut public = *self;
        public.hands[observer ^ 1] = CardSet::EMPTY;
        public.stock = CardSet::EMPTY;
        public
    }

    fn unseen(&self, observer: Seat) -> Result<Unseen, DealError> {
        let opponent = observer ^ 1;
        let mut unseen = Unseen::NONE;
        unseen.unknown = DECK - self.hands[observer] - self.played[0] - self.played[1];
        let size = HAND - self.played[opponent].len();
        unseen.add(
            Some(opponent),
            size,
            DECK - self.voids[opponent],
            CardSet::EMPTY,
        );
        unseen.add(None, HAND, DECK, CardSet::EMPTY);
        Ok(unseen)
    }

    fn with_unseen(
        &self,
        observer: Seat,
        parts: &[CardSet; MAX_HOLDERS],
        _rng: &mut Rng,
    ) -> Tricks {
        let mut state = *self;
        state.hands[observer ^ 1] = parts[0];
        state.stock = parts[1];
        state
    }

    fn public_seat_to_move(&self, _observer: Seat) -> Option<Seat> {
        Some(self.to_move as Seat)
    }

    fn public_terminal(&self) -> bool {
        (self.played[0] | self.played[1]).len() == 2 * HAND
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
        let card = mv.ok_or_else(|| DealError::Inconsistent("every Tricks move is seen".into()))?;
        // The card alone in the mover's hand: legal exactly when it follows suit or the hand may
        // be void in the led suit, which `play` then records.
        self.hands[seat].insert(card);
        let own = self.hands[observer];
        self.play(card);
        if seat != observer {
            self.hands[seat] = CardSet::EMPTY;
        }
        check_no_new_cards(hand_after, own - card.set())
    }
}

impl GameDef for Tricks {
    const NAME: &'static str = "tricks";
    const ABOUT: &'static str =
        "2 players, 12 cards (S H D × J Q K A), 4 each and 4 unseen; follow suit; most tricks wins";
    const OPTIONS: &'static [OptionDoc] = &[];
    type Config = ();

    fn config(_spec: &Spec) -> Result<(), SpecError> {
        Ok(())
    }

    fn new_game(_config: &(), rng: &mut Rng) -> Tricks {
        let hand0 = DECK.random_subset(HAND, rng);
        let hand1 = (DECK - hand0).random_subset(HAND, rng);
        Tricks::from_hands([hand0, hand1], DECK - hand0 - hand1).expect("a split of the pack")
    }

    fn from_deal(_config: &(), deal: &str) -> Result<Tricks, DealError> {
        let parts = parse_parts(deal, 3)?;
        Tricks::from_hands([parts[0], parts[1]], parts[2])
    }

    fn deal_text(&self) -> String {
        format!("{} | {} | {}", self.hands[0], self.hands[1], self.stock)
    }

    fn hand_text(&self, seat: Seat) -> Option<String> {
        Some(self.hands[seat].to_string())
    }
}

/// Splits `a | b | c` into exactly `n` card sets.
pub(crate) fn parse_parts(deal: &str, n: usize) -> Result<Vec<CardSet>, DealError> {
    let parts: Vec<&str> = deal.split('|').collect();
    if parts.len() != n {
        return Err(DealError::Invalid(format!(
            "expected {n} '|'-separated card lists, found {}",
            parts.len()
        )));
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<CardSet>()
                .map_err(|e| DealError::Invalid(e.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DealSampler;
    use crate::game::rng_from_seed;

    fn deal(text: &str) -> Tricks {
        Tricks::from_deal(&(), text).unwrap()
    }

    #[test]
    fn follow_suit_and_trick_winner() {
        let mut g = deal("JS QS KH AD | AS JH QH KD | KS AH JD QD");
        assert_eq!(g.legal_moves().len(), 4);
        g.play("QS".parse().unwrap());
        // Seat 1 holds AS, the only spade: it must follow.
        assert_eq!(g.legal_moves().to_string(), "AS");
        g.play("AS".parse().unwrap());
        assert_eq!(g.current_seat(), 1);
        assert_eq!(g.tricks_won(1), 1);
        // Seat 1 leads a diamond; seat 0 follows with AD and wins.
        g.play("KD".parse().unwrap());
        assert_eq!(g.legal_moves().to_string(), "AD");
        g.play("AD".parse().unwrap());
        assert_eq!(g.current_seat(), 0);
        // Seat 0 leads JS; seat 1 has no spade, discards a heart and loses the trick.
        g.play("JS".parse().unwrap());
        assert_eq!(g.legal_moves().to_string(), "JH QH");
        g.play("QH".parse().unwrap());
        assert_eq!(g.tricks_won(0), 2);
        assert_eq!(g.voids[1], CardSet::suit(Suit::Spades));
        g.play("KH".parse().unwrap());
        g.play("JH".parse().unwrap());
        assert!(g.is_terminal());
        assert_eq!((g.tricks_won(0), g.tricks_won(1)), (3, 1));
        assert_eq!((g.reward(0), g.reward(1)), (1.0, 0.0));
    }

    #[test]
    fn bad_deals_are_errors() {
        assert!(Tricks::from_deal(&(), "JS QS KH AD | AS JH QH KD").is_err());
        assert!(Tricks::from_deal(&(), "JS QS KH AD | AS JH QH KD | KS AH JD 2C").is_err());
        assert!(Tricks::from_deal(&(), "JS QS KH | AS JH QH KD AD | KS AH JD QD").is_err());
        assert!(Tricks::from_deal(&(), "JS QS KH AD | AS JH QH KD | KS AH JD QX").is_err());
    }

    #[test]
    fn determinization_keeps_own_hand_and_respects_voids() {
        let mut g = deal("JS QS KH AD | AS JH QH KD | KS AH JD QD");
        g.play("QS".parse().unwrap());
        g.play("AS".parse().unwrap());
        g.play("KD".parse().unwrap());
        g.play("AD".parse().unwrap());
        g.play("JS".parse().unwrap());
        g.play("JH".parse().unwrap()); // seat 1 is now known void in spades
        let sampler = g.deal_sampler(0).unwrap();
        let mut rng = rng_from_seed(3);
        for _ in 0..200 {
            let d = sampler.sample(&mut rng);
            assert_eq!(d.hands[0], g.hands[0]);
            assert_eq!(d.hands[1].len(), g.hands[1].len());
            assert!(d.hands[1].of_suit(Suit::Spades).is_empty());
            assert_eq!(d.hands[1] | d.stock, g.hands[1] | g.stock);
        }
    }

    #[test]
    fn random_games_conserve_cards_and_end_after_four_tricks() {
        let mut rng = rng_from_seed(11);
        for _ in 0..2000 {
            let mut g = Tricks::new_game(&(), &mut rng);
            assert_eq!(Tricks::from_deal(&(), &g.deal_text()).unwrap(), g);
            let mut plies = 0;
            while !g.is_terminal() {
                let moves = g.legal_moves();
                assert!(!moves.is_empty());
                g.play(moves.random(&mut rng));
                plies += 1;
            }
            assert_eq!(plies, 8);
            assert_eq!(g.tricks_won(0) + g.tricks_won(1), 4);
            assert_eq!(g.played[0] | g.played[1] | g.stock, DECK);
        }
    }
}
