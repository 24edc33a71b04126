//! A search iteration allocates nothing: the number of heap allocations of a decision must not
//! grow with its iteration count. Counted by a global allocator wrapper, in a test binary of its
//! own without the test harness (`harness = false`), whose threads would otherwise be counted
//! when they allocate during a long search.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use cardsearch::agents;
use cardsearch::game::{SeatHistories, TreeMove, rng_from_seed};
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::mask::MoveMask;
use cardsearch::{Budget, Game, MoveSet, Spec, View};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator; counting has no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The long search of each comparison. Any allocation made per iteration (or per few
/// iterations) would add thousands of allocations here over the short search's 100 or 1,000,
/// far beyond the few the parallel pools make on their own.
const LONG: u64 = 5_000;

struct Check;

impl GameVisitor for Check {
    type Output = ();

    fn visit<G: GameDef>(self, config: G::Config) {
        let mut rng = rng_from_seed(3);
        let mut state = G::new_game(&config, &mut rng);
        while state.legal_moves().len() < 2 {
            let mv = state.legal_moves().random(&mut rng);
            state.play(mv);
        }
        let seat = state.current_seat();
        // The solver leaf evaluator: Tricks is small enough for every playout to be solved
        // (8 cards), so this measures the solver's own allocations per iteration.
        let leaf_solve = (G::NAME == "tricks").then_some("ismcts:leaf_solve=8");
        for spec in leaf_solve.into_iter().chain([
            "ismcts",
            "ismcts:playout=heuristic,reward=mix:w=0.3",
            "pimc:dets=5,playout=heuristic,reward=sd",
            "uct",
            // NAST and EPIC: dense (n <= 2) and hashed (n >= 3) tables, logged walks.
            "ismcts:playout=nast",
            "ismcts:playout=epic:n=3,policy=ucb1",
            "pimc:dets=5,playout=nast:n=4,policy=roulette",
            "ismcts:playout=nast,policy=egreedy,parallel=tree,threads=2",
            "ismcts:playout=epic,parallel=leaf,threads=2",
            "ismcts:parallel=root,threads=1",
            "ismcts:parallel=tree,threads=1",
            "ismcts:parallel=tree-locked,threads=1",
            "ismcts:parallel=leaf,threads=1",
            "ismcts:parallel=root,threads=2",
            "ismcts:parallel=tree,threads=2",
            "ismcts:parallel=tree-locked,threads=2",
            "ismcts:parallel=leaf,threads=2",
            "mo-ismcts",
            "mo-ismcts:parallel=root,threads=2",
            "mo-ismcts:parallel=tree,threads=2",
            // The turn planners (each decision plans the turn afresh: the state never moves).
            "turn-mcts",
            "oe",
            "ntboe",
            "turn-mcts:parallel=root,threads=2",
            "oe:parallel=root,threads=2",
            "ntboe:parallel=root,threads=2",
        ]) {
            // NAST and EPIC refuse games wider than 64 moves (tested in tests/it/nast.rs).
            let wide = <<G::Move as TreeMove>::Mask as MoveMask>::BITS > 64;
            if wide && (spec.contains("nast") || spec.contains("epic")) {
                continue;
            }
            // `playout=heuristic` is refused where the game has no heuristic rule (tests/it/cli.rs).
            if !G::HAS_HEURISTIC && spec.contains("playout=heuristic") {
                continue;
            }
            let mut agent = agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap();
            let mut count = |iterations: u64| {
                let before = ALLOCATIONS.load(Relaxed);
                let view = agents::view_for(agent.as_ref(), &state, seat, &[]);
                let d = agent
                    .choose(view, Budget::iterations(iterations), &mut rng_from_seed(1))
                    .unwrap();
                assert_eq!(d.iterations, iterations);
                ALLOCATIONS.load(Relaxed) - before
            };
            // The root's statistics are sorted once per decision by the standard stable sort,
            // which takes heap scratch above about 128 children: in a game with more than 64
            // moves (ASMACAG, Pentago-Swap) the short search must also give every root move a child, to
            // compare like with like.
            let short_n = if state.legal_moves().len() > 64 {
                1000
            } else {
                100
            };
            // Warm-up: buffers reach their working size, and the arena the size the longer
            // search needs (arenas are sized from the budget once, before the search).
            count(LONG);
            let (short, long) = (count(short_n), count(LONG));
            if spec.contains("parallel") {
                // The pool's own machinery allocates a little now and then, independently of
                // the search: rayon's job queues take a new block every 63 jobs and
                // parking_lot grows its table of parked threads. Allocating in an iteration
                // would add thousands here.
                assert!(
                    long.abs_diff(short) <= 4,
                    "{} {spec}: {short} vs {long}",
                    G::NAME
                );
            } else {
                assert_eq!(
                    short,
                    long,
                    "{} {spec}: allocations grow with iterations",
                    G::NAME
                );
            }
            // A dropped agent's pool threads exit in the background, and whatever they free or
            // allocate on the way out would be counted against the next agent: keep them.
            std::mem::forget(agent);
        }
    }
}

/// The Pentago-Swap agents, in a position where the strong player must search (no win at once,
/// no symmetry). The student keeps its own budget, so each of its searches gets an agent of its
/// own with `iterations=` in its spec, built before counting.
fn pentago_agents() {
    use cardsearch::games::Pentago;
    type Boxed = Box<dyn cardsearch::Agent<Pentago>>;
    let mut state = Pentago::new();
    for mv in ["0,1:01", "2,2:23", "4,0:12", "1,5:03"] {
        state.play(mv.parse().unwrap());
    }
    let build =
        |spec: &str| -> Boxed { agents::build::<Pentago>(&spec.parse::<Spec>().unwrap()).unwrap() };
    let count = |agent: &mut Boxed, iterations: u64| {
        let before = ALLOCATIONS.load(Relaxed);
        let d = agent
            .choose(
                View::new(&state, 0, &[]),
                Budget::iterations(iterations),
                &mut rng_from_seed(1),
            )
            .unwrap();
        assert_eq!(d.iterations, iterations, "{}", agent.spec());
        ALLOCATIONS.load(Relaxed) - before
    };
    let (mut short, mut long) = (
        build("pentago-student:iterations=1000"),
        build(&format!("pentago-student:iterations={LONG}")),
    );
    let (a, b) = (count(&mut short, 1000), count(&mut long, LONG));
    assert_eq!(a, b, "pentago-student: allocations grow with iterations");
    for spec in [
        "pentago-strong",
        "pentago-strong:parallel=tree,threads=2",
        "pentago-strong:parallel=tree-locked,threads=2",
        "pentago-strong:parallel=leaf,threads=2",
        "pentago-strong:parallel=root,threads=2",
    ] {
        let mut agent = build(spec);
        count(&mut agent, LONG); // warm-up, as above

        let (short, long) = (count(&mut agent, 1000), count(&mut agent, LONG));
        // As above: a parallel search's pool allocates a few times on its own.
        let slack = if spec.contains("parallel") { 4 } else { 0 };
        assert!(long.abs_diff(short) <= slack, "{spec}: {short} vs {long}");
        std::mem::forget(agent);
    }
}

/// The exact endgame with inference, late in a Sueca game whose moves the agent has seen: its
/// iterations are the deals it solves, each weighed by rewinding it to the deal and replaying
/// the others' plays (inference's likelihood). Solving three times as many deals must not
/// allocate more (each rewind built four names for the deal's check until session 54).
fn endgame_with_inference() {
    use cardsearch::games::Sueca;
    let config = Sueca::config(&Spec::named("sueca")).unwrap();
    let mut rng = rng_from_seed(4);
    let mut state = Sueca::new_game(&config, &mut rng);
    let mut histories = SeatHistories::new(4);
    // 27 of the 40 cards played: 13 left, within the endgame's 16.
    for _ in 0..27 {
        let mv = state.legal_moves().random(&mut rng);
        histories.record(&state, mv);
        state.play(mv);
    }
    let seat = state.current_seat();
    let count = |deals: u32| {
        let spec = format!("ismcts:endgame=16,infer=20,endgame_deals={deals}");
        let mut agent = agents::build::<Sueca>(&spec.parse::<Spec>().unwrap()).unwrap();
        let mut decide = || {
            let before = ALLOCATIONS.load(Relaxed);
            let view = agents::view_for(agent.as_ref(), &state, seat, histories.of(seat));
            agent
                .choose(view, Budget::iterations(1000), &mut rng_from_seed(1))
                .unwrap();
            ALLOCATIONS.load(Relaxed) - before
        };
        decide(); // warm-up, as above
        decide()
    };
    let (few, many) = (count(20), count(60));
    assert_eq!(
        few, many,
        "endgame with inference: allocations grow with the deals solved"
    );
}

fn main() {
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), Check).unwrap();
    }
    pentago_agents();
    endgame_with_inference();
    println!(
        "search_alloc: short searches and searches of {LONG} iterations allocate the same: ok"
    );
}
