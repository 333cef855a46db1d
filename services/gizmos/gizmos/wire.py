"""The one wire description of Gizmos: JSON Schemas of its moves, view, score breakdown,
score-helper input, option and component catalog, from which ``referee.wire`` generates
the API's schemas. Every bound comes from the game's own constants (``cards``): what the
rules can reach, so a leaked or malformed field fails validation.
"""

from referee.engine import CHANCE
from referee.wire import BOOL, INT, STR, event

from .cards import (
    BASE_LIMITS, BUILD_GRANTING, BY_LEVEL, CARDS, COLORS, DECK_SIZE, DISPLAY_SIZE, END_GIZMOS,
    LEVELS, MARBLES_PER_COLOR, ROW_SIZE, STARTING, effect,
)

MAX_PLAYERS = len(STARTING)
SEAT = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
CHANCE_SEAT = {"const": CHANCE}
COLOR = {"enum": list(COLORS), "description": "an energy colour"}
LEVEL = {"type": "integer", "minimum": min(LEVELS), "maximum": max(LEVELS)}
#: every card id: 101–136 Level I, 201–236 Level II, 301–336 Level III, 901–904 starting
CARD = {"type": "integer", "enum": sorted(CARDS),
        "description": "a gizmo card id (101–136 Level I, 201–236 Level II, 301–336 Level "
                       "III, 901–904 the starting gizmos; Z-15)"}
#: the cards of the three decks: what can be filed, built, dealt or researched
DECK_CARD = {"type": "integer", "enum": [c for lv in LEVELS for c in BY_LEVEL[lv]],
             "description": "a Level I–III gizmo card id (Z-15)"}


def _granting(action: str) -> dict:
    """The gizmos whose triggered result is ``action``: the only ones a ``via`` may name."""
    ids = sorted(c for c in CARDS if effect(c).get("result", {}).get("action") == action)
    return {"type": "integer", "enum": ids, "description": "the triggered gizmo used (Z-8, Z-9)"}


CONVERTERS = sorted(c for c in CARDS if effect(c)["kind"] == "converter")
MOST_COST = max(c["cost"] for c in CARDS.values())
_UPGRADES = [effect(c) for c in CARDS if effect(c)["kind"] == "upgrade"]
MOST_FILE = BASE_LIMITS["file"] + sum(fx.get("file_limit", 0) for fx in _UPGRADES)
MOST_RESEARCH = BASE_LIMITS["research"] + sum(fx.get("research", 0) for fx in _UPGRADES)
#: Z-11 as the score helper counts it: 15 gizmos before the last turn, one Build in it and
#: one more per gizmo granting a build or a Research
MOST_BUILT = END_GIZMOS - 1 + 1 + len(BUILD_GRANTING)
MOST_USES = max(effect(c)["result"].get("count", 1) for c in CARDS if "result" in effect(c))


