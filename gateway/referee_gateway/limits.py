"""Fixed-window rate limiting in Redis: past the limit, 429 ``rate_limited``
with ``Retry-After`` (the seconds left in the window).

A caller is what a script cannot make up: a token this session knows is counted
as its session and seat (each seat on its own); anything else — no token, or an
unknown or malformed one, which costs nothing to invent — as the caller's address.
The address is the one :func:`trust_proxies` fixed once for the whole app
(``TRUSTED_PROXY_HOPS``), so every limit, log line and metric reads the same one.
Health checks and the docs are never limited. When Redis does not answer the
limit is skipped: the stateless routes need no Redis and stay up; the session
routes answer 503 on their own.
"""

import hashlib
import logging
import time
from importlib.resources import files

import redis
from flask import request
from werkzeug.middleware.proxy_fix import ProxyFix

from referee.errors import RateLimited
from referee.sessions import keys
from referee.sessions.store import Session

from .access import SESSION_ID

log = logging.getLogger(__name__)
WINDOW = 60  # seconds
EXEMPT = {"/healthz", "/readyz", "/openapi.json", "/docs"}


def trust_proxies(app, hops: int) -> None:
    """Read the caller's address from ``X-Forwarded-For`` as set by ``hops`` trusted
    proxies (werkzeug's ProxyFix), for every reader of ``request.remote_addr``. With 0
    the header is ignored: nobody can spoof an address by sending it."""
    if hops < 0:
        raise ValueError("TRUSTED_PROXY_HOPS must be 0 or more")
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0,
                                x_prefix=0)


def address_digest() -> str:
    """The caller's address (as the trusted proxies said it), hashed: what a counter is
    named by, so Redis never holds an address."""
    return hashlib.sha256(str(request.remote_addr).encode()).hexdigest()[:32]


def caller_digest(store) -> str:
    """Who is counted: a known token's session and seat, else the address."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    sid = (request.view_args or {}).get("sid")
    if scheme.lower() == "bearer" and token.strip() and sid and SESSION_ID.fullmatch(sid):
        meta = store.meta(sid)
        caller = Session(sid, meta, {}).identify(token.strip()) if meta else None
        if caller is not None:
            return hashlib.sha256(f"{sid} {caller.name}".encode()).hexdigest()[:32]
    return address_digest()


def install(app, store, per_window: int) -> None:
    if per_window <= 0:
        return
    count = store.client.register_script(
        files("referee.sessions").joinpath("rate.lua").read_text())

    @app.before_request
    def limit():
        if request.path in EXEMPT or request.path.startswith("/docs/assets/"):
            return
        now = time.time()
        window = int(now // WINDOW)
        try:
            seen = count(keys=[keys.rate(caller_digest(store), window)], args=[WINDOW + 1])
        except redis.RedisError as exc:
            log.warning("rate limit skipped: %r", exc)
            return
        if seen > per_window:
            raise RateLimited(f"more than {per_window} requests in {WINDOW} s; slow down",
                              retry_after=max(1, int((window + 1) * WINDOW - now)))
