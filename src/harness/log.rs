//! Reading match logs back: one [`GameRecord`] per line of a `.jsonl` file, as
//! `cardsearch match --out` writes them.
//!
//! Two consumers: `cardsearch merge`, which folds the logs of a sharded match into the report
//! the unsharded run would have printed ([`merge_records`]), and `cardsearch replay`, which plays
//! one logged game again ([`read_game`]). Every problem with a file is an error naming the file
//! and line, never a panic: logs are written by other runs, possibly killed half-way through a line.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::runner::{GameRecord, MatchReport};
use super::seating::{self, Lineup, Side, seatings};
use crate::agents;
use crate::games::{self, GameDef, GameVisitor};
use crate::limits::MAX_LINE_BYTES;
use crate::spec::Spec;

/// The bytes of the log at `path`, refused at its first line longer than
/// [`MAX_LINE_BYTES`]: a longer one is not a record, and reading it whole could take every byte
/// of memory (`/dev/zero` has no end of line).
fn read_bounded(path: &Path) -> Result<Vec<u8>, LogError> {
    use std::io::{BufRead, Read};
    let io = |message: String| LogError::Io {
        path: path.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let mut reader = std::io::BufReader::new(file);
    let mut bytes = Vec::new();
    for line in 1.. {
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| io(e.to_string()))?;
        if read == 0 {
            break;
        }
        if read > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
            return Err(io(format!(
                "line {line} is longer than {} MiB: not a log of games",
                MAX_LINE_BYTES >> 20
            )));
        }
    }
    Ok(bytes)
}

/// The text of the log at `path`: [`read_bounded`]'s bytes, which must be UTF-8.
fn read_text(path: &Path) -> Result<String, LogError> {
    String::from_utf8(read_bounded(path)?).map_err(|_| LogError::Io {
        path: path.to_path_buf(),
        message: "not UTF-8 text: not a log of games".into(),
    })
}

/// Where a record came from: file and 1-based line number, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The log file.
    pub path: PathBuf,
    /// The line, counting from 1.
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}", self.path.display(), self.line)
    }
}

/// A record with its origin.
#[derive(Clone, Debug, PartialEq)]
pub struct Logged {
    /// File and line.
    pub origin: Origin,
    /// The game.
    pub record: GameRecord,
}

/// What is wrong with a log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file cannot be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// The file cannot be opened to write games to (`--out`).
    #[error("cannot write games to {path}: {message}")]
    Create {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// A line is not a game record (bad JSON, missing fields, inconsistent lengths).
    #[error("{origin}: not a game record: {message}")]
    Corrupt {
        /// Where.
        origin: Origin,
        /// Why.
        message: String,
    },
    /// The game asked for is not in the file.
    #[error("{path} has {games} game{s}; there is no game {index} (games count from 0)", s = if *games == 1 { "" } else { "s" })]
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// Games in the file.
        games: usize,
        /// The index asked for.
        index: usize,
    },
}

