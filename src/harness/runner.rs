//! Runs matches: deals from a seed, fair seatings, parallel game workers, statistics and logs.
//!
//! Everything random in a match derives from the match seed by position (deal index, seating,
//! seat), never from scheduling, so `--jobs 8` gives the same games as `--jobs 1` when searches
//! are iteration-bounded and sequential.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::seating::{Lineup, Side, seatings};
use super::stats::{DealMeans, Sprt, SprtDecision, Tally};
use crate::agents::{self, Agent};
use crate::game::{MoveSet, SeatHistories, rng_from_seed};
use crate::games::GameDef;
use crate::search::{Budget, StopSignal};
use crate::spec::Spec;

/// One move of a logged game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Seat that moved.
    pub seat: usize,
    /// The move in the game's notation.
    pub mv: String,
    /// Search iterations spent on it.
    pub iterations: u64,
    /// Microseconds spent on it.
    pub micros: u64,
    /// Search tree nodes in use when the decision was made (0 without a search).
    #[serde(default)]
    pub nodes: u64,
    /// True when the search tree ran out of room during the decision.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tree_full: bool,
    /// True when the endgame solver's node limit cut the decision's solving short.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub endgame_cut: bool,
}

/// The agent a person's seat names in logs (`cardsearch play`): it never searched, so
/// `replay --move` has nothing to re-run there.
pub const HUMAN: &str = "human";

/// One finished game: everything needed to replay it or to recompute the match statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game spec (`hearts:pass=left`).
    pub game: String,
    /// Match seed.
    pub seed: u64,
    /// Index of the deal in the match.
    pub deal_index: u64,
    /// Index of the seating among the deal's seatings.
    pub seating_index: usize,
    /// Number of seatings each deal is played with.
    pub seatings_per_deal: usize,
    /// Which agent sat in each seat.
    pub seats: Vec<Side>,
    /// Full spec of the first agent.
    pub agent_a: String,
    /// Full spec of the second agent.
    pub agent_b: String,
    /// The default budget of the match, in words.
    pub budget: String,
    /// The deal, in the game's deal notation.
    pub deal: String,
    /// The seed of each seat's agent generator.
    pub agent_seeds: Vec<u64>,
    /// Every move in order.
    pub moves: Vec<MoveRecord>,
    /// Reward of each seat (win 1, tie 0.5, loss 0).
    pub rewards: Vec<f64>,
    /// Raw points of each seat.
    pub scores: Vec<f64>,
    /// Match units of each seat, for games that have them.
    pub units: Option<Vec<f64>>,
    /// The first agent's score for this game, in [0, 1] with 0.5 even.
    pub score_a: f64,
    /// The seat a person played (`cardsearch play`), on side A with any partner of theirs:
    /// its moves were not searched, whatever its side's agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<usize>,
}

impl GameRecord {
    /// The logged spec of the agent in `seat` ([`HUMAN`] for the person's seat).
    pub fn spec_of(&self, seat: usize) -> &str {
        if self.person == Some(seat) {
            return HUMAN;
        }
        match self.seats[seat] {
            Side::A => &self.agent_a,
            Side::B => &self.agent_b,
        }
    }
}

/// Everything that defines a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game spec.
    pub game: Spec,
    /// The first agent's spec.
    pub a: Spec,
    /// The second agent's spec.
    pub b: Spec,
    /// Number of deals (each played once per seating).
    pub deals: u64,
    /// Match seed.
    pub seed: u64,
    /// Default budget per move.
    pub budget: Budget,
    /// Game workers running at once.
    pub jobs: usize,
    /// Line-up for 4-seat individual games.
    pub lineup: Lineup,
    /// Play only deals with `index % n == i`.
    pub shard: Option<(u64, u64)>,
    /// Stop early by SPRT.
    pub sprt: Option<Sprt>,
    /// Raised to end the match early (Ctrl-C): games in progress are abandoned, and the report
    /// covers the deals whose every seating finished.
    pub stop: Option<StopSignal>,
}

