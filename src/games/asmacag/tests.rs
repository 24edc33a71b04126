//! Rule tests from the reference's behaviour, random-game invariants, and the exactness of the
//! determinization.

use super::*;
use crate::game::{DealSampler, InfoSet, MoveSet, rng_from_seed};
use std::collections::HashSet;

fn pile(text: &str) -> Pile {
    text.parse().unwrap()
}

fn act(text: &str) -> Action {
    text.parse().unwrap()
}

/// A default-deck deal with the given hands and board; the rest of the deck is unused.
fn deal(hand0: &str, hand1: &str, board: &str) -> Asmacag {
    let config = AsmacagConfig::default();
    let (h0, h1, b) = (pile(hand0), pile(hand1), pile(board));
    let unused = config.deck.minus(h0).minus(h1).minus(b);
    Asmacag::from_piles(&config, [h0, h1], b, unused).unwrap()
}

const BOARD: &str = "1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 2 3 4 5";

fn play(g: &mut Asmacag, actions: &str) {
    for a in actions.split_whitespace() {
        let a = act(a);
        assert!(g.legal_moves().contains(a), "{a} is not legal in {g:?}");
        g.play(a);
    }
}

#[test]
fn number_plays_score_the_difference_times_the_factor_and_reset_it() {
    let mut g = deal("6 6 4 2 3 3 x2 x2 /2", "1 1 2 3 4 5 x2 /2 /2", BOARD);
    play(&mut g, "6>2");
    assert_eq!(g.score(0), 4.0);
    play(&mut g, "x2 6>2");
    assert_eq!(g.score(0), 12.0, "(6 - 2) x 2 = 8 more");
    assert_eq!(g.factor(), 1.0, "a number play resets the factor");
    // Seat 1: a lower card on a higher one loses points, also doubled.
    play(&mut g, "x2 1>5");
    assert_eq!(g.score(1), -8.0);
}

#[test]
fn halving_gives_fractions_exactly() {
    // The paper's example: the opponent played two ÷2 in the previous turn, then 5 on 2 scores
    // (5 − 2) × 0.25 = 0.75.
    let mut g = deal("5 5 5 1 2 3 4 6 x2", "3 3 4 4 6 6 /2 /2 x2", BOARD);
    play(&mut g, "x2 5>1 5>1"); // the ×2 spends itself on the first 5: 8 + 4
    assert_eq!(g.score(0), 12.0);
    play(&mut g, "4>2 /2 /2");
    assert_eq!(g.score(1), 2.0);
    assert_eq!(
        g.factor(),
        0.25,
        "the factor carries across the turn boundary"
    );
    play(&mut g, "5>2");
    assert_eq!(g.score(0), 12.75);
    // Three halvings: 4/8 + 3 + 1, and a loss at factor 1 again.
    let mut g = deal("1 2 3 4 5 6 /2 /2 /2", "1 2 3 4 5 6 x2 x2 x2", BOARD);
    play(&mut g, "/2 /2 /2");
    play(&mut g, "5>1 4>1 3>2");
    assert_eq!(g.score(1), 4.5);
    play(&mut g, "1>6");
    assert_eq!(g.score(0), -5.0);
}

#[test]
fn the_factor_carries_across_the_turn_boundary_to_the_opponent() {
    let mut g = deal("3 3 3 4 4 4 x2 x2 x2", "6 6 6 1 1 2 2 5 5", BOARD);
    play(&mut g, "x2 x2 x2");
    assert_eq!((g.current_seat(), g.factor()), (1, 8.0));
    play(&mut g, "6>1");
    assert_eq!(g.score(1), 40.0, "seat 1 cashes seat 0's ×8");
}

#[test]
fn the_margin_is_the_point_difference_over_a_hands_best_score_clipped() {
    let mut g = deal("6 6 6 2 3 3 x2 x2 x2", "1 1 2 3 4 5 x2 /2 /2", BOARD);
    play(&mut g, "6>2");
    // 4 points up; a full margin is 9 cards × (6 − 1) = 45 points.
    assert_eq!(g.margin(0), 4.0 / 45.0);
    assert_eq!(g.margin(1), -4.0 / 45.0);
    // The scale follows the options: hands of 3 cards of 1-6 make 15 points a full margin,
    // and (6 − 1) × 4 = 20 points up is clipped to it.
    let config = AsmacagConfig::new(3, 20, 3, AsmacagConfig::default().deck).unwrap();
    assert_eq!(config.margin_scale(), 15);
    let (h0, h1, board) = (pile("6 x2 x2"), pile("1 1 2"), pile(BOARD));
    let unused = config.deck.minus(h0).minus(h1).minus(board);
    let mut g = Asmacag::from_piles(&config, [h0, h1], board, unused).unwrap();
    play(&mut g, "x2 x2 6>1");
    assert_eq!(g.score(0), 20.0);
    assert_eq!((g.margin(0), g.margin(1)), (1.0, -1.0));
}

