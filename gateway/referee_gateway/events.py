"""Push: ``GET /v1/sessions/{id}/events``, a Server-Sent Events stream per token.

Every change of a session (a move, a correction, a seat change) is a new version
with one log entry. The stream sends one event per version — ``id:`` is the
version — holding the entry and the view at that version, both redacted by the
game service for the token's seat, exactly as ``/log`` and ``GET /v1/sessions/{id}``
redact them. ``Last-Event-ID`` (or ``?since=``) resumes after that version: the
entries come from the log, so nothing is lost across reconnects or replicas.

A browser's ``EventSource`` cannot send ``Authorization``: it opens the stream with a
stream ticket instead (``POST …/events/ticket`` with the token, then ``?ticket=``). A
ticket is short-lived and opens one stream once; a reconnect asks for a new ticket and
resumes with ``?since=`` (a spent ticket in a URL that lands in a log opens nothing).

Fan-out: each commit publishes ``"<id> <version>"`` on one Redis channel (inside
the same Lua script). One subscriber per gateway process rings the streams of
that session, which then read the log; a lost message costs nothing but the
delay to the next heartbeat, when every stream re-reads its session anyway.

Idle streams hold no request worker: the gateway runs on gevent workers (one
greenlet per stream), see the README's "Live tables".
"""

import _socket
import logging
import random
import re
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import redis
from flask import Response, request, stream_with_context
from redis.exceptions import RedisClusterException

from referee import schemas
from referee.errors import (
    BadRequest, InvalidTicket, RefereeError, ServiceUnavailable, Unauthorized, UnknownSession,
)
from referee.sessions import keys
from referee.sessions.store import digest
from referee.web import json_response, language as spoken_language

from .access import SESSION_ID, bearer_token, load, summary, view_seat
from .redacted import Built, Redacted, sse, watcher

log = logging.getLogger(__name__)
RETRY_MS = 2000  # what a browser's EventSource waits before it reconnects
TICKET = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what secrets.token_urlsafe draws
#: why a stream ends, in the language of Accept-Language
ENDED = {"en": "the session was deleted or expired",
         "ja": "セッションは削除されたか、期限が切れました"}
REVOKED = {"en": "this token no longer belongs to the session (left or re-issued)",
           "ja": "このトークンはもうこのセッションのものではありません（退席したか、再発行されました）"}


