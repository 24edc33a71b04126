//! Specs: a name with `key=value` options, as in `ismcts:c=0.7,dets=20` or `hearts:pass=left`.
//!
//! Agents and games are both chosen by spec. Reading an option marks it used, and
//! [`Spec::finish`] rejects any option nobody read, so a typo is an error rather than a silently
//! ignored setting.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

/// What is wrong with a spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// A parsed spec: `name` or `name:key=value,key=value`.
#[derive(Debug)]
pub struct Spec {
    /// The agent or game name.
    pub name: String,
    /// Options in the order written.
    pub options: Vec<(String, String)>,
    /// Which options have been read (a Mutex so a spec can be shared with worker threads).
    used: Mutex<Vec<bool>>,
}

impl Clone for Spec {
    fn clone(&self) -> Spec {
        Spec {
            name: self.name.clone(),
            options: self.options.clone(),
            used: Mutex::new(self.used.lock().expect("spec lock").clone()),
        }
    }
}

impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        self.name == other.name && self.options == other.options
    }
}
impl Eq for Spec {}

impl Spec {
    /// A spec with a name and no options.
    pub fn named(name: &str) -> Spec {
        Spec {
            name: name.to_string(),
            options: Vec::new(),
            used: Mutex::new(Vec::new()),
        }
    }

    /// This spec without the options named in `keys` (none of its options marked read).
    pub fn without(&self, keys: &[&str]) -> Spec {
        let mut spec = Spec::named(&self.name);
        for (k, v) in self
            .options
            .iter()
            .filter(|(k, _)| !keys.contains(&k.as_str()))
        {
            spec.set(k, v);
        }
        spec
    }

    /// Adds or replaces an option (used to apply CLI-wide settings to a side's spec).
    pub fn set(&mut self, key: &str, value: &str) {
        if let Some(i) = self.options.iter().position(|(k, _)| k == key) {
            self.options[i].1 = value.to_string();
        } else {
            self.options.push((key.to_string(), value.to_string()));
            self.used.lock().expect("spec lock").push(false);
        }
    }

    /// True when the option is present.
    pub fn has(&self, key: &str) -> bool {
        self.options.iter().any(|(k, _)| k == key)
    }

    /// The raw text of an option, marking it used.
    pub fn raw(&self, key: &str) -> Option<&str> {
        let i = self.options.iter().position(|(k, _)| k == key)?;
        self.used.lock().expect("spec lock")[i] = true;
        Some(&self.options[i].1)
    }

    /// A typed option, or `default` when absent; a value that does not parse is an error.
    pub fn get<T: FromStr>(&self, key: &str, default: T) -> Result<T, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| {
                SpecError(format!(
                    "{}: option {key}={v} is not a valid {}",
                    self.name,
                    short_type_name::<T>()
                ))
            }),
        }
    }

    /// A typed option that may also be `auto`: `None` when absent or `auto`, the value
    /// otherwise; a value that is neither is an error.
    pub fn get_or_auto<T: FromStr>(&self, key: &str) -> Result<Option<T>, SpecError> {
        match self.raw(key) {
            None | Some("auto") => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                SpecError(format!(
                    "{}: option {key}={v} must be a {} or `auto`",
                    self.name,
                    short_type_name::<T>()
                ))
            }),
        }
    }

    /// A seat option: an integer below `seats`.
    pub fn seat(&self, key: &str, default: usize, seats: usize) -> Result<usize, SpecError> {
        let seat = self.get(key, default)?;
        if seat >= seats {
            return Err(SpecError(format!(
                "{}: option {key}={seat} must be a seat 0..{}",
                self.name,
                seats - 1
            )));
        }
        Ok(seat)
    }

    /// An option that must be one of `choices`.
    pub fn choice<'c>(
        &self,
        key: &str,
        choices: &[&'c str],
        default: &'c str,
    ) -> Result<&'c str, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices.iter().copied().find(|c| *c == v).ok_or_else(|| {
                SpecError(format!(
                    "{}: option {key}={v} must be one of {}",
                    self.name,
                    choices.join(", ")
                ))
            }),
        }
    }

    /// Marks as read every option of this spec that `copy` (a copy of it, perhaps with options
    /// added, such as a preset's) has read, so that [`Spec::finish`] on this spec accepts what
    /// was read through the copy.
    pub fn mark_read_from(&self, copy: &Spec) {
        let theirs = copy.used.lock().expect("spec lock").clone();
        let mut mine = self.used.lock().expect("spec lock");
        for (i, (key, _)) in self.options.iter().enumerate() {
            if let Some(j) = copy.options.iter().position(|(k, _)| k == key) {
                mine[i] |= theirs[j];
            }
        }
    }

    /// Errors if any option was never read: it is unknown to this agent or game.
    pub fn finish(&self) -> Result<(), SpecError> {
        let used = self.used.lock().expect("spec lock");
        let unknown: Vec<&str> = self
            .options
            .iter()
            .zip(used.iter())
            .filter(|(_, u)| !**u)
            .map(|((k, _), _)| k.as_str())
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(SpecError(format!(
                "{}: unknown option{} {} (see `cardsearch agents` / `cardsearch games`)",
                self.name,
                if unknown.len() > 1 { "s" } else { "" },
                unknown.join(", ")
            )))
        }
    }
}