/// Parses one line; `Err` says what is wrong with it. Checks the lengths that the rest of the
/// code indexes by, so a hand-edited or truncated record cannot cause an out-of-bounds panic.
pub fn parse_record(text: &str) -> Result<GameRecord, String> {
    let r: GameRecord = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let n = r.seats.len();
    if n == 0 {
        return Err("no seats".into());
    }
    for (what, len) in [
        ("rewards", r.rewards.len()),
        ("scores", r.scores.len()),
        ("agent_seeds", r.agent_seeds.len()),
    ] {
        if len != n {
            return Err(format!("{what} has {len} entries for {n} seats"));
        }
    }
    if let Some(u) = r.units.as_ref().filter(|u| u.len() != n) {
        return Err(format!("units has {} entries for {n} seats", u.len()));
    }
    if r.deal_index >= crate::limits::MAX_DEALS {
        return Err(format!(
            "deal_index {} is beyond the largest match ({} deals)",
            r.deal_index,
            crate::limits::MAX_DEALS
        ));
    }
    if r.seatings_per_deal == 0 || r.seating_index >= r.seatings_per_deal {
        return Err(format!(
            "seating_index {} is not below seatings_per_deal {}",
            r.seating_index, r.seatings_per_deal
        ));
    }
    if let Some(m) = r.moves.iter().find(|m| m.seat >= n) {
        return Err(format!("a move by seat {} in a {n}-seat game", m.seat));
    }
    if let Some(p) = r.person.filter(|&p| p >= n || r.seats[p] != Side::A) {
        return Err(format!("person {p} is not a seat of side A"));
    }
    // A's score is the rewards' by the seating: one that disagrees was edited, and a report
    // folding it would be wrong (the rewards themselves are checked by replaying the game).
    let from_rewards = super::runner::score_for_a(&r.seats, &r.rewards);
    let agrees = (r.score_a - from_rewards).abs() <= 1e-9;
    if !agrees {
        return Err(format!(
            "score_a {} does not follow from the rewards by seat, which give A {from_rewards}",
            r.score_a
        ));
    }
    Ok(r)
}

/// How much of a log's text to read as games, and a warning naming the unfinished last line
/// left out, if any: one with no end of line that is not a whole record (a run stopped while
/// writing it, or one still running). A whole record without its end of line is kept.
fn whole_lines(path: &Path, text: &str) -> (usize, Option<String>) {
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let tail = &text[whole..];
    let unfinished = !tail.trim().is_empty() && parse_record(tail).is_err();
    let warning = unfinished.then(|| {
        format!(
            "{} line {}: ignoring an unfinished game ({} bytes, no end of line): a run stopped \
             while writing it, or one still running",
            path.display(),
            text[..whole].lines().count() + 1,
            text.len() - whole
        )
    });
    (if warning.is_some() { whole } else { text.len() }, warning)
}

/// Reads every record of a log. Blank lines are skipped; any other line that is not a record is
/// an error naming its line, but for an unfinished last line (see [`read_log_noting`]).
pub fn read_log(path: &Path) -> Result<Vec<Logged>, LogError> {
    read_log_noting(path).map(|(records, _)| records)
}

/// [`read_log`], with the warning about an unfinished last line it left out (a log read while
/// its run goes on, or after a kill): the commands that read logs say it on stderr.
pub fn read_log_noting(path: &Path) -> Result<(Vec<Logged>, Option<String>), LogError> {
    let text = read_text(path)?;
    let (whole, warning) = whole_lines(path, &text);
    let mut out = Vec::new();
    for (i, line) in text[..whole].lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let origin = Origin {
            path: path.to_path_buf(),
            line: i + 1,
        };
        match parse_record(line) {
            Ok(record) => out.push(Logged { origin, record }),
            Err(message) => return Err(LogError::Corrupt { origin, message }),
        }
    }
    Ok((out, warning))
}

/// A log opened to continue the run that wrote it: its whole games, and the file positioned
/// for appending after the last of them.
pub struct ResumedLog {
    /// The games already logged, in file order.
    pub records: Vec<GameRecord>,
    /// The file, opened for appending (created when it did not exist).
    pub file: std::fs::File,
    /// Set when the last line was cut short (a run killed mid-write): what was dropped.
    pub warning: Option<String>,
}

