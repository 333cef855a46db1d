"""Per-game wire contracts, generated from each game's one description.

A game describes its moves, view, score breakdown, score-helper input and
options once, as JSON Schemas (its ``wire.py``, set on the engine). This module
turns that description into the JSON Schemas of the API: the move union
(discriminated by ``type``), the view with the envelope every game shares, the
score answer, the stateless request bodies. The OpenAPI documents (the
service's and the gateway's) and the tests that validate served answers all
take their schemas from here, so nothing is written twice.

Schemas are JSON Schema 2020-12 as OpenAPI 3.1 uses it; references point into
``#/components/schemas/`` under names prefixed by the game (``GizmosMove``).
"""

import copy
import json

from .engine import ANNOTATIONS, CHANCE, LANGUAGES, MAX_SEED, MODES, Engine

SEED_DOC = ("a replayable game (tests, replays): draws from PCG32 seeded with it, so whoever "
            "knows the seed knows every draw and hidden card, and every view says "
            '"seeded": true. Absent or null: draws from a fresh secret 256-bit key')
PROBABILITY = {"type": "number", "minimum": 0, "maximum": 1,
               "description": "chance outcomes only: the referee's probability of this outcome"}
TEXT = {"type": "string", "description": "a short human description, in the language "
                                         "Accept-Language chose (en or ja)"}
ANNOTATION_SCHEMAS = {"p": PROBABILITY, "text": TEXT}
assert set(ANNOTATION_SCHEMAS) == set(ANNOTATIONS)


#: ``match`` of a legal-moves request: only the moves with these fields and values
MOVE_MATCH = {
    "type": "object", "maxProperties": 8, "propertyNames": {"maxLength": 40},
    "additionalProperties": {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "integer"},
                                       {"type": "boolean"},
                                       {"type": "array", "maxItems": 40,
                                        "items": {"type": "string", "maxLength": 40}}]},
    "description": "only the moves with these fields and values: {\"card\": 213} lists one "
                   "card's moves (Gizmos searches only that card's payments), "
                   "{\"type\": \"build\"} one kind of move. Gizmos lists one Build per card "
                   "and spend, with one of its Converter sets (\"other_converters\": true when "
                   "it has more); {\"card\": 213, \"spend\": [\"black\", \"red\"]} lists "
                   "every set of that spend",
    "example": {"type": "build"}}


#: entries of one /v1/redact call: a session's new version has one
MAX_REDACT_ENTRIES = 100

INT, STR, BOOL, NULL = ({"type": kind} for kind in ("integer", "string", "boolean", "null"))


def listof(items: dict) -> dict:
    return {"type": "array", "items": items}


def nullable(schema: dict) -> dict:
    return {"oneOf": [schema, NULL]}


