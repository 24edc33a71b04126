//! Information sets: built from what a seat has seen and nothing else, exact, and followed move
//! by move as the engine's view mode does.
//!
//! - Two true states a seat cannot tell apart give it equal information sets and equal samplers
//!   that draw identical sequences (a sampler that kept the true state, as earlier versions did,
//!   fails this at once: its copy of the hidden hands differs between the two states).
//! - Following every seat of thousands of games move by move (`InfoSet::observe`, with only what
//!   that seat sees of each move) never rejects a legal move and always arrives at the
//!   information set read off the true state.
//! - In Hearts, what the first-trick and heart-leading rules prove is used: samples are uniform
//!   over exactly the deals under which every move of the game so far was legal, found here by
//!   replaying the history on every candidate deal (an implementation independent of the
//!   sampler's constraints).

use std::collections::HashMap;

use cardsearch::cards::random_below;
use cardsearch::game::{DealSampler, HiddenInfo, InfoSet, rng_from_seed};
use cardsearch::games::hearts::{Hearts, HeartsConfig, Pass};
use cardsearch::games::{Bisca, CoinGuess, GameDef, Sueca, Tricks};
use cardsearch::spec::Spec;
use cardsearch::{Card, CardSet, Game, MoveSet, Rng, Seat};
use proptest::prelude::*;

fn config<G: GameDef>(spec: &str) -> G::Config {
    G::config(&spec.parse::<Spec>().unwrap()).unwrap()
}

/// A random position `plies` moves into a random deal (or the end, if sooner).
fn position<G: GameDef>(config: &G::Config, rng: &mut Rng, plies: usize) -> G {
    let mut g = G::new_game(config, rng);
    for _ in 0..plies {
        if g.is_terminal() {
            break;
        }
        g.play(g.legal_moves().random(rng));
    }
    g
}

/// Checks that a state the observer cannot tell from `truth` (drawn from its own sampler) gives
/// it the same information set and a sampler equal in value, in `Debug` text and in the
/// samples it draws.
fn indistinguishable<G: GameDef>(truth: &G, observer: Seat, seed: u64) {
    let info = truth.info_set(observer);
    let sampler = info.sampler().expect("the true state is consistent");
    let twin = sampler.sample(&mut rng_from_seed(seed));
    let twin_info = twin.info_set(observer);
    assert_eq!(twin_info, info, "{truth:?} vs {twin:?}");
    let twin_sampler = twin_info.sampler().unwrap();
    assert_eq!(twin_sampler, sampler);
    assert_eq!(format!("{twin_sampler:?}"), format!("{sampler:?}"));
    let (mut a, mut b) = (rng_from_seed(seed ^ 1), rng_from_seed(seed ^ 1));
    for _ in 0..4 {
        let (x, y) = (sampler.sample(&mut a), twin_sampler.sample(&mut b));
        assert_eq!(format!("{x:?}"), format!("{y:?}"));
    }
}

fn indistinguishable_in<G: GameDef>(spec: &str, seed: u64, plies: usize, observer: usize) {
    let config = config::<G>(spec);
    let truth: G = position(&config, &mut rng_from_seed(seed), plies);
    indistinguishable(&truth, observer % truth.num_seats(), seed);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tricks_samplers_depend_only_on_the_information_set(
        seed in any::<u64>(), plies in 0..8usize, observer in 0..2usize,
    ) {
        indistinguishable_in::<Tricks>("tricks", seed, plies, observer);
    }

    #[test]
    fn coinguess_samplers_depend_only_on_the_information_set(seed in any::<u64>(), plies in 0..2usize) {
        indistinguishable_in::<CoinGuess>("coinguess", seed, plies, 0);
    }

    #[test]
    fn sueca_samplers_depend_only_on_the_information_set(
        seed in any::<u64>(), plies in 0..40usize, observer in 0..4usize,
    ) {
        indistinguishable_in::<Sueca>("sueca", seed, plies, observer);
    }

    #[test]
    fn bisca_samplers_depend_only_on_the_information_set(
        seed in any::<u64>(), plies in 0..42usize, observer in 0..2usize, exchange in any::<bool>(),
    ) {
        indistinguishable_in::<Bisca>(&format!("bisca:exchange={exchange}"), seed, plies, observer);
    }

    #[test]
    fn hearts_samplers_depend_only_on_the_information_set(
        seed in any::<u64>(), plies in 0..64usize, observer in 0..4usize, pass in 0..4usize,
    ) {
        let spec = format!("hearts:pass={}", Pass::ALL[pass].1);
        indistinguishable_in::<Hearts>(&spec, seed, plies, observer);
    }
}

