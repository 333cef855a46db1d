"""Fixed-window rate limiting in Redis: past the limit, 429 ``rate_limited``
with ``Retry-After`` (the seconds left in the window).

A caller is its bearer token when it sends one (each seat is counted on its
own), else its address. Health checks and the docs are never limited. When
Redis does not answer the limit is skipped: the stateless routes need no Redis
and stay up; the session routes answer 503 on their own.
"""

import hashlib
import logging
import time
from importlib.resources import files

import redis
from flask import request

from referee.errors import RateLimited
from referee.sessions import keys

log = logging.getLogger(__name__)
WINDOW = 60  # seconds
EXEMPT = {"/healthz", "/readyz", "/openapi.json", "/docs"}


def install(app, client, per_window: int) -> None:
    if per_window <= 0:
        return
    count = client.register_script(
        files("referee.sessions").joinpath("rate.lua").read_text())

    @app.before_request
    def limit():
        if request.path in EXEMPT or request.path.startswith("/docs/assets/"):
            return
        header = request.headers.get("Authorization", "")
        caller = header if header.lower().startswith("bearer ") else request.remote_addr
        digest = hashlib.sha256(str(caller).encode()).hexdigest()[:32]
        now = time.time()
        window = int(now // WINDOW)
        try:
            seen = count(keys=[keys.rate(digest, window)], args=[WINDOW + 1])
        except redis.RedisError as exc:
            log.warning("rate limit skipped: %r", exc)
            return
        if seen > per_window:
            raise RateLimited(f"more than {per_window} requests in {WINDOW} s; slow down",
                              retry_after=max(1, int((window + 1) * WINDOW - now)))
