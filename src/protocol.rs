//! The engine protocol: JSON lines on stdin and stdout, in the spirit of UCI, so a harness in
//! any language can use cardsearch as a player. `cardsearch engine` runs it; this module is the
//! logic, testable without a process. The full description, with a transcript, is
//! `docs/protocol.md`.
//!
//! Every request is one JSON object on one line with a `"cmd"` field; every request gets exactly
//! one reply line: an object with `"ok": "<cmd>"` and the answer, or `{"error": "..."}`. An `"id"`
//! field of a request is copied into its reply. Bad input of any kind is an error reply and the
//! engine keeps serving.
//!
//! A game is set up in one of three ways: from a seed, from an explicit deal in the game's deal
//! notation, or from **one seat's view**: a deal in which the cards that seat cannot see are
//! written `?`. In view mode the engine fills the `?` with the remaining cards, arbitrarily but
//! consistently, and from then on only that seat may search (`go`) or list legal moves: agents
//! determinize from that seat's view, so the made-up cards never influence a decision. When
//! another seat plays a card the made-up state gave to someone else, the engine redraws the
//! hidden cards from the seat's own determinization sampler until the move is legal, which
//! keeps the state consistent with everything the seat has seen (voids included). Cards a seat
//! learns privately (Bisca's draws) come with the move as the seat's `hand`, and the redraw
//! also makes the seat hold exactly those.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::agents::{self, Decision};
use crate::cards::{Card, CardSet};
use crate::game::{DealSampler, MoveSet, Rng, Seat, View, next_seed, rng_from_seed};
use crate::games::{self, GameDef, GameVisitor};
use crate::search::Budget;
use crate::spec::{OptionDoc, Spec};

/// The protocol's version, reported by `hello`; raised when a reply changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;

/// How many redraws of the hidden cards a view-mode `play` tries before declaring a move
/// inconsistent with the seat's view. The chance that one draw fits is the chance, under the
/// seat's uniform belief, that the mover holds that card and may play it: about one in the
/// number of hidden holders, and rarely below one in a thousand even for a surprising void.
pub const VIEW_REDRAWS: usize = 200_000;

/// How many random fillings of a view deal's `?` are tried before giving up: a filling can only
/// fail a game-specific rule the protocol does not know (Sueca's turned-up card must be in the
/// dealer's hand), which a random filling meets with a fair chance.
pub const VIEW_FILLS: usize = 1000;

/// The longest `go` accepted, so a deadline can never overflow the clock.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// One reply line and whether the engine should stop after sending it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The JSON object, without a newline.
    pub line: String,
    /// True after `quit`.
    pub quit: bool,
}

/// The engine's state between lines: at most one game.
#[derive(Default)]
pub struct Engine {
    session: Option<Box<dyn Session>>,
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

