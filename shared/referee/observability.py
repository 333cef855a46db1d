"""Operating the referee: request ids, Prometheus metrics, one JSON line per request.

One line where an app is built installs it all::

    observability.install(app, "gateway")               # the gateway
    observability.install(app, engine.id, engine)       # a game service

* **Request ids.** A well-formed ``X-Request-Id`` is kept, anything else is
  replaced by a new one; it is answered on every response, put in every
  problem+json body (``request_id``), forwarded to the game services
  (:func:`forwarded_headers`) and written on every log line of the request.
* **Metrics** (:mod:`referee.metrics`) are served at ``/metrics`` on the metrics
  port only (``METRICS_PORT``, default 9100): the public port answers 404 there,
  so the ingress, which routes the public port, never exposes them.
  ``METRICS_PORT=0`` turns metrics off.
* **Logs** (:mod:`referee.logs`): one ``referee.access`` line per request, at
  info (debug for health checks, error for a 5xx).

Everything hooks in from here (Flask hooks, wrappers on the engine, the session
store, the Redis client and the upstream client): the routes stay as they are.
"""

import json
import logging
import os
import re
import secrets
import time

from flask import Flask, Response, g, has_request_context, request

from . import logs, metrics, series
from .errors import CODES

log = logging.getLogger("referee.access")
HEADER = "X-Request-Id"
WELL_FORMED = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{7,127}")
PROBLEM = "application/problem+json"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
PROBES = frozenset({"/healthz", "/readyz"})
BOT_MOVE = "/v1/bot-move"  # a game service's bot route (referee.bots): one decision each


def request_id() -> str:
    """This request's id (made on first use outside a request hook)."""
    if "request_id" not in g:
        g.request_id = secrets.token_hex(16)
    return g.request_id


def forwarded_headers() -> dict:
    """Headers the gateway adds to a game-service call: the id travels end to end."""
    return {HEADER: request_id()} if has_request_context() else {}


def install(app: Flask, service: str, engine=None) -> None:
    port = int(app.config.get("METRICS_PORT", os.environ.get("METRICS_PORT", "9100")))
    counting = port > 0
    if "sessions" in app.extensions:  # the gateway's session store and its Redis
        _watch_sessions(app, counting)
    if "upstream" in app.extensions and counting:
        metrics.watch_upstream(app.extensions["upstream"])
    if engine is not None and counting:
        _watch_engine(engine)
    if "doorbell" in app.extensions and counting:
        _watch_streams(app.extensions["doorbell"])
    games = engine_games(app, engine)
    own_game = engine.id if engine is not None else ""

    metrics_port = str(port) if counting else None

    def begin():
        g.began = time.perf_counter()
        environ = request.environ
        offered = environ.get("HTTP_X_REQUEST_ID", "")
        g.request_id = offered if WELL_FORMED.fullmatch(offered) else secrets.token_hex(16)
        if environ.get("SERVER_PORT") == metrics_port:
            g.scrape = True  # the metrics port serves /metrics and nothing else
            if request.path != "/metrics":
                return Response("only /metrics is served on this port\n", 404,
                                mimetype="text/plain")
            return Response(metrics.exposition(*app.extensions["referee.collectors"]),
                            mimetype=metrics.CONTENT_TYPE)
        return None

    def finish(response: Response) -> Response:
        # On every answer, so kept lean: the request and g are looked up once, and most
        # answers are a 2xx to a server with no Origin.
        state, req = g._get_current_object(), request._get_current_object()
        rid = state.request_id if "request_id" in state else request_id()
        response.headers[HEADER] = rid
        if "HTTP_ORIGIN" in req.environ:
            _expose_to_browsers(response)
        status = response.status_code
        problem = _stamp_problem(response, rid) if status >= 400 and \
            response.mimetype == PROBLEM else None
        if "scrape" in state:
            return response
        game = state.get("game") or (req.view_args or {}).get("game") or own_game
        game = game if game in games else ""
        rule = req.url_rule
        route = route_of(rule.rule) if rule is not None else "unmatched"
        now = time.perf_counter()
        took = now - state.get("began", now)
        method = req.method if req.method in METHODS else "OTHER"
        if counting:  # in the process's next batch of metric writes
            metrics.later(_count, service, method, route, game, status, took,
                          (problem.get("code") or "other") if problem is not None else None,
                          state.get("mode"))
        level = logging.ERROR if status >= 500 else \
            logging.DEBUG if route in PROBES else logging.INFO
        if log.isEnabledFor(level):
            fields = {"request_id": rid, "service": service, "method": method, "route": route,
                      "game": game, "status": status, "duration_ms": round(took * 1000, 2),
                      "session_id": state.get("session_id", "")}
            if problem is not None:  # what was refused, and under which rule
                fields.update({k: problem[k] for k in ("code", "rule") if k in problem})
            logs.later(log, level, fields, "%s %s %s", method, route, status)
        return response

    app.extensions["referee.series"] = (service, games) if counting else None
    app.extensions["referee.collectors"] = []
    if "redis.probe" in app.extensions:  # the gateway: what its Redis probe found last
        app.extensions["referee.collectors"].append(metrics.SessionStoreCollector(
            app.extensions.get("referee.live"), app.extensions["redis.probe"]))
    # First of the before-request hooks (so a rate-limited request has its id and its
    # clock too) and last of the after-request ones (so CORS's headers are there).
    app.before_request_funcs.setdefault(None, []).insert(0, begin)
    app.after_request_funcs.setdefault(None, []).insert(0, finish)


