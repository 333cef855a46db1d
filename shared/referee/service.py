"""The game-service factory: a game service is its engine plus a few lines.

    def create_app():
        return referee.service.create_app(Ghostone(), CalculateRequest)

Every service answers the same stateless routes (``../shared/api.md``); the
OpenAPI document and ``/docs`` come from the same schemas that check requests.
"""

import os

from flask import Flask

from . import schemas
from .engine import Engine
from .web import DEFAULT_MAX_BODY, OpenApi, install_error_handlers, json_response


def create_app(engine: Engine, calculate_schema=None, test_config: dict | None = None,
               calculate_answer=schemas.ScoreAnswer) -> Flask:
    app = Flask(__name__)  # the import name only locates resources; logs name the game
    app.config["MAX_CONTENT_LENGTH"] = int(os.environ.get("MAX_BODY_BYTES", DEFAULT_MAX_BODY))
    app.config.update(test_config or {})
    install_error_handlers(app)
    api = OpenApi(f"{engine.title} referee service",
                  f"Stateless {engine.title} rules: the caller holds the state. "
                  f"Rules: {engine.rules_doc}")
    route = api.route
    tag = engine.id

    @route(app, "/v1/info", "GET", summary="Game id, players, options, move types",
           answer=schemas.InfoAnswer, errors=(), tag=tag)
    def info():
        return json_response(engine.info())

    @route(app, "/v1/new", "POST", summary="A new game's state", body=schemas.NewRequest,
           answer=schemas.StateAnswer, tag=tag)
    def new(body):
        state = engine.new(body["players"], body["seed"], body["mode"], body["options"])
        answer = {"state": state}
        if "view_as" in body:
            answer["view"] = engine.view(state, body["view_as"])
        return json_response(answer)

    @route(app, "/v1/legal-moves", "POST", summary="The moves that may be played now",
           body=schemas.LegalMovesRequest, answer=schemas.LegalMovesAnswer, tag=tag)
    def legal_moves(body):
        state = body["state"]
        moves = engine.legal_moves(state, body["seat"])
        return json_response({"to_move": state["to_move"], "moves": moves})

    @route(app, "/v1/apply", "POST", summary="Play a move: the new state and the events",
           body=schemas.ApplyRequest, answer=schemas.ApplyAnswer, errors=(400, 403, 422),
           tag=tag)
    def apply(body):
        state, events = engine.apply(body["state"], body["move"])
        answer = {"state": state, "events": events}
        if "view_as" in body:
            seat = body["view_as"]
            answer["view"] = engine.view(state, seat)
            answer["view_events"] = engine.view_events(events, seat)
        return json_response(answer)

    @route(app, "/v1/score", "POST", summary="Scores with breakdown and ranking",
           body=schemas.StateRequest, answer=schemas.ScoreAnswer, tag=tag)
    def score(body):
        return json_response(engine.score(body["state"]))

    @route(app, "/v1/view", "POST", summary="The state as one seat (or a spectator) sees it",
           body=schemas.ViewRequest, answer=schemas.ViewAnswer, tag=tag)
    def view(body):
        return json_response({"view": engine.view(body["state"], body["seat"])})

    @route(app, "/v1/view-log", "POST", summary="Extension: log entries as one seat sees them",
           body=schemas.ViewLogRequest, answer=schemas.ViewLogAnswer, tag=tag)
    def view_log(body):
        seat = body["seat"]
        entries = [dict(e, move=engine.view_move(e["move"], seat),
                        events=engine.view_events(e["events"], seat)) for e in body["entries"]]
        return json_response({"entries": entries})

    if calculate_schema is not None:
        @route(app, "/v1/calculate", "POST",
               summary="Score helper: what a physical table reads off → the scores",
               body=calculate_schema, answer=calculate_answer, tag=tag)
        def calculate(body):
            return json_response(engine.calculate(body))

    @route(app, "/healthz", "GET", summary="Liveness", answer=schemas.HealthAnswer, errors=())
    def healthz():
        return json_response({"status": "ok"})

    @route(app, "/readyz", "GET", summary="Readiness (a game service has no dependencies)",
           answer=schemas.HealthAnswer, errors=())
    def readyz():
        return json_response({"status": "ready", "game": engine.id})

    api.install(app)
    return app
