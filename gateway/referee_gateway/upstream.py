"""The gateway's client for the game services.

One ``requests.Session`` per worker thread (connection reuse), explicit
connect and read timeouts on every call, connection retries only (a request
that never reached the service is safe to send again), and every downstream
failure translated here, in one place: a service's problem+json passes
through; a service that is down or answers garbage is a 503 with Retry-After.
"""

import json
import logging
import threading

import requests
from flask import has_request_context, request
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from referee.errors import ServiceUnavailable, UnknownGame, UpstreamProblem
from referee.observability import forwarded_headers

log = logging.getLogger(__name__)
JSON_TYPES = ("application/json", "application/problem+json")  # what a game service answers
ANSWER_TYPES = (*JSON_TYPES, "image/svg+xml")  # … and its pictures (/v1/picture)


class Upstream:
    def __init__(self, services: dict[str, str], connect_timeout: float, read_timeout: float,
                 retry_after: int):
        self.services = services
        self.timeout = (connect_timeout, read_timeout)
        self.retry_after = retry_after
        self._local = threading.local()

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = requests.Session()
            adapter = HTTPAdapter(pool_connections=8, pool_maxsize=16,
                                  max_retries=Retry(total=2, connect=2, read=0, status=0,
                                                    backoff_factor=0.05,
                                                    allowed_methods=None))
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._local.session = session
        return session

    def close(self) -> None:
        """Close this thread's connections (a test's gateway, before its services stop)."""
        session = getattr(self._local, "session", None)
        if session is not None:
            session.close()
            self._local.session = None

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
        try:
            response = self._session().request(
                method, self.url(game, path), data=body, timeout=self.timeout,
                headers=headers)
        except requests.RequestException as exc:
            raise self._down(game, exc) from None
        if response.status_code >= 500:
            raise self._down(game, f"answered {response.status_code}")
        content_type = response.headers.get("Content-Type", "")
        if content_type.split(";")[0].strip() not in ANSWER_TYPES:
            raise self._down(game, f"answered {content_type or 'no content type'}")
        return response.status_code, content_type, response.content

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
