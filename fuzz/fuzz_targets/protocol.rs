//! A protocol session: the input's lines, sent to one engine in order. Every line gets one
//! line of JSON with exactly one of `ok` and `error`, never an internal error (a panic caught
//! inside the engine), and a request answered with an error leaves the game as it was.
//! Searches are kept short (at most 2,000 iterations, 5 ms; not the student Pentago-Swap player,
//! whose budget is its own 1.5 s) and solves small (100,000 nodes) so that every input runs quickly;
//! the budgets' ceilings themselves are tested in the ordinary test suite.
#![no_main]

use cardsearch::protocol::Engine;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// True for a `go` whose budget would make this input slow, or a `solve` without a small node
/// limit (the default is seconds of search by design).
fn slow(line: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return false;
    };
    let big = |key: &str, max: f64| v.get(key).and_then(Value::as_f64).is_some_and(|x| x > max);
    let spec = v.get("agent").and_then(Value::as_str).unwrap_or("");
    let small_solve = v
        .get("node_limit")
        .and_then(Value::as_u64)
        .is_some_and(|n| n <= 100_000);
    match v.get("cmd").and_then(Value::as_str) {
        Some("go") => {
            big("iterations", 2000.0)
                || big("time_ms", 5.0)
                || spec.contains("iterations=")
                || spec.contains("time_ms=")
                || spec.starts_with("pentago-student")
                || (v.get("iterations").is_none() && v.get("time_ms").is_none())
        }
        Some("solve") => !small_solve,
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new();
    for line in text.lines().take(64) {
        if slow(line) {
            continue;
        }
        let state = |e: &mut Engine| {
            (
                e.handle(r#"{"cmd":"state"}"#).line,
                e.handle(r#"{"cmd":"legal"}"#).line,
            )
        };
        let before = state(&mut engine);
        let reply = engine.handle(line);
        assert!(!reply.line.contains('\n'));
        let v: Value = serde_json::from_str(&reply.line).expect("JSON");
        assert!(
            v.get("ok").is_some() != v.get("error").is_some(),
            "{}",
            reply.line
        );
        if let Some(e) = v["error"].as_str() {
            assert!(!e.contains("internal error"), "{line} -> {e}");
            assert_eq!(state(&mut engine), before, "{line} changed the game");
        }
        if reply.quit {
            break;
        }
    }
});