    /// Handles one request line and returns the reply. Never panics: a panic inside a search
    /// or a game (a bug, not bad input) is caught, reported as an error, and the game dropped.
    pub fn handle(&mut self, line: &str) -> Reply {
        let request: Map<String, Value> = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return error_reply(None, "a request must be a JSON object".into()),
            Err(e) => return error_reply(None, format!("not JSON: {e}")),
        };
        let id = request.get("id").cloned();
        let cmd = match request.get("cmd") {
            Some(Value::String(c)) => c.clone(),
            Some(_) => return error_reply(id, "'cmd' must be a string".into()),
            None => return error_reply(id, "missing field 'cmd'".into()),
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(&cmd, &request)));
        let answer = match outcome {
            Ok(a) => a,
            Err(panic) => {
                self.session = None;
                let what = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("unknown");
                Err(format!(
                    "internal error during '{cmd}' ({what}); the game was discarded, start a new one"
                ))
            }
        };
        match answer {
            Ok(mut map) => {
                let mut reply = Map::new();
                reply.insert("ok".into(), Value::String(cmd.clone()));
                if let Some(id) = id {
                    reply.insert("id".into(), id);
                }
                reply.append(&mut map);
                Reply {
                    line: Value::Object(reply).to_string(),
                    quit: cmd == "quit",
                }
            }
            Err(e) => error_reply(id, e),
        }
    }

    fn dispatch(&mut self, cmd: &str, m: &Map<String, Value>) -> Answer {
        let req = Req { cmd, m };
        match cmd {
            "hello" => {
                req.only(&[])?;
                Ok(obj(json!({
                    "engine": "cardsearch",
                    "version": env!("CARGO_PKG_VERSION"),
                    "protocol": PROTOCOL_VERSION,
                })))
            }
            "games" => {
                req.only(&[])?;
                let list: Vec<Value> = games::all()
                    .iter()
                    .map(|g| json!({"name": g.name, "about": g.about, "options": options(g.options)}))
                    .collect();
                Ok(obj(json!({ "games": list })))
            }
            "agents" => {
                req.only(&[])?;
                let list: Vec<Value> = agents::all()
                    .iter()
                    .map(|a| json!({"name": a.name, "about": a.about, "options": options(a.options)}))
                    .collect();
                Ok(obj(json!({ "agents": list })))
            }
            "new" => {
                req.only(&["game", "seed", "deal", "view"])?;
                let session = new_session(&req)?;
                let answer = session.describe();
                self.session = Some(session);
                Ok(answer)
            }
            "play" | "legal" | "state" | "go" => {
                let session = self
                    .session
                    .as_mut()
                    .ok_or_else(|| format!("no game: send 'new' before '{cmd}'"))?;
                match cmd {
                    "play" => {
                        req.only(&["move", "seat", "hand"])?;
                        session.play(
                            req.string("move")?,
                            req.opt_u64("seat")?,
                            req.opt_string("hand")?,
                        )
                    }
                    "legal" => {
                        req.only(&[])?;
                        session.legal()
                    }
                    "state" => {
                        req.only(&["seat"])?;
                        session.state(req.opt_u64("seat")?)
                    }
                    _ => {
                        req.only(&["agent", "iterations", "time_ms", "seed", "play"])?;
                        session.go(&req)
                    }
                }
            }
            "quit" => {
                req.only(&[])?;
                Ok(Map::new())
            }
            other => Err(format!(
                "unknown command '{other}' (commands: hello, games, agents, new, play, legal, \
                 state, go, quit)"
            )),
        }
    }
}

fn error_reply(id: Option<Value>, message: String) -> Reply {
    let mut m = Map::new();
    m.insert("error".into(), Value::String(message));
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    Reply {
        line: Value::Object(m).to_string(),
        quit: false,
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

/// Typed access to a request's fields, with errors that name the field.
struct Req<'a> {
    cmd: &'a str,
    m: &'a Map<String, Value>,
}

impl<'a> Req<'a> {
    /// Rejects fields the command does not know, so a misspelt option is not silently ignored.
    fn only(&self, known: &[&str]) -> Result<(), String> {
        for k in self.m.keys() {
            if k != "cmd" && k != "id" && !known.contains(&k.as_str()) {
                return Err(format!(
                    "unknown field '{k}' for '{}'{}",
                    self.cmd,
                    if known.is_empty() {
                        " (it takes none)".to_string()
                    } else {
                        format!(" (known: {})", known.join(", "))
                    }
                ));
            }
        }
        Ok(())
    }

    fn opt_string(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("'{key}' must be a string")),
        }
    }

    fn string(&self, key: &str) -> Result<&'a str, String> {
        self.opt_string(key)?
            .ok_or_else(|| format!("missing field '{key}' for '{}'", self.cmd))
    }

    fn opt_u64(&self, key: &str) -> Result<Option<u64>, String> {
        opt_u64_in(self.m, key)
    }

    fn opt_bool(&self, key: &str) -> Result<Option<bool>, String> {
        match self.m.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(format!("'{key}' must be true or false")),
        }
    }
}

fn opt_u64_in(m: &Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("'{key}' must be a non-negative integer, not {v}")),
    }
}

