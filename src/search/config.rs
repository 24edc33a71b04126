//! Search settings and how they are read from an agent spec.

use std::fmt;
use std::time::Duration;

use crate::limits;
use crate::solver::hybrid::{
    EndgameConfig, OPT_ENDGAME, OPT_ENDGAME_DEALS, OPT_ENDGAME_NODES, OPT_ENDGAME_PICK,
    OPT_LEAF_SOLVE,
};
use crate::spec::{OptionDoc, Spec, SpecError};

use super::budget::Budget;
use super::inference::{InferenceConfig, OPT_INFER, OPT_INFER_EPS, OPT_INFER_MODEL};
use super::nast::{MAX_N, Ngrams, Policy};
use super::reward::RewardFn;
use super::rollout::{Playout, Rollout};
use super::tree::MAX_CAPACITY;

/// Which search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Single-observer information-set MCTS.
    Ismcts,
    /// Multiple-observer information-set MCTS: a tree per seat, descended together.
    MoIsmcts,
    /// UCT on the true state: a cheating baseline in hidden-information games.
    Uct,
    /// Determinized UCT (perfect-information Monte Carlo) over `dets` fixed worlds.
    Pimc {
        /// Number of determinizations.
        dets: u32,
        /// Decide by one vote per world (its most visited move), as the thesis does, instead
        /// of by visits summed over the worlds.
        vote: bool,
    },
}

/// How the threads of one search cooperate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One thread.
    Sequential,
    /// Independent trees with different seeds; root statistics merged by move.
    Root,
    /// One shared lock-free tree with virtual loss.
    Tree,
    /// One shared tree with a lock per node.
    TreeLocked,
    /// One tree; several playouts from each new leaf in parallel.
    Leaf,
}

impl Parallel {
    /// Every mode, in the order the docs list them.
    pub const ALL: [Parallel; 5] = [
        Parallel::Sequential,
        Parallel::Root,
        Parallel::Tree,
        Parallel::TreeLocked,
        Parallel::Leaf,
    ];

    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            Parallel::Sequential => "sequential",
            Parallel::Root => "root",
            Parallel::Tree => "tree",
            Parallel::TreeLocked => "tree-locked",
            Parallel::Leaf => "leaf",
        }
    }

    /// True for the modes that share one tree between threads (and use virtual loss).
    pub fn is_tree(self) -> bool {
        matches!(self, Parallel::Tree | Parallel::TreeLocked)
    }

    /// The options that only some modes take ([`Parallel::takes`]).
    pub const MODE_OPTIONS: [&'static str; 3] = ["virtual_loss", "root_batch", "nast_tables"];

    /// Whether this mode takes `option`: `virtual_loss` and `root_batch` belong to the tree
    /// modes, `nast_tables` (a table per thread) to the root and tree modes; every option
    /// outside [`Parallel::MODE_OPTIONS`] to every mode. The spec parser refuses the rest.
    pub fn takes(self, option: &str) -> bool {
        match option {
            "virtual_loss" | "root_batch" => self.is_tree(),
            "nast_tables" => self == Parallel::Root || self.is_tree(),
            _ => true,
        }
    }
}

impl fmt::Display for Parallel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that shapes a search, fixed when the agent is built.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// UCB exploration constant.
    pub c: f64,
    /// Weight of the progressive-bias term `prior·P(move)/(n + 1)` in selection, `P` the
    /// game's learned opponent model (`prior`; 0: off).
    pub prior: f64,
    /// The parallel mode.
    pub parallel: Parallel,
    /// Worker threads (1 for `sequential`).
    pub threads: usize,
    /// Virtual losses per thread below a node (tree modes).
    pub virtual_loss: u32,
    /// Passes a tree-parallel ISMCTS thread gathers at the root (its availability and, in the
    /// lock-free mode, its children's statistics) before adding them to the shared tree.
    pub root_batch: u32,
    /// The most tree nodes of one search, over all its trees; `None`: sized from the budget,
    /// at most half the machine's memory (see [`super::arena_size`]).
    pub max_nodes: Option<u32>,
    /// A budget that overrides the match's, when the spec sets `iterations` or `time_ms`.
    pub budget: Option<Budget>,
    /// The exact endgame and the solver leaf evaluator (`endgame`, `leaf_solve`, ...).
    pub endgame: EndgameConfig,
    /// The playout policy and reward function.
    pub rollout: Rollout,
    /// Inference over the others' plays (`infer`, `infer_eps`; ISMCTS).
    pub inference: InferenceConfig,
    /// Tree reuse between decisions (`reuse`; ISMCTS and UCT, one tree per search).
    pub reuse: bool,
    /// NAST and EPIC statistics kept from one decision of a game to the next, their play
    /// counts scaled by this factor (`nast_decay`; 0: cleared before every search, as the
    /// thesis does).
    pub nast_decay: f64,
    /// NAST and EPIC statistics in one table every thread shares (false, the default) or in
    /// a table per thread, each learning from its own thread's iterations only
    /// (`nast_tables=thread`; root and tree modes).
    pub nast_per_thread: bool,
    /// The share of a multi-action turn's budget that its first action gets (`turn_share`);
    /// `None`: every action the per-move budget.
    pub turn_share: Option<f64>,
}

/// The most threads a search accepts.
pub use crate::limits::MAX_THREADS;

