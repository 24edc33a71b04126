//! ASMACAG actions and the set of legal actions.
//!
//! An action plays one card kind from the hand: a number card on a number card of the board
//! (`3>5`: a 3 on a 5), or a special card (`x2`, `/2`). Actions are told apart by kinds only,
//! as the reference code deduplicates them: two 3s in hand and two 5s on the board make one
//! action `3>5`.

use std::fmt;

use super::pile::{Kind, MAX_NUMBER};
use crate::game::{MoveSet, Rng, TreeMove};
use crate::mask::{MoveMask, Wide};

/// One action, in one byte: `card << 4 | board` for a number play, or the special card's
/// kind index with the high nibble set (`0xFE` ×2, `0xFF` ÷2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(u8);

impl Action {
    /// Play ×2.
    pub const DOUBLE: Action = Action(0xF0 | Kind::DOUBLE.index() as u8);
    /// Play ÷2.
    pub const HALVE: Action = Action(0xF0 | Kind::HALVE.index() as u8);

    /// Play the number `card` on the board's number `on`.
    #[inline]
    pub const fn play(card: u8, on: u8) -> Action {
        assert!(card <= MAX_NUMBER && on <= MAX_NUMBER);
        Action(card << 4 | on)
    }

    /// The special action of a special kind.
    #[inline]
    pub const fn special(kind: Kind) -> Action {
        assert!(!kind.is_number());
        Action(0xF0 | kind.index() as u8)
    }

    /// The kind of the card taken from the hand.
    #[inline]
    pub const fn card(self) -> Kind {
        if self.0 >= 0xF0 {
            Kind::from_index((self.0 & 0xF) as u32)
        } else {
            Kind::from_index((self.0 >> 4) as u32)
        }
    }

