//! Logs read back: merging the logs of a sharded match gives the unsharded report, and a logged
//! game replays to its logged result.

use std::path::{Path, PathBuf};

use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::harness::log::{merge_records, read_log};
use cardsearch::harness::runner::{GameRecord, JsonlWriter, MatchObserver};
use cardsearch::harness::{MatchConfig, MatchReport, run_match};
use cardsearch::search::Budget;
use cardsearch::spec::Spec;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Collects the log of a match into a file, like `match --out`.
struct ToFile(JsonlWriter<std::fs::File>);
impl MatchObserver for ToFile {
    fn game_finished(&mut self, record: &GameRecord, _: &MatchReport, _: u64, _: u64) {
        self.0.write(record).unwrap();
    }
}

struct Run<'a> {
    cfg: &'a MatchConfig,
    out: &'a Path,
}
impl GameVisitor for Run<'_> {
    type Output = MatchReport;
    fn visit<G: GameDef>(self, config: G::Config) -> MatchReport {
        let file = std::fs::File::create(self.out).unwrap();
        run_match::<G>(self.cfg, &config, &mut ToFile(JsonlWriter(file))).unwrap()
    }
}

fn config(game: &str, a: &str, b: &str, deals: u64, shard: Option<(u64, u64)>) -> MatchConfig {
    MatchConfig {
        game: game.parse().unwrap(),
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        deals,
        seed: 7,
        budget: Budget::iterations(50),
        jobs: 2,
        lineup: Default::default(),
        shard,
        sprt: None,
        stop: None,
    }
}

fn run(cfg: &MatchConfig, out: &Path) -> MatchReport {
    let spec: Spec = cfg.game.to_string().parse().unwrap();
    games::dispatch(&spec, Run { cfg, out }).unwrap()
}

/// Time is the one thing two runs of the same games do not share.
fn without_time(mut r: MatchReport) -> MatchReport {
    r.a.micros = 0;
    r.b.micros = 0;
    r
}

fn check_shards_merge_to_the_whole(game: &str, a: &str, b: &str, deals: u64, name: &str) {
    let dir = scratch(name);
    let whole_log = dir.join("whole.jsonl");
    let whole = run(&config(game, a, b, deals, None), &whole_log);
    assert_eq!(whole.tally.deals, deals);

    // Merging the unsharded run's own log reproduces its report exactly, time included.
    let merged = merge_records(&read_log(&whole_log).unwrap()).unwrap();
    assert_eq!(merged.report, whole);
    assert!(merged.incomplete.is_empty() && merged.missing.is_empty());

    // Shards given in a scrambled order merge to the same games, hence the same statistics.
    let mut records = Vec::new();
    for i in [2, 0, 1] {
        let log = dir.join(format!("shard{i}.jsonl"));
        let part = run(&config(game, a, b, deals, Some((i, 3))), &log);
        assert!(part.tally.deals < deals);
        records.extend(read_log(&log).unwrap());
    }
    let merged = merge_records(&records).unwrap();
    assert_eq!(without_time(merged.report), without_time(whole.clone()));

    // A missing shard shows up as missing deals, and a match with other settings is refused.
    let some: Vec<_> = records
        .iter()
        .filter(|l| l.record.deal_index % 3 != 1)
        .cloned()
        .collect();
    let merged = merge_records(&some).unwrap();
    assert_eq!(
        merged.missing,
        (0..deals - 1)
            .filter(|d| d % 3 == 1)
            .map(|d| d..d + 1)
            .collect::<Vec<_>>()
    );
    let mut other = records.clone();
    other[3].record.seed += 1;
    let err = merge_records(&other).unwrap_err();
    assert!(
        err.contains("different match") && err.contains("seed"),
        "{err}"
    );
}

#[test]
fn shards_merge_to_the_unsharded_report_tricks() {
    // Iteration-bounded sequential searches: the same games whichever process plays them.
    check_shards_merge_to_the_whole("tricks", "ismcts", "pimc:dets=4", 13, "merge_tricks");
}

#[test]
fn shards_merge_to_the_unsharded_report_hearts() {
    // Six seatings per deal: checks the seating plan is recovered from the log.
    check_shards_merge_to_the_whole("hearts", "ismcts", "random", 5, "merge_hearts");
}

