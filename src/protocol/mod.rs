//! The engine protocol: JSON lines on stdin and stdout, in the spirit of UCI, so a harness in
//! any language can use cardsearch as a player. `cardsearch engine` runs it; this module is the
//! logic, testable without a process. The full description, with a transcript, is
//! `docs/protocol.md`.
//!
//! Every request is one JSON object on one line with a `"cmd"` field, read into a [`Request`];
//! every request gets exactly one reply line: an object with `"ok": "<cmd>"` and the answer, or
//! `{"error": "..."}`. An `"id"` field of a request is copied into its reply. Bad input of any
//! kind is an error reply and the engine keeps serving.
//!
//! A game is set up in one of three ways: from a seed, from an explicit deal in the game's deal
//! notation, or from **one seat's view**: a deal in which the cards that seat cannot see are
//! written `?`. In view mode the engine holds that seat's information set and nothing else
//! ([`crate::game::InfoSet`]): other seats' moves update it, and whether a move is consistent
//! with what the seat has seen is decided exactly by counting the deals left, never by guessing.

mod request;
mod session;
mod view_deal;

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Map, Value, json};

use crate::agents;
use crate::game::rng_from_seed;
use crate::games::{self, GameDef, GameVisitor};
use crate::limits::{ECHO_CHARS, excerpt};
use crate::search::StopSignal;
use crate::spec::{OptionDoc, Spec};

pub use request::{COMMANDS, Go, NewGame, Play, Request, StateOf, ViewSetup};
pub use session::{GameSession, Session};
pub use view_deal::{VIEW_CHECKS, VIEW_FILLS, view_info_set};

/// The longest error message sent: errors quote bad input in part, never whole.
const MAX_ERROR_CHARS: usize = 1000;

/// The most stretches of one request that [`cut_quotes`] looks for in its error, longest first:
/// an error quotes a value or two, and the bound keeps a request of thousands of long values
/// from costing thousands of passes over its error.
const MAX_QUOTED_PIECES: usize = 64;

/// The protocol's version, reported by `hello`; raised when a reply changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 2;

/// One reply line and whether the engine should stop after sending it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The JSON object, without a newline.
    pub line: String,
    /// True after `quit`.
    pub quit: bool,
}

/// The engine's state between lines: at most one game, and the signal that stops its searches.
#[derive(Default)]
pub struct Engine {
    session: Option<Box<dyn Session>>,
    stop: StopSignal,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("game", &self.session.as_ref().map(|s| s.game()))
            .finish()
    }
}

type Answer = Result<Map<String, Value>, String>;

impl Engine {
    /// An engine with no game.
    pub fn new() -> Engine {
        Engine::default()
    }

    /// The signal every `go` of this engine watches: raising it from another thread (as
    /// `cardsearch engine`'s reader does when a `stop` or `quit` line arrives) ends the search in
    /// progress, whose reply then carries the best move found so far. `handle` never lowers it:
    /// whoever raises it lowers it before the next request it should not stop.
    pub fn stop_signal(&self) -> StopSignal {
        self.stop.clone()
    }

