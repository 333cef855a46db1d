"""Game list and info, and each game's stateless routes re-exposed under
``/v1/games/{game}/…`` (bodies pass through to the game service unchanged)."""

from flask import Response, current_app, request

from referee import schemas
from referee.web import json_response, parse_json

STATELESS = {  # route → (request schema, answer schema, summary)
    "new": (schemas.NewRequest, schemas.StateAnswer, "A new game's state"),
    "legal-moves": (schemas.LegalMovesRequest, schemas.LegalMovesAnswer,
                    "The moves that may be played now"),
    "apply": (schemas.ApplyRequest, schemas.ApplyAnswer, "Play a move on a state"),
    "score": (schemas.StateRequest, schemas.ScoreAnswer, "Scores, breakdown and ranking"),
    "view": (schemas.ViewRequest, schemas.ViewAnswer, "The state as one seat sees it"),
    "view-log": (schemas.ViewLogRequest, schemas.ViewLogAnswer,
                 "Log entries as one seat sees them"),
    "calculate": (None, schemas.ScoreAnswer,
                  "Score helper for a physical table (body: see the game's info/rules)"),
}


def register(app, api):
    upstream = app.extensions["upstream"]

    @api.route(app, "/v1/games", "GET", summary="The games this referee serves", errors=(),
               tag="games")
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
               answer=schemas.InfoAnswer, errors=(404, 503), tag="games")
    def game_info(game):
        return json_response(upstream.call(game, "/v1/info"))

    app.add_url_rule("/v1/games/<game>/info", "game_info_alias", game_info, methods=["GET"])

    def passthrough(game, action):
        # Parse here too: a malformed body is refused before any service is called.
        parse_json(request.get_data(cache=True))
        status, content_type, content = upstream.raw(
            game, "POST", f"/v1/{action}", request.get_data(cache=True))
        return Response(content, status, content_type=content_type or "application/json")

    for action, (body, answer, summary) in STATELESS.items():
        rule = f"/v1/games/<game>/{action}"
        app.add_url_rule(rule, f"games_{action}", passthrough, methods=["POST"],
                         defaults={"action": action})
        api.document(rule, "POST", summary, "Stateless: the caller holds the whole state.",
                      body, answer, 200, (400, 404, 413, 422, 503), (), "stateless")
