"""Positions for the tests, built through the public API in tabletop mode
(the table enters every card), plus a few state edits passed through
``check_state``."""

import pytest

from referee.engine import CHANCE
from referee.errors import IllegalMove
from threemagic import table
from threemagic.cards import COPIES
from threemagic.engine import ThreeMagic

ENGINE = ThreeMagic()

#: the worked example's hand (T-7.2): with R3* after R2* it is complete
EXAMPLE = ["R1*", "R2*", "B3", "B3*", "B3*", "G0", "G1*", "G2*"]


def new_match(hands: dict, indicator: str = "G1", options=None, manager=None) -> dict:
    """A tabletop game dealt ``hands`` ({seat: 8 cards in order}), 1st indicator turned;
    ``manager`` makes another seat the manager of this first match."""
    state = ENGINE.new(3, mode="tabletop", options=options)
    if manager:
        state = dict(state, manager=manager, turn=manager)
        ENGINE.check_state(state)
    while state["phase"] == "deal":
        seat = table.deal_recipient(state)
        card = hands[seat][len(state["hands"][seat - 1])]
        state = chance(state, {"type": "deal", "to": seat, "card": card})
    return chance(state, {"type": "indicator", "card": indicator})


def chance(state, move) -> dict:
    return ENGINE.apply(state, dict(move, seat=CHANCE))[0]


def draw(state, card) -> dict:
    return chance(state, {"type": "draw", "to": state["turn"], "card": card})


def play(state, move) -> dict:
    return ENGINE.apply(state, move)[0]


def play_events(state, move) -> tuple[dict, list]:
    return ENGINE.apply(state, move)


def discard(seat, insert, remove, riichi=False) -> dict:
    return {"type": "discard", "seat": seat, "insert": insert, "remove": remove,
            "riichi": riichi}


def drop_drawn(seat) -> dict:
    """Discard the card just drawn (inserted and removed at the same place)."""
    return discard(seat, 0, 0)


def answer(seat, kind="pass", **fields) -> dict:
    return dict({"type": kind, "seat": seat}, **fields)


def all_pass(state, events=()) -> dict:
    """Every seat asked in the open call window (if any) passes."""
    return all_pass_events(state, events)[0]


def all_pass_events(state, events=()) -> tuple[dict, list]:
    """``all_pass``, also answering every event from ``events`` on."""
    events = list(events)
    while state["phase"] == "calls":
        state, more = ENGINE.apply(state, answer(state["to_move"][0]))
        events += more
    return state, events


def refused(state, move) -> str:
    """The rule id the refusal of ``move`` names (the state is left unchanged)."""
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, move)
    return caught.value.rule


def with_draw_pile(state, left: int, keep=()) -> dict:
    """The same position with only ``left`` cards still to draw: the others are
    laid (face up) under seat 3's discards, never a card listed in ``keep``."""
    state = dict(state, discards=[list(p) for p in state["discards"]])
    unseen = table.unseen(state)
    taken = []
    for card in COPIES:
        spare = unseen[card] - list(keep).count(card)
        take = min(spare, state["draw_pile"] - left - len(taken))
        taken += [card] * max(take, 0)
    state["discards"][2] = taken + state["discards"][2]
    state["draw_pile"] = left
    ENGINE.check_state(state)
    return state


def legal(state, seat=None) -> list[dict]:
    return [{k: v for k, v in m.items() if k != "p"} for m in ENGINE.legal_moves(state, seat)]

# Hands that wait on G2, for ron tests.
RON_2 = ["R0", "R0", "R0", "B1*", "B2*", "B3*", "G1*", "G3*"]  # waits on G2 (G1* _ G3*)
RON_3 = ["B0", "B0", "B0", "R1*", "R2*", "R3*", "G3*", "G4*"]  # waits on G2 (_ G3* G4*)
