"""Building Gizmos positions for the rule tests, and playing moves on them."""

import pytest

from gizmos.cards import BY_LEVEL, DECK_SIZE, LEVELS, STARTING
from gizmos.engine import Gizmos
from gizmos.table import known_cards
from referee.errors import IllegalMove

GAME = Gizmos()
ROW = {"black": 2, "blue": 2, "red": 1, "yellow": 1}
# The payment-search nodes a listing may take in the tests that count work. The costliest
# positions found take about 125,000 (about 130 ms of CPU); the old search, visiting every
# order of conversions, took seconds on the positions and had no such counter.
WORK_BOUND = 200_000


def ring(**counts) -> dict:
    return {c: counts.get(c, 0) for c in ("black", "blue", "red", "yellow")}


def position(players=2, *, seats=(), display=(), row=None, turn=1, bottom=None,
             mode="tabletop", phase="main", turn_state=None, options=None, research=None):
    """A quiet position: ``seats`` [{ring, built, archive, vp_tokens}] (the starting
    gizmo is added), ``display`` card ids, ``bottom`` {level: [ids]} under the decks;
    ``research``: the cards a Research by the seat to move has drawn (all of one level)."""
    state = GAME.new(players, seed=11, mode=mode, options=options)
    bottom = bottom or {}
    seat_list = []
    for s in range(players):
        given = seats[s] if s < len(seats) else {}
        seat_list.append({
            "ring": ring(**given.get("ring", {})),
            "built": sorted([STARTING[s], *given.get("built", [])]),
            "archive": sorted(given.get("archive", [])),
            "vp_tokens": given.get("vp_tokens", 0)})
    if research:
        phase, research = "research", {"level": research[0] // 100, "cards": list(research)}
    state.update(
        phase=phase, turn=turn, round=1, seats=seat_list, row=dict(row or ROW),
        display={str(lv): sorted(c for c in display if c in BY_LEVEL[lv]) for lv in LEVELS},
        research=research, turn_state=turn_state or {"ready": {}, "spent": []}, chance=[],
        ending=any(len(p["built"]) >= 16 or sum(c // 100 == 3 for c in p["built"]) >= 4
                   for p in seat_list), passes=0, to_move=[turn])
    for lv in LEVELS:
        state["decks"][str(lv)] = {"unseen": 0, "bottom": list(bottom.get(lv, []))}
        known = len(known_cards(state, lv))
        state["decks"][str(lv)]["unseen"] = DECK_SIZE[lv] - known
    GAME.check_state(state)
    return state


def holding(cards, players=4) -> list[dict]:
    """``seats`` for :func:`position`: seat 1 holds nothing, seats 2… have built
    ``cards``, 14 each at most (a seat starts a turn with at most 15 gizmos, Z-11)."""
    seats = [{}] + [{"built": list(cards[i:i + 14])} for i in range(0, len(cards), 14)]
    assert len(seats) <= players, "too many cards to hold"
    return seats


def apply(state, *moves):
    """Apply moves in order (dicts; ``seat`` defaults to the seat to move)."""
    events = []
    for move in moves:
        move = dict(move)
        move.setdefault("seat", "chance" if state["to_move"] == ["chance"] else state["turn"])
        state, more = GAME.apply(state, move)
        events += more
    return state, events


def chance(state, **fields):
    """Enter the listed chance outcome that has ``fields`` (tabletop mode)."""
    for move in GAME.legal_moves(state):
        if all(move.get(k) == v for k, v in fields.items()):
            move = {k: v for k, v in move.items() if k != "p"}
            return GAME.apply(state, move)
    raise AssertionError(f"no chance outcome {fields}: {GAME.legal_moves(state)[:5]}")


def settle(state, color="red"):
    """Enter chance outcomes (spheres of ``color`` first, else the first listed)."""
    events = []
    while state["to_move"] == ["chance"]:
        outcomes = GAME.legal_moves(state)
        pick = next((m for m in outcomes if m.get("color") == color), outcomes[0])
        state, more = GAME.apply(state, {k: v for k, v in pick.items() if k != "p"})
        events += more
    return state, events


def legal(state, **fields) -> list[dict]:
    return [m for m in GAME.legal_moves(state, state["turn"])
            if all(m.get(k) == v for k, v in fields.items())]


def refused(state, move, rule):
    move = dict(move)
    move.setdefault("seat", state["turn"])
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, move)
    assert caught.value.rule == rule, caught.value.problem()
    return caught.value


def seat(state, n=1) -> dict:
    return state["seats"][n - 1]
