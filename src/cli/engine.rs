//! `cardsearch engine`: serves the JSON-lines protocol of [`crate::protocol`] on stdin/stdout.

use std::io::{BufRead, Write};

use crate::protocol::Engine;

/// Reads requests line by line until `quit` or end of input, answering each with one line.
/// Lines that are not UTF-8 are answered with an error like any other malformed line.
pub fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut engine = Engine::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        if n == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        let reply = engine.handle(line.trim_end_matches(['\n', '\r']));
        writeln!(out, "{}", reply.line)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write stdout: {e}"))?;
        if reply.quit {
            return Ok(());
        }
    }
}
