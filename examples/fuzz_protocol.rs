//! A protocol fuzzer: millions of requests, valid game sessions mixed with mutations of them and
//! junk, sent to an in-process engine, checking after every one that
//!
//! - the reply is one line of JSON with exactly one of `ok` and `error`;
//! - no reply reports an internal error (a panic caught inside the engine is a bug);
//! - no request takes longer than 10 seconds;
//! - a request answered with an error changed nothing: the game's `state` (and `legal` moves)
//!   are the same before and after it.
//!
//! ```sh
//! cargo run --release --example fuzz_protocol -- --requests 1000000 --seed 1
//! ```
//!
//! It prints a summary and exits non-zero on the first violation, with the request that caused
//! it. Coverage-guided fuzzing (`cargo fuzz`) needs a nightly toolchain this project does not
//! have; this harness is the stable-toolchain equivalent described in `docs/reliability.md`.

use std::time::{Duration, Instant};

use cardsearch::cards::random_below;
use cardsearch::game::rng_from_seed;
use cardsearch::protocol::Engine;
use cardsearch::{Card, Rank, Rng, Suit};
use serde_json::{Value, json};

const GAMES: [&str; 9] = [
    "tricks",
    "coinguess",
    "sueca",
    "sueca:bandeira=tricks",
    "bisca",
    "bisca:exchange=true",
    "hearts",
    "hearts:pass=left",
    "hearts:pass=across",
];

const AGENTS: [&str; 12] = [
    "random",
    "ismcts",
    "pimc",
    "pimc:dets=3,vote=true",
    "uct",
    "ismcts:c=0",
    "ismcts:parallel=tree,threads=2",
    "ismcts:parallel=root,threads=2",
    "ismcts:parallel=leaf,threads=2",
    "ismcts:parallel=tree-locked,threads=2,virtual_loss=3",
    "ismcts:max_nodes=10",
    "pimc:dets=2,max_nodes=3",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[random_below(rng, items.len() as u32) as usize]
}

fn chance(rng: &mut Rng, percent: u32) -> bool {
    random_below(rng, 100) < percent
}

fn random_card(rng: &mut Rng) -> String {
    let c = Card::new(
        Rank::from_index(random_below(rng, 13) as usize),
        Suit::from_index(random_below(rng, 4) as usize),
    );
    c.to_string()
}

/// A valid-looking request, often really valid for the current game.
fn request(rng: &mut Rng, legal: &[String], deal: Option<&str>, view_seat: u64) -> Value {
    match random_below(rng, 100) {
        0..=4 => json!({"cmd": "new", "game": pick(rng, &GAMES), "seed": random_below(rng, 1000)}),
        5..=7 => {
            // A view of the current deal from one seat: its hand kept, the rest hidden.
            let deal = deal.unwrap_or("? ? ? ? | JS QS KH AD | ? ? ? ?");
            let hidden: Vec<String> = deal
                .split('|')
                .enumerate()
                .map(|(i, part)| {
                    if i as u64 == view_seat || part.contains('=') {
                        part.to_string()
                    } else {
                        part.split_whitespace()
                            .map(|_| "?")
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                })
                .collect();
            json!({"cmd": "new", "game": pick(rng, &GAMES),
                   "view": {"seat": view_seat, "deal": hidden.join("|")}})
        }
        8..=45 => match legal {
            [] => json!({"cmd": "play", "move": random_card(rng)}),
            moves => {
                let mv = &moves[random_below(rng, moves.len() as u32) as usize];
                json!({"cmd": "play", "move": mv})
            }
        },
        46..=50 => json!({"cmd": "play", "move": random_card(rng), "seat": random_below(rng, 5)}),
        51..=52 => json!({"cmd": "play", "move": "?", "seat": random_below(rng, 4)}),
        53..=62 => json!({"cmd": "legal"}),
        63..=70 => json!({"cmd": "state"}),
        71..=90 => {
            let mut go = json!({"cmd": "go", "agent": pick(rng, &AGENTS),
                                "iterations": 1 + random_below(rng, 200)});
            if chance(rng, 10) {
                go["time_ms"] = json!(0.05 + random_below(rng, 20) as f64 / 10.0);
            }
            if chance(rng, 30) {
                go["play"] = json!(true);
            }
            if chance(rng, 50) {
                go["seed"] = json!(random_below(rng, 100));
            }
            go
        }
        91..=93 => json!({"cmd": pick(rng, &["hello", "games", "agents", "stop"])}),
        _ => json!({"cmd": "state", "seat": random_below(rng, 6)}),
    }
}

/// A mutation of `line`: a change of type, value, field or bytes.
fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut value: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    match random_below(rng, 9) {
        0 => {
            // Cut the line short.
            let cut = random_below(rng, line.len() as u32 + 1) as usize;
            line.get(..cut).unwrap_or(line).to_string()
        }
        1 => {
            // Flip a byte.
            let mut bytes = line.as_bytes().to_vec();
            if !bytes.is_empty() {
                let i = random_below(rng, bytes.len() as u32) as usize;
                bytes[i] ^= 1 << random_below(rng, 8);
            }
            String::from_utf8_lossy(&bytes).to_string()
        }
        2..=5 => {
            if let Value::Object(m) = &mut value {
                let keys: Vec<String> = m.keys().cloned().collect();
                let key = keys[random_below(rng, keys.len() as u32) as usize].clone();
                let replacement = match random_below(rng, 10) {
                    0 => json!(null),
                    1 => json!(-1),
                    2 => json!(u64::MAX),
                    3 => json!(1e300),
                    4 => json!("ten"),
                    5 => json!([1, 2]),
                    6 => json!({"seat": 0}),
                    7 => json!("x".repeat(random_below(rng, 5000) as usize)),
                    8 => json!(true),
                    _ => json!(random_below(rng, 1 << 14)),
                };
                m.insert(key, replacement);
            }
            value.to_string()
        }
        6 => {
            if let Value::Object(m) = &mut value {
                m.insert(format!("extra{}", random_below(rng, 3)), json!(1));
            }
            value.to_string()
        }
        7 => {
            if let Value::Object(m) = &mut value
                && let Some(key) = m.keys().next().cloned()
            {
                m.remove(&key);
            }
            value.to_string()
        }
        _ => pick(
            rng,
            &[
                "",
                "{}",
                "[]",
                "null",
                "{\"cmd\":\"go\",",
                "\u{0}",
                "\u{fffd}{",
            ],
        )
        .to_string(),
    }
}

