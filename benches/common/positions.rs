//! The search bench positions, `benches/positions.jsonl` (written once by
//! `scripts/make_positions.py`): per game, a few seeded deals, each at its first decision with a
//! choice after 0, 3 and 6 completed tricks and with two tricks left. One line per position:
//! `{"label": "game/dealN/tK", "game", "deal", "moves"}`. Pentago-Swap's four (added by hand:
//! the empty board, two positions of `docs/performance.md`'s instruction counts and one from a
//! seeded game) are labelled `pentago-swap/NAME/sN`, N stones on the board.
//!
//! Shared by `benches/search.rs`, `examples/search_speed.rs` and `tests/it/bench_positions.rs`
//! (each includes this file as a module). It uses only the crate's public game interface, which
//! older revisions have too, so `scripts/ab_criterion.sh` can build the search bench against a
//! revision from before it existed.

#![allow(dead_code)]

use cardsearch::{GameDef, MoveSet};

/// One bench position: a deal and the moves played from it.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// `game/dealN/tK`: the deal's seed and the tricks completed before the position.
    pub label: String,
    /// The game's name.
    pub game: String,
    /// The deal, in the game's notation.
    pub deal: String,
    /// The moves from the deal to the position, in the game's notation.
    pub moves: Vec<String>,
}

impl BenchPosition {
    /// The label without the game: `dealN/tK`.
    pub fn id(&self) -> &str {
        self.label.split_once('/').map_or(&self.label, |(_, id)| id)
    }

    /// The position as a game state; `Err` names what does not fit the game.
    pub fn state<G: GameDef>(&self, config: &G::Config) -> Result<G, String> {
        let err = |e: String| format!("{}: {e}", self.label);
        let mut state = G::from_deal(config, &self.deal).map_err(|e| err(e.to_string()))?;
        for text in &self.moves {
            let mv = state.parse_move(text).map_err(err)?;
            if !state.legal_moves().contains(mv) {
                return Err(err(format!("{text} is not legal")));
            }
            state.play(mv);
        }
        Ok(state)
    }
}

/// Every bench position of `game`, in file order.
pub fn bench_positions(game: &str) -> Vec<BenchPosition> {
    include_str!("../positions.jsonl")
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let text = |key: &str| v[key].as_str().expect("a string field").to_string();
            BenchPosition {
                label: text("label"),
                game: text("game"),
                deal: text("deal"),
                moves: v["moves"]
                    .as_array()
                    .expect("a list of moves")
                    .iter()
                    .map(|m| m.as_str().expect("a move").to_string())
                    .collect(),
            }
        })
        .filter(|p| p.game == game)
        .collect()
}
