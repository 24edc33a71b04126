//! A search iteration allocates nothing: the number of heap allocations of a decision must not
//! grow with its iteration count. Counted by a global allocator wrapper, in a test binary of its
//! own without the test harness (`harness = false`), whose threads would otherwise be counted
//! when they allocate during a long search.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use cardsearch::agents;
use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::{Budget, MoveSet, Spec, View};

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
            "ismcts:parallel=root,threads=1",
            "ismcts:parallel=tree,threads=1",
            "ismcts:parallel=tree-locked,threads=1",
            "ismcts:parallel=leaf,threads=1",
            "ismcts:parallel=root,threads=2",
            "ismcts:parallel=tree,threads=2",
            "ismcts:parallel=tree-locked,threads=2",
            "ismcts:parallel=leaf,threads=2",
            // The turn planners (each decision plans the turn afresh: the state never moves).
            "turn-mcts",
            "oe",
            "ntboe",
            "turn-mcts:parallel=root,threads=2",
            "oe:parallel=root,threads=2",
            "ntboe:parallel=root,threads=2",
        ]) {
            let mut agent = agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap();
            let mut count = |iterations: u64| {
                let before = ALLOCATIONS.load(Relaxed);
                let d = agent
                    .choose(
                        View::new(&state, seat),
                        Budget::iterations(iterations),
                        &mut rng_from_seed(1),
                    )
                    .unwrap();
                assert_eq!(d.iterations, iterations);
                ALLOCATIONS.load(Relaxed) - before
            };
            // The root's statistics are sorted once per decision by the standard stable sort,
            // which takes heap scratch above about 128 children: in a game with more than 64
            // moves (ASMACAG) the short search must also give every root move a child, to
            // compare like with like.
            let short_n = if state.legal_moves().len() > 64 {
                1000
            } else {
                100
            };
            // Warm-up: buffers reach their working size, and the arena the size the longer
            // search needs (arenas are sized from the budget once, before the search).
            count(20_000);
            let (short, long) = (count(short_n), count(20_000));
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

fn main() {
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), Check).unwrap();
    }
    println!("search_alloc: searches of 100 and 20,000 iterations allocate the same: ok");
}
