"""The one wire description of Three Magic: JSON Schemas of its moves, view, score
breakdown, score-helper input (and its payment), options and component catalog,
from which ``referee.wire`` generates the API's schemas. Bounds come from the
game's own constants (``cards``, ``table``, ``scoring``): what the rules can reach,
so a leaked or malformed field fails validation.
"""

from referee.engine import CHANCE
from referee.wire import BOOL, INT, STR, event, listof, nullable

from .calls import ANSWERS
from .cards import (
    ATTRIBUTES, COPIES, DECK_SIZE, FACE_COPIES, HAND_SIZE, LETTER, MAX_CALLS, PATTERNS,
)
from .position import ENDS, PHASES
from .scoring import CATALYST_POINTS
from .table import (
    MANAGER_STAKE, MAX_OD, MOST_DISCARDS, MOST_FIELD, MOST_INDICATORS, MOST_POOL, OD_RANGE,
    ROTATIONS, SEATS, UNUSED_CARDS, full_draw_pile,
)

SEAT = {"type": "integer", "minimum": 1, "maximum": len(SEATS)}
CHANCE_SEAT = {"const": CHANCE}
# A pattern, not an enum: exactly the 27 kinds, but "B1" and "B1*" would be one name in a
# generated client's enum (openapi-python-client turns both into B1 and loses one).
CARD_PATTERN = r"[RBG](0|[1-4]\*?)"
CARD = {"type": "string", "pattern": f"^{CARD_PATTERN}$",
        "description": "a mana card: R (fire), B (water) or G (wood), a number 0–4, * when "
                       "starred (T-1.2)"}
HIDDEN = "hidden"
CARD_OR_HIDDEN = {"type": "string", "pattern": f"^({CARD_PATTERN}|{HIDDEN})$",
                  "description": 'a mana card, or "hidden" where the seat may not see it '
                                 "(T-10.2)"}
assert sorted(COPIES) == sorted(f"{a}{n}{s}" for a in "RBG" for n in range(5)
                                for s in (("",) if n == 0 else ("", "*")))
FACE = {"enum": sorted(FACE_COPIES), "description": "a card's attribute and number, stars "
                                                    "aside (R3)"}
ATTRIBUTE = {"enum": list(ATTRIBUTES)}
SPELL = {"type": "array", "items": CARD, "minItems": 3, "maxItems": 3,
         "description": "3 cards of one attribute reading one of the 13 patterns (T-2.1)"}
HAND = {"type": "array", "items": CARD, "maxItems": HAND_SIZE,
        "description": "the hand's cards in their fixed order (T-3.3)"}
#: a place in the hand with the drawn card (or the discard) inserted: 0 … hand size
INSERT = {"type": "integer", "minimum": 0, "maximum": HAND_SIZE}
HAND_INDEX = {"type": "integer", "minimum": 0, "maximum": HAND_SIZE - 1}
OD = {"type": "integer", "minimum": OD_RANGE[0], "maximum": OD_RANGE[1],
      "description": "a seat's od (payments may take it below 0, which ends the game)"}
FIELD = {"type": "integer", "minimum": 0, "maximum": MOST_FIELD, "multipleOf": 10,
         "description": "od on the field: this match's riichi stakes and call costs"}
POOL = {"type": "integer", "minimum": 0, "maximum": MOST_POOL, "multipleOf": 10,
        "description": "od in the pool (霊脈): field od no riichi winner took, and managers' "
                       "stakes (T-7.4, T-8)"}
TABLE_ENTRY = {"type": "integer", "minimum": 0, "maximum": MAX_OD}
#: the most a win can be worth: every scoring table's largest entry, and 10 per catalyst
#: card of the 9 for each indicator
MOST_POINTS = 3 * MAX_OD + CATALYST_POINTS * 3 * 3 * MOST_INDICATORS
POINTS = {"type": "integer", "minimum": 0, "maximum": MOST_POINTS}