/// What `seat` sees of `mv`, which the seat to move in `state` is about to play.
fn seen_by<G: Game>(state: &G, seat: Seat, mv: G::Move) -> Option<G::Move> {
    (seat == state.current_seat() || state.next_move_seen_by(seat)).then_some(mv)
}

/// Plays `truth` to the end at random, following every seat's information set with what that
/// seat sees of each move (and its hand after it); every move must be accepted, and every
/// followed information set must equal the one read off the true state.
fn follow_every_seat<G: GameDef>(mut truth: G, rng: &mut Rng) {
    let n = truth.num_seats();
    let mut infos: Vec<G::InfoSet> = (0..n).map(|s| truth.info_set(s)).collect();
    while !truth.is_terminal() {
        let mover = truth.current_seat();
        let mv = truth.legal_moves().random(rng);
        let mut next = truth.clone();
        next.play(mv);
        for (seat, info) in infos.iter_mut().enumerate() {
            let hand = next
                .hand_text(seat)
                .map(|h| h.parse::<CardSet>().expect("a hand in card notation"));
            info.observe(mover, seen_by(&truth, seat, mv), hand)
                .unwrap_or_else(|e| {
                    panic!("seat {seat} rejected {mv} by seat {mover} in {truth:?}: {e}")
                });
            assert_eq!(*info, next.info_set(seat), "seat {seat} after {mv}");
        }
        truth = next;
    }
}

#[test]
fn view_mode_follows_every_seat_of_random_and_stacked_hearts_games() {
    let mut rng = rng_from_seed(2026);
    for game in 0..2000 {
        let pass = Pass::ALL[game % 4].0;
        let config = HeartsConfig { pass };
        let truth = match game % 5 {
            // Stacked: one seat holds only hearts, or hearts and Q♠, so that first-trick
            // discards are forced and hearts may be led before they are broken.
            0 => Hearts::from_deal(&config, &stacked(&mut rng, 13, false)).unwrap(),
            1 => Hearts::from_deal(&config, &stacked(&mut rng, 12, true)).unwrap(),
            _ => Hearts::new_game(&config, &mut rng),
        };
        follow_every_seat(truth, &mut rng);
    }
}

/// A deal in which a random seat holds `hearts` hearts (and Q♠ if `queen`), the rest random.
fn stacked(rng: &mut Rng, hearts: usize, queen: bool) -> String {
    let all_hearts = CardSet::suit(cardsearch::Suit::Hearts);
    let qs: Card = "QS".parse().unwrap();
    let mut special = all_hearts.random_subset(hearts, rng);
    if queen {
        special.insert(qs);
    }
    let mut rest = CardSet::FULL - special;
    let seat = random_below(rng, 4) as usize;
    let mut hands = [CardSet::EMPTY; 4];
    hands[seat] = special | rest.random_subset(13 - special.len(), rng);
    rest -= hands[seat];
    for (s, hand) in hands.iter_mut().enumerate() {
        if s != seat {
            *hand = rest.random_subset(13, rng);
            rest -= *hand;
        }
    }
    hands.map(|h| h.to_string()).join(" | ")
}

#[test]
fn view_mode_follows_every_seat_of_sueca_bisca_and_tricks_games() {
    let mut rng = rng_from_seed(7);
    for _ in 0..500 {
        follow_every_seat(
            Sueca::new_game(&config::<Sueca>("sueca"), &mut rng),
            &mut rng,
        );
    }
    for game in 0..1000 {
        let spec = if game % 2 == 0 {
            "bisca"
        } else {
            "bisca:exchange=true"
        };
        follow_every_seat(Bisca::new_game(&config::<Bisca>(spec), &mut rng), &mut rng);
    }
    for _ in 0..1000 {
        follow_every_seat(Tricks::new_game(&(), &mut rng), &mut rng);
    }
}

