"""Scores (Z-11), and the score helper's check that a table's tally can happen.

The helper (``/v1/calculate``) scores what a table reads off at the end: each
seat's built gizmos, VP tokens and spheres left. A tally the rules cannot
produce is refused with the rule it breaks (RULES.md, "The score helper").
"""

from referee.errors import InvalidInput

from .cards import (
    BUILD_GRANTING, CARDS, DECK_SIZE, END_GIZMOS, END_LEVEL3, STARTING, end_game_vp, level,
    limits, most_vp_tokens,
)


def seat_score(seat, built, vp_tokens, energy, turn_position) -> dict:
    """Z-11: printed VP + VP tokens + Generic awards, with the tie-break facts."""
    printed = sum(CARDS[c]["points"] for c in built)
    generic = sum(end_game_vp(c, energy, vp_tokens) for c in built)
    return {"seat": seat, "total": printed + vp_tokens + generic, "breakdown": {
        "printed": printed, "vp_tokens": vp_tokens, "generic": generic,
        "gizmos_built": len(built), "energy_left": energy, "turn_position": turn_position}}


def _refuse(detail: str, rule: str):
    raise InvalidInput(detail, rule=rule)


def calculate(data: dict) -> list[dict]:
    """``{"seats": [{"seat", "built", "vp_tokens", "energy"}], "turn_order": [seats]}``."""
    seats = data["seats"]
    numbers = [s["seat"] for s in seats]
    if not 2 <= len(seats) <= 4 or sorted(numbers) != list(range(1, len(seats) + 1)):
        _refuse("seats must list seats 1…n once each, 2 to 4 of them", "Z-2")
    order = data.get("turn_order") or sorted(numbers)
    if sorted(order) != sorted(numbers):
        _refuse("turn_order must list every seat once, first player first", "Z-2")
    owned = [c for s in seats for c in s["built"]]
    unknown = sorted({c for c in owned if c not in CARDS})
    if unknown:
        _refuse(f"there is no card {', '.join(map(str, unknown))} (ids are 101–136, "
                "201–236, 301–336 and the starting gizmos 901–904)", "Z-15")
    # the four starting gizmos are alike: a seat may list any one of them
    played = [c for c in owned if c not in STARTING]
    twice = sorted({c for c in played if played.count(c) > 1})
    if twice:
        _refuse(f"card {', '.join(map(str, twice))} is listed more than once; each card "
                "exists once", "Z-1")
    if sum(level(c) == 3 for c in played) > DECK_SIZE[3]:
        _refuse(f"only {DECK_SIZE[3]} Level III cards are in the game", "Z-2")
    scores = []
    for s in sorted(seats, key=lambda s: s["seat"]):
        if sum(c in STARTING for c in s["built"]) > 1:
            _refuse(f"seat {s['seat']} lists two starting gizmos; each seat has one", "Z-2")
        built = [c for c in s["built"] if c not in STARTING] + [STARTING[s["seat"] - 1]]
        _check_seat(s["seat"], built, s["vp_tokens"], s["energy"])
        scores.append(seat_score(s["seat"], built, s["vp_tokens"], s["energy"],
                                 order.index(s["seat"]) + 1))
    # each ring within its Storage Limit (Z-4) also keeps the rings within the spheres:
    # every Increaser in play raises the four limits to 4 × 5 + 24 = 44 in all, and the
    # Energy Row holds 6 of the 52 (Z-10, RULES.md referee decision 3)
    return scores


def _check_seat(seat: int, built: list[int], vp_tokens: int, energy: int) -> None:
    """What one seat's tally must respect at the end of the game."""
    # at the start of its last turn a seat had at most 15 gizmos and 3 of Level III
    # (the game ends after the round that reaches 16 or 4); that turn built one gizmo
    # and one more per gizmo granting a build or a Research (319, 320, 331, 332)
    most = 1 + len(BUILD_GRANTING.intersection(built))
    level3 = sum(level(c) == 3 for c in built)
    if len(built) > END_GIZMOS - 1 + most:
        _refuse(f"seat {seat} lists {len(built)} gizmos (its starting gizmo included): a "
                f"seat ends with at most {END_GIZMOS - 1 + most} with these gizmos", "Z-11")
    if level3 > END_LEVEL3 - 1 + most:
        _refuse(f"seat {seat} lists {level3} Level III gizmos: a seat ends with at most "
                f"{END_LEVEL3 - 1 + most} with these gizmos", "Z-11")
    storage = limits(built)["energy"]
    if energy > storage:
        _refuse(f"seat {seat} has {energy} spheres left but its Storage Limit is {storage}",
                "Z-4")
    tokens = most_vp_tokens(built)
    if vp_tokens > tokens:
        _refuse(f"seat {seat} has {vp_tokens} VP points in tokens, but its gizmos can give "
                f"at most {tokens}" + ("" if tokens else " (it has no gizmo that gives VP "
                                                       "tokens)"), "Z-9")
