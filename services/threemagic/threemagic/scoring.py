"""Magic measurement (魔力測定, T-7.2–T-7.4): what a winning hand is worth.

Pure functions of the three spells; the engine and the score helper both use
them. ``tables`` are the scoring options (``attribute_points``,
``number_points``, ``star_points``) with the defaults of RULES.md.
"""

from itertools import combinations

from .cards import LETTER, face, number, starred

CATALYST_POINTS = 10  # T-7.2: per catalyst card per indicator pointing at it
THRESHOLD = 10  # T-7.2: catalysts count only from this base on


def catalyst_of(indicator: str) -> str:
    """The face an indicator points at: same attribute, next number (4 → 0)."""
    return f"{indicator[0]}{(number(indicator) + 1) % 5}"


def _table(points: list[int], count: int) -> int:
    return points[count - 1] if count else 0


def attribute_item(spells, counted: str, tables) -> dict:
    count = sum(spell[0][0] == LETTER[counted] for spell in spells)
    return {"attribute": counted, "spells": count,
            "points": _table(tables["attribute_points"], count)}


def _numbers_kind(group) -> str:
    """same (``444``), sequence (one direction: ``123 123``) or mixed (``123 321``)."""
    readings = {tuple(number(c) for c in spell) for spell in group}
    if len(set(number(c) for c in group[0])) == 1:
        return "same"
    return "sequence" if len(readings) == 1 else "mixed"


def numbers_item(spells, tables) -> dict:
    """The best group of 2 or 3 spells with the same numbers (only the best applies)."""
    best = {"kind": None, "spells": 0, "points": 0}
    for size in (2, 3):
        for group in combinations(spells, size):
            if len({tuple(sorted(number(c) for c in spell)) for spell in group}) != 1:
                continue
            kind = _numbers_kind(group)
            points = tables["number_points"][kind][size - 2]
            if points > best["points"]:
                best = {"kind": kind, "spells": size, "points": points}
    return best


def stars_item(spells, tables) -> dict:
    count = sum(all(starred(c) for c in spell) for spell in spells)
    return {"spells": count, "points": _table(tables["star_points"], count)}


def catalyst_item(spells, indicators: list[str], base: int) -> dict:
    """T-7.2: 10 per catalyst card per indicator, only when the base reaches 10."""
    faces = [face(c) for spell in spells for c in spell]
    items = []
    for indicator in indicators:
        catalyst = catalyst_of(indicator)
        cards = faces.count(catalyst) if base >= THRESHOLD else 0
        items.append({"indicator": indicator, "catalyst": catalyst, "cards": cards,
                      "points": CATALYST_POINTS * cards})
    return {"counted": base >= THRESHOLD, "indicators": items,
            "points": sum(item["points"] for item in items)}


def measure(spells: list[list[str]], counted: str, indicators: list[str], tables) -> dict:
    """The full breakdown of a winning hand; ``counted`` is the attribute whose
    spells score (T-7.2), ``indicators`` those the winner may use."""
    attribute = attribute_item(spells, counted, tables)
    numbers = numbers_item(spells, tables)
    stars = stars_item(spells, tables)
    base = attribute["points"] + numbers["points"] + stars["points"]
    catalyst = catalyst_item(spells, indicators, base)
    return {"spells": [list(s) for s in spells], "attribute": attribute, "numbers": numbers,
            "stars": stars, "base": base, "catalyst": catalyst,
            "total": base + catalyst["points"], "special_draw": base == 0}


def tsumo_share(total: int) -> int:
    """T-7.1: half of the total, rounded up to a multiple of 5."""
    return -(-total // 10) * 5


def settle(total: int, win: str, winner: int, discarder: int | None, seats,
           riichi: bool, called: bool, field: int, pool: int) -> dict:
    """Who pays what (T-7.1) and where the field and the pool go (T-7.4).

    Returns ``{"payments": [{seat, pays}], "receives", "field_taken",
    "pool_taken", "field_to_pool", "pool_after", "changes": [{seat, change}]}``.
    """
    if win == "ron":
        payments = [{"seat": discarder, "pays": total}]
    else:
        payments = [{"seat": s, "pays": tsumo_share(total)} for s in seats if s != winner]
    receives = sum(p["pays"] for p in payments)
    pool_taken = 0 if called else pool  # the pool as it stood before this match
    field_taken = field if riichi else 0
    changes = {s: 0 for s in seats}
    for payment in payments:
        changes[payment["seat"]] -= payment["pays"]
    changes[winner] += receives + pool_taken + field_taken
    changes = [{"seat": s, "change": delta} for s, delta in changes.items()]
    return {"payments": payments, "receives": receives, "field_taken": field_taken,
            "pool_taken": pool_taken, "field_to_pool": field - field_taken,
            "pool_after": pool - pool_taken + field - field_taken, "changes": changes}
