//! The solver against plain minimax on random positions of every game; the deal samplers'
//! enumeration; the hybrid decision and the leaf evaluator against their definitions.

use std::collections::HashSet;

use crate::game::{DealSampler, Game, HiddenInfo, MoveSet, View, rng_from_seed};
use crate::games::{Bisca, GameDef, Hearts, Sueca, Tricks};
use crate::search::Budget;

use super::hybrid::{self, Cards, EndgameConfig, Pick};
use super::leaf::LeafSolved;
use super::{Solvable, Solver, reference};

fn config<G: GameDef>(spec: &str) -> G::Config {
    G::config(&spec.parse().unwrap()).unwrap()
}

use super::positions::random_position as position;

/// `n` random positions with `lo..=hi` cards left: the solver's value of every legal move
/// equals plain minimax's; on every fourth, so does its value for the next seat's side, and
/// its optimal line for that side ends with that value.
fn agrees_with_minimax<G: GameDef + Solvable>(
    config: &G::Config,
    n: usize,
    lo: usize,
    hi: usize,
    seed: u64,
) {
    let mut rng = rng_from_seed(seed);
    // A small table, so that entries are replaced often and a bad replacement would show.
    let mut solver = Solver::new(10);
    let mut out = Vec::new();
    for i in 0..n {
        let g: G = position(config, lo, hi, &mut rng);
        solver.move_values(&g, &mut out).unwrap();
        assert_eq!(out, reference::move_values(&g), "{g:?}");
        if i % 4 == 0 {
            let other = (g.current_seat() + 1) % g.num_seats();
            let v = reference::minimax(&g, other);
            assert_eq!(
                solver.value(&g, other).unwrap(),
                v,
                "{g:?} for seat {other}"
            );
            let mut line = g.clone();
            solver.play_out(&mut line, other).unwrap();
            assert!(line.is_terminal());
            assert_eq!(
                line.final_value(other),
                v,
                "{g:?}: the optimal line of seat {other}"
            );
        }
    }
}

// Plain minimax's cost grows about fivefold per card (Bisca's hands are larger, so faster
// still), so the thousands of positions are mostly of 8 to 12 cards with some larger ones;
// `exhaustive_checks_up_to_16_cards` (ignored: minutes) covers 15 and 16 cards.

#[test]
fn sueca_values_equal_plain_minimax() {
    let c = config::<Sueca>("sueca");
    agrees_with_minimax::<Sueca>(&c, 1000, 8, 12, 1);
    agrees_with_minimax::<Sueca>(&c, 40, 13, 14, 11);
}

#[test]
fn bisca_values_equal_plain_minimax() {
    let c = config::<Bisca>("bisca");
    agrees_with_minimax::<Bisca>(&c, 1000, 8, 10, 2);
    agrees_with_minimax::<Bisca>(&c, 30, 11, 13, 12);
}

#[test]
fn hearts_values_equal_plain_minimax() {
    let c = config::<Hearts>("hearts");
    agrees_with_minimax::<Hearts>(&c, 1000, 8, 12, 3);
    agrees_with_minimax::<Hearts>(&c, 40, 13, 14, 13);
}

#[test]
fn tricks_values_equal_plain_minimax() {
    agrees_with_minimax::<Tricks>(&(), 1000, 1, 8, 4);
}

#[test]
#[ignore = "minutes: plain minimax of 15- and 16-card positions"]
fn exhaustive_checks_up_to_16_cards() {
    agrees_with_minimax::<Sueca>(&config::<Sueca>("sueca"), 40, 15, 16, 21);
    agrees_with_minimax::<Hearts>(&config::<Hearts>("hearts"), 40, 15, 16, 23);
    agrees_with_minimax::<Bisca>(&config::<Bisca>("bisca"), 10, 14, 16, 22);
}

/// Bisca while the stock lasts (drawing, no obligation to follow): too large for plain
/// minimax, so the table and the reduction are checked against the solver without them.
#[test]
fn bisca_with_a_known_stock_agrees_without_table_and_reduction() {
    let c = config::<Bisca>("bisca");
    let mut rng = rng_from_seed(5);
    let mut full = Solver::new(10);
    let mut plain = Solver::new(10).without_table_and_reduction();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..6 {
        let g: Bisca = position(&c, 19, 20, &mut rng);
        assert!(g.stock_len() > 0);
        full.move_values(&g, &mut a).unwrap();
        plain.move_values(&g, &mut b).unwrap();
        assert_eq!(a, b, "{g:?}");
    }
}