/// Default exploration constant, as in the note.
pub const DEFAULT_C: f64 = 0.7;
/// The options of the general `preset=strong`, for games that name none of their own
/// ([`crate::game::Game::STRONG_PRESET`] adds to or replaces these): the win-then-margin
/// reward. Against positive win or loss it wins as often and takes 6–8 more card points a game
/// in Sueca (a quarter of a match unit at equal time) and about one penalty point a deal fewer
/// in Hearts; docs/results.md.
pub const STRONG_PRESET: &str = "reward=mix:w=0.3";

/// `spec` with the options of `preset=strong` filled in where it gives none: first the game's
/// own (`game_preset`, [`crate::game::Game::STRONG_PRESET`]), then the general
/// [`STRONG_PRESET`]. The preset's playout options are left out where `spec` names its own
/// playout, its inference options where `spec` sets `infer`, and for MO-ISMCTS NAST and EPIC,
/// which it has neither (it keeps random playouts); inference options and the prior are left
/// out for every algorithm but SO-ISMCTS.
/// Without `preset=strong`, `spec` as it is.
pub fn with_preset(
    spec: &Spec,
    game_preset: &str,
    algorithm: Algorithm,
) -> Result<Spec, SpecError> {
    if spec.choice("preset", &["none", "strong"], "none")? != "strong" {
        return Ok(spec.clone());
    }
    let mut out = spec.clone();
    let words = || {
        [game_preset, STRONG_PRESET]
            .into_iter()
            .flat_map(|p| p.split(','))
            .filter(|w| !w.is_empty())
    };
    // The game's preset names at most one playout; NAST and EPIC learn from one tree's line of
    // play, which MO-ISMCTS does not have.
    let ngram_playout =
        words().any(|w| w.starts_with("playout=nast") || w.starts_with("playout=epic"));
    // A playout given beside the preset comes with its own parameters: the preset's `policy`
    // (NAST's) or `epsilon` (the rule's) would not apply to it.
    let own_playout = spec.has("playout");
    // Likewise `infer=` beside the preset (`infer=0` to turn it off) comes without the
    // preset's `infer_eps` and `infer_model`, which would not apply to it.
    let own_inference = spec.has("infer");
    for word in words() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| SpecError(format!("preset=strong: `{word}` is not key=value")))?;
        let playout_option = key == "playout" || key == "policy" || key == "epsilon";
        // Inference weighs the determinizations of SO-ISMCTS only; the prior was measured
        // on SO-ISMCTS only (docs/results.md), and the other algorithms keep their own trees.
        let ismcts_option = key.starts_with("infer") || key == "prior";
        if out.has(key)
            || (own_playout && playout_option)
            || (own_inference && key.starts_with("infer"))
            || (algorithm == Algorithm::MoIsmcts && playout_option && ngram_playout)
            || (algorithm != Algorithm::Ismcts && ismcts_option)
        {
            continue;
        }
        out.set(key, value);
    }
    Ok(out)
}
/// Default number of PIMC determinizations.
pub const DEFAULT_DETS: u32 = 20;
/// Default virtual loss per thread.
pub const DEFAULT_VIRTUAL_LOSS: u32 = 1;
/// Default passes a tree-parallel thread gathers at the top of the tree before sharing them:
/// the top two levels' statistics lag by at most 255 passes per other thread, and their lines
/// cross between cores once a batch instead of at every pass. 256 rather than session 31's 32:
/// 3-7% more two-thread iterations a second, and level in strength at equal iterations:
/// SO-ISMCTS in Sueca, Hearts and Bisca at 10,000 iterations and in Sueca and Hearts at 2,000
/// (where a thread's 1,000 passes are four batches), MO-ISMCTS in Sueca and Hearts at 10,000
/// (docs/performance.md and docs/results.md, "A batch of 256").
pub const DEFAULT_ROOT_BATCH: u32 = 256;

const OPT_C: OptionDoc = OptionDoc {
    key: "c",
    default: "0.7",
    help: "UCB exploration constant",
};
pub(crate) const OPT_ITERATIONS: OptionDoc = OptionDoc {
    key: "iterations",
    default: "match budget",
    help: "iterations per move (overrides the match budget)",
};
pub(crate) const OPT_TIME: OptionDoc = OptionDoc {
    key: "time_ms",
    default: "match budget",
    help: "milliseconds per move (overrides the match budget)",
};
pub(crate) const OPT_MAX_NODES: OptionDoc = OptionDoc {
    key: "max_nodes",
    default: "auto",
    help: "most tree slots of one search over all its trees (32 bytes each for card games; a \
           node's children take a slot per possible move); auto sizes the tree from the budget \
           within half the machine's memory; a full tree stops growing and decisions report it",
};
pub(crate) const OPT_PARALLEL: OptionDoc = OptionDoc {
    key: "parallel",
    default: "sequential",
    help: "sequential | root | tree | tree-locked | leaf",
};
pub(crate) const OPT_THREADS: OptionDoc = OptionDoc {
    key: "threads",
    default: "1",
    help: "worker threads for the parallel modes",
};
pub(crate) const OPT_VIRTUAL_LOSS: OptionDoc = OptionDoc {
    key: "virtual_loss",
    default: "1",
    help: "losses added per thread below a node (tree and tree-locked only; 0 allowed)",
};
const OPT_ROOT_BATCH: OptionDoc = OptionDoc {
    key: "root_batch",
    default: "256",
    help: "ismcts and mo-ismcts in the tree modes: passes a thread gathers at the root (its \
           availability and, in parallel=tree, the visits, rewards and availability of the \
           root's children and grandchildren) before adding them to the shared tree, where the \
           other threads see them; 1: at every pass, with early visits (virtual loss) at every \
           node",
};
const OPT_DETS: OptionDoc = OptionDoc {
    key: "dets",
    default: "20",
    help: "determinizations sampled per move; iterations are split among them",
};
const OPT_VOTE: OptionDoc = OptionDoc {
    key: "vote",
    default: "false",
    help: "true: each determinization's most visited move gets one vote (the thesis's PIMC); \
           false: visits summed over the determinizations",
};

