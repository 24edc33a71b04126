//! ASMACAG ("A Simple Multi-Action CArd Game", the NTBOE paper's testbed): two players, a turn
//! is several actions.
//!
//! 54 cards by default: numbers 1–6 (five each of 1 and 6, eight each of 2–5), six ×2 and six
//! ÷2. Each player gets 9 cards, 20 number cards lie face up on the board, the other 16 are
//! never used. A turn is 3 actions (fewer only when the hand runs out). A number card played on
//! a board card scores `(played − board) × factor` and resets the factor to 1, both cards are
//! discarded; ×2 doubles the factor and ÷2 halves it. The factor is **not** reset between
//! turns. The game ends when both hands are empty or the board is; the higher score wins and
//! equal scores tie. Every parameter is an option (`cardsearch games`).
//!
//! Two bugs of the reference Python code are deliberately not copied: its determinization
//! keeps the opponent's old hand and deals it a new one on top, and its `Card` equality makes
//! ×2 equal to ÷2. Here the opponent's hand goes back into the unseen pool and is redrawn
//! ([`AsmacagKnowledge`]), and the two specials are different kinds.
//!
//! The state is a handful of [`Pile`]s (sixteen 4-bit counters in a `u64` each) and counters:
//! 48 bytes, copied by value. Scores are dyadic (the factor is a power of two), so they are
//! kept exactly as integers in units of 2^-15.
//!
//! Deal notation: `hand0 | hand1 | board | unused`, each a list of cards (`1`–`6`, `x2`, `/2`)
//! in any order, e.g. `1 2 2 3 5 6 x2 /2 /2 | … | 20 number cards | 16 cards`. Action notation:
//! `3>5` (a 3 on the board's 5), `x2`, `/2`.
//!
//! ```
//! use cardsearch::games::asmacag::{Asmacag, AsmacagConfig};
//! use cardsearch::{Game, GameDef};
//!
//! let config = AsmacagConfig::default();
//! let deal = "1 2 2 3 5 6 x2 x2 /2 | 1 1 2 3 4 4 5 x2 /2 \
//!             | 1 2 2 2 3 3 3 4 4 4 5 5 5 5 6 6 6 2 3 4 \
//!             | 1 2 3 3 4 4 5 5 6 x2 x2 x2 /2 /2 /2 /2";
//! let mut g = Asmacag::from_deal(&config, deal).unwrap();
//! for action in ["x2", "x2", "6>1"] {
//!     g.play(g.parse_move(action).unwrap());
//! }
//! assert_eq!(g.score(0), 20.0); // (6 − 1) × 4
//! assert_eq!(g.current_seat(), 1);
//! ```

mod knowledge;
mod moves;
mod pile;

use crate::game::{DealError, Game, HiddenInfo, Rng, Seat};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::GameDef;

pub use knowledge::{AsmacagKnowledge, AsmacagSampler};
pub use moves::{Action, Actions};
pub use pile::{Kind, MAX_COPIES, MAX_NUMBER, Pile};

/// Points are integers in units of 2^-`POINT_SHIFT`. The factor is 2^e with
/// `|e| <= MAX_COPIES` (there are at most 15 ×2 and 15 ÷2 cards), so every score is a whole
/// number of these units and `(played − board) << (e + POINT_SHIFT)` never overflows.
const POINT_SHIFT: i32 = MAX_COPIES as i32;

/// What every seat sees: the board, the discards, the scores, the factor and whose turn it is.
/// The rules' effect on it is one function, [`Table::apply`], shared by the true state and by a
/// seat's knowledge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Table {
    board: Pile,
    /// Every card played, and every board card played on.
    discard: Pile,
    /// Each seat's points, in units of 2^-POINT_SHIFT.
    points: [i64; 2],
    /// The factor's exponent: the factor is 2^factor.
    factor: i8,
    to_move: u8,
    actions_left: u8,
    actions_per_turn: u8,
    /// Points that count as a full margin (see [`Table::margin`]), at least 1.
    margin_scale: u16,
}

impl Table {
    /// Plays `action` for the seat to move, which has `cards_left` cards after it.
    #[inline]
    fn apply(&mut self, action: Action, cards_left: u32) {
        match action.board() {
            Some(on) => {
                let card = action.card().value().expect("a number card") as i64;
                let on_value = on.value().expect("a number card") as i64;
                let shift = self.factor as i32 + POINT_SHIFT;
                debug_assert!((0..=2 * POINT_SHIFT).contains(&shift));
                self.points[self.to_move as usize] += (card - on_value) << shift;
                self.factor = 0;
                self.board.remove(on);
                self.discard.add(on);
            }
            None if action == Action::DOUBLE => self.factor += 1,
            None => self.factor -= 1,
        }
        self.discard.add(action.card());
        self.actions_left -= 1;
        if self.actions_left == 0 || cards_left == 0 {
            self.to_move ^= 1;
            self.actions_left = self.actions_per_turn;
        }
    }

