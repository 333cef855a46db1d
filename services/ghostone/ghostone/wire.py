"""Ghostone on the wire: JSON Schemas of its moves, view, score breakdown, score-helper
input and component catalog, written once (``referee.wire`` builds the API's schemas
from them). Bounds come from the game's own constants (``board``) and say what the
rules can produce: a rock count never exceeds the setup's rocks (G-2.4), a game never
has more escapes than pieces but one (G-7.1).
"""

from referee.wire import INT, STR, event, listof, nullable

from .board import (
    DIE, ESCAPE_BONUS, MOST_ESCAPES, ORTHOGONAL, PIECES_PER_SEAT, PLACEMENT_ORDER, PLATES,
    ROCKS_AFTER_SETUP,
)

MIN_PLAYERS, MAX_PLAYERS = min(PIECES_PER_SEAT), max(PIECES_PER_SEAT)
MOST_ROCKS = max(ROCKS_AFTER_SETUP.values())  # no rock is ever added after the setup
MOST_PIECES = max(PIECES_PER_SEAT.values())
BONUSES = sorted({0, *ESCAPE_BONUS})

SEAT = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
PLATE = {"enum": PLATES, "description": "a plate, file a–d (west→east) and rank 1–4 "
                                        "(south→north) (G-1.1)"}
POINTS = {"type": "integer", "minimum": 0, "maximum": MOST_ROCKS,
          "description": "escape points: the rocks on the origin plate before the rock "
                         "moved (G-5.2)"}


def _move(description: str, properties: dict, required: list[str]) -> dict:
    return {"type": "object", "description": description,
            "properties": dict(properties),
            "required": ["type", "seat", *required], "additionalProperties": False}


MOVES = {
    "place": _move(
        "placement phase: a piece on an empty plate and 3 rocks on its neighbours",
        {"type": {"const": "place"}, "seat": SEAT,
         "plate": dict(PLATE, description="the plate the piece goes on; it holds no piece"),
         "rocks": {"type": "array", "items": {"enum": PLATES}, "minItems": 3, "maxItems": 3,
                   "uniqueItems": True,
                   "description": "3 distinct neighbours of the plate (8 directions) that "
                                  "each get a rock; any order, listed sorted (G-2.3)"}},
        ["plate", "rocks"]),
    "move": _move(
        "a piece one plate orthogonally, then a rock from its origin (rock: N/E/S/W or "
        "null); names the ghost's plate when it escapes the game's 3rd piece",
        {"type": {"const": "move"}, "seat": SEAT,
         "from": dict(PLATE, description="the plate of one of the seat's pieces"),
         "to": dict(PLATE, description="one plate N, E, S or W of from: face-up, no piece; "
                                       "without rocks the piece escapes (G-4.1, G-5.1)"),
         "rock": {"enum": [*ORTHOGONAL, None],
                  "description": "where one rock of the origin goes (off the board past an "
                                 "edge), null exactly when no rock can move (G-4.2, G-4.3)"},
         "ghost": dict(PLATE, description="only with the game's 3rd escape: the face-up plate "
                                          "the ghost is placed on (G-6.1)")},
        ["from", "to", "rock"]),
    "pass": _move("only when no piece of the seat can move",
                  {"type": {"const": "pass"}, "seat": SEAT}, []),
    "roll": _move(
        "chance: the ghost's die (dir: N, NE, E, SE, S, SW, W, NW)",
        {"type": {"const": "roll"}, "seat": {"const": "chance"},
         "dir": {"enum": list(DIE), "description": "the face the die shows; the ghost moves "
                                                   "that way (G-6.2, G-6.3)"}},
        ["dir"]),
}

ESCAPE = {"type": "object", "additionalProperties": False,
          "required": ["seat", "plate", "points", "bonus"],
          "properties": {"seat": SEAT,
                         "plate": dict(PLATE, description="where the piece escaped (flipped)"),
                         "points": POINTS,
                         "bonus": {"enum": BONUSES,
                                   "description": "+3, +2, +1 for the game's first three "
                                                  "escapes, then 0 (G-5.3)"}}}

