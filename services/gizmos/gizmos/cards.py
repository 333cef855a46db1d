"""The 112 Gizmo cards (Z-1, Z-15, Z-16) and what a seat's built gizmos add up to.

``cards.json`` is generated from the shared card data by
``tools/build_cards.py``; ids are the BGA ids (101–136 Level I, 201–236 Level
II, 301–336 Level III, 901–904 the starting gizmos).
"""

import json
from functools import lru_cache
from importlib import resources

COLORS = ("black", "blue", "red", "yellow")
LEVELS = (1, 2, 3)
MARBLES_PER_COLOR = 13  # Z-1, Z-10: 52 spheres
ROW_SIZE = 6
DISPLAY_SIZE = {1: 4, 2: 3, 3: 2}  # Z-2.5
LEVEL3_IN_PLAY = 16  # Z-2.4: 20 of the 36 are removed unseen
STARTING = (901, 902, 903, 904)
BASE_LIMITS = {"energy": 5, "file": 1, "research": 3}  # Z-2.8
END_LEVEL3, END_GIZMOS = 4, 16  # Z-11

CARDS: dict[int, dict] = {
    card["id"]: card
    for card in json.loads(resources.files(__package__).joinpath("cards.json").read_text(
        encoding="utf-8"))
}
PRICES = {i: ("any" if c["effect"].get("generic") else c["color"], c["cost"])
          for i, c in CARDS.items()}
BY_LEVEL = {level: sorted(i for i, c in CARDS.items() if c["level"] == level)
            for level in (0, *LEVELS)}
DECK_SIZE = {1: len(BY_LEVEL[1]), 2: len(BY_LEVEL[2]), 3: LEVEL3_IN_PLAY}


def level(card_id: int) -> int:
    return CARDS[card_id]["level"]


def effect(card_id: int) -> dict:
    return CARDS[card_id]["effect"]


def is_generic(card_id: int) -> bool:
    return bool(effect(card_id).get("generic"))


def price(card_id: int) -> tuple[str, int]:
    """What building the card costs before discounts: its colour ("any" for a Generic
    gizmo, Z-6.4) and energy."""
    return PRICES[card_id]


def colors_of(card_id: int) -> tuple[str, ...]:
    """The colours a Build trigger sees: a Generic gizmo is every colour (Z-6.4)."""
    return COLORS if is_generic(card_id) else (CARDS[card_id]["color"],)


def limits(built: list[int]) -> dict[str, int]:
    """Storage, File and Research limits after the Increasers (Z-4, Z-6.1)."""
    return dict(_limits(tuple(built)))


@lru_cache(maxsize=4096)
def _limits(built: tuple[int, ...]) -> tuple:
    found = dict(BASE_LIMITS)
    for card_id in built:
        fx = effect(card_id)
        if fx["kind"] == "upgrade":
            found["energy"] += fx.get("energy_limit", 0)
            found["file"] += fx.get("file_limit", 0)
            found["research"] += fx.get("research", 0)
    return tuple(found.items())


def forbids(built: list[int], action: str) -> bool:
    """Whether a Negator among ``built`` forbids ``action`` ("file"/"research", Z-6.2)."""
    return action in _forbidden(tuple(built))


@lru_cache(maxsize=4096)
def _forbidden(built: tuple[int, ...]) -> frozenset:
    return frozenset(effect(c)["forbid"] for c in built if "forbid" in effect(c))


def discount(built: list[int], card_id: int, source: str) -> int:
    """Energy the Discount upgrades take off building ``card_id`` from ``source`` (Z-6.3)."""
    discounts = _discounts(tuple(built))
    if not discounts:
        return 0
    applies = {"building_level_2": level(card_id) == 2,
               "building_from_archive": source == "archive",
               "building_from_research": source == "research"}
    return sum(amount for when, amount in discounts if applies[when])


@lru_cache(maxsize=4096)
def _discounts(built: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """``(when, amount)`` of each Discount upgrade among ``built`` (a listing prices
    every card against the same gizmos)."""
    return tuple((fx["discount"]["when"], fx["discount"]["amount"])
                 for c in built if "discount" in (fx := effect(c)))


def _grants_a_build(card_id: int) -> bool:
    fx = effect(card_id)
    return "result" in fx and fx["result"]["action"] in ("build_free", "research")


def trigger_kind(card_id: int) -> str | None:
    """"file", "pick" or "build" for a trigger gizmo, else None."""
    kind = effect(card_id)["kind"]
    return kind.removesuffix("_trigger") if kind.endswith("_trigger") else None


def uses(card_id: int) -> int:
    """How many moves one activation takes: 2 for pick 2, 3 for draw 3 (Z-9: "one at
    a time"), 1 for every other result (Z-8: a gizmo activates at most once per turn).

    A result's ``count`` says how much it gives; only for the results done one at a
    time is it also how often. "+2 VP" (307, 308, 317, 318) is one use worth 2 tokens.
    """
    if not trigger_kind(card_id):
        return 0
    result = effect(card_id)["result"]
    return result["count"] if result.get("one_at_a_time") else 1


def most_vp_tokens(built: list[int], archived: int | None = None) -> int:
    """The most VP tokens a seat with these gizmos can hold (Z-9; the supply is unlimited).

    Tokens come only from the seat's VP-token gizmos, each at most once per action
    that triggers it, and never on its own Build: a Build gizmo on the Builds of
    the other gizmos (one Build each, the starting gizmo aside), a File gizmo on
    the Files after it was built: the ``archived`` cards (at most the File Limit)
    and the cards built since from the Archive, at most one per other gizmo.
    """
    builds = len(built) - 1
    files = (limits(built)["file"] if archived is None else archived) + builds - 1
    most = 0
    for card_id in built:
        result = effect(card_id).get("result", {})
        if result.get("action") == "gain_vp_tokens":
            most += result["count"] * (files if trigger_kind(card_id) == "file" else builds - 1)
    return most


def end_game_vp(card_id: int, ring_size: int, vp_tokens: int) -> int:
    """A Generic gizmo's award (Z-6.4); 0 for every other card."""
    award = effect(card_id).get("end_game_vp")
    return {"energy_in_ring": ring_size, "vp_token_total": vp_tokens}.get(award, 0)


# the gizmos whose result is one more Build in the turn: a free build (319, 320) or
# a Research that may build (331, 332) (Z-9)
BUILD_GRANTING = frozenset(c for c in CARDS if _grants_a_build(c))
