"""The referee's HTTP API in Python: tables, seats, moves, corrections, events.

    from referee_client import Referee
    referee = Referee("http://127.0.0.1:8000")
    table = referee.create("ghostone", players=3, seed=42)
    seat = table.seats[1]
    seat.move(seat.legal_moves()[0])
    for event in seat.events():
        ...

Safe retries: a request that changed nothing (connection refused, 429, 503) is
sent again after its ``Retry-After``; a move or a correction carries an
``Idempotency-Key`` drawn once, so a retry after a lost answer is answered once
and never played twice. Creating, joining and re-issuing a token are retried
only when the referee said it did nothing (429, 503): their answers hold
secrets the referee does not keep.
"""

import time
import uuid

import requests

from .errors import Unavailable, error_for
from .sse import Event, parse

RETRY_STATUSES = (429, 503)


class Referee:
    """A connection to one referee (its gateway)."""

    def __init__(self, url: str = "http://127.0.0.1:8000", *, language: str | None = None,
                 retries: int = 3, timeout: float = 10.0, max_wait: float = 10.0,
                 http: requests.Session | None = None):
        self.url = url.rstrip("/")
        self.retries, self.timeout, self.max_wait = retries, timeout, max_wait
        self.http = http or requests.Session()
        if language:
            self.http.headers["Accept-Language"] = language

    def close(self) -> None:
        self.http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------- plumbing
    def request(self, method: str, path: str, *, token: str | None = None, body=None,
                headers: dict | None = None, params=None, idempotent: bool = False):
        """Send; answer the JSON body (None for 204); raise a typed ``RefereeError``.

        ``idempotent``: the request may be sent again after a connection error
        (GETs, and POSTs carrying an Idempotency-Key).
        """
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                answer = self.http.request(method, self.url + path, json=body, params=params,
                                           headers=headers, timeout=self.timeout)
            except requests.ConnectionError as exc:
                if last or not (idempotent or _never_sent(exc)):
                    raise Unavailable(0, {"code": "connection_failed",
                                          "detail": str(exc)[:300]}) from exc
                self._pause(attempt, None)
                continue
            if answer.status_code in RETRY_STATUSES and not last:
                self._pause(attempt, answer.headers.get("Retry-After"))
                continue
            if answer.status_code >= 400:
                try:
                    problem = answer.json()
                except ValueError:
                    problem = {"detail": answer.text[:300]}
                raise error_for(answer.status_code, problem if isinstance(problem, dict)
                                else {"detail": str(problem)})
            return None if answer.status_code == 204 else answer.json()
        raise AssertionError("unreachable")

    def _pause(self, attempt: int, retry_after: str | None) -> None:
        wait = float(retry_after) if retry_after and retry_after.isdigit() else \
            0.2 * 2 ** attempt
        time.sleep(min(wait, self.max_wait))

    # ---------------------------------------------------------------- games
    def games(self) -> list[dict]:
        return self.request("GET", "/v1/games", idempotent=True)["games"]

    def game(self, game: str) -> dict:
        return self.request("GET", f"/v1/games/{game}", idempotent=True)

    # --------------------------------------------------------------- tables
    def create(self, game: str, players: int, *, seed: int | None = None,
               mode: str = "digital", options: dict | None = None, seats: str = "assigned",
               public: bool = False, bots: dict[int, str] | None = None) -> "Table":
        """A new session. ``seats="open"``: players join with ``table.join_code``.
        ``bots={2: "strong"}``: seats a bot plays (random, greedy or strong)."""
        body = {"game": game, "players": players, "mode": mode, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        if bots:
            body["bots"] = {str(seat): level for seat, level in bots.items()}
        if seats != "assigned":
            body.update(seats=seats, public=public)
        return Table(self, self.request("POST", "/v1/sessions", body=body))

    def join(self, code: str | None = None, seat="any", *,
             session_id: str | None = None) -> "Session":
        """Take a seat of an open table by its join code (or a lobby table's id)."""
        body = {"seat": seat, **({"code": code} if code else {"session_id": session_id})}
        joined = self.request("POST", "/v1/sessions/join", body=body)
        return Session(self, joined["session_id"], joined["token"], seat=joined["seat"],
                       version=joined["version"])

    def lobby(self, game: str | None = None) -> list[dict]:
        params = {"game": game} if game else None
        return self.request("GET", "/v1/lobby", params=params, idempotent=True)["tables"]

    def session(self, session_id: str, token: str) -> "Session":
        """A handle on a session for one token (a seat's, the table's, a spectator's)."""
        return Session(self, session_id, token)


class Table:
    """A created session: the table's, the spectator's and (assigned) each seat's handle."""

    def __init__(self, referee: Referee, created: dict):
        self.created = created
        self.session_id: str = created["session_id"]
        self.join_code: str | None = created.get("join_code")
        version = created["version"]
        self.table = Session(referee, self.session_id, created["table_token"], version=version)
        self.spectator = Session(referee, self.session_id, created["spectator_token"],
                                 version=version)
        self.seats = {s["seat"]: Session(referee, self.session_id, s["token"], seat=s["seat"],
                                         version=version)
                      for s in created["seats"] if "token" in s}


class Session:
    """One token's handle on a session; ``version`` is the latest any answer or event
    showed (an answer read after the stream's news of later versions never takes it back)."""

    def __init__(self, referee: Referee, session_id: str, token: str, *,
                 seat: int | None = None, version: int | None = None):
        self.referee, self.session_id, self.token = referee, session_id, token
        self.seat, self.version = seat, version
        self.path = f"/v1/sessions/{session_id}"

    def _call(self, method, tail="", **kwargs):
        answer = self.referee.request(method, self.path + tail, token=self.token, **kwargs)
        if isinstance(answer, dict) and isinstance(answer.get("version"), int):
            self._saw(answer["version"])
            you = answer.get("you")
            if isinstance(you, dict) and you.get("seat"):
                self.seat = you["seat"]
        return answer

    def _saw(self, version: int) -> None:
        if self.version is None or version > self.version:
            self.version = version

    def _change(self, tail: str, body: dict, if_match, key: str | None):
        headers = {"Idempotency-Key": key or uuid.uuid4().hex}
        if if_match is True:
            if_match = self.version
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        return self._call("POST", tail, body=body, headers=headers, idempotent=True)

    # ---------------------------------------------------------------- reads
    def view(self) -> dict:
        return self._call("GET", idempotent=True)

    def legal_moves(self) -> list[dict]:
        return self._call("GET", "/legal-moves", idempotent=True)["moves"]

    def score(self) -> dict:
        return self._call("GET", "/score", idempotent=True)

    def legal_moves_of(self, *, card: int | None = None, type: str | None = None,
                       spend: list[str] | None = None) -> list[dict]:
        """Only one card's moves, or one kind of move (Gizmos: a card's ways to pay, one
        Build per spend; with ``spend``, every Converter set of that spend)."""
        params = {k: v for k, v in (("card", card), ("type", type),
                                    ("spend", None if spend is None else ",".join(spend)))
                  if v is not None}
        return self._call("GET", "/legal-moves", params=params, idempotent=True)["moves"]

    def hint(self, level: str = "greedy", budget_ms: int | None = None) -> dict:
        """A bot's suggested move for this seat, from its own view."""
        params = {"level": level, **({"budget_ms": budget_ms} if budget_ms else {})}
        return self._call("GET", "/hint", params=params, idempotent=True)["move"]

    def log(self, since: int = 0) -> list[dict]:
        return self.referee.request("GET", self.path + "/log", token=self.token,
                                    params={"since": since}, idempotent=True)["entries"]

    # ------------------------------------------------------------ companion
    def awaiting(self):
        """Companion mode: whose entry the session waits for — a seat number, ``"table"``
        (a public outcome: the table token or any seat enters it), or None."""
        return self.view()["view"].get("awaiting")

    def enter(self, *, if_match=None, **fields) -> dict:
        """Companion (or tabletop) mode: enter the chance outcome this token holds, named
        by its fields (``enter(card="m5")``, ``enter(chip=4)``): the one listed entry that
        has them. Where none is listed the outcome is sent as named, so that the referee
        answers why (``impossible_entry``, ``entry_conflict``, ``not_your_entry``)."""
        listed = [m for m in self.legal_moves() if m.get("seat") == "chance"]
        found = [m for m in listed if all(m.get(k) == v for k, v in fields.items())]
        if len(found) > 1:
            raise ValueError(f"{len(found)} listed entries have {fields}: name more fields")
        shape = {k: v for k, v in (listed[0] if listed else {}).items()
                 if k not in ("p", "text")}
        move = found[0] if found else dict(shape, seat="chance", **fields)
        return self.move(move, if_match=if_match)

    # -------------------------------------------------------------- changes
    def move(self, move: dict, *, if_match=None, idempotency_key: str | None = None) -> dict:
        """Play ``move``. ``if_match=True`` pins the last version seen (412 if it moved
        on); a retry after a lost answer reuses one Idempotency-Key."""
        return self._change("/moves", {"move": move}, if_match, idempotency_key)

    def undo(self, to_version: int | None = None, *, if_match=None) -> dict:
        """Tabletop or companion (table token): back to ``to_version``; digital or
        companion (a seat): take back the seat's own last move (companion: or entry)."""
        body = {} if to_version is None else {"to_version": to_version}
        return self._change("/undo", body, if_match, None)

    def redo(self, *, if_match=None) -> dict:
        return self._change("/redo", {}, if_match, None)

    def start(self, *, if_match=None) -> dict:
        return self._change("/start", {}, if_match, None)

    def leave(self, seat: int | None = None, *, if_match=None) -> dict:
        return self._change("/leave", {} if seat is None else {"seat": seat}, if_match, None)

    def reissue(self, seat: int) -> "Session":
        """Table token: a new token for ``seat`` (the old one stops at once)."""
        answer = self.referee.request("POST", f"{self.path}/seats/{seat}/token",
                                      token=self.token)
        self._saw(answer["version"])
        return Session(self.referee, self.session_id, answer["token"], seat=seat,
                       version=answer["version"])

    def seat_bot(self, seat: int, level: str = "strong", *, if_match=None) -> dict:
        """Table token: a bot plays ``seat`` from now on (its token stops working)."""
        headers = {"If-Match": f'"{self.version if if_match is True else if_match}"'} \
            if if_match is not None else {}
        return self._call("PUT", f"/seats/{seat}/bot", body={"level": level},
                          headers=headers, idempotent=True)

    def unseat_bot(self, seat: int) -> dict:
        """Table token: take ``seat`` back from its bot (then :meth:`reissue` a token)."""
        return self._call("DELETE", f"/seats/{seat}/bot", idempotent=True)

    def delete(self) -> None:
        self.referee.request("DELETE", self.path, token=self.token, idempotent=True)

    # --------------------------------------------------------------- events
    def stream_ticket(self) -> dict:
        """A ticket that opens this token's event stream once, for a client that cannot send
        a header (a browser's EventSource, handed ``events_url`` by a server that keeps the
        token): ``{ticket, expires_in, events_url}``. Single use; a reconnect takes a new one
        and adds ``&since=`` the last event id. (This client's own ``events`` needs none.)"""
        return self.referee.request("POST", self.path + "/events/ticket", token=self.token)

    def events(self, since: int | None = None, *, reconnects: int = 20,
               read_timeout: float = 60.0):
        """The session's events for this token, resuming after ``since`` (None: the
        ``state`` event first, then live). A dropped connection is resumed with
        Last-Event-ID, so no version is skipped; the iteration ends after ``end``
        (session gone) or ``revoked`` (token no longer valid), or when the caller
        stops iterating. ``read_timeout`` must exceed the server's heartbeat."""
        last, wait, failures = since, 1.0, 0
        referee = self.referee
        while True:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            try:
                with referee.http.get(referee.url + self.path + "/events", headers=headers,
                                      stream=True, timeout=(referee.timeout, read_timeout)
                                      ) as answer:
                    if answer.status_code in RETRY_STATUSES:
                        raise _Again(answer.headers.get("Retry-After"))
                    if answer.status_code >= 400:
                        raise error_for(answer.status_code, answer.json())
                    failures = 0
                    for item in parse(answer.iter_lines(decode_unicode=True)):
                        if isinstance(item, tuple):
                            wait = item[1] / 1000
                            continue
                        if item.id is not None:
                            last = item.id
                            self._saw(item.id)
                        yield item
                        if item.event in ("end", "revoked"):
                            return
            except (requests.ConnectionError, requests.Timeout,
                    requests.exceptions.ChunkedEncodingError, _Again) as exc:
                failures += 1
                if failures > reconnects:
                    raise Unavailable(0, {"code": "stream_lost", "detail": str(exc)}) from exc
                pause = exc.seconds if isinstance(exc, _Again) else wait
                time.sleep(min(pause, referee.max_wait))
                continue
            failures += 1  # the server closed the stream (a replica stopping): resume
            if failures > reconnects:
                return
            time.sleep(min(wait, referee.max_wait))


class _Again(Exception):
    def __init__(self, retry_after: str | None):
        super().__init__("the referee asked to retry")
        self.seconds = float(retry_after) if retry_after and retry_after.isdigit() else 1.0


def _never_sent(exc: requests.ConnectionError) -> bool:
    """A connection that was never made: the request cannot have reached the referee."""
    text = repr(exc)
    return "NewConnectionError" in text or "ConnectTimeout" in text or \
        "Connection refused" in text


__all__ = ["Referee", "Table", "Session", "Event"]