/// Opens the log at `path` to continue the run that wrote it (`--out` given again). A last line
/// without its newline is what a killed run leaves: it is cut off the file and reported in
/// [`ResumedLog::warning`], never an error. Any other line that is not a game is an error naming
/// it.
pub fn resume_log(path: &Path) -> Result<ResumedLog, LogError> {
    let io = |e: std::io::Error| LogError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| LogError::Create {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let text = read_bounded(path)?;
    // Everything up to the last newline is whole lines; anything after it was being written
    // when the run stopped.
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut warning = None;
    if whole < text.len() {
        let lines = text[..whole].iter().filter(|&&b| b == b'\n').count();
        warning = Some(format!(
            "{} line {}: ignoring an unfinished game ({} bytes, no end of line) left by a run \
             that was stopped; it will be played again",
            path.display(),
            lines + 1,
            text.len() - whole
        ));
        file.set_len(whole as u64).map_err(io)?;
    }
    let text = String::from_utf8_lossy(&text[..whole]);
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_record(line) {
            Ok(r) => records.push(r),
            Err(message) => {
                return Err(LogError::Corrupt {
                    origin: Origin {
                        path: path.to_path_buf(),
                        line: i + 1,
                    },
                    message,
                });
            }
        }
    }
    Ok(ResumedLog {
        records,
        file,
        warning,
    })
}

/// The game with 0-based index `index` among the non-blank lines of a log (so game `k` is line
/// `k + 1` of a log written by `cardsearch match`). Only that line has to be a valid record.
pub fn read_game(path: &Path, index: usize) -> Result<Logged, LogError> {
    let text = read_text(path)?;
    // An unfinished last line is no game (nor counted among them).
    let (whole, _) = whole_lines(path, &text);
    let mut games = 0;
    for (i, line) in text[..whole].lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if games == index {
            let origin = Origin {
                path: path.to_path_buf(),
                line: i + 1,
            };
            return match parse_record(line) {
                Ok(record) => Ok(Logged { origin, record }),
                Err(message) => Err(LogError::Corrupt { origin, message }),
            };
        }
        games += 1;
    }
    Err(LogError::NoSuchGame {
        path: path.to_path_buf(),
        games,
        index,
    })
}

/// The result of merging the logs of one match.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The report over every complete deal, folded in deal order: what the unsharded run reports.
    pub report: MatchReport,
    /// Deals left out because some of their seatings are missing: (deal, seatings found).
    pub incomplete: Vec<(u64, usize)>,
    /// Deal indices below the highest one seen of which no game was found at all (a shard not
    /// Runs of deal indices with no game at all, below the last deal present (a shard not given,
    /// or a match stopped early), as ranges: a log never makes a list as long as its indices.
    pub missing: Vec<std::ops::Range<u64>>,
}

/// The fields that identify a match; every record of a merge must agree on all of them (a
/// tournament's pairings on all but the agents).
pub(crate) fn match_key(r: &GameRecord) -> [(&'static str, String); 6] {
    [
        ("game", r.game.clone()),
        ("seed", r.seed.to_string()),
        ("agent_a", r.agent_a.clone()),
        ("agent_b", r.agent_b.clone()),
        ("budget", r.budget.clone()),
        ("seatings_per_deal", r.seatings_per_deal.to_string()),
    ]
}

/// Merges the records of one match (typically the logs of its shards, in any order).
///
/// Errors when records belong to different matches (game, seed, agents, budget or seating
/// scheme differ), when one game appears twice, or when a record is inconsistent with the game
/// (wrong number of seats, a seating the match would not use). Deals whose seatings are not all
/// present are left out and listed in [`Merged::incomplete`].
pub fn merge_records(records: &[Logged]) -> Result<Merged, String> {
    let first = records
        .first()
        .ok_or_else(|| "no games to merge: the logs are empty".to_string())?;
    let key = match_key(&first.record);
    for l in records {
        for ((field, want), (_, got)) in key.iter().zip(match_key(&l.record)) {
            if *want != got {
                return Err(format!(
                    "{} is from a different match than {}: {field} is '{got}', not '{want}'",
                    l.origin, first.origin
                ));
            }
        }
    }
    let mut deals: BTreeMap<u64, Vec<&Logged>> = BTreeMap::new();
    for l in records {
        let games = deals.entry(l.record.deal_index).or_default();
        if let Some(other) = games
            .iter()
            .find(|o| o.record.seating_index == l.record.seating_index)
        {
            return Err(format!(
                "deal {} seating {} appears twice ({} and {}): was a log given twice?",
                l.record.deal_index, l.record.seating_index, other.origin, l.origin
            ));
        }
        games.push(l);
    }
    let spec: Spec = first
        .record
        .game
        .parse()
        .map_err(|e| format!("{}: {e}", first.origin))?;
    games::dispatch(&spec, MergeVisitor { deals }).map_err(|e| format!("{}: {e}", first.origin))?
}

struct MergeVisitor<'a> {
    deals: BTreeMap<u64, Vec<&'a Logged>>,
}

