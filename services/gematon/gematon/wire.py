"""The one wire description of Gematon: JSON Schemas of its moves, views, score
breakdown, score-helper input, options and component catalog, from which
``referee.wire`` generates the API's schemas. Bounds come from ``board``: what the
rules can reach, so a leaked or malformed field fails validation.
"""

from referee.engine import CHANCE
from referee.wire import INT, STR, event, listof, nullable

from .board import (
    ALTAR_CHIPS, ALTARS, CELLS, CHIPS_PER_VALUE, GAUGE_CELLS, MAX_BLESSING, MAX_PLAYERS,
    MAX_POSITION, MIN_PLAYERS, ROUNDS, VALUES, WITCHES,
)
from .scoring import PATTERNS
from .setup import setup_steps

SEAT = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
CHANCE_SEAT = {"const": CHANCE}
CHIP = {"enum": list(VALUES), "description": "a chip value (GM-1.2: no 3, 6, 9)"}
CELL = {"type": "integer", "minimum": 0, "maximum": CELLS - 1,
        "description": "a pentacle cell (GM-1.5)"}
WITCH = {"type": "integer", "minimum": min(WITCHES), "maximum": max(WITCHES),
         "description": "a witch board, by number (GM-2.1)"}
ALTAR = {"enum": list(ALTARS), "description": "an altar: white w1, w2, w3 or black (GM-1.3)"}
POSITION = {"type": "integer", "minimum": 0, "maximum": MAX_POSITION,
            "description": "a track position (GM-1.7, GM-5.4: no +20 wrap)"}
GAUGE_CELL = {"type": "integer", "minimum": 0, "maximum": GAUGE_CELLS - 1,
              "description": "the gauge marker's cell: the distinct values on the pentacle "
                             "(GM-3.4)"}
PENTACLE = {"type": "array", "minItems": CELLS, "maxItems": CELLS,
            "items": {"oneOf": [CHIP, {"type": "null"}]},
            "description": "the chips on cells 0..6 (null: empty)"}
FULL_PENTACLE = dict(PENTACLE, items=CHIP, description="the chips on cells 0..6 of a "
                                                       "finished game (GM-1.5, GM-5.1)")
WORDS = {"type": "object", "required": ["en", "ja"], "additionalProperties": False,
         "properties": {"en": {"type": "string"}, "ja": {"type": "string"}}}
RULE = {"type": "string", "pattern": r"^GM-\d+(\.\d+)?$"}


def move(description: str, required: list, **fields) -> dict:
    return {"description": description, "type": "object", "properties": fields,
            "required": ["type", "seat", *required], "additionalProperties": False}


MOVES = {
    "push": move("a hand chip onto the stack (GM-3.3)", ["chip"], seat=SEAT, chip=CHIP),
    "operate": move(
        "pop two chips, take the result (or a black-altar chip) onto the stack, place the "
        "altar's other chip on an empty cell (GM-3.4)", ["altar", "take", "cell"],
        seat=SEAT, altar=ALTAR,
        take=dict(CHIP, description="the chip taken onto the stack: the result from a white "
                                    "altar, either chip of the black one"),
        cell=dict(CELL, description="the empty pentacle cell for the altar's other chip")),
    "pick_witch": move("draft only: take one of the witches left (GM-2.1)", ["witch"],
                       seat=SEAT, witch=WITCH),
    "draw": dict(move(
        "chance: a chip from the bag onto a stack, into a hand or onto an altar (GM-2.2, "
        "GM-3.1); a hand draw shows its chip to that hand's seat only (GM-6.2)",
        ["into", "holder"], seat=CHANCE_SEAT,
        chip=dict(CHIP, description="the chip drawn; left out where the seat may not see it"),
        into={"enum": ["stack", "hand", "altar"]},
        holder={"oneOf": [SEAT, ALTAR], "description": "the seat, or the altar, it goes to"}),
        **{"if": {"properties": {"into": {"const": "altar"}}},
           "then": {"properties": {"holder": ALTAR}},
           "else": {"properties": {"holder": SEAT}}}),
    "deal_witch": move("chance: a witch dealt to a seat (GM-2.1)", ["witch", "holder"],
                       seat=CHANCE_SEAT, witch=WITCH, holder=SEAT),
    "remove_witch": move("chance, draft only: a witch back to the box (GM-2.1)", ["witch"],
                         seat=CHANCE_SEAT, witch=WITCH),
}

PENTACLE_LINES = {
    "type": "array", "minItems": CELLS, "maxItems": CELLS, "uniqueItems": True,
    "items": {"type": "array", "minItems": 3, "maxItems": 3, "uniqueItems": True,
              "items": {"type": "integer", "minimum": 0, "maximum": CELLS - 1}},
    "description": "the pentacle's 7 lines, 3 distinct cells 0..6 each, no line twice in any "
                   "order; default the Fano plane (GM-1.5)"}
BLESSING_VALUES = {
    "type": "array", "minItems": GAUGE_CELLS, "maxItems": GAUGE_CELLS,
    "items": {"type": "integer", "minimum": 0, "maximum": MAX_BLESSING},
    "description": f"the value of gauge cells 0..6, each 0 to {MAX_BLESSING}, non-decreasing; "
                   "default k (GM-1.6)"}
