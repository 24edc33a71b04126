//! `cardsearch merge`: folds the logs of a sharded match into the report of the whole match.

use std::path::PathBuf;

use clap::Args;

use super::match_cmd::format_report;
use crate::harness::log::{merge_records, read_log};

/// Options of `cardsearch merge`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Every log must come from the same match (game, seed, agents, budget); run the \
shards with `cardsearch match ... --shard I/N --out shard-I.jsonl`. Deals are folded in index \
order, so the report is the one the unsharded match prints. A deal with some seatings missing \
(a shard killed mid-deal) is reported on stderr and left out."
)]
pub struct MergeArgs {
    /// The logs written by `cardsearch match --out`, in any order.
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Write the merged statistics as JSON to this file (the format of `match --summary`).
    #[arg(long)]
    pub summary: Option<PathBuf>,
}

/// Runs `cardsearch merge`.
pub fn run(args: &MergeArgs) -> Result<(), String> {
    let mut records = Vec::new();
    for path in &args.logs {
        records.extend(read_log(path).map_err(|e| e.to_string())?);
    }
    let merged = merge_records(&records)?;
    for (deal, found) in &merged.incomplete {
        eprintln!(
            "warning: deal {deal} left out: {found} of {} seatings found",
            merged.report.seatings_per_deal
        );
    }
    if !merged.missing.is_empty() {
        let count: u64 = merged.missing.iter().map(|r| r.end - r.start).sum();
        eprintln!(
            "warning: no games of deal{} {} (a shard not given, or a match stopped early)",
            if count == 1 { "" } else { "s" },
            abbreviate(&merged.missing)
        );
    }
    let r = &records[0].record;
    println!(
        "{}: A = {} vs B = {}, {} deals, {} per move, seed {}",
        r.game, r.agent_a, r.agent_b, merged.report.tally.deals, r.budget, r.seed
    );
    print!("{}", format_report(&merged.report));
    if let Some(p) = &args.summary {
        let text = serde_json::to_string_pretty(&merged.report).expect("serialisable");
        std::fs::write(p, text + "\n").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
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
