"""The legal moves of the seat whose turn it is, phase by phase (Z-3, Z-8, Z-9).

Phases: ``main`` (one of the four actions, Z-3), ``research`` (build, file or
keep none of the drawn cards, Z-3.4), ``return`` (the rest to the bottom, one
card at a time in the chosen order) and ``actions`` (use triggered gizmos in
any order, then ``end_turn``).
"""

from .cards import CARDS, LEVELS, discount, is_generic, level
from .payment import payments, slots_of
from . import table


def legal(state: dict, seat: int) -> list[dict]:
    phase = state["phase"]
    if phase == "main":
        return main_actions(state, seat) or [{"type": "pass", "seat": seat}]
    if phase == "research":
        return research_choices(state, seat)
    if phase == "return":
        return [{"type": "bottom", "seat": seat, "card": c}
                for c in sorted(state["research"]["cards"])]
    return granted_actions(state, seat) + [{"type": "end_turn", "seat": seat}]


def main_actions(state: dict, seat: int) -> list[dict]:
    moves = file_moves(state, seat) + pick_moves(state, seat)
    me = table.player(state, seat)
    for card in sorted(c for row in state["display"].values() for c in row):
        moves += build_moves(state, seat, card, "display")
    for card in me["archive"]:
        moves += build_moves(state, seat, card, "archive")
    return moves + research_moves(state, seat)


def file_moves(state, seat, via=None) -> list[dict]:
    if not table.can_file(state, seat):
        return []
    return [_with_via({"type": "file", "seat": seat, "card": c}, via)
            for c in sorted(c for row in state["display"].values() for c in row)]


def pick_moves(state, seat, via=None) -> list[dict]:
    if table.room(state, seat) <= 0:
        return []
    return [_with_via({"type": "pick", "seat": seat, "color": c}, via)
            for c, n in sorted(state["row"].items()) if n]


def research_moves(state, seat, via=None) -> list[dict]:
    if not table.can_research(state, seat):
        return []
    return [_with_via({"type": "research", "seat": seat, "level": lv}, via)
            for lv in LEVELS if table.deck_count(state, lv)]


def build_moves(state, seat, card: int, source: str) -> list[dict]:
    """Every distinct payment for building ``card`` from ``source`` (Z-3.3, Z-5, Z-6.3)."""
    me = table.player(state, seat)
    info = CARDS[card]
    target = "any" if is_generic(card) else info["color"]
    low = info["cost"] - discount(me["built"], card, source)
    slots = slots_of(table.available_converters(state, seat))
    return [{"type": "build", "seat": seat, "card": card, "spend": list(spend),
             "converters": list(converters)}
            for spend, converters in payments(target, low, info["cost"], me["ring"], slots)]


def research_choices(state, seat) -> list[dict]:
    cards = sorted(state["research"]["cards"])
    moves = []
    for card in cards:
        moves += build_moves(state, seat, card, "research")
    if table.can_file(state, seat):
        moves += [{"type": "file", "seat": seat, "card": c} for c in cards]
    return moves + [{"type": "decline", "seat": seat}]


def granted_actions(state, seat) -> list[dict]:
    """What the triggered, not yet used gizmos offer now (Z-8, Z-9)."""
    moves = []
    for gizmo, _ in sorted(table.ready_uses(state).items()):
        result = table.triggered_result(gizmo)
        action = result["action"]
        if action == "draw_random":
            if table.room(state, seat) > 0:
                moves.append({"type": "draw", "seat": seat, "via": gizmo})
        elif action == "pick":
            moves += pick_moves(state, seat, gizmo)
        elif action == "gain_vp_tokens":
            moves.append({"type": "gain_vp", "seat": seat, "via": gizmo})
        elif action == "file":
            moves += file_moves(state, seat, gizmo)
        elif action == "research":
            moves += research_moves(state, seat, gizmo)
        else:  # build_free: a Level I gizmo from the display or the Archive
            me = table.player(state, seat)
            candidates = state["display"]["1"] + [c for c in me["archive"] if level(c) == 1]
            moves += [{"type": "build", "seat": seat, "card": c, "spend": [],
                       "converters": [], "via": gizmo} for c in sorted(candidates)]
    return moves


def _with_via(move: dict, via) -> dict:
    if via is not None:
        move["via"] = via
    return move
