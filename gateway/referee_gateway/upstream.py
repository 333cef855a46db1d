"""The gateway's client for the game services.

One ``requests.Session`` per worker thread (connection reuse), explicit
connect and read timeouts on every call, connection retries only (a request
that never reached the service is safe to send again), and every downstream
failure translated here, in one place: a service's problem+json passes
through; a service that is down or answers garbage is a 503 with Retry-After.
"""

import json
import threading

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from referee.errors import ServiceUnavailable, UnknownGame, UpstreamProblem


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

    def url(self, game: str, path: str) -> str:
        base = self.services.get(game)
        if base is None:
            raise UnknownGame(f"no game {game!r}; games: {sorted(self.services)}")
        return base + path

    def raw(self, game: str, method: str, path: str, body: bytes | None = None):
        """``(status, content-type, body bytes)`` of a call, for pass-through routes."""
        try:
            response = self._session().request(
                method, self.url(game, path), data=body, timeout=self.timeout,
                headers={"Content-Type": "application/json"} if body is not None else None)
        except requests.RequestException as exc:
            raise self._down(game, exc) from None
        if response.status_code >= 500:
            raise self._down(game, f"answered {response.status_code}")
        return response.status_code, response.headers.get("Content-Type", ""), response.content

    def call(self, game: str, path: str, payload: dict | None = None) -> dict:
        """POST ``payload`` (GET when None) and return the JSON answer, or raise its problem."""
        status, _, content = self.raw(game, "GET" if payload is None else "POST", path,
                                      None if payload is None else json.dumps(payload).encode())
        try:
            answer = json.loads(content)
        except ValueError:
            raise self._down(game, "answered something that is not JSON") from None
        if status >= 400:
            raise UpstreamProblem(answer if isinstance(answer, dict) else {"status": status})
        return answer

    def _down(self, game: str, why) -> ServiceUnavailable:
        return ServiceUnavailable(f"the {game} service is unavailable ({why})"[:300],
                                  retry_after=self.retry_after)
