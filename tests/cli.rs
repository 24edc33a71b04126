//! The binary's behaviour on good and bad input: bad input gets one line on stderr naming what
//! was wrong and a non-zero exit, never a panic.

use std::process::{Command, Output};

fn cardsearch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsearch"))
        .args(args)
        .output()
        .expect("binary runs")
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
}

#[test]
fn listings_name_every_game_and_agent() {
    let games = String::from_utf8_lossy(&cardsearch(&["games"]).stdout).to_string();
    for g in cardsearch::games::all() {
        assert!(games.contains(g.name), "{games}");
    }
    let agents = String::from_utf8_lossy(&cardsearch(&["agents"]).stdout).to_string();
    for a in cardsearch::agents::all() {
        assert!(agents.contains(a.name), "{agents}");
    }
}

#[test]
fn scale_writes_its_table_csv_json_and_plot() {
    let dir = std::env::temp_dir().join(format!("cardsearch-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    for row in json["rows"].as_array().unwrap() {
        let score = row["score_equal_time"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score), "{row}");
        assert!(
            row["iterations_per_second"].as_f64().unwrap() > 0.0,
            "{row}"
        );
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
        "gave up",
    );
}
