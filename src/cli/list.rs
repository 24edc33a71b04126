//! `cardsearch games` and `cardsearch agents`: what exists and the options each takes.

use crate::spec::OptionDoc;

fn print_options(options: &[OptionDoc]) {
    for o in options {
        println!(
            "    {:<16} {:<12} {}",
            o.key,
            format!("[{}]", o.default),
            o.help
        );
    }
}

/// Prints every game with its options.
pub fn games() {
    println!("Games (spec: NAME or NAME:key=value,...):");
    for g in crate::games::all() {
        println!("  {:<12} {}", g.name, g.about);
        print_options(g.options);
    }
}

/// Prints every agent with its options.
pub fn agents() {
    println!("Agents (spec: NAME or NAME:key=value,...):");
    for a in crate::agents::all() {
        println!("  {:<12} {}", a.name, a.about);
        print_options(a.options);
    }
}
