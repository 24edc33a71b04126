//! The turn-planning agents (`osla`, `turn-mcts`, `oe`, `ntboe`) on ASMACAG: they find the best
//! turn where greed does not, play a plan out over the actions of the turn and plan again when
//! the state is not what they planned, split budgets over threads, and read their specs back.

use cardsearch::agents::{self, Agent};
use cardsearch::game::rng_from_seed;
use cardsearch::games::asmacag::{Action, Asmacag, AsmacagConfig, Pile};
use cardsearch::{Budget, Game, MoveSet, Spec, View};

/// A deal of the default deck with the given hands and board (the rest unused).
fn deal(hand0: &str, hand1: &str, board: &str) -> Asmacag {
    let config = AsmacagConfig::default();
    let piles: Vec<Pile> = [hand0, hand1, board]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let unused = config.deck.minus(piles[0]).minus(piles[1]).minus(piles[2]);
    Asmacag::from_piles(&config, [piles[0], piles[1]], piles[2], unused).unwrap()
}

/// Seat 0's best turn is ×2 ×2 6>1 (5 × 4 = 20 points); a greedy player takes 6>1 first (5).
fn doubling_position() -> Asmacag {
    deal(
        "x2 x2 6 1 1 2 2 3 3",
        "4 4 4 5 5 5 /2 /2 /2",
        "1 1 5 5 5 5 4 4 4 4 3 3 3 3 2 2 2 2 6 6",
    )
}

/// Seat 0 holds high cards and one ×2 facing low board cards: the best turns (15 points) play
/// the ×2 before the second 6; greed plays it last, or never (14).
fn high_cards_position() -> Asmacag {
    deal(
        "x2 6 6 5 5 5 4 4 4",
        "6 6 6 5 5 5 /2 /2 /2",
        "1 1 1 1 2 2 2 2 2 2 3 3 3 3 3 3 4 4 4 4",
    )
}

