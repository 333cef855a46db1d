"""The game-service factory: a game service is its engine plus a few lines.

    def create_app():
        return referee.service.create_app(Ghostone(), CalculateRequest)

Every service answers the same stateless routes (README, "The API in one page"); the
OpenAPI document and ``/docs`` come from the same schemas that check requests.
"""

import copy
import hashlib
import json
import logging
import os

from flask import Flask, Response, request
from jsonschema import Draft202012Validator

from . import bots, observability, schemas, wire
from .engine import REFEREE, Engine
from .errors import BadRequest, InvalidInput, NoSuchSeat, RefereeError
from .web import DEFAULT_MAX_BODY, OpenApi, install_error_handlers, json_response, language

log = logging.getLogger(__name__)


def with_text(engine: Engine, moves: list[dict], lang: str, state=None, reader=None
              ) -> list[dict]:
    """Moves with their sentences; given the state, as listed to ``reader`` (who may be told
    what its view shows: Engine.listing_texts)."""
    if state is None:
        return [dict(m, text=engine.move_text(m, lang)) for m in moves]
    texts = engine.listing_texts(state, reader, moves, lang)
    return [dict(m, text=text) for m, text in zip(moves, texts, strict=True)]


def create_app(engine: Engine, calculate_schema=None, test_config: dict | None = None,
               calculate_answer=schemas.ScoreAnswer) -> Flask:
    app = Flask(__name__)  # the import name only locates resources; logs name the game
    app.config["MAX_CONTENT_LENGTH"] = int(os.environ.get("MAX_BODY_BYTES", DEFAULT_MAX_BODY))
    app.config.update(test_config or {})
    install_error_handlers(app)
    app.extensions["referee.rule_text"] = engine.rule_text  # a refusal's rule, in words
    observability.install(app, engine.id, engine)  # request ids, metrics, access log lines
    g = wire.prefix(engine)
    api = OpenApi(f"{engine.title} referee service",
                  f"Stateless {engine.title} rules: the caller holds the state. "
                  f"Rules: {engine.rules_doc}", component_prefix=g)
    named = wire.components(engine)
    if calculate_schema is not None:  # the marshmallow schema checks it: it documents it
        named.pop(f"{g}CalculateRequest", None)
    named.update(bots.wire_components(engine))
    api.add_components(named)

    def documented(name: str) -> Draft202012Validator:
        """A validator of the named schema, as this service's document serves it."""
        return Draft202012Validator({"$ref": wire.ref(name)["$ref"],
                                     "components": {"schemas": named}})

    route = api.route
    tag = engine.id

    @app.after_request
    def _language(response):
        response.vary.add("Accept-Language")
        return response

    @route(app, "/v1/info", "GET", summary="Game id, players, options, move types",
           answer=schemas.InfoAnswer, errors=(), tag=tag, operation_id="getInfo")
    def info():
        return json_response(engine.info())

    @route(app, "/v1/components", "GET", summary="The catalog of the game's components",
           answer=wire.ref(f"{g}Components"), errors=(304,), tag=tag,
           operation_id="getComponents",
           description="What a client needs to draw and explain the game: cards, boards, "
                       "pieces, with names in English and Japanese. Cacheable: ETag and "
                       "Cache-Control; If-None-Match answers 304.")
    def components():
        return cacheable(engine.components())

    @route(app, "/v1/new", "POST", summary="A new game's state", body=schemas.NewRequest,
           doc_body=wire.ref(f"{g}NewRequest"), answer=wire.ref(f"{g}StateAnswer"), tag=tag,
           operation_id="newGame")
    def new(body):
        state, events = engine.start(body["players"], body["seed"], body["mode"],
                                     body["options"])
        answer = {"state": state, "events": events}  # the setup's (deals…), unredacted
        if "view_as" in body:
            at_table(engine, state, body["view_as"], "view_as")
            answer["view"] = engine.view(state, body["view_as"])
        return json_response(answer)

    @route(app, "/v1/legal-moves", "POST", summary="The moves that may be played now",
           body=schemas.LegalMovesRequest, doc_body=wire.ref(f"{g}LegalMovesRequest"),
           answer=wire.ref(f"{g}LegalMoves"), tag=tag, operation_id="listLegalMoves",
           description="Each move carries `text` in the language of Accept-Language (en, ja); "
                       "post a move back as listed.")
    def legal_moves(body):
        state = body["state"]
        at_table(engine, state, body["seat"], "seat")
        moves = engine.legal_moves(state, body["seat"], match=body["match"])
        if "view_as" in body:  # a session's reader, who does not hold the state
            at_table(engine, state, body["view_as"], "view_as")
            moves = engine.view_listing(state, moves, body["view_as"])
        reader = body["view_as"] if "view_as" in body else body["seat"]
        return json_response({"to_move": state["to_move"],
                              "moves": with_text(engine, moves, language(), state, reader)})

    @route(app, "/v1/apply", "POST", summary="Play a move: the new state and the events",
           body=schemas.ApplyRequest, doc_body=wire.ref(f"{g}ApplyRequest"),
           answer=wire.ref(f"{g}ApplyAnswer"), errors=(400, 403, 422), tag=tag,
           operation_id="applyMove")
    def apply(body):
        at_table(engine, body["state"], body.get("view_as"), "view_as")
        at_table(engine, body["state"], body.get("entrant"), "entrant")
        check_annotations(body["move"])
        lang = language()
        seats, languages = body.get("redact_for", []), body.get("redact_languages", [lang])
        if len(set(seats)) != len(seats) or len(set(languages)) != len(languages):
            raise BadRequest("redact_for and redact_languages must not repeat themselves")
        for seat in seats:
            at_table(engine, body["state"], seat, "redact_for")
        state, events, move = engine.step(body["state"], body["move"],
                                          entrant=body.get("entrant", REFEREE))
        answer = {"state": state, "move": dict(move, text=engine.move_text(move, lang)),
                  "events": events}
        if "view_as" in body:
            seat = body["view_as"]
            seen = engine.view_move(move, seat)
            answer["view"] = engine.view(state, seat)
            answer["view_move"] = dict(seen, text=engine.move_text(seen, lang))
            answer["view_events"] = engine.view_events(events, seat)
        if seats:
            answer["redacted"] = redacted_version(
                engine, state, {"version": state["version"], "move": move, "events": events},
                seats, languages)
        return json_response(answer)

    @route(app, "/v1/score", "POST", summary="Scores with breakdown and ranking",
           body=schemas.StateRequest, doc_body=wire.ref(f"{g}StateRequest"),
           answer=wire.ref(f"{g}Score"), tag=tag, operation_id="getScore")
    def score(body):
        return json_response(engine.score(body["state"]))

    @route(app, "/v1/view", "POST", summary="The state as one seat (or a spectator) sees it",
           body=schemas.ViewRequest, doc_body=wire.ref(f"{g}ViewRequest"),
           answer=wire.ref(f"{g}ViewAnswer"), tag=tag, operation_id="getView")
    def view(body):
        at_table(engine, body["state"], body["seat"], "seat")
        return json_response({"view": engine.view(body["state"], body["seat"])})

    @route(app, "/v1/picture", "POST", summary="An SVG picture of the state as one seat sees it",
           body=schemas.ViewRequest, doc_body=wire.ref(f"{g}ViewRequest"), tag=tag,
           operation_id="drawPicture",
           description="The seat's view (or the public one) drawn as SVG, `image/svg+xml`: "
                       "the board, pieces, cards with their costs and points, the scores and "
                       "whose turn it is; its `<desc>` says the same in words, in the language "
                       "of Accept-Language (en, ja). Drawn from the view alone.")
    def picture(body):
        at_table(engine, body["state"], body["seat"], "seat")
        return svg_answer(lambda lang: engine.picture(body["state"], body["seat"], lang))

    api.extenders.append(lambda document: document_picture(document, engine))

    @route(app, "/v1/preview", "POST",
           summary="An SVG picture of the position a seat's move leads to, before chance",
           body=schemas.ApplyRequest, doc_body=wire.ref(f"{g}ApplyRequest"), tag=tag,
           operation_id="drawPreview",
           description="For a move of the game's `previewed_moves` (see /v1/info): the "
                       "position it leads to, before any chance that follows, drawn as "
                       "`/v1/picture` draws (as `view_as` sees it). A move whose result "
                       "draws on chance, or of another type, is 400.")
    def preview(body):
        seat = body.get("view_as")
        at_table(engine, body["state"], seat, "view_as")
        return svg_answer(lambda lang: engine.preview_picture(body["state"], body["move"], seat,
                                                              lang))

    @route(app, "/v1/bot-move", "POST", summary="A bot's move, chosen from one seat's view",
           doc_body=wire.ref(f"{g}BotMoveRequest"), raw_body=True, tag=tag,
           answer=wire.ref(f"{g}BotMove"), errors=(400, 403, 422), operation_id="chooseBotMove",
           check=documented(f"{g}BotMoveRequest"), description=bots.ROUTE_DOC)
    def bot_move(body):
        move, level = bots.decide(engine, body)
        return json_response({"move": dict(move, text=engine.move_text(move, language())),
                              "level": level})

    api.extenders.append(lambda document: bots.document_example(document, engine))

    @route(app, "/v1/view-log", "POST", summary="Log entries as one seat sees them",
           body=schemas.ViewLogRequest, doc_body=wire.ref(f"{g}ViewLogRequest"),
           answer=wire.ref(f"{g}Log"), tag=tag, operation_id="viewLog",
           check=LogChecker(engine, named))  # entries hold moves as the game logs them
    def view_log(body):
        return json_response({"entries": seen_entries(engine, body["entries"], body["seat"],
                                                      language())})

    @route(app, "/v1/redact", "POST",
           summary="A version as every watching seat sees it, in one call",
           body=schemas.RedactRequest, doc_body=wire.ref(f"{g}RedactRequest"),
           answer=wire.ref(f"{g}Redacted"), tag=tag, operation_id="redactForSeats",
           check=LogChecker(engine, named, f"{g}RedactRequest"),
           description="What `/v1/view-log` and `/v1/view` answer for one seat, for each of "
                       "`seats` (null: the public) at once: the state is checked once and "
                       "every seat's answer is redacted for that seat alone. A gateway "
                       "pushing a move to the streams of several seats asks once per move, "
                       "not once per stream.")
    def redact(body):
        seats, state, lang = body["seats"], body.get("state"), language()
        if len(set(seats)) != len(seats):
            raise BadRequest("seats must not repeat a seat")
        if state is not None:
            for seat in seats:
                at_table(engine, state, seat, "seats")
            engine.check(state, trusted=False)  # once, for every seat's view below
        answers = []
        for seat in seats:
            answer = {"seat": seat, "entries": seen_entries(engine, body["entries"], seat, lang)}
            if state is not None:
                answer["view"] = engine.view(state, seat, trusted=True)
            answers.append(answer)
        return json_response({"seats": answers})

    if calculate_schema is not None or engine.calculate_schema is not None:
        by_json_schema = calculate_schema is None  # else the marshmallow schema checks it

        @route(app, "/v1/calculate", "POST",
               summary="Score helper: what a physical table reads off → the scores",
               body=calculate_schema, doc_body=wire.ref(f"{g}CalculateRequest")
               if by_json_schema else None, answer=wire.ref(f"{g}Score"), tag=tag,
               operation_id="calculateScore", raw_body=by_json_schema,
               check=documented(f"{g}CalculateRequest") if by_json_schema else None)
        def calculate(body):
            return json_response(engine.calculate(body))

    @route(app, "/healthz", "GET", summary="Liveness", answer=schemas.HealthAnswer, errors=(),
           operation_id="healthz")
    def healthz():
        return json_response({"status": "ok"})

    @route(app, "/readyz", "GET", summary="Readiness (a game service has no dependencies)",
           answer=schemas.HealthAnswer, errors=(), operation_id="readyz")
    def readyz():
        return json_response({"status": "ready", "game": engine.id})

    api.extenders.append(lambda document: add_examples(document, engine))
    api.install(app)
    observability.prime(app, api.spec.to_dict())  # every known series at 0 (issue 31)
    return app


