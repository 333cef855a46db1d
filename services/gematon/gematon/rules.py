"""The rules proper: the setup, the legal moves and chance outcomes, and playing a move.

Rule ids are those of ``services/gematon/RULES.md`` (GM-…). Every function
takes the live state; ``play`` and the setup change it in place and append
events (the engine hands them a copy).
"""

from referee.engine import CHANCE

from . import witches
from .board import (
    ALTARS, BLACK_ALTAR, CELLS, CHIPS_PER_VALUE, GAUGE_VALUES, VALUES, WHITE_ALTARS,
    complete_lines, operation,
)
from .setup import free_witches, setup_steps


# ------------------------------------------------------------------ setup
def setup(state: dict, events: list) -> None:
    """GM-1.7, GM-2: the empty table, then the setup's first step."""
    state.update(
        phase="setup", setup_step=0, witches=[None] * state["players"],
        removed_witches=[], awakened=False,
        bag={str(v): CHIPS_PER_VALUE for v in VALUES},
        altars={altar: [] for altar in ALTARS},
        seats=[{"position": k, "gauge": 0, "stack": [], "hand": [],
                "pentacle": [None] * CELLS} for k in range(state["players"])],
        turn=None,
    )
    _next_setup_step(state, events)


def _setup_step(state):
    return setup_steps(state["players"], state["options"]["draft"])[state["setup_step"]]


def _next_setup_step(state, events):
    steps = setup_steps(state["players"], state["options"]["draft"])
    if state["setup_step"] < len(steps):
        step = steps[state["setup_step"]]
        state["to_move"] = [step[1]] if step[0] == "pick" else [CHANCE]
        return
    if state["options"]["draft"]:  # GM-2.1: seat 1 gets the last witch
        last, = free_witches(state)
        state["witches"][0] = last
        events.append({"type": "witch_picked", "seat": 1, "witch": last})
    state["phase"] = "play"
    _start_turn(state, 1, 1, events)


def _end_setup_step(state, events):
    state["setup_step"] += 1
    _next_setup_step(state, events)


# ------------------------------------------------------------------ moves
def legal(state: dict, seat: int) -> list[dict]:
    if state["phase"] == "setup":
        return [{"type": "pick_witch", "seat": seat, "witch": w} for w in free_witches(state)]
    turn, moves = state["turn"], []
    if not turn["pushed"]:
        hand = state["seats"][seat - 1]["hand"]
        moves += [{"type": "push", "seat": seat, "chip": v} for v in sorted(set(hand))]
    if not turn["operated"]:
        choices = operate_choices(state, seat)
        moves += [{"type": "operate", "seat": seat, "altar": altar, "take": take, "cell": cell}
                  for altar, take in choices["takes"] for cell in choices["cells"]]
    return moves


def operate_choices(state: dict, seat: int) -> dict:
    """GM-3.4 for the seat's stack now: the result, the (altar, take) pairs, the cells.

    White altars holding the result come first; the black altar only when none does.
    """
    witch = witches.witch_of(state, seat)
    stack = state["seats"][seat - 1]["stack"]
    popped = [stack[-1], stack[-2]]
    result = witch.operation_result(state, seat, popped, operation(*popped))
    altars = state["altars"]
    white = [a for a in WHITE_ALTARS if result in altars[a]]
    if white:
        takes = [(a, result) for a in witch.altar_choices(state, seat, result, white)]
    else:
        usable = witch.altar_choices(state, seat, result, [BLACK_ALTAR])
        takes = [(a, v) for a in usable for v in sorted(set(altars[a]))]
    pentacle = state["seats"][seat - 1]["pentacle"]
    cells = witch.placement_cells(state, seat, [c for c in range(CELLS) if pentacle[c] is None])
    return {"popped": popped, "result": result, "takes": takes, "cells": cells}


