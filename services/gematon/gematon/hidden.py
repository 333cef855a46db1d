"""GM-6.2: what each seat may see — views, events and logged moves redacted, and the
conformance suite's ``perturb_hidden`` (what a seat cannot see, changed)."""

import random

from referee.engine import clone

from . import rules
from .board import VALUES


def redact(view: dict, seat) -> None:
    """Other seats' hands and the bag show only their counts."""
    for n, mine in enumerate(view["seats"], 1):
        if n != seat:
            mine["hand"] = {"count": len(mine["hand"])}
    view["bag"] = {"count": sum(view["bag"].values())}


def redact_event(event: dict, seat) -> dict:
    if event.get("type") == "chip_drawn" and _hidden_draw(event, seat):
        del event["chip"]
    return event


def redact_move(move: dict, seat) -> dict:
    if move.get("type") == "draw" and _hidden_draw(move, seat):
        move.pop("chip", None)
    return move


def odds_hidden(move: dict) -> bool:
    """GM-6.2: a chip draw's odds are its share of the bag, whose content shows only as
    a count (it holds what the hidden hands lack), so no seat is shown its ``p``; a
    witch's odds count the free witches, which everyone sees."""
    return move.get("type") == "draw"


def _hidden_draw(draw: dict, seat) -> bool:
    """A chip drawn into a hand is seen by its drawer only (GM-6.2); a draw that does
    not say where it went (a hand-written log entry) is hidden from everyone."""
    into = draw.get("into")
    if into in ("stack", "altar"):
        return False
    return not (into == "hand" and draw.get("holder") == seat)


def receiver(state: dict) -> int | None:
    """Companion mode: a chip drawn into a hand is entered by its holder alone (GM-6.2);
    a witch, a stack chip and an altar chip are public."""
    draw = rules.pending_draw(state)
    return draw[1] if draw is not None and draw[0] == "hand" else None


def entry_outcomes(state: dict, entrant) -> list[dict]:
    """Companion mode: the pending outcomes as ``entrant`` knows them: a draw may give any
    value of the bag or of the hands it cannot see (GM-6.1, GM-6.2)."""
    bag = dict(state["bag"])
    for n, other in enumerate(state["seats"], 1):
        if n != entrant:
            for chip in other["hand"]:
                bag[str(chip)] += 1
    return [move for move, weight in rules.chance_outcomes(state, bag) if weight > 0]


def perturb_hidden(state: dict, seat, rnd: random.Random) -> dict:
    """A copy where what ``seat`` cannot see changes: the chips in the bag and in the
    other seats' hands are dealt anew (same hand sizes, same chips in all)."""
    new = clone(state)
    others = [s for n, s in enumerate(new["seats"], 1) if n != seat]
    pool = [int(v) for v, count in new["bag"].items() for _ in range(count)]
    pool += [chip for s in others for chip in s["hand"]]
    rnd.shuffle(pool)
    for s in others:
        size = len(s["hand"])
        s["hand"], pool = sorted(pool[:size]), pool[size:]
    new["bag"] = {str(v): pool.count(v) for v in VALUES}
    return new