VIEW = {
    "description": "The whole position: Ghostone hides nothing (G-8.2).",
    "properties": {
        "phase": {"enum": ["placement", "play", "over"]},
        "placement_step": {"type": "integer", "minimum": 0,
                           "maximum": max(map(len, PLACEMENT_ORDER.values())),
                           "description": "placements made so far (G-2.2)"},
        "rocks": {"type": "object", "description": "rocks on each plate",
                  "properties": {p: {"type": "integer", "minimum": 0, "maximum": MOST_ROCKS}
                                 for p in PLATES},
                  "required": list(PLATES), "additionalProperties": False},
        "flipped": {"type": "array", "items": {"enum": PLATES}, "uniqueItems": True,
                    "maxItems": max(MOST_ESCAPES.values()),
                    "description": "the flipped plates, sorted (G-1.2)"},
        "pieces": {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                   "description": "per seat (seat 1 first), the plates of its unescaped "
                                  "pieces, sorted",
                   "items": {"type": "array", "items": {"enum": PLATES}, "uniqueItems": True,
                             "maxItems": MOST_PIECES}},
        "escapes": {"type": "array", "items": ESCAPE, "maxItems": max(MOST_ESCAPES.values()),
                    "description": "the escapes in the order they happened (G-5)"},
        "ghost": {"enum": [*PLATES, None],
                  "description": "the ghost's plate; null until the game's 3rd escape (G-6)"},
        "turn": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_PLAYERS,
                 "description": "the seat whose slot of the cycle it is; null while placing "
                                "(G-3)"},
        "passes": {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS,
                   "description": "passes in a row since a piece last moved (G-7.2)"},
        "end": {"enum": [None, "G-7.1", "G-7.2"], "description": "the rule that ended the "
                                                                 "game, or null"},
    },
    "required": ["phase", "placement_step", "rocks", "flipped", "pieces", "escapes", "ghost",
                 "turn", "passes", "end"],
    "additionalProperties": False,
}

BREAKDOWN = {
    "type": "object", "additionalProperties": False,
    "required": ["escapes", "escape_points", "bonus"],
    "properties": {
        "escapes": {"type": "array", "maxItems": MOST_PIECES,
                    "description": "the seat's escapes, in the order they happened",
                    "items": {"type": "object", "additionalProperties": False,
                              "required": ["plate", "points", "bonus"],
                              "properties": {
                                  "plate": {"enum": [*PLATES, None],
                                            "description": "null where the score helper "
                                                           "was not told"},
                                  "points": POINTS, "bonus": ESCAPE["properties"]["bonus"]}}},
        "escape_points": {"type": "integer", "minimum": 0,
                          "maximum": MOST_PIECES * MOST_ROCKS},
        "bonus": {"type": "integer", "minimum": 0, "maximum": sum(ESCAPE_BONUS)},
    },
}

CALCULATE = {
    "type": "object", "additionalProperties": False, "required": ["players", "escapes"],
    "description": "The escapes a table recorded, in the order they happened. Records the "
                   "rules cannot produce are refused with their rule (RULES.md).",
    "properties": {
        "players": {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS},
        "escapes": {"type": "array", "maxItems": max(MOST_ESCAPES.values()), "items": {
            "type": "object", "additionalProperties": False, "required": ["seat", "points"],
            "properties": {
                "seat": SEAT, "points": POINTS,
                "plate": dict(PLATE, description="optional: the plate the piece escaped to, "
                                                 "each at most once")}}},
    },
    "examples": [{"players": 4, "escapes": [
        {"seat": 2, "points": 4, "plate": "c3"}, {"seat": 1, "points": 2, "plate": "a2"},
        {"seat": 2, "points": 3, "plate": "d1"}, {"seat": 4, "points": 0}]}],
}

TEXTS = {"type": "object", "required": ["en", "ja"], "additionalProperties": False,
         "properties": {"en": {"type": "string"}, "ja": {"type": "string"}},
         "description": "the same words in English and in Japanese"}


def _described(**properties) -> dict:
    """A catalog entry: a name and an explanation in both languages, plus its data."""
    return {"type": "object", "additionalProperties": False,
            "required": ["name", "text", *properties],
            "properties": {"name": TEXTS, "text": TEXTS, **properties}}


def _per_players(field: str, schema: dict) -> dict:
    return {"type": "array", "minItems": len(PIECES_PER_SEAT), "maxItems": len(PIECES_PER_SEAT),
            "items": {"type": "object", "additionalProperties": False,
                      "required": ["players", field],
                      "properties": {"players": {"enum": list(PIECES_PER_SEAT)},
                                     field: schema}}}


DIRECTION = {"enum": list(DIE)}
_UNIT = {"type": "integer", "minimum": -1, "maximum": 1}

