//! The games, one file each, and the registry that maps a game spec to a concrete type.
//!
//! Everything above this module is generic over the game type; [`dispatch`] is the one place
//! that turns a name into a type, by calling a [`GameVisitor`] with it.

use crate::game::{DealError, HiddenInfo, Rng, Seat};
use crate::spec::{OptionDoc, Spec, SpecError};

pub mod asmacag;
pub mod bisca;
pub mod coinguess;
pub mod hearts;
pub mod pentago;
pub mod portuguese;
pub mod secret;
pub mod sueca;
pub mod tricks;
pub mod unseen;

pub use asmacag::Asmacag;
pub use bisca::Bisca;
pub use coinguess::CoinGuess;
pub use hearts::Hearts;
pub use pentago::Pentago;
pub use secret::Secret;
pub use sueca::Sueca;
pub use tricks::Tricks;

/// A game the engine can set up by name: its options, random deals and explicit deals.
pub trait GameDef: HiddenInfo {
    /// The name used in specs and on the command line.
    const NAME: &'static str;
    /// One line about the game.
    const ABOUT: &'static str;
    /// The options its spec accepts.
    const OPTIONS: &'static [OptionDoc];
    /// Everything the options decide.
    type Config: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static;

    /// Reads the options of `spec` (the caller checks for unknown ones).
    fn config(spec: &Spec) -> Result<Self::Config, SpecError>;
    /// A random deal.
    fn new_game(config: &Self::Config, rng: &mut Rng) -> Self;
    /// The deal written in the game's deal notation (see `rules.md` and each game's docs).
    fn from_deal(config: &Self::Config, deal: &str) -> Result<Self, DealError>;
    /// The deal notation of this state; valid for a state that has not been played yet.
    fn deal_text(&self) -> String;
    /// `seat`'s cards in the game's notation, for games where a seat holds some.
    fn hand_text(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// What every seat sees on the table besides the plays, for a person at `observer`'s seat
    /// (`cardsearch play`): Bisca's face-up trump card and stock, ASMACAG's board, points and
    /// factor. Only what `observer` may
    /// know; `None` where the plays and the deal's header say it all.
    fn table_text(&self, _observer: Seat) -> Option<String> {
        None
    }
}

/// Something to do with a game whose type is only known at run time.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the game type chosen by the spec and its parsed configuration.
    fn visit<G: GameDef>(self, config: G::Config) -> Self::Output;
}

/// Name, description and options of one registered game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// Spec name.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Options.
    pub options: &'static [OptionDoc],
}

fn info<G: GameDef>() -> GameInfo {
    GameInfo {
        name: G::NAME,
        about: G::ABOUT,
        options: G::OPTIONS,
    }
}

/// Every registered game, in the order `cardsearch games` lists them.
pub fn all() -> Vec<GameInfo> {
    vec![
        info::<Tricks>(),
        info::<CoinGuess>(),
        info::<Sueca>(),
        info::<Bisca>(),
        info::<Hearts>(),
        info::<Asmacag>(),
        info::<Secret>(),
        info::<Pentago>(),
    ]
}

fn visit_with<G: GameDef, V: GameVisitor>(spec: &Spec, visitor: V) -> Result<V::Output, SpecError> {
    let config = G::config(spec)?;
    spec.finish()?;
    Ok(visitor.visit::<G>(config))
}

/// Calls `visitor` with the game named by `spec`; unknown names and options are errors.
pub fn dispatch<V: GameVisitor>(spec: &Spec, visitor: V) -> Result<V::Output, SpecError> {
    match spec.name.as_str() {
        Tricks::NAME => visit_with::<Tricks, V>(spec, visitor),
        CoinGuess::NAME => visit_with::<CoinGuess, V>(spec, visitor),
        Hearts::NAME => visit_with::<Hearts, V>(spec, visitor),
        Sueca::NAME => visit_with::<Sueca, V>(spec, visitor),
        Bisca::NAME => visit_with::<Bisca, V>(spec, visitor),
        Asmacag::NAME => visit_with::<Asmacag, V>(spec, visitor),
        Secret::NAME => visit_with::<Secret, V>(spec, visitor),
        Pentago::NAME => visit_with::<Pentago, V>(spec, visitor),
        other => Err(SpecError(format!(
            "unknown game '{other}' (known: {})",
            all().iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names the game a spec was dispatched to.
    struct Name;

    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: GameDef>(self, _config: G::Config) -> &'static str {
            G::NAME
        }
    }

    fn dispatched(spec: &str) -> Result<&'static str, String> {
        dispatch(&spec.parse::<Spec>().unwrap(), Name).map_err(|e| e.to_string())
    }

    #[test]
    fn every_listed_game_is_built_by_its_name_and_refuses_an_unknown_option() {
        let listed = all();
        for (i, game) in listed.iter().enumerate() {
            assert!(
                listed[..i].iter().all(|other| other.name != game.name),
                "{} is listed twice",
                game.name
            );
            assert_eq!(dispatched(game.name), Ok(game.name));
            let e = dispatched(&format!("{}:no_such_option=1", game.name)).unwrap_err();
            assert!(e.contains("no_such_option"), "{}: {e}", game.name);
        }
        // Options as documented are read; one letter off is refused.
        assert_eq!(dispatched("sueca:bandeira=tricks,dealer=0"), Ok("sueca"));
        assert!(dispatched("sueca:bandiera=tricks").is_err());
        assert_eq!(dispatched("bisca:exchange=true,leader=1"), Ok("bisca"));
        assert!(dispatched("bisca:bandiera=tricks").is_err());
        let e = dispatched("skat").unwrap_err();
        assert!(
            e.contains("unknown game 'skat'") && e.contains("sueca"),
            "{e}"
        );
    }
}
