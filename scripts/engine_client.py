"""A `cardsearch engine` process driven over its JSON-lines protocol (docs/protocol.md)."""

import json
import os
import subprocess
import sys


def pin_to_one_cpu(cpu):
    """Keeps this process, and every process it starts after, to one CPU: `cpu` (a number as
    given to `--cpu`), or the first this process may use when it is None. Returns the CPU.
    Exits with a one-line error naming `--cpu` when it is not a CPU this process may use.

    On a VM whose vCPUs run at different speeds, processes left where they start can each keep
    a different one for a whole run, so two sides timed against each other run on one CPU
    (docs/performance.md, "One CPU for both sides")."""
    allowed = os.sched_getaffinity(0)
    try:
        chosen = min(allowed) if cpu is None else int(cpu)
    except ValueError:
        sys.exit(f"error: --cpu={cpu!r} must be a CPU number or 'all'")
    if chosen not in allowed:
        sys.exit(f"error: --cpu={cpu!r}: this process may run on CPUs {sorted(allowed)} only")
    os.sched_setaffinity(0, {chosen})
    return chosen


class EngineError(RuntimeError):
    """A request the engine refused; `error` is its reason as the engine gave it."""

    def __init__(self, request, error):
        super().__init__(f"{request}: {error}")
        self.error = error


class Engine:
    """One `cardsearch engine` process: one JSON request a line, one reply a line."""

    def __init__(self, binary):
        """Starts `binary engine`; exits with a one-line error when it cannot be run (not built,
        or a wrong path)."""
        try:
            self.p = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        except OSError as e:
            sys.exit(f"error: cannot run the engine {binary}: {e.strerror} "
                     "(build it with `cargo build --release`)")

    def ask(self, **request):
        """Sends `request`; returns the reply, or raises EngineError (a RuntimeError) with the
        engine's error."""
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine exited on {request}")
        reply = json.loads(line)
        if "error" in reply:
            raise EngineError(request, reply["error"])
        return reply

    def cpu_s(self):
        """The engine process's CPU time so far, in seconds (Linux)."""
        with open(f"/proc/{self.p.pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9

    def close(self):
        try:
            self.ask(cmd="quit")
        except (RuntimeError, BrokenPipeError, ValueError):
            pass
        self.p.wait()
