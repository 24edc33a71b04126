//! `cardsearch play`: a person takes one seat against engine agents, in the terminal.
//!
//! The person sees what their seat sees and nothing more: their hand (by suit), the cards on the
//! table, every seat's moves that their seat saw (`Game::next_move_seen_by`), and the legal
//! moves. Moves are typed in the game's notation; a prefix that only one legal move starts with
//! is enough. `hint` runs the opponents' agent on the person's own view and shows its root
//! statistics. The finished game is appended to `--out` as a log line that `replay` reads.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::series::BudgetArgs;
use crate::agents::{self, Agent};
use crate::cards::{Card, Suit};
use crate::game::{MoveSet, Seat, SeatHistories, Seen, View, rng_from_seed};
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::Side;
use crate::harness::runner::{
    GameRecord, JsonlWriter, MoveRecord, agent_seed, deal_for, mix, score_for_a,
};
use crate::search::Budget;
use crate::spec::Spec;

/// Options of `cardsearch play`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "At your turn, type a move in the game's notation (a prefix that only one legal \
move starts with is enough), `hint` for the engine's view of each legal move, `help`, or `quit`. \
The other seats, your partner included, are played by --opponents."
)]
pub struct PlayArgs {
    /// Game spec, e.g. `sueca`, `hearts:pass=left`.
    #[arg(long, default_value = "sueca")]
    pub game: String,
    /// Your seat (0 is the first to play in most games).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// The agent of every other seat, e.g. `ismcts:time_ms=500`.
    #[arg(long, default_value = "ismcts")]
    pub opponents: String,
    /// The engine's budget per move.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Seed of the deal and of the engines' generators (the deal is deal 0 of `match` with that
    /// seed, whatever your seat, so anyone who knows the seed knows every hand). By default a
    /// seed drawn from the system, shown when the game ends.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append the finished game to this log (readable by `cardsearch replay`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub use crate::harness::runner::HUMAN;

/// Holds an engine's move, begun at `start`, back until `slowest` has passed, and makes
/// `slowest` the longest any decision has taken. An engine with one legal move (or one that
/// finds an exact answer early) replies at once, and a person who sees it reply at once learns
/// that it held a single card of the suit led; held back, a quick reply looks like the others.
/// What is left to see: a decision slower than every one before it, and, under an iteration
/// budget, the first engine decision of the game (with `--time-ms` every move waits at least
/// the budget). Returns the decision's own time, which is what the log records.
fn pause_like_a_search(
    start: std::time::Instant,
    slowest: &mut std::time::Duration,
) -> std::time::Duration {
    let took = start.elapsed();
    if took < *slowest {
        std::thread::sleep(*slowest - took);
    }
    *slowest = (*slowest).max(took);
    took
}

/// Runs `cardsearch play` on stdin and stdout.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let game: Spec = args.game.parse().map_err(|e: crate::spec::SpecError| e.0)?;
    let opponents: Spec = args
        .opponents
        .parse()
        .map_err(|e: crate::spec::SpecError| e.0)?;
    let budget = args.budget.budget()?;
    // The game is appended to `--out` at its end: a path that cannot take it is refused before
    // the person has played a card.
    super::output::check_outputs(&[("--out", args.out.as_deref())], &[])?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let table = Table {
        args,
        game: game.clone(),
        opponents,
        budget,
        input: &mut stdin.lock(),
        out: &mut stdout.lock(),
    };
    games::dispatch(&game, table).map_err(|e| e.to_string())?
}

/// One game at the terminal: the person's input and the screen.
pub struct Table<'a> {
    args: &'a PlayArgs,
    game: Spec,
    opponents: Spec,
    budget: Budget,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

impl GameVisitor for Table<'_> {
    type Output = Result<(), String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        self.play::<G>(&config).map_err(|e| e.to_string())
    }
}

/// What ends a game early or fails.
#[derive(Debug)]
enum Stop {
    Quit,
    Fail(String),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Quit => write!(f, "quit"),
            Stop::Fail(e) => write!(f, "{e}"),
        }
    }
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Fail(format!("terminal: {e}"))
    }
}

