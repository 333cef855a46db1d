"""Refusing forged states: a Vectron position is checked against what the rules can reach.

Components are conserved (16 map chips on the grid or held, 24 cards in hands,
columns and deck), every field has its type and range, and the phase agrees
with ``to_move``, the hand sizes and the gauges.
"""

import json
from collections import Counter

from referee.engine import CHANCE
from referee.errors import InvalidState

from .board import (
    CARDS, CELLS, CHIPS, GAUGE_LIMIT, HAND_SIZE, HOLDABLE, START_CHIP, WINNING_SCORE, piece,
)
from .scoring import gauge_problem, settlement_points
from .wording import words

POSITION_KEYS = {"phase", "turn", "grid", "held", "fallen", "gauges", "scores", "hands",
                 "columns", "deck", "cursor", "settlements"}
STATE_KEYS = {"game", "version", "players", "mode", "options", "to_move", "rng"} | POSITION_KEYS
CHANCE_PHASES = ("layout", "deal", "deck_draw", "forced_draw")
SEAT_PHASES = ("draw", "place", "move")
PHASES = (*CHANCE_PHASES, *SEAT_PHASES, "over")


def layout_chips(state: dict) -> dict:
    """V-2.2: the map chips the grid shuffle lays out (all but the seats' held chips)."""
    chips = dict(state["options"]["map_chips"])
    chips[START_CHIP] -= state["players"]
    return chips


def _bad(why: str):
    raise InvalidState(why)


def _is_count(value) -> bool:
    return type(value) is int and value >= 0


def _per_seat(state, key, ok) -> list:
    values = state[key]
    if not isinstance(values, list) or len(values) != state["players"] or not all(
            ok(v) for v in values):
        _bad(f"{key} must hold one valid entry per seat")
    return values


def check(state: dict) -> None:
    if set(state) != STATE_KEYS:
        _bad(f"state keys must be exactly {words(sorted(STATE_KEYS))}")
    phase, turn, n = state["phase"], state["turn"], state["players"]
    if phase not in PHASES:
        _bad(f"phase must be one of {words(PHASES, 'or')}")
    if type(turn) is not int or not 1 <= turn <= n or (phase == "layout" and turn != 1):
        _bad("turn must be a seat number (1 before the layout, V-2.4)")
    _check_chips(state)
    _check_cards(state)
    fallen = _per_seat(state, "fallen", lambda v: type(v) is bool)
    gauges = _per_seat(state, "gauges", _is_count)
    _check_settlements(state)
    expected = {"over": []}.get(phase, [CHANCE] if phase in CHANCE_PHASES else [turn])
    if state["to_move"] != expected:
        _bad(f"phase {phase} has to_move {json.dumps(expected)}")
    if (phase == "over") != (max(state["scores"]) >= WINNING_SCORE):
        _bad(f"the game is over exactly when a score reaches {WINNING_SCORE}")
    if phase != "over" and max(gauges) >= GAUGE_LIMIT:
        _bad(f"a gauge at {GAUGE_LIMIT} or more is settled before play goes on")
    if phase == "over" and gauges != state["settlements"][-1]["gauges"]:
        _bad("a finished game keeps the gauges of the settlement that ended it")
    if phase in ("layout", "deal") and (any(fallen) or any(gauges)):
        _bad("a deal follows a refresh: pieces stand and gauges are 0")
    if phase in ("draw", "deck_draw", "forced_draw") and not state["deck"]:
        _bad("an empty deck is settled and refreshed before a turn starts")
    if phase in ("draw", "deck_draw", "place", "move") and fallen[turn - 1]:
        _bad("the seat to play stands (a fallen seat draws by force and stands up)")
    if phase == "forced_draw" and not fallen[turn - 1]:
        _bad("only a fallen seat draws by force")
    cursor = state["cursor"]
    if phase == "move":
        if type(cursor) is not int or not 0 <= cursor < len(state["columns"][turn - 1]):
            _bad("cursor must point into the turn seat's column")
    elif cursor is not None:
        _bad("cursor is null outside the move phase")


def _check_chips(state):
    grid, phase, n = state["grid"], state["phase"], state["players"]
    held = _per_seat(state, "held", lambda v: v in HOLDABLE)
    if phase == "layout":
        if grid is not None or held != [START_CHIP] * n:
            _bad("before the layout the grid is null and every seat holds a star2")
        return
    pieces = [piece(s) for s in range(1, n + 1)]
    if not isinstance(grid, dict) or sorted(grid) != sorted(CELLS):
        _bad("grid must map each cell a1…d4 to what it holds")
    if not all(t in CHIPS or t in pieces for t in grid.values()):
        _bad("grid cells hold map chips or the seats' pieces")
    things = Counter(grid.values())
    things.update(held)
    wanted = Counter(state["options"]["map_chips"])
    wanted.update(pieces)
    if +things != +wanted:
        _bad("the grid holds each piece once and, with the held chips, the options' map_chips")


def _check_cards(state):
    n, phase, turn = state["players"], state["phase"], state["turn"]
    is_cards = lambda v: isinstance(v, list) and all(c in CARDS for c in v)  # noqa: E731
    hands = _per_seat(state, "hands", lambda h: is_cards(h) and h == sorted(h))
    columns = _per_seat(state, "columns", is_cards)
    deck = state["deck"]
    if not is_cards(deck) or deck != sorted(deck):
        _bad("deck must be a sorted list of cards")
    every = Counter(deck)
    for cards in (*hands, *columns):
        every.update(cards)
    if every != +Counter(state["options"]["action_cards"]):
        _bad("the cards in hands, columns and deck must be the options' action_cards")
    sizes = [len(h) for h in hands]
    if phase in ("layout", "deal"):
        if any(columns) or sizes != sorted(sizes, reverse=True) or max(sizes) > HAND_SIZE \
                or max(sizes) - min(sizes) > 1 or min(sizes) == HAND_SIZE \
                or (phase == "layout" and max(sizes) > 0):
            _bad("a deal fills empty hands seat by seat, columns empty")
    else:
        wanted = [HAND_SIZE] * n
        if phase == "place":
            wanted[turn - 1] += 1
        if sizes != wanted:
            _bad(f"in phase {phase} the hands hold {words(wanted)} cards")


def _check_settlements(state):
    n, settlements = state["players"], state["settlements"]
    scores = _per_seat(state, "scores", _is_count)
    if not isinstance(settlements, list):
        _bad("settlements must be a list")
    running = [0] * n
    for i, entry in enumerate(settlements):
        if max(running) >= WINNING_SCORE:
            _bad("no settlement follows the one that ends the game")
        gauges = entry.get("gauges") if isinstance(entry, dict) else None
        if not (isinstance(gauges, list) and len(gauges) == n and all(map(_is_count, gauges))
                and entry == {"gauges": gauges, "points": settlement_points(gauges)}):
            _bad(f"settlements[{i}] is not a settlement of {n} gauges")
        problem = gauge_problem(gauges)
        if problem:
            _bad(f"settlements[{i}]: {problem}")
        running = [r + p for r, p in zip(running, entry["points"])]
    if running != scores:
        _bad("scores must be the sum of the settlements")
    if state["phase"] == "layout" and settlements:
        _bad("no settlement before the layout")
