"""Checking a position that came over the wire: its shape, and that the rules can reach it
(what each seat may see of it is :mod:`gizmos.hidden`)."""

import json
from collections import Counter

from referee.errors import InvalidState

from .cards import (
    BUILD_GRANTING, BY_LEVEL, CARDS, COLORS, DECK_SIZE, DISPLAY_SIZE, END_GIZMOS, END_LEVEL3,
    LEVELS, MARBLES_PER_COLOR, ROW_SIZE, STARTING, level, limits, most_vp_tokens, trigger_kind,
    uses,
)
from . import table

STATE_KEYS = {"game", "version", "players", "mode", "options", "to_move", "rng",
              "phase", "turn", "round", "seats", "row", "display", "decks", "research",
              "turn_state", "chance", "ending", "passes"}
PHASES = ("main", "research", "return", "actions", "over")
PLAYABLE = frozenset(CARDS) - frozenset(STARTING)
LEVEL_SETS = {lv: frozenset(BY_LEVEL[lv]) for lv in LEVELS}
COLOR_SET = frozenset(COLORS)


def _bad(why: str, rule: str | None = None):
    raise InvalidState(why, rule=rule)


def _is_int(value, low=0, high=None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def _sorted_ids(value, allowed, also=None) -> bool:
    """A strictly increasing list of ids from ``allowed`` (or ``also``)."""
    if not isinstance(value, list) or set(map(type, value)) - {int}:
        return False
    distinct = set(value)
    return (len(distinct) == len(value) and value == sorted(value)
            and allowed.issuperset(distinct - {also}))


def _counts(value, high) -> bool:
    return (isinstance(value, dict) and value.keys() == COLOR_SET
            and all(type(v) is int and 0 <= v <= high for v in value.values()))


def check(state: dict) -> None:
    if set(state) != STATE_KEYS:
        _bad(f"state keys must be exactly {', '.join(sorted(STATE_KEYS))}")
    n = state["players"]
    if state["phase"] not in PHASES or not _is_int(state["turn"], 1, n) or not _is_int(
            state["round"], 1) or not _is_int(state["passes"], 0, n) or type(
            state["ending"]) is not bool:
        _bad("phase, turn, round, passes or ending out of range")
    _check_seats(state, n)
    _check_cards(state)
    _check_turn(state)
    _check_flow(state)
    _check_reach(state)


def _check_seats(state, n):
    seats, row = state["seats"], state["row"]
    if not isinstance(seats, list) or len(seats) != n:
        _bad("seats must hold one entry per seat")
    if not _counts(row, ROW_SIZE) or sum(row.values()) > ROW_SIZE:
        _bad("row must count at most 6 spheres by colour", "Z-2")
    for seat, p in enumerate(seats, start=1):
        if not isinstance(p, dict) or set(p) != {"ring", "built", "archive", "vp_tokens"}:
            _bad(f"seats[{seat - 1}] must have ring, built, archive and vp_tokens")
        if not _sorted_ids(p["built"], PLAYABLE, STARTING[seat - 1]) or (
                STARTING[seat - 1] not in p["built"]):
            _bad(f"seat {seat}: built must be sorted card ids with its starting gizmo")
        if not _sorted_ids(p["archive"], PLAYABLE):
            _bad(f"seat {seat}: archive must be sorted card ids")
        if not _counts(p["ring"], MARBLES_PER_COLOR) or not _is_int(p["vp_tokens"]):
            _bad(f"seat {seat}: ring or vp_tokens malformed")
        have = limits(p["built"])
        if sum(p["ring"].values()) > have["energy"] or len(p["archive"]) > have["file"]:
            _bad(f"seat {seat}: its ring or its Archive is over its limit", "Z-4")
    if any(v < 0 for v in table.hopper(state).values()):
        _bad("more than 13 spheres of a colour", "Z-1")


def _check_cards(state):
    display, decks, research = state["display"], state["decks"], state["research"]
    keys = [str(lv) for lv in LEVELS]
    if not isinstance(display, dict) or sorted(display) != keys or not isinstance(
            decks, dict) or sorted(decks) != keys:
        _bad("display and decks hold levels 1, 2 and 3")
    if research is not None and not (
            isinstance(research, dict) and set(research) == {"level", "cards"}
            and research["level"] in LEVELS and type(research["level"]) is int
            and isinstance(research["cards"], list)
            and all(type(c) is int and c in LEVEL_SETS[research["level"]]
                    for c in research["cards"])):
        _bad("research must be null or {level, cards} of that level")
    for lv in LEVELS:
        row, deck = display[str(lv)], decks[str(lv)]
        if not _sorted_ids(row, LEVEL_SETS[lv]) or len(row) > DISPLAY_SIZE[lv]:
            _bad(f"display level {lv}: sorted cards of that level, at most {DISPLAY_SIZE[lv]}",
                 "Z-2")
        if not (isinstance(deck, dict) and set(deck) == {"unseen", "bottom"}
                and _is_int(deck["unseen"], 0, DECK_SIZE[lv]) and isinstance(deck["bottom"], list)
                and all(type(c) is int and c in LEVEL_SETS[lv] for c in deck["bottom"])):
            _bad(f"deck level {lv} must be {{unseen, bottom}}")
    placed = [c for lv in keys for c in display[lv] + decks[lv]["bottom"]]
    placed += [c for p in state["seats"] for c in p["built"] + p["archive"] if c < 900]
    placed += research["cards"] if research else []
    if len(placed) != len(set(placed)):
        _bad("a card lies in two places", "Z-1")
    per_level = Counter(c // 100 for c in placed)
    for lv in LEVELS:
        known = per_level[lv]
        if known + decks[str(lv)]["unseen"] != DECK_SIZE[lv]:
            _bad(f"level {lv}: {known} cards placed + {decks[str(lv)]['unseen']} unseen is "
                 f"not the {DECK_SIZE[lv]} in play", "Z-2")


def _check_turn(state):
    turn_state = state["turn_state"]
    if not (isinstance(turn_state, dict) and set(turn_state) == {"ready", "spent"}
            and isinstance(turn_state["ready"], dict)):
        _bad("turn_state must be {ready, spent}")
    built = table.player(state, state["turn"])["built"]
    if not _sorted_ids(turn_state["spent"], set(built)):
        _bad("turn_state.spent must be sorted gizmos the seat has built")
    for key, left in turn_state["ready"].items():
        if not key.isdigit() or int(key) not in built or not trigger_kind(int(key)) or (
                int(key) in turn_state["spent"]) or not _is_int(left, 1, uses(int(key))):
            _bad(f"turn_state.ready[{json.dumps(key)}] is not a triggered gizmo with uses "
                 "left", "Z-8")
    reached = any(sum(c // 100 == 3 for c in p["built"]) >= END_LEVEL3
                  or len(p["built"]) >= END_GIZMOS for p in state["seats"])
    if state["ending"] != reached:
        _bad("ending must say whether a seat has built its 4th Level III or 16th gizmo",
             "Z-11")


def _check_flow(state):
    phase, chance, research = state["phase"], state["chance"], state["research"]
    if not isinstance(chance, list) or not all(_chance_entry(e, research) for e in chance):
        _bad("chance must list pending draws")
    quiet = not turn_started(state)
    expected = {
        "main": research is None and quiet,
        "research": research is not None,
        "return": research is not None and len(research["cards"]) >= 2,
        "actions": research is None,
        "over": research is None and not chance and quiet and (
            state["ending"] or state["passes"] == state["players"]),
    }[phase]
    if phase != "over" and state["passes"] == state["players"]:
        _bad("a full round of passes ends the game", "Z-3")
    if not expected:
        _bad(f"phase {json.dumps(phase)} does not agree with research and turn_state")
    if any(e["to"] == "research" for e in chance) and phase != "research":
        _bad("Research draws are pending outside the research phase")
    if phase == "over":
        want = []
    elif chance:
        want = ["chance"]
        head = chance[0]
        if head["draw"] == "card" and not state["decks"][str(head["level"])]["unseen"]:
            _bad("the next card to deal needs no chance: the state was not settled")
    else:
        want = [state["turn"]]
        if phase == "return" and len(research["cards"]) < 2:
            _bad("the last card of a Research goes back by itself")
    if state["to_move"] != want:
        _bad(f"to_move must be {json.dumps(want)} in phase {json.dumps(phase)}")


def _check_reach(state):
    """What no sequence of moves can produce (Z-11, Z-3.4, Z-9): these bounds also
    bound the cost of listing the moves (the payment search, RULES.md)."""
    turn = state["turn"]
    for seat, p in enumerate(state["seats"], start=1):
        gizmos, level3 = len(p["built"]), sum(level(c) == 3 for c in p["built"])
        builds = builds_this_round(state, seat)
        if gizmos > END_GIZMOS - 1 + builds or level3 > END_LEVEL3 - 1 + builds:
            _bad(f"seat {seat} has {gizmos} gizmos, {level3} of Level III: a seat starts a "
                 f"turn with at most {END_GIZMOS - 1} and {END_LEVEL3 - 1} (the game ends "
                 f"after the round that reaches {END_GIZMOS} or {END_LEVEL3}), and it has "
                 f"built at most {builds} since", "Z-11")
        most = most_vp_tokens(p["built"], len(p["archive"]))
        if p["vp_tokens"] > most:
            _bad(f"seat {seat} holds {p['vp_tokens']} VP tokens; its VP-token gizmos can "
                 f"have given at most {most}", "Z-9")
    research = state["research"]
    if research is not None:
        drawing = len(research["cards"]) + sum(e["to"] == "research" for e in state["chance"])
        amount = limits(table.player(state, turn)["built"])["research"]
        if drawing > amount:
            _bad(f"a Research of seat {turn} draws {drawing} cards; its Research Amount is "
                 f"{amount}", "Z-3.4")


def builds_this_round(state, seat) -> int:
    """The most gizmos ``seat`` can have built since the start of its last turn.

    Each turn holds one Build as its action (or from its Research) and one more
    per gizmo granting a build or a Research (319, 320, 331, 332), each at most
    once per turn. For the seat to move that counts the grants it has used so
    far; a seat that has not played since the end was triggered (a later seat)
    or any seat while the end is not triggered is at the start of a turn in
    this sense: every seat then holds at most 15 gizmos and 3 of Level III.
    """
    if not state["ending"]:
        return 0
    turn, phase = state["turn"], state["phase"]
    granting = BUILD_GRANTING.intersection(table.player(state, seat)["built"])
    if phase == "over" or seat < turn:
        return 1 + len(granting)
    if seat > turn:
        return 0
    used = len(BUILD_GRANTING.intersection(state["turn_state"]["spent"]))
    return {"main": 0, "research": used}.get(phase, 1 + used)


def turn_started(state) -> bool:
    return bool(state["turn_state"]["ready"] or state["turn_state"]["spent"])


def _chance_entry(entry, research) -> bool:
    if not isinstance(entry, dict):
        return False
    if entry.get("draw") == "marble":
        return set(entry) == {"draw", "to"} and entry["to"] in ("row", "ring")
    return (set(entry) == {"draw", "level", "to"} and entry["draw"] == "card"
            and entry["level"] in LEVELS and type(entry["level"]) is int
            and (entry["to"] == "display" or entry["to"] == "research" and research is not None
                 and research["level"] == entry["level"]))
