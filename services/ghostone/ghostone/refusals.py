"""Why a move is illegal: the rule it breaks and a sentence saying how (``_why_illegal``).

Asked only about a move the rules do not list, which may hold any JSON in any field;
values are written as on the board (b2, N) or, when they are not, as JSON.
"""

from referee.engine import CHANCE, repr_json

from .board import DIE, GHOST_ESCAPE, NEIGHBOURS, ORTHOGONAL, PLATES, step
from .rules import occupied, rock_directions
from .wire import MOVES

NOUNS = {"place": "placement", "move": "piece move", "pass": "pass", "roll": "die roll"}


def why_illegal(state, move):
    kind, seat = move.get("type"), move["seat"]
    if seat == CHANCE:
        return _why_bad_roll(move)
    if kind == "roll":
        return "G-8.1", ('the die is chance\'s to roll, not a seat\'s: a table enters it as '
                         'seat "chance" before seat 1\'s turn')
    if kind not in ("place", "move", "pass"):
        return "G-9", f"unknown move type {repr_json(kind)}: a seat places, moves or passes"
    if state["phase"] == "placement" and kind != "place":
        return "G-2.2", "the placement phase is on: place a piece"
    if state["phase"] != "placement" and kind == "place":
        return "G-2.2", "the placement phase is over"
    if shape := _why_bad_shape(move):
        return shape
    if kind == "place":
        return _why_bad_placement(state, move)
    if kind == "pass":
        return "G-3.3", "passing is allowed only when no piece can move"
    return _why_bad_move(state, move, seat)


def _why_bad_roll(move):
    if move.get("type") != "roll":
        return "G-8.1", "the only chance event is the die roll: a move of type \"roll\""
    if move.get("dir") not in DIE:
        return "G-1.5", f"the die shows {_listed(DIE, 'or')}, not {_word(move.get('dir'))}"
    return _why_bad_shape(move)


def _why_bad_shape(move):
    """G-9: a move has exactly its type's fields (``wire.MOVES``)."""
    kind = move["type"]
    schema = MOVES[kind]
    missing = [f for f in schema["required"] if f not in move]
    extra = sorted(f for f in move if f not in schema["properties"])
    if missing:
        return "G-9", f"a {NOUNS[kind]} names {_listed(schema['required'], 'and')}: " \
                      f"{_listed(missing, 'and')} {'is' if len(missing) == 1 else 'are'} missing"
    if extra:
        return "G-9", f"a {NOUNS[kind]} has no field {_listed(map(repr_json, extra), 'or')}"
    return None


def _why_bad_placement(state, move):
    plate, rocks = move["plate"], move["rocks"]
    if plate not in PLATES:
        return "G-1.1", f"there is no plate {_word(plate)}: plates are a1 to d4"
    if plate in occupied(state):
        return "G-2.3", f"{plate} already holds a piece"
    if not isinstance(rocks, list) or len(rocks) != 3 or len(set(map(repr_json, rocks))) != 3:
        return "G-2.3", "choose exactly 3 distinct neighbouring plates for rocks"
    wrong = [r for r in rocks if r not in NEIGHBOURS[plate]]
    if wrong:
        are = "is not a neighbour" if len(wrong) == 1 else "are not neighbours"
        return "G-2.3", f"{_listed(map(_word, wrong), 'and')} {are} of {plate} " \
                        f"({_listed(NEIGHBOURS[plate], 'and')} are)"
    return None


def _why_bad_move(state, move, seat):
    origin, dest, rock = move["from"], move["to"], move["rock"]
    if origin not in state["pieces"][seat - 1]:
        return "G-4.1", f"seat {seat} has no piece on {_word(origin)}"
    if dest not in PLATES or dest not in [step(origin, d) for d in ORTHOGONAL]:
        return "G-4.1", f"{_word(dest)} is not one plate N, E, S or W of {origin}"
    if dest in state["flipped"]:
        return "G-1.2", f"{dest} is flipped"
    if dest in occupied(state):
        return "G-4.1", f"{dest} holds a piece"
    escapes = state["rocks"][dest] == 0
    allowed = rock_directions(state, origin, dest, escapes)
    if rock is None and allowed:
        return "G-4.3", (f"the rock move is mandatory: push a rock from {origin} "
                         f"({_listed(allowed, 'or')})")
    if rock is not None and not allowed:
        return "G-4.3", f"no rock can move from {origin}: rock must be null"
    if rock is not None and rock not in allowed:
        if rock not in ORTHOGONAL:
            return "G-4.2", f"a rock moves N, E, S or W, not {_word(rock)}"
        if escapes and step(origin, rock) == dest:
            return "G-4.4", f"{dest} flips as the piece escapes: no rock can go there"
        return "G-4.2", f"the rock cannot go {rock} onto flipped {step(origin, rock)}"
    return _why_bad_ghost(state, move, dest, escapes)


def _why_bad_ghost(state, move, dest, escapes):
    third_escape = escapes and len(state["escapes"]) == GHOST_ESCAPE - 1
    ghost = move.get("ghost")
    if third_escape and ghost is None:
        return "G-6.1", "this escape is the game's 3rd: name the ghost's plate"
    if not third_escape and "ghost" in move:
        return "G-6.1", "the ghost is placed only with the game's 3rd escape"
    if third_escape and ghost not in PLATES:
        return "G-6.1", f"there is no plate {_word(ghost)} for the ghost"
    if third_escape and ghost in state["flipped"]:
        return "G-6.1", f"{ghost} is flipped: the ghost goes on a face-up plate"
    if third_escape and ghost == dest:
        return "G-6.1", f"{dest} flips with this escape: the ghost goes on a face-up plate"
    return None


def _word(value) -> str:
    """A plate or a direction as written on the board; anything else as JSON."""
    if isinstance(value, str) and (value in PLATES or value in DIE):
        return value
    return repr_json(value)


def _listed(words, conjunction: str) -> str:
    """``a1, a2 and a3`` (or ``… or …``)."""
    words = list(words)
    return words[0] if len(words) == 1 else \
        f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
