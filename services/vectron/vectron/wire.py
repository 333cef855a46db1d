"""Vectron on the wire: JSON Schemas of its moves, view, score breakdown, score-helper
input, options and component catalog, written once (``referee.wire`` builds the API's
schemas from them). Bounds come from the game's own constants and say what the rules
can produce: a settled gauge is at most 9 (V-4.6), a score at most 14 (5 before the
settlement that ends the game, plus a 2-player difference of 9), a column at most the
cards outside two hands. What a schema cannot say (counts adding up to 16 or 24, a
layout using each chip once, scores a run of settlements can reach) the engine checks,
citing the rule.
"""

from referee.engine import CHANCE
from referee.wire import BOOL, INT, STR, event, listof

from .board import (
    CARD_COUNT, CARDS, CELLS, CHIPS, GATE, GAUGE_LIMIT, HAND_SIZE, HOLDABLE, MAP_CHIP_COUNT,
    MAX_PLAYERS, MIN_PLAYERS, STARS, START_CHIP, SWAP, SWAP_CARD, SWAP_CHIP_COUNT, WINNING_SCORE,
    piece,
)
from .position import PHASES
from .scoring import GAUGE_MAX, MOST_POINTS, SCORE_MAX

SEAT = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
CHANCE_SEAT = {"const": CHANCE}
#: a one-value enum, not a const: beside an integer, client generators read only this
DECK = {"type": "string", "enum": ["deck"]}
CELL = {"enum": CELLS, "description": "a cell of the 4×4 map: file a–d (left→right), rank "
                                      "1–4 (bottom→top) (V-1.2)"}
CARD = {"enum": list(CARDS), "description": "an action card: O1–O3 orthogonal, D1–D3 "
                                            "diagonal (the digit is the distance), S swap "
                                            "(V-1.4)"}
PIECES = [piece(s) for s in range(1, MAX_PLAYERS + 1)]
GRID = {"type": "object", "properties": {c: {"enum": [*CHIPS, *PIECES]} for c in CELLS},
        "required": CELLS, "additionalProperties": False,
        "description": "what each cell holds: a map chip (star1, star2, star3, gate, swap) or "
                       "a seat's piece (seat1…); each piece once, every chip of map_chips not "
                       "held (V-1.2, V-2.2)"}
GAUGE = {"type": "integer", "minimum": 0, "maximum": GAUGE_MAX,
         "description": "a star gauge: the turn ends when one reaches 7 and a move adds at "
                        "most 3 stars, so it is at most 9 (V-4.6, V-5.2)"}
POINTS = {"type": "integer", "minimum": 0, "maximum": MOST_POINTS,
          "description": "what one settlement gives a seat (V-6.2)"}
SCORE = {"type": "integer", "minimum": 0, "maximum": SCORE_MAX,
         "description": "a score: below 6 until the settlement that ends the game (V-6.4)"}
MOST_COLUMN = CARD_COUNT - HAND_SIZE * MIN_PLAYERS  # every card but two hands


def per_seat(items: dict, description: str) -> dict:
    return {"type": "array", "items": items, "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
            "description": description}


def _move(description: str, seat: dict, required: list[str], **fields) -> dict:
    return {"type": "object", "description": description,
            "properties": {"seat": seat, **fields},
            "required": ["type", "seat", *required], "additionalProperties": False}


