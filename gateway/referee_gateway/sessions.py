"""Session routes: server-held games with a secret token per seat.

Who may do what is decided here, from the token alone: a seat token sees and
moves for its own seat; the table token administers the session and, in a
tabletop session, enters moves for any seat and chance outcomes; a spectator
token sees the public view. Every move is a compare-and-set on the version.
"""

import hashlib
import re
import time

from flask import Response, current_app, request

from referee import schemas
from referee.engine import canonical
from referee.errors import (
    BadRequest, Forbidden, IdempotencyConflict, Unauthorized, UnknownSession, VersionConflict,
)
from referee.web import json_response

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_ATTEMPTS = 5  # a move re-validated this often against newer versions, then 412
AUTH = {"name": "Authorization", "in": "header", "required": True,
        "description": "Bearer <seat, table or spectator token>", "schema": {"type": "string"}}


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    route = api.route

    def load(sid):
        if not SESSION_ID.fullmatch(sid):
            raise UnknownSession(f"no session {sid!r}")
        session = store.load(sid)
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("send the session's token as 'Authorization: Bearer <token>'")
        caller = session.identify(token.strip())
        if caller is None:
            raise Unauthorized("this token does not belong to this session")
        return session, caller

    def view_seat(caller):
        return caller.seat if caller.role == "seat" else None

    def summary(session, caller, state, view) -> dict:
        return {"session_id": session.sid, "game": session.game, "mode": session.meta["mode"],
                "version": state["version"], "to_move": state["to_move"],
                "you": {"role": caller.role, "seat": caller.seat}, "view": view}

    @route(app, "/v1/sessions", "POST", summary="Create a session: one token per seat, shown once",
           body=schemas.CreateSessionRequest, answer=schemas.SessionCreated, status=201,
           errors=(400, 404, 422, 503), tag="sessions")
    def create(body):
        game = body.pop("game")
        answer = upstream.call(game, "/v1/new", dict(body, view_as=None))
        state = answer["state"]
        sid, tokens = store.create(game, state)
        created = {
            "session_id": sid, "game": game, "mode": state["mode"],
            "players": state["players"], "version": state["version"],
            "seats": [{"seat": s, "token": tokens[f"seat:{s}"]}
                      for s in range(1, state["players"] + 1)],
            "table_token": tokens["table"], "spectator_token": tokens["spectator"],
            "view": answer["view"],
        }
        return json_response(created, 201, {"Location": f"/v1/sessions/{sid}",
                                            "ETag": f'"{state["version"]}"',
                                            "Cache-Control": "no-store"})

    @route(app, "/v1/sessions/<sid>", "GET", summary="The caller's view of the session",
           answer=schemas.SessionView, errors=(304, 401, 404, 503), params=[AUTH],
           description="ETag is the version; If-None-Match with it answers 304.",
           tag="sessions")
    def show(sid):
        session, caller = load(sid)
        etag = f'"{session.version}"'
        if _matches(request.headers.get("If-None-Match"), session.version):
            return Response(status=304, headers={"ETag": etag})
        view = upstream.call(session.game, "/v1/view",
                             {"state": session.state, "seat": view_seat(caller)})["view"]
        return json_response(summary(session, caller, session.state, view), 200,
                             {"ETag": etag})

    @route(app, "/v1/sessions/<sid>/legal-moves", "GET", summary="The caller's legal moves now",
           answer=schemas.SessionLegalMoves, errors=(401, 403, 404, 503), params=[AUTH],
           tag="sessions")
    def legal_moves(sid):
        session, caller = load(sid)
        if caller.role == "spectator":
            raise Forbidden("a spectator has no moves")
        if caller.role == "table" and session.meta["mode"] != "tabletop":
            raise Forbidden("in a digital session each seat asks with its own token")
        answer = upstream.call(session.game, "/v1/legal-moves",
                               {"state": session.state, "seat": view_seat(caller)})
        return json_response(dict(answer, version=session.version), 200,
                             {"ETag": f'"{session.version}"'})

    @route(app, "/v1/sessions/<sid>/moves", "POST", summary="Play a move",
           body=schemas.MoveRequest, answer=schemas.SessionMoved,
           errors=(400, 401, 403, 404, 409, 412, 422, 503), tag="sessions",
           params=[AUTH, {"name": "If-Match", "in": "header", "required": False,
                          "description": "the version the move was chosen on",
                          "schema": {"type": "string"}},
                   {"name": "Idempotency-Key", "in": "header", "required": False,
                    "description": "a retry with the same key and body is answered once",
                    "schema": {"type": "string", "maxLength": 200}}],
           description="The move's seat may be left out: the token's seat is used. Without "
                       "If-Match a move that lost a race is re-validated on the new position.")
    def move(sid, body):
        if_match = _version_header(request.headers.get("If-Match"))
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 0 < len(key) <= 200:
            raise BadRequest("Idempotency-Key must be 1 to 200 characters")
        fingerprint = hashlib.sha256(canonical(body).encode()).hexdigest()
        for _ in range(MAX_ATTEMPTS):
            session, caller = load(sid)
            idem = None
            if key is not None:
                idem = hashlib.sha256(f"{caller.name}\n{key}".encode()).hexdigest()
                record = store.idempotent_answer(sid, idem)
                if record is not None:
                    if record["fingerprint"] != fingerprint:
                        raise IdempotencyConflict("this Idempotency-Key came with another move")
                    return json_response(record["answer"], 200, {
                        "ETag": f'"{record["answer"]["version"]}"',
                        "Idempotent-Replayed": "true"})
            played = _own_move(session, caller, body["move"])
            if if_match is not None and if_match != session.version:
                raise VersionConflict(f"the session is at version {session.version}, "
                                      f"not {if_match}", current_version=session.version)
            seat = view_seat(caller)
            result = upstream.call(session.game, "/v1/apply", {
                "state": session.state, "move": played, "view_as": seat})
            state = result["state"]
            entry = {"version": state["version"], "move": played, "events": result["events"],
                     "by": caller.name, "at": round(time.time(), 3)}
            answer = dict(summary(session, caller, state, result["view"]),
                          events=result["view_events"])
            record = (idem, {"fingerprint": fingerprint, "answer": answer}) if idem else None
            if store.commit(session, state, entry, record):
                return json_response(answer, 200, {"ETag": f'"{state["version"]}"'})
            if if_match is not None:  # the client chose its move on a version now gone
                current = store.load(sid).version
                raise VersionConflict(f"another move landed first; the session is at "
                                      f"version {current}", current_version=current)
        raise VersionConflict("the session is too busy; fetch it and try again",
                              current_version=store.load(sid).version)

    @route(app, "/v1/sessions/<sid>/score", "GET", summary="Scores, breakdown and ranking",
           answer=schemas.ScoreAnswer, errors=(401, 404, 503), params=[AUTH], tag="sessions")
    def score(sid):
        session, _ = load(sid)
        return json_response(upstream.call(session.game, "/v1/score", {"state": session.state}))

    @route(app, "/v1/sessions/<sid>/log", "GET", summary="Moves and events since a version",
           answer=schemas.SessionLog, errors=(400, 401, 404, 503), tag="sessions",
           params=[AUTH, {"name": "since", "in": "query", "required": False,
                          "description": "only entries after this version (default 0)",
                          "schema": {"type": "integer", "minimum": 0}}])
    def session_log(sid):
        session, caller = load(sid)
        since = request.args.get("since", "0")
        if not since.isdigit() or len(since) > 12:
            raise BadRequest("since must be a non-negative integer version")
        entries = store.log(sid, int(since))
        if entries:
            entries = upstream.call(session.game, "/v1/view-log",
                                    {"entries": entries, "seat": view_seat(caller)})["entries"]
        return json_response({"version": session.version, "entries": entries})

    @route(app, "/v1/sessions/<sid>", "DELETE", summary="End and remove the session (table token)",
           errors=(401, 403, 404, 503), params=[AUTH], status=204, tag="sessions")
    def delete(sid):
        session, caller = load(sid)
        if caller.role != "table":
            raise Forbidden("only the table token ends a session")
        store.delete(sid)
        current_app.logger.info("session %s deleted", sid)
        return Response(status=204)


def _own_move(session, caller, move: dict) -> dict:
    """The move as this token may send it (a seat's own seat filled in), or 403."""
    move = dict(move)
    if caller.role == "spectator":
        raise Forbidden("a spectator token cannot move")
    if caller.role == "table":
        if session.meta["mode"] != "tabletop":
            raise Forbidden("in a digital session each seat moves with its own token; "
                            "the table token moves only in tabletop sessions")
        if "seat" not in move:
            raise BadRequest('with the table token a move names its seat (or "chance")')
        return move
    move.setdefault("seat", caller.seat)
    if not (type(move["seat"]) is int and move["seat"] == caller.seat):
        raise Forbidden(f"this token moves for seat {caller.seat} only")
    return move


def _version_header(value: str | None) -> int | None:
    if value is None:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or len(text) > 12:
        raise BadRequest("If-Match must be a session version, e.g. If-Match: \"12\"")
    return int(text)


def _matches(header: str | None, version: int) -> bool:
    if not header:
        return False
    tags = [t.strip().removeprefix("W/").strip('"') for t in header.split(",")]
    return "*" in tags or str(version) in tags
