"""The session routes typed per game (issue 30 item 1).

The session answers are written once, generically (``referee.schemas``: one
marshmallow schema each); here, when the document is served, each becomes one
variant per game (``VectronSessionView``…) whose ``game`` is a constant and
whose view, moves, events, log entries, score and ``to_move`` are that game's
own (the components generated from its wire description), and the generic name
becomes their union, discriminated by ``game``: a generated client narrows on
it. The event stream's frames (``SessionEvent``) are described the same way,
one frame per event name. Nothing is written twice: every part comes from the
generic schema or from the game's components.
"""

import copy
import json

SCHEMA_REF = "#/components/schemas/"

#: the session answers typed per game (their fields named in ``game_fields`` become the
#: game's own)
SESSION_ANSWERS = ("SessionCreated", "SessionView", "SessionMoved", "SessionLegalMoves",
                   "SessionScore", "SessionLog", "HintAnswer", "Corrected")

SEAT_CHANGE = {
    "type": "object", "required": ["change"], "additionalProperties": False,
    "description": "a seat change: joined, left, absent, reissued, started, bot, bot_removed",
    "properties": {
        "change": {"enum": ["joined", "left", "absent", "reissued", "started", "bot",
                            "bot_removed"]},
        "seat": {"type": "integer", "minimum": 1},
        "status": {"enum": ["open", "absent"]},
        "started": {"type": "boolean"},
        "players": {"type": "integer", "minimum": 1},
        "level": {"type": "string", "description": "a bot seat: its level"}}}
STAMP = {"by": {"type": "string", "description": "who made it: seat:N, bot:N, table or "
                                                 "referee"},
         "at": {"type": "number", "description": "Unix time it landed"}}
SHARED = {
    "SeatChangeEntry": {
        "type": "object", "required": ["version", "seats"], "additionalProperties": False,
        "description": "a log entry that changed who sits, not the game",
        "properties": {"version": {"type": "integer", "minimum": 0},
                       "seats": SEAT_CHANGE, **STAMP}},
    "CorrectionEntry": {
        "type": "object", "additionalProperties": False,
        "required": ["version", "correction", "to_version", "from_version", "versions"],
        "description": "a log entry that took moves back (undo, takeback) or played them "
                       "again (redo)",
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "correction": {"enum": ["undo", "redo", "takeback"]},
            "to_version": {"type": "integer", "minimum": 0,
                           "description": "the version whose position it restores"},
            "from_version": {"type": "integer", "minimum": 0},
            "of": {"type": "integer", "minimum": 0, "description": "redo: the undo redone"},
            "versions": {"type": "array", "items": {"type": "integer", "minimum": 0},
                         "description": "the entries it marks undone (or lifts the mark of)"},
            "undone": {"type": "boolean"}, **STAMP}},
    "DisputeEntry": {
        "type": "object", "required": ["version", "dispute"], "additionalProperties": False,
        "description": "a log entry that changed nothing: a companion entry refused because "
                       "it contradicts another hand (entry_conflict), heard by the whole "
                       "table; by names who entered it, never what or against whom",
        "properties": {"version": {"type": "integer", "minimum": 0},
                       "dispute": {"type": "object", "required": ["code", "at_version"],
                                   "additionalProperties": False, "properties": {
                                       "code": {"enum": ["entry_conflict"]},
                                       "at_version": {"type": "integer", "minimum": 0,
                                                      "description": "the version the "
                                                                     "entry was made on"}}},
                       **STAMP}},
    "StreamEnd": {
        "type": "object", "required": ["reason"], "additionalProperties": False,
        "properties": {"reason": {"type": "string"}}},
}


def ref(name: str) -> dict:
    return {"$ref": SCHEMA_REF + name}


def union(description: str, variants: dict[str, str], on: str | None = "game") -> dict:
    schema = {"description": description, "oneOf": [ref(name) for name in variants.values()]}
    if on:
        schema["discriminator"] = {"propertyName": on, "mapping": {
            key: SCHEMA_REF + name for key, name in variants.items()}}
    return schema


def game_fields(named: dict, p: str, game: str) -> dict:
    """The fields whose content is the game's own, as the game's components type them."""
    events = {"type": "array", "items": ref(f"{p}Event")}
    return {
        "game": {"const": game},
        "view": ref(f"{p}View"),
        "to_move": copy.deepcopy(named[f"{p}LegalMoves"]["properties"]["to_move"]),
        "move": ref(f"{p}Move"),
        "moves": {"type": "array", "items": ref(f"{p}Move")},
        "events": events,
        "entries": {"type": "array", "items": ref(f"{p}SessionLogEntry")},
        "entry": ref("CorrectionEntry"),  # (Corrected's: the correction it made)
    }