    /// True when the game is over, given both hand sizes.
    #[inline]
    fn is_over(&self, hands_empty: bool) -> bool {
        hands_empty || self.board.is_empty()
    }

    /// The points of `seat` as a number.
    fn score(&self, seat: Seat) -> f64 {
        self.points[seat] as f64 / (1u64 << POINT_SHIFT) as f64
    }

    /// The point difference of `seat` over the other, in units of `margin_scale` points,
    /// clipped to −1…1.
    fn margin(&self, seat: Seat) -> f64 {
        let difference = (self.points[seat] - self.points[seat ^ 1]) as f64;
        let full = (self.margin_scale as u64) << POINT_SHIFT;
        (difference / full as f64).clamp(-1.0, 1.0)
    }

    /// Win 1, tie 0.5, loss 0.
    fn reward(&self, seat: Seat) -> f64 {
        match self.points[seat].cmp(&self.points[seat ^ 1]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
}

/// An ASMACAG position (the true state: both hands and the unused cards).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Asmacag {
    hands: [Pile; 2],
    /// The cards dealt to nobody, never seen by anyone.
    unused: Pile,
    table: Table,
}

impl Asmacag {
    /// A game from explicit piles, checked against `config`: hand and board sizes, a board of
    /// number cards only, and all four piles together exactly the configured deck.
    pub fn from_piles(
        config: &AsmacagConfig,
        hands: [Pile; 2],
        board: Pile,
        unused: Pile,
    ) -> Result<Asmacag, DealError> {
        let bad = |why: String| Err(DealError::Invalid(why));
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != config.hand {
                return bad(format!(
                    "hand {seat} has {} cards, the game deals {}",
                    hand.len(),
                    config.hand
                ));
            }
        }
        if board.len() != config.board {
            return bad(format!(
                "the board has {} cards, the game deals {}",
                board.len(),
                config.board
            ));
        }
        if board.numbers() != board {
            return bad(format!("the board may hold only number cards: {board}"));
        }
        let mut all = Pile::EMPTY;
        for pile in [hands[0], hands[1], board, unused] {
            for kind in pile.iter() {
                if all.count(kind) == config.deck.count(kind) {
                    return bad(format!(
                        "the deal has more {kind} than the deck's {} ({})",
                        config.deck.count(kind),
                        config.deck
                    ));
                }
                all.add(kind);
            }
        }
        if all != config.deck {
            return bad(format!(
                "the deal lacks {} of the deck ({})",
                config.deck.minus(all),
                config.deck
            ));
        }
        Ok(Asmacag {
            hands,
            unused,
            table: Table {
                board,
                discard: Pile::EMPTY,
                points: [0; 2],
                factor: 0,
                to_move: 0,
                actions_left: config.actions as u8,
                actions_per_turn: config.actions as u8,
                margin_scale: config.margin_scale(),
            },
        })
    }

    /// A seat's hand (the true state: only the harness and cheating agents see the other).
    pub fn hand(&self, seat: Seat) -> Pile {
        self.hands[seat]
    }

    /// The number cards on the board.
    pub fn board(&self) -> Pile {
        self.table.board
    }

    /// The current factor (a power of two).
    pub fn factor(&self) -> f64 {
        2f64.powi(self.table.factor as i32)
    }

    /// Actions left in the current turn.
    pub fn actions_left(&self) -> u32 {
        self.table.actions_left as u32
    }
}

impl Game for Asmacag {
    type Move = Action;
    type Moves = Actions;

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn current_seat(&self) -> Seat {
        self.table.to_move as Seat
    }

    #[inline]
    fn legal_moves(&self) -> Actions {
        Actions::new(
            self.hands[self.table.to_move as usize].kinds(),
            self.table.board.kinds(),
        )
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(
            crate::game::MoveSet::contains(&self.legal_moves(), action),
            "illegal {action}"
        );
        let p = self.table.to_move as usize;
        self.hands[p].remove(action.card());
        self.table.apply(action, self.hands[p].len());
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.table
            .is_over(self.hands[0].is_empty() && self.hands[1].is_empty())
    }

    fn reward(&self, seat: Seat) -> f64 {
        self.table.reward(seat)
    }

    fn score(&self, seat: Seat) -> f64 {
        self.table.score(seat)
    }

    /// The point difference over the opponent, as a fraction of what a whole hand scores at
    /// factor 1 at best (hand × (highest − lowest number): 45 points in the paper's game),
    /// clipped to −1…1. Factors can push the difference past that, but rarely: in 1,000 games
    /// of ISMCTS against NTBOE at 100 ms a turn the median difference was 7 points, the 90th
    /// percentile 22.5 and the largest 45.5.
    fn margin(&self, seat: Seat) -> f64 {
        self.table.margin(seat)
    }

