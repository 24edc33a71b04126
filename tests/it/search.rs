//! Search agents on positions whose right answer is known: CoinGuess (strategy fusion), Tricks
//! endgames solved here by exhaustive minimax, seeded determinism and visit accounting.

use cardsearch::agents::{self, Agent, Decision};
use cardsearch::game::rng_from_seed;
use cardsearch::games::coinguess::CoinMove;
use cardsearch::games::tricks::DECK;
use cardsearch::games::{self, CoinGuess, GameDef, Sueca, Tricks};
use cardsearch::{Budget, Card, CardSet, Game, HiddenInfo, MoveSet, Spec};

fn agent<G: HiddenInfo>(spec: &str) -> Box<dyn Agent<G>> {
    agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn decide<G: HiddenInfo>(
    agent: &mut dyn Agent<G>,
    state: &G,
    iterations: u64,
    seed: u64,
) -> Decision<G::Move> {
    let view = agents::view_for(&*agent, state, state.current_seat(), &[]);
    agent
        .choose(
            view,
            Budget::iterations(iterations),
            &mut rng_from_seed(seed),
        )
        .expect("a search from a legal position decides")
}

/// The sequential agents, and the parallel modes whose result is a function of the seed when the
/// budget counts iterations (root splits the budget evenly; leaf backs results up in thread
/// order).
const DETERMINISTIC: &[&str] = &[
    "ismcts",
    "pimc",
    "uct",
    "ismcts:c=1.5,max_nodes=50",
    "pimc:dets=3",
    "ismcts:parallel=root,threads=2",
    "pimc:parallel=root,threads=3",
    "ismcts:parallel=leaf,threads=2",
    // NAST's tables: one per search sequentially, one per thread for root parallelism (a
    // shared table, the default, is timing-dependent there, as in leaf mode).
    "ismcts:playout=nast",
    "ismcts:playout=nast,parallel=root,threads=2,nast_tables=thread",
];

#[test]
fn coinguess_ismcts_plays_safe_and_pimc_gambles() {
    // The note measured both agents at 1,000 iterations: ISMCTS values the gamble at 0.5 < 0.6,
    // PIMC at 1.0 in every world. Both are near-certain per decision; the brief's bar (195 of
    // 200) leaves room for a few unlucky seeds without letting a coin flip pass.
    let mut ismcts = agent::<CoinGuess>("ismcts");
    let mut pimc = agent::<CoinGuess>("pimc");
    let (mut safe, mut gambles) = (0, 0);
    for seed in 0..200u64 {
        let state = CoinGuess::new(seed % 2 == 0);
        safe += (decide(ismcts.as_mut(), &state, 1000, seed).mv == CoinMove::Safe) as u32;
        gambles += (decide(pimc.as_mut(), &state, 1000, seed).mv == CoinMove::Gamble) as u32;
    }
    assert!(safe >= 195, "ISMCTS played safe only {safe}/200 times");
    assert!(gambles >= 195, "PIMC gambled only {gambles}/200 times");
}

#[test]
fn the_same_seed_gives_the_same_decision() {
    let mut rng = rng_from_seed(99);
    let states: Vec<Tricks> = (0..4).map(|_| Tricks::new_game(&(), &mut rng)).collect();
    for spec in DETERMINISTIC {
        // One agent reused (its arena is reset between searches) and one fresh agent.
        let mut a = agent::<Tricks>(spec);
        for (i, state) in states.iter().enumerate() {
            let first = decide(a.as_mut(), state, 700, i as u64);
            let again = decide(a.as_mut(), state, 700, i as u64);
            let fresh = decide(agent::<Tricks>(spec).as_mut(), state, 700, i as u64);
            for other in [&again, &fresh] {
                assert_eq!(first.mv, other.mv, "{spec}");
                assert_eq!(first.iterations, other.iterations, "{spec}");
                assert_eq!(first.children, other.children, "{spec}");
            }
            assert_eq!(first.iterations, 700, "{spec}");
        }
    }
}

/// Every consistent world of `observer` after `prefix` from `deal`, by enumeration.
fn worlds(deal: &Tricks, prefix: &[Card], observer: usize) -> Vec<Tricks> {
    let mut s = *deal;
    let mut played = [CardSet::EMPTY; 2];
    let mut opponent_voids = CardSet::EMPTY;
    let mut lead: Option<Card> = None;
    for &m in prefix {
        let p = s.current_seat();
        match lead.take() {
            None => lead = Some(m),
            Some(l) if m.suit() != l.suit() && p != observer => {
                opponent_voids |= CardSet::suit(l.suit())
            }
            Some(_) => {}
        }
        played[p].insert(m);
        s.play(m);
    }
    let opponent = observer ^ 1;
    let own = s.hand(observer);
    let unknown = DECK - own - played[0] - played[1];
    let cards: Vec<Card> = unknown.iter().collect();
    let mut out = Vec::new();
    for mask in 0u32..1 << cards.len() {
        let theirs: CardSet = (0..cards.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| cards[i])
            .collect();
        if theirs.len() != s.hand(opponent).len() || !(theirs & opponent_voids).is_empty() {
            continue;
        }
        let mut hands = [CardSet::EMPTY; 2];
        hands[observer] = own | played[observer];
        hands[opponent] = theirs | played[opponent];
        let mut w = Tricks::from_hands(hands, unknown - theirs).unwrap();
        for &m in prefix {
            w.play(m);
        }
        out.push(w);
    }
    out
}

/// `observer`'s reward under perfect play by both sides.
fn minimax(s: &Tricks, observer: usize) -> f64 {
    if s.is_terminal() {
        return s.reward(observer);
    }
    let values = s.legal_moves().iter().map(|m| {
        let mut t = *s;
        t.play(m);
        minimax(&t, observer)
    });
    if s.current_seat() == observer {
        values.fold(0.0, f64::max)
    } else {
        values.fold(1.0, f64::min)
    }
}

/// Positions where exactly one move wins in every world the mover cannot rule out.
const ENDGAMES: &[(&str, &[&str])] = &[
    // Seat 1 must cover the queen with the ace: JD loses the lead and, with it, the game.
    ("QD KD JH KH | JD AD QS AS | QH AH JS KS", &["QD"]),
    // Seat 1 with two tricks to play.
    (
        "JD QD JH AH | KD AD QH AS | KH JS QS KS",
        &["JD", "KD", "AS", "QD"],
    ),
];

/// The endgame's state and its one winning move, checked by minimax over every world.
fn endgame(deal: &str, prefix: &[&str]) -> (Tricks, Card) {
    let deal = Tricks::from_deal(&(), deal).unwrap();
    let prefix: Vec<Card> = prefix.iter().map(|m| m.parse().unwrap()).collect();
    let mut state = deal;
    for &m in &prefix {
        state.play(m);
    }
    let observer = state.current_seat();
    let worlds = worlds(&deal, &prefix, observer);
    assert!(worlds.len() > 1, "the position hides something");
    let mut winners = Vec::new();
    for m in state.legal_moves() {
        let values: Vec<f64> = worlds
            .iter()
            .map(|w| {
                let mut t = *w;
                t.play(m);
                minimax(&t, observer)
            })
            .collect();
        if values.iter().all(|&v| v == 1.0) {
            winners.push(m);
        } else {
            assert!(values.iter().all(|&v| v <= 0.5), "{m} wins in some worlds");
        }
    }
    assert_eq!(winners.len(), 1, "exactly one move wins");
    (state, winners[0])
}

/// Asserts that `spec` plays the one winning move of every endgame, for ten seeds each: a
/// searcher that guessed would fail with probability 1 - 2^-10 per endgame.
fn assert_wins_every_endgame(spec: &str) {
    for (deal, prefix) in ENDGAMES {
        let (state, winner) = endgame(deal, prefix);
        assert!(state.legal_moves().len() >= 2);
        let mut a = agent::<Tricks>(spec);
        for seed in 0..10 {
            let d = decide(a.as_mut(), &state, 3000, seed);
            assert_eq!(
                d.mv, winner,
                "{spec} seed {seed} on {deal}: {:?}",
                d.children
            );
        }
    }
}

#[test]
fn every_sequential_agent_finds_the_only_winning_move() {
    for spec in ["ismcts", "pimc", "uct"] {
        assert_wins_every_endgame(spec);
    }
}

#[test]
fn root_visits_add_up_to_the_iterations() {
    let mut rng = rng_from_seed(5);
    for spec in DETERMINISTIC {
        let mut a = agent::<Tricks>(spec);
        for seed in 0..5 {
            let state = Tricks::new_game(&(), &mut rng);
            let d = decide(a.as_mut(), &state, 1234, seed);
            let visits: u64 = d.children.iter().map(|c| c.visits).sum();
            assert_eq!(visits, d.iterations, "{spec}");
            assert!(state.legal_moves().contains(d.mv), "{spec}");
            assert!(d.children.windows(2).all(|w| w[0].visits >= w[1].visits));
        }
    }
}

#[test]
fn a_full_tree_keeps_searching() {
    // The root's children block (a header and a slot for each of the four cards in hand) fits
    // in six slots and nothing below it does; in two, not even that. The search must still do
    // every iteration.
    let mut rng = rng_from_seed(8);
    let state = Tricks::new_game(&(), &mut rng);
    let d = decide(
        agent::<Tricks>("ismcts:max_nodes=6").as_mut(),
        &state,
        500,
        1,
    );
    assert_eq!(d.iterations, 500);
    assert_eq!(d.children.len(), 4);
    assert_eq!(d.children.iter().map(|c| c.visits).sum::<u64>(), 500);
    let d = decide(
        agent::<Tricks>("ismcts:max_nodes=2").as_mut(),
        &state,
        500,
        1,
    );
    assert_eq!(d.iterations, 500);
    assert!(d.children.is_empty());
    assert!(state.legal_moves().contains(d.mv));
    assert!(d.tree_full, "the decision says the tree filled");
    assert_eq!(d.nodes, 2);
    // An arena sized from the budget never fills: it has room for the most slots an
    // iteration can take (one children block) on every iteration.
    for spec in [
        "ismcts",
        "ismcts:parallel=tree,threads=2",
        "pimc:parallel=root,threads=2",
    ] {
        let d = decide(agent::<Tricks>(spec).as_mut(), &state, 5000, 1);
        assert!(!d.tree_full, "{spec}");
        // At most one block per iteration, of at most 9 slots in Tricks (a header and the 8
        // cards the searcher has not seen), and a shared tree's first chunks and root padding.
        assert!(
            d.nodes > 1 && d.nodes <= 5000 * 9 + 1000,
            "{spec}: {} slots",
            d.nodes
        );
    }
}

#[test]
fn uct_says_it_cheats_and_the_others_do_not() {
    assert!(agent::<Tricks>("uct").is_cheating());
    assert!(!agent::<Tricks>("ismcts").is_cheating());
    assert!(!agent::<Tricks>("pimc").is_cheating());
    assert!(
        agents::all()
            .iter()
            .any(|a| a.name == "uct" && a.about.contains("CHEATING"))
    );
}

#[test]
fn forced_moves_are_played_without_searching() {
    let state = Tricks::from_deal(&(), "JS QS KH AD | AS JH QH KD | KS AH JD QD").unwrap();
    let mut state = state;
    state.play("QS".parse().unwrap()); // seat 1 must follow with its only spade
    let d = decide(agent::<Tricks>("ismcts").as_mut(), &state, 1000, 0);
    assert_eq!(d.mv.to_string(), "AS");
    assert_eq!(d.iterations, 0);
}

#[test]
fn bad_agent_specs_are_errors() {
    for bad in [
        "ismcts:dets=4",
        "uct:threads=2",
        "pimc:dets=0",
        "ismcts:parallel=root,threads=2,virtual_loss=1",
        "ismcts:colour=blue",
        "ismcts:parallel=tree,threads=2,root_batch=0",
        "ismcts:parallel=tree,threads=2,root_batch=4097",
        "ismcts:parallel=root,threads=2,root_batch=8",
        "ismcts:root_batch=8",
        "pimc:parallel=tree,threads=2,root_batch=8",
    ] {
        let spec: Spec = bad.parse().unwrap();
        assert!(
            agents::build::<Tricks>(&spec).is_err(),
            "{bad} was accepted"
        );
    }
    // A learned opponent model where the game has none is named, not silently uniform, for
    // inference and for playouts alike.
    for text in [
        "ismcts:infer=100,infer_model=learned",
        "ismcts:playout=model",
        "pimc:playout=model,epsilon=0.2",
    ] {
        let spec: Spec = text.parse().unwrap();
        let err = agents::build::<Tricks>(&spec)
            .err()
            .expect("tricks has no model");
        assert!(
            err.to_string().contains("no learned opponent model"),
            "{text}: {err}"
        );
        assert!(agents::build::<Sueca>(&spec).is_ok(), "{text} in sueca");
    }
    // epsilon belongs to the playouts that mix in random moves.
    let spec: Spec = "ismcts:playout=nast,epsilon=0.2".parse().unwrap();
    let err = agents::build::<Sueca>(&spec)
        .err()
        .expect("nast has no epsilon");
    assert!(err.to_string().contains("epsilon applies only"), "{err}");
}

// ---- Parallel modes -------------------------------------------------------------------------

/// Every parallel mode, with thread counts that include more threads than this machine may have
/// cores (the spinning hand-offs must not livelock).
const MODES: &[&str] = &[
    "parallel=sequential",
    "parallel=root,threads=2",
    "parallel=tree,threads=2",
    "parallel=tree,threads=3,virtual_loss=0",
    "parallel=tree-locked,threads=2",
    "parallel=leaf,threads=3",
];

const ALGORITHMS: &[&str] = &["ismcts", "pimc:dets=4", "uct"];

fn with_mode(algorithm: &str, mode: &str) -> String {
    let sep = if algorithm.contains(':') { ',' } else { ':' };
    format!("{algorithm}{sep}{mode}")
}

/// Checks one decision: a legal move, root visits equal to the iterations done.
fn check<G: HiddenInfo>(spec: &str, state: &G, d: &Decision<G::Move>) {
    assert!(
        state.legal_moves().contains(d.mv),
        "{spec}: illegal {}",
        d.mv
    );
    let visits: u64 = d.children.iter().map(|c| c.visits).sum();
    assert_eq!(visits, d.iterations, "{spec}: root visits");
}

/// Positions with a choice along one random game from `seed`: those at a ply `keep` accepts
/// (given the ply and how many were kept before), at most `most`.
fn positions_along_a_game<G: GameDef>(
    config: &G::Config,
    seed: u64,
    most: usize,
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<G> {
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(config, &mut rng);
    let mut positions = Vec::new();
    let mut ply = 0;
    while !state.is_terminal() && positions.len() < most {
        if state.legal_moves().len() > 1 && keep(ply, positions.len()) {
            positions.push(state.clone());
        }
        let mv = state.legal_moves().random(&mut rng);
        state.play(mv);
        ply += 1;
    }
    assert!(
        !positions.is_empty(),
        "{}: no position with a choice",
        G::NAME
    );
    positions
}

struct EveryMode;

impl games::GameVisitor for EveryMode {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        // Three positions with a choice, spread along one random game.
        let positions = positions_along_a_game::<G>(&config, 17, 3, |ply, _| ply % 5 == 0);
        for algorithm in ALGORITHMS {
            for mode in MODES {
                let spec = with_mode(algorithm, mode);
                let mut a = agent::<G>(&spec);
                for (i, state) in positions.iter().enumerate() {
                    let seat = state.current_seat();
                    let view = agents::view_for(a.as_ref(), state, seat, &[]);
                    let d = a
                        .choose(view, Budget::iterations(300), &mut rng_from_seed(i as u64))
                        .unwrap();
                    check(&spec, state, &d);
                    assert_eq!(d.iterations, 300, "{} {spec}", G::NAME);
                    let view = agents::view_for(a.as_ref(), state, seat, &[]);
                    let d = a
                        .choose(view, Budget::millis(2), &mut rng_from_seed(i as u64))
                        .unwrap();
                    check(&spec, state, &d);
                }
            }
        }
    }
}

#[test]
fn every_mode_returns_a_legal_move_on_every_game() {
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), EveryMode).unwrap();
    }
}

