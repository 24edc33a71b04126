//! The binary's behaviour on good and bad input: bad input gets one line on stderr naming what
//! was wrong and a non-zero exit, never a panic.

use std::process::{Command, Output};

use crate::process::{self, Session};

/// `cardsearch ARGS` run to its end with no input, killed (failing the test) if it hangs.
fn cardsearch(args: &[&str]) -> Output {
    process::output(process::cardsearch().args(args))
}

/// A fresh folder for one test's files: `cardsearch-NAME-PID` in the temporary directory.
/// `cardsearch match --quiet --out LOG` with the words of `args`: a match whose games a test
/// reads back.
fn logged_match(log: &str, args: &str) -> Output {
    let words: Vec<&str> = args.split_whitespace().collect();
    cardsearch(&[&["match", "--quiet", "--out", log][..], &words].concat())
}

/// A fresh scratch directory for the test `name`, and the path of a log in it.
fn scratch_log(name: &str) -> (std::path::PathBuf, String) {
    let dir = scratch_dir(name);
    let log = dir.join("games.jsonl").to_str().unwrap().to_string();
    (dir, log)
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardsearch-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_clean_error(args: &[&str], must_mention: &str) {
    let out = cardsearch(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(
        stderr.contains(must_mention),
        "{args:?}: error does not mention {must_mention:?}: {stderr}"
    );
}

/// The options of a match or tournament that plays one Tricks deal at 10 iterations a move.
const QUICK: [&str; 7] = [
    "--game",
    "tricks",
    "--iterations",
    "10",
    "--deals",
    "1",
    "--quiet",
];

/// Plays a [`QUICK`] match into the games log `dir/name` and returns the log's path.
fn quick_match_log(dir: &std::path::Path, name: &str) -> String {
    let log = dir.join(name).to_str().unwrap().to_string();
    let played = cardsearch(&[&["match", "--out", &log][..], &QUICK].concat());
    assert!(played.status.success(), "the quick match into {log} failed");
    log
}

/// A typo in `profile`'s specs is reported before the output is opened, so an earlier
/// flamegraph at `--out` survives it and no empty file is left behind.
#[test]
fn a_refused_profile_leaves_its_output_alone() {
    let dir = scratch_dir("profile-out");
    let earlier = dir.join("earlier.svg");
    std::fs::write(&earlier, "<svg>an earlier flamegraph</svg>").unwrap();
    let fresh = dir.join("fresh.svg");
    for out in [&earlier, &fresh] {
        let out = out.to_str().unwrap();
        let args = [
            "profile",
            "--game",
            "tricks",
            "--agent",
            "ismcts:bogus=1",
            "--out",
            out,
        ];
        assert_clean_error(&args, "bogus");
    }
    assert_clean_error(
        &[
            "profile",
            "--game",
            "chess",
            "--out",
            fresh.to_str().unwrap(),
        ],
        "chess",
    );
    assert_eq!(
        std::fs::read_to_string(&earlier).unwrap(),
        "<svg>an earlier flamegraph</svg>"
    );
    assert!(
        !fresh.exists(),
        "a refused profile created {}",
        fresh.display()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file a command writes at the end of its work (summaries, plots, tables, models, trees,
/// a played game) is checked before the work starts: a path that cannot be written is the one
/// error, and nothing was played, measured or printed before it (each of these commands used
/// to do all its work, print its report and only then fail).
#[test]
fn outputs_that_cannot_be_written_are_refused_before_the_work() {
    let dir = scratch_dir("late-outputs");
    let missing = dir.join("no-such-folder").join("out");
    let missing = missing.to_str().unwrap();
    // A directory where the file should go: `scale` and `curve` write PREFIX.csv, .json, .svg.
    std::fs::create_dir_all(dir.join("taken.svg")).unwrap();
    let taken = dir.join("taken");
    let taken = taken.to_str().unwrap();
    let log = dir.join("games.jsonl");
    let log = log.to_str().unwrap();
    let tree = format!("{missing}.json");
    let commands: Vec<Vec<&str>> = vec![
        [&["match", "--out", log, "--summary", missing][..], &QUICK].concat(),
        [
            &[
                "tournament",
                "--agents",
                "random,pimc",
                "--out",
                log,
                "--plot",
                missing,
            ][..],
            &QUICK,
        ]
        .concat(),
        [
            &[
                "tournament",
                "--agents",
                "random,pimc",
                "--summary",
                missing,
            ][..],
            &QUICK,
        ]
        .concat(),
        vec![
            "curve",
            "--game",
            "tricks",
            "--iterations",
            "10",
            "--deals",
            "1",
            "--quiet",
            "--out",
            taken,
        ],
        vec![
            "scale",
            "--game",
            "tricks",
            "--modes",
            "root",
            "--threads",
            "1",
            "--time-ms",
            "1",
            "--positions",
            "1",
            "--deals",
            "0",
            "--quiet",
            "--out",
            taken,
        ],
        vec!["merge", "--summary", missing, log],
        vec!["merge", "--plot", missing, log],
        vec!["fit-model", "--game", "sueca", "--out", missing, log],
        vec!["replay", "--move", "0", "--dump-tree", &tree, log],
        vec!["play", "--game", "tricks", "--out", missing],
    ];
    for args in &commands {
        let out = cardsearch(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(
            stderr.trim_end().lines().count() == 1 && stderr.starts_with("error: cannot write "),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains(missing) || stderr.contains(taken),
            "{args:?} does not name the output: {stderr}"
        );
        assert!(
            out.stdout.is_empty(),
            "{args:?} worked before refusing: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        // The games log of `match` and `tournament` (opened before the first game) and the
        // games log of `curve` were never made.
        assert!(!std::path::Path::new(log).exists(), "{args:?} wrote {log}");
        assert!(
            !dir.join("taken.jsonl").exists(),
            "{args:?} began the curve"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A command's output that names its games log, another output or one of its inputs is refused
/// before anything is written: `match --out G --summary G` used to play the match and then
/// replace the log with the summary, and `merge --summary` could overwrite a shard it read.
#[test]
fn outputs_never_overwrite_each_other_or_the_inputs() {
    let dir = scratch_dir("clashing-outputs");
    let log = quick_match_log(&dir, "games.jsonl");
    let log = log.as_str();
    let before = std::fs::read(log).unwrap();
    let json_log = dir.join("games.json");
    std::fs::copy(log, &json_log).unwrap();
    let json_log = json_log.to_str().unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let same = dir.join("sub").join("..").join("games.jsonl");
    let same = same.to_str().unwrap();
    let other = dir.join("ratings.svg");
    let other = other.to_str().unwrap();
    let refused: Vec<(Vec<&str>, &str)> = vec![
        (
            [&["match", "--out", log, "--summary", same][..], &QUICK].concat(),
            "--out and --summary name the same file",
        ),
        (
            [
                &[
                    "tournament",
                    "--agents",
                    "random,pimc",
                    "--summary",
                    other,
                    "--plot",
                    other,
                ][..],
                &QUICK,
            ]
            .concat(),
            "--summary and --plot name the same file",
        ),
        (
            vec!["merge", "--summary", same, log],
            "a log given to merge and --summary name the same file",
        ),
        (
            vec!["fit-model", "--game", "sueca", "--out", log, log],
            "a log given to fit-model and --out name the same file",
        ),
        (
            // A tree is written as .json or .dot; the log read is any file.
            vec!["replay", "--move", "0", "--dump-tree", json_log, json_log],
            "the log replayed and --dump-tree name the same file",
        ),
    ];
    for (args, mention) in &refused {
        assert_clean_error(args, mention);
        assert_eq!(
            std::fs::read(log).unwrap(),
            before,
            "{args:?} changed the log"
        );
        assert_eq!(
            std::fs::read(json_log).unwrap(),
            before,
            "{args:?} changed the log"
        );
        assert!(
            !std::path::Path::new(other).exists(),
            "{args:?} wrote {other}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `merge`'s ratings options on the logs of one match, which has no ratings, are errors (they
/// were ignored: `--plot` drew nothing and the exit said success).
#[test]
fn ratings_options_on_one_match_are_refused() {
    let dir = scratch_dir("merge-one-match");
    let log = quick_match_log(&dir, "match.jsonl");
    let log = log.as_str();
    let plot = dir.join("ratings.svg");
    let plot = plot.to_str().unwrap();
    assert_clean_error(
        &["merge", "--plot", plot, log],
        "--plot applies to a tournament's logs; these hold one match (ismcts",
    );
    assert_clean_error(
        &["merge", "--anchor", "pimc", log],
        "--anchor applies to a tournament's logs",
    );
    assert!(!std::path::Path::new(plot).exists());
    assert!(cardsearch(&["merge", log]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_a_one_line_error() {
    assert_clean_error(&["match", "--game", "chess"], "chess");
    assert_clean_error(&["match", "--a", "alphazero"], "alphazero");
    assert_clean_error(&["match", "--a", "random:depth=3"], "depth");
    assert_clean_error(&["match", "--b", "random:"], "random:");
    assert_clean_error(&["match", "--a", "ismcts:c"], "ismcts:c");
    assert_clean_error(&["match", "--deals", "0"], "deals");
    assert_clean_error(&["match", "--deals", "-3"], "-3");
    assert_clean_error(&["match", "--shard", "4/4"], "shard");
    assert_clean_error(&["match", "--sprt", "10,0"], "sprt");
    assert_clean_error(&["match", "--lineup", "3v1"], "3v1");
    assert_clean_error(&["match", "--frobnicate"], "frobnicate");
    assert_clean_error(&["fly"], "fly");
    // Clap lists missing arguments on lines of their own; the one line keeps them.
    assert_clean_error(&["merge"], "were not provided: <LOGS>");
    assert_clean_error(
        &["match", "--shard", "0/0"],
        "shard count must be at least 1",
    );
    // A shard past the last deal would play nothing and report a level match.
    assert_clean_error(
        &["match", "--deals", "2", "--shard", "5/10"],
        "shard 5 would play deals 5, 15, … but --deals is 2",
    );
    assert_clean_error(
        &[
            "tournament",
            "--agents",
            "random,pimc",
            "--deals",
            "1",
            "--shard",
            "3/4",
        ],
        "shard 3 would play deals 3, 7, … but --deals is 1",
    );
    // An option the game would ignore in silence is an error, before any game is played.
    assert_clean_error(
        &[
            "match",
            "--game",
            "hearts:pass=left",
            "--a",
            "ismcts:infer=10",
        ],
        "infer=10: this game cannot replay its deals",
    );
    for spec in ["ismcts:infer=10", "ismcts:preset=strong,infer_model=rule"] {
        assert_clean_error(
            &["match", "--game", "bisca", "--a", spec],
            "infer_model=rule: this game's heuristic rule does not list its choices",
        );
    }
    assert_clean_error(
        &["match", "--game", "sueca", "--a", "ismcts:turn_share=0.5"],
        "turn_share applies to games whose turn is several actions",
    );
    assert_clean_error(
        &["match", "--game", "bisca", "--lineup", "1v3"],
        "--lineup 1v3 applies to games of four individual seats (hearts); this game has 2 seats",
    );
    assert_clean_error(
        &["match", "--game", "sueca", "--lineup", "1v3"],
        "this game has four seats in two partnerships",
    );
    assert_clean_error(
        &[
            "match",
            "--game",
            "tricks",
            "--a",
            "ismcts:playout=heuristic",
        ],
        "playout=heuristic: this game has no heuristic rule",
    );
    assert_clean_error(
        &["match", "--a", "ismcts:endgame_nodes=1000"],
        "endgame_nodes applies only with endgame=N",
    );
    // A games log that cannot be created is named as one to write, not to read.
    assert_clean_error(
        &[
            "match",
            "--deals",
            "1",
            "--out",
            "/nonexistent-dir/games.jsonl",
        ],
        "cannot write games to /nonexistent-dir/games.jsonl",
    );
}

#[test]
fn a_small_match_reports_score_and_interval() {
    let out = cardsearch(&[
        "match", "--a", "random", "--b", "random", "--deals", "20", "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("A mean score"), "{stdout}");
    assert!(stdout.contains("95% CI"), "{stdout}");
    assert!(stdout.contains("games 40"), "{stdout}");
    // The points line carries A's margin over B with its interval over the 20 deals.
    let points = stdout
        .lines()
        .find(|l| l.contains("points per game"))
        .unwrap();
    assert!(
        points.contains(", A − B ") && points.contains("(95% CI "),
        "{points}"
    );
    // Hearts's points are penalties, and the report says which way is better.
    let out = cardsearch(&[
        "match", "--game", "hearts", "--a", "random", "--b", "random", "--deals", "2", "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("  penalty points (fewer is better) per game: A "),
        "{stdout}"
    );
}

#[test]
fn listings_name_every_game_and_agent() {
    // The name column of a listing: the first word of each row indented by two spaces (a
    // game's or agent's row; its options are indented by four), in the listed order. Whole
    // names, so `oe` is not found inside `ntboe`, nor `random` in a playout's default; the
    // listings show the library's lists whole and in their order.
    let names = |command: &str| -> Vec<String> {
        let out = cardsearch(&[command]);
        assert!(out.status.success(), "{command}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    let games: Vec<String> = cardsearch::games::all()
        .iter()
        .map(|g| g.name.to_string())
        .collect();
    assert_eq!(names("games"), games);
    let agents: Vec<String> = cardsearch::agents::all()
        .iter()
        .map(|a| a.name.to_string())
        .collect();
    assert_eq!(names("agents"), agents);
}

#[test]
fn scale_writes_its_table_csv_json_and_plot() {
    let dir = scratch_dir("scale");
    let prefix = dir.join("s");
    let out = cardsearch(&[
        "scale",
        "--game",
        "tricks",
        "--modes",
        "root,tree,leaf",
        "--threads",
        "1,2",
        "--time-ms",
        "2",
        "--positions",
        "2",
        "--deals",
        "2",
        "--quiet",
        "--out",
        prefix.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("core-to-core hand-off"), "{stdout}");
    for mode in ["root", "tree", "leaf"] {
        assert_eq!(
            stdout.lines().filter(|l| l.starts_with(mode)).count(),
            2,
            "one row per thread count for {mode}: {stdout}"
        );
    }
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 6, "{csv}");
    assert!(csv.starts_with("mode,threads,"), "{csv}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(prefix.with_extension("json")).unwrap())
            .unwrap();
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(6), "{json}");
    assert_eq!(json["game"], "tricks");
    assert!(json["handoff_ns_before"].as_f64().is_some_and(|t| t > 0.0));
    // One row per mode and thread count, in order. How many iterations 2 ms allow depends on
    // the machine, but every search completes at least one (BudgetClock), so the speeds are
    // checked to be positive numbers, not to be above anything.
    let rows = json["rows"].as_array().unwrap();
    let cases: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r["mode"].as_str().unwrap(), r["threads"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        cases,
        [
            ("root", 1),
            ("root", 2),
            ("tree", 1),
            ("tree", 2),
            ("leaf", 1),
            ("leaf", 2)
        ]
    );
    for row in rows {
        assert_eq!(row["deals"], 2, "{row}");
        for key in ["score_equal_time", "score_equal_iterations"] {
            let score = row[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&score), "{key}: {row}");
        }
        for key in ["iterations_per_second", "iterations_per_move"] {
            let speed = row[key].as_f64().unwrap();
            assert!(speed.is_finite() && speed > 0.0, "{key}: {row}");
        }
    }
    let svg = std::fs::read_to_string(prefix.with_extension("svg")).unwrap();
    assert!(svg.contains("<svg"), "not an SVG");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scale_rejects_bad_modes_and_thread_counts() {
    assert_clean_error(&["scale", "--modes", "root,bogus", "--quiet"], "bogus");
    assert_clean_error(&["scale", "--threads", "1,0", "--quiet"], "threads");
    assert_clean_error(&["scale", "--threads", "two", "--quiet"], "two");
    assert_clean_error(
        &["scale", "--modes", "root,tree,root", "--quiet"],
        "root is given twice",
    );
    assert_clean_error(
        &["scale", "--threads", "2,1,2", "--quiet"],
        "2 is given twice",
    );
}

/// A two-rung Tricks curve of `agent` against random play, 6 deals, written to `prefix`.
fn small_curve(agent: &str, prefix: &str) -> Output {
    cardsearch(&[
        "curve",
        "--game",
        "tricks",
        "--agent",
        agent,
        "--reference",
        "random",
        "--iterations",
        "8,32",
        "--deals",
        "6",
        "--quiet",
        "--out",
        prefix,
    ])
}

#[test]
fn curve_writes_one_row_per_budget_and_a_fit() {
    let dir = scratch_dir("curve");
    let prefix = dir.join("c");
    let out = small_curve("ismcts", prefix.to_str().unwrap());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("per doubling"), "{stdout}");
    assert!(!stdout.contains("CHEATING"), "{stdout}");
    // A cheating baseline's curve says what it is, as a match's report does.
    let cheat = small_curve("uct", dir.join("u").to_str().unwrap());
    let cheat_out = String::from_utf8_lossy(&cheat.stdout);
    assert!(
        cheat.status.success(),
        "{}",
        String::from_utf8_lossy(&cheat.stderr)
    );
    assert!(
        cheat_out.contains("tricks: uct (CHEATING: sees hidden cards) at each budget"),
        "{cheat_out}"
    );
    let csv = std::fs::read_to_string(prefix.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2, "{csv}");
    // Every row has the header's columns; the points margin (a mean of per-deal margins) is
    // the two sides' points per game apart, every deal having the same number of games.
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = |row: &[&str], name: &str| -> f64 {
        let i = header.iter().position(|h| *h == name).expect(name);
        row[i].parse().expect(name)
    };
    for line in csv.lines().skip(1) {
        let row: Vec<&str> = line.split(',').collect();
        assert_eq!(row.len(), header.len(), "{line}");
        let apart = column(&row, "points") - column(&row, "reference_points");
        assert!(
            (column(&row, "points_margin") - apart).abs() < 2e-3,
            "{line}"
        );
        assert!(column(&row, "points_margin_lo") <= column(&row, "points_margin_hi"));
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(prefix.with_extension("json")).unwrap())
            .unwrap();
    let rungs = json["points"].as_array().expect("points");
    assert_eq!(rungs.len(), 2, "{json}");
    let svg = std::fs::read_to_string(prefix.with_extension("svg")).unwrap();
    assert!(svg.contains("<svg"), "not an SVG");
    // Tricks has points (tricks taken): the third panel draws their margin.
    assert!(
        svg.contains("points per game over random"),
        "no points panel"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_curve_with_a_bad_agent_leaves_no_games_log() {
    let dir = scratch_dir("curve-bad");
    let prefix = dir.join("c");
    let out = small_curve("ismcts:c=-2", prefix.to_str().unwrap());
    assert!(!out.status.success());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stopped_curve_resumes_from_its_games_log() {
    let dir = scratch_dir("curve-resume");
    let prefix = dir.join("c");
    let prefix = prefix.to_str().unwrap();
    let curve = |agent: &str| small_curve(agent, prefix);
    let first = curve("ismcts");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let log = format!("{prefix}.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let games: Vec<&str> = text.lines().collect();
    // Two budgets, each against the reference and against half the budget: 4 matches of 6
    // deals with both seatings.
    assert_eq!(games.len(), 4 * 6 * 2);
    // A run stopped in the third match, killed while writing a game.
    let kept = games[..29].join("\n") + "\n" + &games[29][..40];
    std::fs::write(&log, kept).unwrap();
    let again = curve("ismcts");
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&first.stdout),
        "a resumed curve is the uninterrupted one"
    );
    // The same games, but for how long each move took.
    let untimed = |line: &str| {
        let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
        for mv in game["moves"].as_array_mut().unwrap() {
            mv.as_object_mut().unwrap().remove("micros");
        }
        game.to_string()
    };
    let mut resumed: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(untimed)
        .collect();
    let mut all: Vec<String> = games.iter().map(|g| untimed(g)).collect();
    // Games in flight at once may end in another order; the set is the same.
    resumed.sort();
    all.sort();
    assert_eq!(resumed, all);
    // The log of another curve is not taken for this one's.
    let other = curve("ismcts:c=0.5");
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not a game of this curve"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn curve_rejects_bad_ladders() {
    assert_clean_error(&["curve", "--iterations", "1000,lots", "--quiet"], "lots");
    assert_clean_error(&["curve", "--iterations", "0", "--quiet"], "0");
    assert_clean_error(
        &["curve", "--iterations", "2000,1000,2000", "--quiet"],
        "2000 is given twice",
    );
    // A rung of 1 would be played against itself, and 3 against 1, each as one doubling.
    for odd in ["1", "1000,3"] {
        assert_clean_error(
            &["curve", "--iterations", odd, "--quiet"],
            "has no exact half",
        );
    }
    assert_clean_error(
        &["curve", "--time-ms", "5", "--quiet"],
        "5 has no exact half",
    );
    assert_clean_error(&["curve", "--agent", "nobody", "--quiet"], "nobody");
    assert_clean_error(&["curve", "--reference", "ismcts:c=-2", "--quiet"], "c=-2");
    assert_clean_error(
        &["curve", "--iterations", "10", "--time-ms", "5", "--quiet"],
        "time",
    );
}

#[test]
fn every_number_has_a_ceiling_checked_before_any_work() {
    let max = u64::MAX.to_string();
    assert_clean_error(&["match", "--deals", &max], "deals");
    assert_clean_error(&["match", "--time-ms", &max], "time-ms");
    assert_clean_error(&["match", "--iterations", &max], "iterations");
    assert_clean_error(&["match", "--jobs", "100000"], "jobs");
    assert_clean_error(
        &["match", "--a", &format!("ismcts:iterations={max}")],
        "iterations",
    );
    assert_clean_error(&["match", "--a", "ismcts:time_ms=86400001"], "time_ms");
    assert_clean_error(&["match", "--a", "pimc:dets=268435455"], "dets");
    assert_clean_error(
        &["match", "--a", "ismcts:parallel=root,threads=257"],
        "threads",
    );
    assert_clean_error(&["match", "--a", "ismcts:c=1e300"], "c=");
    assert_clean_error(&["profile", "--seconds", "1e300"], "seconds");
    assert_clean_error(&["profile", "--seconds", "NaN"], "seconds");
    assert_clean_error(
        &["profile", "--iterations", "18446744073709551615"],
        "--iterations",
    );
    assert_clean_error(&["profile", "--frequency", "1000001"], "--frequency");
    assert_clean_error(&["scale", "--agent", "ismcts:bogus=1"], "bogus");
    // Options the command sets itself are refused, not replaced (or obeyed) without a word.
    for (args, key) in [
        (
            ["scale", "--agent", "ismcts:iterations=500"],
            "drop iterations=",
        ),
        (["scale", "--agent", "ismcts:time_ms=500"], "drop time_ms="),
        (
            ["scale", "--agent", "ismcts:parallel=tree,threads=2"],
            "drop parallel=",
        ),
        (["scale", "--agent", "ismcts:threads=2"], "drop threads="),
        (["curve", "--agent", "ismcts:time_ms=5"], "drop time_ms="),
        (
            ["curve", "--agent", "ismcts:iterations=5"],
            "drop iterations=",
        ),
    ] {
        assert_clean_error(&args, key);
    }
    assert_clean_error(&["scale", "--threads", "1,4000"], "threads");
    assert_clean_error(&["scale", "--modes", "root,sideways"], "sideways");
}

#[test]
fn merge_never_allocates_by_an_index_it_reads() {
    let dir = scratch_dir("merge-big");
    let log = dir.join("g.jsonl");
    let out = cardsearch(&[
        "match",
        "--deals",
        "1",
        "--iterations",
        "10",
        "--quiet",
        "--out",
        log.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    // The last game claims to be deal 10^15; a list of the missing deals would not fit in
    // memory, and an index that large is not a match this engine can play.
    let far = text
        .lines()
        .last()
        .unwrap()
        .replace("\"deal_index\":0", "\"deal_index\":1000000000000000");
    std::fs::write(&log, format!("{text}{far}\n")).unwrap();
    assert_clean_error(&["merge", log.to_str().unwrap()], "deal_index");
    // A far but playable index merges, reporting the gap as one run.
    let near = text
        .lines()
        .last()
        .unwrap()
        .replace("\"deal_index\":0", "\"deal_index\":900000000");
    std::fs::write(&log, format!("{text}{near}\n")).unwrap();
    let out = cardsearch(&["merge", log.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("1–899999999"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A `match` logging to `log` with `args` after it, started in the background, its output
/// captured when `capture` (else dropped).
#[cfg(unix)]
fn spawn_logged_match(args: &[&str], log: &std::path::Path, capture: bool) -> std::process::Child {
    use std::process::Stdio;
    let stdio = || {
        if capture {
            Stdio::piped()
        } else {
            Stdio::null()
        }
    };
    process::spawn(
        process::cardsearch()
            .arg("match")
            .args(args)
            .args(["--jobs", "2", "--quiet", "--out", log.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(stdio())
            .stderr(stdio()),
    )
}

/// Waits (up to 600 polls `poll_ms` apart) for `log` to hold more than `bytes` bytes.
#[cfg(unix)]
fn wait_for_log(log: &std::path::Path, bytes: u64, poll_ms: u64) {
    for _ in 0..600 {
        if std::fs::metadata(log).is_ok_and(|m| m.len() > bytes) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(poll_ms));
    }
}

/// Every line of `log` is a whole game, and the file ends with one.
#[cfg(unix)]
fn assert_whole_games(log: &std::path::Path) {
    let text = std::fs::read_to_string(log).unwrap();
    assert!(!text.is_empty());
    assert!(text.ends_with('\n'), "the last game is whole");
    for line in text.lines() {
        cardsearch::harness::log::parse_record(line).expect("a whole game");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_billion_deal_match_with_whole_games_and_a_report() {
    let dir = scratch_dir("sigint");
    let log = dir.join("g.jsonl");
    // A billion deals: the match must start at once (deals are not listed up front).
    let args = ["--deals", "1000000000", "--iterations", "200"];
    let child = spawn_logged_match(&args, &log, true);
    // Wait for the first games, then interrupt as a terminal's Ctrl-C does.
    wait_for_log(&log, 0, 50);
    let kill = process::output(Command::new("kill").args(["-INT", &child.id().to_string()]));
    assert!(kill.status.success());
    let out = process::finish(child, "an interrupted match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("INTERRUPTED"), "{stdout}");
    assert!(stdout.contains("A mean score"), "{stdout}");
    assert_whole_games(&log);
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn kill_9_leaves_a_log_of_whole_games() {
    let dir = scratch_dir("kill");
    let log = dir.join("g.jsonl");
    let args = [
        "--game",
        "hearts",
        "--deals",
        "100000",
        "--iterations",
        "50",
    ];
    let mut child = spawn_logged_match(&args, &log, false);
    // Kill it while games are being written: once the log has some, at a moment not chosen.
    wait_for_log(&log, 20_000, 20);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_whole_games(&log);
    std::fs::remove_dir_all(&dir).ok();
}

/// The shortest prefix of `mv` that no other legal move starts with.
fn unique_prefix(mv: &str, legal: &[&str]) -> String {
    (1..=mv.len())
        .map(|k| &mv[..k])
        .find(|p| legal.iter().filter(|m| m.starts_with(p)).count() == 1)
        .unwrap_or(mv)
        .to_string()
}

#[test]
fn a_person_plays_a_game_through_stdin_and_it_replays() {
    use std::process::Stdio;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("play");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("game.jsonl");
    let mut child = Session::start(
        process::cardsearch()
            .args([
                "play",
                "--game",
                "tricks",
                "--seat",
                "1",
                "--opponents",
                "ismcts",
            ])
            .args([
                "--iterations",
                "200",
                "--seed",
                "4",
                "--out",
                log.to_str().unwrap(),
            ])
            .stderr(Stdio::piped()),
    );
    let mut transcript = String::new();
    let mut turns = 0;
    while let Some(line) = child.line() {
        transcript += &line;
        transcript += "\n";
        let Some(moves) = line.trim_start_matches("> ").strip_prefix("legal: ") else {
            continue;
        };
        let legal: Vec<&str> = moves.split_whitespace().collect();
        if turns == 0 {
            // Ask for a hint and make a typo before the first move.
            child.send("hint\nzz");
        }
        child.send(&unique_prefix(legal[0], &legal));
        turns += 1;
    }
    let (status, _) = child.finish();
    assert!(status.success(), "{transcript}");
    assert!(turns >= 3, "{transcript}");
    for expected in [
        "your hand: ",
        "seat 0 plays ",
        "you play ",
        "hint: ",
        "'zz' is not a legal move",
        "game over",
    ] {
        assert!(
            transcript.contains(expected),
            "no '{expected}' in:\n{transcript}"
        );
    }
    // The saved game replays, its result checked.
    let out = cardsearch(&["replay", log.to_str().unwrap(), "--game", "0"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An engine's decision re-runs; the person's has no search to re-run, and says so.
    let record: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let first_by = |seat: u64| {
        let moves = record["moves"].as_array().unwrap();
        let ply = moves.iter().position(|m| m["seat"] == seat).unwrap();
        ply.to_string()
    };
    let (engine_ply, person_ply) = (first_by(0), first_by(1));
    let out = cardsearch(&["replay", log.to_str().unwrap(), "--move", &engine_ply]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_clean_error(
        &["replay", log.to_str().unwrap(), "--move", &person_ply],
        &format!("move {person_ply} was a person's (seat 1"),
    );
    // Closing the input abandons the game cleanly (`cardsearch` gives no input).
    let out = cardsearch(&["play", "--game", "tricks", "--opponents", "random"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("abandoned"));
}

#[test]
fn solve_prints_every_moves_exact_value() {
    // Tricks after "QS AS KD AD": seat 0 holds JS KH, seat 1 JH QH, one trick each. Whatever
    // seat 0 leads it takes both tricks (seat 1 has no spade, and its hearts are below the
    // king): 3 tricks to 1, a margin of +2 for either move.
    let deal = "JS QS KH AD | AS JH QH KD | KS AH JD QD";
    let out = cardsearch(&[
        "solve",
        "--game",
        "tricks",
        "--deal",
        deal,
        "--moves",
        "QS AS KD AD",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("seat 0 to move, 4 cards left"), "{stdout}");
    for card in ["JS", "KH"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with("  ") && l.contains(card))
            .unwrap();
        assert!(line.contains("+2") && line.contains("win"), "{stdout}");
    }
    // A random Sueca endgame: every legal move gets a line, the best marked.
    let out = cardsearch(&["solve", "--game", "sueca", "--seed", "4", "--cards", "16"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("exact margin"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with('*')),
        "{stdout}"
    );
}

#[test]
fn solve_rejects_bad_input_in_one_line() {
    let deal = "JS QS KH AD | AS JH QH KD | KS AH JD QD";
    assert_clean_error(&["solve", "--game", "chess"], "chess");
    assert_clean_error(&["solve", "--game", "coinguess"], "no exact solver");
    assert_clean_error(&["solve", "--game", "tricks", "--deal", "JS QS"], "deal");
    assert_clean_error(
        &["solve", "--game", "tricks", "--deal", deal, "--moves", "AS"],
        "not legal",
    );
    assert_clean_error(
        &["solve", "--game", "tricks", "--deal", deal, "--moves", "QX"],
        "QX",
    );
    assert_clean_error(
        &[
            "solve",
            "--game",
            "tricks",
            "--deal",
            deal,
            "--moves",
            "QS AS KD AD JS JH KH QH",
        ],
        "over",
    );
    assert_clean_error(&["solve", "--game", "hearts:pass=left"], "passing");
    assert_clean_error(
        &["solve", "--game", "sueca", "--node-limit", "1000"],
        "the position is too large for the node limit; raise --node-limit (now 1000)",
    );
}

#[test]
fn engines_in_play_decide_as_in_a_match_with_inference_and_tree_reuse() {
    // `play` deals deal 0 of the seed and seeds each seat's generator as a match's first
    // seating does, so if the person plays what the match's seat 0 played, every engine seat
    // sees what it saw in the match and must decide the same. Inference reads each seat's
    // record of the others' plays, and reuse the moves since its last search: an engine that
    // got no record (as `play` gave before) decides otherwise. (A `play` engine gives back its
    // memory between moves unless it reuses trees; a hybrid endgame's solver table is among it,
    // but every solve starts a new table generation, so no decision reads an earlier one's.)
    use std::process::Stdio;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-as-match");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (match_log, play_log) = (dir.join("match.jsonl"), dir.join("play.jsonl"));
    let spec = "ismcts:infer=40,reuse=true";
    let common = ["--game", "sueca", "--iterations", "300", "--seed", "11"];
    let out = cardsearch(
        &[
            &["match", "--a", spec, "--b", spec, "--deals", "1", "--quiet"][..],
            &common,
            &["--out", match_log.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let moves_of = |path: &std::path::Path| -> Vec<(u64, String)> {
        let text = std::fs::read_to_string(path).unwrap();
        let game = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|g| g["seating_index"] == 0)
            .expect("the first seating");
        game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["seat"].as_u64().unwrap(),
                    m["mv"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let in_match = moves_of(&match_log);
    let mut person: Vec<String> = in_match
        .iter()
        .filter(|(seat, _)| *seat == 0)
        .map(|(_, mv)| mv.clone())
        .collect();
    person.reverse();
    let mut child = Session::start(
        process::cardsearch()
            .args([&["play", "--seat", "0", "--opponents", spec][..], &common].concat())
            .args(["--out", play_log.to_str().unwrap()])
            .stderr(Stdio::inherit()),
    );
    while let Some(line) = child.line() {
        // An engine that decided otherwise than in the match can leave the person a move
        // they cannot make.
        assert!(
            !line.contains("is not a legal move"),
            "an engine in play decided otherwise than in the match: {line}"
        );
        if line.trim_start_matches("> ").starts_with("legal: ") {
            let mv = person
                .pop()
                .expect("play asks the person for more moves than seat 0 made in the match");
            child.send(&mv);
        }
    }
    child.close_input();
    assert!(child.finish().0.success());
    assert!(
        person.is_empty(),
        "the game in play ended before the person's moves did"
    );
    assert_eq!(moves_of(&play_log), in_match);
}

/// Standard output that cannot be written (a full disk) ends a command with one line and
/// status 1, for the results of every listing and report and for `--help`, never a panic.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_one_line_of_error_not_a_panic() {
    for args in [
        &["games"][..],
        &["agents"],
        &["--help"],
        &["solve", "--game", "tricks"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let child = process::spawn(
            process::cardsearch()
                .args(args)
                .stdin(std::process::Stdio::null())
                .stdout(full)
                .stderr(std::process::Stdio::piped()),
        );
        let out = process::finish(child, &format!("cardsearch {args:?} > /dev/full"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write standard output"),
            "{args:?}: {stderr}"
        );
    }
}

/// A reader that has closed its end of the pipe (`cardsearch agents | head -1`) ends the
/// command quietly with status 141, as a process killed by SIGPIPE, never a panic.
#[test]
fn a_closed_pipe_on_standard_output_ends_quietly_with_status_141() {
    for args in [&["agents"][..], &["--help"]] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let child = process::spawn(
            process::cardsearch()
                .args(args)
                .stdin(std::process::Stdio::null())
                .stdout(writer)
                .stderr(std::process::Stdio::piped()),
        );
        let out = process::finish(child, &format!("cardsearch {args:?} | (closed)"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    // The engine too, whose client leaving first is the usual end of a session.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    // Its input ends after the one request, so it cannot wait for more.
    let mut engine = process::spawn(
        process::cardsearch()
            .arg("engine")
            .stdin(std::process::Stdio::piped())
            .stdout(writer)
            .stderr(std::process::Stdio::piped()),
    );
    process::feed(&mut engine, b"{\"cmd\":\"hello\"}\n");
    let out = process::finish(engine, "cardsearch engine | (closed)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "engine: {stderr}");
    assert!(stderr.is_empty(), "engine: {stderr}");
}

/// A file with a line far longer than any game's record (2 MiB, no end of line: what
/// `/dev/zero` would give without end) is refused by every command that reads logs, at its
/// first megabyte, not read whole.
#[test]
fn a_log_line_longer_than_a_mebibyte_is_refused_not_read_whole() {
    let dir = scratch_dir("long-line");
    let long = dir.join("long.jsonl");
    std::fs::write(&long, vec![b'x'; 2 << 20]).unwrap();
    let long = long.to_str().unwrap();
    let out = format!("--out={long}");
    for args in [
        vec!["replay", long],
        vec!["merge", long],
        vec!["fit-model", "--game", "tricks", long],
        [&["match", &out][..], &QUICK].concat(),
    ] {
        assert_clean_error(&args, "line 1 is longer than 1 MiB");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the binary with `args`, killing it after `seconds`: `None` if it had not ended by then.
fn output_within(args: &[&str], seconds: u64) -> Option<Output> {
    process::output_within(
        process::cardsearch().args(args),
        std::time::Duration::from_secs(seconds),
    )
}

/// `profile --seconds` ends the run inside a decision too, whatever budget the decision has:
/// an agent spec's own budget of four billion iterations is stopped at a fifth of a second
/// (the limit of 120 s only keeps a broken build from hanging the suite). A run too short for
/// one sample is refused and leaves no empty flamegraph behind.
#[test]
fn profile_ends_at_its_seconds_whatever_the_budget_and_refuses_an_empty_profile() {
    let dir = scratch_dir("profile-seconds");
    let svg = dir.join("p.svg");
    let svg = svg.to_str().unwrap();
    let args = [
        "profile",
        "--game",
        "tricks",
        "--agent",
        "ismcts:iterations=4000000000",
        "--seconds",
        "0.2",
        "--out",
        svg,
    ];
    let out = output_within(&args, 120).expect("profile ended within 120 s");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("1 decisions"), "{stdout}");
    std::fs::remove_file(svg).unwrap();
    // One sample a second, and a run of a millisecond: no sample, so no flamegraph.
    let out = output_within(
        &[
            "profile",
            "--game",
            "tricks",
            "--seconds",
            "0.001",
            "--frequency",
            "1",
            "--out",
            svg,
        ],
        120,
    )
    .expect("profile ended within 120 s");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("took no samples"), "{stderr}");
    assert!(!std::path::Path::new(svg).exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// `fit-model` replays each log by the log's own game spec: Hearts logs passing left replay
/// (they failed at the first pass under plain `hearts` rules). `--game` takes the name alone,
/// a log given twice is refused (its games would weigh double), and `--steps` has a ceiling.
#[test]
fn fit_model_replays_by_the_logs_own_game_spec_and_refuses_a_repeated_log() {
    let dir = scratch_dir("fit-model-spec");
    let log = dir.join("hearts-left.jsonl");
    let log = log.to_str().unwrap();
    let played = cardsearch(&[
        "match",
        "--game",
        "hearts:pass=left",
        "--a",
        "random",
        "--b",
        "random",
        "--deals",
        "5",
        "--quiet",
        "--out",
        log,
    ]);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let fitted = cardsearch(&["fit-model", "--game", "hearts", "--steps", "20", log]);
    let stdout = String::from_utf8_lossy(&fitted.stdout);
    assert!(
        fitted.status.success(),
        "{}",
        String::from_utf8_lossy(&fitted.stderr)
    );
    assert!(stdout.contains("held out"), "{stdout}");
    assert_clean_error(
        &["fit-model", "--game", "hearts:pass=left", log],
        "give the game's name alone",
    );
    assert_clean_error(
        &["fit-model", "--game", "hearts", "--steps", "20", log, log],
        "was a log given twice",
    );
    assert_clean_error(
        &["fit-model", "--game", "hearts", "--steps", "100001", log],
        "--steps",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `cardsearch play ARGS` with `input` as everything the person types; returns its
/// standard output once the game ends (the input ends with `quit`).
fn play_typing(args: &[&str], input: &[u8]) -> String {
    let out = process::output_with_input(process::cardsearch().arg("play").args(args), input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A person playing against cheating baselines (`uct` reads the hidden cards) is told so, and
/// gets no hint from them: a hint is searched from the person's own view, which holds no hidden
/// card, so `uct` says it cannot advise and the game goes on (it used to hint from the true
/// deal).
#[test]
fn play_against_a_cheating_baseline_is_labelled_and_gives_no_hint_from_hidden_cards() {
    let args = [
        "--game",
        "tricks",
        "--seed",
        "4",
        "--opponents",
        "uct",
        "--iterations",
        "200",
    ];
    let stdout = play_typing(&args, b"hint\nquit\n");
    assert!(stdout.contains("the others are uct (CHEATING"), "{stdout}");
    assert!(
        stdout.contains("no hint: agent uct:") && stdout.contains("reads hidden cards"),
        "{stdout}"
    );
    assert!(!stdout.contains("visits"), "{stdout}");
}

/// A person playing Bisca is shown the face-up trump card and the stock, which every seat sees
/// (they were not shown until session 52: the trump suit was nowhere on the screen), and a
/// line of bytes that are not text gets the answer a typo gets.
#[test]
fn play_shows_bisca_s_face_up_trump_and_stock() {
    let args = ["--game", "bisca", "--seed", "4", "--opponents", "random"];
    // A line that is not UTF-8 is answered as a typo; it used to end the game.
    let stdout = play_typing(&args, b"\xff\xfe\nquit\n");
    assert!(stdout.contains("is not a legal move"), "{stdout}");
    // Seed 4 deals the jack of diamonds face up (cardsearch solve --game bisca --seed 4 shows
    // it last in the stock).
    assert!(
        stdout.contains("trump ♦: JD face up, 22 cards in the stock"),
        "{stdout}"
    );
}

/// In a partnership game the person's side is their team: a `play` log of Sueca puts the
/// engine partner on side A with the person (`person` names the person's seat), so the logged
/// score is the team's result, and `replay --move` re-runs the partner's decisions but not the
/// person's.
#[test]
fn a_play_log_of_sueca_puts_the_person_and_their_partner_on_one_side() {
    use std::process::Stdio;
    let dir = scratch_dir("play-partner");
    let log = dir.join("sueca.jsonl");
    let log = log.to_str().unwrap();
    let mut child = Session::start(
        process::cardsearch()
            .args([
                "play",
                "--game",
                "sueca",
                "--seat",
                "0",
                "--opponents",
                "random",
            ])
            .args(["--seed", "3", "--out", log])
            .stderr(Stdio::piped()),
    );
    // Answer every prompt with the first legal move until the game ends.
    while let Some(line) = child.line() {
        if let Some(moves) = line.trim_start_matches("> ").strip_prefix("legal: ") {
            child.send(moves.split_whitespace().next().unwrap());
        }
    }
    let (status, stderr) = child.finish();
    assert!(status.success(), "{stderr}");
    let record: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        record["seats"],
        serde_json::json!(["A", "B", "A", "B"]),
        "{record}"
    );
    assert_eq!(record["person"], 0, "{record}");
    assert_eq!(record["agent_a"], record["agent_b"], "{record}");
    let team = record["rewards"][0].as_f64().unwrap();
    assert_eq!(record["score_a"].as_f64().unwrap(), team, "{record}");
    let moves = record["moves"].as_array().unwrap();
    let first_by = |seat: u64| {
        moves
            .iter()
            .position(|m| m["seat"] == seat)
            .unwrap()
            .to_string()
    };
    let partner = cardsearch(&["replay", log, "--move", &first_by(2)]);
    assert!(
        partner.status.success(),
        "{}",
        String::from_utf8_lossy(&partner.stderr)
    );
    assert_clean_error(
        &["replay", log, "--move", &first_by(0)],
        "was a person's (seat 0",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `--anchor` names an agent the same ways in `tournament` and in `merge` of its log: by its
/// name, or by the spec given to the tournament (the log holds the full spec).
#[test]
fn tournament_and_merge_take_the_same_anchor_names() {
    let (dir, log) = scratch_log("anchor");
    let log = log.as_str();
    let anchored = |out: &Output| {
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("95% interval, ismcts:c=0.7,"), "{stdout}");
    };
    anchored(&cardsearch(&[
        "tournament",
        "--game",
        "tricks",
        "--agents",
        "random,pimc,ismcts:c=0.7",
        "--anchor",
        "ismcts",
        "--deals",
        "1",
        "--iterations",
        "10",
        "--quiet",
        "--out",
        log,
    ]));
    for name in ["ismcts:c=0.7", "ismcts"] {
        anchored(&cardsearch(&["merge", "--anchor", name, log]));
    }
    assert_clean_error(&["merge", "--anchor", "ismcts:c=2", log], "names none");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/points_interval.py`, for logs written elsewhere, gives the margins `match` prints
/// for the same log, leaves out an unfinished deal as `merge` does, and refuses a tournament's
/// log (several matches) and a game logged twice rather than pool them.
#[test]
fn the_points_interval_script_agrees_with_the_match_report() {
    let (dir, log) = scratch_log("points-script");
    let log = log.as_str();
    let out = logged_match(
        log,
        "--game sueca --a ismcts --b random --deals 4 --iterations 20",
    );
    assert!(out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    // `A − B +4.75 (95% CI -29.29 … +38.79)`: the margin and its interval, to two decimals.
    let margin = |text: &str| {
        let at = text.find("A − B ").expect("a points margin") + "A − B ".len();
        let words: Vec<f64> = text[at..]
            .split([' ', '(', ')', ';'])
            .filter_map(|w| w.parse().ok())
            .take(3)
            .collect();
        words.iter().map(|x| format!("{x:+.2}")).collect::<Vec<_>>()
    };
    let script = |path: &str| {
        // python3 must be installed: the scripts need it.
        let out = process::output(Command::new("python3").args([
            concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/points_interval.py"),
            path,
        ]));
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // `points margin A-B per game: +4.75 (95% CI -29.29 … +38.79)`, likewise.
    let script_margin = |text: &str| {
        let line = text.lines().find(|l| l.contains("points margin")).unwrap();
        line.split([' ', '(', ')'])
            .filter_map(|w| w.parse::<f64>().ok())
            .map(|x| format!("{x:+.2}"))
            .collect::<Vec<_>>()
    };
    let (ok, text, _) = script(log);
    assert!(ok, "{text}");
    assert_eq!(script_margin(&text), margin(&report), "{text} / {report}");
    // The last game dropped: its deal is left out, as merge leaves it out.
    let lines: Vec<&str> = std::fs::read_to_string(log)
        .unwrap()
        .leak()
        .lines()
        .collect();
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n")).unwrap();
    let cut = cut.to_str().unwrap();
    let (ok, text, _) = script(cut);
    assert!(
        ok && text.contains("(3 deals, 1 unfinished left out)"),
        "{text}"
    );
    let merged = cardsearch(&["merge", cut]);
    let merged = String::from_utf8_lossy(&merged.stdout);
    assert_eq!(script_margin(&text), margin(&merged), "{text} / {merged}");
    // A game twice, and two matches in one log, are refused.
    let twice = dir.join("twice.jsonl");
    std::fs::write(&twice, format!("{}\n{}\n", lines[0], lines[0])).unwrap();
    let (ok, _, err) = script(twice.to_str().unwrap());
    assert!(!ok && err.contains("logged twice"), "{err}");
    let two = dir.join("two.jsonl");
    let other = lines[0].replace("\"agent_b\":\"random\"", "\"agent_b\":\"pimc\"");
    assert_ne!(other, lines[0]);
    std::fs::write(&two, format!("{}\n{other}\n", lines[0])).unwrap();
    let (ok, _, err) = script(two.to_str().unwrap());
    assert!(!ok && err.contains("more than one match"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match stopped by its SPRT logs the games it counted and no others, so `merge` of its log
/// reports what the match reported; the test waits for its minimum of deals; and it is refused
/// with shards, which would each stop on their own.
#[test]
fn a_match_stopped_by_its_sprt_logs_what_it_counted() {
    let (dir, log) = scratch_log("sprt");
    let log = log.as_str();
    let out = logged_match(
        log,
        "--game tricks --a uct --b random --deals 200 --iterations 50 --sprt 0,100 --jobs 2",
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("SPRT: AcceptH1 after"), "{report}");
    let score_line = |text: &str| {
        text.lines()
            .find(|l| l.contains("mean score"))
            .unwrap()
            .to_string()
    };
    let deals: u64 = score_line(&report)
        .rsplit(", ")
        .next()
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!((20..200).contains(&deals), "{report}");
    let logged = std::fs::read_to_string(log).unwrap().lines().count() as u64;
    assert_eq!(
        logged,
        2 * deals,
        "two seatings a deal, nothing past the stop"
    );
    let merged = cardsearch(&["merge", log]);
    assert_eq!(
        score_line(&String::from_utf8_lossy(&merged.stdout)),
        score_line(&report)
    );
    // Continued from a log cut in the middle of a deal, it logs only the games it plays: the
    // ones taken from the log are not written again when their deal is counted.
    let text = std::fs::read_to_string(log).unwrap();
    let kept: Vec<&str> = text.lines().take(21).collect();
    std::fs::write(log, kept.join("\n") + "\n").unwrap();
    let again = logged_match(
        log,
        "--game tricks --a uct --b random --deals 200 --iterations 50 --sprt 0,100 --jobs 2",
    );
    assert_eq!(
        score_line(&String::from_utf8_lossy(&again.stdout)),
        score_line(&report)
    );
    let logged = std::fs::read_to_string(log).unwrap().lines().count() as u64;
    assert_eq!(logged, 2 * deals, "no game logged twice");
    assert!(cardsearch(&["merge", log]).status.success());
    assert_clean_error(
        &["match", "--sprt", "0,20", "--shard", "0/2", "--deals", "10"],
        "--sprt with --shard: a sequential test stops on the deals played so far, which shards \
         cannot share",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `merge` rates several agent pairs together only when they are one tournament's pairings:
/// logs of matches of another game, seed or budget are refused, not rated side by side.
#[test]
fn merge_refuses_logs_of_different_matches_as_a_tournament() {
    let dir = scratch_dir("merge-mixed");
    let log = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (one, two, three) = (log("one.jsonl"), log("two.jsonl"), log("three.jsonl"));
    let quick = "--a ismcts --deals 2 --iterations 20";
    for (path, args) in [
        (&one, format!("--game tricks --b random --seed 7 {quick}")),
        (&two, format!("--game sueca --b pimc --seed 7 {quick}")),
        (&three, format!("--game tricks --b pimc --seed 8 {quick}")),
    ] {
        assert!(logged_match(path, &args).status.success());
    }
    assert_clean_error(&["merge", &one, &two], "has game tricks");
    assert_clean_error(&["merge", &one, &three], "has seed 7");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A log whose last line was cut short (its run killed mid-write, or still running) is read as
/// the games before it, with a warning, by `merge` and `replay`, as a continued run reads it;
/// only a cut record is left out, not a whole one that lacks its end of line.
#[test]
fn logs_with_an_unfinished_last_line_are_read_up_to_it() {
    let (dir, log) = scratch_log("unfinished");
    let log = log.as_str();
    let played = logged_match(
        log,
        "--game tricks --a ismcts --b random --deals 3 --iterations 20",
    );
    assert!(played.status.success());
    let text = std::fs::read_to_string(log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let before = lines[..lines.len() - 1].join("\n") + "\n";
    let cut = dir.join("cut.jsonl");
    let last = lines[lines.len() - 1];
    std::fs::write(&cut, format!("{before}{}", &last[..last.len() / 2])).unwrap();
    let whole = dir.join("whole.jsonl");
    std::fs::write(&whole, before.trim_end()).unwrap();
    let report = |path: &std::path::Path| {
        let out = cardsearch(&["merge", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (cut_report, cut_warning) = report(&cut);
    let (whole_report, whole_warning) = report(&whole);
    assert!(
        cut_warning.contains("ignoring an unfinished game"),
        "{cut_warning}"
    );
    assert!(!whole_warning.contains("unfinished"), "{whole_warning}");
    assert_eq!(cut_report, whole_report);
    // Replay counts the whole games only.
    let games = (lines.len() - 1).to_string();
    assert_clean_error(&["replay", cut.to_str().unwrap(), "--game", &games], "game");
    let previous = (lines.len() - 2).to_string();
    assert!(
        cardsearch(&["replay", cut.to_str().unwrap(), "--game", &previous])
            .status
            .success()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match or tournament refused after its log was opened (an agent that cannot play the game)
/// leaves no empty log behind, and one given an existing log leaves it as it was; a tournament
/// refuses such an agent before its first game, not when the pairings before the agent's are
/// played.
#[test]
fn a_run_refused_before_its_first_game_leaves_no_empty_log() {
    let (dir, log) = scratch_log("refused-run");
    for command in [
        format!("match --game tricks --a ismcts:infer=100 --b random --deals 2 --out {log}"),
        format!("tournament --game tricks --agents random,pimc,ismcts:infer=100 --out {log}"),
    ] {
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_clean_error(&args, "infer=100");
        assert!(!std::path::Path::new(&log).exists(), "{command} left {log}");
    }
    std::fs::write(&log, "").unwrap();
    assert_clean_error(
        &[
            "match",
            "--game",
            "tricks",
            "--a",
            "ismcts:infer=100",
            "--out",
            &log,
        ],
        "infer=100",
    );
    assert!(
        std::path::Path::new(&log).exists(),
        "a log given was removed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match continued with its game written another way (its default options spelled out) is
/// the same match, and goes on in its log's words; other rules are another match.
#[test]
fn a_match_continues_under_its_game_written_another_way() {
    let (dir, log) = scratch_log("game-spelling");
    let quick = "--a ismcts --b random --iterations 20";
    assert!(
        logged_match(&log, &format!("--game sueca --deals 2 {quick}"))
            .status
            .success()
    );
    let more = logged_match(&log, &format!("--game sueca:dealer=3 --deals 3 {quick}"));
    let stderr = String::from_utf8_lossy(&more.stderr);
    assert!(more.status.success(), "{stderr}");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 6);
    // It goes on in the log's own words, so the log stays one match to merge.
    let merged = cardsearch(&["merge", &log]);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let other = logged_match(&log, &format!("--game sueca:dealer=1 --deals 3 {quick}"));
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(
        !other.status.success() && stderr.contains("game is 'sueca'"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fit-model` learns from `play` logs, whose games are all deal 0: every fifth game is held
/// out there (by deal index every game was, and none was fitted), and two games of one deal
/// played differently are two games, not a log given twice. `merge` refuses them by name.
#[test]
fn fit_model_fits_play_logs() {
    let (dir, log) = scratch_log("fit-play");
    let played = logged_match(&log, "--game sueca --a random --b random --deals 6");
    assert!(played.status.success());
    // Each game as `play` writes it: deal 0, seating 0, the person a seat of side A.
    let text = std::fs::read_to_string(&log).unwrap();
    let as_played: Vec<String> = text
        .lines()
        .map(|line| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            record["deal_index"] = 0.into();
            record["seating_index"] = 0.into();
            let seats = record["seats"].as_array().unwrap();
            let person = seats.iter().position(|s| s == "A").unwrap();
            record["person"] = person.into();
            record.to_string()
        })
        .collect();
    let play_log = dir.join("play.jsonl");
    std::fs::write(&play_log, as_played.join("\n") + "\n").unwrap();
    let fitted = cardsearch(&[
        "fit-model",
        "--game",
        "sueca",
        "--steps",
        "20",
        play_log.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&fitted.stderr);
    assert!(fitted.status.success(), "{stderr}");
    // A person's games are no match: merge says so, rather than that a game appears twice.
    assert_clean_error(
        &["merge", play_log.to_str().unwrap()],
        "a game of `cardsearch play`",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `--seed` every game of `play` is a new deal (a fixed default dealt the same cards
/// each time, so one game told a person every hand of the next); with one, the same deal comes
/// back. Sueca's hands are 10 of 40 cards: two fresh deals give seat 0 the same hand with
/// probability 1 in 847,660,528.
#[test]
fn play_deals_afresh_unless_given_a_seed() {
    let hand = |args: &[&str]| {
        let stdout = play_typing(args, b"quit\n");
        stdout
            .lines()
            .find(|l| l.starts_with("your hand: "))
            .unwrap_or_else(|| panic!("no hand in:\n{stdout}"))
            .to_string()
    };
    let fresh = ["--opponents", "random"];
    assert_ne!(hand(&fresh), hand(&fresh));
    let seeded = ["--opponents", "random", "--seed", "7"];
    assert_eq!(hand(&seeded), hand(&seeded));
}

/// A person playing ASMACAG sees what the game makes public: the board, the points, the
/// factor (doubled by `x2`), the actions left in the turn and the other hand's size.
#[test]
fn play_shows_the_asmacag_table() {
    let args = ["--game", "asmacag", "--opponents", "random", "--seed", "1"];
    let stdout = play_typing(&args, b"x2\nquit\n");
    let tables: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("board: "))
        .collect();
    assert_eq!(tables.len(), 2, "{stdout}");
    for (table, factor, left) in [(tables[0], 1, 3), (tables[1], 2, 2)] {
        assert!(table.contains("points: seat 0 0, seat 1 0"), "{table}");
        assert!(table.contains(&format!("factor {factor};")), "{table}");
        assert!(
            table.contains(&format!("{left} of 3 actions left in seat 0's turn")),
            "{table}"
        );
        assert!(table.ends_with("seat 1 holds 9 cards"), "{table}");
    }
}