/// Per-agent totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideTotals {
    /// The agent's full spec.
    pub spec: String,
    /// True when the agent reads hidden information.
    pub cheating: bool,
    /// Moves made.
    pub moves: u64,
    /// Search iterations over all moves.
    pub iterations: u64,
    /// Microseconds spent choosing.
    pub micros: u64,
    /// Decisions whose search tree ran out of room.
    #[serde(default)]
    pub full_trees: u64,
    /// Decisions whose endgame solving the solver's node limit cut short.
    #[serde(default)]
    pub endgame_cuts: u64,
    /// The most tree nodes any one decision used.
    #[serde(default)]
    pub max_nodes: u64,
    /// Sum over games of the agent's mean raw points per seat.
    pub points: f64,
    /// Sum over games of the agent's mean match units (games with units).
    pub units: f64,
    /// Games counted in `points`.
    pub games: u64,
}

impl SideTotals {
    /// Iterations per second while choosing.
    pub fn iterations_per_second(&self) -> f64 {
        if self.micros == 0 {
            0.0
        } else {
            self.iterations as f64 * 1e6 / self.micros as f64
        }
    }
    /// Mean points per game.
    pub fn mean_points(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points / self.games as f64
        }
    }
    /// Mean match units per game.
    pub fn mean_units(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.units / self.games as f64
        }
    }
    fn merge(&mut self, o: &SideTotals) {
        self.moves += o.moves;
        self.iterations += o.iterations;
        self.micros += o.micros;
        self.full_trees += o.full_trees;
        self.endgame_cuts += o.endgame_cuts;
        self.max_nodes = self.max_nodes.max(o.max_nodes);
        self.points += o.points;
        self.units += o.units;
        self.games += o.games;
    }
}

/// The outcome of a match (or of merged shards).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    /// The game spec.
    pub game: String,
    /// How seats were assigned.
    pub seating: String,
    /// Seatings per deal.
    pub seatings_per_deal: usize,
    /// The first agent's results.
    pub tally: Tally,
    /// Totals of the first agent.
    pub a: SideTotals,
    /// Totals of the second agent.
    pub b: SideTotals,
    /// True when the game has match units.
    pub has_units: bool,
    /// True when the game's points are penalties, fewer being better (Hearts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub points_are_penalties: bool,
    /// A's points per game minus B's (each side's mean over its seats), one sample per deal:
    /// the interval the thesis's point tables need. Games where one side has no seat (one-seat
    /// games) add nothing.
    #[serde(default)]
    pub points_margin: DealMeans,
    /// The same for match units, in games that have them.
    #[serde(default)]
    pub units_margin: DealMeans,
    /// SPRT outcome, when one was run.
    pub sprt: Option<SprtDecision>,
    /// True when the match was stopped before every deal was played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

impl MatchReport {
    /// Folds a finished deal's games (all its seatings) into the report.
    pub fn add_deal(&mut self, games: &[GameRecord]) {
        let mut sum = 0.0;
        let (mut points, mut units) = (Margins::default(), Margins::default());
        for g in games {
            self.tally.add_game(g.score_a);
            sum += g.score_a;
            // Each side's mean points and units over its seats, once; `None` where the side has
            // no seat (one-seat games), and then no margin either.
            let by_side =
                |values: &[f64]| [Side::A, Side::B].map(|s| side_mean(&g.seats, values, s));
            let side_points = by_side(&g.scores);
            let side_units = g.units.as_deref().map(by_side);
            let margin = |[a, b]: [Option<f64>; 2]| Some(a? - b?);
            points.add(margin(side_points));
            units.add(side_units.and_then(margin));
            for (i, (side, totals)) in [(Side::A, &mut self.a), (Side::B, &mut self.b)]
                .into_iter()
                .enumerate()
            {
                let Some(mean_points) = side_points[i] else {
                    continue;
                };
                totals.games += 1;
                totals.points += mean_points;
                totals.units += side_units.and_then(|u| u[i]).unwrap_or(0.0);
                for m in g
                    .moves
                    .iter()
                    .filter(|m| g.seats.get(m.seat) == Some(&side))
                {
                    totals.moves += 1;
                    totals.iterations += m.iterations;
                    totals.micros += m.micros;
                    totals.full_trees += u64::from(m.tree_full);
                    totals.endgame_cuts += u64::from(m.endgame_cut);
                    totals.max_nodes = totals.max_nodes.max(m.nodes);
                }
            }
        }
        self.tally.add_deal(sum / games.len() as f64);
        points.fold_into(&mut self.points_margin);
        units.fold_into(&mut self.units_margin);
    }

