//! Exactness and uniformity of `ConstrainedDeal`: counts against brute-force enumeration and an
//! independent card-by-card count, errors exactly when no split exists, and chi-square tests of
//! the sampled frequencies (including a check that the test catches the thesis's biased greedy).

use std::collections::HashMap;

use cardsearch::cards::random_below;
use cardsearch::deal::{ConstrainedDeal, Holder, MAX_HOLDERS};
use cardsearch::game::rng_from_seed;
use cardsearch::{CardSet, DealError, Rng, Suit};
use rand::Rng as _;

type Split = [CardSet; MAX_HOLDERS];

fn cards(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn holder(size: usize, allowed: CardSet) -> Holder {
    Holder { size, allowed }
}

/// Every consistent split, by trying every assignment of every card to every holder.
fn enumerate(unknown: CardSet, holders: &[Holder]) -> Vec<Split> {
    let list: Vec<_> = unknown.iter().collect();
    let h = holders.len();
    let mut out = Vec::new();
    if h == 0 {
        if list.is_empty() {
            out.push([CardSet::EMPTY; MAX_HOLDERS]);
        }
        return out;
    }
    let total = h.pow(list.len() as u32);
    for code in 0..total {
        let mut split = [CardSet::EMPTY; MAX_HOLDERS];
        let mut c = code;
        let mut ok = true;
        for &card in &list {
            let who = c % h;
            c /= h;
            ok &= holders[who].allowed.contains(card);
            split[who].insert(card);
        }
        if ok && (0..h).all(|i| split[i].len() == holders[i].size) {
            out.push(split);
        }
    }
    out
}

/// Consistent splits counted card by card with the room vector as state: a method independent of
/// the grouping, table and pruning in `ConstrainedDeal`, usable for full packs.
fn count_by_cards(unknown: CardSet, holders: &[Holder]) -> u128 {
    let mut ways: HashMap<Vec<usize>, u128> = HashMap::new();
    ways.insert(holders.iter().map(|h| h.size).collect(), 1);
    for card in unknown {
        let mut next = HashMap::new();
        for (room, w) in ways {
            for (i, h) in holders.iter().enumerate() {
                if room[i] > 0 && h.allowed.contains(card) {
                    let mut r = room.clone();
                    r[i] -= 1;
                    *next.entry(r).or_insert(0) += w;
                }
            }
        }
        ways = next;
    }
    ways.into_iter()
        .filter(|(room, _)| room.iter().all(|&r| r == 0))
        .map(|(_, w)| w)
        .sum()
}

fn consistent(split: &Split, unknown: CardSet, holders: &[Holder]) -> bool {
    let mut union = CardSet::EMPTY;
    for (i, h) in holders.iter().enumerate() {
        if split[i].len() != h.size
            || !h.allowed.is_superset(split[i])
            || !(union & split[i]).is_empty()
        {
            return false;
        }
        union |= split[i];
    }
    union == unknown && split[holders.len()..].iter().all(|s| s.is_empty())
}

/// A random problem: `n` random cards, up to four holders with random sizes (sometimes not adding
/// up) and random allowed sets, either card by card or by void suits, sometimes with cards outside
/// the unknown set (which must be ignored).
fn random_problem(rng: &mut Rng, max_cards: u32) -> (CardSet, Vec<Holder>) {
    let n = random_below(rng, max_cards + 1) as usize;
    let unknown = CardSet::FULL.random_subset(n, rng);
    let h = random_below(rng, MAX_HOLDERS as u32 + 1) as usize;
    let mut sizes = vec![0usize; h];
    if h > 0 {
        for _ in 0..n {
            sizes[random_below(rng, h as u32) as usize] += 1;
        }
        if random_below(rng, 10) == 0 {
            let i = random_below(rng, h as u32) as usize;
            sizes[i] = sizes[i].saturating_sub(1) + 2 * (random_below(rng, 2) as usize);
        }
    }
    let holders = sizes
        .into_iter()
        .map(|size| {
            let allowed = match random_below(rng, 3) {
                0 => CardSet(rng.next_u64()) & CardSet::FULL,
                1 => {
                    let mut a = CardSet::FULL;
                    for s in Suit::ALL {
                        if random_below(rng, 3) == 0 {
                            a -= CardSet::suit(s);
                        }
                    }
                    a
                }
                _ => CardSet::FULL,
            };
            holder(size, allowed)
        })
        .collect();
    (unknown, holders)
}

#[test]
fn counts_match_enumeration_and_errors_exactly_when_none() {
    let mut rng = rng_from_seed(2024);
    let (mut feasible, mut infeasible) = (0, 0);
    for _ in 0..4000 {
        let (unknown, holders) = random_problem(&mut rng, 8);
        let all = enumerate(unknown, &holders);
        match ConstrainedDeal::new(unknown, &holders) {
            Ok(deal) => {
                assert!(
                    !all.is_empty(),
                    "{unknown} {holders:?}: Ok but no split exists"
                );
                assert_eq!(deal.count(), all.len() as u128, "{unknown} {holders:?}");
                assert_eq!(deal.unknown(), unknown);
                for _ in 0..5 {
                    let s = deal.sample(&mut rng);
                    assert!(all.contains(&s), "{unknown} {holders:?}: sampled {s:?}");
                }
                feasible += 1;
            }
            Err(DealError::Inconsistent(msg)) => {
                assert!(all.is_empty(), "{unknown} {holders:?}: {msg}");
                // Hall's condition catches every inconsistency, so the message always names the
                // holders or cards at fault; the generic fallbacks in `new` are never reached.
                for fallback in ["no split satisfies", "cannot be placed", "must take"] {
                    assert!(!msg.contains(fallback), "{unknown} {holders:?}: {msg}");
                }
                infeasible += 1;
            }
            Err(e) => panic!("unexpected error kind {e:?}"),
        }
    }
    // The generator must exercise both outcomes substantially for the test to mean anything.
    assert!(
        feasible > 1000 && infeasible > 300,
        "{feasible} {infeasible}"
    );
}

#[test]
fn counts_match_an_independent_count_on_full_size_problems() {
    let mut rng = rng_from_seed(99);
    let (mut big, mut ok) = (0, 0);
    for _ in 0..600 {
        let (unknown, holders) = random_problem(&mut rng, 52);
        let expected = count_by_cards(unknown, &holders);
        match ConstrainedDeal::new(unknown, &holders) {
            Ok(deal) => {
                assert_eq!(deal.count(), expected, "{unknown} {holders:?}");
                for _ in 0..20 {
                    let s = deal.sample(&mut rng);
                    assert!(consistent(&s, unknown, &holders), "{holders:?}: {s:?}");
                }
                big += (expected > u64::MAX as u128) as usize;
                ok += 1;
            }
            Err(e) => assert_eq!(expected, 0, "{unknown} {holders:?}: {e}"),
        }
    }
    // Some counts must exceed 64 bits so that the u128 paths are exercised.
    println!("{ok} feasible, {big} above 2^64");
    assert!(big > 5, "{big}");
    let full = ConstrainedDeal::new(CardSet::FULL, &[holder(13, CardSet::FULL); 4]).unwrap();
    assert_eq!(full.count(), 53_644_737_765_488_792_839_237_440_000);
}

/// Upper critical value of the chi-square distribution with `df` degrees of freedom at
/// p = 0.001, by the Wilson–Hilferty cube approximation (z = 3.0902 is the standard normal
/// 0.999 quantile); accurate to well under 1% for df >= 5, which is all we use.
fn chi2_critical_001(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.0902;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Pearson's statistic of `n` draws against the uniform distribution over `splits`.
fn chi_square(splits: &[Split], n: usize, mut draw: impl FnMut() -> Split) -> f64 {
    let index: HashMap<Split, usize> = splits.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut seen = vec![0usize; splits.len()];
    for _ in 0..n {
        let s = draw();
        seen[*index.get(&s).expect("a consistent split")] += 1;
    }
    let expected = n as f64 / splits.len() as f64;
    seen.iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

/// The thesis's section 4.1 assignment: deal forced cards (a card only one holder can take, a
/// holder that must take all it may), otherwise give a random possible card to a random holder
/// among the most constrained (least slack). Restarts on a dead end. Biased on purpose.
fn greedy(unknown: CardSet, holders: &[Holder], rng: &mut Rng) -> Split {
    'restart: loop {
        let mut left: Vec<usize> = holders.iter().map(|h| h.size).collect();
        let mut out = [CardSet::EMPTY; MAX_HOLDERS];
        let mut rest = unknown;
        while !rest.is_empty() {
            let poss: Vec<CardSet> = (0..holders.len())
                .map(|i| {
                    if left[i] > 0 {
                        holders[i].allowed & rest
                    } else {
                        CardSet::EMPTY
                    }
                })
                .collect();
            let mut forced = None;
            for c in rest {
                let who: Vec<usize> = (0..holders.len())
                    .filter(|&i| poss[i].contains(c))
                    .collect();
                match who.len() {
                    0 => continue 'restart,
                    1 => {
                        forced = Some((who[0], c.set()));
                        break;
                    }
                    _ => {}
                }
            }
            if forced.is_none() {
                forced = (0..holders.len())
                    .find(|&i| left[i] > 0 && poss[i].len() == left[i])
                    .map(|i| (i, poss[i]));
            }
            let (who, give) = forced.unwrap_or_else(|| {
                let slack = |i: usize| poss[i].len() - left[i];
                let open: Vec<usize> = (0..holders.len()).filter(|&i| left[i] > 0).collect();
                let least = open.iter().map(|&i| slack(i)).min().unwrap();
                let tied: Vec<usize> = open.into_iter().filter(|&i| slack(i) == least).collect();
                let who = tied[random_below(rng, tied.len() as u32) as usize];
                (who, poss[who].random(rng).set())
            });
            if give.len() > left[who] {
                continue 'restart;
            }
            out[who] |= give;
            left[who] -= give.len();
            rest -= give;
        }
        return out;
    }
}

/// Small constrained problems with 9 to 60 splits (the first is the thesis's example).
fn uniformity_cases() -> Vec<(&'static str, CardSet, Vec<Holder>)> {
    let hearts = CardSet::suit(Suit::Hearts);
    let spades = CardSet::suit(Suit::Spades);
    let clubs = CardSet::suit(Suit::Clubs);
    let diamonds = CardSet::suit(Suit::Diamonds);
    vec![
        // Thesis 4.1: Player 2 anything, Player 3 no hearts or diamonds, Player 4 no spades.
        (
            "thesis",
            cards("AH 7H KS QS JS 2D"),
            vec![
                holder(2, CardSet::FULL),
                holder(2, CardSet::FULL - hearts - diamonds),
                holder(2, CardSet::FULL - spades),
            ],
        ),
        // Three hands each void in a different suit.
        (
            "three voids",
            cards("2S 3S 4S 5H 6H 7D 8D"),
            vec![
                holder(2, CardSet::FULL - spades),
                holder(2, CardSet::FULL - diamonds),
                holder(3, CardSet::FULL - hearts),
            ],
        ),
        // One hand void in spades, one holding neither hearts nor diamonds.
        (
            "void and double void",
            cards("2S 3S 4S 5H 6H 7D 8D 9C"),
            vec![
                holder(3, CardSet::FULL - spades),
                holder(3, CardSet::FULL - hearts - diamonds),
                holder(2, CardSet::FULL),
            ],
        ),
        // Three hands, two voids in different suits, and a stock.
        (
            "three hands, two voids",
            cards("2C 3C 4H 5H 6S 7S 8D"),
            vec![
                holder(3, CardSet::FULL - clubs),
                holder(2, CardSet::FULL - hearts),
                holder(2, CardSet::FULL),
            ],
        ),
        // A hand that may only hold spades and clubs, and one void in both.
        (
            "nested voids",
            cards("2S 3S 4C 5C 6H 7D 8H"),
            vec![
                holder(2, spades | clubs),
                holder(2, hearts | diamonds),
                holder(3, CardSet::FULL),
            ],
        ),
    ]
}

#[test]
fn samples_are_uniform_by_chi_square() {
    let mut greedy_flagged = 0;
    for (seed, (name, unknown, holders)) in uniformity_cases().into_iter().enumerate() {
        let splits = enumerate(unknown, &holders);
        let deal = ConstrainedDeal::new(unknown, &holders).unwrap();
        assert_eq!(deal.count(), splits.len() as u128, "{name}");
        assert!((9..=60).contains(&splits.len()), "{name}: {}", splits.len());

        // About 400 expected per split: enough power to see a greedy sampler's bias.
        let n = 400 * splits.len();
        let critical = chi2_critical_001(splits.len() - 1);
        let mut rng = rng_from_seed(1000 + seed as u64);
        let stat = chi_square(&splits, n, || deal.sample(&mut rng));
        assert!(stat < critical, "{name}: chi2 {stat:.1} >= {critical:.1}");
        let mut rng = rng_from_seed(2000 + seed as u64);
        let greedy_stat = chi_square(&splits, n, || greedy(unknown, &holders, &mut rng));
        println!(
            "{name}: {} splits, chi2 {stat:.1}, greedy {greedy_stat:.1}, critical {critical:.1}",
            splits.len()
        );
        greedy_flagged += (greedy_stat >= critical) as usize;
    }
    // The statistic must be able to fail: the thesis's greedy is biased on most of these cases.
    assert!(
        greedy_flagged >= 2,
        "greedy flagged on only {greedy_flagged} cases"
    );
}

#[test]
fn thesis_example_has_nine_equally_likely_deals() {
    let (_, unknown, holders) = uniformity_cases().swap_remove(0);
    let deal = ConstrainedDeal::new(unknown, &holders).unwrap();
    assert_eq!(deal.count(), 9);
    let splits = enumerate(unknown, &holders);
    assert_eq!(splits.len(), 9);
    // Player 3 takes two of the three spades, Player 4 two of the three non-spades, in every deal.
    for s in &splits {
        assert_eq!((s[1] & cards("KS QS JS")).len(), 2);
        assert_eq!((s[2] & cards("AH 7H 2D")).len(), 2);
    }
    let mut rng = rng_from_seed(4807);
    let n = 9 * 2000;
    let stat = chi_square(&splits, n, || deal.sample(&mut rng));
    assert!(stat < chi2_critical_001(8), "chi2 {stat:.1}");
}

/// On a realistic Sueca-like mid-game, too large to enumerate, the probability that each card
/// lands with each holder must match the exact value count(card forced there) / count(), both
/// counted by this file's own [`count_by_cards`], not by the sampler under test. Each
/// frequency is compared by a binomial z-score; |z| < 4.5 over the 51 cells (17 cards × 3
/// holders) is a per-cell chance of 7e-6, a family-wise false alarm below 0.04% (Bonferroni).
#[test]
fn card_marginals_match_exact_probabilities_in_a_sueca_midgame() {
    let (unknown, holders) = sueca_midgame();
    let deal = ConstrainedDeal::new(unknown, &holders).unwrap();
    let total = count_by_cards(unknown, &holders);
    assert_eq!(deal.count(), total);
    let n = 200_000;
    let mut freq = HashMap::new();
    let mut rng = rng_from_seed(17);
    for _ in 0..n {
        let s = deal.sample(&mut rng);
        assert!(consistent(&s, unknown, &holders));
        for (h, hand) in s.iter().enumerate().take(holders.len()) {
            for c in *hand {
                *freq.entry((c, h)).or_insert(0usize) += 1;
            }
        }
    }
    for c in unknown {
        for h in 0..holders.len() {
            let mut forced = holders.clone();
            for (j, fh) in forced.iter_mut().enumerate() {
                if j != h {
                    fh.allowed.remove(c);
                }
            }
            let p = count_by_cards(unknown, &forced) as f64 / total as f64;
            let seen = *freq.get(&(c, h)).unwrap_or(&0) as f64;
            if p == 0.0 || p == 1.0 {
                assert_eq!(seen, p * n as f64, "{c} to holder {h}");
                continue;
            }
            let z = (seen - p * n as f64) / (n as f64 * p * (1.0 - p)).sqrt();
            assert!(z.abs() < 4.5, "{c} to holder {h}: p {p:.4}, z {z:.2}");
        }
    }
}

/// Sueca, seen by one player after several tricks: 17 unknown cards in hands of 6, 6 and 5; the
/// first opponent is void in clubs, the second in hearts.
fn sueca_midgame() -> (CardSet, Vec<Holder>) {
    let unknown = cards("2C 4C 6C QC KC 3D 5D JD 7D 2H 3H 5H AH 4S 6S JS AS");
    let holders = vec![
        holder(6, CardSet::FULL - CardSet::suit(Suit::Clubs)),
        holder(6, CardSet::FULL - CardSet::suit(Suit::Hearts)),
        holder(5, CardSet::FULL),
    ];
    (unknown, holders)
}

fn message(unknown: CardSet, holders: &[Holder]) -> String {
    match ConstrainedDeal::new(unknown, holders) {
        Err(DealError::Inconsistent(m)) => m,
        other => panic!("expected an inconsistency, got {other:?}"),
    }
}

#[test]
fn impossible_constraints_are_errors_that_name_the_problem() {
    let unknown = cards("2S 3S 4H 5H 6D");
    let spades_hearts = cards("2S 3S 4H 5H");
    // A holder needing 3 cards with only 2 allowed.
    let m = message(
        unknown,
        &[holder(2, CardSet::FULL), holder(3, cards("2S 3S"))],
    );
    assert!(m.contains("holder 1 needs 3") && m.contains("2S 3S"), "{m}");
    // Sizes not adding up.
    let m = message(
        unknown,
        &[holder(2, CardSet::FULL), holder(2, CardSet::FULL)],
    );
    assert!(m.contains("5 unknown") && m.contains("4"), "{m}");
    // A card no holder may take.
    let m = message(
        unknown,
        &[holder(2, spades_hearts), holder(3, spades_hearts)],
    );
    assert!(m.contains("6D"), "{m}");
    // A card only an already full holder may take.
    let m = message(
        unknown,
        &[holder(5, spades_hearts), holder(0, CardSet::FULL)],
    );
    assert!(m.contains("6D") && m.contains("size 0"), "{m}");
    // Each alone fits, together they do not: two hands of 2 may only share 3 cards.
    let m = message(
        unknown,
        &[
            holder(2, cards("2S 3S 4H")),
            holder(2, cards("2S 3S 4H")),
            holder(1, CardSet::FULL),
        ],
    );
    assert!(m.contains("holders 0, 1 need 4"), "{m}");
    // Too many holders.
    let five = [holder(1, CardSet::FULL); 5];
    assert!(message(unknown, &five).contains("5 holders"));
}

#[test]
fn degenerate_problems_are_handled() {
    let mut rng = rng_from_seed(3);
    let none = ConstrainedDeal::new(CardSet::EMPTY, &[]).unwrap();
    assert_eq!(none.count(), 1);
    assert_eq!(none.sample(&mut rng), [CardSet::EMPTY; MAX_HOLDERS]);
    let unknown = cards("AS KS");
    // Fully forced: every card has one possible holder.
    let d =
        ConstrainedDeal::new(unknown, &[holder(1, cards("AS")), holder(1, cards("KS"))]).unwrap();
    assert_eq!(d.count(), 1);
    assert_eq!(d.sample(&mut rng)[..2], [cards("AS"), cards("KS")]);
    assert!(ConstrainedDeal::new(unknown, &[]).is_err());
}