class Doorbell:
    """One pub/sub subscription per process that wakes the streams of a session."""

    def __init__(self, client, stopping=lambda: False):
        self.client, self.stopping = client, stopping
        self.waiting: dict[str, dict[threading.Event, object]] = {}  # sid: {bell: seat}
        self.rung: dict[str, int] = {}  # sid: how often its streams were rung
        self.versions: dict[str, int] = {}  # sid: the latest version announced
        self.lock = threading.Lock()
        self.admission = threading.Lock()  # (watch takes self.lock: a lock of its own)
        self.thread = None
        self.closed = False

    @property
    def open_streams(self) -> int:
        with self.lock:
            return sum(len(bells) for bells in self.waiting.values())

    def admit(self, sid: str, most: int, seat=None) -> threading.Event | None:
        """A bell for one more stream, or None when ``most`` are open: counted and
        watched at once, so a crowd arriving together cannot pass the limit."""
        with self.admission:
            return self.watch(sid, seat) if self.open_streams < most else None

    def watch(self, sid: str, seat=None) -> threading.Event:
        """A bell for a stream of ``sid`` to ``seat`` (None: the public)."""
        bell = threading.Event()
        with self.lock:
            self.waiting.setdefault(sid, {})[bell] = seat
            if self.thread is None:
                self.thread = threading.Thread(target=self._listen, daemon=True,
                                               name="referee-doorbell")
                self.thread.start()
        return bell

    def unwatch(self, sid: str, bell: threading.Event) -> None:
        with self.lock:
            bells = self.waiting.get(sid, {})
            bells.pop(bell, None)
            if not bells:
                self.waiting.pop(sid, None)
                self.rung.pop(sid, None)
                self.versions.pop(sid, None)

    def seats(self, sid: str) -> set:
        """The seats this process streams ``sid`` to now (None: the public)."""
        with self.lock:
            return set(self.waiting.get(sid, {}).values())

    def generation(self, sid: str) -> int:
        """How often ``sid``'s streams were rung: a read begun after the count became
        this number sees every commit rung so far (each is published once stored)."""
        with self.lock:
            return self.rung.get(sid, 0)

    def latest(self, sid: str) -> int:
        """The latest version of ``sid`` announced to this process (0: none yet)."""
        with self.lock:
            return self.versions.get(sid, 0)

    def ring(self, sid: str | None = None, version: int = 0) -> None:
        """Wake one session's streams (None: every stream), announcing ``version``; a
        version already rung here is not rung again (the process that made a change rings
        its own streams at once, then hears the change's announcement)."""
        with self.lock:
            rung = list(self.waiting) if sid is None else [sid] if sid in self.waiting else []
            if rung and sid is not None:
                if version and version <= self.versions.get(sid, 0):
                    return
                self.versions[sid] = max(version, self.versions.get(sid, 0))
            bells = [bell for s in rung for bell in self.waiting[s]]
            for s in rung:
                self.rung[s] = self.rung.get(s, 0) + 1
        for bell in bells:
            bell.set()

    @property
    def alive(self) -> bool:
        return not self.closed and not self.stopping()

    def close(self) -> None:
        self.closed = True
        self.ring()

    def _listen(self) -> None:
        pause = 0.1
        while self.alive:
            pubsub = None
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(keys.CHANNEL)
                self.ring()  # (re)subscribed: whatever happened meanwhile is read now
                pause = 0.1
                while self.alive:
                    message = pubsub.get_message(timeout=1.0)
                    if message and message.get("type") == "message":
                        sid, _, version = str(message["data"]).partition(" ")
                        self.ring(sid, int(version) if version.isdigit() else 0)
            except (redis.RedisError, RedisClusterException, OSError) as exc:
                log.warning("doorbell: %r; subscribing again in %.1f s", exc, pause)
                time.sleep(pause)
                pause = min(pause * 2, 5.0)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except Exception:  # closing a broken connection may fail again
                        pass
        self.ring()  # the worker stops: every stream ends now, clients resume elsewhere


def worker_stopping() -> bool:
    """Whether the gunicorn worker serving us has begun to stop (streams end at once
    then, rather than holding the worker until its graceful timeout)."""
    from referee import gunicorn_conf
    worker = getattr(gunicorn_conf, "running_worker", None)
    return worker is not None and not worker.alive


