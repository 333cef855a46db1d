"""The state's shape, and ``check_position``: refuse a forged or inconsistent Gematon
position (the envelope every game has is checked by the base).

The state, beyond the envelope::

    phase            "setup" | "play" | "over"
    setup_step       index into setup.setup_steps(players, draft) (GM-2)
    witches          [witch number 1..6 of each seat, or null before it has one]
    removed_witches  sorted witches put back in the box by the draft (GM-2.1)
    awakened         whether the game's first set has been formed (GM-4.1)
    bag              {"1": 9, "2": 9, …} chips left per value (GM-1.2)
    altars           {"w1": [a, b], "w2": …, "w3": …, "black": …} sorted chips (GM-1.3)
    seats            per seat {"position", "gauge", "stack" (bottom→top), "hand" (sorted),
                     "pentacle" (7 cells, value or null)} (GM-1.4, GM-1.7)
    turn             null, or {"seat", "round", "refilled", "pushed", "operated", "sets"}
                     (sets: new sets formed this turn, for the blessing GM-3.6)

The pop area (GM-1.4) is empty whenever the game rests: an Operate fills and
empties it at once, so the state does not keep it; the events show it.
"""

from referee.engine import CHANCE, repr_json
from referee.errors import InvalidState

from .board import (
    ALTAR_CHIPS, ALTARS, CELLS, CHIPS_PER_VALUE, HAND_AT_REST, MAX_POSITION, ROUNDS,
    STACK_AT_REST, VALUES, WITCHES, complete_lines, distinct_values, is_chip,
)
from .setup import drawn_so_far, setup_steps

STATE_KEYS = {"game", "version", "players", "mode", "options", "to_move", "rng",
              "phase", "setup_step", "witches", "removed_witches", "awakened", "bag",
              "altars", "seats", "turn"}
SEAT_KEYS = {"position", "gauge", "stack", "hand", "pentacle"}
TURN_KEYS = {"seat", "round", "refilled", "pushed", "operated", "sets"}


def bad(why: str):
    raise InvalidState(why)


def check_position(state: dict) -> None:
    if set(state) != STATE_KEYS:
        bad(f"state keys must be exactly {', '.join(sorted(STATE_KEYS))}")
    _check_shapes(state)
    _check_chips_conserved(state)
    _check_witches(state)
    phase = state["phase"]
    if phase == "setup":
        _check_setup(state)
    elif phase in ("play", "over"):
        _check_play(state)
    else:
        bad(f"phase must be setup, play or over, not {repr_json(phase)}")


def _check_shapes(state):
    n = state["players"]
    bag, altars, seats = state["bag"], state["altars"], state["seats"]
    if not isinstance(bag, dict) or set(bag) != {str(v) for v in VALUES} or not all(
            type(c) is int and 0 <= c <= CHIPS_PER_VALUE for c in bag.values()):
        bad("bag must count each chip value 1, 2, 4, 5, 7, 8 from 0 to 9")
    if not isinstance(altars, dict) or set(altars) != set(ALTARS) or not all(
            isinstance(chips, list) and len(chips) <= ALTAR_CHIPS and all(map(is_chip, chips))
            and chips == sorted(chips) for chips in altars.values()):
        bad("altars must hold at most 2 chips each, sorted, on w1, w2, w3 and black")
    if not isinstance(seats, list) or len(seats) != n:
        bad("seats must have one entry per player")
    for k, mine in enumerate(seats, 1):
        if not isinstance(mine, dict) or set(mine) != SEAT_KEYS:
            bad(f"seats[{k - 1}] must have exactly {', '.join(sorted(SEAT_KEYS))}")
        stack, hand, pentacle = mine["stack"], mine["hand"], mine["pentacle"]
        if not isinstance(stack, list) or not all(map(is_chip, stack)):
            bad(f"seat {k}'s stack must list chips")
        if not isinstance(hand, list) or not all(map(is_chip, hand)) or hand != sorted(hand):
            bad(f"seat {k}'s hand must list chips, sorted")
        if not isinstance(pentacle, list) or len(pentacle) != CELLS or not all(
                c is None or is_chip(c) for c in pentacle):
            bad(f"seat {k}'s pentacle must have {CELLS} cells, each a chip or null")
        if type(mine["gauge"]) is not int or mine["gauge"] != distinct_values(pentacle):
            bad(f"seat {k}'s gauge must equal the distinct values on its pentacle (GM-3.4)")
        if type(mine["position"]) is not int or not 0 <= mine["position"] <= MAX_POSITION:
            bad(f"seat {k}'s position must be an integer from 0 to {MAX_POSITION}, the "
                "highest square blessings can reach (GM-1.7, GM-3.6)")
    if len({mine["position"] for mine in seats}) != n:
        bad("two pawns share a track position (GM-3.7)")
    lines = state["options"]["pentacle_lines"]
    if state["awakened"] is not any(complete_lines(m["pentacle"], lines) for m in seats):
        bad("awakened must be true exactly once a set exists (GM-4.1)")


def _check_chips_conserved(state):
    counts = {v: state["bag"][str(v)] for v in VALUES}
    for mine in state["seats"]:
        for chip in mine["stack"] + mine["hand"] + mine["pentacle"]:
            if chip is not None:
                counts[chip] += 1
    for chips in state["altars"].values():
        for chip in chips:
            counts[chip] += 1
    if any(c != CHIPS_PER_VALUE for c in counts.values()):
        held = ", ".join(f"{count} of {value}" for value, count in counts.items())
        bad(f"there are 9 chips of each value; this state has {held} (GM-1.2)")


