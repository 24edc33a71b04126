//! `cardsearch fit-model`: fits a game's learned opponent model to the moves of logged games.

use super::stdout::{out, outln};
use std::path::PathBuf;

use clap::Args;

use crate::game::MoveSet;
use crate::games::{self, GameDef, GameVisitor};
use crate::harness::log::{Logged, read_log_noting};
use crate::search::inference::{self, InferenceConfig};
use crate::search::opponent_model::{self, Decision, FitSettings, OpponentModel};
use crate::spec::Spec;

/// Options of `cardsearch fit-model`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Every move with a choice in the logs (forced moves tell nothing) becomes one \
training decision: the features of each legal card, from the mover's own view, and the card \
played. Every fifth deal (by deal index) is held out (in `play` logs, whose games are all deal 0, \
every fifth game); the report compares the held-out moves' \
mean log-likelihood under a uniform choice, the game's heuristic rule as inference mixes it, and \
the fitted model. Games with a learned model: sueca, hearts, bisca."
)]
pub struct FitModelArgs {
    /// The game, by its name alone: each log's own game spec, options included, replays its
    /// games.
    #[arg(long)]
    pub game: String,
    /// Logs written by `cardsearch match --out` (or `tournament --out`) for that game.
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Write the fitted parameters here (the format of `models/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// L2 penalty per parameter (the objective is the mean log-likelihood minus l2·Σθ²).
    #[arg(long, default_value_t = FitSettings::default().l2)]
    pub l2: f64,
    /// Full-batch gradient steps (at most 100,000).
    #[arg(long, default_value_t = FitSettings::default().steps)]
    pub steps: usize,
}

/// Runs `cardsearch fit-model`.
pub fn run(args: &FitModelArgs) -> Result<(), String> {
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(format!("--l2 {} must be 0 or more", args.l2));
    }
    crate::limits::positive_at_most("steps", args.steps, MAX_STEPS)
        .map_err(|e| format!("--{e}"))?;
    let spec: Spec = args.game.parse().map_err(|e: crate::spec::SpecError| e.0)?;
    if !spec.options.is_empty() {
        return Err(format!(
            "--game {}: give the game's name alone; each log's own game spec, options \
             included, replays its games",
            args.game
        ));
    }
    let inputs: Vec<_> = args
        .logs
        .iter()
        .map(|p| ("a log given to fit-model", p.as_path()))
        .collect();
    super::output::check_outputs(&[("--out", args.out.as_deref())], &inputs)?;
    let mut logged = Vec::new();
    for path in &args.logs {
        let (records, warning) = read_log_noting(path).map_err(|e| e.to_string())?;
        if let Some(w) = warning {
            eprintln!("warning: {w}");
        }
        logged.extend(records);
    }
    refuse_repeated_games(&logged)?;
    games::dispatch(
        &spec,
        Fit {
            args,
            logged: &logged,
        },
    )
    .map_err(|e| e.0)?
}

/// The most `--steps`: at 400 (the default) a fit to a thousand Hearts deals takes seconds,
/// and a run of hours with no word of progress helps nobody.
const MAX_STEPS: usize = 100_000;

/// Refuses a game that appears twice among the logs (a log given twice, or a copy of one):
/// counted twice it would weigh double, in the held-out moves too. Two games are the same
/// when the same match (game, seed, agents, budget) logged the same deal and seating with the
/// same moves (a person may play one deal of `play` twice, differently).
fn refuse_repeated_games(logged: &[Logged]) -> Result<(), String> {
    let mut seen = std::collections::HashMap::new();
    for l in logged {
        let r = &l.record;
        let key = (
            &r.game,
            r.seed,
            &r.agent_a,
            &r.agent_b,
            &r.budget,
            r.deal_index,
            r.seating_index,
            r.moves.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(),
        );
        if let Some(first) = seen.insert(key, &l.origin) {
            return Err(format!(
                "{} and {}: the same game (deal {} seating {}): was a log given twice?",
                first, l.origin, r.deal_index, r.seating_index
            ));
        }
    }
    Ok(())
}

struct Fit<'a> {
    args: &'a FitModelArgs,
    logged: &'a [Logged],
}

impl GameVisitor for Fit<'_> {
    type Output = Result<(), String>;

    fn visit<G: GameDef>(self, _config: G::Config) -> Self::Output {
        let params = G::model_params();
        if params == 0 {
            return Err(format!("{} has no learned opponent model", G::NAME));
        }
        let (mut train, mut held) = (Vec::new(), Vec::new());
        // Inference's rule-based model at its default ε, for comparison.
        let rule = InferenceConfig {
            candidates: 1,
            ..InferenceConfig::default()
        };
        let mut rule_log = (0.0, 0usize);
        // `play` logs every game as deal 0 (a person's games are not a match's numbered
        // deals): among them every fifth game is held out instead.
        let mut person_games = 0usize;
        for l in self.logged {
            let r = &l.record;
            let logged_game: Spec = r
                .game
                .parse()
                .map_err(|e: crate::spec::SpecError| format!("{}: {}", l.origin, e.0))?;
            if logged_game.name != G::NAME {
                return Err(format!("{}: a {} game, not {}", l.origin, r.game, G::NAME));
            }
            // The log's own options (Hearts's passing, Bisca's exchange) replay its games.
            let config = G::config(&logged_game).map_err(|e| format!("{}: {}", l.origin, e.0))?;
            let holdout = match r.person {
                Some(_) => {
                    person_games += 1;
                    person_games % 5 == 1
                }
                None => r.deal_index % 5 == 0,
            };
            let mut state = G::from_deal(&config, &r.deal)
                .map_err(|e| format!("{}: the logged deal: {e}", l.origin))?;
            for (i, m) in r.moves.iter().enumerate() {
                let mv = state
                    .parse_move(&m.mv)
                    .ok()
                    .filter(|&mv| !state.is_terminal() && state.legal_moves().contains(mv))
                    .ok_or_else(|| format!("{}: ply {i}: '{}' does not replay", l.origin, m.mv))?;
                if let Some(d) = Decision::at(&state, mv) {
                    if holdout {
                        held.push(d);
                        if let Some(p) = inference::move_probability(&state, mv, &rule) {
                            rule_log.0 += p.ln();
                            rule_log.1 += 1;
                        }
                    } else {
                        train.push(d);
                    }
                }
                state.play(mv);
            }
        }
        if train.is_empty() || held.is_empty() {
            return Err(format!(
                "too few moves with a choice: {} to fit, {} held out (every fifth deal is held \
                 out; give logs of at least 5 deals)",
                train.len(),
                held.len()
            ));
        }
        let settings = FitSettings {
            l2: self.args.l2,
            steps: self.args.steps,
            ..FitSettings::default()
        };
        eprintln!(
            "fitting {} parameters to {} decisions ({} held out), {} steps ...",
            params,
            train.len(),
            held.len(),
            settings.steps
        );
        let fitted = opponent_model::fit(&train, params, settings);
        if let Some(p) = fitted.iter().find(|p| p.abs() > opponent_model::MAX_PARAM) {
            return Err(format!(
                "a fitted parameter is {p}, beyond ±{}: fit again with a larger --l2",
                opponent_model::MAX_PARAM
            ));
        }
        let uniform = OpponentModel::uniform(params);
        let model = OpponentModel::from_params(fitted);
        // The rule's line only where the game lists its rule's choices (Bisca does not).
        let rule_line = (rule_log.1 > 0).then(|| {
            (
                "heuristic rule, eps 0.5 (infer_model=rule)",
                rule_log.0 / rule_log.1 as f64,
            )
        });
        let report = [("uniform", uniform.mean_log_likelihood(&held, 0.0))]
            .into_iter()
            .chain(rule_line)
            .chain([
                (
                    "fitted, training moves",
                    model.mean_log_likelihood(&train, 0.0),
                ),
                ("fitted", model.mean_log_likelihood(&held, 0.0)),
                ("fitted, eps 0.1", model.mean_log_likelihood(&held, 0.1)),
            ]);
        let mut text = format!(
            "{} opponent model: {} parameters fitted to {} decisions of {} logged games\n\
             (l2 {}, {} steps); held out: {} decisions (deals with index divisible by 5).\n\
             Mean log-likelihood of a held-out move (natural log; higher is better):\n",
            G::NAME,
            params,
            train.len(),
            self.logged.len(),
            settings.l2,
            settings.steps,
            held.len()
        );
        for (name, ll) in report {
            text.push_str(&format!("  {ll:>8.4}  {name}\n"));
        }
        out!("{text}")?;
        if let Some(out) = &self.args.out {
            let header = format!(
                "{text}Written by `cardsearch fit-model --game {} --l2 {} --steps {} LOGS`.",
                G::NAME,
                settings.l2,
                settings.steps
            );
            super::output::write_text(out, &model.to_text(&header))?;
            outln!("wrote {}", out.display())?;
        }
        Ok(())
    }
}