#[test]
fn the_exchange_is_refused_and_passing_too() {
    let mut rng = rng_from_seed(6);
    let bisca = Bisca::new_game(&config::<Bisca>("bisca:exchange=true"), &mut rng);
    let mut solver = Solver::new(8);
    // Either a hand or the stock (not its face-up bottom) holds the 2 of trumps at the start.
    let e = solver.value(&bisca, 0).unwrap_err().to_string();
    assert!(e.contains("exchange"), "{e}");
    let hearts = Hearts::new_game(&config::<Hearts>("hearts:pass=left"), &mut rng);
    let e = solver.value(&hearts, 0).unwrap_err().to_string();
    assert!(e.contains("passing"), "{e}");
}

#[test]
fn solve_moves_serves_any_game() {
    let mut rng = rng_from_seed(8);
    let g: Tricks = position(&(), 4, 6, &mut rng);
    assert_eq!(super::solve_moves(&g).unwrap(), reference::move_values(&g));
    let coin = crate::games::CoinGuess::new_game(&(), &mut rng);
    assert_eq!(super::solve_moves(&coin), Err(super::SolveError::NoSolver));
}

#[test]
fn a_node_limit_is_an_error_not_a_wrong_value() {
    let mut rng = rng_from_seed(7);
    let g = Sueca::new_game(&config::<Sueca>("sueca"), &mut rng);
    let mut solver = Solver::new(8).with_node_limit(1000);
    assert!(matches!(
        solver.value(&g, 0),
        Err(super::SolveError::NodeLimit(_))
    ));
}

/// A solver watch that records the node counts it is called with and always answers
/// `go_on`, and the record.
fn recording_watch(
    go_on: bool,
) -> (
    std::sync::Arc<std::sync::Mutex<Vec<u64>>>,
    impl FnMut(u64) -> bool + Send + 'static,
) {
    let calls = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = calls.clone();
    (calls, move |nodes| {
        seen.lock().unwrap().push(nodes);
        go_on
    })
}

#[test]
fn a_watch_sees_the_progress_and_can_stop_the_solve_but_changes_no_value() {
    let mut rng = rng_from_seed(11);
    let g: Tricks = position(&(), 4, 8, &mut rng);
    let (mut plain, mut values) = (Vec::new(), Vec::new());
    Solver::new(8).move_values(&g, &mut plain).unwrap();
    // Reports every 16 nodes, each with the count so far; the values are the same.
    let (calls, watch) = recording_watch(true);
    let mut watched = Solver::new(8).with_watch(16, watch);
    watched.move_values(&g, &mut values).unwrap();
    assert_eq!(values, plain);
    let expected: Vec<u64> = (1..=watched.nodes() / 16).map(|k| 16 * k).collect();
    assert!(
        expected.len() >= 2,
        "a position of a few nodes tests nothing"
    );
    assert_eq!(*calls.lock().unwrap(), expected);
    // A watch that says stop at its first report ends the solve there, as an error (the
    // count goes on over the calls that return at once as the search unwinds).
    let (calls, watch) = recording_watch(false);
    let result = Solver::new(8)
        .with_watch(16, watch)
        .move_values(&g, &mut values);
    assert!(
        matches!(result, Err(super::SolveError::Stopped(_))),
        "{result:?}"
    );
    assert_eq!(*calls.lock().unwrap(), [16]);
    // With a node limit as well, whichever comes first: two reports, then the limit.
    let (calls, watch) = recording_watch(true);
    let mut limited = Solver::new(8).with_node_limit(40).with_watch(16, watch);
    let result = limited.move_values(&g, &mut values);
    assert!(
        matches!(result, Err(super::SolveError::NodeLimit(_))),
        "{result:?}"
    );
    assert_eq!(*calls.lock().unwrap(), [16, 32]);
}