MOVES = {
    "draw": _move(
        "V-3.1: draw a card: source \"deck\" or a seat number (the top of its column)",
        SEAT, ["source"],
        source={"oneOf": [DECK, SEAT],
                "description": "\"deck\" (a chance card move follows) or the seat whose "
                               "non-empty action column's top card is taken, the own included"}),
    "place": _move("V-3.1: play a hand card onto the own column: card O1…O3, D1…D3 or S",
                   SEAT, ["card"], card=dict(CARD, description="a card of the seat's hand")),
    "move": _move("V-4: move the piece to cell `to` with the next card of the own column",
                  SEAT, ["to"],
                  to=dict(CELL, description="a cell the card under the cursor reaches (walls "
                                            "kick back, V-4.3; an S card: a swap chip's cell)")),
    "stop": _move("V-4.5: end the turn instead of the next additional move", SEAT, []),
    "layout": _move("chance, at setup: the shuffled grid (cells a1…d4 → chip or seatN)",
                    CHANCE_SEAT, ["cells"], cells=GRID),
    "card": _move(
        "chance: the card drawn from the deck (deal, draw, or a fallen seat's draw)",
        CHANCE_SEAT, [],
        card=dict(CARD, description="the card; a logged card move never shows it (the move "
                                    "does not say whose hand it fills, V-7.2)")),
}

_COUNT = {"type": "object", "required": ["count"], "additionalProperties": False}
VIEW = {
    "description": "The position as one seat (or a spectator) sees it: the other hands and "
                   "the deck show only their sizes (V-7.2).",
    "properties": {
        "phase": {"enum": list(PHASES), "description": "layout, deal, deck_draw and "
                                                       "forced_draw wait for chance"},
        "turn": dict(SEAT, description="the seat whose turn it is (during a deal: whose turn "
                                       "follows it)"),
        "grid": {"oneOf": [{"type": "null"}, GRID],
                 "description": "the map; null until the layout is entered"},
        "held": per_seat({"enum": list(HOLDABLE)}, "each seat's held chip: a star chip or a "
                                                   "gate (swap chips never leave the map)"),
        "fallen": per_seat({"type": "boolean"}, "each seat's piece is knocked down (V-5.4)"),
        "gauges": per_seat(GAUGE, "each seat's star gauge"),
        "scores": per_seat(SCORE, "each seat's score"),
        "hands": per_seat({"oneOf": [
            {"type": "array", "items": CARD, "maxItems": HAND_SIZE + 1,
             "description": "the viewing seat's own hand, sorted (3 cards between draw and "
                            "place)"},
            dict(_COUNT, properties={"count": {"type": "integer", "minimum": 0,
                                               "maximum": HAND_SIZE + 1}},
                 description="another seat's hand: its size only")]}, "each seat's hand"),
        "columns": per_seat({"type": "array", "items": CARD, "maxItems": MOST_COLUMN},
                            "each seat's action column, bottom first (public)"),
        "deck": dict(_COUNT, properties={"count": {"type": "integer", "minimum": 0,
                                                   "maximum": CARD_COUNT}},
                     description="the deck's size (its cards and order are hidden)"),
        "cursor": {"oneOf": [{"type": "null"},
                             {"type": "integer", "minimum": 0, "maximum": MOST_COLUMN - 1}],
                   "description": "phase move: the index in the turn seat's column of the "
                                  "card the next move uses; null otherwise"},
        "settlements": {"type": "array", "description": "every settlement so far (V-6.2)",
                        "items": {"type": "object", "required": ["gauges", "points"],
                                  "additionalProperties": False, "properties": {
                                      "gauges": per_seat(GAUGE, "the gauges settled"),
                                      "points": per_seat(POINTS, "what each seat scored")}}},
    },
    "required": ["phase", "turn", "grid", "held", "fallen", "gauges", "scores", "hands",
                 "columns", "deck", "cursor", "settlements"],
    "additionalProperties": False,
}

BREAKDOWN = {"oneOf": [
    {"type": "object", "description": "a game's score line", "additionalProperties": False,
     "required": ["settlements", "gauge"],
     "properties": {"settlements": {"type": "array", "items": POINTS,
                                    "description": "what the seat scored at each settlement"},
                    "gauge": dict(GAUGE, description="the seat's gauge now")}},
    {"type": "object", "description": "the score helper's line: one settlement",
     "additionalProperties": False, "required": ["gauge", "rank", "gain", "before", "ended"],
     "properties": {
         "gauge": GAUGE,
         "rank": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS,
                  "description": "dense rank by gauge (V-6.2)"},
         "gain": POINTS,
         "before": {"type": "integer", "minimum": 0, "maximum": WINNING_SCORE - 1,
                    "description": "the score before this settlement"},
         "ended": {"type": "boolean", "description": "whether this settlement ends the "
                                                     "game (a score reached 6, V-6.4)"}}},
]}