#[test]
fn inconsistent_moves_are_refused_with_the_reason_and_change_nothing() {
    let config = HeartsConfig::default();
    let deal = "2C 3C 4C 5C 2H 3H 4H 5H 6H 2D 3D 4D 5D \
        | 6C 7C 8C 9C 7H 8H 9H TH 6D 7D 8D 9D 2S \
        | TC JC QC KC JH QH KH TD JD QD KD 3S 4S \
        | AC AH AD 5S 6S 7S 8S 9S TS JS QS KS AS";
    let truth = Hearts::from_deal(&config, deal).unwrap();
    let card = |t: &str| -> Card { t.parse().unwrap() };
    let mut info = truth.info_set(1);
    // Seat 1 does not hold 2♣, so it does not know who leads; the first lead must be 2♣.
    assert_eq!(info.seat_to_move(), None);
    let before = info;
    for (seat, mv, reason) in [
        (0, "3C", "led with 2C"),
        (0, "6C", "cannot hold 6C"),
        (1, "2C", "not to move"),
    ] {
        let e = info.observe(seat, Some(card(mv)), None).unwrap_err();
        assert!(e.to_string().contains(reason), "{mv}: {e}");
        assert_eq!(info, before);
    }
    info.observe(0, Some(card("2C")), None).unwrap();
    info.observe(1, Some(card("6C")), None).unwrap();
    info.observe(2, Some(card("TC")), None).unwrap();
    // Q♠ from seat 3 would prove it void in clubs and holding nothing but point cards: its
    // other twelve cards would all be hearts. Seat 1 holds four of the thirteen and none is
    // played, so only nine are left for seat 3: no deal allows the play, and it is refused.
    let before = info;
    let e = info.observe(3, Some(card("QS")), None).unwrap_err();
    assert!(e.to_string().contains("no deal"), "{e}");
    assert_eq!(info, before);
    // A heart discard proves the same: seat 3's other twelve cards would be point cards, and
    // only nine are left (eight hearts and Q♠). Also refused.
    let e = info.observe(3, Some(card("AH")), None).unwrap_err();
    assert!(e.to_string().contains("no deal"), "{e}");
    // Following suit is always consistent here.
    info.observe(3, Some(card("AC")), None).unwrap();
    assert_eq!(info, truth_after(deal, "2C 6C TC AC").info_set(1));
}

#[test]
fn a_seat_known_to_hold_a_card_cannot_show_it_holds_none_of_its_suit() {
    // Seat 3 deals and turned up 6♦, so every seat knows it holds that diamond until it plays
    // it. Found by the session fuzzer in a debug build: a view accepted seat 3 discarding K♥ on
    // a diamond lead, and the search then sampled worlds where seat 3 both held 6♦ and had no
    // diamonds (the counting covers only the unseen cards, and 6♦ is not one of them).
    let config = config::<Sueca>("sueca");
    let deal = "dealer=3 trump=6D | JD 2C 3C 4C 5C 6C 7C QC JC KC \
        | AD 2D 3D 4D 2H 3H 4H 5H 6H 7H | AC QH JH AH 2S 3S 4S 5S 6S JS \
        | 5D 6D 7D QD KD KH 7S QS KS AS";
    let truth = Sueca::from_deal(&config, deal).unwrap();
    let card = |t: &str| -> Card { t.parse().unwrap() };
    let mut info = truth.info_set(1);
    info.observe(0, Some(card("JD")), None).unwrap();
    info.observe(1, Some(card("AD")), None).unwrap();
    info.observe(2, Some(card("JS")), None).unwrap();
    let before = info;
    let e = info.observe(3, Some(card("KH")), None).unwrap_err();
    assert!(e.to_string().contains("seat 3 is known to hold 6D"), "{e}");
    assert_eq!(info, before);
    // Any diamond it may hold is fine, the turned-up one too.
    info.observe(3, Some(card("5D")), None).unwrap();
    let mut other = before;
    other.observe(3, Some(card("6D")), None).unwrap();
}

