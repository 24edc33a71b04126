"""A `cardsearch engine` process driven over its JSON-lines protocol (docs/protocol.md)."""

import json
import subprocess


class Engine:
    """One `cardsearch engine` process: one JSON request a line, one reply a line."""

    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def ask(self, **request):
        """Sends `request`; returns the reply, or raises RuntimeError with the engine's error."""
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine exited on {request}")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{request}: {reply['error']}")
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