    /// Merges another report over disjoint deals (shards).
    pub fn merge(&mut self, o: &MatchReport) {
        self.tally.merge(&o.tally);
        self.points_margin.merge(&o.points_margin);
        self.units_margin.merge(&o.units_margin);
        self.a.merge(&o.a);
        self.b.merge(&o.b);
    }
}

/// One deal's margins over its games, averaged into one sample of the deal.
#[derive(Default)]
struct Margins {
    sum: f64,
    games: u32,
}

impl Margins {
    fn add(&mut self, margin: Option<f64>) {
        if let Some(m) = margin {
            self.sum += m;
            self.games += 1;
        }
    }

    fn fold_into(self, means: &mut DealMeans) {
        if self.games > 0 {
            means.add(self.sum / f64::from(self.games));
        }
    }
}

/// The first agent's score for one game: (1 + mean reward of A's seats − mean reward of B's
/// seats) / 2, so 0.5 is even in every line-up and it equals A's reward in 2-seat games. A
/// one-seat game scores A's reward when A played it and 1 − B's reward when B did.
pub fn score_for_a(seats: &[Side], rewards: &[f64]) -> f64 {
    match (
        side_mean(seats, rewards, Side::A),
        side_mean(seats, rewards, Side::B),
    ) {
        (Some(a), Some(b)) => (1.0 + a - b) / 2.0,
        (Some(a), None) => a,
        (None, Some(b)) => 1.0 - b,
        (None, None) => 0.5,
    }
}

/// The mean of `values` (one per seat) over the seats `side` holds; `None` when it holds none.
fn side_mean(seats: &[Side], values: &[f64], side: Side) -> Option<f64> {
    let (sum, n) = seats
        .iter()
        .zip(values)
        .filter(|(s, _)| **s == side)
        .fold((0.0, 0u32), |(sum, n), (_, v)| (sum + v, n + 1));
    (n > 0).then(|| sum / f64::from(n))
}

/// The generator seed of the agent in `seat` of a match's deal `deal`, seating `seating`
/// (`cardsearch play` seeds its engines as deal 0's first seating, so that they decide as in a
/// match of the same seed).
pub fn agent_seed(seed: u64, deal: u64, seating: usize, seat: usize) -> u64 {
    mix(seed, &[deal, seating as u64, seat as u64, 1])
}

