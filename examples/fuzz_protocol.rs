//! A protocol fuzzer: millions of requests, valid game sessions mixed with mutations of them and
//! junk, sent to an in-process engine, checking after every one that
//!
//! - the reply is one line of JSON with exactly one of `ok` and `error`;
//! - no reply reports an internal error (a panic caught inside the engine is a bug);
//! - no request takes longer than 10 seconds;
//! - a request answered with an error changed nothing: the game's `state` (and `legal` moves)
//!   are the same before and after it;
//! - an answered `go` chose a move that was legal, and reports `iterations`, `nodes` and
//!   `tree_full` (true only after a search that built a tree).
//!
//! ```sh
//! cargo run --release --example fuzz_protocol -- --requests 1000000 --seed 1
//! ```
//!
//! It prints a summary and exits non-zero on the first violation, with the request that caused
//! it. `--write-seeds DIR` also writes the requests it sends, 64 to a file, as a starting corpus
//! for the coverage-guided `protocol` target in `fuzz/` (`cargo fuzz`; docs/reliability.md). This
//! harness needs only the crate and the stable toolchain.

use std::time::{Duration, Instant};

use cardsearch::cards::random_below;
use cardsearch::game::rng_from_seed;
use cardsearch::protocol::Engine;
use cardsearch::{Card, Rank, Rng, Suit};
use serde_json::{Value, json};

const GAMES: [&str; 16] = [
    "tricks",
    "coinguess",
    "sueca",
    "sueca:bandeira=tricks",
    "bisca",
    "bisca:exchange=true",
    "hearts",
    "hearts:pass=left",
    "hearts:pass=across",
    "asmacag",
    "asmacag:hand=4,board=6,actions=2",
    "asmacag:actions=1,doubles=0,halves=15",
    "secret",
    "pentago-swap",
    // Options out of range or unknown: each must be an error naming the option.
    "asmacag:actions=16",
    "hearts:pass=sideways",
];

/// Agents of every family, with the options that take other code paths (playouts, rewards,
/// tree reuse, inference, exact endgames, priors, parallel modes) and some that no game
/// accepts or only some games do: those must be answered with an error, never a panic.
const AGENTS: [&str; 48] = [
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
    "ismcts:preset=strong",
    "pimc:preset=strong",
    "mo-ismcts",
    "mo-ismcts:parallel=tree,threads=2,root_batch=1",
    "mo-ismcts:parallel=root,threads=2,playout=heuristic",
    "mo-ismcts:parallel=leaf,threads=3",
    "ismcts:playout=nast",
    "ismcts:playout=nast:n=3,policy=roulette",
    "ismcts:playout=nast:n=4,policy=ucb1:c=0.3,parallel=tree,threads=2,nast_tables=thread",
    "ismcts:playout=epic,policy=egreedy:epsilon=0.5,nast_decay=0.5",
    "pimc:playout=nast:n=1,policy=gibbs:tau=0.25",
    "ismcts:playout=heuristic,epsilon=0",
    "ismcts:playout=model",
    "uct:playout=model,epsilon=1",
    "ismcts:reward=wl",
    // A reward at the edge of the constant's range: a lost wl child then scores exactly -1,
    // which once tied the selection's starting score (docs/reliability.md).
    "ismcts:reward=wl,c=0",
    "pimc:dets=3,reward=wl,c=0,parallel=tree,threads=2",
    "mo-ismcts:reward=wl,c=0",
    "ismcts:reward=sd",
    "ismcts:reward=mix:w=0.3",
    "ismcts:reward=rank",
    "ismcts:reuse=true",
    "ismcts:reuse=true,parallel=tree,threads=2",
    "ismcts:infer=50",
    "ismcts:infer=40,infer_model=learned,infer_eps=0.1",
    "ismcts:prior=64",
    "ismcts:endgame=thesis",
    "pimc:endgame=8,endgame_pick=vote,endgame_deals=5",
    "ismcts:leaf_solve=6",
    "ismcts:turn_share=0.6,reuse=true",
    "osla",
    "turn-mcts",
    "oe",
    "ntboe",
    "pentago-student",
    "pentago-strong:parallel=tree,threads=2",
];