/// One game in progress, whatever its type.
trait Session {
    fn game(&self) -> String;
    fn describe(&self) -> Map<String, Value>;
    fn play(&mut self, mv: &str, seat: Option<u64>, hand: Option<&str>) -> Answer;
    fn legal(&self) -> Answer;
    fn state(&self, seat: Option<u64>) -> Answer;
    fn go(&mut self, req: &Req<'_>) -> Answer;
}

/// How a `new` sets up the deal.
enum Setup {
    Seed(u64),
    Deal(String),
    View { seat: Seat, deal: String, seed: u64 },
}

fn new_session(req: &Req<'_>) -> Result<Box<dyn Session>, String> {
    let spec_text = req.string("game")?;
    let spec: Spec = spec_text.parse().map_err(|e: crate::spec::SpecError| e.0)?;
    let seed = req.opt_u64("seed")?;
    let deal = req.opt_string("deal")?;
    let view = req.m.get("view").filter(|v| !v.is_null());
    let setup = match (seed, deal, view) {
        (Some(s), None, None) => Setup::Seed(s),
        (None, Some(d), None) => Setup::Deal(d.to_string()),
        (seed, None, Some(v)) => {
            let Value::Object(v) = v else {
                return Err("'view' must be an object {\"seat\": S, \"deal\": \"...\"}".into());
            };
            for k in v.keys() {
                if k != "seat" && k != "deal" {
                    return Err(format!("unknown field '{k}' in 'view' (known: seat, deal)"));
                }
            }
            let seat = opt_u64_in(v, "seat")?.ok_or("missing field 'seat' in 'view'")?;
            let deal = match v.get("deal") {
                Some(Value::String(d)) => d.clone(),
                Some(_) => return Err("'deal' in 'view' must be a string".into()),
                None => return Err("missing field 'deal' in 'view'".into()),
            };
            if spec.name == "hearts" && spec.options.iter().any(|(k, v)| k == "pass" && v != "none")
            {
                return Err(
                    "hearts has no view mode with passing: the other seats' passes are \
                            hidden moves and use pass=none or \
                            give the full deal"
                        .into(),
                );
            }
            Setup::View {
                seat: usize::try_from(seat).unwrap_or(usize::MAX),
                deal,
                seed: seed.unwrap_or(0),
            }
        }
        (None, None, None) => {
            return Err("'new' needs one of 'seed', 'deal' or 'view'".into());
        }
        _ => {
            return Err(
                "give only one of 'seed', 'deal' and 'view' ('seed' may go with 'view')".into(),
            );
        }
    };
    games::dispatch(
        &spec,
        NewGame {
            spec: spec_text.to_string(),
            setup,
        },
    )
    .map_err(|e| e.0)?
}

struct NewGame {
    spec: String,
    setup: Setup,
}

impl GameVisitor for NewGame {
    type Output = Result<Box<dyn Session>, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        let (state, view, seed) = match self.setup {
            Setup::Seed(seed) => (G::new_game(&config, &mut rng_from_seed(seed)), None, seed),
            Setup::Deal(deal) => (
                G::from_deal(&config, &deal).map_err(|e| e.to_string())?,
                None,
                0,
            ),
            Setup::View { seat, deal, seed } => {
                let mut rng = rng_from_seed(seed);
                let state = if G::PERFECT_INFORMATION {
                    // Nothing is hidden: a seat's view is the whole position.
                    G::from_deal(&config, &deal).map_err(|e| e.to_string())?
                } else {
                    fill_view::<G>(&config, &deal, &mut rng)?
                };
                if seat >= state.num_seats() {
                    return Err(format!(
                        "seat {seat} does not exist: {} has seats 0 to {}",
                        G::NAME,
                        state.num_seats() - 1
                    ));
                }
                (state, Some(seat), seed)
            }
        };
        Ok(Box::new(GameSession::<G> {
            spec: self.spec,
            state,
            view,
            history: Vec::new(),
            rng: rng_from_seed(seed ^ 0x5EED_0F60),
        }))
    }
}

/// Splits a deal text into tokens (runs of characters other than whitespace and `|`), with
/// their byte ranges, so `?` can be replaced in place and everything else is kept verbatim.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || c == '|';
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The multiset key of a deal token: cards in canonical notation (`10s` → `TS`); tokens with
/// `=` (headers such as `dealer=3`) are not pack items and give `None`.
fn pack_item(token: &str) -> Option<String> {
    if token.contains('=') || token == "?" {
        return None;
    }
    Some(match token.parse::<Card>() {
        Ok(c) => c.to_string(),
        Err(_) => token.to_string(),
    })
}

