"""Errors people can read (issue 16): every refusal cites its rule and says why in an
English sentence, values written as on the board or as JSON, never as Python reprs."""

import re

import pytest

from ghostone.engine import Ghostone
from referee.errors import IllegalMove

GAME = Ghostone()
PYTHON_REPR = re.compile(r"\['|\{'|\bNone\b|\bTrue\b|\bFalse\b|'\]")


def refusal(state, move):
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, move)
    return refused.value.rule, refused.value.detail


def placed(seed=2, players=3):
    state = GAME.new(players, seed=seed, mode="tabletop")
    while state["phase"] == "placement":
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    return state


def ghost_due():
    """Tabletop, the ghost out, the die due before seat 1's turn."""
    state = placed()
    while state["to_move"] != ["chance"]:
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    return state


START = GAME.new(3, seed=1, mode="tabletop")  # seat 1 places first
# (state, move, rule, detail)
CASES = {
    "a plate off the board": (
        START, {"type": "place", "seat": 1, "plate": "e5", "rocks": ["a1", "a2", "b1"]},
        "G-1.1", 'there is no plate "e5": plates are a1 to d4'),
    "rocks off the neighbours": (
        START, {"type": "place", "seat": 1, "plate": "a1", "rocks": ["a2", "c3", "d4"]},
        "G-2.3", "c3 and d4 are not neighbours of a1 (a2, b1 and b2 are)"),
    "one rock off the board": (
        START, {"type": "place", "seat": 1, "plate": "a1", "rocks": ["a2", "b1", 7]},
        "G-2.3", "7 is not a neighbour of a1 (a2, b1 and b2 are)"),
    "a placement without rocks": (
        START, {"type": "place", "seat": 1, "plate": "a1"},
        "G-9", "a placement names type, seat, plate and rocks: rocks is missing"),
    "a field too many": (
        START, {"type": "place", "seat": 1, "plate": "a1", "rocks": ["a2", "b1", "b2"],
                "colour": "red"},
        "G-9", 'a placement has no field "colour"'),
    "a seat rolls the die": (
        START, {"type": "roll", "seat": 1, "dir": "N"},
        "G-8.1", 'the die is chance\'s to roll, not a seat\'s: a table enters it as seat '
                 '"chance" before seat 1\'s turn'),
    "an unknown type": (
        START, {"type": "jump", "seat": 1},
        "G-9", 'unknown move type "jump": a seat places, moves or passes'),
    "an unknown type as a list": (
        START, {"type": ["move"], "seat": 1},
        "G-9", 'unknown move type ["move"]: a seat places, moves or passes'),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_G_9_refusals_cite_the_rule_in_a_sentence(case):
    state, move, rule, detail = CASES[case]
    assert refusal(state, move) == (rule, detail)


def test_G_1_5_a_die_face_that_is_not_one_is_refused_naming_the_faces():
    state = ghost_due()
    rule, detail = refusal(state, {"type": "roll", "seat": "chance", "dir": "UP"})
    assert (rule, detail) == ("G-1.5", 'impossible chance outcome: the die shows N, NE, E, '
                                       'SE, S, SW, W or NW, not "UP"')
    rule, detail = refusal(state, {"type": "pass", "seat": "chance"})
    assert rule == "G-8.1" and "die roll" in detail
    rule, detail = refusal(state, {"type": "roll", "seat": "chance", "dir": "N", "to": "a1"})
    assert (rule, detail) == ("G-9", 'impossible chance outcome: a die roll has no field "to"')


def test_G_4_1_G_4_2_piece_and_rock_refusals_write_plates_and_directions_plainly():
    state = placed()
    seat = state["to_move"][0]
    piece = state["pieces"][seat - 1][0]
    for move in ({"type": "move", "seat": seat, "from": "z9", "to": "a1", "rock": "N"},
                 {"type": "move", "seat": seat, "from": piece, "to": [piece], "rock": "N"},
                 {"type": "move", "seat": seat, "from": piece, "to": None, "rock": None},
                 {"type": "move", "seat": seat, "from": piece, "to": "a1"},
                 {"type": "pass", "seat": seat, "why": None}):
        rule, detail = refusal(state, move)
        assert rule in ("G-4.1", "G-9") and not PYTHON_REPR.search(detail), detail
    legal = next(m for m in GAME.legal_moves(state) if m["rock"] is not None)
    rule, detail = refusal(state, dict(legal, rock="NE"))
    assert (rule, detail) == ("G-4.2", 'a rock moves N, E, S or W, not NE')
    rule, detail = refusal(state, dict(legal, rock=None))
    assert rule == "G-4.3" and re.fullmatch(
        r"the rock move is mandatory: push a rock from [a-d][1-4] \(([NESW], )*[NESW]"
        r"( or [NESW])?\)", detail), detail


def test_G_6_1_a_ghost_on_a_plate_that_cannot_take_it_is_refused_saying_why():
    state = GAME.new(3, seed=1, mode="tabletop")  # two escapes made, seat 1's b2 → b1 escapes
    state.update(phase="play", placement_step=9, turn=1, to_move=[1],
                 rocks=dict({p: 1 for p in state["rocks"]}, b1=0, c3=0, d4=0),
                 flipped=["c3", "d4"], pieces=[["a4", "b2"], ["a3", "b4"], ["c4", "d1", "d2"]],
                 escapes=[{"seat": 1, "plate": "c3", "points": 1, "bonus": 3},
                          {"seat": 2, "plate": "d4", "points": 1, "bonus": 2}])
    GAME.check_state(state)
    third = {"type": "move", "seat": 1, "from": "b2", "to": "b1", "rock": "N"}
    assert refusal(state, dict(third, ghost="c3")) == (
        "G-6.1", "c3 is flipped: the ghost goes on a face-up plate")
    assert refusal(state, dict(third, ghost="b1")) == (
        "G-6.1", "b1 flips with this escape: the ghost goes on a face-up plate")
    assert refusal(state, dict(third, ghost=None)) == (
        "G-6.1", "this escape is the game's 3rd: name the ghost's plate")
    assert refusal(state, dict(third, ghost={"x": 1})) == (
        "G-6.1", 'there is no plate {"x": 1} for the ghost')