#[test]
fn the_heuristic_doubles_then_plays_high_on_low_and_halves_rather_than_lose() {
    let mut rng = rng_from_seed(1);
    let mut g = deal("6 6 4 2 3 3 x2 x2 /2", "1 1 1 2 2 2 x2 /2 /2", BOARD);
    let mut next = |g: &mut Asmacag| {
        let mv = g.heuristic_move(&mut rng);
        assert!(g.legal_moves().contains(mv), "{mv} is not legal");
        g.play(mv);
        mv.to_string()
    };
    // Two ×2 while actions remain after them, then the 6 on a 1: (6 − 1) × 4.
    let turn: Vec<String> = (0..3).map(|_| next(&mut g)).collect();
    assert_eq!(turn, ["x2", "x2", "6>1"]);
    assert_eq!(g.score(0), 20.0);
    // Seat 1: its ×2 first, as 2 on the board's last 1 scores; then that play; then its best
    // play, 2 on 2, scores nothing, so it halves instead.
    assert_eq!(next(&mut g), "x2");
    assert_eq!(next(&mut g), "2>1");
    assert_eq!(next(&mut g), "/2");
}

#[test]
fn double_and_halve_are_different_cards() {
    // The reference compares cards so that ×2 equals ÷2; here playing ×2 takes the ×2.
    let mut g = deal("x2 /2 /2 1 1 1 2 2 2", "3 3 3 4 4 4 5 5 5", BOARD);
    play(&mut g, "x2");
    assert_eq!(g.hand(0).count(Kind::DOUBLE), 0);
    assert_eq!(g.hand(0).count(Kind::HALVE), 2);
    assert!(!g.legal_moves().contains(Action::DOUBLE));
    assert_eq!(g.factor(), 2.0);
}

#[test]
fn equal_scores_tie() {
    let board = "1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 5 5 6 6 6";
    let mut g = deal("1 2 3 4 5 6 x2 /2 x2", "1 2 3 4 5 6 /2 x2 /2", board);
    play(&mut g, "6>5 2>2 3>3");
    play(&mut g, "6>5 2>2 3>3");
    play(&mut g, "x2 4>4 1>1");
    play(&mut g, "/2 4>4 1>1");
    play(&mut g, "x2 /2 5>5");
    play(&mut g, "x2 /2 5>5");
    assert!(g.is_terminal());
    assert_eq!((g.score(0), g.score(1)), (1.0, 1.0));
    assert_eq!((g.reward(0), g.reward(1)), (0.5, 0.5));
}

#[test]
fn a_turn_ends_early_when_the_hand_runs_out_and_the_game_when_the_board_empties() {
    let spec: Spec = "asmacag:hand=4,board=20".parse().unwrap();
    let config = Asmacag::config(&spec).unwrap();
    let mut g = Asmacag::new_game(&config, &mut rng_from_seed(2));
    let mut rng = rng_from_seed(3);
    let mut turns = Vec::new();
    let mut seat = g.current_seat();
    let mut run = 0;
    while !g.is_terminal() {
        if g.current_seat() != seat {
            turns.push(run);
            seat = g.current_seat();
            run = 0;
        }
        g.play(g.legal_moves().random(&mut rng));
        run += 1;
    }
    turns.push(run);
    assert_eq!(turns, [3, 3, 1, 1]);

    // A board of 2: the game ends as soon as both board cards are taken.
    let spec: Spec = "asmacag:board=2,doubles=0,halves=0".parse().unwrap();
    let config = Asmacag::config(&spec).unwrap();
    let mut g = Asmacag::new_game(&config, &mut rng_from_seed(2));
    for _ in 0..2 {
        g.play(g.legal_moves().nth(0));
    }
    assert!(g.board().is_empty() && g.is_terminal());
    assert_eq!(g.hand(0).len(), 7);
}