def redacted_version(engine: Engine, state: dict, entry: dict, seats: list,
                     languages: list[str]) -> list[dict]:
    """A new version as each of ``seats`` (at the table) sees it in each of ``languages``:
    its log entry and view, exactly what ``/v1/redact`` answers for that seat (a state the
    engine just made: trusted)."""
    views = {seat: engine.view(state, seat, trusted=True) for seat in seats}
    return [{"seat": seat, "language": lang, "entry": seen_entries(engine, [entry], seat, lang)[0],
             "view": views[seat]} for seat in seats for lang in languages]


def seen_entries(engine: Engine, entries: list[dict], seat, lang: str) -> list[dict]:
    """Log entries as ``seat`` (None: the public) may see them, moves with ``text``."""
    shown_entries = []
    for number, entry in enumerate(entries, start=1):
        try:  # (the setup entry has no move: only the setup's events)
            seen = engine.view_move(entry["move"], seat) if "move" in entry else None
            events = engine.view_events(entry["events"], seat)
        except RefereeError:
            raise
        except Exception:  # the caller's entries may hold what no game logs: 422, not 500
            log.warning("%s: log entry tripped the engine", engine.id, exc_info=True)
            raise InvalidInput(f"log entry {number} holds a move or events that "
                               f"{engine.title} never logs") from None
        shown = dict(entry, events=events)
        if seen is not None:
            shown["move"] = dict(seen, text=engine.move_text(seen, lang))
        shown_entries.append(shown)
    return shown_entries


