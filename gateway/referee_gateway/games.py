"""Game list and info, and each game's stateless routes re-exposed under
``/v1/games/{game}/…`` (bodies pass through to the game service unchanged)."""

import copy
import json

from flask import Response, current_app, request

from referee import schemas
from referee.errors import RefereeError
from referee.service import cacheable
from referee.web import json_response, problem_answer, request_json

from . import typed

STATELESS = {  # route → (request schema, answer schema, summary): documented per game
    "new": (schemas.NewRequest, schemas.StateAnswer, "A new game's state"),
    "legal-moves": (schemas.LegalMovesRequest, schemas.LegalMovesAnswer,
                    "The moves that may be played now"),
    "apply": (schemas.ApplyRequest, schemas.ApplyAnswer, "Play a move on a state"),
    "score": (schemas.StateRequest, schemas.ScoreAnswer, "Scores, breakdown and ranking"),
    "view": (schemas.ViewRequest, schemas.ViewAnswer, "The state as one seat sees it"),
    "view-log": (schemas.ViewLogRequest, schemas.ViewLogAnswer,
                 "Log entries as one seat sees them"),
    "bot-move": (None, None, "A bot's move, chosen from one seat's view"),
    "calculate": (None, schemas.ScoreAnswer,
                  "Score helper for a physical table (body: see the game's info/rules)"),
    "picture": (schemas.ViewRequest, None, "The state as one seat sees it, drawn as SVG"),
}


def register(app, api):
    upstream = app.extensions["upstream"]

    @api.route(app, "/v1/games", "GET", summary="The games this referee serves", errors=(),
               answer=schemas.GamesAnswer, tag="games", operation_id="listGames")
    def list_games():
        found = []
        for game in sorted(upstream.services):
            try:
                found.append(dict(upstream.call(game, "/v1/info"), available=True))
            except Exception as exc:  # one game down must not hide the others
                current_app.logger.warning("game %s: %s", game, exc)
                found.append({"game": game, "available": False})
        return json_response({"games": found})

    @api.route(app, "/v1/games/<game>", "GET", summary="One game's info",
               answer=schemas.InfoAnswer, errors=(404, 503), tag="games", operation_id="getGame")
    def game_info(game):
        return json_response(upstream.call(game, "/v1/info"))

    app.add_url_rule("/v1/games/<game>/info", "game_info_alias", game_info, methods=["GET"])

    def components(game):
        status, _, content = upstream.raw(game, "GET", "/v1/components")
        if status != 200:
            return Response(content, status, content_type="application/problem+json")
        return cacheable(json.loads(content))

    app.add_url_rule("/v1/games/<game>/components", "game_components", components,
                     methods=["GET"])

    def passthrough(game, action):
        # Read here too: a malformed body (or one not sent as application/json, which the
        # call upstream would relabel as JSON) is refused before any service is called.
        request_json()
        status, content_type, content = upstream.raw(
            game, "POST", f"/v1/{action}", request.get_data(cache=True))
        return Response(content, status, content_type=content_type or "application/json")

    for action in STATELESS:
        app.add_url_rule(f"/v1/games/<game>/{action}", f"games_{action}", passthrough,
                         methods=["POST"], defaults={"action": action})

    api.extenders.append(lambda document: per_game_paths(document, upstream))


def per_game_paths(document: dict, upstream) -> bool:
    """Each game's own routes and schemas, taken from its service's OpenAPI document.

    A game service documents its routes with the schemas generated from the game's
    one wire description; here they become ``/v1/games/<game>/…`` with the same
    components, and the session routes learn every game's move and view. Answers
    whether every game's service answered (the document is then complete).
    """
    complete, moves, served_games = True, [], []
    schemas_ = document["components"]["schemas"]
    for game in sorted(upstream.services):
        try:
            served = upstream.call(game, "/openapi.json")
        except RefereeError as exc:
            current_app.logger.warning("openapi: %s left out: %s", game, exc.detail)
            complete = False
            continue
        prefix = game[:1].upper() + game[1:]
        served_schemas = served.get("components", {}).get("schemas", {})
        roots = [f"{prefix}Move", f"{prefix}View"]  # the session routes refer to these
        for path, operations in served.get("paths", {}).items():
            action = path.removeprefix("/v1/")
            if action not in (*STATELESS, "components"):
                continue
            for method, operation in operations.items():
                operation = dict(operation, tags=[game])
                operation["operationId"] = game + operation["operationId"][:1].upper() + \
                    operation["operationId"][1:]
                for code in document.get("x-common-errors", ()):
                    operation["responses"].setdefault(code, problem_answer(int(code)))
                document["paths"].setdefault(f"/v1/games/{game}/{action}", {})[method] = operation
                roots += references(operation)
        for name in sorted(reachable(roots, served_schemas)):  # every one they use, no other
            if name != "Problem":  # the gateway's own: its codes include the gateway's
                schemas_[name] = served_schemas[name]
        served_games.append((game, prefix))
        moves.append({"$ref": f"#/components/schemas/{prefix}Move"})
    if moves:
        sessions_per_game(schemas_, served_games)
        schemas_["MoveRequest"]["properties"]["move"] = {"anyOf": moves}
        typed.per_game(document, served_games)
    return complete


SCHEMA_REF = "#/components/schemas/"


def sessions_per_game(schemas_: dict, games: list[tuple[str, str]]) -> None:
    """``createSession``'s body, one variant per game (``game`` tells which): the
    game's own player counts and options, as its ``new`` documents them. Both bodies
    write the options out, so that each is optional (their defaults said in words)."""
    generic = schemas_["CreateSessionRequest"]
    mapping = {}
    for game, prefix in games:
        new = schemas_[f"{prefix}NewRequest"]["properties"]
        variant = copy.deepcopy(generic)
        # the options written out, not referred to: here each has a default (said in
        # words, typed/defaults_in_words), where a view's options all are always present
        variant["properties"].update(game={"const": game},
                                     players=copy.deepcopy(new["players"]),
                                     options=copy.deepcopy(schemas_[f"{prefix}Options"]))
        schemas_[f"{prefix}CreateSessionRequest"] = variant
        # the stateless new game's body alike: its options each optional
        new["options"] = copy.deepcopy(schemas_[f"{prefix}Options"])
        mapping[game] = SCHEMA_REF + f"{prefix}CreateSessionRequest"
    schemas_["CreateSessionRequest"] = {
        "description": "A new session of one of the games: each game's players and options.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping}}


def references(node) -> list[str]:
    """The component names a piece of a document refers to."""
    if isinstance(node, dict):
        found = [node["$ref"].removeprefix(SCHEMA_REF)] if str(
            node.get("$ref", "")).startswith(SCHEMA_REF) else []
        return found + [name for value in node.values() for name in references(value)]
    if isinstance(node, list):
        return [name for value in node for name in references(value)]
    return []


def reachable(roots, named: dict) -> set[str]:
    """The named schemas ``roots`` refer to, directly or through each other."""
    seen, todo = set(), [r for r in roots if r in named]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += [r for r in references(named[name]) if r in named]
    return seen

