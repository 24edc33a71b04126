#!/usr/bin/env python3
"""How fast `stop` ends a long search, in every parallel mode.

For each agent: start `cardsearch engine`, set up a Sueca deal, send a `go` with a one-minute
budget, wait, send `stop`, and time how long the `go` reply takes to arrive after the `stop`
was written. Then report each agent's median and worst over the repeats, and the engine's
resident memory before the first search and after the last.

    python3 scripts/stop_latency.py [--binary target/release/cardsearch] [--repeats 5] [--wait 1.0]

(--binary defaults to the repository's target/release/cardsearch, wherever this is run from.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

AGENTS = [
    "ismcts",
    "ismcts:parallel=root,threads=2",
    "ismcts:parallel=tree,threads=2",
    "ismcts:parallel=tree-locked,threads=2",
    "ismcts:parallel=leaf,threads=2",
    "pimc:parallel=tree,threads=2",
]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "cardsearch"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--wait", type=float, default=1.0, help="seconds of search before stop")
    args = ap.parse_args()
    if args.repeats < 1:
        sys.exit(f"stop_latency.py: --repeats must be at least 1, not {args.repeats}")
    if not 0 <= args.wait < 60:
        sys.exit(f"stop_latency.py: --wait must be from 0 to under 60 seconds (the go's budget), "
                 f"not {args.wait:g}")
    try:
        engine = subprocess.Popen([args.binary, "engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        sys.exit(f"stop_latency.py: cannot run the engine {args.binary}: {e.strerror} (build it "
                 "with `cargo build --release`, or pass --binary)")

    def send(request):
        engine.stdin.write(json.dumps(request) + "\n")
        engine.stdin.flush()

    def reply(ok):
        """The next reply, which must be `{"ok": ok, ...}`; exits naming what came instead."""
        line = engine.stdout.readline()
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or answer.get("ok") != ok:
            engine.kill()
            sys.exit(f"stop_latency.py: {args.binary} answered {line.strip() or 'nothing'!r} "
                     f"where a '{ok}' reply was due")
        return answer

    send({"cmd": "new", "game": "sueca", "seed": 1})
    reply("new")
    idle = rss_kib(engine.pid)
    print(f"{'agent':40} {'median ms':>10} {'worst ms':>9} {'iterations':>11}")
    for agent in AGENTS:
        latencies, iterations = [], []
        for _ in range(args.repeats):
            send({"cmd": "go", "agent": agent, "time_ms": 60000})
            time.sleep(args.wait)
            sent = time.perf_counter()
            send({"cmd": "stop"})
            go = reply("go")
            latencies.append((time.perf_counter() - sent) * 1e3)
            reply("stop")
            iterations.append(go["iterations"])
        print(f"{agent:40} {statistics.median(latencies):10.2f} {max(latencies):9.2f} "
              f"{int(statistics.median(iterations)):11d}")
    send({"cmd": "go", "agent": "random"})
    reply("go")
    time.sleep(0.5)
    print(f"resident memory: {idle} KiB before the first search, {rss_kib(engine.pid)} KiB after "
          "the last (its agent and trees dropped)")
    send({"cmd": "quit"})
    engine.wait()


if __name__ == "__main__":
    main()