/// Every reward function at the ends of the exploration constant's range, in every game, by
/// every tree algorithm, sequential and tree-parallel (the held top levels), and MO-ISMCTS:
/// decisions are legal and account for every iteration. At `c = 0` a `wl` child that lost every
/// iteration scores exactly -1; the selection's "no child yet" score was -1 too, and the tie
/// read the slot of no node (a crash in every game, found by the chapter-6 sweeps).
struct ExtremeConstants;

impl games::GameVisitor for ExtremeConstants {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        // The first position with a choice of a random game, and the one at ply 20 if it has one.
        let positions =
            positions_along_a_game::<G>(&config, 23, 2, |ply, kept| kept == 0 || ply == 20);
        for reward in ["pwl", "wl", "sd", "mix:w=0.3", "rank"] {
            for c in ["0", "1000"] {
                let algorithms = ALGORITHMS.iter().copied().chain(["mo-ismcts"]);
                for algorithm in algorithms {
                    for mode in ["parallel=sequential", "parallel=tree,threads=2"] {
                        let spec = with_mode(algorithm, &format!("reward={reward},c={c},{mode}"));
                        let mut a = agent::<G>(&spec);
                        for (i, state) in positions.iter().enumerate() {
                            let d = decide(a.as_mut(), state, 200, i as u64);
                            check(&spec, state, &d);
                            assert_eq!(d.iterations, 200, "{} {spec}", G::NAME);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn every_reward_searches_at_the_ends_of_the_constants_range() {
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), ExtremeConstants).unwrap();
    }
}

/// Tree searches on a game with more than 64 distinct moves, at a position with more than 64
/// legal moves: every algorithm in every parallel mode decides legally and accounts for every
/// iteration, ISMCTS and UCT make a root child for every legal move (their first iterations
/// try each untried move, so children past the 64th move bit exist), and the modes that are a
/// function of the seed give the same decision for the same seed.
struct WideGame;

impl games::GameVisitor for WideGame {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        let mut rng = rng_from_seed(5);
        let state = (0..100)
            .find_map(|_| {
                let mut state = G::new_game(&config, &mut rng);
                while !state.is_terminal() {
                    if (65..=150).contains(&state.legal_moves().len()) {
                        return Some(state);
                    }
                    let mv = state.legal_moves().random(&mut rng);
                    state.play(mv);
                }
                None
            })
            .expect("a position with 65 to 150 legal moves in 100 games");
        let legal = state.legal_moves().len();
        for algorithm in ALGORITHMS {
            for mode in MODES {
                let spec = with_mode(algorithm, mode);
                let d = decide(agent::<G>(&spec).as_mut(), &state, 600, 3);
                check(&spec, &state, &d);
                assert_eq!(d.iterations, 600, "{} {spec}", G::NAME);
                if !algorithm.starts_with("pimc") {
                    // Leaf parallelism's 600 playouts are 200 walks, still more than the moves.
                    assert_eq!(d.children.len(), legal, "{} {spec}", G::NAME);
                }
            }
        }
        // MO-ISMCTS (a tree per seat; no tree-locked mode): the same checks.
        for mode in MODES.iter().filter(|m| !m.contains("tree-locked")) {
            let spec = with_mode("mo-ismcts", mode);
            let d = decide(agent::<G>(&spec).as_mut(), &state, 600, 3);
            check(&spec, &state, &d);
            assert_eq!(d.iterations, 600, "{} {spec}", G::NAME);
            assert_eq!(d.children.len(), legal, "{} {spec}", G::NAME);
        }
        // NAST's n-gram tables take games of at most 64 distinct moves.
        for spec in DETERMINISTIC.iter().filter(|s| !s.contains("nast")) {
            let mut a = agent::<G>(spec);
            let first = decide(a.as_mut(), &state, 500, 8);
            let again = decide(a.as_mut(), &state, 500, 8);
            let fresh = decide(agent::<G>(spec).as_mut(), &state, 500, 8);
            for other in [&again, &fresh] {
                assert_eq!(first.mv, other.mv, "{} {spec}", G::NAME);
                assert_eq!(first.children, other.children, "{} {spec}", G::NAME);
            }
        }
    }
}

#[test]
fn tree_searches_play_games_wider_than_64_moves_in_every_mode() {
    // The default ASMACAG deck has six number kinds (at most 38 actions); with all fourteen,
    // nine cards in hand face up to 126 number plays. Pentago-Swap has up to 216 moves.
    for spec in ["asmacag:low=0,high=13", "pentago-swap"] {
        games::dispatch(&spec.parse::<Spec>().unwrap(), WideGame).unwrap();
    }
}

#[test]
fn every_mode_finds_the_only_winning_move() {
    for algorithm in ALGORITHMS {
        for mode in MODES {
            assert_wins_every_endgame(&with_mode(algorithm, mode));
        }
    }
}

#[test]
fn thousands_of_short_shared_tree_searches_account_for_every_iteration() {
    // Short searches maximise the share of time threads spend racing on the same few nodes
    // (the root's first expansions); a small arena adds the full-tree path to the races.
    let mut rng = rng_from_seed(23);
    for spec in [
        "ismcts:parallel=tree,threads=2",
        "ismcts:parallel=tree,threads=2,root_batch=1",
        "ismcts:parallel=tree,threads=3,root_batch=64",
        "mo-ismcts:parallel=tree,threads=2",
        "ismcts:parallel=tree,threads=4,virtual_loss=3",
        "ismcts:parallel=tree,threads=3,max_nodes=40",
        "uct:parallel=tree,threads=2,virtual_loss=0",
        "ismcts:parallel=tree-locked,threads=3",
        "pimc:dets=3,parallel=tree-locked,threads=2",
        "ismcts:parallel=leaf,threads=4",
    ] {
        let mut a = agent::<Tricks>(spec);
        // Under Miri (its data-race and undefined-behaviour checks: docs/reliability.md) a
        // few searches per spec are what fits in its time.
        let searches = if cfg!(miri) { 4 } else { 1500u64 };
        for i in 0..searches {
            let mut state = Tricks::new_game(&(), &mut rng);
            // Vary the depth: some searches start mid-game.
            for _ in 0..(i % 4) {
                let mv = state.legal_moves().random(&mut rng);
                state.play(mv);
            }
            if state.legal_moves().len() < 2 {
                continue;
            }
            let d = decide(a.as_mut(), &state, 40 + i % 50, i);
            check(spec, &state, &d);
            assert_eq!(d.iterations, 40 + i % 50, "{spec}");
        }
    }
}

#[test]
fn one_tree_thread_searches_alike_whatever_its_root_batch() {
    // A tree-parallel thread keeps its statistics of the root's children and grandchildren
    // (visits, rewards, availability) to itself for `root_batch` passes and scores them with
    // its own added; alone in the tree it must therefore choose exactly as when it shares
    // every pass (`root_batch=1`, early visits at every node, which one thread undoes before
    // it reads them again). Tricks's win/tie/loss rewards are halves, so the two orders of
    // adding them give the same totals to the bit.
    let mut rng = rng_from_seed(31);
    let specs = [1, 8, 64].map(|b| format!("ismcts:parallel=tree,threads=1,root_batch={b}"));
    for position in 0..6u64 {
        let state = Tricks::new_game(&(), &mut rng);
        let decisions: Vec<_> = specs
            .iter()
            .map(|spec| {
                let d = decide(agent::<Tricks>(spec).as_mut(), &state, 3000, position);
                check(spec, &state, &d);
                d.children
                    .iter()
                    .map(|c| (c.mv, c.visits, c.availability, c.mean))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(
            decisions[1], decisions[0],
            "{} against {}",
            specs[1], specs[0]
        );
        assert_eq!(
            decisions[2], decisions[0],
            "{} against {}",
            specs[2], specs[0]
        );
    }
}

/// Tricks whose `play` panics on the `PANIC_AT`-th call: a stand-in for a bug in a game.
#[derive(Clone, Debug, PartialEq)]
struct Faulty(Tricks);

static PLAYS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static PANIC_AT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX);

impl Game for Faulty {
    type Move = Card;
    type Moves = CardSet;
    fn num_seats(&self) -> usize {
        2
    }
    fn current_seat(&self) -> usize {
        self.0.current_seat()
    }
    fn legal_moves(&self) -> CardSet {
        self.0.legal_moves()
    }
    fn play(&mut self, mv: Card) {
        use std::sync::atomic::Ordering::Relaxed;
        if PLAYS.fetch_add(1, Relaxed) == PANIC_AT.load(Relaxed) {
            panic!("a bug in the game");
        }
        self.0.play(mv)
    }
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }
    fn reward(&self, seat: usize) -> f64 {
        self.0.reward(seat)
    }
    fn score(&self, seat: usize) -> f64 {
        self.0.score(seat)
    }
    fn parse_move(&self, text: &str) -> Result<Card, String> {
        self.0.parse_move(text)
    }
}

impl HiddenInfo for Faulty {
    type InfoSet = cardsearch::game::PerfectInformation<Faulty>;
    fn info_set(&self, observer: usize) -> Self::InfoSet {
        cardsearch::game::PerfectInformation::new(self.clone(), observer)
    }
    fn possible_moves(&self, _observer: usize) -> CardSet {
        // One world: the legal moves are the same in every determinization.
        self.0.legal_moves()
    }
}

#[test]
fn a_panic_in_a_locked_tree_search_ends_the_search_instead_of_hanging_it() {
    use std::sync::atomic::Ordering::Relaxed;
    // Without the lock released, the other thread would wait forever: a watchdog turns that
    // hang into a failure (and is disarmed when the test ends, failed or not).
    let _watchdog = crate::process::Watchdog::arm(
        std::time::Duration::from_secs(120),
        "a panicking tree-locked search",
    );
    let state = Faulty(Tricks::new_game(&(), &mut rng_from_seed(3)));
    let mut caught = 0;
    for at in (50..2000).step_by(37) {
        let mut a = agent::<Faulty>("ismcts:parallel=tree-locked,threads=2");
        PLAYS.store(0, Relaxed);
        PANIC_AT.store(at, Relaxed);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            decide(a.as_mut(), &state, 100_000, at)
        }));
        caught += run.is_err() as u32;
    }
    PANIC_AT.store(u64::MAX, Relaxed);
    // Every search reached its panic (100,000 iterations play far more than 2,000 moves).
    assert_eq!(caught, (50..2000).step_by(37).count() as u32);
}

