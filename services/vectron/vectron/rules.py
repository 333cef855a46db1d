"""Vectron's rules proper: the setup, chance, the legal moves and playing them.

A turn (V-3, V-4): draw (the deck's card is a chance move), place a hand card on
the own column, move with it, then go on down the column or stop; a fallen seat
gets the deck's top card by force instead. What a destination does is V-5
(:func:`land`); the end of a turn may settle (V-6.1, :mod:`vectron.scoring`) and
refresh. Functions mutate the state they are given: the engine passes a copy.
"""

from referee.engine import CHANCE

from .board import (
    CARDS, CELLS, GATE, GAUGE_LIMIT, HAND_SIZE, HOLDABLE, START_CHIP, STARS, SWAP, SWAP_CARD,
    WINNING_SCORE, destinations, piece,
)
from .position import layout_chips
from .scoring import settlement_points

LAYOUT_TEXT = ("Enter the shuffled grid as {\"type\":\"layout\",\"seat\":\"chance\",\"cells\":"
               "{\"a1\":…,…,\"d4\":…}}: each of the 16 cells a1…d4 names exactly one of the "
               "listed chips (star1, star2, star3, gate, swap) or a seat's placeholder "
               "(seat1…), using up exactly the multiset below (V-2.2).")


def expand(counts: dict) -> list[str]:
    """A multiset ``{name: count}`` as a list of names."""
    return [name for name, count in counts.items() for _ in range(count)]


# ------------------------------------------------------------------ setup
def setup(state: dict, events: list) -> None:
    """V-2: each seat holds a star2, the layout and the deal are chance moves."""
    n = state["players"]
    state.update(
        phase="layout", turn=1, grid=None, held=[START_CHIP] * n, fallen=[False] * n,
        gauges=[0] * n, scores=[0] * n, hands=[[] for _ in range(n)],
        columns=[[] for _ in range(n)], deck=sorted(expand(state["options"]["action_cards"])),
        cursor=None, settlements=[], to_move=[CHANCE],
    )
    events.append({"type": "start_chips", "chip": START_CHIP})


# ----------------------------------------------------------------- chance
def chance_outcomes(state: dict) -> list[tuple[dict, int]] | None:
    """V-7.1: each card the deck can give, weighted by its copies; the layout is not listed."""
    if state["phase"] == "layout":
        return None
    deck = state["deck"]
    return [({"type": "card", "seat": CHANCE, "card": card}, deck.count(card))
            for card in CARDS if card in deck]


def describe_layout(state: dict) -> list[dict]:
    """V-2.2: what the table enters for the grid shuffle (too many layouts to list)."""
    return [{"type": "layout", "seat": CHANCE, "describe": LAYOUT_TEXT,
             "chips": layout_chips(state),
             "pieces": [piece(s) for s in range(1, state["players"] + 1)]}]


def sample_layout(state: dict, rng) -> dict:
    """V-2.2, digital: the remaining map chips and the placeholders shuffled into the grid."""
    things = expand(layout_chips(state))
    things += [piece(s) for s in range(1, state["players"] + 1)]
    rng.shuffle(things)
    return {"type": "layout", "seat": CHANCE, "cells": dict(zip(CELLS, things))}


# ------------------------------------------------------------------ moves
def legal(state: dict, seat: int) -> list[dict]:
    """The acting seat's moves: draw sources, distinct hand cards, destinations (+ stop)."""
    phase = state["phase"]
    if phase == "draw":
        sources = ["deck"] if state["deck"] else []
        sources += [s for s, col in enumerate(state["columns"], start=1) if col]
        return [{"type": "draw", "seat": seat, "source": s} for s in sources]
    if phase == "place":
        return [{"type": "place", "seat": seat, "card": card}
                for card in sorted(set(state["hands"][seat - 1]))]
    moves = [{"type": "move", "seat": seat, "to": cell}
             for cell in card_destinations(state, seat)]
    if not is_first_move(state, seat):
        moves.append({"type": "stop", "seat": seat})
    return moves