    const HAS_HEURISTIC: bool = true;

    /// The greedy rule a player might follow without search: play the highest number in hand
    /// on the lowest board card when that scores, doubling first while the turn has actions
    /// left after the ×2; when that play would not score, halve instead if possible (a ÷2
    /// also blunts the opponent's next play when it ends the turn), else make the play that
    /// loses least.
    /// A few operations on the piles' kind masks, no move list.
    fn heuristic_move(&self, _rng: &mut Rng) -> Action {
        let hand = self.hands[self.table.to_move as usize];
        let has = |kind: Kind| hand.contains(kind);
        let Some(high) = hand.highest_number() else {
            // Specials only: a ÷2 hurts nobody's score, a ×2 may feed the opponent.
            return if has(Kind::HALVE) {
                Action::HALVE
            } else {
                Action::DOUBLE
            };
        };
        let low = self
            .table
            .board
            .lowest_number()
            .expect("the board holds a number until the game ends");
        if high > low {
            if has(Kind::DOUBLE) && self.table.actions_left > 1 {
                return Action::DOUBLE;
            }
        } else if has(Kind::HALVE) {
            return Action::HALVE;
        }
        Action::play(high, low)
    }

    fn parse_move(&self, text: &str) -> Result<Action, String> {
        text.parse()
    }
}

impl HiddenInfo for Asmacag {
    type InfoSet = AsmacagKnowledge;

    /// What `observer` knows: its hand and public facts (see [`AsmacagKnowledge`]).
    fn info_set(&self, observer: Seat) -> AsmacagKnowledge {
        self.knowledge(observer)
    }

    /// Any card kind on the public board: a superset of every legal set the observer cannot
    /// rule out: every number kind on every board kind, and both specials.
    fn possible_moves(&self, _observer: Seat) -> Actions {
        Actions::new(u16::MAX, self.table.board.kinds())
    }
}

/// Everything the options decide: sizes, actions per turn and the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsmacagConfig {
    /// Cards dealt to each player.
    pub hand: u32,
    /// Number cards dealt face up to the board.
    pub board: u32,
    /// Actions per turn.
    pub actions: u32,
    /// The deck.
    pub deck: Pile,
}

impl Default for AsmacagConfig {
    /// The paper's game: 9 cards each, 20 on the board, 3 actions, the 54-card deck.
    fn default() -> AsmacagConfig {
        AsmacagConfig::new(9, 20, 3, deck(1, 6, 5, 8, 6, 6)).expect("the paper's game is valid")
    }
}

/// The deck of numbers `low..=high` (`ends` copies of `low` and `high`, `middles` of each
/// number between) and `doubles` ×2 and `halves` ÷2 cards, as the reference builds it.
pub fn deck(low: u8, high: u8, ends: u32, middles: u32, doubles: u32, halves: u32) -> Pile {
    let mut deck = Pile::of(Kind::DOUBLE, doubles).plus(Pile::of(Kind::HALVE, halves));
    for n in low..=high {
        let copies = if n == low || n == high { ends } else { middles };
        deck = deck.plus(Pile::of(Kind::number(n), copies));
    }
    deck
}

impl AsmacagConfig {
    /// The points a whole hand scores at factor 1 at best, hand × (highest − lowest number):
    /// the difference that [`Game::margin`] counts as full (at least 1).
    fn margin_scale(&self) -> u16 {
        let spread = match (self.deck.lowest_number(), self.deck.highest_number()) {
            (Some(low), Some(high)) => (high - low) as u32,
            _ => 0,
        };
        (self.hand * spread).clamp(1, u16::MAX as u32) as u16
    }

    /// A checked configuration: at least one card in hand, on the board and action per turn,
    /// at most 15 actions, and enough number cards that every deal fills the board even when
    /// both hands took numbers only.
    pub fn new(hand: u32, board: u32, actions: u32, deck: Pile) -> Result<AsmacagConfig, String> {
        if hand == 0 || board == 0 || actions == 0 {
            return Err("hand, board and actions must be at least 1".into());
        }
        if actions > MAX_COPIES {
            return Err(format!("actions={actions} must be at most {MAX_COPIES}"));
        }
        let numbers = deck.numbers().len();
        if numbers < 2 * hand + board {
            return Err(format!(
                "the deck has {numbers} number cards; dealing hand={hand} twice and board={board} \
                 needs {} in case the hands take numbers only",
                2 * hand + board
            ));
        }
        Ok(AsmacagConfig {
            hand,
            board,
            actions,
            deck,
        })
    }
}

