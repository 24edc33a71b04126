//! `cardsearch merge`: folds the logs of a sharded match into the report of the whole match.

use super::stdout::{out, outln};
use std::path::PathBuf;

use clap::Args;

use super::match_cmd::{budget_line, format_report};
use super::output;
use super::tournament::{format_tournament, write_outputs};
use crate::harness::log::{Logged, Merged, match_key, merge_records, read_log_noting};
use crate::harness::tournament::{Pairing, TournamentReport};

/// Options of `cardsearch merge`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Every log must come from the same match (game, seed, agents, budget); run the \
shards with `cardsearch match ... --shard I/N --out shard-I.jsonl`. Deals are folded in index \
order, so the report's statistics are the ones the unsharded match prints (its header names \
the agents by the full specs the logs record). A deal with some seatings missing \
(a shard killed mid-deal) is reported on stderr and left out. Logs of a tournament (several \
pairings) merge to its crosstable and ratings."
)]
pub struct MergeArgs {
    /// The logs written by `cardsearch match --out`, in any order.
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Write the merged statistics as JSON to this file (the format of `match --summary`, or of
    /// `tournament --summary` for a tournament's logs).
    #[arg(long)]
    pub summary: Option<PathBuf>,
    /// Tournament logs: the agent rated 0: its spec as logged or as given to `tournament`, or
    /// its name, if that picks out one agent; the first agent by default.
    #[arg(long)]
    pub anchor: Option<String>,
    /// Tournament logs: draw the ratings as an SVG plot to this file.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// Runs `cardsearch merge`.
pub fn run(args: &MergeArgs) -> Result<(), String> {
    let inputs: Vec<_> = args
        .logs
        .iter()
        .map(|p| ("a log given to merge", p.as_path()))
        .collect();
    output::check_outputs(
        &[
            ("--summary", args.summary.as_deref()),
            ("--plot", args.plot.as_deref()),
        ],
        &inputs,
    )?;
    let mut records = Vec::new();
    for path in &args.logs {
        let (logged, warning) = read_log_noting(path).map_err(|e| e.to_string())?;
        if let Some(w) = warning {
            eprintln!("warning: {w}");
        }
        records.extend(logged);
    }
    // A game a person played has no match around it: no deals numbered, no seats swapped.
    if let Some(l) = records.iter().find(|l| l.record.person.is_some()) {
        return Err(format!(
            "{}: a game of `cardsearch play` (a person in seat {}), not of a match: merge reads \
             the logs of match and tournament; `cardsearch replay` reads this one",
            l.origin,
            l.record.person.unwrap_or_default()
        ));
    }
    // A tournament's log holds several pairings, told apart by their two agents.
    let mut pairs: Vec<((String, String), Vec<Logged>)> = Vec::new();
    for l in records {
        let key = (l.record.agent_a.clone(), l.record.agent_b.clone());
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(l),
            None => pairs.push((key, vec![l])),
        }
    }
    if pairs.len() > 1 {
        same_tournament(&pairs)?;
        return merge_tournament(args, pairs);
    }
    // One match has no ratings to draw or anchor: said, not ignored.
    if let Some(((a, b), _)) = pairs.first() {
        for (flag, given) in [
            ("--plot", args.plot.is_some()),
            ("--anchor", args.anchor.is_some()),
        ] {
            if given {
                return Err(format!(
                    "{flag} applies to a tournament's logs; these hold one match ({a} vs {b})"
                ));
            }
        }
    }
    let records = pairs.pop().map(|p| p.1).unwrap_or_default();
    let merged = merge_one(&records)?;
    let r = &records[0].record;
    outln!(
        "{}: A = {} vs B = {}, {} deals, {}, seed {}",
        r.game,
        r.agent_a,
        r.agent_b,
        merged.report.tally.deals,
        budget_line(&r.budget, &[&r.agent_a, &r.agent_b]),
        r.seed
    )?;
    out!("{}", format_report(&merged.report))?;
    match &args.summary {
        Some(p) => output::write_json(p, &merged.report),
        None => Ok(()),
    }
}

/// Several agent pairs are one tournament's pairings only if they played the same game, deals
/// (seed), budget and line-up: logs of different matches are refused, not rated together.
/// (Within a pair, `merge_records` checks each game against the others.)
fn same_tournament(pairs: &[((String, String), Vec<Logged>)]) -> Result<(), String> {
    let first = &pairs[0].1[0].record;
    let key = match_key(first);
    for ((a, b), logs) in &pairs[1..] {
        for ((field, want), (_, got)) in key.iter().zip(match_key(&logs[0].record)) {
            // Pairings differ in their agents, and in nothing else.
            if !field.starts_with("agent_") && *want != got {
                return Err(format!(
                    "the logs hold different matches, not one tournament: {} vs {} has {field} \
                     {want}, {a} vs {b} has {got}",
                    first.agent_a, first.agent_b
                ));
            }
        }
    }
    Ok(())
}

/// Merges one match's records, warning on stderr about incomplete and missing deals.
fn merge_one(records: &[Logged]) -> Result<Merged, String> {
    let merged = merge_records(records)?;
    let who = records.first().map_or(String::new(), |l| {
        format!("{} vs {}: ", l.record.agent_a, l.record.agent_b)
    });
    for (deal, found) in &merged.incomplete {
        eprintln!(
            "warning: {who}deal {deal} left out: {found} of {} seatings found",
            merged.report.seatings_per_deal
        );
    }
    if !merged.missing.is_empty() {
        let count: u64 = merged.missing.iter().map(|r| r.end - r.start).sum();
        eprintln!(
            "warning: {who}no games of deal{} {} (a shard not given, or a match stopped early)",
            if count == 1 { "" } else { "s" },
            abbreviate(&merged.missing)
        );
    }
    Ok(merged)
}

/// Merges the logs of a tournament: each pairing as a match, then the crosstable and ratings.
/// Agents are numbered in the order the logs first name them, which for a tournament's own
/// logs is its playing order.
fn merge_tournament(
    args: &MergeArgs,
    pairs: Vec<((String, String), Vec<Logged>)>,
) -> Result<(), String> {
    let mut agents: Vec<String> = Vec::new();
    let mut index = |name: &String| match agents.iter().position(|a| a == name) {
        Some(i) => i,
        None => {
            agents.push(name.clone());
            agents.len() - 1
        }
    };
    let mut pairings = Vec::new();
    for ((a, b), records) in &pairs {
        let (a, b) = (index(a), index(b));
        let report = merge_one(records)?.report;
        pairings.push(Pairing { a, b, report });
    }
    let anchor = match &args.anchor {
        None => 0,
        Some(name) => super::tournament::anchor_index(name, &agents)?,
    };
    let first = &pairs[0].1[0].record;
    let report = TournamentReport::new(first.game.clone(), agents, pairings, anchor);
    let agents: Vec<&str> = report.agents.iter().map(String::as_str).collect();
    outln!(
        "{}: {} agents, {} pairings, {}, seed {}",
        first.game,
        report.agents.len(),
        report.pairings.len(),
        budget_line(&first.budget, &agents),
        first.seed
    )?;
    out!("{}", format_tournament(&report))?;
    write_outputs(&report, args.summary.as_deref(), args.plot.as_deref())
}

/// At most ten runs of deal numbers (`4`, `7–9`), then a count of the rest.
fn abbreviate(runs: &[std::ops::Range<u64>]) -> String {
    let shown: Vec<String> = runs
        .iter()
        .take(10)
        .map(|r| {
            if r.end - r.start == 1 {
                r.start.to_string()
            } else {
                format!("{}–{}", r.start, r.end - 1)
            }
        })
        .collect();
    if runs.len() > 10 {
        format!("{} and {} more runs", shown.join(", "), runs.len() - 10)
    } else {
        shown.join(", ")
    }
}