def card_destinations(state: dict, seat: int) -> list[str]:
    """V-4.2–V-4.4: the cells the card under the cursor reaches, sorted."""
    card = state["columns"][seat - 1][state["cursor"]]
    grid = state["grid"]
    if card == SWAP_CARD:
        return sorted(c for c, thing in grid.items() if thing == SWAP)
    return destinations(piece_cell(grid, seat), card)


def is_first_move(state: dict, seat: int) -> bool:
    """V-4.1: the cursor still points at the top of the column."""
    return state["cursor"] == len(state["columns"][seat - 1]) - 1


def piece_cell(grid: dict, seat: int) -> str:
    mark = piece(seat)
    return next(c for c, thing in grid.items() if thing == mark)


# ------------------------------------------------------------------- play
def play(state: dict, move: dict, events: list, just3) -> None:
    """Apply an accepted move. ``just3(state, seat, moment, events)`` is the engine's
    V-5.6 hook, called after each move and at each end of turn."""
    kind, seat = move["type"], move["seat"]
    if kind == "layout":
        state["grid"] = {c: move["cells"][c] for c in CELLS}
        events.append({"type": "layout", "cells": dict(state["grid"])})
        state["phase"] = "deal"
    elif kind == "card":
        _card_drawn(state, move["card"], events)
    elif kind == "draw":
        _draw(state, seat, move["source"], events)
    elif kind == "place":
        state["hands"][seat - 1].remove(move["card"])
        state["columns"][seat - 1].append(move["card"])
        events.append({"type": "card_placed", "seat": seat, "card": move["card"]})
        _start_moving(state, seat)
    elif kind == "move":
        _move(state, seat, move["to"], events, just3)
    else:
        events.append({"type": "stopped", "seat": seat})
        _end_turn(state, events, just3)


def card_receiver(state) -> int | None:
    """The seat whose hand the pending deck card goes into (dealt or drawn); None: it goes
    face up onto a column (a forced draw, V-3.2), or no card is pending (the layout)."""
    phase, hands = state["phase"], state["hands"]
    if phase == "deal":  # V-2.3, V-6.3: dealt to seat 1, 2, …, then round again
        return min(range(1, state["players"] + 1), key=lambda s: (len(hands[s - 1]), s))
    return state["turn"] if phase == "deck_draw" else None


def _card_drawn(state, card, events):
    state["deck"].remove(card)
    phase, seat = state["phase"], state["turn"]
    if phase == "deal":
        hands, to = state["hands"], card_receiver(state)
        hands[to - 1] = sorted(hands[to - 1] + [card])
        events.append({"type": "card_dealt", "seat": to, "card": card})
        if all(len(h) == HAND_SIZE for h in hands):
            _start_turn(state, seat)
    elif phase == "deck_draw":  # V-3.1
        state["hands"][seat - 1] = sorted(state["hands"][seat - 1] + [card])
        events.append({"type": "card_drawn", "seat": seat, "source": "deck", "card": card})
        state.update(phase="place", to_move=[seat])
    else:  # forced_draw, V-3.2: straight onto the column; the piece stands up
        state["columns"][seat - 1].append(card)
        state["fallen"][seat - 1] = False
        events.append({"type": "card_forced", "seat": seat, "card": card})
        events.append({"type": "piece_stood_up", "seat": seat})
        _start_moving(state, seat)


def _draw(state, seat, source, events):
    if source == "deck":
        events.append({"type": "deck_draw", "seat": seat})
        state.update(phase="deck_draw", to_move=[CHANCE])
        return
    card = state["columns"][source - 1].pop()
    state["hands"][seat - 1] = sorted(state["hands"][seat - 1] + [card])
    events.append({"type": "card_drawn", "seat": seat, "source": source, "card": card})
    state["phase"] = "place"


def _start_moving(state, seat):
    """V-4.1: the first move uses the card now on top of the column."""
    state.update(phase="move", cursor=len(state["columns"][seat - 1]) - 1, to_move=[seat])


