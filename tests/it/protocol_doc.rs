//! `docs/protocol.md` shows a real session: this test sends its requests to the engine again and
//! checks every reply against the one the document prints, so the document cannot drift from
//! the engine. Replies are compared as JSON values; what depends on the clock is left out: the
//! `time_ms` a search took, and, for searches limited by time, how far they got.

use cardsearch::protocol::Engine;
use serde_json::Value;

/// The `> request` / `< reply` pairs of the document's transcript.
fn transcript() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md"))
        .expect("docs/protocol.md");
    let mut pairs = Vec::new();
    let mut request = None;
    for line in doc.lines() {
        if let Some(r) = line.strip_prefix("> ") {
            assert!(request.is_none(), "two requests in a row: {r}");
            request = Some(r.to_string());
        } else if let Some(reply) = line.strip_prefix("< ") {
            let r = request.take().expect("a reply follows a request");
            pairs.push((r, reply.to_string()));
        }
    }
    assert!(request.is_none(), "a request without a reply");
    pairs
}

/// The reply with what the clock decides taken out.
fn comparable(request: &str, reply: &str) -> Value {
    let mut value: Value = serde_json::from_str(reply).expect("replies are JSON");
    let timed = serde_json::from_str::<Value>(request)
        .ok()
        .is_some_and(|r| r.get("time_ms").is_some());
    if let Value::Object(m) = &mut value {
        m.remove("time_ms");
        if timed {
            for key in ["children", "iterations", "move", "nodes"] {
                m.remove(key);
            }
        }
    }
    value
}

#[test]
fn the_documented_session_replays_exactly() {
    let pairs = transcript();
    assert!(pairs.len() >= 30, "the transcript is there");
    let mut engine = Engine::new();
    for (request, expected) in pairs {
        let reply = engine.handle(&request);
        assert_eq!(
            comparable(&request, &reply.line),
            comparable(&request, &expected),
            "\n> {request}\n< {}\ndocumented:\n< {expected}",
            reply.line
        );
    }
}
