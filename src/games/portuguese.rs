//! What Sueca and Bisca share: the 40-card Portuguese pack, its strength order and card points,
//! the trick-winner rule with a trump suit, match units, and the pieces of the deal notation.
//!
//! The pack has no 8, 9 or 10. In every suit the strength order, high to low, is
//! **A 7 K J Q 6 5 4 3 2**; the card points are A 11, 7 10, K 4, J 3, Q 2 (120 in the pack).
//! Cards keep the crate's natural bit layout (so moves are plain [`Card`]s and sets print and
//! parse as everywhere else); the strength order lives in a 16-entry table indexed by the rank
//! bits, so comparing two cards is a load and a compare.
//!
//! ```
//! use cardsearch::games::portuguese::{beats, points, DECK};
//! use cardsearch::{Card, Suit};
//! let c = |s: &str| s.parse::<Card>().unwrap();
//! assert_eq!(DECK.len(), 40);
//! assert_eq!(points(DECK), 120);
//! assert!(beats(c("7S"), c("KS"), Suit::Hearts)); // the 7 ranks second, above the king
//! assert!(beats(c("2H"), c("AS"), Suit::Hearts)); // any trump beats a plain card
//! assert!(!beats(c("AC"), c("2S"), Suit::Hearts)); // a card of another plain suit never wins
//! ```

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::DealError;
use crate::spec::{Spec, SpecError};

/// Cards per suit in the Portuguese pack.
pub const SUIT_LEN: usize = 10;

/// Card points in the whole pack.
pub const TOTAL_POINTS: u32 = 120;

/// The ranks of one suit of the pack, as lane bits (2–7, J, Q, K, A).
const LANE_RANKS: u64 = 0b1_1110_0011_1111;

/// The 40-card pack: every suit without 8, 9 and 10.
pub const DECK: CardSet =
    CardSet(LANE_RANKS | LANE_RANKS << 16 | LANE_RANKS << 32 | LANE_RANKS << 48);

/// Strength 0 (the 2) … 9 (the ace) of each natural rank index; 8, 9, 10 are not in the pack.
const STRENGTH: [u8; 16] = [0, 1, 2, 3, 4, 8, 0, 0, 0, 6, 5, 7, 9, 0, 0, 0];