impl Table<'_> {
    fn play<G: GameDef>(mut self, config: &G::Config) -> Result<(), String> {
        match self.game_loop::<G>(config) {
            Ok(()) | Err(Stop::Quit) => Ok(()),
            Err(Stop::Fail(e)) => Err(e),
        }
    }

    fn game_loop<G: GameDef>(&mut self, config: &G::Config) -> Result<(), Stop> {
        // A fixed default would deal the same cards every game: after one game a person would
        // know every hand of the next.
        let seed = self.args.seed.unwrap_or_else(rand::random);
        let mut state: G = deal_for(config, seed, 0);
        let n = state.num_seats();
        let me = self.args.seat;
        if me >= n {
            return Err(Stop::Fail(format!(
                "--seat {me}: {} has seats 0 to {}",
                self.game,
                n - 1
            )));
        }
        let deal = state.deal_text();
        // Side A is the person's team: the person, and a partner where the game has teams
        // (Sueca), so the logged score is the person's side's result.
        let seats: Vec<Side> = (0..n)
            .map(|s| {
                if state.team(s) == state.team(me) {
                    Side::A
                } else {
                    Side::B
                }
            })
            .collect();
        let partnered = seats.iter().filter(|&&s| s == Side::A).count() > 1;
        // Each engine is checked with its own seat's knowledge (the adviser with the person's,
        // whose view it searches): none sees another seat's hand.
        let build = |spec: &Spec, seat: Seat| -> Result<Box<dyn Agent<G>>, Stop> {
            let agent = agents::build::<G>(spec).map_err(|e| Stop::Fail(e.0))?;
            agent
                .check_game(&state.info_set(seat))
                .map_err(Stop::Fail)?;
            Ok(agent)
        };
        let mut engines: Vec<Option<Box<dyn Agent<G>>>> = (0..n)
            .map(|s| (s != me).then(|| build(&self.opponents, s)).transpose())
            .collect::<Result<_, _>>()?;
        let mut adviser = build(&self.opponents, me)?;
        // Deal 0's first seating, as in a match of the same seed.
        let agent_seeds: Vec<u64> = (0..n).map(|s| agent_seed(seed, 0, 0, s)).collect();
        let mut rngs: Vec<_> = agent_seeds.iter().map(|&s| rng_from_seed(s)).collect();
        let mut hint_rng = rng_from_seed(mix(seed, &[u64::MAX]));
        // Each seat's own record of the moves, as a match keeps it: inference reads the
        // others' plays from it, and tree reuse and kept n-gram statistics the moves since.
        // The person's own record is what the screen shows of each ply.
        let mut histories = SeatHistories::new(n);
        let mut trick_start = 0;
        let mut moves = Vec::new();
        // The longest an engine has taken over a decision so far: no engine move is shown
        // sooner (see `pause_like_a_search`).
        let mut slowest = self.budget.time.unwrap_or_default();
        // The deal's header (`dealer=3 trump=7H`) is public: a seat's view deal states it too
        // (protocol::view_deal), so it is shown; the hands after it are not.
        let header: Vec<&str> = deal
            .split('|')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter(|t| t.contains('='))
            .collect();
        let cheating = if adviser.is_cheating() {
            " (CHEATING: they see your cards and each other's)"
        } else {
            ""
        };
        writeln!(
            self.out,
            "{}: you are seat {me} of {n}; the others are {}{cheating}. Type `help` for help.",
            self.game, self.opponents
        )?;
        if !header.is_empty() {
            writeln!(self.out, "deal: {}", header.join(" "))?;
        }
        while !state.is_terminal() {
            let seat = state.current_seat();
            let start = std::time::Instant::now();
            let (mv, took, iterations, nodes, tree_full, endgame_cut) = if seat == me {
                let seen = histories.of(me);
                self.show(&state, me, &seen[trick_start..], seen)?;
                let mv = self.ask(&state, histories.of(me), adviser.as_mut(), &mut hint_rng)?;
                (mv, start.elapsed(), 0, 0, false, false)
            } else {
                let agent = engines[seat]
                    .as_mut()
                    .expect("an engine in every other seat");
                let view =
                    crate::agents::view_for(agent.as_ref(), &state, seat, histories.of(seat));
                let d = agent
                    .choose(view, self.budget.clone(), &mut rngs[seat])
                    .map_err(|e| Stop::Fail(format!("agent in seat {seat}: {e}")))?;
                agent.release_idle();
                let took = pause_like_a_search(start, &mut slowest);
                (
                    d.mv,
                    took,
                    d.iterations,
                    d.nodes,
                    d.tree_full,
                    d.endgame_cut,
                )
            };
            let visible = state.next_move_seen_by(me);
            let tricks_before = state.tricks_completed();
            histories.record(&state, mv);
            state.play(mv);
            moves.push(MoveRecord {
                seat,
                mv: mv.to_string(),
                iterations,
                micros: took.as_micros() as u64,
                nodes,
                tree_full,
                endgame_cut,
            });
            if seat == me {
                writeln!(self.out, "you play {mv}")?;
            } else if visible {
                writeln!(self.out, "seat {seat} plays {mv}")?;
            } else {
                writeln!(self.out, "seat {seat} plays (hidden from you)")?;
            }
            if state.tricks_completed() != tricks_before {
                trick_start = histories.of(me).len();
                writeln!(
                    self.out,
                    "-- trick {} done",
                    state.tricks_completed().unwrap_or(0)
                )?;
            }
        }
        let rewards: Vec<f64> = (0..n).map(|s| state.reward(s)).collect();
        let scores: Vec<f64> = (0..n).map(|s| state.score(s)).collect();
        writeln!(
            self.out,
            "game over: points {}; your reward {} (1 win, 0.5 tie, 0 loss); seed {seed}",
            scores
                .iter()
                .enumerate()
                .map(|(s, p)| format!("seat {s} {p}"))
                .collect::<Vec<_>>()
                .join(", "),
            rewards[me]
        )?;
        if let Some(path) = &self.args.out {
            let engine_spec = engines
                .iter()
                .flatten()
                .next()
                .map_or(self.opponents.to_string(), |a| a.spec());
            let record = GameRecord {
                game: self.game.to_string(),
                seed,
                deal_index: 0,
                seating_index: 0,
                seatings_per_deal: 1,
                // The engines' spec for side A too where the person has an engine partner:
                // `person` names the one seat of side A that did not search.
                agent_a: if partnered {
                    engine_spec.clone()
                } else {
                    HUMAN.to_string()
                },
                agent_b: engine_spec,
                budget: self.budget.describe(),
                deal,
                agent_seeds,
                moves,
                score_a: score_for_a(&seats, &rewards),
                seats,
                units: (0..n).map(|s| state.match_units(s)).collect(),
                scores,
                rewards,
                person: Some(me),
            };
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Stop::Fail(format!("cannot open {}: {e}", path.display())))?;
            JsonlWriter(file)
                .write(&record)
                .map_err(|e| Stop::Fail(format!("cannot write {}: {e}", path.display())))?;
            writeln!(self.out, "game saved to {}", path.display())?;
        }
        Ok(())
    }

    /// What the person's seat sees: the hand by suit, the table, each seat's moves, the legal
    /// moves (on one line starting `legal:`, which scripts wait for).
    fn show<G: GameDef>(
        &mut self,
        state: &G,
        me: Seat,
        table: &[Seen<G::Move>],
        seen: &[Seen<G::Move>],
    ) -> Result<(), Stop> {
        writeln!(self.out)?;
        if let Some(hand) = state.hand_text(me) {
            writeln!(self.out, "your hand: {}", by_suit(&hand))?;
        }
        if let Some(table) = state.table_text(me) {
            writeln!(self.out, "{table}")?;
        }
        if state.tricks_completed().is_some() {
            writeln!(self.out, "on the table: {}", plies(table))?;
        }
        for s in 0..state.num_seats() {
            let mine: Vec<Seen<G::Move>> = seen.iter().filter(|p| p.0 == s).copied().collect();
            let who = if s == me { " (you)" } else { "" };
            writeln!(self.out, "seat {s}{who} played: {}", moves_of(&mine))?;
        }
        writeln!(self.out, "legal: {}", legal::<G>(state).join(" "))?;
        Ok(())
    }

    /// Reads lines until one is a legal move (or `quit`, or the end of input).
    fn ask<G: GameDef>(
        &mut self,
        state: &G,
        history: &[Seen<G::Move>],
        adviser: &mut dyn Agent<G>,
        rng: &mut crate::game::Rng,
    ) -> Result<G::Move, Stop> {
        loop {
            write!(self.out, "> ")?;
            self.out.flush()?;
            // Bytes, not `read_line`: a line that is not UTF-8 is a typo to answer, not an
            // error that ends the person's game.
            let mut bytes = Vec::new();
            if self.input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(self.out, "\nend of input: game abandoned")?;
                return Err(Stop::Quit);
            }
            let line = String::from_utf8_lossy(&bytes);
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "exit" => return Err(Stop::Quit),
                "help" | "?" => writeln!(
                    self.out,
                    "a move (or a prefix only one legal move starts with), `hint`, `quit`"
                )?,
                "hint" => {
                    let me = state.current_seat();
                    // The person's own view, never the true state: a cheating baseline
                    // (`uct`) cannot advise, and says so; the game goes on.
                    let d = match adviser.choose(
                        View::new(state, me, history),
                        self.budget.clone(),
                        rng,
                    ) {
                        Ok(d) => d,
                        Err(e) => {
                            writeln!(self.out, "no hint: {e}")?;
                            continue;
                        }
                    };
                    adviser.release_idle();
                    if d.children.is_empty() {
                        writeln!(self.out, "hint: {} (the agent does not search)", d.mv)?;
                    }
                    for c in &d.children {
                        writeln!(
                            self.out,
                            "hint: {:<6} visits {:>7}  mean {:.3}",
                            c.mv.to_string(),
                            c.visits,
                            c.mean
                        )?;
                    }
                }
                _ => match complete(state, text) {
                    Ok(mv) => return Ok(mv),
                    Err(e) => writeln!(self.out, "{e}")?,
                },
            }
        }
    }
}