def _object(properties: dict, required=None, description=None) -> dict:
    schema = {"type": "object", "properties": properties,
              "required": list(properties) if required is None else list(required),
              "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def _move(description: str, seat: dict, required=None, **fields) -> dict:
    schema = _object({"type": {}, "seat": seat, **fields}, required=(
        None if required is None else ["type", "seat", *required]))
    return dict(schema, description=description)


def _ids(items: dict, most: int, description: str) -> dict:
    return {"type": "array", "items": items, "maxItems": most, "uniqueItems": True,
            "description": description}


SPEND = {"type": "array", "items": COLOR, "maxItems": MOST_COST,
         "description": "the spheres paid from the ring, colours sorted (Z-3.3)"}
USED_CONVERTERS = {"type": "array", "items": {"type": "integer", "enum": CONVERTERS},
                   "maxItems": len(CONVERTERS), "uniqueItems": True,
                   "description": "the Converters used for this Build, ids sorted (Z-5)"}
#: a listing's note on a Build, ignored when sent back: Builds are listed once per spend
OTHER_CONVERTERS = {
    "type": "boolean", "enum": [True],
    "description": "listed Builds only: other minimal Converter sets pay the same spend. A "
                   "listing holds one Build per card and spend, with one of its Converter "
                   "sets; narrowed to the spend (match {\"card\": c, \"spend\": "
                   "[…]}, or ?card=c&spend=red,blue) it lists every set (RULES.md, \"One "
                   "card's ways to pay\"). Ignored when the move is sent back"}

MOVES = {
    "file": _move("File a display card, or a card drawn by Research (Z-3.1); via: the gizmo "
                  "granting it", SEAT, required=["card"], card=DECK_CARD,
                  via=_granting("file")),
    "pick": _move("Pick a sphere of colour from the Energy Row (Z-3.2); via: the gizmo "
                  "granting it", SEAT, required=["color"], color=COLOR, via=_granting("pick")),
    "build": _move("Build card from the display, your Archive or a Research draw, paying "
                   "spend with converters (Z-3.3); via: a free Level I build granted by a "
                   "gizmo", SEAT, required=["card", "spend", "converters"], card=DECK_CARD,
                   spend=SPEND, converters=USED_CONVERTERS, via=_granting("build_free"),
                   other_converters=OTHER_CONVERTERS),
    "research": _move("Research the deck of level (Z-3.4); via: the gizmo granting it", SEAT,
                      required=["level"], level=LEVEL, via=_granting("research")),
    "decline": _move("Research: neither build nor file a drawn card (Z-3.4)", SEAT),
    "bottom": _move("Research: put card at the bottom of its deck, face down (Z-3.4, Z-12); "
                    "other seats see it without the card", SEAT, required=[],
                    card=DECK_CARD),
    "draw": _move("Draw a random sphere from the dispenser, via the triggered gizmo (Z-9)",
                  SEAT, via=_granting("draw_random")),
    "gain_vp": _move("Take the VP tokens of the triggered gizmo via (Z-9)", SEAT,
                     via=_granting("gain_vp_tokens")),
    "end_turn": _move("End the turn (triggered gizmos left unused are forfeited; Z-8)", SEAT),
    "pass": _move("Pass: only when no action is possible (Z-3)", SEAT),
    "deal": _move("Chance: the card turned up from a deck, to the display or to the Research "
                  "draw of researcher (Z-2.5, Z-3.4); a private draw is shown without its card "
                  "to the other seats", CHANCE_SEAT, required=["to"], card=DECK_CARD,
                  to={"enum": ["display", "research"]},
                  researcher=dict(SEAT, description="the seat researching (to research only)"),
                  private={"type": "boolean", "enum": [True],
                           "description": "only the researcher sees the card (the option "
                                          "research_draws_public is false)"}),
    "marble": _move("Chance: the colour of the sphere from the dispenser (Z-10)", CHANCE_SEAT,
                    color=COLOR),
}
for _kind, _schema in MOVES.items():
    _schema["properties"]["type"] = {"const": _kind}

_PER_COLOR = {"type": "object", "additionalProperties": False, "required": list(COLORS)}
RING = dict(_PER_COLOR, properties={c: {"type": "integer", "minimum": 0,
                                        "maximum": MARBLES_PER_COLOR} for c in COLORS},
            description="spheres in the seat's Energy Ring, per colour (Z-4)")
ROW = dict(_PER_COLOR, properties={c: {"type": "integer", "minimum": 0, "maximum": ROW_SIZE}
                                   for c in COLORS},
           description="the Energy Row, per colour (at most 6 in all; Z-2.6)")
SEAT_AREA = _object({
    "ring": RING,
    "built": dict(_ids(CARD, MOST_BUILT, "the seat's built gizmos, its starting gizmo "
                                         "first"), minItems=1),
    "archive": _ids(DECK_CARD, MOST_FILE, "the cards filed in the seat's Archive (Z-3.1)"),
    "vp_tokens": {"type": "integer", "minimum": 0, "description": "the VP tokens' total"},
})
_LEVEL_KEYS = [str(lv) for lv in LEVELS]


def _per_level(schema_of) -> dict:
    return _object({str(lv): schema_of(lv) for lv in LEVELS})


DISPLAY = dict(_per_level(lambda lv: {
    "type": "array", "items": {"type": "integer", "enum": BY_LEVEL[lv]},
    "maxItems": DISPLAY_SIZE[lv], "uniqueItems": True}),
    description="the face-up cards of each level (4, 3 and 2; Z-2.5)")
DECKS = dict(_per_level(lambda lv: _object({"count": {
    "type": "integer", "minimum": 0, "maximum": DECK_SIZE[lv]}})),
    description="each deck's size (its order is hidden from every view; Z-12)")
RESEARCH = {"oneOf": [
    {"type": "null"},
    _object({"level": LEVEL, "cards": _ids(DECK_CARD, MOST_RESEARCH, "the cards drawn")},
            description="the cards the turn's Research drew, as the researcher (or everyone "
                        "with the option research_draws_public) sees them"),
    _object({"level": LEVEL, "count": {"type": "integer", "minimum": 0,
                                       "maximum": MOST_RESEARCH}},
            description="another seat's Research draw: only how many cards (Z-3.4, Z-12)"),
], "description": "the turn's Research draw, or null"}
TURN_STATE = _object({
    "ready": {"type": "object", "propertyNames": {"enum": [str(c) for c in sorted(CARDS)]},
              "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MOST_USES},
              "description": "triggered gizmos not yet used: id → uses left (Z-8)"},
    "spent": _ids(CARD, MOST_BUILT, "gizmos (triggers and Converters) used up this turn "
                                    "(Z-5, Z-8)"),
})
CHANCE_STEP = {"oneOf": [
    _object({"draw": {"const": "card"}, "level": LEVEL,
             "to": {"enum": ["display", "research"]}}),
    _object({"draw": {"const": "marble"}, "to": {"enum": ["row", "ring"]}}),
]}

VIEW = _object({
    "phase": {"enum": ["main", "research", "return", "actions", "over"]},
    "turn": dict(SEAT, description="the seat whose turn it is"),
    "round": {"type": "integer", "minimum": 1},
    "seats": {"type": "array", "items": SEAT_AREA, "minItems": 2, "maxItems": MAX_PLAYERS},
    "row": ROW,
    "display": DISPLAY,
    "decks": DECKS,
    "research": RESEARCH,
    "turn_state": TURN_STATE,
    "chance": {"type": "array", "items": CHANCE_STEP,
               "description": "random steps still to play (tabletop: entered by the table)"},
    "ending": {"type": "boolean", "description": "a seat has built its 4th Level III or 16th "
                                                 "gizmo: the round is the last (Z-11)"},
    "passes": {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS,
               "description": "consecutive passes"},
}, description="A Gizmos position as one seat (or a spectator) sees it.")

BREAKDOWN = _object({
    "printed": {"type": "integer", "minimum": 0, "description": "VP printed on the gizmos"},
    "vp_tokens": {"type": "integer", "minimum": 0, "description": "the VP tokens' total"},
    "generic": {"type": "integer", "minimum": 0,
                "description": "the Generic gizmos' end-game awards (Z-6.4)"},
    "gizmos_built": {"type": "integer", "minimum": 1, "maximum": MOST_BUILT,
                     "description": "1st tie-break (Z-11)"},
    "energy_left": {"type": "integer", "minimum": 0, "maximum": len(COLORS) * MARBLES_PER_COLOR,
                    "description": "2nd tie-break"},
    "turn_position": dict(SEAT, description="3rd tie-break: the latest in turn order wins"),
}, description="Z-11: total = printed + vp_tokens + generic")

OPTIONS = {"research_draws_public": {"type": "boolean"}}

CALCULATE = {
    "type": "object", "additionalProperties": False, "required": ["seats"],
    "description": "What a table reads off at the end (Z-11). A tally the rules cannot "
                   "produce (a card listed twice, more spheres than the Storage Limit, more "
                   "VP tokens than the gizmos give…) is refused with its rule (RULES.md, "
                   "the score helper).",
    "properties": {
        "seats": {"type": "array", "minItems": 2, "maxItems": MAX_PLAYERS, "items": _object({
            "seat": SEAT,
            "built": {"type": "array", "items": {"type": "integer"}, "maxItems": 60,
                      "description": "ids of the seat's built gizmos (Z-15); the starting "
                                     "gizmo may be listed or left out"},
            "vp_tokens": {"type": "integer", "minimum": 0,
                          "description": "total value of its VP tokens"},
            "energy": {"type": "integer", "minimum": 0,
                       "maximum": len(COLORS) * MARBLES_PER_COLOR,
                       "description": "spheres left in its ring"}})},
        "turn_order": {"oneOf": [{"type": "null"}, {
            "type": "array", "items": SEAT, "minItems": 2, "maxItems": MAX_PLAYERS,
            "uniqueItems": True}], "description": "the seats in turn order, first player "
                                                  "first (default 1, 2, …)"},
    },
    "examples": [{
        "seats": [
            {"seat": 1, "built": [101, 117, 133, 205, 233, 301], "vp_tokens": 3,
             "energy": 2},
            {"seat": 2, "built": [902, 102, 109, 210, 234, 311], "vp_tokens": 1,
             "energy": 4}],
        "turn_order": [1, 2]}],
}

WORDS = {"type": "object", "required": ["en", "ja"], "additionalProperties": False,
         "properties": {"en": {"type": "string", "minLength": 1},
                        "ja": {"type": "string", "minLength": 1}},
         "description": "the same words in English and in Japanese"}
_COUNT = {"type": "integer", "minimum": 0}
_KIND = {"enum": ["upgrade", "converter", "file", "pick", "build"]}
EFFECT = {"type": "object", "required": ["kind"], "description": (
    "the effect as data, as the engine plays it: kind (upgrade, converter, file_trigger, "
    "pick_trigger, build_trigger), a trigger's condition and result, a Converter's slots, "
    "an Upgrade's limits, discount, forbid or end-game award"), "properties": {"kind": {
        "enum": ["upgrade", "converter", "file_trigger", "pick_trigger", "build_trigger"]}}}
COMPONENTS = _object({
    "game": {"const": "gizmos"},
    "cards": {"type": "array", "minItems": len(CARDS), "maxItems": len(CARDS), "items": _object({
        "id": CARD, "level": {"type": "integer", "minimum": 0, "maximum": max(LEVELS),
                              "description": "0 for a starting gizmo"},
        "color": {"enum": [*COLORS, "multi", "none"],
                  "description": "multi: a Generic gizmo; none: a starting gizmo"},
        "cost": dict(_COUNT, maximum=MOST_COST),
        "cost_color": {"enum": [*COLORS, "any", "none"]},
        "points": _COUNT, "kind": _KIND, "starting": {"type": "boolean"}, "effect": EFFECT,
        "name": WORDS, "text": WORDS})},
    "kinds": {"type": "array", "items": _object({"id": _KIND, "name": WORDS, "text": WORDS})},
    "spheres": _object({
        "name": WORDS, "text": WORDS, "row_size": {"const": ROW_SIZE},
        "colors": {"type": "array", "minItems": len(COLORS), "maxItems": len(COLORS),
                   "items": _object({"id": COLOR, "name": WORDS,
                                     "count": {"const": MARBLES_PER_COLOR}})}}),
    "decks": {"type": "array", "minItems": len(LEVELS), "maxItems": len(LEVELS),
              "items": _object({"level": LEVEL, "name": WORDS, "cards": _COUNT,
                                "in_play": _COUNT, "display": _COUNT})},
    "starting": {"type": "array", "items": {"enum": list(STARTING)},
                 "minItems": len(STARTING), "maxItems": len(STARTING), "uniqueItems": True},
    "limits": _object({"name": WORDS, "text": WORDS,
                       **{k: {"const": v} for k, v in BASE_LIMITS.items()}}),
    "end": _object({"name": WORDS, "text": WORDS, "level3": _COUNT, "gizmos": _COUNT}),
}, description="Gizmos's components: the 112 cards (effect as data and as text), the kinds "
               "of gizmo, the spheres, the decks, the starting limits and the end, named and "
               "explained in English and Japanese.")


#: Events (what a move or the setup did), one schema per event type; the fields a
#: seat may not see (another's card) are optional: the redacted event leaves them out
EVENTS = {
    "setup": event({"first_player": INT, "players": INT}),
    "card_revealed": event({"card": INT, "level": LEVEL}),
    "row_refilled": event({"color": COLOR}),
    "research_started": event({"count": INT, "level": LEVEL, "seat": SEAT}),
    "card_drawn": event({"level": LEVEL, "private": BOOL, "seat": SEAT}, optional={"card": INT}),
    "research_declined": event({"seat": SEAT}),
    "card_returned": event({"level": LEVEL, "seat": SEAT}, optional={"card": INT}),
    "turn_ended": event({"seat": SEAT}),
    "filed": event({"card": INT, "from": STR, "seat": SEAT}),
    "triggered": event({"gizmo": INT, "seat": SEAT}),
    "picked": event({"color": COLOR, "seat": SEAT}),
    "built": event(
        {
            "card": INT,
            "converters": USED_CONVERTERS,
            "free": BOOL,
            "from": STR,
            "seat": SEAT,
            "spend": SPEND,
        }
    ),
    "energy_drawn": event({"color": COLOR, "seat": SEAT}),
    "vp_gained": event({"count": INT, "seat": SEAT, "via": INT}),
    "end_triggered": event({"gizmos": INT, "level3": INT, "seat": SEAT}),
    "game_over": event({"reason": STR}),
    "passed": event({"seat": SEAT}),
}
