//! Pentago-Swap agents on positions whose right answer is worked out here by playing every
//! move: a win in one, a loss in one that only one move prevents, a win in three; in every
//! parallel mode. Also: the search agents degrade to plain UCT (no cheating label), the
//! student's player follows its report, tree reuse, and the engine shows the board.

use cardsearch::agents::{self, Agent, Decision};
use cardsearch::game::{Game, MoveSet, rng_from_seed};
use cardsearch::games::GameDef;
use cardsearch::games::pentago::{Pentago, PentagoMove};
use cardsearch::protocol::Engine;
use cardsearch::{Budget, Spec, View};

fn agent(spec: &str) -> Box<dyn Agent<Pentago>> {
    agents::build::<Pentago>(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn position(text: &str) -> Pentago {
    Pentago::from_deal(&(), text).unwrap()
}

fn decide(
    a: &mut dyn Agent<Pentago>,
    p: &Pentago,
    budget: Budget,
    seed: u64,
) -> Decision<PentagoMove> {
    a.choose(
        View::new(p, p.current_seat(), &[]),
        budget,
        &mut rng_from_seed(seed),
    )
    .unwrap()
}

/// The result of `mv` for the side that played it, if it ends the game: 1, 0.5 or 0.
fn ends(p: &Pentago, mv: PentagoMove) -> Option<f64> {
    let mut q = *p;
    q.play(mv);
    q.is_terminal().then(|| q.reward(p.current_seat()))
}

/// Moves that win at once.
fn wins_in_one(p: &Pentago) -> Vec<PentagoMove> {
    p.legal_moves()
        .iter()
        .filter(|&m| ends(p, m) == Some(1.0))
        .collect()
}

/// Moves after which the opponent has no win at once (and that do not lose at once).
fn not_losing_in_one(p: &Pentago) -> Vec<PentagoMove> {
    p.legal_moves()
        .iter()
        .filter(|&m| match ends(p, m) {
            Some(r) => r >= 0.5,
            None => {
                let mut q = *p;
                q.play(m);
                wins_in_one(&q).is_empty()
            }
        })
        .collect()
}

/// Moves after which every reply leaves a win at once (no win at once now).
fn wins_in_three(p: &Pentago) -> Vec<PentagoMove> {
    p.legal_moves()
        .iter()
        .filter(|&m| {
            if ends(p, m).is_some() {
                return false;
            }
            let mut q = *p;
            q.play(m);
            q.legal_moves().iter().all(|r| match ends(&q, r) {
                Some(v) => v == 0.0,
                None => {
                    let mut t = q;
                    t.play(r);
                    !wins_in_one(&t).is_empty()
                }
            })
        })
        .collect()
}

/// Positions from seeded random games (positions, in the engine's notation).
const WIN_IN_ONE: &[&str] = &[
    "BB.W../...B../B..B.W/W.BW.W/.B.W../BW.W.. W",
    "..BB.B/..W..W/.W.BWW/WBB.BW/.WBW.W/W...BB B",
    ".BBBBW/B...WW/.WB.../W...../..WW../B....W B",
    ".....B/BWB.B./BW..../BWWWW./...W../.BWWBB W",
];
const ONE_SAVING_MOVE: &[&str] = &[
    "BWWW../.B.B../.B..WB/WW..W./BWBB.B/B..WWW B",
    "W.B.../W..W../B..WB./BBW.W./..WBBW/.B...W B",
    ".W...W/.B.WW./WBW.../B..BB./B..BW./BW.... W",
    "W.BW.B/...B.W/....WB/W..W.B/.B...W/.W...B B",
];
const WIN_IN_THREE: &[&str] = &[
    ".B.B.W/BW...W/.W.B.B/....BW/W...../WB.W.. B",
    ".....W/....W./W.B.../W..BW./....B./W.BBB. W",
    "...W../.BW..W/WB.W.W/..B.W./BB...B/...WBB W",
    "..B.B./WB..BB/W...WB/WW...B/.WW.../.B..W. W",
];

/// Every parallel mode, with more threads than the machine may have cores in some.
const MODES: &[&str] = &[
    "parallel=sequential",
    "parallel=root,threads=2",
    "parallel=tree,threads=2",
    "parallel=tree,threads=3,virtual_loss=0",
    "parallel=tree-locked,threads=2",
    "parallel=leaf,threads=3",
];

/// Asserts that `spec` picks a move of `right(p)` in every position, for `seeds` seeds each.
fn always_right(
    spec: &str,
    positions: &[&str],
    right: fn(&Pentago) -> Vec<PentagoMove>,
    iterations: u64,
    seeds: u64,
) {
    let mut a = agent(spec);
    for text in positions {
        let p = position(text);
        let want = right(&p);
        assert!(
            !want.is_empty() && want.len() * 4 < p.legal_moves().len(),
            "{text}: {want:?}"
        );
        for seed in 0..seeds {
            let d = decide(a.as_mut(), &p, Budget::iterations(iterations), seed);
            assert!(
                want.contains(&d.mv),
                "{spec} seed {seed} on {text}: {} not in {want:?}",
                d.mv
            );
        }
    }
}

#[test]
fn every_mode_takes_a_win_in_one() {
    for mode in MODES {
        // The strong player plays it without searching; plain UCT must find it by search.
        always_right(
            &format!("pentago-strong:{mode}"),
            WIN_IN_ONE,
            wins_in_one,
            3000,
            3,
        );
        always_right(&format!("uct:{mode}"), WIN_IN_ONE, wins_in_one, 3000, 3);
    }
}

#[test]
fn every_mode_stops_a_loss_in_one_that_only_one_move_prevents() {
    for text in ONE_SAVING_MOVE {
        let p = position(text);
        assert!(wins_in_one(&p).is_empty());
        assert_eq!(not_losing_in_one(&p).len(), 1, "{text}");
    }
    for mode in MODES {
        always_right(
            &format!("pentago-strong:{mode}"),
            ONE_SAVING_MOVE,
            not_losing_in_one,
            3000,
            3,
        );
    }
}

#[test]
fn every_mode_of_the_strong_search_finds_a_win_in_three() {
    // `solve=0,lookahead=1`: the root's proofs stay out, so the tree must find it.
    for text in WIN_IN_THREE {
        assert!(wins_in_one(&position(text)).is_empty());
    }
    for mode in MODES {
        always_right(
            &format!("pentago-strong:solve=0,{mode}"),
            WIN_IN_THREE,
            wins_in_three,
            4000,
            2,
        );
    }
}

#[test]
fn the_student_takes_a_win_and_stops_a_loss_in_one() {
    always_right(
        "pentago-student:iterations=2000",
        WIN_IN_ONE,
        wins_in_one,
        1,
        3,
    );
    always_right(
        "pentago-student:iterations=2000",
        ONE_SAVING_MOVE,
        not_losing_in_one,
        1,
        3,
    );
}

#[test]
fn the_student_opens_as_its_report_says() {
    let mut a = agent("pentago-student:iterations=100");
    let empty = Pentago::new();
    let d = decide(a.as_mut(), &empty, Budget::iterations(1), 0);
    assert_eq!((d.mv.to_string(), d.iterations), ("1,1:13".to_string(), 0));
    // As second player: the first free quadrant centre. `1,1:01` lands on (1,4) and `1,1:03`
    // on (4,4): the first centre, (1,1), stays free every time.
    for first in ["4,4:01", "1,1:01", "1,1:03"] {
        let mut p = empty;
        p.play(first.parse().unwrap());
        let d = decide(a.as_mut(), &p, Budget::iterations(1), 0);
        assert_eq!(d.mv.to_string(), "1,1:01", "after {first}");
    }
    // Its own budget: 1500 ms unless its spec says otherwise.
    assert!(agent("pentago-student").spec().contains("time_ms=1500"));
    assert!(
        !agent("pentago-student:iterations=5")
            .spec()
            .contains("time_ms")
    );
}

#[test]
fn search_agents_are_plain_uct_here_and_not_cheating() {
    let mut rng = rng_from_seed(2);
    let mut p = Pentago::new();
    for _ in 0..7 {
        p.play(p.legal_moves().random(&mut rng));
    }
    let runs: Vec<Decision<PentagoMove>> = ["uct", "ismcts", "pimc", "mo-ismcts"]
        .iter()
        .map(|s| {
            let mut a = agent(s);
            assert!(!a.is_cheating(), "{s}");
            decide(a.as_mut(), &p, Budget::iterations(2000), 9)
        })
        .collect();
    // One world: the same search, move for move.
    assert_eq!(runs[0].children, runs[1].children);
    assert_eq!(runs[0].children, runs[2].children);
    assert_eq!(runs[0].children, runs[3].children);
    for spec in ["pentago-student", "pentago-strong"] {
        assert!(!agent(spec).is_cheating());
        let err = agents::build::<cardsearch::games::Tricks>(&spec.parse().unwrap())
            .err()
            .unwrap();
        assert!(err.0.contains("plays only pentago-swap"), "{err}");
    }
}

/// True when the strong player must search `p`: no win at once and more than one move that
/// does not hand over a win at once.
fn needs_search(p: &Pentago) -> bool {
    !p.is_terminal() && wins_in_one(p).is_empty() && not_losing_in_one(p).len() > 1
}

#[test]
fn the_strong_player_is_reproducible_and_reuses_its_tree() {
    // A late position (few moves, so the chosen move's replies are all in the tree).
    let mut rng = rng_from_seed(4);
    let p = loop {
        let mut p = Pentago::new();
        while !p.is_terminal() && p.empty().count_ones() > 12 {
            p.play(p.legal_moves().random(&mut rng));
        }
        if needs_search(&p) {
            break p;
        }
    };
    let spec = "pentago-strong:iterations=3000,solve=0";
    let first = decide(agent(spec).as_mut(), &p, Budget::iterations(1), 1);
    let again = decide(agent(spec).as_mut(), &p, Budget::iterations(1), 1);
    assert_eq!(first.mv, again.mv);
    assert_eq!(first.children, again.children);
    assert_eq!(first.iterations, 3000);
    let sum = |d: &Decision<PentagoMove>| d.children.iter().map(|c| c.visits).sum::<u64>();
    assert_eq!(sum(&first), 3000);
    // Two plies later the next search starts from the subtree of the position reached.
    let mut a = agent(spec);
    let d = decide(a.as_mut(), &p, Budget::iterations(1), 1);
    let mut after = p;
    after.play(d.mv);
    let q = after
        .legal_moves()
        .iter()
        .map(|r| {
            let mut q = after;
            q.play(r);
            q
        })
        .find(needs_search)
        .expect("a reply that leaves a real choice");
    // Its tree is open to inspection (`cardsearch replay --dump-tree`).
    assert!(a.search_trees().is_some_and(|t| t[0].len() > 1000));
    let kept = decide(a.as_mut(), &q, Budget::iterations(1), 2);
    let fresh = decide(
        agent(&format!("{spec},reuse=false")).as_mut(),
        &q,
        Budget::iterations(1),
        2,
    );
    assert_eq!((kept.iterations, fresh.iterations), (3000, 3000));
    assert_eq!(sum(&fresh), 3000);
    assert!(
        sum(&kept) > 3000,
        "the kept subtree's visits count too: {}",
        sum(&kept)
    );
}

/// `spec`'s decision on `p` under `budget`, on a thread of its own, watched: a decision that
/// has not ended after a minute fails the test (never a wall-clock figure: that a decision
/// ends is what is checked, and the minute is far beyond every budget given here).
fn watched_decision(spec: &str, p: Pentago, budget: Budget) -> Decision<PentagoMove> {
    let (tx, rx) = std::sync::mpsc::channel();
    let spec = spec.to_string();
    std::thread::spawn(move || {
        let _ = tx.send(decide(agent(&spec).as_mut(), &p, budget, 1));
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("no decision after a minute"))
}

#[test]
fn the_strong_players_largest_settings_end_with_a_time_budget_or_a_stop() {
    use cardsearch::search::StopSignal;
    // A position twelve plies in, where the lookahead proofs have work to do.
    let mut rng = rng_from_seed(11);
    let middle = loop {
        let mut p = Pentago::new();
        while !p.is_terminal() && p.empty().count_ones() > 24 {
            p.play(p.legal_moves().random(&mut rng));
        }
        if needs_search(&p) {
            break p;
        }
    };
    // Every root proof allowed a billion nodes (minutes each), an endgame solve from the
    // empty board, and the most redraws a playout may make.
    let huge = "pentago-strong:solve=36,solve_nodes=1000000000,lookahead=7,retries=1000";
    for p in [Pentago::new(), middle] {
        // The spec's own time budget, then the caller's.
        watched_decision(&format!("{huge},time_ms=50"), p, Budget::iterations(1));
        watched_decision(huge, p, Budget::millis(50));
        // An iteration budget that would take hours, ended by a stop a little later.
        let stop = StopSignal::new();
        let raiser = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                stop.raise();
            })
        };
        watched_decision(huge, p, Budget::iterations(1_000_000_000).with_stop(stop));
        raiser.join().unwrap();
    }
    // The most redraws in the search's own playouts (no proofs): the search runs its
    // iterations and ends.
    let d = watched_decision(
        "pentago-strong:retries=1000,lookahead=1,iterations=2000",
        middle,
        Budget::iterations(1),
    );
    assert_eq!(d.iterations, 2000);
}

