"""The gateway: the public entry of tabletop-referee.

Run with ``gunicorn 'referee_gateway:create_app()'``. It re-exposes each game
service's stateless routes under ``/v1/games/{game}`` and owns the sessions
(server-held games with a secret token per seat) in Redis.
"""

import logging

import redis
from flask import Flask
from werkzeug.routing import BaseConverter
from flask_cors import CORS

from referee import observability, schemas
from referee.errors import ServiceUnavailable
from referee.sessions.probe import RedisProbe
from referee.sessions.store import PoolBusy, SessionStore, connect
from referee.web import (
    PROBLEM, OpenApi, install_error_handlers, json_response, language, problem_response,
)

from . import (
    config, corrections, events, examples, games, limits, lobby, page, pictures, seatbots, sessions,
    typed,
)
from .upstream import Upstream

log = logging.getLogger(__name__)


class SessionId(BaseConverter):
    """A session id in a path: never a word of its own (``/v1/sessions/join``), so the
    routes of ``/v1/sessions/<sid>`` neither match it nor answer its OPTIONS."""

    regex = r"(?!join(?![^/]))[^/]+"  # (what a real id looks like is checked on load)


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.url_map.converters["session_id"] = SessionId
    app.config.update(config.from_environment())
    app.config.update(test_config or {})
    install_error_handlers(app)

    @app.after_request
    def _language(response):
        # move text, problem details and pictures follow Accept-Language: a cache (or a
        # 304 by ETag) keeps one answer per language
        response.vary.add("Accept-Language")
        if response.mimetype == PROBLEM and "Content-Language" not in response.headers:
            # a game service's problem passed through: it answered the header passed on
            response.headers["Content-Language"] = language()
        return response

    @app.errorhandler(redis.RedisError)
    def _redis_down(error):
        log.warning("redis: %r", error)
        why = ("this gateway is busy: every connection to the session store is in use; try "
               "again shortly") if isinstance(error, PoolBusy) else "the session store is unavailable"
        return problem_response(ServiceUnavailable(
            why, retry_after=app.config["RETRY_AFTER_SECONDS"]))

    app.extensions["upstream"] = Upstream(
        app.config["GAME_SERVICES"], app.config["UPSTREAM_CONNECT_TIMEOUT"],
        app.config["UPSTREAM_READ_TIMEOUT"], app.config["RETRY_AFTER_SECONDS"])
    app.extensions["sessions"] = SessionStore(
        connect(app.config["REDIS_URL"], cluster=app.config["REDIS_CLUSTER"],
                max_connections=app.config["REDIS_MAX_CONNECTIONS"]),
        app.config["SESSION_TTL_SECONDS"])
    # Redis seen from the side: /metrics, /readyz and the session routes never wait on it
    probe = app.extensions["redis.probe"] = RedisProbe(
        connect(app.config["REDIS_URL"], cluster=app.config["REDIS_CLUSTER"],
                socket_timeout=app.config["REDIS_PROBE_TIMEOUT"], max_connections=2,
                retries=0), every=app.config["REDIS_PROBE_SECONDS"])
    probe.guard(app.extensions["sessions"].client)

    # once, first: every limit, log line and metric reads the address it fixes
    limits.trust_proxies(app, app.config["TRUSTED_PROXY_HOPS"])
    limits.install(app, app.extensions["sessions"], app.config["RATE_LIMIT_PER_MINUTE"])
    # CORS by flask-cors (a well-kept package, not hand-written headers): any route, the
    # request headers the API reads, the answer headers a client needs, never credentials.
    origins = app.config["CORS_ORIGINS"]
    CORS(app, origins="*" if origins == ["*"] else origins, send_wildcard=origins == ["*"],
         supports_credentials=False, max_age=600,
         allow_headers=["Authorization", "Content-Type", "If-Match", "If-None-Match",
                        "Idempotency-Key", "Accept-Language", "Last-Event-ID"],
         expose_headers=["ETag", "Location", "Retry-After", "Idempotent-Replayed",
                         "Content-Language"])

    api = OpenApi("tabletop-referee", "A rules referee for tabletop games: stateless rules "
                  "per game under /v1/games/{game}, and server-held sessions with a secret "
                  "token per seat under /v1/sessions. Tokens travel as "
                  "`Authorization: Bearer <token>`.",
                  common_errors=(429,) if app.config["RATE_LIMIT_PER_MINUTE"] > 0 else ())
    games.register(app, api)
    sessions.register(app, api)
    lobby.register(app, api)
    seatbots.register(app, api)
    corrections.register(app, api)
    events.register(app, api)
    pictures.register(app, api)
    page.register(app, api)  # the web app at /
    examples.register(app, api)  # last: every route is documented by now
    api.extenders.append(typed.defaults_in_words)  # after every body is written

    @api.route(app, "/healthz", "GET", summary="Liveness (no dependency is called)", errors=(),
               answer=schemas.HealthAnswer, operation_id="healthz")
    def healthz():
        return json_response({"status": "ok"})

    @api.route(app, "/readyz", "GET", summary="Readiness: this worker serves (Redis down: "
               "degraded, still ready; 503 only while the worker stops)", errors=(503,),
               answer=schemas.ReadyAnswer, operation_id="readyz")
    def readyz():
        # Never Redis's word alone: an outage would take every replica out of the Service,
        # and with them the stateless routes, which need no Redis (README, "Reliability").
        if events.worker_stopping():
            raise ServiceUnavailable("this worker is stopping",
                                     retry_after=app.config["RETRY_AFTER_SECONDS"])
        redis_status = probe.status()
        return json_response({"status": "ready" if redis_status["redis"] == "up"
                              else "degraded", **redis_status,
                              "games": sorted(app.config["GAME_SERVICES"])})

    api.install(app)
    observability.install(app, "gateway")  # request ids, metrics, access log lines
    observability.prime(app, api.spec.to_dict())  # every known series at 0 (issue 31)
    probe.start()
    return app
