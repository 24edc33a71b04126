//! The search bench positions (`benches/positions.jsonl`) are real decisions of their games at
//! the stage their labels say.

#[path = "../../benches/common/positions.rs"]
mod positions;

use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::{MoveSet, Spec};

use positions::{BenchPosition, bench_positions};

struct Check(Vec<BenchPosition>);

impl GameVisitor for Check {
    type Output = usize;

    fn visit<G: GameDef>(self, config: G::Config) -> usize {
        for p in &self.0 {
            let state: G = p.state(&config).unwrap();
            assert!(state.legal_moves().len() >= 2, "{}: no choice", p.label);
            match state.tricks_completed() {
                Some(tricks) => {
                    // `tK`: the first decision with a choice once K tricks are complete
                    // (scripts/make_positions.py). Forced moves could carry it past the K-th
                    // trick's end (none of today's 30 do: each is at exactly K), so the count
                    // may exceed K; what the label says exactly is that every position from
                    // the K-th trick's end up to this one was forced.
                    let (_, stage) = p.label.rsplit_once("/t").unwrap();
                    let stage: u32 = stage.parse().unwrap();
                    assert!(tricks >= stage, "{}: {tricks} tricks", p.label);
                    let mut replay = G::from_deal(&config, &p.deal).unwrap();
                    for (ply, text) in p.moves.iter().enumerate() {
                        let past_stage = replay.tricks_completed().unwrap() >= stage;
                        assert!(
                            !past_stage || replay.legal_moves().len() < 2,
                            "{}: move {ply} was already a choice after {stage} tricks",
                            p.label
                        );
                        replay.play(replay.parse_move(text).unwrap());
                    }
                }
                // A board game's label counts stones instead (`/sN`): the deal's stones plus
                // one for each move played.
                None => {
                    let (_, stones) = p.label.rsplit_once("/s").unwrap();
                    let stones: usize = stones.parse().unwrap();
                    let on_board = p.deal.chars().filter(|c| matches!(c, 'W' | 'B')).count()
                        - usize::from(p.deal.ends_with(['W', 'B']));
                    assert_eq!(on_board + p.moves.len(), stones, "{}", p.label);
                }
            }
        }
        self.0.len()
    }
}

#[test]
fn every_bench_position_is_a_decision_of_its_game_at_its_stage() {
    let lines = include_str!("../../benches/positions.jsonl")
        .lines()
        .count();
    let mut checked = 0;
    for info in games::all() {
        let mine = bench_positions(info.name);
        checked += games::dispatch(&Spec::named(info.name), Check(mine)).unwrap();
    }
    assert_eq!(
        checked, lines,
        "every position belongs to a registered game"
    );
    for game in ["tricks", "sueca", "hearts", "bisca"] {
        assert!(bench_positions(game).len() >= 6, "{game}");
    }
    assert!(bench_positions("pentago-swap").len() >= 3);
}
