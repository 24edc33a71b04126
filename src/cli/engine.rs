//! `cardsearch engine`: serves the JSON-lines protocol of [`crate::protocol`] on stdin/stdout.
//!
//! A reader thread takes lines off stdin while the engine works, so that a `stop` (or `quit`)
//! sent during a long `go` ends that search at once: the reader raises the engine's stop signal
//! as the line arrives, and the search replies with the best move found so far. Every line is
//! still answered in order, one reply each. Lines longer than [`MAX_LINE_BYTES`] are refused
//! without being held whole. An engine that has waited a second (`IDLE_RELEASE`) for a request
//! gives the memory its searches freed back to the operating system ([`crate::allocator`]).

use std::io::BufRead;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam::channel::RecvTimeoutError;

use super::stdout::outln;
use crate::allocator::release_idle_memory;
use crate::limits::MAX_LINE_BYTES;
use crate::protocol::{Engine, asks_to_stop};

/// How long the engine waits for a request before it gives freed memory back: longer than
/// the pause between the requests of a program driving it, short beside a person's.
const IDLE_RELEASE: Duration = Duration::from_secs(1);

/// One line read off the input.
enum Line {
    /// The line's text (invalid UTF-8 replaced, line ending removed).
    Text(String),
    /// A line of this many bytes, over the limit, read and dropped.
    TooLong(usize),
}

/// Reads one line of at most `max` bytes into `buf`; a longer line is consumed and reported by
/// its length without being kept. `None` at the end of the input.
fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<Line>> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        if total + chunk.len() <= max {
            buf.extend_from_slice(chunk);
        }
        total += chunk.len();
        let used = chunk.len() + usize::from(ends);
        input.consume(used);
        if ends {
            break;
        }
    }
    if total > max {
        return Ok(Some(Line::TooLong(total)));
    }
    let text = String::from_utf8_lossy(buf);
    Ok(Some(Line::Text(text.trim_end_matches('\r').to_string())))
}

/// Reads requests until `quit` or end of input, answering each with one line.
pub fn run() -> Result<(), String> {
    let mut engine = Engine::new();
    let stop = engine.stop_signal();
    // The number of the last `stop`/`quit` line read: a request that came before it is stopped,
    // one that came after it is not. Raising and lowering the signal happen under this lock.
    let last_stop = Arc::new(Mutex::new(0u64));
    let (tx, rx) = crossbeam::channel::unbounded::<(u64, Line)>();
    {
        let (stop, last_stop) = (stop.clone(), last_stop.clone());
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut buf = Vec::new();
            for number in 1u64.. {
                let line = match read_line(&mut input, &mut buf, MAX_LINE_BYTES) {
                    Ok(Some(line)) => line,
                    Ok(None) | Err(_) => return,
                };
                let stopping = matches!(&line, Line::Text(t) if asks_to_stop(t));
                if stopping {
                    let mut last = last_stop.lock().expect("stop lock");
                    *last = number;
                    stop.raise();
                }
                if tx.send((number, line)).is_err() {
                    return;
                }
            }
        });
    }
    loop {
        let (number, line) = match rx.recv_timeout(IDLE_RELEASE) {
            Ok(request) => request,
            Err(RecvTimeoutError::Timeout) => {
                release_idle_memory();
                match rx.recv() {
                    Ok(request) => request,
                    Err(_) => return Ok(()),
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        {
            let last = last_stop.lock().expect("stop lock");
            if *last < number {
                stop.reset();
            }
        }
        let reply = match line {
            Line::Text(text) => engine.handle(&text),
            Line::TooLong(bytes) => Engine::refuse(format!(
                "request line of {bytes} bytes refused: the limit is {MAX_LINE_BYTES} bytes"
            )),
        };
        outln!("{}", reply.line)?;
        if reply.quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut reader = std::io::BufReader::with_capacity(7, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, &mut buf, max).unwrap() {
            out.push(match line {
                Line::Text(t) => t,
                Line::TooLong(n) => format!("<{n} bytes>"),
            });
        }
        out
    }

    #[test]
    fn long_lines_are_measured_not_kept() {
        let long = "x".repeat(100);
        let input = format!("short\r\n{long}\nlast");
        assert_eq!(
            lines(input.as_bytes(), 10),
            ["short", "<100 bytes>", "last"]
        );
        assert_eq!(lines(b"", 10), Vec::<String>::new());
        assert_eq!(lines(b"\n\n", 10), ["", ""]);
    }

    #[test]
    fn stop_and_quit_lines_are_recognised() {
        assert!(asks_to_stop(r#"{"cmd":"stop"}"#));
        assert!(asks_to_stop(r#"{"id":3,"cmd":"quit"}"#));
        assert!(!asks_to_stop(r#"{"cmd":"go"}"#));
        assert!(!asks_to_stop("stop"));
        // Lines the engine refuses stop nothing.
        assert!(!asks_to_stop(r#"{"cmd":"hello","cmd":"quit"}"#));
        assert!(!asks_to_stop(r#"{"cmd":"stop","now":true}"#));
    }
}
