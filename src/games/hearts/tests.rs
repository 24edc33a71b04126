//! Tests of the Hearts rules, information sets, sampler and model features.

use super::*;
use crate::game::{DealSampler, HiddenInfo, InfoSet, rng_from_seed};

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
                        assert!((0..SEATS).all(|s| redealt.hands[s] == d.hands[s] | d.played[s]));
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

/// Every way to deal the cards the observer cannot place, consistent with what it knows, found
/// by brute force (small positions only) without the game's own record of what seats proved
/// absent ([`Hearts::excluded`], which the sampler reads): each assignment of the hidden cards
/// to the other seats, of their true sizes, is kept when the hands it implies at the start of
/// play (the hands now and the cards played) have the observer's pass in its receiver's hand
/// and replay the whole trick `history` legally. With `replay` false the history is not
/// replayed: the deals the observer would have to consider knowing no rule.
fn consistent_deals(g: &Hearts, o: Seat, history: &[Card], replay: bool) -> Vec<[CardSet; SEATS]> {
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
        if others.iter().any(|&s| hands[s].len() != g.hands[s].len()) {
            continue;
        }
        let at_play: [CardSet; SEATS] = std::array::from_fn(|s| hands[s] | g.played[s]);
        if g.pass != Pass::None && !at_play[g.pass.receiver(o)].is_superset(g.passed[o]) {
            continue;
        }
        let mut again = Hearts::from_hands(at_play, Pass::None).unwrap();
        let legal = !replay
            || history.iter().all(|&c| {
                let ok = again.legal_moves().contains(c);
                if ok {
                    again.play(c);
                }
                ok
            });
        if legal {
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
        // The cards played to tricks, in order (the passes are not tricks).
        let mut history = Vec::new();
        while g.is_passing() || g.tricks < 10 || g.in_trick != 1 {
            let passing = g.is_passing();
            let c = g.legal_moves().random(&mut rng);
            g.play(c);
            if !passing {
                history.push(c);
            }
        }
        let o = (positions * 3 + 1) % SEATS;
        let expected = consistent_deals(&g, o, &history, true);
        assert!(expected.contains(&g.hands));
        // Positions where the history rules deals out: voids shown, or what the first-trick and
        // heart-leading rules prove.
        with_voids += (expected.len() < consistent_deals(&g, o, &history, false).len()) as u32;
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