/// Builds a full state from a deal whose unknown items are written `?`.
///
/// The pack is read off a random deal of the same game and options (every item that is not a
/// `key=value` header), the known items are taken out of it, and the rest fill the `?` in a
/// random order; the game's own `from_deal` then checks the result. A filling that breaks a
/// rule the pack alone does not show (a turned-up card outside the dealer's hand) is redrawn.
pub fn fill_view<G: GameDef>(config: &G::Config, deal: &str, rng: &mut Rng) -> Result<G, String> {
    let reference = G::new_game(config, &mut rng_from_seed(0)).deal_text();
    let mut pool: Vec<String> = tokens(&reference)
        .into_iter()
        .filter_map(|(a, b)| pack_item(&reference[a..b]))
        .collect();
    let spans = tokens(deal);
    let mut holes = Vec::new();
    for &(a, b) in &spans {
        let t = &deal[a..b];
        if t == "?" {
            holes.push((a, b));
        } else if let Some(item) = pack_item(t) {
            match pool.iter().position(|p| *p == item) {
                Some(i) => {
                    pool.swap_remove(i);
                }
                None => {
                    return Err(format!(
                        "'{t}' in the view deal is not in the {} pack, or is written twice",
                        G::NAME
                    ));
                }
            }
        }
    }
    if holes.len() != pool.len() {
        return Err(format!(
            "the view deal has {} '?' but {} items of the pack are not written in it ({})",
            holes.len(),
            pool.len(),
            pool.join(" ")
        ));
    }
    pool.sort();
    let mut last_error = String::new();
    for _ in 0..VIEW_FILLS {
        // Fisher–Yates with the crate's unbiased bounded draw.
        for i in (1..pool.len()).rev() {
            let j = crate::cards::random_below(rng, i as u32 + 1) as usize;
            pool.swap(i, j);
        }
        let mut text = String::with_capacity(deal.len() + pool.len() * 2);
        let mut at = 0;
        for (&(a, b), item) in holes.iter().zip(&pool) {
            text.push_str(&deal[at..a]);
            text.push_str(item);
            at = b;
        }
        text.push_str(&deal[at..]);
        match G::from_deal(config, &text) {
            Ok(state) => return Ok(state),
            Err(e) => last_error = e.to_string(),
        }
    }
    Err(format!(
        "no filling of the view deal's '?' is a valid {} deal: {last_error}",
        G::NAME
    ))
}

struct GameSession<G: GameDef> {
    spec: String,
    state: G,
    /// The seat whose view this is, in view mode.
    view: Option<Seat>,
    history: Vec<(Seat, String)>,
    /// Seeds of `go` requests that do not give one, and of view-mode redraws.
    rng: Rng,
}

impl<G: GameDef> GameSession<G> {
    fn outcome(&self, m: &mut Map<String, Value>) {
        let n = self.state.num_seats();
        m.insert("to_move".into(), json!(self.state.current_seat()));
        m.insert("terminal".into(), json!(self.state.is_terminal()));
        if self.state.is_terminal() {
            m.remove("to_move");
            let rewards: Vec<f64> = (0..n).map(|s| self.state.reward(s)).collect();
            let scores: Vec<f64> = (0..n).map(|s| self.state.score(s)).collect();
            m.insert("rewards".into(), json!(rewards));
            m.insert("scores".into(), json!(scores));
            let units: Option<Vec<f64>> = (0..n).map(|s| self.state.match_units(s)).collect();
            if let Some(u) = units {
                m.insert("units".into(), json!(u));
            }
        }
    }

