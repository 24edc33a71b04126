//! One game in progress: either the whole deal (the engine knows every card) or one seat's
//! information set (view mode: the engine knows what that seat knows, nothing more).

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::request::{Go, SOLVE_NODE_LIMIT};
use crate::agents::{self, Agent, Decision};
use crate::cards::CardSet;
use crate::game::{
    DealError, DealSampler, Game, InfoSet, MoveSet, Rng, Seat, Seen, View, next_seed, rng_from_seed,
};
use crate::games::GameDef;
use crate::limits;
use crate::search::{Budget, StopSignal};
use crate::solver::{Solver, read_values};
use crate::spec::Spec;

/// How often a `solve` looks for a `stop`: every 65,536 nodes, a few milliseconds.
const SOLVE_STOP_CHECK_NODES: u64 = 1 << 16;

/// The most consistent states a finished view lists to learn whether they all end alike (an
/// ASMACAG game ended by an empty board has at most a few thousand; beyond the cap the
/// outcome is reported unknown rather than listed for long).
const MAX_STATES_TO_SETTLE: u128 = 1 << 16;

/// How a finished game ended, for every seat.
#[derive(PartialEq)]
struct GameResult {
    rewards: Vec<f64>,
    scores: Vec<f64>,
    units: Option<Vec<f64>>,
}

impl GameResult {
    fn of<G: Game>(state: &G) -> GameResult {
        let n = state.num_seats();
        GameResult {
            rewards: (0..n).map(|s| state.reward(s)).collect(),
            scores: (0..n).map(|s| state.score(s)).collect(),
            units: (0..n).map(|s| state.match_units(s)).collect(),
        }
    }
}

/// A reply's fields, or the error sentence.
pub type Answer = Result<Map<String, Value>, String>;

/// One game in progress, whatever its type.
pub trait Session {
    /// The game spec.
    fn game(&self) -> String;
    /// The reply to `new`.
    fn describe(&self) -> Map<String, Value>;
    /// A move by the seat to move (or, in view mode, by `seat` when only it knows).
    fn play(&mut self, mv: &str, seat: Option<u64>, hand: Option<&str>) -> Answer;
    /// The legal moves of the seat to move.
    fn legal(&self) -> Answer;
    /// The game as `seat` knows it.
    fn state(&self, seat: Option<u64>) -> Answer;
    /// A search for the seat to move, ended early if `stop` is raised.
    fn go(&mut self, go: &Go, stop: &StopSignal) -> Answer;
    /// Every legal move's exact value, when every card is known (`node_limit` nodes at most),
    /// given up if `stop` is raised.
    fn solve(&self, node_limit: Option<u64>, stop: &StopSignal) -> Answer;
}

/// What the engine holds of the game.
enum Table<G: GameDef> {
    /// The whole state.
    Full(G),
    /// One seat's information set.
    View(G::InfoSet),
}

/// A game of type `G`.
pub struct GameSession<G: GameDef> {
    spec: String,
    table: Table<G>,
    /// The moves so far: who moved, the move where known (`None`: another seat's unseen move in
    /// view mode), and the seats that saw it (one bit per seat), from which each seat's own
    /// record is made for agents (inference reads it) and `state` prints the history.
    seen: Vec<(Seat, Option<G::Move>, u8)>,
    /// Seeds of `go` requests that do not give one.
    rng: Rng,
    /// Each seat's last `go` agent with its spec text, kept while that seat's `go`s name the
    /// same spec (threads and, for tree reuse, the last search stay with it).
    agents: Vec<(Seat, String, Box<dyn Agent<G>>)>,
}

impl<G: GameDef> GameSession<G> {
    /// A session on the whole state.
    pub fn full(spec: String, state: G, seed: u64) -> GameSession<G> {
        GameSession::new(spec, Table::Full(state), seed)
    }

    /// A session on one seat's information set.
    pub fn view(spec: String, info: G::InfoSet, seed: u64) -> GameSession<G> {
        GameSession::new(spec, Table::View(info), seed)
    }

    fn new(spec: String, table: Table<G>, seed: u64) -> GameSession<G> {
        GameSession {
            spec,
            table,
            seen: Vec::new(),
            rng: rng_from_seed(seed ^ 0x5EED_0F60),
            agents: Vec::new(),
        }
    }