/// For each rank index, the lane bits of the pack's stronger ranks of the same suit.
const STRONGER_IN_LANE: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 16 {
            if LANE_RANKS >> j & 1 == 1 && STRENGTH[j] > STRENGTH[i] {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The cards of `card`'s suit in the pack that are stronger than it.
#[inline]
pub const fn stronger_than(card: Card) -> CardSet {
    CardSet(STRONGER_IN_LANE[(card.index() & 15) as usize] << (card.index() & 0x30))
}

/// The strength of a card within its suit: 0 for the 2 up to 9 for the ace.
#[inline]
pub const fn strength(card: Card) -> u32 {
    STRENGTH[(card.index() & 15) as usize] as u32
}

/// True when `card`, played to a trick whose best card so far is `best`, takes the lead.
///
/// A card of the same suit wins when it is stronger; a card of another suit wins only when it is
/// a trump (and then `best` is not one). Applied card by card, this resolves a trick.
#[inline]
pub const fn beats(card: Card, best: Card, trump: Suit) -> bool {
    // Non-short-circuit operators: the outcome is a coin flip in random play, so a select
    // beats a branch.
    let same_suit = (card.index() ^ best.index()) >> 4 == 0;
    let stronger = strength(card) > strength(best);
    let trump = card.index() >> 4 == trump as u8;
    (same_suit & stronger) | (!same_suit & trump)
}

/// A card's standing in a trick as one number, higher winning: its strength (0–9), plus 16 if it
/// is of the led suit, plus 32 if it is a trump. `led_suit` says whether the card follows the
/// led suit (the caller usually knows without looking at the card).
///
/// The best card of a trick is the one of highest rank, the same one [`beats`] finds card by
/// card; but ranks are computed card by card with no dependence on the best so far, so only a
/// compare and a select are left on the chain through the trick.
#[inline]
pub const fn trick_rank(card: Card, led_suit: bool, trump: Suit) -> u32 {
    TRUMP_RANK[trump as usize][card.index() as usize & 63] as u32 | (led_suit as u32) << 4
}

/// `TRUMP_RANK[trump][card index]`: the card's strength, plus 32 if it is a trump; one load
/// for the led-suit-independent part of [`trick_rank`].
static TRUMP_RANK: [[u8; 64]; 4] = {
    let mut table = [[0u8; 64]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut i = 0;
        while i < 64 {
            table[trump][i] = STRENGTH[i & 15] | if i >> 4 == trump { 32 } else { 0 };
            i += 1;
        }
        trump += 1;
    }
    table
};

/// All cards of `card`'s suit, as [`CardSet::suit`] gives them, but computed from the card's
/// lane bits with no detour through [`Suit`] (whose conversion costs a table load on the hot
/// path).
#[inline]
pub const fn suit_mask(card: Card) -> CardSet {
    CardSet(0x1FFF << (card.index() & 0x30))
}

/// The points of one card.
#[inline]
pub const fn card_points(card: Card) -> u32 {
    match card.rank() {
        Rank::Ace => 11,
        Rank::Seven => 10,
        Rank::King => 4,
        Rank::Jack => 3,
        Rank::Queen => 2,
        _ => 0,
    }
}

/// The points of a set of cards: five popcounts, so it is cheap enough to run only at the end.
#[inline]
pub const fn points(set: CardSet) -> u32 {
    const fn n(set: CardSet, r: Rank) -> u32 {
        (set.0 & CardSet::rank(r).0).count_ones()
    }
    11 * n(set, Rank::Ace)
        + 10 * n(set, Rank::Seven)
        + 4 * n(set, Rank::King)
        + 3 * n(set, Rank::Jack)
        + 2 * n(set, Rank::Queen)
}

/// The two of a suit: in Bisca the card that may be exchanged for the face-up trump.
#[inline]
pub const fn two_of(suit: Suit) -> Card {
    Card::new(Rank::Two, suit)
}

/// What earns the top match value of 4 (a "bandeira").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bandeira {
    /// All 120 points (the thesis's scale).
    #[default]
    Points,
    /// Every trick of the deal.
    Tricks,
}

impl Bandeira {
    /// Reads the `bandeira` option of a spec (`points`, the default, or `tricks`).
    pub fn from_spec(spec: &Spec) -> Result<Bandeira, SpecError> {
        Ok(
            match spec.choice("bandeira", &["points", "tricks"], "points")? {
                "tricks" => Bandeira::Tricks,
                _ => Bandeira::Points,
            },
        )
    }
}

/// Win 1, tie 0.5 (60–60), loss 0, for a side that took `points` card points.
#[inline]
pub fn reward(points: u32) -> f64 {
    match points {
        61.. => 1.0,
        60 => 0.5,
        _ => 0.0,
    }
}

/// The trick in progress, as a playout policy sees it from the seat about to follow.
#[derive(Clone, Copy, Debug)]
pub struct TrickSoFar {
    /// The card winning the trick so far.
    pub best: Card,
    /// True when the seat's partner holds `best` (Sueca).
    pub partner_winning: bool,
    /// Card points already in the trick.
    pub points: u32,
    /// True when this card closes the trick.
    pub last: bool,
}

/// The knowledge-light playout policy of Sueca and Bisca, from the seat's legal cards: lead the
/// least valuable card; when the partner wins the trick and this card closes it, add the most
/// points that are not a trump; when an opponent wins and a card can take the trick, take it
/// (with the plain card of most points when this card closes the trick, else the cheapest
/// winner, the weakest trump if it takes a trump), but spend a trump only on a trick with points; otherwise shed the least valuable card. Ties
/// between cards the rules cannot tell apart are broken at random. `legal` must not be empty.
pub fn heuristic_card<R: rand::Rng + ?Sized>(
    legal: CardSet,
    trick: Option<TrickSoFar>,
    trump: Suit,
    rng: &mut R,
) -> Card {
    heuristic_cards(legal, trick, trump).random(rng)
}

/// The cards [`heuristic_card`] chooses among, uniformly: those its rule cannot tell apart.
/// Not empty when `legal` is not.
pub fn heuristic_cards(legal: CardSet, trick: Option<TrickSoFar>, trump: Suit) -> CardSet {
    let is_trump = |c: Card| u32::from(c.suit() == trump);
    // How much a card is worth keeping: trumps most, then points, then strength.
    let keep = |c: Card| is_trump(c) << 10 | card_points(c) << 4 | strength(c);
    let shed = || legal.min_set_by_key(keep);
    let Some(t) = trick else {
        return shed();
    };
    if t.partner_winning {
        if t.last {
            let most_points =
                |c: Card| is_trump(c) << 10 | (15 - card_points(c)) << 4 | strength(c);
            return legal.min_set_by_key(most_points);
        }
        return shed();
    }
    let mut winners = CardSet::EMPTY;
    for c in legal.iter() {
        if beats(c, t.best, trump) {
            winners.insert(c);
        }
    }
    let plain_winner = winners.iter().any(|c| is_trump(c) == 0);
    if !winners.is_empty() && (t.points > 0 || plain_winner) {
        // A plain card that closes the trick banks its own points, so the most of them; a
        // trump, or a card that may still be beaten, the cheapest.
        let key = |c: Card| match (is_trump(c), t.last) {
            (0, true) => (15 - card_points(c)) << 4 | strength(c),
            (0, false) => card_points(c) << 4 | strength(c),
            _ => 1 << 10 | strength(c),
        };
        return winners.min_set_by_key(key);
    }
    shed()
}

/// Parameters of the learned opponent model's feature tables ([`ModelView::features`]).
pub const MODEL_PARAMS: usize = 192 + 192 + 144 + 128;

/// The situation [`ModelView`] reads in Sueca: leading, second, third or fourth, the
/// last two split by whether the partner is winning (0-5), from the mover's place `pos` in
/// the trick (0 leads).
pub fn sueca_situation(pos: usize, trick: Option<TrickSoFar>) -> usize {
    let partner_not_winning = trick.is_some_and(|t| !t.partner_winning) as usize;
    match pos {
        0 => 0,
        1 => 1,
        2 => 2 + partner_not_winning,
        _ => 4 + partner_not_winning,
    }
}

/// What the learned opponent model reads of a position, from the mover's own view: its
/// `hand`, its `situation` (0-5, the game's own reading of its place in the trick:
/// [`sueca_situation`], Bisca's lead or reply while the stock lasts and after), whether it is
/// `leading`, the trick so far, whether it is `void` in the led suit, the trump suit and the
/// cards `gone` (played by anyone, the trick's included). Read once per position, then each
/// legal card through [`ModelView::features`]: inference scores every legal card of every
/// replayed play, so the position's part is not recomputed per card.
#[derive(Clone, Copy, Debug)]
pub struct ModelView {
    /// The mover's hand.
    pub hand: CardSet,
    /// The game's situation index, below 6.
    pub situation: usize,
    /// True when the mover leads the trick.
    pub leading: bool,
    /// The trick so far (`None` when leading).
    pub trick: Option<TrickSoFar>,
    /// True when the mover cannot follow the led suit.
    pub void: bool,
    /// The trump suit.
    pub trump: Suit,
    /// Every card played so far, the trick's included.
    pub gone: CardSet,
}

impl ModelView {
    /// How the model reads `card`, one of the mover's legal cards. Four tables, each a cross
    /// of discrete features:
    /// 1. the situation, void, whether the card would take the lead, trump, card points;
    /// 2. the situation, void, the card's rank among the hand's cards of its suit (lowest,
    ///    highest, between, only), whether it is the suit's master (no stronger card of the
    ///    suit left outside the hand), trump;
    /// 3. the situation, taking the lead, the points already in the trick, card points;
    /// 4. leading or not, trump, the hand's length in the card's suit, card points, master.
    #[inline]
    pub fn features(&self, card: Card) -> crate::search::opponent_model::ModelFeatures {
        let (hand, situation, trump) = (self.hand, self.situation, self.trump);
        debug_assert!(situation < 6, "situation {situation}");
        let void = self.void as usize;
        let takes = self.trick.is_some_and(|t| beats(card, t.best, trump)) as usize;
        let is_trump = (card.suit() == trump) as usize;
        let worth = match card_points(card) {
            0 => 0,
            1..=4 => 1,
            10 => 2,
            _ => 3,
        };
        let suit = CardSet(hand.0 & suit_mask(card).0);
        let (rank_in_hand, master) = crate::search::opponent_model::rank_and_master(
            card.set(),
            suit,
            hand,
            stronger_than(card),
            self.gone,
        );
        let in_trick = match self.trick.map_or(0, |t| t.points) {
            0 => 0,
            1..=9 => 1,
            _ => 2,
        };
        let length = suit.len().clamp(1, 4) - 1;
        let leading = self.leading as usize;
        let t1 = (((situation * 2 + void) * 2 + takes) * 2 + is_trump) * 4 + worth;
        let t2 = 192 + (((situation * 2 + void) * 4 + rank_in_hand) * 2 + master) * 2 + is_trump;
        let t3 = 384 + ((situation * 2 + takes) * 3 + in_trick) * 4 + worth;
        let t4 = 528 + (((leading * 2 + is_trump) * 4 + length) * 4 + worth) * 2 + master;
        [t1 as u16, t2 as u16, t3 as u16, t4 as u16]
    }
}

/// A side's card-point margin over the other side, scaled to −1…1 (all 120 points: +1).
pub fn margin(points: u32) -> f64 {
    (2.0 * points as f64 - TOTAL_POINTS as f64) / TOTAL_POINTS as f64
}

/// The match units of a side that took `points` card points and `tricks` of the deal's
/// `all_tricks` tricks: 61–90 → 1, 91–119 → 2, a bandeira → 4 (by points: all 120; by tricks:
/// every trick, 91–120 otherwise being 2). The losing side gets the negative; 60–60 is 0.
pub fn match_units(points: u32, tricks: u32, all_tricks: u32, bandeira: Bandeira) -> f64 {
    let winner_units = |p: u32, took_every_trick: bool| -> f64 {
        let bandeira = match bandeira {
            Bandeira::Points => p == TOTAL_POINTS,
            Bandeira::Tricks => took_every_trick,
        };
        if bandeira {
            4.0
        } else if p >= 91 {
            2.0
        } else {
            1.0
        }
    };
    match points {
        61.. => winner_units(points, tricks == all_tricks),
        60 => 0.0,
        _ => -winner_units(TOTAL_POINTS - points, tricks == 0),
    }
}

// ---------------------------------------------------------------------------------------------
// Deal notation pieces.

/// Splits a deal into exactly `n` `|`-separated parts.
pub(crate) fn split_parts(deal: &str, n: usize) -> Result<Vec<&str>, DealError> {
    let parts: Vec<&str> = deal.split('|').map(str::trim).collect();
    if parts.len() != n {
        return Err(DealError::Invalid(format!(
            "expected {n} '|'-separated fields, found {}",
            parts.len()
        )));
    }
    Ok(parts)
}

/// Reads a header of `key=value` words; every key in `keys` must appear exactly once and no
/// other key may. Returns the values in the order of `keys`.
pub(crate) fn parse_header<'a, const K: usize>(
    header: &'a str,
    keys: [&str; K],
) -> Result<[&'a str; K], DealError> {
    let mut values: [Option<&str>; K] = [None; K];
    for word in header.split_whitespace() {
        let Some((k, v)) = word.split_once('=') else {
            return Err(DealError::Invalid(format!(
                "header word '{word}' is not key=value (expected {})",
                expected_header(&keys)
            )));
        };
        let Some(i) = keys.iter().position(|key| *key == k) else {
            return Err(DealError::Invalid(format!(
                "unknown header key '{k}' (expected {})",
                expected_header(&keys)
            )));
        };
        if values[i].is_some() {
            return Err(DealError::Invalid(format!("header key '{k}' given twice")));
        }
        values[i] = Some(v);
    }
    let mut out = [""; K];
    for (i, v) in values.iter().enumerate() {
        out[i] = v.ok_or_else(|| {
            DealError::Invalid(format!(
                "header lacks '{}=' (expected {})",
                keys[i],
                expected_header(&keys)
            ))
        })?;
    }
    Ok(out)
}

