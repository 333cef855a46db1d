"""Reading a Gizmos position: where the cards and spheres are, what a seat may do.

Plain functions over the state dict (see :mod:`gizmos.engine` for its keys),
shared by move generation, play, the position checks and the views.
"""

from .cards import BY_LEVEL, COLORS, MARBLES_PER_COLOR, effect, forbids, limits, trigger_kind


def player(state: dict, seat: int) -> dict:
    return state["seats"][seat - 1]


def ring_size(ring: dict) -> int:
    return sum(ring.values())


def hopper(state: dict) -> dict:
    """The spheres inside the dispenser: all 52 but the row and the rings (Z-10)."""
    return {c: MARBLES_PER_COLOR - state["row"][c] - sum(p["ring"][c] for p in state["seats"])
            for c in COLORS}


def room(state: dict, seat: int) -> int:
    """Free places in the seat's ring (Z-3.2: a full ring takes nothing)."""
    me = player(state, seat)
    return limits(me["built"])["energy"] - ring_size(me["ring"])


def can_file(state: dict, seat: int) -> bool:
    """The Archive has room and no Negator forbids filing (Z-3.1, Z-6.2)."""
    me = player(state, seat)
    return not forbids(me["built"], "file") and len(me["archive"]) < limits(me["built"])["file"]


def can_research(state: dict, seat: int) -> bool:
    return not forbids(player(state, seat)["built"], "research")


def deck_count(state: dict, level: int) -> int:
    deck = state["decks"][str(level)]
    return deck["unseen"] + len(deck["bottom"])


def known_cards(state: dict, level: int) -> list[int]:
    """Cards of ``level`` whose place the state records (not the unseen ones)."""
    found = list(state["display"][str(level)]) + list(state["decks"][str(level)]["bottom"])
    for p in state["seats"]:
        found += [c for c in p["built"] + p["archive"] if c // 100 == level]
    research = state["research"]
    if research and research["level"] == level:
        found += research["cards"]
    return found


def unseen_pool(state: dict, level: int) -> list[int]:
    """The cards the unseen top of a deck may hold; for Level III also the 20 removed."""
    known = set(known_cards(state, level))
    return [c for c in BY_LEVEL[level] if c not in known]


def ready_uses(state: dict) -> dict[int, int]:
    return {int(k): v for k, v in state["turn_state"]["ready"].items()}


def triggered_result(card_id: int) -> dict:
    return effect(card_id)["result"]


def available_converters(state: dict, seat: int) -> list[int]:
    """The seat's Converters not yet activated this turn (Z-5: once per turn)."""
    spent = set(state["turn_state"]["spent"])
    return [c for c in player(state, seat)["built"]
            if effect(c)["kind"] == "converter" and c not in spent]


def trigger_matches(card_id: int, action: str, detail: dict) -> bool:
    """Whether ``action`` ("file"/"pick"/"build") with ``detail`` triggers the gizmo (Z-8)."""
    if trigger_kind(card_id) != action:
        return False
    condition = effect(card_id)["condition"]
    if "colors" in condition:
        return bool(set(condition["colors"]) & set(detail["colors"]))
    if condition.get("from_archive"):
        return detail["source"] == "archive"
    if "level" in condition:
        return detail["level"] == condition["level"]
    return True