impl GameVisitor for MergeVisitor<'_> {
    type Output = Result<Merged, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        let (_, games) = self.deals.first_key_value().expect("at least one record");
        let first = games[0];
        let probe = G::from_deal(&config, &first.record.deal)
            .map_err(|e| format!("{}: {e}", first.origin))?;
        // The same seating scheme as `run_match`; the line-up is not logged but the number of
        // seatings per deal tells the two 4-seat individual schemes apart.
        let n = probe.num_seats();
        let partners = n == 4 && probe.team(0) == probe.team(2) && probe.team(0) != probe.team(1);
        let per_deal = first.record.seatings_per_deal;
        let lineup = if n == 4 && !partners && per_deal == 4 {
            Lineup::OneVsThree
        } else {
            Lineup::TwoVsTwo
        };
        let plan = seatings(n, partners, lineup);
        if plan.len() != per_deal {
            return Err(format!(
                "{}: {per_deal} seatings per deal, but {} uses {}",
                first.origin,
                first.record.game,
                plan.len()
            ));
        }
        let cheating = |s: &str| {
            s.parse::<Spec>()
                .ok()
                .and_then(|spec| agents::build::<G>(&spec).ok())
                .is_some_and(|a| a.is_cheating())
        };
        let mut report = MatchReport {
            game: first.record.game.clone(),
            seating: seating::describe(n, partners, lineup).to_string(),
            seatings_per_deal: per_deal,
            has_units: first.record.units.is_some(),
            points_are_penalties: G::POINTS_ARE_PENALTIES,
            ..Default::default()
        };
        report.a.spec = first.record.agent_a.clone();
        report.b.spec = first.record.agent_b.clone();
        report.a.cheating = cheating(&report.a.spec);
        report.b.cheating = cheating(&report.b.spec);

        let mut incomplete = Vec::new();
        let mut missing = Vec::new();
        let mut expected = 0u64;
        for (&deal, games) in &self.deals {
            if expected < deal {
                missing.push(expected..deal);
            }
            expected = deal + 1;
            for g in games {
                let r = &g.record;
                if plan.get(r.seating_index) != Some(&r.seats) {
                    return Err(format!(
                        "{}: seating {} of a {} deal is {:?}, expected {:?}",
                        g.origin,
                        r.seating_index,
                        r.game,
                        r.seats,
                        plan.get(r.seating_index)
                    ));
                }
                if r.units.is_some() != report.has_units {
                    return Err(format!(
                        "{}: match units present in some games and not in others",
                        g.origin
                    ));
                }
            }
            if games.len() < per_deal {
                incomplete.push((deal, games.len()));
                continue;
            }
            let mut records: Vec<GameRecord> = games.iter().map(|g| g.record.clone()).collect();
            records.sort_by_key(|r| r.seating_index);
            report.add_deal(&records);
        }
        Ok(Merged {
            report,
            incomplete,
            missing,
        })
    }
}