OPTIONS = {
    "draft": {"type": "boolean", "description": "expert rule: witches are drafted (seats N…2 "
                                                "pick, seat 1 gets the last) instead of dealt "
                                                "(GM-2.1)"},
    "pentacle_lines": PENTACLE_LINES,
    "blessing_values": BLESSING_VALUES,
}

HIDDEN_COUNT = {"type": "object", "required": ["count"], "additionalProperties": False}
SEAT_VIEW = {
    "type": "object", "additionalProperties": False,
    "required": ["position", "gauge", "stack", "hand", "pentacle"],
    "properties": {
        "position": POSITION,
        "gauge": GAUGE_CELL,
        "stack": {"type": "array", "items": CHIP, "maxItems": 3,
                  "description": "bottom → top (GM-1.4): 2 between moves, 3 after a push"},
        "hand": {"oneOf": [
            {"type": "array", "items": CHIP, "maxItems": 3, "description": "sorted"},
            dict(HIDDEN_COUNT, properties={"count": {"type": "integer", "minimum": 0,
                                                     "maximum": 3}},
                 description="another seat's hand: its size only (GM-6.2)")]},
        "pentacle": PENTACLE,
    }}
TURN = {
    "type": "object", "additionalProperties": False,
    "required": ["seat", "round", "refilled", "pushed", "operated", "sets"],
    "properties": {
        "seat": SEAT, "round": {"type": "integer", "minimum": 1, "maximum": ROUNDS},
        "refilled": {"type": "boolean"}, "pushed": {"type": "boolean"},
        "operated": {"type": "boolean"},
        "sets": {"type": "integer", "minimum": 0, "maximum": CELLS,
                 "description": "sets this turn's placement formed (GM-3.6)"}}}
VIEW = {
    "type": "object", "additionalProperties": False,
    "required": ["phase", "setup_step", "witches", "removed_witches", "awakened", "bag",
                 "altars", "seats", "turn"],
    "properties": {
        "phase": {"enum": ["setup", "play", "over"]},
        "setup_step": {"type": "integer", "minimum": 0, "maximum": max(
            len(setup_steps(n, draft)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            for draft in (False, True))},
        "witches": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                    "items": {"oneOf": [WITCH, {"type": "null"}]},
                    "description": "each seat's witch (null before it has one)"},
        "removed_witches": {"type": "array", "items": WITCH, "uniqueItems": True,
                            "maxItems": len(WITCHES) - MIN_PLAYERS},
        "awakened": {"type": "boolean", "description": "the first set was formed (GM-4.1)"},
        "bag": dict(HIDDEN_COUNT, properties={"count": {
            "type": "integer", "minimum": 0, "maximum": len(VALUES) * CHIPS_PER_VALUE}},
            description="the chips left in the bag: their number only (GM-6.2)"),
        "altars": {"type": "object", "required": list(ALTARS), "additionalProperties": False,
                   "properties": {altar: {"type": "array", "items": CHIP,
                                          "maxItems": ALTAR_CHIPS} for altar in ALTARS}},
        "seats": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                  "items": SEAT_VIEW},
        "turn": {"oneOf": [{"type": "null"}, TURN]},
    }}

LINE = {
    "type": "object", "additionalProperties": False,
    "required": ["cells", "values", "pattern", "points"],
    "properties": {
        "cells": PENTACLE_LINES["items"],
        "values": {"type": "array", "minItems": 3, "maxItems": 3,
                   "items": {"oneOf": [CHIP, {"type": "null"}]}},
        "pattern": {"enum": [*PATTERNS, "incomplete"]},
        "points": {"enum": sorted(set(PATTERNS.values()))}}}
COUNT = {"type": "integer", "minimum": 0, "maximum": CELLS}
BREAKDOWN = {
    "type": "object", "additionalProperties": False,
    "required": ["track", "gauge", "gauge_cell", "lines", "line_points", "patterns", "witch",
                 "turn_order"],
    "properties": {
        "track": POSITION,
        "gauge": {"type": "integer", "minimum": 0, "maximum": MAX_BLESSING,
                  "description": "the gauge cell's value (GM-1.6)"},
        "gauge_cell": GAUGE_CELL,
        "lines": {"type": "array", "minItems": CELLS, "maxItems": CELLS, "items": LINE},
        "line_points": {"type": "integer", "minimum": 0,
                        "maximum": CELLS * max(PATTERNS.values())},
        "patterns": {"type": "object", "additionalProperties": False,
                     "required": ["pure", "nine", "cover"],
                     "properties": {"pure": COUNT, "nine": COUNT, "cover": COUNT}},
        "witch": {"const": 0, "description": "the witch's end bonus: none, the abilities "
                                             "being unpublished (GM-4.2)"},
        "turn_order": dict(SEAT, description="1 = first player; on a tie the later seat "
                                             "ranks higher (GM-5.3)")}}

