//! Multiple-observer ISMCTS (issue 13): the same search as SO-ISMCTS where every move is seen,
//! the optimal strategy where a move is hidden (the Secret toy), and Hearts with passing from a
//! true state and from one seat's information set alone.

use cardsearch::agents::{self, Agent, Decision};
use cardsearch::game::rng_from_seed;
use cardsearch::games::secret::SecretMove;
use cardsearch::games::{self, GameDef, GameVisitor, Secret};
use cardsearch::{Budget, Game, HiddenInfo, MoveSet, Spec, View};

fn agent<G: HiddenInfo>(spec: &str) -> Box<dyn Agent<G>> {
    agents::build::<G>(&spec.parse::<Spec>().unwrap()).unwrap()
}

fn decide<G: HiddenInfo>(
    agent: &mut dyn Agent<G>,
    view: View<'_, G>,
    iterations: u64,
    seed: u64,
) -> Decision<G::Move> {
    agent
        .choose(
            view,
            Budget::iterations(iterations),
            &mut rng_from_seed(seed),
        )
        .expect("a search from a legal position decides")
}

/// A decision `plies` random moves into a seeded deal (moved on past forced moves).
fn position<G: GameDef>(config: &G::Config, seed: u64, plies: usize) -> G {
    let mut rng = rng_from_seed(seed);
    let mut state = G::new_game(config, &mut rng);
    for _ in 0..plies {
        if state.is_terminal() {
            return state;
        }
        let mv = state.legal_moves().random(&mut rng);
        state.play(mv);
    }
    while !state.is_terminal() && state.legal_moves().len() < 2 {
        let mv = state.legal_moves().random(&mut rng);
        state.play(mv);
    }
    state
}

/// Where every seat sees every move, MO-ISMCTS's trees have the SO-ISMCTS tree's shape and each
/// selection reads the statistics SO-ISMCTS keeps at that node, drawing from the generator in
/// the same order: with the same seed the root statistics must be equal, bit for bit.
struct SameAsSo;

impl GameVisitor for SameAsSo {
    type Output = usize;

    fn visit<G: GameDef>(self, config: G::Config) -> usize {
        let mut compared = 0;
        for (so, mo) in [
            ("ismcts", "mo-ismcts"),
            ("ismcts:c=1.1", "mo-ismcts:c=1.1"),
            (
                "ismcts:parallel=root,threads=2",
                "mo-ismcts:parallel=root,threads=2",
            ),
            // The leaf master's walks and weighted backups, and each slot's own generator:
            // reproducible at an iteration budget whichever thread plays which slot.
            (
                "ismcts:parallel=leaf,threads=2",
                "mo-ismcts:parallel=leaf,threads=2",
            ),
        ] {
            let (mut so, mut mo) = (agent::<G>(so), agent::<G>(mo));
            for (seed, plies) in [(1u64, 0usize), (2, 5), (3, 11), (4, 17)] {
                let state: G = position(&config, seed, plies);
                if state.is_terminal() {
                    continue;
                }
                let seat = state.current_seat();
                let a = decide(so.as_mut(), View::new(&state, seat, &[]), 3000, seed);
                let b = decide(mo.as_mut(), View::new(&state, seat, &[]), 3000, seed);
                assert_eq!(a.mv, b.mv, "{} seed {seed}", G::NAME);
                assert_eq!(a.children, b.children, "{} seed {seed}", G::NAME);
                assert_eq!(a.iterations, b.iterations);
                compared += 1;
            }
        }
        compared
    }
}

#[test]
fn mo_ismcts_is_so_ismcts_where_every_move_is_seen() {
    // Bisca's draws are not moves (each seat sees its own draw as part of a trick's end).
    // Tricks has 8 plies and CoinGuess 2, so some of the deeper positions are over: every game
    // still compares at least one position per pair of agents.
    let mut all = 0;
    for game in ["tricks", "sueca", "bisca", "hearts", "coinguess"] {
        let compared = games::dispatch(&Spec::named(game), SameAsSo).unwrap();
        assert!(compared >= 3, "{game}: {compared}");
        all += compared;
    }
    assert!(all >= 48, "{all}");
}