    fn moves(&self) -> Vec<String> {
        self.state
            .legal_moves()
            .to_vec()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Errors unless the seat to move may have its moves listed or searched: in view mode, only
    /// the viewing seat's moves are known.
    fn check_own_turn(&self, what: &str) -> Result<Seat, String> {
        if self.state.is_terminal() {
            return Err(format!("the game is over: nothing to {what}"));
        }
        let seat = self.state.current_seat();
        match self.view {
            Some(v) if v != seat => Err(format!(
                "seat {seat} is to move and this game is seat {v}'s view: seat {seat}'s moves \
                 depend on cards seat {v} cannot see; send its move with 'play'"
            )),
            _ => Ok(seat),
        }
    }

    /// In view mode: the state after the seat to move plays `mv`, such that the viewer then
    /// holds `hand` if given. Tries the current state first, then redraws the cards the viewer
    /// cannot see from the viewer's own sampler until the move is legal and the hand matches.
    /// Every draw is consistent with what the viewer has seen, so the result is too.
    fn advance(&mut self, viewer: Seat, mv: G::Move, hand: Option<CardSet>) -> Result<G, String> {
        let attempt = |state: &G| -> Option<G> {
            if !state.legal_moves().contains(mv) {
                return None;
            }
            let mut next = state.clone();
            next.play(mv);
            match hand {
                Some(h) if hand_of(&next, viewer) != Some(h) => None,
                _ => Some(next),
            }
        };
        if let Some(next) = attempt(&self.state) {
            return Ok(next);
        }
        let sampler = self
            .state
            .deal_sampler(viewer)
            .map_err(|e| format!("cannot redraw the hidden cards: {e}"))?;
        let mut rng = rng_from_seed(next_seed(&mut self.rng));
        for _ in 0..VIEW_REDRAWS {
            if let Some(next) = attempt(&sampler.sample(&mut rng)) {
                return Ok(next);
            }
        }
        let then = match hand {
            Some(h) => format!(", leaving seat {viewer} with {h},"),
            None => String::new(),
        };
        Err(format!(
            "{mv} by seat {}{then} is not consistent with what seat {viewer} has seen (no \
             consistent deal in {VIEW_REDRAWS} draws): is it right, and were all earlier moves \
             sent?",
            self.state.current_seat()
        ))
    }
}

/// The cards `seat` holds, for the card games whose state offers it; `None` for other games.
/// The protocol needs it in view mode, where a seat may learn cards privately (Bisca's draws):
/// the client tells the engine the seat's hand and the engine makes its state agree.
pub fn hand_of<G: GameDef>(state: &G, seat: Seat) -> Option<CardSet> {
    use crate::games::{Bisca, Hearts, Sueca, Tricks};
    let any = state as &dyn Any;
    if let Some(g) = any.downcast_ref::<Tricks>() {
        Some(g.hand(seat))
    } else if let Some(g) = any.downcast_ref::<Hearts>() {
        Some(g.hand(seat))
    } else if let Some(g) = any.downcast_ref::<Sueca>() {
        Some(g.hand(seat))
    } else {
        any.downcast_ref::<Bisca>().map(|g| g.hand(seat))
    }
}

impl<G: GameDef> Session for GameSession<G> {
    fn game(&self) -> String {
        self.spec.clone()
    }

    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("game".into(), json!(self.spec));
        m.insert("seats".into(), json!(self.state.num_seats()));
        match self.view {
            // The filled-in deal is made up: showing it would only mislead.
            Some(v) => {
                m.insert("view".into(), json!(v));
            }
            None => {
                m.insert("deal".into(), json!(self.state.deal_text()));
            }
        }
        self.outcome(&mut m);
        m
    }

    fn play(&mut self, text: &str, claimed: Option<u64>, hand: Option<&str>) -> Answer {
        if self.state.is_terminal() {
            return Err("the game is over: no more moves".into());
        }
        let seat = self.state.current_seat();
        // Naming the seat guards a client against being out of step with the engine.
        if let Some(c) = claimed.filter(|&c| c != seat as u64) {
            return Err(format!("seat {c} is not to move: seat {seat} is"));
        }
        let mv = self
            .state
            .parse_move(text)
            .map_err(|e| format!("bad move '{text}': {e}"))?;
        let hand = match hand {
            None => None,
            Some(h) => {
                if self.view.is_none() {
                    return Err("'hand' is for view mode, where a seat's hand is not known".into());
                }
                if hand_of(&self.state, seat).is_none() {
                    return Err(format!("{} has no hand to check", G::NAME));
                }
                Some(
                    h.parse::<CardSet>()
                        .map_err(|e| format!("bad hand '{h}': {e}"))?,
                )
            }
        };
        if !self.state.legal_moves().contains(mv) {
            match self.view {
                // Another seat's move in view mode: the made-up cards may be what is wrong.
                Some(v) if v != seat => {}
                _ => {
                    return Err(format!(
                        "illegal move {mv} for seat {seat} (legal: {})",
                        self.moves().join(" ")
                    ));
                }
            }
        }
        match self.view {
            Some(v) => self.state = self.advance(v, mv, hand)?,
            None => self.state.play(mv),
        }
        self.history.push((seat, mv.to_string()));
        let mut m = Map::new();
        m.insert("seat".into(), json!(seat));
        m.insert("move".into(), json!(mv.to_string()));
        self.outcome(&mut m);
        Ok(m)
    }

    fn legal(&self) -> Answer {
        let seat = self.check_own_turn("list")?;
        let mut m = Map::new();
        m.insert("seat".into(), json!(seat));
        m.insert("moves".into(), json!(self.moves()));
        Ok(m)
    }

