#!/usr/bin/env python3
"""Before/after search speed of two engine builds on the bench positions, in one command.

    python3 scripts/ab_speed.py main HEAD                      # build both revisions, time them
    python3 scripts/ab_speed.py main HEAD --rounds 10 --agent ismcts --agent pimc
    python3 scripts/ab_speed.py main HEAD --callgrind          # instructions per iteration instead
    python3 scripts/ab_speed.py OLD_BINARY NEW_BINARY          # prebuilt `cardsearch` binaries

A and B are git revisions (each built once with `cargo build --release` in a detached worktree
under target/ab/, sharing this checkout's target directory for dependencies; the binary is kept
as target/ab/cardsearch-<commit>) or paths to `cardsearch` binaries. Both are driven through the
engine protocol (`docs/protocol.md`), which every revision speaks, on the positions of
benches/positions.jsonl.

Timing: in each round, every position and agent is searched by A and by B with the same seed
(`--iterations` per search, 10,000 by default), back to back and in alternating order, so both
sides of each ratio see the same machine. A search's time is the engine process's CPU time over the `go` request (Linux
/proc/PID/schedstat, in nanoseconds), which leaves out the time the process waited for a core
on a loaded machine; `--wall` uses the search's own `time_ms` instead. Per game the script
prints the median over positions of each side's median iterations/s over rounds, and of the
per-position B/A ratio.

Placement: both engines run on one CPU (`--cpu`, by default the first this script may use),
unless an agent searches with several threads (`threads=N`, N > 1), which need every CPU. Left
to the scheduler, each engine process tends to stay on the CPU it started on, and on a VM
whose vCPUs run at different speeds (docs/performance.md, "One CPU for both sides") that gave
one build the faster vCPU for a whole run: two copies of the same binary read B/A 0.74-1.03,
and 0.97-1.04 on one CPU.

Decisions: the first round also compares the two builds' root statistics (move, visits,
availability, mean) for every position: "identical" means the searches computed exactly the
same thing. Only sequential searches are compared (parallel ones are not reproducible).

Callgrind (`--callgrind`): instructions per iteration of each build at each position, from two
runs under `valgrind --tool=callgrind` (1 and 1 + N iterations; the difference over N), which
stays repeatable on a loaded machine.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

from engine_client import pin_to_one_cpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(rev):
    """The path of a `cardsearch` binary for `rev`: a file as is, else a git revision built."""
    if os.path.isfile(rev) and os.access(rev, os.X_OK):
        return os.path.abspath(rev)
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", rev + "^{commit}"],
                           cwd=ROOT, text=True, capture_output=True)
    if found.returncode != 0:
        sys.exit(f"error: {rev!r} is neither an executable file nor a git revision")
    commit = found.stdout.strip()
    ab = os.path.join(ROOT, "target", "ab")
    binary = os.path.join(ab, "cardsearch-" + commit[:12])
    if os.path.exists(binary):
        return binary
    tree = os.path.join(ab, "src-" + commit[:12])
    if not os.path.exists(tree):
        subprocess.check_call(["git", "worktree", "add", "--detach", tree, commit], cwd=ROOT)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(ROOT, "target"))
    print(f"building {rev} ({commit[:12]}) ...", file=sys.stderr)
    subprocess.check_call(["cargo", "build", "--release", "--bin", "cardsearch"], cwd=tree,
                          env=env)
    os.replace(os.path.join(ROOT, "target", "release", "cardsearch"), binary)
    subprocess.check_call(["git", "worktree", "remove", "--force", tree], cwd=ROOT)
    return binary


def requests(position, agent, iterations, seed):
    """Engine requests that set up `position` and search it once."""
    out = [{"cmd": "new", "game": position["game"], "deal": position["deal"]}]
    out += [{"cmd": "play", "move": m} for m in position["moves"]]
    out.append({"cmd": "go", "agent": agent, "iterations": iterations, "seed": seed})
    return out


class Engine:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)

    def ask(self, request):
        self.p.stdin.write(json.dumps(request) + "\n")
        self.p.stdin.flush()
        reply = json.loads(self.p.stdout.readline())
        if "error" in reply:
            raise RuntimeError(f"{request}: {reply['error']}")
        return reply

    def cpu_ns(self):
        with open(f"/proc/{self.p.pid}/schedstat") as f:
            return int(f.read().split()[0])

    def search(self, position, agent, iterations, seed):
        """The `go` reply, with the CPU seconds the engine spent on it as `cpu_s`."""
        *setup, go = requests(position, agent, iterations, seed)
        for r in setup:
            self.ask(r)
        before = self.cpu_ns()
        reply = self.ask(go)
        reply["cpu_s"] = (self.cpu_ns() - before) / 1e9
        return reply

    def close(self):
        try:
            self.p.stdin.write('{"cmd":"quit"}\n')
            self.p.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        self.p.wait()


def instructions(binary, position, agent, iterations, seed):
    """Instructions executed by one engine process that searches `position` once.

    Requests go one reply at a time: the engine stops a running `go` as soon as it reads `quit`,
    so piping every request at once would time a search stopped at once."""
    try:
        proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                 binary, "engine"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"error: --callgrind needs valgrind: {e.strerror}")
    for request in requests(position, agent, iterations, seed):
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        if "error" in reply:
            raise RuntimeError(f"{request}: {reply['error']}")
    if reply.get("iterations") != iterations:
        raise RuntimeError(f"searched {reply.get('iterations')} iterations, not {iterations}")
    proc.stdin.write('{"cmd":"quit"}\n')
    proc.stdin.flush()
    _, err = proc.communicate()
    for line in err.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise RuntimeError("no callgrind total in: " + err[-500:])


def load_positions(path, games):
    """The positions of `path` (JSON lines of label, game, deal, moves), those of `games` only
    where given; exits with a one-line error for a file that cannot be read, a bad line, a game
    with no position, or no position at all."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = list(enumerate(f, 1))
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"error: --positions {path}: {getattr(e, 'strerror', None) or e}")
    positions = []
    for number, line in lines:
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            if not (isinstance(p["label"], str) and isinstance(p["game"], str)
                    and isinstance(p["deal"], str) and isinstance(p["moves"], list)):
                raise TypeError("label, game and deal must be text, moves a list")
        except (ValueError, KeyError, TypeError) as e:
            sys.exit(f"error: {path}:{number}: not a bench position ({e!r})")
        positions.append(p)
    have = list(dict.fromkeys(p["game"] for p in positions))
    for game in games or []:
        if game not in have:
            sys.exit(f"error: --game {game}: no position of it in {path} (its games: "
                     f"{', '.join(have) or 'none'})")
    if games:
        positions = [p for p in positions if p["game"] in games]
    if not positions:
        sys.exit(f"error: no positions in {path}")
    return positions