    /// Handles one request line and returns the reply. Never panics: a panic inside a search
    /// or a game (a bug, not bad input) is caught, reported as an error, and the game dropped.
    pub fn handle(&mut self, line: &str) -> Reply {
        let (id, request) = request::parse(line);
        let request = match request {
            Ok(r) => r,
            Err(e) => return reply(id, "", Err(cut_quotes(e, line))),
        };
        let cmd = command_name(&request);
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(&request)));
        let answer = outcome.unwrap_or_else(|panic| {
            self.session = None;
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown");
            Err(format!(
                "internal error during '{cmd}' ({what}); the game was discarded, start a new one"
            ))
        });
        reply(id, cmd, answer.map_err(|e| cut_quotes(e, line)))
    }

    /// The reply to a line refused before it was read (too long, say).
    pub fn refuse(message: String) -> Reply {
        reply(None, "", Err(message))
    }

    fn dispatch(&mut self, request: &Request) -> Answer {
        match request {
            Request::Hello => Ok(obj(json!({
                "engine": "cardsearch",
                "version": env!("CARGO_PKG_VERSION"),
                "protocol": PROTOCOL_VERSION,
            }))),
            Request::Games => {
                let list: Vec<Value> = games::all()
                    .iter()
                    .map(|g| json!({"name": g.name, "about": g.about, "options": options(g.options)}))
                    .collect();
                Ok(obj(json!({ "games": list })))
            }
            Request::Agents => {
                let list: Vec<Value> = agents::all()
                    .iter()
                    .map(|a| json!({"name": a.name, "about": a.about, "options": options(a.options)}))
                    .collect();
                Ok(obj(json!({ "agents": list })))
            }
            Request::New(new) => {
                let session = new_session(new)?;
                let answer = session.describe();
                self.session = Some(session);
                Ok(answer)
            }
            // A search is stopped by the reader as the line arrives (see `Engine::stop_signal`);
            // once it gets here there is nothing left to stop.
            Request::Stop | Request::Quit => Ok(Map::new()),
            Request::Play(_)
            | Request::Legal
            | Request::State(_)
            | Request::Go(_)
            | Request::Solve(_) => {
                let cmd = command_name(request);
                let session = self
                    .session
                    .as_mut()
                    .ok_or_else(|| format!("no game: send 'new' before '{cmd}'"))?;
                match request {
                    Request::Play(p) => session.play(&p.mv, p.seat, p.hand.as_deref()),
                    Request::Legal => session.legal(),
                    Request::State(st) => session.state(st.seat),
                    Request::Go(go) => session.go(go, &self.stop),
                    Request::Solve(f) => session.solve(f.node_limit, &self.stop),
                    _ => unreachable!("matched above"),
                }
            }
        }
    }
}

/// The `cmd` of a request.
fn command_name(request: &Request) -> &'static str {
    match request {
        Request::Hello => "hello",
        Request::Games => "games",
        Request::Agents => "agents",
        Request::New(_) => "new",
        Request::Play(_) => "play",
        Request::Legal => "legal",
        Request::State(_) => "state",
        Request::Go(_) => "go",
        Request::Solve(_) => "solve",
        Request::Stop => "stop",
        Request::Quit => "quit",
    }
}

/// True for a request line that [`Engine::handle`] would read as `stop` or `quit`: the engine's
/// reader raises the stop signal on it as it arrives, before the search in progress ends. A
/// line the engine will refuse (`{"cmd":"hello","cmd":"quit"}`) stops nothing.
pub fn asks_to_stop(line: &str) -> bool {
    matches!(
        request::parse(line).1,
        Ok(request::Request::Stop | request::Request::Quit)
    )
}

/// `error` with every long stretch of the request `line` that it quotes cut to its
/// [`excerpt`]. Errors name the bad value, from wherever it was found (a spec's option, a card
/// of a move, a field's name), and a value can be a megabyte: cutting here, where every error
/// passes, keeps each quote to [`ECHO_CHARS`] characters without each of those places doing it.
/// The stretches are the request's strings (keys and values, at any depth), trimmed, their
/// `|`-separated parts, and their words split at spaces and the spec separators `,:=`.
fn cut_quotes(error: String, line: &str) -> String {
    // An error this short quotes no stretch longer than it.
    if error.chars().count() <= ECHO_CHARS {
        return error;
    }
    let Ok(request) = serde_json::from_str::<Value>(line) else {
        return error;
    };
    let mut pieces = Vec::new();
    long_pieces(&request, &mut pieces);
    // Longest first, so that a whole value is cut before its parts (an excerpt holds no run of
    // the input longer than ECHO_CHARS, so a part cannot match inside it).
    pieces.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    pieces.dedup();
    let mut error = error;
    for piece in pieces.into_iter().take(MAX_QUOTED_PIECES) {
        if error.contains(piece) {
            error = error.replace(piece, &excerpt(piece));
        }
    }
    error
}