const OPT_PRIOR: OptionDoc = OptionDoc {
    key: "prior",
    default: "0",
    help: "progressive bias: selection adds prior*P/(n+1) to a child's UCB score, P the \
           probability of its move under the game's learned opponent model among the legal \
           moves of the iteration's world and n its visits (sueca, hearts and bisca; 0: off)",
};

pub(crate) const OPT_PLAYOUT: OptionDoc = OptionDoc {
    key: "playout",
    default: "random",
    help: "random | heuristic (the game's cheap rule: take a trick cheaply when it pays, else \
           shed the least valuable card; a random move with probability epsilon; sueca, hearts, \
           bisca and asmacag) | model (moves \
           drawn from the game's learned opponent model, a random one with probability epsilon; \
           sueca, hearts and bisca) | nast[:n=N] (moves by a policy over per-seat statistics of n-grams of N moves, 1 to 4, default 2, \
           learned from every iteration) | epic[:n=N] (the same with n-grams within a trick, \
           keyed by position in it)",
};
pub(crate) const OPT_POLICY: OptionDoc = OptionDoc {
    key: "policy",
    default: "gibbs:tau=1",
    help: "playout=nast or epic: gibbs[:tau=T] (default tau 1) | egreedy[:epsilon=E] (0.2) | \
           roulette | ucb1[:c=C] (0.7): how a playout picks among the legal moves' n-grams",
};
pub(crate) const OPT_EPSILON: OptionDoc = OptionDoc {
    key: "epsilon",
    default: "0.1",
    help: "heuristic and model playouts: probability of a uniformly random move instead of the \
           rule's or the model's",
};
const OPT_PRESET: OptionDoc = OptionDoc {
    key: "preset",
    default: "none",
    help: "none | strong: the strongest measured settings per game as defaults \
           (docs/results.md): Bisca playout=nast,policy=ucb1,reward=pwl; Hearts \
           playout=heuristic,reward=mix:w=0.1; Sueca playout=model,reward=mix:w=0.3; other \
           games reward=mix:w=0.3 (win first, then margin); for SO-ISMCTS in Sueca and Bisca \
           also infer=1000,infer_model=learned,infer_eps=0.1 (used where the game can replay \
           its deals: not Bisca with the exchange), and in Bisca prior=64. Options given \
           beside it override it (a playout or infer=, with their own parameters)",
};
const OPT_PRESET_MO_ISMCTS: OptionDoc = OptionDoc {
    key: "preset",
    default: "none",
    help: "none | strong: ismcts's preset without what MO-ISMCTS does not take (NAST, \
           inference, the prior): Hearts playout=heuristic,reward=mix:w=0.1; Sueca \
           playout=model,reward=mix:w=0.3; Bisca nothing beyond the defaults; other games \
           reward=mix:w=0.3. Options given beside it override it",
};
pub(crate) const OPT_REWARD: OptionDoc = OptionDoc {
    key: "reward",
    default: "pwl",
    help: "pwl (win 1, tie 0.5, loss 0) | wl (1, 0, -1) | sd (match units, else point margin, \
           as 0..1) | mix:w=W ((1-W)*pwl + W*margin as 0..1) | rank (share of the other \
           sides finished ahead of; pwl in games of two sides)",
};

const OPT_REUSE: OptionDoc = OptionDoc {
    key: "reuse",
    default: "false",
    help: "true: start each decision from the subtree of the last search below the moves played \
           since (the thesis's sub-tree preservation; not with parallel=root)",
};

const OPT_NAST_DECAY: OptionDoc = OptionDoc {
    key: "nast_decay",
    default: "0",
    help: "playout=nast or epic: keep the n-gram statistics from one decision of a game to the \
           next, each n-gram's play count scaled by this factor in [0, 1] and its mean kept \
           (0: cleared before every search, as the thesis does; 1: kept whole)",
};

const OPT_NAST_TABLES: OptionDoc = OptionDoc {
    key: "nast_tables",
    default: "shared",
    help: "playout=nast or epic with parallel=root, tree or tree-locked: shared (one table of n-gram \
           statistics that every thread reads and updates) | thread (a table per thread, each \
           learning from its own thread's iterations: no cache lines written by two cores)",
};

const OPT_TURN_SHARE: OptionDoc = OptionDoc {
    key: "turn_share",
    default: "even",
    help: "in games whose turn is several actions (ASMACAG; elsewhere an error): the share of \
           the turn's budget (the per-move budget times the turn's actions) its first action \
           searches with, the others splitting the rest evenly; between 0 and 1 exclusive (with \
           reuse=true the later actions start from the first one's tree)",
};

/// Options of the `ismcts` agent.
pub const SEARCH_OPTIONS: &[OptionDoc] = &[
    OPT_PRESET,
    OPT_C,
    OPT_PLAYOUT,
    OPT_POLICY,
    OPT_EPSILON,
    OPT_REWARD,
    OPT_ITERATIONS,
    OPT_TIME,
    OPT_MAX_NODES,
    OPT_PARALLEL,
    OPT_THREADS,
    OPT_VIRTUAL_LOSS,
    OPT_ROOT_BATCH,
    OPT_ENDGAME,
    OPT_ENDGAME_PICK,
    OPT_ENDGAME_DEALS,
    OPT_ENDGAME_NODES,
    OPT_LEAF_SOLVE,
    OPT_INFER,
    OPT_INFER_EPS,
    OPT_INFER_MODEL,
    OPT_PRIOR,
    OPT_REUSE,
    OPT_NAST_DECAY,
    OPT_NAST_TABLES,
    OPT_TURN_SHARE,
];

