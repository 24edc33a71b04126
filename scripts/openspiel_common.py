"""What the OpenSpiel scripts share: an engine process and a Hearts deal replayed in OpenSpiel."""

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


def openspiel_state(pyspiel_game, deal, moves=()):
    """`deal` (this engine's Hearts deal notation) in OpenSpiel, then `moves` played: OpenSpiel
    deals chance card k to player k mod 4, and seat i here is player i there."""
    hands = [h.split() for h in deal.split("|")]
    state = pyspiel_game.new_initial_state()
    # The first chance node picks the pass direction; without passing it has one outcome.
    state.apply_action(state.legal_actions()[0])
    for k in range(52):
        card = hands[k % 4][k // 4]
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(actions[card])
    for move in moves:
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(actions[move])
    return state