#[test]
fn an_incomplete_deal_is_left_out_and_a_duplicate_is_an_error() {
    let dir = scratch("merge_incomplete");
    let log = dir.join("whole.jsonl");
    let whole = run(&config("tricks", "random", "random", 4, None), &log);
    let mut records = read_log(&log).unwrap();
    // Drop one seating of deal 2: the deal is reported and the others still fold.
    let dropped = records
        .iter()
        .position(|l| l.record.deal_index == 2)
        .unwrap();
    records.remove(dropped);
    let merged = merge_records(&records).unwrap();
    assert_eq!(merged.incomplete, vec![(2, 1)]);
    assert_eq!(merged.report.tally.deals, 3);
    assert_eq!(merged.report.tally.games, whole.tally.games - 2);
    let dup = records[0].clone();
    records.push(dup);
    let err = merge_records(&records).unwrap_err();
    assert!(err.contains("appears twice"), "{err}");
}

/// `cardsearch ARGS` run to its end with no input, killed (failing the test) if it hangs.
fn cardsearch(args: &[&str]) -> std::process::Output {
    crate::process::output(crate::process::cardsearch().args(args))
}

#[test]
fn merge_command_prints_the_unsharded_report() {
    let dir = scratch("merge_cli");
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let common = [
        "match", "--a", "random", "--b", "random", "--deals", "9", "--seed", "3", "--quiet",
    ];
    let whole = cardsearch(&[&common[..], &["--out", &p("all.jsonl")]].concat());
    assert!(whole.status.success());
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = cardsearch(
            &[
                &common[..],
                &["--shard", &shard, "--out", &p(&format!("s{i}.jsonl"))],
            ]
            .concat(),
        );
        assert!(out.status.success());
    }
    let merged = cardsearch(&[
        "merge",
        &p("s1.jsonl"),
        &p("s0.jsonl"),
        &p("s2.jsonl"),
        "--summary",
        &p("m.json"),
    ]);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    // Random agents spend no iterations, so nothing timed is printed: the text is identical.
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    let summary: MatchReport =
        serde_json::from_str(&std::fs::read_to_string(p("m.json")).unwrap()).unwrap();
    assert_eq!(summary.tally.deals, 9);

    // An agent with its own budget: the merged headline says so, as the match's does (merge
    // once printed the match's unused default budget as if both agents had searched with it).
    let own = cardsearch(&[
        "match",
        "--a",
        "ismcts:iterations=20",
        "--b",
        "random",
        "--deals",
        "2",
        "--quiet",
        "--out",
        &p("own.jsonl"),
    ]);
    assert!(own.status.success());
    let merged = cardsearch(&["merge", &p("own.jsonl")]);
    let headline = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines().next().unwrap_or_default().to_string()
    };
    // (The merged headline names the agents by their full specs, the match's as given.)
    for out in [&own, &merged] {
        assert!(
            headline(out).contains(", B 1000 it per move, A its own budget, seed 0"),
            "{}",
            headline(out)
        );
    }

    // A corrupt line is a one-line error naming the file and line.
    std::fs::write(p("bad.jsonl"), "{\"game\": \"tricks\"\n").unwrap();
    let out = cardsearch(&["merge", &p("s0.jsonl"), &p("bad.jsonl")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("bad.jsonl line 1"), "{err}");
}

#[test]
fn replaying_logged_games_reproduces_their_results() {
    use cardsearch::harness::log::{read_game, replay_record};
    let dir = scratch("replay_lib");
    for (game, deals) in [("tricks", 6), ("hearts", 2), ("coinguess", 4)] {
        let log = dir.join(format!("{game}.jsonl"));
        run(&config(game, "random", "random", deals, None), &log);
        let records = read_log(&log).unwrap();
        for (k, logged) in records.iter().enumerate() {
            let replayed = replay_record(&logged.record).unwrap();
            assert_eq!(replayed.scores, logged.record.scores);
            assert_eq!(replayed.rewards, logged.record.rewards);
            assert_eq!(replayed.plies.len(), logged.record.moves.len());
            assert_eq!(read_game(&log, k).unwrap(), *logged);
        }
        assert!(read_game(&log, records.len()).is_err());
    }

    // Tampering is caught: a changed result, an illegal move, a log cut short.
    let log = dir.join("tricks.jsonl");
    let good = read_game(&log, 0).unwrap().record;
    let mut bad = good.clone();
    bad.scores[0] += 1.0;
    let err = replay_record(&bad).unwrap_err();
    assert!(err.contains("scores"), "{err}");
    let mut bad = good.clone();
    bad.moves.swap(0, 1);
    let err = replay_record(&bad).unwrap_err();
    assert!(err.contains("ply 0") || err.contains("ply 1"), "{err}");
    let mut bad = good.clone();
    bad.moves.pop();
    let err = replay_record(&bad).unwrap_err();
    assert!(err.contains("not over"), "{err}");
    let mut bad = good.clone();
    bad.moves[0].mv = "ZZ".into();
    let err = replay_record(&bad).unwrap_err();
    assert!(err.contains("ZZ"), "{err}");
}