impl GameDef for Asmacag {
    const NAME: &'static str = "asmacag";
    const ABOUT: &'static str = "2 players, a turn is 3 actions: number cards on board cards score \
        (played - board) x factor; x2 and /2 change the factor (the NTBOE paper's game)";
    const OPTIONS: &'static [OptionDoc] = &[
        OptionDoc {
            key: "hand",
            default: "9",
            help: "cards dealt to each player",
        },
        OptionDoc {
            key: "board",
            default: "20",
            help: "number cards face up on the board",
        },
        OptionDoc {
            key: "actions",
            default: "3",
            help: "actions per turn (1-15)",
        },
        OptionDoc {
            key: "low",
            default: "1",
            help: "lowest number card (0-13)",
        },
        OptionDoc {
            key: "high",
            default: "6",
            help: "highest number card (low-13)",
        },
        OptionDoc {
            key: "ends",
            default: "5",
            help: "copies of the lowest and of the highest number (0-15)",
        },
        OptionDoc {
            key: "middles",
            default: "8",
            help: "copies of each number between them (0-15)",
        },
        OptionDoc {
            key: "doubles",
            default: "6",
            help: "x2 cards (0-15)",
        },
        OptionDoc {
            key: "halves",
            default: "6",
            help: "/2 cards (0-15)",
        },
    ];
    type Config = AsmacagConfig;

    fn config(spec: &Spec) -> Result<AsmacagConfig, SpecError> {
        let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
        let hand: u32 = spec.get("hand", 9)?;
        let board: u32 = spec.get("board", 20)?;
        let actions: u32 = spec.get("actions", 3)?;
        let low: u8 = spec.get("low", 1)?;
        let high: u8 = spec.get("high", 6)?;
        if low > high || high > MAX_NUMBER {
            return Err(err(format!(
                "numbers low={low} to high={high} must satisfy low <= high <= {MAX_NUMBER}"
            )));
        }
        let mut copies = [0u32; 4];
        for (slot, (key, default)) in
            copies
                .iter_mut()
                .zip([("ends", 5), ("middles", 8), ("doubles", 6), ("halves", 6)])
        {
            *slot = spec.get(key, default)?;
            if *slot > MAX_COPIES {
                return Err(err(format!("{key}={} must be at most {MAX_COPIES}", *slot)));
            }
        }
        let [ends, middles, doubles, halves] = copies;
        AsmacagConfig::new(
            hand,
            board,
            actions,
            deck(low, high, ends, middles, doubles, halves),
        )
        .map_err(err)
    }

    fn new_game(config: &AsmacagConfig, rng: &mut Rng) -> Asmacag {
        // The reference shuffles the deck, deals the hands, then turns up cards until the board
        // holds enough numbers (the specials go back): the hands are a uniform draw from the
        // deck and the board a uniform draw from the numbers left.
        let hand0 = config.deck.draw(config.hand, rng);
        let rest = config.deck.minus(hand0);
        let hand1 = rest.draw(config.hand, rng);
        let rest = rest.minus(hand1);
        let board = rest.numbers().draw(config.board, rng);
        Asmacag::from_piles(config, [hand0, hand1], board, rest.minus(board))
            .expect("a deal of the configured deck")
    }

    fn from_deal(config: &AsmacagConfig, deal: &str) -> Result<Asmacag, DealError> {
        let parts: Vec<&str> = deal.split('|').collect();
        if parts.len() != 4 {
            return Err(DealError::Invalid(format!(
                "expected 'hand0 | hand1 | board | unused', found {} '|'-separated parts",
                parts.len()
            )));
        }
        let piles = parts
            .iter()
            .map(|p| p.parse::<Pile>().map_err(DealError::Invalid))
            .collect::<Result<Vec<Pile>, DealError>>()?;
        Asmacag::from_piles(config, [piles[0], piles[1]], piles[2], piles[3])
    }

    fn deal_text(&self) -> String {
        format!(
            "{} | {} | {} | {}",
            self.hands[0], self.hands[1], self.table.board, self.unused
        )
    }

    fn hand_text(&self, seat: Seat) -> Option<String> {
        Some(self.hands[seat].to_string())
    }

    /// The board, the points, the factor the next number card scores at, the actions left
    /// in the turn and the size of the other hand: all public.
    fn table_text(&self, observer: Seat) -> Option<String> {
        let other = observer ^ 1;
        Some(format!(
            "board: {}; points: seat 0 {}, seat 1 {}; factor {}; {} of {} actions left in \
             seat {}'s turn; seat {other} holds {} cards",
            self.table.board,
            self.score(0),
            self.score(1),
            self.factor(),
            self.table.actions_left,
            self.table.actions_per_turn,
            self.table.to_move,
            self.hands[other].len()
        ))
    }
}

#[cfg(test)]
mod tests;
