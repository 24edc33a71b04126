//! Inference (`infer=N`): a deal rewinds to the deal it continues, and weighting candidate deals
//! by the others' plays moves the determinizations toward the real deal when the others do
//! play by the rule the model assumes.

use cardsearch::game::{DealSampler, HiddenInfo, InfoSet, Seen, rng_from_seed};
use cardsearch::games::{
    Asmacag, Bisca, CoinGuess, GameDef, Hearts, Pentago, Secret, Sueca, Tricks,
};
use cardsearch::search::Budget;
use cardsearch::search::inference::{
    InferenceConfig, MIN_CANDIDATES_BY_DEADLINE, OpponentModelKind, infer, likelihood,
    log_likelihood,
};
use cardsearch::solver::hybrid::{self, Cards, EndgameConfig};
use cardsearch::solver::solve_moves;
use cardsearch::{Game, MoveSet, Spec};

/// A deal of `G` played `plies` moves, by the rule or at random, with the moves as every seat
/// saw them (all plays are public in these games).
fn played_game<G: GameDef>(
    game: &str,
    seed: u64,
    plies: usize,
    rule: bool,
) -> (G, Vec<Seen<G::Move>>) {
    let config = G::config(&game.parse::<Spec>().unwrap()).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(&config, &mut rng);
    let mut history = Vec::new();
    for _ in 0..plies {
        let mv = if rule {
            state.heuristic_move(&mut rng)
        } else {
            state.legal_moves().random(&mut rng)
        };
        history.push((state.current_seat(), Some(mv)));
        state.play(mv);
    }
    (state, history)
}

/// A Sueca deal played `plies` moves.
fn played(seed: u64, plies: usize, rule: bool) -> (Sueca, Vec<Seen<cardsearch::Card>>) {
    played_game::<Sueca>("sueca", seed, plies, rule)
}

/// Rewinding states of random games and replaying their moves gives the states back.
fn rewinds<G: GameDef + PartialEq + std::fmt::Debug>(game: &str, length: usize) {
    for seed in 0..50 {
        let plies = (seed as usize * 7) % length;
        let (state, history) = played_game::<G>(game, seed, plies, false);
        let mut replay = state.dealt().expect("the game rewinds");
        for &(seat, mv) in &history {
            assert_eq!(replay.current_seat(), seat);
            replay.play(mv.unwrap());
        }
        assert_eq!(replay, state, "{game} seed {seed}");
    }
}

/// `can_rewind` (what a harness checks before it lets `infer=N` play) says what `rewind` does:
/// at the deal and along random games of every game and variant.
fn can_rewind_says_what_rewind_does<G: GameDef>(game: &str, length: usize, expected: bool) {
    let mut rng = rng_from_seed(0);
    for seed in 0..10 {
        let plies = (seed as usize * 5) % length;
        let (state, history) = played_game::<G>(game, seed, plies, false);
        assert_eq!(state.can_rewind(), expected, "{game} after {plies} plies");
        assert_eq!(
            state.rewind(&history, &mut rng).is_some(),
            expected,
            "{game} after {plies} plies"
        );
    }
}

#[test]
fn the_games_that_say_they_rewind_are_those_that_do() {
    can_rewind_says_what_rewind_does::<Sueca>("sueca", 40, true);
    can_rewind_says_what_rewind_does::<Hearts>("hearts", 52, true);
    can_rewind_says_what_rewind_does::<Hearts>("hearts:pass=left", 52, false);
    can_rewind_says_what_rewind_does::<Bisca>("bisca", 40, true);
    can_rewind_says_what_rewind_does::<Bisca>("bisca:exchange=true", 40, false);
    can_rewind_says_what_rewind_does::<Tricks>("tricks", 6, false);
    can_rewind_says_what_rewind_does::<CoinGuess>("coinguess", 2, false);
    can_rewind_says_what_rewind_does::<Secret>("secret", 2, false);
    can_rewind_says_what_rewind_does::<Asmacag>("asmacag", 10, false);
    can_rewind_says_what_rewind_does::<Pentago>("pentago-swap", 10, false);
}