#[test]
fn replay_command_checks_the_result_and_rejects_corrupt_lines() {
    let dir = scratch("replay_cli");
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let m = cardsearch(&[
        "match",
        "--a",
        "random",
        "--b",
        "random",
        "--deals",
        "2",
        "--quiet",
        "--out",
        &p("g.jsonl"),
    ]);
    assert!(m.status.success());
    let out = cardsearch(&["replay", &p("g.jsonl"), "--game", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("equals the logged"), "{stdout}");

    // Line 2 cut in half, as a killed run could leave it; a line that parses but lies.
    let text = std::fs::read_to_string(p("g.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!("{}\n{}\n", lines[0], &lines[1][..lines[1].len() / 2]);
    std::fs::write(p("cut.jsonl"), cut).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    record["scores"][0] = serde_json::json!(99.0);
    std::fs::write(p("lie.jsonl"), record.to_string() + "\n").unwrap();
    // A's score edited: the rewards still give the old one, which replay and merge must use
    // or refuse, never report the edited one as the replayed result.
    let mut record: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    let score = record["score_a"].as_f64().unwrap();
    record["score_a"] = serde_json::json!(if score == 1.0 { 0.0 } else { 1.0 });
    std::fs::write(p("score.jsonl"), record.to_string() + "\n").unwrap();
    for (args, mention) in [
        (
            vec!["replay", &p("cut.jsonl"), "--game", "1"],
            "cut.jsonl line 2",
        ),
        (vec!["replay", &p("lie.jsonl")], "scores"),
        (vec!["replay", &p("score.jsonl")], "score_a"),
        (vec!["merge", &p("score.jsonl")], "score_a"),
        (vec!["replay", &p("g.jsonl"), "--game", "4"], "no game 4"),
    ] {
        let out = cardsearch(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(mention), "{args:?}: {err}");
    }
    // The intact first line of the cut log still replays.
    assert!(cardsearch(&["replay", &p("cut.jsonl")]).status.success());
}

#[test]
fn rerunning_a_decision_reproduces_the_logged_search() {
    use cardsearch::harness::log::rerun_decision;
    let dir = scratch("rerun");
    // Iteration-bounded, then time-bounded: a sequential search's randomness depends only on
    // its iteration count, so re-running for the logged count reproduces either exactly. The
    // third reads each seat's record of the moves (inference) and carries a tree from one
    // decision to the next (reuse): the re-run must give the agent that record too.
    for (name, game, a, budget) in [
        ("iterations", "tricks", "ismcts", Budget::iterations(200)),
        ("time", "tricks", "ismcts", Budget::millis(2)),
        (
            "history",
            "sueca",
            "ismcts:infer=30,reuse=true",
            Budget::iterations(150),
        ),
    ] {
        let mut cfg = config(
            game,
            a,
            "pimc:dets=4",
            if game == "sueca" { 1 } else { 3 },
            None,
        );
        cfg.budget = budget.clone();
        let log = dir.join(format!("{name}.jsonl"));
        run(&cfg, &log);
        let (mut searched, mut reused) = (0, false);
        for logged in read_log(&log).unwrap() {
            let r = &logged.record;
            for (ply, m) in r.moves.iter().enumerate() {
                let again = rerun_decision(r, ply, 2).unwrap();
                assert!(
                    again.diverged.is_empty(),
                    "{name} {}: {:?}",
                    logged.origin,
                    again.diverged
                );
                assert_eq!(again.rerun_move, m.mv);
                assert_eq!(again.iterations, m.iterations);
                assert_eq!(again.seat, m.seat);
                match &again.tree {
                    None => assert_eq!(m.iterations, 0),
                    Some(tree) => {
                        searched += 1;
                        // Every iteration passes through exactly one root, which with tree
                        // reuse holds the kept visits too.
                        let visits: u64 = tree.roots.iter().map(|n| n.visits).sum();
                        let below: u64 = (tree.roots.iter())
                            .flat_map(|r| &r.children)
                            .map(|c| c.visits)
                            .sum();
                        if name == "history" {
                            // Kept visits below a grafted root are counted at the root too.
                            assert!(visits >= below && below >= m.iterations);
                            reused |= below > m.iterations;
                        } else {
                            // Each iteration enters one root child.
                            assert_eq!(visits, m.iterations);
                            assert_eq!(below, m.iterations);
                        }
                        for root in &tree.roots {
                            let below: u64 = root.children.iter().map(|c| c.visits).sum();
                            assert!(below <= root.visits);
                            let best = root.children.first().unwrap();
                            assert!(root.children.iter().all(|c| c.visits <= best.visits));
                        }
                    }
                }
            }
        }
        // How many iterations 2 ms allow depends on the machine, but a search not stopped by
        // its signal completes at least one however late it starts (BudgetClock), so every
        // unforced decision searched, under either budget.
        assert!(searched > 10, "{name}: only {searched} searched decisions");
        assert_eq!(
            reused,
            name == "history",
            "{name}: whether some decision started from a kept subtree"
        );
    }
    // A decision that does not exist is an error, not a panic.
    let r = read_log(&dir.join("iterations.jsonl")).unwrap()[0]
        .record
        .clone();
    assert!(rerun_decision(&r, r.moves.len(), 1).is_err());
}

#[test]
fn rerunning_a_pentago_student_decision_searches_its_logged_count() {
    use cardsearch::harness::log::rerun_decision;
    let dir = scratch("rerun_student");
    // pentago-student searches by a budget of its own (1.5 s a move unless its spec gives
    // one), which used to replace the logged count in a re-run: hundreds of thousands of
    // iterations for a logged 50, and another move. Its spec's budget, an iteration count or
    // a time, is dropped from the re-run's spec like any agent's.
    for a in ["pentago-student:iterations=50", "pentago-student:time_ms=2"] {
        let cfg = config("pentago-swap", a, "random", 1, None);
        let log = dir.join("student.jsonl");
        run(&cfg, &log);
        let mut searched = 0;
        for logged in read_log(&log).unwrap() {
            let r = &logged.record;
            for (ply, m) in r.moves.iter().enumerate() {
                if !r.spec_of(m.seat).starts_with("pentago-student") {
                    continue;
                }
                let again = rerun_decision(r, ply, 1).unwrap();
                assert_eq!(again.iterations, m.iterations, "{a} move {ply}");
                assert_eq!(again.rerun_move, m.mv, "{a} move {ply}");
                assert!(again.diverged.is_empty(), "{a}: {:?}", again.diverged);
                // The spec shown is the one searched: no budget of the agent's own.
                assert_eq!(again.spec, "pentago-student:c=2,max_nodes=2097152");
                searched += usize::from(m.iterations > 0);
            }
        }
        // Under its own time budget of 2 ms, as under the iteration budget, every decision
        // searched: a search completes at least one iteration however late it starts.
        assert!(searched > 10, "{a}: only {searched} searched decisions");
    }
}

#[test]
fn replay_dumps_a_decisions_tree() {
    let dir = scratch("dump_tree");
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let m = cardsearch(&[
        "match",
        "--a",
        "ismcts",
        "--b",
        "pimc:dets=3",
        "--deals",
        "1",
        "--iterations",
        "300",
        "--quiet",
        "--out",
        &p("g.jsonl"),
    ]);
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    // The first move of a game is never forced in Tricks (four cards to lead).
    let out = cardsearch(&[
        "replay",
        &p("g.jsonl"),
        "--game",
        "0",
        "--move",
        "0",
        "--dump-tree",
        &p("t.json"),
        "--depth",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("t.json")).unwrap()).unwrap();
    let root = &tree["roots"][0];
    assert_eq!(root["visits"], 300);
    let child = &root["children"][0];
    assert!(child["move"].is_string() && child["mean"].is_number());
    // Depth 2: the root's grandchildren are written without their children, which are counted.
    let grandchild = &child["children"][0];
    assert!(grandchild["children"].as_array().unwrap().is_empty());
    assert!(grandchild["cut"].as_u64().unwrap() > 0, "{grandchild}");
    let out = cardsearch(&[
        "replay",
        &p("g.jsonl"),
        "--move",
        "0",
        "--dump-tree",
        &p("t.dot"),
    ]);
    assert!(out.status.success());
    assert!(
        std::fs::read_to_string(p("t.dot"))
            .unwrap()
            .starts_with("digraph")
    );
    for (args, mention) in [
        (
            vec!["replay", &p("g.jsonl"), "--dump-tree", &p("t.dot")],
            "--move",
        ),
        (
            vec![
                "replay",
                &p("g.jsonl"),
                "--move",
                "0",
                "--dump-tree",
                &p("t.png"),
            ],
            ".dot or .json",
        ),
        (vec!["replay", &p("g.jsonl"), "--move", "99"], "no move 99"),
    ] {
        let out = cardsearch(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(mention), "{args:?}: {err}");
    }
}

/// Two real records (a Tricks game and an ASMACAG game, `match --out` at 30 iterations).
const RECORDS: [&str; 2] = [
    r#"{"game":"tricks","seed":0,"deal_index":0,"seating_index":0,"seatings_per_deal":2,"seats":["A","B"],"agent_a":"ismcts:c=0.7,playout=random,reward=pwl,max_nodes=auto,parallel=sequential,threads=1","agent_b":"random","budget":"30 it","deal":"KH AH QS AS | QD KD QH KS | JD AD JH JS","agent_seeds":[920862675595841680,5396103473067506702],"moves":[{"seat":0,"mv":"KH","iterations":30,"micros":714,"nodes":90},{"seat":1,"mv":"QH","iterations":0,"micros":6,"nodes":0},{"seat":0,"mv":"AS","iterations":30,"micros":16,"nodes":74},{"seat":1,"mv":"KS","iterations":0,"micros":0,"nodes":0},{"seat":0,"mv":"AH","iterations":30,"micros":10,"nodes":63},{"seat":1,"mv":"KD","iterations":0,"micros":0,"nodes":0},{"seat":0,"mv":"QS","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"QD","iterations":0,"micros":0,"nodes":0}],"rewards":[1.0,0.0],"scores":[4.0,0.0],"units":null,"score_a":1.0}"#,
    r#"{"game":"asmacag","seed":0,"deal_index":0,"seating_index":0,"seatings_per_deal":2,"seats":["A","B"],"agent_a":"ismcts:c=0.7,playout=random,reward=pwl,max_nodes=auto,parallel=sequential,threads=1","agent_b":"random","budget":"30 it","deal":"3 4 4 5 5 x2 x2 /2 /2 | 2 4 4 5 5 6 x2 /2 /2 | 1 1 1 1 2 2 2 2 3 3 3 3 3 4 4 4 4 5 5 6 | 1 2 2 2 3 3 5 5 6 6 6 x2 x2 x2 /2 /2","agent_seeds":[920862675595841680,5396103473067506702],"moves":[{"seat":0,"mv":"4>2","iterations":30,"micros":1181,"nodes":784},{"seat":0,"mv":"5>6","iterations":30,"micros":49,"nodes":930},{"seat":0,"mv":"5>2","iterations":30,"micros":45,"nodes":512},{"seat":1,"mv":"5>5","iterations":0,"micros":3,"nodes":0},{"seat":1,"mv":"2>5","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"6>2","iterations":0,"micros":0,"nodes":0},{"seat":0,"mv":"x2","iterations":30,"micros":37,"nodes":341},{"seat":0,"mv":"4>2","iterations":30,"micros":33,"nodes":448},{"seat":0,"mv":"3>1","iterations":30,"micros":29,"nodes":226},{"seat":1,"mv":"5>1","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"x2","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"4>3","iterations":0,"micros":0,"nodes":0},{"seat":0,"mv":"x2","iterations":30,"micros":21,"nodes":406},{"seat":0,"mv":"/2","iterations":0,"micros":0,"nodes":0},{"seat":0,"mv":"/2","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"/2","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"4>4","iterations":0,"micros":0,"nodes":0},{"seat":1,"mv":"/2","iterations":0,"micros":0,"nodes":0}],"rewards":[1.0,0.0],"scores":[10.0,7.0],"units":null,"score_a":1.0}"#,
];

/// A record with one field (or one move's field) given another value, or cut short.
fn mutated_record() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    use serde_json::{Value, json};
    let replacement = prop::sample::select(vec![
        json!(null),
        json!(-1),
        json!(0),
        json!(3),
        json!(u64::MAX),
        json!(1e300),
        json!("x"),
        json!("QS"),
        json!(""),
        json!([]),
        json!([0, 1, 2]),
        json!({}),
        json!(true),
    ]);
    (
        0..RECORDS.len(),
        0..64usize,
        0..64usize,
        replacement,
        0..4u8,
        0..4000usize,
    )
        .prop_map(|(which, field, mv, replacement, how, cut)| {
            let text = RECORDS[which];
            let mut record: Value = serde_json::from_str(text).unwrap();
            match how {
                0 => return text[..cut.min(text.len())].to_string(),
                1 => {
                    let moves = record["moves"].as_array_mut().unwrap();
                    let n = moves.len();
                    let entry = moves[mv % n].as_object_mut().unwrap();
                    let key = entry.keys().nth(field % entry.len()).unwrap().clone();
                    entry.insert(key, replacement);
                }
                2 => {
                    let moves = record["moves"].as_array_mut().unwrap();
                    let n = moves.len();
                    moves.swap(mv % n, field % n);
                }
                _ => {
                    let map = record.as_object_mut().unwrap();
                    let key = map.keys().nth(field % map.len()).unwrap().clone();
                    map.insert(key, replacement);
                }
            }
            record.to_string()
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// What `replay` and `merge` read from a hand-edited or damaged log: a record that parses
    /// replays to its result or is refused with a reason, and merges with the record it came
    /// from or is refused; never a panic.
    #[test]
    fn a_damaged_record_is_refused_or_replayed_never_a_panic(line in mutated_record()) {
        use cardsearch::harness::log::{Logged, Origin, parse_record, replay_record};
        if let Ok(record) = parse_record(&line) {
            let _ = replay_record(&record);
            let origin = |line| Origin { path: "log".into(), line };
            let original = parse_record(RECORDS[0]).unwrap();
            let both = [
                Logged { origin: origin(1), record: original },
                Logged { origin: origin(2), record },
            ];
            let _ = merge_records(&both);
        }
    }
}

#[test]
fn the_records_the_damage_starts_from_replay_to_their_results() {
    use cardsearch::harness::log::{parse_record, replay_record};
    for text in RECORDS {
        let record = parse_record(text).unwrap();
        let replayed = replay_record(&record).unwrap();
        assert_eq!(replayed.rewards, record.rewards);
        assert_eq!(replayed.scores, record.scores);
    }
}

#[test]
fn a_rerun_that_parts_from_a_sequential_log_is_not_blamed_on_parallel_search() {
    use cardsearch::harness::log::rerun_decision;
    let dir = scratch("rerun_warning");
    let log = dir.join("sequential.jsonl");
    let mut cfg = config("tricks", "ismcts", "pimc:dets=4", 3, None);
    cfg.budget = Budget::iterations(200);
    run(&cfg, &log);
    // Two jobs finish games in either order: taken by deal and seating, the same every run.
    let mut records: Vec<GameRecord> = read_log(&log)
        .unwrap()
        .into_iter()
        .map(|l| l.record)
        .collect();
    records.sort_by_key(|r| (r.deal_index, r.seating_index));
    // The full spec is logged, `parallel=sequential,threads=1` included.
    assert!(
        records[0].agent_a.contains("parallel=sequential"),
        "{}",
        records[0].agent_a
    );
    // Other generators make a re-run part from the log, which still replays.
    for r in &mut records {
        for seed in &mut r.agent_seeds {
            *seed = seed.wrapping_add(1);
        }
    }
    let (mut r, parted) = records
        .into_iter()
        .find_map(|r| {
            let ply = (0..r.moves.len())
                .find(|&ply| !rerun_decision(&r, ply, 1).unwrap().diverged.is_empty())?;
            Some((r, ply))
        })
        .expect("another generator chose another move somewhere");
    let last = r.moves.len() - 1;
    assert!(!rerun_decision(&r, last, 1).unwrap().logged_parallel);
    let tampered = dir.join("tampered.jsonl");
    let mut file = JsonlWriter(std::fs::File::create(&tampered).unwrap());
    file.write(&r).unwrap();
    let out = cardsearch(&[
        "replay",
        tampered.to_str().unwrap(),
        "--move",
        &parted.to_string(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("this sequential re-run should have reproduced it"),
        "{text}"
    );
    assert!(!text.contains("searched in parallel"), "{text}");
    // A logged spec on two threads is named as such.
    r.agent_a = r
        .agent_a
        .replace("parallel=sequential,threads=1", "parallel=tree,threads=2");
    r.agent_b = r.agent_a.clone();
    assert!(rerun_decision(&r, last, 1).unwrap().logged_parallel);
}
