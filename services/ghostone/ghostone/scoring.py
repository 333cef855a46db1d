"""The score (G-7.3): escape points plus bonuses, per seat; and the score helper.

The score helper scores the escapes a table recorded, in the order they happened
(G-5, G-7). Input::

    {"players": 4, "escapes": [{"seat": 2, "points": 4, "plate": "c3"}, …]}

``plate`` (where the piece escaped to) is optional. Only a record the rules can
produce is scored; each refusal names the rule it breaks:

- a seat is one of 1..players (G-2.1) and escapes at most the pieces it owns (G-1.3);
- nothing escapes once the game is over: it ends as soon as the pieces left all
  belong to one seat (G-7.1), so at least one piece never escapes;
- a named plate is one of a1..d4 (G-1.1) and appears once: an escape flips its
  plate and a flipped plate never takes a piece again (G-1.2);
- each escape scores what its place in the game allows (G-5.2,
  ``board.escape_points_range``).

A record need not reach the end of a game: a table may score a game it stopped,
and G-7.2 can end one long before the pieces run out.
"""

from referee.engine import repr_json
from referee.errors import BadRequest, InvalidInput, InvalidPlayers

from .board import PIECES_PER_SEAT, PLATES, escape_bonus, escape_points_range


def score(state):
    return totals(state["players"], state["escapes"])


def calculate(data):
    """The escapes a table recorded, in order (the module doc says what is refused)."""
    return totals(*recorded_escapes(data))


def totals(players, escapes):
    scores = []
    for seat in range(1, players + 1):
        own = [e for e in escapes if e["seat"] == seat]
        points = sum(e["points"] for e in own)
        bonus = sum(e["bonus"] for e in own)
        scores.append({"seat": seat, "total": points + bonus, "breakdown": {
            "escapes": [{"plate": e.get("plate"), "points": e["points"],
                         "bonus": e["bonus"]} for e in own],
            "escape_points": points, "bonus": bonus}})
    return scores


def recorded_escapes(data: dict) -> tuple[int, list[dict]]:
    """``(players, escapes)`` with each escape's bonus, or the rule the record breaks."""
    players, escapes = data.get("players"), data.get("escapes")
    if type(players) is not int or players not in PIECES_PER_SEAT:
        raise InvalidPlayers(f"Ghostone takes 3 or 4 players, not {repr_json(players)}",
                             rule="G-1.3")
    if not isinstance(escapes, list) or not all(isinstance(e, dict) for e in escapes):
        raise BadRequest("escapes must be a list of objects {seat, points, plate}")
    owned = PIECES_PER_SEAT[players]
    left = {seat: owned for seat in range(1, players + 1)}  # pieces still on the board
    recorded = []
    for n, escape in enumerate(escapes):
        seat, points, plate = escape.get("seat"), escape.get("points"), escape.get("plate")
        where = f"escapes[{n}]"
        if type(seat) is not int or seat not in left:
            raise InvalidInput(f"{where}.seat must be a seat from 1 to {players}, not "
                               f"{repr_json(seat)}", rule="G-2.1")
        if sum(1 for count in left.values() if count) <= 1:
            still = [s for s, count in left.items() if count]
            raise InvalidInput(f"{where} comes after the game ended: only seat {still[0]}'s "
                               "pieces were left", rule="G-7.1")
        if not left[seat]:
            raise InvalidInput(f"{where}: seat {seat} owns {owned} pieces and has escaped "
                               "them all already", rule="G-1.3")
        low, high = escape_points_range(players, n + 1)
        if type(points) is not int or not low <= points <= high:
            raise InvalidInput(f"{where}.points must be from {low} to {high}, what the "
                               f"game's {_ordinal(n + 1)} escape can score with {players} "
                               f"players, not {repr_json(points)}", rule="G-5.2")
        if plate is not None and plate not in PLATES:
            raise InvalidInput(f"{where}.plate must be a plate from a1 to d4, not "
                               f"{repr_json(plate)}", rule="G-1.1")
        if plate is not None and any(e["plate"] == plate for e in recorded):
            raise InvalidInput(f"{where}.plate: {plate} flipped with an earlier escape and "
                               "takes no piece again", rule="G-1.2")
        left[seat] -= 1
        recorded.append({"seat": seat, "plate": plate, "points": points,
                         "bonus": escape_bonus(n + 1)})
    return players, recorded


def _ordinal(number: int) -> str:
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th')}"
