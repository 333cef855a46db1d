"""What every session route shares: who is calling (from the token alone), what
the caller is shown, and how a change lands — a compare-and-set on the version,
retried on a newer version unless the client pinned one with ``If-Match``, with
``Idempotency-Key`` answering a retry once.
"""

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import current_app, request

from referee.engine import canonical
from referee.errors import (
    BadRequest, IdempotencyConflict, Unauthorized, UnknownSession, VersionConflict,
)
from referee.web import json_response

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_ATTEMPTS = 5  # a change re-validated this often against newer versions, then 412
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "description": "the version the change was chosen on (412 if it moved on)",
            "schema": {"type": "string", "pattern": r'^\s*(W/)?"*[0-9]{1,12}"*\s*$'}}
IDEMPOTENCY_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
                   "description": "a retry with the same key and body is answered once",
                   "schema": {"type": "string", "minLength": 1, "maxLength": 200}}


def bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send the session's token as 'Authorization: Bearer <token>'")
    return token.strip()


def load(store, sid: str):
    """``(session, caller)`` for the request's token, or 404/401."""
    token = bearer_token()  # no token at all: 401, whether or not the session exists
    if not SESSION_ID.fullmatch(sid):
        raise UnknownSession("there is no session with this id")
    session = store.load(sid)
    caller = session.identify(token)
    if caller is None:
        raise Unauthorized("this token does not belong to this session")
    return session, caller


def view_seat(caller):
    """The seat whose view the caller gets (None: the public view)."""
    return caller.seat if caller.role == "seat" else None


def seats_of(session) -> list[dict]:
    """Each seat's status: taken, open (nobody holds it yet), absent (left) or bot (with
    its level: a bot says it is one)."""
    seats = [{"seat": s, "status": session.seat_status(s)}
             for s in range(1, int(session.meta["players"]) + 1)]
    for seat in seats:
        if seat["status"] == "bot":
            seat["bot"] = session.bot_level(seat["seat"])
    return seats


def summary(session, caller, state, view) -> dict:
    shown = {"session_id": session.sid, "game": session.game, "mode": session.meta["mode"],
             "version": state["version"], "to_move": state["to_move"],
             "started": session.started, "seats": seats_of(session),
             "you": {"role": caller.role, "seat": caller.seat}, "view": view}
    if caller.role == "table" and not session.started and session.meta.get("join_code"):
        shown["join_code"] = spoken(session.meta["join_code"])  # to read aloud again
    return shown


def spoken(code: str) -> str:
    """How a join code is shown: ``K4TM-9XQR``."""
    return f"{code[:4]}-{code[4:]}"


def bumped(state: dict) -> dict:
    """The same position at the next version: a change that is not a move."""
    return dict(state, version=state["version"] + 1)


def stamped(entry: dict, caller) -> dict:
    return dict(entry, by=caller.name, at=round(time.time(), 3))


@dataclass
class Change:
    """What a request writes: the new state, its log entry, the answer, and the
    log entries and meta fields that change with it (all in one script)."""

    state: dict
    entry: dict
    answer: dict
    rewrite: list = field(default_factory=list)
    meta_set: dict = field(default_factory=dict)
    meta_del: list = field(default_factory=list)
    status: int = 200
    #: the new version's stream events, from its entry as logged (stamped): a move's own
    #: call to the game service redacted it for every watching seat (redacted.py)
    pushed: Callable[[dict], dict] | None = None


def write(store, sid: str, plan, *, body=None, precheck=None, remember=True, pinned=True):
    """Land ``plan(session, caller) -> Change`` as one compare-and-set.

    ``precheck(session, caller)`` refuses early (before If-Match is compared);
    a plan that lost a race is planned again on the new version, unless the
    client sent ``If-Match`` (then 412 with the current version; not ``pinned``:
    the header is not this write's). An answer that holds a secret is not
    ``remember``-ed for Idempotency-Key replays.
    """
    if_match = version_header(request.headers.get("If-Match")) if pinned else None
    key = request.headers.get("Idempotency-Key") if remember else None
    if key is not None and not 0 < len(key) <= 200:
        raise BadRequest("Idempotency-Key must be 1 to 200 characters")
    fingerprint = hashlib.sha256(
        f"{request.path}\n{canonical(body)}".encode()).hexdigest()
    for _ in range(MAX_ATTEMPTS):
        session, caller = load(store, sid)
        idem = None
        if key is not None:
            idem = hashlib.sha256(f"{caller.name}\n{key}".encode()).hexdigest()
            record = store.idempotent_answer(sid, idem)
            if record is not None:
                if record["fingerprint"] != fingerprint:
                    raise IdempotencyConflict("this Idempotency-Key came with another request")
                return json_response(record["answer"], record.get("status", 200), {
                    "ETag": f'"{record["answer"]["version"]}"',
                    "Idempotent-Replayed": "true"})
        if precheck is not None:
            precheck(session, caller)
        if if_match is not None and if_match != session.version:
            raise VersionConflict(f"the session is at version {session.version}, "
                                  f"not {if_match}", current_version=session.version)
        try:
            change = plan(session, caller)
        except Stale:  # lost the race while planning: as a failed compare-and-set
            change = None
        if change is not None:
            record = (idem, {"fingerprint": fingerprint, "answer": change.answer,
                             "status": change.status}) if idem else None
            entry = change.entry if "by" in change.entry else stamped(change.entry, caller)
            if store.commit(session, change.state, entry, record,
                            rewrite=change.rewrite, meta_set=change.meta_set,
                            meta_del=change.meta_del,
                            pushed=change.pushed and change.pushed(entry)):
                ring_here(sid, change.state["version"])
                return json_response(change.answer, change.status,
                                     {"ETag": f'"{change.state["version"]}"'})
        if if_match is not None:  # the client chose on a version now gone
            current = store.load(sid).version
            raise VersionConflict(f"another change landed first; the session is at "
                                  f"version {current}", current_version=current)
    raise VersionConflict("the session is too busy; fetch it and try again",
                          current_version=store.load(sid).version)


def ring_here(sid: str, version: int) -> None:
    """Wake this process's streams of ``sid`` now: the change's announcement through Redis
    reaches the others, and here only after a round trip (events.py's doorbell)."""
    bell = current_app.extensions.get("doorbell")
    if bell is not None:
        bell.ring(sid, version)


class Stale(Exception):
    """A plan read something newer than the session it plans on (another change landed
    in between): it is planned again, or 412 with ``If-Match`` — never refused for what
    the newer change did."""


def entries_of(store, session) -> list[dict]:
    """The session's log as of ``session``'s version. Read after the session: a change
    that landed in between would make the plan refuse on a log its compare-and-set
    would not accept (two undos racing: 409 for the loser instead of 412)."""
    entries = store.entries(session.sid)
    if entries and entries[-1]["version"] > session.version:
        raise Stale
    return entries


def version_header(value: str | None) -> int | None:
    if value is None:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit()) or len(text) > 12:  # "²".isdigit()
        raise BadRequest("If-Match must be a session version, e.g. If-Match: \"12\"")
    return int(text)


def matches(header: str | None, version: int) -> bool:
    if not header:
        return False
    tags = [t.strip().removeprefix("W/").strip('"') for t in header.split(",")]
    return "*" in tags or str(version) in tags
