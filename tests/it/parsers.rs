//! Property tests of everything that reads text: card and card-set notation round trips, the
//! `CardSet` algebra against a plain set, every game's deals written and read back, and the
//! deal, move, spec and protocol parsers, which must answer any input with a value or an error,
//! never a panic.

use std::collections::BTreeSet;

use cardsearch::game::rng_from_seed;
use cardsearch::games::{self, GameDef, GameVisitor};
use cardsearch::protocol::Engine;
use cardsearch::spec::Spec;
use cardsearch::{Card, CardSet, Rank, Suit};
use proptest::prelude::*;

fn any_card() -> impl Strategy<Value = Card> {
    (0..4usize, 0..13usize).prop_map(|(s, r)| Card::new(Rank::from_index(r), Suit::from_index(s)))
}

fn any_set() -> impl Strategy<Value = CardSet> {
    prop::collection::btree_set(any_card(), 0..20).prop_map(CardSet::from_cards)
}

fn plain(set: CardSet) -> BTreeSet<Card> {
    set.iter().collect()
}

/// Text that looks like the engine's inputs often enough to reach deep into the parsers: card
/// tokens, separators, headers, JSON punctuation, and arbitrary characters.
fn noisy_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        any_card().prop_map(|c| c.to_string()),
        Just("?".to_string()),
        Just("|".to_string()),
        Just("10h".to_string()),
        Just("dealer=3".to_string()),
        Just("trump=QS".to_string()),
        Just("leader=1".to_string()),
        "[a-z0-9=:,;|?{}\"\\[\\] -]{0,6}",
        any::<String>(),
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn card_notation_round_trips(card in any_card()) {
        let text = card.to_string();
        prop_assert_eq!(text.parse::<Card>().unwrap(), card);
        prop_assert_eq!(text.to_lowercase().parse::<Card>().unwrap(), card);
        if card.rank() == Rank::Ten {
            let ten = format!("10{}", card.suit().letter());
            prop_assert_eq!(ten.parse::<Card>().unwrap(), card);
        }
    }

    #[test]
    fn card_set_notation_round_trips(set in any_set()) {
        prop_assert_eq!(set.to_string().parse::<CardSet>().unwrap(), set);
    }

    #[test]
    fn card_set_algebra_matches_a_plain_set(a in any_set(), b in any_set(), k in 0..20usize) {
        let (pa, pb) = (plain(a), plain(b));
        prop_assert_eq!(plain(a | b), pa.union(&pb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(plain(a & b), pa.intersection(&pb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(plain(a - b), pa.difference(&pb).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(a.len(), pa.len());
        prop_assert_eq!(a.is_superset(b), pb.is_subset(&pa));
        // Iteration is in card order, and nth is its k-th card.
        let listed: Vec<Card> = a.iter().collect();
        prop_assert_eq!(listed.clone(), pa.iter().copied().collect::<Vec<_>>());
        if k < a.len() {
            prop_assert_eq!(a.nth(k), listed[k]);
        }
        let mut rng = rng_from_seed(k as u64);
        let sub = a.random_subset(k.min(a.len()), &mut rng);
        prop_assert_eq!(sub.len(), k.min(a.len()));
        prop_assert!(a.is_superset(sub));
        if !a.is_empty() {
            prop_assert!(a.contains(a.random(&mut rng)));
        }
    }

    #[test]
    fn card_parsers_never_panic(text in any::<String>()) {
        let _ = text.parse::<Card>();
        let _ = text.parse::<CardSet>();
    }

    #[test]
    fn spec_parser_never_panics(text in prop_oneof![noisy_text(), spec_text()]) {
        if let Ok(spec) = text.parse::<Spec>() {
            // A parsed spec builds a game, and an agent for every game, or is refused; never a
            // panic.
            let _ = games::dispatch(&spec, Nothing);
            for info in games::all() {
                games::dispatch(&Spec::named(info.name), BuildAgent(&spec)).unwrap();
            }
        }
    }

    #[test]
    fn deal_and_move_parsers_never_panic(text in prop_oneof![noisy_text(), deal_text()]) {
        for info in games::all() {
            games::dispatch(&Spec::named(info.name), ParseDeal(text.clone())).unwrap();
        }
    }

    #[test]
    fn every_games_deals_parse_and_write_back_to_themselves(seed in any::<u64>()) {
        for info in games::all() {
            games::dispatch(&Spec::named(info.name), DealtRoundTrip(seed)).unwrap();
        }
    }

    #[test]
    fn the_protocol_answers_every_line_with_one_json_object(lines in prop::collection::vec(request(), 1..12)) {
        let mut engine = Engine::new();
        for line in lines {
            let reply = engine.handle(&line);
            prop_assert!(!reply.line.contains('\n'));
            let value: serde_json::Value = serde_json::from_str(&reply.line).unwrap();
            prop_assert!(value.get("ok").is_some() != value.get("error").is_some(), "{}", reply.line);
        }
    }
}

/// The deal of a random game of one of the games, whole or with a token dropped or two tokens
/// swapped: deals that parse (as their own game's, so `ParseDeal`'s round trip runs), deals of
/// other games, and near-deals.
fn deal_text() -> impl Strategy<Value = String> {
    let games = games::all().len();
    (
        0..games,
        any::<u64>(),
        0..3u8,
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(game, seed, edit, i, j)| {
            let name = games::all()[game].name;
            let text = games::dispatch(&Spec::named(name), DealText(seed)).unwrap();
            let mut tokens: Vec<&str> = text.split_whitespace().collect();
            if tokens.is_empty() || edit == 0 {
                return text;
            }
            let (i, j) = (i.index(tokens.len()), j.index(tokens.len()));
            if edit == 1 {
                tokens.remove(i);
            } else {
                tokens.swap(i, j);
            }
            tokens.join(" ")
        })
}

/// The deal text of a new game dealt from a seed.
struct DealText(u64);

impl GameVisitor for DealText {
    type Output = String;
    fn visit<G: GameDef>(self, config: G::Config) -> String {
        G::new_game(&config, &mut rng_from_seed(self.0)).deal_text()
    }
}

/// A new game's deal text parses back to the same game, which writes the same text.
struct DealtRoundTrip(u64);

impl GameVisitor for DealtRoundTrip {
    type Output = ();
    fn visit<G: GameDef>(self, config: G::Config) {
        let g = G::new_game(&config, &mut rng_from_seed(self.0));
        let text = g.deal_text();
        let parsed = G::from_deal(&config, &text)
            .unwrap_or_else(|e| panic!("{}: its own deal {text:?}: {e}", G::NAME));
        assert_eq!(parsed.deal_text(), text, "{}", G::NAME);
        assert_eq!(format!("{parsed:?}"), format!("{g:?}"), "{}", G::NAME);
    }
}

/// Agent specs built from the agents' names and option keys (read from the agents' own option
/// lists, so a new option is covered too, with an unknown name and key beside them) and values
/// of the kinds they take (and some they do not), so that most parse and reach the options'
/// checks for every game.
fn spec_text() -> impl Strategy<Value = String> {
    let agents = cardsearch::agents::all();
    let mut names: Vec<&'static str> = agents.iter().map(|a| a.name).collect();
    names.push("alphazero");
    let mut keys: Vec<&'static str> = agents
        .iter()
        .flat_map(|a| a.options.iter().map(|o| o.key))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    keys.push("bogus");
    let name = prop::sample::select(names);
    let key = prop::sample::select(keys);
    let value = prop::sample::select(vec![
        "0",
        "1",
        "2",
        "0.5",
        "-1",
        "1e9",
        "99999999999",
        "true",
        "random",
        "heuristic",
        "model",
        "nast",
        "nast:n=3",
        "nast:n=9",
        "epic",
        "gibbs:tau=0",
        "ucb1:c=2",
        "roulette",
        "egreedy:epsilon=2",
        "pwl",
        "mix:w=0.3",
        "mix:w=7",
        "sd",
        "wl",
        "rank",
        "sequential",
        "tree",
        "root",
        "leaf",
        "tree-locked",
        "thread",
        "shared",
        "learned",
        "rule",
        "thesis",
        "strong",
        "vote",
        "mean",
        "auto",
        "",
        "x",
    ]);
    (name, prop::collection::vec((key, value), 0..5)).prop_map(|(name, options)| {
        let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if options.is_empty() {
            name.to_string()
        } else {
            format!("{name}:{}", options.join(","))
        }
    })
}

/// Protocol lines: real requests (some with wrong values), noise, and their mixtures.
fn request() -> impl Strategy<Value = String> {
    let game = prop_oneof![
        Just("tricks"),
        Just("sueca"),
        Just("bisca"),
        Just("hearts:pass=left"),
        Just("coinguess"),
        Just("asmacag:hand=4,board=6"),
        Just("secret"),
        Just("pentago-swap"),
        Just("chess")
    ];
    let agent = prop::sample::select(vec![
        "ismcts",
        "mo-ismcts",
        "pimc:dets=2",
        "uct",
        "ismcts:playout=nast",
        "ismcts:reuse=true",
        "osla",
        "ntboe",
        "pentago-strong",
    ]);
    prop_oneof![
        (game.clone(), any::<u64>())
            .prop_map(|(g, s)| format!(r#"{{"cmd":"new","game":"{g}","seed":{s}}}"#)),
        (game, 0..5u64, noisy_text()).prop_map(|(g, seat, d)| {
            serde_json::json!({"cmd": "new", "game": g, "view": {"seat": seat, "deal": d}})
                .to_string()
        }),
        (any_card(), 0..5u64)
            .prop_map(|(c, s)| format!(r#"{{"cmd":"play","move":"{c}","seat":{s}}}"#)),
        Just(r#"{"cmd":"play","move":"?"}"#.to_string()),
        Just(r#"{"cmd":"legal"}"#.to_string()),
        Just(r#"{"cmd":"state"}"#.to_string()),
        (1..300u64).prop_map(|n| format!(r#"{{"cmd":"go","agent":"ismcts","iterations":{n}}}"#)),
        (agent, 1..100u64)
            .prop_map(|(a, n)| format!(r#"{{"cmd":"go","agent":"{a}","iterations":{n}}}"#)),
        (0..20_000u64).prop_map(|n| format!(r#"{{"cmd":"solve","node_limit":{n}}}"#)),
        Just(r#"{"cmd":"go","agent":"random","play":true}"#.to_string()),
        noisy_text(),
    ]
}

struct Nothing;

impl GameVisitor for Nothing {
    type Output = ();
    fn visit<G: GameDef>(self, _config: G::Config) {}
}

/// Builds the spec's agent for the game: an agent or an error, never a panic.
struct BuildAgent<'a>(&'a Spec);

impl GameVisitor for BuildAgent<'_> {
    type Output = ();
    fn visit<G: GameDef>(self, _config: G::Config) {
        let _ = cardsearch::agents::build::<G>(self.0);
    }
}

/// Parses a text as a deal of the game, and its tokens as moves of a fresh deal.
struct ParseDeal(String);

impl GameVisitor for ParseDeal {
    type Output = ();
    fn visit<G: GameDef>(self, config: G::Config) {
        if let Ok(g) = G::from_deal(&config, &self.0) {
            // A deal that parses writes back to itself.
            let again = G::from_deal(&config, &g.deal_text()).expect("its own deal text");
            assert_eq!(again.deal_text(), g.deal_text());
        }
        let g = G::new_game(&config, &mut rng_from_seed(1));
        for token in self.0.split_whitespace() {
            let _ = g.parse_move(token);
        }
    }
}
