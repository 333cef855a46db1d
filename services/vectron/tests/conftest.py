"""The ``table`` fixture: Vectron positions for the tests — tabletop games whose chance
the test enters, and positions edited then passed through the engine's state check."""

from collections import Counter

import pytest

from referee.engine import CHANCE, clone
from referee.errors import IllegalMove
from vectron.board import CELLS, CHIPS, piece
from vectron.engine import Vectron


class Table:
    """Drives a Vectron game through the public API, entering every chance outcome."""

    DEFAULT_HANDS = [["O1", "O2"], ["O3", "D1"], ["D2", "D3"], ["S", "S"]]

    def __init__(self):
        self.engine = Vectron()

    def play(self, state, *moves):
        """The state after ``moves``, each applied through the public API."""
        for move in moves:
            state, _ = self.engine.apply(state, move)
        return state

    def events_of(self, state, move):
        return self.engine.apply(state, move)[1]

    @staticmethod
    def card(name):
        return {"type": "card", "seat": CHANCE, "card": name}

    def layout_cells(self, players, placed, map_chips=None):
        """A whole layout: ``placed`` (cell → chip or seatN), the rest filled in a fixed order."""
        chips = Counter(map_chips or self.engine.options["map_chips"].default)
        chips["star2"] -= players
        rest = chips + Counter(piece(s) for s in range(1, players + 1))
        rest -= Counter(placed.values())
        order = [*CHIPS, *(piece(s) for s in range(1, players + 1))]
        filler = iter(sorted(rest.elements(), key=order.index))
        return {c: placed[c] if c in placed else next(filler) for c in CELLS}

    def dealt(self, players=2, placed=None, hands=None, options=None):
        """A tabletop game after the layout and the deal (``hands``: each seat's 2 cards)."""
        state = self.engine.new(players, mode="tabletop", options=options)
        cells = self.layout_cells(players, placed or {}, (options or {}).get("map_chips"))
        state = self.play(state, {"type": "layout", "seat": CHANCE, "cells": cells})
        hands = hands or self.DEFAULT_HANDS[:players]
        for round_ in range(2):
            for seat in range(players):
                state = self.play(state, self.card(hands[seat][round_]))
        return state

    def arrange(self, state, **fields):
        """``state`` with ``fields`` replaced, the deck holding every card not elsewhere.

        The result must pass the engine's own state check.
        """
        new = clone(state)
        new.update(clone(fields))
        every = Counter(new["options"]["action_cards"])
        every -= Counter(c for h in new["hands"] for c in h)
        every -= Counter(c for col in new["columns"] for c in col)
        new["deck"] = sorted(every.elements())
        self.engine.check_state(new)
        return new

    def moving(self, players=2, placed=None, column=(), seat=1, held=None, **fields):
        """Seat ``seat`` about to make its first move with the top of ``column``.

        ``held`` gives the seats' held chips; each chip taken off the grid for them
        leaves a star2 in its place (on a cell ``placed`` does not name).
        """
        placed = placed or {}
        state = self.dealt(players, placed)
        grid = dict(state["grid"])
        for chip in held or ():
            if chip != "star2":
                spare = next(c for c in reversed(CELLS) if c not in placed and grid[c] == chip)
                grid[spare] = "star2"
        columns = [[] for _ in range(players)]
        columns[seat - 1] = list(column)
        return self.arrange(state, grid=grid, held=list(held or state["held"]), columns=columns,
                            phase="move", turn=seat, to_move=[seat], cursor=len(column) - 1,
                            **fields)

    def destinations(self, state):
        return [m["to"] for m in self.engine.legal_moves(state) if m["type"] == "move"]

    def refused(self, state, move) -> IllegalMove:
        with pytest.raises(IllegalMove) as caught:
            self.engine.apply(state, move)
        return caught.value


@pytest.fixture
def table():
    return Table()
