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