/// SplitMix64 finaliser: independent seeds from (seed, position).
pub fn mix(seed: u64, parts: &[u64]) -> u64 {
    let mut x = seed;
    for &p in parts {
        x = x.wrapping_add(p.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
    }
    x
}

/// The state of deal `index` of a match with `seed`.
pub fn deal_for<G: GameDef>(config: &G::Config, seed: u64, index: u64) -> G {
    G::new_game(config, &mut rng_from_seed(mix(seed, &[index])))
}

/// Builds the agents of one seating; errors name the bad spec.
pub fn build_agents<G: GameDef>(
    a: &Spec,
    b: &Spec,
    seats: &[Side],
) -> Result<Vec<Box<dyn Agent<G>>>, String> {
    seats
        .iter()
        .map(|side| {
            agents::build::<G>(if *side == Side::A { a } else { b }).map_err(|e| e.to_string())
        })
        .collect()
}

/// Plays one game to the end; `None` if the match's stop signal was raised before it ended (the
/// game is abandoned: its later moves would have been searched with no time). Errors only if an
/// agent fails or returns an illegal move.
#[allow(clippy::too_many_arguments)]
pub fn play_game<G: GameDef>(
    cfg: &MatchConfig,
    config: &G::Config,
    deal_index: u64,
    seating_index: usize,
    seats: &[Side],
    seatings_per_deal: usize,
) -> Result<Option<GameRecord>, String> {
    let mut state: G = deal_for(config, cfg.seed, deal_index);
    let deal = state.deal_text();
    let mut agents = build_agents::<G>(&cfg.a, &cfg.b, seats)?;
    let agent_seeds: Vec<u64> = (0..seats.len())
        .map(|s| agent_seed(cfg.seed, deal_index, seating_index, s))
        .collect();
    let mut rngs: Vec<_> = agent_seeds.iter().map(|&s| rng_from_seed(s)).collect();
    let mut moves = Vec::new();
    // Each seat's own record of the moves, as it saw them (what inference may read).
    let mut seen = SeatHistories::new(seats.len());
    let budget = match &cfg.stop {
        Some(stop) => cfg.budget.clone().with_stop(stop.clone()),
        None => cfg.budget.clone(),
    };
    let stopped = || cfg.stop.as_ref().is_some_and(StopSignal::is_raised);
    while !state.is_terminal() {
        if stopped() {
            return Ok(None);
        }
        let seat = state.current_seat();
        let start = Instant::now();
        let view = agents::view_for(agents[seat].as_ref(), &state, seat, seen.of(seat));
        let d = agents[seat]
            .choose(view, budget.clone(), &mut rngs[seat])
            .map_err(|e| format!("agent {} in seat {seat}: {e}", agents[seat].spec()))?;
        let micros = start.elapsed().as_micros() as u64;
        if !state.legal_moves().contains(d.mv) {
            return Err(format!(
                "agent {} played illegal move {} in seat {seat}",
                agents[seat].spec(),
                d.mv
            ));
        }
        moves.push(MoveRecord {
            seat,
            mv: d.mv.to_string(),
            iterations: d.iterations,
            micros,
            nodes: d.nodes,
            tree_full: d.tree_full,
            endgame_cut: d.endgame_cut,
        });
        seen.record(&state, d.mv);
        state.play(d.mv);
    }
    let n = state.num_seats();
    let rewards: Vec<f64> = (0..n).map(|s| state.reward(s)).collect();
    let units: Option<Vec<f64>> = (0..n).map(|s| state.match_units(s)).collect();
    if stopped() {
        // The last moves may have been cut short by the signal.
        return Ok(None);
    }
    Ok(Some(GameRecord {
        game: cfg.game.to_string(),
        seed: cfg.seed,
        deal_index,
        seating_index,
        seatings_per_deal,
        seats: seats.to_vec(),
        agent_a: agents_spec::<G>(&cfg.a),
        agent_b: agents_spec::<G>(&cfg.b),
        budget: cfg.budget.describe(),
        deal,
        agent_seeds,
        moves,
        score_a: score_for_a(seats, &rewards),
        scores: (0..n).map(|s| state.score(s)).collect(),
        rewards,
        units,
        person: None,
    }))
}

/// The full spec an agent writes into the log (defaults filled in), or the spec as given when it
/// does not build.
pub fn agents_spec<G: GameDef>(spec: &Spec) -> String {
    agents::build::<G>(spec)
        .map(|a| a.spec())
        .unwrap_or_else(|_| spec.to_string())
}

/// Receives each finished game as it ends (logs, progress).
pub trait MatchObserver: Send {
    /// Called on the driving thread for every finished game, in completion order.
    fn game_finished(
        &mut self,
        record: &GameRecord,
        report: &MatchReport,
        games_done: u64,
        games_total: u64,
    );
}

/// An observer that does nothing.
pub struct Quiet;
impl MatchObserver for Quiet {
    fn game_finished(&mut self, _: &GameRecord, _: &MatchReport, _: u64, _: u64) {}
}

/// Writes every finished game as one JSON line, flushed at once, so a crash loses at most the
/// games still in progress.
pub struct JsonlWriter<W: Write + Send>(pub W);

impl<W: Write + Send> JsonlWriter<W> {
    /// Writes one record and flushes. The line is made whole first and handed over in one
    /// write, so a process killed at any moment leaves whole lines only (in practice: a
    /// single `write` of a regular file is not cut short by a signal).
    pub fn write(&mut self, record: &GameRecord) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        self.0.write_all(&line)?;
        self.0.flush()
    }
}

