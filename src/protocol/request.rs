//! The requests of the engine protocol, read with serde: one tagged enum, unknown fields refused.

use serde::Deserialize;
use serde_json::{Map, Value};

/// One request line, after its `id` (if any) is taken out.
///
/// Read in two steps, so that an error names the field it is about: the `cmd` picks the variant,
/// then the other fields are read into the variant's struct, which refuses unknown fields.
#[derive(Debug, PartialEq)]
pub enum Request {
    /// Who is there.
    Hello,
    /// The games and their options.
    Games,
    /// The agents and their options.
    Agents,
    /// A new game.
    New(NewGame),
    /// A move by the seat to move.
    Play(Play),
    /// The legal moves of the seat to move.
    Legal,
    /// The game as one seat knows it.
    State(StateOf),
    /// Search for the seat to move.
    Go(Go),
    /// Every legal move's exact value, in a position whose cards are all known.
    Solve(SolveFields),
    /// End the search in progress now (its `go` replies with the best move so far).
    Stop,
    /// Stop the engine.
    Quit,
}

/// The commands, in the order the protocol lists them.
pub const COMMANDS: [&str; 11] = [
    "hello", "games", "agents", "new", "play", "legal", "state", "go", "solve", "stop", "quit",
];

/// The fields of `play`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Play {
    /// The move, in the game's notation; in view mode, `"?"` for a move the viewing seat cannot
    /// see (another seat's Hearts pass).
    #[serde(rename = "move")]
    pub mv: String,
    /// The seat moving: checked against the seat to move, and needed in view mode when the
    /// viewing seat does not know who is to move.
    pub seat: Option<u64>,
    /// View mode: the viewing seat's hand after the move (cards it drew or received).
    pub hand: Option<String>,
}

/// The fields of `state`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StateOf {
    /// Whose view (by default the viewing seat, or the seat to move).
    pub seat: Option<u64>,
}

/// A command without fields.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct NoFields {}

/// The fields of `new`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game spec.
    pub game: String,
    /// A random deal from this seed; with `view`, the seed of the session's generator.
    pub seed: Option<u64>,
    /// An explicit deal.
    pub deal: Option<String>,
    /// One seat's view of the deal.
    pub view: Option<ViewSetup>,
}

/// The `view` of `new`: a seat and the deal as it sees it, `?` for cards it cannot see.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(
    deny_unknown_fields,
    expecting = r#"an object {"seat": S, "deal": "..."}"#
)]
pub struct ViewSetup {
    /// The viewing seat.
    pub seat: u64,
    /// The deal in the game's notation, `?` for every card the seat cannot see.
    pub deal: String,
}

/// The fields of `go`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Go {
    /// The agent spec (default `ismcts`).
    pub agent: Option<String>,
    /// Iteration budget.
    pub iterations: Option<u64>,
    /// Time budget in milliseconds: any positive number.
    pub time_ms: Option<f64>,
    /// The agent's generator seed.
    pub seed: Option<u64>,
    /// Also play the move.
    pub play: Option<bool>,
}

/// The fields of `solve`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SolveFields {
    /// Give up after this many search nodes (default [`SOLVE_NODE_LIMIT`]).
    pub node_limit: Option<u64>,
}

/// The node limit of a `solve` that gives none: seconds of search, where a whole deal from its
/// first card could take hours.
pub const SOLVE_NODE_LIMIT: u64 = 100_000_000;

/// Reads one request line: the request and its `id` (copied into the reply). The error names
/// what is wrong.
pub fn parse(line: &str) -> (Option<Value>, Result<Request, String>) {
    let mut map: Map<String, Value> = match serde_json::from_str::<Unrepeated>(line) {
        Ok(Unrepeated(Value::Object(m))) => m,
        Ok(_) => return (None, Err("a request must be a JSON object".into())),
        // Only a repeated key fails the read of a well-formed line: its `id` is still worth
        // sending back, so that a pipelining client can match the error to its request.
        Err(e) if e.is_data() => return (lone_id(line), Err(e.to_string())),
        Err(e) => return (None, Err(format!("not JSON: {e}"))),
    };
    let id = map.remove("id");
    let cmd = match map.remove("cmd") {
        None => return (id, Err("missing field 'cmd'".into())),
        Some(Value::String(c)) => c,
        Some(_) => return (id, Err("'cmd' must be a string".into())),
    };
    (id, request(&cmd, map))
}