CALCULATE = {
    "type": "object", "additionalProperties": False, "required": ["gauges"],
    "description": "One settlement read off a real table (V-6.2): the gauges, and the scores "
                   "before it. Tallies the rules cannot produce (two gauges at 7 or more, "
                   "scores no run of settlements adds up to, not one score per gauge) are "
                   "refused with their rule (RULES.md, score helper).",
    "properties": {
        "gauges": per_seat(GAUGE, "each seat's star gauge, seat 1 first"),
        "scores": per_seat({"type": "integer", "minimum": 0, "maximum": WINNING_SCORE - 1,
                            "description": "below 6: a score of 6 has ended the game (V-6.4)"},
                           "each seat's score before the settlement, one per gauge "
                           "(default: all 0)"),
    },
    "examples": [{"gauges": [7, 5, 5, 2], "scores": [3, 2, 1, 0]}],
}


def _counts(least: dict, total: int, fixed: tuple = ()) -> dict:
    """A mix ``{kind: count}``: each kind from its least count up to what the others' least
    counts leave of the total (``fixed`` kinds: exactly their count). The engine checks
    that the counts add up to the total."""
    spare = total - sum(least.values())
    return {"type": "object", "required": list(least), "additionalProperties": False,
            "properties": {kind: {"type": "integer", "minimum": low,
                                  "maximum": low if kind in fixed else low + spare}
                           for kind, low in least.items()}}


OPTIONS = {
    # V-1.3: exactly 2 swaps, a gate (decision 2), a star2 for each of at least 2 seats (V-2.1)
    "map_chips": _counts({"star1": 0, START_CHIP: MIN_PLAYERS, "star3": 0, GATE: 1,
                          SWAP: SWAP_CHIP_COUNT}, MAP_CHIP_COUNT, fixed=(SWAP,)),
    "action_cards": _counts(dict.fromkeys(CARDS, 0), CARD_COUNT),
    "just3_bonus": {"const": False},
}

TEXTS = {"type": "object", "required": ["en", "ja"], "additionalProperties": False,
         "properties": {"en": {"type": "string"}, "ja": {"type": "string"}},
         "description": "the same words in English and in Japanese"}


def _described(**properties) -> dict:
    """A catalog entry: a name and an explanation in both languages, plus its data."""
    return {"type": "object", "additionalProperties": False,
            "required": ["name", "text", *properties],
            "properties": {"name": TEXTS, "text": TEXTS, **properties}}


def _kinds(count: int, **properties) -> dict:
    return {"type": "array", "minItems": count, "maxItems": count,
            "items": _described(**properties)}


_AXIS = {"type": "integer", "minimum": 0, "maximum": 3}
_UNIT = {"type": "integer", "minimum": -1, "maximum": 1}