/// Cards are conserved, turns alternate every `actions` actions, a legal action exists until
/// the end, and the game ends after exactly 6 turns (18 actions) with the defaults. Each
/// seat's knowledge is what the true state shows it, and following the game move by move with
/// `observe` gives the same knowledge.
#[test]
fn ten_thousand_random_games_keep_the_invariants() {
    let config = AsmacagConfig::default();
    let mut rng = rng_from_seed(11);
    let mut outcomes = [0u32; 3];
    for _ in 0..10_000 {
        let mut g = Asmacag::new_game(&config, &mut rng);
        assert_eq!(Asmacag::from_deal(&config, &g.deal_text()).unwrap(), g);
        let mut known = [g.knowledge(0), g.knowledge(1)];
        let mut actions = 0;
        let mut points = [0i64; 2];
        while !g.is_terminal() {
            let moves = g.legal_moves();
            assert!(!moves.is_empty());
            assert_eq!(g.current_seat(), (actions / 3) % 2);
            let mv = moves.random(&mut rng);
            let seat = g.current_seat();
            let before = g.table;
            g.play(mv);
            if let Some(on) = mv.board() {
                let gain = (mv.card().value().unwrap() as i64 - on.value().unwrap() as i64)
                    * (1i64 << (before.factor as i32 + POINT_SHIFT));
                points[seat] += gain;
            }
            for (observer, k) in known.iter_mut().enumerate() {
                k.observe(seat, Some(mv), None).unwrap();
                assert_eq!(*k, g.knowledge(observer));
            }
            actions += 1;
            let all = g.hands[0]
                .plus(g.hands[1])
                .plus(g.unused)
                .plus(g.table.board)
                .plus(g.table.discard);
            assert_eq!(all, config.deck);
        }
        assert_eq!(actions, 18);
        assert_eq!(g.table.points, points);
        assert_eq!(
            g.table.board.len(),
            20 - g.table.discard.numbers().len() / 2
        );
        outcomes[(g.reward(0) * 2.0) as usize] += 1;
        // The margin is the result seen from the points: same sign, opposite for the other.
        assert_eq!(g.margin(0), -g.margin(1));
        let sign = match g.margin(0) {
            m if m > 0.0 => 1.0,
            m if m < 0.0 => -1.0,
            _ => 0.0,
        };
        assert_eq!(sign, 2.0 * g.reward(0) - 1.0);
    }
    // Every outcome happens (ties included).
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}