/// Options of the `uct` agent: those of `ismcts` but `root_batch`, `leaf_solve`, inference and
/// the endgame's deals and pick (it searches the true state, so there is no deal to infer,
/// sample or vote over and no root to batch).
pub const UCT_OPTIONS: &[OptionDoc] = &[
    OPT_PRESET,
    OPT_C,
    OPT_PLAYOUT,
    OPT_POLICY,
    OPT_EPSILON,
    OPT_REWARD,
    OPT_ITERATIONS,
    OPT_TIME,
    OPT_MAX_NODES,
    OPT_PARALLEL,
    OPT_THREADS,
    OPT_VIRTUAL_LOSS,
    OPT_ENDGAME,
    OPT_ENDGAME_NODES,
    OPT_PRIOR,
    OPT_REUSE,
    OPT_NAST_DECAY,
    OPT_NAST_TABLES,
    OPT_TURN_SHARE,
];

/// Options of the `mo-ismcts` agent: those of `ismcts` but `leaf_solve`, `infer`, NAST and
/// EPIC, and with fewer parallel modes.
pub const MO_ISMCTS_OPTIONS: &[OptionDoc] = &[
    OPT_PRESET_MO_ISMCTS,
    OPT_C,
    OPT_PRIOR,
    OptionDoc {
        key: "playout",
        default: "random",
        help: "random | heuristic | model (as for ismcts; NAST and EPIC learn from one tree's line of \
               play and are not offered)",
    },
    OPT_EPSILON,
    OPT_REWARD,
    OPT_ITERATIONS,
    OPT_TIME,
    OPT_MAX_NODES,
    OptionDoc {
        key: "parallel",
        default: "sequential",
        help: "sequential | root | tree | leaf (a tree per seat in each)",
    },
    OPT_THREADS,
    OPT_VIRTUAL_LOSS,
    OPT_ROOT_BATCH,
    OPT_ENDGAME,
    OPT_ENDGAME_PICK,
    OPT_ENDGAME_DEALS,
    OPT_ENDGAME_NODES,
    OPT_TURN_SHARE,
];

/// Options of the `pimc` agent: `dets` and the common ones.
pub const PIMC_OPTIONS: &[OptionDoc] = &[
    OPT_DETS,
    OPT_VOTE,
    OPT_PRESET,
    OPT_C,
    OPT_PRIOR,
    OPT_PLAYOUT,
    OPT_POLICY,
    OPT_EPSILON,
    OPT_REWARD,
    OPT_ITERATIONS,
    OPT_TIME,
    OPT_MAX_NODES,
    OPT_PARALLEL,
    OPT_THREADS,
    OPT_VIRTUAL_LOSS,
    OPT_ENDGAME,
    OPT_ENDGAME_PICK,
    OPT_ENDGAME_DEALS,
    OPT_ENDGAME_NODES,
    OPT_NAST_DECAY,
    OPT_NAST_TABLES,
    OPT_TURN_SHARE,
];

/// An agent spec's own budget (`iterations=` and/or `time_ms=`, each within its limit), which
/// replaces the match's; `None` when it sets neither.
pub fn budget_from_spec(spec: &Spec) -> Result<Option<Budget>, SpecError> {
    let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
    let iterations: Option<u64> = match spec.raw("iterations") {
        None => None,
        Some(_) => Some(spec.get("iterations", 0u64)?),
    };
    let time_ms: Option<u64> = match spec.raw("time_ms") {
        None => None,
        Some(_) => Some(spec.get("time_ms", 0u64)?),
    };
    if let Some(n) = iterations {
        limits::positive_at_most("iterations", n, limits::MAX_ITERATIONS).map_err(err)?;
    }
    if let Some(t) = time_ms {
        limits::positive_at_most("time_ms", t, limits::MAX_TIME_MS).map_err(err)?;
    }
    Ok((iterations.is_some() || time_ms.is_some()).then(|| Budget {
        iterations,
        time: time_ms.map(Duration::from_millis),
        stop: None,
    }))
}

/// A spec's own budget written out as `budget_from_spec` reads it back.
pub fn budget_text(budget: Option<&Budget>) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(b) = budget {
        if let Some(n) = b.iterations {
            parts.push(format!("iterations={n}"));
        }
        if let Some(t) = b.time {
            parts.push(format!("time_ms={}", t.as_millis()));
        }
    }
    parts
}

/// The UCB exploration constant `c` of a spec: finite, from 0 to its limit.
pub fn exploration_from_spec(spec: &Spec, default: f64) -> Result<f64, SpecError> {
    let c: f64 = spec.get("c", default)?;
    if !c.is_finite() || !(0.0..=limits::MAX_EXPLORATION).contains(&c) {
        return Err(SpecError(format!(
            "{}: c={c} must be a number from 0 to {}",
            spec.name,
            limits::MAX_EXPLORATION
        )));
    }
    Ok(c)
}