/// Mean share of root visits per move over `runs` searches of `spec` seeded from `seed0`.
fn visit_shares<G: HiddenInfo>(
    spec: &str,
    state: &G,
    runs: u64,
    seed0: u64,
) -> Vec<(G::Move, Vec<f64>)> {
    let mut agent = agent::<G>(spec);
    let mut shares: Vec<(G::Move, Vec<f64>)> = state
        .legal_moves()
        .to_vec()
        .into_iter()
        .map(|m| (m, Vec::new()))
        .collect();
    for seed in seed0..seed0 + runs {
        let d = decide(
            agent.as_mut(),
            View::new(state, state.current_seat(), &[]),
            2000,
            seed,
        );
        let total: u64 = d.children.iter().map(|c| c.visits).sum();
        for (mv, list) in &mut shares {
            let visits = d
                .children
                .iter()
                .find(|c| c.mv == *mv)
                .map_or(0, |c| c.visits);
            list.push(visits as f64 / total as f64);
        }
    }
    shares
}

#[test]
fn tree_parallel_mo_and_so_visit_distributions_agree_within_sampling_error() {
    // Tree-parallel searches are not reproducible, so the two algorithms are compared in
    // distribution: 24 searches each with different seeds, the mean share of root visits of
    // every move. The difference of two means of 24 independent shares has standard error
    // sqrt(var_a/24 + var_b/24); 4.5 standard errors bounds one comparison's false alarm near
    // 7e-6, and about 60 comparisons stay below 1e-3 together. The 0.01 floor covers moves
    // whose share hardly varies (a sure choice: both near 1 or both near 0).
    let mut compared = 0;
    for seed in [5u64, 6, 7] {
        let state: games::Sueca = position(&Default::default(), seed, 4 * seed as usize);
        let so = visit_shares("ismcts:parallel=tree,threads=2", &state, 24, 100);
        let mo = visit_shares("mo-ismcts:parallel=tree,threads=2", &state, 24, 200);
        for ((mv, a), (_, b)) in so.iter().zip(&mo) {
            let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
            let var = |x: &[f64]| {
                let m = mean(x);
                x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64
            };
            let se = (var(a) / a.len() as f64 + var(b) / b.len() as f64).sqrt();
            let diff = (mean(a) - mean(b)).abs();
            assert!(
                diff <= 4.5 * se + 0.01,
                "seed {seed} move {mv}: SO {:.3} MO {:.3} (se {se:.4})",
                mean(a),
                mean(b)
            );
            compared += 1;
        }
    }
    assert!(compared >= 10);
}

#[test]
fn on_secret_mo_ismcts_hides_and_so_ismcts_is_fooled_into_safe() {
    // `hide` is worth 3/4 to seat 0 against any seat 1 that cannot see the hand, more than the
    // 0.65 of `safe` (see the game's docs). SO-ISMCTS puts seat 1's choice below seat 0's hand in
    // one tree, so seat 1 learns to point at it, `hide` looks worth 1/2 and it plays `safe`.
    // (A Python model of both searches, 400 seeds at 1,000 iterations: MO hid 400 times, SO
    // never; the hide means were 0.67-0.89 and 0.26-0.62.)
    // Leaf parallelism backs each walk's two playouts up every seat's tree: the hidden move
    // must be modelled as in the sequential search (and leaf SO-ISMCTS fooled as SO-ISMCTS is).
    for (mo, so) in [
        ("mo-ismcts", "ismcts"),
        (
            "mo-ismcts:parallel=leaf,threads=2",
            "ismcts:parallel=leaf,threads=2",
        ),
    ] {
        let (mut mo_agent, mut so_agent) = (agent::<Secret>(mo), agent::<Secret>(so));
        let (mut mo_hides, mut so_hides) = (0, 0);
        for seed in 0..200u64 {
            let state = Secret::new(seed % 2 == 0);
            let d = decide(mo_agent.as_mut(), View::new(&state, 0, &[]), 1000, seed);
            mo_hides += (d.mv == SecretMove::Hide) as u32;
            let d = decide(so_agent.as_mut(), View::new(&state, 0, &[]), 1000, seed);
            so_hides += (d.mv == SecretMove::Hide) as u32;
        }
        // The bar: the optimal move in at least 95% of 200 seeded decisions.
        assert!(mo_hides >= 190, "{mo} hid only {mo_hides}/200 times");
        // SO-ISMCTS is fooled in (nearly) every decision; more than 5% hides would be a
        // different algorithm from the one modelled.
        assert!(so_hides <= 10, "{so} hid {so_hides}/200 times");
    }
}