/// The legal moves of `state` as text.
fn legal<G: GameDef>(state: &G) -> Vec<String> {
    state
        .legal_moves()
        .to_vec()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// The legal move `text` names: the game's own parse, else the only legal move whose notation
/// starts with `text` (case ignored).
pub fn complete<G: GameDef>(state: &G, text: &str) -> Result<G::Move, String> {
    let moves = state.legal_moves().to_vec();
    if let Ok(mv) = state.parse_move(text)
        && moves.contains(&mv)
    {
        return Ok(mv);
    }
    let lower = text.to_lowercase();
    let matching: Vec<G::Move> = moves
        .iter()
        .copied()
        .filter(|m| m.to_string().to_lowercase().starts_with(&lower))
        .collect();
    match matching[..] {
        [mv] => Ok(mv),
        [] => Err(format!(
            "'{}' is not a legal move (legal: {})",
            crate::limits::excerpt(text),
            legal::<G>(state).join(" ")
        )),
        _ => Err(format!(
            "'{text}' could be {}: type more",
            matching
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    }
}

/// A hand grouped by suit (`♠ A K 7  ♥ Q 2`), or as the game wrote it when it is not cards.
pub fn by_suit(hand: &str) -> String {
    let cards: Result<Vec<Card>, _> = hand.split_whitespace().map(str::parse::<Card>).collect();
    let Ok(mut cards) = cards else {
        return hand.to_string();
    };
    cards.sort_by_key(|c| std::cmp::Reverse(c.rank()));
    let groups: Vec<String> = Suit::ALL
        .iter()
        .rev()
        .filter_map(|&suit| {
            let ranks: Vec<String> = cards
                .iter()
                .filter(|c| c.suit() == suit)
                .map(|c| c.rank().letter().to_string())
                .collect();
            (!ranks.is_empty()).then(|| format!("{} {}", suit.symbol(), ranks.join(" ")))
        })
        .collect();
    if groups.is_empty() {
        "(empty)".to_string()
    } else {
        groups.join("  ")
    }
}

/// A move as the person saw it: `?` when it was hidden from them.
fn shown<M: std::fmt::Display>(m: &Option<M>) -> String {
    m.as_ref().map_or("?".to_string(), M::to_string)
}

fn plies<M: std::fmt::Display>(p: &[Seen<M>]) -> String {
    if p.is_empty() {
        return "(nothing yet)".to_string();
    }
    p.iter()
        .map(|(s, m)| format!("seat {s}: {}", shown(m)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn moves_of<M: std::fmt::Display>(p: &[Seen<M>]) -> String {
    if p.is_empty() {
        return "-".to_string();
    }
    p.iter()
        .map(|(_, m)| shown(m))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_are_grouped_by_suit_high_cards_first() {
        assert_eq!(by_suit("2S AS 7H KS"), "♠ A K 2  ♥ 7");
        assert_eq!(by_suit("heads"), "heads");
    }
}