/// One logged game played again from its logged deal.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// Every ply: the seat that moved, its move (as the game writes it), iterations, microseconds.
    pub plies: Vec<(usize, String, u64, u64)>,
    /// For trick-taking games, the number of tricks completed after each ply.
    pub tricks_after: Vec<Option<u32>>,
    /// For board games, the starting position drawn (`Game::picture`).
    pub start_picture: Option<String>,
    /// For board games, the position drawn after each ply.
    pub pictures_after: Vec<Option<String>>,
    /// Rewards of the replayed final state.
    pub rewards: Vec<f64>,
    /// Raw points of the replayed final state.
    pub scores: Vec<f64>,
    /// Match units of the replayed final state, for games that have them.
    pub units: Option<Vec<f64>>,
}

/// Plays a logged game again: the logged deal (`GameDef::from_deal`), then the logged moves,
/// each parsed by the game and checked legal and made by the seat to move. Errors when a move
/// does not fit, when the game does not end exactly with the last move, or when the final
/// rewards, scores or match units differ from the logged ones.
pub fn replay_record(record: &GameRecord) -> Result<Replayed, String> {
    let spec: Spec = record
        .game
        .parse()
        .map_err(|e: crate::spec::SpecError| e.0)?;
    games::dispatch(&spec, ReplayVisitor { record }).map_err(|e| e.0)?
}

struct ReplayVisitor<'a> {
    record: &'a GameRecord,
}

impl GameVisitor for ReplayVisitor<'_> {
    type Output = Result<Replayed, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        use crate::game::MoveSet;
        let r = self.record;
        let mut state =
            G::from_deal(&config, &r.deal).map_err(|e| format!("the logged deal: {e}"))?;
        if state.num_seats() != r.seats.len() {
            return Err(format!(
                "the log has {} seats, {} has {}",
                r.seats.len(),
                r.game,
                state.num_seats()
            ));
        }
        let mut plies = Vec::with_capacity(r.moves.len());
        let mut tricks_after = Vec::with_capacity(r.moves.len());
        let mut pictures_after = Vec::with_capacity(r.moves.len());
        let start_picture = state.picture();
        for (i, m) in r.moves.iter().enumerate() {
            if state.is_terminal() {
                return Err(format!(
                    "ply {i}: the game is over but the log has {} more moves",
                    r.moves.len() - i
                ));
            }
            let seat = state.current_seat();
            if m.seat != seat {
                return Err(format!(
                    "ply {i}: the log says seat {} moved, but seat {seat} is to move",
                    m.seat
                ));
            }
            let mv = state
                .parse_move(&m.mv)
                .map_err(|e| format!("ply {i}: move '{}': {e}", m.mv))?;
            if !state.legal_moves().contains(mv) {
                return Err(format!(
                    "ply {i}: {mv} is not legal for seat {seat} (legal: {})",
                    legal_text::<G>(&state)
                ));
            }
            state.play(mv);
            plies.push((seat, mv.to_string(), m.iterations, m.micros));
            tricks_after.push(state.tricks_completed());
            pictures_after.push(state.picture());
        }
        if !state.is_terminal() {
            return Err(format!(
                "the log ends after {} moves but the game is not over",
                r.moves.len()
            ));
        }
        let n = state.num_seats();
        let out = Replayed {
            plies,
            tricks_after,
            start_picture,
            pictures_after,
            rewards: (0..n).map(|s| state.reward(s)).collect(),
            scores: (0..n).map(|s| state.score(s)).collect(),
            units: (0..n).map(|s| state.match_units(s)).collect(),
        };
        for (what, got, want) in [
            ("rewards", Some(&out.rewards), Some(&r.rewards)),
            ("scores", Some(&out.scores), Some(&r.scores)),
            ("match units", out.units.as_ref(), r.units.as_ref()),
        ] {
            if got != want {
                return Err(format!(
                    "the replayed {what} {got:?} differ from the logged {want:?}"
                ));
            }
        }
        Ok(out)
    }
}

