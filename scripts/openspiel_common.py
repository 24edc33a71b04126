"""A Hearts deal of this engine replayed in OpenSpiel, for the OpenSpiel scripts."""


def openspiel_state(pyspiel_game, deal, moves=(), direction=0):
    """`deal` (this engine's Hearts deal notation) in OpenSpiel, then `moves` played: OpenSpiel
    deals chance card k to player k mod 4, and seat i here is player i there. `direction` is
    the pass direction's chance outcome where the game passes (`pass_cards=true`): 0 no pass,
    1 left, 2 across, 3 right."""
    hands = [h.split() for h in deal.split("|")]
    state = pyspiel_game.new_initial_state()
    # The first chance node picks the pass direction; without passing it has one outcome.
    state.apply_action(state.legal_actions()[direction])
    for k in range(52):
        card = hands[k % 4][k // 4]
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(actions[card])
    for move in moves:
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(actions[move])
    return state
