"""What each seat may see (V-7.2): views, events and logged moves with the hidden
cards taken out, and ``perturb_hidden`` for the conformance suite.

Hidden are the other seats' hands (their sizes show) and the deck (its size
shows); columns, the map, held chips, fallen pieces, gauges and scores are public.
"""

import random

from referee.engine import CHANCE, clone

from . import rules


def redact(view: dict, seat) -> None:
    view["hands"] = [hand if s == seat else {"count": len(hand)}
                     for s, hand in enumerate(view["hands"], start=1)]
    view["deck"] = {"count": len(view["deck"])}


def redact_event(event: dict, seat) -> dict:
    """A card dealt or drawn from the deck shows only to its receiver (decision 15)."""
    if event["type"] in ("card_dealt", "card_drawn") and event["seat"] != seat \
            and event.get("source", "deck") == "deck":
        del event["card"]
    return event


def redact_move(move: dict, seat) -> dict:
    # A card move does not say whose hand it fills; its events show the card
    # to those who may see it, so the move itself never does.
    if move.get("type") == "card" and move.get("seat") == CHANCE:
        move.pop("card", None)
    return move


def odds_hidden(move: dict) -> bool:
    """A card's odds are its share of the deck, which the hidden hands' cards are not:
    its ``p`` is shown to nobody (the card itself never shows in the move either)."""
    return move.get("type") == "card" and move.get("seat") == CHANCE


def entry_outcomes(state: dict, entrant) -> list[dict]:
    """Companion mode: the pending card as ``entrant`` knows it: any card of the deck or
    of the hands it cannot see (V-7.1, V-7.2). The layout is public: as listed."""
    if state["phase"] == "layout":
        return rules.describe_layout(state)
    pool = set(state["deck"])
    for n, hand in enumerate(state["hands"], 1):
        if n != entrant:
            pool.update(hand)
    return [{"type": "card", "seat": CHANCE, "card": card} for card in sorted(pool)]


def perturb_hidden(state: dict, seat, rnd: random.Random) -> dict:
    """A copy where what ``seat`` may not see changes: the other hands and the deck
    trade cards at random, each keeping its size (conformance hook)."""
    new = clone(state)
    hidden = [s for s in range(1, new["players"] + 1) if s != seat]
    pool = list(new["deck"]) + [c for s in hidden for c in new["hands"][s - 1]]
    rnd.shuffle(pool)
    for s in hidden:
        size = len(new["hands"][s - 1])
        new["hands"][s - 1], pool = sorted(pool[:size]), pool[size:]
    new["deck"] = sorted(pool)
    return new