def event(fields: dict, optional: dict | None = None, description: str = "") -> dict:
    """One event type of a game's EVENTS: its ``fields`` (always there) and the
    ``optional`` ones (a redacted event leaves out what the seat may not see);
    ``referee.wire`` adds ``type``."""
    schema = {"type": "object", "properties": {**fields, **(optional or {})},
              "required": ["type", *fields], "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def prefix(engine: Engine) -> str:
    """The component-name prefix of a game: ``threemagic`` → ``Threemagic``."""
    return engine.id[:1].upper() + engine.id[1:]


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def seat_schema(engine: Engine, chance: bool = False) -> dict:
    seat = {"type": "integer", "minimum": 1, "maximum": engine.max_players}
    return {"oneOf": [seat, {"type": "string", "enum": [CHANCE]}]} if chance else seat


def to_move_schema(engine: Engine) -> dict:
    return {"type": "array", "maxItems": engine.max_players, "uniqueItems": True,
            "items": seat_schema(engine, chance=True),
            "description": 'the seats that must act now; ["chance"] when the table must enter '
                           "a chance outcome; [] when the game is over"}


def options_schema(engine: Engine) -> dict:
    properties = {}
    for name, option in engine.options.items():
        schema = dict(option.schema or {})
        schema.setdefault("description", option.description)
        schema["default"] = copy.deepcopy(option.default)
        properties[name] = schema
    return {"type": "object", "properties": properties, "additionalProperties": False}


def move_schema(engine: Engine, move_type: str) -> dict:
    """One move type's schema, with the annotations the referee adds (``p``, ``text``)."""
    schema = copy.deepcopy(engine.move_schemas[move_type])
    schema.setdefault("type", "object")
    schema.setdefault("properties", {}).update(copy.deepcopy(ANNOTATION_SCHEMAS))
    schema["properties"]["type"] = {"const": move_type}
    required = schema.setdefault("required", [])
    for field in ("type", "seat"):
        if field not in required:
            required.insert(0 if field == "type" else 1, field)
    schema.setdefault("additionalProperties", False)
    return schema


def by_type(description: str, named: str, types) -> dict:
    """The union of the schemas ``named`` + each type, discriminated by ``type``."""
    return {"description": description, "oneOf": [ref(named + t) for t in types],
            "discriminator": {"propertyName": "type", "mapping": {
                t: f"#/components/schemas/{named}{t}" for t in types}}}


def event_schema(schema: dict, event_type: str) -> dict:
    schema = copy.deepcopy(schema)
    schema["properties"] = {"type": {"const": event_type}, **schema["properties"]}
    return schema


def portable(node):
    """The same schema in the spelling client generators read: a ``const`` that is not a
    string becomes a one-value ``enum`` (openapi-python-client writes broken code for
    ``const: 10`` and cannot read ``const: [1, 2]``); ``items: [...]`` (draft 4) becomes
    ``prefixItems``, as JSON Schema 2020-12 spells it."""
    if isinstance(node, list):
        return [portable(v) for v in node]
    if not isinstance(node, dict):
        return node
    data = ("examples", "example", "default", "enum", "const")  # values, not schemas
    out = {k: v if k in data else portable(v) for k, v in node.items()}
    value = out.get("const")
    if isinstance(value, bool):  # read as a plain boolean, still exact
        out.pop("const")
        out.update(type="boolean", enum=[value])
    elif isinstance(value, (list, dict)):
        # generators read no enum of lists or objects: the type stays exact, the
        # value is said in words (the server still refuses any other value)
        out.pop("const")
        out["type"] = "array" if isinstance(value, list) else "object"
        if isinstance(value, list):
            kinds = {type(v) for v in value}
            out["items"] = {"type": "integer"} if kinds == {int} else {}
        out["description"] = (out.get("description", "") + f" (always {json.dumps(value)})"
                              ).strip()
    elif "const" in out and not isinstance(value, str):
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("items"), list):
        out["prefixItems"] = out.pop("items")
    return out


def components(engine: Engine) -> dict:
    """Every named schema of one game, keyed by component name."""
    p = prefix(engine)
    out = {}
    for move_type in engine.move_schemas:
        out[f"{p}Move_{move_type}"] = move_schema(engine, move_type)
    if engine.move_schemas:
        out[f"{p}Move"] = by_type(
            f"A {engine.title} move: one object of legal-moves, posted back as it was listed "
            "(p and text may be left in or out).", f"{p}Move_", engine.move_schemas)
    else:
        out[f"{p}Move"] = {"type": "object", "required": ["type", "seat"]}
    for event_type, schema in engine.event_schemas.items():
        out[f"{p}Event_{event_type}"] = event_schema(schema, event_type)
    out[f"{p}Event"] = by_type(
        f"A {engine.title} event: what a move or the setup did, as the caller may see it.",
        f"{p}Event_", engine.event_schemas)
    out[f"{p}Options"] = options_schema(engine)
    view = copy.deepcopy(engine.view_schema)
    view.setdefault("type", "object")
    properties = view.setdefault("properties", {})
    properties.update(envelope(engine, p))
    view.setdefault("required", [])
    properties["seeded"] = SEEDED
    properties["awaiting"] = AWAITING
    view["required"] = sorted(set(view["required"]) | set(VIEW_KEYS))
    out[f"{p}View"] = view
    out[f"{p}State"] = {
        "type": "object", "description": f"A whole {engine.title} state, as new/apply answer "
        "it: the caller holds it and sends it back unchanged (forged states are refused).",
        "properties": dict(envelope(engine, p), rng=GENERATOR),
        "required": [*ENVELOPE_KEYS, "rng"]}
    out[f"{p}ScoreLine"] = {
        "type": "object", "required": ["seat", "total", "breakdown"],
        "properties": {"seat": seat_schema(engine), "total": {"type": "integer"},
                       "breakdown": copy.deepcopy(engine.breakdown_schema)}}
    out[f"{p}Score"] = {
        "type": "object", "required": ["final", "scores", "ranking", "winners"],
        "properties": {
            "final": {"type": "boolean"},
            "scores": {"type": "array", "items": ref(f"{p}ScoreLine"),
                       "minItems": engine.min_players, "maxItems": engine.max_players},
            "ranking": {"type": "array", "items": ref("RankLine")},
            "winners": {"type": "array", "items": seat_schema(engine)}}}
    if engine.calculate_schema is not None:
        out[f"{p}CalculateRequest"] = copy.deepcopy(engine.calculate_schema)
    out[f"{p}Components"] = copy.deepcopy(engine.components_schema)
    out.update(bodies(engine, p))
    out["RankLine"] = RANK_LINE
    return portable(out)