COMPONENTS = {
    "type": "object", "additionalProperties": False,
    "description": "Vectron's components: the map and its cells, the map chips, the action "
                   "cards (with the cells each O/D card reaches), the pieces and what each "
                   "seat keeps, named and explained in English and Japanese.",
    "required": ["game", "map", "map_chips", "action_cards", "pieces", "held_chip",
                 "star_gauge", "score", "hand", "action_column", "deck"],
    "properties": {
        "game": {"const": "vectron"},
        "map": _described(
            files={"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4},
            ranks={"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4},
            cells={"type": "array", "minItems": len(CELLS), "maxItems": len(CELLS), "items": {
                "type": "object", "additionalProperties": False, "required": ["id", "x", "y"],
                "properties": {"id": CELL, "x": dict(_AXIS, description="0 = file a (left)"),
                               "y": dict(_AXIS, description="0 = rank 1 (bottom)")}}}),
        "map_chips": _described(
            count={"const": MAP_CHIP_COUNT},
            kinds=_kinds(len(CHIPS), id={"enum": list(CHIPS)},
                         stars={"enum": [*sorted(set(STARS.values())), None],
                                "description": "what the chip adds to a gauge when given up "
                                               "for a gate; null for a swap chip"},
                         holdable={"type": "boolean",
                                   "description": "whether a seat can hold it"},
                         default_count={"type": "integer", "minimum": 0,
                                        "maximum": MAP_CHIP_COUNT,
                                        "description": "in the default map_chips"})),
        "action_cards": _described(
            count={"const": CARD_COUNT},
            kinds=_kinds(
                len(CARDS), id=CARD, kind={"enum": ["orthogonal", "diagonal", "swap"]},
                distance={"enum": [*sorted({int(c[1:]) for c in CARDS if c != SWAP_CARD}),
                                   None], "description": "null for S"},
                directions={"oneOf": [{"type": "null"}, {
                    "type": "array", "minItems": 4, "maxItems": 4,
                    # [dx, dy]: both units, so a plain array (schemathesis rewrites
                    # prefixItems into a draft-4 tuple its own check then refuses)
                    "items": {"type": "array", "items": _UNIT, "minItems": 2,
                              "maxItems": 2}}],
                    "description": "[dx, dy] of each of the 4 directions (+1 = right, up); "
                                   "null for S"},
                reach={"oneOf": [{"type": "null"}, {
                    "type": "object", "required": CELLS, "additionalProperties": False,
                    "properties": {c: {"type": "array", "items": CELL, "minItems": 1,
                                       "maxItems": 4, "uniqueItems": True} for c in CELLS}}],
                    "description": "from each cell, the distinct cells the card reaches, walls "
                                   "kicking back (V-4.3); null for S (either swap chip)"},
                default_count={"type": "integer", "minimum": 0, "maximum": CARD_COUNT,
                               "description": "in the default action_cards"})),
        "pieces": _described(
            placeholders={"type": "array", "items": {"enum": PIECES}, "minItems": MAX_PLAYERS,
                          "maxItems": MAX_PLAYERS,
                          "description": "how each seat's piece is written in the layout and "
                                         "the grid"},
            placeholder_name=TEXTS),
        "held_chip": _described(start={"enum": list(HOLDABLE)}),
        "star_gauge": _described(ends_turn_at={"const": GAUGE_LIMIT},
                                 most={"const": GAUGE_MAX}),
        "score": _described(wins_at={"const": WINNING_SCORE}, most={"const": SCORE_MAX}),
        "hand": _described(size={"const": HAND_SIZE}),
        "action_column": _described(),
        "deck": _described(),
    },
}


#: Events (what a move or the setup did), one schema per event type; the fields a
#: seat may not see (another's card) are optional: the redacted event leaves them out
EVENTS = {
    "start_chips": event({"chip": STR}),
    "layout": event({"cells": GRID}),
    "card_dealt": event({"seat": SEAT}, optional={"card": CARD}),
    "deck_draw": event({"seat": SEAT}),
    "card_drawn": event({"seat": SEAT, "source": {"oneOf": [DECK, SEAT]}}, optional={"card": CARD}),
    "card_placed": event({"card": CARD, "seat": SEAT}),
    "piece_moved": event(
        {"card": CARD, "from": CELL, "result": STR, "seat": SEAT, "to": CELL},
        optional={
            "gains": {"type": "object", "additionalProperties": INT},
            "gave": STR,
            "left": STR,
            "other": SEAT,
            "other_fallen": BOOL,
            "took": STR,
        },
    ),
    "turn_ended": event({"seat": SEAT}),
    "card_forced": event({"card": CARD, "seat": SEAT}),
    "piece_stood_up": event({"seat": SEAT}),
    "stopped": event({"seat": SEAT}),
    "settled": event({"gauges": listof(INT), "points": listof(INT), "scores": listof(INT)}),
    "refreshed": event({}),
    "game_over": event({"scores": listof(INT)}),
}