class LogChecker:
    """Validates a body of log entries (``{Game}ViewLogRequest``, or ``request``)
    against its schema, each entry's move against the schema of its own type: the same
    verdicts as the whole ``oneOf``, five times faster (a body may hold 10,000 entries)."""

    def __init__(self, engine: Engine, named: dict, request: str | None = None):
        p = wire.prefix(engine)
        request = request or f"{p}ViewLogRequest"
        shallow = copy.deepcopy(named)
        items = shallow[request]["properties"]["entries"]["items"]
        items["properties"]["move"] = {"type": "object"}  # checked below, by its type

        def validator(name, schemas):
            return Draft202012Validator({"$ref": wire.ref(name)["$ref"],
                                         "components": {"schemas": schemas}})

        self.body = validator(request, shallow)
        self.any_move = validator(f"{p}Move", named)
        self.by_type = {t: validator(f"{p}Move_{t}", named) for t in engine.move_schemas}

    def iter_errors(self, body):
        yield from self.body.iter_errors(body)
        entries = body.get("entries") if isinstance(body, dict) else None
        for number, entry in enumerate(entries if isinstance(entries, list) else []):
            move = entry.get("move") if isinstance(entry, dict) else None
            if not isinstance(move, dict):
                continue
            kind = move.get("type")
            checker = self.by_type.get(kind, self.any_move) if isinstance(kind, str) \
                else self.any_move
            for error in checker.iter_errors(move):
                error.path.extendleft(reversed(["entries", number, "move"]))
                yield error


