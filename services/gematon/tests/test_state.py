"""Forged states are refused with InvalidState; genuine ones round-trip."""

import json

import pytest

from referee.errors import InvalidState

EXAMPLE = dict(stacks={1: [8, 2]}, hands={1: [4, 7]},
               altars={"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]})


def _set(path, value):
    def edit(state):
        node = state
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _extra_chip(state):
    state["seats"][1]["hand"].append(8)
    state["seats"][1]["hand"].sort()


def _moved_chip(state):  # conserved, but seat 2 holds 3 chips outside its turn
    state["seats"][1]["hand"] = sorted(state["seats"][1]["hand"] + [state["altars"]["w1"][0]])
    state["altars"]["w1"] = state["altars"]["w1"][1:]


FORGERIES = {
    "GM-1.2 extra chip": _extra_chip,
    "GM-1.2 chip value 3": _set(["seats", 0, "stack", 0], 3),
    "GM-1.2 bag count": _set(["bag", "1"], 10),
    "GM-1.2 bag as a list": _set(["bag"], [9] * 6),
    "GM-1.3 altar of 1": _moved_chip,
    "GM-1.3 unknown altar": lambda s: s["altars"].update(w4=s["altars"].pop("w3")),
    "GM-1.4 unsorted hand": _set(["seats", 0, "hand"], [7, 5, 4]),
    "GM-1.4 gauge bool": _set(["seats", 0, "gauge"], False),
    "GM-1.4 gauge wrong": _set(["seats", 0, "gauge"], 2),
    "GM-1.5 pentacle of 6": _set(["seats", 0, "pentacle"], [None] * 6),
    "GM-1.7 negative position": _set(["seats", 0, "position"], -1),
    "GM-3.7 shared position": _set(["seats", 0, "position"], 1),
    "GM-2.1 witch twice": _set(["witches"], [2, 2]),
    "GM-2.1 witch 7": _set(["witches"], [7, 2]),
    "GM-2.1 removed in a dealt game": _set(["removed_witches"], [3]),
    "GM-2.1 removed as lists": _set(["removed_witches"], [[1], [1]]),
    "GM-2.1 witches as lists": _set(["witches"], [[1], [2]]),
    "GM-3.2 both done": lambda s: s["turn"].update(pushed=True, operated=True),
    "GM-3.1 not refilled": _set(["turn", "refilled"], False),
    "GM-3.6 sets without operate": _set(["turn", "sets"], 1),
    "GM-3.1 wrong seat to move": _set(["to_move"], [2]),
    "GM-5.1 round 8": _set(["turn", "round"], 8),
    "GM-4.1 awake without a set": _set(["awakened"], True),
    "phase": _set(["phase"], "draft"),
    "extra key": _set(["score"], 0),
    "missing key": lambda s: s.pop("turn"),
    "seat keys": lambda s: s["seats"][0].pop("gauge"),
    "setup step": _set(["setup_step"], 3),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_GM_1_2_forged_states_are_refused(table, engine, name):
    state = table.refill(table.setup(witches=[1, 2], **EXAMPLE), 5)
    engine.check_state(state)
    FORGERIES[name](state)
    with pytest.raises(InvalidState) as refused:
        engine.check_state(state)
    detail = refused.value.detail  # a sentence saying what is wrong, never a crash's name
    assert not detail.startswith("inconsistent input") and "['" not in detail, detail
    for call in (engine.legal_moves, engine.score, engine.view):
        with pytest.raises(InvalidState):
            call(state)


def test_GM_2_2_forged_setup_states_are_refused(table, engine):
    state = engine.new(2, mode="tabletop")
    state, _ = table.chance(state, witch=1)
    engine.check_state(state)
    for edit in (_set(["witches"], [1, 2]), _set(["witches"], [None, None]),
                 _set(["seats", 0, "position"], 5), _set(["to_move"], [1])):
        forged = json.loads(json.dumps(state))
        edit(forged)
        with pytest.raises(InvalidState) as refused:
            engine.check_state(forged)
        assert "['" not in refused.value.detail and "('" not in refused.value.detail
    state["to_move"] = [1]
    with pytest.raises(InvalidState) as refused:
        engine.check_state(state)
    assert refused.value.detail == "setup step 1 waits for chance, and no turn has begun (GM-2)"


def test_GM_6_1_digital_state_never_rests_at_a_draw(engine):
    state = engine.new(2, seed=1)
    state["to_move"] = ["chance"]
    state["turn"]["refilled"] = False
    with pytest.raises(InvalidState):
        engine.check_state(state)


def test_GM_1_5_state_options_are_checked(engine):
    state = engine.new(2, seed=1)
    state["options"]["pentacle_lines"][0] = [0, 0, 1]
    with pytest.raises(InvalidState, match="GM-1.5"):
        engine.check_state(state)


def test_states_round_trip_and_the_defaults_stay_put(engine):
    state = engine.new(3, seed=8)
    assert json.loads(json.dumps(state)) == state
    state["options"]["blessing_values"][6] = 99  # a caller editing its state …
    assert engine.options["blessing_values"].default[6] == 6  # … does not touch the engine