#[test]
fn mo_ismcts_plays_hearts_with_passing_from_the_true_state_and_from_an_information_set() {
    // Every seat by MO-ISMCTS in every mode it supports, deciding alternately from a view with
    // the true state and from one seat's information set alone (the engine's view mode, where
    // the others' passes are unseen moves): every decision must be legal, to the end.
    let config = games::hearts::HeartsConfig {
        pass: games::hearts::Pass::Left,
    };
    for (i, spec) in [
        "mo-ismcts",
        "mo-ismcts:parallel=root,threads=2",
        "mo-ismcts:parallel=tree,threads=2",
        "mo-ismcts:parallel=leaf,threads=2",
    ]
    .into_iter()
    .enumerate()
    {
        let mut agent = agent::<games::Hearts>(spec);
        let mut rng = rng_from_seed(i as u64);
        let mut state = games::Hearts::new_game(&config, &mut rng);
        let mut decisions = 0u64;
        while !state.is_terminal() {
            let seat = state.current_seat();
            let view = if decisions.is_multiple_of(2) {
                View::new(&state, seat, &[])
            } else {
                View::from_info_set(state.info_set(seat), &[])
            };
            let d = decide(agent.as_mut(), view, 200, decisions);
            assert!(state.legal_moves().contains(d.mv), "{spec}: {}", d.mv);
            state.play(d.mv);
            decisions += 1;
        }
        assert_eq!(decisions, 12 + 52, "{spec}");
    }
}

#[test]
fn mo_ismcts_refuses_modes_it_cannot_run_with_a_clear_error() {
    for spec in [
        "mo-ismcts:parallel=tree-locked",
        "mo-ismcts:playout=nast",
        "mo-ismcts:playout=epic:n=3",
    ] {
        let err = agents::build::<Secret>(&spec.parse::<Spec>().unwrap())
            .err()
            .expect("refused");
        assert!(err.0.contains("is not supported"), "{spec}: {err}");
    }
    let err = agents::build::<Secret>(&"mo-ismcts:leaf_solve=4".parse::<Spec>().unwrap())
        .err()
        .expect("refused");
    assert!(err.0.contains("leaf_solve"), "{err}");
}

#[test]
fn mo_ismcts_shares_max_nodes_among_the_seats_of_the_game_only() {
    // A tree per seat of the game, sharing `max_nodes`: Bisca's two trees (two per thread in
    // root mode) and Sueca's four fill to nearly all of it and never past it, in every mode
    // MO-ISMCTS runs in. Before session
    // 51 every group had four trees whatever the game, and the two that a Bisca walk enters
    // held half of `max_nodes` between them (2,002 nodes here, the unused trees' roots too).
    fn nodes<G: GameDef<Config: Default>>(spec: &str) -> u64 {
        let state: G = position(&Default::default(), 1, 0);
        let d = decide(
            agent::<G>(spec).as_mut(),
            View::new(&state, state.current_seat(), &[]),
            5000,
            1,
        );
        assert!(d.tree_full, "{} {spec}: {} nodes", G::NAME, d.nodes);
        d.nodes
    }
    for spec in [
        "mo-ismcts:max_nodes=4000",
        "mo-ismcts:max_nodes=4000,parallel=root,threads=2",
        "mo-ismcts:max_nodes=4000,parallel=tree,threads=2",
        "mo-ismcts:max_nodes=4000,parallel=leaf,threads=2",
    ] {
        for n in [nodes::<games::Bisca>(spec), nodes::<games::Sueca>(spec)] {
            assert!((3000..=4000).contains(&n), "{spec}: {n} nodes");
        }
    }
}