/// Options at the ends of their ranges, and switches, added now and then to an agent above: each
/// alone is tested elsewhere, but a search meets their combinations only here (`reward=wl` with
/// `c=0` once crashed every tree search: docs/reliability.md). Combinations an agent does not
/// take (a repeated option, an option of another family) must be errors naming it.
const EDGE_OPTIONS: [&str; 14] = [
    "c=0",
    "c=1000000",
    "reward=wl",
    "reward=sd",
    "reward=rank",
    "virtual_loss=0",
    "root_batch=1",
    "max_nodes=4",
    "parallel=tree,threads=2",
    "prior=1000",
    "playout=nast,policy=ucb1:c=0",
    "reuse=true",
    "endgame=52,endgame_nodes=1000",
    "leaf_solve=16",
];

/// An agent spec: one of [`AGENTS`], a quarter of the time with one or two [`EDGE_OPTIONS`].
fn agent_spec(rng: &mut Rng) -> String {
    let mut spec = pick(rng, &AGENTS).to_owned();
    if chance(rng, 25) {
        for _ in 0..1 + random_below(rng, 2) {
            spec.push(if spec.contains(':') { ',' } else { ':' });
            spec.push_str(pick(rng, &EDGE_OPTIONS));
        }
    }
    spec
}

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
            // Games with a header (`dealer=3 trump=6D | …`) list the hands after it.
            let first_hand = u64::from(deal.split('|').next().is_some_and(|p| p.contains('=')));
            let hidden: Vec<String> = deal
                .split('|')
                .enumerate()
                .map(|(i, part)| {
                    if i as u64 == view_seat + first_hand || part.contains('=') {
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
            let mut go = json!({"cmd": "go", "agent": agent_spec(rng),
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
        91..=92 => json!({"cmd": pick(rng, &["hello", "games", "agents", "stop"])}),
        93..=95 => {
            // Exact values need every card known: in view mode `solve` must refuse. The node
            // limit keeps a whole deal's solve short (without it, it may take seconds).
            json!({"cmd": "solve", "node_limit": random_below(rng, 200_000)})
        }
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

/// True for a `solve` that may run for seconds: one with no small node limit (the default,
/// 100 million nodes, is seconds of search by design, more on a loaded machine).
fn slow_solve(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return false;
    };
    v.get("cmd").and_then(Value::as_str) == Some("solve")
        && v.get("node_limit")
            .and_then(Value::as_u64)
            .is_none_or(|n| n > 1_000_000)
}

/// What must not change when a request fails: the game as the engine shows it.
fn snapshot(engine: &mut Engine) -> (String, String) {
    let state = engine.handle(r#"{"cmd":"state"}"#).line;
    let legal = engine.handle(r#"{"cmd":"legal"}"#).line;
    (state, legal)
}

/// What every answered `go` must show: a move that was legal before it (`legal`, the reply to
/// `legal` then), the search's counts as numbers, and a full tree only where a search ran
/// and built one.
fn check_go(reply: &Value, legal: &str) -> Result<(), String> {
    let legal: Value = serde_json::from_str(legal).map_err(|_| "legal reply is not JSON")?;
    let moves = legal["moves"]
        .as_array()
        .ok_or("a go answered where legal had no moves")?;
    if !moves.contains(&reply["move"]) {
        return Err("a go chose a move that was not legal".into());
    }
    let count = |field: &str| {
        reply[field]
            .as_u64()
            .ok_or(format!("a go's {field} is not a count"))
    };
    let (iterations, nodes) = (count("iterations")?, count("nodes")?);
    let full = reply["tree_full"]
        .as_bool()
        .ok_or("a go's tree_full is not true or false")?;
    if full && (iterations == 0 || nodes == 0) {
        return Err("tree_full without a search that built a tree".into());
    }
    Ok(())
}

fn main() {
    let mut requests: u64 = 1_000_000;
    let mut seed: u64 = 1;
    let mut seeds_dir: Option<std::path::PathBuf> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let raw = args.get(i + 1);
        let value = raw.and_then(|v| v.parse().ok());
        match (args[i].as_str(), value) {
            ("--requests", Some(v)) => requests = v,
            ("--seed", Some(v)) => seed = v,
            ("--write-seeds", _) if raw.is_some() => seeds_dir = raw.map(Into::into),
            (other, _) => {
                eprintln!(
                    "unknown or malformed option {other} (--requests N, --seed S, --write-seeds DIR)"
                );
                std::process::exit(2);
            }
        }
        i += 2;
    }
    // The requests sent, in files of 64 lines: a corpus for the coverage-guided `protocol`
    // target (fuzz/), whose inputs are sessions of at most 64 lines.
    let (mut session, mut sessions) = (Vec::<String>::new(), 0u64);
    let mut rng = rng_from_seed(seed);
    let mut engine = Engine::new();
    let (mut legal, mut deal, mut view_seat) = (Vec::<String>::new(), None::<String>, 0u64);
    let (mut errors, mut mutated, mut skipped, mut slowest) = (0u64, 0u64, 0u64, Duration::ZERO);
    let mut worst = String::new();
    // Searches and solves that ran to an answer, to show what the run reached.
    let (mut searched, mut solved) = (std::collections::BTreeMap::<String, u64>::new(), 0u64);
    let start = Instant::now();
    for n in 0..requests {
        let valid = request(&mut rng, &legal, deal.as_deref(), view_seat).to_string();
        let line = if chance(&mut rng, 40) {
            mutated += 1;
            mutate(&mut rng, &valid)
        } else {
            valid
        };
        if slow_solve(&line) {
            skipped += 1;
            continue;
        }
        if let Some(dir) = &seeds_dir {
            session.push(line.clone());
            if session.len() == 64 {
                let file = dir.join(format!("session-{seed}-{sessions:06}"));
                sessions += 1;
                let written = std::fs::create_dir_all(dir)
                    .and_then(|()| std::fs::write(&file, session.join("\n") + "\n"));
                if let Err(e) = written {
                    eprintln!("cannot write {}: {e}", file.display());
                    std::process::exit(2);
                }
                session.clear();
            }
        }
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
            if let Some(dir) = &seeds_dir {
                // The requests since the last whole file, ending with this one.
                let file = dir.join(format!("failing-{seed}"));
                let _ = std::fs::write(&file, session.join("\n") + "\n");
                eprintln!("the session's last requests: {}", file.display());
            }
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
            Some("go") => {
                check_go(&value, &before.1).unwrap_or_else(|why| fail(&why));
                let request: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                if let Some(agent) = request["agent"].as_str() {
                    // Specs with edge options are too many to list one by one.
                    let key = if AGENTS.contains(&agent) {
                        agent
                    } else {
                        "(with edge options)"
                    };
                    *searched.entry(key.to_owned()).or_default() += 1;
                }
            }
            Some("solve") => solved += 1,
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
        "fuzz_protocol: {requests} requests (seed {seed}), {mutated} mutated, {skipped} slow \
         solves not sent, {errors} answered with an error, none with an internal error, every error left the game unchanged; \
         slowest request {:.1} ms ({worst}); {:.0?} in all",
        slowest.as_secs_f64() * 1e3,
        start.elapsed()
    );
    let answered: Vec<String> = searched.iter().map(|(a, n)| format!("{a} {n}")).collect();
    println!(
        "answered: {solved} solves; gos by agent: {}",
        answered.join(", ")
    );
}