/// A JSON value read with every object's keys checked for repeats. serde_json's `Value` keeps
/// the last of a repeated key, so `{"cmd":"hello","cmd":"quit"}` would quit and
/// `{"cmd":"new","seed":1,"seed":2}` deal seed 2: a field given twice is as likely a mistake
/// as a misspelt one, and is refused as one is.
struct Unrepeated(Value);

impl<'de> Deserialize<'de> for Unrepeated {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unrepeated, D::Error> {
        d.deserialize_any(UnrepeatedVisitor).map(Unrepeated)
    }
}

/// Builds [`Unrepeated`]'s value as `Value`'s own visitor does, refusing a repeated key.
struct UnrepeatedVisitor;

impl<'de> serde::de::Visitor<'de> for UnrepeatedVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(x.into())
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(s.into())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unrepeated(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Unrepeated(v) = map.next_value()?;
            if fields.insert(key.clone(), v).is_some() {
                return Err(serde::de::Error::custom(format!(
                    "field '{}' given twice",
                    crate::limits::excerpt(&key)
                )));
            }
        }
        Ok(Value::Object(fields))
    }
}

/// The `id` of a line refused for a repeated field: the top-level `id` when the line is an
/// object that gives it exactly once, and the `id`'s own value has no repeated key. `None`
/// otherwise: a repeated `id` has no one value to send back.
fn lone_id(line: &str) -> Option<Value> {
    serde_json::from_str::<LoneId>(line).ok().and_then(|l| l.0)
}

/// What [`lone_id`] reads: a line's top-level `id`, every other value skipped unread.
struct LoneId(Option<Value>);

impl<'de> Deserialize<'de> for LoneId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LoneId, D::Error> {
        d.deserialize_map(LoneIdVisitor)
    }
}

/// Reads [`LoneId`] from an object; an `id` given twice fails the read.
struct LoneIdVisitor;

impl<'de> serde::de::Visitor<'de> for LoneIdVisitor {
    type Value = LoneId;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<LoneId, A::Error> {
        let mut id = None;
        while let Some(key) = map.next_key::<String>()? {
            if key != "id" {
                map.next_value::<serde::de::IgnoredAny>()?;
            } else if id.is_some() {
                return Err(serde::de::Error::custom("'id' given twice"));
            } else {
                let Unrepeated(v) = map.next_value()?;
                id = Some(v);
            }
        }
        Ok(LoneId(id))
    }
}

fn request(cmd: &str, fields: Map<String, Value>) -> Result<Request, String> {
    let none = |r: Request| read::<NoFields>(cmd, fields.clone()).map(|_| r);
    match cmd {
        "hello" => none(Request::Hello),
        "games" => none(Request::Games),
        "agents" => none(Request::Agents),
        "legal" => none(Request::Legal),
        "stop" => none(Request::Stop),
        "quit" => none(Request::Quit),
        "new" => read(cmd, fields).map(Request::New),
        "play" => read(cmd, fields).map(Request::Play),
        "state" => read(cmd, fields).map(Request::State),
        "go" => read(cmd, fields).map(Request::Go),
        "solve" => read(cmd, fields).map(Request::Solve),
        other => Err(format!(
            "unknown command '{}' (commands: {})",
            crate::limits::excerpt(other),
            COMMANDS.join(", ")
        )),
    }
}

