"""Ghostone's rules proper: the setup, the legal moves and playing them (G-2…G-7).

Functions of a state (plain data, see :mod:`ghostone.position` for its shape);
``play`` changes the state it is given, the engine hands it a copy.
"""

from itertools import combinations

from referee.engine import CHANCE

from .board import (
    DIE, GHOST_ESCAPE, NEIGHBOURS, ORTHOGONAL, PLACEMENT_ORDER, PLATES, escape_bonus, step,
    wrap_step,
)


# ------------------------------------------------------------- setup
def setup(state, events):
    state.update(
        phase="placement", placement_step=0,
        rocks={p: 1 for p in PLATES}, flipped=[],
        pieces=[[] for _ in range(state["players"])], escapes=[],
        ghost=None, turn=None, passes=0, end=None,
    )
    state["to_move"] = [PLACEMENT_ORDER[state["players"]][0]]


# ------------------------------------------------------------- moves
def legal(state, seat):
    if state["phase"] == "placement":
        return placements(state, seat)
    return piece_moves(state, seat) or [{"type": "pass", "seat": seat}]


def placements(state, seat):
    taken = occupied(state)
    return [{"type": "place", "seat": seat, "plate": plate, "rocks": list(rocks)}
            for plate in PLATES if plate not in taken
            for rocks in combinations(NEIGHBOURS[plate], 3)]


def piece_moves(state, seat):
    taken, flipped, rocks = occupied(state), set(state["flipped"]), state["rocks"]
    third_escape = len(state["escapes"]) == GHOST_ESCAPE - 1
    moves = []
    for origin in state["pieces"][seat - 1]:
        for direction in ORTHOGONAL:
            dest = step(origin, direction)
            if dest is None or dest in flipped or dest in taken:
                continue
            escapes = rocks[dest] == 0
            ghosts = [None]
            if escapes and third_escape:
                ghosts = [p for p in PLATES if p not in flipped and p != dest]
            for rock in rock_directions(state, origin, dest, escapes) or [None]:
                for ghost in ghosts:
                    move = {"type": "move", "seat": seat, "from": origin, "to": dest,
                            "rock": rock}
                    if ghost:
                        move["ghost"] = ghost
                    moves.append(move)
    return moves


def rock_directions(state, origin, dest, escapes):
    """Where the origin's rock may go (G-4.2, G-4.4); empty when it cannot move."""
    if state["rocks"][origin] == 0:
        return []
    flipped = set(state["flipped"])
    if escapes:
        flipped.add(dest)
    return [d for d in ORTHOGONAL if (t := step(origin, d)) is None or t not in flipped]


def normalize(move):
    if move.get("type") == "place" and isinstance(move.get("rocks"), list) and all(
            isinstance(r, str) for r in move["rocks"]):
        move["rocks"] = sorted(move["rocks"])
    return move


def chance_outcomes(state):
    return [({"type": "roll", "seat": CHANCE, "dir": d}, 1) for d in DIE]


# -------------------------------------------------------------- play
def play(state, move, events):
    kind = move["type"]
    if kind == "place":
        _place(state, move, events)
    elif kind == "move":
        _move(state, move, events)
    elif kind == "pass":
        state["passes"] += 1
        events.append({"type": "passed", "seat": move["seat"]})
        if state["passes"] >= len(seats_with_pieces(state)):
            _end(state, "G-7.2", events)
        else:
            _next_turn(state, move["seat"])
    else:
        _roll(state, move["dir"], events)


def _place(state, move, events):
    seat, plate = move["seat"], move["plate"]
    state["pieces"][seat - 1] = sorted(state["pieces"][seat - 1] + [plate])
    for neighbour in move["rocks"]:
        state["rocks"][neighbour] += 1
    events.append({"type": "piece_placed", "seat": seat, "plate": plate,
                   "rocks": move["rocks"]})
    state["placement_step"] += 1
    order = PLACEMENT_ORDER[state["players"]]
    if state["placement_step"] < len(order):
        state["to_move"] = [order[state["placement_step"]]]
    else:  # G-3.1: play starts with the last seat
        state["phase"] = "play"
        state["turn"] = state["to_move"] = None
        _next_turn(state, state["players"] - 1)


def _move(state, move, events):
    seat, origin, dest = move["seat"], move["from"], move["to"]
    rocks = state["rocks"]
    points = rocks[origin]  # G-5.2: counted before the rock moves
    pieces = state["pieces"][seat - 1]
    pieces.remove(origin)
    events.append({"type": "piece_moved", "seat": seat, "from": origin, "to": dest})
    if rocks[dest] == 0:  # G-5.1: the piece escapes and its plate flips at once (G-4.4)
        bonus = escape_bonus(len(state["escapes"]) + 1)
        state["escapes"].append({"seat": seat, "plate": dest, "points": points,
                                 "bonus": bonus})
        state["flipped"] = sorted(state["flipped"] + [dest])
        events.append({"type": "piece_escaped", "seat": seat, "plate": dest,
                       "points": points, "bonus": bonus})
    else:
        state["pieces"][seat - 1] = sorted(pieces + [dest])
    if move["rock"] is not None:
        target = step(origin, move["rock"])
        rocks[origin] -= 1
        if target is not None:
            rocks[target] += 1
        events.append({"type": "rock_pushed", "from": origin, "to": target,
                       "dir": move["rock"]})
    if "ghost" in move:
        state["ghost"] = move["ghost"]
        events.append({"type": "ghost_placed", "seat": seat, "plate": move["ghost"]})
    state["passes"] = 0
    if len(seats_with_pieces(state)) <= 1:
        _end(state, "G-7.1", events)
    else:
        _next_turn(state, seat)


def _roll(state, direction, events):
    """G-6.2/G-6.3: the ghost walks the torus, jumping flipped plates."""
    start = plate = state["ghost"]
    while True:
        plate = wrap_step(plate, direction)
        if plate == start or plate not in state["flipped"]:
            break
    state["ghost"] = plate
    events.append({"type": "ghost_moved", "dir": direction, "from": start, "to": plate})
    if state["rocks"][start] > 0:
        state["rocks"][start] -= 1
        events.append({"type": "rock_removed", "plate": start})
    if state["pieces"][0]:
        state["to_move"] = [1]
    else:  # G-3.2: seat 1 is skipped, but its roll has happened
        _next_turn(state, 1)


def _next_turn(state, seat):
    """The next slot of the cycle after ``seat`` (G-3.1, G-3.2, G-6.2)."""
    n = state["players"]
    for _ in range(n):
        seat = seat % n + 1
        state["turn"] = seat
        if seat == 1 and state["ghost"] is not None:
            state["to_move"] = [CHANCE]
            return
        if state["pieces"][seat - 1]:
            state["to_move"] = [seat]
            return
    raise AssertionError("no seat can play")


def _end(state, rule, events):
    state.update(phase="over", to_move=[], end=rule)
    events.append({"type": "game_over", "rule": rule})


# ------------------------------------------------------------ helpers
def occupied(state):
    return {p for pieces in state["pieces"] for p in pieces}


def seats_with_pieces(state):
    return [s for s, pieces in enumerate(state["pieces"], start=1) if pieces]
