"""A new version's stream events, for every watching seat at once.

When a move lands, every stream of its session wakes. Each needs the version's entry
and view redacted for its own seat; asking the game service once per stream made a
watched move cost one call per watching seat (issue 33). Now a move is one call: every
open stream notes its seat and language in the session's watchers (renewed each
heartbeat), the move's own ``/v1/apply`` redacts the new version for each of them, and
the events built from that answer are stored with the change (``pushed_events``), where
every stream it wakes, in any process, takes its own.

What no move built (a correction, a seat change, a stream that opened after the move,
a version resumed a minute later) is asked of ``/v1/redact`` once for every seat this
process streams that session to (``Redacted``): the first stream to wake asks, the others
wait for that answer (single flight) and take their own seat's part. A stream whose seat
the answer lacks asks for its own seat alone. Each seat's event is exactly what the
per-seat calls built: the service redacts each seat on its own.
"""

import json
import threading
from collections import OrderedDict

from .logview import SERVICE_FIELDS, is_move


class Built:
    """Values built once per key in a process, however many callers wait for them
    (single flight), the most recent ``size`` kept."""

    def __init__(self, size: int = 4096):
        self.size, self.done, self.lock = size, OrderedDict(), threading.Lock()
        self.pending: dict[tuple, threading.Event] = {}

    def get(self, key: tuple, build):
        while True:
            with self.lock:
                if key in self.done:
                    self.done.move_to_end(key)
                    return self.done[key]
                waiting = self.pending.get(key)
                if waiting is None:
                    self.pending[key] = threading.Event()
                    break
            waiting.wait(10)
        try:
            value = build()
            with self.lock:
                self.done[key] = value
                while len(self.done) > self.size:
                    self.done.popitem(last=False)
            return value
        finally:
            with self.lock:
                self.pending.pop(key).set()


def sse(event: str, data: dict, version: int | None = None) -> str:
    head = f"id: {version}\n" if version is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def kind_of(entry: dict) -> str:
    if "move" in entry:
        return "move"
    if "seats" not in entry and entry.get("setup"):
        return "setup"
    if "dispute" in entry:  # a companion entry refused as contradicting another hand
        return "dispute"
    return "correction" if "correction" in entry else "seats"


def seat_order(seat) -> tuple:
    return (seat is None, seat or 0)


def watcher(seat, language: str) -> str:
    """A watching seat and language as one field: ``"2:ja"``, ``"-:en"`` (the public)."""
    return f"{'-' if seat is None else seat}:{language}"


def watched(fields) -> tuple[list, list[str]]:
    """The seats (None: the public) and languages of ``watcher`` fields, each once."""
    pairs = [field.partition(":")[::2] for field in fields]
    seats = {None if seat == "-" else int(seat) for seat, _ in pairs}
    return sorted(seats, key=seat_order), sorted({language for _, language in pairs})


def for_watchers(store, sid: str, asked: dict) -> dict:
    """``asked`` (a ``/v1/apply`` body) asking also for the new version as every stream
    open on the session sees it: the move and its events in one call."""
    seats, languages = watched(store.watchers(sid))
    return dict(asked, redact_for=seats, redact_languages=languages) if seats else asked


def seat_event(entry: dict, seen: dict | None, view: dict | None, to_move) -> str:
    """The stream event of a version's ``entry`` for one seat: its redaction of the
    entry's move and events (``seen``; None: nothing to redact) and its view (None:
    none, a session from before snapshots)."""
    version, kind = entry["version"], kind_of(entry)
    data = {"version": version, "kind": kind,
            "entry": entry if seen is None else dict(entry, **seen)}
    if view is not None:
        data["view"] = view
        data["to_move"] = to_move
    return sse(kind, data, version)


def pushed_events(entry: dict, redacted: list[dict], to_move) -> dict[str, str]:
    """The stream events of a move's new version built from its own call to the game
    service (``/v1/apply``'s ``redacted``): by ``watcher`` field."""
    return {watcher(r["seat"], r["language"]): seat_event(entry, r["entry"], r["view"], to_move)
            for r in redacted}


class Redacted:
    """Stream events per (session, version, undone mark, language), for many seats.

    ``watching(sid, game)``: the seats this process streams the session to now; ``run(f)``:
    runs ``f`` where calls to the services are made (the stream builders) and answers
    its result; ``context(language)``: a request context in that language."""

    def __init__(self, upstream, store, watching, run, context, size: int = 1024):
        self.upstream, self.store, self.watching = upstream, store, watching
        self.run, self.context = run, context
        self.batches = Built(size)  # {seat: event} per version, a few seats each
        self.singles = Built(size)  # a late stream's own seat

    def event(self, sid: str, game: str, seat, entry: dict, language: str) -> str:
        """The event of ``entry`` for ``seat`` (None: the public)."""
        key = (sid, entry["version"], bool(entry.get("undone")), language)
        batch = self.batches.get(key, lambda: self.run(lambda: self.build(
            sid, game, entry, language, {seat, *self.watching(sid, game)})))
        if seat in batch:
            return batch[seat]
        return self.singles.get((*key, seat), lambda: self.run(lambda: self.build(
            sid, game, entry, language, {seat}))[seat])

    def build(self, sid: str, game: str, entry: dict, language: str, seats: set) -> dict:
        """``{seat: event}`` for ``seats``, from one call to the game service (none when
        there is nothing to redact: a correction of a session from before snapshots)."""
        seats = sorted(seats, key=seat_order)
        with self.context(language):
            state = self.store.snapshot(sid, entry["version"])  # (a session from before snapshots:
            moved = is_move(entry)                     # no view)
            body = {"entries": [{k: entry[k] for k in SERVICE_FIELDS if k in entry}]
                    if moved else [], "seats": seats}
            if state is not None:
                body["state"] = state
            answers = self.upstream.call(game, "/v1/redact", body)["seats"] \
                if moved or state is not None else [{"seat": s} for s in seats]
        return {answer["seat"]: seat_event(
            entry, answer["entries"][0] if moved else None,
            answer["view"] if state is not None else None, state and state["to_move"])
            for answer in answers}