/// Reads a command's fields into `T`; errors name the field.
fn read<T: serde::de::DeserializeOwned>(
    cmd: &str,
    fields: Map<String, Value>,
) -> Result<T, String> {
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string().replace('`', "'");
        if path == "." {
            format!("'{cmd}': {inner}")
        } else {
            format!("'{cmd}' field '{path}': {inner}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_given_twice_is_refused_by_name_at_any_depth() {
        for (line, field) in [
            (r#"{"cmd":"new","game":"tricks","seed":1,"seed":2}"#, "seed"),
            (r#"{"cmd":"hello","cmd":"quit"}"#, "cmd"),
            (r#"{"cmd":"go","id":1,"id":2}"#, "id"),
            (
                r#"{"cmd":"new","game":"tricks","view":{"seat":1,"seat":0,"deal":"?"}}"#,
                "seat",
            ),
        ] {
            let (id, r) = parse(line);
            assert_eq!(id, None, "{line}");
            let e = r.unwrap_err();
            assert!(
                e.contains(&format!("field '{field}' given twice")),
                "{line}: {e}"
            );
            assert!(!e.starts_with("not JSON"), "{line}: {e}");
        }
        // The same keys in different objects, and every kind of value, still read.
        let (id, r) = parse(
            r#"{"cmd":"new","game":"tricks","id":[null,true,-1,2.5,{"seat":0}],"view":{"seat":1,"deal":"?"}}"#,
        );
        assert!(r.is_ok(), "{r:?}");
        assert_eq!(
            id,
            Some(serde_json::json!([null, true, -1, 2.5, {"seat": 0}]))
        );
        assert!(parse("{").1.unwrap_err().starts_with("not JSON"));
    }

    #[test]
    fn a_line_refused_for_a_repeated_field_keeps_its_id_unless_the_id_is_repeated() {
        for (line, id) in [
            (
                r#"{"cmd":"new","game":"tricks","id":5,"seed":1,"seed":2}"#,
                Some(json!(5)),
            ),
            (r#"{"id":"x","cmd":"hello","cmd":"quit"}"#, Some(json!("x"))),
            (
                r#"{"cmd":"new","id":[1,{"a":2}],"view":{"seat":1,"seat":0}}"#,
                Some(json!([1, {"a": 2}])),
            ),
            // No one id to send back: given twice, or with a repeat inside it.
            (r#"{"cmd":"go","id":1,"id":2}"#, None),
            (r#"{"cmd":"go","id":{"a":1,"a":2}}"#, None),
            (r#"{"cmd":"go","seed":1,"seed":2}"#, None),
        ] {
            let (got, r) = parse(line);
            assert!(r.unwrap_err().contains("given twice"), "{line}");
            assert_eq!(got, id, "{line}");
        }
    }

    #[test]
    fn requests_parse_and_ids_are_kept_apart() {
        let (id, r) = parse(r#"{"cmd":"go","time_ms":42.0,"id":"x","seed":3}"#);
        assert_eq!(id, Some(Value::String("x".into())));
        assert_eq!(
            r.unwrap(),
            Request::Go(Go {
                agent: None,
                iterations: None,
                time_ms: Some(42.0),
                seed: Some(3),
                play: None,
            })
        );
        let (_, r) =
            parse(r#"{"cmd":"new","game":"tricks","view":{"seat":1,"deal":"?"},"seed":4}"#);
        assert!(matches!(
            r.unwrap(),
            Request::New(NewGame { seed: Some(4), .. })
        ));
    }

    #[test]
    fn bad_requests_name_the_problem() {
        for (line, needle) in [
            ("[1]", "JSON object"),
            ("nope", "not JSON"),
            (r#"{"id":1}"#, "missing field 'cmd'"),
            (r#"{"cmd":7}"#, "'cmd' must be a string"),
            (r#"{"cmd":"fly"}"#, "unknown command 'fly'"),
            (
                r#"{"cmd":"new","game":"tricks","seed":"five"}"#,
                "field 'seed'",
            ),
            (r#"{"cmd":"legal","speed":1}"#, "unknown field 'speed'"),
            (r#"{"cmd":"play"}"#, "missing field 'move'"),
            (r#"{"cmd":"go","iterations":-1}"#, "invalid value"),
            (
                r#"{"cmd":"new","game":"tricks","view":{"seat":0,"deal":"?","seed":1}}"#,
                "unknown field 'seed'",
            ),
        ] {
            let e = parse(line).1.unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }
}