    fn num_seats(&self) -> usize {
        match &self.table {
            Table::Full(s) => s.num_seats(),
            Table::View(i) => i.num_seats(),
        }
    }

    fn is_terminal(&self) -> bool {
        match &self.table {
            Table::Full(s) => s.is_terminal(),
            Table::View(i) => i.is_terminal(),
        }
    }

    /// The seat to move, if known.
    fn to_move(&self) -> Option<Seat> {
        match &self.table {
            Table::Full(s) => (!s.is_terminal()).then(|| s.current_seat()),
            Table::View(i) => i.seat_to_move(),
        }
    }

    fn viewer(&self) -> Option<Seat> {
        match &self.table {
            Table::Full(_) => None,
            Table::View(i) => Some(i.observer()),
        }
    }

    /// A state that agrees with everything public (and, in view mode, with the viewing seat's
    /// hand), with the number of states that do: the whole state, or one drawn from the view.
    /// Values that it shows are real only when they are public or the count is 1.
    fn representative(&self) -> Result<(G, u128), String> {
        match &self.table {
            Table::Full(s) => Ok((s.clone(), 1)),
            Table::View(i) => {
                let sampler = i.sampler().map_err(|e| e.to_string())?;
                Ok((sampler.sample(&mut rng_from_seed(0)), sampler.count()))
            }
        }
    }

    fn outcome(&self, m: &mut Map<String, Value>) -> Result<(), String> {
        let terminal = self.is_terminal();
        m.insert("terminal".into(), json!(terminal));
        if !terminal {
            m.insert("to_move".into(), json!(self.to_move()));
            return Ok(());
        }
        let Some(result) = self.known_result()? else {
            // The result depends on what the viewing seat never saw (CoinGuess's coin).
            m.insert("outcome_known".into(), json!(false));
            return Ok(());
        };
        m.insert("rewards".into(), json!(result.rewards));
        m.insert("scores".into(), json!(result.scores));
        if let Some(u) = result.units {
            m.insert("units".into(), json!(u));
        }
        Ok(())
    }

    /// The final result of a finished game, if what the viewing seat knows settles it: when
    /// one state is consistent, or when every consistent state (listed, up to
    /// [`MAX_STATES_TO_SETTLE`]) ends alike, as a CoinGuess game after `safe` does.
    fn known_result(&self) -> Result<Option<GameResult>, String> {
        let info = match &self.table {
            Table::Full(state) => return Ok(Some(GameResult::of(state))),
            Table::View(info) => info,
        };
        let sampler = info.sampler().map_err(|e| e.to_string())?;
        match sampler.count() {
            1 => return Ok(Some(GameResult::of(&sampler.sample(&mut rng_from_seed(0))))),
            n if n > MAX_STATES_TO_SETTLE => return Ok(None),
            _ => {}
        }
        let mut first: Option<GameResult> = None;
        let mut alike = true;
        let listed = sampler.for_each_state(&mut |s| {
            let result = GameResult::of(&s);
            match &first {
                None => first = Some(result),
                Some(f) => alike &= *f == result,
            }
        });
        Ok(first.filter(|_| listed && alike))
    }

    fn legal_moves(&self) -> G::Moves {
        match &self.table {
            Table::Full(s) => s.legal_moves(),
            Table::View(i) => i.legal_moves(),
        }
    }

