"""GM-4: the witch boards and the points where an awakened ability acts.

The six awakened abilities are not published in any source this project has
(GM-4.2), so every witch ships **without effect**: each hook below returns its
input unchanged. The engine already calls every hook at its point of the turn,
for the seat's witch once the witches have awoken (GM-4.1); giving a witch its
ability means overriding the hooks it uses in a subclass and listing that
subclass in :data:`BOARDS` — nothing in the engine changes, except that an
ability moving the gauge apart from the pentacle's distinct values (or letting
pawns share a position) must relax the matching check in ``position.py``.
"""

NO_EFFECT_NOTE = (
    "The six witches' awakened abilities are not published in any source available to this "
    "referee (GM-4.2): witches are dealt (or drafted) and awaken at the game's first set "
    "(GM-4.1), but every ability has no effect. The engine calls a hook for each point an "
    "ability can act (after refill, before/after push, operation result, altar choice, "
    "pentacle placement, gauge change, blessing amount, penalty, end scoring).")


class Witch:
    """One witch board. Hooks get the live state; they may change it or the given value."""

    def __init__(self, number: int):
        self.number = number

    def after_refill(self, state: dict, seat: int, events: list) -> None:
        """GM-3.1: the refill chip is in the hand."""

    def before_push(self, state: dict, seat: int, chip: int, events: list) -> None:
        """GM-3.3: the chip is about to leave the hand."""

    def after_push(self, state: dict, seat: int, chip: int, events: list) -> None:
        """GM-3.3: the chip is on top of the stack."""

    def operation_result(self, state: dict, seat: int, popped: list, result: int) -> int:
        """GM-3.4: the value the altars are searched for, from the two popped chips."""
        return result

    def altar_choices(self, state: dict, seat: int, result: int, altars: list) -> list:
        """GM-3.4: the altars (by name) the seat may take from."""
        return altars

    def placement_cells(self, state: dict, seat: int, cells: list) -> list:
        """GM-3.4: the pentacle cells the altar's other chip may go to."""
        return cells

    def gauge_advance(self, state: dict, seat: int, steps: int) -> int:
        """GM-3.4: how many cells the gauge marker moves after a placement."""
        return steps

    def blessing_amount(self, state: dict, seat: int, amount: int) -> int:
        """GM-3.6: how many squares the pawn advances."""
        return amount

    def penalty_applies(self, state: dict, seat: int, applies: bool) -> bool:
        """GM-3.5: whether the black altar's swap happens."""
        return applies

    def end_bonus(self, state: dict, seat: int) -> int:
        """GM-5.2: points the witch adds at the end."""
        return 0


BOARDS = {number: Witch(number) for number in range(1, 7)}
DORMANT = Witch(0)  # the normal side: no ability before the awakening (GM-4.1)


def witch_of(state: dict, seat: int) -> Witch:
    """The witch whose hooks apply to ``seat`` now."""
    number = state["witches"][seat - 1]
    if state["awakened"] and number is not None:
        return BOARDS[number]
    return DORMANT