#[test]
fn a_stop_cuts_a_long_endgame_solve_short_and_leaves_the_solver_as_new() {
    // 32 cards of Sueca left: each deal takes far more than the 4,096 nodes between the
    // solver's looks at the budget. With the stop already raised, the first look ends the
    // first deal, none is counted, and the tree decides (`None`); before the solver looked,
    // the deals between two looks of the decision's loop took seconds each.
    let c = config::<Sueca>("sueca");
    let mut rng = rng_from_seed(47);
    let g: Sueca = position(&c, 32, 32, &mut rng);
    let view = View::new(&g, g.current_seat());
    let sampler = view.deal_sampler().unwrap();
    let cfg = EndgameConfig {
        cards: Cards::UpTo(40),
        ..EndgameConfig::default()
    };
    let stop = crate::search::StopSignal::new();
    stop.raise();
    let stopped = Budget::iterations(1).with_stop(stop);
    let mut solver = Some(Solver::new(12));
    let legal = view.legal_moves();
    let d = hybrid::decide(&cfg, &mut solver, &sampler, &legal, &stopped, &mut rng);
    assert!(d.is_none(), "a deal was counted after the stop");
    // The same solver then decides an endgame exactly as a new one does.
    let g: Sueca = position(&c, 10, 12, &mut rng);
    let view = View::new(&g, g.current_seat());
    let (sampler, legal) = (view.deal_sampler().unwrap(), view.legal_moves());
    let seed = 48;
    let decide = |solver: &mut Option<Solver>| {
        let d = hybrid::decide(
            &cfg,
            solver,
            &sampler,
            &legal,
            &Budget::iterations(1),
            &mut rng_from_seed(seed),
        )
        .expect("in the endgame");
        (d.mv, d.children)
    };
    assert_eq!(decide(&mut solver), decide(&mut Some(Solver::new(12))));
}

#[test]
fn outside_the_endgame_the_hybrid_leaves_the_decision_to_the_tree() {
    let mut rng = rng_from_seed(46);
    let g = Sueca::new_game(&config::<Sueca>("sueca"), &mut rng);
    let view = View::new(&g, g.current_seat());
    let cfg = EndgameConfig {
        cards: Cards::Thesis,
        ..EndgameConfig::default()
    };
    let sampler = view.deal_sampler().unwrap();
    let mut solver = None;
    let d = hybrid::decide(
        &cfg,
        &mut solver,
        &sampler,
        &view.legal_moves(),
        &Budget::iterations(1),
        &mut rng,
    );
    assert!(d.is_none());
    assert!(solver.is_none(), "no table is made before the endgame");
}

#[test]
fn endgame_agents_play_whole_games_and_reject_games_without_a_solver() {
    use crate::agents;
    fn play<G: GameDef>(game: &str, spec: &str) {
        let config = config::<G>(game);
        let mut agent = agents::build::<G>(&spec.parse().unwrap()).unwrap();
        let mut rng = rng_from_seed(47);
        let mut g = G::new_game(&config, &mut rng);
        while !g.is_terminal() {
            let seat = g.current_seat();
            let d = agent
                .choose(View::new(&g, seat), Budget::iterations(200), &mut rng)
                .unwrap();
            assert!(g.legal_moves().contains(d.mv));
            g.play(d.mv);
        }
    }
    play::<Sueca>("sueca", "ismcts:endgame=thesis,endgame_pick=vote");
    play::<Hearts>("hearts", "pimc:endgame=10,dets=4");
    play::<Bisca>("bisca", "ismcts:endgame=thesis,leaf_solve=6");
    play::<Tricks>("tricks", "uct:endgame=6");
    play::<Sueca>("sueca", "ismcts:leaf_solve=8");
    let e = agents::build::<crate::games::CoinGuess>(&"ismcts:endgame=4".parse().unwrap()).err();
    assert!(e.unwrap().0.contains("exact solver"));
    let e = agents::build::<Tricks>(&"ismcts:endgame=thesis".parse().unwrap()).err();
    assert!(e.unwrap().0.contains("thesis"));
}

#[test]
fn a_solved_leaf_ends_the_game_with_its_exact_value() {
    // Two-sided games: the leaf's playout is an optimal line, so it ends with the exact value
    // for either side; above the threshold it is the game's random playout.
    let c = config::<Sueca>("sueca");
    let mut rng = rng_from_seed(48);
    for _ in 0..50 {
        let g: Sueca = position(&c, 6, 10, &mut rng);
        let mut leaf = LeafSolved {
            state: g,
            below: 10,
            root: 0,
        };
        leaf.random_playout(&mut rng);
        assert!(leaf.is_terminal());
        assert_eq!(leaf.state.final_value(0), reference::minimax(&g, 0));
        let mut random = LeafSolved {
            state: g,
            below: 3,
            root: 0,
        };
        let (mut r1, mut r2) = (rng_from_seed(1), rng_from_seed(1));
        random.random_playout(&mut r1);
        if g.cards_left() > 3 {
            let mut plain = g;
            plain.random_playout(&mut r2);
            assert_eq!(random.state, plain);
        }
    }
}