/// The legal moves of a state as text, for error messages.
pub fn legal_text<G: crate::game::Game>(state: &G) -> String {
    use crate::game::MoveSet;
    state
        .legal_moves()
        .to_vec()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Agent options that make a search parallel or set its own budget. A re-run drops them, and
/// tells the agent to use the budget it is given ([`agents::Agent::use_given_budget`]), so it
/// runs sequentially for exactly the logged number of iterations.
pub const RERUN_DROPPED_OPTIONS: &[&str] = &[
    "parallel",
    "threads",
    "virtual_loss",
    "root_batch",
    "iterations",
    "time_ms",
];

/// The spec a logged decision is re-run with: the logged spec without the options of
/// [`RERUN_DROPPED_OPTIONS`].
pub fn sequential_spec(logged: &str) -> Result<Spec, String> {
    let spec: Spec = logged.parse().map_err(|e: crate::spec::SpecError| e.0)?;
    let kept: Vec<String> = spec
        .options
        .iter()
        .filter(|(k, _)| !RERUN_DROPPED_OPTIONS.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let text = if kept.is_empty() {
        spec.name.clone()
    } else {
        format!("{}:{}", spec.name, kept.join(","))
    };
    text.parse().map_err(|e: crate::spec::SpecError| e.0)
}

/// One node of an exported search tree.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TreeNode {
    /// The move into this node (`None` at a root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The seat that made that move.
    pub seat: Option<usize>,
    /// Completed visits.
    pub visits: u64,
    /// ISMCTS availability: how often the move was legal when its parent was passed through.
    pub availability: u64,
    /// Mean reward, for `seat`, of the simulations through this node (`None` at a root and
    /// for unvisited nodes).
    pub mean: Option<f64>,
    /// Children, most visited first, down to the export's depth.
    pub children: Vec<TreeNode>,
    /// Children not exported because of the depth limit.
    pub cut: usize,
}

/// The search trees of one decision: one root per tree and determinization.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TreeExport {
    /// The roots.
    pub roots: Vec<TreeNode>,
}

impl TreeExport {
    /// Graphviz: one node per tree node labelled with its move, visits, availability and mean.
    pub fn to_dot(&self) -> String {
        fn walk(n: &TreeNode, id: &mut usize, parent: Option<usize>, out: &mut String) {
            let me = *id;
            *id += 1;
            let label = match (&n.mv, n.seat) {
                (Some(m), Some(s)) => format!("{m} (seat {s})"),
                _ => "root".to_string(),
            };
            let mean = n.mean.map_or("-".to_string(), |m| format!("{m:.3}"));
            out.push_str(&format!(
                "  n{me} [label=\"{label}\\nn={} avail={}\\nmean={mean}{}\"];\n",
                n.visits,
                n.availability,
                if n.cut > 0 {
                    format!("\\n+{} more", n.cut)
                } else {
                    String::new()
                }
            ));
            if let Some(p) = parent {
                out.push_str(&format!("  n{p} -> n{me};\n"));
            }
            for c in &n.children {
                walk(c, id, Some(me), out);
            }
        }
        let mut out = String::from("digraph search {\n  node [shape=box, fontname=monospace];\n");
        let mut id = 0;
        for r in &self.roots {
            walk(r, &mut id, None, &mut out);
        }
        out.push_str("}\n");
        out
    }
}

/// A logged decision searched again.
#[derive(Clone, Debug, PartialEq)]
pub struct Rerun {
    /// The ply (0-based index into the logged moves).
    pub ply: usize,
    /// The seat that decided.
    pub seat: usize,
    /// The spec it was re-run with: sequential, and without a budget (the logged count was
    /// given per move, in place of any budget of the agent's own).
    pub spec: String,
    /// The logged move.
    pub logged_move: String,
    /// The re-run's move.
    pub rerun_move: String,
    /// Iterations of the re-run.
    pub iterations: u64,
    /// Whether the logged agent searched on several threads (its spec's `parallel` and
    /// `threads`), which a sequential re-run does not reproduce.
    pub logged_parallel: bool,
    /// Earlier decisions of the same seat (and this one) whose re-run chose another move than
    /// the log: (ply, logged, re-run). Empty when the re-run reproduces the logged search, which
    /// it does when the match searched sequentially, except where a time budget cut inference
    /// short or where the hybrid endgame's node limit fell otherwise (see [`rerun_decision`]).
    pub diverged: Vec<(usize, String, String)>,
    /// The search tree of the re-run decision, when the agent searches and the move was not
    /// forced.
    pub tree: Option<TreeExport>,
}