    fn moves(&self) -> Vec<String> {
        self.legal_moves()
            .to_vec()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Errors unless the seat to move may have its moves listed or searched: in view mode,
    /// only the viewing seat's moves are known.
    fn check_own_turn(&self, what: &str) -> Result<Seat, String> {
        if self.is_terminal() {
            return Err(format!("the game is over: nothing to {what}"));
        }
        match (self.to_move(), self.viewer()) {
            (Some(seat), None) => Ok(seat),
            (Some(seat), Some(v)) if seat == v => Ok(seat),
            (to_move, Some(v)) => {
                let who = to_move.map_or("another seat".to_string(), |s| format!("seat {s}"));
                // In a game without hidden cards the reason is the view's rule, not cards.
                let why = if G::PERFECT_INFORMATION {
                    format!("only seat {v}'s moves are listed and searched")
                } else {
                    format!("its moves depend on cards seat {v} cannot see")
                };
                Err(format!(
                    "{who} is to move and this game is seat {v}'s view: {why}; send its move \
                     with 'play'"
                ))
            }
            (None, None) => Err("no seat is to move".into()),
        }
    }

    /// The seat making a `play`: the seat to move, checked against `claimed`; in view mode,
    /// when the viewer does not know who moves, the claimed seat.
    fn mover(&self, claimed: Option<u64>) -> Result<Seat, String> {
        match (self.to_move(), claimed) {
            (Some(s), Some(c)) if c != s as u64 => {
                Err(format!("seat {c} is not to move: seat {s} is"))
            }
            (Some(s), _) => Ok(s),
            (None, Some(c)) if c < self.num_seats() as u64 => Ok(c as Seat),
            (None, Some(c)) => Err(format!("seat {c} does not exist")),
            (None, None) => Err(format!(
                "seat {} does not know which seat is to move (in Hearts, the holder of 2C \
                 leads): name it with 'seat'",
                self.viewer().unwrap_or(0)
            )),
        }
    }
}

impl<G: GameDef> Session for GameSession<G> {
    fn game(&self) -> String {
        self.spec.clone()
    }

    fn describe(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("game".into(), json!(self.spec));
        m.insert("seats".into(), json!(self.num_seats()));
        match &self.table {
            Table::View(i) => {
                m.insert("view".into(), json!(i.observer()));
            }
            Table::Full(s) => {
                m.insert("deal".into(), json!(s.deal_text()));
            }
        }
        // A new game always has a representative state; an error here would be a bug.
        if let Err(e) = self.outcome(&mut m) {
            m.insert("error_outcome".into(), json!(e));
        }
        m
    }

    fn play(&mut self, text: &str, claimed: Option<u64>, hand: Option<&str>) -> Answer {
        if self.is_terminal() {
            return Err("the game is over: no more moves".into());
        }
        let seat = self.mover(claimed)?;
        let (representative, _) = self.representative()?;
        let parse = |t: &str| {
            representative
                .parse_move(t)
                .map_err(|e| format!("bad move '{}': {e}", limits::excerpt(t)))
        };
        match &mut self.table {
            Table::Full(state) => {
                if hand.is_some() {
                    return Err("'hand' is for view mode, where a seat's hand is not known".into());
                }
                let mv = parse(text)?;
                if !state.legal_moves().contains(mv) {
                    let legal: Vec<String> = state
                        .legal_moves()
                        .to_vec()
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    return Err(format!(
                        "illegal move {mv} for seat {seat} (legal: {})",
                        legal.join(" ")
                    ));
                }
                let saw = seats_seeing_next_move(state);
                state.play(mv);
                self.seen.push((seat, Some(mv), saw));
            }
            Table::View(info) => {
                let mv = if text == "?" {
                    None
                } else {
                    Some(parse(text)?)
                };
                let hand = hand
                    .map(|h| {
                        h.parse::<CardSet>()
                            .map_err(|e| format!("bad hand '{}': {e}", limits::excerpt(h)))
                    })
                    .transpose()?;
                let v = info.observer();
                if seat == v
                    && let Some(mv) = mv
                    && info.seat_to_move() == Some(v)
                    && !info.legal_moves().contains(mv)
                {
                    let legal: Vec<String> = info
                        .legal_moves()
                        .to_vec()
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    return Err(format!(
                        "illegal move {mv} for seat {seat} (legal: {})",
                        legal.join(" ")
                    ));
                }
                info.observe(seat, mv, hand).map_err(|e| {
                    let (DealError::Inconsistent(why) | DealError::Invalid(why)) = e;
                    format!(
                        "{text} by seat {seat} is not consistent with what seat {v} has seen: {why}"
                    )
                })?;
                self.seen.push((seat, mv, 1 << v));
            }
        }
        let mut m = Map::new();
        m.insert("seat".into(), json!(seat));
        m.insert(
            "move".into(),
            json!(self.seen.last().map(|&(_, mv, _)| move_text(mv))),
        );
        self.outcome(&mut m)?;
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
        let n = self.num_seats();
        let seat = match seat {
            Some(s) if s >= n as u64 => {
                return Err(format!("seat {s} does not exist (seats 0 to {})", n - 1));
            }
            Some(s) => Some(s as Seat),
            None if self.viewer().is_some() => self.viewer(),
            None => self.to_move(),
        };
        if let (Some(v), Some(s)) = (self.viewer(), seat)
            && v != s
        {
            return Err(format!(
                "this game is seat {v}'s view; seat {s}'s is unknown"
            ));
        }
        let mut m = Map::new();
        m.insert("game".into(), json!(self.spec));
        m.insert("seats".into(), json!(n));
        if let Some(v) = self.viewer() {
            m.insert("view".into(), json!(v));
        }
        let history: Vec<Value> = self
            .seen
            .iter()
            .map(|&(s, mv, _)| json!({"seat": s, "move": move_text(mv)}))
            .collect();
        m.insert("history".into(), json!(history));
        let (state, _) = self.representative()?;
        // Board games: the position drawn for people (one string with newlines).
        if let Some(picture) = state.picture() {
            m.insert("board".into(), json!(picture));
        }
        self.outcome(&mut m)?;
        // Running points come from played cards only; at the end they are the final scores,
        // shown only where `outcome` could show them (not behind CoinGuess's unseen coin).
        if !self.is_terminal() {
            let points: Vec<f64> = (0..n).map(|s| state.score(s)).collect();
            m.insert("points".into(), json!(points));
        } else if let Some(scores) = m.get("scores").cloned() {
            m.insert("points".into(), scores);
        }
        if let Some(s) = seat {
            m.insert("seat".into(), json!(s));
            if let Some(h) = state.hand_text(s) {
                m.insert("hand".into(), json!(h));
            }
            if self.to_move() == Some(s) {
                m.insert("legal".into(), json!(self.moves()));
            }
        }
        Ok(m)
    }