CALCULATE = {
    "type": "object", "additionalProperties": False, "required": ["seats"],
    "description": "Each seat's track position and pentacle, read off a finished table "
                   "(GM-5.2); only readings the rules can produce are scored.",
    "properties": {
        "seats": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                  "items": {
                      "type": "object", "additionalProperties": False,
                      "required": ["seat", "track", "pentacle"],
                      "properties": {
                          "seat": SEAT,
                          "track": dict(POSITION, description="the pawn's position (+20 "
                                                              "past square 20, GM-5.4)"),
                          "pentacle": FULL_PENTACLE,
                          "gauge": dict(GAUGE_CELL, description=(
                              "optional: the gauge marker's cell, which is the number of "
                              "distinct values on the pentacle (GM-3.4); another is refused"))}}},
        "turn_order": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                       "uniqueItems": True, "items": SEAT,
                       "description": "seats from the first player on (default 1, 2, …): on "
                                      "a tie the later seat ranks higher (GM-5.3)"},
        "options": {"type": "object", "additionalProperties": False,
                    "properties": {"pentacle_lines": PENTACLE_LINES,
                                   "blessing_values": BLESSING_VALUES}}},
    "examples": [{
        "seats": [{"seat": 1, "track": 12, "pentacle": [1, 1, 1, 1, 2, 7, 8]},
                  {"seat": 2, "track": 13, "pentacle": [2, 4, 5, 7, 8, 2, 4], "gauge": 5}],
        "turn_order": [1, 2]}],
}


def described(**fields) -> dict:
    """An object of the catalog: a name and a text in both languages, a rule, and fields."""
    return {"type": "object", "additionalProperties": False,
            "required": ["name", "text", "rule", *fields],
            "properties": {"name": WORDS, "text": WORDS, "rule": RULE, **fields}}


def listed(item: dict, count: int) -> dict:
    return {"type": "array", "items": item, "minItems": count, "maxItems": count}


COMPONENTS = {
    "type": "object", "additionalProperties": False,
    "required": ["game", "name", "chips", "operation", "altars", "pentacle", "patterns",
                 "ritual_board", "track", "witches"],
    "properties": {
        "game": {"const": "gematon"},
        "name": WORDS,
        "chips": described(values={"const": list(VALUES)},
                           per_value={"const": CHIPS_PER_VALUE}),
        "operation": described(
            values={"const": list(VALUES)},
            table=listed(listed(CHIP, len(VALUES)), len(VALUES))),
        "altars": listed(described(id=ALTAR, colour={"enum": ["white", "black"]},
                                   holds={"const": ALTAR_CHIPS}), len(ALTARS)),
        "pentacle": described(cells=listed(CELL, CELLS), lines=PENTACLE_LINES),
        "patterns": listed(described(id={"enum": list(PATTERNS)},
                                     points={"enum": sorted(set(PATTERNS.values()))}),
                           len(PATTERNS)),
        "ritual_board": described(
            areas=listed({"type": "object", "additionalProperties": False,
                          "required": ["id", "name", "text"],
                          "properties": {"id": {"enum": ["stack", "hand", "pop", "gauge"]},
                                         "name": WORDS, "text": WORDS}}, 4),
            gauge_values=BLESSING_VALUES),
        "track": described(printed_squares={"type": "integer", "minimum": 1},
                           rounds={"const": ROUNDS}),
        "witches": listed(described(id=WITCH, ability={"type": "null", "description": (
            "the awakened ability: unpublished, so none (GM-4.2)")}), len(WITCHES)),
    }}


#: Events (what a move or the setup did), one schema per event type; the fields a
#: seat may not see (another's card) are optional: the redacted event leaves them out
EVENTS = {
    "witch_dealt": event({"seat": SEAT, "witch": WITCH}),
    "chip_drawn": event({"holder": {"oneOf": [SEAT, ALTAR]}, "into": {"enum": ["stack", "hand", "altar"]}}, optional={"chip": CHIP}),
    "turn_started": event({"round": INT, "seat": SEAT}),
    "operated": event({"popped": listof(INT), "result": INT, "seat": SEAT}),
    "chip_taken": event({"altar": ALTAR, "chip": CHIP, "seat": SEAT}),
    "chip_placed": event({"cell": CELL, "chip": CHIP, "seat": SEAT}),
    "gauge_advanced": event({"gauge": GAUGE_CELL, "seat": SEAT}),
    "altar_refilled": event({"altar": ALTAR, "chips": listof(CHIP)}),
    "chip_pushed": event({"chip": CHIP, "seat": SEAT}),
    "turn_ended": event({"round": INT, "seat": SEAT}),
    "sets_formed": event({"lines": listof(listof(INT)), "seat": SEAT}),
    "witches_awakened": event({"seat": SEAT, "witches": listof(WITCH)}),
    "penalty": event(
        {"seat": SEAT, "with": nullable(INT)},
        optional={"positions": {"type": "object", "additionalProperties": INT}},
    ),
    "blessed": event({"amount": INT, "from": INT, "overshoot": INT, "seat": SEAT, "to": INT}),
    "game_over": event({"rule": STR}),
    "witch_picked": event({"seat": SEAT, "witch": WITCH}),
    "witch_removed": event({"witch": WITCH}),
}