/// Parses `playout=`: `random`, `heuristic` (epsilon filled in by the caller), `nast`,
/// `nast:n=N`, `epic` or `epic:n=N` (policy filled in by the caller).
fn parse_playout(text: &str) -> Result<Playout, String> {
    let (kind, param) = match text.split_once(':') {
        Some((kind, rest)) => (kind, Some(rest)),
        None => (text, None),
    };
    let episodic = match (kind, param) {
        ("random", None) => return Ok(Playout::Random),
        ("heuristic", None) => {
            return Ok(Playout::Heuristic {
                epsilon: Playout::DEFAULT_EPSILON,
            });
        }
        ("model", None) => {
            return Ok(Playout::Model {
                epsilon: Playout::DEFAULT_EPSILON,
            });
        }
        ("nast", _) => false,
        ("epic", _) => true,
        _ => return Err(format!("playout={text} is not one of {}", Playout::NAMES)),
    };
    let n = match param {
        None => Ngrams::DEFAULT_N,
        Some(p) => {
            let n = p
                .strip_prefix("n=")
                .ok_or_else(|| format!("playout={text}: {kind} takes only n= (e.g. {kind}:n=2)"))?;
            n.parse::<u8>()
                .ok()
                .filter(|n| (1..=MAX_N).contains(n))
                .ok_or_else(|| format!("playout={text}: n must be from 1 to {MAX_N}"))?
        }
    };
    Ok(Playout::Ngrams(Ngrams {
        n,
        policy: Policy::DEFAULT,
        episodic,
    }))
}

/// A count that only the tree modes take (`virtual_loss`, `root_batch`): `default` unless the
/// spec sets it, an error outside `range` or with another parallel mode.
fn tree_mode_count(
    spec: &Spec,
    key: &str,
    default: u32,
    range: std::ops::RangeInclusive<u32>,
    parallel: Parallel,
) -> Result<u32, SpecError> {
    let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
    let value: u32 = spec.get(key, default)?;
    if !range.contains(&value) {
        return Err(err(format!(
            "{key}={value} must be from {} to {}",
            range.start(),
            range.end()
        )));
    }
    if spec.has(key) && !parallel.takes(key) {
        return Err(err(format!(
            "{key} applies only to parallel=tree or parallel=tree-locked"
        )));
    }
    Ok(value)
}

impl SearchConfig {
    /// A sequential configuration with the defaults.
    pub fn new(algorithm: Algorithm) -> SearchConfig {
        SearchConfig {
            algorithm,
            c: DEFAULT_C,
            prior: 0.0,
            parallel: Parallel::Sequential,
            threads: 1,
            virtual_loss: DEFAULT_VIRTUAL_LOSS,
            root_batch: DEFAULT_ROOT_BATCH,
            max_nodes: None,
            budget: None,
            endgame: EndgameConfig::default(),
            rollout: Rollout::default(),
            inference: InferenceConfig::default(),
            reuse: false,
            nast_decay: 0.0,
            nast_per_thread: false,
            turn_share: None,
        }
    }

    /// Reads the options of `spec` for `algorithm`, with the general `preset=strong` where it
    /// asks for it (the caller checks for unknown options).
    pub fn from_spec(spec: &Spec, algorithm: Algorithm) -> Result<SearchConfig, SpecError> {
        let expanded = with_preset(spec, "", algorithm)?;
        let config = SearchConfig::read(&expanded, algorithm);
        spec.mark_read_from(&expanded);
        config
    }