/// C(n, k) as a float.
fn choose(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Every opponent hand of `size` cards out of `pool`, with its exact probability under a
/// uniform deal of physical cards: ∏ C(unseen_k, held_k) / C(unseen, size).
fn hands_with_probabilities(pool: Pile, size: u32) -> Vec<(Pile, f64)> {
    let mut out = vec![(Pile::EMPTY, 1.0)];
    for i in 0..16 {
        let kind = Kind::from_index(i);
        let copies = pool.count(kind);
        let mut next = Vec::new();
        for (p, w) in out {
            for c in 0..=copies.min(size - p.len()) {
                next.push((p.plus(Pile::of(kind, c)), w * choose(copies, c)));
            }
        }
        out = next;
    }
    let total = choose(pool.len(), size);
    out.into_iter()
        .filter(|(p, _)| p.len() == size)
        .map(|(p, w)| (p, w / total))
        .collect()
}

/// The same hands with the probabilities the deal gives them once the board is seen: the
/// board of `board` numbers was drawn after the hands from the numbers they left, so each
/// hand's uniform-deal probability is multiplied by the chance of one board out of
/// C(board + the pool's numbers outside the hand, board), and the whole renormalized.
fn hands_as_dealt(pool: Pile, size: u32, board: u32) -> Vec<(Pile, f64)> {
    let numbers = pool.numbers().len();
    let weighed: Vec<(Pile, f64)> = hands_with_probabilities(pool, size)
        .into_iter()
        .map(|(p, q)| (p, q / choose(board + numbers - p.numbers().len(), board)))
        .collect();
    let total: f64 = weighed.iter().map(|(_, w)| w).sum();
    weighed.into_iter().map(|(p, w)| (p, w / total)).collect()
}

/// Upper critical value of chi-square with `df` degrees of freedom at p = 1e-4
/// (Wilson–Hilferty, z = 3.719), accurate to under 1% for df >= 5.
fn chi2_critical(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.719;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Pearson's statistic of `n` samples of the opponent's hand against the exact probabilities.
fn chi_square(expected: &[(Pile, f64)], n: usize, mut draw: impl FnMut() -> Pile) -> f64 {
    let mut seen = vec![0f64; expected.len()];
    for _ in 0..n {
        let hand = draw();
        let i = expected
            .iter()
            .position(|(p, _)| *p == hand)
            .expect("a hand the pool can give");
        seen[i] += 1.0;
    }
    expected
        .iter()
        .zip(&seen)
        .map(|((_, p), o)| {
            let e = p * n as f64;
            (o - e).powi(2) / e
        })
        .sum()
}

#[test]
fn the_opponents_hand_is_drawn_as_likely_as_the_deal_made_it() {
    // After four turns seat 1 holds 3 cards; seat 0 has not seen them nor the 16 unused ones.
    let mut g = Asmacag::new_game(&AsmacagConfig::default(), &mut rng_from_seed(5));
    let mut rng = rng_from_seed(6);
    for _ in 0..12 {
        g.play(g.legal_moves().random(&mut rng));
    }
    let k = g.knowledge(0);
    assert_eq!((k.opponent_cards(), k.unseen().len()), (3, 19));
    // The default deals 20 numbers to the board.
    assert_eq!(k.board_dealt(), 20);
    let expected = hands_as_dealt(k.unseen(), 3, 20);
    let sampler = g.deal_sampler(0).unwrap();
    assert_eq!(sampler.count(), expected.len() as u128);
    let total: f64 = expected.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Listing the states gives each possible hand once, the true one among them, and keeps
    // what seat 0 knows.
    let mut listed = Vec::new();
    assert!(sampler.for_each_state(&mut |s| {
        assert_eq!(s.knowledge(0), k);
        listed.push(s.hand(1));
    }));
    let distinct: HashSet<Pile> = listed.iter().copied().collect();
    let possible: HashSet<Pile> = expected.iter().map(|(h, _)| *h).collect();
    assert_eq!(distinct.len(), listed.len(), "a hand listed twice");
    assert_eq!(distinct, possible);
    assert!(distinct.contains(&g.hand(1)));
    // Every cell expects at least 5 draws at this n.
    let n = 200_000;
    let min_p = expected.iter().map(|(_, p)| *p).fold(1.0, f64::min);
    assert!(min_p * n as f64 >= 5.0, "{min_p}");
    let df = expected.len() - 1;
    let mut draw_rng = rng_from_seed(7);
    let stat = chi_square(&expected, n, || sampler.sample(&mut draw_rng).hand(1));
    assert!(
        stat < chi2_critical(df),
        "{stat} >= {} ({df} df)",
        chi2_critical(df)
    );
    // The test has teeth: drawing uniformly among distinct hands (ignoring how many copies of
    // each kind are unseen) fails it by far, and so does a uniform draw of physical cards
    // (ignoring the board's evidence: the sampler before session 54).
    let mut bad_rng = rng_from_seed(8);
    let stat = chi_square(&expected, n, || {
        expected[crate::cards::random_below(&mut bad_rng, expected.len() as u32) as usize].0
    });
    assert!(stat > 10.0 * chi2_critical(df), "{stat}");
    let stat = chi_square(&expected, n, || k.unseen().draw(3, &mut bad_rng));
    assert!(stat > 10.0 * chi2_critical(df), "{stat}");
    // And every sample keeps what seat 0 knows.
    for _ in 0..1000 {
        assert_eq!(sampler.sample(&mut draw_rng).knowledge(0), k);
    }
}

/// The sampler against the dealer itself, with no formula in between: over many deals, the
/// number of specials (x2, /2) seat 1 truly holds and the number in seat 0's samples have the
/// same mean, at the deal and after seat 0's first turn (where the board dealt is read from
/// what was played on). Only seat 0 moves: a move of seat 1 depends on its hand, which the
/// samplers do not weigh (as in every game here: all consistent deals count, however their
/// holder would have played; inference is the option that weighs that). Each deal's true and sampled counts have a standard deviation of about 1.3, so
/// over 3,000 deals the means' difference has a standard error of about 0.034; the margin is
/// 4.5 of those. A uniform redeal of the unseen cards is 1.6 off at the deal.
#[test]
fn sampled_hands_hold_as_many_specials_as_dealt_hands() {
    let config = AsmacagConfig::default();
    let specials = |p: Pile| p.len() - p.numbers().len();
    for actions in [0, 3] {
        let mut rng = rng_from_seed(40 + actions);
        let (mut truth, mut sampled, mut uniform) = (0.0, 0.0, 0.0);
        let deals = 3000;
        for _ in 0..deals {
            let mut g = Asmacag::new_game(&config, &mut rng);
            for _ in 0..actions {
                g.play(g.legal_moves().random(&mut rng));
            }
            truth += specials(g.hand(1)) as f64;
            sampled += specials(g.deal_sampler(0).unwrap().sample(&mut rng).hand(1)) as f64;
            let k = g.knowledge(0);
            uniform += specials(k.unseen().draw(k.opponent_cards(), &mut rng)) as f64;
        }
        let (truth, sampled, uniform) = (
            truth / deals as f64,
            sampled / deals as f64,
            uniform / deals as f64,
        );
        assert!(
            (truth - sampled).abs() < 4.5 * 0.034,
            "after {actions} actions: dealt {truth:.3}, sampled {sampled:.3}"
        );
        assert!((truth - uniform).abs() > 0.5, "{truth} {uniform}");
    }
}

#[test]
fn states_a_seat_cannot_tell_apart_give_it_the_same_sampler_and_samples() {
    let g = Asmacag::new_game(&AsmacagConfig::default(), &mut rng_from_seed(9));
    // Swap one card between seat 1's hand and the unused pile: seat 0 cannot tell.
    let mut h = g;
    let a = g.hands[1].nth(0);
    let b = (0..g.unused.len())
        .map(|i| g.unused.nth(i))
        .find(|&k| k != a)
        .unwrap();
    h.hands[1].remove(a);
    h.hands[1].add(b);
    h.unused.remove(b);
    h.unused.add(a);
    assert_ne!(g, h);
    assert_eq!(g.knowledge(0), h.knowledge(0));
    assert_ne!(g.knowledge(1), h.knowledge(1));
    let (s, t) = (g.deal_sampler(0).unwrap(), h.deal_sampler(0).unwrap());
    assert_eq!(s, t);
    let debug = format!("{s:?}");
    assert!(!debug.contains(&format!("{:?}", g.hands[1])), "{debug}");
    let (mut r1, mut r2) = (rng_from_seed(1), rng_from_seed(1));
    for _ in 0..100 {
        assert_eq!(s.sample(&mut r1), t.sample(&mut r2));
    }
}

#[test]
fn observing_an_impossible_action_is_refused_and_changes_nothing() {
    let g = deal("6 6 6 1 1 2 2 5 5", "3 3 3 4 4 4 x2 x2 x2", BOARD);
    // Seat 1 sees 3 of the eight 3s in its hand and 4 on the board: one is unseen.
    let mut k = g.knowledge(1);
    let before = k;
    assert!(
        k.observe(1, Some(act("3>1")), None).is_err(),
        "seat 0 is to move"
    );
    assert_eq!(k, before);
    assert!(
        k.observe(0, Some(act("6>13")), None).is_err(),
        "no 13 on the board"
    );
    assert_eq!(k, before);
    k.observe(0, Some(act("3>1")), None).unwrap();
    let after_one = k;
    let e = k
        .observe(0, Some(act("3>2")), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("accounted for"), "{e}");
    assert_eq!(k, after_one);
    // Seat 0 knows its own hand.
    let mut k = g.knowledge(0);
    assert!(
        k.observe(0, Some(act("3>1")), None).is_err(),
        "seat 0 holds no 3"
    );
    assert_eq!(k, g.knowledge(0));
}

#[test]
fn bad_deals_and_options_are_errors_that_say_what_is_wrong() {
    let config = AsmacagConfig::default();
    let g = Asmacag::new_game(&config, &mut rng_from_seed(1));
    let text = g.deal_text();
    assert_eq!(Asmacag::from_deal(&config, &text).unwrap(), g);
    let parts: Vec<&str> = text.split('|').collect();
    for (bad, needle) in [
        (parts[..3].join("|"), "found 3"),
        (
            format!("{}|{}|{}|{} 1", parts[0], parts[1], parts[2], parts[3]),
            "more 1 than the deck's 5",
        ),
        (
            format!("{}|{}|{} x2|{}", parts[0], parts[1], parts[2], parts[3]),
            "board",
        ),
        (
            format!("x3|{}|{}|{}", parts[1], parts[2], parts[3]),
            "not an ASMACAG card",
        ),
        (
            format!("{} 1|{}|{}|{}", parts[0], parts[1], parts[2], parts[3]),
            "hand 0 has 10",
        ),
    ] {
        let e = Asmacag::from_deal(&config, &bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
    for (spec, needle) in [
        ("asmacag:hand=0", "at least 1"),
        ("asmacag:hand=20", "number cards"),
        ("asmacag:low=4,high=2", "low <= high"),
        ("asmacag:high=14", "low <= high"),
        ("asmacag:doubles=16", "doubles=16"),
        ("asmacag:actions=16", "at most 15"),
        ("asmacag:hand=x", "hand=x"),
    ] {
        let spec: Spec = spec.parse().unwrap();
        let e = Asmacag::config(&spec).unwrap_err().0;
        assert!(e.contains(needle), "{spec}: {e}");
    }
}