/// Plays a whole match for game type `G`. Agent specs are checked before any game starts.
pub fn run_match<G: GameDef>(
    cfg: &MatchConfig,
    config: &G::Config,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, String> {
    run_match_resuming::<G>(cfg, config, Vec::new(), observer)
}

/// The logged game spec `logged`, where it is `game` written another way (`sueca:dealer=3` for
/// `sueca`, its default): the same rules, so the same match. `None` where the rules differ.
fn same_rules<G: GameDef>(game: &Spec, logged: &str) -> Option<Spec> {
    let logged: Spec = logged.parse().ok()?;
    let rules = G::config(&logged).ok()?;
    let same = logged.name == game.name
        && logged.finish().is_ok()
        && G::config(game).is_ok_and(|own| own == rules);
    same.then_some(logged)
}

/// Checks that a logged game belongs to the match `cfg` plays (same game, seed, agents, budget
/// and seating scheme), naming the first field that differs.
pub fn check_belongs<G: GameDef>(
    cfg: &MatchConfig,
    seatings_per_deal: usize,
    r: &GameRecord,
) -> Result<(), String> {
    let want = [
        ("game", cfg.game.to_string(), r.game.clone()),
        ("seed", cfg.seed.to_string(), r.seed.to_string()),
        ("agent_a", agents_spec::<G>(&cfg.a), r.agent_a.clone()),
        ("agent_b", agents_spec::<G>(&cfg.b), r.agent_b.clone()),
        ("budget", cfg.budget.describe(), r.budget.clone()),
        (
            "seatings_per_deal",
            seatings_per_deal.to_string(),
            r.seatings_per_deal.to_string(),
        ),
    ];
    match want.into_iter().find(|(_, w, g)| w != g) {
        Some((field, w, g)) => Err(format!(
            "logged deal {} seating {} is from another match: {field} is '{g}', not '{w}'",
            r.deal_index, r.seating_index
        )),
        None => Ok(()),
    }
}

/// [`run_match`] that continues a match from the games it already finished (read back from its
/// log): those games are not played again, and the report is the one an uninterrupted run gives
/// (deals are folded in index order either way). Games of deals outside this run (another shard,
/// beyond `deals`) are ignored; a game of another match or one given twice is an error. The
/// observer hears of the new games only.
pub fn run_match_resuming<G: GameDef>(
    cfg: &MatchConfig,
    config: &G::Config,
    finished: Vec<GameRecord>,
    observer: &mut dyn MatchObserver,
) -> Result<MatchReport, String> {
    // A log continued with the game written another way goes on in the log's own words, so
    // that every record of it names the game alike (merge compares them as written).
    let respelled;
    let cfg = match finished.first() {
        Some(r) if r.game != cfg.game.to_string() => match same_rules::<G>(&cfg.game, &r.game) {
            Some(game) => {
                respelled = MatchConfig {
                    game,
                    ..cfg.clone()
                };
                &respelled
            }
            None => cfg,
        },
        _ => cfg,
    };
    let probe: G = deal_for(config, cfg.seed, 0);
    let (n, partners, plan) = seating_plan(&probe, cfg.lineup);
    if cfg.lineup == Lineup::OneVsThree && (n != 4 || partners) {
        let seats = if partners {
            "four seats in two partnerships".to_string()
        } else {
            format!("{n} seats")
        };
        return Err(format!(
            "--lineup 1v3 applies to games of four individual seats (hearts); this game has {seats}"
        ));
    }
    // Each agent is checked with the knowledge of the seat it plays in the first game.
    for (seat, agent) in build_agents::<G>(&cfg.a, &cfg.b, &plan[0])?
        .iter()
        .enumerate()
    {
        agent.check_game(&probe.info_set(seat))?;
    }
    if cfg.deals == 0 {
        return Err("--deals must be at least 1".to_string());
    }
    // Deals and seatings are numbered, never listed: item `i` is seating `i % seatings` of the
    // shard's deal `i / seatings`, so a match of any size costs memory only for the games in
    // flight and the deals whose games are not all in.
    let (first_deal, step) = cfg.shard.unwrap_or((0, 1));
    let shard_deals = deals_in_run(cfg);
    let deal_of = |k: u64| first_deal + k * step;
    let total = shard_deals.saturating_mul(plan.len() as u64);
    let mut report = MatchReport {
        game: cfg.game.to_string(),
        seating: super::seating::describe(n, partners, cfg.lineup).to_string(),
        seatings_per_deal: plan.len(),
        has_units: is_units_game(&probe),
        points_are_penalties: G::POINTS_ARE_PENALTIES,
        ..Default::default()
    };
    report.a.spec = agents_spec::<G>(&cfg.a);
    report.b.spec = agents_spec::<G>(&cfg.b);
    report.a.cheating = agents::build::<G>(&cfg.a)
        .map(|a| a.is_cheating())
        .unwrap_or(false);
    report.b.cheating = agents::build::<G>(&cfg.b)
        .map(|a| a.is_cheating())
        .unwrap_or(false);

    let in_run = |d: u64| d < cfg.deals && d >= first_deal && (d - first_deal).is_multiple_of(step);
    let mut pending: BTreeMap<u64, Vec<GameRecord>> = BTreeMap::new();
    let mut skip: HashSet<(u64, usize)> = HashSet::new();
    for r in finished {
        check_belongs::<G>(cfg, plan.len(), &r)?;
        if !in_run(r.deal_index) {
            continue;
        }
        if plan.get(r.seating_index) != Some(&r.seats) {
            return Err(format!(
                "logged deal {} seating {} has seats {:?}, expected {:?}",
                r.deal_index,
                r.seating_index,
                r.seats,
                plan.get(r.seating_index)
            ));
        }
        if !skip.insert((r.deal_index, r.seating_index)) {
            return Err(format!(
                "logged deal {} seating {} appears twice",
                r.deal_index, r.seating_index
            ));
        }
        pending.entry(r.deal_index).or_default().push(r);
    }
    let mut order = (0..shard_deals).map(deal_of).peekable();
    let mut done = skip.len() as u64;
    // Deals are folded into the report in index order, whatever order games finish in, so
    // the statistics (and the SPRT stopping point) do not depend on scheduling. The games of
    // the deals folded go to `folded`.
    let mut fold = |pending: &mut BTreeMap<u64, Vec<GameRecord>>,
                    report: &mut MatchReport,
                    folded: &mut Vec<GameRecord>| {
        while let Some(&d) = order.peek() {
            if report.sprt.is_some_and(|s| s != SprtDecision::Continue) {
                return true;
            }
            match pending.get(&d) {
                Some(g) if g.len() == plan.len() => {
                    let mut games = pending.remove(&d).expect("present");
                    games.sort_by_key(|g| g.seating_index);
                    report.add_deal(&games);
                    folded.extend(games);
                    order.next();
                    if let Some(sprt) = cfg.sprt {
                        report.sprt = Some(sprt.decide(&report.tally));
                    }
                }
                _ => break,
            }
        }
        report.sprt.is_some_and(|s| s != SprtDecision::Continue)
    };
    // The logged games resumed from are logged already.
    let decided = fold(&mut pending, &mut report, &mut Vec::new());
    // With an SPRT, games are logged as their deal is counted, so the log ends where the test
    // stopped (and `merge` of it counts what the report counted); otherwise as they finish,
    // so a crash loses only the games in progress.
    let log_when_counted = cfg.sprt.is_some();
    let mut folded = Vec::new();

    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(decided);
    let (tx, rx) = crossbeam::channel::unbounded::<Result<Option<GameRecord>, String>>();
    let mut failure = None;
    let workers = (cfg.jobs.max(1) as u64).min(total).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, plan, skip) = (&next, &stop, &plan, &skip);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let (deal, seating) = (
                        deal_of(i / plan.len() as u64),
                        (i % plan.len() as u64) as usize,
                    );
                    if skip.contains(&(deal, seating)) {
                        continue;
                    }
                    let r = play_game::<G>(cfg, config, deal, seating, &plan[seating], plan.len());
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx.iter() {
            let record = match r {
                Ok(Some(rec)) => rec,
                Ok(None) => {
                    // Stopped: no worker starts another game.
                    stop.store(true, Ordering::Relaxed);
                    report.interrupted = true;
                    continue;
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            done += 1;
            pending
                .entry(record.deal_index)
                .or_default()
                .push(record.clone());
            if fold(&mut pending, &mut report, &mut folded) {
                stop.store(true, Ordering::Relaxed);
            }
            if log_when_counted {
                // A counted deal may hold games taken from the log: those are logged already.
                for counted in folded.drain(..) {
                    if !skip.contains(&(counted.deal_index, counted.seating_index)) {
                        observer.game_finished(&counted, &report, done, total);
                    }
                }
            } else {
                observer.game_finished(&record, &report, done, total);
                folded.clear();
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Seats, whether seats 0 and 2 are partners, and the seatings each deal is played with.
fn seating_plan<G: GameDef>(probe: &G, lineup: Lineup) -> (usize, bool, Vec<Vec<Side>>) {
    let n = probe.num_seats();
    let partners = n == 4 && probe.team(0) == probe.team(2) && probe.team(0) != probe.team(1);
    (n, partners, seatings(n, partners, lineup))
}

/// Deals this run of the match plays (its shard's).
fn deals_in_run(cfg: &MatchConfig) -> u64 {
    let (first_deal, step) = cfg.shard.unwrap_or((0, 1));
    cfg.deals.saturating_sub(first_deal).div_ceil(step)
}

/// Games this run of the match plays when it runs to the end: its shard's deals times the
/// seatings of each.
pub fn games_in_run<G: GameDef>(cfg: &MatchConfig, config: &G::Config) -> u64 {
    let probe: G = deal_for(config, cfg.seed, 0);
    deals_in_run(cfg).saturating_mul(seating_plan(&probe, cfg.lineup).2.len() as u64)
}

/// True when the game reports match units; they exist only at the end, so play one random game.
fn is_units_game<G: GameDef>(probe: &G) -> bool {
    let mut state = probe.clone();
    let mut rng = rng_from_seed(0);
    while !state.is_terminal() {
        let m = state.legal_moves().random(&mut rng);
        state.play(m);
    }
    state.match_units(0).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::{A, B};

    /// A finished game with these seats, per-seat points and units, and no moves.
    fn game(seats: &[Side], scores: &[f64], units: Option<&[f64]>) -> GameRecord {
        let rewards: Vec<f64> = scores.iter().map(|_| 0.5).collect();
        GameRecord {
            game: "test".into(),
            seed: 0,
            deal_index: 0,
            seating_index: 0,
            seatings_per_deal: 2,
            seats: seats.to_vec(),
            agent_a: "a".into(),
            agent_b: "b".into(),
            budget: String::new(),
            deal: String::new(),
            agent_seeds: vec![0; seats.len()],
            moves: Vec::new(),
            score_a: score_for_a(seats, &rewards),
            rewards,
            scores: scores.to_vec(),
            units: units.map(<[f64]>::to_vec),
            person: None,
        }
    }

    #[test]
    fn margins_are_one_sample_per_deal_of_a_minus_b_per_seat() {
        let mut r = MatchReport::default();
        // Sueca-like, partnerships swapped: the seats at 0 and 2 take 70 points, so A is
        // +20 in the first seating and −20 in the second, 0 for the deal.
        r.add_deal(&[
            game(
                &[A, B, A, B],
                &[70.0, 50.0, 70.0, 50.0],
                Some(&[1.0, -1.0, 1.0, -1.0]),
            ),
            game(
                &[B, A, B, A],
                &[70.0, 50.0, 70.0, 50.0],
                Some(&[1.0, -1.0, 1.0, -1.0]),
            ),
        ]);
        // A second deal where A wins both seatings by 30 and 10 points: one sample of +20.
        r.add_deal(&[
            game(
                &[A, B, A, B],
                &[75.0, 45.0, 75.0, 45.0],
                Some(&[2.0, -2.0, 2.0, -2.0]),
            ),
            game(
                &[B, A, B, A],
                &[55.0, 65.0, 55.0, 65.0],
                Some(&[-1.0, 1.0, -1.0, 1.0]),
            ),
        ]);
        assert_eq!(r.points_margin.deals, 2);
        assert_eq!(r.points_margin.mean(), 10.0);
        // Samples 0 and +20: SE 10, t with 1 degree of freedom.
        let (lo, hi) = r.points_margin.interval().unwrap();
        assert!((hi - lo - 2.0 * 12.7062 * 10.0).abs() < 1e-9);
        // Units: deal 1 gives 0, deal 2 ((2 − −2) + (1 − −1)) / 2 = 3.
        assert_eq!(r.units_margin.mean(), 1.5);
        // Hearts 2v2: A's two seats average 5 penalty points, B's 8.
        let mut hearts = MatchReport::default();
        hearts.add_deal(&[game(&[A, A, B, B], &[4.0, 6.0, 10.0, 6.0], None)]);
        assert_eq!(hearts.points_margin.mean(), -3.0);
        assert_eq!(hearts.units_margin.deals, 0);
        assert_eq!((hearts.a.mean_points(), hearts.b.mean_points()), (5.0, 8.0));
        // A one-seat game has no margin to take.
        let mut solo = MatchReport::default();
        solo.add_deal(&[game(&[A], &[1.0], None), game(&[B], &[0.0], None)]);
        assert_eq!(solo.points_margin.deals, 0);
        assert_eq!((solo.a.mean_points(), solo.b.mean_points()), (1.0, 0.0));
        // Shards merge into the same statistics.
        let mut merged = MatchReport::default();
        merged.merge(&r);
        merged.merge(&hearts);
        assert_eq!(merged.points_margin.deals, 3);
        assert_eq!(merged.points_margin.sum, 17.0);
    }
}