def pending_draw(state: dict) -> tuple[str, object] | None:
    """Where the pending bag draw goes, ``(into, holder)``; None: a witch is dealt or
    removed instead (GM-2.1)."""
    if state["phase"] == "setup":
        step = _setup_step(state)
        return None if step[0] in ("deal", "remove") else (step[1], step[2])
    return "hand", state["turn"]["seat"]


def chance_outcomes(state: dict, bag: dict | None = None) -> list[tuple[dict, int]]:
    """GM-6.1: the pending chance event's outcomes, each with its weight; ``bag``: the
    chips counted as in the bag (default the bag's own)."""
    draw = pending_draw(state)
    if draw is None:
        step = _setup_step(state)
        if step[0] == "deal":
            return [({"type": "deal_witch", "seat": CHANCE, "witch": w, "holder": step[1]}, 1)
                    for w in free_witches(state)]
        return [({"type": "remove_witch", "seat": CHANCE, "witch": w}, 1)
                for w in free_witches(state)]
    into, holder = draw
    bag = state["bag"] if bag is None else bag
    return [({"type": "draw", "seat": CHANCE, "chip": v, "into": into, "holder": holder},
             bag[str(v)]) for v in VALUES if bag[str(v)] > 0]


# ------------------------------------------------------------------- play
def play(state: dict, move: dict, events: list) -> None:
    """Apply an accepted move in place."""
    kind = move["type"]
    if kind == "draw":
        _draw(state, move, events)
    elif kind == "deal_witch":
        state["witches"][move["holder"] - 1] = move["witch"]
        events.append({"type": "witch_dealt", "seat": move["holder"], "witch": move["witch"]})
        _end_setup_step(state, events)
    elif kind == "remove_witch":
        state["removed_witches"] = sorted(state["removed_witches"] + [move["witch"]])
        events.append({"type": "witch_removed", "witch": move["witch"]})
        _end_setup_step(state, events)
    elif kind == "pick_witch":
        state["witches"][move["seat"] - 1] = move["witch"]
        events.append({"type": "witch_picked", "seat": move["seat"], "witch": move["witch"]})
        _end_setup_step(state, events)
    elif kind == "push":
        _push(state, move["seat"], move["chip"], events)
    else:
        _operate(state, move, events)


def _draw(state, move, events):
    chip, into, holder = move["chip"], move["into"], move["holder"]
    state["bag"][str(chip)] -= 1
    events.append({"type": "chip_drawn", "chip": chip, "into": into, "holder": holder})
    if into == "altar":
        state["altars"][holder] = sorted(state["altars"][holder] + [chip])
    elif into == "stack":  # GM-2.2: the first chip drawn lies at the bottom
        state["seats"][holder - 1]["stack"].append(chip)
    else:
        hand = state["seats"][holder - 1]["hand"]
        hand[:] = sorted(hand + [chip])
    if state["phase"] == "setup":
        _end_setup_step(state, events)
        return
    state["turn"]["refilled"] = True  # GM-3.1
    state["to_move"] = [holder]
    witches.witch_of(state, holder).after_refill(state, holder, events)


def _push(state, seat, chip, events):
    """GM-3.3: a hand chip onto the stack."""
    witch = witches.witch_of(state, seat)
    witch.before_push(state, seat, chip, events)
    mine = state["seats"][seat - 1]
    mine["hand"].remove(chip)
    mine["stack"].append(chip)
    events.append({"type": "chip_pushed", "seat": seat, "chip": chip})
    witch.after_push(state, seat, chip, events)
    state["turn"]["pushed"] = True
    _maybe_end_turn(state, seat, events)