COMPONENTS = {
    "type": "object", "additionalProperties": False,
    "description": "Ghostone's components: the board, its 16 plates and their two faces, the "
                   "pieces, rocks, ghost, die and directions, named in English and Japanese.",
    "required": ["game", "board", "plates", "plate_faces", "pieces", "rocks", "ghost", "die",
                 "directions", "setups", "escape_bonuses"],
    "properties": {
        "game": {"const": "ghostone"},
        "board": _described(
            files={"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4},
            ranks={"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4}),
        "plates": {"type": "array", "minItems": len(PLATES), "maxItems": len(PLATES), "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "x", "y", "neighbours", "steps", "ghost_steps"],
            "properties": {
                "id": {"enum": PLATES},
                "x": {"type": "integer", "minimum": 0, "maximum": 3,
                      "description": "0 = file a (west)"},
                "y": {"type": "integer", "minimum": 0, "maximum": 3,
                      "description": "0 = rank 1 (south)"},
                "neighbours": {"type": "array", "items": {"enum": PLATES}, "minItems": 3,
                               "maxItems": 8, "uniqueItems": True,
                               "description": "the 8-neighbours, where a placement's rocks "
                                              "go (G-2.3)"},
                "steps": {"type": "object", "additionalProperties": False,
                          "required": list(ORTHOGONAL),
                          "properties": {d: {"enum": [*PLATES, None]} for d in ORTHOGONAL},
                          "description": "the plate one step N/E/S/W for pieces and rocks; "
                                         "null off the board"},
                "ghost_steps": {"type": "object", "additionalProperties": False,
                                "required": list(DIE),
                                "properties": {d: {"enum": PLATES} for d in DIE},
                                "description": "the plate one step each way on the ghost's "
                                               "wrapping board (before jumping flipped "
                                               "plates)"}}}},
        "plate_faces": {"type": "array", "minItems": 2, "maxItems": 2, "items":
            _described(id={"enum": ["face_up", "flipped"]})},
        "pieces": _described(per_seat=_per_players(
            "pieces", {"type": "integer", "minimum": 1, "maximum": MOST_PIECES})),
        "rocks": _described(
            at_start_per_plate={"const": 1},
            after_setup=_per_players("rocks", {"type": "integer", "minimum": 0,
                                               "maximum": MOST_ROCKS})),
        "ghost": _described(appears_with_escape={"type": "integer", "minimum": 1,
                                                 "description": "the game's escape that "
                                                                "brings the ghost (G-6.1)"}),
        "die": _described(faces={"type": "array", "items": DIRECTION, "minItems": len(DIE),
                                 "maxItems": len(DIE), "uniqueItems": True}),
        "directions": {"type": "array", "minItems": len(DIE), "maxItems": len(DIE), "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "dx", "dy", "orthogonal", "name"],
            "properties": {"id": DIRECTION, "dx": dict(_UNIT, description="+1 = east"),
                           "dy": dict(_UNIT, description="+1 = north"),
                           "orthogonal": {"type": "boolean",
                                          "description": "a way pieces and rocks can move"},
                           "name": TEXTS}}},
        "setups": {"type": "array", "minItems": len(PLACEMENT_ORDER),
                   "maxItems": len(PLACEMENT_ORDER), "items": {
                       "type": "object", "additionalProperties": False,
                       "required": ["players", "placement_order", "first_to_play"],
                       "properties": {
                           "players": {"enum": list(PLACEMENT_ORDER)},
                           "placement_order": {"type": "array", "items": SEAT,
                                               "description": "the seat of each placement "
                                                              "(G-2.2)"},
                           "first_to_play": dict(SEAT, description="the last seat (G-3.1)")}}},
        "escape_bonuses": {"type": "array", "items": {"type": "integer", "minimum": 1},
                           "description": "the bonus of the game's 1st, 2nd, 3rd escape "
                                          "(G-5.3)"},
    },
}


#: Events (what a move or the setup did), one schema per event type; the fields a
#: seat may not see (another's card) are optional: the redacted event leaves them out
EVENTS = {
    "piece_placed": event({"plate": PLATE, "rocks": listof(PLATE), "seat": SEAT}),
    "piece_moved": event({"from": PLATE, "seat": SEAT, "to": PLATE}),
    "rock_pushed": event({"dir": STR, "from": PLATE, "to": nullable(PLATE)}),
    "piece_escaped": event({"bonus": INT, "plate": PLATE, "points": INT, "seat": SEAT}),
    "ghost_placed": event({"plate": PLATE, "seat": SEAT}),
    "ghost_moved": event({"dir": STR, "from": PLATE, "to": PLATE}),
    "rock_removed": event({"plate": PLATE}),
    "game_over": event({"rule": STR}),
    "passed": event({"seat": SEAT}),
}
