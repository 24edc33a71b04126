//! Tournaments: every pairing of a list of agents (a round robin, or a gauntlet of the first
//! agent against the rest), each pairing a fair match as `cardsearch match` plays it, then the
//! crosstable and the agents' ratings fitted jointly ([`super::ratings`]).
//!
//! Each pairing is exactly the match `cardsearch match --a A --b B` with the tournament's game,
//! deals, seed, budget and line-up: the same deals for every pairing (common random numbers
//! across pairings too), and a pairing's result can be checked by running it alone. All pairings
//! write to one log; a record says which pairing it belongs to by its two agents, which is how a
//! resumed or sharded tournament sorts its games back out.

use serde::{Deserialize, Serialize};

use super::ratings::{self, PairResult, Rating};
use super::runner::{
    GameRecord, MatchConfig, MatchObserver, MatchReport, agents_spec, deal_for, games_in_run,
    run_match_resuming,
};
use super::seating::Lineup;
use crate::games::GameDef;
use crate::search::{Budget, StopSignal};
use crate::spec::Spec;

/// Which agents meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every agent against every other.
    #[default]
    RoundRobin,
    /// The first agent against each of the others.
    Gauntlet,
}

/// Everything that defines a tournament.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The game spec.
    pub game: Spec,
    /// The agents, at least two, all different.
    pub agents: Vec<Spec>,
    /// Round robin or gauntlet.
    pub format: Format,
    /// Deals per pairing (each played once per seating).
    pub deals: u64,
    /// The seed of every pairing.
    pub seed: u64,
    /// Default budget per move.
    pub budget: Budget,
    /// Game workers running at once.
    pub jobs: usize,
    /// Line-up for 4-seat individual games.
    pub lineup: Lineup,
    /// Play only deals with `index % n == i` of every pairing.
    pub shard: Option<(u64, u64)>,
    /// The agent whose rating is 0.
    pub anchor: usize,
    /// Raised to end the tournament early (Ctrl-C).
    pub stop: Option<StopSignal>,
}

impl TournamentConfig {
    /// The pairings (first agent, second agent), as indices into `agents`, in playing order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        match self.format {
            Format::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        }
    }

    /// The match one pairing plays: the one `cardsearch match` plays with the same options.
    pub fn match_config(&self, (a, b): (usize, usize)) -> MatchConfig {
        MatchConfig {
            game: self.game.clone(),
            a: self.agents[a].clone(),
            b: self.agents[b].clone(),
            deals: self.deals,
            seed: self.seed,
            budget: self.budget.clone(),
            jobs: self.jobs,
            lineup: self.lineup,
            shard: self.shard,
            sprt: None,
            stop: self.stop.clone(),
        }
    }
}

/// One pairing's match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    /// Index of the first agent.
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// The match, from the first agent's side.
    pub report: MatchReport,
}

/// The outcome of a tournament (or of its merged shards).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentReport {
    /// The game spec.
    pub game: String,
    /// The agents' full specs.
    pub agents: Vec<String>,
    /// Every pairing played, in playing order.
    pub pairings: Vec<Pairing>,
    /// Index of the agent rated 0.
    pub anchor: usize,
    /// Ratings fitted to every pairing jointly, in agent order; `None` when some agent is not
    /// linked to the anchor by finished games.
    pub ratings: Option<Vec<Rating>>,
    /// True when the tournament was stopped before every pairing was played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

impl TournamentReport {
    /// Builds the report of the given pairings, fitting the ratings.
    pub fn new(game: String, agents: Vec<String>, pairings: Vec<Pairing>, anchor: usize) -> Self {
        let results: Vec<PairResult> = pairings.iter().map(pair_result).collect();
        let ratings = ratings::fit(&agents, &results, anchor).ok();
        TournamentReport {
            game,
            agents,
            pairings,
            anchor,
            ratings,
            interrupted: false,
        }
    }
}

/// A pairing's games for the rating fit: only deals whose every seating finished count, as in
/// the match statistics.
fn pair_result(p: &Pairing) -> PairResult {
    let t = &p.report.tally;
    let per_deal = p.report.seatings_per_deal as f64;
    PairResult {
        a: p.a,
        b: p.b,
        games: t.deals as f64 * per_deal,
        score_a: t.sum * per_deal,
    }
}

