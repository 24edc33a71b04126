//! `cardsearch tournament`: every pairing of a list of agents, a crosstable and joint ratings.

use super::stdout::{out, outln};
use std::path::PathBuf;

use clap::Args;

use super::match_cmd::budget_line;
use super::output::{self, write_json};
use super::series::SeriesArgs;
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::plot::ratings_svg;
use crate::harness::stats::Signed;
use crate::harness::tournament::{Format, TournamentConfig, TournamentReport, run_tournament};
use crate::limits::{self, positive_at_most};
use crate::spec::Spec;

/// Options of `cardsearch tournament`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Every pairing is the match `cardsearch match --a A --b B` with the same game, \
deals, seed, budget and line-up (so any cell of the crosstable can be checked alone), all written \
to one --out log. Run the same command again with the same --out to continue after a crash or \
a kill: finished games are not played again. Ratings: Elo (Bradley–Terry, a draw half a win) \
fitted to every pairing jointly by maximum likelihood with one drawn game a pairing added as a \
prior (so an agent that wins every game has a finite rating, marked as such), with 95% \
intervals, the --anchor agent at 0."
)]
pub struct TournamentArgs {
    /// The agents, comma-separated, e.g. `random,pimc,ismcts:c=0.7,reward=mix:w=0.3` (an item
    /// whose first `=` comes before any `:` is an option of the agent before it). May be given
    /// more than once.
    #[arg(long, required = true)]
    pub agents: Vec<String>,
    /// Play the first agent against each of the others only, instead of every pairing.
    #[arg(long)]
    pub gauntlet: bool,
    /// The agent rated 0: its spec as given, or its name, or some of its options
    /// (`ismcts:c=0.7`), if they pick out one agent; the first agent by default.
    #[arg(long)]
    pub anchor: Option<String>,
    /// Deals per pairing; each is played once per seating.
    #[arg(long, default_value_t = 20)]
    pub deals: u64,
    /// Draw the ratings with their intervals as an SVG plot to this file.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// The options every series of games has (`--out` and `--summary` cover the whole tournament).
    #[command(flatten)]
    pub series: SeriesArgs,
}

/// Splits `--agents` lists into specs: commas separate agents, but an item whose first `=`
/// comes before any `:` continues the options of the agent before it
/// (`ismcts:c=0.7,reward=mix:w=0.3`: an option's value may hold a `:`, an agent's name may
/// not). Such an item with no agent before it in its list is an error that says so: as a spec
/// of its own it would only be called malformed.
pub fn split_agents(lists: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for list in lists {
        let mut here: Vec<String> = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let is_option = match (item.find('='), item.find(':')) {
                (Some(equals), Some(colon)) => equals < colon,
                (Some(_), None) => true,
                (None, _) => false,
            };
            match here.last_mut() {
                Some(last) if is_option => {
                    last.push(',');
                    last.push_str(item);
                }
                None if is_option => {
                    return Err(format!(
                        "--agents '{list}': option '{item}' comes before any agent; \
                         give it after its agent's name (e.g. ismcts:{item})"
                    ));
                }
                _ => here.push(item.to_string()),
            }
        }
        out.extend(here);
    }
    Ok(out)
}

/// The index of the agent `--anchor` names among `agents`: the one whose spec is `anchor`
/// whole; else the one agent with `anchor`'s name and every option `anchor` gives, at the same
/// value (`ismcts` or `ismcts:c=0.7` for a logged `ismcts:c=0.7,playout=random,…`). Naming
/// none of the agents, or several, is an error that lists them.
pub(super) fn anchor_index(anchor: &str, agents: &[String]) -> Result<usize, String> {
    if let Some(i) = agents.iter().position(|a| a == anchor) {
        return Ok(i);
    }
    let wanted = anchor
        .parse::<Spec>()
        .map_err(|e| format!("--anchor: {e}"))?;
    let names_it = |agent: &String| {
        agent.parse::<Spec>().is_ok_and(|spec| {
            spec.name == wanted.name
                && wanted
                    .options
                    .iter()
                    .all(|(key, value)| spec.options.iter().any(|(k, v)| k == key && v == value))
        })
    };
    let found: Vec<usize> = (0..agents.len())
        .filter(|&i| names_it(&agents[i]))
        .collect();
    match found[..] {
        [i] => Ok(i),
        _ => Err(format!(
            "--anchor '{anchor}' names {} of the agents ({})",
            if found.is_empty() { "none" } else { "several" },
            agents.join(" ")
        )),
    }
}