#[test]
fn the_engine_draws_the_board_and_takes_a_position_as_a_view() {
    let mut e = Engine::new();
    let reply = |e: &mut Engine, line: &str| -> serde_json::Value {
        serde_json::from_str(&e.handle(line).line).unwrap()
    };
    let r = reply(&mut e, r#"{"cmd":"new","game":"pentago-swap","seed":1}"#);
    assert_eq!(r["deal"], "....../....../....../....../....../...... W");
    reply(&mut e, r#"{"cmd":"play","move":"1,1:13"}"#);
    let s = reply(&mut e, r#"{"cmd":"state"}"#);
    let board = s["board"].as_str().unwrap();
    assert!(
        board.contains(" 1  . W . | . . .") && board.ends_with("Black to move"),
        "{board}"
    );
    assert_eq!(s["legal"].as_array().unwrap().len(), 210);
    // Nothing is hidden: a view is the position itself, and every agent may search it.
    let r = reply(
        &mut e,
        r#"{"cmd":"new","game":"pentago-swap","view":{"seat":1,"deal":"....../.W..../....../....../....../......"}}"#,
    );
    assert_eq!(r["to_move"], 1, "{r}");
    let g = reply(
        &mut e,
        r#"{"cmd":"go","agent":"pentago-strong","iterations":300,"seed":1}"#,
    );
    assert!(g["move"].is_string(), "{g}");
    // `uct` too: it reads no hidden card here, so a view is enough for it.
    for spec in ["uct", "pimc", "pentago-student:iterations=300"] {
        let g = reply(
            &mut e,
            &format!(r#"{{"cmd":"go","agent":"{spec}","iterations":300,"seed":1}}"#),
        );
        assert!(g["move"].is_string(), "{spec}: {g}");
    }
    let bad = reply(&mut e, r#"{"cmd":"play","move":"9,9:01"}"#);
    assert!(bad["error"].as_str().unwrap().contains("row"), "{bad}");
    // As in every view, only the viewing seat's moves are listed and searched; the refusal
    // says so, and not that the other seat's moves hang on cards, which this game has none of.
    reply(
        &mut e,
        r#"{"cmd":"new","game":"pentago-swap","view":{"seat":0,"deal":"....../.W..../....../....../....../......"}}"#,
    );
    for line in [r#"{"cmd":"legal"}"#, r#"{"cmd":"go"}"#] {
        let r = reply(&mut e, line);
        let error = r["error"].as_str().unwrap_or_else(|| panic!("{line}: {r}"));
        assert!(
            error.contains("only seat 0's moves") && !error.contains("card"),
            "{line}: {error}"
        );
    }
}