def bodies(engine: Engine, p: str) -> dict:
    """The stateless routes' request and answer bodies of one game."""
    state, move, view = ref(f"{p}State"), ref(f"{p}Move"), ref(f"{p}View")
    events = {"type": "array", "items": ref(f"{p}Event")}
    seat_or_null = {"type": ["integer", "null"], "minimum": 1, "maximum": engine.max_players}
    entry = {"type": "object", "required": ["version", "events"], "properties": {
        "version": {"type": "integer", "minimum": 0}, "move": move,
        "setup": {"type": "boolean", "description": "the first entry: the setup's events "
                                                    "(deals, layout) as the caller may see them"},
        "events": events,
        "by": {"type": "string", "description": "who moved: seat:N, bot:N, table or referee"},
        "at": {"type": "number", "description": "Unix time the move landed"}}}

    def request(required, **properties):
        return {"type": "object", "required": list(required), "properties": properties,
                "additionalProperties": False}

    return {
        f"{p}NewRequest": new_request(engine),
        f"{p}StateRequest": request(["state"], state=state),
        f"{p}LegalMovesRequest": request(["state"], state=state, seat={
            "oneOf": [{"type": "null"}, seat_schema(engine, chance=True)],
            "description": "only this seat's moves (null: every acting seat's)"},
            match=MOVE_MATCH, view_as=dict(seat_or_null, description=(
                "list the moves as this seat (null: the public) may read them: a chance "
                "outcome whose odds count components someone may not see has no p"))),
        f"{p}ApplyRequest": request(["state", "move"], state=state, move=move,
                                    view_as=dict(seat_or_null, description=(
                                        "also answer the view, the move and the events as "
                                        "this seat sees them (null: public)")),
                                    entrant=dict(seat_or_null, description=ENTRANT),
                                    redact_for={
                                        "type": "array", "maxItems": engine.max_players + 1,
                                        "uniqueItems": True, "items": seat_or_null,
                                        "description": REDACT_FOR},
                                    redact_languages={
                                        "type": "array", "minItems": 1,
                                        "maxItems": len(LANGUAGES), "uniqueItems": True,
                                        "items": {"enum": list(LANGUAGES)},
                                        "description": REDACT_LANGUAGES}),
        f"{p}ViewRequest": request(["state"], state=state, seat=dict(
            seat_or_null, description="null: the public view")),
        f"{p}ViewLogRequest": request(["entries"], seat=seat_or_null, entries={
            "type": "array", "maxItems": 10_000,
            "items": dict(entry, additionalProperties=False)}),
        f"{p}RedactRequest": request(["entries", "seats"], state=dict(state, description=(
            "the state at the entries' last version: each seat's view of it is answered "
            "(absent: no view)")), entries={
            "type": "array", "maxItems": MAX_REDACT_ENTRIES,
            "items": dict(entry, additionalProperties=False)}, seats={
            "type": "array", "minItems": 1, "maxItems": engine.max_players + 1,
            "uniqueItems": True, "items": seat_or_null,
            "description": "each seat to answer for, null: the public (a spectator)"}),
        f"{p}Redacted": {"type": "object", "required": ["seats"], "properties": {"seats": {
            "type": "array", "description": "one answer per seat asked, in the order asked",
            "items": {"type": "object", "required": ["seat", "entries"], "properties": {
                "seat": seat_or_null, "entries": {"type": "array", "items": entry},
                "view": view}}}}},
        f"{p}RedactedVersion": {
            "type": "object", "required": ["seat", "language", "entry", "view"],
            "description": "the new version as one watching seat sees it, in one "
                                      "language: what /v1/redact answers for that seat",
                       "properties": {"seat": seat_or_null,
                                      "language": {"enum": list(LANGUAGES)},
                                      "entry": entry, "view": view}},
        f"{p}StateAnswer": {"type": "object", "required": ["state", "events"], "properties": {
            "state": state, "view": view, "events": {
                **events, "description": "the setup's events (deals, layout), as the holder of the whole "
                               "state sees them"}}},
        f"{p}LegalMoves": {"type": "object", "required": ["to_move", "moves"], "properties": {
            "to_move": to_move_schema(engine), "moves": {"type": "array", "items": move},
            "version": {"type": "integer", "minimum": 0}}},
        f"{p}ApplyAnswer": {"type": "object", "required": ["state", "move", "events"],
                            "properties": {
                                "state": state, "move": move, "view_move": move,
                                "events": events, "view": view, "view_events": events,
                                "redacted": {
                                    "type": "array", "items": ref(f"{p}RedactedVersion"),
                                    "description": "with redact_for: each seat asked, in "
                                                   "each language asked"}}},
        f"{p}ViewAnswer": {"type": "object", "required": ["view"], "properties": {"view": view}},
        f"{p}Log": {"type": "object", "required": ["entries"], "properties": {
            "version": {"type": "integer", "minimum": 0},
            "entries": {"type": "array", "items": entry}}},
    }