def per_game(document: dict, games: list[tuple[str, str]]) -> None:
    """Every session answer, and the stream's frames, one variant per game."""
    named = document["components"]["schemas"]
    named.update(copy.deepcopy(SHARED))
    for name in ("SessionChanged", "Joined"):  # who sits: the same for every game
        named[name]["properties"]["seats"] = {"type": "array", "items": ref("SeatToken")}
    named["SessionChanged"]["properties"]["entry"] = ref("SeatChangeEntry")
    variants = {name: {} for name in (*SESSION_ANSWERS, "SessionEvent", "SessionEventFrame")}
    for game, p in games:
        move_entry = copy.deepcopy(named[f"{p}Log"]["properties"]["entries"]["items"])
        move_entry["properties"]["undone"] = {
            "type": "boolean", "description": "a correction took this move back"}
        move_entry["additionalProperties"] = False
        named[f"{p}SessionLogEntry"] = {
            "description": f"A {game} session's log entry: a move (or the setup), a "
                           "correction, a seat change or a dispute",
            "anyOf": [move_entry, ref("CorrectionEntry"), ref("SeatChangeEntry"),
                      ref("DisputeEntry")]}
        typed = game_fields(named, p, game)
        for name in SESSION_ANSWERS:
            generic = named[name]
            variant = copy.deepcopy(generic)
            for field in variant["properties"]:
                if field in typed:
                    variant["properties"][field] = copy.deepcopy(typed[field])
            variant["additionalProperties"] = False
            named[p + name] = variant
            variants[name][game] = p + name
        score = named[p + "SessionScore"]
        score["properties"].update(copy.deepcopy(named[f"{p}Score"]["properties"]))
        hint = named[p + "HintAnswer"]
        hint["properties"].update(copy.deepcopy(named[f"{p}BotMove"]["properties"]),
                                  move=ref(f"{p}Move"))
        named[p + "SessionEvent"], named[p + "SessionEventFrame"] = frames(p, typed["to_move"])
        variants["SessionEvent"][game] = p + "SessionEvent"
        variants["SessionEventFrame"][game] = p + "SessionEventFrame"
    for name in SESSION_ANSWERS:
        named[name] = union(f"{named[name].get('description', name)}: one per game "
                            "(game tells which)", variants[name])
    named["SessionEvent"] = union(
        "One frame of GET /v1/sessions/{sid}/events, as a client parses it (the SSE "
        "fields event, id and data, data decoded from JSON): one per game, one per event "
        "name; a client knows its session's game", variants["SessionEvent"], on=None)
    named["SessionEventFrame"] = union(
        "One frame of GET /v1/sessions/{sid}/events as sent: event, id and data (a JSON "
        "text whose schema is contentSchema); SessionEvent is the same frame parsed",
        variants["SessionEventFrame"], on=None)
    stream = document["paths"]["/v1/sessions/{sid}/events"]["get"]["responses"]["200"]
    stream.setdefault("content", {}).setdefault("text/event-stream", {})["schema"] = ref(
        "SessionEventFrame")
    prune(document)


def frames(p: str, to_move: dict) -> tuple[dict, dict]:
    """A game's stream frames, as parsed and as sent: ``event`` names which, ``data`` is
    the JSON of ``data:``."""
    change = {
        "type": "object", "required": ["version", "kind", "entry"],
        "additionalProperties": False, "properties": {
            "version": {"type": "integer", "minimum": 0},
            "kind": {"enum": ["setup", "move", "correction", "seats", "dispute"]},
            "entry": ref(f"{p}SessionLogEntry"),
            "view": ref(f"{p}View"),
            "to_move": to_move}}
    data = {"state": ref(f"{p}SessionView"), "setup": change, "move": change,
            "correction": change, "seats": change, "dispute": change,
            "revoked": ref("StreamEnd"),
            "end": ref("StreamEnd")}
    decoded, wire = [], []
    for event, body in data.items():
        frame = {"type": "object", "required": ["event", "data"],
                 "additionalProperties": False, "properties": {
                     "event": {"const": event},
                     "id": {"type": "string", "description": "the version (resume with it "
                                                             "as Last-Event-ID); none on "
                                                             "end and revoked"},
                     "data": copy.deepcopy(body)}}
        decoded.append(frame)
        # on the wire data is JSON text (OpenAPI 3.2's way: contentMediaType + contentSchema)
        sent = copy.deepcopy(frame)
        sent["properties"]["data"] = {"type": "string", "contentMediaType": "application/json",
                                      "contentSchema": copy.deepcopy(body)}
        sent["properties"]["retry"] = {"type": "integer", "minimum": 0}
        wire.append(sent)
    return ({"description": f"A frame of a {p} session's event stream as a client parses it "
                            "(data decoded from JSON; event tells which)", "oneOf": decoded},
            {"description": f"A frame of a {p} session's event stream as sent: the SSE "
                            "fields, data a JSON text", "oneOf": wire})


def prune(document: dict, keep=("SessionEvent",)) -> None:
    """Drop the generic parts the per-game variants replaced (nothing refers to them);
    ``keep``: what clients use though no route names it (a frame as parsed)."""
    from .games import reachable, references
    named = document["components"]["schemas"]
    used = reachable(references(document["paths"]) + list(keep), named)
    for name in set(named) - used:
        del named[name]


def defaults_in_words(document: dict) -> bool:
    """A request body's defaults said in words, not as ``default``: generators type a
    field with a default as always present (openapi-typescript makes it required in a
    named schema), so ``{game, players}`` would not compile without a cast (issue 30).
    The server applies the same defaults; only the document's spelling changes."""
    from .games import reachable, references
    named = document["components"]["schemas"]
    operations = [o for ops in document["paths"].values() for o in ops.values()
                  if isinstance(o, dict)]
    asked = reachable(references([o.get("requestBody", {}) for o in operations]), named)
    answered = reachable(references([o.get("responses", {}) for o in operations]), named)
    for name in asked - answered:
        said_in_words(named[name])
    for operation in operations:  # and the bodies written inline
        said_in_words(operation.get("requestBody", {}))
    return True  # (an extender: the document is as complete as the others made it)


def said_in_words(node) -> None:
    if isinstance(node, list):
        for value in node:
            said_in_words(value)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in ("example", "examples", "enum", "const"):
                said_in_words(value)
        if "default" in node:
            value = json.dumps(node.pop("default"), separators=(",", ":"))
            node["description"] = f"{node.get('description', '')} (default: {value})".strip()