def _move(state, seat, dest, events, just3):
    card = state["columns"][seat - 1][state["cursor"]]
    event = land(state, seat, dest)
    event["card"] = card
    events.append(event)
    just3(state, seat, "move", events)
    state["cursor"] -= 1
    # V-4.6: a gauge at 7 ends the turn at once; V-4.5: so does the column's end
    if max(state["gauges"]) >= GAUGE_LIMIT or state["cursor"] < 0:
        _end_turn(state, events, just3)


def land(state: dict, seat: int, dest: str) -> dict:
    """Move ``seat``'s piece onto ``dest`` with the effect V-5 gives it; the event.

    Mutates ``state`` (grid, held chips, fallen pieces, gauges).
    """
    grid, held, gauges = state["grid"], state["held"], state["gauges"]
    start = piece_cell(grid, seat)
    found = grid[dest]
    event = {"type": "piece_moved", "seat": seat, "from": start, "to": dest}
    if dest == start:  # V-5.5: kicked back to the start; the card counts as used
        event["result"] = "start"
    elif found in HOLDABLE:  # V-5.1, V-5.2: take the chip, leave the old one behind
        given = held[seat - 1]
        held[seat - 1], grid[dest], grid[start] = found, piece(seat), given
        event.update(result="gate" if found == GATE else "star", took=found, left=given)
        if found == GATE:
            event["gains"] = {str(seat): _gain(gauges, seat, STARS[given])}
    elif found == SWAP:  # V-5.3: piece and swap chip trade cells
        grid[dest], grid[start] = piece(seat), SWAP
        event["result"] = "swap"
    else:  # V-5.4: another piece: trade cells and chips, knock it down or stand it up
        other = int(found.removeprefix("seat"))
        mine, theirs = held[seat - 1], held[other - 1]
        grid[dest], grid[start] = piece(seat), piece(other)
        held[seat - 1], held[other - 1] = theirs, mine
        state["fallen"][other - 1] = not state["fallen"][other - 1]
        event.update(result="piece", other=other, took=theirs, gave=mine,
                     other_fallen=state["fallen"][other - 1])
        gains = {}
        if theirs == GATE:
            gains[str(seat)] = _gain(gauges, seat, STARS[mine])
        if mine == GATE:
            gains[str(other)] = _gain(gauges, other, STARS[theirs])
        if gains:
            event["gains"] = gains
    return event


def _gain(gauges: list[int], seat: int, stars: int) -> int:
    gauges[seat - 1] += stars
    return stars


# ------------------------------------------------------------ end of turn
def _end_turn(state, events, just3):
    seat = state["turn"]
    just3(state, seat, "end_of_turn", events)
    events.append({"type": "turn_ended", "seat": seat})
    state["cursor"] = None
    following = seat % state["players"] + 1  # V-1.1: play passes to the left
    if max(state["gauges"]) < GAUGE_LIMIT and state["deck"]:
        _start_turn(state, following)
        return
    _settle(state, events)  # V-6.1
    if max(state["scores"]) >= WINNING_SCORE:  # V-6.4
        state.update(phase="over", to_move=[])
        events.append({"type": "game_over", "scores": list(state["scores"])})
        return
    _refresh(state, following, events)


def _settle(state, events):
    gauges = list(state["gauges"])
    points = settlement_points(gauges)
    state["scores"] = [s + p for s, p in zip(state["scores"], points)]
    state["settlements"].append({"gauges": gauges, "points": points})
    events.append({"type": "settled", "gauges": list(gauges), "points": list(points),
                   "scores": list(state["scores"])})


def _refresh(state, following, events):
    """V-6.3: stand up, gauges to 0, every card back into the deck, deal again."""
    n = state["players"]
    state.update(
        phase="deal", turn=following, fallen=[False] * n, gauges=[0] * n,
        hands=[[] for _ in range(n)], columns=[[] for _ in range(n)],
        deck=sorted(expand(state["options"]["action_cards"])), to_move=[CHANCE],
    )
    events.append({"type": "refreshed"})


def _start_turn(state, seat):
    """V-3.1, V-3.2: a standing seat draws; a fallen one gets the deck's top card."""
    state["turn"] = seat
    if state["fallen"][seat - 1]:
        state.update(phase="forced_draw", to_move=[CHANCE])
    else:
        state.update(phase="draw", to_move=[seat])
