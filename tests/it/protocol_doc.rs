//! `docs/protocol.md` shows a real session: these tests send its requests to the engine again
//! and check every reply against the one the document prints, so the document cannot drift from
//! the engine. Once in process, one line at a time; once as the document says it was made, by
//! piping `docs/data/protocol-transcript.requests` into the binary, where every line is read at
//! once (a `stop` or `quit` in that file would stop the searches before it). Replies are compared
//! as JSON values; what depends on the clock is left out: the `time_ms` a search took, and, for
//! searches limited by time, how far they got.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use cardsearch::protocol::Engine;
use serde_json::Value;

/// The requests file the transcript is made from.
const REQUESTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/docs/data/protocol-transcript.requests"
);

/// How long the piped session may take before the test fails instead of hanging: the
/// transcript's searches take milliseconds.
const PIPE_TIMEOUT: Duration = Duration::from_secs(120);

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

#[test]
fn the_requests_file_is_the_documented_session() {
    let file = std::fs::read_to_string(REQUESTS).expect("the transcript's requests file");
    let documented: Vec<String> = transcript().into_iter().map(|(r, _)| r).collect();
    let lines: Vec<&str> = file.lines().collect();
    assert_eq!(
        lines, documented,
        "{REQUESTS} and docs/protocol.md's requests differ"
    );
}

#[test]
fn piping_the_requests_file_into_the_binary_gives_the_documented_replies() {
    let requests = std::fs::read(REQUESTS).expect("the transcript's requests file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsearch"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // Written from its own thread and closed, as a shell pipe would: the engine reads it all at
    // once while it answers, and the replies never wait on the writer.
    let writer = std::thread::spawn(move || stdin.write_all(&requests));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = String::new();
        let read = stdout.read_to_string(&mut out).map(|_| out);
        let _ = tx.send(read);
    });
    let out = match rx.recv_timeout(PIPE_TIMEOUT) {
        Ok(read) => read.expect("the engine's output"),
        Err(_) => {
            let _ = child.kill();
            panic!("the piped session did not end within {PIPE_TIMEOUT:?}");
        }
    };
    writer.join().unwrap().expect("requests written");
    assert!(
        crate::process::wait(&mut child, "cardsearch engine").success(),
        "exit status 0 at the end of input"
    );
    let pairs = transcript();
    let replies: Vec<&str> = out.lines().collect();
    assert_eq!(replies.len(), pairs.len(), "one reply a request:\n{out}");
    for ((request, expected), reply) in pairs.iter().zip(replies) {
        assert_eq!(
            comparable(request, reply),
            comparable(request, expected),
            "\n> {request}\n< {reply}\ndocumented:\n< {expected}"
        );
    }
}
