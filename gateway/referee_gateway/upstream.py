"""The gateway's client for the game services.

urllib3 connection pools, one per worker thread (connection reuse), explicit connect and
read timeouts on every call, connection retries (a request that never reached the
service is safe to send again), one more send of a request whose kept-alive connection
closed unanswered (the services' routes are pure), and every downstream failure translated
here, in one place: a service's problem+json passes through; a service that is down or
answers garbage is a 503 with Retry-After.

urllib3 itself, not requests on top of it: for each call requests merges the environment's
proxy and netrc settings, its cookie jar and its hooks, which cost the gateway more CPU
than the rest of the call to the service (measured: about 0.75 ms of 1.5 ms per call).
"""

import json
import logging
import threading

import urllib3
from flask import has_request_context, request
from urllib3.exceptions import (
    ConnectTimeoutError,
    HTTPError,
    MaxRetryError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
)
from urllib3.util.retry import Retry

from referee.errors import ServiceUnavailable, UnknownGame, UpstreamProblem
from referee.observability import forwarded_headers

log = logging.getLogger(__name__)
JSON_TYPES = ("application/json", "application/problem+json")  # what a game service answers
ANSWER_TYPES = (*JSON_TYPES, "image/svg+xml")  # … and its pictures (/v1/picture)
# A failure's name in referee_upstream_failures_total (reason): what went wrong, not
# which library's class said so. First match wins: urllib3's NewConnectionError (a refused
# or unresolvable address) is also a ConnectTimeoutError.
REASONS = ((NewConnectionError, "ConnectionError"), (ConnectTimeoutError, "ConnectTimeout"),
           (ReadTimeoutError, "ReadTimeout"), (ProtocolError, "ConnectionError"))


class CallFailed(Exception):
    """A call that got no answer; ``reason`` says why (ConnectionError, ReadTimeout…)."""

    def __init__(self, exc: HTTPError):
        cause = exc.reason if isinstance(exc, MaxRetryError) and exc.reason else exc
        self.reason = next((name for kind, name in REASONS if isinstance(cause, kind)),
                           type(cause).__name__)
        super().__init__(f"{self.reason}: {cause}")


def closed_unanswered(exc: HTTPError) -> bool:
    """Whether a call failed because the connection closed before any answer came."""
    cause = exc.reason if isinstance(exc, MaxRetryError) and exc.reason else exc
    return isinstance(cause, ProtocolError) and not isinstance(cause, ReadTimeoutError)


class Upstream:
    def __init__(self, services: dict[str, str], connect_timeout: float, read_timeout: float,
                 retry_after: int):
        self.services = services
        self.timeout = (connect_timeout, read_timeout)
        self.retry_after = retry_after
        self._local = threading.local()

    def _pools(self) -> urllib3.PoolManager:
        pools = getattr(self._local, "pools", None)
        if pools is None:
            connect, read = self.timeout
            pools = self._local.pools = urllib3.PoolManager(
                num_pools=8, maxsize=16, timeout=urllib3.Timeout(connect=connect, read=read),
                retries=Retry(total=2, connect=2, read=0, status=0, redirect=0,
                              backoff_factor=0.05, allowed_methods=None,
                              raise_on_redirect=False))
        return pools

    def close(self) -> None:
        """Close this thread's connections (a test's gateway, before its services stop)."""
        pools = getattr(self._local, "pools", None)
        if pools is not None:
            pools.clear()
            self._local.pools = None

    def url(self, game: str, path: str) -> str:
        base = self.services.get(game)
        if base is None:
            known = ", ".join(sorted(self.services))
            raise UnknownGame(f"there is no game {json.dumps(game)}; the games are {known}")
        return base + path

    def raw(self, game: str, method: str, path: str, body: bytes | None = None):
        """``(status, content-type, body bytes)`` of a call, for pass-through routes."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        headers.update(forwarded_headers())  # X-Request-Id: one id end to end
        if has_request_context() and "Accept-Language" in request.headers:
            headers["Accept-Language"] = request.headers["Accept-Language"][:200]  # move text
        url = self.url(game, path)
        for attempt in (1, 2):
            try:
                response = self._pools().request(method, url, body=body, headers=headers)
                break
            except HTTPError as exc:
                # A kept-alive connection the service closed as the request went out (its
                # keep-alive ran out, its worker restarted): no answer, nothing done. Every
                # game-service route is a pure function of its body, so it is sent again
                # once; a read timeout is not (the service is slow: twice is worse).
                if attempt == 1 and closed_unanswered(exc):
                    continue
                raise self._down(game, CallFailed(exc)) from None
        if response.status >= 500:
            raise self._down(game, f"answered {response.status}")
        content_type = response.headers.get("Content-Type", "")
        if content_type.split(";")[0].strip() not in ANSWER_TYPES:
            raise self._down(game, f"answered {content_type or 'no content type'}")
        return response.status, content_type, response.data

    def call(self, game: str, path: str, payload: dict | None = None) -> dict:
        """POST ``payload`` (GET when None) and return the JSON answer, or raise its problem."""
        status, _, content = self.raw(game, "GET" if payload is None else "POST", path,
                                      None if payload is None else json.dumps(payload).encode())
        return self.call_answer(game, status, content)

    def call_object(self, game: str, path: str, payload: dict) -> bytes:
        """Like :meth:`call`, answering the JSON object's bytes as they came: a listing can
        be megabytes, which the gateway need not decode and encode again."""
        status, _, content = self.raw(game, "POST", path, json.dumps(payload).encode())
        if status < 400 and content[:1] == b"{" and content[1:2] != b"}":
            return content
        self.call_answer(game, status, content)
        raise self._down(game, "answered something that is not a JSON object")

    def call_answer(self, game: str, status: int, content: bytes) -> dict:
        """A service's answer as JSON, or the problem it is raised as."""
        try:
            answer = json.loads(content)
        except ValueError:
            raise self._down(game, "answered something that is not JSON") from None
        if status >= 400:
            raise UpstreamProblem(answer if isinstance(answer, dict) else {"status": status})
        return answer

    def _down(self, game: str, why) -> ServiceUnavailable:
        # The cause names internal hosts and ports: it goes to the log, never to the caller.
        log.warning("upstream %s failed: %s", game, why)
        return ServiceUnavailable(f"the {game} service is unavailable; try again in "
                                  f"{self.retry_after} s", retry_after=self.retry_after)