def _operate(state, move, events):
    seat, altar, take, cell = move["seat"], move["altar"], move["take"], move["cell"]
    mine = state["seats"][seat - 1]
    result = operate_choices(state, seat)["result"]
    popped = [mine["stack"].pop(), mine["stack"].pop()]
    events.append({"type": "operated", "seat": seat, "popped": popped, "result": result})
    chips = state["altars"][altar]
    chips.remove(take)
    placed = chips.pop()
    mine["stack"].append(take)
    events.append({"type": "chip_taken", "seat": seat, "altar": altar, "chip": take})
    _place(state, seat, cell, placed, events)
    state["altars"][altar] = sorted(popped)
    events.append({"type": "altar_refilled", "altar": altar, "chips": sorted(popped)})
    state["turn"]["operated"] = True
    if altar == BLACK_ALTAR:
        _penalty(state, seat, events)
    _maybe_end_turn(state, seat, events)


def _place(state, seat, cell, chip, events):
    """GM-3.4: the altar's other chip onto an empty cell; the gauge; new sets (GM-4.1)."""
    mine = state["seats"][seat - 1]
    pentacle = mine["pentacle"]
    new_value = chip not in pentacle
    pentacle[cell] = chip
    events.append({"type": "chip_placed", "seat": seat, "cell": cell, "chip": chip})
    if new_value:
        steps = witches.witch_of(state, seat).gauge_advance(state, seat, 1)
        mine["gauge"] = max(0, min(len(GAUGE_VALUES) - 1, mine["gauge"] + steps))
        events.append({"type": "gauge_advanced", "seat": seat, "gauge": mine["gauge"]})
    lines = state["options"]["pentacle_lines"]
    formed = [line for line in complete_lines(pentacle, lines) if cell in line]
    if not formed:
        return
    state["turn"]["sets"] += len(formed)
    events.append({"type": "sets_formed", "seat": seat, "lines": formed})
    if not state["awakened"]:
        state["awakened"] = True
        events.append({"type": "witches_awakened", "seat": seat,
                       "witches": list(state["witches"])})


def _penalty(state, seat, events):
    """GM-3.5: swap places with the pawn just below, if any."""
    if not witches.witch_of(state, seat).penalty_applies(state, seat, True):
        return
    seats = state["seats"]
    mine = seats[seat - 1]["position"]
    below = [(s["position"], n) for n, s in enumerate(seats, 1) if s["position"] < mine]
    if not below:
        events.append({"type": "penalty", "seat": seat, "with": None})
        return
    position, other = max(below)
    seats[seat - 1]["position"], seats[other - 1]["position"] = position, mine
    events.append({"type": "penalty", "seat": seat, "with": other,
                   "positions": {str(seat): position, str(other): mine}})


def _maybe_end_turn(state, seat, events):
    turn = state["turn"]
    if not (turn["pushed"] and turn["operated"]):
        return
    if turn["sets"]:
        _bless(state, seat, events)
    events.append({"type": "turn_ended", "seat": seat, "round": turn["round"]})
    if all(None not in s["pentacle"] for s in state["seats"]):
        state.update(phase="over", turn=None, to_move=[])
        events.append({"type": "game_over", "rule": "GM-5.1"})
        return
    following = seat % state["players"] + 1
    _start_turn(state, following, turn["round"] + (following == 1), events)


def _bless(state, seat, events):
    """GM-3.6 once per turn, with the overshoot of GM-3.7."""
    mine = state["seats"][seat - 1]
    value = state["options"]["blessing_values"][mine["gauge"]]
    amount = witches.witch_of(state, seat).blessing_amount(state, seat, value)
    start = mine["position"]
    taken = {s["position"] for n, s in enumerate(state["seats"], 1) if n != seat}
    landing = start + amount
    while landing in taken:
        landing += 1
    mine["position"] = landing
    events.append({"type": "blessed", "seat": seat, "amount": amount, "from": start,
                   "to": landing, "overshoot": landing - start - amount})


def _start_turn(state, seat, round_, events):
    state["turn"] = {"seat": seat, "round": round_, "refilled": False, "pushed": False,
                     "operated": False, "sets": 0}
    state["to_move"] = [CHANCE]
    events.append({"type": "turn_started", "seat": seat, "round": round_})