def at_table(engine: Engine, state, seat, field: str) -> None:
    """Refuse (422) a seat the document allows, up to the game's most players, that
    this state's table lacks; the engine would refuse it as malformed (400)."""
    players = state.get("players") if isinstance(state, dict) else None
    if type(seat) is int and type(players) is int and \
            engine.min_players <= players < seat <= engine.max_players:
        raise NoSuchSeat(f"{field} {seat} is not at this table of {players} players")


ANNOTATIONS = {name: Draft202012Validator(schema)
               for name, schema in wire.ANNOTATION_SCHEMAS.items()}
AS_LISTED = {"p": "a number from 0 to 1", "text": "a string"}


def check_annotations(move) -> None:
    """A move may come back with the ``p`` and ``text`` it was listed with; the
    referee ignores them, but refuses them (400) when they are not what the
    document says they are."""
    for name, checker in ANNOTATIONS.items():
        if isinstance(move, dict) and name in move and not checker.is_valid(move[name]):
            raise BadRequest(f"move.{name}, when sent back, must be {AS_LISTED[name]}, "
                             "as legal-moves listed it")


def add_examples(document: dict, engine: Engine) -> bool:
    """A runnable example request and its real answer for every stateless route,
    played by the engine itself (seed 1, the fewest players, English text)."""
    players = engine.min_players
    state, setup = engine.start(players, seed=1)
    moves = engine.legal_moves(state)
    new, events, move = engine.step(state, moves[0])
    seat = moves[0]["seat"]
    entry = {"version": new["version"], "move": move, "events": events}
    seen = engine.view_move(move, seat)
    examples = {
        "/v1/new": ({"players": players, "seed": 1, "mode": "digital"},
                    {"state": state, "events": setup}),
        "/v1/legal-moves": ({"state": state, "seat": seat}, {
            "to_move": state["to_move"], "moves": with_text(engine, moves[:3], "en", state,
                                                            seat)}),
        "/v1/apply": ({"state": state, "move": moves[0], "view_as": seat}, {
            "state": new, "move": dict(move, text=engine.move_text(move)), "events": events,
            "view": engine.view(new, seat), "view_move": dict(seen, text=engine.move_text(seen)),
            "view_events": engine.view_events(events, seat)}),
        "/v1/score": ({"state": new}, engine.score(new)),
        "/v1/view": ({"state": new, "seat": seat}, {"view": engine.view(new, seat)}),
        "/v1/view-log": ({"entries": [entry], "seat": seat}, {"entries": [
            dict(entry, move=dict(seen, text=engine.move_text(seen)),
                 events=engine.view_events(events, seat))]}),
        "/v1/redact": ({"state": new, "entries": [entry], "seats": [seat, None]}, {"seats": [
            {"seat": watcher, "entries": seen_entries(engine, [entry], watcher, "en"),
             "view": engine.view(new, watcher)} for watcher in (seat, None)]}),
    }
    if engine.calculate_schema and engine.calculate_schema.get("examples"):
        tally = engine.calculate_schema["examples"][0]
        examples["/v1/calculate"] = (tally, engine.calculate(tally))
    for path, (request_example, answer_example) in examples.items():
        operation = document["paths"].get(path, {}).get("post")
        if operation is None:
            continue
        operation["requestBody"]["content"]["application/json"]["example"] = request_example
        answer = operation["responses"]["200"].setdefault("content", {})
        answer.setdefault("application/json", {})["example"] = answer_example
    return True


def svg_answer(draw) -> Response:
    """An SVG drawn in the request's language (``draw(lang)``), saying which it is."""
    lang = language()
    return Response(draw(lang), 200, {"Content-Language": lang}, mimetype="image/svg+xml")


def document_picture(document: dict, engine: Engine) -> bool:
    """/v1/picture answers SVG, not JSON: its answer's content type, and an example."""
    state = engine.new(engine.min_players, seed=1)
    operation = document["paths"]["/v1/picture"]["post"]
    operation["requestBody"]["content"]["application/json"]["example"] = {"state": state,
                                                                          "seat": 1}
    operation["responses"]["200"]["content"] = {"image/svg+xml": {
        "schema": {"type": "string", "description": "an SVG document"},
        "example": engine.picture(state, 1)}}
    document["paths"]["/v1/preview"]["post"]["responses"]["200"]["content"] = {
        "image/svg+xml": {"schema": {"type": "string", "description": "an SVG document"}}}
    return True


def cacheable(payload) -> Response:
    """A JSON answer that never changes while the service runs: ETag, Cache-Control, 304."""
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "public, max-age=3600"}
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        return Response(status=304, headers=headers)
    return Response(body, 200, headers, mimetype="application/json")
