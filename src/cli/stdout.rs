//! The subcommands' results on standard output, with write failures as errors.
//!
//! `println!` panics when standard output cannot be written: a reader that closed its end of a
//! pipe (`cardsearch agents | head -1`), a full disk. [`outln!`] and [`out!`] write the same
//! text but return the failure as the command's error, so it ends with one line and a non-zero
//! status, never a panic. A closed pipe is the reader's choice, not a fault: [`super::run`]
//! ends quietly with status 141, as a process killed by SIGPIPE reports to the shell.

use std::fmt;
use std::io::{ErrorKind, Write};

/// The error text of a write to a pipe whose reader has gone; [`super::run`] ends quietly on it.
pub const CLOSED: &str = "standard output was closed by its reader";

/// The exit status for [`CLOSED`]: 128 + SIGPIPE, what a shell reports for `yes | head -1`'s `yes`.
pub const CLOSED_STATUS: i32 = 141;

/// Writes `args` to standard output; a failure becomes the command's error.
pub fn write(args: fmt::Arguments) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            ErrorKind::BrokenPipe => CLOSED.to_string(),
            _ => format!("cannot write standard output: {e}"),
        })
}

/// `println!` for a subcommand's results: a `Result<(), String>` to pass on with `?`.
macro_rules! outln {
    () => {
        $crate::cli::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for a subcommand's results: a `Result<(), String>` to pass on with `?`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!($($arg)*))
    };
}

pub(crate) use {out, outln};
