//! The command-line interface: one file per subcommand. `main.rs` only calls [`run`].

use clap::{Parser, Subcommand};

pub mod list;
pub mod match_cmd;

/// cardsearch: fast, parallel Monte Carlo tree search for hidden-information card games.
#[derive(Parser, Debug)]
#[command(name = "cardsearch", version, about, long_about = None)]
pub struct Cli {
    /// What to do; with none, a short Tricks match between ISMCTS and PIMC.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a fair match between two agents and report the first agent's score.
    Match(match_cmd::MatchArgs),
    /// List the games and their options.
    Games,
    /// List the agents and their options.
    Agents,
}

/// Parses the command line and runs it. Returns the process exit code; errors are printed as one
/// line on stderr.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return 0;
            }
            let text = e.render().to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            eprintln!("{} (see --help)", first.trim());
            return 2;
        }
    };
    let result = match cli.command {
        None => match_cmd::run(&match_cmd::MatchArgs::default_short()),
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::Games) => {
            list::games();
            Ok(())
        }
        Some(Command::Agents) => {
            list::agents();
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