fn short_type_name<T>() -> &'static str {
    let n = std::any::type_name::<T>();
    match n {
        "f64" | "f32" => "number",
        "u64" | "u32" | "usize" | "u8" | "u16" => "non-negative integer",
        "i64" | "i32" => "integer",
        "bool" => "boolean (true or false)",
        _ => n.rsplit("::").next().unwrap_or(n),
    }
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Spec, SpecError> {
        let s = s.trim();
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        let valid_name = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !valid_name(name) {
            return Err(SpecError(format!(
                "malformed spec '{s}': expected NAME or NAME:key=value,key=value"
            )));
        }
        let mut options: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let Some((k, v)) = part.split_once('=') else {
                    return Err(SpecError(format!(
                        "malformed option '{part}' in spec '{s}': expected key=value"
                    )));
                };
                let (k, v) = (k.trim(), v.trim());
                if !valid_name(k) || v.is_empty() {
                    return Err(SpecError(format!(
                        "malformed option '{part}' in spec '{s}': expected key=value"
                    )));
                }
                if options.iter().any(|(key, _)| key == k) {
                    return Err(SpecError(format!("option '{k}' given twice in spec '{s}'")));
                }
                options.push((k.to_string(), v.to_string()));
            }
        }
        let n = options.len();
        Ok(Spec {
            name: name.to_string(),
            options,
            used: Mutex::new(vec![false; n]),
        })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Documentation of one option, for `cardsearch agents` / `cardsearch games` and `--help`.
#[derive(Clone, Copy, Debug)]
pub struct OptionDoc {
    /// The key.
    pub key: &'static str,
    /// The default, as written.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_options() {
        let s: Spec = "ismcts:c=0.7,threads=2".parse().unwrap();
        assert_eq!(s.name, "ismcts");
        assert_eq!(s.get("c", 1.0).unwrap(), 0.7);
        assert_eq!(s.get("threads", 1usize).unwrap(), 2);
        assert_eq!(s.get("dets", 20usize).unwrap(), 20);
        s.finish().unwrap();
        assert_eq!(s.to_string(), "ismcts:c=0.7,threads=2");
    }

    #[test]
    fn rejects_malformed_and_unknown_options() {
        for bad in [
            "",
            ":c=1",
            "ismcts:",
            "ismcts:c",
            "ismcts:c=",
            "is mcts",
            "a:c=1,c=2",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad:?} parsed");
        }
        let s: Spec = "pimc:dets=x".parse().unwrap();
        let e = s.get("dets", 20usize).unwrap_err();
        assert!(e.0.contains("dets=x"), "{e}");
        let s: Spec = "pimc:colour=red".parse().unwrap();
        assert!(s.finish().unwrap_err().0.contains("colour"));
        let s: Spec = "hearts:pass=up".parse().unwrap();
        assert!(s.choice("pass", &["left", "none"], "none").is_err());
    }
}