def register(app, api, stopping=worker_stopping):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    heartbeat = float(app.config.get("STREAM_HEARTBEAT_SECONDS", 15))
    most = int(app.config.get("STREAM_MAX_PER_WORKER", 2000))
    bell = app.extensions["doorbell"] = Doorbell(store.client, stopping)
    # Events are built by a few workers of their own (greenlets under gevent): their
    # connections to the game services are kept and reused, and however many streams
    # wake at once the services see a bounded number of calls: one per new version and
    # language for all the seats this process streams it to (redacted.py).
    builders = ThreadPoolExecutor(int(app.config.get("STREAM_BUILDERS", 8)),
                                  thread_name_prefix="referee-events")

    hidden: dict[str, bool] = {}

    def has_secrets(game: str) -> bool:
        """The game service's word on whether its views differ by seat."""
        if game not in hidden:
            hidden[game] = bool(upstream.call(game, "/v1/info").get("hidden_information", True))
        return hidden[game]

    def shown_as(game: str, seat):
        """The seat whose redaction a stream gets: a game whose service declares no
        hidden information shows every seat the public view (one event serves all)."""
        return seat if seat is None or has_secrets(game) else None

    def in_language(language: str):
        return app.test_request_context(headers={"Accept-Language": language})

    def watching(sid: str, game: str) -> set:
        return {shown_as(game, seat) for seat in bell.seats(sid)}

    redacted = Redacted(upstream, store, watching,
                        lambda build: builders.submit(build).result(), in_language)
    # What the streams of a session read when one ring wakes them all: read once per
    # process and ring, in one round trip (a heartbeat's read is each stream's own: it
    # finds lost rings).
    woken = Built(1024)

    def read_woken(sid: str, index: int) -> tuple[dict | None, list[dict], dict]:
        """The meta hash, the log from ``index`` on and, by version, the stream events
        built with the version rung last."""
        def read():
            version = bell.latest(sid)
            meta, entries, built = store.woken(sid, index, version)
            return meta, entries, {version: built}
        return woken.get(("woken", sid, bell.generation(sid), index), read)

    def event_for(sid, game, seat, entry, language, built: dict) -> str:
        """The event of ``entry`` for ``seat``, in ``language`` (en, ja): as its move
        built it (``built`` holds the version rung; another is read once per process),
        else from the game service (redacted.py)."""
        shown = shown_as(game, seat)
        if not entry.get("undone"):  # (an undone move's event carries the mark)
            version = entry["version"]
            events = built.get(version) or woken.get(
                ("pushed", sid, version), lambda: store.pushed(sid, version))
            if watcher(shown, language) in events:
                return events[watcher(shown, language)]
        return redacted.event(sid, game, shown, entry, language)

    def watch(sid, game, seat, language) -> float:
        """Renew this stream's place among the session's watchers for three heartbeats
        (the moves made meanwhile redact for its seat and language in their own call);
        when, on the monotonic clock. A stream renews at most once a heartbeat, so at most
        two heartbeats apart (a wait is at most one)."""
        store.watch(sid, watcher(shown_as(game, seat), language), 3 * heartbeat)
        return time.monotonic()

    ticket_seconds = int(app.config.get("STREAM_TICKET_SECONDS", 60))
    api.spec.components.security_scheme("streamTicket", {
        "type": "apiKey", "in": "query", "name": "ticket",
        "description": "a stream ticket from POST /v1/sessions/{sid}/events/ticket: single "
                       "use, short-lived (what a browser's EventSource can send)"})

    @api.route(app, "/v1/sessions/<session_id:sid>/events/ticket", "POST",
               summary="A stream ticket: opens this token's event stream once, without a "
                       "header (a browser's EventSource)",
               answer=schemas.StreamTicket, errors=(401, 404, 503), security=True,
               tag="sessions", operation_id="createStreamTicket",
               description="For clients that cannot send `Authorization` on a stream (a "
                           "browser's `EventSource`, React Native SSE libraries): the "
                           "answer's `events_url` (`…/events?ticket=…`) opens the stream "
                           "this token would, with the same seat's redaction. The ticket is "
                           "unguessable, bound to this session and token, usable for "
                           "STREAM_TICKET_SECONDS (60) and spent by the first stream it "
                           "opens: to reconnect, ask for a new ticket and add "
                           "`&since=<last event id>` (an EventSource's own automatic "
                           "reconnect reuses the spent URL and gets 401 `invalid_ticket`). "
                           "A token that leaves or is re-issued takes its tickets with it. "
                           "The seat token itself never goes in a URL.")
    def ticket(sid):
        load(store, sid)  # a token of this session, still valid
        issued = store.issue_ticket(sid, digest(bearer_token()), ticket_seconds)
        return json_response({"ticket": issued, "expires_in": ticket_seconds,
                              "events_url": f"/v1/sessions/{sid}/events?ticket={issued}"},
                             headers={"Cache-Control": "no-store"})

    def stream_caller(sid):
        """``(session, caller, token digest)`` of a stream: from ``?ticket=`` when one is
        sent (spent here, whatever follows; an Authorization header is then not read: a
        browser library may add one of its own), else from ``Authorization``."""
        ticket = request.args.get("ticket")
        if ticket is None:
            session, caller = load(store, sid)
            return session, caller, digest(bearer_token())
        if not TICKET.fullmatch(ticket):
            raise InvalidTicket("this is not a stream ticket: ask POST "
                                f"/v1/sessions/{sid}/events/ticket for one")
        if not SESSION_ID.fullmatch(sid):
            raise UnknownSession("there is no session with this id")
        session = store.load(sid)
        token_digest = store.spend_ticket(sid, ticket)
        if token_digest is None:
            raise InvalidTicket("this stream ticket is unknown, spent or expired: ask POST "
                                f"/v1/sessions/{sid}/events/ticket for a new one")
        caller = session.identify_digest(token_digest)
        if caller is None:
            raise Unauthorized("the token this ticket was issued for no longer belongs to "
                               "the session (left or re-issued)")
        return session, caller, token_digest

    @api.route(app, "/v1/sessions/<session_id:sid>/events", "GET",
               summary="Server-Sent Events: every new version as this token may see it",
               errors=(400, 401, 404, 503), security=("token", "streamTicket"),
               tag="sessions", operation_id="streamSessionEvents",
               params=[{"name": "Last-Event-ID", "in": "header", "required": False,
                        "description": "resume after this version (what an EventSource sends "
                                       "when it reconnects by itself)",
                        "schema": {"type": "string", "pattern": r"^(\s*[0-9]{1,12}\s*)?$"}},
                       {"name": "since", "in": "query", "required": False,
                        "description": "resume after this version (when no Last-Event-ID; "
                                       "with a new ticket after a dropped stream)",
                        "schema": {"type": "integer", "minimum": 0, "maximum": 10**12 - 1}},
                       {"name": "ticket", "in": "query", "required": False,
                        "description": "a stream ticket (POST …/events/ticket) instead of "
                                       "Authorization (which is then not read): what a "
                                       "browser's EventSource sends; single use",
                        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{16,64}$"}}],
               description="text/event-stream. Without a resume point the first event is "
                           "`state` (the caller's whole view now); then one event per "
                           "version: `move`, `correction` (undo, redo, takeback: the entries "
                           "it marks are listed), `seats` (joined, left, absent, "
                           "reissued, started) or `dispute` (a companion entry refused as "
                           "contradicting another hand: who, never what), each `id:` its "
                           "version, `data:` {version, "
                           "kind, entry, view, to_move}, redacted by the game service for "
                           "the token's seat. A comment line at least every "
                           "STREAM_HEARTBEAT_SECONDS keeps idle connections open. The "
                           "stream ends with `revoked` when the token stops working (left, "
                           "re-issued) and `end` when the session is deleted or expires. "
                           "Over a worker's STREAM_MAX_PER_WORKER: 503 with Retry-After. "
                           "A browser's EventSource cannot send Authorization: open "
                           "`?ticket=` from POST …/events/ticket instead (single use; a "
                           "reconnect takes a new ticket and `&since=`). "
                           "A client that also moves should keep the highest version it "
                           "has seen: a bot may answer a move before the move's own answer "
                           "is read, so that answer can arrive after events of later "
                           "versions.")
    def events(sid):
        if bell.open_streams >= most or not bell.alive:  # before Redis is asked anything
            raise crowded()
        session, caller, token_digest = stream_caller(sid)
        since = resume_point(session.version)
        ring = bell.admit(sid, most, view_seat(caller))
        if ring is None:
            raise crowded()
        client_socket = connection_of(request.environ)
        said = spoken_language()  # the events' and an end's language, for people
        try:
            renewed = watch(sid, session.game, view_seat(caller), said)
        except BaseException:
            bell.unwatch(sid, ring)
            raise

        def stream():
            nonlocal caller, renewed
            sent = session.version if since is None else since
            try:
                yield f"retry: {RETRY_MS}\n\n"
                if since is None:
                    view = upstream.call(session.game, "/v1/view", {
                        "state": session.state, "seat": view_seat(caller)})["view"]
                    yield sse("state", summary(session, caller, session.state, view),
                              session.version)
                # where the next entry is in the log (one entry per version, appended)
                entries = store.entries_from(sid, 0)
                index = sum(1 for e in entries if e["version"] <= sent)
                rung = False  # the first read, and each heartbeat's, are the stream's own
                while bell.alive:
                    ring.clear()
                    meta, fresh, built = read_woken(sid, index) if rung else (
                        store.meta(sid), None, {})
                    if meta is None:
                        yield sse("end", {"reason": ENDED[said]})
                        return
                    caller = type(session)(sid, meta, {}).identify_digest(token_digest)
                    if caller is None:
                        yield sse("revoked", {"reason": REVOKED[said]})
                        return
                    if int(meta["version"]) > sent:
                        for entry in fresh if rung else store.entries_from(sid, index):
                            index += 1
                            if entry["version"] > sent:
                                yield event_for(sid, session.game, view_seat(caller), entry,
                                                said, built)
                                sent = entry["version"]
                    # each wait its own length, from half a heartbeat to one: a thousand
                    # streams opened at once would otherwise all wake in the same moment,
                    # every heartbeat, and hold up the moves then
                    rung = ring.wait(heartbeat * random.uniform(0.5, 1.0))
                    if not rung:
                        if peer_closed(client_socket):  # gone: free its place now
                            return
                        if time.monotonic() - renewed >= heartbeat:
                            renewed = watch(sid, session.game, view_seat(caller), said)
                        yield ": keep-alive\n\n"
            except (redis.RedisError, RefereeError) as exc:  # the client resumes
                log.warning("stream %s ended: %r", sid, exc)
            finally:
                bell.unwatch(sid, ring)

        response = Response(stream_with_context(stream()), 200, mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        # admitted above: let go even if the stream never starts (the client left first)
        response.call_on_close(lambda: bell.unwatch(sid, ring))
        return response

    def crowded() -> ServiceUnavailable:
        return ServiceUnavailable("this gateway holds as many streams as it may; try again "
                                  "shortly", retry_after=app.config["RETRY_AFTER_SECONDS"])


def connection_of(environ: dict):
    """The client's socket, where the server tells it (gunicorn, werkzeug); else None."""
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


def peer_closed(sock) -> bool:
    """Whether the client has closed its end: a peek that neither waits nor consumes.

    A stream learns that its client left only when a write fails, which takes two
    writes (the first goes to the kernel's buffer): up to two heartbeats. The peek sees
    the client's FIN at the next one. It runs on a plain socket object on the same
    descriptor (gevent's ``recv`` would wait for data), let go after.
    """
    if sock is None:
        return False
    try:
        fd = sock.fileno()
        if fd < 0:
            return True
        plain = _socket.socket(fileno=fd)
    except OSError:
        return True
    try:
        return plain.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False  # nothing to read: the client is there and silent, as it should be
    except OSError:
        return True  # reset
    finally:
        plain.detach()  # the descriptor stays the server's


def resume_point(current: int) -> int | None:
    """The version to resume after: Last-Event-ID, else ?since=, else None (live only).
    A resume point past the current version starts afresh (a stale or foreign id)."""
    header = request.headers.get("Last-Event-ID")
    given = [t.strip() for t in ([header] if header else []) + request.args.getlist("since")]
    # each is checked, the one not used too: a malformed ?since= is 400 beside a good header
    if any(not (t.isascii() and t.isdigit()) or len(t) > 12 for t in given):
        raise BadRequest("Last-Event-ID and since are a session version, e.g. 12")
    if not given:
        return None
    return int(given[0]) if int(given[0]) <= current else None