/// Re-runs logged decision `ply` with the logged agent and its generator, and exports its search
/// tree down to `depth`.
///
/// A seat's agent generator is seeded from `agent_seeds[seat]` when the game starts and advanced
/// by each of that seat's decisions, and what else a search agent carries between decisions
/// (a kept subtree, n-gram statistics) it carries in the re-run too, given the seat's record of
/// the moves as the match gave it; so the seat's earlier decisions are re-run first, in order,
/// each for its logged number of iterations, sequentially (options of [`RERUN_DROPPED_OPTIONS`] dropped), with the logged move
/// played after each. For a match that searched sequentially this reproduces every decision
/// exactly, time-limited ones included (a sequential search's randomness depends only on its
/// iteration count), except where a time budget cut inference (`infer=N`) or the hybrid
/// endgame's solving short, which an iteration budget does not; otherwise [`Rerun::diverged`]
/// lists where the re-run parted from the log.
pub fn rerun_decision(record: &GameRecord, ply: usize, depth: usize) -> Result<Rerun, String> {
    replay_record(record)?;
    if ply >= record.moves.len() {
        return Err(format!(
            "there is no move {ply}: the game has {} moves (counting from 0)",
            record.moves.len()
        ));
    }
    let spec: Spec = record
        .game
        .parse()
        .map_err(|e: crate::spec::SpecError| e.0)?;
    games::dispatch(&spec, RerunVisitor { record, ply, depth }).map_err(|e| e.0)?
}

struct RerunVisitor<'a> {
    record: &'a GameRecord,
    ply: usize,
    depth: usize,
}

impl GameVisitor for RerunVisitor<'_> {
    type Output = Result<Rerun, String>;

    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        use crate::game::{SeatHistories, rng_from_seed};
        use crate::search::Budget;
        let r = self.record;
        let seat = r.moves[self.ply].seat;
        if r.spec_of(seat) == super::runner::HUMAN {
            return Err(format!(
                "move {} was a person's (seat {seat}, `cardsearch play`): there is no search \
                 to re-run",
                self.ply
            ));
        }
        let logged: Spec = r
            .spec_of(seat)
            .parse()
            .map_err(|e: crate::spec::SpecError| e.0)?;
        // Whether the logged search ran on several threads, which no sequential re-run
        // reproduces.
        let logged_parallel = logged.raw("parallel").is_some_and(|p| p != "sequential")
            || logged.raw("threads").is_some_and(|t| t != "1");
        let spec = sequential_spec(r.spec_of(seat))?;
        let mut agent = agents::build::<G>(&spec).map_err(|e| e.0)?;
        // Each decision's logged count is its budget, whatever budget the agent would take of
        // its own accord (pentago-student's default 1.5 s).
        agent.use_given_budget();
        let mut rng = rng_from_seed(r.agent_seeds[seat]);
        let mut state = G::from_deal(&config, &r.deal).map_err(|e| e.to_string())?;
        // The seat's record of the moves, as the match gave it: inference reads it, and tree
        // reuse walks the moves since the last decision along it.
        let mut histories = SeatHistories::new(state.num_seats());
        let mut diverged = Vec::new();
        for (p, m) in r.moves.iter().enumerate().take(self.ply + 1) {
            let mv = state.parse_move(&m.mv)?;
            if m.seat == seat {
                // Exactly the logged count, zero included: a search that ran out of time before
                // its first iteration picked a random move, and so does this one.
                let budget = Budget::iterations(m.iterations);
                let view = agents::view_for(agent.as_ref(), &state, seat, histories.of(seat));
                let d = agent
                    .choose(view, budget, &mut rng)
                    .map_err(|e| e.to_string())?;
                let rerun_move = d.mv.to_string();
                if rerun_move != m.mv {
                    diverged.push((p, m.mv.clone(), rerun_move.clone()));
                }
                if p == self.ply {
                    return Ok(Rerun {
                        logged_parallel,
                        ply: p,
                        seat,
                        // Without the budget an agent writes of its own (a default), which
                        // the re-run did not use.
                        spec: sequential_spec(&agent.spec())?.to_string(),
                        logged_move: m.mv.clone(),
                        rerun_move,
                        iterations: d.iterations,
                        diverged,
                        // A forced move searches nothing (the trees still hold the previous
                        // decision's search).
                        tree: (d.iterations > 0)
                            .then(|| {
                                export_tree::<G>(
                                    agent.as_ref(),
                                    self.depth,
                                    // ISMCTS counts availability, except where nothing is
                                    // hidden (then it searches as UCT).
                                    spec.name == "ismcts" && !G::PERFECT_INFORMATION,
                                )
                            })
                            .flatten(),
                    });
                }
            }
            histories.record(&state, mv);
            state.play(mv);
        }
        Err(format!("there is no move {}", self.ply))
    }
}