fn agent(spec: &str) -> Box<dyn Agent<Asmacag>> {
    agents::build::<Asmacag>(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn act(text: &str) -> Action {
    text.parse().unwrap()
}

/// The best score difference any line of the mover's turn reaches, by trying them all.
fn best_turn(state: &Asmacag, seat: usize) -> f64 {
    if state.is_terminal() || state.current_seat() != seat {
        return state.heuristic(seat);
    }
    let mut best = f64::NEG_INFINITY;
    state.legal_moves().for_each(|mv| {
        let mut next = *state;
        next.play(mv);
        best = best.max(best_turn(&next, seat));
    });
    best
}

/// Plays seat 0's turn with `agent`, one action per call; returns the actions and the
/// evaluations each call reported.
fn play_turn(
    agent: &mut dyn Agent<Asmacag>,
    state: &mut Asmacag,
    budget: u64,
    seed: u64,
) -> Vec<(Action, u64)> {
    let mut rng = rng_from_seed(seed);
    let mut out = Vec::new();
    while state.current_seat() == 0 && !state.is_terminal() {
        let d = agent
            .choose(
                View::new(state, 0, &[]),
                Budget::iterations(budget),
                &mut rng,
            )
            .unwrap();
        assert!(state.legal_moves().contains(d.mv), "{} is illegal", d.mv);
        state.play(d.mv);
        out.push((d.mv, d.iterations));
    }
    out
}

#[test]
fn the_planners_find_the_best_turn_where_greed_does_not() {
    let doubling = doubling_position();
    let high = high_cards_position();
    assert_eq!(best_turn(&doubling, 0), 20.0);
    assert_eq!(best_turn(&high, 0), 15.0);
    // The paper's settings do not find ×2 ×2 6>1 in the doubling position for two of them,
    // as the paper's ranking suggests. Turn-level MCTS backs up means: with c = 8 the ×2
    // subtree, whose random continuations mostly lose points, is abandoned before its best
    // line is found (even at c = 20 and 50,000 iterations the path of best means is ×2 6>1
    // 3>1). Online Evolution with 125 genomes often converges on ×2 6>1 3>1 (12 points), from
    // which no single-action mutation improves (×2 ×2 3>1 is 8); a larger, more mutated
    // population finds the best line. Root-parallel runs get twice the budget, so that each
    // of their two searches has the sequential one's: at 1,500 each NTBOE missed the line for
    // one of the three seeds once the determinizations' random stream changed (session 54).
    for (start, spec, budget) in [
        (doubling, "ntboe", 3000),
        (doubling, "ntboe:parallel=root,threads=2", 6000),
        (doubling, "oe:pop=400,mutation=0.5", 10_000),
        (
            doubling,
            "oe:pop=400,mutation=0.5,parallel=root,threads=2",
            20_000,
        ),
        (high, "ntboe", 3000),
        (high, "oe", 3000),
        (high, "turn-mcts", 10_000),
        (high, "turn-mcts:parallel=root,threads=2", 10_000),
    ] {
        for seed in 0..3 {
            let mut state = start;
            let turn = play_turn(agent(spec).as_mut(), &mut state, budget, seed);
            assert_eq!(
                state.score(0),
                best_turn(&start, 0),
                "{spec} seed {seed}: {turn:?}"
            );
            // Planned once, at the first action, with the whole budget; then played out.
            let evals: Vec<u64> = turn.iter().map(|t| t.1).collect();
            assert_eq!(evals, [budget, 0, 0], "{spec} seed {seed}");
        }
    }
    for (start, spec) in [(doubling, "osla"), (doubling, "turn-mcts"), (high, "osla")] {
        let mut state = start;
        let turn = play_turn(agent(spec).as_mut(), &mut state, 10_000, 0);
        assert!(state.score(0) < best_turn(&start, 0), "{spec}: {turn:?}");
    }
}

#[test]
fn osla_breaks_ties_towards_the_last_best_action_like_the_reference() {
    // Every number play loses points; ×2 and ÷2 both keep the difference at 0: the reference's
    // `>=` keeps the last of them, ÷2.
    let state = deal(
        "x2 /2 1 1 1 1 1 x2 /2",
        "3 3 4 4 5 5 6 6 6",
        "2 2 2 2 2 2 3 3 3 3 3 3 4 4 4 4 5 5 5 5",
    );
    let d = agent("osla")
        .choose(
            View::new(&state, 0, &[]),
            Budget::iterations(1),
            &mut rng_from_seed(1),
        )
        .unwrap();
    assert_eq!(d.mv, Action::HALVE);
    assert_eq!(
        d.iterations, 6,
        "x2, /2, and the 1 on each of the four board kinds"
    );
}

#[test]
fn a_plan_is_dropped_when_the_state_is_not_what_was_planned() {
    let mut state = doubling_position();
    let mut oe = agent("oe:iterations=2000");
    let mut rng = rng_from_seed(4);
    let first = oe
        .choose(View::new(&state, 0, &[]), Budget::iterations(1), &mut rng)
        .unwrap();
    assert_eq!((first.mv, first.iterations), (act("x2"), 2000));
    // Someone else decides this action: 1 on 1 instead of the planned second ×2.
    state.play(first.mv);
    state.play(act("1>1"));
    let again = oe
        .choose(View::new(&state, 0, &[]), Budget::iterations(1), &mut rng)
        .unwrap();
    assert_eq!(
        again.iterations, 2000,
        "a new plan from what the seat now knows"
    );
    // The 1 on 1 spent the ×2; with one action left the best is the 6 on the other 1.
    assert_eq!(again.mv, act("6>1"));
    // A fresh game: the agent must not carry a plan over from another state.
    let mut other = doubling_position();
    let d = oe
        .choose(View::new(&other, 0, &[]), Budget::iterations(1), &mut rng)
        .unwrap();
    assert_eq!(d.iterations, 2000);
    other.play(d.mv);
}

#[test]
fn specs_read_back_and_bad_options_are_errors() {
    for spec in [
        "osla",
        "turn-mcts:c=3,max_nodes=5000,iterations=100",
        "oe:pop=50,mutation=0.3,survival=0.2,time_ms=20,parallel=root,threads=2",
        "ntboe:c=4,neighbours=7,mutation=0.25,inits=200",
    ] {
        let written = agent(spec).spec();
        assert_eq!(agent(&written).spec(), written, "{spec}");
        assert!(written.starts_with(spec.split(':').next().unwrap()));
    }
    for (spec, needle) in [
        ("oe:pop=1", "pop=1"),
        ("oe:survival=2", "survival=2"),
        ("ntboe:inits=0", "inits"),
        ("ntboe:neighbours=0", "neighbours=0"),
        ("turn-mcts:c=-1", "c=-1"),
        ("turn-mcts:max_nodes=1", "max_nodes=1"),
        (
            "turn-mcts:max_nodes=268435457",
            "max_nodes=268435457 must be 2 to 268435456",
        ),
        ("oe:threads=2", "parallel=root"),
        ("osla:iterations=5", "unknown option iterations"),
        ("oe:parallel=tree", "parallel=tree"),
        ("ntboe:iterations=0", "iterations=0 must be from 1"),
        ("oe:colour=red", "unknown option colour"),
    ] {
        let e = agents::build::<Asmacag>(&spec.parse::<Spec>().unwrap())
            .err()
            .unwrap_or_else(|| panic!("{spec} built"))
            .0;
        assert!(e.contains(needle), "{spec}: {e}");
    }
}

#[test]
fn the_planners_play_whole_games_of_every_registered_game() {
    use cardsearch::games::{self, GameDef, GameVisitor};
    struct Play;
    impl GameVisitor for Play {
        type Output = ();
        fn visit<G: GameDef>(self, config: G::Config) {
            for spec in ["osla", "turn-mcts", "oe:pop=10", "ntboe:inits=20"] {
                let mut rng = rng_from_seed(2);
                let mut state = G::new_game(&config, &mut rng);
                let mut seats: Vec<Box<dyn Agent<G>>> = (0..state.num_seats())
                    .map(|_| agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap())
                    .collect();
                while !state.is_terminal() {
                    let seat = state.current_seat();
                    let d = seats[seat]
                        .choose(
                            View::new(&state, seat, &[]),
                            Budget::iterations(50),
                            &mut rng,
                        )
                        .unwrap();
                    assert!(state.legal_moves().contains(d.mv), "{} {spec}", G::NAME);
                    state.play(d.mv);
                }
            }
        }
    }
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), Play).unwrap();
    }
}