/// The state after `moves` from `deal` (no passing).
fn truth_after(deal: &str, moves: &str) -> Hearts {
    let mut g = Hearts::from_deal(&HeartsConfig::default(), deal).unwrap();
    for m in moves.split_whitespace() {
        g.play(m.parse().unwrap());
    }
    g
}

/// Every hidden-hand assignment of `truth`'s unknown cards (for `observer`) under which the
/// whole game `history` from `deal` was legal, found by replaying the history on each one.
fn replayed_consistent_deals(
    history: &[Card],
    truth: &Hearts,
    observer: Seat,
) -> Vec<[CardSet; 4]> {
    let others: Vec<Seat> = (0..4).filter(|&s| s != observer).collect();
    let pool: Vec<Card> = others
        .iter()
        .fold(CardSet::EMPTY, |u, &s| u | truth.hand(s))
        .iter()
        .collect();
    let mut out = Vec::new();
    for code in 0..3usize.pow(pool.len() as u32) {
        let mut hands = [CardSet::EMPTY; 4];
        hands[observer] = truth.hand(observer);
        let mut x = code;
        for &c in &pool {
            hands[others[x % 3]].insert(c);
            x /= 3;
        }
        if others
            .iter()
            .any(|&s| hands[s].len() != truth.hand(s).len())
        {
            continue;
        }
        // The deal these hands imply, played again move by move.
        let initial: [CardSet; 4] = std::array::from_fn(|s| hands[s] | truth.played(s));
        let mut replay = Hearts::from_hands(initial, Pass::None).unwrap();
        let legal = history.iter().all(|&c| {
            let ok = replay.legal_moves().contains(c);
            if ok {
                replay.play(c);
            }
            ok
        });
        if legal {
            out.push(hands);
        }
    }
    out
}