    fn go(&mut self, go: &Go, stop: &StopSignal) -> Answer {
        let seat = self.check_own_turn("search")?;
        let agent_text = go.agent.as_deref().unwrap_or("ismcts");
        let spec: Spec = agent_text
            .parse()
            .map_err(|e: crate::spec::SpecError| e.0)?;
        // The seat's agent of its last `go` is kept while the spec stays the same: its threads
        // and arenas are reused, as a UCI engine keeps its search threads between moves, and a
        // reusing agent continues from its own last search. One per seat, so a harness that
        // plays every seat through one engine keeps each seat's tree.
        let kept = self.agents.iter().position(|(s, _, _)| *s == seat);
        let mut agent = match kept.map(|i| self.agents.swap_remove(i)) {
            Some((_, text, agent)) if text == agent_text => agent,
            _ => {
                let agent = agents::build::<G>(&spec).map_err(|e| e.0)?;
                let info = match &self.table {
                    Table::Full(state) => state.info_set(state.current_seat()),
                    Table::View(info) => info.clone(),
                };
                agent.check_game(&info)?;
                agent
            }
        };
        if let Some(n) = go.iterations {
            limits::positive_at_most("iterations", n, limits::MAX_ITERATIONS)?;
        }
        let max_ms = limits::MAX_TIME_MS as f64;
        let time = match go.time_ms {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 && t <= max_ms => {
                Some(Duration::from_secs_f64(t / 1000.0))
            }
            Some(t) => {
                return Err(format!(
                    "'time_ms' must be a positive number of milliseconds up to {max_ms} (one \
                     day), not {t}"
                ));
            }
        };
        let budget = match (go.iterations, time) {
            (None, None) => Budget::iterations(1000),
            (iterations, time) => Budget {
                iterations,
                time,
                stop: None,
            },
        }
        .with_stop(stop.clone());
        let seed = go.seed.unwrap_or_else(|| next_seed(&mut self.rng));
        let history: Vec<Seen<G::Move>> = self
            .seen
            .iter()
            .map(|&(s, mv, saw)| (s, mv.filter(|_| saw >> seat & 1 == 1)))
            .collect();
        let view = match &self.table {
            Table::Full(state) => agents::view_for(agent.as_ref(), state, seat, &history),
            Table::View(info) => View::from_info_set(info.clone(), &history),
        };
        let decided = agent.choose(view, budget, &mut rng_from_seed(seed));
        // An idle engine need not hold a search's megabytes, unless the next `go` of this
        // game starts from them (tree reuse). A `new` game starts a new session and agent.
        agent.release_idle();
        let agent_spec = agent.spec();
        let cheating = agent.is_cheating();
        self.agents.push((seat, agent_text.to_string(), agent));
        let d: Decision<G::Move> = decided.map_err(|e| e.to_string())?;
        if !self.legal_moves().contains(d.mv) {
            return Err(format!(
                "agent {agent_spec} chose an illegal move {} (a bug in the agent)",
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
        m.insert("agent".into(), json!(agent_spec));
        if cheating {
            // As match reports mark it: this move was chosen from the hidden cards.
            m.insert("cheating".into(), json!(true));
        }
        m.insert("seed".into(), json!(seed));
        m.insert("iterations".into(), json!(d.iterations));
        m.insert("nodes".into(), json!(d.nodes));
        m.insert("tree_full".into(), json!(d.tree_full));
        m.insert("endgame_cut".into(), json!(d.endgame_cut));
        m.insert(
            "time_ms".into(),
            json!((d.elapsed.as_secs_f64() * 1e6).round() / 1e3),
        );
        m.insert("children".into(), json!(children));
        if go.play == Some(true) {
            let saw = match &mut self.table {
                Table::Full(state) => {
                    let saw = seats_seeing_next_move(state);
                    state.play(d.mv);
                    saw
                }
                Table::View(info) => {
                    info.observe(seat, Some(d.mv), None).map_err(|e| {
                        format!(
                            "chose {} but cannot play it without more: {e}; send it with 'play'",
                            d.mv
                        )
                    })?;
                    1 << seat
                }
            };
            self.seen.push((seat, Some(d.mv), saw));
            m.insert("played".into(), json!(true));
            self.outcome(&mut m)?;
        }
        Ok(m)
    }

    fn solve(&self, node_limit: Option<u64>, stop: &StopSignal) -> Answer {
        let seat = self.check_own_turn("solve")?;
        let ops = G::exact().ok_or_else(|| {
            format!(
                "{} has no exact solver (solvable: sueca, bisca, hearts, tricks)",
                G::NAME
            )
        })?;
        // In view mode the position is known only when one deal is left (Bisca once the stock
        // is out); otherwise solving one of the deals would answer for cards nobody knows.
        let (state, deals) = self.representative()?;
        if deals != 1 {
            return Err(format!(
                "solve needs every card known, and this view allows {deals} deals (search \
                 them with 'go' and an agent with endgame=N)"
            ));
        }
        let node_limit = node_limit.unwrap_or(SOLVE_NODE_LIMIT);
        limits::positive_at_most("node_limit", node_limit, limits::MAX_ITERATIONS)?;
        let stop = stop.clone();
        let mut solver = Solver::new(Solver::DEFAULT_TABLE_BITS)
            .with_node_limit(node_limit)
            .with_watch(SOLVE_STOP_CHECK_NODES, move |_| !stop.is_raised());
        let start = Instant::now();
        let values = read_values(ops, &mut solver, &state)
            .map_err(|e| e.explained("node_limit", node_limit))?;
        let values: Vec<Value> = values
            .iter()
            .map(|v| json!({"move": v.mv.to_string(), "value": v.value, "reward": v.reward}))
            .collect();
        let mut m = Map::new();
        m.insert("seat".into(), json!(seat));
        m.insert("measure".into(), json!(ops.margin_name()));
        m.insert("cards_left".into(), json!(ops.cards_left(&state)));
        m.insert("values".into(), json!(values));
        m.insert("nodes".into(), json!(solver.nodes()));
        m.insert(
            "time_ms".into(),
            json!((start.elapsed().as_secs_f64() * 1e6).round() / 1e3),
        );
        Ok(m)
    }
}

/// The seats that will see the next move of `state`, one bit each.
fn seats_seeing_next_move<G: crate::game::Game>(state: &G) -> u8 {
    (0..state.num_seats())
        .filter(|&o| state.next_move_seen_by(o))
        .fold(0, |m, o| m | 1 << o)
}

/// A move as the protocol writes it: `?` for one the viewing seat did not see.
fn move_text<M: std::fmt::Display>(mv: Option<M>) -> String {
    mv.map_or("?".to_string(), |m| m.to_string())
}