impl TournamentArgs {
    /// Checks and converts the arguments.
    pub fn config(&self) -> Result<TournamentConfig, String> {
        let spec = |s: &str| s.parse::<Spec>().map_err(|e| e.to_string());
        let flag = |e: String| format!("--{e}");
        let series = self.series.check(self.deals)?;
        let names = split_agents(&self.agents)?;
        if names.len() < 2 {
            return Err(format!(
                "--agents: a tournament needs at least two agents, got {}",
                names.len()
            ));
        }
        positive_at_most("agents", names.len(), limits::MAX_AGENTS).map_err(flag)?;
        let anchor = match &self.anchor {
            None => 0,
            Some(a) => anchor_index(a, &names)?,
        };
        Ok(TournamentConfig {
            game: series.game,
            agents: names.iter().map(|n| spec(n)).collect::<Result<_, _>>()?,
            format: if self.gauntlet {
                Format::Gauntlet
            } else {
                Format::RoundRobin
            },
            deals: self.deals,
            seed: self.series.seed,
            budget: series.budget,
            jobs: series.jobs,
            lineup: series.lineup,
            shard: series.shard,
            anchor,
            stop: None,
        })
    }
}

struct TournamentVisitor<'a> {
    args: &'a TournamentArgs,
    cfg: TournamentConfig,
}

impl GameVisitor for TournamentVisitor<'_> {
    type Output = Result<TournamentReport, String>;
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output {
        self.args.series.run_logged(true, |finished, console| {
            run_tournament::<G>(&self.cfg, &config, finished, console)
        })
    }
}

/// Runs `cardsearch tournament`.
pub fn run(args: &TournamentArgs) -> Result<(), String> {
    let mut cfg = args.config()?;
    // As in `match`: the games log is read and appended to, the rest written at the end.
    let log = args.series.out.as_deref().map(|log| ("--out", log));
    output::check_outputs(
        &[
            ("--summary", args.series.summary.as_deref()),
            ("--plot", args.plot.as_deref()),
        ],
        log.as_slice(),
    )?;
    cfg.stop = Some(super::interrupt_signal());
    let format = match cfg.format {
        Format::RoundRobin => "round robin",
        Format::Gauntlet => "gauntlet",
    };
    let (game, budget) = (cfg.game.clone(), cfg.budget.describe());
    let lead = format!(
        "{game}: {} agents, {format}, {} deals per pairing",
        cfg.agents.len(),
        cfg.deals
    );
    let tail = format!(
        "seed {}{}",
        cfg.seed,
        cfg.shard
            .map_or(String::new(), |(i, n)| format!(", shard {i}/{n}"))
    );
    let report =
        games::dispatch(&game, TournamentVisitor { args, cfg }).map_err(|e| e.to_string())??;
    // Which agents searched with their own budget, from their full specs, as `merge` reads them
    // from the logs: a budget that is an agent's own default (pentago-student's) counts too.
    let agents: Vec<&str> = report.agents.iter().map(String::as_str).collect();
    outln!("{lead}, {}, {tail}", budget_line(&budget, &agents))?;
    out!("{}", format_tournament(&report))?;
    write_outputs(
        &report,
        args.series.summary.as_deref(),
        args.plot.as_deref(),
    )
}

