"""What each seat may see (Z-12, RULES.md): views, events and logged moves with the hidden
cards taken out, and ``perturb_hidden`` for the conformance suite.

Hidden are the order and identity of the cards in the decks (including the cards Research
put back and the 20 Level III cards removed unseen). A Research draw is seen only by the
researching seat while it decides, or by everyone with the option research_draws_public
(Z-3.4 item 7, as BGA); either way, which drawn cards are still to go back, while they go
back face down one at a time, is the researching seat's alone. The dispenser holds no order
at all: its content is the 52 spheres minus the row and the rings, which everyone can count.
"""

import random

from .cards import LEVELS
from . import table

def redact(view: dict, seat) -> None:
    """Decks become counts; a Research draw is the researcher's (public with the option,
    Z-3.4 item 7) until the rest go back face down: then only the researcher's (Z-12)."""
    view["decks"] = {lv: {"count": deck["unseen"] + len(deck["bottom"])}
                     for lv, deck in view["decks"].items()}
    research = view["research"]
    if research is not None and seat != view["turn"] and (
            view["phase"] == "return" or not view["options"]["research_draws_public"]):
        view["research"] = {"level": research["level"], "count": len(research["cards"])}


def _research_hidden(state: dict, seat) -> bool:
    """Whether the Research draw's cards are hidden from ``seat`` (Z-3.4 item 7, Z-12)."""
    research = state["research"]
    return research is not None and seat != state["turn"] and (
        state["phase"] == "return" or not state["options"]["research_draws_public"])


def receiver(state: dict) -> int | None:
    """Companion mode: a private Research draw is entered by the researcher alone; a card
    dealt to the display, a public Research draw and a sphere are public (Z-12)."""
    head = state["chance"][0]
    if head["draw"] == "card" and head["to"] == "research" and (
            not state["options"]["research_draws_public"]):
        return state["turn"]
    return None


def unseen_by(state: dict, level: int, seat) -> list[int]:
    """Companion mode: the cards of ``level`` that ``seat`` (None: the table) has not seen,
    any of which it may enter as drawn — the unseen top, the cards put back at the bottom
    (face down to all) and another seat's hidden Research draw (Z-2, Z-12)."""
    pool = set(table.unseen_pool(state, level)) | set(state["decks"][str(level)]["bottom"])
    if _research_hidden(state, seat) and state["research"]["level"] == level:
        pool.update(state["research"]["cards"])
    return sorted(pool)


def perturb_hidden(state: dict, seat, rnd: random.Random) -> dict:
    """A copy of ``state`` with everything ``seat`` may not see reshuffled.

    Per level, the unseen cards, the cards Research put back and (for another
    seat's Research, while it is private or the rest go back) the cards drawn
    trade identities at random.
    """
    new = {**state, "decks": {k: dict(v, bottom=list(v["bottom"]))
                              for k, v in state["decks"].items()}}
    research = state["research"]
    if research is not None:
        new["research"] = dict(research, cards=list(research["cards"]))
    for lv in LEVELS:
        deck = new["decks"][str(lv)]
        slots = [(deck["bottom"], i) for i in range(len(deck["bottom"]))]
        if research is not None and research["level"] == lv and seat != state["turn"] and (
                state["phase"] == "return" or not state["options"]["research_draws_public"]):
            cards = new["research"]["cards"]
            slots += [(cards, i) for i in range(len(cards))]
        hidden = [where[i] for where, i in slots] + table.unseen_pool(state, lv)
        rnd.shuffle(hidden)
        for (where, i), card in zip(slots, hidden):
            where[i] = card
    return new


def redact_event(event: dict, seat) -> dict:
    """A card put back, or drawn by a private Research, is its seat's alone."""
    kind = event.get("type")
    if event.get("seat") != seat and (
            kind == "card_returned" or kind == "card_drawn" and event.get("private")):
        event.pop("card", None)
    return event


def redact_move(move: dict, seat) -> dict:
    """A card put back goes face down (Z-12); a private Research deal is the researcher's."""
    kind = move.get("type")
    if (kind == "bottom" and move.get("seat") != seat
            or kind == "deal" and move.get("private") and move.get("researcher") != seat):
        move.pop("card", None)
    return move
