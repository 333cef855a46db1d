"""Why a move is refused: the most specific rule it breaks, in words.

Called only for moves already known to be illegal (or chance entries known to
be impossible), so every field may be any JSON value.
"""

from collections import Counter

from referee.engine import canonical

from .board import CARDS, CELLS, SWAP_CARD, piece
from .position import layout_chips
from .rules import card_destinations, is_first_move, piece_cell
from .wording import words

SEAT_MOVES = {"draw": {"type", "seat", "source"}, "place": {"type", "seat", "card"},
              "move": {"type", "seat", "to"}, "stop": {"type", "seat"}}
PHASE_MOVES = {"draw": ("draw",), "place": ("place",), "move": ("move", "stop")}


def move_problem(state: dict, move: dict) -> tuple[str, str]:
    kind, seat, phase = move.get("type"), move["seat"], state["phase"]
    if kind not in SEAT_MOVES:
        return "V-8", (f"unknown move type {canonical(kind)}: a move is a "
                       f"{words(sorted(SEAT_MOVES), 'or')}")
    if kind not in PHASE_MOVES[phase]:
        return _out_of_order(phase, kind, phase == "move" and is_first_move(state, seat))
    if kind == "draw":
        problem = _draw_problem(state, move.get("source"))
    elif kind == "place":
        card = move.get("card")
        problem = None if card in state["hands"][seat - 1] else (
            "V-3.1", f"{canonical(card)} is not in seat {seat}'s hand")
    elif kind == "move":
        problem = _destination_problem(state, seat, move.get("to"))
    else:
        problem = ("V-4.1", "the first move is mandatory: it cannot be stopped") \
            if is_first_move(state, seat) else None
    if problem is None and set(move) != SEAT_MOVES[kind]:
        extra = sorted(set(move) - SEAT_MOVES[kind])
        rule = "V-4.5" if kind == "move" else "V-8"
        return rule, (f"a {kind} move has exactly the fields {words(sorted(SEAT_MOVES[kind]))}, "
                      f"not {words(extra)}" + (" (the card is implied: the next one down the "
                                               "column)" if kind == "move" else ""))
    return problem or ("V-8", f"not a legal move: {canonical(move)}")


def _out_of_order(phase: str, kind: str, first_move: bool) -> tuple[str, str]:
    if phase == "draw":
        return "V-3.1", "the turn starts by drawing a card (deck or the top of a column)"
    if phase == "place":
        return "V-3.1", "after the draw, place one hand card on top of the own column"
    if first_move:
        return "V-4.1", (f"the first move, with the card on top of the own column, is "
                         f"mandatory: move now (not {kind})")
    return "V-4.5", f"the card is drawn and placed already: move on, or stop (not {kind})"


def _draw_problem(state, source):
    if source == "deck":
        return None if state["deck"] else ("V-3.1", "the deck is empty")
    columns = state["columns"]
    if type(source) is not int or not 1 <= source <= len(columns):
        return "V-3.1", f"source must be \"deck\" or a seat number, not {canonical(source)}"
    if not columns[source - 1]:
        return "V-3.1", f"seat {source}'s action column is empty: nothing to draw"
    return None


def _destination_problem(state, seat, dest):
    if dest not in CELLS:
        return "V-1.2", f"{canonical(dest)} is not a cell: cells are a1…d4"
    reachable = card_destinations(state, seat)
    if dest in reachable:
        return None
    card = state["columns"][seat - 1][state["cursor"]]
    if card == SWAP_CARD:
        return "V-4.4", (f"an S card goes to a swap chip's cell: {words(reachable, 'or')}, "
                         f"not {dest}")
    start = piece_cell(state["grid"], seat)
    return "V-4.3", (f"{card} from {start} reaches {words(reachable, 'or')} (walls kick back), "
                     f"not {dest}")


def chance_problem(state: dict, move: dict) -> tuple[str, str]:
    if state["phase"] == "layout":
        return layout_problem(state, move)
    card = move.get("card")
    if move.get("type") != "card" or set(move) != {"type", "seat", "card"}:
        return "V-8", 'a deck draw is entered as {"type":"card","seat":"chance","card":…}'
    if card not in CARDS:
        return "V-1.4", f"{canonical(card)} is not a card: a card is {words(CARDS, 'or')}"
    return "V-7.1", f"no {card} is left in the deck"


def layout_problem(state: dict, move: dict) -> tuple[str, str] | None:
    """Why an entered layout cannot be the grid shuffle of V-2.2 (None: it can)."""
    if move.get("type") != "layout" or set(move) != {"type", "seat", "cells"}:
        return "V-8", 'the setup is entered as {"type":"layout","seat":"chance","cells":{…}}'
    cells = move["cells"]
    if not isinstance(cells, dict) or sorted(cells) != sorted(CELLS):
        return "V-1.2", "cells must give each of a1…d4 exactly once"
    wanted = Counter(layout_chips(state)) + Counter(
        piece(s) for s in range(1, state["players"] + 1))
    names = list(cells.values())
    if not all(isinstance(v, str) for v in names):
        return "V-2.2", "each cell names a chip or a seat's placeholder"
    got = Counter(names)
    if got != +wanted:
        missing, extra = sorted((wanted - got).elements()), sorted((got - wanted).elements())
        return "V-2.2", (f"the layout must use exactly the chips left after V-2.1 and one "
                         f"placeholder per seat: missing {words(missing) or 'nothing'}, "
                         f"unexpected {words(extra) or 'nothing'}")
    return None