/// Writes the JSON summary and the ratings plot, where asked for.
pub fn write_outputs(
    report: &TournamentReport,
    summary: Option<&std::path::Path>,
    plot: Option<&std::path::Path>,
) -> Result<(), String> {
    if let Some(p) = summary {
        write_json(p, report)?;
    }
    if let Some(p) = plot {
        // Asked for, a plot that cannot be drawn is an error, not a file quietly missing.
        let ratings = report.ratings.as_ref().ok_or_else(|| {
            format!(
                "--plot {}: no ratings to plot: some agent is not connected to the anchor by \
                 games played",
                p.display()
            )
        })?;
        let title = format!("{}: Elo, 95% intervals", report.game);
        ratings_svg(ratings, &title, p)?;
    }
    Ok(())
}

/// The crosstable and the ratings, as printed.
pub fn format_tournament(r: &TournamentReport) -> String {
    let n = r.agents.len();
    // Cheating agents (they read hidden cards) are marked wherever they are named.
    let cheating = |i: usize| {
        r.pairings
            .iter()
            .any(|p| (p.a == i && p.report.a.cheating) || (p.b == i && p.report.b.cheating))
    };
    let mark = |i: usize| super::cheating_mark(cheating(i));
    let mut out = String::from("  agents:\n");
    for (i, a) in r.agents.iter().enumerate() {
        out += &format!("    {}: {a}{}\n", i + 1, mark(i));
    }
    // The row agent's mean score against the column agent, ± the 95% interval's half-width.
    let mut cell = vec![vec![None; n]; n];
    let mut score = vec![(0.0, 0.0); n];
    for p in &r.pairings {
        let t = &p.report.tally;
        let half = t.half_width();
        cell[p.a][p.b] = Some((t.mean(), half, t.deals));
        cell[p.b][p.a] = Some((1.0 - t.mean(), half, t.deals));
        let games = (t.deals * p.report.seatings_per_deal as u64) as f64;
        let sum = t.sum * p.report.seatings_per_deal as f64;
        score[p.a].0 += sum;
        score[p.a].1 += games;
        score[p.b].0 += games - sum;
        score[p.b].1 += games;
    }
    out += "  crosstable: the row agent's mean score against the column agent ± 95% interval\n";
    out += "      ";
    for j in 0..n {
        out += &format!("{:>12}", j + 1);
    }
    out += "\n";
    for (i, row) in cell.iter().enumerate() {
        out += &format!("    {:>2}", i + 1);
        for (j, c) in row.iter().enumerate() {
            let text = match c {
                _ if i == j => "-".to_string(),
                Some((m, h, d)) if *d > 0 => format!("{m:.3}±{h:.3}"),
                _ => ".".to_string(),
            };
            out += &format!("{text:>12}");
        }
        out += "\n";
    }
    match &r.ratings {
        None => out += "  ratings: not every agent is linked to the anchor by finished games\n",
        Some(ratings) => {
            out += &format!(
                "  ratings: Elo fitted to every pairing (maximum likelihood with one drawn game \
                 a pairing added as a prior), 95% interval, {} = 0\n",
                r.agents[r.anchor]
            );
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
            out += "    rank     Elo   95% interval    games  score  agent\n";
            for (rank, &i) in order.iter().enumerate() {
                let g = &ratings[i];
                let (s, games) = score[i];
                // With every game won or every game lost the likelihood alone has no
                // maximum: the rating is the prior's doing, and says only "above" or "below".
                let unbounded = if games > 0.0 && s == games {
                    " (won every game: held finite only by the prior)"
                } else if games > 0.0 && s == 0.0 {
                    " (lost every game: held finite only by the prior)"
                } else {
                    ""
                };
                out += &format!(
                    "    {:>4}  {:>6}  [{:>5}, {:>5}]  {:>7}  {:.3}  {}: {}{}{unbounded}\n",
                    rank + 1,
                    Signed(g.elo, 0),
                    Signed(g.low, 0),
                    Signed(g.high, 0),
                    games,
                    if games > 0.0 { s / games } else { 0.5 },
                    i + 1,
                    g.agent,
                    mark(i)
                );
            }
        }
    }
    if r.interrupted {
        out += "  INTERRUPTED: pairings not reached are missing; only whole deals are counted\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_keep_options_with_their_agent() {
        let got = split_agents(&[
            "random, pimc:dets=20,iterations=50,ismcts".into(),
            "ismcts:c=0.7,reward=mix:w=0.3,playout=nast:n=3,policy=gibbs:tau=0.5".into(),
            "ismcts:c=1".into(),
        ])
        .unwrap();
        assert_eq!(
            got,
            [
                "random",
                "pimc:dets=20,iterations=50",
                "ismcts",
                "ismcts:c=0.7,reward=mix:w=0.3,playout=nast:n=3,policy=gibbs:tau=0.5",
                "ismcts:c=1"
            ]
        );
    }

    #[test]
    fn an_anchor_is_found_by_its_spec_its_name_or_some_of_its_options() {
        let logged: Vec<String> = [
            "random",
            "ismcts:c=0.7,playout=random,reward=pwl",
            "ismcts:c=1,playout=random,reward=pwl",
            "pimc:dets=20,c=0.7",
        ]
        .map(String::from)
        .into();
        for (anchor, index) in [
            ("random", 0),
            ("ismcts:c=0.7", 1),
            ("ismcts:c=1,playout=random,reward=pwl", 2),
            ("pimc", 3),
        ] {
            assert_eq!(anchor_index(anchor, &logged), Ok(index), "{anchor}");
        }
        for (anchor, why) in [
            ("ismcts", "names several"),
            ("ismcts:c=2", "names none"),
            ("uct", "names none"),
        ] {
            let e = anchor_index(anchor, &logged).unwrap_err();
            assert!(e.contains(why) && e.contains("random ismcts:c=0.7"), "{e}");
        }
    }

    /// An agent that won or lost every game has no maximum-likelihood rating: the report says
    /// its rating is the prior's doing.
    #[test]
    fn ratings_held_up_only_by_the_prior_are_marked() {
        use crate::harness::MatchReport;
        use crate::harness::tournament::{Pairing, TournamentReport};
        let pairing = |a, b, deal_scores: &[f64]| {
            let mut report = MatchReport {
                seatings_per_deal: 2,
                ..Default::default()
            };
            for &score in deal_scores {
                report.tally.add_deal(score);
            }
            Pairing { a, b, report }
        };
        let agents: Vec<String> = ["random", "pimc", "uct"].map(String::from).into();
        let report = TournamentReport::new(
            "sueca".into(),
            agents,
            vec![
                pairing(0, 1, &[0.5, 0.0, 0.5]),
                pairing(0, 2, &[0.0, 0.0, 0.0]),
                pairing(1, 2, &[0.0, 0.0, 0.0]),
            ],
            0,
        );
        let text = format_tournament(&report);
        // The agent's row of the ratings table (the one with an interval in brackets).
        let line = |agent: &str| {
            text.lines()
                .find(|l| l.contains('[') && l.contains(agent))
                .unwrap()
        };
        assert!(
            line("3: uct").contains("won every game: held finite only by the prior"),
            "{text}"
        );
        assert!(
            !line("1: random").contains("prior") && !line("2: pimc").contains("prior"),
            "{text}"
        );
    }

    #[test]
    fn an_option_before_any_agent_is_named_as_such() {
        for list in ["threads=2,random,pimc", " , c=0.7,ismcts"] {
            let e = split_agents(&[list.into()]).unwrap_err();
            assert!(e.contains("comes before any agent"), "{list}: {e}");
        }
        // Each list starts afresh: an option at the start of the second is not the first's.
        let e = split_agents(&["random,ismcts".into(), "threads=2,pimc".into()]).unwrap_err();
        assert!(e.contains("'threads=2'"), "{e}");
    }
}
