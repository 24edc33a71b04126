//! The progressive-bias prior (`prior=B`): selection follows the learned model's probabilities
//! when the bias dominates, and games without a model refuse it.

use cardsearch::agents::{self, Agent};
use cardsearch::game::{MoveSet, rng_from_seed};
use cardsearch::games::{self, GameDef, GameVisitor, Tricks};
use cardsearch::{Budget, Spec, View};

/// Iterations per decision checked.
const ITERATIONS: u64 = 3_000;

/// With the largest bias the limit allows, a child's score is `b·P/(n + 1)` up to the mean and
/// exploration terms (together at most about 1 + 0.7·sqrt(ln 3000) ≈ 3), against a bias term
/// of about `b/(N + K)` ≈ 330 once every child has its first visit: the search gives child k
/// about `P_k·(N + K) − 1` visits, each share within 1% (relative) of the model's probability
/// plus one visit's rounding. A margin of 0.015 holds that with room; uniform selection (or a
/// prior normalised over the wrong moves) misses by more on the positions kept below, which
/// are those where some move's probability is at least 0.05 from uniform.
const MARGIN: f64 = 0.015;

struct PriorCheck;

impl GameVisitor for PriorCheck {
    type Output = bool;

    fn visit<G: GameDef>(self, config: G::Config) -> bool {
        let Some(model) = G::opponent_model() else {
            return false;
        };
        let spec: Spec = "ismcts:prior=1000000".parse().unwrap();
        let mut agent: Box<dyn Agent<G>> = agents::build::<G>(&spec).unwrap();
        let mut rng = rng_from_seed(41);
        let mut checked = 0;
        while checked < 4 {
            let mut state = G::new_game(&config, &mut rng);
            let skip = rand::Rng::next_u32(&mut rng) % 12;
            for _ in 0..skip {
                let random = state.legal_moves().random(&mut rng);
                state.play(random);
            }
            let legal: Vec<G::Move> = state.legal_moves().to_vec();
            if legal.len() < 3 {
                continue;
            }
            let want: Vec<f64> = legal
                .iter()
                .map(|&mv| model.probability(&state, mv).expect("described"))
                .collect();
            let uniform = 1.0 / legal.len() as f64;
            if want.iter().all(|p| (p - uniform).abs() < 0.05) {
                continue;
            }
            let view = View::new(&state, state.current_seat(), &[]);
            let d = agent
                .choose(
                    view,
                    Budget::iterations(ITERATIONS),
                    &mut rng_from_seed(checked),
                )
                .unwrap();
            for (&mv, &p) in legal.iter().zip(&want) {
                let visits = d
                    .children
                    .iter()
                    .find(|c| c.mv == mv)
                    .map_or(0, |c| c.visits);
                let share = visits as f64 / d.iterations as f64;
                assert!(
                    (share - p).abs() <= MARGIN,
                    "{}: {mv} has {share:.4} of the visits, the model says {p:.4} in {state:?}",
                    G::NAME
                );
            }
            checked += 1;
        }
        true
    }
}

#[test]
fn a_dominant_prior_shares_the_root_visits_as_the_model_does() {
    let mut with_model = Vec::new();
    for info in games::all() {
        if games::dispatch(&info.name.parse().unwrap(), PriorCheck).unwrap() {
            with_model.push(info.name);
        }
    }
    assert_eq!(
        with_model.len(),
        3,
        "sueca, hearts and bisca: {with_model:?}"
    );
}

#[test]
fn a_prior_is_refused_where_there_is_no_model_and_checked_where_there_is() {
    let spec: Spec = "ismcts:prior=1".parse().unwrap();
    let err = agents::build::<Tricks>(&spec)
        .err()
        .expect("tricks has no model");
    assert!(
        err.to_string()
            .contains("prior: this game has no learned opponent model"),
        "{err}"
    );
    for (text, says) in [
        ("ismcts:prior=-1", "prior=-1 must be from 0"),
        ("ismcts:prior=lots", "prior"),
        (
            "ismcts:prior=2000000",
            "prior=2000000 must be from 0 to 1000000",
        ),
    ] {
        let spec: Spec = text.parse().unwrap();
        let err = agents::build::<games::Sueca>(&spec)
            .err()
            .unwrap_or_else(|| panic!("{text} was accepted"));
        assert!(err.to_string().contains(says), "{text}: {err}");
    }
}