#[test]
fn a_raised_stop_signal_ends_every_planner_at_once() {
    use cardsearch::search::StopSignal;
    use std::time::Duration;
    // A planner that ignores the signal would search for a day: fail instead of hanging (the
    // watchdog is disarmed when the test ends, failed or not).
    let _watchdog =
        crate::process::Watchdog::arm(Duration::from_secs(120), "a stopped turn planner");
    let state = high_cards_position();
    for spec in [
        "turn-mcts",
        "turn-mcts:parallel=root,threads=2",
        "oe",
        "oe:parallel=root,threads=2",
        "ntboe",
        "ntboe:parallel=root,threads=2",
    ] {
        let mut a = agent(spec);
        let mut rng = rng_from_seed(5);
        // Raised before the search: nothing is evaluated (the clock is read at the first
        // check), and the move is still a legal one.
        let stop = StopSignal::new();
        stop.raise();
        let day = Budget::millis(86_400_000).with_stop(stop);
        let d = a.choose(View::new(&state, 0, &[]), day, &mut rng).unwrap();
        assert_eq!(d.iterations, 0, "{spec}");
        assert!(state.legal_moves().contains(d.mv), "{spec}");
        // Raised mid-search from another thread: the search ends with what it has.
        let stop = StopSignal::new();
        let raiser = stop.clone();
        let handle = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            raiser.raise();
        });
        let mut a = agent(spec);
        let day = Budget::millis(86_400_000).with_stop(stop);
        let d = a.choose(View::new(&state, 0, &[]), day, &mut rng).unwrap();
        assert!(state.legal_moves().contains(d.mv), "{spec}");
        handle.join().unwrap();
    }
}