#[test]
fn the_strong_preset_is_chosen_per_game_and_yields_to_given_options() {
    use cardsearch::games::{Bisca, Hearts, Sueca};
    // What each game's preset=strong resolves to, as the agent reports its settings.
    let settings = |spec: String| spec.split_once(':').unwrap().1.to_string();
    let expect = |settings: &str, has: &[&str], lacks: &[&str]| {
        for word in has {
            assert!(settings.contains(word), "{settings} lacks {word}");
        }
        for word in lacks {
            assert!(!settings.contains(word), "{settings} has {word}");
        }
    };
    let bisca = settings(agent::<Bisca>("ismcts:preset=strong").spec());
    expect(
        &bisca,
        &[
            "playout=nast:n=2,policy=ucb1",
            "reward=pwl",
            "infer=1000",
            "infer_model=learned",
            "prior=64",
        ],
        &[],
    );
    // Sueca's SO-ISMCTS infers from the others' plays by its learned model and plays out by
    // it; its PIMC and MO-ISMCTS, which cannot weigh determinizations, take the rest of the
    // preset.
    let sueca = settings(agent::<Sueca>("ismcts:preset=strong").spec());
    expect(
        &sueca,
        &[
            "playout=model,epsilon=0.1",
            "reward=mix:w=0.3",
            "infer=1000",
            "infer_model=learned",
        ],
        &[],
    );
    for other in ["pimc:preset=strong", "mo-ismcts:preset=strong"] {
        expect(
            &settings(agent::<Sueca>(other).spec()),
            &["reward=mix:w=0.3", "playout=model"],
            &["infer"],
        );
    }
    // Hearts: heuristic playouts and a lighter margin, for PIMC and MO-ISMCTS too (which
    // leaves out only NAST and EPIC, below).
    for algorithm in ["pimc", "mo-ismcts"] {
        let hearts = settings(agent::<Hearts>(&format!("{algorithm}:preset=strong")).spec());
        expect(&hearts, &["playout=heuristic", "reward=mix:w=0.1"], &[]);
    }
    // Options beside the preset win; MO-ISMCTS, which has no NAST, keeps the rest of Bisca's.
    let mixed = settings(agent::<Bisca>("ismcts:preset=strong,reward=mix:w=0.5").spec());
    expect(&mixed, &["policy=ucb1", "reward=mix:w=0.5"], &[]);
    let mo = settings(agent::<Bisca>("mo-ismcts:preset=strong").spec());
    expect(&mo, &["playout=random", "reward=pwl"], &["infer", "prior"]);
    let pimc = settings(agent::<Bisca>("pimc:preset=strong").spec());
    expect(&pimc, &["policy=ucb1", "reward=pwl"], &["infer", "prior"]);
    // A playout beside the preset replaces the preset's with its parameters (NAST's policy,
    // the rule's epsilon), and keeps the rest.
    let model = settings(agent::<Bisca>("ismcts:preset=strong,playout=model").spec());
    expect(
        &model,
        &["playout=model,epsilon=0.1", "reward=pwl", "infer=1000"],
        &["policy"],
    );
    let nast = settings(agent::<Hearts>("ismcts:preset=strong,playout=nast").spec());
    expect(
        &nast,
        &["playout=nast:n=2,policy=gibbs", "reward=mix:w=0.1"],
        &["epsilon"],
    );
    // `infer=0` beside the preset turns inference off, with the preset's inference options.
    let off = settings(agent::<Sueca>("ismcts:preset=strong,infer=0").spec());
    expect(
        &off,
        &["playout=model", "reward=mix:w=0.3"],
        &["infer_eps", "infer_model"],
    );
    let off = settings(agent::<Bisca>("ismcts:preset=strong,infer=0").spec());
    expect(
        &off,
        &["policy=ucb1", "prior=64"],
        &["infer_eps", "infer_model"],
    );
    // An unknown option beside the preset is still an error.
    let err = agents::build::<Bisca>(&"ismcts:preset=strong,bogus=1".parse::<Spec>().unwrap())
        .err()
        .expect("bogus is not an option");
    assert!(err.to_string().contains("unknown option bogus"), "{err}");
}