RANK_LINE = {"type": "object", "required": ["rank", "seat", "total"], "properties": {
    "rank": {"type": "integer", "minimum": 1}, "seat": {"type": "integer", "minimum": 1},
    "total": {"type": "integer"}}}


ENVELOPE_KEYS = ("game", "version", "players", "mode", "options", "to_move")
#: a view's envelope: the state's, and whether its draws are known to a seed's holder
VIEW_KEYS = (*ENVELOPE_KEYS, "seeded")
SEEDED = {"type": "boolean", "description": (
    "true: a digital game created with a client's seed, whose every draw (and so every "
    "hidden card) is known to whoever knows the seed; false: drawn from a secret key, or a "
    "tabletop game")}
REDACT_FOR = ("also answer the new version (its log entry and view) as each of these seats "
              "(null: the public) sees it, as /v1/redact would: what a gateway pushes to the "
              "streams watching the session, in the move's own call")
REDACT_LANGUAGES = ("the languages of redact_for's answers (each seat in each); left out: "
                    "the language of Accept-Language")
ENTRANT = ("companion mode: who sends a chance entry (a seat, or null: the table token), "
           "checked against what it may enter and what it knows; left out, the caller holds "
           "the whole state and is not asked")
AWAITING = {"description": (
    "companion mode, at a chance point only: whose entry the referee waits for — the seat "
    "the outcome goes to privately (only its token may enter it), or \"table\" for a public "
    "outcome (the table token or any seat enters it); never what"),
    "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["table"]}]}
HEX16 = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
#: a state's generator (referee.rng): the shapes check_state accepts, and no other
GENERATOR = {"description": "the generator of a digital game (null: tabletop): whoever holds "
                            "it knows every future draw, so no answer of a session shows it",
             "oneOf": [
                 {"type": "null"},
                 {"type": "object", "title": "PCG32 (seeded)", "required": ["state", "inc"],
                  "additionalProperties": False,
                  "properties": {"state": HEX16, "inc": HEX16}},
                 {"type": "object", "title": "BLAKE2b keyed, counter mode",
                  "required": ["key", "counter"], "additionalProperties": False,
                  "properties": {"key": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                                 "counter": HEX16}}]}


def envelope(engine: Engine, p: str) -> dict:
    return {
        "game": {"const": engine.id},
        "version": {"type": "integer", "minimum": 0},
        "players": {"type": "integer", "minimum": engine.min_players,
                    "maximum": engine.max_players},
        "mode": {"enum": list(MODES)},
        "options": ref(f"{p}Options"),
        "to_move": to_move_schema(engine),
    }


def new_request(engine: Engine) -> dict:
    p = prefix(engine)
    return {"type": "object", "required": ["players"], "additionalProperties": False,
            "properties": {
                "players": {"type": "integer", "minimum": engine.min_players,
                            "maximum": engine.max_players},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": SEED_DOC},
                "mode": {"enum": list(MODES), "default": "digital"},
                "options": ref(f"{p}Options"),
                "view_as": {"type": ["integer", "null"], "minimum": 1,
                            "maximum": engine.max_players}}}
