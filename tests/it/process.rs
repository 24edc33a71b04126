//! Child processes for the tests, never waited on forever: every run of the binary (or of a
//! script) ends by a deadline, after which it is killed and the test fails naming the command.
//! The deadlines are hang guards, far above what any of these runs takes on a loaded machine,
//! and no test asserts how long anything took.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a run of the binary may take before a test calls it hung: minutes, where the
/// slowest run in the suite takes seconds even in a debug build on two busy cores.
pub const DEADLINE: Duration = Duration::from_secs(300);

/// A command for the binary under test.
pub fn cardsearch() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cardsearch"))
}

/// `program ARGS`, as a test names it in a failure.
fn describe(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    let text = words.join(" ");
    if text.len() > 300 {
        format!("{}…", &text[..text.floor_char_boundary(300)])
    } else {
        text
    }
}

/// Runs `cmd` to its end with no input, capturing its output, as `Command::output` does but
/// killing it after [`DEADLINE`]: the test then fails naming the command.
pub fn output(cmd: &mut Command) -> Output {
    let child = spawn(
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    finish(child, &describe(cmd))
}

/// Runs `cmd` with `input` as its whole standard input (written from a thread, so a child that
/// does not read cannot block the test), capturing its output, killed after [`DEADLINE`].
pub fn output_with_input(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = spawn(
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    feed(&mut child, input);
    finish(child, &describe(cmd))
}

/// Writes `input` to a started child's piped standard input from a thread, then closes it: a
/// child that does not read cannot block the test.
pub fn feed(child: &mut Child, input: &[u8]) {
    let mut stdin = child.stdin.take().expect("the child's input is piped");
    let input = input.to_vec();
    // A write refused because the child ended first is no failure of the test's own.
    std::thread::spawn(move || stdin.write_all(&input));
}

/// Runs `cmd` with no input, capturing its output, and kills it after `limit`: `None` if it had
/// not ended by then.
pub fn output_within(cmd: &mut Command, limit: Duration) -> Option<Output> {
    let child = spawn(
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    finish_within(child, limit).ok()
}

/// Spawns `cmd`, failing the test with its name if it cannot start.
pub fn spawn(cmd: &mut Command) -> Child {
    cmd.spawn()
        .unwrap_or_else(|e| panic!("`{}` did not start: {e}", describe(cmd)))
}

/// Waits for a started child to end, reading whatever of its standard output and error was
/// piped (from threads, so a child with much to say never blocks on a full pipe); kills it after
/// [`DEADLINE`] and fails the test naming `what`.
pub fn finish(child: Child, what: &str) -> Output {
    finish_within(child, DEADLINE)
        .unwrap_or_else(|_| panic!("`{what}` did not end within {DEADLINE:?} and was killed"))
}

/// As [`finish`] with the limit `limit`; `Err` with what it had said if the child was killed.
fn finish_within(mut child: Child, limit: Duration) -> Result<Output, Output> {
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        pipe.map(|mut p| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = p.read_to_end(&mut bytes);
                bytes
            })
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let ended = wait_until(&mut child, Instant::now() + limit);
    let status = match ended {
        Some(status) => status,
        None => {
            let _ = child.kill();
            child.wait().expect("a killed child is reaped")
        }
    };
    let collect = |h: Option<JoinHandle<Vec<u8>>>| h.map(|h| h.join().unwrap()).unwrap_or_default();
    let out = Output {
        status,
        stdout: collect(stdout),
        stderr: collect(stderr),
    };
    if ended.is_some() { Ok(out) } else { Err(out) }
}

/// Polls `child` until it ends or `deadline` passes (`None`).
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for `child` to end, killing it after [`DEADLINE`] and failing the test naming `what`.
pub fn wait(child: &mut Child, what: &str) -> ExitStatus {
    wait_until(child, Instant::now() + DEADLINE).unwrap_or_else(|| {
        let _ = child.kill();
        let _ = child.wait();
        panic!("`{what}` did not end within {DEADLINE:?} and was killed")
    })
}

/// A child spoken to one line at a time: its standard output is read line by line from a
/// thread and its input written from another, so no read or write of the test's blocks; every
/// read waits at most until the session's deadline, when the child is killed and the test fails.
/// Dropping the session (a test that failed half-way included) kills the child.
pub struct Session {
    child: Child,
    what: String,
    deadline: Instant,
    input: Option<Sender<Vec<u8>>>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Session {
    /// Starts `cmd` with piped input and output (standard error as `cmd` sets it, drained if
    /// piped), with [`DEADLINE`] for the whole session.
    pub fn start(cmd: &mut Command) -> Session {
        let what = describe(cmd);
        let mut child = spawn(cmd.stdin(Stdio::piped()).stdout(Stdio::piped()));
        let mut stdin: ChildStdin = child.stdin.take().unwrap();
        let (input, to_write) = channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for bytes in to_write {
                if stdin
                    .write_all(&bytes)
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    // The child closed its input (it ended): what it did not read, the test
                    // finds out from its replies.
                    return;
                }
            }
        });
        let (line_tx, lines) = channel();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if line.ends_with(b"\n") {
                            line.pop();
                        }
                        if line_tx
                            .send(String::from_utf8_lossy(&line).into_owned())
                            .is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = child.stderr.take().map(|mut p| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = p.read_to_end(&mut bytes);
                bytes
            })
        });
        Session {
            child,
            what,
            deadline: Instant::now() + DEADLINE,
            input: Some(input),
            lines,
            stderr,
        }
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `bytes` to the child's input, without waiting for the child to read them.
    pub fn write(&mut self, bytes: &[u8]) {
        self.input
            .as_ref()
            .expect("the input is still open")
            .send(bytes.to_vec())
            .expect("the input writer runs");
    }

    /// Writes one line (`line` and an end of line).
    pub fn send(&mut self, line: &str) {
        self.write(format!("{line}\n").as_bytes());
    }

    /// Closes the child's input once everything written has gone.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next line of the child's output without its end of line, or `None` once the output
    /// has ended; kills the child and fails the test if none comes by the deadline.
    pub fn line(&mut self) -> Option<String> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "`{}` gave no line within {DEADLINE:?} of its start and was killed",
                    self.what
                )
            }
        }
    }

    /// Waits for the child to end (its input left as it is), by the session's deadline; returns
    /// its status and what it wrote to standard error if that was piped.
    pub fn finish(&mut self) -> (ExitStatus, String) {
        let status = wait_until(&mut self.child, self.deadline).unwrap_or_else(|| {
            let _ = self.child.kill();
            let _ = self.child.wait();
            panic!(
                "`{}` did not end within {DEADLINE:?} of its start and was killed",
                self.what
            )
        });
        let stderr = self
            .stderr
            .take()
            .map(|h| h.join().unwrap())
            .unwrap_or_default();
        (status, String::from_utf8_lossy(&stderr).into_owned())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Kill does nothing to a child already reaped by `finish`.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fails the test instead of hanging it when work inside the test process does not end: after
/// `limit` the whole test binary is aborted, the one way to end a thread that will not stop.
/// Dropping the guard disarms it, whether the test ended or failed first (a failed assertion
/// must not abort the suite's other tests minutes later).
pub struct Watchdog(Arc<(Mutex<bool>, Condvar)>);

impl Watchdog {
    pub fn arm(limit: Duration, what: &'static str) -> Watchdog {
        let shared = Arc::new((Mutex::new(false), Condvar::new()));
        let seen = shared.clone();
        std::thread::spawn(move || {
            let (disarmed, wake) = &*seen;
            let guard = disarmed.lock().unwrap_or_else(|e| e.into_inner());
            let (guard, _) = wake
                .wait_timeout_while(guard, limit, |d| !*d)
                .unwrap_or_else(|e| e.into_inner());
            if !*guard {
                eprintln!("{what} did not end within {limit:?}");
                std::process::abort();
            }
        });
        Watchdog(shared)
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (disarmed, wake) = &*self.0;
        *disarmed.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
    }
}