def place(cpu, agents):
    """Puts this script, and so both engines it starts, on one CPU (`--cpu`), unless `--cpu all`
    or (by default) an agent searches with several threads. Returns what it did, for the log."""
    threads = [int(m) for a in agents for m in re.findall(r"threads=(\d+)", a)]
    if cpu == "all" or (cpu is None and any(t > 1 for t in threads)):
        return "engines placed by the scheduler"
    return f"both engines on CPU {pin_to_one_cpu(cpu)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--agent", action="append", help="agent spec (repeatable; default ismcts)")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--wall", action="store_true", help="time by wall clock, not CPU time")
    ap.add_argument("--positions", default=os.path.join(ROOT, "benches", "positions.jsonl"))
    ap.add_argument("--cpu", help="the CPU both engines run on, or 'all' to leave placement to "
                    "the scheduler (default: the first CPU this script may use, unless an agent "
                    "searches with several threads)")
    args = ap.parse_args()
    for name in ("iterations", "rounds"):
        if getattr(args, name) < 1:
            sys.exit(f"error: --{name} must be at least 1, not {getattr(args, name)}")
    agents = args.agent or ["ismcts"]
    positions = load_positions(args.positions, args.game)
    bins = {"A": build(args.a), "B": build(args.b)}
    print(f"A = {args.a} ({bins['A']})\nB = {args.b} ({bins['B']})")
    games = list(dict.fromkeys(p["game"] for p in positions))
    try:
        run(args, agents, positions, bins, games)
    except RuntimeError as e:  # a request an engine refused: an unknown agent or option, …
        sys.exit(f"error: {e}")