def _check_witches(state):
    dealt, removed = state["witches"], state["removed_witches"]
    if not isinstance(dealt, list) or len(dealt) != state["players"] or not all(
            w is None or (type(w) is int and w in WITCHES) for w in dealt):
        bad("witches must give each seat a witch 1..6 or null")
    if not isinstance(removed, list) or not all(
            type(w) is int and w in WITCHES for w in removed) or removed != sorted(set(removed)):
        bad("removed_witches must list distinct witches 1..6, sorted")
    held = [w for w in dealt if w is not None]
    if len(set(held)) != len(held) or set(held) & set(removed):
        bad("a witch is held twice, or held and removed")


def _check_setup(state):
    n, draft, step = state["players"], state["options"]["draft"], state["setup_step"]
    steps = setup_steps(n, draft)
    if type(step) is not int or not 0 <= step < len(steps):
        bad("setup_step out of range")
    done = steps[:step]
    for k, mine in enumerate(state["seats"], 1):
        if mine["position"] != k - 1 or any(c is not None for c in mine["pentacle"]):
            bad("during setup pawns stand on 0, 1, … and pentacles are empty (GM-1.7)")
        has_witch = ("deal", k) in done or ("pick", k) in done
        if (state["witches"][k - 1] is not None) != has_witch:
            bad(f"seat {k} holds a witch exactly once it was dealt or picked (GM-2.1)")
    if len(state["removed_witches"]) != done.count(("remove",)):
        bad("the draft removed a different number of witches (GM-2.1)")
    counts = drawn_so_far(n, draft, step)
    for k, mine in enumerate(state["seats"], 1):
        if len(mine["stack"]) != counts["stack", k] or len(mine["hand"]) != counts["hand", k]:
            bad(f"seat {k}'s stack and hand do not match the setup draws so far (GM-2.2)")
    for altar in ALTARS:
        if len(state["altars"][altar]) != counts["altar", altar]:
            bad(f"altar {altar} does not match the setup draws so far (GM-2.2)")
    pending = steps[step]
    expected = [pending[1]] if pending[0] == "pick" else [CHANCE]
    if state["turn"] is not None or state["to_move"] != expected:
        waits = f"seat {pending[1]} to pick a witch" if pending[0] == "pick" else "chance"
        bad(f"setup step {step} waits for {waits}, and no turn has begun (GM-2)")


def _check_play(state):
    n, draft = state["players"], state["options"]["draft"]
    if state["setup_step"] != len(setup_steps(n, draft)):
        bad("play starts after the whole setup")
    if None in state["witches"] or len(state["removed_witches"]) != (6 - n if draft else 0):
        bad("every seat holds a witch from the setup on (GM-2.1)")
    if any(len(chips) != ALTAR_CHIPS for chips in state["altars"].values()):
        bad("every altar holds 2 chips between moves (GM-1.3)")
    if state["phase"] == "over":
        if state["turn"] is not None or state["to_move"] != []:
            bad("a finished game has no turn and nobody to move")
        for k, mine in enumerate(state["seats"], 1):
            _check_sizes(mine, k, HAND_AT_REST, STACK_AT_REST, ROUNDS)
        return
    turn = state["turn"]
    if not isinstance(turn, dict) or set(turn) != TURN_KEYS:
        bad(f"turn must have exactly {', '.join(sorted(TURN_KEYS))}")
    seat, round_, sets = turn["seat"], turn["round"], turn["sets"]
    if type(seat) is not int or not 1 <= seat <= n or type(round_) is not int or not (
            1 <= round_ <= ROUNDS):
        bad("turn.seat or turn.round out of range")
    flags = (turn["refilled"], turn["pushed"], turn["operated"])
    if not all(type(f) is bool for f in flags) or type(sets) is not int:
        bad("turn flags must be booleans and turn.sets an integer")
    refilled, pushed, operated = flags
    if (pushed and operated) or ((pushed or operated) and not refilled):
        bad("a turn refills first and ends as soon as it has pushed and operated (GM-3.2)")
    mine = state["seats"][seat - 1]
    lines = state["options"]["pentacle_lines"]
    if not 0 <= sets <= len(complete_lines(mine["pentacle"], lines)) or (sets and not operated):
        bad("turn.sets counts the sets formed by this turn's Operate (GM-3.6)")
    if state["to_move"] != ([seat] if refilled else [CHANCE]):
        bad("to_move must be the chance refill, then the turn's seat (GM-3.1)")
    for k, other in enumerate(state["seats"], 1):
        if k != seat:
            _check_sizes(other, k, HAND_AT_REST, STACK_AT_REST, round_ if k < seat else round_ - 1)
    hand = HAND_AT_REST + refilled - pushed
    stack = STACK_AT_REST + pushed - operated
    _check_sizes(mine, seat, hand, stack, round_ - 1 + operated)


def _check_sizes(mine, seat, hand, stack, placed):
    if len(mine["hand"]) != hand or len(mine["stack"]) != stack:
        bad(f"seat {seat} must hold {hand} hand chips and {stack} stack chips now")
    if sum(c is not None for c in mine["pentacle"]) != placed:
        bad(f"seat {seat} must have {placed} chips on its pentacle now (one per turn)")
