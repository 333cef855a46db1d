"""The shape of a Ghostone state and which positions the rules can reach.

The state, beyond the envelope every game has::

    phase            "placement" | "play" | "over"
    placement_step   index into the placement order (G-2.2)
    rocks            {"a1": 1, …}  rocks on each of the 16 plates
    flipped          sorted plates that are flipped (G-1.2)
    pieces           [[plates of seat 1's unescaped pieces], [seat 2's], …]
    escapes          [{"seat", "plate", "points", "bonus"}] in order (G-5)
    ghost            the ghost's plate, or null before the 3rd escape (G-6)
    turn             the seat whose slot of the cycle it is (G-3)
    passes           consecutive passes since a piece last moved (G-7.2)
    end              null, or the rule that ended the game ("G-7.1"/"G-7.2")
"""

from referee.engine import CHANCE, repr_json
from referee.errors import InvalidState

from .board import GHOST_ESCAPE, PLACEMENT_ORDER, PLATES, escape_bonus, escape_points_range
from .rules import seats_with_pieces

STATE_KEYS = {"game", "version", "players", "mode", "options", "to_move", "rng",
              "phase", "placement_step", "rocks", "flipped", "pieces", "escapes",
              "ghost", "turn", "passes", "end"}


def check_position(state):
    """Raise InvalidState unless the state is one the rules can reach."""

    def bad(why):
        raise InvalidState(why)

    if set(state) != STATE_KEYS:
        bad(f"state keys must be exactly {', '.join(sorted(STATE_KEYS))}")
    n = state["players"]
    order = PLACEMENT_ORDER[n]
    rocks, flipped, pieces = state["rocks"], state["flipped"], state["pieces"]
    if not isinstance(rocks, dict) or sorted(rocks) != sorted(PLATES) or not all(
            type(v) is int and v >= 0 for v in rocks.values()):
        bad("rocks must give a non-negative count for each of a1…d4")
    if not isinstance(flipped, list) or flipped != sorted(set(flipped)) or not set(
            flipped) <= set(PLATES) or any(rocks[p] for p in flipped):
        bad("flipped must be sorted distinct plates without rocks")
    if not isinstance(pieces, list) or len(pieces) != n or not all(
            isinstance(ps, list) and ps == sorted(ps) and set(ps) <= set(PLATES)
            for ps in pieces):
        bad("pieces must list each seat's plates, sorted")
    placed = [p for ps in pieces for p in ps]
    if len(placed) != len(set(placed)) or set(placed) & set(flipped):
        bad("two pieces share a plate, or a piece stands on a flipped plate")
    escapes = state["escapes"]
    if not isinstance(escapes, list) or len(escapes) != len(flipped):
        bad("every flipped plate is an escape and every escape flipped a plate")
    for i, e in enumerate(escapes):
        low, high = escape_points_range(n, i + 1)
        if not (isinstance(e, dict) and set(e) == {"seat", "plate", "points", "bonus"}
                and type(e["seat"]) is int and 1 <= e["seat"] <= n
                and e["plate"] in flipped and type(e["points"]) is int
                and low <= e["points"] <= high and e["bonus"] == escape_bonus(i + 1)):
            bad(f"escapes[{i}] is not a possible escape")
    if len({e["plate"] for e in escapes}) != len(escapes):
        bad("two escapes on one plate")
    step_ = state["placement_step"]
    if type(step_) is not int or not 0 <= step_ <= len(order):
        bad("placement_step out of range")
    for seat in range(1, n + 1):
        owned = len(pieces[seat - 1]) + sum(e["seat"] == seat for e in escapes)
        if owned != order[:step_].count(seat):
            bad(f"seat {seat} has {owned} pieces; the placement order gives it "
                f"{order[:step_].count(seat)}")
    if sum(rocks.values()) > 16 + 3 * step_:
        bad("more rocks than the setup puts on the board")
    ghost, turn, passes, phase = state["ghost"], state["turn"], state["passes"], state["phase"]
    if (ghost is None) != (len(escapes) < GHOST_ESCAPE) or (
            ghost is not None and ghost not in PLATES):
        bad("the ghost is on a plate exactly from the 3rd escape on")
    if type(passes) is not int or passes < 0:
        bad("passes must be a non-negative integer")
    seats = seats_with_pieces(state)
    if phase == "placement":
        ok = (step_ < len(order) and not escapes and turn is None and passes == 0
              and state["end"] is None and state["to_move"] == [order[step_]])
    elif phase == "play":
        ok = (step_ == len(order) and type(turn) is int and 1 <= turn <= n
              and state["end"] is None and len(seats) > 1 and passes < len(seats)
              and (state["to_move"] == [turn] and turn in seats
                   or state["to_move"] == [CHANCE] and turn == 1 and ghost is not None))
    elif phase == "over":
        # G-7.1 ends the game at the move that leaves one seat's pieces (a move resets
        # the passes); G-7.2 at the pass that completes the cycle of passes
        ok = (step_ == len(order) and state["to_move"] == [] and type(turn) is int
              and 1 <= turn <= n and (
                  state["end"] == "G-7.1" and len(seats) == 1 and passes == 0
                  or state["end"] == "G-7.2" and len(seats) > 1 and passes == len(seats)))
    else:
        ok = False
    if not ok:
        bad(f"phase {repr_json(phase)} does not agree with to_move, turn, passes and end")