/// What must not change when a request fails: the game as the engine shows it.
fn snapshot(engine: &mut Engine) -> (String, String) {
    let state = engine.handle(r#"{"cmd":"state"}"#).line;
    let legal = engine.handle(r#"{"cmd":"legal"}"#).line;
    (state, legal)
}

fn main() {
    let mut requests: u64 = 1_000_000;
    let mut seed: u64 = 1;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse().ok());
        match (args[i].as_str(), value) {
            ("--requests", Some(v)) => requests = v,
            ("--seed", Some(v)) => seed = v,
            (other, _) => {
                eprintln!("unknown or malformed option {other} (--requests N, --seed S)");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let mut rng = rng_from_seed(seed);
    let mut engine = Engine::new();
    let (mut legal, mut deal, mut view_seat) = (Vec::<String>::new(), None::<String>, 0u64);
    let (mut errors, mut mutated, mut slowest) = (0u64, 0u64, Duration::ZERO);
    let mut worst = String::new();
    let start = Instant::now();
    for n in 0..requests {
        let valid = request(&mut rng, &legal, deal.as_deref(), view_seat).to_string();
        let line = if chance(&mut rng, 40) {
            mutated += 1;
            mutate(&mut rng, &valid)
        } else {
            valid
        };
        let before = snapshot(&mut engine);
        let t = Instant::now();
        let reply = engine.handle(&line);
        let took = t.elapsed();
        if took > slowest {
            slowest = took;
            worst = line.chars().take(200).collect();
        }
        let fail = |why: &str| -> ! {
            eprintln!("request {n}: {why}\n> {line}\n< {}", reply.line);
            std::process::exit(1);
        };
        if took > Duration::from_secs(10) {
            fail("took more than 10 seconds");
        }
        if reply.line.contains('\n') {
            fail("reply is not one line");
        }
        let value: Value =
            serde_json::from_str(&reply.line).unwrap_or_else(|_| fail("reply is not JSON"));
        let (ok, error) = (value.get("ok").is_some(), value.get("error").is_some());
        if ok == error {
            fail("reply must have exactly one of ok and error");
        }
        if let Some(e) = value["error"].as_str() {
            errors += 1;
            if e.contains("internal error") {
                fail("a panic inside the engine");
            }
            if snapshot(&mut engine) != before {
                fail("an error changed the game");
            }
        }
        // Track what the next valid requests can use.
        match value["ok"].as_str() {
            Some("new") => {
                deal = value["deal"].as_str().map(str::to_owned);
                view_seat = random_below(&mut rng, 4) as u64;
                legal.clear();
            }
            Some("legal") => {
                legal = value["moves"]
                    .as_array()
                    .map(|m| {
                        m.iter()
                            .filter_map(|v| v.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
            }
            Some("play") => legal.clear(),
            _ => {}
        }
        if value["ok"] == "quit" {
            engine = Engine::new();
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!(
                "{} requests, {errors} errors, {:.0?}",
                n + 1,
                start.elapsed()
            );
        }
    }
    println!(
        "fuzz_protocol: {requests} requests (seed {seed}), {mutated} mutated, {errors} answered \
         with an error, none with an internal error, every error left the game unchanged; \
         slowest request {:.1} ms ({worst}); {:.0?} in all",
        slowest.as_secs_f64() * 1e3,
        start.elapsed()
    );
}
