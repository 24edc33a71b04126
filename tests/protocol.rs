//! The engine protocol: the binary driven through whole games over pipes, with bad lines in
//! between; view mode kept in step with a real game it cannot see; no input makes it panic.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use cardsearch::game::rng_from_seed;
use cardsearch::games::{GameDef, Hearts, Tricks};
use cardsearch::protocol::Engine;
use cardsearch::{Game, MoveSet};
use serde_json::{Value, json};

/// A running `cardsearch engine`, spoken to one line at a time.
struct Child {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Child {
    fn start() -> Child {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsearch"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let out = BufReader::new(child.stdout.take().unwrap());
        Child { child, out }
    }

    /// Sends one raw line and reads the one reply line.
    fn raw(&mut self, line: &str) -> Value {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        self.out.read_line(&mut reply).unwrap();
        assert!(reply.ends_with('\n'), "no reply to {line:?}: {reply:?}");
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply {reply:?} to {line:?}: {e}"))
    }

    fn ok(&mut self, request: Value) -> Value {
        let r = self.raw(&request.to_string());
        assert_eq!(r["ok"], request["cmd"], "{request} -> {r}");
        r
    }

    fn error(&mut self, line: &str, mention: &str) {
        let r = self.raw(line);
        let e = r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{line} -> {r}"));
        assert!(e.contains(mention), "{line} -> {e}");
        assert!(r.get("ok").is_none());
    }
}

#[test]
fn a_whole_tricks_game_over_pipes_with_bad_lines_in_between() {
    let deal = "JS QS KH AD | AS JH QH KD | KS AH JD QD";
    let mut truth = Tricks::from_deal(&(), deal).unwrap();
    let mut e = Child::start();

    let hello = e.ok(json!({"cmd": "hello", "id": 7}));
    assert_eq!(hello["id"], 7);
    assert_eq!(hello["protocol"], 1);
    let games = e.ok(json!({"cmd": "games"}));
    assert!(
        games["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "tricks")
    );
    let agents = e.ok(json!({"cmd": "agents"}));
    assert!(
        agents["agents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["name"] == "random")
    );

    e.error("this is not json", "not JSON");
    e.error("", "not JSON");
    e.error("[1, 2]", "object");
    e.error(r#"{"move": "QS"}"#, "missing field 'cmd'");
    e.error(r#"{"cmd": 3}"#, "string");
    e.error(r#"{"cmd": "castle"}"#, "unknown command 'castle'");
    e.error(r#"{"cmd": "play", "move": "QS"}"#, "no game");
    e.error(
        r#"{"cmd": "new", "game": "chess", "seed": 1}"#,
        "unknown game 'chess'",
    );
    e.error(r#"{"cmd": "new", "game": "tricks"}"#, "one of");
    e.error(
        r#"{"cmd": "new", "game": "tricks", "deal": "JS QS | KH"}"#,
        "deal",
    );
    e.error(r#"{"cmd": "new", "deal": "x"}"#, "missing field 'game'");
    e.error(
        r#"{"cmd": "new", "game": "tricks", "seed": "five"}"#,
        "'seed'",
    );

    let new = e.ok(json!({"cmd": "new", "game": "tricks", "deal": deal}));
    assert_eq!(new["seats"], 2);
    assert_eq!(new["to_move"], 0);
    assert_eq!(
        Tricks::from_deal(&(), new["deal"].as_str().unwrap()).unwrap(),
        truth
    );

    let mut rng = rng_from_seed(5);
    let mut ply = 0;
    while !truth.is_terminal() {
        let seat = truth.current_seat();
        let legal = e.ok(json!({"cmd": "legal"}));
        let want: Vec<String> = truth.legal_moves().iter().map(|c| c.to_string()).collect();
        assert_eq!(legal["moves"], json!(want));
        assert_eq!(legal["seat"], seat);

        // Bad lines between moves change nothing.
        let outside = (cardsearch::games::tricks::DECK - truth.legal_moves())
            .first()
            .unwrap();
        e.error(
            &json!({"cmd": "play", "move": outside.to_string()}).to_string(),
            "illegal",
        );
        e.error(r#"{"cmd": "play", "move": "QX"}"#, "bad move");
        e.error(r#"{"cmd": "play"}"#, "missing field 'move'");
        e.error(
            r#"{"cmd": "play", "move": "QS", "sea": 1}"#,
            "unknown field 'sea'",
        );
        e.error(r#"{"cmd": "go", "agent": "nobody"}"#, "unknown agent");
        e.error(r#"{"cmd": "go", "agent": "random:x=1"}"#, "x");
        e.error(
            r#"{"cmd": "go", "agent": "random", "iterations": -5}"#,
            "iterations",
        );
        e.error(
            &json!({"cmd": "play", "move": want[0], "seat": 1 - seat}).to_string(),
            "not to move",
        );

        // Even plies: the engine's agent chooses and plays; odd plies: the harness plays.
        let mv = if ply % 2 == 0 {
            let go = e.ok(json!({"cmd": "go", "agent": "random", "seed": ply, "play": true}));
            assert_eq!(go["seat"], seat);
            assert_eq!(go["played"], true);
            go["move"].as_str().unwrap().to_string()
        } else {
            let mv = truth.legal_moves().random(&mut rng).to_string();
            let r = e.ok(json!({"cmd": "play", "move": mv, "seat": seat}));
            assert_eq!(r["seat"], seat);
            mv
        };
        truth.play(mv.parse().unwrap());
        ply += 1;
        let state = e.ok(json!({"cmd": "state"}));
        assert_eq!(state["history"].as_array().unwrap().len(), ply);
        assert_eq!(state["terminal"], truth.is_terminal());
    }
    let state = e.ok(json!({"cmd": "state"}));
    assert_eq!(ply, 8);
    assert_eq!(state["rewards"], json!([truth.reward(0), truth.reward(1)]));
    assert_eq!(state["scores"], json!([truth.score(0), truth.score(1)]));
    e.error(r#"{"cmd": "go", "agent": "random"}"#, "over");
    e.error(r#"{"cmd": "play", "move": "QS"}"#, "over");
    e.error(r#"{"cmd": "legal"}"#, "over");

    let bye = e.ok(json!({"cmd": "quit", "id": "last"}));
    assert_eq!(bye["id"], "last");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn end_of_input_ends_the_engine_cleanly() {
    let mut e = Child::start();
    e.ok(json!({"cmd": "new", "game": "tricks", "seed": 1}));
    drop(e.child.stdin.take());
    assert!(e.child.wait().unwrap().success());
}

/// Sends one request to an in-process engine and returns the reply.
fn ask(engine: &mut Engine, request: Value) -> Value {
    let reply = engine.handle(&request.to_string());
    serde_json::from_str(&reply.line).unwrap()
}

fn ask_ok(engine: &mut Engine, request: Value) -> Value {
    let r = ask(engine, request.clone());
    assert_eq!(r["ok"], request["cmd"], "{request} -> {r}");
    r
}

/// The deal as one seat sees it: its own hand, `?` for every card of the other holders.
fn view_text(deal: &str, seat: usize) -> String {
    deal.split('|')
        .enumerate()
        .map(|(i, part)| {
            if i == seat {
                part.trim().to_string()
            } else {
                vec!["?"; part.split_whitespace().count()].join(" ")
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Plays a real game and, in step, an engine that only has `seat`'s view; the engine's agent
/// moves for `seat`, everyone else plays random moves the harness sends. The engine must list
/// exactly the seat's real legal moves at every turn, accept every real move of the others
/// (redrawing its made-up cards when needed), and end with the real result.
fn view_game_in_step<G: GameDef>(
    game: &str,
    config: &G::Config,
    deal_seed: u64,
    seat: usize,
) -> usize {
    let mut truth = G::new_game(config, &mut rng_from_seed(deal_seed));
    let deal = truth.deal_text();
    let mut engine = Engine::new();
    let view = json!({"seat": seat, "deal": view_text(&deal, seat)});
    let new = ask_ok(
        &mut engine,
        json!({"cmd": "new", "game": game, "view": view, "seed": 3}),
    );
    assert_eq!(new["view"], seat);
    assert!(
        new.get("deal").is_none(),
        "a view-mode game shows no made-up deal"
    );
    let mut rng = rng_from_seed(deal_seed + 100);
    let mut plies = 0;
    while !truth.is_terminal() {
        let to_move = truth.current_seat();
        let mv = if to_move == seat {
            let legal = ask_ok(&mut engine, json!({"cmd": "legal"}));
            let want: Vec<String> = truth
                .legal_moves()
                .to_vec()
                .iter()
                .map(|m| m.to_string())
                .collect();
            assert_eq!(
                legal["moves"],
                json!(want),
                "{game} deal {deal_seed} ply {plies}"
            );
            let go = ask_ok(
                &mut engine,
                json!({"cmd": "go", "agent": "random", "play": true}),
            );
            go["move"].as_str().unwrap().to_string()
        } else {
            let r = ask(&mut engine, json!({"cmd": "legal"}));
            assert!(r["error"].as_str().unwrap().contains("cannot see"), "{r}");
            let mv = truth.legal_moves().random(&mut rng).to_string();
            ask_ok(
                &mut engine,
                json!({"cmd": "play", "move": mv, "seat": to_move}),
            );
            mv
        };
        truth.play(truth.parse_move(&mv).unwrap());
        plies += 1;
    }
    let n = truth.num_seats();
    let state = ask_ok(&mut engine, json!({"cmd": "state"}));
    let rewards: Vec<f64> = (0..n).map(|s| truth.reward(s)).collect();
    let scores: Vec<f64> = (0..n).map(|s| truth.score(s)).collect();
    assert_eq!(state["rewards"], json!(rewards), "{game} deal {deal_seed}");
    assert_eq!(state["scores"], json!(scores), "{game} deal {deal_seed}");
    plies
}

#[test]
fn view_mode_follows_a_game_it_cannot_see() {
    for deal in 0..30 {
        assert_eq!(
            view_game_in_step::<Tricks>("tricks", &(), deal, (deal % 2) as usize),
            8
        );
    }
    let hearts = Hearts::config(&"hearts".parse().unwrap()).unwrap();
    for deal in 0..6 {
        assert_eq!(hearts_view_in_step(&hearts, deal, (deal as usize) % 4), 52);
    }
}

/// Hearts needs one piece of public information beyond the seat's hand: who holds 2C (they
/// lead it). The view writes 2C in that seat's hand and `?` for the rest.
fn hearts_view_in_step(config: &<Hearts as GameDef>::Config, deal_seed: u64, seat: usize) -> usize {
    let mut truth = Hearts::new_game(config, &mut rng_from_seed(deal_seed));
    let deal = truth.deal_text();
    let parts: Vec<&str> = deal.split('|').map(str::trim).collect();
    let view: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == seat {
                p.to_string()
            } else if p.split_whitespace().any(|c| c == "2C") {
                format!("2C{}", " ?".repeat(12))
            } else {
                vec!["?"; 13].join(" ")
            }
        })
        .collect();
    let mut engine = Engine::new();
    ask_ok(
        &mut engine,
        json!({"cmd": "new", "game": "hearts", "view": {"seat": seat, "deal": view.join(" | ")}}),
    );
    let mut rng = rng_from_seed(deal_seed + 7);
    let mut plies = 0;
    while !truth.is_terminal() {
        let to_move = truth.current_seat();
        let mv = if to_move == seat {
            let legal = ask_ok(&mut engine, json!({"cmd": "legal"}));
            let want: Vec<String> = truth.legal_moves().iter().map(|c| c.to_string()).collect();
            assert_eq!(
                legal["moves"],
                json!(want),
                "hearts deal {deal_seed} ply {plies}"
            );
            let go = ask_ok(
                &mut engine,
                json!({"cmd": "go", "agent": "random", "play": true}),
            );
            go["move"].as_str().unwrap().to_string()
        } else {
            let mv = truth.legal_moves().random(&mut rng).to_string();
            ask_ok(
                &mut engine,
                json!({"cmd": "play", "move": mv, "seat": to_move}),
            );
            mv
        };
        truth.play(mv.parse().unwrap());
        plies += 1;
    }
    let state = ask_ok(&mut engine, json!({"cmd": "state"}));
    let scores: Vec<f64> = (0..4).map(|s| truth.score(s)).collect();
    let rewards: Vec<f64> = (0..4).map(|s| truth.reward(s)).collect();
    assert_eq!(state["scores"], json!(scores), "hearts deal {deal_seed}");
    assert_eq!(state["rewards"], json!(rewards), "hearts deal {deal_seed}");
    plies
}

#[test]
fn view_mode_refuses_what_the_seat_could_not_have_seen() {
    let mut engine = Engine::new();
    let deal = "JS QS KH AD | AS JH QH KD | KS AH JD QD";
    let view = json!({"seat": 1, "deal": view_text(deal, 1)});
    ask_ok(
        &mut engine,
        json!({"cmd": "new", "game": "tricks", "view": view}),
    );
    // Seat 0 cannot play a card seat 1 holds.
    let r = ask(&mut engine, json!({"cmd": "play", "move": "AS"}));
    assert!(
        r["error"].as_str().unwrap().contains("not consistent"),
        "{r}"
    );
    ask_ok(&mut engine, json!({"cmd": "play", "move": "QS"}));
    ask_ok(&mut engine, json!({"cmd": "play", "move": "AS"}));
    // Seat 1 leads a diamond and seat 0 does not follow: seat 0 is now known void in diamonds.
    ask_ok(&mut engine, json!({"cmd": "play", "move": "KD"}));
    ask_ok(&mut engine, json!({"cmd": "play", "move": "KS"}));
    // So seat 0 cannot later play a diamond.
    ask_ok(&mut engine, json!({"cmd": "play", "move": "JH"}));
    let r = ask(&mut engine, json!({"cmd": "play", "move": "AD"}));
    assert!(
        r["error"].as_str().unwrap().contains("not consistent"),
        "{r}"
    );
    // Searching or listing for a seat whose cards are unknown is refused, not guessed.
    let r = ask(&mut engine, json!({"cmd": "go", "agent": "random"}));
    assert!(r["error"].as_str().unwrap().contains("cannot see"), "{r}");
    let r = ask(&mut engine, json!({"cmd": "state", "seat": 0}));
    assert!(r.get("error").is_some(), "{r}");

    for (view, mention) in [
        (
            json!({"seat": 0, "deal": "? ? ? | JS QS KH AD | ? ? ? ?"}),
            "'?'",
        ),
        (
            json!({"seat": 0, "deal": "? ? ? ? | JS QS KH 2C | ? ? ? ?"}),
            "2C",
        ),
        (
            json!({"seat": 0, "deal": "? ? ? ? | JS QS KH JS | ? ? ? ?"}),
            "JS",
        ),
        (
            json!({"seat": 2, "deal": "? ? ? ? | JS QS KH AD | ? ? ? ?"}),
            "seat 2",
        ),
        (json!({"deal": "? ? ? ? | JS QS KH AD | ? ? ? ?"}), "seat"),
        (json!({"seat": 0}), "deal"),
        (json!("seat 0"), "object"),
    ] {
        let r = ask(
            &mut engine,
            json!({"cmd": "new", "game": "tricks", "view": view}),
        );
        let e = r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{view} -> {r}"));
        assert!(e.contains(mention), "{view} -> {e}");
    }
    let r = ask(
        &mut engine,
        json!({"cmd": "new", "game": "hearts:pass=left", "view": {"seat": 0, "deal": "?"}}),
    );
    assert!(r["error"].as_str().unwrap().contains("passing"), "{r}");
}

#[test]
fn the_engine_survives_arbitrary_lines() {
    // Requests assembled from the protocol's own words with wrong types, missing and extra
    // fields, in every order: each gets exactly one JSON reply with "ok" or "error".
    let cmds = [
        "hello", "games", "agents", "new", "play", "legal", "state", "go", "quit", "x",
    ];
    let values = [
        json!(null),
        json!(-1),
        json!(0),
        json!(1),
        json!(u64::MAX),
        json!(1.5),
        json!("tricks"),
        json!("hearts"),
        json!("coinguess"),
        json!("random"),
        json!("QS"),
        json!("? ? ? ? | JS QS KH AD | ? ? ? ?"),
        json!({"seat": 0, "deal": "?"}),
        json!({"seat": 1, "deal": "? ? ? ? | JS QS KH AD | ? ? ? ?"}),
        json!([1]),
        json!(true),
    ];
    let fields = [
        "game",
        "seed",
        "deal",
        "view",
        "move",
        "seat",
        "agent",
        "iterations",
        "time_ms",
        "play",
    ];
    let mut engine = Engine::new();
    let mut rng = rng_from_seed(42);
    let mut pick = |n: usize| cardsearch::cards::random_below(&mut rng, n as u32) as usize;
    let mut replies = 0;
    for _ in 0..4000 {
        let mut m = serde_json::Map::new();
        m.insert("cmd".into(), json!(cmds[pick(cmds.len())]));
        for _ in 0..pick(4) {
            m.insert(
                fields[pick(fields.len())].into(),
                values[pick(values.len())].clone(),
            );
        }
        if m["cmd"] == "quit" {
            continue;
        }
        let reply: Value =
            serde_json::from_str(&engine.handle(&Value::Object(m).to_string()).line).unwrap();
        assert!(
            reply.get("ok").is_some() != reply.get("error").is_some(),
            "{reply}"
        );
        replies += 1;
    }
    assert!(replies > 3000);
    for junk in [
        "{",
        "}",
        "\u{0}",
        "{\"cmd\":\"new\",\"game\":\"tricks\",\"seed\":1e999}",
        "null",
        "\"go\"",
    ] {
        let reply: Value = serde_json::from_str(&engine.handle(junk).line).unwrap();
        assert!(reply.get("error").is_some(), "{junk:?} -> {reply}");
    }
}