    fn state(&self, seat: Option<u64>) -> Answer {
        let n = self.state.num_seats();
        let seat = match seat {
            Some(s) if s >= n as u64 => {
                return Err(format!("seat {s} does not exist (seats 0 to {})", n - 1));
            }
            Some(s) => Some(s as Seat),
            None if self.view.is_some() => self.view,
            None if self.state.is_terminal() => None,
            None => Some(self.state.current_seat()),
        };
        if let (Some(v), Some(s)) = (self.view, seat)
            && v != s
        {
            return Err(format!(
                "this game is seat {v}'s view; seat {s}'s is unknown"
            ));
        }
        let mut m = Map::new();
        m.insert("game".into(), json!(self.spec));
        m.insert("seats".into(), json!(n));
        if let Some(v) = self.view {
            m.insert("view".into(), json!(v));
        }
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|(s, mv)| json!({"seat": s, "move": mv}))
            .collect();
        m.insert("history".into(), json!(history));
        // Running points (tricks, card points, penalty points) come from played cards only.
        let points: Vec<f64> = (0..n).map(|s| self.state.score(s)).collect();
        m.insert("points".into(), json!(points));
        // Board games: the position drawn for people (one string with newlines).
        if let Some(picture) = self.state.picture() {
            m.insert("board".into(), json!(picture));
        }
        self.outcome(&mut m);
        if let Some(s) = seat {
            m.insert("seat".into(), json!(s));
            if let Some(h) = hand_of(&self.state, s) {
                m.insert("hand".into(), json!(h.to_string()));
            }
            if !self.state.is_terminal() && self.state.current_seat() == s {
                m.insert("legal".into(), json!(self.moves()));
            }
        }
        Ok(m)
    }

    fn go(&mut self, req: &Req<'_>) -> Answer {
        let seat = self.check_own_turn("search")?;
        let agent_text = req.opt_string("agent")?.unwrap_or("ismcts");
        let spec: Spec = agent_text
            .parse()
            .map_err(|e: crate::spec::SpecError| e.0)?;
        let mut agent = agents::build::<G>(&spec).map_err(|e| e.0)?;
        if self.view.is_some() && agent.is_cheating() {
            return Err(format!(
                "agent {} reads hidden cards, which a seat's view does not have",
                agent.spec()
            ));
        }
        let iterations = req.opt_u64("iterations")?;
        let time_ms = req.opt_u64("time_ms")?;
        if iterations == Some(0) || time_ms == Some(0) {
            return Err("'iterations' and 'time_ms' must be positive".into());
        }
        if time_ms.is_some_and(|t| t > MAX_TIME_MS) {
            return Err(format!("'time_ms' is at most {MAX_TIME_MS} (one day)"));
        }
        let budget = match (iterations, time_ms) {
            (None, None) => Budget::iterations(1000),
            (i, t) => Budget {
                iterations: i,
                time: t.map(Duration::from_millis),
            },
        };
        let seed = match req.opt_u64("seed")? {
            Some(s) => s,
            None => next_seed(&mut self.rng),
        };
        let play = req.opt_bool("play")?.unwrap_or(false);
        let d: Decision<G::Move> = agent.choose(
            View::new(&self.state, seat),
            budget,
            &mut rng_from_seed(seed),
        );
        if !self.state.legal_moves().contains(d.mv) {
            return Err(format!(
                "agent {} chose an illegal move {} (a bug in the agent)",
                agent.spec(),
                d.mv
            ));
        }
        let children: Vec<Value> = d
            .children
            .iter()
            .map(|c| {
                json!({"move": c.mv.to_string(), "visits": c.visits,
                       "availability": c.availability, "mean": c.mean})
            })
            .collect();
        let mut m = Map::new();
        m.insert("seat".into(), json!(seat));
        m.insert("move".into(), json!(d.mv.to_string()));
        m.insert("agent".into(), json!(agent.spec()));
        m.insert("seed".into(), json!(seed));
        m.insert("iterations".into(), json!(d.iterations));
        m.insert(
            "time_ms".into(),
            json!((d.elapsed.as_secs_f64() * 1e6).round() / 1e3),
        );
        m.insert("children".into(), json!(children));
        if play {
            self.state.play(d.mv);
            self.history.push((seat, d.mv.to_string()));
            m.insert("played".into(), json!(true));
            let mut after = Map::new();
            self.outcome(&mut after);
            m.append(&mut after);
        }
        Ok(m)
    }
}