/// Passes a pairing's games on with the tournament's progress (games done over all pairings).
struct Progress<'a> {
    inner: &'a mut dyn MatchObserver,
    before: u64,
    total: u64,
}

impl MatchObserver for Progress<'_> {
    fn game_finished(&mut self, record: &GameRecord, report: &MatchReport, done: u64, _: u64) {
        self.inner
            .game_finished(record, report, self.before + done, self.total);
    }
}

/// Plays a tournament for game type `G`, continuing from `finished` (the games of its log): each
/// logged game goes back to its pairing and is not played again. A logged game of two agents
/// that are not a pairing of this tournament is an error.
pub fn run_tournament<G: GameDef>(
    cfg: &TournamentConfig,
    config: &G::Config,
    finished: Vec<GameRecord>,
    observer: &mut dyn MatchObserver,
) -> Result<TournamentReport, String> {
    if cfg.agents.len() < 2 {
        return Err("a tournament needs at least two agents".into());
    }
    let specs: Vec<String> = cfg.agents.iter().map(agents_spec::<G>).collect();
    for (i, s) in specs.iter().enumerate() {
        if let Some(j) = specs[..i].iter().position(|o| o == s) {
            return Err(format!(
                "agents {} and {} are the same agent ({s}): give each once",
                cfg.agents[j], cfg.agents[i]
            ));
        }
    }
    // Every agent is checked against the game before any game is played, so one that cannot
    // play it is refused at once, not after the pairings that come before its first.
    let probe: G = deal_for(config, cfg.seed, 0);
    for spec in &cfg.agents {
        crate::agents::build::<G>(spec)
            .map_err(|e| e.to_string())?
            .check_game(&probe.info_set(probe.current_seat()))?;
    }
    let pairings = cfg.pairings();
    let mut logged: Vec<Vec<GameRecord>> = vec![Vec::new(); pairings.len()];
    for r in finished {
        let k = pairings
            .iter()
            .position(|&(a, b)| specs[a] == r.agent_a && specs[b] == r.agent_b)
            .ok_or_else(|| {
                format!(
                    "logged deal {} seating {} is from another tournament: {} against {} is \
                     not one of its pairings",
                    r.deal_index, r.seating_index, r.agent_a, r.agent_b
                )
            })?;
        logged[k].push(r);
    }
    let per_pairing = games_in_run::<G>(&cfg.match_config(pairings[0]), config);
    let mut played = Vec::new();
    let mut interrupted = false;
    for (k, (&pair, games)) in pairings.iter().zip(logged).enumerate() {
        let mut progress = Progress {
            inner: &mut *observer,
            before: per_pairing * k as u64,
            total: per_pairing * pairings.len() as u64,
        };
        let report =
            run_match_resuming::<G>(&cfg.match_config(pair), config, games, &mut progress)?;
        interrupted = report.interrupted;
        played.push(Pairing {
            a: pair.0,
            b: pair.1,
            report,
        });
        if interrupted {
            break;
        }
    }
    let mut report = TournamentReport::new(cfg.game.to_string(), specs, played, cfg.anchor);
    report.interrupted = interrupted;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(n: usize, format: Format) -> TournamentConfig {
        TournamentConfig {
            game: "tricks".parse().unwrap(),
            agents: (0..n).map(|_| "random".parse().unwrap()).collect(),
            format,
            deals: 1,
            seed: 0,
            budget: Budget::iterations(1),
            jobs: 1,
            lineup: Lineup::default(),
            shard: None,
            anchor: 0,
            stop: None,
        }
    }

    #[test]
    fn round_robins_pair_everyone_once_and_gauntlets_pair_the_first_with_the_rest() {
        assert_eq!(
            config(4, Format::RoundRobin).pairings(),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(
            config(4, Format::Gauntlet).pairings(),
            [(0, 1), (0, 2), (0, 3)]
        );
    }

    #[test]
    fn the_same_agent_twice_is_refused() {
        let cfg = config(2, Format::RoundRobin);
        let err = run_tournament::<crate::games::tricks::Tricks>(
            &cfg,
            &(),
            Vec::new(),
            &mut super::super::runner::Quiet,
        )
        .unwrap_err();
        assert!(err.contains("same agent"), "{err}");
    }
}
