//! `turn-mcts`: the paper's MCTS, a tree over the current player's actions of this turn only.
//!
//! As in the reference: the root is expanded at once; each iteration descends by UCB
//! (`mean + c·sqrt(ln(parent visits) / visits)`, unvisited children first, in a random order);
//! a leaf that has been visited before and is not the end of the turn is expanded (all its
//! legal actions at once) and one new child is tried; then random actions finish the turn and
//! the heuristic (the score difference, not a win probability, hence the large default
//! `c = 8`) is backed up. The plan is the chain of best-mean children from the root.
//!
//! The tree is its own small arena rather than the search module's: a node expands all its
//! children at once, so they sit in one contiguous block (no sibling links), there is no
//! availability or virtual loss, and turns are shallow (a 3-action ASMACAG turn has at most
//! 38 + 38² + 38³ nodes). It is allocated once per agent and reused; a full arena stops
//! growing and the search goes on (as the search module's tree does).

use super::turn::{
    Line, OPT_ITERATIONS, OPT_PARALLEL, OPT_THREADS, OPT_TIME, Plan, TurnPlanner, boxed,
    exploration, in_turn,
};
use super::{Agent, AgentInfo, ChildStat};
use crate::cards::random_below;
use crate::game::{Game, HiddenInfo, MoveSet, Rng, Seat, TreeMove};
use crate::limits;
use crate::search::BudgetClock;
use crate::spec::{OptionDoc, Spec, SpecError};

/// Default exploration constant (the paper's tuned value, on the score-difference scale).
pub const DEFAULT_C: f64 = 8.0;
/// Default arena capacity in nodes.
pub const DEFAULT_MAX_NODES: u32 = 1 << 20;

/// Documentation for `cardsearch agents`.
pub const INFO: AgentInfo = AgentInfo {
    name: "turn-mcts",
    about: "MCTS over this turn's own actions only, random rest of turn, score-difference reward",
    options: &[
        OptionDoc {
            key: "c",
            default: "8",
            help: "UCB exploration constant (rewards are score differences)",
        },
        OptionDoc {
            key: "max_nodes",
            default: "1048576",
            help: "tree capacity in nodes, 2 to 268435456 (2^28), reserved before each search; \
                   a full tree stops growing",
        },
        OPT_ITERATIONS,
        OPT_TIME,
        OPT_PARALLEL,
        OPT_THREADS,
    ],
};

/// One node: the action into it, its block of children, and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    first_child: u32,
    children: u32,
    visits: u32,
    reward: f64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>) -> Node<M> {
        Node {
            mv,
            first_child: 0,
            children: 0,
            visits: 0,
            reward: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        self.reward / self.visits as f64
    }
}

/// The turn-level MCTS planner.
#[derive(Debug)]
pub struct TurnMcts<M> {
    c: f64,
    max_nodes: u32,
    nodes: Vec<Node<M>>,
    /// The nodes of the current iteration's walk.
    path: Vec<u32>,
    /// True when an expansion found the arena full during the last search.
    full: bool,
}

impl<M: Copy + PartialEq> TurnMcts<M> {
    /// A planner with exploration constant `c` and room for `max_nodes` nodes.
    pub fn new(c: f64, max_nodes: u32) -> TurnMcts<M> {
        TurnMcts {
            c,
            max_nodes,
            nodes: Vec::new(),
            path: Vec::new(),
            full: false,
        }
    }

    /// The whole arena at once, failing softly: a `max_nodes` the machine cannot give (under
    /// a memory limit) is the agent's resources error, not an abort of the process.
    fn reserve_arena(&mut self) -> Result<(), String> {
        let want = self.max_nodes as usize;
        if self.nodes.capacity() < want {
            self.nodes.clear();
            if self.nodes.try_reserve_exact(want).is_err() {
                return Err(format!(
                    "no memory for a tree of {want} nodes (max_nodes={want})"
                ));
            }
        }
        if self.path.capacity() < super::turn::MAX_TURN + 2 {
            self.path.reserve_exact(super::turn::MAX_TURN + 2);
        }
        Ok(())
    }

    /// The children of `node`.
    fn children(&self, node: u32) -> &[Node<M>] {
        let n = &self.nodes[node as usize];
        &self.nodes[n.first_child as usize..(n.first_child + n.children) as usize]
    }