    /// Reads the options of `spec` for `algorithm`, presets already applied.
    fn read(spec: &Spec, algorithm: Algorithm) -> Result<SearchConfig, SpecError> {
        let err = |msg: String| SpecError(format!("{}: {msg}", spec.name));
        let algorithm = match algorithm {
            Algorithm::Pimc { .. } => {
                let dets: u32 = spec.get("dets", DEFAULT_DETS)?;
                limits::positive_at_most("dets", dets, limits::MAX_DETS).map_err(err)?;
                let vote: bool = spec.get("vote", false)?;
                Algorithm::Pimc { dets, vote }
            }
            other => other,
        };
        let c = exploration_from_spec(spec, DEFAULT_C)?;
        let prior: f64 = spec.get("prior", 0.0)?;
        if !(0.0..=limits::MAX_PRIOR).contains(&prior) {
            return Err(err(format!(
                "prior={prior} must be from 0 to {}",
                limits::MAX_PRIOR
            )));
        }
        let reward = match spec.raw("reward") {
            None => RewardFn::PositiveWinLoss,
            Some(text) => RewardFn::parse(text).map_err(err)?,
        };
        let epsilon: f64 = spec.get("epsilon", Playout::DEFAULT_EPSILON)?;
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(err(format!("epsilon={epsilon} must be from 0 to 1")));
        }
        let playout = match parse_playout(spec.raw("playout").unwrap_or("random")).map_err(err)? {
            Playout::Heuristic { .. } => Playout::Heuristic { epsilon },
            Playout::Model { .. } => Playout::Model { epsilon },
            _ if spec.has("epsilon") => {
                return Err(err(
                    "epsilon applies only to playout=heuristic and playout=model".into(),
                ));
            }
            Playout::Ngrams(g) => Playout::Ngrams(Ngrams {
                policy: match spec.raw("policy") {
                    Some(text) => Policy::parse(text).map_err(err)?,
                    None => Policy::DEFAULT,
                },
                ..g
            }),
            other => other,
        };
        if spec.has("policy") && !matches!(playout, Playout::Ngrams(_)) {
            return Err(err("policy applies only to playout=nast or epic".into()));
        }
        let rollout = Rollout { playout, reward };
        let names: Vec<&str> = Parallel::ALL.iter().map(|p| p.name()).collect();
        let mode = spec.choice("parallel", &names, "sequential")?;
        let parallel = Parallel::ALL
            .into_iter()
            .find(|p| p.name() == mode)
            .expect("choice returns one of the names");
        let threads: usize = spec.get("threads", 1)?;
        limits::positive_at_most("threads", threads, MAX_THREADS).map_err(err)?;
        if parallel == Parallel::Sequential && threads > 1 {
            return Err(err(format!(
                "threads={threads} needs a parallel mode (parallel=root, tree, tree-locked or leaf)"
            )));
        }
        let virtual_loss = tree_mode_count(
            spec,
            "virtual_loss",
            DEFAULT_VIRTUAL_LOSS,
            0..=limits::MAX_VIRTUAL_LOSS,
            parallel,
        )?;
        // Only ISMCTS's root counts availability through its own counter and has the
        // children every thread passes through; for PIMC and UCT the option is unknown.
        let root_batch = if matches!(algorithm, Algorithm::Ismcts | Algorithm::MoIsmcts) {
            tree_mode_count(
                spec,
                "root_batch",
                DEFAULT_ROOT_BATCH,
                1..=limits::MAX_ROOT_BATCH,
                parallel,
            )?
        } else {
            DEFAULT_ROOT_BATCH
        };
        let roots = match algorithm {
            Algorithm::Pimc { dets, .. } => dets as u64,
            _ => 1,
        };
        let max_nodes = match spec.get_or_auto::<u64>("max_nodes")? {
            None => None,
            Some(n) => {
                if n <= roots || n > MAX_CAPACITY as u64 {
                    return Err(err(format!(
                        "max_nodes={n} must be above the number of roots ({roots}) and at most {}",
                        MAX_CAPACITY
                    )));
                }
                Some(n as u32)
            }
        };
        let budget = budget_from_spec(spec)?;
        let endgame = EndgameConfig::from_spec(spec)?;
        // UCT solves the one true deal it sees: there are no deals to sample or vote over.
        if algorithm == Algorithm::Uct
            && let Some(key) = ["endgame_pick", "endgame_deals"]
                .into_iter()
                .find(|k| spec.has(k))
        {
            return Err(err(format!(
                "{key} does not apply to uct, which solves its one true deal"
            )));
        }
        if algorithm == Algorithm::MoIsmcts && parallel == Parallel::TreeLocked {
            // Locked walks record the one node lock a thread holds (to free it on a panic) and
            // a walk over a tree per seat would hold one per tree.
            return Err(err(format!(
                "parallel={parallel} is not supported (sequential, root, tree or leaf are)"
            )));
        }
        if algorithm == Algorithm::MoIsmcts && matches!(rollout.playout, Playout::Ngrams(_)) {
            // NAST and EPIC learn from one line of play per iteration through one tree; a walk
            // over a tree per seat leaves some seats' trees behind.
            return Err(err(format!(
                "playout={} is not supported (use ismcts, or another playout)",
                rollout.playout
            )));
        }
        if endgame.leaf > 0 && algorithm != Algorithm::Ismcts {
            return Err(err("leaf_solve applies to ismcts only".into()));
        }
        if endgame.leaf > 0 && rollout.playout != Playout::Random {
            // The solver replaces the random playout only (`solver::leaf`).
            return Err(err("leaf_solve applies to playout=random only".into()));
        }
        let inference = InferenceConfig::from_spec(spec)?;
        if inference.is_on() && algorithm != Algorithm::Ismcts {
            return Err(err("infer applies to ismcts only".into()));
        }
        let reuse: bool = spec.get("reuse", false)?;
        if reuse && !matches!(algorithm, Algorithm::Ismcts | Algorithm::Uct) {
            // PIMC draws new worlds for every decision; MO-ISMCTS's trees follow each seat's
            // view of the moves, which one path through one tree does not give.
            return Err(err("reuse applies to ismcts and uct only".into()));
        }
        if reuse && parallel == Parallel::Root {
            return Err(err(
                "reuse is not supported with parallel=root (a tree per thread, merged at the end)"
                    .into(),
            ));
        }
        let nast_decay = match spec.raw("nast_decay") {
            None => 0.0,
            Some(text) => match text.parse::<f64>() {
                Ok(f) if (0.0..=1.0).contains(&f) => f,
                _ => {
                    return Err(err(format!(
                        "nast_decay={text} is not a number between 0 and 1"
                    )));
                }
            },
        };
        if nast_decay > 0.0 && !matches!(rollout.playout, Playout::Ngrams(_)) {
            return Err(err(format!(
                "nast_decay applies to playout=nast and playout=epic only (playout={})",
                rollout.playout
            )));
        }
        let nast_per_thread =
            spec.choice("nast_tables", &["shared", "thread"], "shared")? == "thread";
        if nast_per_thread && !matches!(rollout.playout, Playout::Ngrams(_)) {
            return Err(err(format!(
                "nast_tables applies to playout=nast and playout=epic only (playout={})",
                rollout.playout
            )));
        }
        if nast_per_thread && !parallel.takes("nast_tables") {
            return Err(err(if parallel == Parallel::Leaf {
                // A leaf's playouts run on whichever thread claims them, and must not depend
                // on which one did.
                "nast_tables=thread is not supported with parallel=leaf (root and tree are)".into()
            } else {
                // One thread has one table: `thread` would be `shared` under another name.
                "nast_tables=thread applies only to parallel=root, tree or tree-locked (a \
                 sequential search has one table)"
                    .into()
            }));
        }
        let turn_share = match spec.raw("turn_share") {
            None => None,
            Some(text) => match text.parse::<f64>() {
                Ok(f) if f > 0.0 && f < 1.0 => Some(f),
                _ => {
                    return Err(err(format!(
                        "turn_share={text} is not a number between 0 and 1 exclusive"
                    )));
                }
            },
        };
        Ok(SearchConfig {
            algorithm,
            c,
            prior,
            parallel,
            threads,
            virtual_loss,
            root_batch,
            max_nodes,
            budget,
            endgame,
            rollout,
            inference,
            reuse,
            nast_decay,
            nast_per_thread,
            turn_share,
        })
    }

    /// The first option set here that reads the game's learned opponent model (inference by
    /// it, playouts drawn from it, the selection prior), as the spec names it; `None` when
    /// nothing does. A game without a model refuses such a configuration.
    pub fn learned_model_option(&self) -> Option<&'static str> {
        let inference = self.inference;
        if inference.is_on() && inference.model == super::inference::OpponentModelKind::Learned {
            Some("infer_model=learned")
        } else if matches!(self.rollout.playout, Playout::Model { .. }) {
            Some("playout=model")
        } else if self.prior > 0.0 {
            Some("prior")
        } else {
            None
        }
    }

    /// True with `playout=heuristic`, which a game without a heuristic rule of its own
    /// ([`crate::game::Game::HAS_HEURISTIC`]) refuses: its playouts would be random ones.
    pub fn heuristic_playouts(&self) -> bool {
        matches!(self.rollout.playout, Playout::Heuristic { .. })
    }

    /// The options written out in full, as `spec` would parse them back.
    pub fn options_text(&self) -> String {
        let mut parts = Vec::new();
        if let Algorithm::Pimc { dets, vote } = self.algorithm {
            parts.push(format!("dets={dets}"));
            parts.push(format!("vote={vote}"));
        }
        parts.push(format!("c={}", self.c));
        // Written only when on, so that the specs of earlier logs read the same.
        if self.prior > 0.0 {
            parts.push(format!("prior={}", self.prior));
        }
        parts.push(format!("playout={}", self.rollout.playout));
        match self.rollout.playout {
            Playout::Heuristic { epsilon } | Playout::Model { epsilon } => {
                parts.push(format!("epsilon={epsilon}"))
            }
            Playout::Ngrams(g) => parts.push(format!("policy={}", g.policy)),
            Playout::Random => {}
        }
        parts.push(format!("reward={}", self.rollout.reward));
        parts.extend(budget_text(self.budget.as_ref()));
        match self.max_nodes {
            Some(n) => parts.push(format!("max_nodes={n}")),
            None => parts.push("max_nodes=auto".into()),
        }
        parts.push(format!("parallel={}", self.parallel));
        parts.push(format!("threads={}", self.threads));
        if self.parallel.is_tree() {
            parts.push(format!("virtual_loss={}", self.virtual_loss));
            // Written only when not the default, so that the specs of earlier logs read the
            // same.
            if self.root_batch != DEFAULT_ROOT_BATCH {
                parts.push(format!("root_batch={}", self.root_batch));
            }
        }
        parts.extend(self.endgame.options_text());
        parts.extend(self.inference.options_text());
        // Written only when on, so that the specs of earlier logs read the same.
        if self.reuse {
            parts.push("reuse=true".into());
        }
        if self.nast_decay > 0.0 {
            parts.push(format!("nast_decay={}", self.nast_decay));
        }
        if self.nast_per_thread {
            parts.push("nast_tables=thread".into());
        }
        if let Some(f) = self.turn_share {
            parts.push(format!("turn_share={f}"));
        }
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SearchConfig, SpecError> {
        let spec: Spec = text.parse().unwrap();
        let alg = match spec.name.as_str() {
            "pimc" => Algorithm::Pimc {
                dets: 0,
                vote: false,
            },
            "uct" => Algorithm::Uct,
            _ => Algorithm::Ismcts,
        };
        let cfg = SearchConfig::from_spec(&spec, alg)?;
        spec.finish()?;
        Ok(cfg)
    }

    #[test]
    fn options_round_trip_through_the_spec_text() {
        for text in [
            "ismcts",
            "ismcts:c=1.2,parallel=tree,threads=4,virtual_loss=0",
            "pimc:dets=7,iterations=500,time_ms=20,parallel=leaf,threads=2",
            "ismcts:parallel=tree-locked,threads=3,max_nodes=1000",
            "ismcts:preset=strong,playout=heuristic,epsilon=0.25",
            "ismcts:playout=model,epsilon=0.3",
            "pimc:reward=mix:w=0.5,vote=true",
            "uct:reward=wl",
            "ismcts:endgame=13,endgame_pick=vote,endgame_deals=50,leaf_solve=8",
            "ismcts:playout=nast",
            "ismcts:playout=nast:n=3,policy=roulette,parallel=tree,threads=2",
            "pimc:playout=epic:n=1,policy=ucb1:c=0.5",
            "uct:playout=nast:n=4,policy=egreedy:epsilon=0.1",
            "ismcts:playout=epic,policy=gibbs:tau=0.5,parallel=leaf,threads=2",
            "pimc:endgame=thesis",
            "ismcts:reuse=true,parallel=tree,threads=2",
            "ismcts:parallel=tree,threads=2,root_batch=1",
            "ismcts:parallel=tree-locked,threads=2,root_batch=64",
            "ismcts:turn_share=0.6,reuse=true",
            "pimc:turn_share=0.25",
            "uct:reuse=true",
            "ismcts:playout=nast,policy=ucb1,nast_decay=0.5",
            "ismcts:playout=nast,parallel=tree,threads=2,nast_tables=thread",
            "pimc:playout=epic,parallel=root,threads=3,nast_tables=thread",
            "pimc:playout=epic,nast_decay=1",
        ] {
            let cfg = parse(text).unwrap();
            let name = text.split(':').next().unwrap();
            let again = parse(&format!("{name}:{}", cfg.options_text())).unwrap();
            assert_eq!(cfg, again, "{text}");
        }
        let cfg = parse("pimc").unwrap();
        assert_eq!(
            cfg.algorithm,
            Algorithm::Pimc {
                dets: 20,
                vote: false
            }
        );
        assert_eq!(cfg.c, 0.7);
        assert_eq!(
            parse("ismcts:preset=strong").unwrap().rollout.reward,
            RewardFn::Mix { weight: 0.3 }
        );
        assert_eq!(
            parse("ismcts:preset=strong,reward=sd")
                .unwrap()
                .rollout
                .reward,
            RewardFn::ScoreDifference,
            "options beside a preset override it"
        );
    }

    #[test]
    fn bad_options_are_clear_errors() {
        for (text, needle) in [
            ("ismcts:threads=4", "needs a parallel mode"),
            ("ismcts:parallel=root,threads=0", "threads=0"),
            (
                "ismcts:parallel=leaf,virtual_loss=2,threads=2",
                "virtual_loss",
            ),
            ("ismcts:parallel=sideways", "parallel=sideways"),
            ("ismcts:c=-1", "c=-1"),
            ("pimc:dets=0", "dets"),
            ("pimc:dets=10,max_nodes=10", "max_nodes"),
            ("ismcts:max_nodes=99999999999", "max_nodes"),
            ("ismcts:iterations=lots", "iterations=lots"),
            ("ismcts:time_ms=0", "time_ms=0 must be from 1"),
            ("ismcts:dets=3", "unknown option dets"),
            ("ismcts:endgame=soon", "endgame=soon"),
            ("ismcts:endgame_pick=best", "endgame_pick=best"),
            ("ismcts:endgame_deals=0", "endgame_deals=0 must be from 1"),
            (
                "uct:endgame=8,endgame_pick=vote",
                "endgame_pick does not apply to uct",
            ),
            (
                "uct:endgame=8,endgame_deals=5",
                "endgame_deals does not apply to uct",
            ),
            ("ismcts:endgame_nodes=0", "endgame_nodes=0 must be from 1"),
            ("ismcts:endgame_nodes=lots", "endgame_nodes=lots"),
            ("ismcts:leaf_solve=17", "leaf_solve=17 must be at most 16"),
            ("pimc:leaf_solve=8", "leaf_solve applies to ismcts only"),
            (
                "ismcts:leaf_solve=8,playout=heuristic",
                "leaf_solve applies to playout=random only",
            ),
            ("ismcts:reward=points", "reward=points"),
            ("ismcts:preset=best", "preset=best"),
            ("ismcts:reward=mix:w=1.5", "from 0 to 1"),
            ("ismcts:playout=smart", "playout=smart"),
            ("ismcts:playout=heuristic,epsilon=2", "epsilon=2"),
            ("ismcts:epsilon=0.5", "only to playout=heuristic"),
            (
                "ismcts:playout=nast,epsilon=0.5",
                "only to playout=heuristic",
            ),
            (
                "ismcts:policy=roulette",
                "policy applies only to playout=nast or epic",
            ),
            ("ismcts:playout=nast:n=5", "n must be from 1 to 4"),
            ("ismcts:playout=nast:n=0", "n must be from 1 to 4"),
            ("ismcts:playout=epic:m=2", "takes only n="),
            ("ismcts:playout=random:n=2", "playout=random:n=2"),
            ("ismcts:playout=nast,policy=boltzmann", "policy=boltzmann"),
            ("ismcts:playout=nast,policy=gibbs:tau=-1", "at least 0.01"),
            ("ismcts:reuse=yes", "reuse"),
            ("pimc:reuse=true", "reuse applies to ismcts and uct only"),
            (
                "ismcts:reuse=true,parallel=root,threads=2",
                "not supported with parallel=root",
            ),
            (
                "ismcts:turn_share=0",
                "turn_share=0 is not a number between 0 and 1",
            ),
            (
                "ismcts:turn_share=1",
                "turn_share=1 is not a number between 0 and 1",
            ),
            ("ismcts:turn_share=most", "turn_share=most is not a number"),
            (
                "ismcts:playout=nast,nast_decay=1.5",
                "nast_decay=1.5 is not a number between 0 and 1",
            ),
            (
                "ismcts:playout=nast,nast_decay=half",
                "nast_decay=half is not a number",
            ),
            (
                "ismcts:nast_decay=0.5",
                "nast_decay applies to playout=nast and playout=epic only (playout=random)",
            ),
            (
                "ismcts:parallel=tree,threads=2,nast_tables=thread",
                "nast_tables applies to playout=nast and playout=epic only (playout=random)",
            ),
            (
                "ismcts:playout=nast,parallel=leaf,threads=2,nast_tables=thread",
                "nast_tables=thread is not supported with parallel=leaf",
            ),
            (
                "ismcts:playout=nast,nast_tables=thread",
                "a sequential search has one table",
            ),
            (
                "ismcts:playout=nast,nast_tables=private",
                "nast_tables=private",
            ),
            ("ismcts:infer=10,infer_model=oracle", "infer_model=oracle"),
            ("ismcts:infer_model=learned", "only with infer=N"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.0.contains(needle), "{text}: {e}");
        }
    }
}