def prime(app: Flask, spec: dict) -> int:
    """Every known series of the app at 0 (:mod:`referee.series`); how many label sets.

    Called once every route is registered (after :func:`install`); ``spec``, the app's
    OpenAPI document, gives each route's answers: its success and its documented errors
    (a route it does not document: 200).
    """
    if app.extensions.get("referee.series") is None:  # metrics off
        return 0
    service, games = app.extensions["referee.series"]
    gateway = "sessions" in app.extensions  # the gateway: its session routes
    documented = documented_statuses(spec)
    routes = []
    for rule in app.url_map.iter_rules():
        path = DOCUMENTED_PATH.sub(r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append((method, route_of(rule.rule),
                           documented.get((path, method)) or ["200"],
                           carried_games(rule.rule, games, gateway)))
    return series.start_at_zero(service, routes, games, gateway=gateway)


DOCUMENTED_PATH = re.compile(r"<(?:\w+:)?(\w+)>")  # a rule's OpenAPI path (referee.web)


def documented_statuses(spec: dict) -> dict[tuple[str, str], list[str]]:
    """``(OpenAPI path, METHOD)`` → the statuses its document names (success, errors)."""
    return {(path, method.upper()): sorted(s for s in answers["responses"] if s.isdigit())
            for path, operations in spec.get("paths", {}).items()
            for method, answers in operations.items()
            if isinstance(answers, dict) and "responses" in answers}


def carried_games(rule: str, games: frozenset, gateway: bool) -> list[str]:
    """The game labels a route's answers carry: a game service's own game; on the gateway
    each game for a game's or a session's route, none for the others."""
    if not gateway:
        return sorted(games)
    if "<game>" in rule or rule.startswith("/v1/sessions"):
        return sorted(games)
    return [""]


ROUTES: dict[str, str] = {}  # a URL rule → its label (rules are few and fixed)
CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def route_of(rule: str) -> str:
    """A route's label: its rule without converters (``/v1/sessions/<sid>/moves``)."""
    label = ROUTES.get(rule)
    if label is None:
        label = ROUTES[rule] = CONVERTER.sub(r"<\1>", rule)
    return label


def engine_games(app: Flask, engine) -> frozenset:
    """The game names a label may carry: the engine's, or the gateway's services."""
    if engine is not None:
        return frozenset({engine.id})
    upstream = app.extensions.get("upstream")
    return frozenset(upstream.services) if upstream is not None else frozenset()


def _count(service, method, route, game, status, took, code, mode) -> None:
    """A request's metrics (``code``: its problem's, if it was refused)."""
    metrics.requests_of(service, method, route, game, str(status)).inc()
    metrics.latency_of(service, method, route, game).observe(took)
    if code is not None and status < 500:
        metrics.REFUSALS.labels(service, game, code if code in CODES else "other").inc()
        if status == 429:
            metrics.RATE_LIMIT_HITS.labels(route).inc()
    if status == 200 and mode is not None and route == "/v1/apply":
        metrics.moves_applied_of(game, metrics.mode_label(mode)).inc()
    elif status == 200 and route == BOT_MOVE:
        metrics.bot_decided(game)


def _stamp_problem(response: Response, rid: str) -> dict | None:
    """Put the request id in a problem+json body; the body, or None if unreadable."""
    if response.is_streamed:
        return None
    try:
        body = json.loads(response.get_data())
    except ValueError:
        return None
    if isinstance(body, dict):
        body["request_id"] = rid
        response.set_data(json.dumps(body, separators=(",", ":")))
        return body
    return None


def _expose_to_browsers(response: Response) -> None:
    """A browser app may read the id, and send its own (flask-cors lists the rest)."""
    exposed = response.headers.get("Access-Control-Expose-Headers")
    if exposed is not None and HEADER.lower() not in exposed.lower():
        response.headers["Access-Control-Expose-Headers"] = f"{exposed}, {HEADER}"
    allowed = response.headers.get("Access-Control-Allow-Headers")
    asked = request.headers.get("Access-Control-Request-Headers", "").lower()
    if allowed is not None and HEADER.lower() in asked and HEADER.lower() not in \
            allowed.lower():
        response.headers["Access-Control-Allow-Headers"] = f"{allowed}, {HEADER}"


def _watch_engine(engine) -> None:
    """Note the mode of the state a move is applied to (``referee_moves_applied_total``)."""
    step = engine.step
    if getattr(step, "_watched", False):
        return

    def watched_step(state, move, *args, **kwargs):
        answer = step(state, move, *args, **kwargs)
        if has_request_context() and isinstance(state, dict):
            g.mode = state.get("mode")
        return answer

    watched_step._watched = True
    engine.step = watched_step


def _watch_sessions(app: Flask, counting: bool) -> None:
    """Which session and game a request is about, the moves that land, live sessions."""
    store = app.extensions["sessions"]
    load, create, commit, delete = store.load, store.create, store.commit, store.delete
    live = None
    if counting:
        metrics.time_redis(store.client)
        live = app.extensions["referee.live"] = metrics.LiveSessions(store.ttl)
        if "redis.probe" in app.extensions:  # it writes and counts them in the background
            app.extensions["redis.probe"].tasks.append(live.refresh)
            app.extensions["redis.probe"].on_result = metrics.probed

    def about(sid, game):
        if has_request_context():
            g.session_id, g.game = sid, game

    def watched_load(sid, *args, **kwargs):
        session = load(sid, *args, **kwargs)
        about(session.sid, session.game)
        return session

    def watched_create(game, *args, **kwargs):
        sid, tokens = create(game, *args, **kwargs)
        about(sid, game)
        if live is not None:
            live.touch(sid)
        return sid, tokens

    def watched_commit(session, state, entry, *args, **kwargs):
        landed = commit(session, state, entry, *args, **kwargs)
        if landed and live is not None:
            live.touch(session.sid)
            if "move" in entry:  # corrections and seat changes are versions, not moves
                metrics.later(_count_session_move, session.game, session.meta.get("mode"))
        return landed

    def watched_delete(sid, *args, **kwargs):
        delete(sid, *args, **kwargs)
        if live is not None:
            live.end(sid)

    store.load, store.create, store.commit = watched_load, watched_create, watched_commit
    store.delete = watched_delete


def _count_session_move(game: str, mode) -> None:
    metrics.session_moves_of(game, metrics.mode_label(mode)).inc()


def _watch_streams(bell) -> None:
    """``referee_event_streams_open``: the doorbell every open event stream waits on."""
    watch, unwatch = bell.watch, bell.unwatch
    games: dict = {}  # each open stream's bell → its game (the label to take back)

    def watched_watch(sid, *args, **kwargs):
        ring = watch(sid, *args, **kwargs)
        games[ring] = g.get("game", "") if has_request_context() else ""
        metrics.STREAMS_OPEN.labels(games[ring]).inc()
        return ring

    def watched_unwatch(sid, ring, *args, **kwargs):
        unwatch(sid, ring, *args, **kwargs)
        if ring in games:
            metrics.STREAMS_OPEN.labels(games.pop(ring)).dec()

    bell.watch, bell.unwatch = watched_watch, watched_unwatch