    /// Adds every legal action of `state` as a child of `node`, in a random order (so that
    /// "the first unvisited child" is a uniformly random one). False when the arena is full.
    fn expand<G: Game<Move = M>>(&mut self, node: u32, state: &G, rng: &mut Rng) -> bool
    where
        M: TreeMove,
    {
        let moves = state.legal_moves();
        let first = self.nodes.len();
        if first + moves.len() > self.max_nodes as usize {
            self.full = true;
            return false;
        }
        moves.for_each(|mv| self.nodes.push(Node::new(Some(mv))));
        let block = &mut self.nodes[first..];
        for i in (1..block.len()).rev() {
            block.swap(i, random_below(rng, i as u32 + 1) as usize);
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first as u32;
        n.children = moves.len() as u32;
        true
    }

    /// The child of `node` to descend into: the first unvisited one, else the best UCB (ties
    /// to the first).
    fn select(&self, node: u32) -> u32 {
        let parent = &self.nodes[node as usize];
        let log = (parent.visits as f64).ln();
        let mut best = (f64::NEG_INFINITY, parent.first_child);
        for (i, child) in self.children(node).iter().enumerate() {
            let id = parent.first_child + i as u32;
            if child.visits == 0 {
                return id;
            }
            let ucb = child.mean() + self.c * (log / child.visits as f64).sqrt();
            if ucb > best.0 {
                best = (ucb, id);
            }
        }
        best.1
    }
}

/// The best line through one or more trees of the same turn: from the roots, repeatedly the
/// action whose visited children, merged by action over the trees, have the best mean (ties
/// to the first seen). Also the merged statistics of the first action's alternatives.
fn best_line<M: Copy + PartialEq>(trees: &[&TurnMcts<M>]) -> (Line<M>, f64, Vec<ChildStat<M>>) {
    let mut cursors: Vec<Option<u32>> = trees.iter().map(|_| Some(0)).collect();
    let mut line = Line::new();
    let mut value = f64::NEG_INFINITY;
    let mut first = Vec::new();
    // (action, visits, reward) merged over the trees, one level at a time; allocated once so
    // that a deeper line (more search) costs no more allocations.
    let mut merged: Vec<(M, u64, f64)> = Vec::with_capacity(64);
    while !line.is_full() {
        merged.clear();
        for (tree, cursor) in trees.iter().zip(&cursors) {
            let Some(node) = *cursor else { continue };
            for child in tree.children(node).iter().filter(|c| c.visits > 0) {
                let mv = child.mv.expect("children have actions");
                match merged.iter_mut().find(|(m, _, _)| *m == mv) {
                    Some(entry) => {
                        entry.1 += child.visits as u64;
                        entry.2 += child.reward;
                    }
                    None => merged.push((mv, child.visits as u64, child.reward)),
                }
            }
        }
        let Some(&(mv, visits, reward)) = merged.iter().reduce(|a, b| {
            if b.2 / b.1 as f64 > a.2 / a.1 as f64 {
                b
            } else {
                a
            }
        }) else {
            break;
        };
        if line.is_empty() {
            let total: u64 = merged.iter().map(|m| m.1).sum();
            // Trees whose most visited root child each action is.
            let favourites: Vec<Option<M>> = trees
                .iter()
                .map(|t| {
                    let best = t.children(0).iter().max_by_key(|c| c.visits)?;
                    best.mv.filter(|_| best.visits > 0)
                })
                .collect();
            first = merged
                .iter()
                .map(|&(mv, visits, reward)| ChildStat {
                    mv,
                    visits,
                    availability: total,
                    mean: reward / visits as f64,
                    votes: favourites.iter().filter(|f| **f == Some(mv)).count() as u64,
                })
                .collect();
            first.sort_by_key(|c| std::cmp::Reverse(c.visits));
        }
        line.push(mv);
        value = reward / visits as f64;
        for (tree, cursor) in trees.iter().zip(cursors.iter_mut()) {
            *cursor = cursor.and_then(|node| {
                let base = tree.nodes[node as usize].first_child;
                tree.children(node)
                    .iter()
                    .position(|c| c.mv == Some(mv))
                    .map(|i| base + i as u32)
            });
        }
    }
    (line, value, first)
}

impl<G: Game> TurnPlanner<G> for TurnMcts<G::Move> {
    fn plan(&mut self, world: &G, seat: Seat, clock: &BudgetClock, rng: &mut Rng) -> Plan<G::Move> {
        // The arena was reserved (`reserve`) before the clock started; an expansion that
        // finds it full stops growing the tree, so no push below reallocates.
        self.nodes.clear();
        self.full = false;
        self.nodes.push(Node::new(None));
        self.expand(0, world, rng);
        let mut done = 0;
        while !clock.exhausted(done) {
            let mut state = world.clone();
            self.path.clear();
            self.path.push(0);
            let mut node = 0;
            while self.nodes[node as usize].children > 0 {
                node = self.select(node);
                state.play(self.nodes[node as usize].mv.expect("a child"));
                self.path.push(node);
            }
            if self.nodes[node as usize].visits > 0
                && in_turn(&state, seat)
                && self.expand(node, &state, rng)
            {
                node = self.nodes[node as usize].first_child;
                state.play(self.nodes[node as usize].mv.expect("a child"));
                self.path.push(node);
            }
            while in_turn(&state, seat) {
                state.play(state.legal_moves().random(rng));
            }
            let reward = state.heuristic(seat);
            for &n in &self.path {
                let n = &mut self.nodes[n as usize];
                n.visits += 1;
                n.reward += reward;
            }
            done += 1;
        }
        let (line, value, children) = best_line(&[&*self]);
        Plan {
            children,
            nodes: self.nodes.len() as u64,
            tree_full: self.full,
            ..Plan::new(line, value, done)
        }
    }