/// The search trees an agent kept from its last decision, down to `depth` levels below each
/// root; `None` for agents that keep none. `availability` says whether the search counts it
/// (ISMCTS); otherwise a node's availability is reported as its parent's visits, as in
/// [`crate::agents::ChildStat`].
fn export_tree<G: GameDef>(
    agent: &dyn agents::Agent<G>,
    depth: usize,
    availability: bool,
) -> Option<TreeExport> {
    use crate::search::{NodeId, Tree};
    fn node<M: crate::game::TreeMove + fmt::Display>(
        tree: &Tree<M>,
        id: NodeId,
        parent: Option<NodeId>,
        parent_visits: u64,
        depth: usize,
        availability: bool,
    ) -> TreeNode {
        let is_root = parent.is_none();
        let n = tree.node(id);
        let mut children: Vec<(NodeId, u64, u8)> = tree
            .children(id)
            .map(|(c, child)| (c, child.visits() as u64, child.birth()))
            .collect();
        // An ISMCTS search writes its roots' visits only when it ends (the iterations, plus a
        // grafted root's kept visits); a root that holds none yet counts its children's.
        let visits = if is_root && n.visits() == 0 {
            children.iter().map(|c| c.1).sum()
        } else {
            n.visits() as u64
        };
        // Most visited first; of equal visits, the child made last (as selection breaks ties).
        children.sort_by_key(|c| std::cmp::Reverse((c.1, c.2)));
        let cut = if depth == 0 { children.len() } else { 0 };
        let children = if depth == 0 {
            Vec::new()
        } else {
            children
                .iter()
                .map(|&(c, ..)| node(tree, c, Some(id), visits, depth - 1, availability))
                .collect()
        };
        TreeNode {
            mv: (!is_root).then(|| n.mv().to_string()),
            seat: (!is_root).then(|| n.seat()),
            visits,
            availability: match (parent, availability) {
                (None, _) => visits,
                (Some(p), true) => tree.availability(id, p) as u64,
                (Some(_), false) => parent_visits,
            },
            mean: (!is_root && visits > 0).then(|| n.reward() / visits as f64),
            children,
            cut,
        }
    }
    let trees = agent.search_trees()?;
    let mut roots = Vec::new();
    for tree in trees {
        for r in 0..tree.num_roots() {
            let root = tree.root(r);
            roots.push(node(tree, root, None, 0, depth, availability));
        }
    }
    Some(TreeExport { roots })
}