def run(args, agents, positions, bins, games):
    """Times (or, with --callgrind, counts the instructions of) every agent at every position
    on both builds and prints the table; RuntimeError where an engine refuses a request."""
    if args.callgrind:
        n = args.iterations
        print(f"instructions per iteration (callgrind, {n} iterations, seed 1)")
        for agent in agents:
            for game in games:
                rows = []
                for p in (p for p in positions if p["game"] == game):
                    per = {}
                    for side, binary in bins.items():
                        one = instructions(binary, p, agent, 1, 1)
                        many = instructions(binary, p, agent, 1 + n, 1)
                        per[side] = (many - one) / n
                    rows.append(per)
                    print(f"  {agent:30} {p['label']:20} A {per['A']:8.0f}  B {per['B']:8.0f}"
                          f"  B/A {per['B'] / per['A']:.3f}")
                med = {s: statistics.median(r[s] for r in rows) for s in bins}
                print(f"{agent:30} {game:8} median A {med['A']:8.0f}  B {med['B']:8.0f}  "
                      f"B/A {med['B'] / med['A']:.3f}")
        return

    print(place(args.cpu, agents))
    engines = {s: Engine(b) for s, b in bins.items()}
    try:
        rates, same, differ = time_searches(args, agents, positions, engines)
    finally:
        for e in engines.values():
            e.close()
    report(args, agents, positions, games, bins, rates, same, differ)


def time_searches(args, agents, positions, engines):
    """{(agent, label, side): [iterations/s per round]}, and how many sequential searches of
    round 1 had the same root statistics on both sides, with a line for each that differed."""
    rates = {}  # (agent, label, side) -> [it/s per round]
    same, differ = 0, []
    for rnd in range(args.rounds):
        for agent in agents:
            for i, p in enumerate(positions):
                seed = 1000 * rnd + i
                replies = {}
                # Alternate which side goes first: the second of two back-to-back searches
                # measured a few percent slower here, whichever build it was.
                order = list(engines.items())
                if (rnd + i) % 2:
                    order.reverse()
                for side, engine in order:
                    r = engine.search(p, agent, args.iterations, seed)
                    replies[side] = r
                    seconds = r["time_ms"] / 1e3 if args.wall else r["cpu_s"]
                    rate = r["iterations"] / max(seconds, 1e-9)
                    rates.setdefault((agent, p["label"], side), []).append(rate)
                sequential = "parallel=" not in agent or "parallel=sequential" in agent
                if rnd == 0 and sequential:
                    strip = lambda r: (r["move"], r["children"])
                    if strip(replies["A"]) == strip(replies["B"]):
                        same += 1
                    else:
                        differ.append(f"{agent} {p['label']}: A {replies['A']['move']}, "
                                      f"B {replies['B']['move']}")
        print(f"round {rnd + 1} of {args.rounds} done", file=sys.stderr)
    return rates, same, differ


def report(args, agents, positions, games, bins, rates, same, differ):
    clock = "wall-clock" if args.wall else "CPU-time"
    print(f"{clock} iterations/s, {args.iterations}-iteration searches, median over "
          f"{args.rounds} rounds per position, then median over positions")
    for agent in agents:
        for game in games:
            labels = [p["label"] for p in positions if p["game"] == game]
            med = {s: statistics.median(statistics.median(rates[(agent, l, s)]) for l in labels)
                   for s in bins}
            ratio = statistics.median(statistics.median(rates[(agent, l, "B")]) /
                                      statistics.median(rates[(agent, l, "A")]) for l in labels)
            print(f"  {agent:40} {game:8} A {med['A']:10.0f}  B {med['B']:10.0f}  "
                  f"B/A {ratio:.3f}")
    if same or differ:
        print(f"same root statistics in {same} of {same + len(differ)} sequential searches")
        for d in differ:
            print("  differ: " + d)


if __name__ == "__main__":
    main()