/// Pearson's statistic of `n` samples against the uniform distribution over `deals`.
fn chi_square(deals: &[[CardSet; 4]], n: usize, mut draw: impl FnMut() -> [CardSet; 4]) -> f64 {
    let index: HashMap<[CardSet; 4], usize> =
        deals.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let mut seen = vec![0usize; deals.len()];
    for _ in 0..n {
        let d = draw();
        seen[*index
            .get(&d)
            .unwrap_or_else(|| panic!("inconsistent sample {d:?}"))] += 1;
    }
    let expected = n as f64 / deals.len() as f64;
    seen.iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

/// Upper critical value of the chi-square distribution with `df` ≥ 1 degrees of freedom at
/// p = 0.001: the printed table's values for df 1 to 4, Wilson–Hilferty beyond (accurate to
/// well under 1% for df >= 5).
fn chi2_critical_001(df: usize) -> f64 {
    match df {
        0 => panic!("a chi-square test needs at least two categories"),
        1 => return 10.828,
        2 => return 13.816,
        3 => return 16.266,
        4 => return 18.467,
        _ => {}
    }
    let k = df as f64;
    let z = 3.0902;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Searches random games from stacked deals for a late position where `event` happened and
/// the proven constraints matter to `observer` (the deals consistent with plain voids alone are
/// more than those consistent with the whole history); then checks that the sampler covers
/// exactly the replay-consistent deals, uniformly.
fn uniform_over_replayed_deals(
    deal_for: impl Fn(&mut Rng) -> String,
    event: impl Fn(&Hearts, Card) -> bool,
    what: &str,
) {
    let mut rng = rng_from_seed(11);
    for attempt in 0..20_000 {
        let deal = deal_for(&mut rng);
        let mut g = Hearts::from_deal(&HeartsConfig::default(), &deal).unwrap();
        let mut history = Vec::new();
        let mut happened = false;
        while g.tricks_played() < 10 {
            let c = g.legal_moves().random(&mut rng);
            happened |= event(&g, c);
            g.play(c);
            history.push(c);
        }
        let observer = (attempt % 4) as Seat;
        if !happened {
            continue;
        }
        let expected = replayed_consistent_deals(&history, &g, observer);
        let plain_voids = void_only_count(&g, &history, observer);
        if plain_voids == expected.len() {
            continue;
        }
        assert!(expected.len() > 1 && expected.len() < plain_voids, "{what}");
        let sampler = g.deal_sampler(observer).unwrap();
        assert_eq!(
            sampler.count(),
            expected.len() as u128,
            "{what}: exact count"
        );
        let n = 200 * expected.len();
        let stat = chi_square(&expected, n, || sampler.sample(&mut rng).dealt_hands_now());
        let critical = chi2_critical_001(expected.len() - 1);
        assert!(stat < critical, "{what}: chi2 {stat} over {critical}");
        return;
    }
    panic!("no position found where {what} matters");
}

/// The hands now, for comparing samples with enumerated deals.
trait HandsNow {
    fn dealt_hands_now(&self) -> [CardSet; 4];
}

impl HandsNow for Hearts {
    fn dealt_hands_now(&self) -> [CardSet; 4] {
        std::array::from_fn(|s| self.hand(s))
    }
}

/// Deals consistent with the plain void rule alone (what the sampler used to assume): a seat
/// that failed to follow a suit holds none of it. Voids are read off the history.
fn void_only_count(g: &Hearts, history: &[Card], observer: Seat) -> usize {
    let mut voids = [CardSet::EMPTY; 4];
    let mut replay =
        Hearts::from_hands(std::array::from_fn(|s| g.hand(s) | g.played(s)), Pass::None).unwrap();
    let mut led = None;
    for &c in history {
        let seat = replay.current_seat();
        match led {
            None => led = Some(c.suit()),
            Some(suit) if c.suit() != suit => voids[seat] |= CardSet::suit(suit),
            Some(_) => {}
        }
        replay.play(c);
        if replay.current_trick().is_empty() {
            led = None;
        }
    }
    let others: Vec<Seat> = (0..4).filter(|&s| s != observer).collect();
    let pool: Vec<Card> = others
        .iter()
        .fold(CardSet::EMPTY, |u, &s| u | g.hand(s))
        .iter()
        .collect();
    let mut n = 0;
    for code in 0..3usize.pow(pool.len() as u32) {
        let mut hands = [CardSet::EMPTY; 4];
        let mut x = code;
        for &c in &pool {
            hands[others[x % 3]].insert(c);
            x /= 3;
        }
        n += others
            .iter()
            .all(|&s| hands[s].len() == g.hand(s).len() && (hands[s] & voids[s]).is_empty())
            as usize;
    }
    n
}

#[test]
fn hearts_samples_respect_a_forced_first_trick_discard_exactly() {
    let qs: Card = "QS".parse().unwrap();
    let points = CardSet::suit(cardsearch::Suit::Hearts).with(qs);
    uniform_over_replayed_deals(
        |rng| stacked(rng, 12, true),
        |g, c| g.tricks_played() == 0 && !g.current_trick().is_empty() && points.contains(c),
        "a point card discarded on the first trick",
    );
}

#[test]
fn hearts_samples_respect_a_heart_led_before_hearts_are_broken_exactly() {
    // One seat holds A♣ and twelve hearts: it wins the first trick and must lead a heart.
    let hearts = CardSet::suit(cardsearch::Suit::Hearts);
    uniform_over_replayed_deals(
        |rng| {
            let special = hearts.random_subset(12, rng) | "AC".parse::<Card>().unwrap().set();
            let mut rest = CardSet::FULL - special;
            let seat = 1 + random_below(rng, 3) as usize;
            let mut hands = [CardSet::EMPTY; 4];
            hands[seat] = special;
            for (s, hand) in hands.iter_mut().enumerate() {
                if s != seat {
                    *hand = rest.random_subset(13, rng);
                    rest -= *hand;
                }
            }
            hands.map(|h| h.to_string()).join(" | ")
        },
        |g, c| {
            g.current_trick().is_empty()
                && g.tricks_played() > 0
                && !g.hearts_broken()
                && hearts.contains(c)
        },
        "a heart led before hearts were broken",
    );
}