fn expected_header(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("{k}=…"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a seat number below `seats`.
pub(crate) fn parse_seat(text: &str, key: &str, seats: usize) -> Result<usize, DealError> {
    match text.parse::<usize>() {
        Ok(s) if s < seats => Ok(s),
        _ => Err(DealError::Invalid(format!(
            "{key}={text} is not a seat (0..{})",
            seats - 1
        ))),
    }
}

/// Parses one card of the pack; `what` names where it was written.
pub(crate) fn parse_pack_card(text: &str, what: &str) -> Result<Card, DealError> {
    pack_card(text).map_err(|e| DealError::Invalid(format!("{what}: {e}")))
}

/// Parses one card of the 40-card pack, with a message about the card alone: a move's parser
/// says so itself, which a deal's error ("invalid deal: …") would not.
pub(crate) fn pack_card(text: &str) -> Result<Card, String> {
    let card: Card = text.parse().map_err(|e| format!("{e}"))?;
    if !DECK.contains(card) {
        return Err(format!("{card} is not in the 40-card pack (no 8, 9 or 10)"));
    }
    Ok(card)
}

/// Parses a list of pack cards in the order written (separated by spaces or commas; `-` is the
/// empty list) into `out`, returning how many there were. Duplicates within the list, cards
/// outside the pack and lists longer than `out` are errors.
pub(crate) fn parse_card_list(
    text: &str,
    what: &str,
    out: &mut [Card],
) -> Result<usize, DealError> {
    let mut seen = CardSet::EMPTY;
    let mut n = 0;
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        if token.is_empty() || token == "-" {
            continue;
        }
        let card = parse_pack_card(token, what)?;
        if seen.contains(card) {
            return Err(DealError::Invalid(format!("{what}: {card} appears twice")));
        }
        seen.insert(card);
        if n == out.len() {
            return Err(DealError::Invalid(format!(
                "{what} has more than {} cards",
                out.len()
            )));
        }
        out[n] = card;
        n += 1;
    }
    Ok(n)
}

/// Parses a hand: pack cards in any order; errors name the hand.
pub(crate) fn parse_hand(text: &str, what: &str) -> Result<CardSet, DealError> {
    let mut cards = [Card::new(Rank::Two, Suit::Clubs); 40];
    let n = parse_card_list(text, what, &mut cards)?;
    Ok(CardSet::from_cards(cards[..n].iter().copied()))
}

/// Checks that the named holdings have the expected sizes and together are exactly the pack,
/// naming the first problem: a wrong size, a card held twice, or cards nobody holds. The names
/// are static text, so a deal that passes allocates nothing: inference and the exact endgame
/// rewind a deal through here for every candidate they weigh.
pub(crate) fn check_partition(
    holdings: &[(&'static str, CardSet, usize)],
) -> Result<(), DealError> {
    let mut seen = CardSet::EMPTY;
    for (i, (name, set, _)) in holdings.iter().enumerate() {
        let twice = seen & *set;
        if !twice.is_empty() {
            let holder = holdings[..i]
                .iter()
                .find(|(_, s, _)| !(*s & twice).is_empty())
                .map(|(n, _, _)| *n)
                .unwrap_or("another holder");
            return Err(DealError::Invalid(format!(
                "{twice} dealt twice (to {holder} and to {name})"
            )));
        }
        seen |= *set;
    }
    for (name, set, size) in holdings {
        if set.len() != *size {
            return Err(DealError::Invalid(format!(
                "{name} has {} cards, expected {size}",
                set.len()
            )));
        }
    }
    let missing = DECK - seen;
    if !missing.is_empty() {
        return Err(DealError::Invalid(format!("cards not dealt: {missing}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn stronger_than_lists_the_stronger_cards_of_the_suit() {
        for card in DECK.iter() {
            let by_strength = DECK
                .iter()
                .filter(|&o| o.suit() == card.suit() && strength(o) > strength(card))
                .fold(CardSet::EMPTY, |set, o| set | o.set());
            assert_eq!(stronger_than(card), by_strength, "{card}");
        }
        assert_eq!(stronger_than(c("AS")), CardSet::EMPTY);
        assert_eq!(
            stronger_than(c("KH")),
            CardSet::from_cards([c("7H"), c("AH")])
        );
    }

    /// The playout rule in the situations its doc names, trump spades throughout.
    #[test]
    fn heuristic_card_follows_its_rules() {
        let mut rng = crate::game::rng_from_seed(1);
        let set = |cards: &[&str]| CardSet::from_cards(cards.iter().map(|s| c(s)));
        let trick = |best: &str, partner_winning, points, last| TrickSoFar {
            best: c(best),
            partner_winning,
            points,
            last,
        };
        let trump = Suit::Spades;
        let mut pick = |legal: &[&str], t: Option<TrickSoFar>| {
            heuristic_card(set(legal), t, trump, &mut rng).to_string()
        };
        // Leading: the least valuable card, never a trump while another will do.
        assert_eq!(pick(&["AH", "2S", "3D", "KC"], None), "3D");
        // Partner winning, last to play: the most points that are not a trump.
        assert_eq!(
            pick(&["AH", "7S", "3D", "KC"], Some(trick("QD", true, 2, true))),
            "AH"
        );
        // Partner winning, not last: shed.
        assert_eq!(
            pick(&["AH", "7S", "3D", "KC"], Some(trick("QD", true, 2, false))),
            "3D"
        );
        // An opponent winning, last: take it with the most points that win.
        assert_eq!(
            pick(&["AD", "7D", "2D"], Some(trick("QD", false, 2, true))),
            "AD"
        );
        // Not last: the cheapest winner.
        assert_eq!(
            pick(&["AD", "7D", "2D"], Some(trick("QD", false, 2, false))),
            "7D"
        );
        // No trump spent on a trick without points; with points, the smallest trump.
        assert_eq!(
            pick(&["2S", "AS", "3C"], Some(trick("4D", false, 0, true))),
            "3C"
        );
        assert_eq!(
            pick(&["2S", "AS", "3C"], Some(trick("AD", false, 11, true))),
            "2S"
        );
        // Nothing wins: shed.
        assert_eq!(
            pick(&["2D", "3D"], Some(trick("AD", false, 11, true))),
            "2D"
        );
    }

    #[test]
    fn pack_strengths_and_points() {
        assert_eq!(DECK.len(), 40);
        assert_eq!(points(DECK), TOTAL_POINTS);
        for suit in Suit::ALL {
            assert_eq!(DECK.of_suit(suit).len(), SUIT_LEN);
            assert_eq!(points(DECK.of_suit(suit)), 30);
            for card in DECK.of_suit(suit) {
                assert_eq!(suit_mask(card), CardSet::suit(suit));
            }
        }
        assert!(["8S", "9H", "TD"].iter().all(|s| !DECK.contains(c(s))));
        // Strength order high to low, as listed in the rules.
        let order = ["AS", "7S", "KS", "JS", "QS", "6S", "5S", "4S", "3S", "2S"];
        for (i, hi) in order.iter().enumerate() {
            assert_eq!(strength(c(hi)), 9 - i as u32, "{hi}");
            for lo in &order[i + 1..] {
                assert!(beats(c(hi), c(lo), Suit::Clubs), "{hi} over {lo}");
                assert!(!beats(c(lo), c(hi), Suit::Clubs), "{lo} under {hi}");
            }
        }
        let sum: u32 = DECK.iter().map(card_points).sum();
        assert_eq!(sum, 120);
        assert_eq!(
            ["AC", "7C", "KC", "JC", "QC", "6C"].map(|s| card_points(c(s))),
            [11, 10, 4, 3, 2, 0]
        );
    }

    #[test]
    fn trumps_beat_plain_suits_and_off_suits_never_win() {
        let t = Suit::Diamonds;
        assert!(beats(c("2D"), c("AS"), t));
        assert!(!beats(c("AS"), c("2D"), t));
        assert!(beats(c("3D"), c("2D"), t));
        assert!(!beats(c("AH"), c("2S"), t)); // discarding an off-suit ace loses
    }

    #[test]
    fn trick_rank_agrees_with_beats() {
        // For every led suit, trump suit, best card so far (of the led suit or a trump, as a
        // trick's winner always is) and card played: higher rank exactly when it beats.
        for trump in Suit::ALL {
            for led in Suit::ALL {
                for best in DECK {
                    if best.suit() != led && best.suit() != trump {
                        continue;
                    }
                    for card in DECK - best.set() {
                        let rank = |c: Card| trick_rank(c, c.suit() == led, trump);
                        assert_eq!(
                            rank(card) > rank(best),
                            beats(card, best, trump),
                            "{card} on {best}, {led:?} led, {trump:?} trumps"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn match_unit_scale() {
        let b = Bandeira::Points;
        let table = [
            (120, 4.0),
            (119, 2.0),
            (91, 2.0),
            (90, 1.0),
            (61, 1.0),
            (60, 0.0),
            (59, -1.0),
            (30, -1.0),
            (29, -2.0),
            (1, -2.0),
            (0, -4.0),
        ];
        for (p, u) in table {
            assert_eq!(match_units(p, 5, 10, b), u, "{p} points");
        }
        // By points, 120 is a bandeira even if the other side took a trick of four blanks.
        assert_eq!(match_units(120, 9, 10, b), 4.0);
        assert_eq!(match_units(0, 1, 10, b), -4.0);
        // By tricks: 120 without every trick is only 2; every trick is 4.
        let t = Bandeira::Tricks;
        assert_eq!(match_units(120, 9, 10, t), 2.0);
        assert_eq!(match_units(0, 1, 10, t), -2.0);
        assert_eq!(match_units(120, 10, 10, t), 4.0);
        assert_eq!(match_units(0, 0, 10, t), -4.0);
        assert_eq!(match_units(119, 9, 20, t), 2.0);
        assert_eq!((reward(61), reward(60), reward(59)), (1.0, 0.5, 0.0));
    }

    #[test]
    fn header_and_partition_errors_name_the_problem() {
        assert_eq!(parse_header("a=1 b=x", ["b", "a"]).unwrap(), ["x", "1"]);
        for (bad, needle) in [
            ("a=1", "lacks 'b='"),
            ("a=1 b=2 a=3", "twice"),
            ("a=1 b=2 c=3", "unknown header key 'c'"),
            ("a=1 b", "not key=value"),
        ] {
            let e = parse_header(bad, ["a", "b"]).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        let e = parse_hand("AS 9S", "hand 0").unwrap_err().to_string();
        assert!(e.contains("9S is not in the 40-card pack"), "{e}");
        let e = parse_hand("AS AS", "hand 0").unwrap_err().to_string();
        assert!(e.contains("AS appears twice"), "{e}");
        let half = DECK.of_suit(Suit::Clubs) | DECK.of_suit(Suit::Diamonds);
        let other = DECK - half;
        let ok = [("a", half, 20), ("b", other, 20)];
        check_partition(&ok).unwrap();
        let e = check_partition(&[("a", half, 20), ("b", half, 20)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("dealt twice (to a and to b)"), "{e}");
        let e = check_partition(&[("a", half, 20), ("b", other, 19)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("b has 20 cards, expected 19"), "{e}");
        let e = check_partition(&[("a", half, 20)]).unwrap_err().to_string();
        assert!(e.contains("cards not dealt"), "{e}");
    }
}
