"""What each seat may see (T-10.2): views, events and logged moves redacted, and
``perturb_hidden`` (the conformance suite's re-deal of what a seat cannot see)."""

import json

from referee.engine import CHANCE

from .calls import ANSWERS
from .cards import face
from .table import SEATS, unseen
from .rules import pending_chance


def redact(view, seat):
    """T-10.2: own hand only; counts of the other hands; answers stay sealed."""
    for other in SEATS:
        if other != seat:
            view["hands"][other - 1] = {"count": len(view["hands"][other - 1])}
    if view["drawn"] is not None and view["turn"] != seat:
        view["drawn"] = "hidden"
    if view["window"]:
        view["window"]["answers"] = [a if a["seat"] == seat else {"seat": a["seat"]}
                                     for a in view["window"]["answers"]]


def redact_event(event, seat):
    if event.get("type") in ("card_dealt", "card_drawn") and event.get("seat") != seat:
        event["card"] = "hidden"
    return event


def redact_move(move, seat):
    if move.get("type") in ("deal", "draw") and move.get("to") != seat:
        move["card"] = "hidden"
    elif move.get("type") in ANSWERS and move.get("seat") != seat:
        move = {"type": "answer", "seat": move.get("seat")}
    return move


def odds_hidden(move):
    """T-10.2: every chance outcome (a deal, a draw, an indicator) is a share of the
    unseen cards, which the other hands' cards are not: its ``p`` is shown to nobody."""
    return move.get("seat") == CHANCE


def receiver(state):
    """Companion mode: a card dealt or drawn is entered by the seat it goes to (T-10.2);
    an indicator turned is public."""
    return pending_chance(state).get("to")


def entry_outcomes(state, entrant):
    """Companion mode: the pending outcomes as ``entrant`` knows them: any kind with a copy
    it has not seen — the other hands (and another seat's drawn card) count as unseen to it
    (T-10.1, T-10.2)."""
    pool = dict(unseen(state))
    for other in SEATS:
        if other != entrant:
            for card in state["hands"][other - 1]:
                pool[card] += 1
    if state["drawn"] is not None and state["turn"] != entrant:
        pool[state["drawn"]] += 1
    base = pending_chance(state)
    return [dict(base, card=card) for card, n in pool.items() if n > 0]


def perturb_hidden(state, seat, rnd, *, seats=None, card=None):
    """A copy where what ``seat`` cannot see is dealt afresh: the other hands (or
    only ``seats``), their drawn card and the unseen cards are shuffled together,
    sizes kept — hands and wall, since the wall is the unseen cards.

    Half the re-dealt hands get two cards of the face of ``card`` (by default the
    card of an open call window) where the unseen cards have them, so that
    whether a seat could call it changes between perturbations: who is asked,
    and what the others see of its answer, must not (T-5.1, T-10.2).
    """
    new = json.loads(json.dumps(state))
    hidden = [s for s in SEATS if s != seat] if seats is None else list(seats)
    pool = [kind for kind, n in unseen(new).items() for _ in range(n)]
    pool += [c for s in hidden for c in new["hands"][s - 1]]
    hidden_drawn = new["drawn"] is not None and new["turn"] in hidden
    if hidden_drawn:
        pool.append(new["drawn"])
    rnd.shuffle(pool)
    if card is None and new["window"]:
        card = new["window"]["card"]
    for s in hidden:
        size, hand = len(new["hands"][s - 1]), []
        if card is not None and size >= 2 and rnd.random() < 0.5:
            for _ in range(2):  # a pair for a pon
                match = next((i for i, c in enumerate(pool) if face(c) == face(card)), None)
                if match is not None:
                    hand.append(pool.pop(match))
        missing = size - len(hand)
        hand += pool[:missing]
        del pool[:missing]
        rnd.shuffle(hand)
        new["hands"][s - 1] = hand
    if hidden_drawn:
        new["drawn"] = pool.pop()
    return new
