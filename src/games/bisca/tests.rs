//! Tests of the Bisca rules, information sets, sampler and model features.

use super::*;
use crate::game::rng_from_seed;
use crate::game::{DealSampler, HiddenInfo};

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