#[test]
fn a_deal_rewinds_to_its_deal_and_replays_to_itself() {
    rewinds::<Sueca>("sueca", 40);
    rewinds::<Hearts>("hearts", 52);
    // With passing, the passes moved cards the state no longer traces.
    let (passed, _) = played_game::<Hearts>("hearts:pass=left", 1, 20, false);
    assert!(passed.dealt().is_none());
}

/// The share of the cards `observer` cannot see that `deal` places in their real holder's hand.
fn placed_right(deal: &Sueca, truth: &Sueca, observer: usize) -> f64 {
    let (mut right, mut unseen) = (0, 0);
    for seat in (0..4).filter(|&s| s != observer) {
        right += (deal.hand(seat) & truth.hand(seat)).len();
        unseen += truth.hand(seat).len();
    }
    right as f64 / unseen as f64
}

#[test]
fn plays_by_the_rule_pull_the_determinizations_toward_the_real_deal() {
    // Everyone follows the heuristic rule for three tricks; the seat to lead then weighs 2,000 uniform
    // candidates. Over 40 seeded deals, the inferred pool must place more unseen cards with their
    // real holder than the uniform sampler, by more than three standard errors of the per-deal
    // differences (a one-sided test at about the 0.1% level), and put more of its mass on deals
    // in which every observed play is one the rule makes (deals that explain the plays).
    let config = InferenceConfig {
        candidates: 2000,
        ..InferenceConfig::default()
    };
    let mut gains = Vec::new();
    let (mut explained_uniform, mut explained_inferred) = (0.0, 0.0);
    for seed in 0..40 {
        let (truth, history) = played(1000 + seed, 12, true);
        let observer = truth.current_seat();
        let uniform = truth.info_set(observer).sampler().unwrap();
        let mut rng = rng_from_seed(seed);
        let pool =
            infer(&uniform, observer, &history, &config, None, &mut rng).expect("inference runs");
        let mean = |deals: &mut dyn Iterator<Item = Sueca>| {
            let (mut sum, mut n) = (0.0, 0.0);
            for d in deals {
                sum += placed_right(&d, &truth, observer);
                n += 1.0;
            }
            sum / n
        };
        let uniform_deals: Vec<Sueca> = (0..2000).map(|_| uniform.sample(&mut rng)).collect();
        let before = mean(&mut uniform_deals.iter().copied());
        let after = mean(&mut pool.pool().iter().copied());
        gains.push(after - before);
        // A deal explains the plays when each was among the rule's choices: its likelihood is
        // then the largest the model gives these plays.
        // (Sueca's rewind is exact and reads no generator.)
        let unused = &mut rng_from_seed(0);
        let best = log_likelihood(&truth, observer, &history, &config, unused).unwrap();
        let explains = |d: &Sueca| {
            log_likelihood(d, observer, &history, &config, &mut rng_from_seed(0)).unwrap()
                >= best - 1e-9
        };
        let share = |deals: &[Sueca]| {
            deals.iter().filter(|d| explains(d)).count() as f64 / deals.len() as f64
        };
        explained_uniform += share(&uniform_deals);
        explained_inferred += share(pool.pool());
        assert!(pool.effective() >= 1.0 && pool.effective() <= 2000.0 + 1e-6);
    }
    let n = gains.len() as f64;
    let mean = gains.iter().sum::<f64>() / n;
    let sd = (gains.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    eprintln!(
        "unseen cards placed right: {mean:+.4} (sd {sd:.4}); mass on deals explaining every play: \
         uniform {:.3}, inferred {:.3}",
        explained_uniform / n,
        explained_inferred / n
    );
    assert!(
        mean > 3.0 * sd / n.sqrt(),
        "inferred pools place {mean:+.4} more of the unseen cards right (sd {sd:.4})"
    );
    assert!(
        explained_inferred > 2.0 * explained_uniform,
        "mass on deals that explain every play: uniform {:.3}, inferred {:.3}",
        explained_uniform / n,
        explained_inferred / n
    );
}

#[test]
fn inference_is_off_without_plays_to_learn_from_or_a_rewind() {
    let config = InferenceConfig {
        candidates: 100,
        ..InferenceConfig::default()
    };
    let (state, history) = played(3, 0, true);
    let uniform = state.info_set(0).sampler().unwrap();
    let mut rng = rng_from_seed(0);
    assert!(
        infer(&uniform, 0, &history, &config, None, &mut rng).is_none(),
        "no plays yet"
    );
    let (state, mut history) = played(4, 5, true);
    let observer = state.current_seat();
    let uniform = state.info_set(observer).sampler().unwrap();
    assert!(infer(&uniform, observer, &history, &config, None, &mut rng).is_some());
    history[0].1 = None; // a move the observer did not see: nothing to replay
    assert!(infer(&uniform, observer, &history, &config, None, &mut rng).is_none());
}

#[test]
fn a_passed_deadline_stops_inference_after_the_fewest_candidates() {
    let config = InferenceConfig {
        candidates: 500,
        ..InferenceConfig::default()
    };
    let (state, history) = played(4, 5, true);
    let observer = state.current_seat();
    let uniform = state.info_set(observer).sampler().unwrap();
    let mut rng = rng_from_seed(3);
    let whole = infer(&uniform, observer, &history, &config, None, &mut rng).unwrap();
    assert_eq!(whole.pool().len(), 500);
    // A deadline already past: the minimum is weighed, no more, and the pool is that size.
    let past = Some(std::time::Instant::now());
    let cut = infer(&uniform, observer, &history, &config, past, &mut rng).unwrap();
    assert_eq!(cut.pool().len(), MIN_CANDIDATES_BY_DEADLINE);
    assert!(cut.effective() <= MIN_CANDIDATES_BY_DEADLINE as f64 + 1e-9);
    // A deadline far off changes nothing: the same deals from the same generator.
    let far = Some(std::time::Instant::now() + std::time::Duration::from_secs(3600));
    let (mut a, mut b) = (rng_from_seed(4), rng_from_seed(4));
    let with = infer(&uniform, observer, &history, &config, far, &mut a).unwrap();
    let without = infer(&uniform, observer, &history, &config, None, &mut b).unwrap();
    assert_eq!(with.pool(), without.pool());
}

#[test]
fn inference_moves_the_exact_endgame_toward_the_true_deals_best_move() {
    // Everyone follows the heuristic rule for eight tricks; the seat to lead the ninth then
    // has 8 cards left to play and cannot tell apart up to 90 deals. The exact endgame solves
    // every one of them and plays the move of the best mean; with inference each deal counts
    // by its likelihood of the others' plays. Where the two decide differently and the true
    // deal's exact values tell the two moves apart, the weighted decision must be the better
    // one more often than the worse, by more than three standard deviations of a fair coin's
    // count (a one-sided sign test at about the 0.1% level): plays that a rule-follower makes
    // only without certain cards tell where those cards are. (These seeds: 63 better, 5 worse,
    // seven standard deviations. From the eighth trick, 12 cards and up to 1,680 deals, the
    // same test on 1,000 seeds gave 45 against 17, 3.6 standard deviations, at twelve times
    // the cost: the solves took most of the test suite's time.)
    let rule = InferenceConfig {
        candidates: 1,
        ..InferenceConfig::default()
    };
    let config = EndgameConfig {
        cards: Cards::UpTo(8),
        ..EndgameConfig::default()
    };
    let mut solver = None;
    let (mut compared, mut changed) = (0, 0);
    let mut gains = Vec::new();
    for seed in 0..SEEDS {
        let (truth, history) = played(2000 + seed, 32, true);
        let observer = truth.current_seat();
        let legal = truth.legal_moves();
        if legal.len() < 2 {
            continue;
        }
        let uniform = truth.info_set(observer).sampler().unwrap();
        let truth_values = solve_moves(&truth).unwrap();
        let best = truth_values.iter().map(|m| m.value).max().unwrap();
        let regret = |mv| best - truth_values.iter().find(|m| m.mv == mv).unwrap().value;
        let mut rng = rng_from_seed(seed);
        let budget = Budget::iterations(1);
        // Both decisions from one solve of each deal: the deals alike, and by likelihood.
        let [even, weighted] = hybrid::decide_weightings(
            &config,
            &mut solver,
            &uniform,
            |deal: &Sueca| {
                [
                    1.0,
                    likelihood(deal, observer, &history, &rule, &mut rng_from_seed(0)),
                ]
            },
            &legal,
            &budget,
            &mut rng,
        )
        .expect("8 cards left: the endgame decides")
        .map(|d| d.expect("weights that rule nothing out"));
        compared += 1;
        if weighted.mv != even.mv {
            changed += 1;
            gains.push(f64::from(regret(even.mv) - regret(weighted.mv)));
        }
    }
    let n = gains.len() as f64;
    let mean = gains.iter().sum::<f64>() / n;
    let better = gains.iter().filter(|&&g| g > 0.0).count() as f64;
    let worse = gains.iter().filter(|&&g| g < 0.0).count() as f64;
    eprintln!(
        "{changed} of {compared} decisions changed: better {better}, worse {worse}, \
         points saved per change {mean:+.2}"
    );
    assert!(
        better - worse > 3.0 * (better + worse).sqrt(),
        "inference changed {changed} of {compared} decisions: {better} for the better, \
         {worse} for the worse"
    );
}

/// Positions of the endgame test.
const SEEDS: u64 = 3000;

/// A Sueca deal played `plies` moves by plain ISMCTS at `iterations` a move (each seat its own
/// search from its own view), with the moves as every seat saw them.
fn played_by_ismcts(
    seed: u64,
    plies: usize,
    iterations: u64,
) -> (Sueca, Vec<Seen<cardsearch::Card>>) {
    played_by::<Sueca>("sueca", "ismcts", seed, plies, iterations)
}

/// A deal of `game` played `plies` moves by `agent` at `iterations` a move (each seat its own
/// search from its own view), with the moves as every seat saw them.
fn played_by<G: GameDef>(
    game: &str,
    agent: &str,
    seed: u64,
    plies: usize,
    iterations: u64,
) -> (G, Vec<Seen<G::Move>>) {
    use cardsearch::View;
    use cardsearch::agents;
    let mut agent = agents::build::<G>(&agent.parse::<Spec>().unwrap()).unwrap();
    let config = G::config(&game.parse::<Spec>().unwrap()).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(&config, &mut rng);
    let mut history = Vec::new();
    for _ in 0..plies {
        let seat = state.current_seat();
        let mv = agent
            .choose(
                View::new(&state, seat, &[]),
                Budget::iterations(iterations),
                &mut rng,
            )
            .unwrap()
            .mv;
        history.push((seat, Some(mv)));
        state.play(mv);
    }
    (state, history)
}

/// Two deals that agree on the mover's hand and on every card played give every legal move of
/// `G` the same features: the model cannot see the others' hands.
fn reads_only_the_movers_view<G: GameDef + HiddenInfo>(game: &str, length: usize) {
    let mut compared = 0;
    for seed in 0..30 {
        let (truth, _) = played_game::<G>(game, 3000 + seed, (seed as usize * 5) % length, false);
        let mover = truth.current_seat();
        let sampler = truth.info_set(mover).sampler().unwrap();
        let mut rng = rng_from_seed(seed);
        let other = sampler.sample(&mut rng);
        for mv in truth.legal_moves().to_vec() {
            let f = truth
                .model_features(mv)
                .expect("the game has a learned model");
            assert_eq!(
                other.model_features(mv),
                Some(f),
                "{game} seed {seed}, {mv}"
            );
            assert!(f.iter().all(|&i| (i as usize) < G::model_params()));
            compared += 1;
        }
        // The one-pass reading inference uses gives every legal move, in order, the features
        // the move-by-move reading gives, in both deals.
        for state in [&truth, &other] {
            let mut visited = Vec::new();
            assert!(state.visit_model_features(|mv, f| visited.push((mv, f))));
            let one_by_one: Vec<_> = state
                .legal_moves()
                .to_vec()
                .into_iter()
                .map(|mv| (mv, state.model_features(mv).unwrap()))
                .collect();
            assert_eq!(visited, one_by_one, "{game} seed {seed}");
        }
    }
    assert!(compared > 100);
}

#[test]
fn the_learned_model_reads_only_what_the_mover_knows() {
    reads_only_the_movers_view::<Sueca>("sueca", 36);
    reads_only_the_movers_view::<Hearts>("hearts", 48);
    reads_only_the_movers_view::<cardsearch::games::Bisca>("bisca", 38);
}

#[test]
fn the_shipped_models_parse_and_are_fitted() {
    for (model, params) in [
        (Sueca::opponent_model(), Sueca::model_params()),
        (Hearts::opponent_model(), Hearts::model_params()),
        (
            cardsearch::games::Bisca::opponent_model(),
            cardsearch::games::Bisca::model_params(),
        ),
    ] {
        let model = model.expect("the game ships a model");
        assert_eq!(model.params().len(), params);
        assert!(
            model.params().iter().any(|&p| p.abs() > 0.1),
            "a fitted model"
        );
    }
    assert!(cardsearch::games::Tricks::opponent_model().is_none());
}

#[test]
fn the_learned_model_pulls_the_determinizations_toward_the_real_deal_against_ismcts_players() {
    // Unlike the rule test above, the others here are searchers (plain ISMCTS, 300 iterations
    // a move), not the model. After three tricks the seat to lead weighs 2,000 uniform
    // candidates by the learned model (ε = 0.1). Over 40 seeded deals, the inferred pool must
    // place more unseen cards with their real holder than the uniform sampler, by more than
    // three standard errors of the per-deal differences (one-sided, about the 0.1% level);
    // the rule-based model, which is worse than uniform at predicting these players'
    // moves (`cardsearch fit-model` reports it), is reported beside it.
    let learned = InferenceConfig {
        candidates: 2000,
        epsilon: 0.1,
        model: OpponentModelKind::Learned,
    };
    let rule = InferenceConfig {
        candidates: 2000,
        ..InferenceConfig::default()
    };
    let (mut gains, mut rule_gains) = (Vec::new(), Vec::new());
    for seed in 0..40 {
        let (truth, history) = played_by_ismcts(5000 + seed, 12, 300);
        let observer = truth.current_seat();
        let uniform = truth.info_set(observer).sampler().unwrap();
        let mut rng = rng_from_seed(seed);
        let mean = |deals: &[Sueca]| {
            deals
                .iter()
                .map(|d| placed_right(d, &truth, observer))
                .sum::<f64>()
                / deals.len() as f64
        };
        let uniform_deals: Vec<Sueca> = (0..2000).map(|_| uniform.sample(&mut rng)).collect();
        let before = mean(&uniform_deals);
        let pool = infer(&uniform, observer, &history, &learned, None, &mut rng).unwrap();
        gains.push(mean(pool.pool()) - before);
        let pool = infer(&uniform, observer, &history, &rule, None, &mut rng).unwrap();
        rule_gains.push(mean(pool.pool()) - before);
    }
    let stats = |g: &[f64]| {
        let n = g.len() as f64;
        let mean = g.iter().sum::<f64>() / n;
        let sd = (g.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        (mean, sd / n.sqrt())
    };
    let (mean, se) = stats(&gains);
    let (rule_mean, rule_se) = stats(&rule_gains);
    eprintln!(
        "unseen cards placed right against ISMCTS players: learned {mean:+.4} (se {se:.4}), \
         rule {rule_mean:+.4} (se {rule_se:.4})"
    );
    assert!(
        mean > 3.0 * se,
        "learned pools place {mean:+.4} more of the unseen cards right (se {se:.4})"
    );
}

/// Bisca keeps no record of its draws, so a rewind draws a past: from the true state and from
/// determinizations alike, the drawn deal replays along the moves to a state equal to this one
/// in everything the game keeps (the stock's drawn slots aside, which nothing reads).
#[test]
fn a_bisca_deal_rewinds_to_a_past_that_replays_to_it() {
    use cardsearch::games::Bisca;
    let same = |a: &Bisca, b: &Bisca| {
        (0..2).all(|s| {
            a.hand(s) == b.hand(s)
                && a.played(s) == b.played(s)
                && a.voids(s) == b.voids(s)
                && a.won(s) == b.won(s)
                && a.known_in_hand(s) == b.known_in_hand(s)
        }) && a.stock() == b.stock()
            && a.lead() == b.lead()
            && a.current_seat() == b.current_seat()
            && a.face_up() == b.face_up()
    };
    let mut rng = rng_from_seed(7);
    for seed in 0..60 {
        let plies = (seed as usize * 7) % 40;
        let (state, history) = played_game::<Bisca>("bisca", seed, plies, seed % 2 == 0);
        let observer = (seed % 2) as usize;
        let sampler = state.info_set(observer).sampler().unwrap();
        let deals = [state, sampler.sample(&mut rng), sampler.sample(&mut rng)];
        for deal in deals {
            let mut replay = deal.rewind(&history, &mut rng).expect("bisca rewinds");
            for &(seat, mv) in &history {
                assert_eq!(replay.current_seat(), seat, "seed {seed}");
                assert!(replay.legal_moves().contains(mv.unwrap()), "seed {seed}");
                replay.play(mv.unwrap());
            }
            assert!(
                same(&replay, &deal),
                "seed {seed}: {replay:?} against {deal:?}"
            );
        }
    }
    // A history that does not lead here, or the exchange variant, cannot be rewound.
    let (state, history) = played_game::<Bisca>("bisca", 1, 10, false);
    assert!(state.rewind(&history[..9], &mut rng).is_none());
    let (swapped, history) = played_game::<Bisca>("bisca:exchange=true", 1, 10, false);
    assert!(swapped.rewind(&history, &mut rng).is_none());
}

/// After one trick and its draws, the card a seat drew is any of the cards it holds now with
/// the same chance (it cannot be told from the nine it was dealt): over 9,000 rewinds each of
/// the nine is drawn 1,000 times on average, binomial sd about 30; the margin is 5 sd.
#[test]
fn a_bisca_rewind_draws_every_past_alike() {
    use cardsearch::games::Bisca;
    let (state, history) = played_game::<Bisca>("bisca", 3, 2, false);
    assert_eq!(state.stock_len(), 20);
    let mut rng = rng_from_seed(11);
    for seat in 0..2 {
        let mut counts = std::collections::HashMap::new();
        for _ in 0..9_000 {
            let dealt = state.rewind(&history, &mut rng).unwrap();
            let drawn = state.hand(seat) - dealt.hand(seat);
            assert_eq!(drawn.len(), 1);
            *counts.entry(drawn.iter().next().unwrap()).or_insert(0u32) += 1;
        }
        assert_eq!(
            counts.len(),
            9,
            "seat {seat}: every held card can be the drawn one"
        );
        for (card, n) in counts {
            assert!(
                (850..=1150).contains(&n),
                "seat {seat}: {card} drawn {n} times"
            );
        }
    }
}

/// Inference runs in Bisca: with the learned model, the weights of candidate deals differ
/// (the plays tell something), and the pool keeps only deals consistent with what the observer
/// saw.
#[test]
fn bisca_inference_weighs_its_deals() {
    use cardsearch::games::Bisca;
    let (state, history) = played_game::<Bisca>("bisca", 5, 15, true);
    let observer = state.current_seat();
    let sampler = state.info_set(observer).sampler().unwrap();
    let config = InferenceConfig {
        candidates: 500,
        epsilon: 0.1,
        model: OpponentModelKind::Learned,
    };
    let mut rng = rng_from_seed(3);
    let inferred =
        infer(&sampler, observer, &history, &config, None, &mut rng).expect("bisca infers");
    assert!(
        inferred.effective() < 500.0 * 0.9,
        "effective {}",
        inferred.effective()
    );
    assert!(
        inferred.effective() > 1.0,
        "effective {}",
        inferred.effective()
    );
    for deal in inferred.pool() {
        assert_eq!(deal.hand(observer), state.hand(observer));
    }
}

/// The learned Bisca model against players that search (plain ISMCTS at 300 iterations a move),
/// as the Sueca test above: after eight tricks the seat to move weighs 1,000 uniform candidates
/// (ε = 0.1); over 480 seeded deals the inferred pool must place more of the other hand's cards
/// right than the uniform sampler, by more than three standard errors of the per-deal
/// differences (one-sided, about the 0.1% level). The pull is small (about 0.4% of the other
/// hand) and its place in the game matters: after six tricks with NAST UCB1 players (this test
/// until session 37) it measured +0.0060 (se 0.0019, 3.1 se) at 160 deals, nearly all of the
/// test's time in the players' searches; plain ISMCTS players cost a sixth of that, and after
/// eight tricks, with more plays seen and stock cards still hidden, 320 deals on each of two
/// seed ranges never used to choose the setting gave 4.1 and 3.3 se, and these 480 deals 4.6
/// se (+0.0036, se 0.0008) in the same time. (After ten tricks the pull vanishes: with one
/// hidden stock card left, nine of the ten unseen cards are the other hand's in every deal.)
#[test]
fn the_learned_bisca_model_pulls_the_determinizations_toward_the_real_deal() {
    use cardsearch::games::Bisca;
    let learned = InferenceConfig {
        candidates: 1000,
        epsilon: 0.1,
        model: OpponentModelKind::Learned,
    };
    let mut gains = Vec::new();
    for seed in 0..480 {
        let (truth, history) = played_by::<Bisca>("bisca", "ismcts", 40_000 + seed, 16, 300);
        let observer = truth.current_seat();
        let other = observer ^ 1;
        let uniform = truth.info_set(observer).sampler().unwrap();
        let mut rng = rng_from_seed(seed);
        let mean = |deals: &[Bisca]| {
            deals
                .iter()
                .map(|d| (d.hand(other) & truth.hand(other)).len() as f64)
                .sum::<f64>()
                / deals.len() as f64
                / truth.hand(other).len() as f64
        };
        let uniform_deals: Vec<Bisca> = (0..1000).map(|_| uniform.sample(&mut rng)).collect();
        let before = mean(&uniform_deals);
        let pool = infer(&uniform, observer, &history, &learned, None, &mut rng).unwrap();
        gains.push(mean(pool.pool()) - before);
    }
    let n = gains.len() as f64;
    let mean = gains.iter().sum::<f64>() / n;
    let se = (gains.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() / n.sqrt();
    eprintln!(
        "bisca: the other hand's cards placed right, learned pool against uniform {mean:+.4} (se {se:.4})"
    );
    assert!(
        mean > 3.0 * se,
        "learned pools place {mean:+.4} more of the other hand right (se {se:.4})"
    );
}
