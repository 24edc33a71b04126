//! Every text parser on arbitrary input: cards, card sets, specs (and the games they build, and
//! the agents they build for every game), each game's deals and moves. None may panic; a deal that parses writes back to a
//! deal that parses to the same text.
#![no_main]

use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::spec::Spec;
use cardsearch::{Card, CardSet};
use libfuzzer_sys::fuzz_target;

struct Parse<'a>(&'a str, Option<&'a Spec>);

impl GameVisitor for Parse<'_> {
    type Output = ();
    fn visit<G: GameDef>(self, config: G::Config) {
        if let Ok(g) = G::from_deal(&config, self.0) {
            let text = g.deal_text();
            let again = G::from_deal(&config, &text).expect("a deal's own text parses");
            assert_eq!(again.deal_text(), text);
        }
        if let Some(spec) = self.1 {
            let _ = cardsearch::agents::build::<G>(spec);
        }
        let g = G::new_game(&config, &mut rng_from_seed(0));
        for token in self.0.split_whitespace().take(64) {
            let _ = g.parse_move(token);
        }
    }
}

struct Nothing;

impl GameVisitor for Nothing {
    type Output = ();
    fn visit<G: GameDef>(self, _: G::Config) {}
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = text.parse::<Card>();
    let _ = text.parse::<CardSet>();
    let spec = text.parse::<Spec>().ok();
    if let Some(spec) = &spec {
        let _ = games::dispatch(spec, Nothing);
    }
    for info in games::all() {
        games::dispatch(&Spec::named(info.name), Parse(&text, spec.as_ref()))
            .expect("a registered game");
    }
});
