"""The legal moves of the seat whose turn it is, phase by phase (Z-3, Z-8, Z-9).

Phases: ``main`` (one of the four actions, Z-3), ``research`` (build, file or
keep none of the drawn cards, Z-3.4), ``return`` (the rest to the bottom, one
card at a time in the chosen order) and ``actions`` (use triggered gizmos in
any order, then ``end_turn``).
"""

from .cards import CARDS, COLORS, LEVELS, discount, is_generic, level
from .payment import Search
from . import table


def legal(state: dict, seat: int, builds: bool = True) -> list[dict]:
    """The legal moves; ``builds=False``: all but the Builds paying with spheres (what
    accepting any other move needs: only whether one exists matters, for ``pass``)."""
    phase = state["phase"]
    if phase == "main":
        moves = main_actions(state, seat, builds)
        if moves or not builds and can_build(state, seat):
            return moves
        return [{"type": "pass", "seat": seat}]
    if phase == "research":
        return research_choices(state, seat, builds)
    if phase == "return":
        return [{"type": "bottom", "seat": seat, "card": c}
                for c in sorted(state["research"]["cards"])]
    return granted_actions(state, seat) + [{"type": "end_turn", "seat": seat}]


def main_actions(state: dict, seat: int, builds: bool = True) -> list[dict]:
    moves = file_moves(state, seat) + pick_moves(state, seat)
    if builds:
        search = payment_search(state, seat)
        for card, source in _buildable(state, seat):
            moves += build_moves(state, seat, card, source, search)
    return moves + research_moves(state, seat)


def _buildable(state, seat) -> list[tuple[int, str]]:
    """The cards the seat's action may build, display first, and where they are."""
    display = sorted(c for row in state["display"].values() for c in row)
    return [(c, "display") for c in display] + [
        (c, "archive") for c in table.player(state, seat)["archive"]]


def can_build(state, seat) -> bool:
    """Whether the seat's action could build something (the first payment found will do)."""
    search = payment_search(state, seat)
    return any(search.can_pay(*_price(state, seat, card, source))
               for card, source in _buildable(state, seat))


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


def payment_search(state, seat, converters=None) -> Search:
    """The payments the seat's ring and its unused Converters (or only
    ``converters``) allow this turn, shared by every card of one listing."""
    if converters is None:
        converters = table.available_converters(state, seat)
    return Search(table.player(state, seat)["ring"], converters)


def build_moves(state, seat, card: int, source: str, search: Search) -> list[dict]:
    """Every distinct payment for building ``card`` from ``source`` (Z-3.3, Z-5, Z-6.3)."""
    target, low, high = _price(state, seat, card, source)
    return [{"type": "build", "seat": seat, "card": card, "spend": list(spend),
             "converters": list(converters)}
            for spend, converters in search.payments(target, low, high)]


def _price(state, seat, card, source) -> tuple[str, int, int]:
    """What building ``card`` asks: its colour ("any" for a Generic gizmo) and the
    least and most energy of it to pay (discounts are optional, Z-6.3)."""
    info = CARDS[card]
    target = "any" if is_generic(card) else info["color"]
    low = info["cost"] - discount(table.player(state, seat)["built"], card, source)
    return target, low, info["cost"]


BUILD_KEYS = {"type", "seat", "card", "spend", "converters"}


def is_legal_build(state: dict, seat: int, move: dict) -> bool:
    """Whether ``move`` (a Build paying with spheres, no ``via``) is one that
    :func:`legal` lists, checked directly: listing every payment of every card
    costs far more than checking the one named."""
    if state["phase"] not in ("main", "research") or set(move) != BUILD_KEYS or (
            move["type"] != "build"):
        return False
    card, spend, converters = move["card"], move["spend"], move["converters"]
    if type(card) is not int or not isinstance(spend, list) or not isinstance(converters, list):
        return False
    if any(type(c) is not str or c not in COLORS for c in spend) or spend != sorted(spend):
        return False
    if any(type(c) is not int for c in converters) or converters != sorted(set(converters)):
        return False
    if not set(converters) <= set(table.available_converters(state, seat)):
        return False
    me = table.player(state, seat)
    if state["phase"] == "research":
        source = "research" if card in state["research"]["cards"] else None
    elif any(card in row for row in state["display"].values()):
        source = "display"
    else:
        source = "archive" if card in me["archive"] else None
    if source is None:
        return False
    target, low, high = _price(state, seat, card, source)
    spent = {c: spend.count(c) for c in COLORS}
    return payment_search(state, seat, converters).pays_exactly(target, low, high, spent)


def research_choices(state, seat, builds: bool = True) -> list[dict]:
    cards = sorted(state["research"]["cards"])
    moves = []
    search = payment_search(state, seat) if builds else None
    for card in cards if builds else ():
        moves += build_moves(state, seat, card, "research", search)
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
