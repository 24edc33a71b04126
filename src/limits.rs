//! Every ceiling on what a user, a spec or a protocol client may ask for, in one place.
//!
//! Each count, budget and size that comes from outside (agent and game specs, command-line
//! options, protocol fields, numbers read back from logs) is checked against its ceiling when it
//! is parsed, so that no request can make the engine allocate without bound, start an unbounded
//! number of threads, or search forever: a search is bounded by its budget and can always be
//! stopped ([`crate::search::StopSignal`]). `docs/reliability.md` lists them with the reasons.

/// Iterations of one search: node counters are 32 bits, and leaf parallelism adds up to
/// [`MAX_THREADS`] visits at once.
pub const MAX_ITERATIONS: u64 = u32::MAX as u64 - (1 << 16);

/// Milliseconds of one search (one day): a deadline this far ahead never overflows the clock.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Threads of one search.
pub const MAX_THREADS: usize = 256;

/// Determinizations of one PIMC search: each is a full state kept for the whole search, and
/// more than a few hundred add nothing a budget could use.
pub const MAX_DETS: u32 = 10_000;

/// Deals the hybrid endgame solves for one decision (`endgame_deals`): a deal takes
/// microseconds to milliseconds, so a million is minutes at most, and more would not change a
/// mean that a few thousand already pin down.
pub const MAX_ENDGAME_DEALS: u32 = 1_000_000;

/// Search nodes the hybrid endgame's solver may visit for one decision (`endgame_nodes`):
/// about a day at this solver's 10-20 million nodes a second.
pub const MAX_ENDGAME_NODES: u64 = 1_000_000_000_000;

/// Nodes of one of `pentago-strong`'s root proofs and of its root endgame solve
/// (`solve_nodes`): about a minute at the Pentago-Swap solver's 15 million nodes a second, 5,000
/// times the default. A decision makes up to a few hundred such proofs in the worst positions
/// (one per move), so under an iteration budget even this is hours; a time budget and the stop
/// signal end every proof within a few thousand nodes whatever the limit.
pub const MAX_PENTAGO_SOLVE_NODES: u64 = 1_000_000_000;

/// Redraws of a `pentago-strong` playout move that lets the opponent win at once (`retries`):
/// with one safe move among the 216 of an open board, 1,000 redraws find it 99 times in 100.
/// At about 25 ns a redraw, a playout's at most 36 plies then cost at most about a millisecond,
/// so a search, which reads its clock between iterations only, overruns a deadline by a few
/// milliseconds at worst; four billion redraws held a decision for minutes whatever its budget.
pub const MAX_PENTAGO_RETRIES: u32 = 1_000;

/// Cards left at which the ISMCTS leaf evaluator (`leaf_solve`) starts solving playouts: every
/// playout from such a leaf is one exact solve, a few thousand nodes at 16 cards (a 16-card
/// Bisca deal about 11,000), but 19 million at 24 cards in Bisca and a whole Sueca deal 42
/// million, so a larger value would make one iteration cost seconds and no budget could stop
/// it between iterations.
pub const MAX_LEAF_SOLVE_CARDS: u32 = 16;

/// Candidate deals weighted per decision by inference (`infer=`): each is a replay of the game
/// so far, microseconds, and its pool is held for the decision, so a million is seconds and
/// tens of megabytes.
pub const MAX_INFER_CANDIDATES: u32 = 1_000_000;

/// Virtual losses per thread in a shared tree.
pub const MAX_VIRTUAL_LOSS: u32 = 1_000;
/// The most passes a tree-parallel thread may gather at the root before sharing them: beyond
/// a few thousand the other threads would choose at the root from statistics a whole search
/// old.
pub const MAX_ROOT_BATCH: u32 = 4_096;

/// Nodes of a tree an agent keeps in an arena of its own (`turn-mcts:max_nodes`,
/// `pentago-student:max_nodes`): 2^28, 6-8 GiB at their 24-32 bytes a node. The arena is
/// reserved whole before a search, and neither agent comes near it (a 3-action ASMACAG turn
/// has at most 38 + 38² + 38³ nodes; the student's 1.5 s a move fill about 2^21), so a larger
/// one could only fail to allocate.
pub const MAX_OWN_TREE_NODES: u32 = 1 << 28;

/// The UCB exploration constant.
pub const MAX_EXPLORATION: f64 = 1e6;

/// The progressive-bias weight (`prior`): like the exploration constant, a multiple of a
/// reward in [0, 1].
pub const MAX_PRIOR: f64 = 1e6;

/// Deals of one match; also the largest deal index a log may hold.
pub const MAX_DEALS: u64 = 1_000_000_000;

/// Match worker threads (`--jobs`); a match never starts more workers than it has games.
pub const MAX_JOBS: usize = 1024;

/// Agents of one tournament: a round robin plays every pair, so the work grows with the square.
pub const MAX_AGENTS: usize = 64;

/// Seconds of one `cardsearch profile` run (one day).
pub const MAX_PROFILE_SECONDS: f64 = 86_400.0;

/// Bytes of one protocol request line or one line of a match log; longer lines are refused
/// without being held whole. A game's record is a few kilobytes (about 5 KB the longest seen:
/// a Hearts game with every move's search logged).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Characters of a bad input line quoted back in an error.
pub const ECHO_CHARS: usize = 80;

/// Checks `value` against `1..=max`, naming `what` in the error.
pub fn positive_at_most<T>(what: &str, value: T, max: T) -> Result<T, String>
where
    T: PartialOrd + Default + Copy + std::fmt::Display,
{
    if value <= T::default() || value > max {
        return Err(format!("{what}={value} must be from 1 to {max}"));
    }
    Ok(value)
}

/// At most [`ECHO_CHARS`] characters of `text`, marked when cut: what an error quotes of a bad
/// input.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(ECHO_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}… ({} bytes)", text.len())
    } else {
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_checked_and_named() {
        assert_eq!(positive_at_most("jobs", 3usize, 8), Ok(3));
        assert_eq!(
            positive_at_most("jobs", 0usize, 8).unwrap_err(),
            "jobs=0 must be from 1 to 8"
        );
        assert!(positive_at_most("time_ms", 2.5f64, 1.0).is_err());
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abc"), "abc");
        let long = "x".repeat(10_000);
        let e = excerpt(&long);
        assert!(e.starts_with(&"x".repeat(ECHO_CHARS)));
        assert!(e.ends_with("(10000 bytes)"), "{e}");
        assert!(e.chars().count() < ECHO_CHARS + 20);
    }
}