/// The stretches of `value`'s strings that [`cut_quotes`] looks for: those longer than
/// [`ECHO_CHARS`] characters.
fn long_pieces<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) => long_pieces_of(s, out),
        Value::Array(items) => items.iter().for_each(|v| long_pieces(v, out)),
        Value::Object(fields) => {
            for (key, v) in fields {
                long_pieces_of(key, out);
                long_pieces(v, out);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// [`long_pieces`] of one string.
fn long_pieces_of<'v>(text: &'v str, out: &mut Vec<&'v str>) {
    let long = |t: &&'v str| t.chars().nth(ECHO_CHARS).is_some();
    out.extend([text, text.trim()].into_iter().filter(long));
    out.extend(text.split('|').map(str::trim).filter(long));
    out.extend(
        text.split(|c: char| c.is_whitespace() || "|,:=".contains(c))
            .filter(long),
    );
}

fn reply(id: Option<Value>, cmd: &str, answer: Answer) -> Reply {
    let mut m = match answer {
        Ok(mut fields) => {
            let mut m = Map::new();
            m.insert("ok".into(), Value::String(cmd.into()));
            m.append(&mut fields);
            m
        }
        Err(e) => {
            let mut m = Map::new();
            // Errors quote bad input, and an input can be long: keep them readable.
            let e = if e.chars().count() > MAX_ERROR_CHARS {
                let head: String = e.chars().take(MAX_ERROR_CHARS).collect();
                format!("{head}… (error cut at {MAX_ERROR_CHARS} characters)")
            } else {
                e
            };
            m.insert("error".into(), Value::String(e));
            m
        }
    };
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    Reply {
        quit: cmd == "quit" && m.contains_key("ok"),
        line: Value::Object(m).to_string(),
    }
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn options(o: &[OptionDoc]) -> Vec<Value> {
    o.iter()
        .map(|o| json!({"key": o.key, "default": o.default, "help": o.help}))
        .collect()
}

/// How a `new` sets up the deal.
enum Setup {
    Seed(u64),
    Deal(String),
    View { seat: u64, deal: String, seed: u64 },
}

fn new_session(new: &NewGame) -> Result<Box<dyn Session>, String> {
    let spec: Spec = new.game.parse().map_err(|e: crate::spec::SpecError| e.0)?;
    let setup = match (new.seed, &new.deal, &new.view) {
        (Some(s), None, None) => Setup::Seed(s),
        (None, Some(d), None) => Setup::Deal(d.clone()),
        (seed, None, Some(v)) => Setup::View {
            seat: v.seat,
            deal: v.deal.clone(),
            seed: seed.unwrap_or(0),
        },
        (None, None, None) => return Err("'new' needs one of 'seed', 'deal' or 'view'".into()),
        _ => {
            return Err(
                "give only one of 'seed', 'deal' and 'view' ('seed' may go beside 'view')".into(),
            );
        }
    };
    games::dispatch(
        &spec,
        NewSession {
            spec: new.game.clone(),
            setup,
        },
    )
    .map_err(|e| e.0)?
}

struct NewSession {
    spec: String,
    setup: Setup,
}

impl GameVisitor for NewSession {
    type Output = Result<Box<dyn Session>, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        Ok(match self.setup {
            Setup::Seed(seed) => Box::new(GameSession::full(
                self.spec,
                G::new_game(&config, &mut rng_from_seed(seed)),
                seed,
            )),
            Setup::Deal(deal) => Box::new(GameSession::full(
                self.spec,
                G::from_deal(&config, &deal).map_err(|e| e.to_string())?,
                0,
            )),
            Setup::View { seat, deal, seed } => {
                let seat = usize::try_from(seat).unwrap_or(usize::MAX);
                let info = view_info_set::<G>(&config, seat, &deal, &mut rng_from_seed(seed))?;
                Box::new(GameSession::<G>::view(self.spec, info, seed))
            }
        })
    }
}
