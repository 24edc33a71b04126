//! `cardsearch games` and `cardsearch agents`: what exists and the options each takes.

use super::stdout::outln;
use crate::spec::OptionDoc;

fn print_options(options: &[OptionDoc]) -> Result<(), String> {
    for o in options {
        outln!(
            "    {:<16} {:<12} {}",
            o.key,
            format!("[{}]", o.default),
            o.help
        )?;
    }
    Ok(())
}

/// Prints every game with its options.
pub fn games() -> Result<(), String> {
    outln!("Games (spec: NAME or NAME:key=value,...):")?;
    for g in crate::games::all() {
        outln!("  {:<12} {}", g.name, g.about)?;
        print_options(g.options)?;
    }
    Ok(())
}

/// Prints every agent with its options.
pub fn agents() -> Result<(), String> {
    outln!("Agents (spec: NAME or NAME:key=value,...):")?;
    for a in crate::agents::all() {
        outln!("  {:<12} {}", a.name, a.about)?;
        print_options(a.options)?;
    }
    Ok(())
}