    /// The board card played on, for a number play.
    #[inline]
    pub const fn board(self) -> Option<Kind> {
        if self.0 >= 0xF0 {
            None
        } else {
            Some(Kind::from_index((self.0 & 0xF) as u32))
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.board() {
            Some(on) => write!(f, "{}>{on}", self.card()),
            None => write!(f, "{}", self.card()),
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Action {
    type Err = String;

    /// `3>5` (a 3 on the board's 5), `x2` or `/2`. An error names the text and says what is
    /// wrong with it once (a part that is not a card is named, not quoted with the whole
    /// card grammar again).
    fn from_str(text: &str) -> Result<Action, String> {
        let text = text.trim();
        let bad = |why: &str| format!("'{text}' is not an ASMACAG action: {why}");
        let card = |part: &str| -> Result<Kind, String> {
            part.trim().parse().map_err(|_| {
                bad(&format!(
                    "'{}' is not a card (0-{MAX_NUMBER}, x2 or /2)",
                    part.trim()
                ))
            })
        };
        match text.split_once('>') {
            Some((played, on)) => match (card(played)?.value(), card(on)?.value()) {
                (Some(c), Some(o)) => Ok(Action::play(c, o)),
                _ => Err(bad(
                    "only a number card is played, and only on a number card",
                )),
            },
            None => match text.parse::<Kind>() {
                Ok(kind) if kind.is_number() => Err(bad(&format!(
                    "say which board card the {kind} goes on, as in {kind}>5"
                ))),
                Ok(kind) => Ok(Action::special(kind)),
                Err(_) => Err(bad("write 3>5 for a 3 on the board's 5, x2 or /2")),
            },
        }
    }
}

/// The bits of [`Kind::DOUBLE`] and [`Kind::HALVE`] in a kinds mask.
const SPECIAL_BITS: u16 = 1 << Kind::DOUBLE.index() | 1 << Kind::HALVE.index();

/// The legal actions: every special kind in hand, and every (number kind in hand, number kind
/// on the board) pair. Two masks of kinds describe them all, so building the set is two
/// gathers and `nth` is a division and two bit selects.
///
/// Order: ×2, ÷2, then number plays by hand card, then by board card, ascending (the order in
/// which the reference code lists its actions).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Actions {
    /// Kinds in the mover's hand.
    hand: u16,
    /// Number kinds on the board.
    board: u16,
}

impl Actions {
    /// The actions of a hand with kinds `hand` facing a board with kinds `board`.
    #[inline]
    pub const fn new(hand: u16, board: u16) -> Actions {
        Actions { hand, board }
    }

    #[inline]
    fn specials(self) -> u16 {
        self.hand & SPECIAL_BITS
    }

    #[inline]
    fn numbers(self) -> u16 {
        if self.board == 0 {
            0
        } else {
            self.hand & !SPECIAL_BITS
        }
    }
}

/// Index of the `k`-th set bit of a 16-bit mask.
#[inline]
fn select16(mut x: u16, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// An action's bit is its byte: `16·card + board` for a number play (below 222), 254 and 255
/// for ×2 and ÷2. 14 number kinds on 14 board kinds and two specials are 198 actions, so the
/// masks are 256 bits wide.
impl TreeMove for Action {
    type Mask = Wide;
    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }
    #[inline]
    fn from_bit(bit: u32) -> Action {
        Action(bit as u8)
    }
}

impl MoveSet<Action> for Actions {
    /// Bit `16·card + board` lies in word `card / 4`, lane `card % 4` of 16 bits: each number
    /// kind in hand puts the board's kinds mask in its lane. The specials' bits, `240 + kind`,
    /// are the specials' kinds mask moved to the top lane.
    #[inline]
    fn bits(&self) -> Wide {
        let mut mask = Wide::EMPTY;
        let mut cards = self.numbers();
        while cards != 0 {
            let card = cards.trailing_zeros();
            cards &= cards - 1;
            mask[card as usize / 4] |= (self.board as u64) << (16 * (card % 4));
        }
        mask[3] |= (self.specials() as u64) << 48;
        mask
    }

    #[inline]
    fn len(&self) -> usize {
        (self.specials().count_ones() + self.numbers().count_ones() * self.board.count_ones())
            as usize
    }

    #[inline]
    fn contains(&self, mv: Action) -> bool {
        let card = 1u16 << mv.card().index();
        match mv.board() {
            None => self.specials() & card != 0,
            Some(on) => self.numbers() & card != 0 && self.board & (1 << on.index()) != 0,
        }
    }

    #[inline]
    fn nth(&self, k: usize) -> Action {
        let k = k as u32;
        let specials = self.specials();
        let s = specials.count_ones();
        if k < s {
            return Action::special(Kind::from_index(select16(specials, k)));
        }
        let width = self.board.count_ones();
        let (i, j) = ((k - s) / width, (k - s) % width);
        Action::play(
            select16(self.numbers(), i) as u8,
            select16(self.board, j) as u8,
        )
    }

    #[inline]
    fn random(&self, rng: &mut Rng) -> Action {
        self.nth(crate::cards::random_below(rng, self.len() as u32) as usize)
    }

    #[inline]
    fn for_each(&self, mut f: impl FnMut(Action)) {
        let mut specials = self.specials();
        while specials != 0 {
            f(Action::special(Kind::from_index(specials.trailing_zeros())));
            specials &= specials - 1;
        }
        let mut cards = self.numbers();
        while cards != 0 {
            let card = cards.trailing_zeros() as u8;
            let mut on = self.board;
            while on != 0 {
                f(Action::play(card, on.trailing_zeros() as u8));
                on &= on - 1;
            }
            cards &= cards - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pile::Pile;
    use super::*;

    fn actions(hand: &str, board: &str) -> Actions {
        let (h, b): (Pile, Pile) = (hand.parse().unwrap(), board.parse().unwrap());
        Actions::new(h.kinds(), b.kinds())
    }

    #[test]
    fn actions_are_deduplicated_by_kind_and_listed_in_the_reference_order() {
        let a = actions("3 3 5 x2 /2 /2", "1 5 5");
        let listed: Vec<String> = a.to_vec().iter().map(|m| m.to_string()).collect();
        assert_eq!(listed, ["x2", "/2", "3>1", "3>5", "5>1", "5>5"]);
        assert_eq!(a.len(), 6);
        for (k, m) in a.to_vec().into_iter().enumerate() {
            assert_eq!(a.nth(k), m);
            assert!(a.contains(m));
        }
        for absent in ["4>1", "3>3", "3>6"] {
            assert!(!a.contains(absent.parse().unwrap()), "{absent}");
        }
        // Only specials when the hand has no number; no number play on an empty board.
        assert_eq!(actions("x2", "1 2").to_vec(), [Action::DOUBLE]);
        assert_eq!(actions("3 /2", "").to_vec(), [Action::HALVE]);
        assert!(actions("3", "").is_empty());
    }

    #[test]
    fn the_mask_has_the_bit_of_every_action_and_no_other() {
        for (hand, board) in [
            ("3 3 5 x2 /2 /2", "1 5 5"),
            (
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 x2 /2",
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13",
            ),
            ("13 /2", "0 13"),
            ("x2", ""),
        ] {
            let a = actions(hand, board);
            let mut from_moves = Wide::EMPTY;
            a.for_each(|m| from_moves = from_moves.with(m.bit()));
            assert_eq!(a.bits(), from_moves, "{hand} on {board}");
            assert_eq!(a.bits().count() as usize, a.len());
            a.for_each(|m| assert_eq!(Action::from_bit(m.bit()), m));
        }
        assert_eq!(
            actions(
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13 x2 /2",
                "0 1 2 3 4 5 6 7 8 9 10 11 12 13"
            )
            .len(),
            198
        );
    }

    #[test]
    fn notation_round_trips_and_errors_say_why() {
        for text in ["3>5", "0>13", "x2", "/2"] {
            let a: Action = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        assert_eq!("×2".parse::<Action>().unwrap(), Action::DOUBLE);
        assert_eq!(" 6 > 2 ".parse::<Action>().unwrap(), Action::play(6, 2));
        // Each error names the text once and gives one reason, once.
        let numbers_only = "only a number card is played, and only on a number card";
        let grammar = "write 3>5 for a 3 on the board's 5, x2 or /2";
        for (bad, why) in [
            ("3", "say which board card the 3 goes on, as in 3>5"),
            ("x2>3", numbers_only),
            ("3>x2", numbers_only),
            ("7>", "'' is not a card (0-13, x2 or /2)"),
            ("14>1", "'14' is not a card (0-13, x2 or /2)"),
            ("3>y", "'y' is not a card (0-13, x2 or /2)"),
            ("", grammar),
            ("foo", grammar),
        ] {
            let e = bad.parse::<Action>().unwrap_err();
            assert_eq!(e, format!("'{bad}' is not an ASMACAG action: {why}"));
        }
    }
}