    /// Root parallelism merges the trees by action along the best line.
    fn combine(planners: &[Self], plans: Vec<Plan<G::Move>>) -> Plan<G::Move> {
        let trees: Vec<&TurnMcts<G::Move>> = planners.iter().collect();
        let (line, value, children) = best_line(&trees);
        Plan {
            children,
            nodes: plans.iter().map(|p| p.nodes).sum(),
            tree_full: plans.iter().any(|p| p.tree_full),
            ..Plan::new(line, value, plans.iter().map(|p| p.evaluations).sum())
        }
    }

    fn release_memory(&mut self) {
        self.nodes = Vec::new();
    }

    fn reserve(&mut self) -> Result<(), String> {
        self.reserve_arena()
    }
}

/// Builds `turn-mcts` from its spec.
pub fn build<G: HiddenInfo>(spec: &Spec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let c = exploration(spec, DEFAULT_C)?;
    let max_nodes: u32 = spec.get("max_nodes", DEFAULT_MAX_NODES)?;
    // The arena is reserved whole before each search: a ceiling, as every agent's tree has.
    if !(2..=limits::MAX_OWN_TREE_NODES).contains(&max_nodes) {
        return Err(SpecError(format!(
            "{}: max_nodes={max_nodes} must be 2 to {}",
            spec.name,
            limits::MAX_OWN_TREE_NODES
        )));
    }
    boxed(
        spec,
        INFO.name,
        format!("c={c},max_nodes={max_nodes}"),
        move || TurnMcts::new(c, max_nodes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_nodes_has_a_ceiling_named_in_a_one_line_error() {
        use crate::games::Asmacag;
        let build = |text: &str| crate::agents::build::<Asmacag>(&text.parse().unwrap());
        for n in [0, 1, limits::MAX_OWN_TREE_NODES + 1, u32::MAX] {
            let Err(e) = build(&format!("turn-mcts:max_nodes={n}")) else {
                panic!("max_nodes={n} was accepted");
            };
            assert!(
                e.0.contains(&format!("max_nodes={n} must be 2 to 268435456")),
                "{e}"
            );
            assert!(!e.0.contains('\n'), "{e}");
        }
        // Too large for a u32 at all: refused as a number, not wrapped.
        assert!(build("turn-mcts:max_nodes=4294967296").is_err());
        assert!(
            build(&format!(
                "turn-mcts:max_nodes={}",
                limits::MAX_OWN_TREE_NODES
            ))
            .is_ok()
        );
        assert!(build("turn-mcts:max_nodes=2").is_ok());
    }

    #[test]
    fn an_arena_the_machine_cannot_give_is_an_error_not_an_abort() {
        // Nodes of a megabyte each: the ceiling's arena would be 2^48 bytes, more than a
        // 64-bit process can map, so the reservation fails here whatever the machine.
        let mut big = TurnMcts::<[u8; 1 << 20]>::new(DEFAULT_C, limits::MAX_OWN_TREE_NODES);
        let e = big.reserve_arena().unwrap_err();
        assert!(e.contains("no memory for a tree of 268435456 nodes"), "{e}");
        // A small one is reserved whole, once.
        let mut small = TurnMcts::<u8>::new(DEFAULT_C, 1000);
        small.reserve_arena().unwrap();
        assert!(small.nodes.capacity() >= 1000);
    }
}