def _object(properties: dict, required=None, description=None) -> dict:
    schema = {"type": "object", "properties": properties,
              "required": list(properties) if required is None else required,
              "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def _move(description: str, seat: dict, **fields) -> dict:
    return dict(_object({"type": {}, "seat": seat, **fields}), description=description)


MOVES = {
    "deal": _move("chance: the card dealt to seat `to` (T-3.3); other seats see it hidden",
                  CHANCE_SEAT, to=SEAT, card=CARD_OR_HIDDEN),
    "indicator": _move("chance: the card turned face up as a catalyst indicator (T-3.3, "
                       "T-6.2)", CHANCE_SEAT, card=CARD),
    "draw": _move("chance: the card seat `to` draws (T-4.1); other seats see it hidden",
                  CHANCE_SEAT, to=SEAT, card=CARD_OR_HIDDEN),
    "tsumo": _move("declare a win with the drawn card inserted at `insert` (T-4.2)", SEAT,
                   insert=dict(INSERT, description="where the drawn card goes")),
    "discard": _move(
        "insert the drawn card at `insert` (null after a call), then discard the card at "
        "`remove` of the hand so formed, one spelling per discard (a drop is insert 0, "
        "remove 0); `riichi` true declares riichi (T-4.3, T-5.6, T-6)", SEAT,
        insert=dict(INSERT, type=["integer", "null"],
                    description="where the drawn card goes; null for the caller's discard"),
        remove=dict(INSERT, description="the card discarded, counted in the hand with the "
                                        "drawn card inserted"),
        riichi={"type": "boolean"}),
    "ron": _move("call window: win with the discard inserted at `insert` (T-5.1)", SEAT,
                 insert=dict(INSERT, description="where the discard goes")),
    "pon": _move("call window: a same-number spell with the hand cards at `cards` (T-5.1)",
                 SEAT, cards={"type": "array", "items": HAND_INDEX, "minItems": 2,
                              "maxItems": 2, "uniqueItems": True,
                              "description": "the two hand positions, ascending"}),
    "chi": _move("call window, the discarder's next seat only: a sequence spell with the hand "
                 "cards at `cards` (T-5.1)", SEAT,
                 cards={"type": "array", "items": HAND_INDEX, "minItems": 2, "maxItems": 2,
                        "uniqueItems": True, "description": "the two hand positions, "
                                                            "ascending"}),
    "pass": _move("call window: take nothing (T-5.1)", SEAT),
    "answer": _move("a call-window answer as the other seats see it in the log: sealed, "
                    "whether ron, pon, chi or pass (referee decision 6); never posted",
                    SEAT),
}
for _kind, _schema in MOVES.items():
    _schema["properties"]["type"] = {"const": _kind}
#: the moves a seat answers a call window with, as they are kept in the window
ANSWER_MOVES = {kind: MOVES[kind] for kind in ANSWERS}

CATALYST = _object({
    "indicator": CARD,
    "catalyst": dict(FACE, description="the face it points at: same attribute, next number "
                                       "(4 → 0)"),
    "cards": {"type": "integer", "minimum": 0, "maximum": 9},
    "points": {"type": "integer", "minimum": 0, "maximum": CATALYST_POINTS * 9}})

MEASURED = _object({
    "spells": {"type": "array", "items": SPELL, "minItems": 3, "maxItems": 3},
    "attribute": _object({"attribute": ATTRIBUTE,
                          "spells": {"type": "integer", "minimum": 0, "maximum": 3},
                          "points": TABLE_ENTRY},
                         description="the spells of the counted attribute: the winner's on "
                                     "a tsumo, what the discarder is weak to on a ron"),
    "numbers": _object({"kind": {"enum": ["same", "sequence", "mixed", None]},
                        "spells": {"enum": [0, 2, 3]}, "points": TABLE_ENTRY},
                       description="the best group of spells with the same numbers"),
    "stars": _object({"spells": {"type": "integer", "minimum": 0, "maximum": 3},
                      "points": TABLE_ENTRY}, description="all-starred spells"),
    "base": {"type": "integer", "minimum": 0, "maximum": 3 * MAX_OD},
    "catalyst": _object({"counted": {"type": "boolean",
                                      "description": "whether the base reached 10"},
                         "indicators": {"type": "array", "items": CATALYST, "minItems": 1,
                                        "maxItems": MOST_INDICATORS},
                         "points": {"type": "integer", "minimum": 0,
                                    "maximum": CATALYST_POINTS * 9 * MOST_INDICATORS}}),
    "total": POINTS,
    "special_draw": {"type": "boolean", "description": "a zero base: no payment (T-7.3)"},
}, description="magic measurement of a winning hand, item by item (T-7.2)")

SETTLEMENT = _object({
    "payments": {"type": "array", "minItems": 1, "maxItems": 2, "items": _object(
        {"seat": SEAT, "pays": POINTS})},
    "receives": {"type": "integer", "minimum": 0, "maximum": 2 * MOST_POINTS},
    "field_taken": FIELD, "pool_taken": POOL, "field_to_pool": FIELD, "pool_after": POOL,
    "changes": {"type": "array", "minItems": 3, "maxItems": 3, "items": _object(
        {"seat": SEAT, "change": {"type": "integer"}})},
}, description="who pays what (T-7.1) and where the field and the pool go (T-7.4)")

_MATCH = {"type": "integer", "minimum": 1}
LAST_MATCH = {"oneOf": [
    {"type": "null"},
    _object({"match": _MATCH, "end": {"enum": ["ron", "tsumo"]}, "winner": SEAT,
             "discarder": {"oneOf": [SEAT, {"type": "null"}]}, "score": MEASURED,
             "settlement": SETTLEMENT}, description="a paid win"),
    _object({"match": _MATCH, "end": {"const": "special_draw"}, "winner": SEAT,
             "discarder": {"oneOf": [SEAT, {"type": "null"}]}, "score": MEASURED,
             "field_to_pool": FIELD, "manager_stake": {"const": MANAGER_STAKE}},
            description="a zero-point win (T-7.3, T-8.3)"),
    _object({"match": _MATCH, "end": {"const": "exhaustive_draw"},
             "manager_tenpai": {"type": "boolean"}, "field_to_pool": FIELD,
             "manager_stake": {"const": MANAGER_STAKE}},
            required=["match", "end", "manager_tenpai", "field_to_pool"],
            description="the draw pile ran out (T-8.1); a tenpai manager stakes 10"),
], "description": "what ended the previous match, or null"}
assert {s["properties"]["end"].get("const") for s in LAST_MATCH["oneOf"][2:]} | {
    "ron", "tsumo"} == set(ENDS)

SEALED = _object({"seat": SEAT}, description="another seat's answer: only that it answered")
PER_SEAT = {"minItems": 3, "maxItems": 3}

VIEW = _object({
    "phase": {"enum": list(PHASES)},
    "match": dict(_MATCH, description="the match being played (1, 2, …)"),
    "manager": dict(SEAT, description="the match's manager, who plays first (T-3.1)"),
    "rotations_done": {"type": "integer", "minimum": 0, "maximum": ROTATIONS[1],
                       "description": "times the manager role returned to the first "
                                      "manager (T-9.1)"},
    "od": dict(PER_SEAT, type="array", items=OD, description="each seat's od"),
    "field": FIELD,
    "pool": POOL,
    "hands": dict(PER_SEAT, type="array", items={"oneOf": [
        HAND, _object({"count": {"type": "integer", "minimum": 0, "maximum": HAND_SIZE}},
                      description="a hand the seat may not see: its size (T-10.2)")]},
        description="per seat: the seat's own hand, the others' counts"),
    "called": dict(PER_SEAT, type="array", items={
        "type": "array", "items": SPELL, "maxItems": MAX_CALLS},
        description="per seat: its called spells, as laid (T-5.3)"),
    "riichi": dict(PER_SEAT, type="array", items={"type": "boolean"}),
    "discards": dict(PER_SEAT, type="array", items={
        "type": "array", "items": CARD, "maxItems": MOST_DISCARDS},
        description="per seat: its discards this match, oldest first (a called discard "
                    "leaves)"),
    "indicators": {"type": "array", "items": CARD, "maxItems": MOST_INDICATORS,
                   "description": "the catalyst indicators turned this match, 1st first"},
    "unused": {"type": "integer", "minimum": 0, "maximum": UNUSED_CARDS[1],
               "description": "face-down cards left in the unused pile"},
    "draw_pile": {"type": "integer", "minimum": 0,
                  "maximum": full_draw_pile({"unused_cards": UNUSED_CARDS[0]}),
                  "description": "cards left to draw"},
    "turn": dict(SEAT, description="the seat drawing, acting, discarding, or whose discard "
                                   "is answered"),
    "drawn": {"oneOf": [CARD_OR_HIDDEN, {"type": "null"}],
              "description": "the card `turn` drew (phase turn), hidden from the others"},
    "window": {"oneOf": [{"type": "null"}, _object({
        "card": dict(CARD, description="the discard being answered"),
        "answers": {"type": "array", "maxItems": 2,
                    "items": {"oneOf": [*ANSWER_MOVES.values(), SEALED]},
                    "description": "the answers so far: the seat's own in full, the "
                                   "others sealed"}})],
        "description": "the open call window (phase calls), else null"},
    "last_match": LAST_MATCH,
}, description="A Three Magic position as one seat (or a spectator) sees it (T-10.2).")

BREAKDOWN = {"oneOf": [
    _object({"od": OD, "starting_od": {"type": "integer", "minimum": 0, "maximum": MAX_OD},
             "change": {"type": "integer", "description": "od minus starting od"},
             "attribute": ATTRIBUTE,
             "manager": {"type": "boolean", "description": "manages the current match"},
             "riichi": {"type": "boolean", "description": "in riichi this match"},
             "calls": {"type": "integer", "minimum": 0, "maximum": MAX_CALLS,
                       "description": "spells called this match"}},
            description="a game's score line: the total is the seat's od (T-9.2)"),
    _object({"attribute": ATTRIBUTE,
             "role": {"enum": ["winner", "discarder", "payer", "bystander"]},
             "change": {"type": "integer"}},
            description="the score helper's line: the total is the seat's od change from "
                        "the win"),
]}

PAYMENT = {"type": "object", "additionalProperties": False,
           "required": ["win", "winner", "discarder", "score", "special_draw", "settlement"],
           "properties": {
               "win": {"enum": ["ron", "tsumo"]}, "winner": SEAT,
               "discarder": {"oneOf": [SEAT, {"type": "null"}]}, "score": MEASURED,
               "special_draw": {"type": "boolean"},
               "settlement": {"oneOf": [SETTLEMENT, {"type": "null"}],
                              "description": "null for a special draw"},
               "field_to_pool": dict(FIELD, description="a special draw only")},
           "description": "the score helper's answer beside the scoreboard: the win item by "
                          "item and who pays what (T-7)"}

_TABLE3 = {"type": "array", "items": TABLE_ENTRY, "minItems": 3, "maxItems": 3}
_TABLE2 = {"type": "array", "items": TABLE_ENTRY, "minItems": 2, "maxItems": 2}
OPTIONS = {
    "attributes": {"type": "array", "items": ATTRIBUTE, "minItems": 3, "maxItems": 3,
                   "uniqueItems": True},
    "starting_od": {"type": "integer", "minimum": 0, "maximum": MAX_OD},
    "unused_cards": {"type": "integer", "minimum": UNUSED_CARDS[0], "maximum": UNUSED_CARDS[1]},
    "rotations": {"type": "integer", "minimum": ROTATIONS[0], "maximum": ROTATIONS[1]},
    "attribute_points": _TABLE3,
    "number_points": _object({"same": _TABLE2, "sequence": _TABLE2, "mixed": _TABLE2}),
    "star_points": _TABLE3,
}

CALCULATE = {
    "type": "object", "additionalProperties": False,
    "required": ["win", "winner_attribute", "spells", "winning_card", "indicators"],
    "description": "A winning hand as the table reads it off (T-7). Input no table can read "
                   "off (a riichi without its stake, a field no calls make…) is refused "
                   "with its rule (RULES.md, score helper).",
    "properties": {
        "win": {"enum": ["ron", "tsumo"]},
        "winner_attribute": ATTRIBUTE,
        "discarder_attribute": {"oneOf": [ATTRIBUTE, {"type": "null"}],
                                "description": "the discarder's attribute: ron only"},
        "spells": {"type": "array", "items": SPELL, "minItems": 1, "maxItems": 3,
                   "description": "the hand's spells in its fixed order, the winning card "
                                  "included"},
        "called": {"type": "array", "items": SPELL, "maxItems": MAX_CALLS,
                   "description": "the called spells, in the order they were called "
                                  "(default none)"},
        "winning_card": dict(CARD, description="the card that completed the hand"),
        "indicators": {"type": "array", "items": CARD, "minItems": 1,
                       "maxItems": MOST_INDICATORS,
                       "description": "every catalyst indicator turned this match, 1st "
                                      "first: the others were turned by riichis"},
        "riichi": {"type": "boolean", "description": "whether the winner declared riichi "
                                                     "(default false)"},
        "field": dict(FIELD, description="od on the field: riichi stakes and call costs "
                                         "(default 0)"),
        "pool": dict(POOL, maximum=3 * MAX_OD,
                     description="od in the pool as it stood before the match (default 0)"),
        "attributes": {"oneOf": [OPTIONS["attributes"], {"type": "null"}],
                       "description": "the attribute of seats 1, 2, 3 (default the "
                                      "option's)"},
        "options": {"oneOf": [_object(OPTIONS, required=[]), {"type": "null"}],
                    "description": "game options: the scoring tables, starting od, unused "
                                   "cards (default the game's)"},
    },
    "examples": [{
        "win": "tsumo", "winner_attribute": "fire", "discarder_attribute": None,
        "spells": [["R1*", "R2*", "R3*"], ["B3", "B3*", "B3*"], ["G0", "G1*", "G2*"]],
        "called": [], "winning_card": "R3*", "indicators": ["G1", "B2"], "riichi": True,
        "field": 40, "pool": 30, "attributes": ["fire", "water", "wood"]}],
}

WORDS = {"type": "object", "required": ["en", "ja"], "additionalProperties": False,
         "properties": {"en": {"type": "string", "minLength": 1},
                        "ja": {"type": "string", "minLength": 1}},
         "description": "the same words in English and in Japanese"}


def _described(**properties) -> dict:
    """A catalog entry: a name and an explanation in both languages, plus its data."""
    return _object({"name": WORDS, "text": WORDS, **properties})


def _exactly(items: dict, count: int) -> dict:
    return {"type": "array", "items": items, "minItems": count, "maxItems": count}


_COUNT = {"type": "integer", "minimum": 1}
COMPONENTS = _object({
    "game": {"const": "threemagic"},
    "attributes": _exactly(_described(id=ATTRIBUTE, letter={"enum": list(LETTER.values())},
                                      weak_to=ATTRIBUTE), len(ATTRIBUTES)),
    "deck": _described(size={"const": DECK_SIZE}, hand_size={"const": HAND_SIZE}),
    "cards": _exactly(_object({
        "id": CARD, "attribute": ATTRIBUTE,
        "number": {"type": "integer", "minimum": 0, "maximum": 4},
        "starred": {"type": "boolean"}, "copies": _COUNT,
        "catalyst": dict(FACE, description="the face this card points at as an indicator"),
        "name": WORDS}), len(COPIES)),
    "spell": _described(patterns=_exactly(_object({
        "numbers": _exactly({"type": "integer", "minimum": 0, "maximum": 4}, 3),
        "kind": {"enum": ["same", "ascending", "descending"]}, "name": WORDS}),
        len(PATTERNS))),
    "calls": _described(most_per_match={"const": MAX_CALLS}, costs=_exactly(_object({
        "call": {"type": "integer", "minimum": 1, "maximum": MAX_CALLS},
        "own_attribute": dict(_COUNT, description="od for a spell of the caller's attribute"),
        "other_attribute": dict(_COUNT, description="od for another attribute's spell")}),
        MAX_CALLS)),
    "catalyst": _described(points_per_card={"const": CATALYST_POINTS}, threshold=_COUNT,
                           most_indicators={"const": MOST_INDICATORS}),
    "stakes": _object({"riichi": dict(_COUNT, description="od a riichi stakes (T-6.2)"),
                       "manager": dict(_COUNT, description="od a staying manager adds to the "
                                                           "pool at a draw (T-8.1, T-8.3)")}),
    "terms": {"type": "array", "uniqueItems": True, "items": _described(id={
        "type": "string", "pattern": "^[a-z_]+$"})},
}, description="Three Magic's components: attributes, the 60 mana cards, the 13 spell "
               "patterns, call costs, catalysts, stakes and the table's words, named and "
               "explained in English and Japanese.")


#: Events (what a move or the setup did), one schema per event type; the fields a
#: seat may not see (another's card) are optional: the redacted event leaves them out
EVENTS = {
    "match_started": event({"manager": SEAT, "match": INT}),
    "card_dealt": event({"card": CARD_OR_HIDDEN, "seat": SEAT}),
    "indicator_turned": event({"card": CARD_OR_HIDDEN, "catalyst": STR, "number": INT}),
    "card_drawn": event({"card": CARD_OR_HIDDEN, "draw_pile": INT, "seat": SEAT}),
    "card_discarded": event(
        {"card": CARD_OR_HIDDEN, "insert": nullable(INT), "remove": INT, "seat": SEAT}
    ),
    "call_window_opened": event({"card": CARD_OR_HIDDEN, "discarder": SEAT, "seats": listof(SEAT)}),
    "answered": event({"seat": SEAT}),
    "called": event(
        {
            "call": STR,
            "card": CARD_OR_HIDDEN,
            "cost": INT,
            "discarder": SEAT,
            "seat": SEAT,
            "spell": listof(CARD),
        }
    ),
    "exhaustive_draw": event({"manager": SEAT, "manager_tenpai": BOOL}),
    "field_to_pool": event({"od": INT}),
    "match_ended": event({"end": {"enum": list(ENDS)}, "match": INT, "next_manager": SEAT}),
    "ron_declared": event({"card": CARD_OR_HIDDEN, "discarder": SEAT, "seat": SEAT}),
    "magic_measured": event({"discarder": nullable(SEAT), "score": MEASURED, "seat": SEAT,
                             "win": {"enum": ["ron", "tsumo"]}}),
    "od_paid": event({**SETTLEMENT["properties"], "seat": SEAT}),
    "game_over": event({"od": listof(INT), "reason": STR}),
    "manager_stake": event({"od": INT, "seat": SEAT}),
    "tsumo_declared": event({"card": CARD_OR_HIDDEN, "insert": INT, "seat": SEAT}),
    "riichi_declared": event({"seat": SEAT, "stake": INT}),
}
