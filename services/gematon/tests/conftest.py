"""Shared helpers: a tabletop game whose draws the test chooses, and edited positions."""

import pytest

from gematon.board import CHIPS_PER_VALUE, VALUES, complete_lines, distinct_values
from gematon.engine import Gematon
from referee.engine import CHANCE


class Table:
    """Drives a Gematon game through the public API, choosing every chance outcome."""

    def __init__(self):
        self.engine = Gematon()

    def setup(self, players=2, stacks=None, hands=None, altars=None, witches=None,
              options=None, picks=None):
        """A tabletop game right after its setup (seat 1's refill pending).

        ``stacks``/``hands``: {seat: chips in draw order}; ``altars``: {altar: chips};
        ``witches``: the witch dealt to each seat in order (or removed, in the draft);
        ``picks``: the draft's picks in order. Anything not given: the most plentiful value.
        """
        plan = {("stack", s): list(c) for s, c in (stacks or {}).items()}
        plan.update({("hand", s): list(c) for s, c in (hands or {}).items()})
        plan.update({("altar", a): list(c) for a, c in (altars or {}).items()})
        witches, picks = list(witches or []), list(picks or [])
        state = self.engine.new(players, mode="tabletop", options=options)
        while state["phase"] == "setup":
            if state["to_move"] != [CHANCE]:
                moves = self.engine.legal_moves(state)
                wanted = picks.pop(0) if picks else moves[0]["witch"]
                state = self.move(state, type="pick_witch", witch=wanted)
                continue
            first = self.engine.legal_moves(state)[0]
            if first["type"] != "draw":
                state, _ = self.chance(state, witch=witches.pop(0)) if witches else \
                    self.chance(state, witch=first["witch"])
                continue
            queue = plan.get((first["into"], first["holder"]))
            chip = queue.pop(0) if queue else self.plentiful(state)
            state, _ = self.chance(state, chip=chip)
        return state

    @staticmethod
    def plentiful(state):
        return max(VALUES, key=lambda v: state["bag"][str(v)])

    def chance(self, state, **want):
        """Apply the listed chance outcome that has the given fields."""
        for move in self.engine.legal_moves(state):
            if all(move.get(k) == v for k, v in want.items()):
                return self.engine.apply(state, {k: v for k, v in move.items() if k != "p"})
        raise AssertionError(f"no chance outcome {want} among {self.engine.legal_moves(state)}")

    def refill(self, state, chip):
        return self.chance(state, chip=chip)[0]

    def move(self, state, **fields):
        return self.play(state, **fields)[0]

    def play(self, state, **fields):
        """Apply a move of the seat to move: ``(state, events)``."""
        return self.engine.apply(state, dict(fields, seat=state["to_move"][0]))

    def rebalance(self, state):
        """After a test edited chips: the bag, gauges and awakening follow, and the
        result must be a state the engine accepts."""
        used = {v: 0 for v in VALUES}
        for mine in state["seats"]:
            for chip in mine["stack"] + mine["hand"] + mine["pentacle"]:
                if chip is not None:
                    used[chip] += 1
            mine["gauge"] = distinct_values(mine["pentacle"])
        for chips in state["altars"].values():
            for chip in chips:
                used[chip] += 1
        state["bag"] = {str(v): CHIPS_PER_VALUE - used[v] for v in VALUES}
        lines = state["options"]["pentacle_lines"]
        state["awakened"] = any(complete_lines(m["pentacle"], lines) for m in state["seats"])
        self.engine.check_state(state)
        return state

    def at_round(self, state, round_, pentacles, positions=None):
        """Seat 1's turn of ``round_`` with the given pentacles (round − 1 chips each)."""
        state["turn"]["round"] = round_
        for seat, cells in pentacles.items():
            state["seats"][seat - 1]["pentacle"] = list(cells)
        for seat, position in (positions or {}).items():
            state["seats"][seat - 1]["position"] = position
        return self.rebalance(state)


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def engine(table):
    return table.engine
